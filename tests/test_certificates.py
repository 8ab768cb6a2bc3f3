"""The independent checker of Ldim certificates (issue 14, first part).

Certificates are built here by the plain textbook recursion (the producer inside the fast
search comes next); the checker must accept every one of them with the recursion's value,
reject every tampering that makes a fact false and name the step, and run as a program
with nothing of the package importable.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmarks.baseline import textbook_ldim
from mistakebound.certificates import verify
from mistakebound.certificates.verify import CertificateError, check, class_hash

CHECKER = Path(verify.__file__)


def certificate(matrix: np.ndarray, *, partial_upper: bool = False) -> dict:
    """A complete certificate of Ldim(matrix) built by the textbook recursion (one fact per space and side)."""
    n, m = matrix.shape
    rows = ["".join(str(int(v)) for v in row) for row in matrix]
    columns = [sum(1 << i for i in range(n) if matrix[i, x]) for x in range(m)]
    spaces: dict[int, int] = {}
    facts: list = []
    done: dict[tuple[int, str], tuple[int, int]] = {}  # (space, kind) -> (fact index, value)

    def space(V: int) -> int:
        return spaces.setdefault(V, len(spaces))

    def parts(V: int):
        return [(x, V & ~columns[x], V & columns[x]) for x in range(m) if 0 != V & columns[x] != V]

    def ldim(V: int) -> int:
        return max((1 + min(ldim(a), ldim(b)) for _, a, b in parts(V)), default=0)

    def ge(V: int) -> int:
        if (V, "ge") not in done:
            value, step = 0, None
            for x, a, b in parts(V):
                if 1 + min(ldim(a), ldim(b)) > value:
                    value, step = 1 + min(ldim(a), ldim(b)), [x, ge(a), ge(b)]
            facts.append([space(V), "ge", value, step])
            done[V, "ge"] = (len(facts) - 1, value)
        return done[V, "ge"][0]

    def le(V: int) -> int:
        if (V, "le") not in done:
            value, step = ldim(V), []
            for x, a, b in parts(V):
                y, W = (0, a) if ldim(a) <= ldim(b) else (1, b)  # the learner predicts the other label
                step.append([x, y, le(W)])
            facts.append([space(V), "le", value, step])
            done[V, "le"] = (len(facts) - 1, value)
        return done[V, "le"][0]

    full = (1 << n) - 1
    lower = ge(full)
    if partial_upper:  # a partial certificate: the upper side from log2 |H| alone
        k = len(set(rows))
        facts.append([space(full), "le", k.bit_length() - 1, "log2"])
        upper = len(facts) - 1
    else:
        upper = le(full)
    return {
        "format": verify.FORMAT, "version": verify.VERSION, "result": "ldim",
        "class": {"n_hypotheses": n, "n_instances": m, "rows": rows, "sha256": class_hash(rows, m)},
        "spaces": [format(V, "x") for V, _ in sorted(spaces.items(), key=lambda item: item[1])],
        "facts": facts,
        "claim": {"lower": [lower, facts[lower][2]], "upper": [upper, facts[upper][2]]},
    }


classes = st.integers(1, 7).flatmap(
    lambda n: st.integers(1, 5).flatmap(
        lambda m: st.lists(st.lists(st.integers(0, 1), min_size=m, max_size=m), min_size=n, max_size=n)
    )
).map(lambda rows: np.array(rows, dtype=np.uint8))
PROPERTY = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPERTY
@given(matrix=classes)
def test_every_certificate_verifies_with_the_textbook_value(matrix):
    value = textbook_ldim(matrix)
    assert check(certificate(matrix)) == (value, value)
    lower, upper = check(certificate(matrix, partial_upper=True))
    assert lower == value <= upper == len({tuple(r) for r in matrix}).bit_length() - 1


def _true(c: dict) -> bool:
    """Whether every fact of ``c`` holds (each space's Ldim by the textbook recursion)."""
    rows = np.array([[int(ch) for ch in r] for r in c["class"]["rows"]], dtype=np.uint8).reshape(
        c["class"]["n_hypotheses"], c["class"]["n_instances"])
    for s, kind, value, _ in c["facts"]:
        V = int(c["spaces"][s], 16)
        d = textbook_ldim(rows[[i for i in range(len(rows)) if V >> i & 1]])
        if (kind == "ge" and d < value) or (kind == "le" and d > value):
            return False
    return True


def mutations(c: dict):
    """Every single-fact tampering: values off by one, wrong instances, swapped labels and children,
    dropped or duplicated answers, wrong spaces, and a class whose rows or hash changed."""
    for k, (s, kind, value, step) in enumerate(c["facts"]):
        for delta in (-1, 1):
            yield f"fact {k} value {delta:+d}", ("facts", k, 2, value + delta)
        yield f"fact {k} space", ("facts", k, 0, (s + 1) % len(c["spaces"]))
        if kind == "ge" and step:
            x, f0, f1 = step
            yield f"fact {k} swapped children", ("facts", k, 3, [x, f1, f0])
            yield f"fact {k} other instance", ("facts", k, 3, [(x + 1) % c["class"]["n_instances"], f0, f1])
        if kind == "le" and isinstance(step, list) and step:
            yield f"fact {k} dropped answer", ("facts", k, 3, step[1:])
            yield f"fact {k} answer twice", ("facts", k, 3, step + step[:1])
            x, y, f = step[0]
            yield f"fact {k} swapped label", ("facts", k, 3, [[x, 1 - y, f]] + step[1:])
    rows = c["class"]["rows"]
    flipped = ("1" if rows[0][0] == "0" else "0") + rows[0][1:] if rows[0] else rows[0]
    yield "class row", ("class", "rows", [flipped] + rows[1:])
    yield "class hash", ("class", "sha256", "0" * 64)


def _apply(c: dict, where: tuple) -> dict:
    t = copy.deepcopy(c)
    *path, key, value = where
    target = t
    for p in path:
        target = target[p]
    target[key] = value
    return t


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(matrix=classes)
def test_the_checker_rejects_every_tampering_that_makes_a_fact_false(matrix):
    """Soundness: whatever the checker accepts is true. A tampering that leaves every fact true (a lower
    value lowered, another instance that also works) may pass; one that makes any fact false never does."""
    c = certificate(matrix)
    for name, where in mutations(c):
        t = _apply(c, where)
        try:
            check(t)
        except CertificateError as exc:
            assert str(exc).split(":")[0] in ("class", "claim lower", "claim upper") or str(exc).startswith(
                ("fact ", "class")), (name, str(exc))
            continue
        assert _true(t), f"accepted a false certificate after {name}"


def test_tampering_is_rejected_in_almost_every_case_and_the_step_is_named():
    """The fraction over a fixed set of classes, reported in the closing note of issue 14's first part."""
    rng = np.random.default_rng(14)
    rejected = total = 0
    for _ in range(40):
        matrix = rng.integers(0, 2, size=(int(rng.integers(2, 9)), int(rng.integers(2, 6))), dtype=np.uint8)
        c = certificate(matrix)
        for name, where in mutations(c):
            t = _apply(c, where)
            total += 1
            try:
                check(t)
            except CertificateError as exc:
                rejected += 1
                assert "fact" in str(exc) or "class" in str(exc) or "claim" in str(exc), (name, str(exc))
            else:
                assert _true(t), name
    assert total > 1000 and rejected / total > 0.9, (rejected, total)


def test_a_truncated_file_and_another_class_are_rejected(tmp_path):
    matrix = np.array([[0, 0], [1, 0], [1, 1]], dtype=np.uint8)
    c = certificate(matrix)
    path = tmp_path / "c.json"
    text = json.dumps(c)
    path.write_text(text[: len(text) // 2])
    with pytest.raises(CertificateError, match="not a JSON certificate"):
        verify.check_file(str(path))
    path.write_text(text)
    assert verify.check_file(str(path), c["class"]["rows"]) == (1, 1)
    with pytest.raises(CertificateError, match="another class"):
        verify.check_file(str(path), ["00", "10", "01"])


def test_the_checker_runs_as_a_program_with_nothing_of_the_package_importable(tmp_path):
    """Written by this process, checked by another: ``python -I -S verify.py`` (no site-packages, so no
    mistakebound, numpy or search module can be imported); exit 0, then 1 naming the step once tampered."""
    matrix = np.array([[0, 0, 1], [1, 0, 0], [1, 1, 0], [0, 1, 1]], dtype=np.uint8)
    c = certificate(matrix)
    path = tmp_path / "c.json"
    path.write_text(json.dumps(c))
    run = subprocess.run([sys.executable, "-I", "-S", str(CHECKER), str(path)], capture_output=True, text=True,
                         cwd=tmp_path, timeout=60)
    value = textbook_ldim(matrix)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == f"verified: {value} <= Ldim <= {value}"
    k = c["claim"]["lower"][0]
    c["facts"][k][2] += 1
    c["claim"]["lower"][1] += 1
    path.write_text(json.dumps(c))
    run = subprocess.run([sys.executable, "-I", "-S", str(CHECKER), str(path)], capture_output=True, text=True,
                         cwd=tmp_path, timeout=60)
    assert run.returncode == 1 and f"REJECTED: fact {k}:" in run.stderr, run.stderr
