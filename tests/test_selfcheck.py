"""Tests of mistakebound.verification.selfcheck: the games run_check plays and the verdicts it gives."""

from __future__ import annotations

import math
import time
from typing import Any

import numpy as np
import pytest
from attrs import define, field

import mistakebound.learners
from mistakebound import HypothesisClass, littlestone_dimension, play
from mistakebound.game import classes
from mistakebound.verification import selfcheck
from mistakebound.adversaries import (
    ADVERSARIES,
    BasisVectorForcer,
    BinarySearchThreshold,
    OppositeLabel,
    ShatteredTreeWalker,
)
from mistakebound.interfaces.cli import main
from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.learners import REALIZABLE_LEARNERS, SOA, Halving
from mistakebound.game.players import Learner
from mistakebound.verification.selfcheck import CheckReport, CheckRow, default_classes, run_check


# ----------------------------------------------------------------- deliberately bad players
@define
class TieZeroHalving(Learner):
    """Majority vote with ties broken to 0, which claims SOA's bound Ldim(H): a false claim."""

    H: HypothesisClass
    _V: int = field(init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        self._V = self.H.full_mask

    def predict_one(self, x: Any) -> int:
        ones = (self._V & self.H.column_masks[self.H.index_of(x)]).bit_count()
        return int(2 * ones > self._V.bit_count())

    def learn_one(self, x: Any, y: int) -> None:
        ones = self._V & self.H.column_masks[self.H.index_of(x)]
        self._V = ones if y == 1 else self._V ^ ones

    @classmethod
    def mistake_bound(cls, H: HypothesisClass) -> int:
        return littlestone_dimension(H)


@define
class RaisingLearner(Learner):
    H: HypothesisClass

    def predict_one(self, x: Any) -> int:
        raise RuntimeError("deliberate failure in predict_one")

    def learn_one(self, x: Any, y: int) -> None:  # pragma: no cover - never reached
        pass

    @classmethod
    def mistake_bound(cls, H: HypothesisClass) -> int:
        return H.n_hypotheses


def unbuildable_learner(H):
    raise ValueError("deliberate failure in the constructor")


class LazyWalker(ShatteredTreeWalker):
    """Walks the shattered tree for one round only, so it forces a single mistake."""

    def next_instance(self, state):
        return None if state.t > 1 else super().next_instance(state)


class ExplodingAdversary(OppositeLabel):
    def applies_to(self, H):
        raise RuntimeError("deliberate failure in applies_to")


def rounds_for(H: HypothesisClass) -> int:
    return H.n_hypotheses + H.n_instances + 5


def breaking_class() -> HypothesisClass:
    """A small class on which TieZeroHalving makes more than Ldim mistakes against OppositeLabel.

    Found by a seeded search over small random matrices, using only the engine and the
    Ldim search, never selfcheck.
    """
    rng = np.random.default_rng(2024)
    for _ in range(2000):
        n_rows, n_cols = int(rng.integers(3, 9)), int(rng.integers(2, 5))
        H = HypothesisClass.from_matrix(rng.integers(0, 2, size=(n_rows, n_cols)), name="breaker")
        T = play(TieZeroHalving(H), OppositeLabel(), H, rounds=rounds_for(H), seed=0)
        if T.mistakes > littlestone_dimension(H):
            return H
    raise AssertionError("no class found where ties-to-0 Halving beats its claimed bound")


def expected_games(class_list, learner_list=REALIZABLE_LEARNERS, adversary_list=ADVERSARIES):
    """The (learner, adversary, class) triples of the games run_check should play."""
    return [
        (L.__name__, A.__name__, H.describe())
        for H in class_list
        for L in learner_list
        for A in adversary_list
        if A().applies_to(H)
    ]


# ------------------------------------------------------------------------ the default check
@pytest.fixture(scope="module")
def default_report():
    start = time.perf_counter()
    report = run_check()
    return report, time.perf_counter() - start


def test_default_check_plays_one_row_per_applicable_game(default_report):
    report, _ = default_report
    got = [(r.learner, r.adversary.split("(")[0], r.class_name) for r in report.rows]
    assert sorted(got) == sorted(expected_games(default_classes()))
    assert len(got) == len(set(got))


def test_default_check_holds_every_bound(default_report):
    report, _ = default_report
    assert report.ok, report.format_table()
    assert report.broken == () and report.errors == ()
    assert {r.verdict for r in report.rows} == {"ok"}


def test_default_check_is_fast(default_report):
    _, seconds = default_report
    assert seconds < 60


def test_default_classes_cover_the_zoo_families():
    names = [H.describe().split("(")[0] for H in default_classes()]
    for family in ("thresholds", "intervals", "singletons", "monotone_disjunctions", "disjunctions",
                   "monotone_conjunctions", "projections", "parities", "power_set", "k_sparse"):
        assert family in names


def test_rows_carry_the_learners_proven_bound_and_the_real_game(default_report):
    report, _ = default_report
    by_name = {H.describe(): H for H in default_classes()}
    learners = {L.__name__: L for L in REALIZABLE_LEARNERS}
    adversaries = {A.__name__: A for A in ADVERSARIES}
    for row in report.rows:
        H = by_name[row.class_name]
        L = learners[row.learner]
        assert row.bound == L.mistake_bound(H)
        T = play(L(H), adversaries[row.adversary.split("(")[0]](), H, rounds=rounds_for(H), seed=0)
        assert row.mistakes == T.mistakes
        assert row.mistakes <= row.bound + 1e-9


def test_walker_rows_state_that_ldim_is_forced(default_report):
    report, _ = default_report
    by_name = {H.describe(): H for H in default_classes()}
    walker_rows = [r for r in report.rows if r.adversary == "ShatteredTreeWalker"]
    assert len(walker_rows) == len(by_name) * len(REALIZABLE_LEARNERS)
    for row in walker_rows:
        ldim = littlestone_dimension(by_name[row.class_name])
        assert row.forced == ldim
        assert row.mistakes == ldim


@pytest.mark.parametrize("N", [10, 15])  # N + 1 not a power of two, and one that is
def test_closed_form_lower_bounds_are_stated(N):
    n = 4
    report = run_check([classes.thresholds(N), classes.monotone_disjunctions(n)])
    search_rows = [r for r in report.rows if r.adversary == "BinarySearchThreshold"]
    basis_rows = [r for r in report.rows if r.adversary == "BasisVectorForcer"]
    thr = classes.thresholds(N).describe()
    assert [r.forced for r in search_rows if r.class_name == thr] == [math.floor(math.log2(N + 1))] * 3
    assert [r.forced for r in basis_rows] == [n] * 3
    assert all(r.mistakes == n for r in basis_rows)
    # on a class that is not thresholds(N), binary search proves nothing
    assert all(r.forced is None for r in search_rows if r.class_name != thr)
    assert report.ok


def test_no_forced_bound_for_the_oblivious_adversary():
    report = run_check([classes.thresholds(7)], adversaries=[ADVERSARIES[-1]])
    assert len(report.rows) == len(REALIZABLE_LEARNERS)
    assert all(r.forced is None for r in report.rows)


def test_same_seed_same_report_and_specs_accepted():
    a = run_check(["thresholds:7", "singletons:4"], seed=3)
    b = run_check([classes.thresholds(7), classes.singletons(4)], seed=3)
    assert a == b
    assert len(a.rows) == len(expected_games([classes.thresholds(7), classes.singletons(4)]))


def test_adversary_instances_are_accepted():
    H = classes.thresholds(7)
    report = run_check([H], [SOA], [ShatteredTreeWalker()])
    ldim = littlestone_dimension(H)
    assert ldim == math.floor(math.log2(7 + 1))
    assert [(r.mistakes, r.forced, r.verdict) for r in report.rows] == [(ldim, ldim, "ok")]


def test_bad_classes_argument_raises():
    with pytest.raises(InvalidArgumentError, match="classes"):
        run_check([42])


# ------------------------------------------------------------------- what makes a row fail
def test_a_false_upper_bound_is_reported_broken():
    H = breaking_class()
    direct = play(TieZeroHalving(H), OppositeLabel(), H, rounds=rounds_for(H), seed=0).mistakes
    report = run_check([H], [TieZeroHalving], [OppositeLabel])
    assert not report.ok
    (row,) = report.rows
    assert row.verdict == "BROKEN" and report.broken == (row,)
    assert row.mistakes == direct > row.bound == littlestone_dimension(H)
    assert "bound" in row.message
    # the honest Halving on the same class keeps its own bound
    assert run_check([H], [Halving], [OppositeLabel]).ok


def test_main_check_exits_1_on_a_broken_bound(monkeypatch, capsys):
    H = breaking_class()
    monkeypatch.setattr(mistakebound.learners, "REALIZABLE_LEARNERS", (Halving, TieZeroHalving))
    monkeypatch.setattr(selfcheck, "default_classes", lambda: (H,))
    assert main(["check"]) == 1
    out = capsys.readouterr().out
    broken_lines = [line for line in out.splitlines() if "BROKEN" in line]
    assert len(broken_lines) >= 1 and all("TieZeroHalving" in line for line in broken_lines)
    assert out.strip().splitlines()[-1].endswith(f"{len(broken_lines)} broken")


def test_a_walker_that_stops_early_breaks_the_lower_bound():
    H = classes.thresholds(7)
    report = run_check([H], [SOA], [LazyWalker])
    (row,) = report.rows
    assert row.forced == littlestone_dimension(H) == 3
    assert row.mistakes == 1 and row.verdict == "BROKEN"
    assert "forced" in row.message


def test_a_raising_learner_is_an_error_row_not_a_crash():
    H = classes.thresholds(7)
    report = run_check([H], [RaisingLearner, SOA, unbuildable_learner], [OppositeLabel])
    verdicts = [r.verdict for r in report.rows]
    assert verdicts == ["ERROR", "ok", "ERROR"]
    assert "deliberate failure in predict_one" in report.rows[0].message
    assert "deliberate failure in the constructor" in report.rows[2].message
    assert report.errors == (report.rows[0], report.rows[2]) and not report.ok
    assert "ERROR" in report.format_table()
    assert "errors" in report.summary()


def test_a_raising_adversary_is_an_error_row():
    report = run_check([classes.thresholds(3)], [SOA], [ExplodingAdversary])
    (row,) = report.rows
    assert row.verdict == "ERROR" and "applies_to" in row.message


def test_main_check_exits_1_on_an_error(monkeypatch, capsys):
    monkeypatch.setattr(mistakebound.learners, "REALIZABLE_LEARNERS", (RaisingLearner,))
    monkeypatch.setattr(selfcheck, "default_classes", lambda: (classes.thresholds(3),))
    assert main(["check"]) == 1
    captured = capsys.readouterr()
    assert "deliberate failure" in captured.out and "Traceback" not in captured.out + captured.err


# ------------------------------------------------------------------------------- the table
def test_table_is_aligned_with_a_header_and_two_decimal_log_bounds():
    H = classes.singletons(6)
    report = run_check([H], REALIZABLE_LEARNERS, [OppositeLabel])
    lines = report.format_table().splitlines()
    assert len(lines) == 2 + len(report.rows)
    header, rule = lines[0], lines[1]
    for column in ("learner", "adversary", "class", "mistakes", "bound", "forced", "verdict"):
        assert column in header
    assert set(rule.replace(" ", "")) == {"-"}
    at = header.index("verdict")
    assert all(line[at:at + 2] == "ok" for line in lines[2:])
    halving = next(line for line in lines[2:] if line.startswith("Halving"))
    assert f"{math.log2(H.n_hypotheses):.2f}" in halving.split()
    consistent = next(line for line in lines[2:] if line.startswith("Consistent"))
    assert str(H.n_hypotheses - 1) in consistent.split()


def test_report_verdict_properties():
    ok = CheckRow("L", "A", "C", mistakes=1, bound=2)
    bad = CheckRow("L", "A", "C", mistakes=3, bound=2, verdict="BROKEN", message="mistakes 3 > bound 2")
    assert CheckReport(rows=[ok]).ok
    report = CheckReport(rows=[ok, bad])
    assert not report.ok and report.broken == (bad,) and report.errors == ()
    assert report.summary() == "2 games, 1 broken"
    with pytest.raises(InvalidArgumentError, match="verdict"):
        CheckRow("L", "A", "C", mistakes=1, bound=2, verdict="fine")


def test_scenarios_become_rows_with_their_verdicts():
    from mistakebound.verification.scenario import Outcome, Scenario
    from mistakebound.verification.selfcheck import run_scenarios

    def boom(seed):
        raise RuntimeError("no")

    scenarios = [
        Scenario("L", "A", "s1", lambda seed: Outcome(value=seed + 2, bound=3), "mistakes"),
        Scenario("L", "A", "s2", lambda seed: Outcome(value=4, bound=3), "regret"),
        Scenario("L", "A", "s3", lambda seed: Outcome(value=1, forced=2), "mistakes"),
        Scenario("L", "A", "s4", boom),
    ]
    report = run_scenarios(scenarios, seed=1)
    assert [r.verdict for r in report.rows] == ["ok", "BROKEN", "BROKEN", "ERROR"]
    assert report.rows[0].mistakes == 3 and report.rows[1].measure == "regret"
    assert "RuntimeError" in report.rows[3].message
    assert "[regret]" in report.format_table()


def test_every_shipped_scenario_holds():
    from mistakebound.verification.selfcheck import run_scenarios

    report = run_scenarios(seed=0)
    assert report.ok, report.format_table()
