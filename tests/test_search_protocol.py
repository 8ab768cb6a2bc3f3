"""One protocol for every search: the same budget, the same result shape, bounds that are proven.

Every search of the theory layer (the Littlestone dimension, the shattered tree, the VC
dimension, the randomized Littlestone dimension, the worst case of Consistent, Halving
and SOA) is run here with budgets drawn by hypothesis (a node budget, a time limit,
Ctrl-C at a drawn node) and checked against its plain oracle: the textbook recursion or
brute force of the modules' own tests.  Whatever the budget, ``lower <= truth <= upper``,
the status says whether the result is exact, an exact result is the truth, and a
partial one has no value.  The worst case's lower bound is a line the adversary can
play (replayed here), and its bounds never come from what a learner claims.
"""

from __future__ import annotations

import contextlib
import math
from fractions import Fraction

import numpy as np
import pytest
from attrs import define, field
from hypothesis import event, example, given, settings
from hypothesis import strategies as st

from mistakebound.theory.textbook import brute_force_vcdim, consistent_rule, halving_rule, textbook_ldim, textbook_rldim, textbook_worst_case
from tests.game_oracle import oracle, randomized_oracle
from tests.players import MajorityVote
from mistakebound import HypothesisClass
from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.game import classes
from mistakebound.game.counterexamples import halving_exceeds_ldim
from mistakebound.learners import SOA, Consistent, Halving
from mistakebound.game.rules import Rules
from mistakebound.theory import search_protocol as search_module
from mistakebound.theory.game_values import GameValue, game_value
from mistakebound.theory.littlestone import (
    LdimBounds,
    LdimSearch,
    is_shattered,
    littlestone_bounds,
    littlestone_dimension,
    shattered_tree,
)
from mistakebound.theory.randomized_ldim import (
    RLdimBounds,
    RLdimSearch,
    randomized_littlestone_bounds,
    randomized_littlestone_dimension,
)
from mistakebound.theory.search_protocol import MEMO_FRACTION, STATUSES, SearchIncomplete, SearchInterrupted, SearchResult
from mistakebound.theory.vc import VCBounds, is_vc_shattered, shattered_set, vc_bounds, vc_dimension
from mistakebound.theory.worst_case import WorstCase, worst_case_mistakes
from tests.strategies import class_matrices, sparse_matrices
from tests.test_vc import random_tables

SETTINGS = settings(max_examples=150, deadline=None)

max_nodes_values = st.one_of(st.none(), st.integers(1, 4), st.integers(1, 4), st.integers(1, 60))
time_limits = st.one_of(st.none(), st.none(), st.sampled_from([1e-4, 1e-3, 0.05, 30.0]))
ctrl_c_at = st.one_of(st.none(), st.integers(1, 6), st.integers(1, 40))  # the node at which Ctrl-C is pressed


@st.composite
def random_classes(draw):
    """Random tables of 16 to 60 rows: their searches take enough nodes for small budgets to cut."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    n_rows, n_cols = draw(st.integers(16, 60)), draw(st.integers(5, 9))
    return (rng.random((n_rows, n_cols)) < draw(st.sampled_from([0.2, 0.3, 0.5]))).astype(np.uint8)


def ldim_matrices():
    # small classes with the awkward cases, sparse classes (which refute levels before they
    # succeed) and random tables, whose searches small budgets cut short
    return st.one_of(class_matrices(max_rows=14, max_cols=7), sparse_matrices(), random_classes())


# ------------------------------------------------------------------ oracles
def ldim_truth(H: HypothesisClass) -> int:
    return textbook_ldim(H.matrix) if H.n_instances else 0


def vc_truth(H: HypothesisClass) -> int:
    return brute_force_vcdim(H.matrix) if H.n_instances else 0


WORST_CASE_ORACLES = {
    Consistent: lambda H: textbook_worst_case(H, consistent_rule(H)),
    Halving: lambda H: textbook_worst_case(H, halving_rule(H)),
    SOA: ldim_truth,  # Corollary 21.8: M_SOA(H) = Ldim(H)
}


# ------------------------------------------------------------------ Ctrl-C at a drawn node
@contextlib.contextmanager
def ctrl_c(at: int | None, exc: type[BaseException] = KeyboardInterrupt):
    """Raise KeyboardInterrupt (or ``exc``) at the ``at``-th node of any search (None: never).

    Nodes are counted where the searches count them: ``Clock.spend`` (VC, randomized
    Ldim, worst case) and ``LdimSearch._at_least`` (the Littlestone engine, also inside
    the randomized search).
    """
    if at is None:
        yield
        return
    calls = [0]
    spend, at_least = search_module.Clock.spend, LdimSearch._at_least

    def tick():
        calls[0] += 1
        if calls[0] == at:
            raise exc

    def interrupting_spend(self, n=1):
        tick()
        spend(self, n)

    def interrupting_at_least(self, *args):
        tick()
        return at_least(self, *args)

    search_module.Clock.spend, LdimSearch._at_least = interrupting_spend, interrupting_at_least
    try:
        yield
    finally:
        search_module.Clock.spend, LdimSearch._at_least = spend, at_least


def result_of(call):
    """``("value", v)`` when ``call()`` returns, ``("raised", result)`` for SearchIncomplete/Interrupted."""
    try:
        return "value", call()
    except (SearchIncomplete, SearchInterrupted) as exc:
        assert isinstance(exc, SearchInterrupted) == (exc.result.status == "interrupted"), exc
        return "raised", exc.result


# ------------------------------------------------------------------ the shape every result has
def check_shape(r: SearchResult, truth, kind: type, max_nodes: int | None) -> None:
    """``lower <= truth <= upper``, a status that matches exactness, and a value only when exact."""
    event(f"{kind.__name__}: {r.status}")
    assert isinstance(r, kind) and isinstance(r, SearchResult)
    assert r.status in STATUSES
    assert r.lower <= truth <= r.upper, (r, truth)
    assert r.exact == (r.status == "exact")
    if r.exact:
        assert r.lower == r.upper == truth == r.value
        assert r.describe() == f"{r.quantity} = {r.lower}"
    else:
        with pytest.raises(SearchInterrupted if r.status == "interrupted" else SearchIncomplete):
            r.value
        assert r.describe().endswith(f"(partial: {r.status})")
    assert r.nodes >= 0 and r.seconds >= 0
    if max_nodes is not None:
        assert r.nodes <= max_nodes


def budgets(max_nodes, time_limit) -> dict:
    return {"max_nodes": max_nodes, "time_limit": time_limit}


# ------------------------------------------------------------------ the Littlestone dimension and its tree
@SETTINGS
@given(ldim_matrices(), max_nodes_values, time_limits, ctrl_c_at)
def test_ldim_bounds_are_proven_under_any_budget(M, max_nodes, time_limit, at):
    H = HypothesisClass.from_matrix(M)
    truth = ldim_truth(H)
    with ctrl_c(at):
        b = littlestone_bounds(H, **budgets(max_nodes, time_limit))
    check_shape(b, truth, LdimBounds, max_nodes)
    with ctrl_c(at):
        kind, out = result_of(lambda: littlestone_dimension(H, **budgets(max_nodes, time_limit)))
    if kind == "value":
        assert out == truth
    else:
        check_shape(out, truth, LdimBounds, max_nodes)
        assert not out.exact


@SETTINGS
@given(ldim_matrices(), max_nodes_values, time_limits, ctrl_c_at)
def test_a_shattered_tree_is_complete_or_its_bounds_are_proven(M, max_nodes, time_limit, at):
    H = HypothesisClass.from_matrix(M)
    truth = ldim_truth(H)
    with ctrl_c(at):
        kind, out = result_of(lambda: shattered_tree(H, **budgets(max_nodes, time_limit)))
    if kind == "value":
        assert out.graph["depth"] == truth and is_shattered(H, out)
    else:
        check_shape(out, truth, LdimBounds, max_nodes)
        assert not out.exact


@SETTINGS
@given(ldim_matrices(), st.data())
def test_the_search_of_a_sub_class_is_proven_too(M, data):
    H = HypothesisClass.from_matrix(M)
    search = LdimSearch(H)
    rows = sorted(data.draw(st.sets(st.integers(0, H.n_hypotheses - 1), min_size=1)))
    V = search.mask_of_rows(rows)
    truth = textbook_ldim(M[rows]) if M.shape[1] else 0
    max_nodes = data.draw(max_nodes_values)
    with ctrl_c(data.draw(ctrl_c_at)):
        b = search.bounds(V, max_nodes=max_nodes)
    check_shape(b, truth, LdimBounds, max_nodes)
    check_shape(search.bounds(V), truth, LdimBounds, None)  # resumes, and finishes


# ------------------------------------------------------------------ the VC dimension
@SETTINGS
@given(st.one_of(class_matrices(max_rows=40, max_cols=8), random_tables()), max_nodes_values, time_limits,
       ctrl_c_at)
def test_vc_bounds_are_proven_under_any_budget(M, max_nodes, time_limit, at):
    H = HypothesisClass.from_matrix(M)
    truth = vc_truth(H)
    with ctrl_c(at):
        b = vc_bounds(H, **budgets(max_nodes, time_limit))
    check_shape(b, truth, VCBounds, max_nodes)
    assert len(b.witness) == b.lower and is_vc_shattered(H, b.witness)  # the lower bound, shown
    for f in (vc_dimension, shattered_set):
        with ctrl_c(at):
            kind, out = result_of(lambda: f(H, **budgets(max_nodes, time_limit)))
        if kind == "value":
            assert (out if f is vc_dimension else len(out)) == truth
        else:
            check_shape(out, truth, VCBounds, max_nodes)


# ------------------------------------------------------------------ the randomized Littlestone dimension
@SETTINGS
@given(class_matrices(max_rows=10, max_cols=6), max_nodes_values, time_limits, ctrl_c_at)
def test_rl_bounds_are_proven_under_any_budget(M, max_nodes, time_limit, at):
    H = HypothesisClass.from_matrix(M)
    truth = textbook_rldim(H)
    with ctrl_c(at):
        b = randomized_littlestone_bounds(H, **budgets(max_nodes, time_limit))
    check_shape(b, truth, RLdimBounds, max_nodes)
    assert isinstance(b.lower, Fraction)  # the lower bound is an exact tree value
    with ctrl_c(at):
        kind, out = result_of(lambda: randomized_littlestone_dimension(H, **budgets(max_nodes, time_limit)))
    if kind == "value":
        assert out == truth
    else:
        check_shape(out, truth, RLdimBounds, max_nodes)


# ------------------------------------------------------------------ the worst case
def replayed_mistakes(learner_type, H: HypothesisClass, W: WorstCase) -> int:
    """Play ``W``'s line against a fresh learner: its mistakes (and the line must be realizable)."""
    L = learner_type(H)
    consistent = np.ones(H.n_hypotheses, dtype=bool)
    mistakes = 0
    for x, y in W.line:
        mistakes += int(L.predict_one(x) != y)
        L.learn_one(x, y)
        consistent &= H.matrix[:, H.index_of(x)] == y
    assert consistent.any(), "the line is not realizable"
    return mistakes


@settings(max_examples=100, deadline=None)
@given(class_matrices(max_rows=8, max_cols=5), st.sampled_from([Consistent, Halving, SOA]),
       max_nodes_values, time_limits, ctrl_c_at, st.one_of(st.none(), st.integers(0, 6)))
def test_worst_case_bounds_are_proven_under_any_budget(M, learner_type, max_nodes, time_limit, at, horizon):
    H = HypothesisClass.from_matrix(M)
    truth = WORST_CASE_ORACLES[learner_type](H)
    if horizon is not None:  # the oracle has no horizon: the capped value is between these
        with ctrl_c(at):
            W = worst_case_mistakes(learner_type(H), H, horizon=horizon, **budgets(max_nodes, time_limit))
        assert W.lower <= min(truth, horizon) and W.upper >= min(truth, horizon) and W.upper <= horizon
        assert replayed_mistakes(learner_type, H, W) == W.lower and len(W.line) <= horizon
        return
    with ctrl_c(at):
        W = worst_case_mistakes(learner_type(H), H, **budgets(max_nodes, time_limit))
    check_shape(W, truth, WorstCase, max_nodes)
    assert replayed_mistakes(learner_type, H, W) == W.lower  # the lower bound is a line the adversary plays
    assert W.strategy is W.witness
    if not W.exact:
        assert W.upper == math.inf  # nothing else is proven without a horizon


# ------------------------------------------------------------------ claims are never evidence
@define
class MustNotBeAsked(MajorityVote):
    """The same learner, whose claims fail the test if anything reads them."""

    def bound(self, setting, **kwargs):
        raise AssertionError("the search read the learner's claim")

    def mistake_bound(self, H=None):
        raise AssertionError("the search read the learner's claim")


@pytest.mark.parametrize("max_nodes", [1, 2, 3, 5, 8, 13, 30, 60, None])
def test_a_learner_claiming_a_wrong_bound_gets_an_honest_interval(max_nodes):
    """Majority vote claims 1 mistake on halving_exceeds_ldim(); the adversary forces 3."""
    H = halving_exceeds_ldim()
    assert textbook_worst_case(H, halving_rule(H)) == 3
    W = worst_case_mistakes(MajorityVote(H, claim=1), H, max_nodes=max_nodes)
    assert W.lower <= 3 <= W.upper and W.upper != 1 and W.lower <= W.upper
    assert replayed_mistakes(lambda H: MajorityVote(H), H, W) == W.lower
    if W.exact:
        assert W.value == 3 and W.lower > 1  # the claim is exceeded by a line the adversary plays
    # the interval does not depend on the claim, and the search never reads it
    for other in (MajorityVote(H, claim=3), MajorityVote(H, claim=math.inf), MustNotBeAsked(H)):
        V = worst_case_mistakes(other, H, max_nodes=max_nodes)
        assert (V.lower, V.upper, V.status, V.nodes, V.line) == (W.lower, W.upper, W.status, W.nodes, W.line)


def test_the_wrong_claim_is_never_the_upper_bound_even_when_stopped_early():
    H = halving_exceeds_ldim()
    for at in range(1, 40):
        with ctrl_c(at):
            W = worst_case_mistakes(MustNotBeAsked(H), H)
        assert W.upper in (3, math.inf) and W.lower <= 3
        assert replayed_mistakes(lambda H: MajorityVote(H), H, W) == W.lower


# ------------------------------------------------------------------ Ctrl-C returns what was proven
def test_ctrl_c_in_the_worst_case_returns_proven_bounds():
    H = classes.singletons(11)  # without merging, Halving's search visits 2^11 - 1 positions, progress every 256

    def stop(n):
        raise KeyboardInterrupt

    W = worst_case_mistakes(Halving(H), H, progress=stop, symmetry=False)
    assert W.status == "interrupted" and W.nodes == 256
    assert W.lower <= 1 <= W.upper == math.inf
    assert replayed_mistakes(Halving, H, W) == W.lower
    with pytest.raises(SearchInterrupted) as info:
        W.value
    assert info.value.result is W and isinstance(info.value, KeyboardInterrupt)


def test_a_time_limit_stops_the_worst_case():
    H = classes.singletons(16)  # without merging, 65,535 positions: several seconds
    W = worst_case_mistakes(Halving(H), H, time_limit=0.05, symmetry=False)
    assert W.status == "budget" and W.seconds < 1 and W.lower <= 1 <= W.upper


@pytest.mark.parametrize("at", [1, 2, 5, 17, 60])
def test_ctrl_c_in_the_randomized_search_returns_proven_bounds(at):
    H = classes.random(14, 6, 0.5, seed=3)
    truth = textbook_rldim(H)
    with ctrl_c(at):
        b = randomized_littlestone_bounds(H)
    assert b.status == "interrupted" and b.lower <= truth <= b.upper
    with ctrl_c(at), pytest.raises(SearchInterrupted) as info:
        randomized_littlestone_dimension(H)
    assert isinstance(info.value, KeyboardInterrupt) and info.value.result.lower <= truth <= info.value.result.upper
    search = RLdimSearch(H)
    with ctrl_c(at), pytest.raises(SearchInterrupted):
        search.value(search.full)
    assert search.value(search.full) == truth  # the memo kept only finished values


def test_one_budget_with_one_meaning_everywhere():
    """Every search takes max_nodes and time_limit by those names, refuses bad ones alike, and
    defaults to no budget."""
    import inspect

    H = classes.thresholds(7)
    searches = [littlestone_bounds, littlestone_dimension, shattered_tree, vc_bounds, vc_dimension, shattered_set,
                randomized_littlestone_bounds, randomized_littlestone_dimension, RLdimSearch,
                LdimSearch(H).bounds, LdimSearch(H).tree]
    for f in searches:
        params = inspect.signature(f).parameters
        assert params["max_nodes"].default is None and params["time_limit"].default is None, f
        for name, bad in (("max_nodes", 0), ("max_nodes", 2.5), ("time_limit", -1), ("time_limit", math.nan)):
            with pytest.raises(ValueError, match=f"^{name}: expected None or"):
                f(H, **{name: bad}) if not inspect.ismethod(f) else f(**{name: bad})
    params = inspect.signature(worst_case_mistakes).parameters
    assert params["max_nodes"].default is None and params["time_limit"].default is None
    for name, bad in (("max_nodes", 0), ("time_limit", 0)):
        with pytest.raises(ValueError, match=f"^{name}: expected None or"):
            worst_case_mistakes(SOA(H), H, **{name: bad})


# ------------------------------------------------------------------ out of memory: still proven (issue 13)
def out_of_memory(at: int | None):
    """A MemoryError at the ``at``-th node of any search, as a real allocation failure would raise it."""
    return ctrl_c(at, MemoryError)


memory_at = st.integers(1, 40)


@SETTINGS
@given(ldim_matrices(), memory_at, max_nodes_values)
def test_ldim_bounds_are_proven_when_memory_runs_out(M, at, max_nodes):
    H = HypothesisClass.from_matrix(M)
    truth = ldim_truth(H)
    search = LdimSearch(H)
    with out_of_memory(at):
        b = search.bounds(max_nodes=max_nodes)
    assert b.status in ("exact", "memory", "budget")
    check_shape(b, truth, LdimBounds, max_nodes)
    check_shape(search.bounds(), truth, LdimBounds, None)  # the search is usable afterwards, and exact
    with out_of_memory(at):
        kind, out = result_of(lambda: shattered_tree(H))
    if kind == "value":
        assert out.graph["depth"] == truth and is_shattered(H, out)
    else:
        check_shape(out, truth, LdimBounds, None)
        assert out.status == "memory"


@SETTINGS
@given(st.one_of(class_matrices(max_rows=40, max_cols=8), random_tables()), memory_at)
def test_vc_bounds_are_proven_when_memory_runs_out(M, at):
    H = HypothesisClass.from_matrix(M)
    with out_of_memory(at):
        b = vc_bounds(H)
    assert b.status in ("exact", "memory")
    check_shape(b, vc_truth(H), VCBounds, None)
    assert len(b.witness) == b.lower and is_vc_shattered(H, b.witness)


@SETTINGS
@given(class_matrices(max_rows=10, max_cols=6), memory_at)
def test_rl_bounds_are_proven_when_memory_runs_out(M, at):
    H = HypothesisClass.from_matrix(M)
    with out_of_memory(at):
        b = randomized_littlestone_bounds(H)
    assert b.status in ("exact", "memory")
    check_shape(b, textbook_rldim(H), RLdimBounds, None)


@settings(max_examples=100, deadline=None)
@given(class_matrices(max_rows=8, max_cols=5), st.sampled_from([Consistent, Halving, SOA]), memory_at)
@example(  # found by CI: SOA's policy ran out of memory while the optimal line was rebuilt, after the search
    M=np.array([[1, 1, 0, 1]] * 3 + [[0, 1, 0, 1]] + [[1, 1, 0, 1]] * 3 + [[1, 0, 0, 1], [1, 1, 0, 1]],
               dtype=np.uint8), learner_type=SOA, at=26)
def test_worst_case_bounds_are_proven_when_memory_runs_out(M, learner_type, at):
    H = HypothesisClass.from_matrix(M)
    with out_of_memory(at):
        W = worst_case_mistakes(learner_type(H), H)
    assert W.status in ("exact", "memory")
    check_shape(W, WORST_CASE_ORACLES[learner_type](H), WorstCase, None)
    assert replayed_mistakes(learner_type, H, W) == W.lower


@settings(max_examples=60, deadline=None)
@given(class_matrices(max_rows=10, max_cols=6), st.sampled_from([Consistent, Halving, SOA]),
       st.integers(1, 30))
def test_memos_limited_by_a_small_budget_stop_before_they_outgrow_it(M, learner_type, entries):
    """With little memory available, the memos of the worst case and of RL stop (status "memory") first."""
    from mistakebound.foundations import memory
    from mistakebound.theory import randomized_ldim as randomized, worst_case

    from mistakebound.theory.littlestone import search_memory_estimate

    H = HypothesisClass.from_matrix(M)
    learner = learner_type(H)  # SOA holds a Littlestone search: made before memory is short
    per = worst_case.memo_bytes_needed(H, 1, worst_case._deep_size(learner.state_key()))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(memory, "available_memory", lambda: int(entries * per / MEMO_FRACTION))
        W = worst_case_mistakes(learner, H)
        assert W.status in ("exact", "memory")
        check_shape(W, WORST_CASE_ORACLES[learner_type](H), WorstCase, None)
        per_rl = randomized._ENTRY_BYTES + (H.n_hypotheses + 7) // 8
        avail = max(int(entries * per_rl / MEMO_FRACTION), search_memory_estimate(H))
        mp.setattr(memory, "available_memory", lambda: avail)
        search = RLdimSearch(H)
        b = search.bounds()
        assert search.memo_limit == max(1, int(avail * MEMO_FRACTION) // per_rl)
        # checked where a node starts; the nodes open on the stack finish: at most |H| more
        assert b.status in ("exact", "memory") and len(search._value) <= search.memo_limit + H.n_hypotheses
        check_shape(b, textbook_rldim(H), RLdimBounds, None)
        # and the Ldim search, whose memo is cut instead, stays exact in a 1 MiB memo
        mp.setattr(memory, "available_memory", lambda: search_memory_estimate(H))
        check_shape(littlestone_bounds(H), ldim_truth(H), LdimBounds, None)
    assert replayed_mistakes(learner_type, H, W) == W.lower


def test_memory_is_a_status_of_every_search():
    assert STATUSES == ("exact", "budget", "interrupted", "memory")
    r = SearchResult(lower=1, upper=3, status="memory", nodes=7)
    assert r.describe() == "1 <= value <= 3 (partial: memory)"
    with pytest.raises(SearchIncomplete, match=r"search stopped \(memory\) after 7 nodes"):
        r.value


@pytest.mark.parametrize("compiled", [True, False])
def test_every_search_reads_the_memory_budget_once_and_takes_its_memo_share(monkeypatch, compiled):
    """The budget is read once per search (it walks the cgroup files) and passed down; every default memo
    is memo_share of what was read."""
    from mistakebound.foundations import memory
    from mistakebound.theory import ldim_kernel, randomized_ldim as randomized, vc
    from mistakebound.theory.littlestone import default_memo_bytes

    H = classes.random(1100, 4000, 0.5, seed=0)  # past the compiled search's small matrices: it reads the budget
    T = classes.thresholds(40)
    C = classes.random(300, 12, 0.5, seed=1)
    monkeypatch.setattr(vc, "CELL_BYTES", 1)  # the VC search of C asks whether its cube fits the memory
    reads: list = []
    monkeypatch.setattr(memory, "available_memory", lambda: reads.append(1) or 1 << 34)
    monkeypatch.setattr(ldim_kernel, "AVAILABLE", compiled and ldim_kernel.AVAILABLE)
    learner = Halving(T)
    for run in (lambda: littlestone_bounds(H, max_nodes=1), lambda: RLdimSearch(T), lambda: RLdimSearch(T, max_nodes=9),
                lambda: vc_bounds(C), lambda: worst_case_mistakes(learner, T)):
        reads.clear()
        run()
        assert len(reads) == 1
    assert search_module.memo_share(1 << 34) == int((1 << 34) * MEMO_FRACTION) == default_memo_bytes(1 << 34)
    assert RLdimSearch(T).memo_limit == search_module.memo_share(1 << 34) // (randomized._ENTRY_BYTES + 6)  # 41 rows


def test_a_bad_version_space_of_a_large_class_is_refused_by_name():
    """The message of a refused V is written whatever the class's size (the bitset's bound had 5,964 digits:
    more than Python writes an int with, which raised a ValueError instead)."""
    H = classes.random(20000, 20, 0.5, seed=0)  # about 19,800 distinct rows
    for search in (RLdimSearch(H), LdimSearch(H)):
        with pytest.raises(InvalidArgumentError, match=r"^V: expected a (non-empty )?bitset over the \d+ distinct rows "
                                                       r"\(an int in [01]\.\.an integer of \d+ bits\), got -1$"):
            search.bounds(-1)


# ------------------------------------------------------------------ the game's value under other rules
game_rules = st.one_of(
    st.builds(Rules, labels=st.integers(2, 3), feedback=st.sampled_from(["full", "bandit"]), noise=st.integers(0, 2)),
    st.builds(Rules, labels=st.integers(2, 3), noise=st.integers(0, 2), randomized=st.just(True)),  # full information
)


@st.composite
def game_tables(draw, rules):
    M = draw(st.lists(st.lists(st.integers(0, rules.labels - 1), min_size=3, max_size=3), min_size=1, max_size=5))
    return np.array(M)


def game_truth(M: np.ndarray, rules: Rules):
    if rules.randomized:
        return randomized_oracle([tuple(row) for row in M.tolist()], rules.labels, rules.noise)
    return oracle([tuple(row) for row in M.tolist()], rules.labels, rules.feedback, rules.noise)


@SETTINGS
@given(st.data(), game_rules, max_nodes_values, time_limits, ctrl_c_at)
def test_game_values_are_proven_under_any_budget(data, rules, max_nodes, time_limit, at):
    M = data.draw(game_tables(rules))
    with ctrl_c(at):
        b = game_value(M, rules, **budgets(max_nodes, time_limit))
    check_shape(b, game_truth(M, rules), GameValue, max_nodes)
    assert b.rules == rules


@settings(max_examples=100, deadline=None)
@given(st.data(), game_rules, memory_at)
def test_game_values_are_proven_when_memory_runs_out(data, rules, at):
    M = data.draw(game_tables(rules))
    with out_of_memory(at):
        b = game_value(M, rules)
    assert b.status in ("exact", "memory")
    check_shape(b, game_truth(M, rules), GameValue, None)


@settings(max_examples=60, deadline=None)
@given(st.data(), game_rules, st.integers(1, 12))
def test_the_game_value_memo_stops_at_its_share_of_the_memory(data, rules, entries):
    from mistakebound.foundations import memory
    from mistakebound.theory import game_values

    M = data.draw(game_tables(rules))
    n = len({tuple(row) for row in M.tolist()})
    per = game_values.ENTRY_BYTES + (rules.noise + 1) * ((n + 7) // 8 + 28)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(memory, "available_memory", lambda: int(entries * per / MEMO_FRACTION) + 1)
        b = game_value(M, rules)
    assert b.status in ("exact", "memory")
    check_shape(b, game_truth(M, rules), GameValue, None)


@pytest.mark.parametrize("cls", [SearchResult, LdimBounds, VCBounds, WorstCase])
def test_a_result_refuses_bounds_out_of_order_an_unknown_status_and_an_inexact_exact(cls):
    """The one validator of a result's shape (each message names the field), for every search's result."""
    with pytest.raises(InvalidArgumentError, match=r"^upper: a search result needs lower <= upper, got lower = 3 > upper = 2"):
        cls(lower=3, upper=2, status="budget")
    with pytest.raises(InvalidArgumentError, match="^status: an exact result needs lower == upper"):
        cls(lower=1, upper=2)
    with pytest.raises(InvalidArgumentError, match="^status: expected one of 'exact', 'budget'"):
        cls(lower=1, upper=2, status="partial")
    with pytest.raises(InvalidArgumentError, match="^status: expected one of"):
        cls(lower=1, upper=1, status=["exact"])  # unhashable
    for status in STATUSES:
        assert cls(lower=1, upper=1, status=status).status == status
        if status != "exact":
            assert cls(lower=Fraction(1, 2), upper=math.inf, status=status).upper == math.inf
