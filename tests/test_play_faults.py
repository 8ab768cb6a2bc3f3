"""Faults at the engine's edges: hostile players, code named in configs, long games, shrinking.

Each test plants a fault and checks what the framework promises about it:

* the trust boundary: validating a sweep configuration imports nothing it names; a
  ``module:Class`` is imported only when a cell runs, only to a learner or adversary
  class (nothing found is ever called); ``this:s``, ``os:abort``, ``builtins:input``
  and ``..:x`` are refused as text, without effect; ``--no-import`` refuses every
  import path; TOML nested too deeply is bad input;
* the engine keeps its own state: the history the players read is read-only, a class's
  matrix cannot be made writable, a move whose comparison raises is an illegal move,
  and ``SystemExit`` from a player is that player's error;
* ``play(..., keep="totals")`` keeps only the totals (equal to those of the full game)
  and memory that does not grow with the rounds, and ``play --stream`` writes the same
  file as ``play --out``;
* the users' kit keeps the counterexample it found while shrinking.
"""

from __future__ import annotations

import io
import json
import pickle
import subprocess
import sys
import textwrap
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mistakebound import HypothesisClass, classes
from mistakebound.adversaries import (
    BasisVectorForcer,
    DisjunctionStream,
    ObliviousCoin,
    OppositeLabel,
    RandomExpertLosses,
    SeparableStream,
)
from mistakebound.foundations.errors import (
    GameInterrupted,
    IllegalInstanceError,
    IllegalLabelError,
    IllegalPredictionError,
    InvalidArgumentError,
    PlayerError,
)
from mistakebound.game import registry
from mistakebound.game.play import GameState, play
from mistakebound.game.players import Adversary, ObliviousAdversary
from mistakebound.game.spaces import ExpertAdvice, KDisjunctionSpace, LinearSpace
from mistakebound.game.transcript import History, RoundsNotKept, round_record
from mistakebound.interfaces.cli import main
from mistakebound.interfaces.sweep.config import SweepConfig, load_config, resolve_player
from mistakebound.learners import Halving, Perceptron, WeightedMajority, Winnow
from mistakebound.verification.check_failures import _delete_rows_and_columns
from mistakebound.verification.checks import BoundViolation, check_learner
from tests.players import VoteFraction

pytestmark = pytest.mark.faults

ROOT = Path(__file__).resolve().parents[1]

GAME = {"kind": "game", "adversaries": ["OppositeLabel"], "classes": ["thresholds"], "sizes": [3],
        "seeds": [0], "horizons": [5]}


# ====================================================================== trust boundary
@pytest.fixture
def evil(tmp_path, monkeypatch):
    """A user's module beside a config: importing it, or calling its factory, leaves a mark."""
    (tmp_path / "evilmod.py").write_text(textwrap.dedent('''
        import pathlib
        pathlib.Path("imported.mark").write_text("evilmod ran")
        from mistakebound.learners import Halving

        class Evil(Halving):
            """Halving, planted by import path."""

        def make(H):
            pathlib.Path("called.mark").write_text("make ran")
            return Halving(H)

        not_a_class = Halving
        instance = object()
    '''))
    (tmp_path / "abortmod.py").write_text("import os\nos.abort()\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    for name in ("evilmod", "abortmod"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    return tmp_path


def _config(path: Path, learners: list, **extra) -> Path:
    lines = ["[[grid]]", f"learners = {json.dumps(learners)}"]
    for key, value in {**GAME, **extra}.items():
        lines.append(f"{key} = {json.dumps(value)}")
    path.write_text("\n".join(lines) + "\n")
    return path


def test_validating_a_config_imports_nothing_it_names(evil):
    config = load_config(_config(evil / "s.toml", ["evilmod:Evil", "evilmod:make(eta=1)", "halving",
                                                   "abortmod:Anything"]))
    assert config.grids[0].learners == ("evilmod:Evil", "evilmod:make(eta=1)", "Halving", "abortmod:Anything")
    assert "evilmod" not in sys.modules and "abortmod" not in sys.modules
    assert not (evil / "imported.mark").exists() and not (evil / "called.mark").exists()


def test_a_module_that_aborts_on_import_is_never_imported_by_validation(evil):
    # in a child process: if validation imported abortmod, the child would die of SIGABRT
    _config(evil / "s.toml", ["abortmod:Learner"])
    code = ("from mistakebound.interfaces.sweep.config import load_config; "
            "print(load_config('s.toml').grids[0].learners)")
    done = subprocess.run([sys.executable, "-c", code], cwd=evil, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "abortmod:Learner" in done.stdout


@pytest.mark.parametrize("name, needle", [
    ("this:s", "standard library module 'this'"),
    ("os:abort", "standard library module 'os'"),
    ("builtins:input", "standard library module 'builtins'"),
    ("subprocess:Popen", "standard library module 'subprocess'"),
    ("..:x", "not an import path"),
    (".evilmod:Evil", "not an import path"),
    ("evilmod:", "not an import path"),
    ("evilmod:Evil.", "not an import path"),
    ("evil mod:Evil", "not an import path"),
    ("evilmod:class", "not an import path"),
])
def test_import_paths_are_refused_as_text_without_effect(evil, capsys, name, needle):
    for kind in ("learner", "adversary"):
        with pytest.raises(InvalidArgumentError, match="grid") as info:
            SweepConfig.from_dict({"grid": [{**GAME, "learners": ["halving"], "adversaries": ["OppositeLabel"],
                                             f"{kind}s" if kind == "learner" else "adversaries": [name]}]})
        assert needle in str(info.value) and "\n" not in str(info.value)
        with pytest.raises(InvalidArgumentError, match=needle.split()[0]):  # the run-time path refuses too
            registry.find(kind, name)
    assert capsys.readouterr() == ("", "")  # `this` prints the Zen of Python when imported: it was not
    assert "this" not in sys.modules or sys.modules["this"] is not None


def test_builtins_input_does_not_wait_and_os_abort_does_not_kill(evil):
    # in a child process with no stdin: input() would fail, abort() would kill it
    code = textwrap.dedent('''
        from mistakebound.game import registry
        from mistakebound.foundations.errors import InvalidArgumentError
        for name in ("builtins:input", "os:abort", "this:s"):
            for kind in ("learner", "adversary"):
                try:
                    registry.build(kind, name, registry.load_setting("thresholds:3"))
                except InvalidArgumentError as exc:
                    print("refused", name)
    ''')
    done = subprocess.run([sys.executable, "-c", code], cwd=evil, capture_output=True, text=True, timeout=120,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("refused") == 6 and "Beautiful is better" not in done.stdout


def test_module_class_resolves_only_to_player_classes_and_never_calls_anything(evil):
    H = classes.thresholds(3)
    assert type(registry.build("learner", "evilmod:Evil", H)).__name__ == "Evil"
    assert (evil / "imported.mark").exists()  # imported when resolved, as a script would be
    for name, what in [("evilmod:make", "function object, not a learner class"),
                       ("evilmod:instance", "object object, not a learner class"),
                       ("evilmod:pathlib", "module object, not a learner class")]:
        with pytest.raises(InvalidArgumentError, match=what):
            registry.build("learner", name, H)
    assert not (evil / "called.mark").exists()  # the factory was never called
    with pytest.raises(InvalidArgumentError, match="is a learner, not an adversary"):
        registry.find("adversary", "evilmod:not_a_class")


def test_no_import_refuses_every_import_path_and_keeps_registered_names(evil, capsys):
    path = _config(evil / "s.toml", ["halving", "evilmod:Evil"])
    with pytest.raises(InvalidArgumentError, match=r"grid\[0\]\.learners\[1\]: 'evilmod:Evil' is an import path"):
        load_config(path, allow_imports=False)
    assert load_config(_config(evil / "t.toml", ["halving", "SOA"]), allow_imports=False).grids[0].learners == \
        ("Halving", "SOA")
    code = main(["sweep", str(path), "--no-import", "--executor", "inprocess", "--no-progress"])
    captured = capsys.readouterr()
    assert code == 2, captured
    lines = [line for line in captured.err.splitlines() if line.strip()]
    assert len(lines) == 1 and "--no-import" in lines[0] and "Traceback" not in captured.err
    assert not (evil / "imported.mark").exists() and not (evil / "s.csv").exists()
    with pytest.raises(InvalidArgumentError, match="imports are not allowed"):
        resolve_player("evilmod:Evil(eta=1)", "learner", "k", allow_imports=False)


def test_a_sweep_imports_a_module_class_when_it_runs_its_cell(evil):
    from mistakebound.interfaces.sweep.runner import sweep

    config = load_config(_config(evil / "s.toml", ["evilmod:Evil", "evilmod:make", "halving"]))
    assert not (evil / "imported.mark").exists()
    result = sweep(config, out=evil / "s.csv", executor="inprocess", progress=False)
    by_learner = {r["learner"]: r for r in result.records}
    assert (evil / "imported.mark").exists()
    assert by_learner["evilmod:Evil"]["verdict"] == "ok"
    assert by_learner["evilmod:make"]["verdict"] == "error"
    assert "not a learner class" in by_learner["evilmod:make"]["error"]
    assert not (evil / "called.mark").exists()


def test_deeply_nested_toml_is_bad_input_in_one_line(tmp_path, capsys):
    for text in ("x = " + "[" * 50_000, "[[grid]]\nlearners = " + "[" * 50_000 + "]" * 50_000,
                 "x = " + "{a = " * 20_000 + "1" + "}" * 20_000):
        with pytest.raises(InvalidArgumentError, match="nested too deeply|not valid TOML") as info:
            SweepConfig.from_toml(text)
        assert "\n" not in str(info.value)
    path = tmp_path / "deep.toml"
    path.write_text("x = " + "[" * 50_000)
    code = main(["sweep", str(path), "--executor", "inprocess", "--no-progress"])
    captured = capsys.readouterr()
    assert code == 2 and "Traceback" not in captured.err
    assert len([line for line in captured.err.splitlines() if line.strip()]) == 1


# ==================================================================== hostile players
class HistoryVandal(Adversary):
    """Asks the disagreeing instance and answers against the prediction, trying to rewrite the past."""

    def __init__(self):
        self.succeeded = []

    def next_instance(self, state):
        attempts = {
            "history.clear()": lambda: state.history.clear(),
            "history.append()": lambda: state.history.append("forged"),
            "history[0] = ...": lambda: state.history.__setitem__(0, "forged"),
            "del history[0]": lambda: state.history.__delitem__(0),
            "state.history = []": lambda: setattr(state, "history", []),
            "state.versions = None": lambda: setattr(state, "versions", None),
            "versions.restrict()": lambda: state.versions.restrict(0, 1),
            "version_space[0] = 99": lambda: state.version_space.__setitem__(0, 99),
            "H.matrix writable": lambda: state.H.matrix.setflags(write=True),
        }
        for what, attempt in attempts.items():
            try:
                attempt()
            except (AttributeError, TypeError, ValueError, IndexError):
                continue
            self.succeeded.append(what)
        open_questions = state.disagreements()
        return open_questions[len(open_questions) // 2] if open_questions else None

    def label(self, state, x, p):
        return 1 - int(p >= 0.5)


def test_players_cannot_rewrite_the_history_the_versions_or_the_class():
    H = classes.thresholds(15)
    vandal = HistoryVandal()
    T = play(Halving(H), vandal, H, rounds=20, seed=0)
    assert vandal.succeeded == []
    assert [r.t for r in T.rounds] == list(range(1, len(T) + 1)) and T.mistakes == len(T) == 4
    consistent = [i for i in range(H.n_hypotheses) if all(H.label(i, r.x) == r.y for r in T.rounds)]
    assert T.version_space == tuple(consistent)


def test_the_history_is_a_read_only_view_that_slices_to_tuples():
    seen = []

    class Reader(HistoryVandal):
        def next_instance(self, state):
            seen.append((type(state.history), state.history[:], len(state.history), state.t))
            return super().next_instance(state)

    H = classes.thresholds(7)
    play(Halving(H), Reader(), H, rounds=10, seed=0)
    assert all(kind is History and type(rounds) is tuple and len(rounds) == n == t - 1
               for kind, rounds, n, t in seen)
    with pytest.raises(AttributeError):
        GameState(H=H, rounds=3, realizable=True, rng=np.random.default_rng(0)).history.clear()


class Scribbler:
    """A learner that tries to write into the class it was given."""

    def __init__(self, H):
        self.H, self.attempts = H, []

    def predict_one(self, x):
        for target in (self.H.matrix, self.H.matrix.base, self.H.column(x), self.H.matrix[:, :1]):
            try:
                target.setflags(write=True)
                target[...] = 1
                self.attempts.append("wrote")
            except ValueError:
                self.attempts.append("refused")
        try:
            self.H._index[x] = 0
            self.attempts.append("wrote")
        except TypeError:
            self.attempts.append("refused")
        return 0

    def learn_one(self, x, y):
        pass


def test_a_learner_cannot_make_the_class_matrix_writable():
    H = classes.random(40, 8, 0.5, 0)
    before = H.matrix.copy()
    scribbler = Scribbler(H)
    play(scribbler, ObliviousCoin(labels="coin"), H, rounds=5, seed=0, realizable=False)
    assert set(scribbler.attempts) == {"refused"}
    assert np.array_equal(H.matrix, before)
    for G in (pickle.loads(pickle.dumps(H)), HypothesisClass(domain=H.domain, matrix=np.array(before)),
              HypothesisClass.from_matrix(before), H.restrict([0, 1])):
        assert G.matrix.base is not None
        with pytest.raises(ValueError, match="WRITEABLE"):
            G.matrix.setflags(write=True)


class Touchy(float):
    """A float whose comparisons (and conversion) raise."""

    def __eq__(self, other):
        raise RuntimeError("do not compare me")

    __ne__ = __lt__ = __le__ = __gt__ = __ge__ = __eq__
    __hash__ = float.__hash__

    def __float__(self):
        raise RuntimeError("do not convert me")


class Exiting(float):
    def __eq__(self, other):
        raise SystemExit(7)

    __hash__ = float.__hash__


class Constant:
    def __init__(self, value, proba=False):
        self.value = value
        if proba:
            self.predict_proba_one = lambda x: self.value

    def predict_one(self, x):
        return self.value

    def learn_one(self, x, y):
        pass


class Labels(Adversary):
    def __init__(self, label):
        self.label_value = label

    def next_instance(self, state):
        return state.H.domain[state.t % state.H.n_instances]

    def label(self, state, x, p):
        return self.label_value if state.t == 2 else 0


class Committed(ObliviousAdversary):
    def __init__(self, pairs):
        self.pairs = pairs

    def commit(self, H, rounds, rng, realizable):
        return self.pairs


@pytest.mark.parametrize("value", [Touchy(1.0), Exiting(1.0)])
def test_moves_whose_comparison_raises_are_illegal_moves_naming_the_round(value):
    H = classes.thresholds(3)
    for adversary in (Labels(0), Committed([(1, 0)] * 3)):
        with pytest.raises(IllegalPredictionError) as info:
            play(Constant(value), adversary, H, rounds=3, seed=0, realizable=False)
        assert info.value.round == 1 and info.value.player == "learner"
    if isinstance(value, Touchy):
        with pytest.raises(IllegalPredictionError, match="probability") as info:
            play(Constant(value, proba=True), Labels(0), H, rounds=3, seed=0, realizable=False)
        assert info.value.round == 1
    with pytest.raises(IllegalLabelError) as info:
        play(Constant(0), Labels(value), H, rounds=3, seed=0, realizable=False)
    assert (info.value.round, info.value.player, len(info.value.transcript)) == (2, "adversary", 1)
    with pytest.raises(IllegalLabelError) as info:
        play(Constant(0), Committed([(1, 0), (2, value), (3, 0)]), H, rounds=3, seed=0, realizable=False)
    assert (info.value.round, len(info.value.transcript)) == (2, 1)


class ExitingAt:
    """A player whose chosen method raises SystemExit(7) in round 2."""

    def __init__(self, where):
        self.where, self.t = where, 0

    def predict_one(self, x):
        self.t += 1
        if self.where == "predict_one" and self.t == 2:
            raise SystemExit(7)
        return 0

    def learn_one(self, x, y):
        if self.where == "learn_one" and self.t == 2:
            sys.exit(7)


class ExitingAdversary(OppositeLabel):
    def next_instance(self, state):
        if state.t == 2:
            raise SystemExit(7)
        return super().next_instance(state)


def test_system_exit_from_a_player_is_a_player_error_not_an_exit():
    H = classes.thresholds(7)
    for learner, adversary, player in [(ExitingAt("predict_one"), OppositeLabel(), "learner"),
                                       (ExitingAt("learn_one"), OppositeLabel(), "learner"),
                                       (ExitingAt("predict_one"), ObliviousCoin(labels="coin"), "learner"),
                                       (ExitingAt("learn_one"), ObliviousCoin(labels="coin"), "learner"),
                                       (Halving(H), ExitingAdversary(), "adversary")]:
        with pytest.raises(PlayerError, match="SystemExit") as info:
            play(learner, adversary, H, rounds=5, seed=0, realizable=False)
        assert (info.value.round, info.value.player, len(info.value.transcript)) == (2, player, 1)
        assert isinstance(info.value.__cause__, SystemExit)


def test_ctrl_c_from_a_player_still_interrupts_the_game():
    class Interrupting(ExitingAt):
        def predict_one(self, x):
            if self.t == 1:
                raise KeyboardInterrupt
            self.t += 1
            return 0

    with pytest.raises(GameInterrupted) as info:
        play(Interrupting("none"), OppositeLabel(), classes.thresholds(3), rounds=5, seed=0, realizable=False)
    assert len(info.value.transcript) == 1


def test_an_instance_whose_hash_exits_is_an_illegal_instance_and_the_stored_instance_is_the_class_s_own():
    class BadHash:
        def __hash__(self):
            raise SystemExit(3)

    class Weird(int):  # equal to a domain element, but a player's object
        pass

    H = classes.thresholds(3)
    with pytest.raises(IllegalInstanceError) as info:
        play(Constant(0), Committed([(BadHash(), 0)]), H, rounds=2, seed=0)
    assert info.value.round == 1
    T = play(Constant(0), Committed([(Weird(2), 0), (np.int64(1), 0)]), H, rounds=2, seed=0, realizable=False)
    assert [type(r.x) for r in T.rounds] == [int, int]


# =========================================================================== streaming
def _same_totals(a, b) -> None:
    for attribute in ("mistakes", "expected_mistakes", "regret", "best_hypothesis_mistakes", "version_space",
                      "R", "gamma", "comparator", "target", "seed", "learner", "adversary", "class_name"):
        assert getattr(a, attribute) == getattr(b, attribute), attribute
    assert len(a) == len(b)


def _games():
    H = classes.random(60, 9, 0.5, 3)
    linear, experts, disjunctions = LinearSpace(4, R=1, gamma=0.1), ExpertAdvice(5), KDisjunctionSpace(30, 2)
    return [
        ("halving-coin", lambda: Halving(H), lambda: ObliviousCoin(), H, True),
        ("halving-opposite", lambda: Halving(H), lambda: OppositeLabel(), H, False),
        ("randomized", lambda: VoteFraction(H), lambda: ObliviousCoin(labels="coin"), H, False),
        ("randomized-adaptive", lambda: VoteFraction(H), lambda: OppositeLabel(), H, False),
        ("perceptron", lambda: Perceptron(), lambda: SeparableStream(d=4, R=1, gamma=0.1), linear, True),
        ("perceptron-free", lambda: Perceptron(), lambda: SeparableStream(d=4, R=1, gamma=0.1), LinearSpace(4), True),
        ("experts", lambda: WeightedMajority(d=5, T=5000), lambda: RandomExpertLosses(), experts, False),
        ("winnow", lambda: Winnow(n=30), lambda: DisjunctionStream(k=2), disjunctions, True),
        ("certificate-at-the-end", lambda: Perceptron(), lambda: BasisVectorForcer(), LinearSpace(6, R=1), True),
    ]


@pytest.mark.parametrize("name, learner, adversary, H, realizable", _games(), ids=[g[0] for g in _games()])
def test_keeping_only_totals_gives_the_same_totals_and_file(name, learner, adversary, H, realizable):
    rounds = 5000 if name != "certificate-at-the-end" else 30  # past one block of rounds (4096)
    full = play(learner(), adversary(), H, rounds=rounds, seed=5, realizable=realizable)
    out = io.StringIO()
    kept = play(learner(), adversary(), H, rounds=rounds, seed=5, realizable=realizable, keep="totals", out=out)
    assert isinstance(kept.rounds, RoundsNotKept) and not kept.rounds_kept and full.rounds_kept
    _same_totals(kept, full)
    lines = out.getvalue().splitlines()
    assert lines == [json.dumps(round_record(r)) for r in full.rounds]
    assert len(lines) == len(full) > 0


@settings(max_examples=15, deadline=None)
@given(M=st.lists(st.lists(st.integers(0, 1), min_size=3, max_size=3), min_size=1, max_size=6),
       seed=st.integers(0, 2**16), rounds=st.integers(0, 5000), realizable=st.booleans())
def test_totals_are_exact_on_any_class_and_horizon(M, seed, rounds, realizable):
    H = HypothesisClass.from_matrix(M)
    adversary = OppositeLabel if realizable else (lambda: ObliviousCoin(labels="coin"))
    full = play(VoteFraction(H), adversary(), H, rounds=rounds, seed=seed, realizable=realizable)
    kept = play(VoteFraction(H), adversary(), H, rounds=rounds, seed=seed, realizable=realizable, keep="totals")
    _same_totals(kept, full)
    assert kept.rounds.expected_mistakes == sum(
        (Fraction(r.p) if r.y == 0 else 1 - Fraction(r.p) for r in full.rounds), Fraction(0))


def test_a_game_stopped_by_an_error_keeps_its_totals_and_its_file(tmp_path):
    H = classes.thresholds(7)
    learner = ExitingAt("learn_one")
    path = tmp_path / "g.jsonl"
    with pytest.raises(PlayerError) as info:
        play(learner, OppositeLabel(), H, rounds=5, seed=0, realizable=False, keep="totals", out=path)
    T = info.value.transcript
    assert (len(T), T.mistakes, T.rounds_kept) == (1, 1, False)
    assert [json.loads(line)["t"] for line in path.read_text().splitlines()] == [1]
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporary file left


def test_out_paths_and_keep_are_checked(tmp_path):
    H = classes.thresholds(3)
    with pytest.raises(InvalidArgumentError, match="keep"):
        play(Halving(H), OppositeLabel(), H, rounds=3, keep="some")
    with pytest.raises(InvalidArgumentError, match="out"):
        play(Halving(H), OppositeLabel(), H, rounds=3, out=42)
    with pytest.raises(InvalidArgumentError, match="out"):
        play(Halving(H), OppositeLabel(), H, rounds=3, keep="totals", out=tmp_path / "missing" / "g.jsonl")
    with pytest.raises(InvalidArgumentError, match="keeps its rounds"):
        play(None, None, registry.load_setting("oco:d=1,radius=1"), rounds=3, keep="totals")
    T = play(Halving(H), OppositeLabel(), H, rounds=3, seed=0, out=tmp_path / "r.jsonl")  # keep="rounds" too
    assert [json.loads(line) for line in (tmp_path / "r.jsonl").read_text().splitlines()] == \
        [round_record(r) for r in T.rounds]


def test_rounds_not_kept_refuse_to_be_read():
    H = classes.thresholds(7)
    T = play(Halving(H), OppositeLabel(), H, rounds=50, seed=0, realizable=False, keep="totals")
    assert len(T.rounds) == 50 and T.summary().startswith("Halving vs OppositeLabel")
    for read in (lambda: T.rounds[0], lambda: list(T.rounds), lambda: T.xs, lambda: T.ys):
        with pytest.raises(InvalidArgumentError, match="kept only the totals"):
            read()


def test_an_adversary_reading_old_rounds_of_a_totals_game_is_told_why():
    class Rereader(OppositeLabel):
        def next_instance(self, state):
            if len(state.history):
                assert state.history[-1].t == len(state.history)  # the last round is always there
            if len(state.history) >= 2:
                state.history[0]
            return super().next_instance(state)

    H = classes.thresholds(7)
    with pytest.raises(PlayerError, match="keep='totals'") as info:
        play(Halving(H), Rereader(), H, rounds=10, seed=0, realizable=False, keep="totals")
    assert info.value.round == 3 and info.value.player == "adversary"
    assert len(play(Halving(H), Rereader(), H, rounds=10, seed=0, realizable=False)) == 10


class Cycle(ObliviousAdversary):
    """An oblivious adversary whose committed game is a generator: nothing per round kept by it."""

    def commit(self, H, rounds, rng, realizable):
        return ((H.domain[t % H.n_instances], (t // 3) % 2) for t in range(rounds))


class Alternate(Adversary):
    """A cheap adaptive adversary: the instances in turn, labels alternating in pairs."""

    def next_instance(self, state):
        return state.H.domain[state.t % state.H.n_instances]

    def label(self, state, x, p):
        return (state.t // 2) % 2


class Zero:
    def predict_one(self, x):
        return 0

    def learn_one(self, x, y):
        pass


_RSS = textwrap.dedent('''
    import resource, sys
    from mistakebound import classes
    from mistakebound.game.play import play
    from tests.test_play_faults import Alternate, Cycle, Zero
    make, keep = {"cycle": Cycle, "alternate": Alternate}[sys.argv[1]], sys.argv[2]
    for rounds in (2 * 10**4, 3 * 10**5):  # the peak (KiB on Linux) after a short game, then after a long one
        T = play(Zero(), make(), classes.thresholds(3), rounds=rounds, seed=0, realizable=False, keep=keep)
        assert len(T) == rounds
        del T
        print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
''')


def _growth_kib(keep: str) -> dict:
    """Per adversary (oblivious and adaptive), how much the peak memory of a process grows from a
    game of 20,000 rounds to one of 300,000 (each in its own process, the two run side by side)."""
    children = {adversary: subprocess.Popen([sys.executable, "-c", _RSS, adversary, keep], cwd=ROOT, text=True,
                                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                for adversary in ("cycle", "alternate")}
    growth = {}
    for adversary, child in children.items():
        out, err = child.communicate(timeout=600)
        assert child.returncode == 0, err
        short, long = (int(v) for v in out.split())
        growth[adversary] = long - short
    return growth


def test_memory_of_a_totals_game_does_not_grow_with_the_rounds():
    # the whole process, untraced: keeping the 280,000 more rounds costs ~35 MB (~128 bytes a
    # round); with keep="totals" nothing but noise
    growth = _growth_kib("totals")
    assert all(kib < 8 * 1024 for kib in growth.values()), growth


def _cli(capsys, *argv):
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("argv", [  # past one block of rounds (4096): the file is written in blocks
    ["halving", "opposite-label", "thresholds:7", "--rounds", "5000", "--unrealizable"],
    ["OptimalRandomizedLearner", "ObliviousCoin", "thresholds:7", "--rounds", "5000", "--unrealizable"],
    ["weighted-majority", "random-expert-losses", "experts:4", "--rounds", "5000", "--unrealizable"],
    ["perceptron", "basis-vector-forcer", "halfspaces:d=8,R=1", "--rounds", "30"],
])
def test_play_stream_writes_the_file_play_out_writes(capsys, tmp_path, argv):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    code_a, out_a, err_a = _cli(capsys, "play", *argv, "--out", str(a), "-q")
    code_b, out_b, err_b = _cli(capsys, "play", *argv, "--out", str(b), "--stream")
    assert (code_a, err_a) == (code_b, err_b) == (0, "")
    assert a.read_bytes() == b.read_bytes()
    assert out_a.replace(str(a), "FILE") == out_b.replace(str(b), "FILE")


def test_play_stream_needs_out(capsys):
    code, out, err = _cli(capsys, "play", "halving", "opposite-label", "thresholds:7", "--stream")
    assert code == 2 and out == "" and "--stream" in err and "--out" in err and len(err.splitlines()) == 1


# ============================================================================ user kit
def test_shrinking_never_builds_a_class_without_columns_and_keeps_the_counterexample():
    built = []

    def factory(H):
        built.append(H.n_instances)
        if H.n_instances == 0:
            raise InvalidArgumentError("H: this learner needs an instance")
        return Halving(H)

    with pytest.raises(BoundViolation) as info:
        check_learner(factory, bound=0, max_examples=30)
    assert info.value.H.n_instances >= 1 and 0 not in built


def test_a_factory_refusing_small_classes_stops_shrinking_at_the_last_class_it_takes():
    def factory(H):
        if H.n_instances < 3:
            raise InvalidArgumentError(f"H: needs 3 instances, got {H.n_instances}")
        return Halving(H)

    with pytest.raises(BoundViolation) as info:
        check_learner(factory, bound=0, max_examples=50)
    assert info.value.H.n_instances == 3  # the smallest class the factory takes
    assert info.value.replay().mistakes >= 1


@pytest.mark.parametrize("error", [InvalidArgumentError, RuntimeError])
def test_a_factory_raising_while_hypothesis_shrinks_keeps_the_counterexample(error):
    big = []

    def factory(H):
        if H.n_hypotheses >= 6:
            big.append(H)
        elif big or error is InvalidArgumentError:  # a RuntimeError only while shrinking
            raise error(f"H: needs 6 hypotheses, got {H.n_hypotheses}")
        return Halving(H)

    with pytest.raises(BoundViolation) as info:
        check_learner(factory, bound=0, max_examples=50)
    assert info.value.H.n_hypotheses == 6


def test_a_factory_refusing_every_class_is_reported():
    def factory(H):
        raise InvalidArgumentError("H: never")

    with pytest.raises(InvalidArgumentError, match="never"):
        check_learner(factory, max_examples=5)


def test_delete_rows_and_columns_skips_candidates_that_raise():
    H = HypothesisClass.from_matrix([[0, 1, 0], [1, 1, 0]])

    def fails(case):
        smaller, _ = case
        if smaller.n_instances < 2:
            raise InvalidArgumentError("too small")
        return True

    smaller, seed = _delete_rows_and_columns((H, 7), fails)
    assert (smaller.n_hypotheses, smaller.n_instances, seed) == (1, 2, 7)
