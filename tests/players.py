"""Players shared by the tests."""

from __future__ import annotations

import numpy as np
from attrs import define, field

from mistakebound import HypothesisClass
from mistakebound.adversaries import (
    BasisVectorForcer,
    BinarySearchThreshold,
    ObliviousCoin,
    OppositeLabel,
    ShatteredTreeWalker,
)
from mistakebound.game.players import Learner
from mistakebound.learners import SOA, Consistent, Halving
from mistakebound.verification.claims import Bound

__all__ = ["FINITE_ADVERSARIES", "FINITE_LEARNERS", "MajorityVote", "PlainVote", "RandomOrderLabels", "VoteFraction"]

#: The realizable learners of finite classes whose claims are closed-form theorems (textbook ch. 21).
FINITE_LEARNERS = (Consistent, Halving, SOA)
#: The adversaries built around finite classes.
FINITE_ADVERSARIES = (OppositeLabel, ShatteredTreeWalker, BinarySearchThreshold, BasisVectorForcer, ObliviousCoin)


@define
class VoteFraction:
    """A randomized learner: p = the fraction of the version space labelling x with 1.

    Its state is the version space (``state_key``), so the exact searches can use it;
    on an empty version space (unrealizable games only) it predicts 1/2.
    """

    H: HypothesisClass
    V: int = field(init=False)

    def __attrs_post_init__(self):
        self.V = self.H.full_mask

    def predict_proba_one(self, x):
        size = self.V.bit_count()
        return (self.V & self.H.column_masks[self.H.index_of(x)]).bit_count() / size if size else 0.5

    def learn_one(self, x, y):
        ones = self.V & self.H.column_masks[self.H.index_of(x)]
        self.V = ones if y else self.V ^ ones

    def state_key(self):
        return self.V


@define
class MajorityVote:
    """A majority vote over the version space (Halving's rule, 1 on a tie) that claims what it is given.

    On ``halving_exceeds_ldim()`` its worst case is 3, so its default claim, 1, is wrong:
    the tests use it to check that no search or front end ever takes a claim as proven.
    ``mistake_bound`` is the old spelling of a claim, kept so that tests can check it is
    never read either.
    """

    H: HypothesisClass
    claim: float = 1
    V: int = field(init=False)

    def __attrs_post_init__(self):
        self.V = self.H.full_mask

    def predict_one(self, x):
        ones = (self.V & self.H.column_masks[self.H.index_of(x)]).bit_count()
        return int(2 * ones >= self.V.bit_count())

    def learn_one(self, x, y):
        ones = self.V & self.H.column_masks[self.H.index_of(x)]
        self.V = ones if y else self.V ^ ones

    def state_key(self):
        return self.V

    def bound(self, setting, *, rounds=None, realizable=True, transcript=None):
        return Bound(self.claim, source="a wrong claim")

    def mistake_bound(self, H=None):
        return self.claim


class PlainVote(Learner):
    """Halving as a user writes it first: a plain class (no attrs), no ``state_key``.

    Its state is set in ``__init__`` from its hyperparameters, kept under their own names.
    """

    def __init__(self, H, tie=1):
        self.H = H
        self.tie = tie
        self.alive = H.full_mask

    def predict_one(self, x):
        column = self.H.column_masks[self.H.index_of(x)]
        ones, size = (self.alive & column).bit_count(), self.alive.bit_count()
        return self.tie if 2 * ones == size else int(2 * ones > size)

    def learn_one(self, x, y):
        column = self.H.column_masks[self.H.index_of(x)]
        self.alive &= column if y else ~column


class RandomOrderLabels:
    """An adversary of every order (issue 24), seeded by the game: it announces the domain shuffled (transductive:
    at most the game's rounds of it), and labels by a random hypothesis consistent with the labels so far."""

    def applies_to(self, H, *, rules=None):
        return True

    def start(self, state):
        self.alive = np.ones(state.H.n_hypotheses, dtype=bool)

    def sequence(self, state):
        order = list(state.rng.permutation(state.H.n_instances))
        domain = state.H.domain
        if state.rounds < state.H.n_instances or not order:
            return [domain[j] for j in order[: state.rounds]]
        return [domain[j] for j in order]

    def label(self, state, x, p):
        rows = np.flatnonzero(self.alive)
        y = int(state.H.matrix[state.rng.choice(rows), state.H.index_of(x)])
        self.alive &= state.H.column(x) == y
        return y
