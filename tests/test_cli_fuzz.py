"""Fuzz tests of the command line: random argument lists for every command.

``mistakebound.interfaces.cli.main`` runs in-process with stdout and stderr captured.  For any
argument list, the exit code must be 0, 1, 2 or 3; nothing may escape ``main`` as an
exception; a bad input (exit 2) must come with a message on stderr and never a
traceback; and no call may hang (an alarm stops it, see ``tests/test_fuzz_api.py``).
Sizes are kept small so that the valid argument lists the fuzz also draws finish fast.
"""

from __future__ import annotations

import contextlib
import io
import pickle

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import tests.test_cli_play  # noqa: F401 - the players IMPORTED names, imported before any @given runs
from mistakebound.interfaces import cli
from tests.test_fuzz_api import no_hang

CLI = settings(max_examples=40, deadline=None,
               suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
FIGURES = settings(max_examples=8, deadline=None,
                   suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

EXIT_CODES = {cli.EXIT_OK, cli.EXIT_BROKEN, cli.EXIT_BAD_INPUT, cli.EXIT_INTERRUPTED}


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with no_hang(), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(argv)
    return code, out.getvalue(), err.getvalue()


def assert_well_behaved(argv: list[str]) -> int:
    code, out, err = run(argv)
    assert code in EXIT_CODES, (argv, code)
    assert "Traceback" not in err and "Traceback" not in out, (argv, err)
    assert "\x1b" not in out + err and "\r" not in out + err, (argv, out, err)  # control characters escaped
    assert all(len(line) < 2_500 for line in err.splitlines()), (argv, len(err))  # long values cut in messages
    if code == cli.EXIT_BAD_INPUT:
        lines = [line for line in err.splitlines() if line.strip()]
        assert lines, f"exit 2 without a message for {argv!r}"
        assert "error" in lines[-1], (argv, err)
    return code


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """Class files, good and bad, and an output folder."""
    d = tmp_path_factory.mktemp("cli_fuzz")
    np.save(d / "good.npy", np.array([[0, 1, 1], [1, 0, 1], [0, 0, 0]], dtype=np.uint8))
    np.save(d / "three_d.npy", np.zeros((2, 2, 2)))
    np.save(d / "twos.npy", np.full((2, 2), 2))
    np.save(d / "objects.npy", np.array([[0, 1]], dtype=object), allow_pickle=True)
    (d / "pickle.npy").write_bytes(pickle.dumps([[0, 1]]))
    (d / "garbage.npy").write_bytes(b"\x93NUMPY\x01\x00{'descr': '<f8', 'fortran_order': False, 'shape': (2,")
    (d / "good.csv").write_text("0,1\n1,1\n")
    (d / "ragged.csv").write_text("0,1\n1\n")
    (d / "words.csv").write_text("a,b\nc,d\n")
    (d / "empty.csv").write_text("")
    (d / "nan.csv").write_text("nan,1\n")
    (d / "bom.csv").write_bytes(b"\xef\xbb\xbfx,y\r\n0,1\r\n")
    (d / "almost_one.csv").write_text("0,1\n1.0000000000000001,1\n")
    (d / "a\x1b[31mb.csv").write_text("0,1\n1,1\n")
    (d / "dir.npy").mkdir()
    (d / "out").mkdir()
    for suffix in OUT_SUFFIXES:  # outputs that cannot be written: a read-only file, a link loop; and a link
        (d / f"ro{suffix}").write_text("keep")
        (d / f"ro{suffix}").chmod(0o444)
        (d / f"loop{suffix}").symlink_to(f"loop{suffix}")
        (d / f"link{suffix}").symlink_to(f"out/target{suffix}")
    return d


def class_args(files):
    names = ["good.npy", "three_d.npy", "twos.npy", "objects.npy", "pickle.npy", "garbage.npy", "good.csv",
             "ragged.csv", "words.csv", "empty.csv", "nan.csv", "dir.npy", "missing.npy", "missing.csv",
             "bom.csv", "almost_one.csv", "a\x1b[31mb.csv"]
    return st.one_of(
        st.sampled_from(["thresholds:7", "intervals:4", "singletons:3,empty", "k_sparse:5,2", "power_set:3",
                         "random:6,4,0.5,1", "monotone_disjunctions:2", "parities:2", "projections:3",
                         "Thresholds(5)"]),
        st.sampled_from(SPACES),
        st.sampled_from(["thresholds:0", "thresholds:-1", "thresholds:1e400", "thresholds:x", "treshold:4",
                         "parities:1000000000000", "k_sparse:200000,100000", "disjunctions:" + "9" * 200,
                         "random:1,1,nan,0", "power_set:17", "", ":", "(", "thresholds(", "a/b", "x.txt",
                         "experts:0", "experts:x", "experts:1e9", "halfspaces:d=0", "halfspaces:d=2,R=-1",
                         "halfspaces:d=2,gamma=nan", "halfspaces:d=2,radius=1", "k_disjunctions:3,5",
                         "k_disjunctions:10**9,2", "oco:d=0", "oco:d=1,radius=-1", "oco", "experts", "experts:4,5",
                         "thresholds:" + "[" * 50_000, "thresholds:" + "[" * 4000, "thresholds(" + "(" * 3000]),
        st.sampled_from(names).map(lambda n: str(files / n)),
        st.text(max_size=8),
    )


numbers = st.one_of(
    st.integers(-2, 40).map(str),
    st.sampled_from(["0", "-0", "1.5", "1e3", "nan", "inf", "-inf", "x", "", " 3", "0x10", "9" * 5000,
                     "99999999999999999999"]),
)
small_numbers = st.one_of(st.integers(-2, 30).map(str), st.sampled_from(["1.5", "x", "", "nan", "-inf", "9" * 400]))
#: Spaces and the setting of online convex optimisation, small enough that every game is fast.
SPACES = ["experts:3", "halfspaces:d=2,R=2,gamma=0.05", "halfspaces:d=3,R=1,gamma=0.25", "halfspaces:d=2",
          "k_disjunctions:10,2", "oco:d=1,radius=1", "oco:d=2,radius=0.5"]
#: Players by import path: test players, a module that does not exist, things that are not players.
IMPORTED = ["tests.test_cli_play:Boaster", "tests.test_cli_play:BadLearner", "tests.test_cli_play:MajorityVote",
            "tests.test_cli_play:MajorityVote(claim=2)", "tests.test_cli_play:Replay", "no_such_module:X",
            "os:path", "os:getcwd", "mistakebound.learners:Halving", "mistakebound.adversaries:OppositeLabel",
            ":", "a:", ":b", "tests.test_cli_play:Nope", "..:x", ".os:system", "os..path:x", "x:y:z",
            "Halving(" + "[" * 3000 + ")", "x" + "[" * 50_000, "\x1b[2J:\r"]
learners = st.one_of(st.sampled_from(["halving", "SOA", "consistent", "Perceptron", "ExpertsFromClass",
                                      "littlestone-experts", "halvng", "", "OppositeLabel", "weighted-majority",
                                      "deterministic-weighted-majority", "winnow", "online-gradient-descent",
                                      "follow-the-leader", "randomized-linear-classifier", "disjunction-elimination",
                                      "OptimalRandomizedLearner", "Winnow(eta=0.1)", "Winnow(eta=2)", "Halving(x=1)"]),
                     st.sampled_from(IMPORTED), st.text(max_size=5))
adversaries = st.one_of(st.sampled_from(["opposite-label", "ShatteredTreeWalker", "binary-search-threshold",
                                         "BasisVectorForcer", "ObliviousCoin", "oposite", "", "Halving",
                                         "random-expert-losses", "split-advice", "heaviest-expert-loss",
                                         "separable-stream", "midpoint-adversary", "disjunction-stream",
                                         "disjunction-adversary", "alternating-losses", "minimax-adversary",
                                         "randomized-forcer", "ObliviousCoin(labels=coin)",
                                         "ObliviousCoin(labels=never)", "ObliviousCoin(coin)"]),
                        st.sampled_from(IMPORTED), st.text(max_size=5))
#: Worst-case searches without a node budget can be exponential in the horizon (an expert learner's
#: weights never repeat a state); the fuzz tests argument handling, so every search gets a time limit.
SEARCH_TIME = ["--time-limit", "3"]
junk = st.sampled_from(["--bogus", "-x", "--", "--help", "--seed", "--rounds", "extra", "-q", "--tree"])


OUT_SUFFIXES = [".jsonl", ".ndjson", ".json", ".png", ".svg", ".txt", ".jpg"]


def out_args(files, suffixes):
    return st.one_of(
        st.sampled_from(suffixes).map(lambda s: str(files / "out" / f"f{s}")),
        st.sampled_from([str(files / "nodir" / "f.png"), str(files / "out"), "", "f.txt", str(files / "good.npy")]),
        st.tuples(st.sampled_from(["/proc/f", str(files / "ro"), str(files / "loop"), str(files / "link"),
                                   str(files / "out" / "g\x1b]0;t\x07\r")]),
                  st.sampled_from(suffixes)).map("".join),
    )


def flags(pairs: dict, switches: list[str]):
    """Random option lists: each option given or not (maybe twice), in random order."""
    items = [st.tuples(st.just(k), v).map(list) for k, v in pairs.items()] + [st.just([s]) for s in switches]
    return st.lists(st.one_of(*items), max_size=4).map(lambda groups: [t for g in groups for t in g])


def parses(argv: list[str]) -> bool:
    with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
        try:
            cli.parser.build_parser().parse_args(argv)
        except SystemExit:
            return False
    return True


# ----------------------------------------------------------------------------- commands
@CLI
@given(seed=numbers, extra=st.lists(junk, max_size=2))
def test_check_with_bad_arguments_exits_2(seed, extra):
    argv = ["check", "--seed", seed, *extra]
    assume(not parses(argv))  # a valid check runs every game: covered by tests/test_cli.py
    expected = {cli.EXIT_OK, cli.EXIT_BAD_INPUT} if "--help" in argv else {cli.EXIT_BAD_INPUT}  # argparse order
    assert assert_well_behaved(argv) in expected


@CLI
@given(data=st.data())
def test_ldim_with_random_arguments(files, data):
    argv = ["ldim", data.draw(class_args(files))]
    argv += data.draw(flags({"--max-nodes": numbers, "--time-limit": numbers,
                             "--workers": st.sampled_from(["0", "1", "2", "257", "10**9", "x"])}, ["--tree"]))
    argv += data.draw(st.lists(junk, max_size=1))
    assert_well_behaved(argv)


@CLI
@given(data=st.data())
def test_play_with_random_arguments(files, data):
    argv = ["play", data.draw(learners), data.draw(adversaries), data.draw(class_args(files))]
    argv += data.draw(flags({"--rounds": small_numbers, "--seed": numbers,
                             "--out": out_args(files, [".jsonl", ".ndjson", ".json", ".png"])},
                            ["--unrealizable", "-q", "--quiet"]))
    argv += data.draw(st.lists(junk, max_size=1))
    assert_well_behaved(argv)


@CLI
@given(data=st.data())
def test_play_of_registered_players_on_spaces(data):
    """Two registered players on a space or oco: a game (exit 0 or 1) where the registry builds both, else exit 2."""
    from mistakebound.foundations.errors import NotApplicableError
    from mistakebound.game import registry

    spec = data.draw(st.sampled_from(SPACES))
    learner = data.draw(st.sampled_from(registry.names("learner")))
    adversary = data.draw(st.sampled_from(registry.names("adversary")))
    rounds = data.draw(st.integers(1, 30))
    unrealizable = data.draw(st.booleans())
    argv = ["play", learner, adversary, spec, "--rounds", str(rounds), "--seed", str(data.draw(st.integers(0, 99))),
            "-q", *(["--unrealizable"] if unrealizable else [])]
    code = assert_well_behaved(argv)
    setting = registry.load_setting(spec)
    try:
        registry.build("learner", learner, setting, rounds=rounds)
        registry.build("adversary", adversary, setting, rounds=rounds)
    except NotApplicableError:
        assert code == cli.EXIT_BAD_INPUT, argv
        return
    if unrealizable and spec.startswith("oco"):
        assert code == cli.EXIT_BAD_INPUT, argv  # an OCO game has no labels to realize
    else:
        assert code in (cli.EXIT_OK, cli.EXIT_BROKEN), argv


@CLI
@given(data=st.data())
def test_worst_case_with_random_arguments(files, data):
    argv = ["worst-case", data.draw(learners), data.draw(class_args(files))]
    argv += data.draw(flags({"--horizon": small_numbers, "--max-nodes": st.one_of(small_numbers, st.just("2000"))}, []))
    argv += SEARCH_TIME  # a drawn --max-nodes may be huge or absent: the search must still end
    argv += data.draw(st.lists(junk, max_size=1))
    assert_well_behaved(argv)


@FIGURES
@given(data=st.data())
def test_tree_with_random_arguments(files, data):
    pytest.importorskip("matplotlib")
    argv = ["tree", data.draw(class_args(files)), "--out", data.draw(out_args(files, [".png", ".svg", ".txt"]))]
    argv += data.draw(flags({"--worst-case": learners, "--horizon": small_numbers, "--max-nodes": small_numbers}, []))
    argv += SEARCH_TIME
    assert_well_behaved(argv)


@FIGURES
@given(data=st.data())
def test_plot_with_random_arguments(files, data):
    pytest.importorskip("matplotlib")
    names = data.draw(st.lists(learners, min_size=0, max_size=2)).copy()
    argv = ["plot", data.draw(class_args(files)), "--learners", ",".join(names),
            "--adversary", data.draw(adversaries), "--out", data.draw(out_args(files, [".png", ".svg", ".jpg"]))]
    argv += data.draw(flags({"--rounds": small_numbers, "--seed": numbers}, ["--unrealizable", "--log"]))
    assert_well_behaved(argv)


@CLI
@given(argv=st.lists(st.one_of(st.sampled_from(["check", "ldim", "play", "worst-case", "tree", "plot", "--help",
                                                "-h", "--version"]), junk, st.text(max_size=6)), max_size=5))
def test_random_argument_lists_never_escape_main(argv):
    assume(not (argv and argv[0] == "check" and parses(argv)))  # a valid check is slow, tested elsewhere
    assert_well_behaved(argv)


@pytest.mark.parametrize(
    "argv",
    [
        ["ldim", "parities:1000000000000"],  # the zoo computed 2**n before refusing (hang)
        ["ldim", "k_sparse:200000,100000"],  # the zoo summed 100,000 binomials before refusing (hang)
        ["ldim", "disjunctions:" + "9" * 200],
        ["ldim", "thresholds:1e400"],
    ],
)
def test_huge_class_specs_exit_2_quickly(argv):
    code, _, err = run(argv)
    assert code == cli.EXIT_BAD_INPUT
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_a_garbled_npy_header_exits_2(files):
    code, _, err = run(["ldim", str(files / "garbage.npy")])
    assert code == cli.EXIT_BAD_INPUT and "not a valid .npy file" in err


def test_a_class_spec_longer_than_a_file_name_exits_2():
    code, _, err = run(["ldim", "disjunctions:" + "9" * 4000])  # longer than NAME_MAX: not a file name
    assert code == cli.EXIT_BAD_INPUT and err.startswith("mistakebound ldim: error: CLASS") and "\n" == err[-1:]
    assert len(err.splitlines()) == 1


def test_the_fuzz_left_no_temporary_file_and_replaced_no_read_only_file(files):
    """Runs after the fuzz tests above (same module, same folder): every write cleaned up after itself."""
    assert not [p for p in files.rglob("*") if p.name.endswith(".mistakebound-tmp")]
    assert all((files / f"ro{suffix}").read_text() == "keep" for suffix in OUT_SUFFIXES)
    assert all((files / f"link{suffix}").is_symlink() for suffix in OUT_SUFFIXES)
