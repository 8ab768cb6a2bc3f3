"""Certificates of the order games (self-directed, best and worst order, transductive): written, checked, exact.

The writer (:mod:`mistakebound.theory.order_certificate`) against the checker
(:mod:`mistakebound.certificates.self_directed`, :mod:`mistakebound.certificates.orders`), and
what they prove against the brute force of :mod:`tests.order_oracles`, which shares no code with
either.  The lies told about these kinds are in :mod:`tests.order_lies` (run by the campaign of
``tests/test_certificates_lies.py`` and the mutants of ``tests/test_certificates_mutations.py``).
"""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mistakebound import classes as zoo
from mistakebound.certificates import verify
from mistakebound.certificates.verify import CertificateError, check, describe
from mistakebound.foundations.errors import InvalidArgumentError, NotApplicableError
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.game.rules import Rules
from mistakebound.theory.certificate import CertificateWriter
from mistakebound.theory.instance_orders import order_value
from mistakebound.theory.order_certificate import order_section, self_directed_section
from mistakebound.theory.self_directed import self_directed_value
from tests.documents import clone
from tests.order_oracles import best_order_oracle, self_directed_oracle, transductive_oracle, worst_order_oracle
from tests.strategies import class_matrices

CHECKER = verify.__file__


def _rows(H: HypothesisClass) -> list[tuple[int, ...]]:
    return [tuple(int(v) for v in row) for row in H.matrix]


def _all_sections(H: HypothesisClass, *, cite: bool, horizons=(0, 1, 2, 3)) -> list[dict]:
    """One document with every kind (and the ones cited), and one per horizon; each checked."""
    w = CertificateWriter(H)
    self_directed_section(H, w)
    order_section(H, w, "best", cite=cite)
    order_section(H, w, "worst", cite=cite)
    proven = [check(w.document())]
    for n in horizons:
        w = CertificateWriter(H)
        order_section(H, w, "worst", horizon=n, cite=cite)
        proven.append(check(w.document()))
    return proven


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(M=class_matrices(max_rows=6, max_cols=3))
def test_every_honest_certificate_is_accepted_and_proves_the_brute_force_value(M):
    H = HypothesisClass.from_matrix(M)
    rows = _rows(H)
    truth = {"self-directed": self_directed_oracle(rows), "best-order": best_order_oracle(rows),
             "worst-order": worst_order_oracle(rows)}
    for cite in (True, False):
        first, *transductive = _all_sections(H, cite=cite)
        for kind, value in truth.items():
            assert first[kind] == (value, value), (kind, cite)
        for n, proven in zip((0, 1, 2, 3), transductive):
            value = transductive_oracle(rows, n)
            lower, upper = proven["transductive"]
            assert upper == value and lower in (value, None), (n, proven)  # no sequence of n on an empty domain
            assert lower == value or H.n_instances == 0


@pytest.mark.parametrize("name, H", [("thresholds(15)", zoo.thresholds(15)), ("power_set(4)", zoo.power_set(4)),
                                     ("singletons(8)", zoo.singletons(8)), ("intervals(6)", zoo.intervals(6))]
                         + [(f"random 8x5 seed {s}", HypothesisClass.from_matrix(
                             np.random.default_rng(s).integers(0, 2, size=(8, 5)))) for s in range(3)])
def test_the_classes_a_user_tries_get_both_sides(name, H):
    proven = _all_sections(H, cite=True, horizons=(1, 3))
    for result in proven:
        for kind, (lower, upper) in result.items():
            assert lower == upper is not None, (name, kind, lower, upper)
    assert proven[0]["self-directed"] == (self_directed_value(H).value,) * 2
    assert proven[0]["best-order"] == (order_value(H, "best").value,) * 2
    assert proven[0]["worst-order"] == (order_value(H, "worst").value,) * 2
    assert proven[2]["transductive"] == (order_value(H, "worst", horizon=3).value,) * 2


def test_prefix_trees_prove_what_no_cited_bound_does():
    """A class whose best order is above its self-directed complexity and whose worst order is below its Ldim:
    both far sides need a prefix tree, and the trees are checked."""
    rng = np.random.default_rng(5)
    seen = set()
    for _ in range(200):
        H = HypothesisClass.from_matrix(rng.integers(0, 2, size=(int(rng.integers(3, 9)), int(rng.integers(2, 6)))))
        rows = _rows(H)
        for mode, kind in (("best", "best-order"), ("worst", "worst-order")):
            w = CertificateWriter(H)
            section = order_section(H, w, mode, cite=False)
            far = section["claim"]["lower" if mode == "best" else "upper"]
            if far[0] == "fact" and section["facts"][far[2]][3] is not None:
                seen.add(kind)
                value = best_order_oracle(rows) if mode == "best" else worst_order_oracle(rows)
                assert check(w.document())[kind] == (value, value)
        if seen == {"best-order", "worst-order"}:
            return
    raise AssertionError(f"no prefix tree for {({'best-order', 'worst-order'} - seen)}")


def test_a_certificate_cites_the_sections_written_before_it():
    H = zoo.power_set(4)  # M_best = SD = 4, above the floor: the self-directed section is added, and cited
    w = CertificateWriter(H)
    assert order_section(H, w, "best")["claim"]["lower"] == ["cited", 4, "self-directed"]
    assert order_section(H, w, "worst")["claim"]["upper"][:2] == ["fact", 4]  # log2 of 16 rows: nothing cited
    assert list(check(w.document())) == ["self-directed", "best-order", "worst-order"]
    H = zoo.singletons(8)  # M_worst = Ldim = 1, below log2 of 9 rows
    w = CertificateWriter(H)
    assert order_section(H, w, "worst")["claim"]["upper"] == ["cited", 1, "ldim"]
    assert order_section(H, w, "worst", horizon=4)["claim"]["upper"] == ["cited", 1, "ldim"]
    assert list(check(w.document())) == ["ldim", "worst-order", "transductive"]
    w = CertificateWriter(H)
    order_section(H, w, "worst", cite=False)
    assert order_section(H, w, "worst", horizon=4, cite=False)["claim"]["upper"] == ["cited", 1, "worst-order"]


def test_a_partial_certificate_states_only_the_sides_proven():
    H = zoo.power_set(6)  # SD = M_best = 6, not found within two nodes
    w = CertificateWriter(H)
    section = self_directed_section(H, w, max_nodes=2)
    lower, upper = check(w.document())["self-directed"]
    assert lower <= 6 <= upper and (lower, upper) != (6, 6)
    assert section["claim"]["lower"][1] == 1  # the floor: two rows left, the adversary answers against the guess
    rng = np.random.default_rng(11)
    for mode in ("best", "worst"):
        H = HypothesisClass.from_matrix(rng.integers(0, 2, size=(40, 9)))
        truth = order_value(H, mode).value
        w = CertificateWriter(H)
        section = order_section(H, w, mode, max_nodes=1, cite=False)
        lower, upper = check(w.document())[section["result"]]
        assert (lower is None or lower <= truth) and (upper is None or truth <= upper)


def test_the_checker_runs_as_a_program_and_states_every_result(tmp_path):
    H = zoo.thresholds(7)
    w = CertificateWriter(H)
    self_directed_section(H, w)
    order_section(H, w, "best")
    order_section(H, w, "worst")
    order_section(H, w, "worst", horizon=3)
    path = w.write(tmp_path / "orders.json")
    run = subprocess.run([sys.executable, "-I", "-S", CHECKER, str(path)], capture_output=True, text=True,
                         cwd=tmp_path, timeout=60)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert [line.split(", where")[0] for line in lines] == [
        "verified: 1 <= SD(H; deterministic learners) <= 1",
        "verified: 1 <= M_best(H; deterministic learners) <= 1",
        "verified: 3 <= M_worst(H; deterministic learners) <= 3",
        "verified: 2 <= M(H, 3 rounds; transductive, deterministic learners) <= 2"]
    doc = json.loads(path.read_text())
    doc["results"][-1]["horizon"] = 2  # the sequence announced is three instances long
    path.write_text(json.dumps(doc))
    run = subprocess.run([sys.executable, "-I", "-S", CHECKER, str(path)], capture_output=True, text=True,
                         cwd=tmp_path, timeout=60)
    assert run.returncode == 1 and "REJECTED: transductive claim lower" in run.stderr, run.stderr


def test_a_written_result_is_reused_and_its_order_is_the_order_side():
    H = zoo.intervals(5)
    for mode in ("best", "worst"):
        result = order_value(H, mode)
        w = CertificateWriter(H)
        section = order_section(H, w, mode, result=result)
        side = section["claim"]["upper" if mode == "best" else "lower"]
        assert side[0] == "order" and [H.domain[x] for x in side[2]] == list(result.witness)
        assert check(w.document())[section["result"]] == (result.value, result.value)
    result = self_directed_value(zoo.thresholds(15))
    w = CertificateWriter(zoo.thresholds(15))
    self_directed_section(zoo.thresholds(15), w, result=result)
    assert check(w.document())["self-directed"] == (1, 1)


def test_randomized_learners_and_more_labels_are_not_certified():
    H = zoo.thresholds(4)
    with pytest.raises(NotApplicableError, match="randomized learners"):
        self_directed_section(H, CertificateWriter(H), rules=Rules(randomized=True))
    with pytest.raises(NotApplicableError, match="randomized learners"):
        order_section(H, CertificateWriter(H), "best", rules=Rules(randomized=True))
    table = np.array([[0, 1, 2], [2, 1, 0]])
    with pytest.raises(NotApplicableError, match="two labels"):
        order_section(table, CertificateWriter(table), "worst", rules=Rules(labels=3))
    with pytest.raises(InvalidArgumentError, match="mode"):
        order_section(H, CertificateWriter(H), "middle")
    with pytest.raises(InvalidArgumentError, match="horizon"):
        order_section(H, CertificateWriter(H), "best", horizon=2)


def test_the_mode_is_read_off_the_rules():
    H = zoo.thresholds(7)
    w = CertificateWriter(H)
    assert order_section(H, w, rules=Rules(order="best"))["result"] == "best-order"
    assert order_section(H, w, rules=Rules(order="transductive"), horizon=3)["result"] == "transductive"
    assert check(w.document())["transductive"] == (2, 2)  # 2^d - 1 rounds for d mistakes on thresholds


def test_a_fact_cannot_lean_on_itself_nor_on_a_result_of_another_kind():
    H = zoo.thresholds(7)
    w = CertificateWriter(H)
    order_section(H, w, "worst", cite=False)
    doc = clone(w.document())
    section = doc["results"][0]
    section["claim"]["upper"] = ["cited", 3, "best-order"]
    with pytest.raises(CertificateError, match="worst-order claim upper: no earlier result"):
        check(doc)
    assert describe(check(w.document()))[0].startswith("3 <= M_worst(H; deterministic learners) <= 3")


@pytest.mark.parametrize("M", [[[0, 1, 1]], [[0, 1], [0, 1], [1, 0]], [[0, 0, 1], [1, 1, 0], [1, 1, 1]],
                               np.zeros((3, 0), dtype=np.uint8)],
                         ids=["one hypothesis", "a repeated row", "a repeated column", "no instance"])
def test_the_corner_cases_are_certified_exactly(M):
    H = HypothesisClass.from_matrix(np.array(M, dtype=np.uint8).reshape(len(M), -1))
    rows = _rows(H)
    first, *transductive = _all_sections(H, cite=False, horizons=(0, 2))
    assert first["self-directed"] == (self_directed_oracle(rows),) * 2
    assert first["best-order"] == (best_order_oracle(rows),) * 2
    assert first["worst-order"] == (worst_order_oracle(rows),) * 2
    assert transductive[1]["transductive"][1] == transductive_oracle(rows, 2)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(M=class_matrices(max_rows=6, max_cols=3), nodes=st.integers(1, 5), horizon=st.integers(0, 3),
       cite=st.booleans())
def test_under_any_budget_a_certificate_checks_and_its_sides_hold(M, nodes, horizon, cite):
    """Out of budget mid-search or mid-proof, a section states only what it proved (an order's own value is
    computed whatever the budget left)."""
    H = HypothesisClass.from_matrix(M)
    rows = _rows(H)
    w = CertificateWriter(H)
    self_directed_section(H, w, max_nodes=nodes)
    order_section(H, w, "best", max_nodes=nodes, cite=cite)
    order_section(H, w, "worst", max_nodes=nodes, cite=cite)
    order_section(H, w, "worst", horizon=horizon, max_nodes=nodes, cite=cite)
    truth = {"self-directed": self_directed_oracle(rows), "best-order": best_order_oracle(rows),
             "worst-order": worst_order_oracle(rows), "transductive": transductive_oracle(rows, horizon)}
    for kind, (lower, upper) in check(w.document()).items():
        if kind in truth:
            assert (lower is None or lower <= truth[kind]) and (upper is None or truth[kind] <= upper), kind


def test_a_cited_ldim_section_is_read_off_the_one_search_that_decided_to_cite_it(monkeypatch):
    """The worst order's upper bound cites Ldim: one Littlestone search decides to cite it and writes its section.

    Two Littlestone questions in all: the order's own bound (a small class: the door's shortcut), then the
    cited section's search, whose certificate is read off it (before, a third search decided to cite it)."""
    from mistakebound.theory import littlestone
    from mistakebound.theory.littlestone import LdimEngine

    runs = []
    run, shortcut = LdimEngine.run, littlestone._small_unbudgeted
    monkeypatch.setattr(LdimEngine, "run", lambda self, *a: runs.append(self.read) or run(self, *a))
    monkeypatch.setattr(littlestone, "_small_unbudgeted", lambda *a: runs.append("shortcut") or shortcut(*a))
    H = zoo.singletons(8)
    w = CertificateWriter(H)
    assert order_section(H, w, "worst")["claim"]["upper"] == ["cited", 1, "ldim"]
    assert list(check(w.document())) == ["ldim", "worst-order"]
    assert runs == ["shortcut", "certificate"]
