"""External validation: the values the Combinatorial Parameters database states, on the classes it defines.

The database (github.com/obousquet/Combinatorial-Parameters, read at commit ``2cd2470``) describes
concept classes in ``data/classes/*.json`` and states the values of parameters on them in
``data/values/*.json`` (one file per parameter and class, a formula in ``n``).  Each class is
rebuilt here from its definition text, as written, and every stated value of a parameter this
package computes (threshold dimension, star number, teaching dimension, minimum teaching set
size, recursive teaching dimension, maximum degree of the one-inclusion graph, Littlestone and
VC dimensions, and the size, which checks the rebuild) is checked at several sizes.

The classes, in our words (file in ``data/classes/``):

* trivial concepts (``001``): the empty set and the whole of ``[n]``;
* singletons (``002``): ``{i}`` for ``i`` in ``[n]`` (``classes.singletons``);
* full cube (``003``): every subset of ``[n]`` (``classes.power_set``);
* singletons plus the empty set (``004``): ``classes.singletons(n, include_empty=True)``;
* half-intervals (``005``): the initial segments ``[i] = {1..i}``, ``1 <= i <= n``: the zoo's
  ``thresholds(n)`` without its empty hypothesis;
* tagged singletons (``006``, after Maass and Turan): on ``[n + L]``, ``L = ceil(log2 n)``, the
  empty set, the tags ``{n + l}`` for ``l`` in ``[L]``, and ``{i, n + f(i)}`` for ``i`` in ``[n]``,
  where ``f(i)`` is the least ``l >= 1`` with ``i <= n (1/2 + ... + 1/2^l) + L + 1``;
* majority (``007``): on ``[n + 1]``, each subset ``S`` of ``[n]`` with ``n + 1`` added exactly
  when ``|S| > n/2``;
* addressing (``008``): on ``[n + k]``, ``k = floor(log2 n)``, for each subset ``S`` of the ``k``
  address points, ``S`` plus the point ``1 + (S read as a binary number)``;
* blockwise addressing (``009``, Ben-David, Kushilevitz and Mansour 1997, page 54): on ``z``,
  ``x_1..x_N``, ``y_1..y_N`` (``N = 2^d``), ``f_i`` is 0 on ``z``, 1 on ``x_i`` alone among the
  ``x``, and on each block of ``d`` consecutive ``y`` the ``d`` bits of ``i - 1``; ``g_i`` the
  same with ``z = 1`` and the roles of ``x`` and ``y`` exchanged (``d`` a power of two, so that
  ``d`` divides ``N``).

:data:`STATEMENTS` lists, for each value file, the class, the parameter, the value as a
function of ``n``, and the sizes checked ("log n" read as ``floor(log2 n)``).  A statement is
checked from the size where the class is what the text means (``n >= 2`` when ``n = 1`` makes
the class a single set or the full cube).

**Findings** (each kept below as a test of the correct value, with the brute force of
``tests/parameter_oracles.py`` where it is small enough):

* tagged singletons, star number (``values/016``): stated ``n - 1``; it is at least ``n`` at every
  size (the empty set is a center whose leaves ``{i, n + f(i)}`` differ from it on ``[n]`` only at
  ``i``), and is ``n + 1`` or more at every size checked;
* tagged singletons, recursive teaching dimension (``values/007``): stated 2; it is 1 at every
  size (each ``{i, n + f(i)}`` is the only concept containing ``i``; then each tag is the only
  concept left containing its point; then the empty set is alone);
* tagged singletons, maximum degree (``values/036``): stated ``ceil(n/2)``; the tag ``{n + 1}`` is
  adjacent to the empty set and to every ``{i, n + 1}``, more than half of ``[n]`` by the class's
  own description: ``1 + #{i : f(i) = 1}``, which is more than ``ceil(n/2)`` at every size;
* addressing, threshold dimension (``values/127``, ``ceil(log n)``) and size (``values/068``,
  ``n``): as written the class has ``2^floor(log2 n)`` concepts, so both hold only when ``n`` is a
  power of two; otherwise the threshold dimension is ``floor(log2 n)``.
"""

from __future__ import annotations

import itertools
import math

import pytest

from mistakebound import HypothesisClass
from mistakebound.game import classes
from mistakebound.theory.littlestone import littlestone_dimension
from mistakebound.theory.one_inclusion import one_inclusion_degree
from mistakebound.theory.star_number import star_number
from mistakebound.theory.teaching import minimum_teaching_set_size, recursive_teaching_dimension, teaching_dimension
from mistakebound.theory.threshold_dimension import threshold_dimension
from mistakebound.theory.vc import vc_dimension
from tests import parameter_oracles as oracle


# ------------------------------------------------------------------ the classes, from their definitions
def trivial_concepts(n: int) -> HypothesisClass:
    return HypothesisClass.from_matrix([[0] * n, [1] * n], range(1, n + 1), name=f"trivial_concepts({n})")


def half_intervals(n: int) -> HypothesisClass:
    rows = [[int(x <= i) for x in range(1, n + 1)] for i in range(1, n + 1)]
    return HypothesisClass.from_matrix(rows, range(1, n + 1), name=f"half_intervals({n})")


def tag(n: int, i: int) -> int:
    """f(i): the least l >= 1 with i <= n (1/2 + ... + 1/2^l) + ceil(log2 n) + 1."""
    ell = 1
    while i > n * (1 - 2.0 ** -ell) + math.ceil(math.log2(n)) + 1:
        ell += 1
    return ell


def tagged_singletons(n: int) -> HypothesisClass:
    L = math.ceil(math.log2(n))
    rows = [[0] * (n + L)]
    for ell in range(1, L + 1):
        rows.append([int(x == n + ell) for x in range(1, n + L + 1)])
    for i in range(1, n + 1):
        rows.append([int(x in (i, n + tag(n, i))) for x in range(1, n + L + 1)])
    return HypothesisClass.from_matrix(rows, range(1, n + L + 1), name=f"tagged_singletons({n})")


def majority(n: int) -> HypothesisClass:
    rows = [list(bits) + [int(sum(bits) > n / 2)] for bits in itertools.product((0, 1), repeat=n)]
    return HypothesisClass.from_matrix(rows, range(1, n + 2), name=f"majority({n})")


def addressing(n: int) -> HypothesisClass:
    k = int(math.floor(math.log2(n)))
    rows = []
    for bits in itertools.product((0, 1), repeat=k):  # the address points n+1..n+k, n+1 the top bit
        address = int("".join(map(str, bits)), 2) if k else 0
        rows.append([int(x == address + 1) for x in range(1, n + 1)] + list(bits))
    return HypothesisClass.from_matrix(rows, range(1, n + k + 1), name=f"addressing({n})")


def blockwise_addressing(d: int) -> HypothesisClass:
    N = 2**d

    def code(i: int) -> list[int]:  # the d bits of i - 1, repeated on each of the N / d blocks
        return [(i - 1) >> (d - 1 - b) & 1 for b in range(d)] * (N // d)

    rows = []
    for i in range(1, N + 1):
        rows.append([0] + [int(i == j) for j in range(1, N + 1)] + code(i))  # f_i on z, x_1..x_N, y_1..y_N
        rows.append([1] + code(i) + [int(i == j) for j in range(1, N + 1)])  # g_i
    domain = ["z"] + [f"x{j}" for j in range(1, N + 1)] + [f"y{j}" for j in range(1, N + 1)]
    return HypothesisClass.from_matrix(rows, domain, name=f"blockwise_addressing({d})")


CLASSES = {
    "trivial_concepts": trivial_concepts,
    "singletons": classes.singletons,
    "full_cube": classes.power_set,
    "singletons_plus_empty_set": lambda n: classes.singletons(n, include_empty=True),
    "halfintervals": half_intervals,
    "tagged_singletons": tagged_singletons,
    "majority": majority,
    "addressing": addressing,
    "blockwise_addressing": blockwise_addressing,
}

PARAMETERS = {
    "size": lambda H: int(H.distinct_rows()[0].size),
    "threshold_dimension": threshold_dimension,
    "star_number": star_number,
    "teaching_dimension": teaching_dimension,
    "minimum_teaching_set_size": minimum_teaching_set_size,
    "recursive_teaching_dimension": recursive_teaching_dimension,
    "maximum_degree": one_inclusion_degree,
    "littlestone_dimension": littlestone_dimension,
    "vc_dimension": vc_dimension,
}


def log(n: int) -> int:
    return int(math.floor(math.log2(n)))


SMALL = (2, 3, 4, 5, 8)
POWERS = (2, 4, 8, 16, 32)
#: (file in data/values/, class, parameter, stated value as a function of n, sizes checked).
STATEMENTS = [
    # threshold dimension
    ("096", "full_cube", "threshold_dimension", lambda n: n, (1, 2, 3, 5, 7)),
    ("098", "singletons_plus_empty_set", "threshold_dimension", lambda n: 1, (1, 2, 3, 5, 8)),
    ("099", "tagged_singletons", "threshold_dimension", lambda n: 2, (2, 3, 5, 8, 16, 64)),
    ("067", "singletons", "threshold_dimension", lambda n: 1, SMALL),
    ("076", "trivial_concepts", "threshold_dimension", lambda n: 1, (1, 2, 3, 8)),
    ("127", "addressing", "threshold_dimension", lambda n: math.ceil(math.log2(n)), POWERS),
    ("128", "majority", "threshold_dimension", lambda n: n, (1, 2, 3, 4, 6)),
    ("129", "halfintervals", "threshold_dimension", lambda n: n - 1, (1, 2, 3, 8, 40)),
    # star number
    ("013", "majority", "star_number", lambda n: n, (1, 2, 3, 4, 6)),
    ("014", "addressing", "star_number", lambda n: n - 1, POWERS),
    ("017", "full_cube", "star_number", lambda n: n, (1, 2, 3, 5, 7)),
    ("018", "singletons_plus_empty_set", "star_number", lambda n: n, (1, 2, 3, 5, 8)),
    ("019", "singletons", "star_number", lambda n: n - 1, (1,) + SMALL),
    ("020", "trivial_concepts", "star_number", lambda n: 1, (1, 2, 3, 8)),
    ("030", "halfintervals", "star_number", lambda n: 2, (3, 4, 8, 40)),
    # teaching
    ("015", "trivial_concepts", "teaching_dimension", lambda n: 1, (1, 2, 3, 8)),
    ("053", "singletons", "teaching_dimension", lambda n: 1, SMALL),
    ("032", "trivial_concepts", "minimum_teaching_set_size", lambda n: 1, (1, 2, 3, 8)),
    ("051", "singletons", "minimum_teaching_set_size", lambda n: 1, SMALL),
    ("006", "addressing", "recursive_teaching_dimension", lambda n: 1, POWERS),
    ("008", "halfintervals", "recursive_teaching_dimension", lambda n: 1, (2, 3, 8, 40)),
    ("009", "full_cube", "recursive_teaching_dimension", lambda n: n, (1, 2, 3, 5, 7)),
    ("010", "singletons_plus_empty_set", "recursive_teaching_dimension", lambda n: 1, (1, 2, 3, 5, 8)),
    ("011", "singletons", "recursive_teaching_dimension", lambda n: 1, SMALL),
    ("012", "trivial_concepts", "recursive_teaching_dimension", lambda n: 1, (1, 2, 3, 8)),
    ("009 (class)", "blockwise_addressing", "recursive_teaching_dimension", lambda d: 2, (1, 2, 4, 8)),
    # the one-inclusion graph
    ("037", "addressing", "maximum_degree", lambda n: 0, POWERS),
    ("038", "majority", "maximum_degree", lambda n: n, (2, 3, 4, 6, 8)),
    ("039", "halfintervals", "maximum_degree", lambda n: 2, (3, 4, 8, 40)),
    ("040", "singletons_plus_empty_set", "maximum_degree", lambda n: n, (1, 2, 3, 5, 8)),
    ("041", "full_cube", "maximum_degree", lambda n: n, (1, 2, 3, 5, 7)),
    ("042", "singletons", "maximum_degree", lambda n: 0, (1,) + SMALL),
    ("043", "trivial_concepts", "maximum_degree", lambda n: 0, (2, 3, 8)),
    # Littlestone and VC dimensions
    ("101", "addressing", "littlestone_dimension", log, POWERS),
    ("102", "tagged_singletons", "littlestone_dimension", lambda n: 2, (3, 4, 8, 16, 64)),
    ("103", "halfintervals", "littlestone_dimension", log, (1, 2, 3, 8, 40)),
    ("104", "full_cube", "littlestone_dimension", lambda n: n, (1, 2, 3, 5, 7)),
    ("105", "singletons_plus_empty_set", "littlestone_dimension", lambda n: 1, (1, 2, 3, 5, 8)),
    ("106", "singletons", "littlestone_dimension", lambda n: 1, SMALL),
    ("107", "trivial_concepts", "littlestone_dimension", lambda n: 1, (1, 2, 3, 8)),
    ("081", "tagged_singletons", "vc_dimension", lambda n: 1, (2, 3, 8, 64)),
    ("091", "singletons_plus_empty_set", "vc_dimension", lambda n: 1, (1, 2, 3, 5, 8)),
    ("092", "full_cube", "vc_dimension", lambda n: n, (1, 2, 3, 5, 7)),
    ("093", "singletons", "vc_dimension", lambda n: 1, SMALL),
    ("094", "trivial_concepts", "vc_dimension", lambda n: 1, (1, 2, 3, 8)),
    ("100", "addressing", "vc_dimension", log, POWERS),
    ("009 (class)", "blockwise_addressing", "vc_dimension", lambda d: d, (2, 4, 8)),
    # the size, which checks the rebuild
    ("068", "addressing", "size", lambda n: n, POWERS),
    ("069", "majority", "size", lambda n: 2**n, (1, 2, 5)),
    ("070", "tagged_singletons", "size", lambda n: n + math.ceil(math.log2(n)) + 1, (2, 3, 5, 64)),
    ("071", "halfintervals", "size", lambda n: n, (1, 5)),
    ("072", "singletons_plus_empty_set", "size", lambda n: n + 1, (1, 5)),
    ("073", "full_cube", "size", lambda n: 2**n, (1, 5)),
    ("074", "singletons", "size", lambda n: n, (1, 5)),
    ("080", "trivial_concepts", "size", lambda n: 2, (1, 5)),
]


def _cases():
    for source, cls, parameter, value, sizes in STATEMENTS:
        for n in sizes:
            yield pytest.param(cls, parameter, value, n, id=f"{source}-{parameter}-{cls}-{n}")


@pytest.mark.parametrize("cls, parameter, value, n", list(_cases()))
def test_the_stated_value_holds(cls, parameter, value, n):
    H = CLASSES[cls](n)
    assert PARAMETERS[parameter](H) == value(n)


# ------------------------------------------------------------------ the definitions read as written
@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_small_classes_agree_with_the_brute_force(n):
    """The rebuilt classes small enough for the brute force: every parameter of this package against it."""
    for make in (trivial_concepts, half_intervals, tagged_singletons, majority, addressing):
        M = make(n).matrix
        H = HypothesisClass.from_matrix(M)
        assert threshold_dimension(H) == oracle.threshold_dimension(M)
        assert star_number(H) == oracle.star_number(M)
        assert teaching_dimension(H) == oracle.teaching_dimension(M)
        assert recursive_teaching_dimension(H) == oracle.recursive_teaching_dimension(M)
        assert one_inclusion_degree(H) == oracle.one_inclusion_degree(M)


def test_the_tags_are_as_described():
    """More than half of [n] get the first tag, more than a quarter the second, ..., and every tag is in
    [ceil(log2 n)] (the class's description)."""
    for n in (2, 3, 5, 8, 16, 64, 100):
        tags = [tag(n, i) for i in range(1, n + 1)]
        assert max(tags) <= math.ceil(math.log2(n))
        assert tags.count(1) > n / 2


# ------------------------------------------------------------------ findings
@pytest.mark.parametrize("n", [2, 3, 4, 5, 8, 16, 64])
def test_finding_the_star_number_of_tagged_singletons_exceeds_n_minus_1(n):
    """values/016 states n - 1.  On [n], the empty set and the n concepts {i, n + f(i)} are a star of n
    instances, so the star number is at least n; it is more at every size checked (the brute force agrees
    where it runs)."""
    H = tagged_singletons(n)
    s = star_number(H)
    assert s >= n + 1 > n - 1
    if H.n_instances <= 8:
        assert s == oracle.star_number(H.matrix)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 8, 16, 64])
def test_finding_the_recursive_teaching_dimension_of_tagged_singletons_is_1(n):
    """values/007 states 2.  Each {i, n + f(i)} is the only concept containing i (a teaching set of one
    instance), and so is a tag no i carries: the first layer; then each tag is the only concept left
    containing its point; then the empty set is alone.  Every layer has value 1 (or 0)."""
    H = tagged_singletons(n)
    assert recursive_teaching_dimension(H) == 1
    if H.n_instances <= 8:
        assert oracle.recursive_teaching_dimension(H.matrix) == 1


@pytest.mark.parametrize("n", [2, 3, 4, 5, 8, 16, 64])
def test_finding_the_maximum_degree_of_tagged_singletons_exceeds_half_n(n):
    """values/036 states ceil(n/2).  The tag {n + 1} is adjacent to the empty set and to each {i, n + 1},
    and more than half of [n] carry the first tag (the class's description, checked above)."""
    H = tagged_singletons(n)
    first = sum(tag(n, i) == 1 for i in range(1, n + 1))
    assert one_inclusion_degree(H) == 1 + first > math.ceil(n / 2)
    if H.n_instances <= 8:
        assert oracle.one_inclusion_degree(H.matrix) == 1 + first


@pytest.mark.parametrize("n", [3, 5, 6, 7, 12])
def test_finding_addressing_needs_n_a_power_of_two(n):
    """values/127 (ceil(log n)) and values/068 (size n) hold only for n a power of two: as written, the class
    has 2^floor(log2 n) concepts and threshold dimension floor(log2 n)."""
    H = addressing(n)
    assert int(H.distinct_rows()[0].size) == 2 ** log(n) != n
    assert threshold_dimension(H) == log(n) < math.ceil(math.log2(n))
    if H.n_instances <= 8:
        assert oracle.threshold_dimension(H.matrix) == log(n)


def test_finding_blockwise_addressing_of_one_bit_has_vc_dimension_2():
    """The definition's VC = d holds from d = 2: with d = 1 the four concepts shatter two instances."""
    from mistakebound.theory.textbook import textbook_vcdim

    H = blockwise_addressing(1)
    assert vc_dimension(H) == 2 == textbook_vcdim(H.matrix) and H.n_hypotheses == 4 and H.n_instances == 5
