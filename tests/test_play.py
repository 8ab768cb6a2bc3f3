"""The referee rules of :func:`mistakebound.play`.

Small handwritten players record every call the engine makes, so the tests can check
the order of the moves, what each player is shown, and how the engine reacts to moves
that break the rules.  Property tests (hypothesis) check the version space and the
best hypothesis in hindsight against brute force over the matrix.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mistakebound import HypothesisClass, Round, Transcript, play
from mistakebound.adversaries import ObliviousCoin, OppositeLabel
from mistakebound.foundations.errors import (
    GameError,
    GameInterrupted,
    IllegalInstanceError,
    IllegalLabelError,
    IllegalPredictionError,
    InvalidArgumentError,
    MistakeboundError,
    NotApplicableError,
    PlayerError,
    UnrealizableLabelError,
)
from mistakebound.game.play import GameState
from mistakebound.learners import SOA, Consistent, Halving
from mistakebound.game.players import Adversary, ObliviousAdversary
from tests.strategies import class_matrices

SETTINGS = settings(max_examples=60, deadline=None)

#: Every labeling of three instances: any labels of distinct instances are realizable.
FULL3 = HypothesisClass.from_matrix(
    [[(k >> j) & 1 for j in range(3)] for k in range(8)], domain=("a", "b", "c"), name="full3"
)
#: Thresholds on 0..3: h_k(x) = 1 iff x >= k, for k = 0..4 (row k).
THRESH = HypothesisClass.from_matrix(
    [[int(x >= k) for x in range(4)] for k in range(5)], name="thresh4"
)
TARGET = {"a": 1, "b": 0, "c": 1}  # a labeling of FULL3 (row 0b101 = 5)


# ------------------------------------------------------------------------ test players
def _pick(script, t, *args):
    """A script is a list indexed by round (1-based) or a function of (t, *args)."""
    if callable(script):
        return script(t, *args)
    return script[t - 1] if t <= len(script) else None


class Learner:
    """A deterministic learner whose predictions follow a script; records every call."""

    def __init__(self, log=None, predictions=0):
        self.log = [] if log is None else log
        self.predictions = predictions
        self.t = 0

    def predict_one(self, x):
        self.t += 1
        self.log.append(("predict_one", self.t, x))
        if isinstance(self.predictions, (int, float)) and not isinstance(self.predictions, bool):
            return self.predictions
        return _pick(self.predictions, self.t, x)

    def learn_one(self, x, y):
        self.log.append(("learn_one", self.t, x, y))


class RandomLearner:
    """A randomized learner: predict_proba_one follows a script; records every call."""

    def __init__(self, log=None, p=0.3):
        self.log = [] if log is None else log
        self.p = p
        self.t = 0

    def predict_proba_one(self, x):
        self.t += 1
        self.log.append(("predict_proba_one", self.t, x))
        return self.p if not callable(self.p) else self.p(self.t, x)

    def learn_one(self, x, y):
        self.log.append(("learn_one", self.t, x, y))


class Scripted(Adversary):
    """An adaptive adversary following scripts for instances and labels; records every call."""

    def __init__(self, xs, ys, log=None, applies=True, rng_draws=0):
        self.xs, self.ys = xs, ys
        self.log = [] if log is None else log
        self.applies = applies
        self.rng_draws = rng_draws
        self.states = []

    def applies_to(self, H):
        return self.applies

    def start(self, state):
        self.log.append(("start", state.t, len(state.history)))
        self.states.append(state)

    def next_instance(self, state):
        self.log.append(("next_instance", state.t, len(state.history)))
        state.rng.random(self.rng_draws)
        return _pick(self.xs, state.t)

    def label(self, state, x, p):
        self.log.append(("label", state.t, x, p, len(state.history)))
        return _pick(self.ys, state.t, x, p)


class Committed(ObliviousAdversary):
    """An oblivious adversary returning a fixed list of pairs; records every call."""

    def __init__(self, pairs, log=None):
        self.pairs = pairs
        self.log = [] if log is None else log
        self.args = None

    def commit(self, H, rounds, rng, realizable):
        self.log.append(("commit",))
        self.args = (H, rounds, rng, realizable)
        return self.pairs(H, rounds, rng, realizable) if callable(self.pairs) else self.pairs

    # an oblivious adversary must never be asked for anything else
    def start(self, state):  # pragma: no cover - failing path
        self.log.append(("start",))

    def next_instance(self, state):  # pragma: no cover - failing path
        self.log.append(("next_instance",))
        return None

    def label(self, state, x, p):  # pragma: no cover - failing path
        self.log.append(("label", p))
        return 0


#: What ``boom`` raises; the KeyboardInterrupt test swaps it.
RAISE = {"exc": lambda: RuntimeError("boom")}


def boom(*args):
    raise RAISE["exc"]()


def consistent_rows(M: np.ndarray, cols, ys) -> tuple:
    cols = np.asarray(cols, dtype=np.int64)
    ys = np.asarray(ys, dtype=np.uint8)
    ok = np.all(M[:, cols] == ys, axis=1) if len(cols) else np.ones(M.shape[0], dtype=bool)
    return tuple(np.flatnonzero(ok).tolist())


def brute_best(M: np.ndarray, cols, ys) -> int:
    cols = np.asarray(cols, dtype=np.int64)
    ys = np.asarray(ys, dtype=np.int64)
    return min(int(sum(int(M[i, c]) != y for c, y in zip(cols, ys))) for i in range(M.shape[0]))


def check_game_error(exc: GameError, *, round: int, player: str, played: int):
    assert exc.round == round
    assert exc.player == player
    msg = str(exc)
    assert "round" in msg and str(round) in msg and player in msg
    assert isinstance(exc.transcript, Transcript)
    assert len(exc.transcript) == played
    assert [r.t for r in exc.transcript.rounds] == list(range(1, played + 1))


# ---------------------------------------------------------------------- round structure
def test_call_order_and_what_each_player_sees():
    log = []
    xs = ["a", "b", "c", "a", "c"]
    learner = Learner(log, predictions=[1, 1, 0, 0, 1])
    adversary = Scripted(xs, lambda t, x, p: TARGET[x], log)
    T = play(learner, adversary, FULL3, rounds=5, seed=0)

    expected = [("start", 1, 0)]
    for t, (x, pred) in enumerate(zip(xs, [1, 1, 0, 0, 1]), start=1):
        expected += [
            ("next_instance", t, t - 1),
            ("predict_one", t, x),
            ("label", t, x, float(pred), t - 1),
            ("learn_one", t, x, TARGET[x]),
        ]
    assert log == expected  # and nothing after round 5: no sixth next_instance
    assert T.rounds == tuple(
        Round(t=t, x=x, p=float(pred), prediction=pred, y=TARGET[x])
        for t, (x, pred) in enumerate(zip(xs, [1, 1, 0, 0, 1]), start=1)
    )
    assert T.mistakes == 3
    assert T.expected_mistakes == 3.0
    assert T.seed == 0 and T.realizable is True
    assert T.class_name == "full3"
    assert T.learner == "Learner" and T.adversary == "Scripted"
    assert T.version_space == (5,)
    assert T.best_hypothesis_mistakes == 0 and T.regret == 3.0


def test_adversary_sees_the_game_state():
    seen = []

    class Watcher(Scripted):
        def label(self, state, x, p):
            seen.append((state.t, [r.x for r in state.history], state.version_mask, state.H, state.rounds))
            return super().label(state, x, p)

    adversary = Watcher(["a", "b", "c"], lambda t, x, p: TARGET[x])
    T = play(Learner(), adversary, FULL3, rounds=7, seed=1)
    assert len(T) == 3
    masks = [sum(1 << i for i in consistent_rows(FULL3.matrix, [FULL3.index_of(x) for x in "abc"[: t - 1]],
                                                  [TARGET[x] for x in "abc"[: t - 1]])) for t in (1, 2, 3)]
    assert seen == [
        (1, [], masks[0], FULL3, 7),
        (2, ["a"], masks[1], FULL3, 7),
        (3, ["a", "b"], masks[2], FULL3, 7),
    ]
    assert isinstance(adversary.states[0], GameState)
    assert adversary.states[0].realizable is True


def test_the_game_state_is_read_only_and_its_version_space_a_view():
    states = []

    class Keeper(Scripted):
        def label(self, state, x, p):
            states.append(state)
            copy = state.versions.copy()  # a version space of its own, to experiment on
            copy.restrict(state.H.index_of(x), 1 - TARGET[x])
            return super().label(state, x, p)

    play(Learner(), Keeper(["a", "b", "c"], lambda t, x, p: TARGET[x]), FULL3, rounds=3, seed=1)
    state = states[-1]
    for name in ("history", "versions", "H", "rounds", "realizable", "rng"):
        with pytest.raises(AttributeError):
            setattr(state, name, None)
    assert not hasattr(state.versions, "restrict") and not hasattr(state.history, "append")
    rows = state.version_space
    with pytest.raises(ValueError):
        rows[0] = 5
    assert state.versions.size == len(rows) and state.versions.first() == rows[0]


def test_game_ends_when_next_instance_returns_none():
    log = []
    learner = Learner(log)
    adversary = Scripted(["a", "b", None, "c"], lambda t, x, p: 0, log)
    T = play(learner, adversary, FULL3, rounds=10, seed=0)
    assert len(T) == 2
    assert [e[0] for e in log].count("next_instance") == 3
    assert [e[0] for e in log].count("predict_one") == 2
    assert [e[0] for e in log].count("label") == 2
    assert [e[0] for e in log].count("learn_one") == 2
    assert log[-1] == ("next_instance", 3, 2)


@pytest.mark.parametrize("rounds", [1, 2, 3, 6])
def test_game_ends_after_rounds(rounds):
    log = []
    adversary = Scripted(lambda t: "abc"[t % 3], lambda t, x, p: TARGET[x], log)
    T = play(Learner(log), adversary, FULL3, rounds=rounds, seed=0)
    assert len(T) == rounds
    kinds = [e[0] for e in log]
    assert kinds.count("start") == 1
    for kind in ("next_instance", "predict_one", "label", "learn_one"):
        assert kinds.count(kind) == rounds


def test_learn_one_gets_the_true_label_not_the_prediction():
    log = []
    learner = Learner(log, predictions=0)
    T = play(learner, Scripted(["a", "b", "c"], [1, 1, 1], log), FULL3, rounds=3, seed=0)
    assert [e for e in log if e[0] == "learn_one"] == [("learn_one", t, x, 1) for t, x in zip((1, 2, 3), "abc")]
    assert T.mistakes == 3


def test_randomized_learner_adversary_sees_probability_and_learner_gets_true_y():
    log = []
    learner = RandomLearner(log, p=0.3)
    adversary = Scripted(lambda t: "abc"[t % 3], lambda t, x, p: TARGET[x], log)
    T = play(learner, adversary, FULL3, rounds=200, seed=5)
    labels = [e for e in log if e[0] == "label"]
    assert len(labels) == 200
    assert all(e[3] == 0.3 for e in labels)  # p itself, never the 0/1 draw
    assert all(e[4] == e[1] - 1 for e in labels)  # the current round is not in the history yet
    learned = [e for e in log if e[0] == "learn_one"]
    assert [e[3] for e in learned] == [r.y for r in T.rounds]
    assert [e[3] for e in learned] == [TARGET[r.x] for r in T.rounds]
    kinds = [e[0] for e in log]
    assert kinds[:5] == ["start", "next_instance", "predict_proba_one", "label", "learn_one"]
    # the draws vary while what the adversary saw did not
    assert {r.prediction for r in T.rounds} == {0, 1}


def test_labels_and_predictions_are_normalised_to_int():
    log = []
    learner = Learner(log, predictions=[True, np.int64(0), 1.0, np.uint8(1), False])
    adversary = Scripted(["a", "b", "c", "a", "b"], [np.True_, np.int64(0), 1.0, True, 0], log)
    T = play(learner, adversary, FULL3, rounds=5, seed=0)
    assert [r.prediction for r in T.rounds] == [1, 0, 1, 1, 0]
    assert [r.y for r in T.rounds] == [1, 0, 1, 1, 0]
    assert all(type(r.prediction) is int and type(r.y) is int for r in T.rounds)
    assert [e[3] for e in log if e[0] == "learn_one"] == [1, 0, 1, 1, 0]
    assert all(type(e[3]) is int for e in log if e[0] == "learn_one")
    assert [r.p for r in T.rounds] == [1.0, 0.0, 1.0, 1.0, 0.0]


# -------------------------------------------------------------------------- information
def test_oblivious_adversary_commits_once_before_any_prediction_and_sees_nothing():
    log = []
    pairs = [("a", 1), ("b", 0), ("c", 1), ("a", 1)]
    adversary = Committed(pairs, log)
    learner = RandomLearner(log, p=0.6)
    T = play(learner, adversary, FULL3, rounds=4, seed=2)
    assert log[0] == ("commit",)
    assert [e[0] for e in log].count("commit") == 1
    assert not any(e[0] in ("start", "next_instance", "label") for e in log)
    H, rounds, rng, realizable = adversary.args
    assert H is FULL3 and rounds == 4 and isinstance(rng, np.random.Generator) and realizable is True
    assert [(r.x, r.y) for r in T.rounds] == pairs
    assert all(r.p == 0.6 for r in T.rounds)
    assert [e[3] for e in log if e[0] == "learn_one"] == [1, 0, 1, 1]


def test_oblivious_commit_is_cut_to_rounds_and_a_short_commit_ends_the_game():
    pairs = [("a", 1), ("b", 0), ("c", 1), ("a", 1), ("b", 0)]
    log = []
    T = play(Learner(log), Committed(pairs, log), FULL3, rounds=3, seed=0)
    assert [(r.x, r.y) for r in T.rounds] == pairs[:3]
    assert [e[0] for e in log].count("predict_one") == 3
    log = []
    T = play(Learner(log), Committed(pairs[:2], log), FULL3, rounds=10, seed=0, realizable=False)
    assert [(r.x, r.y) for r in T.rounds] == pairs[:2]
    assert [e[0] for e in log] == ["commit", "predict_one", "learn_one", "predict_one", "learn_one"]


def test_oblivious_commit_receives_realizable_flag():
    adversary = Committed([("a", 0)])
    play(Learner(), adversary, FULL3, rounds=1, seed=0, realizable=False)
    assert adversary.args[3] is False


def test_oblivious_commit_may_be_a_generator():
    T = play(Learner(), Committed(lambda H, n, rng, r: ((x, TARGET[x]) for x in "abc")), FULL3, rounds=5, seed=0)
    assert T.xs == ("a", "b", "c")


@pytest.mark.parametrize("result", [None, 3, object()])
def test_oblivious_commit_that_is_not_a_sequence_is_a_game_error(result):
    with pytest.raises(GameError) as info:
        play(Learner(), Committed(result), FULL3, rounds=3, seed=0)
    check_game_error(info.value, round=1, player="adversary", played=0)


def test_oblivious_commit_generator_that_raises_is_a_player_error():
    """A lazily committed sequence is still the adversary's move: its exception is a PlayerError."""

    def pairs(H, rounds, rng, realizable):
        yield ("a", 1)
        raise RuntimeError("boom")

    with pytest.raises(PlayerError) as info:
        play(Learner(), Committed(pairs), FULL3, rounds=3, seed=0)
    check_game_error(info.value, round=1, player="adversary", played=0)
    assert type(info.value.__cause__) is RuntimeError


def test_draws_do_not_depend_on_how_the_adversary_uses_its_generator():
    """The engine's coin is not the adversary's generator: the adversary can neither see nor steer it."""
    runs = []
    for draws in (0, 1, 7):
        adversary = Scripted(lambda t: "abc"[t % 3], lambda t, x, p: TARGET[x], rng_draws=draws)
        runs.append(play(RandomLearner(p=0.5), adversary, FULL3, rounds=300, seed=11))
    assert runs[0] == runs[1] == runs[2]


# ---------------------------------------------------------------------- randomized play
def test_randomized_learner_p_draws_and_exact_expected_mistakes():
    n = 10_000
    ys = np.random.default_rng(2024).integers(0, 2, size=n).tolist()
    adversary = Scripted(lambda t: "abc"[t % 3], lambda t, x, p: ys[t - 1])
    T = play(RandomLearner(p=0.3), adversary, FULL3, rounds=n, seed=123, realizable=False)
    assert len(T) == n
    assert all(r.p == 0.3 for r in T.rounds)
    assert all(type(r.prediction) is int and r.prediction in (0, 1) for r in T.rounds)
    assert [r.y for r in T.rounds] == ys
    exact = sum((abs(Fraction(0.3) - y) for y in ys), Fraction(0))
    assert T.expected_mistakes == float(exact)
    assert T.mistakes == sum(r.prediction != r.y for r in T.rounds)
    freq = sum(r.prediction for r in T.rounds) / n
    assert 0.27 <= freq <= 0.33
    # the drawn label is independent of the true label: mistakes are about 0.3 * #0 + 0.7 * #1
    assert abs(T.mistakes - T.expected_mistakes) < 0.03 * n


def test_expected_mistakes_of_a_game_are_exact_over_the_stored_p():
    """sum_t |p_t - y_t| in exact arithmetic: (1 - 0.3) + (0.3 - 2**-54) = 1 - 2**-54 -> 1.0."""
    ps = [0.3, math.nextafter(0.3, 0.0)]
    T = play(RandomLearner(p=lambda t, x: ps[t - 1]), Committed([("a", 1), ("b", 0)]), FULL3, rounds=2, seed=0)
    exact = sum((abs(Fraction(r.p) - r.y) for r in T.rounds), Fraction(0))
    assert float(exact) == 1.0
    assert T.expected_mistakes == float(exact)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_certain_probabilities_draw_certain_labels(seed):
    ps = [0.0, 1.0, 0, 1, False, True]

    def p(t, x):
        return ps[t % len(ps)]

    T = play(RandomLearner(p=p), Scripted(lambda t: "a", lambda t, x, p: 1), FULL3, rounds=3000, seed=seed)
    for r in T.rounds:
        assert r.p in (0.0, 1.0) and type(r.p) is float
        assert r.prediction == int(r.p)
    assert T.mistakes == sum(1 for r in T.rounds if r.p == 0.0)
    assert T.expected_mistakes == T.mistakes


def test_probabilities_of_other_numeric_types_are_accepted():
    ps = [Fraction(1, 4), np.float64(0.5), np.float32(0.75), 1, 0]
    T = play(RandomLearner(p=lambda t, x: ps[t - 1]), Committed([("a", 1)] * 5), FULL3, rounds=5, seed=0)
    assert [r.p for r in T.rounds] == [0.25, 0.5, float(np.float32(0.75)), 1.0, 0.0]
    assert all(type(r.p) is float for r in T.rounds)


# ---------------------------------------------------------------------- reproducibility
def test_same_seed_same_transcript_oblivious_coin():
    H = THRESH
    for labels, realizable in (("target", True), ("coin", False)):
        a = play(Halving(H), ObliviousCoin(labels=labels), H, rounds=60, seed=42, realizable=realizable)
        b = play(Halving(H), ObliviousCoin(labels=labels), H, rounds=60, seed=42, realizable=realizable)
        assert a == b and a.rounds == b.rounds
        c = play(Halving(H), ObliviousCoin(labels=labels), H, rounds=60, seed=43, realizable=realizable)
        assert c.rounds != a.rounds


def test_same_seed_same_transcript_randomized_learner():
    a = play(RandomLearner(p=0.5), ObliviousCoin(labels="coin"), THRESH, rounds=200, seed=9, realizable=False)
    b = play(RandomLearner(p=0.5), ObliviousCoin(labels="coin"), THRESH, rounds=200, seed=9, realizable=False)
    assert a == b
    c = play(RandomLearner(p=0.5), ObliviousCoin(labels="coin"), THRESH, rounds=200, seed=10, realizable=False)
    assert [r.prediction for r in c.rounds] != [r.prediction for r in a.rounds]
    assert c.xs != a.xs


def test_different_seeds_differ_with_fixed_sequence():
    """Only the engine's draws vary: the coins of a randomized learner depend on the seed."""
    adversary = Committed([("a", 1)] * 200)
    a = play(RandomLearner(p=0.5), adversary, FULL3, rounds=200, seed=0)
    b = play(RandomLearner(p=0.5), adversary, FULL3, rounds=200, seed=1)
    assert a.xs == b.xs and a.ys == b.ys
    assert [r.prediction for r in a.rounds] != [r.prediction for r in b.rounds]


def test_seed_none_records_a_seed_that_replays_the_game():
    a = play(RandomLearner(p=0.5), ObliviousCoin(labels="coin"), THRESH, rounds=100, seed=None, realizable=False)
    assert type(a.seed) is int and a.seed >= 0
    b = play(RandomLearner(p=0.5), ObliviousCoin(labels="coin"), THRESH, rounds=100, seed=a.seed, realizable=False)
    assert a == b
    c = play(RandomLearner(p=0.5), ObliviousCoin(labels="coin"), THRESH, rounds=100, seed=None, realizable=False)
    assert c.seed != a.seed  # fresh entropy each time


def test_seed_none_replay_deterministic_learner():
    a = play(SOA(THRESH), ObliviousCoin(), THRESH, rounds=30)
    assert isinstance(a.seed, int)
    assert play(SOA(THRESH), ObliviousCoin(), THRESH, rounds=30, seed=a.seed) == a


def test_numpy_integer_seed_and_rounds_are_accepted():
    a = play(RandomLearner(), ObliviousCoin(), THRESH, rounds=np.int64(20), seed=np.uint32(5))
    b = play(RandomLearner(), ObliviousCoin(), THRESH, rounds=20, seed=5)
    assert a == b and len(a) == 20 and type(a.seed) is int


# ------------------------------------------------------------------------ realizability
def _inconsistent_adversary(log=None):
    # thresholds: y(1) = 1 forces y(2) = 1; round 2 says 0
    return Scripted([1, 2, 3, 0], [1, 0, 1, 0], log)


def test_unrealizable_label_stops_a_realizable_game():
    log = []
    learner = Learner(log, predictions=[0, 1, 1, 1])
    with pytest.raises(UnrealizableLabelError) as info:
        play(learner, _inconsistent_adversary(log), THRESH, rounds=4, seed=0)
    exc = info.value
    assert isinstance(exc, IllegalLabelError) and isinstance(exc, ValueError)
    check_game_error(exc, round=2, player="adversary", played=1)
    assert exc.transcript.rounds == (Round(t=1, x=1, p=0.0, prediction=0, y=1),)
    assert exc.transcript.version_space == (0, 1)  # thresholds k = 0, 1 give 1 to x = 1
    assert exc.transcript.best_hypothesis_mistakes == 0
    # the learner was not taught the illegal label, and the game went no further
    assert [e for e in log if e[0] == "learn_one"] == [("learn_one", 1, 1, 1)]
    assert log[-1][0] == "label" and log[-1][1] == 2


def test_unrealizable_label_in_round_one():
    H = HypothesisClass.from_matrix([[0, 1]])
    with pytest.raises(UnrealizableLabelError) as info:
        play(Learner(), Scripted([0], [1]), H, rounds=3, seed=0)
    check_game_error(info.value, round=1, player="adversary", played=0)
    assert info.value.transcript.version_space == (0,)


def test_unrealizable_oblivious_label():
    with pytest.raises(UnrealizableLabelError) as info:
        play(Learner(), Committed([("a", 1), ("a", 0)]), FULL3, rounds=2, seed=0)
    check_game_error(info.value, round=2, player="adversary", played=1)


def test_same_adversary_plays_on_when_not_realizable():
    log = []
    T = play(Learner(log, predictions=[0, 1, 1, 1]), _inconsistent_adversary(log), THRESH, rounds=4, seed=0,
             realizable=False)
    assert len(T) == 4
    assert T.realizable is False
    assert T.ys == (1, 0, 1, 0)
    assert T.version_space == ()
    assert T.best_hypothesis_mistakes == brute_best(THRESH.matrix, [1, 2, 3, 0], [1, 0, 1, 0]) == 1
    assert T.regret == T.expected_mistakes - 1
    assert [e[3] for e in log if e[0] == "learn_one"] == [1, 0, 1, 0]


@SETTINGS
@given(class_matrices(max_rows=12, max_cols=6), st.integers(0, 25), st.integers(0, 2**32 - 1))
def test_realizable_version_space_is_exactly_the_consistent_rows(M, rounds, seed):
    H = HypothesisClass.from_matrix(M)
    T = play(Halving(H), ObliviousCoin(labels="target"), H, rounds=rounds, seed=seed)
    cols = [H.index_of(x) for x in T.xs]
    assert T.version_space == consistent_rows(M, cols, T.ys)
    assert len(T.version_space) >= 1
    assert T.best_hypothesis_mistakes == 0
    assert len(T) == (rounds if H.n_instances else 0)


@SETTINGS
@given(class_matrices(max_rows=12, max_cols=5, min_cols=1), st.integers(1, 20), st.integers(0, 2**32 - 1))
def test_realizable_game_stops_at_the_first_unrealizable_label(M, rounds, seed):
    """With coin labels, a realizable game stops exactly when no row fits the prefix."""
    H = HypothesisClass.from_matrix(M)
    full = play(Consistent(H), ObliviousCoin(labels="coin"), H, rounds=rounds, seed=seed, realizable=False)
    cols = [H.index_of(x) for x in full.xs]
    first_bad = next(
        (t for t in range(1, len(full) + 1) if not consistent_rows(M, cols[:t], full.ys[:t])), None
    )
    if first_bad is None:
        T = play(Consistent(H), ObliviousCoin(labels="coin"), H, rounds=rounds, seed=seed)
        assert T.rounds == full.rounds
        assert T.version_space == full.version_space == consistent_rows(M, cols, full.ys)
    else:
        with pytest.raises(UnrealizableLabelError) as info:
            play(Consistent(H), ObliviousCoin(labels="coin"), H, rounds=rounds, seed=seed)
        check_game_error(info.value, round=first_bad, player="adversary", played=first_bad - 1)
        assert info.value.transcript.rounds == full.rounds[: first_bad - 1]
        assert info.value.transcript.version_space == consistent_rows(
            M, cols[: first_bad - 1], full.ys[: first_bad - 1]
        )
        assert full.version_space == ()


class LegalRandom(Adversary):
    """Adaptive: random instance, random legal label; checks the state's bookkeeping."""

    def __init__(self, M):
        self.M = M

    def next_instance(self, state):
        cols = [state.H.index_of(r.x) for r in state.history]
        assert tuple(state.version_space.tolist()) == consistent_rows(self.M, cols, [r.y for r in state.history])
        return state.H.domain[int(state.rng.integers(state.H.n_instances))]

    def label(self, state, x, p):
        n0, n1 = state.split(x)
        col = self.M[list(state.version_space), state.H.index_of(x)]
        assert (n0, n1) == (int((col == 0).sum()), int((col == 1).sum()))
        labels = state.possible_labels(x)
        return labels[int(state.rng.integers(len(labels)))]


@SETTINGS
@given(class_matrices(max_rows=10, max_cols=5, min_cols=1), st.integers(0, 15), st.integers(0, 1000))
def test_adaptive_legal_labels_are_always_accepted(M, rounds, seed):
    H = HypothesisClass.from_matrix(M)
    T = play(RandomLearner(p=0.5), LegalRandom(M), H, rounds=rounds, seed=seed)
    assert len(T) == rounds
    cols = [H.index_of(x) for x in T.xs]
    assert T.version_space == consistent_rows(M, cols, T.ys) != ()


# -------------------------------------------------------------------------- bad players
@pytest.mark.parametrize("bad", ["z", 7, (0, 1), [0], ["a"], {"a": 1}, ("a",), 1.5, "A", np.array("a"), np.array(["a"])])
def test_instance_outside_the_domain(bad):
    log = []
    adversary = Scripted(["a", "b", bad], lambda t, x, p: TARGET[x], log)
    with pytest.raises(IllegalInstanceError) as info:
        play(Learner(log), adversary, FULL3, rounds=5, seed=0)
    exc = info.value
    assert isinstance(exc, ValueError)
    check_game_error(exc, round=3, player="adversary", played=2)
    assert exc.transcript.xs == ("a", "b")
    # the learner never saw the illegal instance
    assert sum(1 for e in log if e[0] == "predict_one") == 2


@pytest.mark.parametrize("bad", ["z", [0], 4, np.array(1), [1]])
def test_oblivious_instance_outside_the_domain(bad):
    with pytest.raises(IllegalInstanceError) as info:
        play(Learner(), Committed([(1, 1), (bad, 1)]), THRESH, rounds=2, seed=0)
    check_game_error(info.value, round=2, player="adversary", played=1)


@pytest.mark.parametrize("bad", [("a",), ["a", 1], "a", None, ("a", 1, 0)])
def test_oblivious_item_that_is_not_a_pair(bad):
    with pytest.raises(GameError) as info:
        play(Learner(), Committed([("a", 1), bad]), FULL3, rounds=2, seed=0)
    check_game_error(info.value, round=2, player="adversary", played=1)


@pytest.mark.parametrize("bad", [2, -1, 0.5, None, float("nan"), np.float64("nan"), np.float32("nan"), "1", "0",
                                 1j, [1], np.int64(2)])
def test_illegal_deterministic_prediction(bad):
    log = []
    learner = Learner(log, predictions=[1, 0, bad])
    with pytest.raises(IllegalPredictionError) as info:
        play(learner, Scripted(["a", "b", "c", "a"], lambda t, x, p: TARGET[x], log), FULL3, rounds=4, seed=0)
    exc = info.value
    assert isinstance(exc, ValueError)
    check_game_error(exc, round=3, player="learner", played=2)
    assert exc.transcript.rounds == (
        Round(t=1, x="a", p=1.0, prediction=1, y=1),
        Round(t=2, x="b", p=0.0, prediction=0, y=0),
    )
    # the adversary was not asked for a label after the illegal prediction
    assert sum(1 for e in log if e[0] == "label") == 2


@pytest.mark.parametrize("bad", [1.5, -0.1, float("nan"), None, "0.5", float("inf"), -1, 2, 1j, np.float64(1.0000001)])
def test_illegal_probability(bad):
    learner = RandomLearner(p=lambda t, x: 0.5 if t < 3 else bad)
    with pytest.raises(IllegalPredictionError) as info:
        play(learner, Scripted(["a", "b", "c"], lambda t, x, p: TARGET[x]), FULL3, rounds=3, seed=0)
    check_game_error(info.value, round=3, player="learner", played=2)
    assert all(r.p == 0.5 for r in info.value.transcript.rounds)


@pytest.mark.parametrize("bad", [2, None, float("nan"), -1, 0.5, "1", np.int64(3)])
def test_illegal_label(bad):
    log = []
    adversary = Scripted(["a", "b", "c"], [1, 0, bad], log)
    with pytest.raises(IllegalLabelError) as info:
        play(Learner(log), adversary, FULL3, rounds=3, seed=0, realizable=False)
    exc = info.value
    assert not isinstance(exc, UnrealizableLabelError)
    check_game_error(exc, round=3, player="adversary", played=2)
    assert exc.transcript.ys == (1, 0)
    assert sum(1 for e in log if e[0] == "learn_one") == 2


@pytest.mark.parametrize("bad", [2, None, float("nan")])
def test_illegal_label_realizable_game_is_not_reported_as_unrealizable(bad):
    with pytest.raises(IllegalLabelError) as info:
        play(Learner(), Scripted(["a"], [bad]), FULL3, rounds=1, seed=0)
    assert not isinstance(info.value, UnrealizableLabelError)
    check_game_error(info.value, round=1, player="adversary", played=0)


@pytest.mark.parametrize("bad", [2, None, "1"])
def test_illegal_oblivious_label(bad):
    with pytest.raises(IllegalLabelError) as info:
        play(Learner(), Committed([("a", 1), ("b", bad)]), FULL3, rounds=2, seed=0)
    check_game_error(info.value, round=2, player="adversary", played=1)


def _raising_setups(fault):
    """(learner, adversary, round, player, rounds played before) for a RuntimeError at round 3 (or 1)."""
    xs, ys = ["a", "b", "c", "a"], lambda t, x, p: TARGET[x]
    if fault == "predict_one":
        return Learner(predictions=lambda t, x: boom() if t == 3 else 0), Scripted(xs, ys), 3, "learner", 2
    if fault == "predict_proba_one":
        return RandomLearner(p=lambda t, x: boom() if t == 3 else 0.5), Scripted(xs, ys), 3, "learner", 2
    if fault == "learn_one":
        learner = Learner()
        learner.learn_one = lambda x, y: boom() if learner.t == 3 else None
        return learner, Scripted(xs, ys), 3, "learner", 2
    if fault == "next_instance":
        return Learner(), Scripted(lambda t: boom() if t == 3 else xs[t - 1], ys), 3, "adversary", 2
    if fault == "label":
        return Learner(), Scripted(xs, lambda t, x, p: boom() if t == 3 else TARGET[x]), 3, "adversary", 2
    if fault == "start":
        adversary = Scripted(xs, ys)
        adversary.start = boom
        return Learner(), adversary, 1, "adversary", 0
    if fault == "commit":
        return Learner(), Committed(boom), 1, "adversary", 0
    raise AssertionError(fault)


FAULTS = ["predict_one", "predict_proba_one", "learn_one", "next_instance", "label", "start", "commit"]


@pytest.mark.parametrize("fault", FAULTS)
def test_player_exception_becomes_player_error(fault):
    learner, adversary, round_, player, played = _raising_setups(fault)
    with pytest.raises(PlayerError) as info:
        play(learner, adversary, FULL3, rounds=4, seed=0)
    exc = info.value
    assert type(exc.__cause__) is RuntimeError and str(exc.__cause__) == "boom"
    check_game_error(exc, round=round_, player=player, played=played)
    assert exc.transcript.xs == ("a", "b", "c")[:played]
    assert exc.transcript.ys == tuple(TARGET[x] for x in "abc"[:played])
    # the version space is that of the completed rounds, even when learn_one failed mid-round
    assert exc.transcript.version_space == consistent_rows(
        FULL3.matrix, [FULL3.index_of(x) for x in "abc"[:played]], [TARGET[x] for x in "abc"[:played]]
    )
    assert "boom" in str(exc)


@pytest.mark.parametrize("fault", FAULTS)
def test_keyboard_interrupt_stops_the_game_and_keeps_the_rounds_played(fault, monkeypatch):
    learner, adversary, _, _, played = _raising_setups(fault)
    interrupt = KeyboardInterrupt("stop")
    monkeypatch.setitem(RAISE, "exc", lambda: interrupt)
    with pytest.raises(KeyboardInterrupt) as info:
        play(learner, adversary, FULL3, rounds=4, seed=0)
    assert isinstance(info.value, GameInterrupted)  # still a KeyboardInterrupt, never a framework error
    assert not isinstance(info.value, MistakeboundError)
    assert info.value.__context__ is interrupt
    assert info.value.transcript.xs == ("a", "b", "c")[:played]
    assert info.value.transcript.ys == tuple(TARGET[x] for x in "abc"[:played])


def test_framework_error_inside_a_player_is_still_a_player_error():
    def bad_label(t, x, p):
        if t == 2:
            raise InvalidArgumentError("something: bad")
        return TARGET[x]

    with pytest.raises(PlayerError) as info:
        play(Learner(), Scripted(["a", "b"], bad_label), FULL3, rounds=2, seed=0)
    check_game_error(info.value, round=2, player="adversary", played=1)
    assert isinstance(info.value.__cause__, InvalidArgumentError)


# ------------------------------------------------------------------------ bad arguments
@pytest.mark.parametrize("rounds", [-1, 1.5, True, False, "3", None, 2.0])
def test_bad_rounds(rounds):
    log = []
    with pytest.raises(InvalidArgumentError) as info:
        play(Learner(log), Scripted(["a"], [1], log), FULL3, rounds=rounds, seed=0)
    assert isinstance(info.value, ValueError)
    assert "rounds" in str(info.value)
    assert log == []


@pytest.mark.parametrize("seed", [-1, 1.5, "0", True, [1]])
def test_bad_seed(seed):
    log = []
    with pytest.raises(InvalidArgumentError) as info:
        play(Learner(log), Scripted(["a"], [1], log), FULL3, rounds=1, seed=seed)
    assert "seed" in str(info.value)
    assert log == []


@pytest.mark.parametrize("H", [None, np.array([[0, 1], [1, 0]]), [[0, 1]], "full3"])
def test_bad_class(H):
    log = []
    with pytest.raises(InvalidArgumentError) as info:
        play(Learner(log), Scripted(["a"], [1], log), H, rounds=1, seed=0)
    assert "H" in str(info.value)
    assert log == []


def test_class_is_required():
    with pytest.raises(InvalidArgumentError, match="H"):
        play(Learner(), Scripted(["a"], [1]), rounds=1, seed=0)


def test_not_applicable_adversary():
    log = []
    with pytest.raises(NotApplicableError) as info:
        play(Learner(log), Scripted(["a"], [1], log, applies=False), FULL3, rounds=1, seed=0)
    assert isinstance(info.value, ValueError)
    assert "adversary" in str(info.value)
    assert log == []  # neither player was asked to move


# ------------------------------------------------------------------------------- regret
@SETTINGS
@given(class_matrices(max_rows=12, max_cols=6, min_cols=1), st.integers(0, 40), st.integers(0, 2**32 - 1),
       st.sampled_from(["halving", "random"]))
def test_best_hypothesis_mistakes_is_brute_force_min(M, rounds, seed, which):
    H = HypothesisClass.from_matrix(M)
    learner = Halving(H) if which == "halving" else RandomLearner(p=0.25)
    T = play(learner, ObliviousCoin(labels="coin"), H, rounds=rounds, seed=seed, realizable=False)
    cols = [H.index_of(x) for x in T.xs]
    assert len(T) == rounds
    assert T.best_hypothesis_mistakes == brute_best(M, cols, T.ys)
    assert T.regret == T.expected_mistakes - T.best_hypothesis_mistakes
    assert T.version_space == consistent_rows(M, cols, T.ys)
    assert T.realizable is False


@st.composite
def classes_with_constant_rows(draw):
    M = draw(class_matrices(max_rows=10, max_cols=5, min_cols=1))
    n = M.shape[1]
    rows = list(M) + [np.zeros(n, dtype=np.uint8), np.ones(n, dtype=np.uint8)]
    order = draw(st.permutations(range(len(rows))))
    return np.array([rows[i] for i in order], dtype=np.uint8)


@SETTINGS
@given(classes_with_constant_rows(), st.integers(1, 40), st.sampled_from([Consistent, Halving, SOA]))
def test_cover_deterministic_learners_have_regret_at_least_half(M, T_, learner_cls):
    H = HypothesisClass.from_matrix(M)
    T = play(learner_cls(H), OppositeLabel(), H, rounds=T_, seed=0, realizable=False)
    assert len(T) == T_
    assert T.mistakes == T_  # errs in every round
    assert T.expected_mistakes == T_
    cols = [H.index_of(x) for x in T.xs]
    assert T.best_hypothesis_mistakes == brute_best(M, cols, T.ys) <= T_ // 2
    assert T.regret >= T_ / 2


# ------------------------------------------------------------------------------ rounds=0
def test_zero_rounds():
    log = []
    T = play(Learner(log), Scripted(["a"], [1], log), FULL3, rounds=0, seed=0)
    assert len(T) == 0 and T.rounds == ()
    assert T.best_hypothesis_mistakes == 0 and T.regret == 0
    assert (T.mistakes, T.expected_mistakes) == (0, 0)
    assert T.version_space == tuple(range(FULL3.n_hypotheses))
    assert not any(e[0] in ("next_instance", "predict_one", "label", "learn_one") for e in log)


def test_zero_rounds_oblivious():
    adversary = Committed([("a", 1)])
    T = play(Learner(), adversary, FULL3, rounds=0, seed=0, realizable=False)
    assert T.rounds == () and T.best_hypothesis_mistakes == 0
    assert adversary.args[1] == 0


def test_zero_rounds_with_zoo_players():
    T = play(Halving(THRESH), ObliviousCoin(), THRESH, rounds=0, seed=0)
    assert T == Transcript(
        rounds=(), learner=T.learner, adversary=T.adversary, seed=0, class_name="thresh4",
        realizable=True, version_space=tuple(range(5)), best_hypothesis_mistakes=0,
    )
    assert math.isclose(T.regret, 0)


@pytest.mark.parametrize("rounds", [10**12 + 1, 10**30, -1])
@pytest.mark.parametrize("oblivious", [False, True])
def test_rounds_outside_the_documented_range_are_refused_before_round_one(rounds, oblivious):
    """The library door refuses the horizon the command line refuses (one range: ``MAX_ROUNDS``), naming the
    parameter, the value and the range, before any player is asked anything (issue 27)."""
    log = []
    adversary = Committed([("a", 1)]) if oblivious else Scripted(["a"], [1], log)
    with pytest.raises(InvalidArgumentError) as caught:
        play(Learner(log), adversary, FULL3, rounds=rounds, seed=0)
    message = str(caught.value)
    assert message.startswith("rounds: expected an integer from 0 to 1,000,000,000,000, got ")
    assert str(rounds) in message
    assert log == [] and getattr(adversary, "args", None) is None


def test_the_library_and_the_command_line_read_one_range_of_rounds():
    from mistakebound.game.rules import MAX_ROUNDS
    from mistakebound.interfaces import arguments

    assert arguments.MAX_ROUNDS is MAX_ROUNDS == 10**12
    assert arguments.rounds(str(MAX_ROUNDS)) == MAX_ROUNDS


def test_the_largest_documented_horizon_is_played():
    from mistakebound.adversaries import BinarySearchThreshold

    T = play(Halving(THRESH), BinarySearchThreshold(), THRESH, rounds=10**12, seed=0)
    assert 0 < len(T) < 10


def test_players_without_the_methods_of_the_game_are_refused_before_round_one():
    H = HypothesisClass.from_matrix([[0, 1], [1, 0]])

    class NoPredict:
        def learn_one(self, x, y):
            pass

    class NoLearn:
        def predict_one(self, x):
            return 0

    class NoLabel:
        def next_instance(self, state):
            return 0

    with pytest.raises(InvalidArgumentError, match="learner: NoPredict has neither predict_one"):
        play(NoPredict(), OppositeLabel(), H, rounds=1, seed=0)
    with pytest.raises(InvalidArgumentError, match="learner: NoLearn has no learn_one"):
        play(NoLearn(), OppositeLabel(), H, rounds=1, seed=0)
    with pytest.raises(InvalidArgumentError, match="adversary: NoLabel lacks label"):
        play(Halving(H), NoLabel(), H, rounds=1, seed=0)


def test_an_adversary_whose_applies_to_raises_is_a_player_error():
    H = HypothesisClass.from_matrix([[0, 1], [1, 0]])

    class Broken(OppositeLabel):
        def applies_to(self, H):
            raise RuntimeError("cannot tell")

    with pytest.raises(PlayerError) as info:
        play(Halving(H), Broken(), H, rounds=1, seed=0)
    assert info.value.player == "adversary" and type(info.value.__cause__) is RuntimeError


# ------------------------------------------------------------------ observers
from mistakebound.game.play import GameInfo, Observer, observing  # noqa: E402


class Watcher(Observer):
    def __init__(self):
        self.events = []

    def on_start(self, game):
        self.events.append(("start", game))

    def on_round(self, game, r):
        self.events.append(("round", r))

    def on_end(self, game, transcript):
        self.events.append(("end", transcript))


@settings(max_examples=40, deadline=None)
@given(class_matrices(), st.integers(0, 2**16), st.sampled_from(["adaptive", "oblivious"]), st.booleans())
def test_observers_see_every_round_as_the_transcript_records_it(M, seed, kind, realizable):
    H = HypothesisClass.from_matrix(M)
    adversary = OppositeLabel() if kind == "adaptive" else ObliviousCoin(labels="coin" if not realizable else None)
    if not realizable and kind == "adaptive":
        realizable = True
    watch = Watcher()
    T = play(Halving(H), adversary, H, rounds=12, seed=seed, realizable=realizable, observers=[watch])
    assert watch.events[0][0] == "start" and watch.events[-1] == ("end", T)
    start = watch.events[0][1]
    assert isinstance(start, GameInfo) and start.H is H and start.seed == seed and start.rounds == 12
    assert [r for kind_, r in watch.events[1:-1]] == list(T.rounds)
    # the same game without an observer is the same game
    again = play(Halving(H), adversary.__class__(**({} if kind == "adaptive" else {"labels": adversary.labels})),
                 H, rounds=12, seed=seed, realizable=realizable)
    assert again.rounds == T.rounds


def test_observing_installs_observers_for_every_game_and_removes_them_on_exit():
    H = FULL3
    outer, inner = Watcher(), Watcher()
    with observing(outer):
        play(Halving(H), OppositeLabel(), H, rounds=3, seed=0)
        with pytest.raises(RuntimeError):
            with observing(inner):
                play(Halving(H), OppositeLabel(), H, rounds=3, seed=0)
                raise RuntimeError("boom")
        play(Halving(H), OppositeLabel(), H, rounds=3, seed=0)
    play(Halving(H), OppositeLabel(), H, rounds=3, seed=0)
    assert sum(e[0] == "end" for e in outer.events) == 3
    assert sum(e[0] == "end" for e in inner.events) == 1


def test_a_game_stopped_by_an_error_is_not_reported_as_ended():
    watch = Watcher()
    with pytest.raises(PlayerError):
        play(Learner(), Scripted(["a", "b"], lambda t, x, p: 1 / 0 if t == 2 else TARGET[x]), FULL3, rounds=3, seed=0,
             observers=[watch])
    assert [e[0] for e in watch.events] == ["start", "round"]


@pytest.mark.parametrize("bad", [[object()], "abc", 3])
def test_observers_that_are_not_observers_are_refused(bad):
    with pytest.raises(InvalidArgumentError, match="^observers: "):
        play(Halving(FULL3), OppositeLabel(), FULL3, rounds=3, seed=0, observers=bad)


def test_ctrl_c_seen_by_an_observer_keeps_the_rounds_played():
    class StopAfterTwo(Observer):
        def on_round(self, game, r):
            if r.t == 2:
                raise KeyboardInterrupt

    with pytest.raises(GameInterrupted) as info:
        play(Halving(FULL3), ObliviousCoin(), FULL3, rounds=6, seed=0, observers=[StopAfterTwo()])
    assert len(info.value.transcript) == 2


# ------------------------------------------------------------------ the game's other settings (issue 23)
from mistakebound.foundations.errors import PeekError  # noqa: E402
from mistakebound.game.feedback import BanditFeedback  # noqa: E402
from mistakebound.game.rules import Rules  # noqa: E402
from mistakebound.game import classes  # noqa: E402


class _Scripted:
    """An adversary that presents instance ``x`` and gives the labels of ``ys`` in turn."""

    def __init__(self, x, ys):
        self.x, self.ys = x, list(ys)

    def applies_to(self, H, *, rules=None):  # plays any rules: it says so
        return True

    def next_instance(self, state):
        return self.x if self.ys else None

    def label(self, state, x, p):
        return self.ys.pop(0)


class _BanditGuesser:
    """Tries the labels in turn, moving on after each wrong guess: the bandit learner of one instance."""

    feedbacks = ("full", "bandit")

    def __init__(self, k):
        self.k, self.guess, self.seen = k, 0, []

    def predict_one(self, x):
        return self.guess

    def learn_one(self, x, feedback):
        self.seen.append(feedback)
        correct = feedback.correct if isinstance(feedback, BanditFeedback) else feedback == self.guess
        if not correct:
            self.guess = (self.guess + 1) % self.k


class _Peeker(_BanditGuesser):
    """Declares bandit feedback, then reads the label anyway."""

    def learn_one(self, x, feedback):
        self.guess = int(feedback)


def test_under_bandit_feedback_the_learner_sees_only_whether_it_erred():
    H = HypothesisClass.from_matrix([[0], [1], [2]], labels=3)
    learner = _BanditGuesser(3)
    T = play(learner, _Scripted(0, [2, 2, 2]), H, rounds=3, rules=Rules(labels=3, feedback="bandit"))
    assert T.mistakes == 2 and [f.correct for f in learner.seen] == [False, False, True]
    assert all(isinstance(f, BanditFeedback) for f in learner.seen)
    assert T.seen_by_learner() == [(0, 0, False), (0, 1, False), (0, 2, True)]
    assert [r.y for r in T.rounds] == [2, 2, 2]  # the transcript keeps the labels the adversary gave
    assert "bandit feedback" in T.header(3)


def test_a_learner_that_peeks_at_the_label_it_was_not_shown_is_caught_in_its_round():
    H = HypothesisClass.from_matrix([[0], [1], [2]], labels=3)
    with pytest.raises(PeekError, match=r"^round 1, learner: read the label of round 1 read as a number") as info:
        play(_Peeker(3), _Scripted(0, [2, 2]), H, rounds=2, rules=Rules(labels=3, feedback="bandit"))
    assert info.value.transcript is not None and len(info.value.transcript) == 0
    # with two labels a wrong guess shows the label: reading it is no peek
    H2 = HypothesisClass.from_matrix([[0], [1]])
    T = play(_Peeker(2), _Scripted(0, [1, 1]), H2, rounds=2, rules=Rules(feedback="bandit"))
    assert T.mistakes == 1


def test_a_learner_that_does_not_declare_bandit_feedback_is_refused_before_round_1():
    from mistakebound.learners import Halving

    H = classes.thresholds(3)
    adversary = _Scripted(1, [0])
    with pytest.raises(NotApplicableError, match=r"^learner: Halving does not declare bandit feedback"):
        play(Halving(H), adversary, H, rounds=1, rules=Rules(feedback="bandit"))
    assert adversary.ys == [0]  # no round was played


def test_the_noise_budget_lets_the_best_hypothesis_err_r_times_and_no_more():
    H = HypothesisClass.from_matrix([[0], [1]])  # two constants on one instance
    learner = _BanditGuesser(2)
    # labels 0, 1, 0, 1: each constant errs twice; budget 2 takes it, budget 1 refuses the fourth label
    T = play(learner, _Scripted(0, [0, 1, 0, 1]), H, rounds=4, rules=Rules(noise=2))
    assert len(T) == 4 and T.best_hypothesis_mistakes == 2
    with pytest.raises(UnrealizableLabelError, match=r"^round 4, adversary: label 1 .* more than 1 mistakes") as info:
        play(_BanditGuesser(2), _Scripted(0, [0, 1, 0, 1]), H, rounds=4, rules=Rules(noise=1))
    assert len(info.value.transcript) == 3
    # k labels and no budget: the referee of a class of three labels keeps the labels consistent
    H3 = HypothesisClass.from_matrix([[0, 1], [2, 1]], labels=3)
    with pytest.raises(UnrealizableLabelError, match=r"^round 1, adversary: label 1 for instance 0 is given by no"):
        play(_BanditGuesser(3), _Scripted(0, [1]), H3, rounds=1)
    with pytest.raises(IllegalLabelError, match=r"^round 1, adversary: label 3 for instance 0; expected 0, 1 or 2"):
        play(_BanditGuesser(3), _Scripted(0, [3]), H3, rounds=1, realizable=False)


def test_an_adversary_written_for_the_textbooks_game_is_refused_in_another_before_round_1():
    from mistakebound.learners import Halving

    class Textbook(_Scripted):
        def applies_to(self, H):  # no rules: it may read a version space a noisy game does not keep
            return True

    H = classes.thresholds(3)
    adversary = Textbook(1, [0])
    with pytest.raises(NotApplicableError, match=r"^adversary: .* plays the textbook's game \(two labels, no noise\)"):
        play(Halving(H), adversary, H, rounds=1, rules=Rules(noise=1))
    assert adversary.ys == [0]
    assert play(Halving(H), Textbook(1, [0]), H, rounds=1, rules=Rules()).mistakes == 1


def test_rules_a_player_or_class_does_not_support_are_refused_before_the_game():
    from mistakebound.adversaries import OppositeLabel
    from mistakebound.game.spaces import ExpertAdvice
    from mistakebound.learners import Halving, WeightedMajority

    H = classes.thresholds(3)
    cases = [
        (dict(rules=Rules(labels=3)), InvalidArgumentError, r"^rules: the game has 3 labels and H, thresholds\(3\), has 2"),
        (dict(rules=Rules(adaptive=False)), NotApplicableError, r"^adversary: OppositeLabel adapts to the game"),
        (dict(rules={"noise": 1}), InvalidArgumentError, r"^rules: expected a Rules value"),
    ]
    for kwargs, error, message in cases:
        with pytest.raises(error, match=message):
            play(Halving(H), OppositeLabel(), H, rounds=3, **kwargs)
    E = ExpertAdvice(2)
    with pytest.raises(NotApplicableError, match=r"^rules: a noise budget is refereed on a finite class"):
        play(WeightedMajority(2, 3), OppositeLabel(), E, rounds=3, rules=Rules(noise=1))
