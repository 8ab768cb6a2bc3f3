"""
Cumulative mistakes against the proven bounds
=============================================

Play several learners against one adversary on one class, and draw each learner's
cumulative mistakes with the bound it claims, dashed in the same colour
(:func:`~mistakebound.interfaces.plots.plot_cumulative`).  A learner's claim comes from
its own ``bound`` method (:func:`~mistakebound.stated_bound`), so the figure shows the
theorem next to the game.

The adversary answers against the learner's prediction whenever the game stays realizable:
Consistent (it predicts with the lowest-index hypothesis left) reaches its bound
``|H| - 1 = 31`` exactly, while Halving and SOA, whose bounds are ``log2 |H|`` and
``Ldim(H)`` (both 5), lose one round here.
"""

from mistakebound import classes, play, stated_bound
from mistakebound.adversaries import OppositeLabel
from mistakebound.interfaces.plots import plot_cumulative
from mistakebound.learners import SOA, Consistent, Halving

H = classes.thresholds(31)
learners = [SOA(H), Halving(H), Consistent(H)]
transcripts = [play(L, OppositeLabel(), H, rounds=40, seed=0) for L in learners]
bounds = [stated_bound(L, H) for L in learners]
for L, T, B in zip(learners, transcripts, bounds):
    print(f"{type(L).__name__:>10}: {T.mistakes} mistakes; claims M <= {B.value:g} ({B.source})")

fig = plot_cumulative(transcripts, bounds, "Learners against the opposite-label adversary on thresholds(31)")
