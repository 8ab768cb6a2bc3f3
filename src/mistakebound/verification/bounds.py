"""The proven mistake bounds of the realizable finite-class learners, as functions of a class.

Each function takes a :class:`~mistakebound.HypothesisClass` and returns the number a
theorem of the textbook chapter (Shalev-Shwartz and Ben-David, ch. 21) proves as an
upper bound on the mistakes of a learner in every realizable game on that class.
``|H|`` counts rows, duplicates included, as the theorems do.

Examples
--------
>>> from mistakebound import classes
>>> H = classes.singletons(8)
>>> size_minus_one(H), log2_size(H), ldim(H)
(7, 3.0, 1)
"""

from __future__ import annotations

import math

from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.game.hypothesis_class import require_class
from mistakebound.theory.littlestone import littlestone_dimension

__all__ = ["size_minus_one", "log2_size", "ldim"]


def size_minus_one(H: HypothesisClass) -> int:
    """``|H| - 1``: the bound of Consistent (Corollary 21.2)."""
    return require_class(H).n_hypotheses - 1


def log2_size(H: HypothesisClass) -> float:
    """``log2 |H|``: the bound of Halving (Theorem 21.3)."""
    return math.log2(require_class(H).n_hypotheses)


def ldim(H: HypothesisClass) -> int:
    """``Ldim(H)``: the bound of SOA (Lemma 21.7), and the lower bound of every learner (Lemma 21.6)."""
    return littlestone_dimension(require_class(H))
