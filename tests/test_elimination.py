"""DisjunctionElimination (seed 001), and the disjunction adversaries it is played against.

The adversaries (``adversaries/disjunction_stream.py``) are tested here too: the
stream's labels, density and noise, and the adaptive adversary's consistency and the
mistakes it forces.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mistakebound import play
from mistakebound.game import classes
from mistakebound.adversaries.basis_vector_forcer import BasisVectorForcer
from mistakebound.adversaries.disjunction_stream import (
    DisjunctionAdversary,
    DisjunctionStream,
    block_queries,
    cube_dimension,
    half_density,
)
from mistakebound.adversaries.opposite_label import OppositeLabel
from mistakebound.foundations.errors import InvalidArgumentError, NotApplicableError, PlayerError
from mistakebound.learners.elimination import DisjunctionElimination, binary_vector, disjunction_dimensions
from mistakebound.learners.halving import Halving
from mistakebound.learners.soa import SOA
from mistakebound.learners.winnow import Winnow
from mistakebound.game.spaces import KDisjunctionSpace

SETTINGS = settings(max_examples=25, deadline=None)


# ----------------------------------------------------------------------- the learner
def test_elimination_follows_the_lecture_rule():
    L = DisjunctionElimination(5)
    assert L.hypothesis == (0, 1, 2, 3, 4)
    assert L.predict_one((0, 0, 0, 0, 0)) == 0
    assert L.predict_one((0, 1, 0, 0, 0)) == 1
    L.learn_one((0, 1, 1, 0, 0), 1)  # correct: nothing changes
    assert L.hypothesis == (0, 1, 2, 3, 4)
    L.learn_one((0, 1, 1, 0, 0), 0)  # false positive: drop x1 and x2
    assert L.hypothesis == (0, 3, 4)
    L.learn_one((0, 1, 1, 0, 0), 1)  # false negative (only in unrealizable games): nothing to drop
    assert L.hypothesis == (0, 3, 4)
    L.learn_one(np.array([1, 1, 0, 0, 1], dtype=np.uint8), 0)
    assert L.hypothesis == (3,)


def test_dimension_is_inferred_and_checked():
    L = DisjunctionElimination()
    assert L.hypothesis is None
    assert L.predict_one([1, 0, 0]) == 1
    assert L.hypothesis == (0, 1, 2)
    with pytest.raises(InvalidArgumentError, match="length n = 3"):
        L.predict_one((1, 0))
    with pytest.raises(InvalidArgumentError, match="n: expected"):
        DisjunctionElimination(0)
    with pytest.raises(InvalidArgumentError):
        binary_vector((0.5, 1))
    with pytest.raises(InvalidArgumentError):
        binary_vector(())
    with pytest.raises(InvalidArgumentError):
        binary_vector([[0, 1]])
    assert binary_vector(np.array([True, False])).tolist() == [True, False]


def test_bound_and_dimensions():
    claim = DisjunctionElimination().bound(KDisjunctionSpace(1000, 3))
    assert (claim.value, claim.measure) == (1000, "mistakes") and "seed 001" in claim.source
    assert DisjunctionElimination().bound(classes.monotone_disjunctions(6)).value == 6
    assert disjunction_dimensions(classes.monotone_disjunctions(3)) == (3, 3)
    with pytest.raises(InvalidArgumentError, match="H"):
        disjunction_dimensions(classes.thresholds(4))


def test_claim_is_none_with_a_reason_off_monotone_disjunctions_or_under_noise():
    cases = {
        "realizable": DisjunctionElimination().bound(KDisjunctionSpace(10, 2), realizable=False),
        "plays on monotone disjunctions": DisjunctionElimination().bound(classes.thresholds(4)),
        "not a monotone disjunction": DisjunctionElimination().bound(classes.parities(3)),
        "built for n = 4": DisjunctionElimination(4).bound(KDisjunctionSpace(5, 2)),
    }
    for word, claim in cases.items():
        assert claim.value is None and word in claim.reason, (word, claim.reason)
    # the conjunctions' class also holds non-disjunctions (the constant 1 on the zero vector)
    assert DisjunctionElimination().bound(classes.monotone_conjunctions(3)).value is None


def test_for_setting_reads_n_from_the_setting():
    assert DisjunctionElimination.for_setting(KDisjunctionSpace(50, 3)).n == 50
    assert DisjunctionElimination.for_setting(classes.monotone_disjunctions(4)).n == 4
    for setting in (classes.thresholds(3), classes.singletons(3)):
        with pytest.raises(NotApplicableError, match="DisjunctionElimination plays on"):
            DisjunctionElimination.for_setting(setting)


@SETTINGS
@given(n=st.integers(1, 60), data=st.data(), seed=st.integers(0, 2**16))
def test_realizable_games_keep_the_target_and_err_at_most_n_times(n, data, seed):
    k = data.draw(st.integers(0, n))
    density = data.draw(st.sampled_from([None, 0.1, 0.5]))
    adversary = data.draw(st.sampled_from(["stream", "adaptive"]))
    A = DisjunctionStream(density=density) if adversary == "stream" else DisjunctionAdversary()
    L = DisjunctionElimination()
    T = play(L, A, KDisjunctionSpace(n, k), rounds=100, seed=seed)
    assert T.mistakes <= n
    assert set(T.target) <= set(L.hypothesis or range(n))  # the target's variables are never dropped
    assert all(r.prediction == 1 for r in T.rounds if r.mistake)  # only false positives
    # conservative: replaying the rounds, the hypothesis changes exactly on the mistakes
    R = DisjunctionElimination(n)
    for r in T.rounds:
        before = R.hypothesis
        R.learn_one(r.x, r.y)
        assert (R.hypothesis != before) == r.mistake
    # every mistake removes a variable: n minus the survivors bounds the mistakes
    assert T.mistakes <= n - len(R.hypothesis)


@pytest.mark.parametrize("n", [1, 3, 6, 8])
def test_basis_vectors_force_n_mistakes_on_the_finite_class(n):
    H = classes.monotone_disjunctions(n)
    T = play(DisjunctionElimination(), BasisVectorForcer(), H, rounds=2 * n, seed=0)
    assert T.mistakes == n == DisjunctionElimination().bound(H).value  # the bound is tight


def test_finite_class_worst_cases_reach_n_and_never_exceed_it():
    for n in range(1, 7):
        H = classes.monotone_disjunctions(n)
        for A in (OppositeLabel(), DisjunctionAdversary(), DisjunctionStream()):
            T = play(DisjunctionElimination(), A, H, rounds=100, seed=n)
            assert T.mistakes <= n
        assert play(DisjunctionElimination(), DisjunctionAdversary(), H, rounds=100, seed=0).mistakes == n


def test_n_1000_games():
    S = KDisjunctionSpace(1000, 3)
    for A in (DisjunctionStream(), DisjunctionAdversary(), BasisVectorForcer()):
        T = play(DisjunctionElimination(), A, S, rounds=250, seed=11)
        assert T.mistakes <= 1000
    T = play(DisjunctionElimination(), DisjunctionAdversary(k=1000), KDisjunctionSpace(1000, 1000), rounds=1000, seed=0)
    assert T.mistakes == 1000  # k = n blocks of one variable: the basis vector lower bound


# -------------------------------------------------------------------- the stream
def test_half_density_and_cube_dimension():
    for k in range(1, 12):
        assert 1 - (1 - half_density(k)) ** k == pytest.approx(0.5)
    assert half_density(0) == 0.5
    with pytest.raises(InvalidArgumentError):
        half_density(-1)
    assert cube_dimension(KDisjunctionSpace(7, 2)) == 7
    assert cube_dimension(classes.monotone_disjunctions(4)) == 4
    assert cube_dimension(classes.thresholds(4)) is None
    assert cube_dimension(classes.parities(3)) == 3


def test_stream_labels_follow_the_target_and_about_half_are_positive():
    S = KDisjunctionSpace(1000, 3)
    T = play(DisjunctionElimination(), DisjunctionStream(), S, rounds=2000, seed=4)
    target = T.target
    assert len(target) == 3 and T.best_hypothesis_mistakes == 0
    assert all(r.y == int(any(r.x[i] for i in target)) for r in T.rounds)
    share = sum(T.ys) / len(T)
    assert 0.45 < share < 0.55  # P(OR of 3) = 1/2 at the default density, 2000 draws
    ones = np.mean([sum(r.x) for r in T.rounds[:200]]) / 1000
    assert ones == pytest.approx(half_density(3), abs=0.01)


def test_stream_is_oblivious_and_reproducible():
    S = KDisjunctionSpace(50, 2)
    T1 = play(DisjunctionElimination(), DisjunctionStream(), S, rounds=30, seed=9)
    T2 = play(Winnow(), DisjunctionStream(), S, rounds=30, seed=9)
    assert T1.xs == T2.xs and T1.ys == T2.ys and T1.target == T2.target


@SETTINGS
@given(noise=st.floats(0, 1), rounds=st.integers(1, 200), seed=st.integers(0, 2**16))
def test_stream_flips_exactly_the_noise_fraction(noise, rounds, seed):
    S = KDisjunctionSpace(30, 2)
    T = play(DisjunctionElimination(), DisjunctionStream(noise=noise), S, rounds=rounds, seed=seed, realizable=False)
    wrong = sum(r.y != int(any(r.x[i] for i in T.target)) for r in T.rounds)
    assert wrong == round(noise * rounds) == T.best_hypothesis_mistakes


def test_stream_on_the_finite_class_presents_tuples_and_stays_in_the_version_space():
    H = classes.monotone_disjunctions(6)
    for k in (0, 2, 6):
        T = play(DisjunctionElimination(), DisjunctionStream(k=k), H, rounds=60, seed=k)
        assert all(isinstance(x, tuple) and len(x) == 6 for x in T.xs)
        assert len(T.version_space) >= 1
        names = {H.names[i] for i in T.version_space}
        assert len(names) >= 1


def test_stream_parameters_and_applicability():
    for bad in (dict(noise=-0.1), dict(noise=1.5), dict(density=2.0), dict(n=-1), dict(k=1.5), dict(noise="x")):
        with pytest.raises(InvalidArgumentError):
            DisjunctionStream(**bad)
    assert not DisjunctionStream(n=5).applies_to(KDisjunctionSpace(6, 2))
    assert not DisjunctionStream(k=3).applies_to(KDisjunctionSpace(6, 2))
    assert DisjunctionStream(n=6, k=2).applies_to(KDisjunctionSpace(6, 2))
    assert not DisjunctionStream().applies_to(classes.thresholds(5))
    with pytest.raises(NotApplicableError):
        play(DisjunctionElimination(), DisjunctionStream(n=5), KDisjunctionSpace(6, 2), rounds=3, seed=0)
    with pytest.raises(PlayerError, match="noise"):
        play(DisjunctionElimination(), DisjunctionStream(noise=0.2), KDisjunctionSpace(6, 2), rounds=3, seed=0)


def test_stream_refuses_a_class_without_its_target():
    H = classes.parities(3)  # over {0,1}^3 but holds no disjunction of 2 variables
    assert not DisjunctionStream(k=2).applies_to(H)
    with pytest.raises(NotApplicableError, match="does not apply to parities"):
        play(DisjunctionElimination(), DisjunctionStream(k=2), H, rounds=5, seed=0)


# -------------------------------------------------------------- the adaptive adversary
def test_block_queries_recursion_by_hand():
    assert [block_queries(m) for m in range(0, 5)] == [0, 1, 1, 2, 2]
    assert block_queries(1, True) == 0 and block_queries(2, True) == 1
    for m in range(1, 300):
        assert math.floor(math.log2(m)) <= block_queries(m) <= math.floor(math.log2(m)) + 1


def brute_force_queries(m):
    """Independent check of block_queries: simulate the adversary's halving on every label path."""
    best = None
    for path in itertools.product((0, 1), repeat=2 * m.bit_length() + 2):
        c, required, q = m, False, 0
        for y in path:
            if c == 0 or (required and c == 1):
                break
            half = math.ceil(c / 2)
            c, required = (half, True) if y else (c - half, required)
            q += 1
        else:
            continue
        best = q if best is None else min(best, q)
    return best


def test_block_queries_against_path_enumeration():
    for m in range(1, 12):
        assert block_queries(m) == brute_force_queries(m)


@SETTINGS
@given(n=st.integers(1, 120), data=st.data(), seed=st.integers(0, 2**16))
def test_adaptive_adversary_labels_are_certified_and_queries_are_all_mistakes(n, data, seed):
    k = data.draw(st.integers(0, min(n, 8)))
    S = KDisjunctionSpace(n, k)
    A = DisjunctionAdversary()
    learner = data.draw(st.sampled_from([DisjunctionElimination, Winnow]))()
    T = play(learner, A, S, rounds=120, seed=seed)  # the engine checks every label against the target
    assert len(T.target) <= k
    assert all(r.mistake for r in T.rounds[: A.queries])  # every halving query is answered against
    assert A.queries >= A.forced_mistakes(S)
    assert T.mistakes >= A.forced_mistakes(S)


def test_adaptive_adversary_on_the_finite_class_forces_n_on_every_learner():
    for n in range(1, 6):
        H = classes.monotone_disjunctions(n)
        for L in (Halving(H), SOA(H), DisjunctionElimination(), Winnow()):
            T = play(L, DisjunctionAdversary(), H, rounds=60, seed=n)
            assert T.mistakes >= n == DisjunctionAdversary().forced_mistakes(H)
        T = play(SOA(H), DisjunctionAdversary(), H, rounds=60, seed=0)
        assert T.mistakes == n  # SOA meets Ldim = n exactly


def test_adaptive_adversary_unrealizable_answers_against_every_round():
    T = play(Winnow(), DisjunctionAdversary(), KDisjunctionSpace(20, 2), rounds=50, seed=0, realizable=False)
    assert T.mistakes == 50


def test_adaptive_adversary_applicability_and_parameters():
    assert DisjunctionAdversary().applies_to(KDisjunctionSpace(10, 3))
    assert not DisjunctionAdversary(k=4).applies_to(KDisjunctionSpace(10, 3))
    assert DisjunctionAdversary(k=2).blocks(KDisjunctionSpace(10, 3)) == 2
    assert not DisjunctionAdversary().applies_to(classes.thresholds(3))
    with pytest.raises(InvalidArgumentError):
        DisjunctionAdversary(k=-1)
    S = KDisjunctionSpace(16, 0)  # the empty target only: nothing to query, labels all 0
    T = play(Winnow(), DisjunctionAdversary(), S, rounds=30, seed=0)
    assert T.target == () and set(T.ys) == {0}
