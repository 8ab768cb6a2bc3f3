"""The public hypothesis strategies: sizes, the awkward cases, margins, applicable adversaries."""

from __future__ import annotations

import math
from random import Random

import numpy as np
import pytest
from hypothesis import Phase, find, given, settings
from hypothesis import strategies as st
from hypothesis.errors import NoSuchExample

from mistakebound import HypothesisClass, play
from mistakebound.game import classes
from mistakebound.adversaries import BasisVectorForcer
from mistakebound.foundations.errors import InvalidArgumentError, NotApplicableError
from mistakebound.game.players import Learner
from mistakebound.game.spaces import LinearSpace, Space
from mistakebound.verification.strategies import MarginStream, StreamReplay, adversaries, hypothesis_classes, separable_streams

QUICK = settings(max_examples=60, database=None, deadline=None)


def _find(strategy, condition, examples: int = 400):
    return find(strategy, condition, settings=settings(max_examples=examples, database=None), random=Random(0))


# ------------------------------------------------------------------ hypothesis_classes
@QUICK
@given(st.data(), st.integers(1, 6), st.integers(0, 4), st.integers(0, 5), st.integers(0, 4))
def test_sizes_stay_within_the_bounds(data, lo_h, extra_h, lo_i, extra_i):
    H = data.draw(hypothesis_classes(min_hypotheses=lo_h, max_hypotheses=lo_h + extra_h,
                                     min_instances=lo_i, max_instances=lo_i + extra_i))
    assert isinstance(H, HypothesisClass)
    assert lo_h <= H.n_hypotheses <= lo_h + extra_h
    assert lo_i <= H.n_instances <= lo_i + extra_i
    assert set(np.unique(H.matrix).tolist()) <= {0, 1}


@QUICK
@given(hypothesis_classes(min_hypotheses=st.integers(2, 3), max_hypotheses=st.just(4), max_instances=st.integers(1, 2)))
def test_options_accept_strategies(H):
    assert 2 <= H.n_hypotheses <= 4 and 1 <= H.n_instances <= 2


def _duplicate_rows(H):
    return len({r.tobytes() for r in H.matrix}) < H.n_hypotheses


def _columns(H):
    return [tuple(c) for c in H.matrix.T.tolist()]


def _duplicate_columns(H):
    cols = _columns(H)
    return len(set(cols)) < len(cols) and H.n_hypotheses >= 3 and len(set(cols[0])) == 2


def _complementary_columns(H):
    cols = _columns(H)
    return H.n_hypotheses >= 3 and any(tuple(1 - v for v in c) in cols and len(set(c)) == 2 for c in cols)


def _constant_columns(H):
    return H.n_hypotheses >= 3 and any(len(set(c)) == 1 for c in _columns(H)) and not all(len(set(c)) == 1 for c in _columns(H))


@pytest.mark.parametrize("feature", [_duplicate_rows, _duplicate_columns, _complementary_columns, _constant_columns],
                         ids=lambda f: f.__name__.strip("_"))
def test_the_awkward_cases_are_drawn(feature):
    H = _find(hypothesis_classes(), feature)
    assert feature(H)


def test_a_single_hypothesis_is_drawn_and_is_the_smallest_class():
    H = _find(hypothesis_classes(min_instances=2), lambda H: True)
    assert H.matrix.tolist() == [[0, 0]]


@pytest.mark.parametrize("density", [0.0, 1.0])
def test_constant_and_complementary_columns_are_constructed(density):
    # Fresh columns are all 0 (all 1) at density 0 (1): a column of the other constant
    # comes only from the constant or complement construction.
    other = 1 - int(density)
    H = _find(hypothesis_classes(density=density, min_hypotheses=2), lambda H: (H.matrix == other).all(axis=0).any())
    assert (H.matrix == other).all(axis=0).any()


@pytest.mark.parametrize("density, value", [(0.0, 0), (1.0, 1)])
def test_density_zero_and_one_fill_the_fresh_columns(density, value):
    @QUICK
    @given(hypothesis_classes(density=density, awkward=False, max_instances=4))
    def check(H):
        assert (H.matrix == value).all()

    check()


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(max_hypotheses=0), "max_hypotheses: expected an integer from 1 to 64, got 0 (or a strategy)"),
        (dict(min_hypotheses=5, max_hypotheses=3), "min_hypotheses: 5 exceeds max_hypotheses = 3"),
        (dict(min_instances=-1), "min_instances: expected an integer from 0 to 64, got -1 (or a strategy)"),
        (dict(density=1.5), "density: expected a probability in [0, 1], got 1.5 (or a strategy)"),
        (dict(awkward="yes"), "awkward: expected True or False"),
        (dict(max_hypotheses=2.0), "max_hypotheses: expected an integer"),
    ],
)
def test_bad_options_are_refused_naming_the_parameter(kwargs, message):
    with pytest.raises(InvalidArgumentError) as info:
        hypothesis_classes(**kwargs)
    assert message in str(info.value)


def test_a_bad_value_drawn_from_a_strategy_is_refused_on_the_draw():
    with pytest.raises(InvalidArgumentError, match="max_hypotheses"):
        _find(hypothesis_classes(max_hypotheses=st.just(0)), lambda H: True)


# ------------------------------------------------------------------ distinct rows and columns (issue 16)
def _repeats(vectors) -> bool:
    return len({v.tobytes() for v in vectors}) < len(vectors)


@QUICK
@given(st.data(), st.integers(1, 12), st.integers(0, 4), st.integers(0, 6), st.integers(0, 3), st.booleans(),
       st.sampled_from([None, 0.0, 0.5, 1.0]))
def test_distinct_rows_and_columns_hold_on_every_draw(data, lo_h, extra_h, lo_i, extra_i, awkward, density):
    lo_i = max(lo_i, (lo_h - 1).bit_length())  # sizes distinct rows and columns can fill
    extra_h = max(extra_h, (lo_i - 1).bit_length() - lo_h)
    H = data.draw(hypothesis_classes(min_hypotheses=lo_h, max_hypotheses=lo_h + extra_h, min_instances=lo_i,
                                     max_instances=lo_i + extra_i, awkward=awkward, density=density,
                                     distinct_rows=True, distinct_columns=True))
    assert lo_h <= H.n_hypotheses <= lo_h + extra_h and lo_i <= H.n_instances <= lo_i + extra_i
    assert not _repeats(H.matrix)
    assert not _repeats(np.ascontiguousarray(H.matrix.T))


@QUICK
@given(st.data(), st.integers(1, 12), st.integers(0, 6), st.integers(0, 3))
def test_without_awkward_rows_are_distinct_by_default(data, lo_h, lo_i, extra_i):
    lo_i = max(lo_i, (lo_h - 1).bit_length())
    H = data.draw(hypothesis_classes(min_hypotheses=lo_h, max_hypotheses=12, min_instances=lo_i,
                                     max_instances=lo_i + extra_i, awkward=False))
    assert not _repeats(H.matrix)


@QUICK
@given(hypothesis_classes(min_hypotheses=st.integers(1, 3), distinct_rows=st.just(True),
                          distinct_columns=st.booleans(), awkward=st.booleans()))
def test_the_distinct_options_accept_strategies(H):
    assert not _repeats(H.matrix)


def _share_with_repeated_rows(strategy, draws=200) -> float:
    seen = []

    @settings(max_examples=draws, database=None, deadline=None, phases=[Phase.generate])
    @given(strategy)
    def draw(H):
        seen.append(_repeats(H.matrix))

    draw()
    return sum(seen) / len(seen)


def test_at_12x6_without_awkward_no_draw_repeats_a_row():
    # before issue 16: 478 of 500 such draws repeated a row (the birthday collisions of
    # rows drawn independently); distinct_rows=False keeps that behaviour
    sizes = dict(min_hypotheses=12, max_hypotheses=12, min_instances=6, max_instances=6, awkward=False)
    assert _share_with_repeated_rows(hypothesis_classes(**sizes)) == 0
    assert _share_with_repeated_rows(hypothesis_classes(**sizes, distinct_rows=False)) > 0.5


def test_shrinking_moves_toward_distinct_rows():
    # without awkward, all-zero draws shrink to the binary counter, not to three equal rows
    H = _find(hypothesis_classes(min_instances=2, awkward=False), lambda H: H.n_hypotheses >= 3)
    assert H.matrix.tolist() == [[0, 0], [1, 0], [0, 1]]
    H = _find(hypothesis_classes(min_instances=3, awkward=False, distinct_columns=True), lambda H: True)
    assert H.n_hypotheses == 2 and not _repeats(np.ascontiguousarray(H.matrix.T))


def test_a_majority_vote_counterexample_on_distinct_rows_keeps_them_distinct():
    # Halving breaks Ldim on classes with distinct rows too (halving_exceeds_ldim is one); the
    # counterexample check_learner shrinks, then trims row by row and column by column, has
    # no repeated row (trimming a column used to merge two rows)
    from mistakebound.learners import Halving
    from mistakebound.verification import bounds
    from mistakebound.verification.checks import BoundViolation, check_learner

    with pytest.raises(BoundViolation) as info:
        check_learner(Halving, bound=bounds.ldim, max_examples=300,
                      classes=hypothesis_classes(max_hypotheses=10, max_instances=6, awkward=False))
    H = info.value.H
    assert not _repeats(H.matrix) and info.value.mistakes > info.value.bound


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(min_hypotheses=12, max_hypotheses=12, max_instances=3, distinct_rows=True),
         "max_instances: 3 instances hold at most 8 distinct rows, and min_hypotheses = 12; expected max_instances >= 4"),
        (dict(min_instances=9, max_instances=9, max_hypotheses=3, distinct_columns=True),
         "max_hypotheses: 3 hypotheses hold at most 8 distinct columns, and min_instances = 9; expected max_hypotheses >= 4"),
        (dict(distinct_rows="yes"), "distinct_rows: expected True or False"),
        (dict(distinct_columns=None), "distinct_columns: expected True or False"),
    ],
)
def test_distinct_options_refuse_sizes_they_cannot_fill(kwargs, message):
    with pytest.raises(InvalidArgumentError) as info:
        hypothesis_classes(**kwargs)
    assert message in str(info.value)


def test_default_distinct_rows_gives_way_to_sizes_it_cannot_fill():
    # awkward=False with 12 rows over 2 instances: repeats are unavoidable, and not refused
    H = _find(hypothesis_classes(min_hypotheses=12, max_hypotheses=12, max_instances=2, awkward=False), lambda H: True)
    assert H.n_hypotheses == 12 and _repeats(H.matrix)


# ------------------------------------------------------------------ separable_streams
@QUICK
@given(st.data(), st.integers(1, 4), st.floats(0.05, 1.0), st.floats(1.0, 3.0))
def test_streams_have_the_stated_margin_and_radius(data, d, fraction, R):
    gamma = fraction * R
    S = data.draw(separable_streams(d=d, gamma=gamma, R=R, max_rounds=12))
    u = np.array(S.comparator)
    assert S.d == d and math.isclose(math.fsum(v * v for v in S.comparator), 1.0, rel_tol=1e-12)
    for x, y in S:
        assert len(x) == d and y in (0, 1)
        assert math.sqrt(math.fsum(v * v for v in x)) <= R * (1 + 1e-12)
        assert (2 * y - 1) * math.fsum(a * b for a, b in zip(u, x)) >= gamma * (1 - 1e-12)
    assert len(S) <= 12


class _Perceptron(Learner):
    """A textbook Perceptron written here, independent of the learner zoo."""

    def __init__(self):
        self.w = None

    def predict_one(self, x):
        if self.w is None:
            self.w = np.zeros(len(x))
        return int(np.dot(self.w, x) >= 0)

    def learn_one(self, x, y):
        if self.predict_one(x) != y:
            self.w = self.w + (2 * y - 1) * np.asarray(x, dtype=float)


@QUICK
@given(separable_streams(d=st.integers(1, 3), gamma=st.sampled_from([0.25, 0.5, 1.0]), max_rounds=30))
def test_the_engine_accepts_the_stream_and_the_perceptron_bound_holds(S):
    T = play(_Perceptron(), S.adversary(), S.space, rounds=len(S), seed=0)  # the referee checks the margin
    assert len(T) == len(S) and T.comparator == S.comparator
    assert T.mistakes <= (S.R / S.gamma) ** 2


def test_streams_shrink_to_points_on_the_first_axis():
    S = _find(separable_streams(d=3, gamma=0.5, R=2.0), lambda S: len(S) >= 2)
    assert S.comparator == (1.0, 0.0, 0.0)
    assert S.pairs == (((-0.5, 0.0, 0.0), 0), ((-0.5, 0.0, 0.0), 0))


def test_stream_options_are_checked():
    with pytest.raises(InvalidArgumentError, match="gamma: 2.0 exceeds R = 1.0"):
        separable_streams(d=2, gamma=2.0)
    with pytest.raises(InvalidArgumentError, match="d: expected an integer from 1 to 64"):
        separable_streams(d=0, gamma=0.5)
    with pytest.raises(InvalidArgumentError, match="gamma: expected a finite number > 0"):
        separable_streams(d=2, gamma=0.0)


def test_margin_stream_by_hand():
    S = MarginStream(pairs=(((0.5, 0.0), 1), ((-0.25, 0.5), 0)), comparator=(1.0, 0.0), gamma=0.25)
    assert S.margin == 0.25 and S[1] == ((-0.25, 0.5), 0) and list(S) == list(S.pairs)
    assert S.space == LinearSpace(2, R=1.0, gamma=0.25)
    assert S.adversary().applies_to(S.space) and not S.adversary().applies_to(LinearSpace(3))


def test_stream_replay_on_a_finite_class():
    H = classes.thresholds(4)
    assert StreamReplay(((1, 1), (9, 0))).applies_to(H) is False
    T = play(FirstLabelZero(H), StreamReplay(((3, 1), (1, 1))), H, rounds=1, seed=0)
    assert T.xs == (3,)  # the horizon cuts the list


class FirstLabelZero(Learner):
    """Predicts 0 everywhere (only the rules matter here)."""

    def __init__(self, H):
        self.H = H

    def predict_one(self, x):
        return 0

    def learn_one(self, x, y):
        pass


# ------------------------------------------------------------------ adversaries
def test_adversaries_on_a_class_without_basis_vectors_never_draw_the_forcer():
    with pytest.raises(NoSuchExample):
        _find(adversaries(classes.thresholds(5)), lambda a: isinstance(a, BasisVectorForcer), 200)
    assert isinstance(_find(adversaries(classes.monotone_disjunctions(3)),
                            lambda a: isinstance(a, BasisVectorForcer)), BasisVectorForcer)


def test_adversaries_on_a_space_are_those_that_declare_it():
    seen = set()

    @QUICK
    @given(adversaries(LinearSpace(3, R=1.0, gamma=0.5)))
    def collect(a):
        seen.add(type(a))

    collect()
    assert BasisVectorForcer in seen
    # the finite-class adversaries (whose applies_to is the permissive default, or which
    # walk a table) never come up on a space
    assert not {t.__name__ for t in seen} & {"OppositeLabel", "ShatteredTreeWalker", "BinarySearchThreshold", "ObliviousCoin"}


def test_every_zoo_adversary_is_drawn_without_a_class():
    seen = set()

    @settings(max_examples=100, database=None)
    @given(adversaries())
    def collect(a):
        seen.add(type(a).__name__)

    collect()
    assert {"OppositeLabel", "ShatteredTreeWalker", "BinarySearchThreshold", "BasisVectorForcer", "ObliviousCoin"} <= seen


@QUICK
@given(adversaries(), adversaries())
def test_each_draw_is_a_fresh_adversary(a, b):
    assert a is not b


def test_adversaries_refuse_what_they_cannot_use():
    with pytest.raises(InvalidArgumentError, match="H: expected None, a HypothesisClass or a Space"):
        adversaries("thresholds:4")
    with pytest.raises(NotApplicableError, match="H: no adversary of the registry applies to nothing"):
        adversaries(_NoGame())


class _NoGame(Space):
    """A space no adversary of the zoo declares."""

    def describe(self):
        return "nothing"


def test_the_strategies_play_together():
    @QUICK
    @given(st.data())
    def game(data):
        H = data.draw(hypothesis_classes(max_hypotheses=5))
        adversary = data.draw(adversaries(H))
        T = play(FirstLabelZero(H), adversary, H, rounds=10, seed=0)
        assert len(T) <= 10

    game()


# ------------------------------------------------------------------ the registry's adversaries
@pytest.mark.parametrize("spec", ["thresholds:5", "monotone_disjunctions:3", "experts:4", "k_disjunctions:8,2",
                                  "halfspaces:d=3,R=1,gamma=0.5"])
def test_adversaries_draw_exactly_the_registry_adversaries_that_build_for_the_setting(spec):
    from mistakebound.game import registry
    from mistakebound.verification.strategies import zoo_adversaries

    H = registry.load_setting(spec)
    expected = []
    for entry in registry.entries("adversary"):
        try:
            expected.append(type(registry.build("adversary", entry, H)).__name__)
        except NotApplicableError:
            pass
    assert [type(a).__name__ for a in zoo_adversaries(H)] == expected and expected
    seen = set()

    @settings(max_examples=150, database=None, deadline=None)
    @given(adversaries(H))
    def collect(a):
        applies = getattr(a, "applies_to", None)
        assert applies is None or applies(H)
        seen.add(type(a).__name__)

    collect()
    assert seen == set(expected)


def test_a_plugin_adversary_registered_under_another_name_is_drawn(monkeypatch):
    import importlib.metadata

    from mistakebound.adversaries import ObliviousCoin
    from mistakebound.game import registry

    class PluginCoin(ObliviousCoin):
        """A coin another package registers as 'their-coin'."""

    class EntryPoint:
        name = "their-coin"

        def load(self):
            return PluginCoin

    monkeypatch.setattr(importlib.metadata, "entry_points", lambda group=None: [EntryPoint()])
    registry._plugin_entries.cache_clear()
    try:
        H = classes.thresholds(3)
        drawn = _find(adversaries(H), lambda a: isinstance(a, PluginCoin))
        assert type(drawn) is PluginCoin
        assert len(play(FirstLabelZero(H), drawn, H, rounds=4, seed=0)) == 4
    finally:
        registry._plugin_entries.cache_clear()
