"""What one Littlestone search publishes for another (``_outbox``, ``merge_proven``), against
the textbook recursion."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.baseline import textbook_ldim
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
    search._outbox = []
    search.ldim(search.full)
    for V, value in search._outbox:
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
    upper = search._upper3(full, search._splits3(full, search._splitting(full)))
    search._outbox = []
    d = search.ldim(full)
    if upper > d:  # the level d + 1 was searched and refuted
        assert (full, -1 - d) in search._outbox


def test_the_sparse_strategy_makes_searches_refute_levels():
    # pairs of ones among 9 columns: 46 distinct rows, Ldim 2, log2 bound 5
    M = np.zeros((46, 9), dtype=np.uint8)
    pairs = [(i, j) for i in range(9) for j in range(i + 1, 9)][:45]
    for r, (i, j) in enumerate(pairs):
        M[r, [i, j]] = 1
    search = LdimSearch(HypothesisClass.from_matrix(M))
    full = search.full
    upper = search._upper3(full, search._splits3(full, search._splitting(full)))
    assert upper > search.ldim(full) == textbook_ldim(M)


@SETTINGS
@given(matrices(), st.data())
def test_a_search_taught_by_another_answers_like_the_textbook(M, data):
    H = HypothesisClass.from_matrix(M)
    teacher, learner = LdimSearch(H), LdimSearch(H)
    teacher._outbox = []
    teacher.ldim(teacher.full)
    facts = data.draw(st.lists(st.sampled_from(teacher._outbox), unique=True)
                      if teacher._outbox else st.just([]))
    learner.merge_proven(facts)
    assert learner.ldim(learner.full) == (textbook_ldim(M) if M.shape[1] else 0)
    for V in data.draw(st.lists(st.integers(1, learner.full), max_size=5)):
        V &= learner.full
        if V:
            assert learner.ldim(V) == ldim_of_rows(learner, V)


def test_all_facts_teach_everything():
    H = HypothesisClass.from_matrix(np.random.default_rng(3).integers(0, 2, (40, 8)))
    teacher, learner = LdimSearch(H), LdimSearch(H)
    teacher._outbox = []
    value = teacher.ldim(teacher.full)
    assert learner.merge_proven(teacher._outbox) > 0
    assert learner.ldim(learner.full) == value and learner.nodes == 0
    assert learner.merge_proven(teacher._outbox) == 0  # nothing new the second time


def test_weaker_facts_do_not_overwrite_stronger_ones():
    H = HypothesisClass.from_matrix(np.random.default_rng(4).integers(0, 2, (30, 7)))
    search = LdimSearch(H)
    V = search.full
    truth = search.ldim(V)
    search.merge_proven([(V, truth), (V, -1 - truth)])
    assert search.merge_proven([(V, truth - 1), (V, 1), (V, -1 - (truth + 3))]) == 0
    assert search._lo.get(V) == truth and search._hi.get(V) == truth
    assert search.ldim(V) == truth


def test_facts_from_canonical_hits_are_true():
    # intervals(12): shifted windows answer each other through the canonical memo, and
    # those answers are published too (lower and upper bounds)
    search = LdimSearch(classes.intervals(12))
    search._outbox = []
    search.ldim(search.full)
    assert search.canonical_hits > 0
    assert any(v < 0 for _, v in search._outbox) and any(v >= 0 for _, v in search._outbox)
    for V, value in search._outbox:
        truth = ldim_of_rows(search, V)
        assert truth >= value if value >= 0 else truth <= -1 - value, (V, value, truth)
    tight = {V: value for V, value in search._outbox}
    assert any(value < 0 and ldim_of_rows(search, V) == -1 - value for V, value in tight.items())


def test_bounds_refuses_a_bad_budget_with_or_without_workers():
    search = LdimSearch(classes.thresholds(7))
    for workers in (1, 2):
        with pytest.raises(InvalidArgumentError, match="^max_nodes: expected"):
            search.bounds(max_nodes=0, workers=workers)
        with pytest.raises(InvalidArgumentError, match="^time_limit: expected"):
            search.bounds(time_limit=-1.0, workers=workers)
