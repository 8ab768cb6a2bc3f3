"""The fault campaign (``python -m tests.fault_campaign``), a harness run by hand, on a small run: it counts and finds nothing."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_a_quick_fault_campaign_counts_its_inputs_and_finds_no_fault(tmp_path):
    """``python -m tests.fault_campaign`` on 40 hostile command lines and 2 config trust cases: every finding 0."""
    out = tmp_path / "campaign.json"
    subprocess.run([sys.executable, "-m", "tests.fault_campaign",
                    "--inputs", "40", "--kills", "0", "--trust", "2", "--startup-kills", "0", "--file-kills", "0",
                    "--json", str(out), "--quiet"], cwd=ROOT, check=True, capture_output=True, timeout=300)
    headline = json.loads(out.read_text())["headline"]
    assert headline["hostile inputs (in-process calls)"] == 40
    assert headline["config trust cases (subprocess sweeps)"] == 2
    findings = {k: v for k, v in headline.items() if k.startswith("  ")}
    assert findings and all(set(str(v).replace("/", " ").split()) == {"0"} for v in findings.values()), findings


def test_a_signal_after_the_sweep_ended_its_work_is_not_a_wrong_exit():
    """Exit 0 after a signal is right only when every row and the summary were out (a signal at tear-down)."""
    from tests.fault_campaign import ended_before_the_signal

    table = "learner  cells  worst ratio\n-------  -----\nHalving  4      0.5\n\nno bound broken in 4 cells\n"
    assert ended_before_the_signal(0, table, rows=4, cells=4)
    assert not ended_before_the_signal(0, table, rows=3, cells=4)  # a row missing: the signal was swallowed
    assert not ended_before_the_signal(0, "", rows=4, cells=4)  # no summary: the command had not ended
    assert not ended_before_the_signal(3, table, rows=4, cells=4)  # exit 3 is the interrupted command's, judged apart
