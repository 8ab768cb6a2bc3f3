"""Hostile numbers and files at the command line: refused at the parser or the reader, exit 2, one line.

Issue 27, family 5: ``play ... --rounds 10**30`` ended as an adversary's ValueError (exit 1),
``tree --width 1e308`` and ``--width 100000`` were internal errors, a JSON integer of more
than 4,300 digits and a CSV cell ``0e-999999999999999999999`` were internal errors, and a
5,000-digit ``--max-nodes`` was refused as "not an integer".
"""

from __future__ import annotations

import json
import os
import stat

import pytest

from mistakebound.interfaces.cli import main

BIG = str(10**30)
HUGE = "9" * 5000


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def assert_refused(code, err, *parts):
    assert code == 2, err
    assert err.count("\n") == 1 and "Traceback" not in err and "internal error" not in err, err
    for part in parts:
        assert part in err, err


@pytest.mark.parametrize("argv, option, expected", [
    (["play", "halving", "ObliviousCoin", "thresholds:7", "--rounds", BIG, "-q"], "--rounds",
     "expected an integer from 1 to 1,000,000,000,000"),
    (["plot", "thresholds:7", "--learners", "halving", "--adversary", "opposite-label", "--rounds", BIG,
      "--out", "x.png"], "--rounds", "expected an integer from 1 to 1,000,000,000,000"),
    (["ldim", "thresholds:7", "--max-nodes", HUGE], "--max-nodes",
     "expected an integer from 1 to 2**63 - 1, got a number of 5,000 digits"),
    (["ldim", "thresholds:7", "--max-nodes", BIG], "--max-nodes", "expected an integer from 1 to 2**63 - 1"),
    (["ldim", "thresholds:7", "--what", "rldim", "--horizon", BIG], "--horizon",
     "expected an integer from 0 to 2,147,483,647"),
    (["worst-case", "halving", "thresholds:7", "--horizon", HUGE], "--horizon", "got a number of 5,000 digits"),
    (["tree", "thresholds:7", "--levels", BIG, "--out", "t.svg"], "--levels", "expected an integer from 0 to"),
    (["tree", "thresholds:7", "--width", "1e308", "--out", "t.svg"], "--width",
     "expected a width in inches from 1 to 100, got '1e308'"),
    (["tree", "thresholds:7", "--width", "100000", "--out", "t.png"], "--width", "from 1 to 100"),
    (["tree", "thresholds:7", "--width", "nan", "--out", "t.png"], "--width", "from 1 to 100"),
    (["play", "halving", "opposite-label", "thresholds:7", "--seed", "1" + "0" * 40], "--seed",
     "expected an integer from 0 to 2**128 - 1"),
    (["play", "halving", "opposite-label", "thresholds:7", "--labels", BIG], "--labels",
     "expected an integer from 2 to 256"),
    (["play", "halving", "opposite-label", "thresholds:7", "--noise", BIG], "--noise",
     "expected an integer from 0 to 1,000,000,000,000"),
    (["ldim", "thresholds:7", "--time-limit", "1e308"], "--time-limit",
     "expected a number of seconds > 0 and <= 1e+09"),
    (["ldim", "thresholds:7", "--time-limit", "1e-400"], "--time-limit", "got '1e-400'"),
])
def test_a_number_out_of_its_documented_range_is_refused_by_the_parser(capsys, tmp_path, monkeypatch, argv, option,
                                                                        expected):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, *argv)
    assert_refused(code, err, f"argument {option}: expected ", expected)
    assert out == "" and not list(tmp_path.iterdir())  # refused before any work or output


def test_the_largest_numbers_in_range_are_taken(capsys):
    code, out, err = run(capsys, "play", "halving", "opposite-label", "thresholds:7", "--seed", str(2**128 - 1),
                         "--rounds", "5", "-q")
    assert code == 0, err
    code, out, err = run(capsys, "ldim", "thresholds:7", "--max-nodes", str(2**63 - 1), "--time-limit", "1e9")
    assert code == 0 and "Ldim = 3" in out, err


def _class_json(domain="[1,2]", name='"x"', names='["a","b"]', version="1"):
    return ('{"format":"mistakebound.class","version":%s,"name":%s,"names":%s,"domain":%s,'
            '"matrix":[[0,0],[1,0]]}' % (version, name, names, domain))


@pytest.mark.parametrize("text, expected", [
    (_class_json(domain="[%s,2]" % ("1" + "0" * 5000)), "holds a number of more than 4,300 digits"),
    (_class_json(version="1" + "0" * 5000), "holds a number of more than 4,300 digits"),
    (_class_json(domain="[-%s,2]" % ("9" * 4400)), "holds a number of more than 4,300 digits"),
])
def test_a_json_class_with_a_number_too_long_is_refused(capsys, tmp_path, text, expected):
    path = tmp_path / "c.json"
    path.write_text(text)
    code, out, err = run(capsys, "ldim", str(path))
    assert_refused(code, err, expected, "c.json")


def test_a_json_transcript_with_a_number_too_long_is_refused():
    from mistakebound.foundations.errors import InvalidArgumentError
    from mistakebound.game.transcript_json import transcript_from_json

    with pytest.raises(InvalidArgumentError, match="holds a number of more than"):
        transcript_from_json('{"format":"mistakebound.transcript","version":1,"x":%s}' % ("7" * 4400))


@pytest.mark.parametrize("name", ['"x\\ud800"', '"\\udfff"'])
def test_a_lone_surrogate_in_a_name_is_read_and_written_escaped(capsys, tmp_path, name):
    path = tmp_path / "c.json"
    path.write_text(_class_json(name=name, names='["a\\udc00","b"]', domain='["\\ud800",2]'))
    code, out, err = run(capsys, "ldim", str(path), "--tree")
    assert code == 0 and "Traceback" not in err, err
    code, out, err = run(capsys, "play", "halving", "opposite-label", str(path), "--out", str(tmp_path / "p.jsonl"),
                         "-q")
    assert code == 0, err
    for line in (tmp_path / "p.jsonl").read_text().splitlines():
        json.loads(line)


@pytest.mark.parametrize("cell, verdict", [
    ("0e-999999999999999999999", 0), ("1e-999999999999999999999", None), ("1e999999999999999999999", None),
    ("0e999999999999999999999", 0), ("1.000e0", 1), ("1" + "0" * 500 + "e-500", None),
])
def test_a_csv_cell_with_a_huge_exponent_is_read_exactly(capsys, tmp_path, cell, verdict):
    path = tmp_path / "c.csv"
    path.write_text(f",a,b\nh1,{cell},1\nh2,1,0\n")
    code, out, err = run(capsys, "ldim", str(path))
    if verdict is None:
        assert_refused(code, err, "row 2, column 2", "is not 0 or 1")
    else:
        assert code == 0 and "|H| = 2" in out, err


# ---------------------------------------------------------------- outputs: modes and links
@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="lchown to another user needs root")
@pytest.mark.parametrize("argv", [["play", "halving", "opposite-label", "thresholds:3", "-q", "--out"],
                                  ["tree", "thresholds:3", "--out"]])
def test_an_output_through_a_link_planted_in_a_shared_folder_is_refused(capsys, tmp_path, argv):
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777)
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    suffix = ".jsonl" if argv[0] == "play" else ".svg"
    link = shared / f"out{suffix}"
    link.symlink_to(victim)
    os.lchown(link, 65534, 65534)
    code, out, err = run(capsys, *argv, str(link))
    assert_refused(code, err, "is a symbolic link in the shared folder", "owned by user 65534")
    assert out == "" and victim.read_text() == "precious" and link.is_symlink()


@pytest.mark.parametrize("mode, kept", [(0o4755, 0o755), (0o6644, 0o644)])
def test_an_output_replacing_a_setuid_file_drops_the_bit(capsys, tmp_path, mode, kept):
    path = tmp_path / "out.jsonl"
    path.write_text("old")
    os.chmod(path, mode)
    code, out, err = run(capsys, "play", "halving", "opposite-label", "thresholds:3", "-q", "--out", str(path))
    assert code == 0, err
    assert stat.S_IMODE(path.stat().st_mode) == kept and path.read_text() != "old"


def test_a_raster_too_large_for_the_memory_is_refused_before_it_is_drawn(capsys, tmp_path, monkeypatch):
    """100 x 2,400 dots wide: about 4 GB of pixels for this tree, drawn for a minute; refused under a 1 GB budget."""
    import time

    monkeypatch.setenv("MISTAKEBOUND_MEMORY_LIMIT", "1G")
    t0 = time.monotonic()
    code, out, err = run(capsys, "tree", "thresholds:7", "--width", "100", "--dpi", "2400", "--out",
                         str(tmp_path / "t.png"))
    assert_refused(code, err, "--dpi", "pixel figure", "needs about")
    assert time.monotonic() - t0 < 20 and not (tmp_path / "t.png").exists()
    code, out, err = run(capsys, "tree", "thresholds:7", "--width", "100", "--dpi", "2400", "--out",
                         str(tmp_path / "t.svg"))  # a vector figure has no pixels
    assert code == 0, err
