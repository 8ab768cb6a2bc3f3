"""VC dimension and shattered sets against brute force."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings

from benchmarks.baseline import textbook_vcdim
from mistakebound import HypothesisClass, classes
from mistakebound.errors import InvalidArgumentError
from mistakebound.vc import is_vc_shattered, shattered_set, vc_dimension
from tests.strategies import class_matrices


@settings(max_examples=300, deadline=None)
@given(class_matrices(max_rows=16, max_cols=7))
def test_vc_equals_brute_force_and_the_set_is_shattered(M):
    H = HypothesisClass.from_matrix(M)
    S = shattered_set(H)
    assert len(S) == (textbook_vcdim(M) if M.shape[1] else 0)
    assert is_vc_shattered(H, S)
    assert list(S) == sorted(S, key=H.index_of)


@pytest.mark.parametrize("n", [1, 2, 3, 5, 8])
def test_zoo_closed_forms(n):
    assert vc_dimension(classes.thresholds(2 * n)) == 1
    assert vc_dimension(classes.monotone_disjunctions(n)) == n
    assert vc_dimension(classes.monotone_conjunctions(n)) == n
    assert vc_dimension(classes.power_set(n)) == n
    assert vc_dimension(classes.singletons(n + 1)) == 1
    assert vc_dimension(classes.intervals(n + 1)) == 2
    assert vc_dimension(classes.projections(n + 1)) == math.floor(math.log2(n + 1))
    assert vc_dimension(classes.k_sparse(n + 2, 2)) == 2


def test_parities_do_not_explode():
    # 1024 instances, 1024 hypotheses; a level-by-level enumeration would try C(1024, 10) sets
    assert vc_dimension(classes.parities(10)) == 10


def test_is_vc_shattered_rejects_duplicates_and_strangers():
    H = classes.power_set(3)
    assert not is_vc_shattered(H, [0, 0])
    assert not is_vc_shattered(H, [0, 99])
    assert is_vc_shattered(H, [])
    assert not is_vc_shattered(classes.thresholds(4), [1, 2])


def test_single_hypothesis_has_vc_zero():
    assert shattered_set(HypothesisClass.from_matrix([[1, 0, 1]])) == ()
    assert math.isclose(vc_dimension(HypothesisClass.from_matrix([[1, 0, 1]])), 0)


def test_bad_argument():
    with pytest.raises(InvalidArgumentError, match="H:"):
        vc_dimension([[0, 1], [1, 0]])
