"""The bound-checking kit: it passes what is right and catches what is wrong, with small counterexamples.

Expected values come from independent computations in this file: a brute-force Ldim,
the mistakes counted from the transcript, the closed forms of the bounds.
"""

from __future__ import annotations

import copy
import math
import subprocess
import sys
import textwrap
from functools import lru_cache

import numpy as np
import pytest
from attrs import define, field
from hypothesis import strategies as st

import mistakebound
from mistakebound import HypothesisClass, play
from mistakebound.verification import bounds
from mistakebound.game import classes
from mistakebound.adversaries import OppositeLabel
from mistakebound.verification.checks import (
    BoundViolation,
    CheckFailure,
    CheckSummary,
    GameFailure,
    GameRecorder,
    RandomStream,
    check_clone_is_independent,
    check_learn_one_does_not_mutate_input,
    check_learner,
    check_mistake_bound,
    check_predictions_are_labels,
    check_same_seed_same_transcript,
    parametrize_with_checks,
    yield_checks,
)
from mistakebound.foundations.errors import GameError, InvalidArgumentError, MistakeboundError
from mistakebound.learners import SOA, Consistent, Halving
from mistakebound.game.players import Learner
from mistakebound.game.spaces import LinearSpace
from mistakebound.verification.strategies import separable_streams
from mistakebound.theory.worst_case import MinimaxAdversary


# ------------------------------------------------------------------ independent helpers
def brute_ldim(M) -> int:
    """Ldim by the textbook recursion over sets of distinct rows (no memo of the engine)."""
    rows = frozenset(tuple(r) for r in np.asarray(M).tolist())

    @lru_cache(maxsize=None)
    def ldim(V: frozenset) -> int:
        if len(V) <= 1:
            return 0
        best = 0
        for j in range(len(next(iter(V)))):
            V0 = frozenset(r for r in V if r[j] == 0)
            V1 = V - V0
            if V0 and V1:
                best = max(best, 1 + min(ldim(V0), ldim(V1)))
        return best

    return ldim(rows)


def counted_mistakes(T) -> int:
    return sum(int(r.prediction != r.y) for r in T.rounds)


# ------------------------------------------------------------------ learners for the tests
@define
class WrongLabelHalving(Learner):
    """Halving whose update keeps the hypotheses that got the label WRONG (a broken update)."""

    H: HypothesisClass
    _V: list = field(init=False)

    def __attrs_post_init__(self):
        self._V = list(range(self.H.n_hypotheses))

    def predict_one(self, x):
        ones = sum(self.H.label(i, x) for i in self._V)
        return int(2 * ones >= len(self._V))

    def learn_one(self, x, y):
        self._V = [i for i in self._V if self.H.label(i, x) != y]

    @classmethod
    def mistake_bound(cls, H):
        return math.log2(H.n_hypotheses)


@define
class ConstantOne(Learner):
    """Ignores its input: always predicts 1."""

    H: HypothesisClass

    def predict_one(self, x):
        return 1

    def learn_one(self, x, y):
        pass

    @classmethod
    def mistake_bound(cls, H):
        return math.log2(H.n_hypotheses)


class Perceptron(Learner):
    """A textbook Perceptron (w = 0; predict 1 iff <w, x> >= 0; on a mistake w += y x)."""

    sign = 1

    def __init__(self):
        self.w = None

    def predict_one(self, x):
        if self.w is None:
            self.w = np.zeros(len(x))
        return int(float(np.dot(self.w, x)) >= 0)

    def learn_one(self, x, y):
        if self.predict_one(x) != y:
            self.w = self.w + self.sign * (2 * y - 1) * np.asarray(x, dtype=float)

    def clone(self):
        return type(self)()

    @classmethod
    def mistake_bound(cls, H):
        if isinstance(H, LinearSpace) and H.R and H.gamma:
            return (H.R / H.gamma) ** 2
        return None


class SignFlippedPerceptron(Perceptron):
    """The Perceptron with the sign of its update wrong: w -= y x."""

    sign = -1


class MutatingPerceptron(Perceptron):
    """Scales its input in place by the label's sign before adding it."""

    def learn_one(self, x, y):
        if self.predict_one(x) != y:
            x *= 2 * y - 1
            self.w = self.w + x


class SharedStateLearner(Learner):
    """Remembers the last label of each instance in a dict that its clone() shares (copy.copy is shallow)."""

    def __init__(self):
        self.memory = {}

    def predict_one(self, x):
        return self.memory.get(x, 1)

    def learn_one(self, x, y):
        self.memory[x] = y

    def clone(self):
        return copy.copy(self)


class TrainedCloneLearner(SharedStateLearner):
    """clone() returns a deep copy, learned state included."""

    def clone(self):
        return copy.deepcopy(self)


class HalfLearner(Learner):
    """predict_one returns 0.5: not a label."""

    def predict_one(self, x):
        return 0.5

    def learn_one(self, x, y):
        pass


class OverconfidentLearner(Learner):
    """predict_proba_one returns 1.5: not a probability."""

    def predict_proba_one(self, x):
        return 1.5

    def learn_one(self, x, y):
        pass


class GlobalRandomLearner(Learner):
    """Randomized from numpy's global generator: its games are not reproducible from the seed."""

    def predict_proba_one(self, x):
        return float(np.random.random())

    def learn_one(self, x, y):
        pass


class CoinLearner(Learner):
    """Predicts 1 with probability 1/2, always."""

    def predict_proba_one(self, x):
        return 0.5

    def learn_one(self, x, y):
        pass


class CrashingLearner(Learner):
    """Raises once it has seen a label 0."""

    def __init__(self, H=None):
        self.zero = False

    def predict_one(self, x):
        if self.zero:
            raise RuntimeError("cannot predict after a 0")
        return 1

    def learn_one(self, x, y):
        self.zero = self.zero or y == 0


class KeylessHalving(Learner):
    """Halving without state_key(), so the worst-case search must use a horizon."""

    def __init__(self, H):
        self.inner = Halving(H)

    def predict_one(self, x):
        return self.inner.predict_one(x)

    def learn_one(self, x, y):
        self.inner.learn_one(x, y)


# ------------------------------------------------------------------ check_learner passes what is right
def test_soa_passes_against_the_ldim_bound():
    summary = check_learner(SOA, bound=bounds.ldim, max_examples=30)
    assert isinstance(summary, CheckSummary)
    assert summary.violations == 0 and summary.cases >= 30
    assert summary.games >= 4 * 30 and summary.searches >= 1
    assert summary.max_ratio <= 1.0


@pytest.mark.parametrize("learner, bound", [(Halving, bounds.log2_size), (Consistent, bounds.size_minus_one)])
def test_the_zoo_learners_pass_their_own_bounds(learner, bound):
    assert check_learner(learner, bound=bound, max_examples=20).violations == 0


def test_the_perceptron_passes_on_separable_streams():
    streams = separable_streams(d=st.integers(1, 3), gamma=st.sampled_from([0.25, 0.5, 1.0]), max_rounds=25)
    summary = check_learner(lambda S: Perceptron(), bound=lambda S: (S.R / S.gamma) ** 2, classes=streams,
                            max_examples=20)
    assert summary.violations == 0 and summary.games >= 20


# ------------------------------------------------------------------ ... and catches what is wrong
def test_halving_claimed_at_the_ldim_bound_is_caught_with_a_small_class():
    with pytest.raises(BoundViolation) as info:
        check_learner(Halving, bound=bounds.ldim, max_examples=50)
    exc = info.value
    assert isinstance(exc, AssertionError) and isinstance(exc, MistakeboundError)
    H = exc.H
    assert H.n_hypotheses <= 6 and H.n_instances <= 3
    truth = brute_ldim(H.matrix)
    assert exc.bound == truth
    # the transcript is a real game with more mistakes than Ldim
    assert counted_mistakes(exc.transcript) == exc.mistakes > truth
    # and it replays, with one call, to the same game
    again = exc.replay()
    assert again.rounds == exc.transcript.rounds and counted_mistakes(again) > truth
    # every row of the shrunk class matters: without any one of them Halving keeps within Ldim,
    # even against the exact worst-case search
    for i in range(H.n_hypotheses):
        smaller = H.restrict([k for k in range(H.n_hypotheses) if k != i])
        assert check_learner(Halving, bound=bounds.ldim, classes=smaller, max_examples=2).violations == 0


def test_the_message_shows_the_counterexample_and_a_replay_that_runs():
    with pytest.raises(BoundViolation) as info:
        check_learner(Halving, bound=bounds.ldim, max_examples=50)
    exc = info.value
    text = str(exc)
    for piece in ("class matrix", "adversary:", f"seed: {exc.seed}", "transcript:", "<- mistake", "bound: ldim(H) = ",
                  type(exc.adversary).__name__, "replay with exc.replay()"):
        assert piece in text, piece
    for i, row in enumerate(exc.H.matrix.tolist()):
        assert f"h{i}: " + " ".join(map(str, row)) in text
    snippet = textwrap.dedent(text.split("replay with exc.replay(), or:\n", 1)[1])
    namespace: dict = {}
    exec(snippet, namespace)  # the printed snippet is runnable Python
    assert namespace["T"].mistakes == exc.mistakes > exc.bound


def test_a_halving_with_a_broken_update_is_caught():
    with pytest.raises(BoundViolation) as info:
        check_learner(WrongLabelHalving, bound=bounds.log2_size, max_examples=50)
    exc = info.value
    assert exc.H.n_hypotheses <= 3
    assert counted_mistakes(exc.replay()) > math.log2(exc.H.n_hypotheses)


def test_a_perceptron_with_a_wrong_sign_is_caught_on_a_short_stream():
    streams = separable_streams(d=st.integers(1, 2), gamma=st.sampled_from([0.5, 1.0]), max_rounds=12)
    with pytest.raises(BoundViolation) as info:
        check_learner(lambda S: SignFlippedPerceptron(), bound=lambda S: (S.R / S.gamma) ** 2, classes=streams,
                      max_examples=50)
    exc = info.value
    S = exc.stream
    assert S is not None and exc.H == S.space
    assert counted_mistakes(exc.replay()) > (S.R / S.gamma) ** 2
    assert len(S) <= (S.R / S.gamma) ** 2 + 3  # shrunk to a few rounds past the bound
    assert "MarginStream(pairs=" in str(exc)


def test_a_learner_that_ignores_its_input_is_caught_on_a_tiny_class():
    with pytest.raises(BoundViolation) as info:
        check_learner(ConstantOne, bound=bounds.log2_size, max_examples=50)
    exc = info.value
    assert exc.H.n_hypotheses <= 2 and exc.H.n_instances == 1
    T = exc.replay()
    assert counted_mistakes(T) > math.log2(exc.H.n_hypotheses)
    assert all(r.prediction == 1 for r in T.rounds)


def test_the_worst_case_search_finds_what_no_zoo_adversary_plays():
    with pytest.raises(BoundViolation) as info:
        check_learner(Halving, bound=bounds.ldim, adversaries=[], max_examples=50)
    exc = info.value
    assert isinstance(exc.adversary, MinimaxAdversary)
    assert "worst_case_mistakes(Halving(H), H" in str(exc)
    assert counted_mistakes(exc.replay()) > brute_ldim(exc.H.matrix)


def test_the_worst_case_search_uses_a_horizon_for_a_learner_without_state_key():
    with pytest.raises(BoundViolation) as info:
        check_learner(KeylessHalving, bound=bounds.ldim, adversaries=[], max_examples=5,
                      classes=HypothesisClass.from_matrix([[0, 0], [0, 1], [0, 1], [1, 0]]))
    assert "horizon=" in str(info.value)
    assert counted_mistakes(info.value.replay()) > brute_ldim(info.value.H.matrix)


class QuarterLearner(Learner):
    """Predicts 1 with probability 1/4, always."""

    def predict_proba_one(self, x):
        return 0.25

    def learn_one(self, x, y):
        pass


def test_a_randomized_learner_is_measured_by_its_expected_mistakes():
    # OppositeLabel answers 1 against p = 1/4 on the first instance, after which one
    # singleton is left: one round, 3/4 of a mistake in expectation (0 or 1 drawn).
    H = classes.singletons(3)
    with pytest.raises(BoundViolation) as info:
        check_learner(lambda H: QuarterLearner(), bound=0.5, classes=H, adversaries=[OppositeLabel], max_examples=20)
    exc = info.value
    assert exc.H is H  # a class the caller named is reported as it is
    assert len(exc.transcript) == 1 and exc.mistakes == 0.75


def test_a_named_class_is_reported_whole_but_a_strategy_of_it_is_cut_down():
    from hypothesis import strategies as st

    from mistakebound.game.examples import halving_exceeds_ldim

    H = halving_exceeds_ldim()  # 9 x 8; Halving's worst case 3 > Ldim 2
    with pytest.raises(BoundViolation) as info:
        check_learner(Halving, bound=bounds.ldim, classes=H, max_examples=3)
    assert info.value.H is H
    with pytest.raises(BoundViolation) as info:
        check_learner(Halving, bound=bounds.ldim, classes=st.just(H), max_examples=3)
    small = info.value.H
    assert small.n_hypotheses <= 5 and small.n_instances <= 2
    assert counted_mistakes(info.value.replay()) > brute_ldim(small.matrix)


def test_a_learner_that_raises_is_a_game_failure_with_the_cause_chained():
    with pytest.raises(GameFailure) as info:
        check_learner(CrashingLearner, bound=100, max_examples=50)
    exc = info.value
    assert not isinstance(exc, BoundViolation)
    assert isinstance(exc.__cause__, GameError) and exc.__cause__.player == "learner"
    assert "cannot predict after a 0" in str(exc)
    with pytest.raises(GameError):
        exc.replay()


def test_a_bound_function_returning_none_states_nothing():
    assert check_learner(ConstantOne, bound=lambda H: None, max_examples=10).max_ratio == 0


def test_given_adversaries_can_be_instances_types_or_factories():
    H = classes.thresholds(7)
    for adversaries in ([OppositeLabel()], [OppositeLabel], [lambda: OppositeLabel()]):
        summary = check_learner(Halving, bound=bounds.log2_size, classes=H, adversaries=adversaries,
                                max_examples=3, worst_case=False)
        assert summary.games == summary.cases


def test_spaces_get_a_random_stream():
    summary = check_learner(lambda S: Perceptron(), bound=Perceptron.mistake_bound,
                            classes=LinearSpace(3, R=1.0, gamma=0.5), max_examples=5)
    # BasisVectorForcer and RandomStream play every case
    assert summary.games == 2 * summary.cases and summary.max_mistakes <= 4


def test_the_same_seed_gives_the_same_counterexample():
    found = []
    for _ in range(2):
        with pytest.raises(BoundViolation) as info:
            check_learner(Halving, bound=bounds.ldim, max_examples=50, seed=1)
        found.append((info.value.H.matrix.tolist(), info.value.seed, repr(info.value.adversary)))
    assert found[0] == found[1]


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(bound="ldim"), "bound: expected a number >= 0 or a function"),
        (dict(bound=-1), "bound: expected a number >= 0"),
        (dict(bound=1, max_examples=0), "max_examples: expected an integer >= 1"),
        (dict(bound=1, classes="thresholds:4"), "classes: expected a hypothesis strategy"),
        (dict(bound=1, adversaries=[3]), "adversaries: expected adversary types"),
        (dict(bound=1, rounds=0), "rounds: expected None or an integer >= 1"),
    ],
)
def test_bad_arguments_are_refused(kwargs, message):
    with pytest.raises(InvalidArgumentError) as info:
        check_learner(SOA, **kwargs)
    assert message in str(info.value)


def test_a_learner_instance_is_rebuilt_on_each_class():
    assert check_learner(SOA(classes.thresholds(3)), bound=bounds.ldim, max_examples=10).violations == 0


# ------------------------------------------------------------------ the interface checks
def _names(learner, **kwargs):
    return [c.__name__ for c in yield_checks(learner, **kwargs)]


@pytest.mark.parametrize("learner", [Consistent, Halving, SOA, SOA(classes.thresholds(5))], ids=str)
def test_the_zoo_learners_pass_every_check(learner):
    names = _names(learner)
    assert names == ["check_predictions_are_labels", "check_learn_one_does_not_mutate_input",
                     "check_clone_is_independent", "check_same_seed_same_transcript", "check_mistake_bound"]
    for check in yield_checks(learner, max_examples=5):
        check(learner)


def test_a_perceptron_on_a_space_passes_every_check_including_its_bound():
    S = LinearSpace(3, R=1.0, gamma=0.5)
    assert "check_mistake_bound" in _names(Perceptron(), H=S)
    for check in yield_checks(Perceptron(), H=S, max_examples=5):
        check(Perceptron())
    with pytest.raises(BoundViolation):
        check_mistake_bound(SignFlippedPerceptron(), H=S, max_examples=30)


def test_without_a_stated_bound_no_bound_check_is_yielded():
    assert "check_mistake_bound" not in _names(SharedStateLearner())
    assert "check_mistake_bound" not in _names(Perceptron())  # no bound on a finite class
    with pytest.raises(CheckFailure, match="states no mistake_bound"):
        check_mistake_bound(SharedStateLearner())


def test_a_learner_without_clone_gets_no_clone_check():
    assert "check_clone_is_independent" not in _names(lambda H: CoinLearnerNoClone())


class CoinLearnerNoClone:
    """Plays without subclassing Learner: no clone()."""

    def predict_proba_one(self, x):
        return 0.5

    def learn_one(self, x, y):
        pass


def test_a_learn_one_that_mutates_its_input_is_caught():
    S = LinearSpace(3, R=1.0, gamma=0.25)
    check_learn_one_does_not_mutate_input(Perceptron(), H=S)
    with pytest.raises(CheckFailure, match="learn_one changed its input"):
        check_learn_one_does_not_mutate_input(MutatingPerceptron(), H=S)


def test_a_clone_that_shares_state_is_caught():
    with pytest.raises(CheckFailure, match="learning on a clone changed the original"):
        check_clone_is_independent(SharedStateLearner())


def test_a_clone_that_keeps_the_learned_state_is_caught():
    with pytest.raises(CheckFailure, match="is not untrained"):
        check_clone_is_independent(TrainedCloneLearner())


@pytest.mark.parametrize("learner, message", [
    (HalfLearner(), "predict_one returned 0.5"),
    (OverconfidentLearner(), "predict_proba_one returned 1.5"),
])
def test_predictions_that_are_not_labels_or_probabilities_are_caught(learner, message):
    with pytest.raises(CheckFailure, match=message):
        check_predictions_are_labels(learner)


def test_a_learner_with_unseeded_randomness_is_caught():
    check_same_seed_same_transcript(CoinLearner())
    with pytest.raises(CheckFailure, match="differ in round 1"):
        check_same_seed_same_transcript(GlobalRandomLearner())


def test_checks_leave_a_learner_instance_untouched():
    learner = SOA(classes.thresholds(5))
    before = learner.predict_one(3), learner.state_key()
    for check in yield_checks(learner, max_examples=3):
        check(learner)
    assert (learner.predict_one(3), learner.state_key()) == before


def test_random_stream_is_realizable_on_every_kind_of_game():
    from mistakebound.game.spaces import ExpertAdvice, KDisjunctionSpace

    for H in (classes.thresholds(4), LinearSpace(2), KDisjunctionSpace(5, 2), ExpertAdvice(3)):
        T = play(CoinLearner(), RandomStream(), H, rounds=20, seed=1)  # the referee checks every label
        assert len(T) == 20


# ------------------------------------------------------------------ parametrize_with_checks
def test_parametrize_with_checks_ids_and_xfail_marks():
    mark = parametrize_with_checks([SOA, ConstantOne], expected_failures={ConstantOne: {"check_mistake_bound": "ignores x"}})
    assert mark.args[0] == "learner, check"
    params = mark.args[1]
    ids = [p.id for p in params]
    assert "SOA-check_mistake_bound" in ids and "ConstantOne-check_clone_is_independent" in ids
    marked = {p.id: p.marks for p in params if p.marks}
    assert list(marked) == ["ConstantOne-check_mistake_bound"]
    (xfail,) = marked["ConstantOne-check_mistake_bound"]
    assert xfail.name == "xfail" and xfail.kwargs == {"reason": "ignores x", "strict": True}


def test_parametrize_with_checks_refuses_unknown_declarations():
    with pytest.raises(InvalidArgumentError, match="not among its checks"):
        parametrize_with_checks([SOA], expected_failures={SOA: {"check_typo": "x"}})
    with pytest.raises(InvalidArgumentError, match="match none of the learners"):
        parametrize_with_checks([SOA], expected_failures={Halving: {"check_mistake_bound": "x"}})
    with pytest.raises(InvalidArgumentError, match="non-empty reasons"):
        parametrize_with_checks([SOA], expected_failures={SOA: {"check_mistake_bound": ""}})


# ------------------------------------------------------------------ GameRecorder
def test_the_recorder_tallies_games_and_puts_play_back():
    original = mistakebound.game.play.play
    H = classes.thresholds(7)
    with GameRecorder() as recorder:
        assert mistakebound.play is not original and mistakebound.game.play.play is not original
        mistakebound.play(Halving(H), OppositeLabel(), H, rounds=10, seed=0)
        mistakebound.game.play.play(ConstantOne(H), OppositeLabel(), H, rounds=10, seed=0)
        mistakebound.play(Halving(H), OppositeLabel(), H, rounds=10, seed=0, realizable=False)
    assert mistakebound.play is original and mistakebound.game.play.play is original and play is original
    rows = {(r["learner"], r["adversary"]): r for r in recorder.rows()}
    halving = rows[("Halving", "OppositeLabel")]
    assert halving["games"] == 2 and halving["max mistakes"] == 10  # the unrealizable game errs every round
    assert halving["max mistakes/bound"] == pytest.approx(1 / 3) and halving["violations"] == 0  # no bound off realizable
    constant = rows[("ConstantOne", "OppositeLabel")]
    # OppositeLabel presents x = 1 (the thresholds disagree there) and answers 0 to the constant 1;
    # only x < 1 is left, which agrees everywhere, so the game ends after one mistake
    assert constant["max mistakes"] == 1 and constant["violations"] == 0
    # records after the recorder stopped are not taken
    play(Halving(H), OppositeLabel(), H, rounds=10, seed=0)
    assert len(recorder.records) == 3


def test_without_hypothesis_the_package_and_the_interface_checks_still_work(tmp_path):
    from tests.test_pytest_plugin import BLOCK_HYPOTHESIS

    code = BLOCK_HYPOTHESIS + textwrap.dedent("""
        import mistakebound, mistakebound.verification.checks, mistakebound.verification.strategies, mistakebound.verification.pytest_plugin
        from mistakebound.verification.checks import GameRecorder, check_clone_is_independent
        from mistakebound.learners import SOA
        check_clone_is_independent(SOA)
        try:
            mistakebound.verification.strategies.hypothesis_classes()
        except ImportError as exc:
            assert "pip install" in str(exc)
        else:
            raise SystemExit("hypothesis_classes should need hypothesis")
        from mistakebound.interfaces.cli import main
        sys.exit(main(["ldim", "thresholds:7"]))
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "3" in done.stdout
