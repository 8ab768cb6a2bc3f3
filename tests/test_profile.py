"""The profile door (``theory/profile.py``): each parameter exact or proven, the engines it chooses,
and the command line as a printer of its answers (it must reach the compiled search)."""

from __future__ import annotations

import contextlib
import io
from fractions import Fraction

import pytest

from hypothesis import given, settings
from hypothesis import strategies as st

from mistakebound.theory.textbook import textbook_ldim, textbook_rldim, textbook_vcdim
from mistakebound import HypothesisClass, classes
from mistakebound.game.rules import Rules
from mistakebound.foundations import memory
from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.interfaces import cli
from mistakebound.theory import ldim_kernel, profile
from mistakebound.theory.littlestone import LdimEngine, ldim_engine
from mistakebound.theory.profile import PARAMETERS, class_profile, profile_steps
from tests.strategies import class_matrices


@settings(max_examples=60)
@given(M=class_matrices(max_rows=9, max_cols=5))
def test_an_unbudgeted_profile_is_the_oracles_values(M):
    H = HypothesisClass.from_matrix(M)
    P = class_profile(H, what=("ldim", "vc", "rldim"))
    assert P.partial == {}
    assert (P.ldim.value, P.vc.value, P.rldim.value) == (textbook_ldim(M), textbook_vcdim(M), textbook_rldim(H))
    assert P.n_distinct == len({tuple(r) for r in M.tolist()})


@settings(max_examples=60)
@given(M=class_matrices(max_rows=12, max_cols=6), nodes=st.integers(1, 4))
def test_a_budgeted_profile_holds_the_truth_and_says_why_each_part_is_partial(M, nodes):
    H = HypothesisClass.from_matrix(M)
    P = class_profile(H, what=("ldim", "vc", "rldim"), max_nodes=nodes)
    L, d, rl = textbook_ldim(M), textbook_vcdim(M), textbook_rldim(H)
    assert P.ldim.lower <= L <= P.ldim.upper
    assert P.vc.lower <= d <= P.vc.upper <= P.ldim.upper  # VCdim <= Ldim, used
    assert P.rldim.lower <= rl <= P.rldim.upper
    assert Fraction(P.ldim.lower, 2) <= P.rldim.lower  # Ldim / 2 <= RL, used
    for name in ("ldim", "vc", "rldim"):
        result = getattr(P, name)
        assert (name in P.partial) == (not result.exact)


def test_answers_come_in_order_and_each_search_runs_only_when_its_answer_is_asked_for(monkeypatch):
    from mistakebound.theory import vc

    searched = []
    original = vc.vc_bounds
    monkeypatch.setattr(vc, "vc_bounds", lambda *a, **k: searched.append("vc") or original(*a, **k))
    steps = profile_steps(classes.intervals(5), what=("rldim", "vc"))
    seen = []
    for name, result, P in steps:
        seen.append((name, None if result is None else result.exact, list(searched)))
    assert seen == [("class", None, []), ("ldim", True, []), ("vc", True, ["vc"]), ("rldim", True, ["vc"])]
    assert P.ldim.value == textbook_ldim(classes.intervals(5).matrix)
    assert P == class_profile(classes.intervals(5), what=("rldim", "vc"))


def test_the_door_chooses_the_engine_from_the_request():
    H = classes.thresholds(15)
    one = "compiled" if ldim_kernel.AVAILABLE else "python"
    assert ldim_engine(H).name == one
    # a tree or a certificate is read off the engine that finds the value: the compiled search reads them in its run
    assert ldim_engine(H, keep_search=True).name == ldim_engine(H, read="tree").name == one
    assert (ldim_engine(H, keep_search=True).read, ldim_engine(H, read="tree").read) == ("certificate", "tree")
    assert ldim_engine(H, workers=2).name == "parallel"
    assert ldim_engine(H, workers=2, read="tree").search is not None  # read with workers: the Python search's memo
    kept = class_profile(H, keep_search=True)
    assert kept.ldim_engine is not None and kept.tree().graph["depth"] == 4
    assert (kept.search is None) == ldim_kernel.AVAILABLE  # the Python search object only where it searched
    assert class_profile(H).ldim_engine is None
    with pytest.raises(InvalidArgumentError, match="keep_search=True"):
        class_profile(H).tree()
    with pytest.raises(InvalidArgumentError, match="keep_search=True"):
        class_profile(H, read="tree").certificate()  # a tree alone was read
    with pytest.raises(InvalidArgumentError, match="^read: "):
        ldim_engine(H, read="refutation")


def test_a_class_too_large_for_the_memory_gets_what_holds_without_a_search(monkeypatch):
    H = classes.random(3000, 24, 0.3, seed=1)
    monkeypatch.setattr(memory, "available_memory", lambda: 1000)
    P = class_profile(H, what=("ldim", "vc"))
    assert P.ldim.describe() == f"0 <= Ldim <= {H.n_hypotheses.bit_length() - 1} (partial: memory)"
    assert P.partial["ldim"].startswith("memory: H: a Littlestone search of 3000 hypotheses x 24 instances needs")
    assert P.engine is None and P.vc.upper <= P.ldim.upper


def test_without_a_time_limit_the_vc_search_gets_the_library_s_default(monkeypatch):
    from mistakebound.theory import vc

    limits = []

    def vc_bounds(H, **kwargs):
        limits.append(kwargs["time_limit"])
        return vc.VCBounds(lower=1, upper=1, status="exact")

    monkeypatch.setattr(vc, "vc_bounds", vc_bounds)
    class_profile(classes.thresholds(7))
    class_profile(classes.thresholds(7), time_limit=42.0)
    assert limits == [profile.VC_SECONDS, 42.0]


def test_on_a_class_of_more_labels_the_randomized_ldim_gets_the_same_default(monkeypatch):
    from mistakebound.theory import randomized_ldim
    from mistakebound.theory.randomized_ldim import RLdimBounds

    limits = []

    def rl_bounds(H, **kwargs):
        limits.append(kwargs["time_limit"])
        return RLdimBounds(lower=0, upper=2, status="budget", seconds=kwargs["time_limit"] or 1.0)

    monkeypatch.setattr(randomized_ldim, "randomized_littlestone_bounds", rl_bounds)
    H = HypothesisClass.from_matrix([[0, 1], [2, 0], [1, 2]], labels=3)
    P = class_profile(H, what=("ldim", "rldim"), rules=Rules(labels=3))
    Q = class_profile(H, what=("ldim", "rldim"), rules=Rules(labels=3), time_limit=42.0)
    assert limits == [profile.VC_SECONDS, 42.0]
    assert P.partial["rldim"] == "default-limit" and Q.partial["rldim"] == "budget"


@pytest.mark.parametrize("what", [(), ("ldim", "shatter"), 7])
def test_bad_parameters_are_refused_by_name(what):
    with pytest.raises(InvalidArgumentError, match="^what: expected parameters among " + ", ".join(PARAMETERS)):
        class_profile(classes.thresholds(3), what=what)


# ------------------------------------------------------------------ the command line asks the same door
@pytest.mark.skipif(not ldim_kernel.AVAILABLE, reason="this install has no compiled search (see --version)")
def test_the_command_line_reaches_the_compiled_search(monkeypatch):
    """``mistakebound ldim CLASS`` answers through the library's door, which takes the compiled search, with a
    tree or a certificate too (read in the same run)."""
    runs = []
    original = LdimEngine.run

    def run(self, *args, **kwargs):
        runs.append(self.name)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(LdimEngine, "run", run)
    with contextlib.redirect_stdout(io.StringIO()) as out:
        assert cli.main(["ldim", "random:2000,20,0.3,0", "--what", "ldim"]) == 0
        assert cli.main(["ldim", "intervals:12", "--what", "ldim,vc,rldim"]) == 0
        assert cli.main(["ldim", "thresholds:7", "--tree"]) == 0
    assert runs == ["compiled", "compiled", "compiled"]
    assert "Ldim = 3" in out.getvalue()


def test_the_command_line_prints_what_the_door_answers(capsys):
    P = class_profile(classes.intervals(9), what=("ldim", "vc", "rldim"))
    assert cli.main(["ldim", "intervals:9", "--what", "ldim,vc,rldim"]) == 0
    out = capsys.readouterr().out
    assert f"Ldim = {P.ldim.value}\n" in out and f"VCdim = {P.vc.value}\n" in out and f"RL = {P.rldim.value} " in out


def test_the_front_doors_benchmark_runs_in_smoke_mode(capsys):
    from benchmarks import front_doors

    assert front_doors.main(["--smoke"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines[2:]] == front_doors.SMOKE
    assert all(float(line.split()[-1]) > 0 for line in lines[2:])


def test_a_kept_profile_certifies_what_it_proved_and_the_checker_agrees():
    from mistakebound.certificates.verify import check
    from mistakebound.theory.certificate import class_section

    H = classes.intervals(7)
    P = class_profile(H, what=("ldim", "vc", "rldim"), keep_search=True)
    proven = check(P.certificate().document(), class_section(H))
    assert proven == {"ldim": (P.ldim.value,) * 2, "vc": (P.vc.value,) * 2, "rldim": (P.rldim.value,) * 2}
    partial = class_profile(classes.random(300, 20, 0.4, seed=2), what="ldim", max_nodes=5, keep_search=True)
    (bounds,) = check(partial.certificate().document()).values()
    # the compiled run stopped before its reading: what holds before any search is certified, nothing searched
    # again (the profile's bounds are the run's); the Python search certifies what its memo proved
    assert bounds[0] <= partial.ldim.lower and partial.ldim.upper <= bounds[1]
    assert (bounds == (partial.ldim.lower, partial.ldim.upper)) or partial.engine == "compiled"
    with pytest.raises(InvalidArgumentError, match="keep_search=True"):
        class_profile(H).certificate()


def test_the_startup_benchmark_runs_in_smoke_mode(capsys):
    from benchmarks import startup

    assert startup.main(["--smoke"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("start-up, medians of 2") and len(lines) == 2
    assert lines[1].startswith("  ldim thresholds:5: ") and float(lines[1].split()[-1]) > 0



# ------------------------------------------------------------------ the parameters' certificates
@settings(max_examples=25, deadline=None)
@given(M=class_matrices(max_rows=8, max_cols=5))
def test_the_certificate_of_a_profile_proves_what_each_parameter_s_door_found(M):
    """Every parameter of MORE with a kind of certificate is in the profile's certificate, and the checker proves
    there exactly the door's bounds (by brute force in tests.parameter_oracles for the parameters of the class)."""
    from mistakebound.certificates.verify import check
    from tests import order_oracles
    from tests import parameter_oracles as oracles

    H = HypothesisClass.from_matrix(M)
    certified = [p.name for p in profile.MORE if p.certify is not None]
    P = class_profile(H, what=("ldim", *certified), keep_search=True)
    proven = check(P.certificate().document())
    truth = {"threshold": oracles.threshold_dimension, "degree": oracles.one_inclusion_degree,
             "star": oracles.star_number, "td": oracles.teaching_dimension,
             "tsmin": oracles.minimum_teaching_set_size, "rtd": oracles.recursive_teaching_dimension,
             "self_directed": lambda M: order_oracles.self_directed_oracle([tuple(r) for r in M.tolist()]),
             "best_order": lambda M: order_oracles.best_order_oracle([tuple(r) for r in M.tolist()]),
             "worst_order": lambda M: order_oracles.worst_order_oracle([tuple(r) for r in M.tolist()])}
    assert set(truth) == set(certified)
    for name in certified:
        result = P.result(name)
        kind = next(p.kind for p in profile.MORE if p.name == name)
        assert proven[kind] == (result.lower, result.upper) == (truth[name](M),) * 2, name


def test_every_certified_parameter_names_a_kind_the_checker_knows():
    from mistakebound.certificates.verify import KINDS

    certified = [p for p in profile.MORE if p.certify is not None]
    assert certified and all(p.kind in KINDS for p in certified)
    assert len({p.kind for p in certified}) == len(certified)
    assert {p.order for p in profile.MORE if p.order} == {"self-directed", "best", "worst"}


# ------------------------------------------------------------------ the tree and the certificate: the engine's reading
@pytest.mark.parametrize("compiled", [False] + ([True] if ldim_kernel.AVAILABLE else []))
def test_the_profile_reads_its_tree_and_certificate_off_the_engine_shattered_tree_takes(monkeypatch, compiled):
    from mistakebound.certificates.verify import check
    from mistakebound.theory.certificate import CertificateWriter
    from mistakebound.theory.ldim_certificate import ldim_certificate
    from mistakebound.theory.ldim_search import LdimSearch
    from mistakebound.theory.littlestone import is_shattered, shattered_tree

    if not compiled:
        monkeypatch.setattr(ldim_kernel, "AVAILABLE", False)
    H = classes.random(50, 9, 0.4, seed=4)
    d = textbook_ldim(H.matrix)
    P = class_profile(H, what="ldim", keep_search=True)
    assert P.engine == ("compiled" if compiled else "python") and P.ldim.value == d
    assert (P.search is None) == compiled  # the Python search object only where it searched
    T = P.tree(max_nodes=1)  # what the compiled run read needs no budget; the Python memo holds the tree
    assert T.graph["depth"] == d and is_shattered(H, T)
    assert sorted(T.nodes(data=True)) == sorted(shattered_tree(H).nodes(data=True))
    if not compiled:
        assert sorted(T.nodes(data=True)) == sorted(LdimSearch(H).tree().nodes(data=True))
    writer = CertificateWriter(H)
    section = ldim_certificate(H, writer)
    document = P.certificate().document()
    assert check(document) == check(writer.document()) == {"ldim": (d, d)}
    assert document["results"][0]["facts"] == section["facts"]


@pytest.mark.skipif(not ldim_kernel.AVAILABLE, reason="this install has no compiled search (see --version)")
def test_ctrl_c_while_the_tree_is_read_starts_no_other_search(monkeypatch, capsys):
    """The value found, Ctrl-C while the compiled search reads the tree: Ldim exact, no VC search, no tree (the
    reading's bounds raised), and the command says so and exits 3."""
    from mistakebound.theory.search_protocol import SearchInterrupted

    original = ldim_kernel.kernel_tree

    def stopped_reading(*args, **kwargs):  # the run as a Ctrl-C after the value leaves it
        found = original(*args, **kwargs)
        return {**found, "status": "interrupted", "tree": None, "refutation": None}

    monkeypatch.setattr(ldim_kernel, "kernel_tree", stopped_reading)
    H = classes.intervals(8)
    P = class_profile(H, what=("ldim", "vc"), read="tree")
    assert P.ldim.value == textbook_ldim(H.matrix)
    assert P.vc is None and P.partial == {"vc": "not searched: interrupted"}
    with pytest.raises(SearchInterrupted) as info:
        P.tree()
    assert (info.value.result.lower, info.value.result.upper) == (P.ldim.value,) * 2
    assert cli.main(["ldim", "intervals:8", "--what", "ldim", "--tree"]) == 3
    out = capsys.readouterr().out
    assert f"Ldim = {P.ldim.value}\n" in out and "no shattered tree: interrupted" in out
