"""
Cumulative mistakes against the proven bounds
=============================================

Play several learners against one adversary on one class, and draw each learner's
cumulative mistakes with the bound it claims, dashed in the same colour
(:func:`~mistakebound.interfaces.plots.plot_cumulative`).  A learner's claim comes from
its own ``bound`` method (:func:`~mistakebound.stated_bound`), so the figure shows the
theorem next to the game.
"""

from mistakebound import classes, play, stated_bound
from mistakebound.adversaries import ShatteredTreeWalker
from mistakebound.interfaces.plots import plot_cumulative
from mistakebound.learners import SOA, Consistent, Halving

H = classes.thresholds(63)
learners = [SOA(H), Halving(H), Consistent(H)]
transcripts = [play(L, ShatteredTreeWalker(), H, rounds=20, seed=0) for L in learners]
bounds = [stated_bound(L, H) for L in learners]
for L, T, B in zip(learners, transcripts, bounds):
    print(f"{type(L).__name__:>10}: {T.mistakes} mistakes; claims M <= {B.value:g} ({B.source})")

fig = plot_cumulative(transcripts, bounds, "Learners against the shattered-tree walker on thresholds(63)")
