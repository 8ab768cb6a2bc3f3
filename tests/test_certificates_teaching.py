"""Certificates of the teaching parameters: the writer's (mistakebound.theory.teaching_certificate) and the checker's
(mistakebound.certificates.teaching) sides of ``"td"``, ``"tsmin"`` and ``"rtd"``.

Honest certificates are accepted and prove the values the brute forces of :mod:`tests.parameter_oracles`
find; a partial certificate states only sides that are true; the checker runs alone as a program.  The lies
of every step are in :mod:`tests.teaching_lies` (run by the campaign of :mod:`tests.certificate_lies`).
"""

from __future__ import annotations

import doctest
import random
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings

from mistakebound import HypothesisClass, classes
from mistakebound.certificates import teaching as checker
from mistakebound.certificates import verify
from mistakebound.certificates.verify import CertificateError, check, describe
from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.theory import teaching_certificate
from mistakebound.theory.certificate import CertificateWriter
from mistakebound.theory.teaching import minimum_teaching_set_bounds, teaching_dimension_bounds
from mistakebound.theory.teaching_certificate import hitting_tree, teaching_section
from tests import parameter_oracles as po
from tests import teaching_lies
from tests.certificate_lies import Lie, judge, outcome
from tests.strategies import class_matrices

KINDS = ("td", "tsmin", "rtd")
ORACLES = {"td": po.teaching_dimension, "tsmin": po.minimum_teaching_set_size, "rtd": po.recursive_teaching_dimension}


def _certificate(H: HypothesisClass, **budget) -> CertificateWriter:
    w = CertificateWriter(H)
    for kind in KINDS:
        teaching_section(H, w, kind, **budget)
    return w


@settings(max_examples=80, deadline=None)
@given(M=class_matrices(max_rows=8, max_cols=5))
def test_an_honest_certificate_proves_the_values_the_brute_force_finds(M):
    H = HypothesisClass.from_matrix(M)
    proven = check(_certificate(H).document())
    for kind in KINDS:
        true = ORACLES[kind](M.tolist()) if M.shape[1] else 0
        assert proven[kind] == (true, true), kind


@pytest.mark.parametrize("name, H, values", [
    ("thresholds(15)", classes.thresholds(15), (2, 1, 1)),
    ("power_set(4)", classes.power_set(4), (4, 4, 4)),
    ("singletons(8)", classes.singletons(8), (1, 1, 1)),
    ("intervals(6)", classes.intervals(6), (6, 2, 2)),
    *((f"random(8, 5, seed={s})", classes.random(8, 5, 0.5, seed=s), None) for s in range(4)),
])
def test_named_classes_are_certified_on_both_sides(name, H, values):
    proven = check(_certificate(H).document())
    found = tuple(proven[kind][0] for kind in KINDS)
    assert all(lo == hi for lo, hi in proven.values()), name
    expected = values or tuple(ORACLES[kind](H.matrix.tolist()) for kind in KINDS)
    assert found == expected, name


def test_a_profiles_result_is_used_as_it_is_and_must_be_of_the_parameter():
    H = classes.intervals(5)
    result = teaching_dimension_bounds(H)
    w = CertificateWriter(H)
    section = teaching_section(H, w, "td", result=result)
    assert section["upper"]["value"] == result.upper and section["lower"]["value"] == result.lower
    with pytest.raises(InvalidArgumentError, match="result: expected a MinTeachingBounds"):
        teaching_section(H, w, "tsmin", result=result)
    with pytest.raises(InvalidArgumentError, match="parameter"):
        teaching_section(H, w, "ts", result=result)
    with pytest.raises(InvalidArgumentError, match="writer"):
        teaching_section(classes.thresholds(3), w, "td")


def test_under_a_tiny_budget_a_certificate_states_only_what_it_proves():
    H = classes.random(40, 8, 0.5, seed=5)
    truth = {kind: ORACLES[kind](H.matrix.tolist()) for kind in KINDS}
    for nodes in (1, 3, 10, 30):
        w = _certificate(H, max_nodes=nodes)
        proven = check(w.document())
        for kind, (lo, hi) in proven.items():
            assert (lo is None or lo <= truth[kind]) and (hi is None or truth[kind] <= hi), (nodes, kind)
        sections = {s["result"]: s for s in w.document()["results"]}
        assert all(set(s) <= {"result", "lower", "upper"} for s in sections.values())
    assert any(lo is None or hi is None for lo, hi in check(_certificate(H, max_nodes=1).document()).values())


def test_a_partial_section_of_a_class_whose_search_did_not_finish():
    H = classes.power_set(4)
    partial = minimum_teaching_set_bounds(H, max_nodes=1)
    w = CertificateWriter(H)
    section = teaching_section(H, w, "tsmin", result=partial, max_nodes=1)
    assert "lower" not in section or section["lower"]["value"] <= 4
    lo, hi = check(w.document())["tsmin"]
    assert (lo is None or lo <= 4) and (hi is None or hi >= 4)


def test_the_checker_alone_verifies_a_written_certificate(tmp_path):
    path = tmp_path / "teach.json"
    _certificate(classes.intervals(4)).write(path)
    done = subprocess.run([sys.executable, "-I", "-S", verify.__file__, str(path)], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [line.split(",")[0] for line in lines] == [
        "verified: 4 <= TD(H) <= 4", "verified: 2 <= TSmin(H) <= 2", "verified: 2 <= RTD(H) <= 2"]


def test_statements_name_the_parameter():
    H = classes.thresholds(3)
    lines = describe(check(_certificate(H).document()))
    assert [line.split(", where H is the class of 4 hypotheses on 3 instances")[0] for line in lines] == [
        "2 <= TD(H) <= 2", "1 <= TSmin(H) <= 1", "1 <= RTD(H) <= 1"]


def test_duplicated_rows_are_one_concept_and_one_hypothesis_has_every_parameter_0():
    M = np.array([[0, 1, 0], [0, 1, 0], [1, 1, 0]], dtype=np.uint8)
    assert check(_certificate(HypothesisClass.from_matrix(M)).document()) == {k: (1, 1) for k in KINDS}
    one = HypothesisClass.from_matrix(np.array([[1, 0]], dtype=np.uint8))
    doc = _certificate(one).document()
    assert check(doc) == {k: (0, 0) for k in KINDS}
    doc["results"][0]["lower"] = {"value": 1, "trees": [[0, {"pack": [0]}]]}
    with pytest.raises(CertificateError, match="^td lower tree 0 node \\[\\]: row 0 is not a row of another concept"):
        check(doc)


def test_a_tree_of_too_many_nodes_is_refused_before_it_is_checked(monkeypatch):
    H = classes.random(30, 6, 0.5, seed=2)
    doc = _certificate(H).document()
    sizes = [len(str(s["lower"]["trees"])) for s in doc["results"]]
    assert min(sizes) > 0
    monkeypatch.setattr(checker, "MAX_NODES", 3)
    with pytest.raises(CertificateError, match="more than 3 nodes"):
        check({**doc, "results": [doc["results"][1]]})


def test_hitting_trees_prove_exactly_the_teaching_set_sizes():
    rng = random.Random(4)
    for _ in range(30):
        n, m = rng.randint(2, 8), rng.randint(1, 5)
        rows = [rng.getrandbits(m) for _ in range(n)]
        W = list(range(n))
        for h in W:
            M = [[r >> x & 1 for x in range(m)] for r in rows]
            ts = po.teaching_set_size(M, M[h])
            if ts:
                assert hitting_tree(rows, h, W, ts) is not None
            assert hitting_tree(rows, h, W, ts + 1) is None


def test_the_lies_are_false_and_refused_and_the_honest_documents_accepted():
    for i, M in enumerate(teaching_lies_classes()):
        for kind, doc, why in teaching_lies.teaching_documents(M, random.Random(i)):
            lie = Lie(kind, doc, accept=kind == "honest", why=why)
            assert judge(lie), (kind, why)
            assert outcome(lie, verify) == "ok", (kind, why, M.tolist())


def teaching_lies_classes() -> list[np.ndarray]:
    rng = np.random.default_rng(11)
    return [rng.integers(0, 2, size=(int(rng.integers(2, 8)), int(rng.integers(1, 5))), dtype=np.uint8)
            for _ in range(25)]


@pytest.mark.parametrize("module", [checker, teaching_certificate])
def test_doctests(module):
    assert doctest.testmod(module, optionflags=doctest.ELLIPSIS).failed == 0


def test_a_hostile_tree_is_refused_in_time_proportional_to_its_text():
    """A branch's children are compared with its row's disagreements without listing the instances: a chain of
    nodes of one child each, on rows that differ on thousands of instances, is refused at its first node."""
    H = classes.random(4, 4000, 0.5, seed=1)
    doc = CertificateWriter(H).document()
    node: dict = {"pack": [1]}
    for _ in range(3000):
        node = {"g": 1, "x": [[0, node]]}
    doc["results"] = [{"result": "td", "lower": {"value": 3000, "trees": [[0, node]]}}]
    with pytest.raises(CertificateError, match=r"^td lower tree 0 node \[\]: the children are not the instances"):
        check(doc)
