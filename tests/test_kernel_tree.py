"""Shattered trees and Ldim certificates read off the compiled search (ldim_kernel.kernel_tree,
the C entry ldim_tree): shattered, of the textbook's depth, witnesses the first rows of their
paths, in the caller's rows and columns whatever the order; certificates the checker accepts;
the budget; the Python search without the extension."""

from __future__ import annotations


import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from mistakebound import HypothesisClass
from mistakebound.certificates.verify import check
from mistakebound.game import classes
from mistakebound.theory import ldim_kernel
from mistakebound.theory.certificate import CertificateWriter
from mistakebound.theory.ldim_certificate import kernel_section, ldim_certificate
from mistakebound.theory.ldim_search import LdimSearch
from mistakebound.theory.ldim_trees import heap_tree
from mistakebound.theory.littlestone import is_shattered, shattered_tree
from mistakebound.theory.search_protocol import Budget, SearchIncomplete
from mistakebound.theory.textbook import textbook_ldim
from tests.strategies import class_matrices
from tests.signals import raised_after

pytestmark = pytest.mark.skipif(not ldim_kernel.AVAILABLE, reason="the compiled search is not built "
                                "(test_ldim_kernel.test_the_extension_is_built fails then)")

kernel = ldim_kernel._kernel


def truth(matrix: np.ndarray) -> int:
    return textbook_ldim(matrix) if matrix.shape[1] else 0


def read(matrix: np.ndarray, *, ratio: int | None = None, memo: int = 1 << 24, max_nodes: int = -1,
         refutation: bool = True) -> tuple:
    """The raw entry: (lower, upper, status, nodes, tree, refutation)."""
    M = np.ascontiguousarray(matrix, dtype=np.uint8)
    extra = () if ratio is None else (ratio,)
    r = kernel.ldim_tree(M, M.shape[0], M.shape[1], max_nodes, -1.0, memo, True, refutation, *extra)
    return r[0], r[1], r[2], r[3], r[7], r[8]


def assert_tree_of(matrix: np.ndarray, depth: int, instances: list[int], witnesses: list[int]) -> None:
    """Shattered (the independent checker), and each leaf's witness the first row of ``matrix`` on its path."""
    H = HypothesisClass.from_matrix(matrix)
    T = heap_tree(H, depth, instances, witnesses)
    assert is_shattered(H, T)
    for i, w in enumerate(witnesses):
        leaf, rows = (1 << depth) + i, np.ones(matrix.shape[0], dtype=bool)
        path = []
        while leaf > 1:
            path.append((instances[leaf // 2], leaf & 1))
            leaf //= 2
        for x, y in path:
            rows &= matrix[:, x] == y
        assert w == int(np.flatnonzero(rows)[0])


def certificate_of(matrix: np.ndarray, depth: int, tree: tuple, refutation: tuple) -> dict:
    H = HypothesisClass.from_matrix(matrix)
    writer = CertificateWriter(H)
    kernel_section(H, writer, depth, tree[0], refutation)
    return check(writer.document())


@settings(max_examples=300, deadline=None)
@given(class_matrices(max_rows=24, max_cols=7), st.sampled_from([None, 0, -1]), st.sampled_from([0, 300, 1 << 24]))
@example(np.array([[0, 0], [0, 1], [1, 0], [1, 1]], dtype=np.uint8), None, 1 << 24)
@example(np.array([[0, 1], [0, 1]], dtype=np.uint8), None, 1 << 24)
@example(np.zeros((3, 0), dtype=np.uint8), None, 1 << 24)
def test_the_tree_and_the_refutation_against_the_textbook(matrix, ratio, memo):
    # ratio 0: no compact copies; -1: a copy wherever one can be made; memo 0 and 300: a memo
    # that holds nothing, or is emptied again and again (what the reading asks is searched again)
    lower, upper, status, _, tree, refutation = read(matrix, ratio=ratio, memo=memo)
    d = truth(matrix)
    assert (lower, upper, status) == (d, d, 0)
    assert_tree_of(matrix, d, *tree)
    assert certificate_of(matrix, d, tree, refutation) == {"ldim": (d, d)}


def assert_refutation_of(matrix: np.ndarray, refutation: tuple) -> None:
    """The raw refutation against the textbook: each fact's space found down the parts its citers name
    (one space per written fact), its value at least the space's Ldim; the shared "log2" facts cited only
    by sides of fewer than 2^(value+1) distinct rows and only below their citers' values; entries by column."""
    values, starts, counts, entries = refutation
    root = len(values) - 1
    rows = {root: np.ones(matrix.shape[0], dtype=bool)}
    for k in range(root, -1, -1):
        if starts[k] < 0:
            if k == root:
                assert len(np.unique(matrix[rows[k]], axis=0)) < 2 ** (values[k] + 1)
            continue
        V = rows[k]  # set by a citer before (children come before parents)
        assert textbook_ldim(np.unique(matrix[V], axis=0)) <= values[k]
        triples = [entries[starts[k] + 3 * i: starts[k] + 3 * i + 3] for i in range(counts[k])]
        assert [x for x, _, _ in triples] == sorted(x for x, _, _ in triples)  # by column, each once
        for x, y, f in triples:
            assert f < k and values[f] <= values[k] - 1
            side = V & (matrix[:, x] == y)
            assert side.any() and (V & ~side).any()  # x splits V
            if starts[f] < 0:  # a log2 fact: counted in place
                assert len(np.unique(matrix[side], axis=0)) < 2 ** (values[f] + 1)
            elif f in rows:
                assert (rows[f] == side).all()  # one space per written fact
            else:
                rows[f] = side


@settings(max_examples=200, deadline=None)
@given(class_matrices(max_rows=40, max_cols=8), st.sampled_from([None, 0, -1]))
@example(np.array([[0, 0], [0, 1], [1, 0], [1, 1]], dtype=np.uint8), None)
def test_the_raw_refutation_against_the_textbook(matrix, ratio):
    lower, upper, status, _, _, refutation = read(matrix, ratio=ratio)
    assert (lower, upper, status) == (truth(matrix),) * 2 + (0,)
    assert_refutation_of(matrix, refutation)
    shared = [k for k in range(len(refutation[0]) - 1) if refutation[1][k] < 0]  # log2 facts below the root
    assert len(shared) == len({refutation[0][k] for k in shared})  # one per value


def test_the_random_class_s_refutation_cites_a_log2_fact_per_value_and_checks():
    H = classes.random(400, 12, 0.3, seed=1)
    lower, _, _, _, tree, refutation = read(H.matrix)
    assert_refutation_of(H.matrix, refutation)
    values, starts = refutation[0], refutation[1]
    shared = [k for k in range(len(values) - 1) if starts[k] < 0]
    cited = [f for f in refutation[3][2::3] if starts[f] < 0]
    assert shared and len(cited) > len(shared)  # small sides share their fact
    assert certificate_of(H.matrix, lower, tree, refutation) == {"ldim": (lower, lower)}


@settings(max_examples=60, deadline=None)
@given(st.integers(65, 400), st.integers(3, 12), st.floats(0.1, 0.6), st.integers(0, 2**32 - 1),
       st.sampled_from([None, -1]))
def test_classes_past_one_word_against_the_python_search(n, m, density, seed, ratio):
    # more than 64 distinct rows: the rows renumbered and compact copies made; the Python search
    # (tested against the recursion) gives the depth, the checker judges the facts
    H = classes.random(n, m, density, seed=seed)
    matrix = np.vstack([H.matrix, H.matrix[::7]])  # repeated rows, the first occurrences earlier
    matrix = np.column_stack([matrix, 1 - matrix[:, :2], matrix[:, :1]])  # complementary and equal columns
    near = np.column_stack([1 - matrix[:, 0], matrix[:, 1]])  # and columns that are so on every space but
    near[0, 0] ^= 1  # one holding row 0, or the last row: one refutation entry per column, not per split
    near[-1, 1] ^= 1
    matrix = np.ascontiguousarray(np.column_stack([matrix, near]))
    search = LdimSearch(HypothesisClass.from_matrix(matrix))
    d = search.ldim(search.full)
    lower, upper, status, _, tree, refutation = read(matrix, ratio=ratio)
    assert (lower, upper, status) == (d, d, 0)
    assert_tree_of(matrix, d, *tree)
    assert certificate_of(matrix, d, tree, refutation) == {"ldim": (d, d)}


@settings(max_examples=100, deadline=None)
@given(class_matrices(max_rows=20, max_cols=7), st.randoms(use_true_random=False))
def test_rows_shuffled_and_columns_permuted(matrix, rnd):
    # the same class in another order: a tree of the same depth, in the new order's rows and columns
    rows, cols = list(range(matrix.shape[0])), list(range(matrix.shape[1]))
    rnd.shuffle(rows)
    rnd.shuffle(cols)
    moved = np.ascontiguousarray(matrix[rows][:, cols])
    a, b = read(matrix), read(moved)
    assert a[:3] == b[:3]
    assert_tree_of(moved, b[0], *b[4])
    assert certificate_of(moved, b[0], b[4], b[5]) == {"ldim": (b[0], b[0])}


@pytest.mark.parametrize("H, value", [
    (classes.thresholds(255), 8), (classes.intervals(32), 8), (classes.singletons(300), 1),
    (classes.parities(6), 6), (classes.power_set(9), 9), (classes.random(2000, 20, 0.3, seed=3), None),
])
def test_shattered_tree_and_certificate_of_zoo_classes(H, value):
    if value is None:
        search = LdimSearch(H)
        value = search.ldim(search.full)
    T = shattered_tree(H)
    assert T.graph["depth"] == value and is_shattered(H, T)
    writer = CertificateWriter(H)
    section = ldim_certificate(H, writer)
    assert section["claim"]["lower"][1] == section["claim"]["upper"][1] == value
    assert check(writer.document()) == {"ldim": (value, value)}


def test_shattered_tree_reads_the_compiled_search(monkeypatch):
    # the door sends a tree and a certificate to the compiled search: the Python search is not run
    def refuse(*args, **kwargs):
        raise AssertionError("the Python search ran")

    monkeypatch.setattr(LdimSearch, "tree", refuse)
    monkeypatch.setattr(LdimSearch, "bounds", refuse)
    H = classes.random(500, 16, 0.3, seed=1)
    T = shattered_tree(H)
    assert is_shattered(H, T)
    writer = CertificateWriter(H)
    ldim_certificate(H, writer)
    assert check(writer.document())["ldim"][0] == T.graph["depth"]


def test_without_the_extension_the_python_search_builds_them(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("the compiled search ran")

    monkeypatch.setattr(ldim_kernel, "AVAILABLE", False)
    monkeypatch.setattr(ldim_kernel, "_kernel", None)  # any call into the extension fails
    monkeypatch.setattr(ldim_kernel, "kernel_tree", refuse)
    H = classes.intervals(6)
    d = truth(H.matrix)
    T = shattered_tree(H)
    assert T.graph["depth"] == d and is_shattered(H, T)
    assert sorted(T.nodes(data=True)) == sorted(LdimSearch(H).tree().nodes(data=True))
    writer = CertificateWriter(H)
    ldim_certificate(H, writer)
    assert check(writer.document()) == {"ldim": (d, d)}


@settings(max_examples=100, deadline=None)
@given(class_matrices(max_rows=30, max_cols=8), st.integers(1, 40))
def test_a_budget_leaves_proven_bounds_and_no_tree(matrix, max_nodes):
    H, d = HypothesisClass.from_matrix(matrix), truth(matrix)
    try:
        T = shattered_tree(H, max_nodes=max_nodes)
    except SearchIncomplete as exc:
        b = exc.result
        assert b.lower <= d <= b.upper and b.status == "budget" and b.nodes <= max_nodes
    else:
        assert T.graph["depth"] == d and is_shattered(H, T)


def test_a_budget_the_value_fits_but_not_the_tree():
    # exactly the value's nodes: the value is exact, the reading stops at its first node
    H = classes.random(400, 14, 0.3, seed=2)
    value = ldim_kernel.kernel_bounds(H, Budget(), ldim_kernel.SMALL_MEMO_BYTES)
    with pytest.raises(SearchIncomplete) as info:
        shattered_tree(H, max_nodes=value["nodes"])
    b = info.value.result
    assert (b.lower, b.upper, b.status) == (value["lower"], value["lower"], "budget")
    assert shattered_tree(H, max_nodes=10 * value["nodes"] + 1000).graph["depth"] == value["lower"]


def test_a_certificate_out_of_budget_is_partial():
    H = classes.random(3000, 30, 0.3, seed=0)
    writer = CertificateWriter(H)
    section = ldim_certificate(H, writer, max_nodes=5)
    lower, upper = check(writer.document())["ldim"]
    assert lower < upper and section["claim"]["lower"][1] == lower


def test_a_memo_too_small_for_the_tree_is_not_a_wrong_tree():
    # a memo of 300 bytes is emptied at every other put: the reading searches again
    H = classes.random(300, 12, 0.4, seed=5)
    lower, upper, status, _, tree, refutation = read(H.matrix, memo=300)
    search = LdimSearch(H)
    d = search.ldim(search.full)
    assert (lower, upper, status) == (d, d, 0)
    assert_tree_of(H.matrix, d, *tree)
    assert certificate_of(H.matrix, d, tree, refutation) == {"ldim": (d, d)}


@pytest.mark.parametrize("depth", [0, 1, 2, 5])
def test_heap_tree_is_the_graph_networkx_builds(depth):
    # heap_tree writes networkx's dicts itself: the same graph, in the same order, as its public API gives
    import networkx as nx

    from mistakebound.theory.tree_graphs import ShatteredTree

    H = classes.power_set(max(depth, 1))
    leaves = 1 << depth
    columns = [0] + [(h.bit_length() - 1) for h in range(1, leaves)]
    witnesses = [int(np.flatnonzero((H.matrix[:, :depth] == [(i >> (depth - 1 - k)) & 1 for k in range(depth)])
                                    .all(axis=1))[0]) for i in range(leaves)]
    G = ShatteredTree(depth=depth, root=1)
    G.add_node(1)
    G.add_edges_from(((i, 2 * i) for i in range(1, leaves)), label=0)
    G.add_edges_from(((i, 2 * i + 1) for i in range(1, leaves)), label=1)
    for i in range(1, leaves):
        G.nodes[i]["instance"] = H.domain[columns[i]]
    for i, w in enumerate(witnesses):
        G.nodes[leaves + i].update(witness=w, witness_name=H.hypothesis_name(w))
    T = heap_tree(H, depth, columns, witnesses)
    assert list(T.nodes(data=True)) == list(G.nodes(data=True))
    assert list(T.edges(data=True)) == list(G.edges(data=True))
    assert [list(T.predecessors(n)) for n in T] == [list(G.predecessors(n)) for n in G]
    assert T.graph == G.graph and nx.utils.graphs_equal(T, G) and is_shattered(H, T)


@pytest.mark.parametrize("delay", [0.05, 0.25])
def test_ctrl_c_during_a_compiled_tree_raises_search_interrupted(delay):
    # the signal comes while the value or the reading runs (the Python around them takes
    # milliseconds, the search about a second): proven bounds, status "interrupted", no tree
    from mistakebound.theory.search_protocol import SearchInterrupted

    H = classes.random(20000, 60, 0.2, seed=3)
    with raised_after(KeyboardInterrupt, delay), pytest.raises(SearchInterrupted) as info:
        shattered_tree(H)
    value = ldim_kernel.kernel_bounds(H, Budget(), ldim_kernel.SMALL_MEMO_BYTES << 2)["lower"]
    assert info.value.result.lower <= value <= info.value.result.upper
    assert info.value.result.status == "interrupted"


def test_bad_matrices_are_refused_by_the_tree_entry():
    with pytest.raises(ValueError, match="n \\* m bytes"):
        kernel.ldim_tree(b"\x00\x01\x01", 2, 2, -1, -1.0, 0, True, False)


def test_the_kernel_trees_benchmark_runs_in_smoke_mode(capsys):
    # it checks every tree (is_shattered) and certificate (the checker) it times, and says so
    from benchmarks import kernel_trees

    assert kernel_trees.main(["--smoke"]) == 0
    lines = capsys.readouterr().out.splitlines()
    heads = [line for line in lines if line.startswith("## ")]
    assert [h.split(":")[0][3:] for h in heads[:-1]] == [name for name, _ in kernel_trees.SMOKE]
    assert heads[0].startswith("## thresholds(63): Ldim = 6 (trees checked shattered, certificates checked)")
    # then the command line's --tree against the door, one row per spec, every time and ratio positive
    assert heads[-1].startswith("## ldim SPEC --what ldim --tree in this process (cli) against")
    rows = lines[lines.index(heads[-1]) + 2:]
    assert [row.split(" | ")[0][2:] for row in rows] == list(kernel_trees.FRONT_SMOKE)
    assert all(float(x) > 0 for row in rows for x in row.strip("| ").split(" | ")[1:])


# ------------------------------------------------------------------ one engine, one search, one budget
def count_searches(monkeypatch) -> dict:
    """Count the searches run from now: the extension's entries (``ldim_kernel._run``, the one place every
    compiled search runs) and the Python search's (``LdimSearch.bounds`` and ``at_least``, which every
    Python search goes through)."""
    calls = {"compiled": 0, "python": 0}
    run = ldim_kernel._run

    def counted_run(*args, **kwargs):
        calls["compiled"] += 1
        return run(*args, **kwargs)

    monkeypatch.setattr(ldim_kernel, "_run", counted_run)
    for name in ("bounds", "at_least"):
        original = getattr(LdimSearch, name)

        def counted(self, *args, _original=original, **kwargs):
            calls["python"] += 1
            return _original(self, *args, **kwargs)

        monkeypatch.setattr(LdimSearch, name, counted)
    return calls


def python_ldim(H: HypothesisClass) -> int:
    search = LdimSearch(H)  # tested against the textbook recursion (test_littlestone)
    return search.ldim(search.full)


@pytest.mark.parametrize("max_nodes", [5, 200])
def test_a_certificate_out_of_budget_is_one_search_under_one_budget(monkeypatch, max_nodes):
    # the compiled run stops on its budget: its bounds are the answer and no other search runs (before:
    # the Python search ran again, a second budget); the section certifies what holds before any search
    H = classes.random(3000, 30, 0.3, seed=0)
    d = python_ldim(H)
    calls = count_searches(monkeypatch)
    writer = CertificateWriter(H)
    section = ldim_certificate(H, writer, max_nodes=max_nodes)
    assert calls == {"compiled": 1, "python": 0}
    lower, upper = check(writer.document())["ldim"]
    assert lower <= d <= upper and lower < upper
    assert (section["claim"]["lower"][1], section["claim"]["upper"][1]) == (lower, upper)
    with pytest.raises(SearchIncomplete) as info:
        shattered_tree(H, max_nodes=max_nodes)
    b = info.value.result
    assert b.status == "budget" and b.nodes <= max_nodes and b.lower <= d <= b.upper
    assert calls == {"compiled": 2, "python": 0}


def test_after_a_stop_each_question_ends_with_its_proven_bounds_and_searches_nothing_more(monkeypatch):
    # a signal stopped every search (the command line's Ctrl-C and SIGTERM): the compiled run proves what
    # holds before any node, and nothing restarts a search (before: the certificate ran the Python search)
    from mistakebound.theory.profile import class_profile
    from mistakebound.theory.search_protocol import SearchInterrupted, resume_searches, stop_searches

    H = classes.random(3000, 30, 0.3, seed=0)
    d = python_ldim(H)
    calls = count_searches(monkeypatch)
    stop_searches()
    try:
        with pytest.raises(SearchInterrupted) as info:
            shattered_tree(H)
        writer = CertificateWriter(H)
        ldim_certificate(H, writer)
        P = class_profile(H, what=("ldim", "vc"), keep_search=True)
        profile_writer = P.certificate()
    finally:
        resume_searches()
    assert calls == {"compiled": 3, "python": 0}
    b = info.value.result
    assert (b.status, b.nodes) == ("interrupted", 0) and b.lower <= d <= b.upper
    lower, upper = check(writer.document())["ldim"]
    assert lower <= d <= upper
    assert P.ldim.status == "interrupted" and P.vc is None and P.partial["vc"] == "not searched: interrupted"
    assert check(profile_writer.document()) == {"ldim": (lower, upper)}


def test_ctrl_c_during_a_certificate_ends_it_with_no_second_search(monkeypatch):
    H = classes.random(20000, 60, 0.2, seed=3)  # a search of about a second
    calls = count_searches(monkeypatch)
    writer = CertificateWriter(H)
    with raised_after(KeyboardInterrupt, 0.05):
        ldim_certificate(H, writer)
    assert calls == {"compiled": 1, "python": 0}
    value = ldim_kernel.kernel_bounds(H, Budget(), ldim_kernel.SMALL_MEMO_BYTES << 2)["lower"]
    lower, upper = check(writer.document())["ldim"]
    assert lower <= value <= upper and lower < upper


def test_a_reading_stopped_after_the_value_leaves_the_value_exact_and_no_tree(monkeypatch):
    # the value fits the budget, the reading does not: Ldim exact, the tree refused with (d, d, "budget"),
    # the certificate what holds before any search; one search
    from mistakebound.theory.littlestone import ldim_engine

    H = classes.random(400, 14, 0.3, seed=2)
    value = ldim_kernel.kernel_bounds(H, Budget(), ldim_kernel.SMALL_MEMO_BYTES)
    calls = count_searches(monkeypatch)
    engine = ldim_engine(H, budget=Budget(max_nodes=value["nodes"]), read="certificate")
    bounds = engine.run()
    assert (bounds.lower, bounds.upper, bounds.status) == (value["lower"],) * 2 + ("exact",)
    assert engine.reading.bounds.status == "budget" and engine.reading.tree is None
    with pytest.raises(SearchIncomplete) as info:
        engine.tree()
    assert (info.value.result.lower, info.value.result.status) == (value["lower"], "budget")
    from mistakebound.theory.ldim_certificate import engine_section

    writer = CertificateWriter(H)
    engine_section(engine, bounds, writer)
    lower, upper = check(writer.document())["ldim"]
    assert lower <= value["lower"] <= upper
    assert calls == {"compiled": 1, "python": 0}


def test_a_tree_alone_reads_no_refutation_and_a_certificate_both(monkeypatch):
    from mistakebound.theory.littlestone import ldim_engine

    H = classes.random(500, 16, 0.3, seed=1)
    d = python_ldim(H)
    calls = count_searches(monkeypatch)
    tree_only = ldim_engine(H, read="tree")
    tree_only.run()
    assert tree_only.reading.refutation is None and tree_only.tree().graph["depth"] == d
    both = ldim_engine(H, read="certificate")
    both.run()
    assert both.reading.refutation is not None and both.tree().graph["depth"] == d
    assert calls == {"compiled": 2, "python": 0}  # tree() reads what the run kept


@settings(max_examples=80, deadline=None)
@given(class_matrices(max_rows=30, max_cols=8), st.sampled_from([None, 1, 2, 5, 20, 60]))
def test_every_tree_and_certificate_is_one_compiled_search_holding_the_truth(matrix, max_nodes):
    # one search per question whatever the budget; an exact tree is shattered at the textbook's depth, a
    # refused one carries bounds holding it; every certificate passes the checker with bounds holding it
    H, d = HypothesisClass.from_matrix(matrix), truth(matrix)
    with pytest.MonkeyPatch.context() as monkeypatch:
        calls = count_searches(monkeypatch)
        try:
            T = shattered_tree(H, max_nodes=max_nodes)
        except SearchIncomplete as exc:
            assert exc.result.lower <= d <= exc.result.upper and max_nodes is not None
        else:
            assert T.graph["depth"] == d and is_shattered(H, T)
        writer = CertificateWriter(H)
        ldim_certificate(H, writer, max_nodes=max_nodes)
        assert calls == {"compiled": 2, "python": 0}
    lower, upper = check(writer.document())["ldim"]
    assert lower <= d <= upper and (max_nodes is not None or lower == upper == d)
