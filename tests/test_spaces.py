"""Games on spaces without a table: certificates, margins, radii, expert losses."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mistakebound import play
from mistakebound.foundations.errors import IllegalInstanceError, InvalidArgumentError, PlayerError, UnrealizableLabelError
from mistakebound.game.players import Adversary
from mistakebound.game.spaces import ExpertAdvice, KDisjunctionSpace, LinearSpace, embed_bias, signed


class SignLearner:
    """Predicts 1 when the first coordinate is >= 0 (a fixed halfspace)."""

    def predict_one(self, x):
        return int(x[0] >= 0)

    def learn_one(self, x, y):
        assert isinstance(x, np.ndarray) and not x.flags.writeable


class Script(Adversary):
    """Presents fixed instances and labels; certifies before round 1 or at the end."""

    def __init__(self, pairs, certificate=None, reveal_at_end=False):
        self.pairs, self.cert, self.reveal = list(pairs), certificate, reveal_at_end

    def next_instance(self, state):
        return self.pairs[state.t - 1][0] if state.t <= len(self.pairs) else None

    def label(self, state, x, p):
        return self.pairs[state.t - 1][1]

    def certificate(self, state):
        if self.reveal and state.history == [] and state.t == 1 and len(self.pairs) and not getattr(self, "_asked", False):
            self._asked = True
            return None
        return self.cert


def test_linear_game_with_a_committed_comparator_checks_every_round():
    S = LinearSpace(2, R=1.0, gamma=0.5)
    pairs = [((0.8, 0.1), 1), ((-0.6, 0.3), 0), ((0.2, 0.0), 1)]  # the third has margin 0.2 < 0.5
    with pytest.raises(UnrealizableLabelError) as info:
        play(SignLearner(), Script(pairs, certificate=(1.0, 0.0)), S, rounds=5, seed=0)
    assert info.value.round == 3 and len(info.value.transcript) == 2
    T = play(SignLearner(), Script(pairs[:2], certificate=(2.0, 0.0)), S, rounds=5, seed=0)
    assert T.R == 1.0 and T.gamma == 0.5 and T.comparator == (2.0, 0.0)


def test_a_comparator_revealed_at_the_end_is_checked_against_every_round():
    S = LinearSpace(2)
    pairs = [((0.8, 0.1), 1), ((0.5, 0.3), 0)]  # round 2 is on the wrong side of u = e_1
    with pytest.raises(UnrealizableLabelError) as info:
        play(SignLearner(), Script(pairs, certificate=(1.0, 0.0), reveal_at_end=True), S, rounds=5, seed=0)
    assert info.value.round == 2 and len(info.value.transcript) == 1
    T = play(SignLearner(), Script(pairs[:1], certificate=(1.0, 0.0), reveal_at_end=True), S, rounds=5, seed=0)
    assert T.comparator == (1.0, 0.0)
    assert math.isclose(T.gamma, 0.8) and math.isclose(T.R, math.hypot(0.8, 0.1))


def test_realizable_linear_game_without_certificate_is_refused():
    S = LinearSpace(1)
    with pytest.raises(UnrealizableLabelError, match="certificate"):
        play(SignLearner(), Script([((1.0,), 1)]), S, rounds=1, seed=0)
    T = play(SignLearner(), Script([((1.0,), 0)]), S, rounds=1, seed=0, realizable=False)
    assert T.mistakes == 1 and T.comparator is None and T.comparator_hinge_loss is None


def test_radius_and_shape_are_enforced():
    S = LinearSpace(2, R=1.0)
    for bad in [(2.0, 0.0), (1.0,), (np.nan, 0.0), "ab"]:
        with pytest.raises(IllegalInstanceError):
            play(SignLearner(), Script([(bad, 1)], certificate=(1.0, 0.0)), S, rounds=1, seed=0)


def test_bad_certificate_is_a_player_error():
    S = LinearSpace(2)
    with pytest.raises(PlayerError, match="comparator"):
        play(SignLearner(), Script([((1.0, 0.0), 1)], certificate=(0.0, 0.0)), S, rounds=1, seed=0)


def test_space_parameters_are_validated():
    for kwargs in [dict(d=0), dict(d=2, R=-1.0), dict(d=2, gamma=-0.1), dict(d=2.5)]:
        with pytest.raises(InvalidArgumentError):
            LinearSpace(**kwargs)
    with pytest.raises(InvalidArgumentError, match="k:"):
        KDisjunctionSpace(3, 4)
    with pytest.raises(InvalidArgumentError, match="d:"):
        ExpertAdvice(0)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(st.floats(-1, 1), st.floats(-1, 1)), min_size=1, max_size=20),
       st.tuples(st.floats(-2, 2), st.floats(-2, 2)).filter(lambda u: math.hypot(*u) > 1e-6))
def test_hinge_losses_match_their_definition(points, u):
    pairs = [(x, int(x[0] + x[1] > 0)) for x in points]
    T = play(SignLearner(), Script(pairs, certificate=u), LinearSpace(2), rounds=len(pairs), seed=0, realizable=False)
    expected = [max(0.0, 1 - signed(y) * (u[0] * x[0] + u[1] * x[1])) for x, y in pairs]
    assert np.allclose(T.comparator_hinge_losses(), expected)
    only = T.comparator_hinge_losses(mistakes_only=True)
    assert all(o == (e if r.mistake else 0.0) for o, e, r in zip(only, expected, T.rounds))


def test_k_disjunction_game_on_a_thousand_variables():
    n = 1000
    S = KDisjunctionSpace(n, 2)
    rng = np.random.default_rng(0)
    X = (rng.random((30, n)) < 0.01).astype(int)
    target = {5, 700}
    pairs = [(x, int(x[5] or x[700])) for x in X]

    class Zero:
        def predict_one(self, x):
            return 0

        def learn_one(self, x, y):
            pass

    T = play(Zero(), Script(pairs, certificate=target), S, rounds=30, seed=0)
    assert T.target == (5, 700) and T.best_hypothesis_mistakes == 0
    assert T.mistakes == sum(y for _, y in pairs)
    flipped = [(x, 1 - y) if i == 7 else (x, y) for i, (x, y) in enumerate(pairs)]
    with pytest.raises(UnrealizableLabelError) as info:
        play(Zero(), Script(flipped, certificate=target), S, rounds=30, seed=0)
    assert info.value.round == 8


def test_expert_advice_regret_is_against_the_best_expert():
    S = ExpertAdvice(3)
    pairs = [((1, 0, 0.5), 1), ((1, 1, 0.5), 0), ((0, 0, 0.5), 0)]

    class Half:
        def predict_proba_one(self, x):
            return 0.5

        def learn_one(self, x, y):
            pass

    T = play(Half(), Script(pairs), S, rounds=3, seed=0, realizable=False)
    losses = [sum(abs(x[i] - y) for x, y in pairs) for i in range(3)]
    assert T.best_hypothesis_mistakes == min(losses)
    assert T.expected_mistakes == 1.5 and T.regret == 1.5 - min(losses)
    with pytest.raises(UnrealizableLabelError, match="no expert"):
        play(Half(), Script(pairs + [((0, 1, 1), 0)]), S, rounds=4, seed=0, realizable=True)


def test_embed_bias_and_signed():
    assert embed_bias(np.array([1.0, -2.0])).tolist() == [1.0, -2.0, 1.0]
    assert [signed(0), signed(1)] == [-1, 1]
