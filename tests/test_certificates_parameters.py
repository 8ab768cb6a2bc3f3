"""Certificates of the threshold dimension, the star number and the largest one-inclusion degree.

The writers (:mod:`mistakebound.theory.threshold_certificate`,
:mod:`mistakebound.theory.star_certificate`) against the checker
(:mod:`mistakebound.certificates.threshold`, :mod:`mistakebound.certificates.stars`), and the
values proven against the brute forces of :mod:`tests.parameter_oracles`.  Their lies are in
:mod:`tests.parameter_lies`, run by the campaign of :mod:`tests.certificate_lies`.
"""

from __future__ import annotations

import random
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings

from mistakebound import HypothesisClass, classes
from mistakebound.certificates import verify
from mistakebound.certificates.verify import CertificateError, check, describe
from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.theory.certificate import CertificateWriter
from mistakebound.theory.ldim_certificate import ldim_certificate
from mistakebound.theory.star_certificate import degree_section, star_section
from mistakebound.theory.star_number import star_bounds
from mistakebound.theory.threshold_certificate import threshold_section
from mistakebound.theory.threshold_dimension import threshold_bounds
from tests import parameter_lies, parameter_oracles
from tests.documents import clone
from tests.strategies import class_matrices

WRITERS = {"threshold": threshold_section, "star": star_section, "degree": degree_section}
ORACLES = {"threshold": parameter_oracles.threshold_dimension, "star": parameter_oracles.star_number,
           "degree": parameter_oracles.one_inclusion_degree}


def _certified(H: HypothesisClass, **budget) -> tuple[dict, dict]:
    w = CertificateWriter(H)
    for write in WRITERS.values():
        write(H, w, **budget)
    return w.document(), check(w.document())


@settings(max_examples=80, deadline=None)
@given(M=class_matrices(max_rows=9, max_cols=5))
def test_honest_certificates_are_accepted_and_prove_the_brute_force_values(M):
    _, proven = _certified(HypothesisClass.from_matrix(M))
    for kind, oracle in ORACLES.items():
        assert proven[kind] == (oracle(M),) * 2, kind


def test_one_hypothesis_has_every_parameter_zero():
    _, proven = _certified(HypothesisClass.from_matrix([[0, 1, 1]]))
    assert proven == {"threshold": (0, 0), "star": (0, 0), "degree": (0, 0)}


@pytest.mark.parametrize("H", [classes.thresholds(15), classes.power_set(4), classes.singletons(8), classes.intervals(6),
                               *(classes.random(8, 5, 0.5, seed=s) for s in range(4))], ids=str)
def test_the_named_classes_get_both_sides(H):
    doc, proven = _certified(H)
    for kind in WRITERS:
        assert proven[kind][0] == proven[kind][1] is not None, kind
    small = H.n_instances <= 7
    if small:
        for kind, oracle in ORACLES.items():
            assert proven[kind][0] == oracle(H.matrix), kind
    assert [line.split(" <= ")[1] for line in describe(check(doc))] == ["Tdim(H)", "star(H)", "degree(H)"]


def test_the_program_checks_a_written_file(tmp_path):
    H = classes.random(12, 6, 0.5, seed=3)
    w = CertificateWriter(H)
    for write in WRITERS.values():
        write(H, w)
    path = tmp_path / "params.json"
    w.write(path)
    run = subprocess.run([sys.executable, "-I", "-S", verify.__file__, str(path)], capture_output=True, text=True,
                         timeout=60)
    assert run.returncode == 0, run.stderr
    assert [line.split(" <= ")[1] for line in run.stdout.splitlines()] == ["Tdim(H)", "star(H)", "degree(H)"]


def test_a_tiny_budget_leaves_out_the_sides_it_cannot_prove():
    H = classes.random(30, 12, 0.5, seed=1)
    w = CertificateWriter(H)
    t = threshold_section(H, w, result=threshold_bounds(H), max_nodes=2)
    s = star_section(H, w, result=star_bounds(H), max_nodes=2)
    assert "upper" not in t and "upper" not in s
    proven = check(w.document())
    assert proven["threshold"] == (len(t["lower"]["instances"]), None)
    assert proven["star"] == (len(s["lower"]["instances"]), None)
    assert describe(proven)[0].startswith(f"{proven['threshold'][0]} <= Tdim(H) <= ?, where H is")


def test_a_search_stopped_early_certifies_the_interval_it_proved():
    H = classes.random(40, 12, 0.5, seed=3)
    w = CertificateWriter(H)
    for write in WRITERS.values():
        write(H, w, max_nodes=3)
    for kind, (lo, hi) in check(w.document()).items():
        assert lo is not None and (hi is None or lo <= hi), kind


def test_the_threshold_dimension_is_bounded_by_an_earlier_ldim_section():
    H = classes.thresholds(6)                    # Ldim 2: Tdim <= 2^3 - 2 = 6, the truth
    w = CertificateWriter(H)
    ldim_certificate(H, w)
    section = threshold_section(H, w)
    assert section["upper"] == {"value": 6, "by": "ldim"}
    assert check(w.document())["threshold"] == (6, 6)
    doc = w.document()
    doc["results"][1]["upper"]["value"] = 5
    with pytest.raises(CertificateError, match="threshold upper: no earlier ldim result"):
        check(doc)


def test_a_writer_refuses_another_class():
    with pytest.raises(InvalidArgumentError, match="writer"):
        star_section(classes.thresholds(3), CertificateWriter(classes.thresholds(4)))


def test_a_threshold_node_missing_a_child_is_refused():
    H = classes.random(30, 12, 0.5, seed=1)
    w = CertificateWriter(H)
    threshold_section(H, w)
    doc = clone(w.document())
    doc["results"][0]["upper"]["tree"]["children"].pop(0)
    with pytest.raises(CertificateError, match="dominated by no child"):
        check(doc)


def test_a_tree_too_large_is_refused(monkeypatch):
    from mistakebound.certificates import stars, threshold

    H = classes.random(30, 12, 0.5, seed=1)
    w = CertificateWriter(H)
    threshold_section(H, w)
    star_section(H, w)
    monkeypatch.setattr(threshold, "MAX_NODES", 10)
    monkeypatch.setattr(stars, "MAX_NODES", 10)
    with pytest.raises(CertificateError, match="more than 10 nodes"):
        check(w.document())


def test_every_lie_of_a_small_class_is_false_and_refused():
    rng = random.Random(5)
    M = np.array([[0, 0, 1], [1, 0, 1], [1, 1, 0], [0, 1, 1], [1, 1, 1]], dtype=np.uint8)
    kinds = set()
    for kind, doc, why in parameter_lies.parameter_documents(M, rng):
        kinds.add(kind)
        if kind == "honest":
            assert check(doc)
            continue
        with pytest.raises(CertificateError):
            check(doc)
    assert {"threshold.cover", "star.cover", "degree.upper"} <= kinds


def test_a_tree_deeper_than_the_writers_write_leaves_the_upper_side_out(monkeypatch):
    from mistakebound.theory import star_certificate, threshold_certificate

    H = classes.random(30, 12, 0.5, seed=1)
    monkeypatch.setattr(threshold_certificate, "MAX_DEPTH", 1)
    monkeypatch.setattr(star_certificate, "MAX_DEPTH", 1)
    w = CertificateWriter(H)
    assert "upper" not in threshold_section(H, w) and "upper" not in star_section(H, w)
    assert check(w.document()) == {"threshold": (6, None), "star": (6, None)}
