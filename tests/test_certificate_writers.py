"""A certificate the project writes always verifies (issue 21): every writer, on the awkward classes.

For every kind (``ldim``, ``vc``, ``rldim``, and ``worst-case`` for Halving, Consistent, SOA, the
optimal randomized learner, weighted majority over the rows and the learners that read vectors),
on classes drawn with the shapes where writers go wrong (repeated rows, rows all equal, a single
row, a single instance or none, copied and complementary columns, constant columns at the end,
the zoo's symmetric classes as they are and relabelled, domains of every JSON type and of objects
JSON cannot hold, some sharing a ``repr``) and on partial searches (small ``max_nodes``, horizons
0, 1 and 2), the document a writer produces

1. passes :func:`~mistakebound.certificates.verify.check` against the class's own section
   (:func:`~mistakebound.theory.certificate.class_section`), and its class, read here without
   the writer, is the class: shape, every label, every instance (:func:`of_class`);
2. states bounds the independent oracles find true (``lower <= value <= upper``, equal when
   the search was exact): ``textbook_ldim``, ``textbook_vcdim``,
   ``textbook_worst_case`` (with a learner's rule, or its first predictions over one round),
   ``textbook_rldim`` and ``optimal_rule`` of :mod:`mistakebound.theory.textbook`;
3. reads back from the files :meth:`CertificateWriter.write` writes (``.json`` and ``.json.gz``)
   to the same statements, and a worst case replays against its learner;
4. is accepted by the checker run as a program (``python -I -S verify.py FILE``) on a sample of
   the shapes, and through the command line once per kind.
"""

from __future__ import annotations

import math
import subprocess
import sys
import tempfile
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from attrs import define
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from mistakebound.theory.textbook import consistent_rule, halving_rule, optimal_rule, textbook_ldim, textbook_rldim, textbook_vcdim, textbook_worst_case
from mistakebound import HypothesisClass
from mistakebound import classes as zoo
from mistakebound.certificates import verify
from mistakebound.certificates.verify import check, describe
from mistakebound.foundations.errors import NotApplicableError
from mistakebound.foundations.json_format import decode_instance
from mistakebound.game import registry
from mistakebound.game.class_files import load_class, save_class
from mistakebound.game.players import is_randomized
from mistakebound.interfaces.cli import main
from mistakebound.learners import SOA, Consistent, ExpertsFromClass, Halving, OptimalRandomizedLearner
from mistakebound.theory.certificate import CertificateWriter, class_section
from mistakebound.theory.ldim_certificate import ldim_certificate
from mistakebound.theory.randomized_certificate import rldim_section
from mistakebound.theory.search_protocol import OutOfBudget, SearchIncomplete
from mistakebound.theory.vc_certificate import vc_section
from mistakebound.theory.worst_case_certificate import replay, worst_case_section
from tests.strategies import class_matrices
from tests.test_randomized_ldim import SYMMETRIC, relabelled_classes

CHECKER = Path(verify.__file__)
PROPERTY = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
#: Worst cases search several learners per example.
WORST_CASES = settings(PROPERTY, max_examples=100)


# ------------------------------------------------------------------------------ the classes
#: What is done to a drawn matrix (in the order drawn): the shapes where a writer goes wrong.
SHAPES = ("repeated rows", "equal rows", "single row", "single instance", "trailing zeros", "trailing ones",
          "copied columns")


@define(eq=False)
class Token:
    """An instance JSON cannot hold, told apart from another by identity: two may have one ``repr``."""

    name: str


#: Instances of a drawn domain: every type a class file keeps, and objects JSON cannot hold.
instances = st.one_of(st.integers(-3, 2**70), st.text(max_size=3), st.floats(allow_nan=False, allow_infinity=False),
                      st.none(), st.booleans(), st.tuples(st.integers(0, 2), st.text(max_size=2)),
                      st.frozensets(st.integers(0, 3), max_size=2), st.builds(Token, st.sampled_from("ab")))


def _shaped(draw, M: np.ndarray, shape: str) -> np.ndarray:
    n, m = M.shape
    if shape == "repeated rows":  # n + 1 or more rows drawn from n: some row repeats
        return M[draw(st.lists(st.integers(0, n - 1), min_size=n + 1, max_size=n + 3))]
    if shape == "equal rows":  # no instance splits the class
        return np.repeat(M[draw(st.integers(0, n - 1))][None, :], draw(st.integers(1, 4)), axis=0)
    if shape == "single row":
        return M[:1]
    if shape == "single instance":
        return M[:, :1] if m else np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)),
                                           dtype=np.uint8).reshape(n, 1)
    if shape in ("trailing zeros", "trailing ones"):
        return np.column_stack([M, np.full((n, draw(st.integers(1, 2))), int(shape == "trailing ones"), np.uint8)])
    if m == 0:  # "copied columns": a copy and a complement of a column, at the end
        return M
    c = M[:, draw(st.integers(0, m - 1))]
    return np.column_stack([M, c, 1 - c])


@st.composite
def awkward_classes(draw, matrices=None, *, first: tuple[str, ...] = ()) -> HypothesisClass:
    """A matrix of ``matrices`` (default: ``tests.strategies.class_matrices``) with the shapes ``first`` and
    up to two drawn :data:`SHAPES` applied, over a drawn domain (the default ``0, 1, ...`` half the time)."""
    M = draw(class_matrices(max_rows=7, max_cols=4) if matrices is None else matrices)
    for shape in first + tuple(draw(st.lists(st.sampled_from(SHAPES), max_size=2))):
        M = _shaped(draw, M, shape).astype(np.uint8)
    m = M.shape[1]
    domain = draw(st.one_of(st.none(), st.lists(instances, min_size=m, max_size=m, unique=True)))
    return HypothesisClass.from_matrix(M, domain=domain)


#: The symmetric classes of the zoo (``SYMMETRIC`` of tests/test_randomized_ldim.py) as they are (rows of twins
#: correspond by a shift) or relabelled (``relabelled_classes``: rows shuffled and repeated, columns
#: permuted, complemented, copied): the searches answer version spaces by their twins, with "map" steps.
ZOO = st.one_of(st.sampled_from(SYMMETRIC), relabelled_classes()).map(lambda H: H.matrix)
#: Small drawn classes and the zoo's symmetric ones, each with the shapes applied.
CLASSES = st.one_of(awkward_classes(), awkward_classes(ZOO))
#: Thresholds (a chain of sets of rows: VC dimension 1, certified as a laminar family from 4 thresholds on)
#: with a column copied and complemented (a chain of two copies), then the shapes drawn.
LAMINAR = awkward_classes(st.integers(4, 7).map(lambda k: zoo.thresholds(k).matrix), first=("copied columns",))
#: For the VC dimension, laminar ones too; the brute force tries every set of instances: at most 10 of them.
NARROW = st.one_of(CLASSES, LAMINAR).filter(lambda H: H.n_instances <= 10)


# ------------------------------------------------------------------------------ the checks
def of_class(document: dict, H: HypothesisClass) -> None:
    """The document's class, read here without the writer's help, is ``H``: its shape, every label of every
    row (an instance every row labels 0 included), and its domain, instance by instance."""
    c = document["class"]
    n, m = H.matrix.shape
    assert (c["n_hypotheses"], c["n_instances"], len(c["rows"]), len(c["domain"])) == (n, m, n, m)
    labels = [[int(row, 16) >> x & 1 for x in range(m)] for row in c["rows"]]
    assert np.array_equal(np.array(labels, dtype=np.uint8).reshape(n, m), H.matrix)
    assert all(int(row, 16) >> m == 0 for row in c["rows"])
    for x, name in zip(H.domain, c["domain"]):
        if isinstance(name, dict) and "repr" in name:  # an object JSON cannot hold: named by its repr
            assert name["repr"] == repr(x) and not isinstance(x, (int, float, str, type(None))), (x, name)
        else:
            assert decode_instance(name) == x and type(decode_instance(name)) is type(x), (x, name)


def verified(writer: CertificateWriter, H: HypothesisClass) -> dict:
    """``check`` of the writer's document (:func:`of_class` ``H``) against ``H``'s class section, which must
    give the same statements when read back from the ``.json`` and ``.json.gz`` files the writer writes."""
    expected = class_section(H)
    of_class(writer.document(), H)
    proven = check(writer.document(), expected)
    with tempfile.TemporaryDirectory() as folder:
        for name in ("c.json", "c.json.gz"):
            again = verify.check_file(writer.write(Path(folder) / name), expected)
            assert again == proven and describe(again) == describe(proven), name
    return proven


def holds(bounds: tuple, truth, exact: bool) -> None:
    """``lower <= truth <= upper`` (None: not claimed), both equal to ``truth`` when ``exact``."""
    lower, upper = bounds
    assert lower is not None and lower <= truth, (bounds, truth)
    assert upper is None or truth <= upper, (bounds, truth)
    if exact:
        assert lower == upper == truth, (bounds, truth)


def ldim_of(H: HypothesisClass) -> int:
    return textbook_ldim(H.matrix)


# ------------------------------------------------------------------------------ one kind at a time
#: Budgets of the searches: None (exact), or a few nodes (a partial result, unless the class is small).
BUDGETS = st.sampled_from([None, 1, 2, 5])


def ldim_first(H: HypothesisClass, writer: CertificateWriter, max_nodes: int | None) -> bool:
    """An ``ldim`` section in ``writer`` first, within ``max_nodes``; False when none could be written."""
    try:
        ldim_certificate(H, writer, max_nodes=max_nodes)
    except OutOfBudget:  # documented: no certificate when the budget cannot read the shattered tree off
        event("ldim: out of budget for the lower side")
        return False
    return True


@PROPERTY
@given(H=CLASSES, max_nodes=BUDGETS)
def test_ldim_certificates_verify_with_the_textbook_value(H, max_nodes):
    writer = CertificateWriter(H)
    if ldim_first(H, writer, max_nodes):
        section = writer.document()["results"][0]
        proven = verified(writer, H)["ldim"]
        holds(proven, ldim_of(H), exact=max_nodes is None)
        assert proven == (section["claim"]["lower"][1], section["claim"]["upper"][1])


#: What a document holds before the section tested: nothing, an exact ``ldim`` section, or a partial one
#: (whose upper bound the next search and certificate may use).
BEFORE = st.sampled_from(["nothing", "ldim", "partial ldim"])


def written_before(H: HypothesisClass, writer: CertificateWriter, before: str) -> bool:
    """Whether an ``ldim`` section was written first (``before``)."""
    return before != "nothing" and ldim_first(H, writer, 1 if before == "partial ldim" else None)


@PROPERTY
@given(H=NARROW, max_nodes=BUDGETS, before=BEFORE)
def test_vc_certificates_verify_with_the_brute_force_value(H, max_nodes, before):
    """Alone (its own search, laminar or a static bound) or after an ``ldim`` section (VCdim <= Ldim)."""
    writer = CertificateWriter(H)
    ldim = written_before(H, writer, before)
    vc_section(H, writer, max_nodes=max_nodes)
    proven = verified(writer, H)
    holds(proven["vc"], textbook_vcdim(H.matrix), exact=max_nodes is None)
    if ldim:
        holds(proven["ldim"], ldim_of(H), exact=before == "ldim")


@PROPERTY
@given(H=CLASSES, max_nodes=BUDGETS, before=BEFORE)
def test_rldim_certificates_verify_with_the_game_value(H, max_nodes, before):
    """Alone, or after an ``ldim`` section (whose upper bound its Ldim facts may cite)."""
    writer = CertificateWriter(H)
    written_before(H, writer, before)
    try:
        rldim_section(H, writer, max_nodes=max_nodes)
    except SearchIncomplete:  # documented: a float pruning to confirm, and the budget spent
        event("rldim: out of budget confirming a pruning")
        return
    holds(verified(writer, H)["rldim"], textbook_rldim(H), exact=max_nodes is None)


def test_an_rldim_bound_by_the_ldim_is_not_taken_for_the_ldim_fact_it_cites():
    """A partial search's upper side bounds a part by ``Ldim (1 - 2^(1-d))`` after the part's Ldim fact was written
    for another bound: the two facts are told apart (hypothesis found the class where one stood for the other)."""
    M = [[0, 0, 0, 1, 0], [0, 0, 0, 1, 1], [0, 0, 1, 0, 0], [0, 0, 1, 1, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 1],
         [1, 0, 1, 0, 0], [0, 1, 0, 0, 0], [0, 1, 1, 0, 0], [0, 1, 0, 1, 0], [1, 0, 0, 1, 0], [1, 1, 0, 0, 0],
         [0, 0, 1, 0, 1], [1, 0, 0, 0, 1], [1, 0, 0, 0, 0], [0, 1, 0, 0, 1]]
    H = HypothesisClass.from_matrix(M)
    writer = CertificateWriter(H)
    rldim_section(H, writer, max_nodes=1)
    holds(verified(writer, H)["rldim"], textbook_rldim(H), exact=False)


#: The learners searched, each with the truth of its worst case over ``horizon`` rounds (None: no horizon).
LEARNERS = {
    "Halving": (Halving, lambda H, h: textbook_worst_case(H, halving_rule(H), h)),
    "Consistent": (Consistent, lambda H, h: textbook_worst_case(H, consistent_rule(H), h)),
    # SOA errs at most Ldim times (Lemma 21.7), and a shattered tree forces a mistake a round (Lemma 21.6)
    "SOA": (SOA, lambda H, h: ldim_of(H) if h is None else min(h, ldim_of(H))),
    "OptimalRandomizedLearner": (OptimalRandomizedLearner, lambda H, h: textbook_worst_case(H, optimal_rule(H), h)),
}


def first_round(learner, H: HypothesisClass, horizon: int) -> Fraction:
    """The worst case of ``learner`` over ``horizon`` <= 1 rounds: the recursion with its first predictions."""
    assert horizon <= 1
    predict = learner.predict_proba_one if is_randomized(learner) else learner.predict_one
    return textbook_worst_case(H, lambda rows, j: Fraction(float(predict(H.domain[j]))), horizon)


@WORST_CASES
@given(H=CLASSES, horizon=st.sampled_from([None, 0, 1, 2]), max_nodes=BUDGETS)
def test_worst_case_certificates_verify_with_the_recursions_value_and_replay(H, horizon, max_nodes):
    for name, (Learner, truth) in LEARNERS.items():
        writer = CertificateWriter(H)
        W, _ = worst_case_section(Learner(H), H, writer, horizon=horizon, max_nodes=max_nodes)
        proven = verified(writer, H)["worst-case"]
        assert max_nodes is not None or W.exact, name
        holds(proven, truth(H, horizon), exact=W.exact)
        assert proven.about["horizon"] == horizon
        replay(writer.document(), Learner(H), H)


@WORST_CASES
@given(H=awkward_classes(class_matrices(max_rows=6, max_cols=4)), horizon=st.sampled_from([0, 1, 2]),
       max_nodes=st.sampled_from([None, 2]))
def test_worst_case_certificates_of_a_learner_without_a_state_key(H, horizon, max_nodes):
    """Weighted majority over the class's rows (zoo, randomized, no ``state_key``: one state per node of
    the game tree; its probabilities are floats with long exact values).  Over one round its weights
    are equal, so the value is the recursion's with the learner's first predictions, exactly."""
    writer = CertificateWriter(H)
    W, _ = worst_case_section(ExpertsFromClass(H, max(horizon, 1)), H, writer, horizon=horizon, max_nodes=max_nodes)
    lower, upper = verified(writer, H)["worst-case"]
    assert 0 <= lower <= upper <= horizon and (lower == upper) == W.exact
    if horizon <= 1:
        holds((lower, upper), first_round(ExpertsFromClass(H, 1), H, horizon), exact=W.exact)
    replay(writer.document(), ExpertsFromClass(H, max(horizon, 1)), H)


@st.composite
def vector_classes(draw) -> HypothesisClass:
    """Classes over distinct 0/1 vectors of length 3 (the zero vector among them, or not), as the learners
    that read vectors play on: ``class_matrices``' columns, the first ones cut to the 8 vectors there are."""
    M = draw(class_matrices(max_rows=6, max_cols=5))[:, :8]
    vectors = draw(st.permutations([tuple(int(b) for b in format(v, "03b")) for v in range(8)]))
    return HypothesisClass.from_matrix(M, domain=vectors[:M.shape[1]])


#: The zoo's learners that read vectors and have a ``state_key``: the Perceptron errs forever on the zero
#: vector labelled 0 (its certificate proves an infinite value by a cycle of moves).
VECTOR_LEARNERS = ("Perceptron", "Winnow", "LittlestoneWinnow", "DisjunctionElimination")


@settings(PROPERTY, max_examples=80)
@given(H=vector_classes(), horizon=st.sampled_from([None, 0, 1, 2]), max_nodes=st.sampled_from([None, 3]))
def test_worst_case_certificates_of_learners_on_vectors(H, horizon, max_nodes):
    """No oracle knows these learners' states: their values are checked where one round decides them
    (horizons 0 and 1); everywhere the certificate checks, reads back and replays."""
    for name in VECTOR_LEARNERS:
        try:
            learner = registry.build("learner", name, H, rounds=horizon)
        except NotApplicableError:
            continue
        writer = CertificateWriter(H)
        budget = 300 if max_nodes is None and horizon is None else max_nodes  # a Winnow's states may not repeat
        W, _ = worst_case_section(learner, H, writer, horizon=horizon, max_nodes=budget)
        lower, upper = verified(writer, H)["worst-case"]
        assert lower <= (math.inf if upper is None else upper) and (horizon is None or upper <= horizon), name
        if horizon is not None and horizon <= 1:
            holds((lower, upper), first_round(registry.build("learner", name, H, rounds=horizon), H, horizon),
                  exact=W.exact)
        if lower == math.inf:
            event(f"{name}: an infinite worst case")
        replay(writer.document(), registry.build("learner", name, H, rounds=horizon), H)


# ------------------------------------------------------------------------------ every kind in one document
def every_kind(H: HypothesisClass) -> CertificateWriter:
    """One document with a section of each kind, sharing the class and the table of spaces."""
    writer = CertificateWriter(H)
    ldim_certificate(H, writer)
    vc_section(H, writer)
    rldim_section(H, writer)
    worst_case_section(Halving(H), H, writer)
    return writer


def assert_true_of(proven: dict, H: HypothesisClass) -> None:
    """Every bound of :func:`every_kind`'s document is exact and the oracles' value."""
    holds(proven["ldim"], ldim_of(H), exact=True)
    holds(proven["vc"], textbook_vcdim(H.matrix), exact=True)
    holds(proven["rldim"], textbook_rldim(H), exact=True)
    holds(proven["worst-case"], textbook_worst_case(H, halving_rule(H)), exact=True)


@settings(PROPERTY, max_examples=80)
@given(H=NARROW)
def test_a_document_of_every_kind_verifies_and_replays(H):
    writer = every_kind(H)
    assert_true_of(verified(writer, H), H)
    replay(writer.document(), Halving(H), H)


def _class(rows: list[str], domain=None) -> HypothesisClass:
    """The class whose rows are given as strings of labels (instance 0 first)."""
    return HypothesisClass.from_matrix(np.array([[int(c) for c in r] for r in rows], dtype=np.uint8).reshape(
        len(rows), -1), domain=domain)


#: Explicit classes of the awkward shapes, each checked by the checker run as a program (the first: columns
#: a, a, 1 - a, b, 0 over the rows (a, b) = 00, 10, 01, 11, 00).
SAMPLE = {
    "repeated rows, copied and complementary columns, trailing zeros": _class(["00100", "11000", "00110", "11010",
                                                                               "00100"]),
    "single row over strings": _class(["101"], domain=["a", "b", "c"]),
    "equal rows, trailing ones, objects sharing a repr": _class(["0111", "0111", "0111"],
                                                                domain=[(0, "x"), Token("a"), None, Token("a")]),
    "single instance": _class(["0", "1", "1"], domain=[2.5]),
    "no instance": HypothesisClass.from_matrix(np.zeros((3, 0), dtype=np.uint8)),
}


@pytest.mark.parametrize("H", SAMPLE.values(), ids=SAMPLE.keys())
def test_the_checker_run_as_a_program_accepts_every_kind(H, tmp_path):
    writer = every_kind(H)
    proven = verified(writer, H)
    assert_true_of(proven, H)
    path = writer.write(tmp_path / ("c.json.gz" if H.n_instances % 2 else "c.json"))
    run = subprocess.run([sys.executable, "-I", "-S", str(CHECKER), str(path)], capture_output=True, text=True,
                         cwd=tmp_path, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == [f"verified: {line}" for line in describe(proven)]


# ------------------------------------------------------------------------------ the command line
def run(capsys, *argv) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().out


#: Rows 0 and 2, 1 and 5 the same, and a last instance every row labels 0 (it changes no row's hexadecimal).
AWKWARD = np.array([[0, 1, 1, 0, 0], [1, 0, 0, 1, 0], [0, 1, 1, 0, 0], [1, 1, 0, 0, 0], [0, 0, 0, 0, 0],
                    [1, 0, 0, 1, 0]], dtype=np.uint8)


@pytest.mark.parametrize("suffix", [".npy", ".json"])
def test_the_command_line_certifies_every_kind_on_an_awkward_class_file(suffix, tmp_path, capsys):
    """``ldim --what ldim,vc,rldim`` and ``worst-case`` (deterministic, and randomized over a horizon) write
    certificates of the class file that ``verify FILE CLASS [--learner]`` accepts with the oracles' values."""
    cls = tmp_path / f"h{suffix}"
    if suffix == ".npy":
        np.save(cls, AWKWARD)
    else:
        save_class(HypothesisClass.from_matrix(AWKWARD, domain=["a", (1, 2), 0.5, None, "z"]), cls)
    H = load_class(cls)

    path = tmp_path / "l.json"
    code, out = run(capsys, "ldim", str(cls), "--what", "ldim,vc,rldim", "--certificate", str(path))
    assert code == 0 and f"wrote {path}" in out, out
    of_class(verify.load(path), H)
    code, out = run(capsys, "verify", str(path), str(cls))
    assert code == 0, out
    values = [str(v) for v in (ldim_of(H), textbook_vcdim(AWKWARD), textbook_rldim(H))]
    assert [line.split(" <= ")[::2] for line in out.splitlines()] == [
        [f"verified: {v}", f"{v}, where H is {H.describe()} (6 hypotheses on 5 instances, sha256 "
                           f"{class_section(H)['sha256']})"] for v in values]

    for learner, horizon, value in (("Halving", None, textbook_worst_case(H, halving_rule(H))), ("SOA", None, ldim_of(H)),
                                    ("OptimalRandomizedLearner", 2, textbook_worst_case(H, optimal_rule(H), 2))):
        path = tmp_path / f"{learner}.json.gz"
        over = [] if horizon is None else ["--horizon", str(horizon)]
        code, out = run(capsys, "worst-case", learner, str(cls), *over, "--certificate", str(path))
        assert code == 0 and f"wrote {path}" in out, out
        of_class(verify.load(path), H)
        code, out = run(capsys, "verify", str(path), str(cls), "--learner", learner)
        assert code == 0, out
        rounds = "with no horizon" if horizon is None else f"over a horizon of {horizon} rounds"
        assert out.startswith(f"verified: {Fraction(value)} <= M_A(H) <= {Fraction(value)} {rounds}, where A is "
                              f"{learner} (replayed"), out
        assert f"verified: {ldim_of(H)} <= Ldim(H) <= {ldim_of(H)}" in out


@pytest.mark.parametrize("write", ["vc", "threshold", "star", "degree", "td", "self-directed", "best-order"])
def test_every_writer_refuses_a_writer_of_another_class(write):
    """One check for them all (:meth:`CertificateWriter.of`): a section of one class in another's document."""
    from mistakebound.foundations.errors import InvalidArgumentError
    from mistakebound.theory.order_certificate import order_section, self_directed_section
    from mistakebound.theory.star_certificate import degree_section, star_section
    from mistakebound.theory.teaching_certificate import teaching_section
    from mistakebound.theory.threshold_certificate import threshold_section

    writers = {"vc": vc_section, "threshold": threshold_section, "star": star_section, "degree": degree_section,
               "td": lambda H, w: teaching_section(H, w, "td"), "self-directed": self_directed_section,
               "best-order": lambda H, w: order_section(H, w, "best")}
    writer = CertificateWriter(zoo.thresholds(4))
    with pytest.raises(InvalidArgumentError, match="^writer: expected a CertificateWriter of the same class as H"):
        writers[write](zoo.thresholds(5), writer)
    assert writer.document()["results"] == []
    writers[write](zoo.thresholds(4), writer)
    assert [s["result"] for s in writer.document()["results"]][-1] == write
