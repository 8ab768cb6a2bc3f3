"""BasisVectorForcer: present e_1, ..., e_n and answer against the prediction."""

from __future__ import annotations

from typing import Any

from attrs import define

from mistakebound.adversaries._labels import legal_against
from mistakebound.game import GameState
from mistakebound.hypothesis_class import HypothesisClass
from mistakebound.players import Adversary

__all__ = ["BasisVectorForcer", "basis_vectors"]


def basis_vectors(H: HypothesisClass) -> list[tuple[int, ...]] | None:
    """The unit vectors e_1..e_n of a domain of 0/1 tuples of length n, or None if absent."""
    first = H.domain[0] if H.n_instances else None
    if not isinstance(first, tuple) or not first:
        return None
    n = len(first)
    vectors = [tuple(int(i == j) for j in range(n)) for i in range(n)]
    return vectors if all(e in H for e in vectors) else None


@define
class BasisVectorForcer(Adversary):
    """Presents the basis vectors e_1, ..., e_n in order, labelling against the prediction.

    It applies to classes whose domain is made of 0/1 tuples of one length ``n`` and
    holds every basis vector.  On monotone disjunctions every labeling of the basis
    vectors is realised (the disjunction of the variables labelled 1), so every
    deterministic learner makes ``n`` mistakes, the lower bound matching the
    elimination algorithm's ``n`` (mistake-bound lecture notes).  On other such
    classes it answers against the prediction whenever that stays realizable and with
    the only legal label otherwise.

    Examples
    --------
    >>> from mistakebound import classes, play
    >>> from mistakebound.learners import Halving
    >>> H = classes.monotone_disjunctions(4)
    >>> play(Halving(H), BasisVectorForcer(), H, rounds=10, seed=0).mistakes
    4
    """

    def applies_to(self, H: HypothesisClass) -> bool:
        return basis_vectors(H) is not None

    def next_instance(self, state: GameState) -> Any:
        vectors = basis_vectors(state.H)
        i = state.t - 1
        return vectors[i] if i < len(vectors) else None

    def label(self, state: GameState, x: Any, p: float) -> int:
        return legal_against(state, x, p)
