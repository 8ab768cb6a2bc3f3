"""Each realizable learner predicts exactly as its textbook definition says, round by round.

The expected predictions are computed here from the definitions, with the plain
textbook recursion as the Ldim oracle, over games on generated classes.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from mistakebound.theory.textbook import textbook_ldim
from mistakebound import HypothesisClass, play
from mistakebound.game import classes
from mistakebound.adversaries import ObliviousCoin, OppositeLabel
from mistakebound.learners import SOA, Consistent, Halving
from tests.strategies import hypothesis_classes


def consistent_rows(H: HypothesisClass, rounds) -> np.ndarray:
    keep = np.ones(H.n_hypotheses, dtype=bool)
    for r in rounds:
        keep &= H.column(r.x) == r.y
    return np.flatnonzero(keep)


def oracle_ldim(M: np.ndarray) -> int:
    if M.shape[0] == 0:
        return -1
    return textbook_ldim(M) if M.shape[1] else 0


def expected(learner: str, H: HypothesisClass, V: np.ndarray, x) -> int:
    col = H.column(x)[V]
    if learner == "Consistent":
        return int(col[0]) if V.size else 1
    if learner == "Halving":
        return int(2 * col.sum() >= V.size)
    l1 = oracle_ldim(H.matrix[V[col == 1]])
    l0 = oracle_ldim(H.matrix[V[col == 0]])
    return 0 if l0 > l1 else 1  # SOA: larger Ldim, tie -> 1


@settings(max_examples=150, deadline=None)
@given(hypothesis_classes(max_rows=10, max_cols=5, min_cols=1), st.integers(0, 1000), st.booleans())
def test_predictions_follow_the_definitions(H, seed, adaptive):
    adversary = OppositeLabel() if adaptive else ObliviousCoin()
    for L in (Consistent, Halving, SOA):
        T = play(L(H), adversary, H, rounds=12, seed=seed)
        for t, r in enumerate(T.rounds):
            V = consistent_rows(H, T.rounds[:t])
            assert r.prediction == expected(L.__name__, H, V, r.x), (L.__name__, t, H.matrix.tolist())


def test_ties_go_to_one():
    H = classes.singletons(2)  # on x = 1: one hypothesis says 1, one says 0, both of Ldim 0
    assert Halving(H).predict_one(1) == 1
    assert SOA(H).predict_one(1) == 1
    G = HypothesisClass.from_matrix([[0], [1]])
    assert Consistent(G).predict_one(0) == 0  # the first row, not a tie rule
    assert Consistent(HypothesisClass.from_matrix([[1], [0]])).predict_one(0) == 1


def test_clones_are_fresh_and_independent():
    H = classes.thresholds(7)
    for L in (Consistent, Halving, SOA):
        a = L(H)
        a.learn_one(4, 1)
        b = a.clone()
        assert b.H is H
        assert [b.predict_one(x) for x in H.domain] == [L(H).predict_one(x) for x in H.domain]
        b.learn_one(2, 0)
        assert [a.predict_one(x) for x in H.domain] != [b.predict_one(x) for x in H.domain] or L is Consistent


def test_stated_bounds_are_the_theorems():
    H = classes.k_sparse(6, 2)
    assert Consistent(H).bound(H).value == H.n_hypotheses - 1
    assert Halving(H).bound(H).value == np.log2(H.n_hypotheses)
    assert SOA(H).bound(H).value == 2
