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


@pytest.mark.parametrize("order, kind, oracle", [
    ("self-directed", "self-directed", "self_directed_oracle"), ("best", "best-order", "best_order_oracle"),
    ("worst", "worst-order", "worst_order_oracle"), ("transductive", "worst-order", "worst_order_oracle")])
def test_ldim_certifies_the_value_under_each_order(tmp_path, capsys, order, kind, oracle):
    """The value of the game under an order is in ``ldim --certificate``, proved by the checker equal to the brute
    force (the transductive game without a horizon is worth the worst order's value)."""
    from mistakebound import classes
    from mistakebound.certificates.verify import check_file
    from tests import order_oracles

    path = tmp_path / "c.json"
    code, out, _ = run(capsys, "ldim", "intervals:5", "--order", order, "--certificate", str(path))
    truth = getattr(order_oracles, oracle)([tuple(r) for r in classes.intervals(5).matrix.tolist()])
    assert code == 0 and check_file(path)[kind] == (truth, truth)
    assert f"wrote {path}" in out


def test_a_value_no_kind_of_certificate_checks_is_said_to_be_left_out(tmp_path, capsys):
    path = tmp_path / "c.json"
    code, out, _ = run(capsys, "ldim", "intervals:5", "--order", "best", "--randomized", "--certificate", str(path))
    assert code == 0 and "randomized learners, or more than two labels, under another order" in out


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
