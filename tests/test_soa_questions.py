"""The questions a learner asks of an LdimSearch, on the compiled search (``COMPILED_MIN``) or not.

Forced on (``COMPILED_MIN = 0``: every version space goes to the compiled search on its
rows) and off, outside runs and inside them, the answers, SOA's transcripts and its worst
cases are those of the textbook recursion; budgets (a run's nodes and seconds, the step's
deadline) and signals still bind, and a run out of budget raises as the Python search does.
"""

from __future__ import annotations

import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mistakebound.theory.ldim_search as ldim_search
from mistakebound.learners import SOA
from mistakebound import HypothesisClass, play
from mistakebound.adversaries.oblivious_coin import ObliviousCoin
from mistakebound.foundations.bitset import mask_to_indices
from mistakebound.game import classes
from mistakebound.theory import ldim_kernel
from mistakebound.theory.ldim_search import LdimSearch
from mistakebound.theory.search_protocol import (
    Budget,
    OutOfBudget,
    resume_searches,
    spending,
    stop_searches,
)
from mistakebound.theory.textbook import textbook_ldim, textbook_worst_case
from mistakebound.theory.worst_case import worst_case_mistakes
from tests.strategies import class_matrices

SETTINGS = settings(max_examples=60, deadline=None)
OFF = 1 << 62

pytestmark = pytest.mark.skipif(not ldim_kernel.AVAILABLE, reason="the compiled search is not built")


@pytest.fixture(params=["on", "off"])
def compiled(request, monkeypatch):
    """The compiled path forced on for every version space, or off."""
    monkeypatch.setattr(ldim_search, "COMPILED_MIN", 0 if request.param == "on" else OFF)
    return request.param


def ldim_of_rows(search: LdimSearch, V: int) -> int:
    """The textbook Ldim of the sub-class V (a bitset over the search's distinct rows)."""
    return textbook_ldim_of(search.H.matrix[search.representatives[mask_to_indices(V)]])


def version_spaces(search: LdimSearch, seed: int, count: int = 6) -> list[int]:
    rng = np.random.default_rng(seed)
    return [int(sum(1 << int(i) for i in np.flatnonzero(rng.random(search.n_distinct) < 0.6))) or search.full
            for _ in range(count)]


@SETTINGS
@given(M=class_matrices(max_rows=12, max_cols=6), seed=st.integers(0, 2**16), on=st.booleans())
def test_answers_are_the_textbooks_with_the_compiled_path_on_and_off(M, seed, on):
    with pytest.MonkeyPatch.context() as m:
        m.setattr(ldim_search, "COMPILED_MIN", 0 if on else OFF)
        search = LdimSearch(HypothesisClass.from_matrix(M))
        for V in [search.full, *version_spaces(search, seed)]:
            truth = ldim_of_rows(search, V)
            assert search.ldim(V) == truth
            for k in range(truth - 1, truth + 3):
                assert search.at_least(V, k) == (truth >= k)
            assert search.ldim(V) == truth  # the repeated question: a memo hit
        assert on or search.compiled_questions == 0  # on: asked unless proven bounds settled it


@SETTINGS
@given(M=class_matrices(max_rows=12, max_cols=6))
def test_soas_worst_case_and_transcript_are_the_same_on_and_off(M):
    H = HypothesisClass.from_matrix(M)
    found = {}
    for mode, value in (("on", 0), ("off", OFF)):
        with pytest.MonkeyPatch.context() as m:
            m.setattr(ldim_search, "COMPILED_MIN", value)
            W = worst_case_mistakes(SOA(H), H)
            T = play(SOA(H), ObliviousCoin(labels="target"), H, rounds=10, seed=0)
            found[mode] = (W.lower, W.upper, W.status, T.mistakes, tuple(T.rounds))
    assert found["on"] == found["off"]
    assert found["on"][0] == found["on"][1] == textbook_worst_case(M, soa_rule(M)) == textbook_ldim_of(M)


def textbook_ldim_of(M: np.ndarray) -> int:
    return -1 if M.shape[0] == 0 else textbook_ldim(M) if M.shape[1] else 0


def soa_rule(M: np.ndarray):
    """SOA as a rule of the textbook worst case: 0 when the 0-side's Ldim is the larger (textbook ldim)."""
    def rule(rows: frozenset, j: int) -> int:
        sides = [M[sorted(r for r in rows if M[r, j] == y)] for y in (0, 1)]
        return 0 if textbook_ldim_of(sides[0]) > textbook_ldim_of(sides[1]) else 1
    return rule


def test_the_compiled_answer_is_recorded_so_a_repeated_question_is_a_memo_hit(compiled):
    H = classes.random(2000, 20, 0.5, seed=1)
    search = LdimSearch(H)
    value = search.ldim(search.full)
    nodes, asked = search.nodes, search.compiled_questions
    assert search.ldim(search.full) == value and search.at_least(search.full, value + 1) is False
    assert (search.nodes, search.compiled_questions) == (nodes, asked)
    assert search.proven(search.full) == ((value, value) if compiled == "on" else search.proven(search.full))


@SETTINGS
@given(M=class_matrices(max_rows=12, max_cols=6), seed=st.integers(0, 2**16), on=st.booleans(),
       publish=st.booleans())
def test_inside_a_run_the_answers_are_the_textbooks_with_the_compiled_path_on_and_off(M, seed, on, publish):
    with pytest.MonkeyPatch.context() as m:
        m.setattr(ldim_search, "COMPILED_MIN", 0 if on else OFF)
        search = LdimSearch(HypothesisClass.from_matrix(M))
        spaces = [search.full, *version_spaces(search, seed)]
        with search.running(Budget(max_nodes=10**9, time_limit=600), publish=publish) as run:
            for V in spaces:
                truth = ldim_of_rows(search, V)
                assert search.ldim(V) == truth
                for k in range(truth - 1, truth + 3):
                    assert search.at_least(V, k) == (truth >= k)
        assert (on and not publish) or search.compiled_questions == 0  # a run that publishes stays in Python
        for V, value in run.take_facts() if publish else ():  # and publishes true facts
            truth = ldim_of_rows(search, V)
            assert truth >= value if value >= 0 else truth <= -1 - value


@SETTINGS
@given(M=class_matrices(max_rows=12, max_cols=6), seed=st.integers(0, 2**16))
def test_exceeds_is_the_textbooks_comparison(M, seed):
    search = LdimSearch(HypothesisClass.from_matrix(M))
    rng = np.random.default_rng(seed)
    spaces = [0, search.full, *version_spaces(search, seed, 4)]
    for size in (1, 2, 3, 4):  # the tiny version spaces answered by bounds alone
        if size <= search.n_distinct:
            spaces.append(sum(1 << int(i) for i in rng.choice(search.n_distinct, size, replace=False)))
    truth = {V: ldim_of_rows(search, V) for V in spaces}
    for A in spaces:
        for B in spaces:
            assert search.exceeds(A, B) == (truth[A] > truth[B]), (A, B)


def test_inside_a_run_a_large_question_goes_to_the_compiled_search_under_the_runs_budget(monkeypatch):
    monkeypatch.setattr(ldim_search, "COMPILED_MIN", 0)
    search = LdimSearch(classes.random(3000, 30, 0.3, seed=0))
    with search.running(Budget(max_nodes=3)) as run:
        with pytest.raises(OutOfBudget):
            search.at_least(search.full, 9)
    assert search.compiled_questions == 1 and run.nodes == 3  # no node past the budget is counted
    lo, hi = search.proven(search.full)
    assert lo <= 9 <= hi
    with search.running(Budget(max_nodes=10**7)) as run:
        assert search.ldim(search.full) == 9
    assert search.compiled_questions == 2 and run.nodes > 3  # its nodes are the run's


def test_inside_a_run_a_compiled_answer_out_of_budget_that_settles_the_question_is_an_answer(monkeypatch):
    """Out of budget but proven Ldim <= 5: "Ldim >= 6?" is answered no, as the Python memo answers it."""
    monkeypatch.setattr(ldim_search, "COMPILED_MIN", 0)
    H = classes.random(100, 10, 0.3, seed=2)
    truth = textbook_ldim_of(H.matrix)
    search = LdimSearch(H)
    assert search.proven(search.full)[1] == 6 > truth == 5
    with search.running(Budget(max_nodes=5)) as run:
        assert search.at_least(search.full, 6) is False
    assert search.compiled_questions == 1 and run.nodes <= 5


def test_a_runs_time_limit_and_the_steps_deadline_bind_the_compiled_search(monkeypatch):
    monkeypatch.setattr(ldim_search, "COMPILED_MIN", 0)
    H = classes.random(3000, 30, 0.3, seed=0)
    for step, own in ((None, 1e-4), (1e-4, None)):
        search = LdimSearch(H)
        with spending(step), search.running(Budget(time_limit=own)):
            with pytest.raises(OutOfBudget):
                search.ldim(search.full)
        lo, hi = search.proven(search.full)
        assert lo <= 9 <= hi


def test_inside_a_run_after_a_signal_a_question_stops(monkeypatch):
    monkeypatch.setattr(ldim_search, "COMPILED_MIN", 0)
    search = LdimSearch(classes.random(3000, 30, 0.3, seed=0))
    stop_searches()
    try:
        with search.running(Budget(max_nodes=10**7)), pytest.raises(KeyboardInterrupt):
            search.ldim(search.full)
    finally:
        resume_searches()
    assert search.ldim(search.full) == 9


def test_a_run_with_a_tick_and_the_python_descent_stay_in_python(monkeypatch):
    """A parallel search's run exchanges facts at its tick (and publishes them: the hypothesis test above);
    bounds() is the Python search trees are read from."""
    monkeypatch.setattr(ldim_search, "COMPILED_MIN", 0)
    search = LdimSearch(classes.random(3000, 30, 0.3, seed=0))
    ticks = []
    with search.running(Budget(max_nodes=40), tick=lambda: ticks.append(1)):
        with pytest.raises(OutOfBudget):
            search.at_least(search.full, 9)
    assert search.compiled_questions == 0 and len(ticks) == 40 // ldim_search.TICK_NODES
    assert search.bounds(max_nodes=5).status == "budget" and search.compiled_questions == 0
    tree_search = LdimSearch(classes.intervals(12))
    assert tree_search.tree().graph["depth"] == textbook_ldim_of(classes.intervals(12).matrix)
    assert tree_search.compiled_questions == 0


def test_a_question_under_a_tiny_step_budget_raises_out_of_budget(monkeypatch):
    monkeypatch.setattr(ldim_search, "COMPILED_MIN", 0)
    H = classes.random(3000, 30, 0.3, seed=0)
    search = LdimSearch(H)
    with spending(1e-6):
        time.sleep(1e-3)
        with pytest.raises(OutOfBudget):
            search.ldim(search.full)
    lo, hi = search.proven(search.full)
    assert lo <= 9 <= hi and search.ldim(search.full) == 9  # what it kept is proven; with time it answers


def test_after_a_signal_a_question_stops(monkeypatch):
    monkeypatch.setattr(ldim_search, "COMPILED_MIN", 0)
    search = LdimSearch(classes.random(3000, 30, 0.3, seed=0))
    stop_searches()
    try:
        with pytest.raises(KeyboardInterrupt):
            search.ldim(search.full)
    finally:
        resume_searches()
    assert search.ldim(search.full) == 9


def test_without_the_extension_the_python_search_answers(monkeypatch):
    monkeypatch.setattr(ldim_search, "COMPILED_MIN", 0)
    monkeypatch.setattr(ldim_kernel, "AVAILABLE", False)
    search = LdimSearch(classes.thresholds(63))
    assert search.ldim(search.full) == 6 and search.compiled_questions == 0 and search.nodes > 0


def test_soa_on_a_large_class_asks_the_compiled_search():
    H = classes.thresholds(1023)
    learner = SOA(H)
    assert learner.bound(H).value == 10 and learner._search.compiled_questions >= 1
