"""Sweeps: the same records on every executor, failing cells, violations, summary, plots."""

from __future__ import annotations

import io
import math
import sys

import pytest

from mistakebound.theory.textbook import textbook_ldim
from mistakebound import HypothesisClass, play, worst_case_mistakes
from mistakebound.interfaces.cli import main
from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.game.registry import build, load_setting
from mistakebound.verification.claims import TOLERANCE, forced_bound, judge, judge_transcript, measured, stated_bound
from mistakebound.interfaces.sweep import DaskDependencyError, SweepConfig, format_summary, read_records, sweep
from mistakebound.interfaces.sweep.executors import execute
from tests.test_sweep_players import PREFIX

CONFIG = {"grid": [
    {"kind": "game", "learners": ["Halving", "SOA", "ExpertsFromClass", PREFIX + "Raising"],
     "adversaries": ["OppositeLabel", "BinarySearchThreshold"], "classes": ["thresholds", "singletons"],
     "sizes": [3, 6], "seeds": [0, 1], "horizons": [12]},
    {"kind": "search", "search": "worst_case", "learners": ["Halving", "Consistent"],
     "classes": ["singletons"], "sizes": [3, 9], "max_nodes": 30},
    {"kind": "search", "search": "ldim", "classes": ["power_set", "thresholds"], "sizes": [2, 3]},
]}
TIMING = ("seconds", "peak_kib")


def _inputs_and_outputs(records):
    return [{k: v for k, v in r.items() if k not in TIMING} for r in records]


@pytest.fixture(scope="module")
def inprocess():
    return sweep(CONFIG, executor="inprocess").records


def _replayed(r):
    """A game record's game played again from its names, and its claims and verdict from the claims module."""
    H = load_setting(r["class"])
    learner = build("learner", r["learner"], H, rounds=r["horizon"])
    adversary = build("adversary", r["adversary"], H, rounds=r["horizon"])
    forced = forced_bound(adversary, H, learner=learner, rounds=r["horizon"], realizable=r["realizable"])
    T = play(learner, adversary, H, rounds=r["horizon"], seed=r["seed"], realizable=r["realizable"])
    claim = stated_bound(learner, H, rounds=r["horizon"], realizable=r["realizable"], transcript=T)
    return T, claim, forced, judge_transcript(T, claim, forced)


def _assert_record_is_judge(r, T, claim, forced, verdict):
    assert (r["mistakes"], r["rounds"]) == (T.mistakes, len(T))
    assert r["expected_mistakes"] == pytest.approx(T.expected_mistakes)
    assert r["measured"] == measured(T, claim.measure)
    assert (r["bound"], r["bound_measure"]) == ((claim.value, claim.measure) if claim.stated else (None, None))
    assert r["forced"] == (forced.value if forced.stated else None)
    assert (r["verdict"], r["ratio"], r["note"] or "") == (verdict.status, verdict.ratio, verdict.message)


def test_game_records_agree_with_direct_play_and_searches_with_independent_oracles(inprocess):
    games = [r for r in inprocess if r["kind"] == "game" and r["verdict"] != "error"]
    assert len(games) == 3 * 2 * 2 * 2 * 2
    for r in games:
        T, claim, forced, verdict = _replayed(r)
        _assert_record_is_judge(r, T, claim, forced, verdict)
        # and independently of judge: these learners' claims hold in these realizable games
        assert r["verdict"] == "ok" and r["measured"] <= r["bound"] + TOLERANCE
        if r["learner"] == "ExpertsFromClass":  # randomized: judged on its expected mistakes
            assert r["bound_measure"] == "expected mistakes" and r["measured"] == pytest.approx(T.expected_mistakes)
    for r in (r for r in inprocess if r["search"] == "ldim"):
        assert r["exact"] and r["ldim"] == textbook_ldim(load_setting(r["class"]).matrix)
        assert r["mistakes"] is None and r["vc"] is None  # a search's value has its own column, never a game's
    for r in (r for r in inprocess if r["search"] == "worst_case"):
        H = load_setting(r["class"])
        learner = build("learner", r["learner"], H)
        W = worst_case_mistakes(learner, H, max_nodes=30)
        claim = stated_bound(learner, H)
        assert (r["exact"], r["lower"], r["upper"]) == (W.exact, W.lower, W.upper)
        assert (r["verdict"], r["bound"]) == (judge(W, claim).status, claim.value)
        # a search out of budget proved only its interval: the claim inside it is never "ok"
        if not W.exact:
            assert r["verdict"] == ("BROKEN" if W.lower > claim.value + TOLERANCE else "undecided")
            assert r["worst_case"] is None and r["mistakes"] is None and r["upper"] == float("inf")
        else:
            assert r["worst_case"] == W.lower and r["mistakes"] is None
    assert any(not r["exact"] for r in inprocess if r["search"] == "worst_case"), "no partial search tested"


def test_a_failing_cell_records_its_error_and_the_sweep_goes_on(inprocess):
    failed = [r for r in inprocess if r["learner"] == PREFIX + "Raising"]
    assert len(failed) == 2 * 2 * 2 * 2
    for r in failed:
        assert r["verdict"] == "error"
        assert r["error_type"] == "PlayerError (RuntimeError)" and "planted failure" in r["error"]
        assert r["mistakes"] is None
    assert len(inprocess) == len(SweepConfig.from_dict(CONFIG).cells())
    assert all(r["verdict"] != "error" for r in inprocess if r["learner"] != PREFIX + "Raising")


def test_records_are_the_same_on_a_process_pool_and_on_a_dask_local_cluster(inprocess):
    import distributed  # in the test extra: a missing dask fails here (tests/test_environment.py)
    expected = _inputs_and_outputs(inprocess)
    pool = sweep(CONFIG, executor="processes", workers=2, batch=3)
    assert pool.executor == "processes"
    assert _inputs_and_outputs(pool.records) == expected
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None, silence_logs=40) as cluster:
        result = sweep(CONFIG, executor="dask", scheduler=cluster.scheduler_address, batch=4)
        assert len(cluster.scheduler.workers) == 2
    assert result.executor == "dask"
    assert _inputs_and_outputs(result.records) == expected
    assert all(r["seconds"] >= 0 and r["peak_kib"] >= 0 for r in result.records)


def test_dask_missing_is_a_framework_error_naming_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed -> ImportError
    cells = SweepConfig.from_dict(CONFIG).cells()[:2]
    with pytest.raises(DaskDependencyError, match=r"pip install 'mistakebound\[dask\]'"):
        execute(cells, executor="dask")
    with pytest.raises(InvalidArgumentError, match="scheduler: only the dask executor"):
        execute(cells, executor="processes", scheduler="tcp://127.0.0.1:1")


def test_summary_finds_a_planted_violation_and_prints_its_replay_command(tmp_path):
    config = tmp_path / "broken.toml"
    config.write_text(f'[[grid]]\nlearners = ["Halving", "{PREFIX}Overconfident"]\n'
                      'adversaries = ["OppositeLabel"]\nclasses = ["thresholds"]\nsizes = [4, 8]\n'
                      'seeds = [3]\nhorizons = [15]\n')
    out, plots = tmp_path / "r.csv", tmp_path / "plots" / "new"  # made by the command
    stdout = io.StringIO()
    sys_stdout, sys.stdout = sys.stdout, stdout
    try:
        code = main(["sweep", str(config), "--out", str(out), "--executor", "inprocess", "--plot", str(plots)])
    finally:
        sys.stdout = sys_stdout
    text = stdout.getvalue()
    assert code == 1, text
    records = read_records(out)
    broken = [r for r in records if r["verdict"] == "BROKEN"]
    assert {r["learner"] for r in broken} == {PREFIX + "Overconfident"} and len(broken) == 2
    for r in broken:
        H = load_setting(r["class"])
        T = play(build("learner", "Consistent", H), build("adversary", "OppositeLabel", H), H, rounds=15, seed=3)
        assert r["mistakes"] == T.mistakes > 0 == r["bound"]
        assert (f"replay: mistakebound play {PREFIX}Overconfident OppositeLabel {r['class']} "
                f"--rounds 15 --seed 3") in text
    assert "2 bound(s) broken" in text
    # the per-learner table: Halving's worst ratio is the largest mistakes / log2|H| over its cells
    halving = [r for r in records if r["learner"] == "Halving"]
    worst = max(r["mistakes"] / r["bound"] for r in halving)
    row = next(line for line in text.splitlines() if line.startswith("Halving "))
    assert row.split()[2] == f"{worst:.3g}"
    # one figure per (class family, adversary): thresholds vs OppositeLabel
    files = sorted(p.name for p in plots.iterdir())
    assert files == ["thresholds-OppositeLabel.png"]
    assert (plots / files[0]).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_clean_sweep_exits_0_and_bad_input_exits_2(tmp_path, capsys):
    config = tmp_path / "ok.toml"
    config.write_text('[[grid]]\nlearners = ["SOA"]\nadversaries = ["ShatteredTreeWalker"]\n'
                      'classes = ["thresholds"]\nsizes = [3]\n')
    assert main(["sweep", str(config), "--executor", "inprocess", "--no-progress"]) == 0
    assert (tmp_path / "ok.csv").exists()  # default --out: CONFIG with .csv
    assert "no bound broken in 1 cells" in capsys.readouterr().out
    config.write_text('[[grid]]\nlearners = ["SAO"]\nadversaries = ["ShatteredTreeWalker"]\n'
                      'classes = ["thresholds"]\nsizes = [3]\n')
    assert main(["sweep", str(config)]) == 2
    err = capsys.readouterr().err
    assert "grid[0].learners[0]: unknown name 'SAO'; did you mean 'SOA'" in err and len(err.splitlines()) == 1
    assert main(["sweep", str(tmp_path / "none.toml")]) == 2
    assert main(["sweep", str(config), "--scheduler", "tcp://127.0.0.1:1", "--executor", "processes"]) == 2
    (tmp_path / "other.csv").write_text("a,b\n1,2\n")
    config.write_text(config.read_text().replace("SAO", "SOA"))
    assert main(["sweep", str(config), "--out", str(tmp_path / "other.csv")]) == 2
    assert "not a sweep results file" in capsys.readouterr().err
    (tmp_path / "a-file").write_text("")
    assert main(["sweep", str(config), "--plot", str(tmp_path / "a-file")]) == 2
    assert "--plot: cannot use" in capsys.readouterr().err


def test_an_unwritable_results_file_is_refused_in_one_line_before_any_cell_runs(tmp_path, capsys, monkeypatch):
    from mistakebound.interfaces.sweep import cells

    config = tmp_path / "ok.toml"
    config.write_text('[[grid]]\nlearners = ["SOA"]\nadversaries = ["ShatteredTreeWalker"]\n'
                      'classes = ["thresholds"]\nsizes = [3]\n')
    ran = []
    monkeypatch.setattr(cells, "_game", lambda cell, record: ran.append(cell))
    read_only = tmp_path / "ro.csv"
    read_only.write_text("")
    read_only.chmod(0o444)
    for out, why in [("/proc/x.csv", "cannot create files in '/proc'"), (str(tmp_path), "ending in .csv"),
                     (str(tmp_path / "no" / "x.csv"), "does not exist"), (str(read_only), "is read-only (mode 0444)")]:
        assert main(["sweep", str(config), "--out", out, "--executor", "inprocess", "--no-progress"]) == 2, out
        err = capsys.readouterr().err
        assert err.startswith("mistakebound sweep: error: --out: ") and why in err and len(err.splitlines()) == 1, err
    assert ran == []  # refused before the work


def test_format_summary_lists_errors_with_their_type(inprocess):
    text = format_summary(inprocess)
    assert f"{16} cell(s) failed:" in text and "PlayerError (RuntimeError)" in text and "... and 11 more" in text


def test_the_throughput_benchmark_runs_in_smoke_mode_and_every_executor_agrees():
    """The benchmark's code path (dask skipped: a LocalCluster is tested above, and costs seconds)."""
    import subprocess
    from pathlib import Path

    proc = subprocess.run([sys.executable, "-m", "benchmarks.sweep_throughput", "--smoke", "--no-dask"],
                          cwd=Path(__file__).resolve().parents[1], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0 and "MISMATCH" not in proc.stdout, proc.stdout + proc.stderr
    for row in ("in-process", "process pool, 1 worker", "process pool, 2 workers"):
        assert row in proc.stdout


def test_a_player_that_does_not_apply_is_recorded_as_n_a_not_as_an_error():
    # BasisVectorForcer needs instances that are 0/1 vectors; thresholds have integers
    config = {"grid": [{"learners": ["Halving"], "adversaries": ["BasisVectorForcer", "OppositeLabel"],
                        "classes": ["thresholds"], "sizes": [4]}]}
    result = sweep(config, executor="inprocess")
    verdicts = {r["adversary"]: r["verdict"] for r in result.records}
    assert verdicts == {"BasisVectorForcer": "n/a", "OppositeLabel": "ok"}
    assert result.ok and not result.errors


# ------------------------------------------------------------------ the redesign: one verdict, any setting, replays
def test_the_one_tolerance_decides_game_and_search_cells():
    # claims 5e-8 under the measured value are broken, 5e-10 under it are kept: a second, looser
    # or stricter tolerance anywhere in the cells would flip one of them
    config = {"grid": [
        {"learners": [PREFIX + "JustUnder", PREFIX + "JustOver"], "adversaries": ["OppositeLabel"],
         "classes": ["thresholds"], "sizes": [7], "horizons": [10]},
        {"kind": "search", "search": "worst_case", "learners": [PREFIX + "JustUnder", PREFIX + "JustOver"],
         "classes": ["thresholds"], "sizes": [7]},
    ]}
    verdicts = {(r["kind"], r["learner"].split(":")[1]): r["verdict"] for r in sweep(config, executor="inprocess").records}
    assert verdicts == {("game", "JustUnder"): "BROKEN", ("game", "JustOver"): "ok",
                        ("search", "JustUnder"): "BROKEN", ("search", "JustOver"): "ok"}


def test_a_partial_worst_case_search_is_never_ok_from_the_claim():
    # one node: the search proves [lower, inf]; Consistent's true worst case |H| - 1 = its claim
    config = {"grid": [{"kind": "search", "search": "worst_case", "learners": ["Consistent", PREFIX + "Overconfident"],
                        "classes": ["singletons"], "sizes": [5], "max_nodes": 1}]}
    records = {r["learner"]: r for r in sweep(config, executor="inprocess").records}
    honest, planted = records["Consistent"], records[PREFIX + "Overconfident"]
    assert honest["exact"] is False and honest["upper"] == float("inf") and honest["worst_case"] is None
    assert honest["lower"] <= honest["bound"] == 4
    assert honest["verdict"] == "undecided" and "against bound 4" in honest["note"]
    assert planted["lower"] > planted["bound"] == 0 and planted["verdict"] == "BROKEN"
    text = format_summary(list(records.values()))
    row = next(line for line in text.splitlines() if line.startswith("Consistent "))
    assert row.split()[-4:] == ["0", "1", "0", "0"]  # no infra, one undecided, none out of budget, no n/a
    assert row.split()[2:4] == ["-", "-"]  # a lower bound over the claim is no ratio: no worst ratio, no "at"
    assert honest["ratio"] is None and planted["ratio"] is None
    assert "1 bound(s) broken" in text and "mistakebound worst-case tests.test_sweep_players:Overconfident" in text


def test_cells_on_a_space_expert_advice_unrealizable():
    config = {"grid": [{"learners": ["weighted-majority"], "adversaries": ["random-expert-losses"],
                        "classes": ["experts"], "sizes": [2, 4], "seeds": [0, 1], "horizons": [60],
                        "realizable": False}]}
    records = sweep(config, executor="inprocess").records
    assert [(r["class"], r["seed"]) for r in records] == [("experts:2", 0), ("experts:2", 1), ("experts:4", 0),
                                                          ("experts:4", 1)]
    for r in records:
        assert r["learner"] == "WeightedMajority" and r["realizable"] is False
        T, claim, forced, verdict = _replayed(r)
        _assert_record_is_judge(r, T, claim, forced, verdict)
        assert r["bound_measure"] == "regret" and "Theorem 21.11" in claim.source
        assert r["bound"] == pytest.approx((2 * 60 * math.log(int(r["class"][-1]))) ** 0.5)
        assert r["verdict"] == "ok" and r["measured"] == pytest.approx(T.regret)


def test_a_game_cell_of_online_convex_optimisation_records_rounds_and_regret_and_no_mistakes():
    """The record holds what the transcript's totals_record answers: an OCO game's losses have no mistakes."""
    from mistakebound.interfaces.sweep.cells import Cell, run_cell
    from mistakebound.verification.judged import judged_game

    S = load_setting("oco:d=1,radius=1")
    r = run_cell(Cell(kind="game", learner="OnlineGradientDescent", adversary="AlternatingLosses",
                      cls="oco:d=1,radius=1", seed=0, horizon=9))
    T = judged_game("OnlineGradientDescent", "AlternatingLosses", S, rounds=9, seed=0).transcript
    assert r["verdict"] == "ok" and r["error"] is None
    assert (r["rounds"], r["mistakes"], r["expected_mistakes"]) == (9, None, None)
    assert type(r["regret"]) is float and r["regret"] == T.best_fixed_regret() == r["measured"] > 0
    assert r["regret"] == pytest.approx(T.cumulative_curve()[-1])


def test_cells_on_a_class_file(tmp_path, monkeypatch):
    from mistakebound.game.class_files import save_class

    H = HypothesisClass.from_matrix([[0, 0, 1], [0, 1, 1], [1, 1, 1], [0, 0, 0], [1, 0, 1]],
                                    names=["a", "b", "c", "d", "e"])
    path = save_class(H, tmp_path / "mine.csv")
    monkeypatch.chdir(tmp_path)
    for spec in (str(path), "mine.csv"):  # an absolute path, and one relative to the current directory
        config = {"grid": [{"learners": ["Halving", "SOA"], "adversaries": ["OppositeLabel", "ShatteredTreeWalker"],
                            "classes": [spec], "sizes": [3, 4], "horizons": [10]}]}
        records = sweep(config, executor="inprocess").records
        assert len(records) == 4 and {r["class"] for r in records} == {spec}
        assert all(r["size"] is None for r in records)  # a file is a fixed class: the sizes do not apply
        for r in records:
            T, claim, forced, verdict = _replayed(r)
            _assert_record_is_judge(r, T, claim, forced, verdict)
            assert load_setting(r["class"]) == H and r["verdict"] == "ok"
    walker = next(r for r in records if r["learner"] == "SOA" and r["adversary"] == "ShatteredTreeWalker")
    assert walker["mistakes"] == walker["forced"] == textbook_ldim(H.matrix)


LAZY = '''
from mistakebound.learners import Consistent
from mistakebound.verification.claims import Bound


class Lazy(Consistent):
    """Consistent, claiming one mistake at most: false."""

    def bound(self, setting, *, rounds=None, realizable=True, transcript=None):
        return Bound(1, source="planted in the current directory")
'''


@pytest.mark.parametrize("executor", ["inprocess", "processes"])
def test_the_replay_line_of_a_broken_cell_runs_as_printed(tmp_path, monkeypatch, capsys, executor):
    import importlib
    import shlex

    module = f"mylearners_{executor}"
    (tmp_path / f"{module}.py").write_text(LAZY)
    (tmp_path / "lazy.toml").write_text(
        f'[[grid]]\nlearners = ["{module}:Lazy"]\nadversaries = ["OppositeLabel"]\nclasses = ["singletons"]\n'
        'sizes = [4]\nseeds = [2]\nhorizons = [9]\n')
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))  # the registry may add the current directory: undone after
    importlib.invalidate_caches()  # the module was written a moment ago
    code = main(["sweep", "lazy.toml", "--executor", executor, "--workers", "1", "--no-progress"])
    text = capsys.readouterr().out
    assert code == 1, text
    assert f" on {executor} " in text.splitlines()[0]
    (line,) = [line.strip() for line in text.splitlines() if line.strip().startswith("replay: ")]
    command = line.removeprefix("replay: ")
    assert command == f"mistakebound play {module}:Lazy OppositeLabel singletons:4 --rounds 9 --seed 2"
    argv = shlex.split(command)
    assert argv[0] == "mistakebound"
    assert main(argv[1:]) == 1
    replayed = capsys.readouterr().out
    assert "BROKEN (planted in the current directory)" in replayed
    (record,) = read_records(tmp_path / "lazy.csv")
    assert f"mistakes = {record['mistakes']}" in replayed and record["mistakes"] > 1


# ------------------------------------------------------------------ issue 13: honest verdicts, bounded memory
def test_an_ldim_search_out_of_budget_is_budget_not_ok_and_its_lower_bound_is_no_ratio():
    # 50 nodes: Ldim of a 3000 x 30 random class is proven in [1, 10] only; thresholds:7 is exact
    config = {"grid": [{"kind": "search", "search": "ldim", "classes": ["random:3000,30,0.3,0", "thresholds:7"],
                        "sizes": [1], "max_nodes": 50}]}
    partial, exact = sweep(config, executor="inprocess").records
    assert (partial["exact"], partial["lower"], partial["upper"]) == (False, 1.0, 10.0)
    assert partial["verdict"] == "budget" and "raise max_nodes" in partial["note"]
    assert partial["ratio"] is None and partial["ldim"] is None and partial["measured"] is None
    assert exact["verdict"] == "ok" and exact["ratio"] == 1.0 and (exact["ldim"], exact["mistakes"]) == (3, None)
    text = format_summary([partial, exact])
    row = next(line for line in text.splitlines() if line.startswith("(ldim) "))
    assert row.split()[2:4] == ["1", "thresholds:7"]  # the worst ratio of the exact cell only
    assert row.split()[-2:] == ["1", "0"]  # one cell out of budget, no n/a
    assert "1 search(es) out of budget" in text
    # a results file of an older sweep (a partial cell with a ratio) is read the same way
    old = dict(partial, verdict="ok", ratio=5.0)
    assert format_summary([old, exact]).splitlines()[2].split()[2] == "1"


def test_the_class_cache_is_bounded_in_bytes_and_keeps_the_class_in_use(monkeypatch):
    from mistakebound.interfaces.sweep import cells

    cache = cells._ClassCache()
    monkeypatch.setattr(cells, "CLASS_CACHE_BYTES", 40_000)
    specs = [f"thresholds:{n}" for n in (40, 50, 60, 70, 80)]
    sizes = {s: cells._footprint(load_setting(s)) for s in specs}
    assert all(5_000 < b < 40_000 for b in sizes.values())
    for s in specs:
        H = cache.get(s)
        assert H is cache.get(s)  # built once while cached
        assert cache.bytes <= 40_000 and s in cache
    assert len(cache) < len(specs) and cache.bytes == sum(sizes[s] for s in specs if s in cache)
    assert specs[0] not in cache  # least recently used first out
    monkeypatch.setattr(cells, "CLASS_CACHE_BYTES", 1_000)  # smaller than any class: the one in use stays
    cache.get("thresholds:90")
    assert len(cache) == 1 and "thresholds:90" in cache


def test_a_cached_class_written_behind_numpy_is_detected_and_rebuilt():
    import ctypes

    from mistakebound.interfaces.sweep import cells

    cache = cells._ClassCache()
    H = cache.get("thresholds:6")
    assert cache.verify("thresholds:6")
    ctypes.memset(H.matrix.ctypes.data, 1, H.matrix.nbytes)  # what numpy's read-only flag cannot stop
    assert not cache.verify("thresholds:6") and "thresholds:6" not in cache
    rebuilt = cache.get("thresholds:6")
    assert rebuilt is not H and rebuilt == load_setting("thresholds:6")


def _plant_engine(monkeypatch, run) -> None:
    """Every Ldim engine the library's door chooses runs ``run`` instead (a cell must reach it through the door)."""
    from types import SimpleNamespace

    from mistakebound.theory import littlestone

    monkeypatch.setattr(littlestone, "ldim_engine", lambda H, **kw: SimpleNamespace(run=run))
    monkeypatch.setattr(littlestone, "_small_unbudgeted", lambda *args: None)  # the door's shortcut for small classes


def test_a_memory_error_in_a_cell_is_an_infrastructure_error_and_a_player_error_is_not(monkeypatch):
    from mistakebound.interfaces.sweep import cells

    cell = cells.Cell(kind="search", search="ldim", cls="thresholds:5", size=5)

    def out_of_memory(*args, **kwargs):
        raise MemoryError("planted")

    _plant_engine(monkeypatch, out_of_memory)  # in the library's door, which the cell asks
    record = cells.run_cell(cell)
    assert (record["verdict"], record["error_type"]) == ("infra", "MemoryError")
    assert cells.error_record(cell, RuntimeError("x"))["verdict"] == "error"
    assert cells.error_record(cell, MemoryError())["verdict"] == "infra"


def test_a_search_stopped_by_memory_is_an_infrastructure_error_that_keeps_its_proven_bounds(monkeypatch):
    from mistakebound.interfaces.sweep import cells
    from mistakebound.theory.search_protocol import SearchResult

    cell = cells.Cell(kind="search", search="ldim", cls="thresholds:40", size=40)
    _plant_engine(monkeypatch, lambda: SearchResult(lower=2, upper=5, status="memory", nodes=7))
    record = cells.run_cell(cell)
    assert (record["verdict"], record["error_type"]) == ("infra", "InsufficientMemoryError")
    assert "out of memory after 7 nodes" in record["error"] and "runs again on resume" in record["error"]
    assert (record["exact"], record["lower"], record["upper"]) == (False, 2.0, 5.0)  # what it proved is kept
    assert record["ratio"] is None and record["ldim"] is None
    # out of nodes instead: a finished cell, verdict budget (not ok, not an error)
    _plant_engine(monkeypatch, lambda: SearchResult(lower=2, upper=5, status="budget", nodes=7))
    record = cells.run_cell(cell)
    assert (record["verdict"], record["error_type"], record["ratio"]) == ("budget", None, None)


# ------------------------------------------------------------------ issue 21: names never forge a line
def test_the_summary_prints_each_name_of_a_record_on_its_line():
    """A record's names come from a configuration or a results file: a line break in them stays in its row."""
    def record(learner: str, cls: str, adversary: str) -> dict:
        return {"kind": "game", "id": "c1", "learner": learner, "adversary": adversary, "class": cls, "seed": 0,
                "horizon": 3, "realizable": True, "verdict": "BROKEN", "note": "over", "ratio": 1.5, "exact": True,
                "error_type": None, "error": None}

    plain = format_summary([record("L", "c.json", "A"), dict(record("L", "c.json", "A"), id="c2", verdict="error",
                                                              error_type="E", error="e")])
    forged = format_summary([record("L\nx", "c\r\n.json\u2028", "A\x1b[2J"),
                             dict(record("L\nx", "c\n.json", "A\x85"), id="c2\n", verdict="error", error_type="E",
                                  error="e")])
    assert forged.count("\n") == len(forged.splitlines()) - 1 == plain.count("\n")
    assert not set("\r\x1b\u2028\x85") & set(forged)
    assert "L\\nx" in forged and "c\\r\\n.json\\u2028" in forged


# ------------------------------------------------------------------ the setting column (issue 23)
def test_a_grid_plays_each_game_in_each_of_its_rules_and_records_them_in_the_setting_column(tmp_path):
    from mistakebound.game import classes as zoo
    from mistakebound.game.rules import Rules
    from mistakebound.interfaces.sweep import SweepConfig, sweep
    from mistakebound.theory.game_values import game_value

    config = SweepConfig.from_dict({"grid": [{
        "learners": ["GameSOA"], "adversaries": ["GameMinimax"], "classes": ["thresholds:7", "all_functions:2,3"],
        "horizons": [60], "rules": [{}, {"noise": 1}, {"noise": 1}, {"feedback": "full"}]}]})
    assert config.grids[0].settings == (None, "noise=1")  # repeated and textbook spellings kept once
    result = sweep(config, out=tmp_path / "r.csv", executor="inprocess")
    records = {(r["class"], r["setting"]): r for r in result.records}
    assert set(records) == {(c, s) for c in ("thresholds:7", "all_functions:2,3") for s in (None, "noise=1")}
    for (spec, setting), record in records.items():
        H = zoo.from_spec(spec)
        # the registry builds both players for the cell's rules: the adversary forces the game's value and
        # GameSOA's claim, that value, holds
        value = game_value(H, Rules(labels=H.n_labels, noise=1 if setting else 0)).value
        assert record["mistakes"] == record["bound"] == record["forced"] == value, record
        assert record["verdict"] == "ok" and record["error"] is None, record
    # a sweep of a setting the players state for: GameSOA(noise=1) meets its claim, the value, exactly
    noisy = sweep({"grid": [{"learners": ["GameSOA(noise=1)"], "adversaries": ["GameMinimax(noise=1)"],
                             "classes": ["thresholds:7"], "horizons": [60], "rules": [{"noise": 1}]}]},
                  executor="inprocess")
    (record,) = noisy.records
    assert record["mistakes"] == record["bound"] == 5 and record["verdict"] == "ok"


def test_cells_of_the_textbooks_game_keep_their_ids_and_a_file_without_a_setting_column_is_upgraded(tmp_path):
    from mistakebound.interfaces.sweep import FIELDS, ResultsFile, SweepConfig
    from mistakebound.interfaces.sweep.cells import Cell
    from mistakebound.interfaces.sweep.results import SETTINGLESS_FIELDS, encode

    # the id of a textbook cell is the hash of the inputs it had before the column existed
    import hashlib
    import json

    cell = Cell(kind="game", cls="thresholds:7", learner="Halving", adversary="OppositeLabel", seed=0, horizon=20)
    old_inputs = {k: v for k, v in cell.inputs.items() if k != "setting"}
    old_id = hashlib.sha256(json.dumps(old_inputs, sort_keys=True, separators=(",", ":")).encode()).hexdigest()[:16]
    assert cell.id == old_id
    assert Cell(kind="game", cls="thresholds:7", learner="Halving", adversary="OppositeLabel", seed=0, horizon=20,
                setting="noise=1").id != old_id
    # a results file of the previous format reads back, its games in the textbook's setting
    record = dict.fromkeys(FIELDS) | {"id": old_id, "kind": "game", "class": "thresholds:7", "mistakes": 3,
                                      "verdict": "ok", "search": "ldim", "ldim": None}
    path = tmp_path / "old.csv"
    path.write_text(",".join(SETTINGLESS_FIELDS) + "\n" + ",".join(encode(record.get(k)) for k in SETTINGLESS_FIELDS)
                    + "\n")
    loaded = ResultsFile(path).load()
    assert loaded[old_id]["setting"] is None and loaded[old_id]["mistakes"] == 3
    assert path.read_text().splitlines()[0] == ",".join(FIELDS)  # rewritten in the current columns
    # a search row of that format keeps its own column's value (it is not moved from 'mistakes')
    search = dict.fromkeys(FIELDS) | {"id": "s", "kind": "search", "search": "ldim", "ldim": 3}
    path.write_text(",".join(SETTINGLESS_FIELDS) + "\n" + ",".join(encode(search.get(k)) for k in SETTINGLESS_FIELDS)
                    + "\n")
    assert ResultsFile(path).load()["s"]["ldim"] == 3
    bad = {"grid": [{"learners": ["Halving"], "adversaries": ["OppositeLabel"], "classes": ["thresholds:3"],
                     "rules": [{"noise": 1, "labels": 3}]}]}
    with pytest.raises(InvalidArgumentError, match=r"^grid\[0\]\.rules\[0\]\.labels"):
        SweepConfig.from_dict(bad)
