"""Tests of the command line (mistakebound.interfaces.cli): in-process with capsys, and once as a process."""

from __future__ import annotations

import ast
import math
import pickle
import re
import subprocess
import sys
from importlib import metadata

import numpy as np
import pytest

from mistakebound import littlestone_dimension, vc_dimension
from mistakebound.foundations.errors import NotApplicableError
from mistakebound.game import classes, registry
from mistakebound.interfaces.cli import main
from mistakebound.verification.selfcheck import default_classes, default_rounds


def run(capsys, *argv):
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def facts(out: str) -> dict:
    """The ``key = value`` lines of ``mistakebound ldim`` output, values as numbers."""
    found = {}
    for line in out.splitlines():
        if " = " in line and not line.startswith(" "):
            key, _, value = line.partition(" = ")
            found[key.strip()] = float(value.split()[0]) if "." in value.split()[0] else int(value.split()[0])
    return found


def assert_one_line_error(err: str, *needles: str) -> None:
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])


# ---------------------------------------------------------------------------------- check
def table_rows(out: str) -> list[str]:
    lines = out.splitlines()
    assert lines[0].split()[:3] == ["learner", "adversary", "class"]
    assert set(lines[1].replace(" ", "")) == {"-"}
    rows = []
    for line in lines[2:]:
        if not line.strip():
            break
        rows.append(line)
    return rows


def applicable_games() -> tuple[int, set[str], set[str]]:
    """What ``check`` plays: the number of rows (every registered (learner, adversary) pair the
    registry can build on a default class, plus one row per scenario) and the learners and
    adversaries that take part."""
    from mistakebound.verification.suites import all_scenarios

    count, learners, adversaries = 0, set(), set()
    for H in default_classes():
        rounds = default_rounds(H)
        for learner in registry.entries("learner"):
            for adversary in registry.entries("adversary"):
                try:
                    registry.build("adversary", adversary, H, rounds=rounds)
                    registry.build("learner", learner, H, rounds=rounds)
                except NotApplicableError:
                    continue
                count += 1
                learners.add(learner.name)
                adversaries.add(adversary.name)
    return count + len(all_scenarios()), learners, adversaries


@pytest.fixture(scope="module")
def check_process():
    """``mistakebound check`` run once, as a process (the full check takes seconds)."""
    return subprocess.run(
        [sys.executable, "-m", "mistakebound.interfaces.cli", "check"], capture_output=True, text=True, timeout=300,
    )


def test_check_exits_0_with_one_row_per_applicable_game(check_process):
    out = check_process.stdout
    assert check_process.returncode == 0, out + check_process.stderr
    expected, learners, adversaries = applicable_games()
    assert len(learners) >= 10 and len(adversaries) >= 8  # the whole registry, not a fixed few
    rows = table_rows(out)
    assert len(rows) == expected
    column = out.splitlines()[0].index("verdict")
    verdicts = [row[column:].split("  ")[0].strip() for row in rows]
    assert set(verdicts) <= {"ok", "no bound"}  # never BROKEN, ERROR or undecided
    assert verdicts.count("ok") > len(verdicts) / 2
    assert {row.split()[0] for row in rows} >= learners
    assert {row.split()[1] for row in rows} >= adversaries
    assert out.strip().splitlines()[-1] == f"{expected} games, all bounds hold"


def test_check_passes_its_seed_to_every_game_and_rejects_a_bad_one(capsys, monkeypatch):
    import mistakebound.verification.selfcheck as selfcheck
    import mistakebound.verification.suites as suites

    seeds = []
    real_check, real_scenarios, real_all = selfcheck.run_check, selfcheck.run_scenarios, suites.all_scenarios

    def check(classes_, *, seed):
        seeds.append(("check", seed))
        return real_check(classes_, seed=seed)

    def scenarios(scenarios_, *, seed):
        seeds.append(("scenario", seed))
        return real_scenarios(scenarios_, seed=seed)

    H = classes.thresholds(7)  # one small class and two scenarios: what is tested is the seed
    monkeypatch.setattr(selfcheck, "default_classes", lambda: (H,))
    monkeypatch.setattr(suites, "all_scenarios", lambda: real_all()[:2])
    monkeypatch.setattr(selfcheck, "run_check", check)
    monkeypatch.setattr(selfcheck, "run_scenarios", scenarios)
    code, out, _ = run(capsys, "check", "--seed", "7")
    assert code == 0 and out.strip().endswith("all bounds hold")
    assert seeds == [("check", 7), ("scenario", 7), ("scenario", 7)]
    assert len(table_rows(out)) == len(real_check([H], seed=7).rows) + 2
    for bad in ("-1", "seven"):
        code, out, err = run(capsys, "check", "--seed", bad)
        assert code == 2 and out == ""
        assert_one_line_error(err, "--seed", bad)


# ----------------------------------------------------------------------------------- ldim
def test_ldim_of_thresholds_matches_the_closed_forms(capsys):
    N = 15
    code, out, err = run(capsys, "ldim", f"thresholds:{N}")
    assert code == 0, err
    got = facts(out)
    assert got["Ldim"] == math.floor(math.log2(N + 1))
    assert got["VCdim"] == 1
    assert got["|H|"] == N + 1
    assert got["|X|"] == N
    assert got["log2|H|"] == round(math.log2(N + 1), 2)
    assert out.splitlines()[0] == f"class: {classes.thresholds(N).describe()}"


@pytest.mark.parametrize(
    "spec, vc, ldim",
    [
        ("thresholds:64", 1, math.floor(math.log2(65))),
        ("singletons:9", 1, 1),
        ("power_set:4", 4, 4),
        ("parities:3", 3, 3),
        ("monotone_disjunctions:3", 3, 3),
    ],
)
def test_ldim_closed_forms_of_the_zoo(capsys, spec, vc, ldim):
    code, out, err = run(capsys, "ldim", spec)
    assert code == 0, err
    got = facts(out)
    assert (got["VCdim"], got["Ldim"]) == (vc, ldim)


@pytest.mark.parametrize("spec, args", [("k_sparse:6,2", (6, 2)), ("intervals:8", (8,))])
def test_ldim_agrees_with_the_library(capsys, spec, args):
    H = getattr(classes, spec.split(":")[0])(*args)
    code, out, _ = run(capsys, "ldim", spec)
    assert code == 0
    got = facts(out)
    assert got["Ldim"] == littlestone_dimension(H)
    assert got["VCdim"] == vc_dimension(H)
    assert (got["|H|"], got["|X|"]) == H.matrix.shape


def parse_tree(text: list[str]):
    """Paths of the printed tree: for each leaf, its witness row and the (instance, label) edges."""
    leaves = []
    stack: list[tuple[int, object]] = []  # (depth, instance) of the internal nodes above
    labels: list[int] = []
    for line in text:
        depth = (len(line) - len(line.lstrip(" "))) // 2
        body = line.strip()
        stack = stack[:depth]
        labels = labels[: max(depth - 1, 0)]
        if depth:
            edge, _, body = body.partition(" -> ")
            labels.append(int(edge))
        if "leaf: witness" in body:
            row = int(body.rsplit("(row ", 1)[1].rstrip(")"))
            leaves.append((row, list(zip([x for _, x in stack], labels))))
        else:
            stack.append((depth, ast.literal_eval(body.split(" x = ", 1)[1])))
    return leaves


@pytest.mark.parametrize("spec, args", [("thresholds:7", (7,)), ("k_sparse:5,2", (5, 2))])
def test_ldim_tree_is_shattered_and_has_full_depth(capsys, spec, args):
    H = getattr(classes, spec.split(":")[0])(*args)
    d = littlestone_dimension(H)
    code, out, _ = run(capsys, "ldim", spec, "--tree")
    assert code == 0
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("[1]"))
    tree = lines[start:]
    assert len(tree) == 2 ** (d + 1) - 1
    assert tree[0].startswith("[1] ")
    numbers = {}  # depth -> node number of the latest line at that depth
    for line in tree:  # textbook numbering, the 0-child printed before the 1-child
        depth = (len(line) - len(line.lstrip(" "))) // 2
        body = line.strip()
        if depth:
            edge, _, body = body.partition(" -> ")
        node = int(body[1:body.index("]")])
        if depth:
            assert node == 2 * numbers[depth - 1] + int(edge)
            assert int(edge) == (0 if numbers.get(depth, 0) // 2 != numbers[depth - 1] else 1)
        numbers[depth] = node
    leaves = parse_tree(tree)
    assert len(leaves) == 2 ** d
    paths = set()
    for row, path in leaves:
        assert len(path) == d
        for x, y in path:  # the witness realises the labels along its path
            assert H.label(row, x) == y
        paths.add(tuple(y for _, y in path))
    assert len(paths) == 2 ** d


def test_npy_csv_and_json_files_give_the_same_numbers_as_the_zoo(capsys, tmp_path):
    from mistakebound.game.class_files import save_class

    H = classes.thresholds(15)
    npy, csv, named, js = tmp_path / "thr.npy", tmp_path / "thr.csv", tmp_path / "named.csv", tmp_path / "thr.json"
    np.save(npy, H.matrix)
    np.savetxt(csv, H.matrix, fmt="%d", delimiter=",")
    save_class(H, named)  # a header row of instance names, a first column of hypothesis names
    save_class(H, js)
    assert named.read_text().splitlines()[1].split(",")[0] == H.hypothesis_name(0)
    _, zoo_out, _ = run(capsys, "ldim", "thresholds:15")
    for path in (npy, csv, named, js):
        code, out, err = run(capsys, "ldim", str(path))
        assert code == 0, err
        assert facts(out) == facts(zoo_out)
        first = out.splitlines()[0]
        assert first == f"class: {H.describe()}" if path is js else path.name in first  # .json keeps the name


def test_a_csv_header_row_names_the_instances(capsys, tmp_path):
    path = tmp_path / "letters.csv"
    path.write_text("a,b\n0,1\n1,1\n")
    code, out, err = run(capsys, "ldim", str(path))
    assert code == 0, err
    assert (facts(out)["|H|"], facts(out)["|X|"], facts(out)["Ldim"]) == (2, 2, 1)
    code, out, err = run(capsys, "play", "halving", "opposite-label", str(path), "--rounds", "3")
    assert code == 0, err
    assert {row.split()[1] for row in out.splitlines() if row[:1].isdigit()} <= {"a", "b"}


def test_duplicate_rows_in_a_file_are_counted_and_reported(capsys, tmp_path):
    path = tmp_path / "dup.csv"
    path.write_text("0,1\n0,1\n1,1\n")
    code, out, _ = run(capsys, "ldim", str(path))
    assert code == 0
    got = facts(out)
    assert got["|H|"] == 3 and got["distinct hypotheses"] == 2 and got["Ldim"] == 1


# ------------------------------------------------------------------------------ bad input
def test_unknown_class_suggests_the_closest_name(capsys):
    code, out, err = run(capsys, "ldim", "threshold:5")
    assert code == 2 and out == ""
    assert_one_line_error(err, "threshold", "'thresholds'")


def test_bad_class_arguments_exit_2(capsys):
    code, _, err = run(capsys, "ldim", "thresholds:0")
    assert code == 2
    assert_one_line_error(err, "thresholds")


def bad_files(tmp_path):
    (tmp_path / "empty.csv").write_text("")
    (tmp_path / "empty.npy").write_bytes(b"")
    (tmp_path / "blank.csv").write_text("\n\n")
    (tmp_path / "two.csv").write_text("0,1\n2,0\n")
    np.save(tmp_path / "two.npy", np.array([[0, 1], [1, 2]]))
    np.save(tmp_path / "objects.npy", np.array([{"a": 1}, None], dtype=object), allow_pickle=True)
    (tmp_path / "words.csv").write_text("a,b\nc,d\n")  # a header row is allowed, words below it are not
    (tmp_path / "ragged.csv").write_text("0,1,1\n0,1\n")
    np.save(tmp_path / "flat.npy", np.array([0, 1, 1]))
    (tmp_path / "matrix.txt").write_text("0,1\n")
    with open(tmp_path / "raw.pkl.npy", "wb") as fh:
        pickle.dump([[0, 1]], fh)
    (tmp_path / "adir.npy").mkdir()
    return {
        "missing.npy": ("does not exist",),
        "empty.csv": ("empty",),
        "empty.npy": ("empty",),
        "blank.csv": ("no entries",),
        "two.csv": ("0 or 1", "2"),
        "two.npy": ("0 or 1", "2"),
        "objects.npy": ("pickle",),
        "words.csv": ("words.csv", "'d'", "0 or 1"),
        "ragged.csv": ("ragged.csv",),
        "flat.npy": ("2-D",),
        "matrix.txt": ("'.txt'", ".npy", ".csv", ".json"),
        "raw.pkl.npy": ("raw.pkl.npy",),
        "adir.npy": ("directory",),
    }


def test_bad_files_exit_2_with_a_one_line_message(capsys, tmp_path):
    for name, needles in bad_files(tmp_path).items():
        code, out, err = run(capsys, "ldim", str(tmp_path / name))
        assert code == 2, (name, out, err)
        assert out == "", name
        assert_one_line_error(err, "CLASS", *needles)


@pytest.mark.parametrize("argv", [[], ["frobnicate"], ["ldim"], ["ldim", "thresholds:3", "--bogus"]])
def test_usage_errors_exit_2(capsys, argv):
    code, _, err = run(capsys, *argv)
    assert code == 2
    assert_one_line_error(err, "error", "--help")


@pytest.mark.parametrize("argv", [["--help"], ["ldim", "--help"]])
def test_help_lists_the_zoo(capsys, argv):
    code, out, _ = run(capsys, *argv)
    assert code == 0
    for name in classes.ZOO:
        assert name in out
    assert ".json" in out and "exit codes" in out


def test_check_help_says_what_it_plays_and_the_exit_codes(capsys):
    # check takes no class (it plays on its own default classes), so its help lists none
    code, out, _ = run(capsys, "check", "--help")
    assert code == 0
    assert "every registered learner against every applicable adversary" in " ".join(out.split())
    assert "exit codes: 0 ok, 1 a bound is broken" in " ".join(out.split())


# ------------------------------------------------------------------------ as a process
def test_module_runs_as_a_process():
    N = 31
    done = subprocess.run(
        [sys.executable, "-m", "mistakebound.interfaces.cli", "ldim", f"thresholds:{N}"],
        capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert facts(done.stdout)["Ldim"] == math.floor(math.log2(N + 1))
    bad = subprocess.run(
        [sys.executable, "-m", "mistakebound.interfaces.cli", "ldim", "threshold:5"],
        capture_output=True, text=True, timeout=120,
    )
    assert bad.returncode == 2 and bad.stdout == ""
    assert_one_line_error(bad.stderr, "thresholds")


def test_console_script_entry_point_is_main():
    (entry,) = [e for e in metadata.entry_points(group="console_scripts") if e.name == "mistakebound"]
    assert entry.value == "mistakebound.interfaces.cli:main"
    assert entry.load() is main


def test_ldim_with_a_budget_prints_proven_bounds_and_exits_3(capsys):
    from mistakebound import littlestone_dimension
    from mistakebound.game import classes

    code, out, err = run(capsys, "ldim", "random:3000,30,0.3,0", "--max-nodes", "3")
    assert code == 3, err
    assert "partial" in out and "<= Ldim <=" in out
    lower, upper = (int(v) for v in re.findall(r"(\d+) <= Ldim <= (\d+)", out)[0])
    assert lower <= littlestone_dimension(classes.random(3000, 30, 0.3, 0)) <= upper
    code, out, err = run(capsys, "ldim", "thresholds:15", "--time-limit", "30")
    assert code == 0 and facts(out)["Ldim"] == 4
    for bad in ("0", "-2", "soon"):
        code, out, err = run(capsys, "ldim", "thresholds:15", "--time-limit", bad)
        assert code == 2 and "--time-limit" in err


def test_ldim_applies_its_budget_to_the_vc_search_too(capsys):
    from benchmarks.baseline import textbook_vcdim
    from mistakebound import littlestone_dimension, vc_dimension
    from mistakebound.game import classes

    # Ldim finishes in this budget (about 3,500 nodes), the VC search (about 15,000) does not
    code, out, err = run(capsys, "ldim", "random:5000,30,0.3,0", "--max-nodes", "6000")
    assert code == 3, err
    H = classes.random(5000, 30, 0.3, 0)
    assert facts(out)["Ldim"] == littlestone_dimension(H)
    lower, upper = (int(v) for v in re.findall(r"(\d+) <= VCdim <= (\d+)", out)[0])
    assert lower <= vc_dimension(H) <= upper <= littlestone_dimension(H)
    assert "VC dimension is partial" in out
    # without a budget the VC dimension is exact (the textbook search as the oracle)
    code, out, err = run(capsys, "ldim", "random:60,8,0.3,0")
    assert code == 0 and facts(out)["VCdim"] == textbook_vcdim(classes.random(60, 8, 0.3, 0).matrix)
