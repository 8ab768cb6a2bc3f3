"""Tests of the commands play, worst-case, tree and plot, and of the name registry."""

from __future__ import annotations

import ast
import json
import math
import re
import shlex
from pathlib import Path

import numpy as np
import pytest
from attrs import define

from mistakebound import littlestone_dimension, play
from mistakebound.game import classes
from mistakebound.game import registry
from mistakebound.adversaries import ADVERSARIES as ADVERSARY_TYPES
from mistakebound.adversaries import BinarySearchThreshold, ObliviousCoin, OppositeLabel, ShatteredTreeWalker
from mistakebound.interfaces.cli import main
from mistakebound.foundations.errors import InvalidArgumentError, NotApplicableError
from mistakebound.learners import REALIZABLE_LEARNERS, SOA, Consistent, Halving
from mistakebound.game.players import Learner, ObliviousAdversary
from mistakebound.interfaces.progress import ENV_VARIABLE
from mistakebound.game.registry import ADVERSARIES, LEARNERS, Factory, get_adversary, get_learner


def run(capsys, *argv):
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def facts(out: str) -> dict:
    """The ``key = value`` lines of the output, each value's first word as a number (or text)."""
    found = {}
    for line in out.splitlines():
        if " = " in line and not line.startswith(" "):
            key, _, value = line.partition(" = ")
            word = value.split()[0]
            try:
                found[key.strip()] = ast.literal_eval(word) if word not in ("inf",) else math.inf
            except (ValueError, SyntaxError):
                found[key.strip()] = word
    return found


def table(out: str, header: str) -> list[list[str]]:
    """The rows of the table whose header line starts with ``header``."""
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header))
    rows = []
    for line in lines[start + 2:]:
        if not line or " = " in line or line.startswith(("wrote", "Ldim", "bound")):
            break
        rows.append(line.split())
    return rows


def one_line_error(err: str, *needles: str) -> None:
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])


def parse_x(text: str):
    if text.startswith("("):
        return tuple(int(v) for v in text[1:-1].split(","))
    return ast.literal_eval(text)


@pytest.fixture(autouse=True)
def quiet_progress(monkeypatch):
    monkeypatch.delenv(ENV_VARIABLE, raising=False)


# ------------------------------------------------------------------------------- play
GAMES = [
    ("Halving", "BinarySearchThreshold", "thresholds:31", (), Halving, BinarySearchThreshold),
    ("soa", "shattered-tree-walker", "intervals:6", (), SOA, ShatteredTreeWalker),
    ("consistent", "opposite_label", "singletons:6,empty", ("--rounds", "4"), Consistent, OppositeLabel),
    ("Halving", "ObliviousCoin", "thresholds:15", ("--rounds", "30", "--seed", "7", "--unrealizable"), Halving, ObliviousCoin),
    ("SOA", "ObliviousCoin", "k_sparse:6,2", ("--rounds", "25", "--seed", "3"), SOA, ObliviousCoin),
]


@pytest.mark.parametrize("learner, adversary, spec, options, L, A", GAMES)
def test_play_prints_the_same_game_as_the_library(capsys, learner, adversary, spec, options, L, A):
    code, out, err = run(capsys, "play", learner, adversary, spec, *options)
    assert code == 0, out + err
    H = classes.from_spec(spec)
    rounds = int(options[options.index("--rounds") + 1]) if "--rounds" in options else 100
    seed = int(options[options.index("--seed") + 1]) if "--seed" in options else 0
    T = play(L(H), A(), H, rounds=rounds, seed=seed, realizable="--unrealizable" not in options)
    got = facts(out)
    assert got["rounds"] == len(T)
    assert got["mistakes"] == T.mistakes
    assert got["expected mistakes"] == pytest.approx(T.expected_mistakes)
    assert got["regret"] == pytest.approx(T.regret)
    assert got["version space"] == len(T.version_space)
    assert got["bound"] == pytest.approx(L.mistake_bound(H)) or "--unrealizable" in options
    rows = table(out, "t ")
    assert len(rows) == len(T)
    for row, r in zip(rows, T.rounds):
        t, x, p, prediction, y, mistake = row
        assert (int(t), parse_x(x), float(p), int(prediction), int(y)) == (r.t, r.x, r.p, r.prediction, r.y)
        assert mistake == ("yes" if r.mistake else "no")
    header = out.splitlines()[0]
    assert L.__name__ in header and A.__name__ in header and H.describe() in header


def test_play_of_a_randomized_learner_matches_the_library(capsys):
    from mistakebound.learners.experts_from_class import ExpertsFromClass

    H = classes.thresholds(7)
    code, out, _ = run(capsys, "play", "experts-from-class", "ObliviousCoin", "thresholds:7",
                       "--rounds", "40", "--seed", "11", "--unrealizable")
    assert code == 0
    T = play(ExpertsFromClass(H, 40), ObliviousCoin(), H, rounds=40, seed=11, realizable=False)
    got = facts(out)
    assert got["mistakes"] == T.mistakes
    assert got["regret"] == pytest.approx(T.regret, abs=5e-4)  # printed with 4 significant digits
    assert got["bound"] == pytest.approx(math.sqrt(2 * 40 * math.log(8)), rel=1e-3)
    assert "on regret: holds" in out


def test_play_quiet_prints_only_the_totals(capsys):
    code, out, _ = run(capsys, "play", "halving", "opposite-label", "thresholds:7", "--quiet")
    assert code == 0
    assert "prediction" not in out and facts(out)["mistakes"] == 1


def test_jsonl_round_trips_the_transcript(capsys, tmp_path):
    path = tmp_path / "game.jsonl"
    path.write_text("an older file\n")
    H = classes.monotone_disjunctions(4)
    code, out, _ = run(capsys, "play", "SOA", "BasisVectorForcer", "monotone_disjunctions:4",
                       "--rounds", "10", "--seed", "2", "--out", str(path))
    assert code == 0 and f"wrote {path}" in out
    T = play(SOA(H), get_adversary("BasisVectorForcer")(H), H, rounds=10, seed=2)
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert len(records) == len(T) + 1
    for record, r in zip(records, T.rounds):
        assert record == {"type": "round", "t": r.t, "x": list(r.x), "p": r.p, "prediction": r.prediction,
                          "y": r.y, "mistake": r.mistake}
    summary = records[-1]
    assert summary["type"] == "summary" and summary["complete"] is True
    assert (summary["mistakes"], summary["rounds"], summary["seed"]) == (T.mistakes, len(T), 2)
    assert summary["expected_mistakes"] == T.expected_mistakes and summary["regret"] == T.regret
    assert summary["version_space"] == list(T.version_space)
    assert summary["bound"]["value"] == littlestone_dimension(H) and summary["bound"]["measure"] == "mistakes"
    assert summary["bound_holds"] is True
    assert summary["class"] == H.describe() and summary["learner"] == "SOA"
    assert [p.name for p in tmp_path.iterdir()] == ["game.jsonl"]  # no temporary file left


def test_an_interrupted_write_keeps_the_old_file(capsys, tmp_path, monkeypatch):
    path = tmp_path / "game.jsonl"
    path.write_text("old\n")
    import mistakebound.interfaces.cli as cli

    calls = []

    def dumps(obj):
        calls.append(obj)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return json.JSONEncoder().encode(obj)

    monkeypatch.setattr(cli.json, "dumps", dumps)
    code, _, err = run(capsys, "play", "halving", "binary-search-threshold", "thresholds:15", "--out", str(path))
    assert code == 3 and "interrupted" in err
    assert path.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["game.jsonl"]


@pytest.mark.parametrize("argv, needles", [
    (["play", "halvng", "opposite-label", "thresholds:7"], ("learner", "'halvng'", "'Halving'", "SOA")),
    (["play", "halving", "oposite", "thresholds:7"], ("adversary", "'OppositeLabel'", "ObliviousCoin")),
    (["play", "halving", "opposite-label", "threshold:7"], ("'thresholds'",)),
    (["play", "halving", "basis-vector-forcer", "thresholds:7"], ("BasisVectorForcer", "does not apply")),
    (["play", "perceptron", "opposite-label", "thresholds:7"], ("Perceptron", "vectors")),
    (["play", "halving", "opposite-label", "thresholds:7", "--out", "game.txt"], ("--out", ".jsonl")),
    (["play", "halving", "opposite-label", "thresholds:7", "--out", "/no/such/dir/g.jsonl"], ("does not exist",)),
    (["play", "halving", "opposite-label", "thresholds:7", "--rounds", "0"], ("--rounds",)),
    (["worst-case", "SAO", "thresholds:7"], ("'SOA'",)),
    (["worst-case", "experts-from-class", "thresholds:7"], ("horizon",)),
    (["tree", "thresholds:7", "--worst-case", "halvin", "--out", "t.png"], ("'Halving'",)),
    (["tree", "thresholds:7", "--out", "t.gif"], (".png",)),
    (["tree", "thresholds:15", "--out", "t.png"], ("Ldim 4", "at most depth 3", "ldim --tree")),
    (["plot", "thresholds:7", "--learners", "halving,sao", "--adversary", "opposite-label", "--out", "p.png"],
     ("'SOA'",)),
    (["plot", "thresholds:7", "--learners", "halving", "--adversary", "binary", "--out", "p.png"],
     ("adversary", "BinarySearchThreshold")),
    (["plot", "thresholds:7", "--learners", ",", "--adversary", "opposite-label", "--out", "p.png"], ("--learners",)),
])
def test_bad_input_exits_2_with_suggestions(capsys, tmp_path, monkeypatch, argv, needles):
    import mistakebound.interfaces.cli as cli

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(cli, "MAX_DRAWN_DEPTH", 3)
    code, out, err = run(capsys, *argv)
    assert code == 2, out + err
    assert out == ""
    one_line_error(err, *needles)
    assert list(tmp_path.iterdir()) == []  # nothing written


@pytest.mark.parametrize("argv", [
    ["--help"], ["play", "--help"], ["worst-case", "--help"], ["tree", "--help"], ["plot", "--help"],
])
def test_help_lists_learners_adversaries_and_the_zoo(capsys, argv):
    code, out, _ = run(capsys, *argv)
    assert code == 0
    for name in (*LEARNERS, *ADVERSARIES, *classes.ZOO):
        assert name in out, name


# --------------------------------------------------------------------------- exit codes
@define
class CountingLearner(Learner):
    """Predicts 1; raises KeyboardInterrupt when it is taught its ``stop``-th label."""

    H: object = None
    stop: int = 3
    seen: int = 0

    def predict_one(self, x):
        return 1

    def learn_one(self, x, y):
        self.seen += 1
        if self.seen == self.stop:
            raise KeyboardInterrupt


@define
class BadLearner(Learner):
    H: object = None

    def predict_one(self, x):
        return 2

    def learn_one(self, x, y):
        pass


@define
class Boaster(Halving):
    """Halving that claims it never errs."""

    @classmethod
    def mistake_bound(cls, H):
        return 0


@pytest.fixture
def extra_learners(monkeypatch):
    extra = {
        "Counting": Factory("Counting", "tests.test_cli_play:CountingLearner"),
        "Bad": Factory("Bad", "tests.test_cli_play:BadLearner"),
        "Boaster": Factory("Boaster", "tests.test_cli_play:Boaster"),
    }
    monkeypatch.setattr(registry, "LEARNERS", {**registry.LEARNERS, **extra})


def test_play_interrupted_prints_the_rounds_played_and_exits_3(capsys, extra_learners):
    code, out, _ = run(capsys, "play", "counting", "opposite-label", "thresholds:15", "--unrealizable")
    assert code == 3
    assert out.startswith("interrupted after 2 rounds")
    got = facts(out)
    # OppositeLabel in an unrealizable game answers 0 to every prediction 1
    assert (got["rounds"], got["mistakes"], got["expected mistakes"]) == (2, 2, 2)
    assert len(table(out, "t ")) == 2


def test_a_rule_broken_in_play_exits_1(capsys, extra_learners):
    code, out, err = run(capsys, "play", "bad", "opposite-label", "thresholds:7")
    assert code == 1
    assert "round 1, learner" in err and "predict_one returned 2" in err
    assert "rounds completed = 0" in out


def test_a_broken_bound_exits_1(capsys, extra_learners):
    code, out, _ = run(capsys, "play", "boaster", "opposite-label", "thresholds:7")
    assert code == 1
    assert "bound = 0 on mistakes: BROKEN" in out


def test_plot_interrupted_reports_the_finished_games(capsys, tmp_path, extra_learners):
    out_file = tmp_path / "p.png"
    code, out, _ = run(capsys, "plot", "thresholds:15", "--learners", "halving,counting", "--adversary",
                       "opposite-label", "--rounds", "10", "--unrealizable", "--out", str(out_file))
    assert code == 3
    assert "interrupted after 1 of 2 games" in out
    assert table(out, "learner")[0][:3] == ["Halving", "10", "10"]
    assert not out_file.exists()


def test_check_interrupted_prints_the_rows_so_far(capsys, monkeypatch):
    import mistakebound.verification.selfcheck as selfcheck

    real = selfcheck.run_check
    calls = []

    def flaky(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(selfcheck, "run_check", flaky)
    code, out, _ = run(capsys, "check")
    assert code == 3
    first = selfcheck.default_classes()[0]
    expected = len(real([first]).rows)
    assert out.strip().splitlines()[-1] == f"interrupted: {expected} games, all bounds hold so far"


def test_worst_case_interrupted_gives_proven_bounds(capsys, monkeypatch):
    import mistakebound.theory.worst_case as wc

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(wc, "worst_case_mistakes", interrupted)
    code, out, _ = run(capsys, "worst-case", "halving", "thresholds:15")
    assert code == 3
    H = classes.thresholds(15)
    forced = play(Halving(H), OppositeLabel(), H, rounds=100, seed=0).mistakes
    assert f"M_A(H) >= {forced} " in out
    assert "M_A(H) <= 4 " in out


# ------------------------------------------------------------------------- worst case
@pytest.mark.parametrize("d", [1, 3, 6])
def test_worst_case_of_consistent_on_singletons_with_the_empty_last_is_size_minus_one(capsys, d):
    H = classes.singletons(d, include_empty=True)
    assert H.hypothesis_name(H.n_hypotheses - 1) == "empty"
    code, out, err = run(capsys, "worst-case", "Consistent", f"singletons:{d},empty")
    assert code == 0, err
    assert f"M_A(H) = {H.n_hypotheses - 1} (exact" in out
    assert facts(out)["Ldim"] == 1


def worst_line(out: str) -> list[tuple[object, int]]:
    return [(parse_x(row[1]), int(row[3])) for row in table(out, "t ")]


@define
class Replay(ObliviousAdversary):
    pairs: list = None

    def commit(self, H, rounds, rng, realizable):
        return list(self.pairs)


@pytest.mark.parametrize("learner, L, spec", [
    ("Halving", Halving, "singletons:7"),  # Exercise 3: one mistake
    ("SOA", SOA, "intervals:5"),
    ("Halving", Halving, "monotone_disjunctions:3"),
    ("Consistent", Consistent, "thresholds:6"),
])
def test_the_printed_line_replays_to_the_printed_value(capsys, learner, L, spec):
    H = classes.from_spec(spec)
    code, out, _ = run(capsys, "worst-case", learner, spec)
    assert code == 0
    value = facts(out)["M_A(H)"]
    pairs = worst_line(out)
    T = play(L(H), Replay(pairs), H, rounds=len(pairs), seed=0)  # a realizable replay
    assert T.mistakes == value
    if L is SOA:
        assert value == littlestone_dimension(H)
    if spec.startswith("singletons") and L is Halving:
        assert value == 1
    assert value >= facts(out)["Ldim"]  # no deterministic learner beats Ldim


def test_worst_case_out_of_budget_is_partial_with_bounds_and_exits_3(capsys):
    H = classes.singletons(10)
    code, out, _ = run(capsys, "worst-case", "Halving", "singletons:10", "--max-nodes", "5")
    assert code == 3
    line = next(line for line in out.splitlines() if line.startswith("M_A(H) >="))
    lower = float(line.split(">=")[1].split()[0])
    upper = float(line.split("<=")[1].split()[0])
    assert 1 <= lower <= upper == pytest.approx(math.log2(H.n_hypotheses), abs=1e-3)


def test_worst_case_of_a_randomized_learner_with_a_horizon(capsys):
    code, out, _ = run(capsys, "worst-case", "ExpertsFromClass", "thresholds:3", "--horizon", "2")
    assert code == 0
    rows = table(out, "t ")
    assert len(rows) == 2
    gains = [float(r[4]) if r[4] not in ("yes", "no") else float(r[4] == "yes") for r in rows]
    assert facts(out)["M_A(H) over 2 rounds"] == pytest.approx(sum(gains), abs=1e-3)


# ------------------------------------------------------------------------- tree, plot
def png_size(path) -> tuple[int, int]:
    import matplotlib.image as mimage

    image = mimage.imread(path)
    assert image.ndim == 3 and image.shape[2] in (3, 4)
    assert 0.0 <= image.min() and image.max() <= 1.0 and image.std() > 0.01  # not blank
    return image.shape[1], image.shape[0]


def svg_size(path) -> tuple[float, float]:
    import xml.etree.ElementTree as ET

    root = ET.parse(path).getroot()
    assert root.tag.endswith("svg")
    return float(root.get("width").rstrip("pt")), float(root.get("height").rstrip("pt"))


def test_tree_writes_png_and_svg_of_sane_size(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    sizes = {}
    for spec in ("thresholds:3", "thresholds:15"):
        png, svg = tmp_path / f"{spec[-2:]}.png", tmp_path / f"{spec[-2:]}.svg"
        for path in (png, svg):
            code, out, err = run(capsys, "tree", spec, "--out", str(path))
            assert code == 0, err
            assert path.stat().st_size > 1000
            d = littlestone_dimension(classes.from_spec(spec))
            assert out.strip() == f"wrote {path}: a shattered tree of {classes.from_spec(spec).describe()}, depth {d} = Ldim, {2 ** d} leaves"
        width, height = png_size(png)
        assert 300 <= width <= 6000 and 200 <= height <= 3000
        sizes[spec] = (width, svg_size(svg)[0])
    assert sizes["thresholds:15"][0] > 1.5 * sizes["thresholds:3"][0]  # the picture grows with the leaves
    assert sizes["thresholds:15"][1] > 1.5 * sizes["thresholds:3"][1]


def test_tree_of_a_worst_case_line(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    path = tmp_path / "line.png"
    code, out, _ = run(capsys, "tree", "singletons:5,empty", "--worst-case", "consistent", "--out", str(path))
    assert code == 0
    assert "5 mistakes (exact)" in out
    width, height = png_size(path)
    assert 300 <= width <= 6000 and 300 <= height <= 3000


def test_plot_writes_a_figure_and_the_table_of_games(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    H = classes.thresholds(63)
    for suffix in (".png", ".svg"):
        path = tmp_path / f"plot{suffix}"
        code, out, err = run(capsys, "plot", "thresholds:63", "--learners", "consistent,halving,soa",
                             "--adversary", "opposite-label", "--out", str(path))
        assert code == 0, err
        assert path.stat().st_size > 1000
        rows = {r[0]: r for r in table(out, "learner")}
        for name, L in (("Consistent", Consistent), ("Halving", Halving), ("SOA", SOA)):
            T = play(L(H), OppositeLabel(), H, rounds=100, seed=0)
            assert int(rows[name][2]) == T.mistakes
            assert rows[name][-1] == "ok"
    width, height = png_size(tmp_path / "plot.png")
    assert 600 <= width <= 3000 and 400 <= height <= 2000
    svg_size(tmp_path / "plot.svg")


def test_plot_of_regret_in_unrealizable_games(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    path = tmp_path / "regret.png"
    code, out, _ = run(capsys, "plot", "thresholds:7", "--learners", "experts-from-class,halving",
                       "--adversary", "oblivious-coin", "--rounds", "60", "--unrealizable", "--out", str(path))
    assert code == 0
    rows = {r[0]: r for r in table(out, "learner")}
    assert rows["ExpertsFromClass"][-1] == "ok" and rows["Halving"][-1] == "-"
    png_size(path)


def test_progress_goes_to_stderr_and_leaves_stdout_alone(capsys, monkeypatch):
    _, quiet_out, quiet_err = run(capsys, "play", "halving", "binary-search-threshold", "thresholds:15")
    monkeypatch.setenv(ENV_VARIABLE, "1")
    code, out, err = run(capsys, "play", "halving", "binary-search-threshold", "thresholds:15")
    assert code == 0 and out == quiet_out and quiet_err == ""
    assert "play" in err and "ETA" in err


# --------------------------------------------------------------------------- registry
def test_every_learner_and_adversary_of_the_zoo_is_registered():
    learner_types = {f.player_type for f in LEARNERS.values()}
    adversary_types = {f.player_type for f in ADVERSARIES.values()}
    assert set(REALIZABLE_LEARNERS) <= learner_types
    assert set(ADVERSARY_TYPES) <= adversary_types


@pytest.mark.parametrize("name", list(LEARNERS))
def test_every_registered_learner_plays_a_game(name):
    factory = LEARNERS[name]
    H = classes.monotone_disjunctions(3)
    learner = factory(H, rounds=10)
    assert type(learner) is factory.player_type
    T = play(learner, OppositeLabel(), H, rounds=10, seed=0)
    bound = factory.bound(H, rounds=10)
    if bound is not None:
        measured = T.mistakes if bound.measure == "mistakes" else T.expected_mistakes
        assert measured <= bound.value + 1e-9


@pytest.mark.parametrize("name", list(ADVERSARIES))
def test_every_registered_adversary_builds(name):
    adversary = ADVERSARIES[name](classes.thresholds(3))
    assert type(adversary).__name__ == name


@pytest.mark.parametrize("typed, found", [
    ("halving", "Halving"), ("HALVING", "Halving"), ("soa", "SOA"), ("experts_from_class", "ExpertsFromClass"),
])
def test_learner_names_ignore_case_and_separators(typed, found):
    assert get_learner(typed).name == found


def test_unknown_names_list_close_matches_and_every_known_name():
    with pytest.raises(InvalidArgumentError) as info:
        get_adversary("binary-serch")
    message = str(info.value)
    assert "did you mean 'BinarySearchThreshold'" in message
    assert all(name in message for name in ADVERSARIES)
    with pytest.raises(InvalidArgumentError, match="known learners"):
        get_learner("zzz")
    with pytest.raises(InvalidArgumentError, match="learner"):
        get_learner(3)


def test_vector_learners_refuse_other_domains_and_horizon_learners_need_rounds():
    with pytest.raises(NotApplicableError, match="vectors"):
        get_learner("Perceptron")(classes.thresholds(3))
    with pytest.raises(InvalidArgumentError, match="horizon"):
        get_learner("ExpertsFromClass")(classes.thresholds(3))


def test_bounds_follow_the_game():
    H = classes.thresholds(7)
    assert registry.learner_bound(Halving, H).value == math.log2(8)
    assert registry.learner_bound(Halving, H, realizable=False) is None
    experts = get_learner("ExpertsFromClass")
    realizable = experts.bound(H, rounds=9)
    unrealizable = experts.bound(H, rounds=9, realizable=False)
    assert realizable.measure == "expected mistakes" and unrealizable.measure == "regret"
    assert realizable.value == unrealizable.value == pytest.approx(math.sqrt(2 * 9 * math.log(8)))
    assert np.isfinite(realizable.value)


def test_worst_case_reports_positions_to_the_bar_when_the_search_takes_a_callback(capsys, monkeypatch):
    import mistakebound.theory.worst_case as wc

    real = wc.worst_case_mistakes
    seen = []

    def with_callback(learner, H, *, horizon=None, max_nodes=200_000, progress=None):
        seen.append(progress)
        progress(7)
        return real(learner, H, horizon=horizon, max_nodes=max_nodes)

    monkeypatch.setattr(wc, "worst_case_mistakes", with_callback)
    monkeypatch.setenv(ENV_VARIABLE, "1")
    code, out, err = run(capsys, "worst-case", "halving", "thresholds:7", "--max-nodes", "1000")
    assert code == 0 and facts(out)["M_A(H)"] == 3
    assert callable(seen[0])
    assert "7/1,000" in err and "positions/s" in err and "ETA" in err


def test_worst_case_without_a_callback_shows_elapsed_time(capsys, monkeypatch):
    monkeypatch.setenv(ENV_VARIABLE, "1")
    code, _, err = run(capsys, "worst-case", "soa", "thresholds:7")
    assert code == 0
    assert "worst case of SOA" in err and ("ETA" in err or "elapsed" in err)


def readme_figure_commands() -> list[str]:
    """The ``mistakebound tree`` / ``mistakebound plot`` lines of the README's shell blocks."""
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```(\w*)[^\n]*\n(.*?)^```\s*$", readme, re.S | re.M)
    return [
        line.strip()
        for lang, body in blocks
        if lang in ("bash", "sh", "shell")
        for line in body.splitlines()
        if line.strip().startswith(("mistakebound tree", "mistakebound plot"))
    ]


README_FIGURE_COMMANDS = readme_figure_commands()


@pytest.mark.skipif(not README_FIGURE_COMMANDS, reason="the README shows no tree or plot command yet")
@pytest.mark.parametrize("command", README_FIGURE_COMMANDS or ["-"])
def test_readme_figure_commands_run(capsys, tmp_path, monkeypatch, command):
    pytest.importorskip("matplotlib")
    monkeypatch.chdir(tmp_path)
    argv = shlex.split(command)[1:]
    code, out, err = run(capsys, *argv)
    assert code == 0, out + err
    written = tmp_path / argv[argv.index("--out") + 1]
    assert written.stat().st_size > 1000
