"""Teaching dimension, minimum teaching set size and recursive teaching dimension against the brute force of
``tests/parameter_oracles.py``, their witnesses read from the definitions, closed forms of the zoo, budgets,
refusals, and the relations between them and with VCdim, Ldim and the one-inclusion graph."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mistakebound import HypothesisClass
from mistakebound.foundations.errors import InvalidArgumentError, NotApplicableError
from mistakebound.game import classes
from mistakebound.theory import search_protocol as search_module
from mistakebound.theory.littlestone import littlestone_bounds, littlestone_dimension
from mistakebound.theory.one_inclusion import one_inclusion_degree
from mistakebound.theory.search_protocol import SearchIncomplete, SearchInterrupted
from mistakebound.theory.teaching import (MinTeachingBounds, RecursiveTeachingBounds, TeachingBounds, TeachingSet,
                                          minimum_teaching_set_bounds, minimum_teaching_set_size,
                                          recursive_teaching_bounds, recursive_teaching_dimension,
                                          smallest_teaching_set, teaching_dimension, teaching_dimension_bounds)
from mistakebound.theory.vc import vc_dimension
from tests import parameter_oracles as oracle
from tests.parameter_checks import interrupted
from tests.strategies import class_matrices
from tests.test_vc import interrupting_spend


def row(H: HypothesisClass, i: int) -> tuple:
    return tuple(int(v) for v in H.matrix[i])


def teaches(H: HypothesisClass, s: TeachingSet, within=None) -> bool:
    """Whether every concept of ``within`` (default: the class) other than ``s.hypothesis``'s labels a shown
    instance otherwise: the definition of a teaching set, on the class as a family of sets."""
    h = row(H, s.hypothesis)
    cols = [H.index_of(x) for x in s.instances]
    pool = oracle.concepts(H.matrix) if within is None else within
    return all(any(c[j] != h[j] for j in cols) for c in pool if c != h)


def first_rows(H: HypothesisClass) -> list[int]:
    """The index of the first hypothesis of each concept, in class order."""
    return [int(i) for i in H.distinct_rows()[0]]


def check_td(H: HypothesisClass, b: TeachingBounds, exact_check: bool = True) -> None:
    w = b.witness
    if w.sets:
        assert [s.hypothesis for s in w.sets] == first_rows(H)
        assert all(teaches(H, s) for s in w.sets)
        assert max(s.size for s in w.sets) == b.upper
    if w.hardest is not None:
        assert oracle.teaching_set_size(H.matrix, row(H, w.hardest)) >= b.lower
    else:
        assert b.lower == 0


def check_plan(H: HypothesisClass, b: RecursiveTeachingBounds) -> None:
    """Each layer's concepts are those of smallest teaching set size in what earlier layers left, each shown
    with a teaching set of that size within it; a complete plan holds every concept once."""
    left = set(oracle.concepts(H.matrix))
    for layer in b.witness.layers:
        sizes = {c: oracle.teaching_set_size(list(left), c) for c in left}
        low = min(sizes.values())
        assert layer.value == low
        members = [row(H, s.hypothesis) for s in layer.sets]
        assert sorted(members) == sorted(c for c, v in sizes.items() if v == low)
        assert all(s.size == low and teaches(H, s, within=left) for s in layer.sets)
        left -= set(members)
    if b.exact:
        assert not left
        assert b.value == max((layer.value for layer in b.witness.layers), default=0)


@settings(max_examples=300, deadline=None)
@given(class_matrices(max_rows=14, max_cols=6))
def test_the_searches_equal_the_brute_force_and_their_witnesses_teach(M):
    H = HypothesisClass.from_matrix(M)
    td = teaching_dimension_bounds(H)
    assert td.exact and td.value == oracle.teaching_dimension(M) == teaching_dimension(H)
    check_td(H, td)
    low = minimum_teaching_set_bounds(H)
    assert low.exact and low.value == oracle.minimum_teaching_set_size(M) == minimum_teaching_set_size(H)
    assert low.witness.size == low.value and teaches(H, low.witness)
    rtd = recursive_teaching_bounds(H)
    assert rtd.exact and rtd.value == oracle.recursive_teaching_dimension(M) == recursive_teaching_dimension(H)
    check_plan(H, rtd)


@settings(max_examples=150, deadline=None)
@given(class_matrices(max_rows=14, max_cols=6), st.data())
def test_the_smallest_teaching_set_of_any_hypothesis_duplicates_included(M, data):
    H = HypothesisClass.from_matrix(M)
    i = data.draw(st.integers(0, H.n_hypotheses - 1))
    s = smallest_teaching_set(H, i)
    assert s.hypothesis == i and teaches(H, s)
    assert s.size == oracle.teaching_set_size(M, row(H, i))


@settings(max_examples=120, deadline=None)
@given(class_matrices(max_rows=14, max_cols=6), st.integers(1, 30))
def test_a_node_budget_gives_intervals_holding_the_values(M, nodes):
    H = HypothesisClass.from_matrix(M)
    td = teaching_dimension_bounds(H, max_nodes=nodes)
    assert td.lower <= oracle.teaching_dimension(M) <= td.upper
    check_td(H, td)
    low = minimum_teaching_set_bounds(H, max_nodes=nodes)
    assert low.lower <= oracle.minimum_teaching_set_size(M) <= low.upper
    if low.witness is not None:
        assert low.witness.size == low.upper and teaches(H, low.witness)
    rtd = recursive_teaching_bounds(H, max_nodes=nodes, ldim=littlestone_bounds(H))
    assert rtd.lower <= oracle.recursive_teaching_dimension(M) <= rtd.upper
    check_plan(H, rtd)
    for b in (td, low, rtd):
        # exact means finished; a partial result may have met bounds, with a witness not yet whole
        assert b.status in ("exact", "budget") and b.nodes <= nodes and (not b.exact or b.lower == b.upper)


@settings(max_examples=100, deadline=None)
@given(class_matrices(max_rows=14, max_cols=6), st.integers(1, 12),
       st.sampled_from(["td", "min", "rtd"]))
def test_ctrl_c_gives_the_bounds_proven_so_far(M, when, which):
    H = HypothesisClass.from_matrix(M)
    search, truth = {"td": (teaching_dimension_bounds, oracle.teaching_dimension),
                     "min": (minimum_teaching_set_bounds, oracle.minimum_teaching_set_size),
                     "rtd": (recursive_teaching_bounds, oracle.recursive_teaching_dimension)}[which]
    b = interrupted(search, H, when)
    assert b.status in ("exact", "interrupted")
    assert b.lower <= truth(M) <= b.upper


@pytest.mark.parametrize("number", [teaching_dimension, minimum_teaching_set_size, recursive_teaching_dimension])
def test_ctrl_c_raises_search_interrupted_from_the_bare_numbers(number, monkeypatch):
    H = classes.random(60, 14, 0.4, seed=4)
    monkeypatch.setattr(search_module.Clock, "spend", interrupting_spend(2))
    with pytest.raises(SearchInterrupted) as info:
        number(H)
    assert info.value.result.status == "interrupted"
    assert isinstance(info.value.result, (TeachingBounds, MinTeachingBounds, RecursiveTeachingBounds))
    monkeypatch.undo()
    assert info.value.result.lower <= number(H) <= info.value.result.upper


def test_an_exhausted_budget_raises_with_the_proven_bounds():
    H = classes.random(300, 12, 0.5, seed=1)
    with pytest.raises(SearchIncomplete) as info:
        recursive_teaching_dimension(H, max_nodes=10_000)
    b = info.value.result
    assert b.status == "budget" and b.lower < b.upper and b.witness.layers


# ------------------------------------------------------------------ closed forms
@pytest.mark.parametrize("N", [2, 3, 8, 40])
def test_closed_forms_of_the_line(N):
    """(TD, TSmin, RTD).  Thresholds: an inner threshold needs the two instances around its cut, an end one;
    peeling the two ends repeats the ends.  Intervals: the empty interval needs every instance, an end interval
    [1,1] two, and no interval one.  Singletons: a positive example each; with the empty set, the empty set
    needs every instance, and goes last."""
    assert (teaching_dimension(classes.thresholds(N)), minimum_teaching_set_size(classes.thresholds(N)),
            recursive_teaching_dimension(classes.thresholds(N))) == (2, 1, 1)
    assert (teaching_dimension(classes.intervals(N)), minimum_teaching_set_size(classes.intervals(N)),
            recursive_teaching_dimension(classes.intervals(N))) == (N, 2, 2)
    assert (teaching_dimension(classes.singletons(N)), minimum_teaching_set_size(classes.singletons(N)),
            recursive_teaching_dimension(classes.singletons(N))) == (1, 1, 1)
    H = classes.singletons(N, include_empty=True)
    assert (teaching_dimension(H), minimum_teaching_set_size(H), recursive_teaching_dimension(H)) == (N, 1, 1)


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_closed_forms_of_the_cube(n):
    """The cube needs every instance for every concept; a parity is pinned by n independent equations, no
    fewer; a projection x -> x_i by the point with a 1 at i alone (two projections or more)."""
    for H in (classes.power_set(n), classes.parities(n)):
        assert (teaching_dimension(H), minimum_teaching_set_size(H), recursive_teaching_dimension(H)) == (n, n, n)
    if n > 1:
        H = classes.projections(n)
        assert (teaching_dimension(H), minimum_teaching_set_size(H), recursive_teaching_dimension(H)) == (1, 1, 1)


def test_one_concept_and_thresholds_4095():
    for M in ([[0, 1, 1]], [[1], [1]], np.zeros((3, 0), dtype=np.uint8)):
        H = HypothesisClass.from_matrix(M)
        assert (teaching_dimension(H), minimum_teaching_set_size(H), recursive_teaching_dimension(H)) == (0, 0, 0)
    H = classes.thresholds(4095)  # settled by the forced instances alone: no set-cover search at all
    for search, value in ((teaching_dimension_bounds, 2), (minimum_teaching_set_bounds, 1),
                          (recursive_teaching_bounds, 1)):
        b = search(H, max_nodes=4096)
        assert b.exact and b.value == value
    assert len(recursive_teaching_bounds(H).witness.layers) == 2048


# ------------------------------------------------------------------ refusals
def test_bad_input_is_refused_by_name():
    three = HypothesisClass.from_matrix([[0, 2], [1, 1]], labels=3, name="three")
    for f, what in ((teaching_dimension_bounds, "the teaching dimension"),
                    (minimum_teaching_set_bounds, "the minimum teaching set size"),
                    (recursive_teaching_bounds, "the recursive teaching dimension")):
        with pytest.raises(InvalidArgumentError, match="^H: expected a HypothesisClass, got list"):
            f([[0, 1]])
        with pytest.raises(NotApplicableError, match=f"^H: {what} needs a class of labels 0 and 1"):
            f(three)
        with pytest.raises(InvalidArgumentError, match="^max_nodes: "):
            f(classes.thresholds(3), max_nodes=-1)
    with pytest.raises(InvalidArgumentError, match="^hypothesis: expected a row index of H, an integer from 0 to 3"):
        smallest_teaching_set(classes.thresholds(3), 4)
    with pytest.raises(InvalidArgumentError, match="^ldim: expected an LdimBounds"):
        recursive_teaching_bounds(classes.thresholds(3), ldim=2)


def test_a_class_too_large_for_the_memory_is_refused_before_the_search(monkeypatch):
    from mistakebound.foundations import memory
    from mistakebound.foundations.errors import InsufficientMemoryError

    H = classes.random(200, 30, 0.5, seed=0)
    monkeypatch.setattr(memory, "available_memory", lambda: 1000)
    with pytest.raises(InsufficientMemoryError, match="^H: a search of the teaching dimension of 200 hypotheses"):
        teaching_dimension_bounds(H)


# ------------------------------------------------------------------ relations, each with its source
@settings(max_examples=200, deadline=None)
@given(class_matrices(max_rows=16, max_cols=6))
def test_the_teaching_parameters_are_ordered(M):
    """TSmin <= RTD (the first layer's value is TSmin: definition) <= TD (Zilles, Lange, Holte and Zinkevich,
    "Models of cooperative teaching and learning", JMLR 2011; the database's relationship 027) <= the star
    number (see tests/test_star_number.py); TD >= the one-inclusion degree (a neighbour differs on one
    instance only: it is in every teaching set)."""
    H = HypothesisClass.from_matrix(M)
    td, low, rtd = teaching_dimension(H), minimum_teaching_set_size(H), recursive_teaching_dimension(H)
    assert low <= rtd <= td
    assert td >= one_inclusion_degree(H)


@settings(max_examples=200, deadline=None)
@given(class_matrices(max_rows=16, max_cols=6))
def test_the_recursive_teaching_dimension_is_at_most_ldim(M):
    """TSmin <= Ldim, hence RTD <= Ldim: from the root, show an instance splitting what is left with the label
    of the side of smaller Littlestone dimension (one side is below Ldim, or the other side's tree would be
    deeper); after at most Ldim instances one concept is left, taught by them; each layer is a subclass, of
    Littlestone dimension at most Ldim.  (The database implies it: relationships 029, 082 and 136.)"""
    H = HypothesisClass.from_matrix(M)
    ldim = littlestone_dimension(H)
    assert minimum_teaching_set_size(H) <= recursive_teaching_dimension(H) <= ldim


def addressing_of_two_bits() -> HypothesisClass:
    """Four points, each the address of one hypothesis, and two bits spelling it: {i} plus the bits of i."""
    rows = [[int(p == i) for p in range(4)] + [i >> 1 & 1, i & 1] for i in range(4)]
    return HypothesisClass.from_matrix(rows, name="addressing(4)")


def test_the_vc_dimension_bounds_neither_teaching_dimension():
    """VCdim <= TD is false, and so is TD <= VCdim: no relation holds either way (Goldman and Kearns 1995 gave
    both kinds of class).  Addressing (the database's class 008): VCdim 2 on the two address bits, every concept
    taught by its own point, TD = RTD = 1.  Singletons with the empty set: VCdim 1, TD n."""
    H = addressing_of_two_bits()
    assert vc_dimension(H) == 2 and teaching_dimension(H) == 1 == recursive_teaching_dimension(H)
    assert oracle.teaching_dimension(H.matrix) == 1
    H = classes.singletons(5, include_empty=True)
    assert vc_dimension(H) == 1 and teaching_dimension(H) == 5
