"""The theorems of the textbook chapter as properties of played games.

Upper bounds: every realizable learner, against every adversary that applies, makes
at most its proven number of mistakes.  Lower bounds: the forcing adversaries force
their counts on every deterministic learner.  Tightness: the exercises' classes.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mistakebound import HypothesisClass, littlestone_dimension, play
from mistakebound.game import classes
from mistakebound.adversaries import (
    BasisVectorForcer,
    BinarySearchThreshold,
    ObliviousCoin,
    OppositeLabel,
    ShatteredTreeWalker,
)
from mistakebound.learners import SOA, Consistent, Halving
from tests.players import FINITE_ADVERSARIES, FINITE_LEARNERS
from tests.strategies import hypothesis_classes


ZOO = [
    classes.thresholds(15),
    classes.thresholds(20),
    classes.intervals(7),
    classes.singletons(9),
    classes.singletons(5, include_empty=True),
    classes.monotone_disjunctions(4),
    classes.monotone_conjunctions(3),
    classes.disjunctions(2),
    classes.projections(6),
    classes.parities(3),
    classes.power_set(4),
    classes.k_sparse(6, 2),
    classes.random(30, 7, 0.4, seed=5),
]


def rounds_for(H: HypothesisClass) -> int:
    return H.n_hypotheses + H.n_instances + 3


def applicable(H):
    return [A for A in FINITE_ADVERSARIES if A().applies_to(H)]


# ------------------------------------------------------------------ upper bounds
@settings(max_examples=120, deadline=None)
@given(hypothesis_classes(max_rows=12, max_cols=6, min_cols=1), st.integers(0, 2**31 - 1))
def test_every_learner_meets_its_bound_on_generated_classes(H, seed):
    for L in FINITE_LEARNERS:
        bound = L(H).bound(H).value
        for A in applicable(H):
            T = play(L(H), A(), H, rounds=rounds_for(H), seed=seed)
            assert T.mistakes <= bound, (L.__name__, A.__name__, H.matrix.tolist(), seed)


@pytest.mark.parametrize("H", ZOO, ids=lambda H: H.describe())
def test_every_learner_meets_its_bound_on_the_zoo(H):
    for L in FINITE_LEARNERS:
        bound = L(H).bound(H).value
        for A in applicable(H):
            for seed in range(3):
                assert play(L(H), A(), H, rounds=rounds_for(H), seed=seed).mistakes <= bound


# ------------------------------------------------------------------ lower bounds
@settings(max_examples=120, deadline=None)
@given(hypothesis_classes(max_rows=12, max_cols=6))
def test_tree_walker_forces_exactly_ldim_on_deterministic_learners(H):
    d = littlestone_dimension(H)
    for L in FINITE_LEARNERS:
        T = play(L(H), ShatteredTreeWalker(), H, rounds=d + 5, seed=0)
        assert T.mistakes == d == len(T)  # >= by Lemma 21.6; a walk has only d rounds


from tests.players import VoteFraction  # noqa: E402

@settings(max_examples=80, deadline=None)
@given(hypothesis_classes(max_rows=12, max_cols=6), st.integers(0, 1000))
def test_tree_walker_forces_half_ldim_in_expectation_on_randomized_learners(H, seed):
    d = littlestone_dimension(H)
    T = play(VoteFraction(H), ShatteredTreeWalker(), H, rounds=d + 1, seed=seed)
    assert T.expected_mistakes >= d / 2
    assert all(r.expected_mistake >= 0.5 for r in T.rounds)


@pytest.mark.parametrize("n", [1, 2, 3, 5, 6])
def test_basis_vector_forcer_forces_n_on_monotone_disjunctions(n):
    H = classes.monotone_disjunctions(n)
    for L in FINITE_LEARNERS:
        assert play(L(H), BasisVectorForcer(), H, rounds=3 * n, seed=0).mistakes == n


@pytest.mark.parametrize("N", [1, 2, 3, 6, 7, 8, 31, 32, 100])
def test_binary_search_forces_floor_log2_on_thresholds(N):
    H = classes.thresholds(N)
    forced = math.floor(math.log2(N + 1))
    for L in FINITE_LEARNERS:
        T = play(L(H), BinarySearchThreshold(), H, rounds=2 * N + 2, seed=0)
        assert T.mistakes >= forced
        if L in (Halving, SOA):  # their own bounds, log2(N + 1) and Ldim, meet the forced count
            assert T.mistakes == forced


def test_binary_search_presents_the_midpoint():
    H = classes.thresholds(15)
    T = play(Halving(H), BinarySearchThreshold(), H, rounds=1, seed=0)
    assert T.rounds[0].x == 8  # thresholds a = 1..16 in doubt; x = 8 leaves 8 on each side


# ------------------------------------------------------------------ tightness (exercises)
@pytest.mark.parametrize("d", [2, 3, 5, 9])
def test_consistent_is_tight_at_size_minus_one(d):
    """Exercise 1: singletons with the empty hypothesis last; Consistent errs |H| - 1 times."""
    H = classes.singletons(d, include_empty=True)
    T = play(Consistent(H), OppositeLabel(), H, rounds=3 * d, seed=0)
    assert T.mistakes == H.n_hypotheses - 1 == Consistent(H).bound(H).value


@pytest.mark.parametrize("d", [2, 3, 8, 64])
def test_halving_makes_one_mistake_on_singletons(d):
    """Exercise 3: M_Halving(singletons) = 1; every adversary here gets at most 1."""
    H = classes.singletons(d)
    worst = max(
        play(Halving(H), A(), H, rounds=2 * d, seed=s).mistakes for A in applicable(H) for s in range(3)
    )
    assert worst == 1


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_halving_bound_is_tight_on_power_sets(k):
    """Exercise 2: on all 2^k labelings of k points Halving can be forced log2 |H| = k times."""
    H = classes.power_set(k)
    assert play(Halving(H), OppositeLabel(), H, rounds=4 * k, seed=0).mistakes == k == Halving(H).bound(H).value


def test_soa_never_exceeds_ldim_where_halving_exceeds_it():
    """Halving is not optimal: on some small class an adversary pushes it above Ldim,
    while SOA stays within Ldim on the same games (Corollary 21.8)."""
    rng = np.random.default_rng(0)
    found = None
    for _ in range(400):
        M = (rng.random((rng.integers(3, 9), rng.integers(2, 5))) < 0.5).astype(np.uint8)
        H = HypothesisClass.from_matrix(M)
        d = littlestone_dimension(H)
        worst = max(play(Halving(H), A(), H, rounds=20, seed=0).mistakes for A in applicable(H))
        assert max(play(SOA(H), A(), H, rounds=20, seed=0).mistakes for A in applicable(H)) <= d
        if worst > d:
            found = H
            break
    assert found is not None, "expected some small class where an adversary pushes Halving above Ldim"


# ------------------------------------------------------------------ unrealizable
@pytest.mark.parametrize("T_rounds", [1, 10, 101])
def test_cover_every_deterministic_learner_has_regret_at_least_half(T_rounds):
    H = HypothesisClass.from_matrix([[0, 0, 0], [1, 1, 1]])
    for L in FINITE_LEARNERS:
        T = play(L(H), OppositeLabel(), H, rounds=T_rounds, seed=0, realizable=False)
        assert T.mistakes == T_rounds
        assert T.regret >= T_rounds / 2


@settings(max_examples=60, deadline=None)
@given(hypothesis_classes(max_rows=8, max_cols=5, min_cols=1), st.integers(0, 10_000))
def test_adaptive_adversaries_stay_legal_against_any_learner(H, seed):
    """Whatever a learner predicts, the adversaries never break realizability."""

    class Coin:
        def __init__(self, rng):
            self.rng = rng

        def predict_proba_one(self, x):
            return float(self.rng.random())

        def learn_one(self, x, y):
            pass

    for A in applicable(H):
        T = play(Coin(np.random.default_rng(seed)), A(), H, rounds=rounds_for(H), seed=seed)
        assert T.version_space, A.__name__


def test_oblivious_coin_target_mode_is_realizable_and_coin_mode_is_not_checked():
    H = classes.thresholds(10)
    T = play(SOA(H), ObliviousCoin(labels="target"), H, rounds=50, seed=1)
    assert len(T) == 50 and T.version_space
    U = play(SOA(H), ObliviousCoin(), H, rounds=50, seed=1, realizable=False)
    assert len(U) == 50 and U.best_hypothesis_mistakes >= 0
