"""The commands play, worst-case, tree and plot: on classes, spaces and oco, players by name or import path."""

from __future__ import annotations

import ast
import json
import math
import re
import shlex
import sys
from pathlib import Path

import pytest
from attrs import define
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mistakebound.theory.worst_case import worst_case_mistakes
from tests.players import MajorityVote
from mistakebound import littlestone_dimension, play
from mistakebound.adversaries import BinarySearchThreshold, ObliviousCoin, OppositeLabel, ShatteredTreeWalker
from mistakebound.foundations.errors import NotApplicableError
from mistakebound.game import classes, registry
from mistakebound.game.oco import play_oco
from mistakebound.game.players import Learner, ObliviousAdversary
from mistakebound.interfaces.cli import main
from mistakebound.interfaces.progress import ENV_VARIABLE
from mistakebound.learners import SOA, Consistent, Halving
from mistakebound.verification.claims import Bound, stated_bound

#: How the test learners below are named on the command line: by import path.
HERE = "tests.test_cli_play"


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
        if not line or " = " in line or "Ldim" in line or line.startswith(("wrote", "bound", "forced", "claim")):
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
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):  # an instance named by a word (a class file's header)
        return text


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
    realizable = "--unrealizable" not in options
    claim = stated_bound(L(H), H, rounds=rounds, realizable=realizable, transcript=T)
    bound_line = next(line for line in out.splitlines() if line.startswith("bound = "))
    if claim.stated:
        assert got["bound"] == pytest.approx(claim.value)
        assert bound_line == f"bound = {got['bound']} on {claim.measure}: holds ({claim.source})"
    else:  # Halving and SOA state no bound for an unrealizable game, and say why
        assert not realizable and claim.reason
        assert bound_line == f"bound = none: {claim.reason}"
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
    T = play(SOA(H), registry.build("adversary", "BasisVectorForcer", H), H, rounds=10, seed=2)
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
    assert summary["bound"]["source"].startswith("Lemma 21.7")
    assert summary["claim"] == summary["bound"]
    assert summary["verdict"] == "ok" and summary["bound_holds"] is True
    assert summary["class"] == H.describe() and summary["learner"] == "SOA"
    assert [p.name for p in tmp_path.iterdir()] == ["game.jsonl"]  # no temporary file left


def test_an_interrupted_write_keeps_the_old_file(capsys, tmp_path, monkeypatch):
    path = tmp_path / "game.jsonl"
    path.write_text("old\n")
    import mistakebound.interfaces.cli.output as cli_output

    calls = []

    def dumps(obj):
        calls.append(obj)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return json.JSONEncoder().encode(obj)

    monkeypatch.setattr(cli_output.json, "dumps", dumps)
    code, _, err = run(capsys, "play", "halving", "binary-search-threshold", "thresholds:15", "--out", str(path))
    assert code == 3 and "interrupted" in err
    assert path.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["game.jsonl"]


# ------------------------------------------------------------------------ play on spaces
def bound_of(out: str) -> str:
    (line,) = [line for line in out.splitlines() if line.startswith("bound = ")]
    return line


def test_play_weighted_majority_on_expert_advice_reports_theorem_21_11(capsys, tmp_path):
    from mistakebound.adversaries import RandomExpertLosses
    from mistakebound.game.spaces import ExpertAdvice
    from mistakebound.learners import WeightedMajority

    path = tmp_path / "experts.jsonl"
    code, out, err = run(capsys, "play", "weighted-majority", "random-expert-losses", "experts:4", "--unrealizable",
                         "--rounds", "200", "--out", str(path))
    assert code == 0, out + err
    theorem = math.sqrt(2 * 200 * math.log(4))  # Theorem 21.11: sqrt(2 T ln d) = 23.55
    assert bound_of(out).startswith("bound = 23.55 on regret: holds (Theorem 21.11")
    S = ExpertAdvice(4)
    T = play(WeightedMajority(d=4, T=200), RandomExpertLosses(), S, rounds=200, seed=0, realizable=False)
    got = facts(out)
    assert (got["rounds"], got["mistakes"]) == (len(T), T.mistakes) and len(T) == 200
    assert got["regret"] == pytest.approx(T.regret, rel=1e-3) and T.regret <= theorem
    assert out.splitlines()[0] == ("game: WeightedMajority(d=4, T=200) vs RandomExpertLosses on experts(d=4), "
                                   "unrealizable, seed 0, at most 200 rounds")
    summary = json.loads(path.read_text().splitlines()[-1])
    assert summary["bound"]["value"] == pytest.approx(theorem) and summary["bound"]["measure"] == "regret"
    assert summary["verdict"] == "ok" and summary["bound_holds"] is True
    assert summary["regret"] == pytest.approx(T.regret)


SPACE_GAMES = [
    # (learner, adversary, setting, rounds, the library's players built by hand, or None: by the registry)
    ("winnow", "disjunction-stream", "k_disjunctions:1000,3", 60,
     lambda: (registry.find("learner", "Winnow").target(n=1000),
              registry.find("adversary", "DisjunctionStream").target())),
    ("perceptron", "separable-stream", "halfspaces:d=16,R=1,gamma=0.25", 60,
     lambda: (registry.find("learner", "Perceptron").target(d=16),
              registry.find("adversary", "SeparableStream").target(d=16, gamma=0.25, R=1.0))),
    ("disjunction-elimination", "disjunction-adversary", "k_disjunctions:1000,3", 60, None),
    ("randomized-linear-classifier", "separable-stream", "halfspaces:d=16,R=1,gamma=0.25", 40, None),
]


@pytest.mark.parametrize("learner, adversary, spec, rounds, players", SPACE_GAMES)
def test_play_on_spaces_matches_the_library_and_judges_the_claim(capsys, learner, adversary, spec, rounds, players):
    code, out, err = run(capsys, "play", learner, adversary, spec, "--rounds", str(rounds), "-q")
    assert code == 0, out + err
    S = registry.load_setting(spec)
    if players is None:
        L = registry.build("learner", learner, S, rounds=rounds)
        A = registry.build("adversary", adversary, S, rounds=rounds)
    else:
        L, A = players()
    T = play(L, A, S, rounds=rounds, seed=0)
    got = facts(out)
    assert (got["rounds"], got["mistakes"]) == (len(T), T.mistakes)
    assert got["expected mistakes"] == pytest.approx(T.expected_mistakes, rel=1e-3)
    claim = stated_bound(L, S, rounds=rounds, realizable=True, transcript=T)
    assert claim.stated and claim.measure in ("mistakes", "expected mistakes")
    assert got["bound"] == pytest.approx(claim.value, rel=1e-3)
    assert bound_of(out).endswith(f" on {claim.measure}: holds ({claim.source})")
    assert f"on {S.describe()}, realizable" in out.splitlines()[0]


def test_play_online_gradient_descent_against_alternating_losses(capsys, tmp_path):
    from mistakebound.game.oco import OCOSetting

    path = tmp_path / "oco.jsonl"
    code, out, err = run(capsys, "play", "online-gradient-descent", "alternating-losses", "oco:d=1,radius=1",
                         "--rounds", "30", "--out", str(path))
    assert code == 0, out + err
    S = OCOSetting(1, radius=1.0)
    learner = registry.build("learner", "OnlineGradientDescent", S, rounds=30)
    T = play_oco(learner, registry.find("adversary", "AlternatingLosses").target(), d=1, rounds=30, seed=0, radius=1.0)
    got = facts(out)
    assert got["rounds"] == len(T) == 30
    assert got["cumulative loss"] == pytest.approx(T.cumulative_loss, rel=1e-3)
    assert got["regret"] == pytest.approx(T.best_fixed_regret(), rel=1e-3)
    claim = stated_bound(registry.build("learner", "OnlineGradientDescent", S, rounds=30), S, rounds=30, transcript=T)
    assert bound_of(out) == f"bound = {claim.value:.4g} on regret: holds ({claim.source})"
    assert claim.source.startswith("Theorem 21.15") and T.best_fixed_regret() <= claim.value
    rows = table(out, "t ")
    assert [float(r[2]) for r in rows] == pytest.approx([r.value for r in T.rounds], abs=5e-5)
    # the header and the file name the setting as it is typed back: with its radius
    assert out.splitlines()[0].startswith("game: OnlineGradientDescent(")
    assert out.splitlines()[0].endswith(" on oco(d=1, radius=1), seed 0, at most 30 rounds")
    summary = json.loads(path.read_text().splitlines()[-1])
    assert registry.load_setting(summary["setting"]) == S
    assert summary["regret"] == pytest.approx(T.best_fixed_regret()) and summary["verdict"] == "ok"
    code, out, _ = run(capsys, "play", "follow-the-leader", "alternating-losses", "oco:d=1,radius=1", "--rounds", "30",
                       "-q")
    assert code == 0 and facts(out)["regret"] >= 29 * 0.5  # FTL pays in every round after the first


# ------------------------------------------------------------------- players by import path
USER_MODULE = '''
from attrs import define
from mistakebound.adversaries import OppositeLabel
from mistakebound.learners import Halving
from mistakebound.verification.claims import Bound


@define
class Mine(Halving):
    """Halving with a claim of its own: |H| - 1 mistakes."""

    def bound(self, setting, *, rounds=None, realizable=True, transcript=None):
        return Bound(setting.n_hypotheses - 1, source="my own proof")


@define
class Lazy(Mine):
    """Mine, but it never learns: its claim is false."""

    def learn_one(self, x, y):
        pass

    def state_key(self):
        return 0


@define
class Contrary(OppositeLabel):
    """OppositeLabel under another name."""
'''


@pytest.fixture
def user_module(tmp_path, monkeypatch):
    """A module of the user's in the current directory (not on sys.path), and its name."""
    name = "cli_user_players"
    (tmp_path / f"{name}.py").write_text(USER_MODULE)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    monkeypatch.delitem(sys.modules, name, raising=False)
    yield name
    sys.modules.pop(name, None)


def test_play_accepts_players_by_import_path_from_the_current_directory(capsys, user_module):
    code, out, err = run(capsys, "play", f"{user_module}:Mine", f"{user_module}:Contrary", "thresholds:7")
    assert code == 0, out + err
    module = sys.modules[user_module]
    H = classes.thresholds(7)
    T = play(module.Mine(H), module.Contrary(), H, rounds=100, seed=0)
    assert out.splitlines()[0].startswith("game: Mine vs Contrary on thresholds(7)")
    assert facts(out)["mistakes"] == T.mistakes
    assert bound_of(out) == "bound = 7 on mistakes: holds (my own proof)"


def test_worst_case_tree_and_plot_accept_players_by_import_path(capsys, user_module, tmp_path):
    code, out, err = run(capsys, "worst-case", f"{user_module}:Mine", "thresholds:3")
    assert code == 0, out + err
    assert facts(out)["M_A(H)"] == 2
    assert claim_line(out) == "claim = 3 on mistakes (my own proof): holds"
    # a learner that never learns can be made to err forever on one instance: its claim is broken
    code, out, err = run(capsys, "worst-case", f"{user_module}:Lazy", "thresholds:3")
    assert code == 1, out + err
    assert facts(out)["M_A(H)"] == math.inf
    assert claim_line(out) == "claim = 3 on mistakes (my own proof): BROKEN (the adversary's line forces inf)"
    pytest.importorskip("matplotlib")
    code, out, err = run(capsys, "tree", "thresholds:3", "--worst-case", f"{user_module}:Mine", "--out", "line.png")
    assert code == 0, out + err
    assert (tmp_path / "line.png").stat().st_size > 1000
    code, out, err = run(capsys, "plot", "thresholds:7", "--learners", f"halving,{user_module}:Mine",
                         "--adversary", f"{user_module}:Contrary", "--out", "plot.png")
    assert code == 0, out + err
    rows = table(out, "learner")
    assert [row[0] for row in rows] == ["Halving", f"{user_module}:Mine"]
    assert rows[1][-1] == "ok" and rows[1][-3:-1] == ["7", "(mistakes)"]
    assert (tmp_path / "plot.png").stat().st_size > 1000


# ------------------------------------------------------------- every pair from the command line
#: Settings the walk plays on: finite classes (one over vectors), a class file, each space, oco.
WALK_SETTINGS = [
    "thresholds:5",
    "singletons:4,empty",
    "monotone_disjunctions:3",
    "halfspaces:d=4,R=1,gamma=0.25",
    "halfspaces:d=2,R=2,gamma=0.05",  # where MidpointAdversary plays
    "k_disjunctions:20,2",
    "experts:4",
    "oco:d=1,radius=1",
]
WALK_ROUNDS = 12
VERDICT_LINE = re.compile(
    r"^(bound|forced) = (none: .+|\S+ on (mistakes|expected mistakes|regret): "
    r"(holds|BROKEN|undecided|not judged \(this game does not measure \3\))( \(.+\))?)$"
)


def applicable_pairs(setting, rounds=WALK_ROUNDS):
    """Every (learner, adversary) of the registry that registry.build can make for ``setting``."""
    learners, adversaries = [], []
    for kind, found in (("learner", learners), ("adversary", adversaries)):
        for entry in registry.entries(kind):
            try:
                registry.build(kind, entry, setting, rounds=rounds)
            except NotApplicableError:
                continue
            found.append(entry.name)
    return [(L, A) for L in learners for A in adversaries]


def assert_played(code, out, err, argv):
    """A game played from the command line: exit 0, or 1 with a BROKEN verdict printed; never 2, never a traceback."""
    assert "Traceback" not in out + err, (argv, err)
    assert code in (0, 1), (argv, code, out, err)
    verdicts = [line for line in out.splitlines() if line.startswith(("bound = ", "forced = "))]
    if code == 1 and not verdicts:  # a game that errored: a rule broken, reported as such
        assert "game stopped: " in out and err.startswith("mistakebound play: error: round"), (argv, out, err)
        return
    assert verdicts and verdicts[0].startswith("bound = "), (argv, out)
    for line in verdicts:
        assert VERDICT_LINE.match(line), (argv, line)
    assert (code == 1) == any(": BROKEN" in line for line in verdicts), (argv, verdicts)
    assert out.startswith("game: ") and err == "", (argv, err)


@pytest.mark.parametrize("spec", WALK_SETTINGS)
def test_every_applicable_pair_of_the_registry_plays_from_the_command_line(capsys, spec):
    setting = registry.load_setting(spec)
    pairs = applicable_pairs(setting)
    assert pairs, spec
    options = [[]] if spec.startswith("oco") else [[], ["--unrealizable"]]
    for learner, adversary in pairs:
        for extra in options:
            argv = ["play", learner, adversary, spec, "--rounds", str(WALK_ROUNDS), "-q", *extra]
            code, out, err = run(capsys, *argv)
            assert_played(code, out, err, argv)
            assert f" vs {adversary}" in out.splitlines()[0] or adversary in out.splitlines()[0]


def test_the_walk_reaches_every_player_of_the_registry():
    """Each learner and adversary plays on some setting of the walk (MinimaxAdversary needs its learner named,
    OrderMinimax the game's order: tests/test_cli_orders.py plays it)."""
    learners, adversaries = set(), set()
    for spec in WALK_SETTINGS:
        for L, A in applicable_pairs(registry.load_setting(spec)):
            learners.add(L)
            adversaries.add(A)
    assert learners == set(registry.names("learner"))
    assert adversaries == set(registry.names("adversary")) - {"MinimaxAdversary", "OrderMinimax"}
    with pytest.raises(NotApplicableError, match=r"MinimaxAdversary\(learner=halving\)"):
        registry.build("adversary", "MinimaxAdversary", classes.thresholds(3))
    with pytest.raises(NotApplicableError, match=r"give its order \(--order"):
        registry.build("adversary", "OrderMinimax", classes.thresholds(3))


@pytest.mark.parametrize("learner, spec", [("halving", "thresholds:7"), ("consistent", "singletons:5,empty"),
                                           ("soa", "monotone_disjunctions:3")])
def test_the_minimax_adversary_plays_by_name_and_forces_the_exact_worst_case(capsys, learner, spec):
    H = registry.load_setting(spec)
    exact = worst_case_mistakes(registry.build("learner", learner, H), H)
    code, out, err = run(capsys, "play", learner, f"MinimaxAdversary(learner={learner})", spec, "-q")
    assert code == 0, out + err
    assert facts(out)["mistakes"] == exact.value
    assert f"forced = {exact.value} on mistakes: holds" in out


WALK_CLASS = "thresholds:3"
PARTIAL_LINE = re.compile(r"^M_A\(H\)( over (\d+) rounds)? >= (\S+) and <= (\S+) \(partial: ")
EXACT_LINE = re.compile(r"^M_A\(H\)( over (\d+) rounds)? = (\S+) \(exact; ")


def worst_case_learners():
    H = registry.load_setting(WALK_CLASS)
    found = []
    for entry in registry.entries("learner"):
        try:
            registry.build("learner", entry, H, rounds=3)
        except NotApplicableError:
            continue
        found.append(entry.name)
    return found


@pytest.mark.parametrize("max_nodes", ["3", "2000"])
def test_worst_case_of_every_applicable_learner_from_the_command_line(capsys, max_nodes):
    H = registry.load_setting(WALK_CLASS)
    names = worst_case_learners()
    assert {"Halving", "SOA", "Consistent", "ExpertsFromClass", "OptimalRandomizedLearner"} <= set(names)
    for name in names:
        argv = ["worst-case", name, WALK_CLASS, "--max-nodes", max_nodes]
        code, out, err = run(capsys, *argv)
        if code == 2:  # a learner that changes state without a mistake, or is tuned for a horizon: give one
            one_line_error(err, "horizon")
            argv += ["--horizon", "3"]
            code, out, err = run(capsys, *argv)
        assert "Traceback" not in out + err and code in (0, 1, 3), (argv, code, out, err)
        horizon = 3 if "--horizon" in argv else None
        partial, exact = PARTIAL_LINE.match(out.splitlines()[2]), EXACT_LINE.match(out.splitlines()[2])
        assert (partial is not None) == (max_nodes == "3") and (exact is not None) == (max_nodes != "3"), (argv, out)
        if partial:
            lower, upper = float(partial.group(3)), float(partial.group(4))
            assert upper == (math.inf if horizon is None else horizon), (argv, out)  # proven by the search alone
            assert 0 <= lower <= upper
        else:
            lower = upper = float(exact.group(3))
        line = claim_line(out)
        claim = stated_bound(registry.build("learner", name, H, rounds=horizon), H, rounds=horizon)
        if not claim.stated:
            assert line == f"claim = none: {claim.reason}"
            assert code == (0 if exact else 3), (argv, code)
            continue
        assert line.startswith(f"claim = {claim.value:.4g} on {claim.measure}"), (argv, line)
        if lower > claim.value + 1e-9:
            assert ": BROKEN" in line and code == 1, (argv, out)
        elif upper <= claim.value + 1e-9:
            assert line.endswith("holds") if exact else "holds (proven: M_A(H) <= " in line, (argv, line)
            assert code in ((0, 3) if exact else (3,)), (argv, code)  # 3: the Ldim search ran out too
        else:
            assert ": undecided (a claim, not proven" in line and code == 3, (argv, out)


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
    (["plot", "thresholds:7", "--learners", "halving,sao", "--adversary", "opposite-label", "--out", "p.png"],
     ("'SOA'",)),
    (["plot", "thresholds:7", "--learners", "halving", "--adversary", "binary", "--out", "p.png"],
     ("adversary", "BinarySearchThreshold")),
    (["plot", "thresholds:7", "--learners", ",", "--adversary", "opposite-label", "--out", "p.png"], ("--learners",)),
    # players that cannot play on a setting, spaces where a finite class is searched
    (["play", "halving", "random-expert-losses", "experts:4"], ("Halving plays on finite classes", "experts(d=4)")),
    (["play", "weighted-majority", "opposite-label", "experts:4"], ("OppositeLabel does not apply to experts(d=4)",)),
    (["play", "halving", "minimax-adversary", "thresholds:7"], ("MinimaxAdversary", "learner=halving")),
    (["play", "halving", "minimax-adversary(learner=halving)", "experts:4"], ("finite class", "experts(d=4)")),
    (["play", "online-gradient-descent", "alternating-losses", "oco:d=1,radius=1", "--unrealizable"],
     ("--unrealizable", "online convex optimisation")),
    (["play", "halving", "ObliviousCoin(labels=sometimes)", "thresholds:7"], ("ObliviousCoin", "labels")),
    (["worst-case", "halving", "experts:4"], ("CLASS", "worst-case searches a finite class", "space")),
    (["ldim", "halfspaces:d=16,R=1,gamma=0.25"], ("CLASS", "ldim searches a finite class", "space")),
    (["tree", "k_disjunctions:1000,3", "--out", "t.png"], ("CLASS", "tree searches a finite class", "space")),
    (["tree", "thresholds:7", "--worst-case", "weighted-majority", "--out", "t.png"], ("expert advice",)),
    # import paths: a missing module or class, or a player of the other kind
    (["play", "no_such_module_xyz:Learner", "opposite-label", "thresholds:7"], ("learner", "cannot import")),
    (["play", f"{HERE}:NoSuchLearner", "opposite-label", "thresholds:7"], ("cannot import", "NoSuchLearner")),
    (["play", f"{HERE}:Replay", "opposite-label", "thresholds:7"], ("is an adversary, not a learner",)),
    (["worst-case", f"{HERE}:Replay", "thresholds:7"], ("is an adversary, not a learner",)),
    (["play", "halving", f"{HERE}:Boaster", "thresholds:7"], ("is a learner, not an adversary",)),
    (["play", "halving", "os.path", "thresholds:7"], ("adversary", "unknown name")),
])
def test_bad_input_exits_2_with_suggestions(capsys, tmp_path, monkeypatch, argv, needles):
    monkeypatch.chdir(tmp_path)
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
    takes_adversaries = argv[0] != "worst-case"  # worst-case takes a learner and no adversary
    for name in (*registry.names("learner"), *classes.ZOO):
        assert name in out, name
    assert ("adversaries (ADVERSARY):" in out) == takes_adversaries
    if takes_adversaries:
        assert all(name in out for name in registry.names("adversary"))
    assert "module:Class" in out
    spaces = registry.names("space")
    if argv[0] in ("worst-case", "tree"):  # they search finite classes: no space is offered
        assert not any(f"  {name}:" in out for name in spaces)
    else:
        assert all(f"  {name}:" in out for name in spaces)


# --------------------------------------------------------------------------- exit codes
# Test players are named on the command line by import path (HERE:Class), as users name theirs.
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

    def bound(self, setting, *, rounds=None, realizable=True, transcript=None):
        return Bound(0, source="a boast")


def test_play_interrupted_prints_the_rounds_played_and_exits_3(capsys, tmp_path):
    path = tmp_path / "game.jsonl"
    code, out, _ = run(capsys, "play", f"{HERE}:CountingLearner", "opposite-label", "thresholds:15",
                       "--unrealizable", "--out", str(path))
    assert code == 3
    assert out.startswith("interrupted after 2 rounds of CountingLearner")
    got = facts(out)
    # OppositeLabel in an unrealizable game answers 0 to every prediction 1
    assert (got["rounds"], got["mistakes"], got["expected mistakes"]) == (2, 2, 2)
    rows = table(out, "t ")
    assert [(int(r[0]), r[3], r[4], r[5]) for r in rows] == [(1, "1", "0", "yes"), (2, "1", "0", "yes")]
    assert "bound" not in out and not path.exists()  # no verdict on a game that did not finish, no file
    code, out, _ = run(capsys, "play", f"{HERE}:CountingLearner(stop=5)", "opposite-label", "thresholds:15",
                       "--unrealizable", "--quiet")
    assert code == 3 and facts(out)["rounds"] == 4 and "prediction" not in out


def test_ctrl_c_in_play_is_a_game_interrupted_with_the_rounds_played(capsys, monkeypatch):
    # the CLI reads the rounds played off the GameInterrupted that play raises, not off a wrapper
    import mistakebound.verification.judged as judged  # the one judged game the command calls plays here
    from mistakebound.foundations.errors import GameInterrupted

    seen = []
    real = judged.play

    def spy(*args, **kwargs):
        try:
            return real(*args, **kwargs)
        except GameInterrupted as exc:
            seen.append(len(exc.transcript))
            raise

    monkeypatch.setattr(judged, "play", spy)
    code, out, _ = run(capsys, "play", f"{HERE}:CountingLearner(stop=4)", "opposite-label", "thresholds:15",
                       "--unrealizable")
    assert code == 3 and seen == [3] and facts(out)["rounds"] == 3


def test_a_rule_broken_in_play_exits_1(capsys):
    code, out, err = run(capsys, "play", f"{HERE}:BadLearner", "opposite-label", "thresholds:7")
    assert code == 1
    assert "round 1, learner" in err and "predict_one returned 2" in err
    assert "rounds completed = 0" in out


def test_a_broken_bound_exits_1(capsys, tmp_path):
    path = tmp_path / "game.jsonl"
    code, out, _ = run(capsys, "play", f"{HERE}:Boaster", "opposite-label", "thresholds:7", "--out", str(path))
    assert code == 1
    assert "bound = 0 on mistakes: BROKEN (a boast)" in out
    summary = json.loads(path.read_text().splitlines()[-1])
    assert summary["verdict"] == "BROKEN" and summary["bound_holds"] is False
    assert summary["bound"]["value"] == 0 and summary["mistakes"] == facts(out)["mistakes"] > 0


def test_a_write_error_is_exit_2_even_when_a_bound_is_broken(capsys, tmp_path, monkeypatch):
    """Exit 2 (the file asked for is missing) outranks exit 1 (the verdict, printed above it)."""
    import errno
    import os

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    code, out, err = run(capsys, "play", f"{HERE}:Boaster", "opposite-label", "thresholds:7", "--out",
                         str(tmp_path / "game.jsonl"))
    assert code == 2 and "BROKEN (a boast)" in out
    assert "No space left on device" in err and len(err.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


def test_plot_interrupted_reports_the_finished_games(capsys, tmp_path):
    out_file = tmp_path / "p.png"
    code, out, _ = run(capsys, "plot", "thresholds:15", "--learners", f"halving,{HERE}:CountingLearner",
                       "--adversary", "opposite-label", "--rounds", "10", "--unrealizable", "--out", str(out_file))
    assert code == 3
    assert "interrupted after 1 of 2 games" in out
    assert table(out, "learner")[0][:3] == ["Halving", "10", "10"]
    assert not out_file.exists()


def test_a_rule_broken_in_plot_exits_1_like_play(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    out_file = tmp_path / "p.png"
    code, out, err = run(capsys, "plot", "thresholds:7", "--learners", f"halving,{HERE}:BadLearner",
                         "--adversary", "opposite-label", "--out", str(out_file))
    assert code == 1, out + err  # a game that errored, as in play; not bad input
    assert "predict_one returned 2" in err and "Traceback" not in err
    H = classes.thresholds(7)
    T = play(Halving(H), OppositeLabel(), H, rounds=100, seed=0)
    assert table(out, "learner")[0][:3] == ["Halving", str(len(T)), str(T.mistakes)]  # the game that finished
    assert "game 2 of 2 stopped" in out
    assert not out_file.exists()


def test_plot_judges_each_claim_and_exits_1_on_a_broken_one(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    out_file = tmp_path / "p.png"
    code, out, err = run(capsys, "plot", "thresholds:7", "--learners", f"halving,{HERE}:Boaster",
                         "--adversary", "opposite-label", "--out", str(out_file))
    assert code == 1, out + err
    rows = {r[0]: r for r in table(out, "learner")}
    assert rows["Halving"][-1] == "ok" and rows[f"{HERE}:Boaster"][-1] == "BROKEN"
    assert rows[f"{HERE}:Boaster"][-3:-1] == ["0", "(mistakes)"]
    assert out_file.stat().st_size > 1000  # the figure shows the broken claim too


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


def interval(out: str) -> tuple[float, float]:
    """The proven interval of a partial ``M_A(H) ... >= a and <= b`` line."""
    line = next(line for line in out.splitlines() if line.startswith("M_A(H)"))
    lower, upper = re.search(r">= (\S+) and <= (\S+) \(partial", line).groups()
    return float(lower), float(upper)


def claim_line(out: str) -> str:
    (line,) = [line for line in out.splitlines() if line.startswith("claim = ")]
    return line


def test_worst_case_interrupted_gives_proven_bounds_and_the_claim_apart(capsys, monkeypatch):
    """Ctrl-C in the search: the proven interval comes from the search, the claim is printed as a claim.

    (The old CLI printed Halving's claim, log2 |H|, as the proven upper bound.)
    """
    import mistakebound.theory.worst_case as wc

    real = wc.worst_case_mistakes

    def ctrl_c(n):
        raise KeyboardInterrupt

    def interrupted(learner, H, **kwargs):  # Ctrl-C at the search's first progress report
        return real(learner, H, **{**kwargs, "progress": ctrl_c})

    monkeypatch.setattr(wc, "worst_case_mistakes", interrupted)
    # a random 256 x 10 class: Halving's search visits 579 positions (on thresholds the majority's bound
    # settles it in a few dozen, before any progress report, and on singletons merging relabelled copies does)
    code, out, _ = run(capsys, "worst-case", "halving", "random:256,10,0.5,2")
    assert code == 3
    H = classes.random(256, 10, 0.5, 2)
    lower, upper = interval(out)
    assert "partial: interrupted" in out
    assert upper == math.inf  # not Halving's claim log2 |H| = 6: a claim is not a proof
    pairs = worst_line(out)
    assert play(Halving(H), Replay(pairs), H, rounds=len(pairs), seed=0).mistakes == lower >= 1
    assert claim_line(out) == (
        f"claim = {stated_bound(Halving(H), H).value:g} on mistakes ({stated_bound(Halving(H), H).source}): undecided "
        f"(a claim, not proven: the search proved only M_A(H) >= {lower:g} and <= inf)"
    )


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
    # the old CLI printed the upper bound log2 |H| (Halving's claim) as proven
    H = classes.singletons(10)
    code, out, _ = run(capsys, "worst-case", "Halving", "singletons:10", "--max-nodes", "5")
    assert code == 3
    lower, upper = interval(out)
    assert 1 <= lower and upper == math.inf
    assert "the budget ran out after 5 positions" in out
    assert claim_line(out).startswith(f"claim = {math.log2(H.n_hypotheses):.4g} on mistakes")
    assert claim_line(out).endswith(
        f"undecided (a claim, not proven: the search proved only M_A(H) >= {lower:g} and <= inf)")
    # horizon 3: the majority's bound (2 after a move that does not err) leaves many moves to try
    code, out, _ = run(capsys, "worst-case", "Halving", "singletons:10", "--max-nodes", "5", "--horizon", "3")
    assert code == 3 and interval(out)[1] == 3  # with a horizon, the horizon is a proven upper bound
    assert claim_line(out).endswith("holds (proven: M_A(H) <= 3)")  # 3 <= log2 10: proven by the search


def test_worst_case_of_a_randomized_learner_with_a_horizon(capsys):
    code, out, _ = run(capsys, "worst-case", "ExpertsFromClass", "thresholds:3", "--horizon", "2")
    assert code == 0
    rows = table(out, "t ")
    assert len(rows) == 2
    gains = [float(r[4]) if r[4] not in ("yes", "no") else float(r[4] == "yes") for r in rows]
    assert facts(out)["M_A(H) over 2 rounds"] == pytest.approx(sum(gains), abs=1e-3)


# ------------------------------------------------------------- a wrong claim, tested by the search
@pytest.fixture
def halving_exceeds_ldim_file(tmp_path):
    """``halving_exceeds_ldim()`` saved as a .json class file: Ldim 2, majority vote's worst case 3."""
    from mistakebound.game.class_files import save_class
    from mistakebound.game.counterexamples import halving_exceeds_ldim

    path = tmp_path / "halving_exceeds_ldim.json"
    save_class(halving_exceeds_ldim(), path)
    return path


def test_worst_case_reports_a_wrong_claim_as_broken_and_exits_1(capsys, halving_exceeds_ldim_file):
    from mistakebound.game.class_files import load_class

    code, out, err = run(capsys, "worst-case", f"{HERE}:MajorityVote", str(halving_exceeds_ldim_file))
    assert code == 1, out + err
    assert out.splitlines()[1] == "class: halving_exceeds_ldim"
    assert facts(out)["M_A(H)"] == 3 and facts(out)["Ldim"] == 2
    assert claim_line(out) == "claim = 1 on mistakes (a wrong claim): BROKEN (the adversary's line forces 3)"
    H = load_class(halving_exceeds_ldim_file)
    pairs = worst_line(out)  # the line that breaks the claim, replayed
    assert play(MajorityVote(H), Replay(pairs), H, rounds=len(pairs), seed=0).mistakes == 3
    # an honest claim of the same learner holds; the search's value does not move with the claim
    code, honest, _ = run(capsys, "worst-case", f"{HERE}:MajorityVote(claim=3)", str(halving_exceeds_ldim_file))
    assert code == 0
    assert claim_line(honest) == "claim = 3 on mistakes (a wrong claim): holds"
    assert honest.splitlines()[0] == "learner: MajorityVote(claim=3)"
    assert honest.splitlines()[1:-1] == out.splitlines()[1:-1]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(max_nodes=st.integers(1, 40))
def test_a_search_stopped_early_proves_an_interval_that_does_not_use_the_claim(capsys, halving_exceeds_ldim_file,
                                                                                max_nodes):
    from mistakebound.game.class_files import load_class

    path = str(halving_exceeds_ldim_file)
    H = load_class(path)
    runs = {}
    for claim in (1, 5, 100):
        code, out, err = run(capsys, "worst-case", f"{HERE}:MajorityVote(claim={claim})", path,
                             "--max-nodes", str(max_nodes))
        assert "Traceback" not in err and code in (0, 1, 3), err
        runs[claim] = (code, out)
        head = f"claim = {claim} on mistakes (a wrong claim): "
        first = next(line for line in out.splitlines() if line.startswith("M_A(H)"))
        if "(exact" in first:
            assert facts(out)["M_A(H)"] == 3
            assert claim_line(out) == head + ("BROKEN (the adversary's line forces 3)" if claim < 3 else "holds")
            continue
        lower, upper = interval(out)
        assert upper == math.inf  # proven by the search alone: never the claim, never below the lower bound
        assert 0 <= lower <= 3
        pairs = worst_line(out) if lower else []
        assert play(MajorityVote(H), Replay(pairs), H, rounds=max(len(pairs), 1), seed=0).mistakes == lower
        if lower > claim:  # the line found already exceeds the claim: broken, though the search is partial
            assert code == 1 and claim_line(out) == head + f"BROKEN (the adversary's line forces {lower:g})"
        else:
            assert code == 3 and claim_line(out) == head + (
                f"undecided (a claim, not proven: the search proved only M_A(H) >= {lower:g} and <= inf)")
    # the claim changes the claim line and the exit code, nothing the search proved
    outputs = {tuple(out.splitlines()[1:-1]) for _, out in runs.values()}
    assert len(outputs) == 1


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
    # a paper's text width whatever the tree: 6.5 inches (845 px at 130 dpi, 468 pt of SVG)
    assert sizes["thresholds:15"] == sizes["thresholds:3"] == (845, 468.0)


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


PLOT_SPACES = [
    # (setting, learners, adversary, options, the measure drawn)
    ("experts:4", "weighted-majority,deterministic-weighted-majority", "random-expert-losses",
     ["--unrealizable", "--rounds", "50"], "regret"),
    ("oco:d=1,radius=1", "online-gradient-descent,follow-the-leader", "alternating-losses", ["--rounds", "20"],
     "regret"),
    ("halfspaces:d=4,R=1,gamma=0.25", "perceptron,randomized-linear-classifier", "separable-stream",
     ["--rounds", "40"], "mistakes"),
    ("k_disjunctions:100,2", "winnow,disjunction-elimination", "disjunction-adversary", ["--rounds", "40"], "mistakes"),
]


@pytest.mark.parametrize("spec, learners, adversary, options, measure", PLOT_SPACES)
def test_plot_on_spaces_and_oco(capsys, tmp_path, spec, learners, adversary, options, measure):
    pytest.importorskip("matplotlib")
    path = tmp_path / "space.png"
    code, out, err = run(capsys, "plot", spec, "--learners", learners, "--adversary", adversary, *options,
                         "--out", str(path))
    assert code == 0, out + err
    png_size(path)
    rows = {r[0]: r for r in table(out, "learner")}
    S = registry.load_setting(spec)
    rounds = int(options[options.index("--rounds") + 1])
    realizable = "--unrealizable" not in options
    for name in learners.split(","):
        learner = registry.build("learner", name, S, rounds=rounds)
        label = registry.find("learner", name).name
        A = registry.build("adversary", adversary, S, rounds=rounds)
        if spec.startswith("oco"):
            T = play_oco(learner, A, d=S.d, rounds=rounds, seed=0, radius=S.radius)
            assert float(rows[label][4]) == pytest.approx(T.best_fixed_regret(), rel=1e-3)
        else:
            T = play(learner, A, S, rounds=rounds, seed=0, realizable=realizable)
            assert int(rows[label][2]) == T.mistakes
        assert int(rows[label][1]) == len(T)
        claim = stated_bound(learner, S, rounds=rounds, realizable=realizable, transcript=T)
        if claim.stated:
            assert rows[label][5] == f"{claim.value:.4g}" and rows[label][-1] == "ok"
    if measure == "regret":  # the claims drawn are those on the regret
        assert any(r[-2] == "(regret)" for r in rows.values())


def test_progress_goes_to_stderr_and_leaves_stdout_alone(capsys, monkeypatch):
    _, quiet_out, quiet_err = run(capsys, "play", "halving", "binary-search-threshold", "thresholds:15")
    monkeypatch.setenv(ENV_VARIABLE, "1")
    code, out, err = run(capsys, "play", "halving", "binary-search-threshold", "thresholds:15")
    assert code == 0 and out == quiet_out and quiet_err == ""
    assert "play" in err and "ETA" in err


# ------------------------------------------------------------------ names on the command line
# (the registry itself is tested in tests/test_registry.py; here: that the CLI uses it)
def test_names_ignore_case_and_separators_on_the_command_line(capsys):
    _, expected, _ = run(capsys, "play", "Halving", "OppositeLabel", "thresholds:7")
    for argv in (["HALVING", "opposite_label", "Thresholds:7"], ["hal-ving", "Opposite-Label", "THRESHOLDS(7)"]):
        code, out, err = run(capsys, "play", *argv)
        assert code == 0, err
        assert out == expected


def test_unknown_names_list_close_matches_and_every_known_name(capsys):
    code, out, err = run(capsys, "play", "halving", "binary-serch", "thresholds:7")
    assert code == 2 and out == ""
    one_line_error(err, "did you mean 'BinarySearchThreshold'", *registry.names("adversary"))
    code, _, err = run(capsys, "worst-case", "zzz", "thresholds:7")
    assert code == 2
    one_line_error(err, "known learners", *registry.names("learner"))


def test_bounds_follow_the_game(capsys):
    """Which claim a game gets depends on the game: realizable or not, its horizon."""
    code, out, _ = run(capsys, "play", "halving", "oblivious-coin", "thresholds:7", "--unrealizable", "-q")
    assert code == 0
    assert facts(out)["bound"] == "none:" and "needs a realizable game" in out
    H = classes.thresholds(7)
    expected = math.sqrt(2 * 9 * math.log(8))  # Corollary 21.12: sqrt(2 T ln |H|)
    for options, measure in (([], "expected mistakes"), (["--unrealizable"], "regret")):
        code, out, _ = run(capsys, "play", "experts-from-class", "oblivious-coin", "thresholds:7", "--rounds", "9",
                           "-q", *options)
        assert code == 0
        assert facts(out)["bound"] == pytest.approx(expected, rel=1e-3)
        assert f" on {measure}: holds (Corollary 21.12" in out
    learner = registry.build("learner", "experts-from-class", H, rounds=9)
    assert stated_bound(learner, H, rounds=9).value == pytest.approx(expected)


def test_worst_case_reports_positions_to_the_bar_when_the_search_takes_a_callback(capsys, monkeypatch):
    import mistakebound.theory.worst_case as wc

    real = wc.worst_case_mistakes
    seen = []

    def with_callback(learner, H, *, progress=None, **budget):
        seen.append(progress)
        progress(7)
        return real(learner, H, **budget)

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


def docs_figure_commands() -> list[str]:
    """The ``mistakebound tree`` / ``mistakebound plot`` lines of the documentation's shell blocks."""
    docs = Path(__file__).resolve().parents[1] / "docs"
    pages = "\n".join(p.read_text(encoding="utf-8") for p in sorted(docs.glob("*.md"))) if docs.is_dir() else ""
    blocks = re.findall(r"^```(\w*)[^\n]*\n(.*?)^```\s*$", pages, re.S | re.M)
    return [
        line.strip()
        for lang, body in blocks
        if lang in ("bash", "sh", "shell")
        for line in body.splitlines()
        if line.strip().startswith(("mistakebound tree", "mistakebound plot"))
    ]


DOCS_FIGURE_COMMANDS = docs_figure_commands()


@pytest.mark.skipif(not DOCS_FIGURE_COMMANDS, reason="no docs/ folder (an unpacked wheel)")
@pytest.mark.parametrize("command", DOCS_FIGURE_COMMANDS or ["-"])
def test_docs_figure_commands_run(capsys, tmp_path, monkeypatch, command):
    pytest.importorskip("matplotlib")
    monkeypatch.chdir(tmp_path)
    argv = shlex.split(command)[1:]
    code, out, err = run(capsys, *argv)
    assert code == 0, out + err
    written = tmp_path / argv[argv.index("--out") + 1]
    assert written.stat().st_size > 1000


class ClaimRaises(Halving):
    """Halving whose claim raises: a bug in the learner, found after its game."""

    def bound(self, setting, *, rounds=None, realizable=True, transcript=None):
        raise RuntimeError("no idea")


def test_a_claim_that_raises_after_the_game_keeps_the_game_and_exits_1(capsys):
    code, out, err = run(capsys, "play", "tests.test_cli_play:ClaimRaises", "opposite-label", "thresholds:7")
    assert code == 1
    assert "mistakes = " in out and "rounds = " in out  # nothing already played is lost
    assert "bound = not judged: ClaimRaises.bound: raised RuntimeError: no idea" in out
    assert "ClaimRaises.bound" in err and "Traceback" not in err


# ------------------------------------------------------------------ the game's other settings (issue 23)
@pytest.mark.parametrize("spec, options, rules", [
    ("all_functions:2,3", ["--feedback", "bandit"], dict(labels=3, feedback="bandit")),
    ("thresholds:7", ["--noise", "1"], dict(noise=1)),
    ("one_vs_rest:3,4", ["--feedback", "bandit", "--noise", "1"], dict(labels=4, feedback="bandit", noise=1)),
])
def test_play_takes_the_rules_and_the_optimal_players_reach_the_librarys_value(capsys, spec, options, rules):
    from mistakebound.game.rules import Rules
    from mistakebound.theory.game_values import game_value

    R = Rules(**rules)
    params = f"(feedback={R.feedback},noise={R.noise})"
    code, out, err = run(capsys, "play", "GameSOA" + params, "GameMinimax" + params, spec, "-q", *options)
    value = game_value(classes.from_spec(spec), R).value
    assert code == 0, err
    assert f"mistakes = {value}" in out.splitlines()
    assert R.describe() in out.splitlines()[0]  # the header names the rules
    assert f"bound = {value} on mistakes: holds" in out


def test_play_refuses_rules_a_player_does_not_play_before_the_game(capsys):
    code, out, err = run(capsys, "play", "Halving", "OppositeLabel", "thresholds:7", "--feedback", "bandit")
    assert code == 2 and out == ""
    assert err.strip() == ("mistakebound play: error: learner: Halving does not declare bandit feedback (its "
                           "feedbacks are ('full',)); a learner for bandit feedback lists it (feedbacks = ('full', "
                           "'bandit')) and reads learn_one's feedback.correct, not a label")
    code, out, err = run(capsys, "play", "PluralityHalving", "OppositeLabel", "all_functions:2,3")
    assert code == 2 and "OppositeLabel plays the textbook's game (two labels, no noise)" in err
    code, out, err = run(capsys, "play", "Halving", "GameMinimax", "all_functions:2,3")
    assert code == 2 and "Halving, a learner of 0/1 classes, needs a class of labels 0 and 1" in err
    code, out, err = run(capsys, "play", "Halving", "GameMinimax", "thresholds:7", "--labels", "3")
    assert code == 2 and "labels: thresholds(7) has 2 labels, and 3 were asked for" in err
