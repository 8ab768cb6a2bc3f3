"""One truth, many front ends: every front end reports the same claim and the same verdict.

For every registered learner, on every setting of :data:`SETTINGS` it applies to, one
seeded game against an adversary that applies is read through every front end:

* ``mistakebound check`` (:func:`~mistakebound.verification.selfcheck.run_check`, realizable games),
* ``mistakebound play --out FILE.jsonl`` (the summary record),
* ``mistakebound plot`` (the table it prints),
* a sweep cell (:func:`~mistakebound.interfaces.sweep.cells.run_cell`),
* :func:`~mistakebound.verification.checks.check_learner` on that one game,
* the pytest report's recorder (:class:`~mistakebound.verification.recorder.GameRecorder`),
* a scenario's game (:func:`~mistakebound.verification.scenario.game`),
* and, on finite classes, ``mistakebound worst-case`` (the claim, and a verdict that agrees:
  a game that breaks the claim means a worst case that breaks it).

All must agree with :func:`~mistakebound.verification.claims.stated_bound` and
:func:`~mistakebound.verification.claims.judge` on the same game, spelled out here step by
step; and the library's front ends (check, sweeps, scenarios) must get their game from the
one door, :func:`~mistakebound.verification.judged.judged_game`, and the recorder, which
watches games it does not play, its verdict from the door's last step,
:meth:`~mistakebound.verification.judged.JudgedGame.after`.
"""

from __future__ import annotations

import json
import math

import pytest

from mistakebound.foundations.errors import NotApplicableError
from mistakebound.game import registry
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.game.oco import OCOSetting
from mistakebound.game.play import play
from mistakebound.interfaces.cli import main
from mistakebound.interfaces.sweep import cells
from mistakebound.interfaces.sweep.cells import Cell, run_cell
from mistakebound.verification import scenario, selfcheck
from mistakebound.verification.checks import BoundViolation, check_learner
from mistakebound.verification.claims import forced_bound, judge_transcript, stated_bound
from mistakebound.verification import judged
from mistakebound.verification.judged import JudgedGame, judged_game
from mistakebound.verification.recorder import GameRecorder
from mistakebound.verification.selfcheck import run_check

#: (setting spec, realizable, rounds): the settings every learner is tried on.
SETTINGS = [
    ("thresholds:7", True, 20),
    ("singletons:4,empty", True, 15),
    ("monotone_disjunctions:3", True, 20),
    ("thresholds:7", False, 30),
    ("halfspaces:d=3,R=1,gamma=0.5", True, 30),
    ("k_disjunctions:12,2", True, 40),
    ("experts:4", False, 50),
    ("experts:4", True, 30),
    ("oco:d=2,radius=1", True, 30),
]
SEED = 3


def _adversary_for(setting, realizable: bool) -> str | None:
    """An adversary of the registry that plays on ``setting`` (coins in unrealizable games on classes)."""
    if not realizable and isinstance(setting, HypothesisClass):
        return "ObliviousCoin(labels=coin)"
    for entry in registry.entries("adversary"):
        try:
            registry.build("adversary", entry, setting, rounds=10)
        except NotApplicableError:
            continue
        return entry.name
    return None


def _cases():
    out = []
    for spec, realizable, rounds in SETTINGS:
        setting = registry.load_setting(spec)
        adversary = _adversary_for(setting, realizable)
        for entry in registry.entries("learner"):
            try:
                registry.build("learner", entry, setting, rounds=rounds)
            except NotApplicableError:
                continue
            out.append(pytest.param(entry.name, adversary, spec, realizable, rounds,
                                    id=f"{entry.name}-{spec}-{'realizable' if realizable else 'unrealizable'}"))
    return out


CASES = _cases()


def _the_game(learner_name, adversary_name, spec, realizable, rounds):
    setting = registry.load_setting(spec)
    learner = registry.build("learner", learner_name, setting, rounds=rounds)
    adversary = registry.build("adversary", adversary_name, setting, rounds=rounds)
    forced = forced_bound(adversary, setting, learner=learner, rounds=rounds, realizable=realizable)
    T = play(learner, adversary, setting, rounds=rounds, seed=SEED, realizable=realizable)
    claim = stated_bound(learner, setting, rounds=rounds, realizable=realizable, transcript=T)
    verdict = judge_transcript(T, claim, forced if forced.stated else None)
    return setting, T, claim, verdict


@pytest.fixture
def door(monkeypatch):
    """The judged games the front ends ask for: ``("judged_game", g)`` for each call of the door in the
    library's front ends, ``("after", g)`` for each game judged by its last step (the door's own included)."""
    calls: list = []
    after = JudgedGame.after.__func__

    def spy_after(cls, *args, **kwargs):
        g = after(cls, *args, **kwargs)
        calls.append(("after", g))
        return g

    def spy(*args, **kwargs):
        g = judged_game(*args, **kwargs)
        calls.append(("judged_game", g))
        return g

    monkeypatch.setattr(JudgedGame, "after", classmethod(spy_after))
    for module in (selfcheck, cells, scenario):
        monkeypatch.setattr(module, "judged_game", spy)
    monkeypatch.setattr(judged, "judged_game", spy)  # the command line imports it when a game runs
    return calls


def _through_the_door(door: list, *, played: bool = True) -> JudgedGame:
    """The one judged game a front end just asked for (``played``: through :func:`judged_game`)."""
    assert [kind for kind, _ in door] == (["after", "judged_game"] if played else ["after"]), door
    g = door[-1][1]
    door.clear()
    return g


def test_the_cases_cover_every_learner_and_the_spaces():
    learners = {p.values[0] for p in CASES}
    assert learners == set(registry.names("learner")) - {"RiverLearner", "SklearnLearner"} or \
        learners == set(registry.names("learner")), sorted(set(registry.names("learner")) - learners)
    assert {p.values[2] for p in CASES} == {spec for spec, _, _ in SETTINGS}


@pytest.mark.parametrize("learner, adversary, spec, realizable, rounds", CASES)
def test_every_front_end_reports_the_same_claim_and_verdict(learner, adversary, spec, realizable, rounds,
                                                             tmp_path, capsys, door):
    if adversary is None:
        pytest.fail(f"no adversary of the registry plays on {spec}")
    setting, T, claim, verdict = _the_game(learner, adversary, spec, realizable, rounds)
    assert not door  # the oracle spells the game out
    expected_bound = claim.value if claim.stated else None
    oco = isinstance(setting, OCOSetting)
    unrealizable = [] if realizable or oco else ["--unrealizable"]
    common = ["--rounds", str(rounds), "--seed", str(SEED), *unrealizable]

    # mistakebound play --out
    out_file = tmp_path / "game.jsonl"
    code = main(["play", learner, adversary, spec, *common, "--out", str(out_file), "--quiet"])
    capsys.readouterr()
    assert _through_the_door(door).verdict.status == verdict.status  # play asks the one judged game
    summary = json.loads(out_file.read_text().splitlines()[-1])
    assert (summary["bound"] or {}).get("value") == _json_number(expected_bound)
    assert summary["verdict"] == verdict.status
    assert code == (1 if verdict.broken else 0)

    # mistakebound plot
    figure = tmp_path / "plot.png"
    code = main(["plot", spec, "--learners", learner, "--adversary", adversary, *common, "--out", str(figure)])
    row = _plot_row(capsys.readouterr().out, registry.find("learner", learner).name)
    assert row["verdict"] == {"ok": "ok", "no bound": "-"}.get(verdict.status, verdict.status)
    assert _plot_bound(row["bound"]) == pytest.approx(expected_bound, rel=1e-3) if expected_bound is not None \
        else row["bound"] == "-"
    assert code == (1 if verdict.broken else 0)
    assert _through_the_door(door).verdict.status == verdict.status  # plot asks it too

    # a sweep cell
    record = run_cell(Cell(kind="game", learner=learner, adversary=adversary, cls=spec, seed=SEED,
                           horizon=rounds, realizable=realizable))
    assert record["verdict"] == verdict.status, record
    assert record["bound"] == (None if expected_bound is None else float(expected_bound))
    assert record["verdict"] == _through_the_door(door).verdict.status

    # a scenario's game
    outcome = scenario.game(learner, adversary, spec, rounds=rounds, seed=SEED, realizable=realizable)
    assert (outcome.bound.value, outcome.verdict) == (expected_bound, verdict.status)
    assert outcome.transcript is _through_the_door(door).transcript

    if oco:
        return  # the label-game front ends below do not play online convex optimisation

    # the pytest report's recorder
    with GameRecorder() as recorder:
        play(registry.build("learner", learner, setting, rounds=rounds),
             registry.build("adversary", adversary, setting, rounds=rounds),
             setting, rounds=rounds, seed=SEED, realizable=realizable)
    (r,) = recorder.records
    assert (r.bound, r.verdict) == (expected_bound, verdict.status)
    assert r.verdict == _through_the_door(door, played=False).verdict.status

    if not realizable:
        return  # check, check_learner and the worst case are about realizable games

    if not isinstance(setting, HypothesisClass):
        return  # the worst-case search is over finite classes

    # mistakebound worst-case: the learner's claim for games of this horizon (not one game's: no
    # transcript), judged against the search's proven interval
    code = main(["worst-case", learner, spec, "--horizon", str(rounds), "--max-nodes", "300"])
    out = capsys.readouterr().out
    line = next(line for line in out.splitlines() if line.startswith("claim = "))
    horizon_claim = stated_bound(registry.build("learner", learner, setting, rounds=rounds), setting, rounds=rounds)
    if not horizon_claim.stated:
        assert line.startswith("claim = none")
    else:
        assert float(line.split()[2]) == pytest.approx(horizon_claim.value, rel=1e-3), line
        exact = "(exact;" in out
        if exact and verdict.bound_status == "BROKEN":
            assert line.endswith(")") and ": BROKEN" in line and code == 1  # the worst case is at least this game
        if exact and ": holds" in line:
            assert verdict.bound_status != "BROKEN" and code == 0
    assert code in (0, 1, 3)

    # mistakebound check
    (row,) = run_check([setting], [learner], [adversary], seed=SEED, rounds=rounds).rows
    assert (row.bound, row.verdict) == (expected_bound, verdict.status)
    assert row.verdict == _through_the_door(door).verdict.status

    # check_learner on that game
    def make(H):
        return registry.build("learner", learner, H, rounds=rounds)

    # check_learner checks the learner: its verdict is the one on the learner's claim alone
    learner_broken = verdict.bound_status == "BROKEN"
    try:
        summary = check_learner(make, classes=setting, adversaries=[registry.build("adversary", adversary, setting,
                                                                                    rounds=rounds)],
                                game_seeds=[SEED], rounds=rounds, max_examples=1, worst_case=False)
    except BoundViolation as exc:
        assert learner_broken and exc.claim == claim
    else:
        assert not learner_broken
        if verdict.ratio is not None:  # on a space check_learner also plays a RandomStream: its ratio may be larger
            if isinstance(setting, HypothesisClass):
                assert summary.max_ratio == pytest.approx(verdict.ratio)
            else:
                assert summary.max_ratio >= verdict.ratio - 1e-12


def _json_number(value):
    if value is None:
        return None
    return "inf" if math.isinf(value) else value


def _plot_row(out: str, name: str) -> dict:
    lines = out.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("learner"))

    for line in lines[header + 2:]:
        if line.startswith(name + " "):
            cells = line.split()
            bound = " ".join(cells[5:-1])
            return {"learner": cells[0], "bound": bound, "verdict": cells[-1]}
    raise AssertionError(f"no row for {name} in:\n{out}")


def _plot_bound(text: str) -> float:
    return float(text.split(" ")[0])
