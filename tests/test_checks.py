"""The bound-checking kit: it passes what is right and catches what is wrong, with small counterexamples.

Expected values come from independent computations: the textbook Ldim recursion
(:mod:`mistakebound.theory.textbook`), the mistakes counted from the transcript, the closed forms of the bounds.
"""

from __future__ import annotations

import copy
import math
import os
import subprocess
import sys
import textwrap

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
from mistakebound.verification.claims import Bound, forced_bound, judge, judge_transcript, measured, stated_bound
from mistakebound.verification.recorder import GameRecorder
from mistakebound.verification.strategies import hypothesis_classes, separable_streams
from mistakebound.adversaries import MinimaxAdversary
from mistakebound.theory.textbook import textbook_ldim


# ------------------------------------------------------------------ independent helpers
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

    def bound(self, setting, *, rounds=None, realizable=True, transcript=None):
        if not realizable:
            return Bound.none("log2 |H| needs a realizable game")
        return Bound(math.log2(setting.n_hypotheses), source="log2 |H|")


@define
class ConstantOne(Learner):
    """Ignores its input: always predicts 1."""

    H: HypothesisClass

    def predict_one(self, x):
        return 1

    def learn_one(self, x, y):
        pass

    def bound(self, setting, *, rounds=None, realizable=True, transcript=None):
        if not realizable:
            return Bound.none("log2 |H| needs a realizable game")
        return Bound(math.log2(setting.n_hypotheses), source="log2 |H|")


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

    def bound(self, setting, *, rounds=None, realizable=True, transcript=None):
        if realizable and isinstance(setting, LinearSpace) and setting.R and setting.gamma:
            return Bound((setting.R / setting.gamma) ** 2, source="(R/gamma)^2")
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
    truth = textbook_ldim(H.matrix)
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
    for piece in ("class matrix", "adversary:", f"seed: {exc.seed}", "transcript:", "prediction  y  mistake", "bound: ldim(H) = ",
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
    assert counted_mistakes(exc.replay()) > textbook_ldim(exc.H.matrix)


def test_the_worst_case_search_uses_a_horizon_for_a_learner_without_state_key():
    with pytest.raises(BoundViolation) as info:
        check_learner(KeylessHalving, bound=bounds.ldim, adversaries=[], max_examples=5,
                      classes=HypothesisClass.from_matrix([[0, 0], [0, 1], [0, 1], [1, 0]]))
    assert "horizon=" in str(info.value)
    assert counted_mistakes(info.value.replay()) > textbook_ldim(info.value.H.matrix)


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

    from mistakebound.game.counterexamples import halving_exceeds_ldim

    H = halving_exceeds_ldim()  # 9 x 8; Halving's worst case 3 > Ldim 2
    with pytest.raises(BoundViolation) as info:
        check_learner(Halving, bound=bounds.ldim, classes=H, max_examples=3)
    assert info.value.H is H
    with pytest.raises(BoundViolation) as info:
        check_learner(Halving, bound=bounds.ldim, classes=st.just(H), max_examples=3)
    small = info.value.H
    assert small.n_hypotheses <= 5 and small.n_instances <= 2
    assert counted_mistakes(info.value.replay()) > textbook_ldim(small.matrix)


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
    summary = check_learner(lambda S: Perceptron(), bound=None,
                            classes=LinearSpace(3, R=1.0, gamma=0.5), max_examples=5)
    # the registry's adversaries that apply (BasisVectorForcer, SeparableStream) and a RandomStream play every case
    from mistakebound.verification.strategies import zoo_adversaries

    assert [type(a).__name__ for a in zoo_adversaries(LinearSpace(3, R=1.0, gamma=0.5))] == [
        "BasisVectorForcer", "SeparableStream"]
    assert summary.games == 3 * summary.cases and summary.max_mistakes <= 4
    assert summary.max_ratio == summary.max_mistakes / 4  # judged against its own claim, (R/gamma)^2 = 4


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
        (dict(bound="ldim"), "bound: expected None (the learner's own claim), a number >= 0 or a function"),
        (dict(bound=-1), "bound: expected None (the learner's own claim), a number >= 0"),
        (dict(bound=math.nan), "got nan"),
        (dict(bound=1, game_seeds=[]), "game_seeds: expected None, a non-empty list"),
        (dict(bound=1, game_seeds=[-1]), "game_seeds"),
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


# ------------------------------------------------------------------ bound=None: the learner's own claim
@define
class HalvingClaimingLdim(Halving):
    """Halving claiming SOA's bound, Ldim(H): false on halving_exceeds_ldim() (worst case 3 > Ldim 2)."""

    def bound(self, setting, *, rounds=None, realizable=True, transcript=None):
        return Bound(textbook_ldim(setting.matrix), source="a false claim: Ldim(H)")


def test_bound_none_tests_the_learners_own_claim():
    from mistakebound.game.counterexamples import halving_exceeds_ldim

    H = halving_exceeds_ldim()
    # Halving's own claim (log2 9) holds on the class, even against the exact worst case ...
    summary = check_learner(Halving, classes=H, max_examples=3)
    assert summary.violations == 0 and summary.searches >= 1
    assert 0 < summary.max_ratio <= 1 and summary.max_mistakes <= math.log2(9)
    # ... and the very same games break the claim Ldim(H) = 2 of a learner that states it
    with pytest.raises(BoundViolation) as info:
        check_learner(HalvingClaimingLdim, classes=H, max_examples=3)
    exc = info.value
    claim = stated_bound(HalvingClaimingLdim(H), H, rounds=exc.rounds, transcript=exc.transcript)
    assert exc.claim == claim == Bound(2, source="a false claim: Ldim(H)")
    assert exc.bound == 2 and exc.mistakes == 3 == counted_mistakes(exc.transcript)
    assert "its claimed bound 2 (a false claim: Ldim(H))" in str(exc)
    assert judge(measured(exc.replay(), claim.measure), claim).broken


def test_bound_none_the_worst_case_search_alone_catches_the_false_claim():
    from mistakebound.game.counterexamples import halving_exceeds_ldim

    H = halving_exceeds_ldim()
    with pytest.raises(BoundViolation) as info:
        check_learner(HalvingClaimingLdim, classes=H, adversaries=[], max_examples=2)
    exc = info.value
    assert isinstance(exc.adversary, MinimaxAdversary) and exc.claim.value == 2
    assert counted_mistakes(exc.replay()) == 3
    # without the search, and with no adversary, nothing is played: no evidence, no violation
    summary = check_learner(HalvingClaimingLdim, classes=H, adversaries=[], worst_case=False, max_examples=2)
    assert (summary.games, summary.searches, summary.violations) == (0, 0, 0)


def test_a_partial_worst_case_search_breaks_a_claim_under_its_proven_lower_bound():
    # a budget of one node: the search stops after its first line, with a proven interval [3, inf]
    from mistakebound.game.counterexamples import halving_exceeds_ldim
    from mistakebound.theory.worst_case import worst_case_mistakes

    H = halving_exceeds_ldim()
    W = worst_case_mistakes(HalvingClaimingLdim(H), H, max_nodes=1)
    assert (W.exact, W.lower, W.upper) == (False, 3, math.inf)
    # the claim 2 is under the line already found: broken, and replayed as a game
    with pytest.raises(BoundViolation) as info:
        check_learner(HalvingClaimingLdim, classes=H, adversaries=[], max_examples=1, worst_case_max_nodes=1)
    assert isinstance(info.value.adversary, MinimaxAdversary) and counted_mistakes(info.value.replay()) == 3
    # a claim inside the interval is not refuted by a partial search: not reported as a violation
    summary = check_learner(Halving, bound=4, classes=H, adversaries=[], max_examples=1, worst_case_max_nodes=1)
    assert (summary.searches, summary.violations, summary.games) == (1, 0, 0)


def test_check_learner_judges_with_the_one_tolerance_in_games_and_in_the_search():
    # claims 5e-8 under the measured mistakes are broken, 5e-10 under them kept (TOLERANCE = 1e-9)
    from tests.test_sweep_players import JustOver, JustUnder

    H = classes.thresholds(5)
    with pytest.raises(BoundViolation) as info:
        check_learner(JustUnder, classes=H, max_examples=3, worst_case=False)
    assert 0 < info.value.mistakes - info.value.bound < 1e-7
    with pytest.raises(BoundViolation) as info:  # the search alone
        check_learner(JustUnder, classes=H, adversaries=[], max_examples=3)
    assert isinstance(info.value.adversary, MinimaxAdversary) and 0 < info.value.mistakes - info.value.bound < 1e-7
    summary = check_learner(JustOver, classes=H, max_examples=3)
    assert summary.violations == 0 and summary.searches >= 1 and summary.max_ratio > 1


class RecordSeeds:
    """An observer keeping the seed of every game."""

    def __init__(self):
        self.seeds = []

    def on_start(self, game):
        self.seeds.append(game.seed)


def test_game_seeds_choose_the_seeds_of_the_games():
    from hypothesis import strategies as st

    from mistakebound.game.play import observing

    for game_seeds, allowed in (([5, 11], {5, 11}), (st.just(7), {7})):
        watch = RecordSeeds()
        with observing(watch):
            check_learner(Halving, classes=classes.thresholds(5), game_seeds=game_seeds, max_examples=5,
                          worst_case=False)
        assert watch.seeds and set(watch.seeds) <= allowed
    watch = RecordSeeds()
    with observing(watch):
        check_learner(Halving, classes=classes.thresholds(5), max_examples=5, worst_case=False)
    assert len(set(watch.seeds)) > 1  # the default draws seeds


def test_game_seeds_replay_a_given_game():
    from mistakebound.adversaries import ObliviousCoin

    # ConstantOne against coin labels on one class: whether it breaks log2 |H| depends on the seed
    H = classes.thresholds(3)
    with pytest.raises(BoundViolation) as info:
        check_learner(ConstantOne, classes=H, adversaries=[ObliviousCoin], max_examples=50, worst_case=False)
    first = info.value
    with pytest.raises(BoundViolation) as info:
        check_learner(ConstantOne, classes=H, adversaries=[ObliviousCoin], game_seeds=[first.seed], max_examples=1,
                      worst_case=False)
    again = info.value
    assert again.seed == first.seed and again.transcript.rounds == first.transcript.rounds
    assert again.claim == first.claim
    # a seed whose game keeps the claim passes
    kept = next(s for s in range(100)
                if play(ConstantOne(H), ObliviousCoin(), H, rounds=first.rounds, seed=s).mistakes <= 2)
    assert check_learner(ConstantOne, classes=H, adversaries=[ObliviousCoin], game_seeds=[kept], max_examples=3,
                         worst_case=False, rounds=first.rounds).violations == 0


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
    with pytest.raises(CheckFailure, match="SharedStateLearner claims no bound on"):
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
def test_the_recorder_tallies_games_as_an_observer_without_touching_play():
    original = mistakebound.game.play.play
    H = classes.thresholds(7)
    with GameRecorder() as recorder:
        # an observer: play itself is never swapped, in any module
        assert mistakebound.play is mistakebound.game.play.play is original is play
        mistakebound.play(Halving(H), OppositeLabel(), H, rounds=10, seed=0)
        mistakebound.game.play.play(ConstantOne(H), OppositeLabel(), H, rounds=10, seed=0)
        mistakebound.play(Halving(H), OppositeLabel(), H, rounds=10, seed=0, realizable=False)
    assert mistakebound.play is original and mistakebound.game.play.play is original
    rows = {(r["learner"], r["adversary"]): r for r in recorder.rows()}
    halving = rows[("Halving", "OppositeLabel")]
    assert halving["games"] == 2 and halving["max mistakes"] == 10  # the unrealizable game errs every round
    assert halving["max mistakes/bound"] == pytest.approx(1 / 3) and halving["violations"] == 0  # no bound off realizable
    constant = rows[("ConstantOne", "OppositeLabel")]
    # OppositeLabel presents x = 1 (the thresholds disagree there) and answers 0 to the constant 1;
    # only x < 1 is left, which agrees everywhere, so the game ends after one mistake
    assert constant["max mistakes"] == 1 and constant["violations"] == 0
    # the unrealizable game has no bound, and OppositeLabel's forced count (a mistake every round) holds
    assert [(r.verdict, r.bound) for r in recorder.records] == [("ok", 3.0), ("ok", 3.0), ("ok", None)]
    # records after the recorder stopped are not taken
    play(Halving(H), OppositeLabel(), H, rounds=10, seed=0)
    assert len(recorder.records) == 3 and not recorder.active


class ClaimsHalf(Learner):
    """A coin that claims 1/2 expected mistake on every class (true only for games of one round)."""

    def predict_proba_one(self, x):
        return 0.5

    def learn_one(self, x, y):
        pass

    def bound(self, setting, *, rounds=None, realizable=True, transcript=None):
        return Bound(0.5, "expected mistakes", "a claim of 1/2")


class ClaimRaises(ConstantOne):
    """Its claim raises."""

    def bound(self, setting, *, rounds=None, realizable=True, transcript=None):
        raise ZeroDivisionError("no claim today")


class ClaimNotABound(ConstantOne):
    """Its claim is a bare number, not a Bound."""

    def bound(self, setting, *, rounds=None, realizable=True, transcript=None):
        return 3


def _games():
    """Games of every kind of claim: kept, broken, none, off realizable, expected mistakes, on a space."""
    from mistakebound.adversaries import BinarySearchThreshold, ObliviousCoin
    from mistakebound.game.registry import build, load_setting

    H = classes.thresholds(7)
    single = HypothesisClass.from_matrix([[0]])
    experts = load_setting("experts:4")
    return [
        (Halving(H), BinarySearchThreshold(), H, 10, True),
        (SOA(H), OppositeLabel(), H, 10, True),
        (ConstantOne(single), ObliviousCoin(), single, 5, True),  # bound 0, 5 mistakes: BROKEN
        (Halving(H), OppositeLabel(), H, 10, False),  # no bound off realizable; the forced count holds
        (Halving(H), ObliviousCoin(), H, 10, False),  # no bound, nothing forced
        (ClaimsHalf(), ObliviousCoin(), H, 10, True),  # expected mistakes 5 > 1/2: broken
        (ClaimsHalf(), OppositeLabel(), classes.thresholds(1), 10, True),  # one round, 1/2: kept
        (build("learner", "WeightedMajority", experts, rounds=50),
         build("adversary", "RandomExpertLosses", experts, rounds=50), experts, 50, False),  # regret
    ]


@pytest.mark.parametrize("index", range(8))
def test_the_recorder_records_the_claim_and_verdict_of_stated_bound_and_judge(index):
    learner, adversary, H, rounds, realizable = _games()[index]
    forced = forced_bound(adversary, H, learner=learner, rounds=rounds, realizable=realizable)  # before the game
    with GameRecorder() as recorder:
        T = play(learner, adversary, H, rounds=rounds, seed=3, realizable=realizable)
    (record,) = recorder.records
    claim = stated_bound(learner, H, rounds=rounds, realizable=realizable, transcript=T)
    verdict = judge_transcript(T, claim, forced)
    assert (record.bound, record.measure, record.mistakes) == (claim.value, claim.measure, measured(T, claim.measure))
    assert (record.verdict, record.ratio, record.message) == (verdict.status, verdict.ratio, verdict.message)
    assert record.violation == verdict.broken


def test_the_recorder_sees_every_verdict_of_judge():
    with GameRecorder() as recorder:
        for learner, adversary, H, rounds, realizable in _games():
            play(learner, adversary, H, rounds=rounds, seed=3, realizable=realizable)
    verdicts = [r.verdict for r in recorder.records]
    assert verdicts == ["ok", "ok", "BROKEN", "ok", "no bound", "BROKEN", "ok", "ok"]
    assert recorder.records[-1].measure == "regret" and recorder.records[-1].bound > 0  # Theorem 21.11
    assert recorder.records[2].ratio == math.inf
    assert recorder.records[5].measure == "expected mistakes" and recorder.records[5].mistakes == 5.0


@pytest.mark.parametrize("learner, message", [(ClaimRaises, "ZeroDivisionError: no claim today"),
                                               (ClaimNotABound, "expected a Bound or None")])
def test_a_claim_that_raises_is_recorded_as_an_error_never_raised_into_the_test(learner, message):
    H = classes.thresholds(3)
    with GameRecorder() as recorder:
        T = play(learner(H), OppositeLabel(), H, rounds=5, seed=0)  # does not raise
        play(Halving(H), OppositeLabel(), H, rounds=5, seed=0)  # and the recorder goes on
    bad, good = recorder.records
    assert bad.verdict == "ERROR" and message in bad.message and "ClaimError" in bad.message
    assert bad.bound is None and bad.mistakes == T.mistakes and not bad.violation
    assert good.verdict == "ok"


class ForcesRaises(OppositeLabel):
    """Its claim of what it forces raises."""

    def forces(self, setting, *, learner, rounds=None, realizable=True):
        raise ValueError("cannot say")


def test_an_adversary_claim_that_raises_is_recorded_as_an_error_too():
    H = classes.thresholds(3)
    with GameRecorder() as recorder:
        play(Halving(H), ForcesRaises(), H, rounds=5, seed=0)
    (record,) = recorder.records
    assert record.verdict == "ERROR" and "ForcesRaises.forces" in record.message and "cannot say" in record.message


def test_the_recorder_judges_with_the_one_tolerance():
    from tests.test_sweep_players import JustOver, JustUnder

    H = classes.thresholds(7)
    with GameRecorder() as recorder:
        for learner in (JustUnder, JustOver):
            play(learner(H), OppositeLabel(), H, rounds=10, seed=0)
    assert [r.verdict for r in recorder.records] == ["BROKEN", "ok"]


def test_the_recorder_nests_with_other_observers_and_per_game_observers():
    from mistakebound.game.play import Observer, observing

    class Ends(Observer):
        def __init__(self):
            self.n = 0

        def on_end(self, game, transcript):
            self.n += 1

    H = classes.thresholds(3)
    outer, inner = Ends(), Ends()
    with observing(outer):
        with GameRecorder() as recorder:
            play(Halving(H), OppositeLabel(), H, rounds=5, seed=0, observers=[inner])
        play(Halving(H), OppositeLabel(), H, rounds=5, seed=0)
    assert (outer.n, inner.n, len(recorder.records)) == (2, 1, 1)


def test_without_hypothesis_the_package_and_the_interface_checks_still_work(tmp_path):
    from tests.test_pytest_plugin import BLOCK_HYPOTHESIS

    code = BLOCK_HYPOTHESIS + textwrap.dedent("""
        import mistakebound, mistakebound.verification.checks, mistakebound.verification.strategies, mistakebound.verification.pytest_plugin
        from mistakebound.verification.checks import check_clone_is_independent
        from mistakebound.verification.recorder import GameRecorder
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


def test_classes_the_factory_refuses_are_skipped_and_counted():
    from mistakebound.foundations.errors import InvalidArgumentError
    from mistakebound.learners import Halving

    def needs_two_instances(H):
        if H.n_instances < 2:
            raise InvalidArgumentError(f"H: needs 2 instances, got {H.n_instances}")
        return Halving(H)

    summary = check_learner(needs_two_instances, max_examples=20)
    assert summary.refused >= 1 and summary.cases > summary.refused and summary.games > 0
    with pytest.raises(InvalidArgumentError, match="needs 2 instances"):  # refusing every class is an error
        check_learner(needs_two_instances, classes=classes.singletons(1), max_examples=5)


# ------------------------------------------------------------------ the game's other settings (issue 23)
class _StuckGuesser:
    """Declares bandit feedback and always predicts 0: under bandit feedback on k > 2 labels it errs forever."""

    feedbacks = ("full", "bandit")

    def __init__(self, H):
        self.H = H

    def predict_one(self, x):
        return 0

    def learn_one(self, x, feedback):
        pass

    def bound(self, setting, *, rules=None):
        from mistakebound.verification.claims import Bound

        return Bound(1, "mistakes", "a wrong claim: one mistake")


class _PeekingGuesser(_StuckGuesser):
    def learn_one(self, x, feedback):
        int(feedback)


def test_check_learner_checks_a_learner_under_rules_and_reports_a_counterexample_that_replays_under_them():
    from mistakebound.game.rules import Rules
    from mistakebound.learners import GameSOA, PluralityHalving
    from mistakebound.verification.check_failures import BoundViolation, GameFailure

    bandit = Rules(labels=3, feedback="bandit")
    summary = check_learner(lambda H: GameSOA(H, feedback="bandit"), rules=bandit, max_examples=15)
    assert summary.violations == 0 and summary.games >= 15
    assert summary.searches >= 1  # the exact worst case under the rules, on the small classes drawn
    assert check_learner(PluralityHalving, rules=Rules(labels=4), max_examples=15).violations == 0
    with pytest.raises(BoundViolation) as info:
        check_learner(_StuckGuesser, rules=bandit, max_examples=30)
    exc = info.value
    assert exc.H.n_labels == 3 and exc.transcript.rules == bandit and exc.mistakes > 1
    assert "labels=3" in str(exc) and "rules=Rules(labels=3, feedback='bandit'" in str(exc)
    replayed = exc.replay()
    assert replayed.mistakes == exc.transcript.mistakes and replayed.rules == bandit
    with pytest.raises(GameFailure, match=r"PeekError|read the label"):
        check_learner(_PeekingGuesser, rules=bandit, max_examples=30)


def test_hypothesis_classes_draws_classes_of_k_labels():
    from hypothesis import find, settings as hsettings

    H = find(hypothesis_classes(labels=4, min_instances=2), lambda H: int(H.matrix.max()) == 3,
             settings=hsettings(database=None))
    assert H.n_labels == 4 and H.labels == (0, 1, 2, 3)
    H = find(hypothesis_classes(labels=3, distinct_rows=True, max_instances=1), lambda H: H.n_hypotheses == 3,
             settings=hsettings(database=None))
    assert sorted(H.matrix.ravel().tolist()) == [0, 1, 2]
    with pytest.raises(InvalidArgumentError, match=r"^labels: expected an integer from 2 to 256, got 1"):
        hypothesis_classes(labels=1)


def test_the_recorder_judges_a_game_under_rules_by_the_claims_for_them():
    from mistakebound.adversaries import GameMinimax
    from mistakebound.game.rules import Rules
    from mistakebound.learners import GameSOA

    H = classes.thresholds(7)
    with GameRecorder() as recorder:
        play(GameSOA(H, noise=1), GameMinimax(noise=1), H, rounds=30, seed=0, rules=Rules(noise=1))
        play(Halving(H), GameMinimax(noise=1), H, rounds=30, seed=0, rules=Rules(noise=1))
    by_learner = {r.learner: r for r in recorder.records}
    assert by_learner["GameSOA"].bound == 5 and by_learner["GameSOA"].verdict == "ok"
    assert by_learner["Halving"].bound is None  # its claim is for full information without noise


# ---------------------------------------------------------- where hypothesis's files go (issue 25)
#: A user's own learner, in a module of the project: hypothesis caches the constants of the
#: project's modules (not of installed packages, nor of test files) in its storage folder.
MINE = textwrap.dedent("""
    from mistakebound.learners import SOA


    def my_learner(H):
        return SOA(H)
""")

_KIT = textwrap.dedent("""
    from mine import my_learner
    from mistakebound.verification.checks import check_learner
    assert check_learner(my_learner, max_examples=10).violations == 0
""")


def _run_kit(project, cwd, **env):
    (project / "mine.py").write_text(MINE)
    environ = {k: v for k, v in os.environ.items() if k != "HYPOTHESIS_STORAGE_DIRECTORY"}
    environ |= {"PYTHONPATH": str(project), **env}
    done = subprocess.run([sys.executable, "-c", _KIT], cwd=cwd, capture_output=True, text=True, timeout=120,
                          env=environ)
    assert done.returncode == 0, done.stderr


def test_check_learner_from_a_sub_folder_keeps_hypothesis_files_at_the_project_root(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'mine'\n")
    notebooks = tmp_path / "notebooks"
    notebooks.mkdir()
    _run_kit(tmp_path, notebooks)
    assert not (notebooks / ".hypothesis").exists()
    assert (tmp_path / ".hypothesis").is_dir()


def test_a_hypothesis_directory_the_user_sets_is_kept(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'mine'\n")
    mine = tmp_path / "elsewhere"
    _run_kit(tmp_path, tmp_path, HYPOTHESIS_STORAGE_DIRECTORY=str(mine))
    assert mine.is_dir() and not (tmp_path / ".hypothesis").exists()
