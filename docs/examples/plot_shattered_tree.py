"""
A shattered tree
================

The Littlestone dimension of a class is the depth of the deepest tree it shatters: a
tree whose every root-to-leaf path is labelled consistently by some hypothesis of the
class.  :func:`~mistakebound.shattered_tree` returns one (a ``networkx.DiGraph``), and
:func:`~mistakebound.interfaces.plots.draw_tree` draws it at a paper's width: instances
at the internal nodes, the witness hypotheses at the leaves.

The adversary who walks this tree forces one mistake per level on *any* deterministic
learner, so the depth is a lower bound on mistakes; the Standard Optimal Algorithm (SOA)
meets it.
"""

from mistakebound import classes, littlestone_dimension, shattered_tree
from mistakebound.interfaces.plots import draw_tree

H = classes.thresholds(15)
tree = shattered_tree(H)
print(f"{H.describe()}: Ldim = {littlestone_dimension(H)}")

# %%
# The figure is a plain :class:`matplotlib.figure.Figure`; save it with
# :func:`~mistakebound.interfaces.plots.save_figure` (``.png``, ``.svg`` or ``.pdf``).
fig = draw_tree(tree, H)

# %%
# A deeper tree: thresholds on 1023 points have Ldim 10, too deep for a page; the levels
# that fit are drawn, and each subtree below the cut is a grey triangle, counted in the
# caption.
H2 = classes.thresholds(1023)
fig2 = draw_tree(shattered_tree(H2), H2)
print(f"{H2.describe()}: Ldim = {littlestone_dimension(H2)}")
