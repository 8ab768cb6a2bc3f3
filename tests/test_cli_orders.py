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


@pytest.mark.parametrize("learner, claim", [("OrderSOA", "the worst-order game's value"),
                                            ("Halving", "Theorem 21.3")])
def test_play_by_name_in_the_worst_order(capsys, learner, claim):
    code, out, err = run(capsys, "play", learner, "OrderMinimax", "thresholds:15", "--order", "worst")
    lines = out.splitlines()
    assert code == 0 and not err
    assert "worst order" in lines[0] and "mistakes = 4" in lines
    assert any(line.startswith("bound = 4 on mistakes: holds") and claim in line for line in lines)
    assert any(line.startswith("forced = 4 on mistakes: holds") for line in lines)
    assert sum(line.split()[-1] == "yes" for line in lines if line[:1].isdigit()) == 4  # the rounds say so too


@pytest.mark.parametrize("order, value", [("self-directed", 1), ("best", 1), ("transductive", 4)])
def test_play_the_zoo_players_in_every_order(capsys, order, value):
    code, out, _ = run(capsys, "play", "OrderSOA", "OrderMinimax", "thresholds:15", "--order", order, "-q")
    assert code == 0 and f"mistakes = {value}" in out.splitlines()
    assert f"bound = {value} on mistakes: holds" in out and f"forced = {value} on mistakes: holds" in out


@pytest.mark.parametrize("order, hook", [("self-directed", "choose_instance(left)"), ("best", "choose_order(domain)")])
def test_a_learner_without_the_orders_move_is_refused_before_round_1(capsys, order, hook):
    code, out, err = run(capsys, "play", "Halving", "OrderMinimax", "thresholds:15", "--order", order)
    assert code == 2 and "t   x" not in out and "rounds =" not in out
    assert f"does not declare the '{order}' order" in err and hook in err and "Halving" in err


def test_the_zoo_players_are_listed_and_need_an_order(capsys):
    code, out, _ = run(capsys, "play", "--help")
    assert code == 0 and "OrderSOA" in out and "OrderMinimax" in out
    code, _, err = run(capsys, "play", "OrderSOA", "OrderMinimax", "thresholds:15")
    assert code == 2 and "give its order (--order" in err
