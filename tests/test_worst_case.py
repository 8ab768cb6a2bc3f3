"""The exact worst-case search against an independent recursion and the exercises."""

from __future__ import annotations

import math

import numpy as np
import pytest
from attrs import define
from hypothesis import given, settings
from hypothesis import strategies as st

from mistakebound.theory.textbook import consistent_rule, halving_rule, textbook_ldim, textbook_worst_case, vote_rule
from mistakebound import HypothesisClass, littlestone_dimension, play
from mistakebound.game import classes
from mistakebound.foundations.errors import IllegalPredictionError
from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.game.counterexamples import halving_exceeds_ldim
from mistakebound.learners import SOA, Consistent, Halving
from mistakebound.adversaries import MinimaxAdversary
from mistakebound.theory.worst_case import worst_case_mistakes
from tests.strategies import hypothesis_classes


from tests.players import PlainVote, VoteFraction  # noqa: E402

SETTINGS = settings(max_examples=120, deadline=None)


@SETTINGS
@given(hypothesis_classes(max_rows=9, max_cols=5))
def test_soa_worst_case_is_ldim(H):
    W = worst_case_mistakes(SOA(H), H)
    assert W.exact and W.value == (textbook_ldim(H.matrix) if H.n_instances else 0)


@SETTINGS
@given(hypothesis_classes(max_rows=9, max_cols=5))
def test_search_matches_the_plain_recursion(H):
    for L, rule in ((Halving, halving_rule), (Consistent, consistent_rule), (VoteFraction, vote_rule)):
        W = worst_case_mistakes(L(H), H)
        expected = textbook_worst_case(H, rule(H))
        assert math.isclose(W.value, expected), (L.__name__, H.matrix.tolist())


@SETTINGS
@given(hypothesis_classes(max_rows=9, max_cols=5))
def test_every_learner_is_at_least_ldim_and_within_its_bound(H):
    d = littlestone_dimension(H)
    for L in (Consistent, Halving, SOA):
        W = worst_case_mistakes(L(H), H)
        assert d <= W.value <= L(H).bound(H).value


@SETTINGS
@given(hypothesis_classes(max_rows=8, max_cols=4), st.integers(0, 3))
def test_minimax_adversary_forces_the_value(H, extra):
    for L in (Consistent, Halving, SOA):
        W = worst_case_mistakes(L(H), H)
        T = play(L(H), MinimaxAdversary(W.strategy), H, rounds=len(W.line) + extra, seed=0)
        assert T.mistakes == W.value
        assert [(r.x, r.y) for r in T.rounds] == list(W.line)


@pytest.mark.parametrize("d", [2, 3, 6, 10])
def test_exercise_1_consistent_is_size_minus_one_on_singletons_with_empty_last(d):
    H = classes.singletons(d, include_empty=True)
    assert worst_case_mistakes(Consistent(H), H).value == H.n_hypotheses - 1


@pytest.mark.parametrize("d", [2, 3, 6, 10])
def test_exercise_3_halving_is_one_on_singletons(d):
    H = classes.singletons(d)
    assert worst_case_mistakes(Halving(H), H).value == 1


def test_halving_exceeds_ldim_on_the_shipped_example():
    H = halving_exceeds_ldim()
    assert littlestone_dimension(H) == 2
    assert worst_case_mistakes(Halving(H), H).value == 3
    assert worst_case_mistakes(SOA(H), H).value == 2
    assert textbook_worst_case(H, halving_rule(H)) == 3


def test_horizon_caps_the_game():
    H = classes.thresholds(31)
    for h in range(0, 7):
        assert worst_case_mistakes(SOA(H), H, horizon=h).value == min(h, 5)


def test_unbounded_mistakes_are_infinite():
    """A learner that predicts 0 on an instance every hypothesis labels 1 errs forever."""

    @define
    class Stubborn:
        def predict_one(self, x):
            return 0

        def learn_one(self, x, y):
            pass

        def state_key(self):
            return 0

    H = HypothesisClass.from_matrix([[1, 0], [1, 1]])
    assert worst_case_mistakes(Stubborn(), H).value == math.inf
    assert worst_case_mistakes(Stubborn(), H, horizon=7).value == 7


def test_learners_without_a_state_key_need_a_horizon():
    class Plain:
        def predict_one(self, x):
            return 1

        def learn_one(self, x, y):
            pass

    H = classes.thresholds(3)
    with pytest.raises(InvalidArgumentError, match="horizon"):
        worst_case_mistakes(Plain(), H)
    W = worst_case_mistakes(Plain(), H, horizon=3)
    assert W.value == 3  # predicts 1 everywhere: labels 0 on x=1,2,3 are all legal (h_{x<1})


def test_state_change_without_a_mistake_is_refused_without_horizon():
    @define
    class Counter:
        n: int = 0

        def predict_one(self, x):
            return 1

        def learn_one(self, x, y):
            self.n += 1

        def state_key(self):
            return self.n

    H = HypothesisClass.from_matrix([[1, 1], [1, 0]])
    with pytest.raises(InvalidArgumentError, match="without a mistake"):
        worst_case_mistakes(Counter(), H)


def test_budget_gives_proven_bounds_not_a_number():
    H = classes.thresholds(63)
    W = worst_case_mistakes(Consistent(H), H, max_nodes=5)
    assert not W.exact and W.status == "budget" and W.nodes == 5
    assert W.lower <= 63 <= W.upper  # the true value is |H| - 1 = 63
    assert W.upper == math.inf  # proven by the search alone: no horizon, nothing refuted
    assert W.lower == sum(g for *_, g in (tuple(W.strategy.nodes[t].values()) for t in range(len(W.line))))
    with pytest.raises(SearchIncomplete):
        W.value  # a partial result has no value
    T = worst_case_mistakes(Consistent(H), H, max_nodes=5, horizon=10)
    assert T.upper == 10 and T.lower <= 10


def test_bad_arguments():
    H = classes.thresholds(3)
    with pytest.raises(InvalidArgumentError, match="H:"):
        worst_case_mistakes(SOA(H), np.eye(2))
    for bad in (-1, 1.5, True):
        with pytest.raises(InvalidArgumentError, match="horizon"):
            worst_case_mistakes(SOA(H), H, horizon=bad)
    with pytest.raises(InvalidArgumentError, match="max_nodes"):
        worst_case_mistakes(SOA(H), H, max_nodes=0)
    with pytest.raises(InvalidArgumentError, match="^time_limit: expected"):
        worst_case_mistakes(SOA(H), H, time_limit=-1)
    with pytest.raises(InvalidArgumentError, match="^progress: expected"):
        worst_case_mistakes(SOA(H), H, progress=3)
    with pytest.raises(InvalidArgumentError, match="strategy"):
        MinimaxAdversary("a tree")


# ------------------------------------------------------------------ stateful learners
@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_stateful_learners_on_monotone_disjunctions(n):
    """Conservative stateful learners are searched exactly through their state_key()."""
    from mistakebound.learners import DisjunctionElimination, LittlestoneWinnow, Winnow
    from mistakebound.learners.winnow import winnow2_bound

    H = classes.monotone_disjunctions(n)
    assert worst_case_mistakes(DisjunctionElimination(), H).value == n  # n forced (basis vectors), n proven
    W = worst_case_mistakes(LittlestoneWinnow(), H)
    assert W.exact and n <= W.value <= winnow2_bound(n, n)
    E = worst_case_mistakes(Winnow(), H)
    assert E.exact and E.value >= n


def test_perceptron_without_bias_errs_forever_on_the_zero_vector():
    """On {0,1}^n the all-zero instance is labelled 0 by every disjunction; a homogeneous
    Perceptron predicts 1 there (score 0) and its update adds nothing: unbounded mistakes."""
    from mistakebound.learners import Perceptron

    H = classes.monotone_disjunctions(2)
    W = worst_case_mistakes(Perceptron(), H)
    assert W.value == math.inf and W.line[0] == ((0, 0), 0)


# ------------------------------------------------------------------ memory check before starting
from mistakebound.foundations import memory  # noqa: E402
from mistakebound.theory.search_protocol import SearchIncomplete  # noqa: E402
from mistakebound.foundations.errors import InsufficientMemoryError  # noqa: E402
from mistakebound.theory.worst_case import memo_bytes_needed  # noqa: E402


class _MustNotRun:
    """A learner that fails the test if the search ever asks it anything."""

    def predict_one(self, x):
        raise AssertionError("the search started")

    def learn_one(self, x, y):
        raise AssertionError("the search started")

    def state_key(self):
        return 0


def test_a_search_that_cannot_fit_is_refused_before_it_starts(monkeypatch):
    H = classes.thresholds(63)
    available = 1 << 20
    monkeypatch.setattr(memory, "available_memory", lambda: available)
    with pytest.raises(InsufficientMemoryError) as info:
        worst_case_mistakes(_MustNotRun(), H, max_nodes=200_000)
    err = info.value
    assert err.available == available and err.needed > available
    assert err.needed >= memo_bytes_needed(H, 200_000)
    assert "max_nodes" in str(err) and "1.0 MiB" in str(err) and f"{err.needed / 2**20:.1f} MiB" in str(err)
    assert isinstance(err, MemoryError)


def test_the_same_search_runs_when_it_fits(monkeypatch):
    H = classes.thresholds(7)
    needed = memo_bytes_needed(H, 5000, 0)
    monkeypatch.setattr(memory, "available_memory", lambda: 10 * needed + 10_000)
    assert worst_case_mistakes(SOA(H), H, max_nodes=5000).value == littlestone_dimension(H)
    monkeypatch.setattr(memory, "available_memory", lambda: needed // 2)
    with pytest.raises(InsufficientMemoryError):
        worst_case_mistakes(SOA(H), H, max_nodes=5000)
    monkeypatch.setattr(memory, "available_memory", lambda: None)  # unknown: no check
    assert worst_case_mistakes(SOA(H), H, max_nodes=5000).value == littlestone_dimension(H)


@pytest.mark.parametrize("n", [10, 300, 3_000])
def test_the_memo_estimate_grows_with_the_budget_and_the_class(n):
    H = classes.thresholds(n)
    one = memo_bytes_needed(H, 1)
    assert memo_bytes_needed(H, 1000) == 1000 * one
    assert one >= (n + 1) / 8  # the version space's bitset alone
    assert memo_bytes_needed(H, 1, state_key_bytes=500) == one + 500
    assert memo_bytes_needed(classes.thresholds(2 * n + 60), 1) > one


@pytest.mark.parametrize("fast", [False, True])
@pytest.mark.parametrize("learner, H", [
    (Halving, classes.singletons(11)),
    (Consistent, classes.thresholds(30)),  # 496 positions, 1.4 s under tracemalloc (90: 4,000 and 70 s)
    (SOA, classes.random(40, 8, 0.5, seed=3)),
])
def test_the_memo_estimate_is_close_to_what_the_search_allocates(learner, H, fast):
    """The plain search and the fast path (positions keyed by bitsets: symmetry off, so every position counts)."""
    import tracemalloc

    from mistakebound.theory.worst_case import _deep_size

    # a fresh copy: caches an earlier test built on the shared object would not be counted
    H = HypothesisClass.from_matrix(np.array(H.matrix), domain=list(H.domain))
    tracemalloc.start()
    try:
        W = worst_case_mistakes(learner(H), H, fast=fast, symmetry=False)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert W.exact and W.nodes > 100
    estimate = memo_bytes_needed(H, W.nodes, _deep_size(learner(H).state_key()))
    # the estimate is the memo's share: within a small factor of the whole search's peak
    # (objects Python shares between entries make the exact ratio vary from run to run)
    assert peak / 5 <= estimate <= 2 * peak


def test_available_memory_is_known_on_this_machine():
    avail = memory.available_memory()
    assert avail is None or (isinstance(avail, int) and avail > 0)


def test_without_max_nodes_the_memory_available_bounds_the_search(monkeypatch):
    """No node budget: the search stops (status "memory") before its memo outgrows the memory."""
    H = classes.singletons(11)  # Halving visits 2^11 - 1 positions
    per_position = memo_bytes_needed(H, 1, 0)
    monkeypatch.setattr(memory, "available_memory", lambda: 100 * per_position)
    for options in ({"fast": False}, {}):
        W = worst_case_mistakes(Halving(H), H, **options)
        assert W.status == "memory" and 0 < W.nodes <= 100 and W.lower <= 1 <= W.upper  # the state key counts too
    monkeypatch.setattr(memory, "available_memory", lambda: None)
    assert worst_case_mistakes(Halving(H), H).value == 1


def test_a_horizon_far_beyond_the_game_gives_the_value_without_one():
    # rounds that change nothing are skipped, so a long horizon neither recurses once per
    # round nor changes the value
    for H in (classes.thresholds(7), classes.singletons(5), classes.random(12, 5, 0.5, seed=2)):
        free = worst_case_mistakes(Halving(H), H)
        long = worst_case_mistakes(Halving(H), H, horizon=50_000)
        assert long.exact and free.exact and long.value == free.value


class _Stateless:
    """Predicts 1 always; no state_key, so every round is searched."""

    def predict_one(self, x):
        return 1

    def learn_one(self, x, y):
        pass

    def snapshot(self):
        return self


def test_a_line_deeper_than_the_stack_is_a_partial_result_with_bounds():
    H = classes.thresholds(3)
    W = worst_case_mistakes(_Stateless(), H, horizon=60_000, max_nodes=10**6)
    assert not W.exact and W.lower <= W.upper == 60_000
    assert W.lower >= 1 and W.lower == sum(y != 1 for _, y in W.line)  # a concrete line against "always 1"


def test_a_learner_fault_in_the_search_is_a_game_error_naming_the_round():
    class Breaks(_Stateless):
        def predict_one(self, x):
            return 2

    with pytest.raises(IllegalPredictionError) as info:
        worst_case_mistakes(Breaks(), classes.thresholds(3), horizon=3)
    assert info.value.round == 1 and info.value.player == "learner"


# ------------------------------------------------------------------ the refusal says what to write (issue 16)
def test_without_state_key_the_refusal_gives_the_method_to_add_and_that_method_works():
    H = classes.thresholds(7)
    with pytest.raises(InvalidArgumentError) as info:
        worst_case_mistakes(PlainVote(H), H)
    message = str(info.value)
    assert message.startswith("horizon: PlainVote exposes no state_key()")
    written = message.split("`")[1]
    assert written == "def state_key(self): return (self.alive,)"
    namespace: dict = {}
    exec(written, namespace)  # what the user pastes into the class

    class Keyed(PlainVote):
        state_key = namespace["state_key"]

    W = worst_case_mistakes(Keyed(H), H)
    assert W.exact and W.value == worst_case_mistakes(Halving(H), H).value == 3
