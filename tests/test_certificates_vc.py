"""Certificates of the VC dimension (issue 14): the producer inside the VC search and the checker.

Every certificate the search produces verifies with the brute-force value (partial ones
with an interval holding it); the checker rejects every tampering that makes a claim
false, naming the step, and runs as a program with nothing of the package importable.
"""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mistakebound.theory.textbook import textbook_vcdim
from mistakebound import HypothesisClass, classes as zoo
from mistakebound.certificates import verify
from mistakebound.certificates.verify import CertificateError, check
from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.theory import vc as vc_module
from mistakebound.theory.certificate import CertificateWriter
from mistakebound.theory.vc_certificate import vc_section
from tests.documents import clone

CHECKER = Path(verify.__file__)

classes = st.integers(1, 24).flatmap(
    lambda n: st.integers(0, 7).flatmap(
        lambda m: st.lists(st.lists(st.integers(0, 1), min_size=m, max_size=m), min_size=n, max_size=n)
    )
).map(lambda rows: np.array(rows, dtype=np.uint8).reshape(len(rows), -1))
PROPERTY = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def certify(matrix: np.ndarray, **budget) -> tuple[dict, dict]:
    """The document and the vc section the search produces for ``matrix``."""
    H = HypothesisClass.from_matrix(matrix)
    w = CertificateWriter(H)
    section = vc_section(H, w, **budget)
    return w.document(), section


def vcdim(matrix: np.ndarray) -> int:
    return textbook_vcdim(matrix) if matrix.shape[1] else 0


@PROPERTY
@given(matrix=classes, budget=st.integers(1, 4))
def test_every_certificate_verifies_with_the_brute_force_value(matrix, budget):
    d = vcdim(matrix)
    doc, _ = certify(matrix)
    assert check(doc) == {"vc": (d, d)}
    doc, section = certify(matrix, max_nodes=budget)  # partial or not: an interval holding d
    lower, upper = check(doc)["vc"]
    assert lower == len(section["lower"]) <= d <= upper


def test_the_search_branches_and_its_cell_arrays_are_certified(monkeypatch):
    """Larger random classes (deep trees, copies, repeated rows), with cells held as bitsets and as arrays."""
    rng = np.random.default_rng(14)
    seen = set()
    for arrays in (False, True):
        if arrays:
            monkeypatch.setattr(vc_module, "CELL_BYTES", 1)  # every node past the root counts with arrays
        for _ in range(25):
            M = (rng.random((int(rng.integers(20, 200)), int(rng.integers(4, 10)))) < rng.uniform(0.2, 0.8))
            M = np.hstack([M, ~M[:, :2]]).astype(np.uint8)  # two complementary copies
            M = np.vstack([M, M[:5]])
            d = vcdim(M)
            doc, section = certify(M)
            assert check(doc) == {"vc": (d, d)}
            assert [x for x, _ in section["upper"].get("copies", [])] == [M.shape[1] - 2, M.shape[1] - 1]
            seen.add(section["upper"]["by"] + ("+split" if "split" in section["upper"].get("tree", {}) else ""))
            for budget in (1, 3, 10):
                lower, upper = check(certify(M, max_nodes=budget)[0])["vc"]
                assert lower <= d <= upper
    assert "search+split" in seen


@pytest.mark.parametrize("H, d, by", [
    (zoo.thresholds(60), 1, "laminar"),
    (zoo.singletons(40), 1, "search"),
    (zoo.intervals(12), 2, "search"),
    (zoo.monotone_disjunctions(4), 4, "search"),
    (zoo.power_set(4), 4, "search"),
])
def test_zoo_classes(H, d, by):
    w = CertificateWriter(H)
    section = vc_section(H, w)
    assert section["upper"]["by"] == by
    assert check(w.document()) == {"vc": (d, d)}


def test_laminar_columns_with_copies_and_constants_hang_in_one_forest():
    T = zoo.thresholds(30).matrix
    M = np.hstack([T, T[:, 3:5], 1 - T[:, 3:4], np.zeros((len(T), 1), np.uint8), np.ones((len(T), 1), np.uint8)])
    doc, section = certify(M)
    assert section["upper"]["by"] == "laminar" and check(doc) == {"vc": (1, 1)}
    parents = section["upper"]["parents"]
    m = T.shape[1]
    assert parents[m] == 3 and parents[m + 2] == m and parents[m + 1] == 4  # copies chain under the original
    assert parents[m + 3] == parents[m + 4] == -1


def _ldim_log2(n_distinct: int, rows_space: int) -> dict:
    """An ldim section proving Ldim <= floor(log2 |distinct rows|) (the checker's "log2" step)."""
    b = n_distinct.bit_length() - 1
    return {"result": "ldim", "facts": [[rows_space, "le", b, "log2"]], "claim": {"upper": [0, b]}}


def test_the_upper_side_cites_an_earlier_ldim_result_and_only_that():
    H = zoo.power_set(3)
    w = CertificateWriter(H)
    w.add(_ldim_log2(8, w.space((1 << H.n_hypotheses) - 1)))
    section = vc_section(H, w)
    assert section["upper"] == {"value": 3, "by": "ldim"}
    doc = w.document()
    assert check(doc) == {"ldim": (None, 3), "vc": (3, 3)}
    doc["results"].reverse()  # the vc result before the ldim one: nothing proven yet to cite
    with pytest.raises(CertificateError, match="vc upper: no earlier ldim result"):
        check(doc)
    doc["results"] = doc["results"][:1]
    with pytest.raises(CertificateError, match="vc upper: no earlier ldim result"):
        check(doc)


def test_a_writer_of_another_class_is_refused():
    with pytest.raises(InvalidArgumentError, match="writer"):
        vc_section(zoo.thresholds(3), CertificateWriter(zoo.thresholds(4)))


# ---------------------------------------------------------------- tampering
def _nodes(tree: dict, path: tuple = ()):
    yield path, tree
    for k, (_, child) in enumerate(tree.get("split", [])):
        if isinstance(child, dict):
            yield from _nodes(child, path + ("split", k, 1))


def mutations(doc: dict, m: int):
    """Every single tampering of the vc section: values off by one, instances wrong, dropped or twice,
    shattered-set elements wrong, children dropped, doubled, swapped, cut short or emptied, rest
    lists changed (so allowed lists change), copies dropped or wrong, parents wrong, another proof kind;
    and a class whose rows or hash changed.  Yields (name, tampered document)."""
    r = next(i for i, s in enumerate(doc["results"]) if s["result"] == "vc")

    def edit(name, fn):
        t = clone(doc)
        fn(t["results"][r])
        return name, t

    def at(section, path):
        node = section["upper"]["tree"]
        for p in path:
            node = node[p]
        return node

    def bump(values: list, j: int) -> None:
        values[j] = (values[j] + 1) % m

    section = doc["results"][r]
    lower, up = section["lower"], section["upper"]
    for j in range(len(lower)):
        yield edit(f"lower {j} other", lambda s, j=j: bump(s["lower"], j))
        yield edit(f"lower {j} twice", lambda s, j=j: s["lower"].append(s["lower"][j]))
        yield edit(f"lower {j} dropped", lambda s, j=j: s["lower"].pop(j))
    yield edit("lower one more", lambda s: s["lower"].append(next((x for x in range(m) if x not in s["lower"]), 0)))
    for delta in (-1, 1):
        yield edit(f"upper {delta:+d}", lambda s, delta=delta: s["upper"].update(value=s["upper"]["value"] + delta))
    yield edit("upper by ldim", lambda s: s["upper"].update(by="ldim"))
    for j in range(len(up.get("copies", []))):
        yield edit(f"copy {j} dropped", lambda s, j=j: s["upper"]["copies"].pop(j))
        yield edit(f"copy {j} other", lambda s, j=j: bump(s["upper"]["copies"][j], 1))
        yield edit(f"copy {j} reversed", lambda s, j=j: s["upper"]["copies"][j].reverse())
    for x in range(len(up.get("parents", []))):
        yield edit(f"parent {x} top", lambda s, x=x: s["upper"]["parents"].__setitem__(x, -1))
        yield edit(f"parent {x} other", lambda s, x=x: bump(s["upper"]["parents"], x))
    for path, node in _nodes(up.get("tree", {})):
        split, rest = node.get("split", []), node.get("rest", [])
        for k, (x, child) in enumerate(split):
            def drop(s, path=path, k=k):
                at(s, path)["split"].pop(k)
            def twice(s, path=path, k=k):
                at(s, path)["split"].insert(k + 1, clone(at(s, path)["split"][k]))
            def other(s, path=path, k=k):
                e = at(s, path)["split"][k]
                e[0] = (e[0] + 1) % m
            def empty(s, path=path, k=k):
                e = at(s, path)["split"][k]
                e[1] = {} if e[1] else {"rest": [e[0]]}
            def swap(s, path=path, k=k):
                sp = at(s, path)["split"]
                sp[k], sp[k + 1] = sp[k + 1], sp[k]
            def to_rest(s, path=path, k=k):
                n = at(s, path)
                n.setdefault("rest", []).append(n["split"].pop(k)[0])
            yield edit(f"node {path} child {k} dropped", drop)
            yield edit(f"node {path} child {k} twice", twice)
            yield edit(f"node {path} child {k} other instance", other)
            yield edit(f"node {path} child {k} emptied", empty)
            yield edit(f"node {path} child {k} to rest", to_rest)
            if k + 1 < len(split):
                yield edit(f"node {path} children {k}, {k + 1} swapped", swap)
        for j in range(len(rest)):
            def rdrop(s, path=path, j=j):
                at(s, path)["rest"].pop(j)
            def rother(s, path=path, j=j):
                n = at(s, path)["rest"]
                n[j] = (n[j] + 1) % m
            def rtwice(s, path=path, j=j):
                at(s, path)["rest"].append(at(s, path)["rest"][j])
            def rsplit(s, path=path, j=j):
                n = at(s, path)
                n.setdefault("split", []).append([n["rest"].pop(j), {}])
            yield edit(f"node {path} rest {j} dropped", rdrop)
            yield edit(f"node {path} rest {j} other", rother)
            yield edit(f"node {path} rest {j} twice", rtwice)
            yield edit(f"node {path} rest {j} split", rsplit)
    t = clone(doc)
    rows = t["class"]["rows"]
    rows[0] = format(int(rows[0], 16) ^ 1, "x")
    yield "class row", t
    t = clone(doc)
    t["class"]["sha256"] = "0" * 64
    yield "class hash", t


def _true(doc: dict, proven: dict) -> bool:
    """Whether what the checker accepted holds: the lower set is shattered, the interval holds VCdim."""
    n, m = doc["class"]["n_hypotheses"], doc["class"]["n_instances"]
    rows = [int(r, 16) for r in doc["class"]["rows"]]
    M = np.array([[r >> x & 1 for x in range(m)] for r in rows], dtype=np.uint8).reshape(n, m)
    d = vcdim(M)
    lower, upper = proven["vc"]
    section = next(s for s in doc["results"] if s["result"] == "vc")
    xs = section.get("lower", [])
    shattered = len({tuple(int(v) for v in row[xs]) for row in M}) == 1 << len(xs)
    return shattered and (lower is None or lower <= d) and (upper is None or d <= upper)


def _tamper(docs: list[tuple[dict, int]]) -> tuple[int, int]:
    rejected = total = 0
    for doc, m in docs:
        for name, t in mutations(doc, m):
            total += 1
            try:
                proven = check(t)
            except CertificateError as exc:
                rejected += 1
                assert str(exc).startswith(("vc ", "vc:", "class")), (name, str(exc))
            else:
                assert _true(t, proven), f"accepted a false certificate after {name}"
    return rejected, total


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(matrix=classes)
def test_the_checker_rejects_every_tampering_that_makes_a_claim_false(matrix):
    """Soundness: whatever the checker accepts is true (a lower set shortened, an upper value raised,
    a child turned into an equally true step may pass); a tampering that makes a claim false never does."""
    _tamper([(certify(matrix)[0], max(matrix.shape[1], 1))])


def test_tampering_is_rejected_in_almost_every_case_and_the_step_is_named(capsys):
    """The fraction over a fixed set of classes (search trees, laminar forests, copies), reported."""
    rng = np.random.default_rng(7)
    docs = []
    for _ in range(30):
        M = (rng.random((int(rng.integers(20, 90)), int(rng.integers(5, 9)))) < rng.uniform(0.25, 0.75))
        M = np.hstack([M, ~M[:, :1]]).astype(np.uint8)
        docs.append((certify(M)[0], M.shape[1]))
    T = zoo.thresholds(12).matrix
    docs.append((certify(np.hstack([T, T[:, 2:3]]))[0], T.shape[1] + 1))
    rejected, total = _tamper(docs)
    with capsys.disabled():
        print(f"\nvc certificates: {rejected}/{total} single tamperings rejected ({rejected / total:.1%})")
    assert total > 1000 and rejected / total > 0.8, (rejected, total)


def test_a_truncated_file_and_another_class_are_rejected(tmp_path):
    H = zoo.intervals(6)
    w = CertificateWriter(H)
    vc_section(H, w)
    path = w.write(tmp_path / "c.json")
    text = path.read_text()
    assert verify.check_file(str(path), w.cls) == {"vc": (2, 2)}
    path.write_text(text[: len(text) // 2])
    with pytest.raises(CertificateError, match="not a JSON certificate"):
        verify.check_file(str(path))
    path.write_text(text)
    with pytest.raises(CertificateError, match="another class"):
        verify.check_file(str(path), {**w.cls, "rows": w.rows[::-1]})


def test_the_checker_runs_as_a_program_with_nothing_of_the_package_importable(tmp_path):
    """Written by CertificateWriter.write (plain and gzip), checked by ``python -I -S verify.py``; exit 0,
    then 1 naming the step once tampered."""
    H = zoo.random(60, 9, 0.5, seed=3)
    w = CertificateWriter(H)
    section = vc_section(H, w)
    d = len(section["lower"])
    for name in ("c.json", "c.json.gz"):
        path = w.write(tmp_path / name)
        run = subprocess.run([sys.executable, "-I", "-S", str(CHECKER), str(path)], capture_output=True, text=True,
                             cwd=tmp_path, timeout=60)
        assert run.returncode == 0, run.stderr
        assert run.stdout.strip() == (f"verified: {d} <= VCdim(H) <= {d}, where H is the class of 60 hypotheses on "
                                      f"9 instances with sha256 {w.cls['sha256']}")
    doc = json.loads(gzip.decompress(path.read_bytes()))
    doc["results"][0]["upper"]["value"] -= 1
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(doc))
    run = subprocess.run([sys.executable, "-I", "-S", str(CHECKER), str(path)], capture_output=True, text=True,
                         cwd=tmp_path, timeout=60)
    assert run.returncode == 1 and "REJECTED: vc " in run.stderr, run.stderr
