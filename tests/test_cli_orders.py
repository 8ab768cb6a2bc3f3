"""``--order`` on the command line (issue 24): the value through ``ldim``, a refusal by name elsewhere."""

from __future__ import annotations

import json

import pytest

from mistakebound.interfaces.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("order, value", [("self-directed", 1), ("best", 1), ("worst", 4), ("transductive", 4)])
def test_ldim_prints_the_orders_value(capsys, order, value):
    code, out, _ = run(capsys, "ldim", "thresholds:15", "--order", order, "--what", "value")
    assert code == 0 and out.splitlines()[-1].endswith(f"= {value}") and order in out.splitlines()[-1]
    code, out, _ = run(capsys, "ldim", "thresholds:15", "--order", order, "--what", "value", "--json")
    record = json.loads(out.splitlines()[-1])
    assert code == 0 and record["value"] == value and record["rules"]["order"] == order


def test_the_default_order_changes_no_record(capsys):
    code, out, _ = run(capsys, "ldim", "thresholds:7", "--noise", "1", "--what", "value", "--json")
    assert code == 0 and "order" not in json.loads(out.splitlines()[-1])["rules"]


def test_out_of_budget_an_interval_and_exit_3(capsys):
    code, out, _ = run(capsys, "ldim", "power_set:8", "--order", "best", "--what", "value", "--max-nodes", "5")
    assert code == 3 and "<= value (" in out and "best order) <= 8 (partial: budget)" in out


@pytest.mark.parametrize("argv, named", [
    (["worst-case", "halving", "thresholds:7", "--order", "best"], "worst-case cannot honour it"),
    (["check", "--order", "worst"], "check cannot honour it"),
    (["ldim", "thresholds:7", "--order", "best", "--certificate", "c.json"], "ldim --certificate cannot honour it"),
    (["ldim", "thresholds:7", "--order", "best", "--tree"], "ldim --tree cannot honour it"),
    (["play", "halving", "opposite-label", "thresholds:7", "--order", "self-directed"],
     "does not declare the 'self-directed' order"),
    (["ldim", "thresholds:7", "--order", "sideways"], "invalid choice: 'sideways'"),
])
def test_a_command_that_cannot_honour_the_order_refuses_it_by_name(capsys, tmp_path, monkeypatch, argv, named):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, *argv)
    assert code == 2 and named in err
    assert not (tmp_path / "c.json").exists()
