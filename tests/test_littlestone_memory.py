"""The Littlestone engine's canonical memo, its memory limit, its refusal, and the tree budgets."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mistakebound.theory.ldim_canonical as ldim_canonical
import mistakebound.theory.ldim_search as ldim_search
from mistakebound.theory.textbook import textbook_ldim
from mistakebound import HypothesisClass
from mistakebound.game import classes
from mistakebound.foundations.errors import InsufficientMemoryError, InvalidArgumentError, MistakeboundError
from mistakebound.foundations import memory
from mistakebound.theory import ldim_kernel
from mistakebound.theory.littlestone import (
    LdimSearch,
    is_shattered,
    littlestone_dimension,
    search_memory_estimate,
    shattered_tree,
)
from mistakebound.theory.search_protocol import MEMO_FRACTION, SearchIncomplete, SearchInterrupted
from tests.strategies import class_matrices

SETTINGS = settings(max_examples=150, deadline=None)


def oracle(M: np.ndarray) -> int:
    return textbook_ldim(M) if M.shape[1] else 0


def shifted_copies(M: np.ndarray, copies: int) -> np.ndarray:
    """``copies`` copies of M on disjoint blocks of columns (a block-diagonal class).

    Its version spaces "inside one block" are shifts of each other, which is what the
    canonical memo merges.
    """
    n, m = M.shape
    out = np.zeros((n * copies, m * copies), dtype=np.uint8)
    for c in range(copies):
        out[c * n:(c + 1) * n, c * m:(c + 1) * m] = M
    return out


# ------------------------------------------------------------------ canonical memo
@SETTINGS
@given(class_matrices(max_rows=8, max_cols=4, min_cols=1), st.integers(2, 3), st.randoms(use_true_random=False))
def test_shifted_blocks_agree_with_the_oracle_and_trees_are_shattered(M, copies, rnd):
    N = shifted_copies(M, copies)
    order = list(range(N.shape[0]))
    rnd.shuffle(order)  # interleave the copies' rows: their version spaces are no longer windows
    N = N[order]
    H = HypothesisClass.from_matrix(N)
    truth = oracle(N)
    for smallest in (ldim_canonical.CANONICAL_MIN, 2):  # 2: every version space goes through the canonical memo
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(ldim_canonical, "CANONICAL_MIN", smallest)
            search = LdimSearch(H)
            assert search.ldim(search.full) == truth
            T = search.tree()
            assert T.graph["depth"] == truth and is_shattered(H, T)


@SETTINGS
@given(class_matrices(max_rows=12, max_cols=6), st.data())
def test_sub_class_queries_through_the_canonical_memo_agree_with_the_oracle(M, data):
    """Many sub-classes of one class on one search (so canonical entries are reused)."""
    N = shifted_copies(M, 2) if M.shape[1] else M
    perm = np.array(data.draw(st.permutations(range(N.shape[0]))), dtype=np.int64)
    where = np.argsort(perm)  # where[r]: the position of row r of N after shuffling
    N = N[perm]  # the copies' rows interleaved, so their sub-classes are not windows
    H = HypothesisClass.from_matrix(N)
    mp = pytest.MonkeyPatch()
    mp.setattr(ldim_canonical, "CANONICAL_MIN", data.draw(st.sampled_from([2, 4, ldim_canonical.CANONICAL_MIN])))
    try:
        check_sub_classes(H, N, data, where if M.shape[1] else None)
    finally:
        mp.undo()


def check_sub_classes(H, N, data, where):
    search = LdimSearch(H)
    if where is not None:
        # a sub-class of the first copy, then its twin in the second copy: one canonical form
        n = N.shape[0] // 2
        rows = sorted(data.draw(st.sets(st.integers(0, n - 1), min_size=1)))
        mine, theirs = [int(where[r]) for r in rows], [int(where[r + n]) for r in rows]
        truth = oracle(N[mine])
        V, twin = search.mask_of_rows(mine), search.mask_of_rows(theirs)
        for k in data.draw(st.lists(st.integers(-1, truth + 2), max_size=3)):  # a partial memo
            assert search.at_least(V, k) == (truth >= k)
        for k in data.draw(st.permutations(range(-1, truth + 3))):
            assert search.at_least(twin, k) == (truth >= k)
        for k in data.draw(st.permutations(range(-1, truth + 3))):
            assert search.at_least(V, k) == (truth >= k)
    for _ in range(6):
        rows = sorted(data.draw(st.sets(st.integers(0, H.n_hypotheses - 1), min_size=1)))
        V = search.mask_of_rows(rows)
        assert search.ldim(V) == oracle(N[rows])
        if search.ldim(V) >= 0:
            T = search.tree(V)
            assert T.graph["depth"] == oracle(N[rows])
            # witnesses are rows of H: each must lie in V; the paths must be realised by V
            for n in T:
                if "witness" in T.nodes[n]:
                    assert (V >> int(search.row_to_distinct[T.nodes[n].pop("witness")])) & 1
            assert is_shattered(HypothesisClass.from_matrix(N[rows]), T)


def test_the_canonical_memo_is_used_on_windows_and_shifts(monkeypatch):
    """Thresholds and intervals: sub-windows of equal shape share entries (and stay exact).

    The Python search's own memo: its questions do not go to the compiled search here."""
    monkeypatch.setattr(ldim_search, "COMPILED_MIN", 1 << 62)
    for H, truth in ((classes.thresholds(255), 8), (classes.intervals(12), oracle(classes.intervals(12).matrix))):
        search = LdimSearch(H)
        assert search.ldim(search.full) == truth
        assert search.canonical_hits > 0
        T = search.tree()
        assert T.graph["depth"] == truth and is_shattered(H, T)


def test_relabelled_copies_share_canonical_entries_and_trees_stay_shattered():
    rng = np.random.default_rng(7)
    for trial in range(20):
        M = (rng.random((10, 5)) < 0.5).astype(np.uint8)
        N = shifted_copies(M, 3)[rng.permutation(30)]
        H = HypothesisClass.from_matrix(N)
        search = LdimSearch(H)
        truth = oracle(N)
        assert search.ldim(search.full) == truth
        T = search.tree()
        assert T.graph["depth"] == truth and is_shattered(H, T)
        hits = search.canonical_hits
        if hits:
            break
    assert hits > 0  # the copies' version spaces were merged at least once


def test_a_twin_reuses_a_refutation_without_losing_the_value():
    """Only "Ldim(V) < 3" is known for V; its twin's "Ldim >= 2" must still come out True."""
    rng = np.random.default_rng(11)
    checked = 0
    while checked < 10:
        M = np.unique((rng.random((10, 5)) < 0.5).astype(np.uint8), axis=0)
        if M.shape[0] < 8 or oracle(M) != 2:
            continue
        n = M.shape[0]
        perm = rng.permutation(2 * n)
        where = np.argsort(perm)
        N = shifted_copies(M, 2)[perm]
        search = LdimSearch(HypothesisClass.from_matrix(N))
        V = search.mask_of_rows([int(where[r]) for r in range(n)])
        twin = search.mask_of_rows([int(where[r + n]) for r in range(n)])
        assert search.at_least(V, 3) is False
        assert search.at_least(twin, 2) is True and search.at_least(twin, 3) is False
        assert search.ldim(twin) == 2 and search.ldim(V) == 2
        checked += 1


def test_columns_to_masks_equals_packbits_along_rows():
    from mistakebound.foundations.bitset import columns_to_masks

    rng = np.random.default_rng(0)
    for n, m in [(1, 1), (7, 3), (8, 5), (9, 2), (100, 17), (3, 0), (64, 1)]:
        M = (rng.random((n, m)) < 0.5).astype(np.uint8)
        packed = np.packbits(M, axis=0, bitorder="little")
        assert columns_to_masks(M) == [int.from_bytes(packed[:, j].tobytes(), "little") for j in range(m)]


def test_trees_of_larger_zoo_classes_are_shattered_and_of_the_closed_form_depth():
    for H, depth in ((classes.thresholds(1023), 10), (classes.monotone_disjunctions(8), 8),
                     (classes.singletons(300), 1), (classes.power_set(7), 7)):
        T = shattered_tree(H)
        assert T.graph["depth"] == depth and is_shattered(H, T)
        assert T.number_of_nodes() == 2 ** (depth + 1) - 1


# ------------------------------------------------------------------ memory limit
@SETTINGS
@given(class_matrices(max_rows=14, max_cols=7), st.integers(1, 4000))
def test_a_tiny_memo_gives_exact_answers_and_counts_evictions(M, limit):
    H = HypothesisClass.from_matrix(M)
    truth = oracle(M)
    search = LdimSearch(H, max_memo_bytes=limit)
    b = search.bounds()
    assert b.exact and b.lower == truth
    assert search.memo_bytes() <= max(limit, search.memo_bytes()) and b.evictions == search.evictions
    T = search.tree()
    assert T.graph["depth"] == truth and is_shattered(H, T)
    assert search.ldim(search.full) == truth


def test_a_one_byte_memo_evicts_and_stays_exact():
    for H in (classes.thresholds(31), classes.intervals(8), classes.random(60, 8, 0.5, seed=3)):
        truth = oracle(H.matrix)
        search = LdimSearch(H, max_memo_bytes=1)
        b = search.bounds()
        assert b.exact and b.lower == truth
        assert b.evictions > 0 and search.evictions > 0
        T = search.tree()
        assert T.graph["depth"] == truth and is_shattered(H, T)


def test_the_default_memo_limit_is_a_fraction_of_available_memory(monkeypatch):
    monkeypatch.setattr(memory, "available_memory", lambda: 1 << 34)
    assert LdimSearch(classes.thresholds(7)).max_memo_bytes == int((1 << 34) * MEMO_FRACTION)
    monkeypatch.setattr(memory, "available_memory", lambda: None)
    assert LdimSearch(classes.thresholds(7)).max_memo_bytes == ldim_search.DEFAULT_MEMO_BYTES


@pytest.mark.parametrize("bad", [0, -5, 2.5, True, "1GB"])
def test_bad_memo_limits_are_refused(bad):
    with pytest.raises(InvalidArgumentError, match="max_memo_bytes"):
        LdimSearch(classes.thresholds(3), max_memo_bytes=bad)


def test_a_search_that_cannot_fit_is_refused_before_it_allocates(monkeypatch):
    H = classes.random(2000, 40, 0.5, seed=0)
    need = search_memory_estimate(H)
    assert need >= 2000 * 40  # at least one byte per entry of the matrix
    monkeypatch.setattr(memory, "available_memory", lambda: need // 2)

    def no_allocation(*args, **kwargs):
        raise AssertionError("allocated before refusing")

    monkeypatch.setattr(HypothesisClass, "distinct_rows", no_allocation)
    with pytest.raises(InsufficientMemoryError) as info:
        LdimSearch(H)
    assert isinstance(info.value, MistakeboundError) and isinstance(info.value, MemoryError)
    msg = str(info.value)
    assert "2000 hypotheses x 40 instances" in msg and "available" in msg
    mib = [float(v.replace(",", "")) for v in re.findall(r"([\d,]+\.\d) MiB", msg)]
    assert mib[0] > mib[1]
    monkeypatch.setattr(ldim_kernel, "AVAILABLE", False)  # a small class goes to the compiled search unchecked
    with pytest.raises(InsufficientMemoryError):
        littlestone_dimension(H)
    with pytest.raises(InsufficientMemoryError):
        shattered_tree(H)
    monkeypatch.setattr(memory, "available_memory", lambda: need)
    monkeypatch.undo()
    assert littlestone_dimension(classes.thresholds(7)) == 3


def test_the_estimate_grows_with_the_class():
    small, large = classes.random(100, 10, 0.5, seed=0), classes.random(1000, 100, 0.5, seed=0)
    assert 0 < search_memory_estimate(small) < search_memory_estimate(large)


# ------------------------------------------------------------------ tree budgets
@SETTINGS
@given(class_matrices(max_rows=14, max_cols=7), st.integers(1, 30))
def test_a_tree_within_a_budget_is_complete_or_refused_with_proven_bounds(M, budget):
    H = HypothesisClass.from_matrix(M)
    truth = oracle(M)
    try:
        T = shattered_tree(H, max_nodes=budget)
    except SearchIncomplete as exc:
        b = exc.result
        assert not b.exact and b.lower <= truth <= b.upper
    else:
        assert T.graph["depth"] == truth and is_shattered(H, T)


def test_a_tree_out_of_budget_raises_instead_of_returning_part_of_a_tree():
    H = classes.random(3000, 30, 0.3, seed=0)
    with pytest.raises(SearchIncomplete) as info:
        shattered_tree(H, max_nodes=5)
    assert not info.value.result.exact and info.value.result.lower <= info.value.result.upper
    with pytest.raises(SearchIncomplete):
        shattered_tree(H, time_limit=1e-4)
    T = shattered_tree(classes.thresholds(15), max_nodes=1000, time_limit=60)
    assert T.graph["depth"] == 4 and is_shattered(classes.thresholds(15), T)


def test_a_budget_that_runs_out_while_the_tree_is_read_off_is_reported(monkeypatch):
    """The value is proven but the memo lost the witnesses: the re-search is budgeted too."""
    H = classes.random(200, 12, 0.5, seed=2)
    truth = littlestone_dimension(H)
    search = LdimSearch(H, max_memo_bytes=1)
    b = search.bounds()
    assert b.exact and b.lower == truth
    with pytest.raises(SearchIncomplete) as info:
        search.tree(max_nodes=b.nodes + 1)
    assert info.value.result.lower <= truth <= info.value.result.upper and not info.value.result.exact


def test_ctrl_c_while_building_a_tree_raises_search_interrupted(monkeypatch):
    monkeypatch.setattr(ldim_kernel, "AVAILABLE", False)  # the Python search's tree (the compiled one: test_kernel_tree)
    H = classes.random(2000, 24, 0.3, seed=1)
    truth = littlestone_dimension(H)
    calls = {"n": 0}
    original = LdimSearch._distinct_splits

    def interrupting(self, V, cand):
        calls["n"] += 1
        if calls["n"] == 40:
            raise KeyboardInterrupt
        return original(self, V, cand)

    monkeypatch.setattr(LdimSearch, "_distinct_splits", interrupting)
    with pytest.raises(SearchInterrupted) as info:
        shattered_tree(H)
    assert info.value.result.lower <= truth <= info.value.result.upper


@pytest.mark.parametrize("kwargs", [dict(max_nodes=0), dict(max_nodes=1.5), dict(time_limit=-1)])
def test_bad_tree_budgets_are_refused(kwargs):
    with pytest.raises(InvalidArgumentError, match=next(iter(kwargs))):
        shattered_tree(classes.thresholds(3), **kwargs)


# ------------------------------------------------------------------ the CLI
def test_cli_tree_with_a_budget_prints_proven_bounds_and_exits_3(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    from mistakebound.interfaces.cli import main

    out_file = tmp_path / "t.png"
    code = main(["tree", "random:3000,30,0.3,0", "--max-nodes", "3", "--out", str(out_file)])
    out = capsys.readouterr().out
    assert code == 3 and not out_file.exists()
    assert "partial" in out
    lower, upper = (int(v) for v in re.findall(r"(\d+) <= Ldim <= (\d+)", out)[0])
    assert lower <= littlestone_dimension(classes.random(3000, 30, 0.3, 0)) <= upper
    code = main(["tree", "thresholds:7", "--max-nodes", "1000", "--time-limit", "60", "--out", str(out_file)])
    assert code == 0 and out_file.exists() and "depth 3 = Ldim" in capsys.readouterr().out
    for bad in ("0", "soon"):
        assert main(["tree", "thresholds:7", "--time-limit", bad, "--out", str(out_file)]) == 2
        assert "--time-limit" in capsys.readouterr().err
