"""Ldim certificates: the independent checker, and the producer that reads them off the fast search.

Certificates are built twice: here by the plain textbook recursion (a producer that shares
nothing with the search), and by :mod:`mistakebound.theory.ldim_certificate` from what an
``LdimSearch`` proved (relabelled copies as ``"map"`` steps included).  The checker must
accept every one of them with the recursion's value, reject every tampering that makes a
fact false and name the step, and run as a program with nothing of the package importable.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mistakebound.theory.textbook import textbook_ldim
from mistakebound.certificates import verify
from mistakebound.certificates.verify import CertificateError, check, class_hash
from tests.documents import clone

CHECKER = Path(verify.__file__)


def certificate(matrix: np.ndarray, *, partial_upper: bool = False) -> dict:
    """A complete certificate of Ldim(matrix) built by the textbook recursion (one fact per space and side)."""
    n, m = matrix.shape
    rows = [format(sum(int(v) << x for x, v in enumerate(row)), "x") for row in matrix]
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
        "format": verify.FORMAT, "version": verify.VERSION,
        "class": {"n_hypotheses": n, "n_instances": m, "rows": rows, "domain": list(range(m)),
                  "sha256": class_hash(rows, list(range(m)))},
        "spaces": [format(V, "x") for V, _ in sorted(spaces.items(), key=lambda item: item[1])],
        "results": [{"result": "ldim", "facts": facts,
                     "claim": {"lower": [lower, facts[lower][2]], "upper": [upper, facts[upper][2]]}}],
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
    assert check(certificate(matrix)) == {"ldim": (value, value)}
    lower, upper = check(certificate(matrix, partial_upper=True))["ldim"]
    assert lower == value <= upper == len({tuple(r) for r in matrix}).bit_length() - 1


def spaces_of(c: dict) -> list[int]:
    """The table of spaces as bitsets (entries ``[s, x, y]`` resolved as parts of earlier ones)."""
    m = c["class"]["n_instances"]
    cols = [sum(1 << i for i, r in enumerate(c["class"]["rows"]) if int(r, 16) >> x & 1) for x in range(m)]
    table: list[int] = []
    for e in c["spaces"]:
        if isinstance(e, list):
            s, x, y = e
            table.append(table[s] & cols[x] if y else table[s] & ~cols[x])
        else:
            table.append(int(e, 16))
    return table


def _true(c: dict) -> bool:
    """Whether every fact of ``c`` holds (each space's Ldim by the textbook recursion)."""
    m = c["class"]["n_instances"]
    rows = np.array([[int(r, 16) >> x & 1 for x in range(m)] for r in c["class"]["rows"]], dtype=np.uint8).reshape(
        c["class"]["n_hypotheses"], m)
    table = spaces_of(c)
    for s, kind, value, _ in c["results"][0]["facts"]:
        V = table[s]
        d = textbook_ldim(rows[[i for i in range(len(rows)) if V >> i & 1]])
        if (kind == "ge" and d < value) or (kind == "le" and d > value):
            return False
    return True


def mutations(c: dict):
    """Every single-fact tampering: values off by one, wrong instances, swapped labels and children,
    dropped or duplicated answers, wrong spaces, and a class whose rows or hash changed."""
    F = ("results", 0, "facts")
    for k, (s, kind, value, step) in enumerate(c["results"][0]["facts"]):
        for delta in (-1, 1):
            yield f"fact {k} value {delta:+d}", (*F, k, 2, value + delta)
        yield f"fact {k} space", (*F, k, 0, (s + 1) % len(c["spaces"]))
        if isinstance(step, list) and step[:1] == ["map"]:
            _, f, entries, *shift = step
            for i, (x, z, flip) in enumerate(entries):
                yield f"fact {k} map flip {i}", (*F, k, 3, 2, i, [x, z, 1 - flip])
                yield f"fact {k} map image {i}", (*F, k, 3, 2, i, [x, (z + 1) % c["class"]["n_instances"], flip])
            yield f"fact {k} map dropped", (*F, k, 3, 2, entries[1:])
            yield f"fact {k} map other fact", (*F, k, 3, 1, f - 1)
            if shift:
                yield f"fact {k} map shift", (*F, k, 3, 3, shift[0] + 1)
            continue
        if kind == "ge" and step:
            x, f0, f1 = step
            yield f"fact {k} swapped children", (*F, k, 3, [x, f1, f0])
            yield f"fact {k} other instance", (*F, k, 3, [(x + 1) % c["class"]["n_instances"], f0, f1])
        if kind == "le" and isinstance(step, list) and step:
            yield f"fact {k} dropped answer", (*F, k, 3, step[1:])
            yield f"fact {k} answer twice", (*F, k, 3, step + step[:1])
            x, y, f = step[0]
            yield f"fact {k} swapped label", (*F, k, 3, [[x, 1 - y, f]] + step[1:])
    for k, e in enumerate(c["spaces"]):
        if isinstance(e, list):
            yield f"space {k} other label", ("spaces", k, [e[0], e[1], 1 - e[2]])
    rows = c["class"]["rows"]
    yield "class row", ("class", "rows", [format(int(rows[0], 16) ^ 1, "x")] + rows[1:])
    yield "class hash", ("class", "sha256", "0" * 64)


def _apply(c: dict, where: tuple) -> dict:
    t = clone(c)
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
            assert str(exc).startswith(("ldim fact ", "ldim claim", "class", "space ")), (name, str(exc))
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
                assert str(exc).startswith(("ldim fact ", "ldim claim", "class", "space ")), (name, str(exc))
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
    assert verify.check_file(str(path), c["class"]) == {"ldim": (1, 1)}
    with pytest.raises(CertificateError, match="another class"):
        verify.check_file(str(path), {**c["class"], "rows": ["0", "1", "2"]})


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
    assert run.stdout.strip() == (f"verified: {value} <= Ldim(H) <= {value}, where H is the class of 4 hypotheses "
                                  f"on 3 instances with sha256 {c['class']['sha256']}")
    section = c["results"][0]
    k = section["claim"]["lower"][0]
    section["facts"][k][2] += 1
    section["claim"]["lower"][1] += 1
    path.write_text(json.dumps(c))
    run = subprocess.run([sys.executable, "-I", "-S", str(CHECKER), str(path)], capture_output=True, text=True,
                         cwd=tmp_path, timeout=60)
    assert run.returncode == 1 and f"REJECTED: ldim fact {k}:" in run.stderr, run.stderr


# ---------------------------------------------------------------- the producer of the fast search
from mistakebound import classes as zoo  # noqa: E402
from mistakebound.game.hypothesis_class import HypothesisClass  # noqa: E402
from mistakebound.theory.certificate import CertificateWriter  # noqa: E402
from mistakebound.theory.ldim_certificate import ldim_certificate, ldim_section  # noqa: E402
from mistakebound.theory.littlestone import LdimSearch  # noqa: E402

#: Classes with symmetry (so the search answers version spaces from canonical twins and the
#: certificate has "map" steps, with and without a row shift) and with duplicate rows.
SYMMETRIC = [zoo.intervals(12), zoo.thresholds(40), zoo.monotone_disjunctions(5), zoo.k_sparse(9, 2),
             HypothesisClass.from_matrix(np.repeat(zoo.intervals(8).matrix, 2, axis=0))]


def produced(H) -> dict:
    """The Python search's certificate, maps and all (ldim_certificate reads the compiled search's
    where it is built: tests/test_kernel_tree.py)."""
    w = CertificateWriter(H)
    search = LdimSearch(H)
    bounds = search.bounds()
    ldim_section(search, w, lower=bounds.lower, upper=bounds.upper)
    return w.document()


def _maps(c: dict) -> list:
    return [f for f in c["results"][0]["facts"] if isinstance(f[3], list) and f[3][:1] == ["map"]]


@PROPERTY
@given(matrix=classes)
def test_the_search_certificate_verifies_with_the_textbook_value(matrix):
    value = textbook_ldim(matrix)
    assert check(produced(HypothesisClass.from_matrix(matrix))) == {"ldim": (value, value)}


@pytest.mark.parametrize("H", SYMMETRIC, ids=lambda H: H.describe())
def test_canonical_twins_are_certified_by_checked_maps(H):
    c = produced(H)
    value = textbook_ldim(H.matrix) if H.n_hypotheses <= 80 else LdimSearch(H).ldim(LdimSearch(H).full)
    assert check(c) == {"ldim": (value, value)}
    assert _maps(c), "a symmetric class whose certificate uses no canonical twin"


def test_maps_with_and_without_a_shift_occur():
    steps = [f[3] for H in SYMMETRIC for f in _maps(produced(H))]
    assert any(len(s) == 4 for s in steps) and any(len(s) == 3 for s in steps)


def test_the_writer_maps_every_space_the_search_looked_up_by_its_twin(monkeypatch):
    """The writer asks the search which version spaces have canonical twins (not a copy of the
    threshold taken when it was imported): with the threshold at 2, spaces of fewer than 8 rows
    are certified by maps too, and the certificate still verifies."""
    from mistakebound.theory import ldim_canonical

    H = zoo.intervals(7)
    value = textbook_ldim(H.matrix)
    monkeypatch.setattr(ldim_canonical, "CANONICAL_MIN", 2)
    c = produced(H)
    assert check(c) == {"ldim": (value, value)}
    table = spaces_of(c)
    assert any(table[f[0]].bit_count() < 8 for f in _maps(c)), "no space under 8 rows was certified by its twin"


def _true_fast(c: dict) -> bool:
    """Whether every fact of ``c`` holds, each space's Ldim by the fast search (tested against the textbook)."""
    m = c["class"]["n_instances"]
    matrix = np.array([[int(r, 16) >> x & 1 for x in range(m)] for r in c["class"]["rows"]], dtype=np.uint8)
    search = LdimSearch(HypothesisClass.from_matrix(matrix))
    table = spaces_of(c)
    for s, kind, value, _ in c["results"][0]["facts"]:
        d = search.ldim(search.mask_of_rows(table[s]))
        if (kind == "ge" and d < value) or (kind == "le" and d > value):
            return False
    return True


def test_every_tampering_of_a_map_or_a_derived_space_is_rejected_or_harmless():
    """The mutations of maps (a flipped polarity, another image, a dropped column, another twin, a wrong
    shift) and of spaces written as parts; every one accepted must leave every fact true."""
    rejected = total = 0
    for H in SYMMETRIC[:3]:
        c = produced(H)
        for name, where in mutations(c):
            if " map " not in name and not name.startswith("space"):
                continue
            total += 1
            try:
                check(_apply(c, where))
            except CertificateError as exc:
                rejected += 1
                assert str(exc).startswith(("ldim fact ", "ldim claim", "space ")), (name, str(exc))
            else:
                assert _true_fast(_apply(c, where)), f"accepted a false certificate after {name}"
    assert total > 200 and rejected / total > 0.95, (rejected, total)


def test_a_partial_search_certifies_its_interval():
    H = zoo.random(400, 24, 0.4, seed=3)
    truth = LdimSearch(H).ldim(LdimSearch(H).full)
    w = CertificateWriter(H)
    section = ldim_certificate(H, w, max_nodes=3)
    lower, upper = check(w.document())["ldim"]
    assert lower <= truth <= upper and (lower, upper) == (section["claim"]["lower"][1], section["claim"]["upper"][1])
    assert lower < upper


def test_the_search_certificate_of_two_results_shares_one_class(tmp_path):
    """A writer holds one class for several sections; a second 'ldim' result is refused by the checker."""
    H = zoo.intervals(6)
    search = LdimSearch(H)
    d = search.ldim(search.full)
    w = CertificateWriter(H)
    ldim_section(search, w, lower=d, upper=d)
    path = w.write(tmp_path / "c.json.gz")
    assert verify.check_file(str(path)) == {"ldim": (d, d)}
    ldim_section(search, w, lower=d, upper=d)
    with pytest.raises(CertificateError, match="result 1: a second 'ldim' result"):
        check(w.document())


# ------------------------------------------------- each check of a map step guards a false fact
def _document(rows: list[str], facts: list, spaces: list[int]) -> dict:
    """A certificate of the class whose rows are given as strings of labels (instance 0 first)."""
    m = len(rows[0])
    hexes = [format(int(r[::-1], 2), "x") for r in rows]
    return {"format": verify.FORMAT, "version": verify.VERSION,
            "class": {"n_hypotheses": len(rows), "n_instances": m, "rows": hexes, "domain": list(range(m)),
                      "sha256": class_hash(hexes, list(range(m)))},
            "spaces": [format(V, "x") for V in spaces], "results": [{"result": "ldim", "facts": facts, "claim": {}}]}


def _ldim_of(rows: list[str], V: int) -> int:
    return textbook_ldim(np.array([[int(ch) for ch in rows[i]] for i in range(len(rows)) if V >> i & 1],
                                  dtype=np.uint8))


def test_a_map_onto_a_space_with_an_extra_instance_is_refused():
    """W = rows with x = 0 shatters {z1, z2} (Ldim 2); V = {000, 100} splits on x only (Ldim 1).
    Sending x to z1 gives V the words of W on z1, but z2 splits W and is no image nor a copy of one."""
    rows = ["000", "100", "001", "010", "011"]  # instances x, z1, z2
    V, W = 0b00011, 0b11101
    assert (_ldim_of(rows, V), _ldim_of(rows, W)) == (1, 2)
    c = certificate(np.array([[int(ch) for ch in r] for r in rows], dtype=np.uint8))
    facts = c["results"][0]["facts"]
    table = spaces_of(c)
    wfact = next(k for k, (s, kind, value, _) in enumerate(facts) if table[s] == W and kind == "ge" and value == 2)
    c["spaces"].append(format(V, "x"))
    facts.append([len(c["spaces"]) - 1, "ge", 2, ["map", wfact, [[0, 1, 0]]]])
    c["results"][0]["claim"] = {}
    with pytest.raises(CertificateError, match="instance 2 splits the space mapped to but is no image, nor a copy"):
        check(c)


def test_two_instances_sent_to_one_image_must_agree():
    """V shatters {a, b} (Ldim 2); W splits on z only (Ldim 1). Sending both a and b to z would make
    V a copy of W if the checker took either label."""
    rows = ["000", "010", "100", "110", "001"]  # instances a, b, z; W = {row 0, row 4}
    V, W = 0b01111, 0b10001
    assert (_ldim_of(rows, V), _ldim_of(rows, W)) == (2, 1)
    facts = [[1, "le", 0, []], [2, "le", 0, []], [0, "le", 1, [[2, 1, 1]]],  # Ldim(W) <= 1
             [3, "le", 1, ["map", 2, [[0, 2, 0], [1, 2, 0]]]]]
    c = _document(rows, facts, [W, 0b00001, 0b10000, V])
    with pytest.raises(CertificateError, match="ldim fact 3: the instances sent to 2 disagree on row"):
        check(c)


def test_a_map_must_list_every_instance_splitting_its_space():
    rows = ["000", "010", "100", "110", "001"]
    facts = [[1, "le", 0, []], [2, "le", 0, []], [0, "le", 1, [[2, 1, 1]]],
             [3, "le", 1, ["map", 2, [[0, 2, 0]]]]]  # b splits V too, and is left out
    with pytest.raises(CertificateError, match="ldim fact 3: the map must list every instance splitting"):
        check(_document(rows, facts, [0b10001, 0b00001, 0b10000, 0b01111]))


def test_a_shift_must_carry_the_space_onto_its_twin():
    """V = all four words on {a, b} (Ldim 2), W = the three words but 00 (Ldim 1): every column's
    1-side agrees, so only the comparison of the spaces themselves refuses the map."""
    rows = ["00", "10", "01", "11"]
    V, W = 0b1111, 0b1110
    assert (_ldim_of(rows, V), _ldim_of(rows, W)) == (2, 1)
    facts = [[2, "le", 0, []], [3, "le", 0, []],
             [1, "le", 1, [[0, 0, 0], [1, 0, 1]]],  # Ldim(W) <= 1: W_a^0 and W_b^0 are single rows
             [0, "le", 1, ["map", 2, [[0, 0, 0], [1, 1, 0]], 0]]]
    c = _document(rows, facts, [V, W, 0b0100, 0b0010])
    with pytest.raises(CertificateError, match="the space shifted by 0 rows is not the space mapped to"):
        check(c)


def test_a_map_gives_no_more_than_its_twin_proved():
    rows = ["00", "10", "01", "11"]
    c = certificate(np.array([[int(ch) for ch in r] for r in rows], dtype=np.uint8))
    facts = c["results"][0]["facts"]
    k = c["results"][0]["claim"]["lower"][0]
    facts.append([facts[k][0], "ge", 3, ["map", k, [[0, 0, 0], [1, 1, 0]]]])
    with pytest.raises(CertificateError, match=f"fact {k} has value 2, which does not give ge 3"):
        check(c)


# ------------------------------------------------------------------ sides answered in place ([x, y, "log2"])
from mistakebound.theory import ldim_kernel  # noqa: E402
from tests.strategies import class_matrices  # noqa: E402


def _log2_citations(c: dict) -> tuple[int, int]:
    """How many entries of "le" facts answer a side in place, and how many cite a "log2" fact instead."""
    facts = c["results"][0]["facts"]
    entries = [e for f in facts if f[1] == "le" and isinstance(f[3], list) and f[3][:1] != ["map"] for e in f[3]]
    in_place = sum(e[2] == "log2" for e in entries)
    return in_place, sum(isinstance(e[2], int) and facts[e[2]][3] == "log2" for e in entries)


def _writers(H) -> dict[str, dict]:
    """The certificate of each writer: the Python search's, and the compiled search's where it is built."""
    out = {"python": produced(H)}
    if ldim_kernel.AVAILABLE:
        w = CertificateWriter(H)
        ldim_certificate(H, w)
        out["compiled"] = w.document()
    return out


@PROPERTY
@given(matrix=class_matrices(max_rows=16, max_cols=6))
def test_both_writers_answer_small_sides_in_place_and_verify_with_the_textbook_value(matrix):
    value = textbook_ldim(matrix) if matrix.shape[1] else 0
    for name, c in _writers(HypothesisClass.from_matrix(matrix)).items():
        assert check(c) == {"ldim": (value, value)}, name
        assert _log2_citations(c)[1] == 0, name  # no "log2" fact is cited by an entry: it is written in place


@pytest.mark.parametrize("H", [zoo.random(300, 10, 0.3, seed=1), zoo.intervals(16), SYMMETRIC[-1]],
                         ids=lambda H: H.describe())
def test_the_writers_write_log2_entries_that_the_checker_accepts(H):
    value = textbook_ldim(H.matrix) if H.n_hypotheses <= 80 else LdimSearch(H).ldim(LdimSearch(H).full)
    for name, c in _writers(H).items():
        assert check(c) == {"ldim": (value, value)}, name
        in_place, cited = _log2_citations(c)
        assert in_place > 0 and cited == 0, (name, in_place, cited)
