"""Tests of the command line (mistakebound.interfaces.cli): in-process with capsys, and once as a process."""

from __future__ import annotations

import ast
import json
import math
import os
import pickle
import platform
import re
import subprocess
import sys
import threading
from importlib import metadata

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mistakebound import littlestone_dimension, vc_dimension
from mistakebound.foundations.errors import NotApplicableError
from mistakebound.game import classes, registry
from mistakebound.interfaces.cli import main
from mistakebound.theory.profile import PARAMETERS
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

    def check(classes_, *, seed, rules=None):
        assert rules is None  # no rules given: the textbook's game
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
            row = int(body.rsplit("(row ", 1)[1].rstrip(")")) - 1  # printed counted from 1
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


def test_ldim_tree_counts_witness_rows_from_1_as_the_file_messages_do(capsys, tmp_path):
    """A .csv class's witness row is the line of the file, as in the loader's messages."""
    lines = ["0,1", "1,0", "1,1", "0,0"]
    path = tmp_path / "four.csv"
    path.write_text("\n".join(lines) + "\n")
    code, out, err = run(capsys, "ldim", str(path), "--tree")
    assert code == 0, err
    assert "rows and columns counted from 1" in out.splitlines()[6]
    printed = sorted(int(line.rsplit("(row ", 1)[1].rstrip(")")) for line in out.splitlines() if "leaf:" in line)
    assert printed == [1, 2, 3, 4]  # power_set(2): every line of the file is a witness, numbered as lines
    leaves = parse_tree(out.splitlines()[7:])
    for row, labelled in leaves:  # the witness in file line row + 1 gives the labels along its path
        assert all(int(lines[row].split(",")[x]) == y for x, y in labelled)
    path.write_text("0,1\n1,2\n")
    code, out, err = run(capsys, "ldim", str(path))
    assert code == 2 and "row 2, column 2: '2' is not 0 or 1; expected every entry to be 0 or 1 (rows and columns " \
                          "counted from 1)" in err


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
    for absent in ("zoo classes", "thresholds:N", "learners (", "adversaries (", "spaces (", "class file"):
        assert absent not in out


@pytest.mark.parametrize("command, lists, absent", [
    ("ldim", ("zoo classes", "a boolean is true/false, yes/no or 1/0"), ("learners (", "adversaries (", "spaces (")),
    ("worst-case", ("learners (", "zoo classes"), ("adversaries (", "spaces (")),
    ("verify", ("learners (", "zoo classes"), ("adversaries (", "spaces (")),
    ("play", ("learners (", "adversaries (", "zoo classes", "spaces ("), ()),
])
def test_each_command_s_help_lists_only_the_names_it_takes(capsys, command, lists, absent):
    code, out, _ = run(capsys, command, "--help")
    assert code == 0
    for needle in lists:
        assert needle in out, needle
    for needle in absent:
        assert needle not in out, needle


# ------------------------------------------------------------------------ as a process
STARTUP = """
import sys
from mistakebound.interfaces.cli import main
main(["ldim", "thresholds:5", "--what", "ldim"])
main(["play", "halving", "binary-search-threshold", "thresholds:7", "--quiet"])
print(sorted(m for m in ("networkx", "importlib.metadata") if m in sys.modules))
print(main(["tree", "thresholds:3", "--out", sys.argv[1]]), "networkx" in sys.modules)
"""


def test_a_value_search_and_a_game_never_import_what_only_trees_and_plugins_need(tmp_path):
    """networkx (0.1 s) comes in with the first tree, not with ``ldim --what ldim`` or ``play``, and
    importlib.metadata with a player looked up by name; a tree still gets it."""
    done = subprocess.run([sys.executable, "-c", STARTUP, str(tmp_path / "t.json")], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[-1] == "0 True" and "['importlib.metadata']" in lines, lines
    assert json.loads((tmp_path / "t.json").read_text())  # the tree was written


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
    from mistakebound.theory.textbook import textbook_vcdim
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


def test_ldim_prints_and_flushes_the_ldim_line_before_the_vc_search_starts():
    """A VC search that never ends: the reader of the pipe has the Ldim line all the same."""
    script = ("import time\n"
              "from mistakebound.theory import vc\n"
              "def forever(*a, **k):\n"
              "    time.sleep(120)\n"
              "vc.vc_bounds = forever\n"
              "from mistakebound.interfaces.cli import main\n"
              "main(['ldim', 'thresholds:7'])\n")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}  # a pipe: block-buffered unless flushed
    p = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         text=True, env=env)
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(p.stdout.readline() for _ in range(5)), daemon=True)
    reader.start()
    try:
        reader.join(30)  # the VC search sleeps for 120 s: lines held in a buffer would come after it
        assert lines == ["class: thresholds(7)\n", "|H| = 8\n", "|X| = 7\n", "Ldim = 3\n",
                         "log2|H| = 3.00 (upper bound on Ldim)\n"]
        assert p.poll() is None  # still searching for VCdim
    finally:
        p.kill()
        p.wait()


def test_ldim_with_a_small_budget_prints_every_parameter_s_line(capsys):
    """``--max-nodes`` stops both searches: each prints its proven bounds, neither hides the other."""
    H = classes.random(3000, 30, 0.3, 0)
    code, out, err = run(capsys, "ldim", "random:3000,30,0.3,0", "--max-nodes", "3")
    assert code == 3, err
    lines = out.splitlines()
    ldim = re.fullmatch(r"(\d+) <= Ldim <= (\d+) \(partial: budget\), after 3 nodes in [\d.]+ s", lines[3])
    vc = re.fullmatch(r"(\d+) <= VCdim <= (\d+) \(partial: budget; VCdim <= Ldim\), after \d+ nodes", lines[5])
    assert ldim and vc, lines
    assert int(ldim[1]) <= littlestone_dimension(H) <= int(ldim[2])
    assert int(vc[1]) <= vc_dimension(H) <= int(vc[2]) <= int(ldim[2])
    assert lines[6:] == ["the Littlestone dimension is partial: raise --max-nodes / --time-limit for the exact value",
                         "the VC dimension is partial: raise --max-nodes / --time-limit for the exact value"]


def test_ldim_what_chooses_the_parameters_and_skips_the_vc_search(capsys, monkeypatch):
    from mistakebound.theory import vc

    def no_vc(*args, **kwargs):
        raise AssertionError("the VC search ran")

    monkeypatch.setattr(vc, "vc_bounds", no_vc)
    code, out, err = run(capsys, "ldim", "thresholds:7", "--what", "ldim")
    assert (code, err) == (0, "")
    assert out.splitlines()[3:] == ["Ldim = 3", "log2|H| = 3.00 (upper bound on Ldim)"]
    code, out, err = run(capsys, "ldim", "singletons:3", "--what", "rldim")
    assert code == 0 and "VCdim" not in out
    assert out.splitlines()[3:5] == ["Ldim = 1", "log2|H| = 1.58 (upper bound on Ldim)"]
    # singletons(n): the learner puts p = (1 - v(n-1)) / 2 on the instance shown, so v(n) = 1 - 2^(1-n)
    assert out.splitlines()[5].startswith("RL = 3/4 ")
    code, out, err = run(capsys, "ldim", "thresholds:7", "--what", "vcdim")
    assert code == 2 and out == "" and "--what" in err and "among " + ", ".join(PARAMETERS) in err


def test_power_set_17_is_searched_unless_the_memory_budget_refuses_it(capsys, monkeypatch):
    code, out, err = run(capsys, "ldim", "power_set:17", "--what", "ldim")
    assert code == 0, err
    assert out.splitlines()[1:4] == [f"|H| = {2**17}", "|X| = 17", "Ldim = 17"]
    monkeypatch.setenv("MISTAKEBOUND_MEMORY_LIMIT", "1K")  # less than this process holds already
    code, out, err = run(capsys, "ldim", "power_set:17")
    assert code == 2 and out == ""
    assert_one_line_error(err, "CLASS: 'power_set:17': d: power_set(17), a 131,072 x 17 table", "needs about",
                          "(the MISTAKEBOUND_MEMORY_LIMIT budget); too large for this machine: give a smaller d")


def test_a_class_file_of_too_many_rows_is_refused_at_once_in_one_line(capsys, tmp_path):
    """Issue 21: a 128-byte .npy declaring shape (10**13, 0) (no data to miss) was a class of 10^13 hypotheses."""
    import io

    header = io.BytesIO()
    np.lib.format.write_array_header_1_0(header, {"descr": "|u1", "fortran_order": False, "shape": (10**13, 0)})
    path = tmp_path / "many.npy"
    path.write_bytes(header.getvalue())
    assert path.stat().st_size == 128
    for argv in (["ldim", str(path)], ["worst-case", "halving", str(path)],
                 ["play", "halving", "binary-search-threshold", str(path), "--quiet"]):
        code, out, err = run(capsys, *argv)
        assert code == 2 and out == "", (argv, code, out)
        assert_one_line_error(err, f"path: {str(path)!r}: a matrix of shape (10000000000000, 0) (uint8)",
                              "a 10,000,000,000,000 x 0 table: 0 entries", "needs about",
                              "expected a smaller file (or more memory)")


# ------------------------------------------------------------- exit codes, output files
SHORT_GAME = ["play", "halving", "binary-search-threshold", "thresholds:7", "--quiet"]


def test_an_output_that_cannot_be_written_is_refused_before_the_game(capsys, tmp_path):
    folder = tmp_path / "adir.jsonl"
    folder.mkdir()
    ro = tmp_path / "ro.jsonl"
    ro.write_text("keep\n")
    ro.chmod(0o444)
    loop = tmp_path / "loop.jsonl"
    loop.symlink_to("loop.jsonl")
    cases = [(folder, "is a directory"), (ro, "is read-only (mode 0444)"), (loop, "symbolic link that loops"),
             (tmp_path / "nodir" / "g.jsonl", "does not exist"), (tmp_path / "g.json", "ending in .jsonl")]
    if sys.platform.startswith("linux"):
        cases.append(("/proc/g.jsonl", "cannot create files in '/proc'"))
    for path, says in cases:
        code, out, err = run(capsys, *SHORT_GAME, "--out", str(path))
        assert code == 2 and out == "", (path, out)
        assert_one_line_error(err, "mistakebound play: error: --out:", says)
    assert ro.read_text() == "keep\n"
    (tmp_path / "adir.json").mkdir()
    code, out, err = run(capsys, "check", "--json", str(tmp_path / "adir.json"))
    assert code == 2 and out == ""
    assert_one_line_error(err, "mistakebound check: error: --json:", "is a directory")


def test_a_write_that_fails_after_the_work_prints_the_results_first_and_exits_2(capsys, tmp_path, monkeypatch):
    import errno
    import os

    path = tmp_path / "game.jsonl"
    path.write_text("old\n")

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    code, out, err = run(capsys, *SHORT_GAME, "--out", str(path))
    assert code == 2, err
    assert "mistakes = 3" in out and "wrote" not in out  # the results, and no claim of a file
    assert_one_line_error(err, f"--out: cannot write {str(path)!r}: No space left on device",
                          "the results above are complete")
    assert path.read_text() == "old\n" and sorted(p.name for p in tmp_path.iterdir()) == ["game.jsonl"]


def test_a_symbolic_link_is_followed_and_said(capsys, tmp_path):
    target = tmp_path / "runs" / "g.jsonl"
    target.parent.mkdir()
    (tmp_path / "g.jsonl").symlink_to(target)
    code, out, err = run(capsys, *SHORT_GAME, "--out", str(tmp_path / "g.jsonl"))
    assert code == 0, err
    assert f"(3 rounds and a summary, JSON Lines; a symbolic link: its target {str(target)!r} was written, " \
           "the link kept)" in out
    assert target.exists() and (tmp_path / "g.jsonl").is_symlink()


def test_names_from_files_are_printed_with_control_characters_escaped(capsys, tmp_path):
    path = tmp_path / "evil\x1b[2J\r.csv"
    path.write_text("x\x1b[31m,y\n0,1\n1,1\n")
    code, out, err = run(capsys, "ldim", str(path))
    assert code == 0, err
    assert "class: evil\\x1b[2J\\r.csv" in out and "\x1b" not in out and "\r" not in out
    code, out, err = run(capsys, "play", "halving", "binary-search-threshold", str(path), "--quiet",
                         "--out", str(tmp_path / "o\x07.jsonl"))
    assert "\x1b" not in out + err and "\x07" not in out + err
    path.write_text("0,1\n1,\x1b2\n")
    code, out, err = run(capsys, "ldim", str(path))
    assert code == 2 and "\x1b" not in err
    assert_one_line_error(err, "evil\\x1b[2J\\r.csv", "row 2, column 2: '\\x1b2' is not 0 or 1")


# ---------------------------------------------- no way into the output: names are one line (issue 21)
#: What a name may hold that must never reach the terminal as it is: line breaks of every kind, tabs,
#: terminal escapes, the Unicode line and paragraph separators, a bidirectional override.
_BREAKING = ["\n", "\r", "\t", "\x1b[31m", "\x1b]0;owned\x07", "\u2028", "\u2029", "\x85", "\x0b", "\x0c",
             "\x1c", "\u202e"]
_RAW = set("".join(_BREAKING)) - set("[]0;31mowned")  # the characters the output must never hold


def _class_json(name: str, names: list[str], domain: list[str]) -> str:
    import json

    matrix = [[int(j < i) for j in range(len(domain))] for i in range(len(names))]  # thresholds: Ldim 2 for 4 rows
    return json.dumps({"format": "mistakebound.class", "version": 1, "name": name, "names": names,
                       "domain": domain, "matrix": matrix})


def _assert_lines_kept(out: str, baseline: str) -> None:
    """``out`` has the lines of ``baseline`` (the same run with plain names), and no raw control character."""
    assert not _RAW & set(out.replace("\n", "")), [c for c in out if c in _RAW and c != "\n"]
    assert len(out.splitlines()) == out.count("\n") == baseline.count("\n"), (out, baseline)


def test_a_class_named_to_forge_a_line_prints_its_name_on_one_line(capsys, tmp_path):
    """Issue 21's reproducer: a class named ``x\\nLdim = 99`` printed a line ``Ldim = 99`` before the real value."""
    path = tmp_path / "forged.json"
    path.write_text(_class_json("x\nLdim = 99", ["a", "b", "c", "d"], ["p", "q", "r"]))
    code, out, err = run(capsys, "ldim", str(path))
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "class: x\\nLdim = 99"
    assert [line for line in lines if line.startswith("Ldim")] == ["Ldim = 2"]  # thresholds on 3 points


def test_a_file_name_with_a_line_break_is_printed_on_its_wrote_line(capsys, tmp_path):
    target = tmp_path / "game\nwrote fake.jsonl"
    code, out, err = run(capsys, "play", "halving", "binary-search-threshold", "thresholds:7", "--quiet",
                         "--out", str(target))
    assert code == 0, err
    assert target.exists()
    wrote = [line for line in out.splitlines() if line.startswith("wrote ")]
    assert wrote == [f"wrote {tmp_path}/game\\nwrote fake.jsonl (3 rounds and a summary, JSON Lines)"], out


_NAMES = st.lists(st.sampled_from(["a", "b", " ", "=", *_BREAKING]), min_size=1, max_size=6).map("".join)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=_NAMES, names=st.lists(_NAMES, min_size=4, max_size=4),
       domain=st.lists(_NAMES, min_size=3, max_size=3, unique=True), out_name=_NAMES.filter(lambda t: "\x00" not in t))
def test_names_never_add_a_line_or_a_raw_control_character(capsys, tmp_path_factory, name, names, domain, out_name):
    """Class, hypothesis and instance names and output file names, whatever they hold, in ldim, worst-case and play."""
    folder = tmp_path_factory.mktemp("names")
    plain = folder / "plain.json"
    plain.write_text(_class_json("plain", ["h1", "h2", "h3", "h4"], ["x1", "x2", "x3"]))
    drawn = folder / "drawn.json"
    drawn.write_text(_class_json(name, names, domain))
    out_file = str(folder / (out_name.replace("/", "_") + ".jsonl"))
    for argv in (["ldim", "{}", "--tree"], ["worst-case", "halving", "{}"],
                 ["play", "halving", "oppositelabel", "{}", "--rounds", "3", "--out", "{out}"]):
        outputs = []
        for path, out_path in ((plain, str(folder / "plain.jsonl")), (drawn, out_file)):
            code, out, err = run(capsys, *[a.format(path, out=out_path) for a in argv])
            assert code == 0, (argv, err)
            assert not _RAW & set(err), err
            outputs.append(out)
        _assert_lines_kept(outputs[1], outputs[0])


@pytest.mark.parametrize("raised, code, says", [
    (ValueError("a bug\nover two lines"), 1, "internal error: ValueError: a bug over two lines"),
    (MemoryError(), 2, "error: out of memory (MemoryError)"),
    (RecursionError("deep"), 2, "nested too deeply"),
    (PermissionError(13, "Permission denied", "/some/file"), 2, "error: Permission denied ('/some/file')"),
    (KeyboardInterrupt(), 3, "interrupted (Ctrl-C)"),
])
def test_every_exception_is_one_line_and_an_exit_code(capsys, monkeypatch, raised, code, says):
    import mistakebound.interfaces.cli.ldim as ldim_command

    def fail(*a, **k):
        raise raised

    monkeypatch.setattr(ldim_command, "finite_class", fail)
    got, out, err = run(capsys, "ldim", "thresholds:3")
    assert got == code
    assert_one_line_error(err, "mistakebound ldim: ", says)
    if code == 1:
        monkeypatch.setenv("MISTAKEBOUND_TRACEBACK", "1")
        got, out, err = run(capsys, "ldim", "thresholds:3")
        assert got == 1 and "Traceback" in err and "ValueError: a bug" in err  # on request, for a bug report


@pytest.mark.parametrize("argv, says", [
    (["play", "..:x", "binary-search-threshold", "thresholds:7", "-q"], "learner: '..:x' is not an import path"),
    (["play", "halving", "..:x", "thresholds:7", "-q"], "adversary: '..:x' is not an import path"),
    (["play", "halving", ".os:system", "thresholds:7", "-q"], "adversary: '.os:system' is not an import path"),
    (["ldim", "thresholds:" + "[" * 50_000], "CLASS: expected at most 4,096 characters"),
    (["play", "x" + "[" * 50_000, "binary-search-threshold", "thresholds:7"], "LEARNER: expected at most 4,096"),
    (["plot", "thresholds:7", "--learners", "(" * 50_000, "--adversary", "x", "--out", "p.png"],
     "--learners: expected at most 4,096 characters"),
    (["play", "halving", "binary-search-threshold", "thresholds:7", "--rounds", "[" * 50_000], "--rounds: "),
    (["ldim", "thresholds:" + "[" * 4_000], "CLASS: "),  # short enough to be read: refused by the registry
    (["play", "Halving(" + "[" * 3_000 + ")", "binary-search-threshold", "thresholds:7"], "learner: "),
])
def test_hostile_names_are_one_short_line_and_exit_2(capsys, argv, says):
    """Bad import paths, 50,000 nested brackets: one line, cut to at most about 2,000 characters."""
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert_one_line_error(err, says)
    assert len(err) < 2_200, len(err)


def test_a_class_file_nested_50000_deep_is_one_line_and_exit_2(capsys, tmp_path):
    for name, text in [("deep.json", "[" * 50_000),
                       ("deep2.json", '{"format": "mistakebound.class", "version": 1, "matrix": '
                                      + "[" * 50_000 + "]" * 50_000 + "}")]:
        (tmp_path / name).write_text(text)
        code, out, err = run(capsys, "ldim", str(tmp_path / name))
        assert code == 2 and out == ""
        assert_one_line_error(err, name, "nested too deeply")


def test_standard_output_that_fails_is_one_line_and_exit_2(capsys, monkeypatch):
    """``> /dev/full`` as the process sees it: every write to standard output raises ENOSPC."""
    import errno
    import sys

    class Full:
        def write(self, text):
            raise OSError(errno.ENOSPC, "No space left on device")

        def flush(self):
            pass

    monkeypatch.setattr(sys, "stdout", Full())
    code = main(["ldim", "thresholds:3"])
    err = capsys.readouterr().err
    assert code == 2
    assert_one_line_error(err, "mistakebound ldim: error: standard output: cannot write (No space left on device)")
    monkeypatch.setattr(sys, "stdout", None)  # started with it closed (`>&-`)
    assert main(["ldim", "thresholds:3"]) == 2
    assert_one_line_error(capsys.readouterr().err, "standard output is closed")


def test_a_reader_that_left_is_exit_0(capsys, monkeypatch):
    import mistakebound.interfaces.cli.ldim as ldim_command

    def gone(*a, **k):
        raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(ldim_command, "finite_class", gone)
    code, out, err = run(capsys, "ldim", "thresholds:3")
    assert code == 0 and err == ""


@pytest.mark.parametrize("argv, cli", [
    (["/venv/bin/python3", "-m", "mistakebound", "check"], True),
    (["/venv/bin/python3", "-X", "importtime", "-m", "mistakebound"], True),
    (["/venv/bin/python3", "-Im", "mistakebound"], True),
    (["/venv/bin/python3", "-mmistakebound", "ldim"], True),
    (["/venv/bin/python3", "-m", "mistakebound.interfaces.cli"], True),
    (["/venv/bin/python3", "-m", "mistakebound.interfaces"], False),
    (["/venv/bin/python3", "-m", "pytest", "-m", "mistakebound"], False),
    (["/venv/bin/python3", "-c", "import mistakebound", "-m", "mistakebound"], False),
    (["/venv/bin/python3", "script.py", "-m", "mistakebound"], False),
    (["/venv/bin/python3"], False),
])
def test_the_command_line_process_is_recognised_from_the_interpreters_arguments(argv, cli):
    from mistakebound.interfaces import startup

    assert startup._detect(argv) is cli


def test_the_console_script_is_recognised_by_its_name_and_first_lines(tmp_path):
    from mistakebound.interfaces import startup

    script = tmp_path / "mistakebound"
    script.write_text("import re\nimport sys\nfrom mistakebound.interfaces.cli import main\n")
    assert startup._detect(["/venv/bin/python3", str(script), "ldim"])
    assert startup._detect(["/venv/bin/python3", "-E", str(script)])
    mine = tmp_path / "other" / "mistakebound"
    mine.parent.mkdir()
    mine.write_text("import mistakebound\nprint(mistakebound.classes.thresholds(3))\n")  # a user's own script
    assert not startup._detect(["/venv/bin/python3", str(mine)])
    assert not startup._detect(["/venv/bin/python3", str(tmp_path / "mistakebound.py")])
    assert not startup.is_cli_process()  # this test run


def test_version_says_which_littlestone_engine_the_install_has(capsys, monkeypatch):
    from importlib import metadata

    from mistakebound.theory import ldim_kernel

    code, out, err = run(capsys, "--version")
    assert (code, err) == (0, "")
    engine = "the compiled Littlestone search" if ldim_kernel.AVAILABLE else "the Python Littlestone search"
    assert out.startswith(f"mistakebound {metadata.version('mistakebound')}, {engine}")
    assert out.rstrip().endswith(f"; Python {platform.python_version()}")
    monkeypatch.setattr(ldim_kernel, "AVAILABLE", False)
    code, out, _ = run(capsys, "--version")
    assert code == 0 and f", {ldim_kernel.engine_description()}; Python " in out
    assert "the C extension was not built (no C compiler at install, or MISTAKEBOUND_NO_EXTENSION set)" in out


def test_ldim_says_on_stderr_when_the_python_search_ran_for_want_of_the_extension(capsys, monkeypatch):
    from mistakebound.theory import ldim_kernel

    if ldim_kernel.AVAILABLE:  # the compiled search ran, or the Python one for a tree: nothing to say
        for extra in ((), ("--tree",)):
            code, out, err = run(capsys, "ldim", "thresholds:7", *extra)
            assert (code, err) == (0, "") and "Ldim = 3" in out
    monkeypatch.setattr(ldim_kernel, "AVAILABLE", False)
    for extra in ((), ("--json",)):
        code, out, err = run(capsys, "ldim", "thresholds:7", *extra)
        assert code == 0 and "Python" not in out  # the results alone on stdout
        assert err == f"mistakebound ldim: note: the Ldim was searched by {ldim_kernel.engine_description()}\n"
    code, _, err = run(capsys, "ldim", "thresholds:7", "--workers", "2")  # the parallel search was asked for
    assert (code, err) == (0, "")


# ------------------------------------------------------------------------ ldim --json (issue 23)
def test_ldim_json_prints_one_object_per_parameter_as_the_library_finds_it(capsys):
    import json as json_module
    from fractions import Fraction

    from mistakebound.game.rules import Rules
    from mistakebound.theory.profile import class_profile

    code, out, err = run(capsys, "ldim", "intervals:6", "--what", "ldim,vc,rldim", "--noise", "1", "--json")
    assert code == 0 and err == ""
    lines = [json_module.loads(line) for line in out.splitlines()]
    H = classes.intervals(6)
    assert lines[0] == {"class": H.describe(), "n_hypotheses": H.n_hypotheses, "n_instances": H.n_instances,
                        "n_distinct": H.n_hypotheses}
    P = class_profile(H, what=("ldim", "vc", "rldim"), rules=Rules(noise=1))
    assert [line["parameter"] for line in lines[1:]] == ["ldim", "vc", "rldim", "value"]
    for line in lines[1:]:
        result = getattr(P, line["parameter"])
        assert line["status"] == "exact" and line["lower"] == line["upper"] == line["value"]
        assert (Fraction(line["value"]) if isinstance(line["value"], str) else line["value"]) == result.value
    assert lines[-1]["rules"] == {"labels": 2, "feedback": "full", "noise": 1, "adaptive": True, "randomized": False}


def test_ldim_json_gives_partial_parameters_their_bounds_and_exits_3(capsys):
    import json as json_module

    code, out, _ = run(capsys, "ldim", "power_set:6", "--noise", "2", "--max-nodes", "20", "--json")
    lines = [json_module.loads(line) for line in out.splitlines()]
    assert code == 3
    value = lines[-1]
    assert value["parameter"] == "value" and value["value"] is None and value["status"] == "budget"
    assert value["lower"] <= value["upper"] and value["why"] == "budget"
    assert all(line.get("value") is not None or line.get("why") for line in lines[1:])


def test_ldim_json_refuses_the_text_outputs(capsys):
    code, out, err = run(capsys, "ldim", "thresholds:5", "--json", "--tree")
    assert code == 2 and out == "" and "--json: prints the parameters alone" in err
