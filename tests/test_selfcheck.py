"""Tests of mistakebound.verification.selfcheck: the games run_check plays and the verdicts it gives."""

from __future__ import annotations

import math
import time
from typing import Any

import numpy as np
import pytest
from attrs import define, field

import importlib.metadata

from mistakebound import HypothesisClass, littlestone_dimension, play
from mistakebound.game import classes, registry
from mistakebound.verification import selfcheck
from mistakebound.adversaries import (
    BinarySearchThreshold,
    ObliviousCoin,
    OppositeLabel,
    ShatteredTreeWalker,
)
from mistakebound.interfaces.cli import main
from mistakebound.foundations.errors import InvalidArgumentError, NotApplicableError
from mistakebound.learners import SOA, Halving
from mistakebound.game.players import Learner
from mistakebound.verification.claims import Bound, forced_bound, judge_transcript, stated_bound
from tests.players import FINITE_ADVERSARIES, FINITE_LEARNERS
from mistakebound.verification.selfcheck import CheckReport, CheckRow, default_classes, default_rounds, run_check



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

    def bound(self, setting, *, rounds=None, realizable=True, transcript=None):
        return Bound(littlestone_dimension(setting), source="a false claim: Ldim(H)")


@define
class RaisingLearner(Learner):
    H: HypothesisClass

    def predict_one(self, x: Any) -> int:
        raise RuntimeError("deliberate failure in predict_one")

    def learn_one(self, x: Any, y: int) -> None:  # pragma: no cover - never reached
        pass

    def bound(self, setting, *, rounds=None, realizable=True, transcript=None):
        return Bound(setting.n_hypotheses, source="|H|")


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


def _builds(kind, entry, H):
    try:
        return registry.build(kind, entry, H, rounds=default_rounds(H))
    except NotApplicableError:
        return None


def expected_games(class_list):
    """The (learner, adversary, class) triples run_check should play by default: every pair of the
    registry that can be built for the class."""
    return [
        (L.name, A.name, H.describe())
        for H in class_list
        for L in registry.entries("learner")
        if _builds("learner", L, H) is not None
        for A in registry.entries("adversary")
        if _builds("adversary", A, H) is not None
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
    assert {r.verdict for r in report.rows} == {"ok", "no bound"}
    # the learners of finite classes always state their bound there; a row without one says why
    assert all(r.verdict == "ok" for r in report.rows if r.learner in ("Consistent", "Halving", "SOA"))
    assert all(r.bound is None and r.bound_source for r in report.rows if r.verdict == "no bound")


def test_default_check_plays_every_registered_player_that_applies(default_report):
    report, _ = default_report
    learners = {r.learner for r in report.rows}
    adversaries = {r.adversary for r in report.rows}
    for H in default_classes():
        for L in registry.entries("learner"):
            if _builds("learner", L, H) is not None:
                assert L.name in learners
        for A in registry.entries("adversary"):
            if _builds("adversary", A, H) is not None:
                assert A.name in adversaries
    assert {"Consistent", "Halving", "SOA", "OptimalRandomizedLearner"} <= learners
    assert {A.__name__ for A in FINITE_ADVERSARIES} <= adversaries


def test_default_check_is_fast(default_report):
    _, seconds = default_report
    assert seconds < 60


def test_default_classes_cover_the_zoo_families():
    names = [H.describe().split("(")[0] for H in default_classes()]
    for family in ("thresholds", "intervals", "singletons", "monotone_disjunctions", "disjunctions",
                   "monotone_conjunctions", "projections", "parities", "power_set", "k_sparse"):
        assert family in names


def test_every_row_is_judge_on_that_game(default_report):
    # each row replayed from the registry's names: the same game, the same claims and judge's verdict
    report, _ = default_report
    by_name = {H.describe(): H for H in default_classes()}
    for row in report.rows:
        H = by_name[row.class_name]
        n = default_rounds(H)
        learner = registry.build("learner", row.learner, H, rounds=n)
        adversary = registry.build("adversary", row.adversary, H, rounds=n)
        forced = forced_bound(adversary, H, learner=learner, rounds=n)
        T = play(learner, adversary, H, rounds=n, seed=0)
        claim = stated_bound(learner, H, rounds=n, transcript=T)
        verdict = judge_transcript(T, claim, forced)
        assert (row.bound, row.forced, row.measure) == (claim.value, forced.value, claim.measure), row
        assert (row.verdict, row.message) == (verdict.status, verdict.message), row
        assert row.mistakes == (T.mistakes if claim.measure == "mistakes" else T.expected_mistakes), row
        assert row.bound_source == (claim.source if claim.stated else claim.reason)


def test_rows_carry_the_closed_form_bounds_of_the_finite_class_learners(default_report):
    report, _ = default_report
    by_name = {H.describe(): H for H in default_classes()}
    closed_form = {"Consistent": lambda H: H.n_hypotheses - 1, "Halving": lambda H: math.log2(H.n_hypotheses),
                   "SOA": littlestone_dimension}
    rows = [r for r in report.rows if r.learner in closed_form]
    assert {(r.learner, r.class_name) for r in rows} == {(L, C) for L in closed_form for C in by_name}
    for row in rows:
        H = by_name[row.class_name]
        assert row.bound == pytest.approx(closed_form[row.learner](H))
        assert row.mistakes <= row.bound + 1e-9


def test_walker_rows_state_that_ldim_is_forced(default_report):
    report, _ = default_report
    by_name = {H.describe(): H for H in default_classes()}
    walker_rows = [r for r in report.rows if r.adversary == "ShatteredTreeWalker" and r.learner in ("Consistent", "Halving", "SOA")]
    assert len(walker_rows) == len(by_name) * len(FINITE_LEARNERS)
    for row in walker_rows:
        ldim = littlestone_dimension(by_name[row.class_name])
        assert row.forced == ldim
        assert row.mistakes == ldim


@pytest.mark.parametrize("N", [10, 15])  # N + 1 not a power of two, and one that is
def test_closed_form_lower_bounds_are_stated(N):
    n = 4
    report = run_check([classes.thresholds(N), classes.monotone_disjunctions(n)], FINITE_LEARNERS)
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
    H = classes.thresholds(7)
    report = run_check([H], adversaries=[ObliviousCoin])
    applicable = [L.name for L in registry.entries("learner") if _builds("learner", L, H) is not None]
    assert [r.learner for r in report.rows] == applicable and len(applicable) > 3
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


class _EntryPoint:
    """An entry point of the group mistakebound.players, as another installed package would declare it."""

    def __init__(self, name, target):
        self.name, self.target = name, target

    def load(self):
        return self.target


@pytest.fixture
def plug_in(monkeypatch):
    """Register players as plugins of the registry (the way another package adds its players)."""

    def register(*players):
        monkeypatch.setattr(importlib.metadata, "entry_points",
                            lambda group=None: [_EntryPoint(p.__name__, p) for p in players])
        registry._plugin_entries.cache_clear()

    yield register
    registry._plugin_entries.cache_clear()


def test_main_check_exits_1_on_a_broken_bound(monkeypatch, capsys, plug_in):
    H = breaking_class()
    plug_in(TieZeroHalving)
    monkeypatch.setattr(selfcheck, "default_classes", lambda: (H,))
    assert main(["check"]) == 1
    out = capsys.readouterr().out
    broken_lines = [line for line in out.splitlines() if "BROKEN" in line]
    assert len(broken_lines) >= 1 and all(line.startswith("TieZeroHalving") for line in broken_lines)
    assert out.strip().splitlines()[-1].endswith(f"{len(broken_lines)} broken")
    assert "TieZeroHalving: a false claim: Ldim(H)" in out  # the legend names the claim's source


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


def test_main_check_exits_1_on_an_error(monkeypatch, capsys, plug_in):
    plug_in(RaisingLearner)
    monkeypatch.setattr(selfcheck, "default_classes", lambda: (classes.thresholds(3),))
    assert main(["check"]) == 1
    captured = capsys.readouterr()
    assert "deliberate failure" in captured.out and "Traceback" not in captured.out + captured.err
    assert all(line.startswith("RaisingLearner") for line in captured.out.splitlines() if " ERROR " in line)


# ------------------------------------------------------------------------------- the table
def test_table_is_aligned_with_a_header_and_two_decimal_log_bounds():
    H = classes.singletons(6)
    report = run_check([H], FINITE_LEARNERS, [OppositeLabel])
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
        Scenario("L", "A", "s1", lambda seed: Outcome(value=seed + 2, bound=Bound(3)), "mistakes"),
        Scenario("L", "A", "s2", lambda seed: Outcome(value=4, bound=Bound(3, "regret")), "regret"),
        Scenario("L", "A", "s3", lambda seed: Outcome(value=1, forced=Bound(2)), "mistakes"),
        Scenario("L", "A", "s4", boom),
        Scenario("L", "A", "s5", lambda seed: Outcome(value=1, bound=3)),  # a claim is a Bound, not a number
        Scenario("L", "A", "s6", lambda seed: Outcome(value=2, bound=Bound(2, source="T"), forced=Bound(3))),
        Scenario("L", "A", "s7", lambda seed: Outcome(value=2, bound=Bound.none("no theorem"))),
    ]
    report = run_scenarios(scenarios, seed=1)
    assert [r.verdict for r in report.rows] == ["ok", "BROKEN", "BROKEN", "ERROR", "ERROR", "BROKEN", "no bound"]
    assert report.rows[0].mistakes == 3 and report.rows[1].measure == "regret"
    assert "RuntimeError" in report.rows[3].message
    assert "bound" in report.rows[4].message
    assert report.rows[5].message.startswith("mistakes 2 < forced 3")
    assert report.rows[6].bound_source == "no theorem"
    assert "[regret]" in report.format_table()


def test_every_shipped_scenario_holds():
    from mistakebound.verification.selfcheck import run_scenarios

    report = run_scenarios(seed=0)
    assert report.ok, report.format_table()


# ------------------------------------------------------------------ players in every form, spaces, the legend
def test_players_by_name_type_factory_instance_or_import_path_play_the_same_game():
    H = classes.thresholds(7)
    learners = ["halving", "HALVING", Halving, lambda H: Halving(H), Halving(H), "mistakebound.learners:Halving"]
    adversaries = ["binary-search-threshold", BinarySearchThreshold, BinarySearchThreshold(),
                   "mistakebound.adversaries:BinarySearchThreshold"]
    report = run_check([H], learners, adversaries)
    assert len(report.rows) == len(learners) * len(adversaries)
    assert {(r.mistakes, r.bound, r.forced, r.verdict) for r in report.rows} == {(3, 3.0, 3, "ok")}
    assert [r.learner for r in report.rows[::len(adversaries)]][:3] == ["Halving", "Halving", "Halving"]
    assert {r.adversary for r in report.rows} == {"BinarySearchThreshold"}


def test_an_unknown_player_name_is_an_error_row():
    report = run_check([classes.thresholds(3)], ["SOA"], ["no-such-adversary"])
    (row,) = report.rows
    assert row.verdict == "ERROR" and "unknown name 'no-such-adversary'" in row.message
    assert row.adversary == "no-such-adversary" and row.learner == "SOA"
    report = run_check([classes.thresholds(3)], ["no-such-learner"], ["OppositeLabel"])
    (row,) = report.rows
    assert row.verdict == "ERROR" and "unknown name 'no-such-learner'" in row.message
    assert row.learner == "no-such-learner" and not report.ok
    # a known adversary that cannot be built: the row names it as the registry does, the message says why
    report = run_check([classes.thresholds(3)], ["SOA"], ["obliviouscoin(labelz=coin)"])
    (row,) = report.rows
    assert (row.adversary, row.verdict) == ("ObliviousCoin", "ERROR") and "labelz" in row.message


def test_spaces_are_checked_with_the_players_that_apply():
    report = run_check(["experts:4"], rounds=50)
    assert report.ok, report.format_table()
    rows = {(r.learner, r.adversary): r for r in report.rows}
    wm = rows[("WeightedMajority", "RandomExpertLosses")]
    assert wm.measure == "expected mistakes" and wm.bound is not None and "Theorem 21.11" in wm.bound_source
    assert wm.mistakes <= wm.bound
    assert ("Halving", "RandomExpertLosses") not in rows  # a learner of finite classes does not play on experts
    assert all(r.class_name == "experts(d=4)" for r in report.rows)


def test_the_legend_is_built_from_the_rows():
    report = run_check([classes.thresholds(3)], [SOA, Halving], [ShatteredTreeWalker, ObliviousCoin])
    legend = report.legend()
    lines = legend.splitlines()
    for row in report.rows:
        assert f"  {row.learner}: {row.bound_source}" in lines
        if row.forced is not None:
            assert f"  {row.adversary}: {row.forced_by}" in lines
    assert "ObliviousCoin" not in legend  # it states nothing it forces
    assert "Consistent" not in legend  # not in the rows
    empty = CheckReport(rows=[CheckRow("L", "A", "C", mistakes=1, bound=None, verdict="no bound")]).legend()
    assert empty.count("(none stated)") == 2


@define
class NotApplicableClaim(Learner):
    """Plays, but its claim raises NotApplicableError (instead of returning Bound.none with the reason)."""

    H: HypothesisClass

    def predict_one(self, x: Any) -> int:
        return 1

    def learn_one(self, x: Any, y: int) -> None:
        pass

    def bound(self, setting, *, rounds=None, realizable=True, transcript=None):
        raise NotApplicableError("no bound here")


def test_a_claim_that_raises_is_an_error_row_never_a_missing_row():
    report = run_check([classes.thresholds(3)], [NotApplicableClaim, RaisingClaim], [OppositeLabel])
    assert [(r.learner, r.verdict) for r in report.rows] == [("NotApplicableClaim", "ERROR"), ("RaisingClaim", "ERROR")]
    assert "no bound here" in report.rows[0].message
    assert "ClaimError" in report.rows[1].message and "ZeroDivisionError" in report.rows[1].message


@define
class RaisingClaim(NotApplicableClaim):
    def bound(self, setting, *, rounds=None, realizable=True, transcript=None):
        return 1 / 0


def test_rows_are_judged_with_the_one_tolerance():
    # claims 5e-8 under the measured mistakes are broken, 5e-10 under them kept (TOLERANCE = 1e-9)
    from tests.test_sweep_players import JustOver, JustUnder

    report = run_check([classes.thresholds(7)], [JustUnder, JustOver], [OppositeLabel, BinarySearchThreshold])
    assert [(r.learner, r.verdict) for r in report.rows] == [
        ("JustUnder", "BROKEN"), ("JustUnder", "BROKEN"), ("JustOver", "ok"), ("JustOver", "ok")]


# ------------------------------------------------------------------ check under the game's other settings (issue 23)
@pytest.mark.parametrize("argv, labels", [(["--labels", "3", "--noise", "1"], 3),
                                          (["--labels", "3", "--feedback", "bandit", "--noise", "1"], 3)])
def test_check_under_rules_plays_the_grid_under_them_with_the_players_built_for_them(capsys, argv, labels):
    from mistakebound.game.rules import Rules
    from mistakebound.interfaces.cli import main
    from mistakebound.theory.game_values import game_value
    from mistakebound.verification.selfcheck import default_classes

    code = main(["check", *argv])
    out = capsys.readouterr().out
    assert code == 0 and "all bounds hold" in out.splitlines()[-1]
    given = dict(zip(argv[::2], argv[1::2]))
    feedback, noise = given.get("--feedback", "full"), int(given.get("--noise", 0))
    for H in default_classes(labels=labels):
        # GameSOA, built by the registry for the rules, meets the game's value, its claim, against GameMinimax
        value = game_value(H, Rules(labels=labels, feedback=feedback, noise=noise)).value
        rows = [line.split() for line in out.splitlines() if line.startswith("GameSOA ") and "GameMinimax(" in line
                and f" {H.describe()} " in line]
        assert rows and int(rows[0][-4]) == value == int(rows[0][-3]), (H.describe(), rows)
    if labels == 3:  # players of two labels give no row on classes of three
        assert not any(line.startswith(("Halving ", "SOA ")) for line in out.splitlines())
    assert "TSeparable" not in out and "experts" not in out  # the scenario suites are the textbook's


def test_run_check_under_rules_on_two_labels_reads_claims_for_them():
    from mistakebound.game import classes
    from mistakebound.game.rules import Rules

    H = classes.thresholds(7)
    report = run_check([H], ["GameSOA", "Halving", "SOA"], ["GameMinimax", "OppositeLabel"], rules=Rules(noise=1))
    rows = {(r.learner, r.adversary): r for r in report.rows}
    assert report.ok and set(rows) == {("GameSOA", "GameMinimax(noise=1)"), ("Halving", "GameMinimax(noise=1)"),
                                       ("SOA", "GameMinimax(noise=1)")}  # OppositeLabel plays no noisy game
    assert rows[("GameSOA", "GameMinimax(noise=1)")].bound == rows[("GameSOA", "GameMinimax(noise=1)")].mistakes == 5
    assert rows[("Halving", "GameMinimax(noise=1)")].bound is None  # Theorem 21.3 is for the realizable game
    assert rows[("SOA", "GameMinimax(noise=1)")].forced == 5
