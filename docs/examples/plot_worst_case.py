"""
A worst-case line: the adversary's optimal play
===============================================

:func:`~mistakebound.worst_case_mistakes` computes a learner's exact worst case
``M_A(H)``: the most mistakes any adaptive, realizable adversary forces.  Its
``strategy`` is the adversary's optimal line, which
:func:`~mistakebound.interfaces.plots.draw_strategy` draws one node per round, the edges
of forced mistakes in red.

On the class built by :func:`mistakebound.game.counterexamples.halving_exceeds_ldim`,
Halving (majority vote) errs three times although the Littlestone dimension is two: the
Halving algorithm is not optimal, SOA is.
"""

from mistakebound import littlestone_dimension, worst_case_mistakes
from mistakebound.game.counterexamples import halving_exceeds_ldim
from mistakebound.interfaces.plots import draw_strategy
from mistakebound.learners import SOA, Halving

G = halving_exceeds_ldim()
halving = worst_case_mistakes(Halving(G), G)
soa = worst_case_mistakes(SOA(G), G)
print(f"Ldim = {littlestone_dimension(G)}; M_Halving = {halving.value}; M_SOA = {soa.value}")

fig = draw_strategy(halving.strategy, G, learner="Halving")

# %%
# SOA's worst case meets the Littlestone dimension:
fig2 = draw_strategy(soa.strategy, G, learner="SOA")
