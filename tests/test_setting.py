"""The Setting protocol (:mod:`mistakebound.game.setting`): every place a game is played answers it.

The referee asks the setting for its referee, and the referee folds a game that keeps only
its totals: a setting written outside the package plays, folds and reports through
:func:`~mistakebound.play` with no change to the engine.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mistakebound import play
from mistakebound.adversaries import ObliviousCoin
from mistakebound.foundations.errors import IllegalLabelError, IllegalPredictionError, InvalidArgumentError
from mistakebound.game import registry
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.game.oco import OCOSetting
from mistakebound.game.players import ObliviousAdversary
from mistakebound.game.rules import LABELS
from mistakebound.game.setting import Referee, Setting
from mistakebound.game.spaces import ExpertAdvice, Space
from mistakebound.game.transcript import Round
from mistakebound.game.version_space import TableReferee
from tests.strategies import hypothesis_classes

SPECS = ["thresholds:7", "singletons:4,empty", "halfspaces:d=3,R=1,gamma=0.5", "k_disjunctions:12,2", "experts:4",
         "oco:d=2,radius=1"]


@pytest.mark.parametrize("spec", SPECS)
def test_every_setting_the_registry_loads_answers_the_protocol(spec):
    S = registry.load_setting(spec)
    assert isinstance(S, Setting)
    assert isinstance(S.describe(), str) and S.describe()
    assert S.finite == isinstance(S, HypothesisClass)
    assert S.labelled == (not isinstance(S, OCOSetting))
    assert S.labels == (LABELS if S.labelled else ())
    assert S.hindsight == isinstance(S, (HypothesisClass, ExpertAdvice, OCOSetting))
    if S.labelled:
        for realizable in (True, False):
            referee = S.referee(realizable, totals=True)
            assert isinstance(referee, Referee) and referee.realizable == realizable
            assert isinstance(referee, TableReferee) == S.finite
            assert referee.folded(0) == referee.finish([])


@pytest.mark.parametrize("spec", [*SPECS, "parity"])
def test_the_hindsight_curve_answers_exactly_where_the_setting_has_hindsight_over_labels(spec):
    """``hindsight_curve`` answers when ``hindsight`` and ``labelled`` both hold (a finite class, expert
    advice); every other setting, one from outside the package included, refuses naming ``H`` and itself."""
    S = _Parity(3) if spec == "parity" else registry.load_setting(spec)
    if S.hindsight and S.labelled:
        curve = S.hindsight_curve([], [])
        assert isinstance(curve, np.ndarray) and curve.tolist() == [0.0]
    else:
        with pytest.raises(InvalidArgumentError, match=r"^H: the regret curve needs the finite class or the expert "
                                                       r"advice of the game, got " + re.escape(S.describe()) + "$"):
            S.hindsight_curve([], [])


def test_a_hypothesis_class_stays_a_slotted_value():
    H = registry.load_setting("thresholds:3")
    assert not hasattr(H, "__dict__")
    with pytest.raises(AttributeError):
        H.finite = False


@pytest.mark.parametrize("spec, learner, adversary, realizable", [
    ("thresholds:7", "Halving", "ObliviousCoin(labels=coin)", False),
    ("experts:4", "WeightedMajority", "RandomExpertLosses", False),
    ("experts:4", "WeightedMajority", "RandomExpertLosses", True),
    ("halfspaces:d=3,R=1,gamma=0.5", "Perceptron", "SeparableStream", True),
    ("halfspaces:d=3,R=1,gamma=0.5", "Perceptron", "BasisVectorForcer", True),
    ("halfspaces:d=3", "Perceptron", "SeparableStream", True),
    ("halfspaces:d=3", "Perceptron", "SeparableStream", False),
    ("k_disjunctions:12,2", "Winnow", "DisjunctionStream", True),
])
def test_a_game_that_keeps_its_totals_folds_them_through_its_referee(spec, learner, adversary, realizable):
    S = registry.load_setting(spec)
    full, totals = (play(registry.build("learner", learner, S, rounds=9000),
                         registry.build("adversary", adversary, S, rounds=9000), S, rounds=9000, seed=5,
                         realizable=realizable, keep=keep) for keep in ("rounds", "totals"))
    for field in ("mistakes", "expected_mistakes", "best_hypothesis_mistakes", "version_space", "R", "gamma",
                  "comparator", "target"):
        assert getattr(totals, field, None) == getattr(full, field, None), field


# ------------------------------------------------------------------ a setting from outside the package
class _Parity(Space):
    """Bit strings of length n labelled by the parity of their ones (one hypothesis: realizability is the rule)."""

    def __init__(self, n: int):
        self.n = n

    def describe(self) -> str:
        return f"parity({self.n})"

    def instance(self, x: Any) -> tuple[Any, Any]:
        v = tuple(int(b) for b in x)
        if len(v) != self.n or set(v) - {0, 1}:
            raise ValueError(f"instance must be {self.n} bits")
        return v, np.array(v)

    def referee(self, realizable: bool, *, totals: bool = False) -> Referee:
        return _ParityReferee(realizable, self)


class _ParityReferee(Referee):
    def __init__(self, realizable, space):
        super().__init__(realizable, space)
        self.odd = 0

    def round_error(self, t, x, y):
        if self.realizable and y != sum(x) % 2:
            return f"label {y} is not the parity of {x}"
        return None

    def finish(self, rounds):
        return {"best_hypothesis_mistakes": sum(r.y != sum(r.x) % 2 for r in rounds)}

    def fold(self, xs, ys):
        self.odd += sum(y != sum(x) % 2 for x, y in zip(xs, ys))

    def folded(self, n):
        return {"best_hypothesis_mistakes": self.odd}


class _Constant:
    """Predicts ``label`` every round."""

    def __init__(self, label: Any = 1):
        self.label = label

    def predict_one(self, x):
        return self.label

    def learn_one(self, x, y):
        pass


class _Stream(ObliviousAdversary):
    def commit(self, H, rounds, rng, realizable):
        xs = rng.integers(0, 2, size=(rounds, H.n))
        return [(tuple(x), sum(x) % 2 if realizable else int(rng.integers(2))) for x in xs.tolist()]


@pytest.mark.parametrize("realizable", [True, False])
def test_a_setting_from_outside_the_package_plays_and_folds_through_the_protocol(realizable):
    S = _Parity(5)
    full = play(_Constant(), _Stream(), S, rounds=9000, seed=1, realizable=realizable)
    totals = play(_Constant(), _Stream(), S, rounds=9000, seed=1, realizable=realizable, keep="totals")
    assert (totals.mistakes, totals.best_hypothesis_mistakes) == (full.mistakes, full.best_hypothesis_mistakes)
    assert full.class_name == "parity(5)" and (full.best_hypothesis_mistakes == 0) == realizable


def test_what_is_not_a_setting_is_refused_by_name():
    with pytest.raises(InvalidArgumentError, match="expected the HypothesisClass, Space or OCOSetting"):
        play(_Constant(), ObliviousCoin(), object(), rounds=3)


# ------------------------------------------------------------------ folding is finishing, in any blocks
def _blocks(draw, n: int) -> list[int]:
    """Cut points splitting ``range(n)`` into blocks (empty blocks allowed)."""
    cuts = sorted(draw(st.lists(st.integers(0, n), max_size=4)))
    return [0, *cuts, n]


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_a_finite_class_referee_folds_any_rounds_to_what_it_finishes(data):
    H = data.draw(hypothesis_classes(max_rows=10, max_cols=5, min_cols=1))
    n = data.draw(st.integers(0, 25))
    xs = [H.domain[j] for j in data.draw(st.lists(st.integers(0, H.n_instances - 1), min_size=n, max_size=n))]
    ys = data.draw(st.lists(st.sampled_from(LABELS), min_size=n, max_size=n))
    rounds = [Round(t + 1, x, 0.0, 0, y) for t, (x, y) in enumerate(zip(xs, ys))]
    referee = H.referee(False, totals=True)
    cuts = _blocks(data.draw, n)
    for a, b in zip(cuts, cuts[1:]):
        for x, y in zip(xs[a:b], ys[a:b]):
            referee.update(x, y)
        referee.fold(xs[a:b], ys[a:b])
    assert referee.folded(n) == H.referee(False).finish(rounds)


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_the_experts_referee_folds_any_rounds_to_what_it_finishes(data):
    d = data.draw(st.integers(1, 4))
    n = data.draw(st.integers(1, 30))
    advice = st.tuples(*[st.floats(0, 1) for _ in range(d)])
    xs = data.draw(st.lists(advice, min_size=n, max_size=n))
    ys = data.draw(st.lists(st.sampled_from(LABELS), min_size=n, max_size=n))
    rounds = [Round(t + 1, x, 0.0, 0, y) for t, (x, y) in enumerate(zip(xs, ys))]
    referee = ExpertAdvice(d).referee(False, totals=True)
    cuts = _blocks(data.draw, n)
    for a, b in zip(cuts, cuts[1:]):
        referee.fold(xs[a:b], ys[a:b])
    assert referee.folded(n) == ExpertAdvice(d).referee(False).finish(rounds)


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_the_hindsight_curve_of_a_finite_class_is_what_its_referee_finishes_on_every_prefix(data):
    """Point ``t`` of the curve is the best hypothesis's mistakes the referee reports after ``t`` rounds
    (counted there from the labels' counts, not round by round)."""
    H = data.draw(hypothesis_classes(max_rows=10, max_cols=5, min_cols=1))
    n = data.draw(st.integers(0, 25))
    xs = [H.domain[j] for j in data.draw(st.lists(st.integers(0, H.n_instances - 1), min_size=n, max_size=n))]
    ys = data.draw(st.lists(st.sampled_from(LABELS), min_size=n, max_size=n))
    rounds = [Round(t + 1, x, 0.0, 0, y) for t, (x, y) in enumerate(zip(xs, ys))]
    curve = H.hindsight_curve(xs, ys)
    assert curve.dtype == np.float64
    assert curve.tolist() == [H.referee(False).finish(rounds[:t])["best_hypothesis_mistakes"] for t in range(n + 1)]


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_the_hindsight_curve_of_expert_advice_is_what_its_referee_finishes_on_every_prefix(data):
    d = data.draw(st.integers(1, 4))
    n = data.draw(st.integers(0, 30))
    xs = data.draw(st.lists(st.tuples(*[st.floats(0, 1) for _ in range(d)]), min_size=n, max_size=n))
    ys = data.draw(st.lists(st.sampled_from(LABELS), min_size=n, max_size=n))
    rounds = [Round(t + 1, x, 0.0, 0, y) for t, (x, y) in enumerate(zip(xs, ys))]
    curve = ExpertAdvice(d).hindsight_curve(xs, ys)
    expected = [ExpertAdvice(d).referee(False).finish(rounds[:t])["best_hypothesis_mistakes"]
                for t in range(n + 1)]
    assert curve.tolist() == pytest.approx(expected, abs=1e-9)


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_the_mistake_cost_of_the_setting_is_what_the_game_counts(data):
    """The setting's ``mistake_cost``, summed over the rounds, is the transcript's expected mistakes, kept
    or totalled (the engine's vectorised forms of the rule agree with it)."""
    H = data.draw(hypothesis_classes(max_rows=8, max_cols=4, min_cols=1))
    n = data.draw(st.integers(0, 40))
    ps = data.draw(st.lists(st.sampled_from([0.0, 0.25, 0.5, 1 / 3, 1.0]), min_size=n, max_size=n))
    pairs = [(H.domain[j], y) for j, y in data.draw(st.lists(st.tuples(st.integers(0, H.n_instances - 1),
                                                                          st.sampled_from(LABELS)),
                                                                min_size=n, max_size=n))]
    full, totals = (play(_Proba(ps), _Replay(pairs), H, rounds=n, seed=2, realizable=False, keep=keep)
                    for keep in ("rounds", "totals"))
    exact = [abs(Fraction(r.p) - r.y) for r in full.rounds]
    assert [H.mistake_cost(r.p, r.y) for r in full.rounds] == [float(c) for c in exact]  # |p - y|, rounded once
    cost = sum(exact)
    assert full.expected_mistakes == pytest.approx(float(cost), abs=1e-12)
    assert totals.expected_mistakes == float(cost)  # the totals are exact
    assert full.mistakes == totals.mistakes == sum(H.mistake_cost(r.prediction, r.y) for r in full.rounds)


class _Proba:
    def __init__(self, ps):
        self.ps = list(ps)

    def predict_proba_one(self, x):
        return self.ps.pop(0)

    def predict_one(self, x):  # pragma: no cover - the engine asks predict_proba_one
        return 0

    def learn_one(self, x, y):
        pass


class _Replay(ObliviousAdversary):
    def __init__(self, pairs):
        self.pairs = pairs

    def commit(self, H, rounds, rng, realizable):
        return list(self.pairs)


# ------------------------------------------------------------------ the labels come from the setting
class _Three(_Parity):
    """Labels 0, 1 and 2: the referee reads labels and predictions as the setting says."""

    labels = (0, 1, 2)

    def describe(self) -> str:
        return f"three({self.n})"

    def read_label(self, value: Any) -> int | None:
        return int(value) if isinstance(value, (int, float)) and value in self.labels else None


class _Labels:
    def __init__(self, ys):
        self.ys = list(ys)

    def applies_to(self, H, *, rules=None):  # plays a game of any labels: it says so (issue 23)
        return True

    def next_instance(self, state):
        return (0, 1)

    def label(self, state, x, p):
        return self.ys.pop(0)


def test_the_labels_of_a_game_are_the_settings():
    S = _Three(2)
    T = play(_Constant(2.0), _Labels([2, 0, 1]), S, rounds=3, seed=0, realizable=False)
    assert [(r.prediction, r.y) for r in T.rounds] == [(2, 2), (2, 0), (2, 1)] and T.mistakes == 2
    with pytest.raises(IllegalLabelError, match=r"expected 0, 1 or 2"):
        play(_Constant(2.0), _Labels([3]), S, rounds=1, seed=0, realizable=False)
    with pytest.raises(IllegalPredictionError):
        play(_Constant(2.0), _Labels([1]), _Parity(2), rounds=1, seed=0, realizable=False)  # 2 is no label of parity


def test_the_default_label_reader_keeps_to_the_settings_labels():
    class _Zeros(_Parity):
        labels = (0,)

    S = _Zeros(2)
    assert (S.read_label(0.0), S.read_label(False), S.read_label(True), S.read_label(1)) == (0, 0, None, None)
