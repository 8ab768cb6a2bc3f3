"""``mistakebound worst-case`` in the game's other settings (issue 23): the rules' options, the library's answers printed."""

from __future__ import annotations

import pytest

from mistakebound.game import classes, registry
from mistakebound.game.rules import Rules
from mistakebound.interfaces.cli import main
from mistakebound.theory.game_values import game_value
from mistakebound.theory.worst_case import worst_case_mistakes


def run(capsys, *argv):
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("learner, spec, options, rules, horizon", [
    ("GameSOA(feedback=bandit)", "all_functions:2,3", ["--feedback", "bandit"], dict(labels=3, feedback="bandit"), 4),
    ("GameSOA(noise=1)", "thresholds:3", ["--noise", "1"], dict(noise=1), 4),
    ("PluralityHalving", "all_functions:2,3", ["--noise", "1"], dict(labels=3, noise=1), None),
    ("PluralityHalving", "all_functions:2,3", ["--labels", "3", "--oblivious"], dict(labels=3, adaptive=False), None),
])
def test_worst_case_prints_the_librarys_search_under_the_rules(capsys, learner, spec, options, rules, horizon):
    R = Rules(**rules)
    H = classes.from_spec(spec)
    extra = ["--horizon", str(horizon)] if horizon is not None else []
    code, out, err = run(capsys, "worst-case", learner, spec, *options, *extra)
    assert code == 0, err
    W = worst_case_mistakes(registry.build("learner", learner, H), H, rules=R, horizon=horizon)
    lines = out.splitlines()
    assert f"rules: {R.describe()}" in lines
    over = f" over {horizon} rounds" if horizon is not None else ""
    assert any(line.startswith(f"M_A(H){over} = {W.value} (exact;") for line in lines), out
    value = game_value(H, R).value
    assert any(line.startswith(f"value = {value} (the game's value") for line in lines)
    assert not any(line.startswith("Ldim") for line in lines) and "MinimaxAdversary" not in out


def test_the_optimal_learner_reaches_the_value_on_the_command_line(capsys):
    code, out, _ = run(capsys, "worst-case", "GameSOA(feedback=bandit)", "all_functions:2,3", "--feedback", "bandit",
                       "--horizon", "4")
    assert code == 0
    assert "M_A(H) over 4 rounds = 4 (exact;" in out and "value = 4 " in out and ": holds" in out


@pytest.mark.parametrize("argv, message", [
    (["Halving", "thresholds:7", "--feedback", "bandit"], "learner: Halving does not declare bandit feedback"),
    (["Halving", "thresholds:7", "--noise", "1", "--certificate", "out.json"],
     "--certificate: certificates of the worst case are written for the textbook's game"),
    (["Halving", "thresholds:7", "--labels", "3"], "labels: thresholds(7) has 2 labels, and 3 were asked for"),
])
def test_rules_the_learner_or_the_command_does_not_play_exit_2_with_one_line(capsys, tmp_path, monkeypatch, argv,
                                                                                message):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "worst-case", *argv)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and message in err
    assert not (tmp_path / "out.json").exists()


def test_without_rules_the_output_is_the_textbooks(capsys):
    code, out, _ = run(capsys, "worst-case", "halving", "thresholds:3")
    assert code == 0 and "rules:" not in out and "Ldim = 2" in out and "replay with MinimaxAdversary" in out
