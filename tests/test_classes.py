"""The class zoo: sizes, definitions, VC dimensions, random tables, errors and specs.

Every expectation is computed here independently of :mod:`mistakebound.game.classes`: sizes
from closed forms, tables from plain Python functions evaluated through
``HypothesisClass.from_functions``, and VC dimensions by enumerating column subsets
(``textbook_vcdim`` of :mod:`mistakebound.theory.textbook`).
"""

from __future__ import annotations

import itertools
import math
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mistakebound import HypothesisClass
from mistakebound.game import classes
from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.theory.textbook import textbook_vcdim

SETTINGS = settings(max_examples=40, deadline=None)


def cube(n):
    return list(itertools.product((0, 1), repeat=n))


def assert_same_class(H: HypothesisClass, expected: HypothesisClass) -> None:
    assert H.domain == expected.domain
    assert H.matrix.shape == expected.matrix.shape
    assert H.matrix.tolist() == expected.matrix.tolist()


# ------------------------------------------------------------------ sizes
SIZES = [
    (classes.thresholds, (9,), 10, 9),
    (classes.intervals, (1,), 2, 1),
    (classes.intervals, (9,), sum(range(1, 10)) + 1, 9),
    (classes.singletons, (1,), 1, 1),
    (classes.singletons, (7,), 7, 7),
    (classes.singletons, (7, True), 8, 7),
    (classes.monotone_disjunctions, (5,), 32, 32),
    (classes.disjunctions, (4,), 81, 16),
    (classes.monotone_conjunctions, (5,), 32, 32),
    (classes.projections, (6,), 6, 64),
    (classes.parities, (5,), 32, 32),
    (classes.power_set, (6,), 64, 6),
    (classes.k_sparse, (6, 0), 1, 6),
    (classes.k_sparse, (6, 2), 1 + 6 + 15, 6),
    (classes.k_sparse, (6, 6), 64, 6),
    (classes.random, (11, 5, 0.4, 3), 11, 5),
]


@pytest.mark.parametrize(("f", "args", "n_h", "n_x"), SIZES, ids=lambda v: getattr(v, "__name__", None))
def test_sizes_names_and_class_name(f, args, n_h, n_x):
    H = f(*args)
    assert (H.n_hypotheses, H.n_instances) == (n_h, n_x)
    assert len(H.names) == n_h and all(isinstance(s, str) and s for s in H.names)
    if f is not classes.random:
        assert len(set(H.names)) == n_h
    assert H.name.startswith(f.__name__ + "(") and H.name.endswith(")")


@SETTINGS
@given(st.integers(1, 60))
def test_closed_form_sizes_on_the_line(N):
    assert classes.thresholds(N).matrix.shape == (N + 1, N)
    assert classes.intervals(N).matrix.shape == (N * (N + 1) // 2 + 1, N)
    assert classes.singletons(N).matrix.shape == (N, N)
    assert classes.singletons(N, include_empty=True).matrix.shape == (N + 1, N)


@SETTINGS
@given(st.integers(1, 12), st.data())
def test_k_sparse_size_is_a_sum_of_binomials(d, data):
    k = data.draw(st.integers(0, d))
    assert classes.k_sparse(d, k).n_hypotheses == sum(math.comb(d, i) for i in range(k + 1))


@pytest.mark.parametrize("n", range(1, 9))
def test_cube_family_sizes(n):
    for f, rows in [
        (classes.monotone_disjunctions, 2**n),
        (classes.monotone_conjunctions, 2**n),
        (classes.parities, 2**n),
        (classes.projections, n),
        (classes.power_set, 2**n),
    ]:
        H = f(n)
        assert H.n_hypotheses == rows
        assert H.n_instances == (n if f is classes.power_set else 2**n)
    if n <= 6:
        assert classes.disjunctions(n).matrix.shape == (3**n, 2**n)


# ------------------------------------------------------------------ definitions, entry by entry
@SETTINGS
@given(st.integers(1, 25))
def test_thresholds_definition(N):
    expected = HypothesisClass.from_functions(
        range(1, N + 1), [lambda x, a=a: x < a for a in range(1, N + 2)]
    )
    H = classes.thresholds(N)
    assert_same_class(H, expected)
    assert H.names == tuple(f"x<{a}" for a in range(1, N + 2))
    assert H.name == f"thresholds({N})"


@SETTINGS
@given(st.integers(1, 15))
def test_intervals_definition(N):
    ends = [(a, b) for a in range(1, N + 1) for b in range(a, N + 1)]
    expected = HypothesisClass.from_functions(
        range(1, N + 1), [lambda x, a=a, b=b: a <= x <= b for a, b in ends] + [lambda x: 0]
    )
    H = classes.intervals(N)
    assert_same_class(H, expected)
    assert H.names == tuple(f"[{a},{b}]" for a, b in ends) + ("empty",)


@SETTINGS
@given(st.integers(1, 25), st.booleans())
def test_singletons_definition(d, include_empty):
    funcs = [lambda x, j=j: x == j for j in range(1, d + 1)] + [lambda x: 0] * include_empty
    H = classes.singletons(d, include_empty=include_empty)
    assert_same_class(H, HypothesisClass.from_functions(range(1, d + 1), funcs))
    assert H.names[-1] == ("empty" if include_empty else f"x={d}")
    assert H.name == (f"singletons({d},empty)" if include_empty else f"singletons({d})")


def _subsets_in_row_order(n):
    """The subsets S of {0..n-1} (0-based variables), row r having indicator cube(n)[r]."""
    return [[i for i in range(n) if v[i]] for v in cube(n)]


@pytest.mark.parametrize("n", range(1, 6))
def test_monotone_disjunctions_definition(n):
    funcs = [lambda x, S=S: any(x[i] for i in S) for S in _subsets_in_row_order(n)]
    H = classes.monotone_disjunctions(n)
    assert_same_class(H, HypothesisClass.from_functions(cube(n), funcs))
    assert H.names[0] == "false" and H.names[-1] == " v ".join(f"x{i}" for i in range(1, n + 1))


@pytest.mark.parametrize("n", range(1, 6))
def test_monotone_conjunctions_definition(n):
    funcs = [lambda x, S=S: all(x[i] for i in S) for S in _subsets_in_row_order(n)]
    H = classes.monotone_conjunctions(n)
    assert_same_class(H, HypothesisClass.from_functions(cube(n), funcs))
    assert H.names[0] == "true"


@pytest.mark.parametrize("n", range(1, 6))
def test_parities_definition(n):
    funcs = [lambda x, S=S: sum(x[i] for i in S) % 2 for S in _subsets_in_row_order(n)]
    H = classes.parities(n)
    assert_same_class(H, HypothesisClass.from_functions(cube(n), funcs))
    assert H.names[0] == "false"


@pytest.mark.parametrize("n", range(1, 5))
def test_disjunctions_definition_and_no_duplicate_rows(n):
    # state 0: variable absent, 1: x_i, 2: not x_i
    def clause(x, states):
        return any((s == 1 and x[i] == 1) or (s == 2 and x[i] == 0) for i, s in enumerate(states))

    states = list(itertools.product((0, 1, 2), repeat=n))
    H = classes.disjunctions(n)
    assert_same_class(H, HypothesisClass.from_functions(cube(n), [lambda x, s=s: clause(x, s) for s in states]))
    assert len({tuple(r) for r in H.matrix.tolist()}) == 3**n  # no duplicates: each clause is its own function
    assert not H.matrix.all(axis=1).any()  # no tautology (both x_i and ~x_i) is included
    assert H.names[0] == "false" and "~x1" in H.names


@pytest.mark.parametrize("n", range(1, 8))
def test_projections_definition(n):
    H = classes.projections(n)
    expected = HypothesisClass.from_functions(cube(n), [lambda x, i=i: x[i] for i in range(n)])
    assert_same_class(H, expected)
    assert H.names == tuple(f"x{i}" for i in range(1, n + 1))


@pytest.mark.parametrize("d", range(1, 7))
def test_power_set_definition(d):
    labelings = cube(d)
    H = classes.power_set(d)
    assert_same_class(H, HypothesisClass.from_functions(range(d), [lambda x, y=y: y[x] for y in labelings]))
    assert H.names[0] == "{}" and H.names[-1] == "{" + ",".join(map(str, range(d))) + "}"


@pytest.mark.parametrize(("d", "k"), [(d, k) for d in range(1, 7) for k in range(d + 1)])
def test_k_sparse_definition(d, k):
    supports = [c for i in range(k + 1) for c in itertools.combinations(range(d), i)]
    H = classes.k_sparse(d, k)
    assert_same_class(H, HypothesisClass.from_functions(range(d), [lambda x, c=c: x in c for c in supports]))
    assert H.names == tuple("{" + ",".join(map(str, c)) + "}" for c in supports)
    # as a set of rows: exactly the labelings with at most k ones
    assert {tuple(r) for r in H.matrix.tolist()} == {y for y in cube(d) if sum(y) <= k}


def test_k_sparse_with_k_equal_d_is_the_power_set():
    assert {tuple(r) for r in classes.k_sparse(5, 5).matrix.tolist()} == {
        tuple(r) for r in classes.power_set(5).matrix.tolist()
    }


def test_cube_domains_are_tuples_in_product_order():
    for f in (classes.monotone_disjunctions, classes.disjunctions, classes.parities, classes.projections):
        assert f(3).domain == tuple(cube(3))


# ------------------------------------------------------------------ VC dimension, brute force
VC_CASES = (
    [(classes.thresholds(N), 1) for N in (1, 2, 5, 9)]
    + [(classes.intervals(1), 1)]
    + [(classes.intervals(N), 2) for N in (2, 3, 6, 9)]
    + [(classes.singletons(1), 0), (classes.singletons(1, True), 1)]
    + [(classes.singletons(d, e), 1) for d in (2, 5) for e in (False, True)]
    + [(f(n), n) for f in (classes.monotone_disjunctions, classes.monotone_conjunctions,
                           classes.parities, classes.power_set, classes.disjunctions) for n in (1, 2, 3)]
    + [(classes.projections(n), math.floor(math.log2(n))) for n in range(1, 7)]
    + [(classes.k_sparse(d, k), k) for d in (1, 3, 5) for k in range(d + 1)]
)


@pytest.mark.parametrize(("H", "vc"), VC_CASES, ids=lambda v: v.name if isinstance(v, HypothesisClass) else str(v))
def test_vc_dimension_closed_forms(H, vc):
    assert textbook_vcdim(H) == vc


def test_brute_vc_itself():
    assert textbook_vcdim(HypothesisClass.from_matrix([[0, 0], [0, 1], [1, 0], [1, 1]])) == 2
    assert textbook_vcdim(HypothesisClass.from_matrix([[0, 1], [1, 0]])) == 1
    assert textbook_vcdim(HypothesisClass.from_matrix([[1, 1, 1]])) == 0


# ------------------------------------------------------------------ random
def test_random_is_deterministic_in_its_seed():
    a = classes.random(30, 20, 0.5, 7)
    assert a == classes.random(30, 20, 0.5, 7)
    assert a.matrix.tolist() != classes.random(30, 20, 0.5, 8).matrix.tolist()
    assert a.name == "random(30,20,0.5,7)"
    assert a.domain == tuple(range(20)) and a.names[:2] == ("h0", "h1")


def test_random_ignores_global_random_state():
    np.random.seed(0)
    first = classes.random(10, 10, 0.3, 1)
    np.random.seed(12345)
    assert first == classes.random(10, 10, 0.3, 1)


@pytest.mark.parametrize("density", [0, 0.0, 1, 1.0])
def test_random_density_extremes(density):
    H = classes.random(17, 9, density, 3)
    assert (H.matrix == int(density)).all()


def test_random_density_is_respected_on_average():
    H = classes.random(400, 400, 0.3, 11)
    assert abs(H.matrix.mean() - 0.3) < 0.01


# ------------------------------------------------------------------ errors
BAD_COUNTS = [0, -1, 2.5, True, "3", None]
ONE_COUNT = [
    (classes.thresholds, "N"),
    (classes.intervals, "N"),
    (classes.singletons, "d"),
    (classes.monotone_disjunctions, "n"),
    (classes.disjunctions, "n"),
    (classes.monotone_conjunctions, "n"),
    (classes.projections, "n"),
    (classes.parities, "n"),
    (classes.power_set, "d"),
]


@pytest.mark.parametrize("bad", BAD_COUNTS, ids=repr)
@pytest.mark.parametrize(("f", "param"), ONE_COUNT, ids=lambda v: getattr(v, "__name__", v))
def test_bad_size_parameter(f, param, bad):
    with pytest.raises(InvalidArgumentError, match=f"^{param}: expected an integer >= 1, got ") as info:
        f(bad)
    assert repr(bad) in str(info.value)


def test_numpy_integers_are_accepted():
    assert classes.thresholds(np.int64(4)) == classes.thresholds(4)
    assert classes.k_sparse(np.int32(4), np.int8(2)) == classes.k_sparse(4, 2)


@pytest.mark.parametrize("bad", BAD_COUNTS, ids=repr)
def test_k_sparse_bad_d(bad):
    with pytest.raises(InvalidArgumentError, match="^d: "):
        classes.k_sparse(bad, 0)


@pytest.mark.parametrize("k", [-1, 5, 1.0, True, "2", None], ids=repr)
def test_k_sparse_bad_k(k):
    with pytest.raises(InvalidArgumentError, match=r"^k: expected an integer from 0 to 4 \(= d\), got ") as info:
        classes.k_sparse(4, k)
    assert repr(k) in str(info.value)


@pytest.mark.parametrize("flag", [1, 0, "yes", None], ids=repr)
def test_singletons_bad_include_empty(flag):
    with pytest.raises(InvalidArgumentError, match="^include_empty: expected a bool"):
        classes.singletons(3, flag)


@pytest.mark.parametrize(
    ("args", "param"),
    [
        ((0, 3, 0.5, 1), "n_hypotheses"),
        ((True, 3, 0.5, 1), "n_hypotheses"),
        ((3, 0, 0.5, 1), "n_instances"),
        ((3, 2.0, 0.5, 1), "n_instances"),
        ((3, 3, -0.1, 1), "density"),
        ((3, 3, 1.5, 1), "density"),
        ((3, 3, float("nan"), 1), "density"),
        ((3, 3, True, 1), "density"),
        ((3, 3, "0.5", 1), "density"),
        ((3, 3, None, 1), "density"),
        ((3, 3, 0.5, -1), "seed"),
        ((3, 3, 0.5, 1.5), "seed"),
        ((3, 3, 0.5, True), "seed"),
        ((3, 3, 0.5, None), "seed"),
    ],
)
def test_random_bad_arguments(args, param):
    with pytest.raises(InvalidArgumentError, match=f"^{param}: expected "):
        classes.random(*args)


def test_random_requires_a_seed():
    with pytest.raises(TypeError):
        classes.random(3, 3, 0.5)


def test_power_set_17_is_built_when_the_memory_takes_it():
    """No cap below the memory check: power_set(17), 2^17 rows as from_matrix takes them (it was refused at d > 16)."""
    H = classes.power_set(17)
    assert H.matrix.shape == (2**17, 17) and H.names[-1] == "{" + ",".join(map(str, range(17))) + "}"
    assert H.matrix[0b10000000000000001].tolist() == [1] + [0] * 15 + [1]  # row r is r in binary, instance 0 on top
    assert classes.from_spec("power_set:17").matrix.shape == (2**17, 17)


@pytest.mark.parametrize("call, param", [(lambda: classes.power_set(17), "d"), (lambda: classes.parities(9), "n"),
                                         (lambda: classes.thresholds(3000), "N"),
                                         (lambda: classes.random(5000, 1000, 0.5, 0), "n_hypotheses")])
def test_a_table_is_refused_by_the_memory_check_alone(monkeypatch, call, param):
    from mistakebound.foundations.errors import InsufficientMemoryError
    from mistakebound.foundations.memory import MEMORY_LIMIT_VARIABLE, available_memory

    monkeypatch.setenv(MEMORY_LIMIT_VARIABLE, "1G")
    if available_memory() < 2**20:  # pragma: no cover - this process alone holds more than a gigabyte
        pytest.skip("the process holds more than the budget the test gives it")
    assert call().n_hypotheses > 1  # fits in a gigabyte
    monkeypatch.setenv(MEMORY_LIMIT_VARIABLE, "1K")  # less than this process already holds
    with pytest.raises(InsufficientMemoryError, match=rf"^{param}: .* table: .* entries .* needs about .* "
                                                      rf"\(the {MEMORY_LIMIT_VARIABLE} budget\); too large for "
                                                      rf"this machine: give a smaller {param}$"):
        call()


def test_a_spec_is_refused_by_what_its_distinct_rows_cost_not_only_its_table(monkeypatch):
    """random:100000,64: a 6.4 MB table and names, 35.6 MB as the zoo once counted them, but up to 100,000
    distinct rows whose keys and groups the class builds (160 bytes each) and 8 bytes of bitsets a row."""
    from mistakebound.foundations import memory
    from mistakebound.foundations.errors import InsufficientMemoryError

    limits = {"system": 45_000_000, "cgroup": None, "address space": None, "environment": None}
    monkeypatch.setattr(memory, "memory_limits", lambda: dict(limits))
    with pytest.raises(InsufficientMemoryError, match=r"^n_hypotheses: random\(100000,64,0.5,0\), a 100,000 x 64 "
                                                      r"table: 6,400,000 entries .* per row and column, needs about") as info:
        classes.from_spec("random:100000,64,0.5,0")
    assert info.value.needed == (3 * 6_400_000 + 64 * 12_500 + 2 * 100_000 * 8 + 100 * 100_000 + 160 * 100_000
                                 + 200 * 64
                                 + 9 * (2**20 // 64) * 64)  # a block of rows' float64 draws and their comparison
    limits["system"] = 60_000_000
    assert classes.from_spec("random:100000,64,0.5,0").matrix.shape == (100_000, 64)


@pytest.mark.parametrize(
    "call",
    [
        lambda: classes.monotone_disjunctions(16),  # 2^32 entries
        lambda: classes.disjunctions(12),  # 3^12 x 2^12
        lambda: classes.thresholds(10**6),
        lambda: classes.intervals(5000),
        lambda: classes.singletons(10**5),
        lambda: classes.k_sparse(100, 50),
        lambda: classes.random(10**5, 10**5, 0.5, 0),
    ],
)
def test_oversized_tables_are_refused_before_allocation(call, monkeypatch):
    from mistakebound.foundations.errors import InsufficientMemoryError

    monkeypatch.setenv("MISTAKEBOUND_MEMORY_LIMIT", "1G")
    with pytest.raises((InvalidArgumentError, InsufficientMemoryError), match="too large") as info:
        call()
    assert "entries" in str(info.value) and "GiB" in str(info.value)


# ------------------------------------------------------------------ registry and specs
SPEC_ARGS = {
    "thresholds": [(1,), (64,)],
    "intervals": [(1,), (7,)],
    "singletons": [(1,), (5,), (5, True), (5, False)],
    "monotone_disjunctions": [(1,), (4,)],
    "disjunctions": [(1,), (3,)],
    "monotone_conjunctions": [(4,)],
    "projections": [(1,), (5,)],
    "parities": [(4,)],
    "power_set": [(4,)],
    "k_sparse": [(8, 2), (3, 0), (3, 3)],
    "random": [(100, 10, 0.3, 7), (4, 4, 1, 0), (4, 4, 0.0, 2)],
    "all_functions": [(2, 3), (1, 12)],
    "one_vs_rest": [(3, 4)],
    "monotone_functions": [(3, 3)],
}


def test_zoo_holds_every_public_family():
    public = {name for name in classes.__all__ if name not in ("ZOO", "from_spec")}
    assert set(classes.ZOO) == public == set(SPEC_ARGS)
    assert all(classes.ZOO[name] is getattr(classes, name) for name in public)


@pytest.mark.parametrize(("name", "args"), [(n, a) for n, cases in SPEC_ARGS.items() for a in cases])
def test_from_spec_round_trips(name, args):
    H = classes.ZOO[name](*args)
    text = f"{name}:" + ",".join(str(a).lower() for a in args)
    assert classes.from_spec(text) == H
    assert classes.from_spec(f"  {name} : " + ", ".join(map(str, args)) + " ") == H
    assert classes.from_spec(H.name) == H
    assert classes.from_spec(H.name).name == H.name


def test_from_spec_boolean_words():
    with_empty = classes.singletons(5, include_empty=True)
    assert classes.from_spec("singletons:5,empty") == with_empty
    assert classes.from_spec("singletons:5,TRUE") == with_empty
    assert classes.from_spec("singletons:5,no") == classes.singletons(5)


def test_from_spec_unknown_name_suggests_and_lists():
    with pytest.raises(InvalidArgumentError, match="'treshold:4'") as info:
        classes.from_spec("treshold:4")
    message = str(info.value)
    assert "did you mean 'thresholds'" in message
    assert all(name in message for name in classes.ZOO)
    with pytest.raises(InvalidArgumentError) as info:
        classes.from_spec("zzz")
    assert "did you mean" not in str(info.value) and "known classes: thresholds" in str(info.value)


@pytest.mark.parametrize(
    ("spec", "fragment"),
    [
        ("thresholds", "thresholds:N"),
        ("thresholds:", "thresholds:N"),
        ("thresholds:3,4", "got 2 argument"),
        ("k_sparse:8", "k_sparse:d,k"),
        ("singletons:1,2,3", "singletons:d[,include_empty]"),
        ("random:1,2,0.5", "random:n_hypotheses,n_instances,density,seed"),
    ],
)
def test_from_spec_wrong_argument_count(spec, fragment):
    with pytest.raises(InvalidArgumentError, match="wrong|takes") as info:
        classes.from_spec(spec)
    assert fragment in str(info.value) and repr(spec) in str(info.value)


@pytest.mark.parametrize(
    ("spec", "param"),
    [
        ("thresholds:abc", "N"),
        ("thresholds:2.5", "N"),
        ("thresholds:0", "N"),
        ("k_sparse:3,5", "k"),
        ("random:5,5,2,1", "density"),
        ("random:5,5,0.5,x", "seed"),
        ("singletons:3,maybe", "include_empty"),
        ("parities:40", "n"),
    ],
)
def test_from_spec_bad_argument_values(spec, param):
    with pytest.raises(InvalidArgumentError, match=f"^{param}: "):
        classes.from_spec(spec)


@pytest.mark.parametrize("spec", [None, 3, ["thresholds", 3]], ids=repr)
def test_from_spec_needs_a_string(spec):
    with pytest.raises(InvalidArgumentError, match="^spec: expected a string"):
        classes.from_spec(spec)


# ------------------------------------------------------------------ speed (a smoke test, not a benchmark)
@pytest.mark.parametrize(
    "call", [lambda: classes.thresholds(4095), lambda: classes.singletons(8192), lambda: classes.monotone_disjunctions(12)]
)
def test_large_instances_are_vectorised(call):
    # A pure-Python double loop over these tables takes seconds; numpy takes milliseconds.
    best = math.inf
    for _ in range(3):
        start = time.perf_counter()
        call()
        best = min(best, time.perf_counter() - start)
    assert best < 1.0


# ------------------------------------------------------------------ one boolean syntax
@pytest.mark.parametrize("word, value", [("true", True), ("yes", True), ("1", True), ("TRUE", True), ("Yes", True),
                                         ("empty", True), ("false", False), ("no", False), ("0", False),
                                         ("False", False)])
def test_every_documented_boolean_spelling_gives_the_same_class_everywhere(word, value):
    from mistakebound.game import registry
    from mistakebound.game.specs import BOOLEAN_SPELLINGS

    assert all(pair in BOOLEAN_SPELLINGS for pair in ("true/false", "yes/no", "1/0", "empty is true"))
    expected = classes.singletons(6, value)
    for spec in (f"singletons:6,{word}", f"singletons:6,include_empty={word}", f"singletons(6, {word})"):
        for H in (classes.from_spec(spec), registry.load_setting(spec)):
            assert H.name == expected.name and H.matrix.tolist() == expected.matrix.tolist()


@pytest.mark.parametrize("word", ["2", "-1", "0.5", "maybe", "nope"])
def test_a_boolean_parameter_refuses_other_values_naming_the_spellings(word):
    with pytest.raises(InvalidArgumentError, match=r"include_empty: expected a boolean, true/false, yes/no or 1/0"):
        classes.from_spec(f"singletons:6,{word}")


# ------------------------------------------------------------------ classes of k labels
@pytest.mark.parametrize("n, k", [(1, 2), (1, 3), (2, 3), (2, 4), (3, 3), (1, 6)])
def test_all_functions_have_the_published_multiclass_and_bandit_dimensions(n, k):
    """Ldim = n (Daniely, Sabato, Ben-David and Shalev-Shwartz 2011), bandit Ldim = n (k - 1) (Daniely and
    Helbertal 2013): the closed forms, and the brute force of tests/game_oracle.py agreeing."""
    from mistakebound.game.rules import Rules
    from mistakebound.theory.game_values import game_value
    from tests.game_oracle import oracle

    H = classes.all_functions(n, k)
    assert H.n_hypotheses == k**n and H.labels == tuple(range(k))
    assert {tuple(r) for r in H.matrix.tolist()} == set(itertools.product(range(k), repeat=n))
    assert game_value(H, Rules(labels=k)).value == n
    assert game_value(H, Rules(labels=k, feedback="bandit")).value == n * (k - 1)
    if k**n <= 9:
        rows = [tuple(r) for r in H.matrix.tolist()]
        assert oracle(rows, k, "full", 0) == n and oracle(rows, k, "bandit", 0) == n * (k - 1)


@pytest.mark.parametrize("d, k", [(1, 3), (3, 3), (2, 5), (4, 4)])
def test_one_vs_rest_has_ldim_1_and_bandit_ldim_k_minus_1(d, k):
    from mistakebound.game.rules import Rules
    from mistakebound.theory.game_values import game_value
    from tests.game_oracle import oracle

    H = classes.one_vs_rest(d, k)
    assert H.n_hypotheses == 1 + d * (k - 1)
    assert (H.matrix != 0).sum(axis=1).tolist() == [0] + [1] * (d * (k - 1))
    rows = [tuple(r) for r in H.matrix.tolist()]
    assert game_value(H, Rules(labels=k)).value == 1 == oracle(rows, k, "full", 0)
    assert game_value(H, Rules(labels=k, feedback="bandit")).value == k - 1 == oracle(rows, k, "bandit", 0)


@pytest.mark.parametrize("N, k", [(1, 3), (3, 3), (4, 2), (5, 2), (3, 4)])
def test_monotone_functions_are_the_non_decreasing_words_and_thresholds_for_two_labels(N, k):
    from mistakebound.theory.littlestone import littlestone_dimension

    H = classes.monotone_functions(N, k)
    words = [w for w in itertools.product(range(k), repeat=N) if list(w) == sorted(w)]
    assert sorted(tuple(r) for r in H.matrix.tolist()) == sorted(words)
    assert H.n_hypotheses == math.comb(N + k - 1, k - 1)
    if k == 2:  # thresholds turned around: Ldim floor(log2(N + 1)) (textbook Example 21.4)
        assert littlestone_dimension(H) == int(math.log2(N + 1))


def test_classes_of_k_labels_refuse_bad_sizes_by_name():
    for build, args, name in [(classes.all_functions, (2, 1), "k"), (classes.all_functions, (0, 3), "n"),
                              (classes.one_vs_rest, (2, 300), "k"), (classes.monotone_functions, (-1, 3), "N")]:
        with pytest.raises(InvalidArgumentError, match=f"^{name}: "):
            build(*args)
    assert classes.from_spec("all_functions:2,3") == classes.all_functions(2, 3)
