"""The OCO engine, its losses, OGD / FTL / online logistic regression and the alternating sequence.

Expected values come from closed forms or from trajectories recomputed here with plain
numpy loops, never from the code under test.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from attrs import define
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from mistakebound import Round, Transcript, play
from mistakebound.adversaries.alternating_losses import AlternatingLosses
from mistakebound.foundations.errors import (
    IllegalInstanceError,
    IllegalPredictionError,
    InvalidArgumentError,
    NotApplicableError,
    PlayerError,
)
from mistakebound.learners.gradient import (
    FollowTheLeader,
    OnlineGradientDescent,
    OnlineLogisticRegression,
    comparator_log_losses,
    lipschitz_regret_bound,
    ogd_regret_bound,
    ogd_unit_rate_regret_bound,
    log_loss_gradient_norms_squared,
    log_loss_regret,
    transcript_log_losses,
)
from mistakebound.game.oco import (
    FixedLosses,
    HingeLoss,
    LinearLoss,
    LogisticLoss,
    OCOAdversary,
    OCOLearner,
    OCOSetting,
    RandomLinearLosses,
    play_oco,
    project_to_ball,
)
from mistakebound.game.players import ObliviousAdversary
from mistakebound.game.spaces import LinearSpace

FAST = settings(max_examples=40, deadline=None)
TOL = 1e-9


def _ball_point(rng, d, radius):
    g = rng.standard_normal(d)
    return g / np.linalg.norm(g) * radius * rng.random() ** (1.0 / d)


def _random_losses(rng, d, T, kind, scale):
    out = []
    for _ in range(T):
        v = _ball_point(rng, d, scale)
        k = kind if kind != "mixed" else ("linear", "hinge", "logistic")[rng.integers(3)]
        y = int(rng.choice([-1, 1]))
        out.append(LinearLoss(v) if k == "linear" else HingeLoss(v, y) if k == "hinge" else LogisticLoss(v, y))
    return out


# ---------------------------------------------------------------------- losses
def test_loss_closed_forms():
    w = np.array([0.5, -1.0])
    assert LinearLoss([2.0, 3.0]).value(w) == 2 * 0.5 - 3.0
    assert HingeLoss([2.0, 3.0], 1).value(w) == 1 - (1.0 - 3.0)
    assert HingeLoss([2.0, 3.0], -1).value(w) == 0.0  # 1 - 2 < 0
    assert LogisticLoss([2.0, 3.0], -1).value(w) == pytest.approx(math.log(1 + math.exp(-2.0)))
    g = LogisticLoss([2.0, 3.0], -1).gradient(w)
    s = 1 / (1 + math.exp(2.0))  # sigmoid(-y<w,x>) with y<w,x> = 2
    assert g.tolist() == pytest.approx([2.0 * s, 3.0 * s])
    assert LogisticLoss([1.0], 1).value([800.0]) == pytest.approx(0.0, abs=1e-300)
    assert LogisticLoss([1.0], 1).value([-800.0]) == pytest.approx(800.0)


@FAST
@given(d=st.integers(1, 5), seed=st.integers(0, 2**32 - 1), kind=st.sampled_from(["linear", "hinge", "logistic"]))
def test_losses_are_convex_with_valid_subgradients_and_lipschitz(d, seed, kind):
    rng = np.random.default_rng(seed)
    (f,) = _random_losses(rng, d, 1, kind, 3.0)
    for _ in range(20):
        w, u = rng.standard_normal(d) * 2, rng.standard_normal(d) * 2
        # subgradient inequality f(u) >= f(w) + <g, u - w>
        assert f.value(u) >= f.value(w) + float(np.dot(f.gradient(w), u - w)) - 1e-9
        assert abs(f.value(u) - f.value(w)) <= f.lipschitz * np.linalg.norm(u - w) + 1e-9
        assert np.linalg.norm(f.gradient(w)) <= f.lipschitz + 1e-12
    if kind != "hinge":  # differentiable: central differences
        w, h = rng.standard_normal(d), 1e-6
        fd = [(f.value(w + h * e) - f.value(w - h * e)) / (2 * h) for e in np.eye(d)]
        assert np.allclose(fd, f.gradient(w), atol=1e-6)


def test_losses_validate_their_arguments():
    with pytest.raises(InvalidArgumentError, match="y"):
        HingeLoss([1.0], 0)
    with pytest.raises(InvalidArgumentError, match="z"):
        LinearLoss([math.nan])
    with pytest.raises(InvalidArgumentError, match="x"):
        LogisticLoss([], 1)


def test_projection_onto_the_ball():
    assert project_to_ball([3.0, 4.0], 2.0).tolist() == pytest.approx([1.2, 1.6])
    assert project_to_ball([0.1, 0.1], 2.0).tolist() == [0.1, 0.1]
    assert project_to_ball([30.0], None).tolist() == [30.0]


# ---------------------------------------------------------------------- engine rules
@define
class Returns(OCOLearner):
    point: object = None
    fail_at: int = 0
    _t: int = 0

    def predict_point(self):
        self._t += 1
        if self._t == self.fail_at:
            return self.point
        return np.zeros(2)

    def learn_loss(self, loss):
        pass


@pytest.mark.parametrize(
    "point, message",
    [([0.0, 0.0, 0.0], "shape"), ([math.nan, 0.0], "non-finite"), ([1.0, 1.0], "outside"), ("ab", "vector")],
)
def test_illegal_points_name_round_player_and_keep_the_transcript(point, message):
    losses = FixedLosses([LinearLoss([1.0, 0.0])] * 5)
    with pytest.raises(IllegalPredictionError, match=message) as info:
        play_oco(Returns(point=point, fail_at=3), losses, d=2, rounds=5, seed=0, radius=1.0)
    err = info.value
    assert err.round == 3 and err.player == "learner" and len(err.transcript) == 2
    assert "round 3, learner" in str(err)


def test_points_on_the_sphere_are_feasible_within_tolerance():
    p = np.array([0.6, 0.8]) * (1 + 1e-12)
    T = play_oco(Returns(point=p, fail_at=1), FixedLosses([LinearLoss([1.0, 0.0])]), d=2, rounds=1, seed=0, radius=1.0)
    assert len(T) == 1
    # unconstrained: anything finite goes
    T = play_oco(Returns(point=[5.0, 5.0], fail_at=1), FixedLosses([LinearLoss([1.0, 0.0])]), d=2, rounds=1, seed=0)
    assert T.values == (5.0,)


@define
class Raises(OCOLearner):
    def predict_point(self):
        return np.zeros(1)

    def learn_loss(self, loss):
        raise RuntimeError("boom")


def test_player_exceptions_become_player_errors():
    with pytest.raises(PlayerError, match="round 1, learner") as info:
        play_oco(Raises(), FixedLosses([LinearLoss([1.0])]), d=1, rounds=3, seed=0)
    assert isinstance(info.value.__cause__, RuntimeError) and len(info.value.transcript) == 0


@define
class BadLosses(OCOAdversary):
    kind: str = "object"

    def next_loss(self, state, w):
        if state.t < 2:
            return LinearLoss([1.0])
        if self.kind == "object":
            return object()
        if self.kind == "nan":
            return _NanLoss()
        if self.kind == "shape":
            return LinearLoss([1.0, 2.0])
        raise ValueError("adversary fails")


class _NanLoss:
    def value(self, w):
        return math.nan

    def gradient(self, w):
        return np.zeros(1)


@pytest.mark.parametrize("kind, error", [("object", IllegalInstanceError), ("nan", IllegalInstanceError),
                                         ("shape", IllegalInstanceError), ("raise", PlayerError)])
def test_illegal_losses_name_the_adversary(kind, error):
    with pytest.raises(error) as info:
        play_oco(OnlineGradientDescent(1, eta=0.1), BadLosses(kind), d=1, rounds=4, seed=0)
    assert info.value.round == 2 and info.value.player == "adversary" and len(info.value.transcript) == 1


def test_bad_arguments_are_refused():
    ogd = OnlineGradientDescent(1, eta=0.1)
    for kwargs, name in [({"d": 0}, "d"), ({"rounds": -1}, "rounds"), ({"radius": -1.0}, "radius"), ({"seed": -2}, "seed")]:
        args = {"d": 1, "rounds": 2, "seed": 0} | kwargs
        with pytest.raises(InvalidArgumentError, match=name):
            play_oco(ogd, FixedLosses([]), **args)
    with pytest.raises(InvalidArgumentError, match="learner"):
        play_oco(object(), FixedLosses([]), d=1, rounds=1, seed=0)
    with pytest.raises(InvalidArgumentError, match="next_loss"):
        play_oco(ogd, object(), d=1, rounds=1, seed=0)
    with pytest.raises(InvalidArgumentError, match="eta"):
        OnlineGradientDescent(1, eta=0.0)


@define
class Mirror(OCOAdversary):
    """Adaptive: the loss is <w_t + e_1, .>; it records what it saw."""

    seen: list = None

    def start(self, state):
        self.seen = []

    def next_loss(self, state, w):
        self.seen.append((state.t, len(state.history), tuple(w)))
        if state.t == 4:
            return None
        e = np.zeros(state.d)
        e[0] = 1.0
        return LinearLoss(np.asarray(w) + e)


def test_adaptive_adversary_sees_history_and_the_point_and_may_end_the_game():
    adv = Mirror()
    T = play_oco(OnlineGradientDescent(2, eta=0.5, radius=1.0), adv, d=2, rounds=10, seed=0, radius=1.0)
    assert len(T) == 3
    assert [(t, n) for t, n, _ in adv.seen] == [(1, 0), (2, 1), (3, 2), (4, 3)]
    for r, (_, _, w) in zip(T.rounds, adv.seen):
        assert r.w == w and r.loss.z == pytest.approx(np.add(w, [1.0, 0.0]))


def test_same_seed_same_transcript_and_the_adversary_uses_the_game_generator():
    a = play_oco(OnlineGradientDescent(3, eta=0.1), RandomLinearLosses(), d=3, rounds=20, seed=7)
    b = play_oco(OnlineGradientDescent(3, eta=0.1), RandomLinearLosses(), d=3, rounds=20, seed=7)
    c = play_oco(OnlineGradientDescent(3, eta=0.1), RandomLinearLosses(), d=3, rounds=20, seed=8)
    assert a == b and a != c and a.seed == 7
    assert "OnlineGradientDescent" in a.summary()


# ---------------------------------------------------------------------- transcript totals
@FAST
@given(d=st.integers(1, 4), T=st.integers(0, 30), seed=st.integers(0, 2**32 - 1), B=st.floats(0.1, 5.0))
def test_regret_and_best_fixed_point_of_linear_losses(d, T, seed, B):
    rng = np.random.default_rng(seed)
    losses = _random_losses(rng, d, T, "linear", 2.0)
    tr = play_oco(OnlineGradientDescent(d, eta=0.3, radius=B), FixedLosses(losses), d=d, rounds=T, seed=0, radius=B)
    W = tr.points
    Zs = np.array([f.z for f in losses]).reshape(T, d)
    u = _ball_point(rng, d, B)
    expected = float(np.sum(Zs * W) - np.sum(Zs @ u))
    assert tr.regret(u) == pytest.approx(expected, abs=1e-9)
    assert tr.cumulative_loss == pytest.approx(float(np.sum(Zs * W)), abs=1e-9)
    best = tr.best_fixed_point()
    assert np.linalg.norm(best) <= B * (1 + 1e-12)
    # no point of the ball does better than the closed form (random points and the sphere)
    for _ in range(50):
        v = _ball_point(rng, d, B)
        assert tr.comparator_loss(v) >= tr.comparator_loss(best) - 1e-9
    assert tr.best_fixed_regret() == pytest.approx(tr.regret(best), abs=1e-9)
    assert tr.best_fixed_regret() >= tr.regret(u) - 1e-9


def test_best_fixed_point_on_an_interval_is_an_endpoint():
    losses = [LinearLoss([0.5]), LinearLoss([-2.0]), LinearLoss([0.25])]
    tr = play_oco(FollowTheLeader(1, radius=3.0), FixedLosses(losses), d=1, rounds=3, seed=0, radius=3.0)
    grid = np.linspace(-3, 3, 601)
    values = [sum(f.z[0] * g for f in losses) for g in grid]
    assert tr.best_fixed_point().tolist() == [3.0] == [grid[int(np.argmin(values))]]
    assert tr.best_fixed_regret() == pytest.approx(tr.cumulative_loss + 3.0 * 1.25)


def test_best_fixed_regret_needs_linear_losses_and_a_radius():
    tr = play_oco(OnlineGradientDescent(1, eta=0.1), FixedLosses([HingeLoss([1.0], 1)]), d=1, rounds=1, seed=0, radius=1.0)
    with pytest.raises(NotApplicableError, match="LinearLoss"):
        tr.best_fixed_regret()
    tr = play_oco(OnlineGradientDescent(1, eta=0.1), FixedLosses([LinearLoss([1.0])]), d=1, rounds=1, seed=0)
    with pytest.raises(NotApplicableError, match="radius"):
        tr.best_fixed_point()
    with pytest.raises(InvalidArgumentError, match="u"):
        tr.regret([1.0, 2.0])


# ---------------------------------------------------------------------- OGD
def _ogd_by_hand(losses, d, eta, radius):
    w, points = np.zeros(d), []
    for f in losses:
        points.append(w.copy())
        w = w - eta * f.gradient(w)
        if radius is not None and np.linalg.norm(w) > radius:
            w = w / np.linalg.norm(w) * radius
    return np.array(points).reshape(len(losses), d)


@FAST
@given(
    d=st.integers(1, 5), T=st.integers(1, 120), seed=st.integers(0, 2**32 - 1),
    eta=st.floats(0.01, 3.0), B=st.one_of(st.none(), st.floats(0.1, 4.0)),
    kind=st.sampled_from(["linear", "hinge", "logistic", "mixed"]), scale=st.floats(0.1, 5.0),
)
def test_ogd_follows_theorem_21_15(d, T, seed, eta, B, kind, scale):
    rng = np.random.default_rng(seed)
    losses = _random_losses(rng, d, T, kind, scale)
    tr = play_oco(OnlineGradientDescent(d, eta=eta, radius=B), FixedLosses(losses), d=d, rounds=T, seed=0, radius=B)
    assert np.allclose(tr.points, _ogd_by_hand(losses, d, eta, B), atol=1e-12)
    sq = sum(float(np.dot(f.gradient(w), f.gradient(w))) for f, w in zip(losses, tr.points))
    assert tr.sum_squared_gradients == pytest.approx(sq)
    comparators = [np.zeros(d)] + [_ball_point(rng, d, B if B else 3.0) for _ in range(5)]
    if B is not None and all(isinstance(f, LinearLoss) for f in losses):
        comparators.append(tr.best_fixed_point())
    for u in comparators:
        bound = np.dot(u, u) / (2 * eta) + eta / 2 * sq  # Theorem 21.15, written out here
        assert ogd_regret_bound(
            eta=eta, comparator_norm=float(np.linalg.norm(u)), sum_squared_gradients=tr.sum_squared_gradients
        ) == pytest.approx(bound)
        assert tr.regret(u) <= bound + 1e-9
    # the learner's claim: the bound for every comparator of its ball, ||w*|| <= B
    claim = OnlineGradientDescent(d, eta=eta, radius=B).bound(OCOSetting(d, radius=B), transcript=tr)
    if B is None:
        assert claim.value is None and "unconstrained" in claim.reason
    else:
        assert claim.value == pytest.approx(B * B / (2 * eta) + eta / 2 * sq) and claim.measure == "regret"
        assert all(tr.regret(u) <= claim.value + 1e-9 for u in comparators)


@FAST
@given(d=st.integers(1, 4), T=st.integers(1, 200), seed=st.integers(0, 2**32 - 1),
       B=st.floats(0.1, 4.0), rho=st.floats(0.1, 4.0))
def test_tuned_ogd_regret_against_the_ball_is_at_most_B_rho_sqrt_T(d, T, seed, B, rho):
    ogd = OnlineGradientDescent.tuned(d, radius=B, rho=rho, T=T)
    assert ogd.eta == pytest.approx(B / (rho * math.sqrt(T))) and ogd.radius == B
    tr = play_oco(ogd, RandomLinearLosses(scale=rho), d=d, rounds=T, seed=seed, radius=B)
    assert max(f.lipschitz for f in tr.losses) <= rho + 1e-12
    assert tr.best_fixed_regret() <= B * rho * math.sqrt(T) + 1e-9
    claim = ogd.bound(OCOSetting(d, radius=B), transcript=tr)
    assert tr.best_fixed_regret() <= claim.value + 1e-9 <= B * rho * math.sqrt(T) + 2e-9
    assert lipschitz_regret_bound(B, rho, T) == pytest.approx(B * rho * math.sqrt(T))


@FAST
@given(d=st.integers(1, 4), T=st.integers(1, 150), seed=st.integers(0, 2**32 - 1), rho=st.floats(0.1, 3.0))
def test_ogd_with_unit_rate_has_the_half_norm_plus_rho_bound(d, T, seed, rho):
    rng = np.random.default_rng(seed)
    losses = _random_losses(rng, d, T, "mixed", rho)
    tr = play_oco(OnlineGradientDescent(d, eta=1 / math.sqrt(T)), FixedLosses(losses), d=d, rounds=T, seed=0)
    for _ in range(5):
        u = rng.standard_normal(d) * rng.random() * 5
        bound = (np.dot(u, u) + rho**2) * math.sqrt(T) / 2
        assert ogd_unit_rate_regret_bound(float(np.linalg.norm(u)), rho, T) == pytest.approx(bound)
        assert tr.regret(u) <= bound + 1e-9


def test_ogd_clone_forgets_and_keeps_hyperparameters():
    ogd = OnlineGradientDescent(2, eta=0.5, radius=1.0)
    ogd.learn_loss(LinearLoss([1.0, 0.0]))
    assert ogd.weights.tolist() == [-0.5, 0.0]
    fresh = ogd.clone()
    assert fresh.weights.tolist() == [0.0, 0.0] and (fresh.eta, fresh.radius, fresh.d) == (0.5, 1.0, 2)


# ---------------------------------------------------------------------- FTL and the alternating sequence
def test_ftl_on_the_lectures_sequence():
    """seeds/004 Sec. 3.1: theta in [-1, 1], f_1 = theta/2, then -theta, +theta, ...: losses 0, 1, 1, ..."""
    T = 11
    tr = play_oco(FollowTheLeader(1, radius=1.0), AlternatingLosses(), d=1, rounds=T, seed=0, radius=1.0)
    assert [f.z[0] for f in tr.losses] == [0.5] + [(-1.0) ** (t + 1) for t in range(2, T + 1)]
    assert tr.values == (0.0,) + (1.0,) * (T - 1)
    assert tr.points[:4, 0].tolist() == [0.0, -1.0, 1.0, -1.0]
    assert tr.regret([0.0]) == T - 1  # the lecture's comparator 0
    assert tr.best_fixed_regret() == T - 0.5  # best fixed point: |Z_T| = 1/2


@FAST
@given(
    d=st.integers(1, 4), T=st.integers(1, 300), B=st.floats(0.1, 5.0),
    m=st.floats(0.1, 5.0), frac=st.floats(0.01, 0.99), negative=st.booleans(),
)
def test_alternating_losses_force_linear_regret_on_ftl_and_not_on_ogd(d, T, B, m, frac, negative):
    first = (-1 if negative else 1) * frac * m
    adv = AlternatingLosses(first=first, magnitude=m)
    tr = play_oco(FollowTheLeader(d, radius=B), adv, d=d, rounds=T, seed=0, radius=B)
    # the sequence, from the definition
    s = math.copysign(1.0, first)
    slopes = [first] + [s * m * (-1) ** (t + 1) for t in range(2, T + 1)]
    assert [f.z[0] for f in tr.losses] == pytest.approx(slopes) and all(not any(f.z[1:]) for f in tr.losses)
    # FTL pays 0 then B m per round; the best fixed point pays -B |sum of slopes|
    exact = (T - 1) * B * m + B * abs(math.fsum(slopes))
    assert tr.values == pytest.approx([0.0] + [B * m] * (T - 1))
    assert tr.best_fixed_regret() == pytest.approx(exact)
    assert adv.ftl_regret(T, B) == pytest.approx(exact)
    assert adv.forced_regret(T, B) == pytest.approx((T - 1) * B * m)
    assert tr.best_fixed_regret() >= adv.forced_regret(T, B) - 1e-9
    if T >= 2:
        assert tr.best_fixed_regret() >= B * m * T / 2 - 1e-9  # c = B m / 2: linear in T
    ogd = play_oco(OnlineGradientDescent.tuned(d, radius=B, rho=m, T=T), adv, d=d, rounds=T, seed=0, radius=B)
    assert ogd.best_fixed_regret() <= B * m * math.sqrt(T) + 1e-9


def test_alternating_losses_validate_and_ftl_refuses_nonlinear_losses():
    with pytest.raises(InvalidArgumentError, match="first"):
        AlternatingLosses(first=1.0, magnitude=1.0)
    with pytest.raises(InvalidArgumentError, match="first"):
        AlternatingLosses(first=0.0)
    with pytest.raises(PlayerError) as info:
        play_oco(FollowTheLeader(1, radius=1.0), FixedLosses([HingeLoss([1.0], 1)]), d=1, rounds=1, seed=0, radius=1.0)
    assert isinstance(info.value.__cause__, NotApplicableError)


# ---------------------------------------------------------------------- online logistic regression
@define
class Stream(ObliviousAdversary):
    pairs: list

    def commit(self, H, rounds, rng, realizable):
        return self.pairs


def _noisy_stream(rng, d, T, R, noise):
    u = rng.standard_normal(d)
    pairs = []
    for _ in range(T):
        x = _ball_point(rng, d, R)
        y = int(np.dot(u, x) >= 0)
        if rng.random() < noise:
            y = 1 - y
        pairs.append((x, y))
    return pairs


@FAST
@given(
    d=st.integers(1, 4), T=st.integers(1, 150), seed=st.integers(0, 2**32 - 1), R=st.floats(0.1, 4.0),
    B=st.one_of(st.none(), st.floats(0.1, 4.0)), noise=st.sampled_from([0.0, 0.1, 0.3, 0.5]), eta=st.floats(0.01, 3.0),
)
def test_online_logistic_regression_log_loss_regret(d, T, seed, R, B, noise, eta):
    rng = np.random.default_rng(seed)
    pairs = _noisy_stream(rng, d, T, R, noise)
    learner = OnlineLogisticRegression(d, eta=eta, radius=B)
    tr = play(learner, Stream(pairs), LinearSpace(d, R=R), rounds=T, seed=seed, realizable=False)
    # recompute OGD on the log loss by hand
    w, ws = np.zeros(d), []
    for x, y in pairs:
        ws.append(w.copy())
        s = 2 * y - 1
        w = w + eta * s * x / (1 + math.exp(s * np.dot(w, x)))
        if B is not None and np.linalg.norm(w) > B:
            w = w * B / np.linalg.norm(w)
    ws = np.array(ws)
    X = np.array([x for x, _ in pairs])
    s = np.array([2 * y - 1 for _, y in pairs])
    assert [r.p for r in tr.rounds] == pytest.approx(1 / (1 + np.exp(-(X * ws).sum(axis=1))), abs=1e-12)
    learner_losses = np.logaddexp(0, -s * (X * ws).sum(axis=1))
    # the transcript keeps only the float p_t: -log(1 - p_t) carries an error ~ ulp(1)/(1 - p_t)
    ps = np.array([r.p for r in tr.rounds])
    # a sigmoid saturated at the wrong end stores p_t = 0 or 1 exactly: its loss is lost (inf)
    assume(not np.any(np.where(s > 0, ps, 1 - ps) <= 0.0))
    slack = 1e-9 + 1e-15 / np.minimum(ps, 1 - ps).clip(1e-300)
    assert np.all(np.abs(np.array(transcript_log_losses(tr)) - learner_losses) <= slack)
    sq = (X * X).sum(axis=1) / (1 + np.exp(s * (X * ws).sum(axis=1))) ** 2
    assert log_loss_gradient_norms_squared(tr) == pytest.approx(sq, rel=1e-9, abs=1e-12)
    assert tr.expected_mistakes == pytest.approx(float(np.sum(np.abs(np.array([r.p for r in tr.rounds]) - (s + 1) / 2))))
    radius = B if B is not None else 3.0
    for u in [np.zeros(d)] + [_ball_point(rng, d, radius) for _ in range(5)]:
        regret = float(np.sum(learner_losses) - np.sum(np.logaddexp(0, -s * (X @ u))))
        assert abs(log_loss_regret(tr, u) - regret) <= slack.sum()
        assert comparator_log_losses(tr, u) == pytest.approx(np.logaddexp(0, -s * (X @ u)))
        bound = float(np.dot(u, u)) / (2 * eta) + eta / 2 * float(np.sum(sq))
        assert ogd_regret_bound(
            eta=eta, comparator_norm=float(np.linalg.norm(u)), sum_squared_gradients=float(np.sum(sq))
        ) == pytest.approx(bound)
        assert log_loss_regret(tr, u) <= bound + slack.sum()
    # the learner's claim on its expected mistakes: at most the log loss of any u in the ball, plus the regret bound
    claim = learner.bound(LinearSpace(d, R=R), realizable=False, transcript=tr)
    at_zero = T * math.log(2) + eta / 2 * float(np.sum(sq))
    assert claim.measure == "expected mistakes" and claim.value <= at_zero + 1e-9
    assert tr.expected_mistakes <= claim.value + 1e-9


@FAST
@given(d=st.integers(1, 4), T=st.integers(1, 200), seed=st.integers(0, 2**32 - 1), R=st.floats(0.1, 4.0),
       B=st.floats(0.1, 4.0), noise=st.sampled_from([0.0, 0.1, 0.4]))
def test_tuned_logistic_regression_has_log_loss_regret_at_most_B_R_sqrt_T(d, T, seed, R, B, noise):
    rng = np.random.default_rng(seed)
    pairs = _noisy_stream(rng, d, T, R, noise)
    learner = OnlineLogisticRegression.tuned(d, radius=B, R=R, T=T)
    tr = play(learner, Stream(pairs), LinearSpace(d, R=R), rounds=T, seed=seed, realizable=False)
    for _ in range(5):
        u = _ball_point(rng, d, B)
        assert log_loss_regret(tr, u) <= B * R * math.sqrt(T) + 1e-7
    assert lipschitz_regret_bound(B, R, T) == pytest.approx(B * R * math.sqrt(T))


# ---------------------------------------------------------------------- suite
def test_oco_scenarios_hold_and_run_fast():
    import doctest
    import time

    import mistakebound.verification.suites.oco as suite

    start = time.perf_counter()
    outcomes = [s.run(seed) for s in suite.SCENARIOS for seed in (0, 1)]
    assert time.perf_counter() - start < 10.0  # two seeds; one pass must stay under 5 s
    assert all(o.verdict == "ok" and (o.bound is not None or o.forced is not None) and o.note for o in outcomes)
    # the OCO learners claim regret; the two label learners of the suite claim expected mistakes
    assert {s.measure for s in suite.SCENARIOS} == {"regret", "expected mistakes"}
    for s, o in zip([s for s in suite.SCENARIOS for _ in (0, 1)], outcomes):
        assert (o.bound.measure if o.bound is not None and o.bound.stated else o.forced.measure) == s.measure
    assert doctest.testmod(suite).failed == 0


def test_a_saturated_wrong_prediction_has_infinite_transcript_log_loss():
    T = Transcript(rounds=(Round(t=1, x=(40.0,), p=1.0, prediction=1, y=0), Round(t=2, x=(1.0,), p=0.5, prediction=1, y=1)))
    losses = transcript_log_losses(T)
    assert losses[0] == math.inf and losses[1] == pytest.approx(math.log(2))


# ---------------------------------------------------------------------- claims and for_setting of the OCO learners
def test_ogd_claim_reads_the_gradients_and_refuses_other_settings():
    ogd = OnlineGradientDescent(2, eta=0.5, radius=2.0)
    tr = play_oco(ogd, FixedLosses([LinearLoss([3.0, 4.0])] * 3), d=2, rounds=3, seed=0, radius=2.0)
    claim = ogd.bound(OCOSetting(2, radius=2.0), transcript=tr)
    assert claim.value == pytest.approx(4 / (2 * 0.5) + 0.5 / 2 * 3 * 25) and "Theorem 21.15" in claim.source
    cases = {
        "transcript": ogd.bound(OCOSetting(2, radius=2.0)),
        "radius 2.0": ogd.bound(OCOSetting(2, radius=1.0), transcript=tr),
        "d = 2": ogd.bound(OCOSetting(3, radius=2.0), transcript=tr),
        "OCOSetting": ogd.bound(LinearSpace(2), transcript=tr),
        "no sublinear regret bound": FollowTheLeader(1, radius=1.0).bound(OCOSetting(1, radius=1.0)),
    }
    for words, claim in cases.items():
        assert claim.value is None and words in claim.reason and claim.measure == "regret", (words, claim)


def test_alternating_losses_force_their_regret_on_ftl_only():
    S = OCOSetting(1, radius=2.0)
    adv = AlternatingLosses(magnitude=3.0, first=1.0)
    forced = adv.forces(S, learner=FollowTheLeader(1, radius=2.0), rounds=50)
    assert forced.value == 49 * 2.0 * 3.0 and forced.measure == "regret"
    tr = play_oco(FollowTheLeader(1, radius=2.0), adv, d=1, rounds=50, seed=0, radius=2.0)
    assert tr.best_fixed_regret() >= forced.value
    assert adv.forces(S, learner=OnlineGradientDescent(1, eta=0.1, radius=2.0), rounds=50).value is None
    assert "horizon" in adv.forces(S, learner=FollowTheLeader(1, radius=2.0)).reason
    assert adv.applies_to(S) and not adv.applies_to(LinearSpace(1))


def test_for_setting_of_the_oco_learners():
    ogd = OnlineGradientDescent.for_setting(OCOSetting(3, radius=2.0), rounds=16)
    assert (ogd.d, ogd.radius, ogd.eta) == (3, 2.0, pytest.approx(2.0 / 4))
    free = OnlineGradientDescent.for_setting(OCOSetting(2), rounds=25)
    assert (free.radius, free.eta) == (None, pytest.approx(0.2))
    ftl = FollowTheLeader.for_setting(OCOSetting(2, radius=1.5))
    assert (ftl.d, ftl.radius) == (2, 1.5)
    olr = OnlineLogisticRegression.for_setting(LinearSpace(4, R=2.0), rounds=9)
    assert (olr.d, olr.radius, olr.eta) == (4, 1.0, pytest.approx(1 / (2.0 * 3)))
    with pytest.raises(InvalidArgumentError, match="rounds"):
        OnlineGradientDescent.for_setting(OCOSetting(1, radius=1.0))
    with pytest.raises(InvalidArgumentError, match="rounds"):
        OnlineLogisticRegression.for_setting(LinearSpace(2))
    with pytest.raises(NotApplicableError, match="bounded feasible set"):
        FollowTheLeader.for_setting(OCOSetting(2))
    for learner in (OnlineGradientDescent, FollowTheLeader):
        with pytest.raises(NotApplicableError, match=f"{learner.__name__} plays on the online convex"):
            learner.for_setting(LinearSpace(2), rounds=5)
    with pytest.raises(NotApplicableError, match="OnlineLogisticRegression plays on halfspaces"):
        OnlineLogisticRegression.for_setting(OCOSetting(2, radius=1.0), rounds=5)


def test_an_oco_transcript_answers_its_regret_curve_and_totals_with_no_mistakes():
    T = play_oco(OnlineGradientDescent(1, eta=0.5, radius=1.0), AlternatingLosses(), d=1, rounds=9, seed=0, radius=1.0)
    curve = T.cumulative_curve()
    assert curve[0] == 0.0 and len(curve) == len(T) + 1
    for t in range(1, len(T) + 1):
        prefix = T.rounds[:t]
        best = min(sum(r.loss.value(np.array([u])) for r in prefix) for u in (-1.0, 1.0))  # linear: an endpoint
        assert curve[t] == pytest.approx(sum(r.value for r in prefix) - best)
    assert T.totals_record() == {"rounds": 9, "regret": pytest.approx(curve[-1])}
    assert not T.labelled and not T.randomized
    with pytest.raises(InvalidArgumentError, match="has a regret curve, not mistakes"):
        T.cumulative_curve("mistakes")
    with pytest.raises(InvalidArgumentError, match="measure: expected"):
        T.cumulative_curve("loss")
