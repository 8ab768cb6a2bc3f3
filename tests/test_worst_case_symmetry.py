"""The worst-case search's fast path and symmetry reduction against the plain search and the oracle.

Every learner that declares a ``version_space_policy`` and ``symmetries`` is checked three
ways: the policy against its own ``predict_one`` (``fast_path_violations``), the declared
symmetries against relabelled copies (``symmetry_violations``), and the search's values with
and without the reductions against the plain search and an independent recursion.  Wrong
declarations are built on purpose and must be caught.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from attrs import define, field
from hypothesis import given, settings
from hypothesis import strategies as st

from mistakebound import HypothesisClass, play
from mistakebound.adversaries import MinimaxAdversary
from mistakebound.foundations.errors import IllegalPredictionError, InvalidArgumentError, PlayerError
from mistakebound.game import classes
from mistakebound.learners import SOA, Consistent, Halving
from mistakebound.learners.optimal_randomized import OptimalRandomizedLearner
from mistakebound.theory.symmetry import (
    MajorityVote,
    VersionSpaceKeys,
    declared_symmetries,
    fast_path_violations,
    symmetry_violations,
)
from mistakebound.theory.worst_case import worst_case_mistakes
from tests.strategies import hypothesis_classes
from mistakebound.theory.textbook import consistent_rule, halving_rule, textbook_worst_case

LEARNERS = (Halving, Consistent, SOA, OptimalRandomizedLearner)
SETTINGS = settings(max_examples=80, deadline=None)


def _moves(W):
    G = W.strategy
    return [(G.nodes[t]["instance"], G.nodes[t]["prediction"], G.nodes[t]["label"], G.nodes[t]["gain"])
            for t in range(G.number_of_nodes() - 1)]


def _legal_total(W, H) -> float:
    V = H.full_mask
    total = 0
    for x, p, y, gain in _moves(W):
        c = H.column_masks[H.index_of(x)]
        V = V & c if y else V & ~c
        assert V, f"the line's label {y} on {x!r} leaves no hypothesis"
        assert gain == abs(p - y)
        total += gain
    return total


# ------------------------------------------------------------------ the declarations hold
@SETTINGS
@given(hypothesis_classes(max_rows=9, max_cols=5), st.integers(0, 2**16))
def test_every_declared_policy_and_symmetry_holds(H, seed):
    for L in LEARNERS:
        assert fast_path_violations(L(H), H, histories=10, seed=seed) == []
        assert symmetry_violations(L(H), H, histories=10, seed=seed) == []


# --------------------------------------------------- fast path == plain search == oracle
@SETTINGS
@given(hypothesis_classes(max_rows=9, max_cols=5))
def test_fast_path_and_symmetry_give_the_plain_search_value_and_the_oracle(H):
    for L in LEARNERS:
        plain = worst_case_mistakes(L(H), H, fast=False)
        for options in ({"symmetry": True}, {}):
            W = worst_case_mistakes(L(H), H, **options)
            assert W.exact and W.value == pytest.approx(plain.value, abs=1e-9), (L, options)
            assert _legal_total(W, H) == pytest.approx(W.value, abs=1e-9)
            assert W.nodes <= plain.nodes
    assert worst_case_mistakes(Halving(H), H).value == textbook_worst_case(H, halving_rule(H))
    assert worst_case_mistakes(Consistent(H), H).value == textbook_worst_case(H, consistent_rule(H))


@SETTINGS
@given(hypothesis_classes(max_rows=8, max_cols=4), st.integers(0, 5))
def test_with_a_horizon_too(H, horizon):
    for L in LEARNERS:
        plain = worst_case_mistakes(L(H), H, fast=False, horizon=horizon)
        for options in ({"symmetry": True}, {}):
            W = worst_case_mistakes(L(H), H, horizon=horizon, **options)
            assert W.exact and W.value == pytest.approx(plain.value, abs=1e-9)
            assert len(W.line) <= horizon and _legal_total(W, H) == pytest.approx(W.value, abs=1e-9)


@settings(max_examples=40, deadline=None)
@given(hypothesis_classes(max_rows=8, max_cols=4), st.integers(0, 3))
def test_the_minimax_adversary_forces_the_reduced_searchs_line(H, extra):
    for L in (Consistent, Halving, SOA):
        W = worst_case_mistakes(L(H), H, symmetry=True)
        T = play(L(H), MinimaxAdversary(W.strategy), H, rounds=len(W.line) + extra, seed=0)
        assert T.mistakes == W.value
        assert [(r.x, r.y) for r in T.rounds] == list(W.line)


@SETTINGS
@given(hypothesis_classes(max_rows=9, max_cols=5), st.integers(1, 40))
def test_a_partial_reduced_search_keeps_proven_bounds_and_a_playable_line(H, max_nodes):
    for L in (Halving, Consistent):
        exact = worst_case_mistakes(L(H), H, fast=False).value
        for symmetry in (False, True):
            W = worst_case_mistakes(L(H), H, max_nodes=max_nodes, symmetry=symmetry)
            assert W.lower <= exact <= W.upper
            assert _legal_total(W, H) == W.lower
            assert W.exact or W.status == "budget"


@st.composite
def classes_with_copies(draw) -> HypothesisClass:
    """Few distinct rows, each repeated: version spaces of different sizes with the same columns."""
    cols = draw(st.integers(1, 4))
    distinct = draw(st.lists(st.lists(st.integers(0, 1), min_size=cols, max_size=cols), min_size=1, max_size=4))
    counts = draw(st.lists(st.integers(1, 3), min_size=len(distinct), max_size=len(distinct)))
    rows = [r for r, c in zip(distinct, counts) for _ in range(c)]
    order = draw(st.permutations(range(len(rows))))
    return HypothesisClass.from_matrix(np.array([rows[i] for i in order], dtype=np.uint8).reshape(len(rows), cols))


@SETTINGS
@given(classes_with_copies())
def test_duplicated_rows_count_in_the_keys(H):
    """Halving counts copies as votes: version spaces with the same columns but other sizes differ."""
    for L in (Halving, Consistent):
        assert worst_case_mistakes(L(H), H, symmetry=True).value == worst_case_mistakes(L(H), H, fast=False).value
    assert worst_case_mistakes(Halving(H), H, symmetry=True).value == textbook_worst_case(H, halving_rule(H))


@pytest.mark.parametrize("H", [classes.thresholds(15), classes.singletons(6), classes.random(24, 6, 0.5, 4)],
                         ids=["thresholds15", "singletons6", "random24"])
def test_horizons_on_classes_where_one_version_space_is_reached_at_several_depths(H):
    for horizon in range(1, 6):
        for L in (Halving, Consistent, SOA):
            plain = worst_case_mistakes(L(H), H, horizon=horizon, fast=False).value
            assert worst_case_mistakes(L(H), H, horizon=horizon, symmetry=True).value == plain, (L, horizon)


@pytest.mark.parametrize("H", [classes.thresholds(31), classes.random(30, 7, 0.5, 2), classes.power_set(4),
                               classes.random(20, 6, 0.3, 5)],
                         ids=["thresholds31", "random30", "power_set4", "random20"])
def test_the_lines_of_reduced_searches_replay_on_larger_classes(H):
    """A line rebuilt from positions merged by a relabelling: legal, its gains the value, forced in play."""
    for L in (Halving, Consistent, SOA):
        W = worst_case_mistakes(L(H), H, symmetry=True)
        assert _legal_total(W, H) == W.value
        T = play(L(H), MinimaxAdversary(W.strategy), H, rounds=len(W.line), seed=0)
        assert T.mistakes == W.value and [(r.x, r.y) for r in T.rounds] == list(W.line)


@pytest.mark.parametrize("rows, cols", [(12, 6), (20, 5)])
def test_duplicate_rows_and_columns(rows, cols):
    rng = np.random.default_rng(rows)
    M = rng.integers(0, 2, size=(rows // 2, cols))
    M = np.vstack([M, M[: rows // 4]])  # duplicated rows
    M = np.hstack([M, M[:, :2]])  # duplicated columns
    H = HypothesisClass.from_matrix(M)
    for L in LEARNERS:
        plain = worst_case_mistakes(L(H), H, fast=False)
        assert worst_case_mistakes(L(H), H, symmetry=True).value == pytest.approx(plain.value)
        assert worst_case_mistakes(L(H), H).value == pytest.approx(plain.value)


# ------------------------------------------------------------- the exercises, far larger
@pytest.mark.parametrize("d", [20, 64])
def test_halving_on_large_singletons_is_one_and_visits_few_positions(d):
    W = worst_case_mistakes(Halving(classes.singletons(d)), classes.singletons(d), symmetry=True)
    assert W.exact and W.value == 1 and W.nodes <= 2 * d


def test_consistent_on_large_singletons_with_the_empty_hypothesis_last():
    H = classes.singletons(40, include_empty=True)
    W = worst_case_mistakes(Consistent(H), H, symmetry=True)
    assert W.value == 40 and len(W.line) == 40


def test_thresholds_halving_and_soa():
    H = classes.thresholds(63)
    assert worst_case_mistakes(Halving(H), H, symmetry=True).value == 6
    assert worst_case_mistakes(SOA(H), H, symmetry=True).value == 6


@pytest.mark.parametrize("n, value", [(1023, 10), (4095, 12)])
def test_halving_on_large_thresholds_with_the_majority_bound(n, value):
    # Halving's worst case on thresholds(n) is log2(n + 1): the adversary halves the
    # window (Theorem 21.3 and the thresholds example); the majority bound lets the
    # search stop at the first move that reaches floor(log2 |V|)
    H = classes.thresholds(n)
    W = worst_case_mistakes(Halving(H), H, symmetry=True)
    assert W.exact and W.value == value and len(W.line) == value and W.nodes <= 3 * value


class MinorityVote(MajorityVote):
    """Not a majority vote: the search must not apply the majority's bound to it."""

    def __call__(self, V: int, j: int) -> int:
        return 1 - super().__call__(V, j)


class MinorityHalving(Halving):
    def predict_one(self, x):
        return 1 - super().predict_one(x)

    def version_space_policy(self, H):
        return MinorityVote(H.column_masks) if H == self.H else None


@settings(max_examples=60, deadline=None)
@given(hypothesis_classes(max_rows=8, max_cols=4))
def test_a_policy_that_only_looks_like_the_vote_gets_no_bound(H):
    assert fast_path_violations(MinorityHalving(H), H) == []
    plain = worst_case_mistakes(MinorityHalving(H), H, fast=False)
    assert worst_case_mistakes(MinorityHalving(H), H).value == plain.value


# ------------------------------------------------------------------- wrong declarations
class RowBlindConsistent(Consistent):
    """Consistent with a wrong declaration: its first-row tie-break does depend on row order."""

    symmetries = frozenset({"instances", "rows"})


def test_a_wrong_symmetry_declaration_is_caught():
    H = classes.singletons(5, include_empty=True)
    assert symmetry_violations(Consistent(H), H) == []
    problems = symmetry_violations(RowBlindConsistent(H), H)
    assert problems and "RowBlindConsistent" in problems[0]
    # and it matters: trusted, the declaration would merge positions of different values
    M = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]] + [[1, 1, 0]])
    K = HypothesisClass.from_matrix(M)
    assert symmetry_violations(RowBlindConsistent(K), K, histories=60)


@define
class MajorityOfFirstColumn:
    """A user's learner with a policy: predicts the majority label of column 0 wherever asked.

    The prediction does not follow the instance: the declaration ``"instances"`` is wrong.
    """

    H: HypothesisClass
    V: int = field(init=False)
    symmetries = frozenset({"instances"})

    def __attrs_post_init__(self):
        self.V = self.H.full_mask

    def predict_one(self, x):
        return int(2 * (self.V & self.H.column_masks[0]).bit_count() >= self.V.bit_count())

    def learn_one(self, x, y):
        c = self.H.column_masks[self.H.index_of(x)]
        self.V = self.V & c if y else self.V & ~c

    def state_key(self):
        return self.V

    def version_space_policy(self, H):
        c = H.column_masks[0]
        return lambda V, j: int(2 * (V & c).bit_count() >= V.bit_count())


def test_a_wrong_instance_declaration_is_caught_and_a_user_learner_can_opt_in():
    H = classes.thresholds(7)
    assert fast_path_violations(MajorityOfFirstColumn(H), H) == []  # the policy is right...
    assert symmetry_violations(MajorityOfFirstColumn(H), H)  # ...the symmetry is not
    # without the (wrong) declaration, the fast path is exact for it
    W = worst_case_mistakes(MajorityOfFirstColumn(H), H)
    assert W.value == worst_case_mistakes(MajorityOfFirstColumn(H), H, fast=False).value


class TieToZeroHalving(Halving):
    """A wrong fast path: its policy breaks ties towards 0, its predict_one towards 1."""

    def version_space_policy(self, H):
        cols = H.column_masks
        return lambda V, j: int(2 * (V & cols[j]).bit_count() > V.bit_count())


def test_a_wrong_fast_path_tie_break_is_caught():
    H = classes.thresholds(7)
    assert fast_path_violations(Halving(H), H) == []
    problems = fast_path_violations(TieToZeroHalving(H), H)
    assert problems and "TieToZeroHalving" in problems[0]


def test_bad_declarations_and_policies_are_reported():
    H = classes.thresholds(3)

    class Misspelled(Halving):
        symmetries = frozenset({"instance"})

    with pytest.raises(InvalidArgumentError, match="symmetries"):
        declared_symmetries(Misspelled(H))
    with pytest.raises(InvalidArgumentError, match="symmetries"):
        worst_case_mistakes(Misspelled(H), H, symmetry=True)

    class Illegal(Halving):
        def version_space_policy(self, H):
            return lambda V, j: 2

    with pytest.raises(IllegalPredictionError, match="version_space_policy"):
        worst_case_mistakes(Illegal(H), H)

    class Raising(Halving):
        def version_space_policy(self, H):
            return lambda V, j: 1 // 0

    with pytest.raises(PlayerError, match="ZeroDivisionError"):
        worst_case_mistakes(Raising(H), H)


def test_policies_decline_when_they_would_not_describe_the_learner():
    H = classes.thresholds(7)

    class Evil(Halving):
        def predict_one(self, x):
            return 1 - super().predict_one(x)

    assert Evil(H).version_space_policy(H) is None  # a changed prediction: the plain search runs
    assert worst_case_mistakes(Evil(H), H).value == worst_case_mistakes(Evil(H), H, fast=False).value
    for L in LEARNERS:
        assert L(H).version_space_policy(classes.thresholds(5)) is None  # another class
        trained = L(H)
        trained.learn_one(3, 1)
        assert trained.version_space_policy(H) is None  # not in its initial state


def test_an_infinite_value_on_the_fast_path():
    H = classes.thresholds(3)

    class Stubborn(Halving):  # errs on an instance every hypothesis labels 0, forever
        def version_space_policy(self, H):
            return lambda V, j: 1

        symmetries = frozenset()

    W = worst_case_mistakes(Stubborn(H), H)
    assert W.value == math.inf and W.exact and W.line
    assert worst_case_mistakes(Stubborn(H), H, horizon=4).value == 4


def test_the_keys_merge_relabelled_copies_only():
    H = classes.singletons(6)
    keys = VersionSpaceKeys(H, frozenset({"instances"}))
    assert keys.key(0b000011) == keys.key(0b110000)
    assert keys.key(0b000011) != keys.key(0b000111)
    both = VersionSpaceKeys(H, frozenset({"instances", "rows"}))
    assert both.form(0b000011)[0] == both.form(0b101000)[0]
    assert VersionSpaceKeys(H).key(0b11) == 0b11


def test_keys_tell_apart_version_spaces_that_differ_only_by_a_copy_of_a_row():
    # rows a, q, b, z, z: {a, b, z} and {a, b, z, z} have the same columns once renumbered
    H = HypothesisClass.from_matrix([[1, 0], [1, 1], [0, 1], [0, 0], [0, 0]])
    V, W = 0b01101, 0b11101
    for sym in ({"instances"}, {"instances", "rows"}):
        keys = VersionSpaceKeys(H, frozenset(sym))
        assert keys.quick(V) != keys.quick(W)
        assert keys.form(V)[0] != keys.form(W)[0]
    zeros = HypothesisClass.from_matrix(np.zeros((4, 2), dtype=np.uint8))
    keys = VersionSpaceKeys(zeros, frozenset({"instances", "rows"}))
    assert keys.moves(0b0111)[0] != keys.moves(0b1111)[0]


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 6).flatmap(lambda s: st.tuples(
    st.lists(st.lists(st.integers(0, 1), min_size=4, max_size=4), min_size=s, max_size=s),
    st.permutations(range(s)), st.permutations(range(4)))))
def test_moves_at_one_position_of_a_key_are_the_same_move_in_every_copy(drawn):
    """Two relabelled copies with one key: move i of one and move i of the other lead to copies again."""
    rows, row_perm, col_perm = drawn
    M = np.array(rows, dtype=np.uint8)
    H = HypothesisClass.from_matrix(np.vstack([M, M[list(row_perm)][:, list(col_perm)]]))
    s = len(rows)
    V, W = (1 << s) - 1, ((1 << s) - 1) << s
    for sym in ({"instances"}, {"instances", "rows"}):
        keys = VersionSpaceKeys(H, frozenset(sym))
        (kv, mv), (kw, mw) = keys.form(V), keys.form(W)
        if kv != kw:
            continue  # the normal form is exact, not complete: copies may get two keys
        assert len(mv) == len(mw)
        for i, j in zip(mv, mw):
            for side in (lambda X, c: X & c, lambda X, c: X & ~c):
                A, B = side(V, H.column_masks[i]), side(W, H.column_masks[j])
                assert (A == 0) == (B == 0)
                if A:
                    assert _brute_class(H, A, sym) == _brute_class(H, B, sym)


def _brute_class(H, V, sym):
    """The relabelling class of ``V`` by brute force: its distinct columns, up to every row order under "rows"."""
    rows = [int(i) for i in range(H.n_hypotheses) if V >> i & 1]
    cols = {tuple(int(H.matrix[r, j]) for r in rows) for j in range(H.n_instances)}
    if "rows" not in sym:
        return len(rows), tuple(sorted(cols))
    return len(rows), min(tuple(sorted(tuple(c[p] for p in perm) for c in cols))
                          for perm in itertools.permutations(range(len(rows))))


# ------------------------------------------------- the automatic choice (symmetry=None)
def _result(W):
    """What a search proves and shows, all but its count of positions: value, line, the strategy's every label."""
    G = W.strategy
    return W.status, W.value, W.line, [dict(G.nodes[t]) for t in sorted(G.nodes)], list(G.edges(data=True))


@SETTINGS
@given(hypothesis_classes(max_rows=9, max_cols=5), st.sampled_from([None, 0, 1, 2, 4]), st.booleans())
def test_symmetry_on_off_or_chosen_gives_the_same_value_and_line(H, horizon, switch_early):
    """The line is the plain search's whichever way positions are keyed (the first best move in its order);
    with ``switch_early`` the automatic choice is made to switch after 2 positions, so the restart is exercised."""
    import mistakebound.theory.symmetry as symmetry_module

    saved = symmetry_module.PROBE_POSITIONS, symmetry_module.MERGE_RATIO
    if switch_early:
        symmetry_module.PROBE_POSITIONS, symmetry_module.MERGE_RATIO = 2, 1
    try:
        for L in (*LEARNERS, MinorityHalving):
            off = worst_case_mistakes(L(H), H, horizon=horizon, symmetry=False)
            for symmetry in (True, None):
                W = worst_case_mistakes(L(H), H, horizon=horizon, symmetry=symmetry)
                assert _result(W) == _result(off), (L, symmetry)
    finally:
        symmetry_module.PROBE_POSITIONS, symmetry_module.MERGE_RATIO = saved


@pytest.mark.parametrize("H", [classes.singletons(12), classes.thresholds(63), classes.intervals(10),
                               classes.random(64, 8, 0.5, 1), classes.power_set(5), classes.random(40, 7, 0.3, 3)],
                         ids=["singletons12", "thresholds63", "intervals10", "random64x8", "power_set5", "random40"])
def test_the_choice_on_classes_past_the_probe_keeps_value_and_line(H):
    for L in LEARNERS:
        off = worst_case_mistakes(L(H), H, symmetry=False)
        assert _result(worst_case_mistakes(L(H), H)) == _result(off)
        assert _result(worst_case_mistakes(L(H), H, symmetry=True)) == _result(off)


def test_the_choice_merges_where_copies_abound():
    from mistakebound.theory.symmetry import PROBE_POSITIONS

    H = classes.singletons(64)
    W = worst_case_mistakes(Halving(H), H, time_limit=20)  # 2^64 - 1 positions without: never ends
    assert W.exact and W.value == 1 and W.nodes == PROBE_POSITIONS + 64
    H = classes.thresholds(1023)
    W = worst_case_mistakes(Halving(H), H)
    assert W.exact and W.value == 10 and W.nodes < worst_case_mistakes(Halving(H), H, symmetry=False).nodes


@pytest.mark.parametrize("L", [SOA, Consistent, Halving])
def test_the_choice_does_not_merge_where_copies_are_few(L):
    """A random class has few relabelled copies: merging costs more than it saves, and the search stays plain."""
    H = classes.random(64, 8, 0.5, 1)
    off = worst_case_mistakes(L(H), H, symmetry=False)
    from mistakebound.theory.symmetry import PROBE_POSITIONS

    assert off.nodes > PROBE_POSITIONS  # past the probe: the choice was made
    assert worst_case_mistakes(L(H), H).nodes == off.nodes


def test_a_small_search_never_computes_a_key(monkeypatch):
    import mistakebound.theory.symmetry as symmetry_module

    def fail(*args):
        raise AssertionError("a key was computed")

    monkeypatch.setattr(symmetry_module, "merging_pays", fail)
    H = classes.thresholds(31)
    assert worst_case_mistakes(Halving(H), H).value == 5  # 63 positions or fewer: ends before the probe


def test_a_bad_symmetry_option_is_refused():
    H = classes.thresholds(3)
    for bad in ("auto", 1, 0):
        with pytest.raises(InvalidArgumentError, match=r"symmetry: expected None \(decide\), True or False"):
            worst_case_mistakes(Halving(H), H, symmetry=bad)


def test_the_choice_reports_progress_across_the_restart(monkeypatch):
    import mistakebound.theory.symmetry as symmetry_module

    monkeypatch.setattr(symmetry_module, "PROBE_POSITIONS", 256)  # the decision at a progress report
    H = classes.singletons(64)
    reports: list = []
    W = worst_case_mistakes(Halving(H), H, progress=reports.append, time_limit=20)
    assert W.exact and W.nodes == 256 + 64 and sum(reports) == 256  # the probe's positions are reported too
