"""The theory: exact searches over one budget type and one result shape.

* :mod:`~mistakebound.theory.littlestone` (and :mod:`~mistakebound.theory.parallel`):
  the Littlestone dimension and shattered trees;
* :mod:`~mistakebound.theory.vc`: the VC dimension;
* :mod:`~mistakebound.theory.randomized`: the randomized Littlestone dimension;
* :mod:`~mistakebound.theory.worst_case`: a learner's exact worst case ``M_A(H)``.

It imports the game and the foundations, never verification or the interfaces.
"""

__all__: list[str] = []
