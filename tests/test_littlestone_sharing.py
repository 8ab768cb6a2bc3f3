"""What one Littlestone search publishes for another (a run with ``publish=True``, ``facts``,
``merge_proven``), against
the textbook recursion."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mistakebound.theory.textbook import textbook_ldim
from mistakebound import HypothesisClass
from mistakebound.game import classes
from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.foundations.bitset import mask_to_indices
from mistakebound.theory.littlestone import LdimSearch
from tests.strategies import class_matrices, sparse_matrices

SETTINGS = settings(max_examples=60, deadline=None)


def ldim_of_rows(search: LdimSearch, V: int) -> int:
    """The textbook Ldim of the sub-class V (a bitset over the search's distinct rows)."""
    rows = search.representatives[mask_to_indices(V)]
    M = search.H.matrix[rows]
    return textbook_ldim(M) if M.shape[1] else 0


def matrices():
    # sparse classes have Ldim far below log2 |H|: their searches refute levels, so they
    # publish upper bounds that are tight
    return st.one_of(class_matrices(max_rows=14, max_cols=7), sparse_matrices())


@SETTINGS
@given(matrices())
def test_every_published_fact_is_true(M):
    search = LdimSearch(HypothesisClass.from_matrix(M))
    with search.running(publish=True) as run:
        search.ldim(search.full)
    facts = run.take_facts()
    assert run.take_facts() == []  # taken once
    for V, value in facts + search.facts():
        truth = ldim_of_rows(search, V)
        if value >= 0:
            assert truth >= value, (V, value, truth)
        else:
            assert truth <= -1 - value, (V, value, truth)


@SETTINGS
@given(sparse_matrices())
def test_a_refuted_top_level_is_published_as_a_tight_upper_bound(M):
    search = LdimSearch(HypothesisClass.from_matrix(M))
    full = search.full
    upper = search.plan().upper
    with search.running(publish=True) as run:
        d = search.ldim(full)
    if upper > d:  # the level d + 1 was searched and refuted
        assert (full, -1 - d) in run.take_facts()


def test_the_sparse_strategy_makes_searches_refute_levels():
    # pairs of ones among 9 columns: 46 distinct rows, Ldim 2, log2 bound 5
    M = np.zeros((46, 9), dtype=np.uint8)
    pairs = [(i, j) for i in range(9) for j in range(i + 1, 9)][:45]
    for r, (i, j) in enumerate(pairs):
        M[r, [i, j]] = 1
    search = LdimSearch(HypothesisClass.from_matrix(M))
    upper = search.plan().upper
    assert upper > search.ldim(search.full) == textbook_ldim(M)


@SETTINGS
@given(matrices(), st.data())
def test_a_search_taught_by_another_answers_like_the_textbook(M, data):
    H = HypothesisClass.from_matrix(M)
    teacher, learner = LdimSearch(H), LdimSearch(H)
    with teacher.running(publish=True) as run:
        teacher.ldim(teacher.full)
    published = run.take_facts()
    facts = data.draw(st.lists(st.sampled_from(published), unique=True) if published else st.just([]))
    learner.merge_proven(facts)
    assert learner.ldim(learner.full) == (textbook_ldim(M) if M.shape[1] else 0)
    for V in data.draw(st.lists(st.integers(1, learner.full), max_size=5)):
        V &= learner.full
        if V:
            assert learner.ldim(V) == ldim_of_rows(learner, V)


def test_all_facts_teach_everything():
    H = HypothesisClass.from_matrix(np.random.default_rng(3).integers(0, 2, (40, 8)))
    teacher, learner = LdimSearch(H), LdimSearch(H)
    with teacher.running(publish=True) as run:
        value = teacher.ldim(teacher.full)
    published = run.take_facts()
    assert learner.merge_proven(published) > 0
    assert learner.ldim(learner.full) == value and learner.nodes == 0
    assert learner.merge_proven(published) == 0  # nothing new the second time
    assert learner.merge_proven(teacher.facts()) == 0  # the memo holds the same facts


def test_weaker_facts_do_not_overwrite_stronger_ones():
    H = HypothesisClass.from_matrix(np.random.default_rng(4).integers(0, 2, (30, 7)))
    search = LdimSearch(H)
    V = search.full
    truth = search.ldim(V)
    search.merge_proven([(V, truth), (V, -1 - truth)])
    assert search.merge_proven([(V, truth - 1), (V, 1), (V, -1 - (truth + 3))]) == 0
    assert search.proven(V) == (truth, truth)
    assert search.ldim(V) == truth


def test_facts_from_canonical_hits_are_true():
    # intervals(12): shifted windows answer each other through the canonical memo, and
    # those answers are published too (lower and upper bounds)
    search = LdimSearch(classes.intervals(12))
    with search.running(publish=True) as run:
        search.ldim(search.full)
    published = run.take_facts()
    assert search.canonical_hits > 0
    assert any(v < 0 for _, v in published) and any(v >= 0 for _, v in published)
    for V, value in published:
        truth = ldim_of_rows(search, V)
        assert truth >= value if value >= 0 else truth <= -1 - value, (V, value, truth)
    tight = {V: value for V, value in published}
    assert any(value < 0 and ldim_of_rows(search, V) == -1 - value for V, value in tight.items())


def test_bounds_refuses_a_bad_budget_with_or_without_workers():
    search = LdimSearch(classes.thresholds(7))
    for workers in (1, 2):
        with pytest.raises(InvalidArgumentError, match="^max_nodes: expected"):
            search.bounds(max_nodes=0, workers=workers)
        with pytest.raises(InvalidArgumentError, match="^time_limit: expected"):
            search.bounds(time_limit=-1.0, workers=workers)


# ------------------------------------------------------------------ the public interface
@SETTINGS
@given(matrices(), st.data())
def test_plan_proven_and_at_least_agree_with_the_textbook(M, data):
    """The pieces a driver uses: the plan's bounds and splits, proven(), at_least(plan=)."""
    H = HypothesisClass.from_matrix(M)
    search = LdimSearch(H)
    rows = data.draw(st.sets(st.integers(0, H.n_hypotheses - 1), min_size=1))
    V = search.mask_of_rows(rows)
    truth = ldim_of_rows(search, V)
    plan = search.plan(V)
    assert plan.V == V and plan.lower <= truth <= plan.upper
    assert [s for s, _, _ in plan.splits] == sorted((s for s, _, _ in plan.splits), reverse=True)
    for size, small, j in plan.splits:
        assert small.bit_count() == size and 0 < small & V == small and 2 * size <= V.bit_count()
        assert small in (V & search.columns[j], V & ~search.columns[j])
    lo, hi = search.proven(V)
    assert lo <= truth <= hi
    k = data.draw(st.integers(0, plan.upper + 1))
    assert search.at_least(V, k, plan=plan) == (truth >= k)
    lo, hi = search.proven(V)
    assert lo <= truth <= hi and (lo >= k if truth >= k else hi < k)


def test_a_plan_of_another_version_space_is_refused():
    search = LdimSearch(classes.thresholds(7))
    with pytest.raises(InvalidArgumentError, match="^plan: expected the plan of V"):
        search.at_least(search.full, 2, plan=search.plan(0b11))
    for bad in (-1, search.full + 1, 1.5, True):
        with pytest.raises(InvalidArgumentError, match="^V: expected a bitset"):
            search.plan(bad)


def test_a_run_sets_its_budget_tick_and_outbox_and_restores_them():
    from mistakebound.theory.search_protocol import Budget, OutOfBudget

    search = LdimSearch(classes.random(3000, 30, 0.3, seed=0))
    ticks = []
    assert not search.in_run
    with search.running(Budget(max_nodes=100), tick=lambda: ticks.append(search.nodes)) as outer:
        with search.running(Budget(max_nodes=10_000), publish=True) as inner:  # the tighter limit holds
            with pytest.raises(OutOfBudget):
                search.at_least(search.full, 9)
            assert inner.nodes == 100 and inner.take_facts() != []
        assert search.in_run and outer.outbox is None
        outer.limit_nodes(5)
        with pytest.raises(OutOfBudget):
            search.at_least(search.full, 9)
        assert outer.nodes == 105
    assert not search.in_run and ticks and all(n % 16 == 0 for n in ticks)
    assert search.bounds().value == 9  # the memo kept only proven facts: the answer is right
