"""Smoke run of ``python -m benchmarks``: it runs, writes its JSON, and agrees with the baseline.

No timing is asserted; benchmarks are not tests.  What is asserted is that every case
ran and that wherever the textbook baseline finished, it computed the same value.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

from benchmarks.suite import cases

ROOT = Path(__file__).resolve().parents[1]


def test_smoke_run_writes_one_record_per_case_and_agrees_with_the_baseline(tmp_path):
    out = tmp_path / "b.json"
    proc = subprocess.run(
        [sys.executable, "-m", "benchmarks", "--smoke", "--out", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    payload = json.loads(out.read_text())
    records = payload["cases"]
    assert [r["case"] for r in records] == [c.name for c in cases(smoke=True)]
    for r in records:
        assert isinstance(r["median_s"], float) and math.isfinite(r["median_s"]), r
        assert r["mismatch"] is None, r
    finished = [r for r in records if r["baseline_status"] == "ok"]
    assert finished, "no baseline finished in smoke mode: the cross-check checked nothing"
    for r in finished:
        assert r["baseline_result"] == r["result"], r
    assert "tracemalloc" in proc.stdout
