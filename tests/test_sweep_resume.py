"""Resumable sweeps: a sweep killed with SIGKILL and restarted, and a torn last line."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from mistakebound.interfaces.sweep import FIELDS, ResultsFile, SweepConfig, read_records, sweep
from tests.test_sweep_players import PREFIX

ROOT = Path(__file__).resolve().parents[1]
SLOW = f"""
[[grid]]
learners = ["{PREFIX}Slow", "Halving"]
adversaries = ["OppositeLabel", "BinarySearchThreshold"]
classes = ["thresholds"]
sizes = [5, 9, 17]
seeds = [0, 1, 2, 3]
horizons = [6]
"""
TIMING = ("seconds", "peak_kib")


def _strip(records):
    return [{k: v for k, v in r.items() if k not in TIMING} for r in records]


def _rows(path: Path) -> int:
    try:
        return max(0, path.read_bytes().count(b"\n") - 1)
    except FileNotFoundError:
        return 0


def test_a_sweep_killed_halfway_and_restarted_records_each_cell_once_as_an_uninterrupted_run(tmp_path):
    config = tmp_path / "slow.toml"
    config.write_text(SLOW)
    n_cells = len(SweepConfig.from_toml(SLOW).cells())
    out = tmp_path / "killed.csv"
    command = [sys.executable, "-m", "mistakebound.interfaces.cli", "sweep", str(config), "--out", str(out),
               "--executor", "inprocess", "--no-progress"]
    proc = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while _rows(out) < 5 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait()
    assert proc.returncode == -signal.SIGKILL, proc.stderr.read()
    partial = ResultsFile(out).load()
    assert 5 <= len(partial) < n_cells, "the kill did not land halfway"

    rerun = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert rerun.returncode == 0, rerun.stdout + rerun.stderr
    assert f"{n_cells - len(partial)} run now, {len(partial)} already recorded" in rerun.stdout

    resumed = read_records(out)
    assert Counter(Counter(r["id"] for r in resumed).values()) == {1: n_cells}
    uninterrupted = sweep(config, out=tmp_path / "whole.csv", executor="processes", workers=2)
    assert _strip(resumed) == _strip(read_records(tmp_path / "whole.csv")) == _strip(uninterrupted.records)
    # the rows recorded before the kill were kept, not recomputed
    assert all(resumed_r["seconds"] == partial[resumed_r["id"]]["seconds"]
               for resumed_r in resumed if resumed_r["id"] in partial)


def test_a_torn_last_line_is_dropped_and_its_cell_run_again(tmp_path):
    config = {"grid": [{"learners": ["SOA", "Consistent"], "adversaries": ["OppositeLabel"],
                       "classes": ["singletons"], "sizes": [3, 4, 5], "horizons": [8]}]}
    whole = sweep(config, out=tmp_path / "whole.csv", executor="inprocess")
    out = tmp_path / "torn.csv"
    lines = (tmp_path / "whole.csv").read_text().splitlines(keepends=True)
    assert lines[0].strip() == ",".join(FIELDS) and len(lines) == 7
    out.write_text("".join(lines[:4]) + lines[4][: len(lines[4]) // 2])  # 3 rows, then half a row
    f = ResultsFile(out)
    assert len(f.load()) == 3 and f.dropped_torn_line
    assert out.read_text() == "".join(lines[:4])  # the torn part is cut off the file

    out.write_text("".join(lines[:4]) + lines[4][:-1])  # a whole row but for its newline: also torn
    result = sweep(config, out=out, executor="inprocess")
    assert (result.ran, result.skipped) == (3, 3)
    assert _strip(read_records(out)) == _strip(read_records(tmp_path / "whole.csv")) == _strip(whole.records)
    assert [r["id"] for r in read_records(out)] == [c.id for c in SweepConfig.from_dict(config).cells()]


def test_infrastructure_errors_are_not_recorded_cells_and_a_later_row_replaces_them(tmp_path):
    from mistakebound.interfaces.sweep.cells import infra_record
    from mistakebound.interfaces.sweep.results import finished

    config = {"grid": [{"learners": ["SOA", "Halving"], "adversaries": ["OppositeLabel"],
                       "classes": ["thresholds"], "sizes": [3, 4], "horizons": [8]}]}
    cells = SweepConfig.from_dict(config).cells()
    whole = sweep(config, out=tmp_path / "whole.csv", executor="inprocess")
    out = tmp_path / "r.csv"
    f = ResultsFile(out)
    f.append(infra_record(cells[0], "WorkerDied", "killed"))  # died in the first run...
    f.append(whole.records[1])
    f.append(infra_record(cells[2], "WorkerDied", "killed"))
    f.append(whole.records[0])  # ...and finished by a resumed one killed before it rewrote the file
    f.close()
    loaded = ResultsFile(out).load()
    assert loaded[cells[0].id]["verdict"] == "ok" and loaded[cells[2].id]["verdict"] == "infra"
    assert set(finished(loaded)) == {cells[0].id, cells[1].id}
    result = sweep(config, out=out, executor="inprocess")
    assert (result.ran, result.skipped, result.rerun) == (2, 2, 1) and result.ok
    assert _strip(read_records(out)) == _strip(whole.records)
