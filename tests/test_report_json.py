"""``mistakebound check`` reports round-trip through JSON with nothing lost (and ``check --json``)."""

from __future__ import annotations

import json
import math
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mistakebound.verification import report_json
from mistakebound.interfaces.cli import main
from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.verification.selfcheck import VERDICTS, CheckReport, CheckRow, run_check

numbers = st.one_of(
    st.none(), st.integers(-(2**70), 2**70), st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.0, -0.0, math.inf, -math.inf, math.nan, 1e-320, 2.584962500721156]),
)
texts = st.text()  # any unicode, surrogates included


@st.composite
def rows(draw):
    return CheckRow(
        learner=draw(texts), adversary=draw(texts), class_name=draw(texts),
        mistakes=draw(numbers), bound=draw(numbers), forced=draw(numbers), forced_by=draw(texts),
        verdict=draw(st.sampled_from(VERDICTS)), message=draw(texts), measure=draw(texts),
    )


reports = st.lists(rows(), max_size=6).map(lambda r: CheckReport(rows=tuple(r)))


def same_number(a, b) -> bool:
    """Equal, of the same type, NaN equal to NaN, and -0.0 told apart from 0.0."""
    if a is None or b is None:
        return a is b
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return (math.isnan(a) and math.isnan(b)) or (a == b and math.copysign(1, a) == math.copysign(1, b))
    return a == b


def assert_same_report(a: CheckReport, b: CheckReport) -> None:
    assert len(a.rows) == len(b.rows)
    for r, s in zip(a.rows, b.rows):
        for name in ("learner", "adversary", "class_name", "forced_by", "verdict", "message", "measure"):
            assert getattr(r, name) == getattr(s, name) and type(getattr(s, name)) is str
        for name in ("mistakes", "bound", "forced"):
            assert same_number(getattr(r, name), getattr(s, name)), (name, getattr(r, name), getattr(s, name))


@settings(max_examples=150, deadline=None)
@given(report=reports)
def test_generated_reports_round_trip_with_nothing_lost(report):
    text = report.to_json()
    back = CheckReport.from_json(text)
    assert_same_report(report, back)
    assert back.to_json() == text  # the text depends only on the value
    from_bytes = report_json.report_from_json(text.encode("utf-8"), report_type=CheckReport, row_type=CheckRow)
    assert_same_report(from_bytes, back)
    assert from_bytes.summary() == report.summary()
    data = json.loads(text)
    assert data["ok"] == report.ok and data["summary"] == report.summary()


def test_a_real_check_round_trips_and_compares_equal():
    from mistakebound.game import classes
    from mistakebound.adversaries import ShatteredTreeWalker
    from mistakebound.learners import SOA, Halving

    report = run_check([classes.thresholds(7), classes.singletons(4)], [SOA, Halving], [ShatteredTreeWalker])
    assert CheckReport.from_json(report.to_json()) == report


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda d: d.update(format="mistakebound.class"), "^format: "),
        (lambda d: d.update(version=2), "^version: "),
        (lambda d: d.pop("summary"), "missing field"),
        (lambda d: d.update(extra=1), "unknown field"),
        (lambda d: d.update(ok=False), "^ok: "),
        (lambda d: d.update(summary="all fine"), "^summary: "),
        (lambda d: d["rows"][0].update(verdict="fine"), r"rows\[0\]\.verdict"),
        (lambda d: d["rows"][0].update(mistakes="3"), r"rows\[0\]\.mistakes"),
        (lambda d: d["rows"][0].update(bound={"float": "infinity"}), r"rows\[0\]\.bound"),
        (lambda d: d["rows"][0].update(learner=None), r"rows\[0\]\.learner"),
        (lambda d: d["rows"][0].pop("measure"), r"rows\[0\]: missing field"),
        (lambda d: d.update(rows={}), "^rows: "),
    ],
)
def test_malformed_report_json_is_refused_naming_the_field(mutate, message):
    report = CheckReport(rows=(CheckRow("L", "A", "C", mistakes=1, bound=2.0),))
    data = json.loads(report.to_json())
    mutate(data)
    with pytest.raises(InvalidArgumentError, match=message):
        CheckReport.from_json(json.dumps(data))


@pytest.mark.parametrize("value", [object(), "3", [1], 1 + 2j])
def test_unserialisable_numbers_are_refused_when_writing(value):
    report = CheckReport(rows=(CheckRow("L", "A", "C", mistakes=value, bound=None),))
    with pytest.raises(InvalidArgumentError, match=r"rows\[0\]\.mistakes"):
        report.to_json()


def test_every_row_field_is_written_numbers_as_numbers():
    """A field added to CheckRow is written too (as text unless the format lists it as a number)."""
    import attrs

    data = json.loads(CheckReport(rows=(CheckRow("L", "A", "C", mistakes=1, bound=2.0),)).to_json())
    assert list(data["rows"][0]) == [a.name for a in attrs.fields(CheckRow)]
    assert set(report_json.NUMBER_FIELDS) <= set(data["rows"][0])


def test_the_format_does_not_import_the_check_it_serves():
    """selfcheck calls report_json; report_json must not import selfcheck back (no import circle)."""
    import ast
    import inspect

    tree = ast.parse(inspect.getsource(report_json))
    names = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    names |= {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    assert not any("selfcheck" in name or "interfaces" in name for name in names), names


def test_not_a_report_is_refused():
    with pytest.raises(InvalidArgumentError, match="^report: "):
        report_json.report_to_json([1, 2])


# ----------------------------------------------------------------------- check --json
def test_check_json_writes_the_printed_report(tmp_path, capsys, monkeypatch):
    from mistakebound.verification import selfcheck
    from mistakebound.verification import suites
    from mistakebound.game import classes

    # a small check: two classes, no scenarios (the full check is tests/test_cli.py's)
    monkeypatch.setattr(selfcheck, "default_classes", lambda: (classes.thresholds(7), classes.singletons(3)))
    monkeypatch.setattr(suites, "all_scenarios", lambda: ())
    path = tmp_path / "report.json"
    code = main(["check", "--seed", "3", "--json", str(path)])
    out = capsys.readouterr().out
    assert code == 0 and f"wrote {path}" in out
    report = CheckReport.from_json(path.read_bytes())
    expected = run_check([classes.thresholds(7), classes.singletons(3)], seed=3)
    assert report == expected
    assert report.format_table() in out
    assert [p.name for p in tmp_path.iterdir()] == ["report.json"]  # no temporary file left


def test_check_json_is_written_atomically(tmp_path, capsys, monkeypatch):
    from mistakebound.verification import selfcheck
    from mistakebound.verification import suites
    from mistakebound.game import classes

    monkeypatch.setattr(selfcheck, "default_classes", lambda: (classes.thresholds(3),))
    monkeypatch.setattr(suites, "all_scenarios", lambda: ())
    path = tmp_path / "report.json"
    path.write_text("old")
    replaced = []
    real_replace = os.replace

    def spy(src, dst):
        replaced.append((os.path.dirname(src), os.path.basename(dst)))
        return real_replace(src, dst)

    monkeypatch.setattr(os, "replace", spy)
    assert main(["check", "--json", str(path)]) == 0
    assert replaced == [(str(tmp_path), "report.json")]  # a temporary file in the same folder, moved over
    CheckReport.from_json(path.read_text())


@pytest.mark.parametrize("name", ["report.txt", "missing/report.json", ""])
def test_check_json_refuses_a_bad_path_before_playing(tmp_path, capsys, monkeypatch, name):
    from mistakebound.verification import selfcheck

    def boom():
        raise AssertionError("the check ran before the path was checked")

    monkeypatch.setattr(selfcheck, "default_classes", boom)
    target = str(tmp_path / name) if name else str(tmp_path)
    code = main(["check", "--json", target])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err
    assert err.strip().startswith("mistakebound check: error: --json: ") and len(err.strip().splitlines()) == 1
