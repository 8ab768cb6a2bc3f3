"""The adversaries of linear and disjunction games: basis vectors, midpoints, separable streams.

Counts are checked against closed forms, certificates against independent
computations from the transcript, and the midpoint adversary's stopping rule against
a brute-force search over thresholds.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from attrs import define, field
from hypothesis import given, settings
from hypothesis import strategies as st

from mistakebound import play
from mistakebound.game import classes
from mistakebound.adversaries.basis_vector_forcer import BasisVectorForcer, linear_forced_count
from mistakebound.adversaries.midpoint import MidpointAdversary, guaranteed_rounds
from mistakebound.adversaries.separable_stream import SeparableStream
from mistakebound.foundations.errors import InvalidArgumentError, NotApplicableError, PlayerError
from mistakebound.learners import Halving
from mistakebound.learners.perceptron import Perceptron
from mistakebound.game.players import Learner
from mistakebound.verification.selfcheck import run_check
from mistakebound.game.spaces import ExpertAdvice, KDisjunctionSpace, LinearSpace

FAST = settings(max_examples=30, deadline=None)


@define
class NearestNeighbour(Learner):
    """A second deterministic learner: the label of the nearest instance seen (1 before any)."""

    _seen: list = field(init=False, factory=list, repr=False)

    def predict_one(self, x):
        if not self._seen:
            return 1
        x = np.asarray(x, dtype=float)
        return min(self._seen, key=lambda s: float(np.linalg.norm(s[0] - x)))[1]

    def learn_one(self, x, y):
        self._seen.append((np.array(x, dtype=float), int(y)))


@define
class AlwaysZero(Learner):
    def predict_one(self, x):
        return 0

    def learn_one(self, x, y):
        pass


# ---------------------------------------------------------------------- BasisVectorForcer on spaces
def test_forcer_applies_to_each_kind_of_H():
    f = BasisVectorForcer()
    assert f.applies_to(classes.monotone_disjunctions(3))
    assert not f.applies_to(classes.thresholds(4))
    assert f.applies_to(LinearSpace(3)) and f.applies_to(LinearSpace(3, R=1.0, gamma=0.5))
    assert f.applies_to(KDisjunctionSpace(100, 4))
    assert not f.applies_to(ExpertAdvice(3))
    with pytest.raises(NotApplicableError):
        play(Perceptron(), f, ExpertAdvice(3), rounds=3, seed=0)


@FAST
@given(d=st.integers(1, 25), j=st.integers(1, 30), frac=st.floats(0.0, 0.99), R=st.floats(0.1, 5.0),
       learner=st.sampled_from([Perceptron, NearestNeighbour, AlwaysZero]))
def test_forcer_on_halfspaces_forces_min_d_floor_of_R_over_gamma_squared(d, j, frac, R, learner):
    gamma = R / math.sqrt(j + frac)  # (R/gamma)^2 = j + frac, whose floor is j
    S = LinearSpace(d, R=R, gamma=gamma)
    k = min(d, j)
    T = play(learner(), BasisVectorForcer(), S, rounds=d + 3, seed=0)
    assert linear_forced_count(S) == k
    assert T.mistakes == len(T) == k
    for i, r in enumerate(T.rounds):  # R e_i in order
        assert r.x == tuple(R if c == i else 0.0 for c in range(d))
    # the certificate: sum_i y_i e_i / sqrt(k) with y_i the +/-1 labels given; margin R / sqrt(k) >= gamma
    expected = [(1.0 if r.y == 1 else -1.0) / math.sqrt(k) for r in T.rounds] + [0.0] * (d - k)
    np.testing.assert_allclose(T.comparator, expected)
    assert R / math.sqrt(k) >= gamma * (1 - 1e-9)


def test_forcer_without_margin_presents_every_basis_vector_and_reveals_a_unit_comparator():
    T = play(NearestNeighbour(), BasisVectorForcer(), LinearSpace(5), rounds=20, seed=0)
    assert T.mistakes == len(T) == 5
    assert np.linalg.norm(T.comparator) == pytest.approx(1.0)
    assert T.gamma == pytest.approx(1 / math.sqrt(5))  # the comparator's normalised margin


def test_forcer_cut_by_the_horizon_still_certifies():
    T = play(Perceptron(), BasisVectorForcer(), LinearSpace(9, R=1.0, gamma=0.1), rounds=3, seed=0)
    assert T.mistakes == 3
    np.testing.assert_allclose(T.comparator, [-1 / math.sqrt(3)] * 3 + [0.0] * 6)


def test_forcer_presents_nothing_when_the_margin_exceeds_the_radius():
    S = LinearSpace(4, R=1.0, gamma=1.5)
    assert linear_forced_count(S) == 0
    assert len(play(Perceptron(), BasisVectorForcer(), S, rounds=5, seed=0)) == 0


@FAST
@given(n=st.integers(1, 300), k=st.integers(0, 12), learner=st.sampled_from([Perceptron, NearestNeighbour, AlwaysZero]))
def test_forcer_on_k_disjunctions_forces_k_and_reveals_the_ones(n, k, learner):
    k = min(k, n)
    T = play(learner(), BasisVectorForcer(), KDisjunctionSpace(n, k), rounds=n + 2, seed=0)
    assert T.mistakes == len(T) == k
    assert [r.x.index(1) for r in T.rounds] == list(range(k))
    assert T.target == tuple(i for i, r in enumerate(T.rounds) if r.y == 1)
    assert T.best_hypothesis_mistakes == 0


def test_forcer_against_always_zero_on_disjunctions_targets_the_first_k_variables():
    T = play(AlwaysZero(), BasisVectorForcer(), KDisjunctionSpace(1000, 4), rounds=10, seed=0)
    assert T.target == (0, 1, 2, 3) and T.mistakes == 4


# ---------------------------------------------------------------------- MidpointAdversary
def _threshold_of(T):
    u = np.array(T.comparator)
    assert u[0] > 0  # label 1 on the right
    return -u[1] / u[0]


@FAST
@given(rounds=st.integers(1, 45), learner=st.sampled_from([Perceptron, NearestNeighbour, AlwaysZero]))
def test_midpoint_without_margin_forces_a_mistake_every_round(rounds, learner):
    T = play(learner(), MidpointAdversary(), LinearSpace(2), rounds=rounds, seed=0)
    assert len(T) == T.mistakes == rounds
    theta = _threshold_of(T)
    zeros = [x for (x, one), r in zip(T.xs, T.rounds) if r.y == 0]
    ones = [x for (x, one), r in zip(T.xs, T.rounds) if r.y == 1]
    assert all(x < theta for x in zeros) and all(x > theta for x in ones)
    assert all(one == 1.0 and -1 < x < 1 for x, one in T.xs)


def test_midpoint_on_the_perceptron_by_hand():
    T = play(Perceptron(), MidpointAdversary(0.0, 1.0), LinearSpace(2), rounds=4, seed=0)
    # x = 1/2: w = 0 predicts 1, label 0, w = (-1/2, -1), interval (1/2, 1)
    # x = 3/4: score -11/8 predicts 0, label 1, w = (1/4, 0), interval (1/2, 3/4)
    # x = 5/8: score 5/32 predicts 1, label 0, w = (-3/8, -1), interval (5/8, 3/4)
    # x = 11/16: score < 0 predicts 0, label 1
    assert [x for x, _ in T.xs] == [0.5, 0.75, 0.625, 0.6875]
    assert [r.y for r in T.rounds] == [0, 1, 0, 1]
    assert 0.625 < _threshold_of(T) < 0.6875


def _best_margin(a, b, n=200_001):
    """Brute force: max over thresholds theta in [a, b] of min(theta - a, b - theta) / sqrt(1 + theta^2)."""
    theta = np.linspace(a, b, n)
    return float((np.minimum(theta - a, b - theta) / np.sqrt(1 + theta**2)).max())


@FAST
@given(gamma=st.floats(1e-4, 0.9), learner=st.sampled_from([Perceptron, NearestNeighbour, AlwaysZero]))
def test_midpoint_with_margin_stops_when_it_must_and_stays_certified(gamma, learner):
    R = math.sqrt(2.0)
    S = LinearSpace(2, R=R, gamma=gamma)
    T = play(learner(), MidpointAdversary(), S, rounds=200, seed=0)
    M = T.mistakes
    assert M == len(T) >= guaranteed_rounds(gamma)
    assert M <= (R / gamma) ** 2
    # every embedded point has normalised margin >= gamma from the revealed comparator
    u = np.array(T.comparator)
    for (x, one), r in zip(T.xs, T.rounds):
        y = 1 if r.y == 1 else -1
        assert y * (x * u[0] + one * u[1]) / np.linalg.norm(u) >= gamma * (1 - 1e-9)
    # replay the interval from the transcript; before each round both halves could hold a separator
    a, b = -1.0, 1.0
    step = lambda a, b: 3 * (b - a) / 200_000  # noqa: E731 - grid error of the brute force
    for (x, _), r in zip(T.xs, T.rounds):
        assert x == (a + b) / 2
        assert _best_margin(a, x) >= gamma - step(a, x) and _best_margin(x, b) >= gamma - step(x, b)
        a, b = (a, x) if r.y == 1 else (x, b)
    # ... and after the last one some half cannot
    m = (a + b) / 2
    assert min(_best_margin(a, m), _best_margin(m, b)) < gamma + 1e-9


def test_midpoint_applicability_and_the_finite_class_skip():
    f = MidpointAdversary()
    assert f.applies_to(LinearSpace(2)) and f.applies_to(LinearSpace(2, R=1.5, gamma=0.1))
    assert not f.applies_to(LinearSpace(3))
    assert not f.applies_to(LinearSpace(2, R=1.0))  # (1, 1) would not fit
    assert MidpointAdversary(0.0, 0.5).applies_to(LinearSpace(2, R=1.2))
    for H in (classes.thresholds(7), classes.monotone_disjunctions(3)):
        assert not f.applies_to(H)
    # the finite-class grid skips it: no row for any finite-class learner
    assert run_check([classes.thresholds(7)], adversaries=[MidpointAdversary]).rows == ()
    with pytest.raises(NotApplicableError):
        play(Halving(classes.thresholds(7)), f, classes.thresholds(7), rounds=3, seed=0)
    with pytest.raises(InvalidArgumentError, match="hi"):
        MidpointAdversary(1.0, 1.0)
    with pytest.raises(InvalidArgumentError, match="gamma"):
        guaranteed_rounds(-0.1)
    assert guaranteed_rounds(0.0) == guaranteed_rounds(None) == 51  # floating point is the only limit


def test_midpoint_restarts_each_game_and_plays_unrealizable_games():
    f = MidpointAdversary()
    first = play(Perceptron(), f, LinearSpace(2), rounds=5, seed=0)
    second = play(Perceptron(), f, LinearSpace(2), rounds=5, seed=0, realizable=False)
    assert first.xs == second.xs and second.mistakes == 5


def test_midpoint_with_a_margin_of_one_or_more_presents_nothing():
    assert len(play(Perceptron(), MidpointAdversary(), LinearSpace(2, gamma=1.0), rounds=5, seed=0)) == 0


# ---------------------------------------------------------------------- SeparableStream
@FAST
@given(d=st.integers(1, 8), R=st.floats(0.1, 5.0), ratio=st.floats(0.01, 1.0), noise=st.floats(0.0, 1.0),
       rounds=st.integers(0, 200))
def test_stream_points_are_in_the_ball_outside_the_margin_with_exactly_the_noise(d, R, ratio, noise, rounds):
    gamma = ratio * R
    T = play(Perceptron(), SeparableStream(d, gamma, R=R, noise=noise), LinearSpace(d), rounds=rounds,
             seed=rounds, realizable=False)
    assert len(T) == rounds
    u = np.array(T.comparator)
    assert np.linalg.norm(u) == pytest.approx(1.0)
    flipped = 0
    for r in T.rounds:
        x = np.array(r.x)
        assert np.linalg.norm(x) <= R * (1 + 1e-9)
        assert abs(x @ u) >= gamma * (1 - 1e-9)
        flipped += int(r.y != int(x @ u > 0))
    assert flipped == math.floor(noise * rounds + 0.5)


def test_stream_is_reproducible_and_realizable_without_noise():
    S = LinearSpace(3, R=1.0, gamma=0.2)
    a = play(Perceptron(), SeparableStream(3, 0.2), S, rounds=50, seed=7)
    b = play(Perceptron(), SeparableStream(3, 0.2), S, rounds=50, seed=7)
    c = play(Perceptron(), SeparableStream(3, 0.2), S, rounds=50, seed=8)
    assert a.xs == b.xs and a.ys == b.ys and a.comparator == b.comparator
    assert a.xs != c.xs
    assert a.gamma == 0.2 and a.R == 1.0


def test_stream_validation_and_applicability():
    for bad in (dict(d=0, gamma=0.1), dict(d=2, gamma=0.0), dict(d=2, gamma=2.0),
                dict(d=2, gamma=0.1, noise=1.5), dict(d=2, gamma=0.1, R=-1.0)):
        with pytest.raises(InvalidArgumentError):
            SeparableStream(**bad)
    s = SeparableStream(3, 0.2, R=1.0)
    assert s.applies_to(LinearSpace(3)) and s.applies_to(LinearSpace(3, R=2.0, gamma=0.1))
    assert not s.applies_to(LinearSpace(4)) and not s.applies_to(LinearSpace(3, R=0.5))
    assert not s.applies_to(LinearSpace(3, gamma=0.3)) and not s.applies_to(classes.thresholds(3))
    with pytest.raises(PlayerError, match="realizable=False"):
        play(Perceptron(), SeparableStream(3, 0.2, noise=0.5), LinearSpace(3), rounds=10, seed=0)
