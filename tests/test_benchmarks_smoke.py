"""Smoke run of ``python -m benchmarks``: it runs, writes its JSON and plots, and agrees with the baseline.

No timing is asserted; benchmarks are not tests.  What is asserted is that every case
ran, every kind of case is exercised, the "hard" classes are hard, the scaling plots
are written, and wherever the textbook baseline finished, it computed the same value.
"""

from __future__ import annotations

import doctest
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

import benchmarks.plots
import benchmarks.profile_table
import benchmarks.suite
from mistakebound.theory.textbook import alphabeta_ldim, textbook_ldim
from benchmarks.plots import FIGURES, family_series
from benchmarks.suite import KINDS, cases, hard_random

ROOT = Path(__file__).resolve().parents[1]
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def smoke(tmp_path_factory):
    """One ``--smoke`` run: (process, payload, plot folder)."""
    folder = tmp_path_factory.mktemp("bench")
    out, plots = folder / "b.json", folder / "plots"
    proc = subprocess.run(
        [sys.executable, "-m", "benchmarks", "--smoke", "--out", str(out), "--plots", str(plots)],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc, json.loads(out.read_text()), plots


def test_smoke_run_writes_one_record_per_case_and_agrees_with_the_baseline(smoke):
    proc, payload, _ = smoke
    records = payload["cases"]
    assert [r["case"] for r in records] == [c.name for c in cases(smoke=True)]
    for r in records:
        assert isinstance(r["median_s"], float) and math.isfinite(r["median_s"]), r
        assert isinstance(r["peak_mib"], float) and r["peak_mib"] >= 0, r
        assert r["mismatch"] is None, r
    finished = [r for r in records if r["baseline_status"] == "ok"]
    assert finished, "no baseline finished in smoke mode: the cross-check checked nothing"
    for r in finished:
        assert r["baseline_result"] == r["result"], r
    assert "tracemalloc" in proc.stdout


def test_smoke_run_exercises_every_kind_of_case(smoke):
    _, payload, _ = smoke
    assert {r["kind"] for r in payload["cases"]} == set(KINDS)
    games = [r for r in payload["cases"] if r["kind"] == "play"]
    assert {r["case"].split()[1] for r in games} >= {"SOA", "Halving", "Consistent", "Perceptron"}
    for r in games:
        assert r["rounds_per_s"] > 0, r


def test_hard_cases_have_ldim_at_least_3_below_log2_size(smoke):
    _, payload, _ = smoke
    hard = [r for r in payload["cases"] if r["kind"] == "hard"]
    assert hard
    for r in hard:
        assert r["log2_n_hypotheses"] == pytest.approx(math.log2(r["n_hypotheses"]))
        assert r["result"] <= r["log2_n_hypotheses"] - 3, r
        assert "NOT HARD" not in r["note"], r


def test_baseline_is_skipped_exactly_past_an_unfinished_size_of_the_same_family(smoke):
    _, payload, _ = smoke
    killed: dict[tuple, str] = {}
    n_skipped = 0
    for r in payload["cases"]:
        key = (r["kind"], r["family"])
        if r["baseline_status"] is None:
            continue
        if r["family"] is not None and key in killed:
            assert r["baseline_status"] == "skipped", r
            assert killed[key] in r["note"], r
            n_skipped += 1
        else:
            assert r["baseline_status"] != "skipped", r
            if r["baseline_status"] == "timeout" and r["family"] is not None:
                killed[key] = r["case"]
    assert n_skipped, "smoke mode skipped no baseline: the rule was not exercised"


def test_smoke_run_writes_nonempty_scaling_plots(smoke):
    pytest.importorskip("matplotlib")
    _, payload, plots = smoke
    for name, kinds in FIGURES.items():
        if family_series(payload["cases"], kinds):
            data = (plots / f"smoke_{name}").read_bytes()
            assert data.startswith(PNG_MAGIC) and len(data) > 1000, name
    assert (plots / "smoke_scaling_ldim.png").exists()
    assert not (plots / "scaling_ldim.png").exists(), "a smoke run must not replace a full run's figures"


def test_family_series_separates_finished_and_killed_baselines():
    def rec(n, status, b=None, kind="ldim", family="f", ab_status="ok", ab=0.25):
        return {"kind": kind, "family": family, "n_hypotheses": n, "median_s": n / 1000,
                "baseline_status": status, "baseline_s": b, "alphabeta_status": ab_status,
                "alphabeta_s": ab if ab_status == "ok" else None}

    records = [rec(4, "ok", 0.5), rec(8, "timeout", ab=0.75), rec(16, "skipped", ab_status="timeout"),
               rec(4, "ok", 1.0, kind="vc"), rec(4, "ok", 1.0, family=None)]
    assert family_series(records, ("ldim",)) == {
        "f": {"ours": [(4, 0.004), (8, 0.008), (16, 0.016)], "baseline": [(4, 0.5)], "capped": [8],
              "alphabeta": [(4, 0.25), (8, 0.75)], "alphabeta_capped": [16]}
    }


@pytest.mark.parametrize("n, m, density, seed", [(40, 16, 0.1, 0), (100, 64, 0.03, 3), (8, 3, 0.5, 1)])
def test_hard_random_draws_distinct_rows_with_ldim_of_the_textbook(n, m, density, seed):
    H = hard_random(n, m, density, seed=seed)
    rows = [tuple(r) for r in H.matrix.tolist()]
    assert len(rows) == n == len(set(rows))
    assert H.n_instances == m
    assert (H.matrix == hard_random(n, m, density, seed=seed).matrix).all()
    if n <= 40:
        import mistakebound as mb

        assert mb.littlestone_dimension(H) == textbook_ldim(H.matrix)


def test_hard_random_refuses_more_rows_than_patterns():
    from mistakebound.foundations.errors import InvalidArgumentError

    with pytest.raises(InvalidArgumentError, match="n_hypotheses"):
        hard_random(9, 3, 0.5, seed=0)
    with pytest.raises(InvalidArgumentError, match="density"):
        hard_random(4, 3, 0.0, seed=0)


def test_every_full_family_has_at_least_four_growing_sizes():
    groups: dict[tuple, list[int]] = {}
    for c in cases():
        if c.family is not None:
            groups.setdefault((c.kind, c.family), []).append(c)
    assert groups
    for key, members in groups.items():
        assert len(members) >= 4, key
        sizes = [c.build().n_hypotheses for c in members]
        assert sizes == sorted(set(sizes)), (key, sizes)
    assert {kind for kind, _ in groups} >= {"ldim", "hard", "vc"}


@pytest.mark.parametrize("module", [benchmarks.suite, benchmarks.plots, benchmarks.profile_table])
def test_docstring_examples(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0


def test_worst_case_speed_counts_one_position_per_version_space_of_singletons():
    """Halving's plain search on singletons(d) reaches 2^d - 1 version spaces (the benchmarks page); the rate is
    positions / seconds (the fast search skips the moves the majority's bound rules out)."""
    from benchmarks.worst_case_speed import measure
    from mistakebound.game import classes
    from mistakebound.learners.halving import Halving

    r = measure(lambda: classes.singletons(5), Halving, None, repeats=1, fast=False)
    assert r["value"] == 1 and r["positions"] == 2**5 - 1
    fast = measure(lambda: classes.singletons(5), Halving, None, repeats=1)
    assert fast["value"] == 1 and fast["positions"] < r["positions"]
    assert r["positions_per_second"] == pytest.approx(r["positions"] / r["seconds"])


def test_the_second_baseline_runs_beside_the_first_on_every_ldim_case(smoke):
    _, payload, _ = smoke
    for r in payload["cases"]:
        if r["kind"] in ("ldim", "hard"):
            assert r["alphabeta_status"] in ("ok", "timeout"), r
            if r["alphabeta_status"] == "ok":
                assert r["alphabeta_ratio"] > 0 and r["mismatch"] is None, r


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402



@settings(max_examples=200, deadline=None)
@given(st.integers(1, 10).flatmap(lambda n: st.integers(1, 6).flatmap(
    lambda m: st.lists(st.lists(st.integers(0, 1), min_size=m, max_size=m), min_size=n, max_size=n))))
def test_the_alphabeta_baseline_agrees_with_the_textbook_recursion(rows):
    assert alphabeta_ldim(rows) == textbook_ldim(rows)


def test_the_profile_table_prints_the_doors_values_for_every_parameter(capsys):
    from mistakebound.theory.profile import PARAMETERS, class_profile

    assert benchmarks.profile_table.main(["--smoke"]) == 0
    lines = capsys.readouterr().out.splitlines()
    header = [c.strip() for c in lines[0].strip("|").split("|")]
    what = [p for p in PARAMETERS if p != "value"]
    assert header == ["class", *what]
    for line, (spec, H) in zip(lines[2:], benchmarks.profile_table.cases(smoke=True)):
        cells = [c.strip() for c in line.strip("|").split("|")]
        assert cells[0] == spec
        P = class_profile(H, what=what)
        for name, cell in zip(what, cells[1:]):
            assert cell.split(" (")[0] == str(P.result(name).value), (spec, name, cell)


@pytest.mark.parametrize("name", ["play_speed", "worst_case_speed", "soa_questions"])
def test_the_speed_benchmarks_run_in_smoke_mode(name, capsys):
    """They check their own modes against each other (identical transcripts, lines, mistakes) as they run."""
    import importlib

    assert importlib.import_module(f"benchmarks.{name}").main(["--smoke"]) == 0
    assert "# median of 1" in capsys.readouterr().out


def test_the_call_cost_benchmark_runs_in_smoke_mode(capsys):
    """One row per way of asking, each a positive number of microseconds (it asserts its own answers)."""
    import benchmarks.call_cost

    assert benchmarks.call_cost.main(["--smoke"]) == 0
    out = capsys.readouterr().out.splitlines()
    for mode in benchmarks.call_cost.MODES:
        line = next(line for line in out if line.startswith(mode + " "))
        assert float(line[len(mode):].split()[0]) > 0, line


@pytest.fixture(scope="module")
def goals(tmp_path_factory):
    """One ``python -m benchmarks.engine_goals --smoke --json OUT`` run: (printed lines, payload)."""
    out = tmp_path_factory.mktemp("goals") / "goals.json"
    proc = subprocess.run([sys.executable, "-m", "benchmarks.engine_goals", "--smoke", "--json", str(out)],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout.splitlines(), json.loads(out.read_text())


def test_the_goal_table_has_every_goal_once_with_a_number_and_a_verdict_that_follows_from_it(goals):
    import operator

    from benchmarks.engine_goals import GOALS

    lines, payload = goals
    assert lines[0].startswith("machine: ")
    rows = [line for line in lines if line.startswith("| ") and line[2:3].isdigit()]
    assert [row.split(".")[0][2:] for row in rows] == [key for key, *_ in GOALS]
    assert [g["key"] for g in payload["goals"]] == [key for key, *_ in GOALS]
    compare = {"<": operator.lt, "<=": operator.le, ">=": operator.ge}
    for g, row in zip(payload["goals"], rows):
        assert isinstance(g["value"], (int, float)) and math.isfinite(g["value"]), g
        assert g["met"] in ("yes", "no"), g
        op, bound = g["target"].split()
        assert g["met"] == ("yes" if compare[op](g["value"], float(bound)) else "no"), g
        assert row.rstrip(" |").endswith(g["met"]), row


def test_the_goal_ratios_are_those_of_their_own_measurements(goals):
    """Goal 1 divides the other order's seconds by the natural order's; goal 10 takes the extremes of the
    suite's records (a baseline killed at the cap counting with its lower bound)."""
    _, payload = goals
    g = {row["key"]: row for row in payload["goals"]}
    for key in ("1a", "1b"):
        natural, other = g[key]["record"]
        assert g[key]["value"] == pytest.approx(other["seconds"] / natural["seconds"]), key
    records = g["10a"]["record"]["records"]
    assert records and all(r["kind"] in ("ldim", "hard") and r["mismatch"] is None for r in records)
    for key, field, pick in (("10a", "alphabeta", min), ("10b", "alphabeta", max), ("10c", "", min), ("10d", "", max)):
        ratios = [r.get(f"{field}_ratio" if field else "ratio") or r.get(f"{field}_ratio_at_least" if field else
                  "ratio_at_least") for r in records]
        assert g[key]["value"] == pytest.approx(pick(x for x in ratios if x is not None)), key
    assert g["4c"]["value"] == pytest.approx(g["4c"]["record"]["serial_s"] / g["4c"]["record"]["threads_s"])
