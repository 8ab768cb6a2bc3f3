"""The checker attacked: certificates of false statements, built by construction, must all be refused.

:mod:`tests.certificate_lies` builds, for each kind of step, the smallest lie it could carry
(judged false by the textbook recursions, never by the checker), documents outside the
grammar, and honest certificates; here hypothesis draws the classes.  The four false
statements of issue 21 and its malformed numbers are spelled out one by one below.
"""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mistakebound.certificates import verify
from mistakebound.certificates.verify import CertificateError, check, describe
from tests import certificate_lies as cl
from tests.documents import clone
from tests.strategies import class_matrices

CHECKER = verify.__file__
#: Every kind of step the campaign lies in, and the documents it must refuse or accept.
KINDS = {"class", "grammar", "header", "honest", "ldim.claim", "ldim.ge", "ldim.le", "ldim.log2", "ldim.log2-entry", "ldim.map",
         "ldim.shift-map", "rldim.claim", "rldim.ge", "rldim.ldim", "rldim.le", "rldim.log2", "rldim.map",
         "vc.by-ldim", "vc.laminar", "vc.lower", "vc.search", "worst-case.claim", "worst-case.cycle",
         "worst-case.ge", "worst-case.le", "worst-case.rounds", "worst-case.table",
         *(f"{kind}.{step}" for kind in ("value-full", "value-bandit", "value-randomized")
           for step in ("bound", "child", "claim", "ge", "le", "rules")),
         *(f"value-randomized-bandit.{step}" for step in ("bound", "child", "ge", "le")),
         *(f"value-horizon.{step}" for step in ("claim", "learner", "rules")),
         *(f"threshold.{step}" for step in ("bound", "by-ldim", "cover", "depth", "lower")),
         *(f"star.{step}" for step in ("bound", "centers", "chains", "cover", "lower", "size")),
         *(f"degree.{step}" for step in ("lower", "upper")),
         "td.sets", "td.tree", "tsmin.sets", "tsmin.tree", "rtd.plan", "rtd.tree",
         *(f"self-directed.{step}" for step in ("claim", "ge", "le")),
         *(f"{kind}.{step}" for kind in ("best-order", "worst-order") for step in ("cited", "claim", "fact", "tree")),
         *(f"transductive.{step}" for step in ("cited", "claim", "tree"))}


def _outcomes(M: np.ndarray, seed: int) -> list[tuple[str, str, str]]:
    return [(lie.kind, lie.why, result) for lie in cl.lies(M, seed)
            for result in [cl.outcome(lie, verify)] if result != "ok"]


@settings(max_examples=120)
@given(M=class_matrices(max_rows=7, max_cols=4), seed=st.integers(0, 2 ** 16))
def test_no_lie_is_accepted_and_every_honest_certificate_is(M, seed):
    assert _outcomes(M, seed) == []


@settings(max_examples=60)
@given(a=st.integers(2, 3), b=st.integers(0, 2), m=st.integers(1, 4), data=st.data())
def test_no_shift_that_hides_rows_is_accepted(a, b, m, data):
    """Classes built so that a shift lands a block of rows on another column for column."""
    bits = st.lists(st.integers(0, 1), min_size=m, max_size=m)
    A = np.array(data.draw(st.lists(bits, min_size=a, max_size=a)), dtype=np.uint8)
    A[0] = A[1] ^ 1
    B = np.array(data.draw(st.lists(bits, min_size=b, max_size=b)), dtype=np.uint8).reshape(b, m)
    perm = data.draw(st.permutations(range(m)))
    flips = data.draw(st.lists(st.integers(0, 1), min_size=m, max_size=m))
    assert _outcomes(cl.shift_prone(A, B, list(perm), flips), data.draw(st.integers(0, 99))) == []


def test_a_campaign_lies_in_every_kind_of_step_and_none_gets_through(capsys):
    counts, failures = cl.campaign(cl.classes(60, seed=7), verify, seed=7)
    assert failures == []
    assert set(counts) == KINDS, set(counts) ^ KINDS
    for kind, c in counts.items():
        assert c["tried"] == c["ok"] > 0, (kind, c)
    with capsys.disabled():
        print("\nlies refused, by kind: " + ", ".join(f"{k} {c['tried']}" for k, c in sorted(counts.items())))


def test_every_lie_is_false_by_the_oracle():
    """The generators' own check: a generator that built a true statement would test nothing."""
    for i, M in enumerate(cl.classes(20, seed=3)):
        for lie in cl.lies(M, i):
            assert cl.judge(lie), (lie.kind, lie.why)
    honest = cl.Textbook(np.array([[0, 0], [0, 1]], dtype=np.uint8))
    F = cl.Facts(honest, "ldim")
    true = cl.Lie("ldim.le", honest.document(F.section(upper=F.le(honest.full))))
    assert not cl.judge(true)  # the judge can say "true"


# ------------------------------------------------------------------------------ the four lies of issue 21
FOUR = np.array([[0, 0], [0, 1], [1, 1], [1, 0]], dtype=np.uint8)  # Ldim 2, VCdim 2, RL 1


def shifted_lie() -> dict:
    """``Ldim <= 1``, ``VCdim <= 1`` and ``RL <= 7/8`` for the four rows: the root as a copy of rows 0..2
    shifted by one row, which drops row 0 over the edge; VC and RL then follow from the Ldim bound."""
    tb = cl.Textbook(FOUR)
    full, W, shift = tb.full, tb.full >> 1, 1
    entries = cl._shift_entries(tb, full, W, shift)
    assert entries is not None and tb.ldim(W) == 1 and tb.ldim(full) == 2
    F = cl.Facts(tb, "ldim")
    f = F.le(W)
    k = F.add([tb.space(full), "le", 1, ["map", f, entries, shift]])
    R = cl.Facts(tb, "rldim")
    lf = R.add([tb.space(full), "ldim", 1, "class"])
    r = R.add([tb.space(full), "le", "7/8", ["ldim", lf]])
    return tb.document(F.section(upper=k), {"result": "vc", "upper": {"value": 1, "by": "ldim"}},
                       R.section(upper=r))


def test_a_shift_that_drops_rows_over_the_edge_is_refused(tmp_path):
    doc = shifted_lie()
    with pytest.raises(CertificateError, match=r"^ldim fact \d+: the space shifted by 1 rows is not the space mapped to"):
        check(doc)
    path = tmp_path / "shift.json"
    path.write_text(json.dumps(doc))
    alone = subprocess.run([sys.executable, "-I", "-S", CHECKER, str(path)], capture_output=True, text=True,
                           timeout=60)
    assert alone.returncode == 1 and alone.stdout == ""
    assert alone.stderr.count("\n") == 1 and "the space shifted by 1 rows" in alone.stderr


def test_a_class_with_one_more_instance_is_another_class():
    """An honest certificate of thresholds(3) with ``n_instances`` raised by one and its hash recomputed
    (a trailing all-zero column changes no row's hexadecimal) speaks of another class."""
    tb = cl.Textbook(np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 1, 1]], dtype=np.uint8))
    F = cl.Facts(tb, "ldim")
    doc = tb.document(F.section(lower=F.ge(tb.full), upper=F.le(tb.full)))
    wider = clone(doc)
    wider["class"]["n_instances"] += 1
    wider["class"]["domain"].append(3)
    wider["class"]["sha256"] = cl.class_hash(wider["class"]["rows"], wider["class"]["domain"])
    assert check(wider) == {"ldim": (2, 2)}  # true of the wider class, which it names
    with pytest.raises(CertificateError, match="another class: one of 4 hypotheses on 4 instances, not the 4 on 3"):
        check(wider, tb.cls())
    renamed = clone(tb.cls())
    renamed["domain"] = ["a", "b", "c"]
    with pytest.raises(CertificateError, match="another class: its instance 0 is '0', not '\"a\"'"):
        check(doc, renamed)


def test_every_line_states_the_horizon_and_the_learner_of_a_worst_case():
    """A table proves a bound for the learner that makes its moves, over its horizon: both are said."""
    tb = cl.Textbook(np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 1, 1]], dtype=np.uint8))
    T = cl.halving_table(tb, 1)
    facts, k = cl.table_facts(T, (tb.full, 0, 1))
    doc = tb.document(T.section(facts, {"upper": [k, facts[k][4]]}, learner="Halving\nverified: 0 <= Ldim"))
    proven = check(doc)["worst-case"]
    assert proven == (None, 1) and proven.about["horizon"] == 1
    (line,) = describe({"worst-case": proven})
    assert line.startswith("? <= M_A(H) <= 1 over a horizon of 1 round, where A is the learner that makes the moves")
    assert "said to be 'Halving\\nverified: 0 <= Ldim'; not replayed" in line and "\n" not in line
    assert line.endswith(f"and H is the class of 4 hypotheses on 3 instances with sha256 {tb.cls()['sha256']}")
    unbounded = cl.halving_table(tb, None)
    facts, k = cl.table_facts(unbounded, (tb.full, 0, None))
    (line,) = describe(check(tb.document(unbounded.section(facts, {"upper": [k, facts[k][4]]}))))
    assert "<= M_A(H) <= 2 with no horizon, where A is" in line


@pytest.mark.parametrize("value, message", [
    ("1/²", "expected an integer, a fraction 'p/q' in lowest terms"),
    ("1/" + "9" * 5000, "expected an integer, a fraction 'p/q' in lowest terms"),
    ("9" * 4400 + "/7", "expected an integer, a fraction 'p/q' in lowest terms"),
    ("2/4", "expected an integer, a fraction 'p/q' in lowest terms"),
    ("١/٢", "expected an integer, a fraction 'p/q' in lowest terms"),
])
def test_malformed_fractions_are_refused_by_name(value, message):
    tb = cl.Textbook(FOUR)
    docs = cl.honest_documents(tb)
    docs["rldim"]["results"][1]["facts"].append([0, "ge", value, None])
    with pytest.raises(CertificateError, match=f"^rldim fact \\d+: {message}"):
        check(docs["rldim"])


@pytest.mark.parametrize("value", [10 ** 20, 10 ** 11, True, 1.0])
def test_a_log2_bound_out_of_range_is_refused_at_once(value):
    """10^20 used to raise OverflowError and 10^11 to exhaust memory (1 << (value + 1))."""
    doc = cl.honest_documents(cl.Textbook(FOUR))["ldim"]
    doc["results"][0]["facts"].append([0, "le", value, "log2"])
    with pytest.raises(CertificateError, match=r"^ldim fact \d+: expected an Ldim, an integer 0\.\.4"):
        check(doc)


@pytest.mark.parametrize("text, message", [
    ('{"format": "mistakebound-certificate", "format": "x"}', "the key 'format' appears twice"),
    ('{"a": NaN}', "NaN is not a JSON number"),
    ('{"a": [1, Infinity]}', "Infinity is not a JSON number"),
    ('{"a": 1' + "0" * 5000 + "}", "not a JSON certificate"),
])
def test_the_json_grammar_refuses_repeated_keys_and_constants(text, message):
    with pytest.raises(CertificateError, match=message):
        verify.parse_json(text)


@pytest.mark.parametrize("version", [True, 2.0, "2", 1, None])
def test_only_the_integer_version_2_is_read(version):
    doc = cl.honest_documents(cl.Textbook(FOUR))["ldim"]
    doc["version"] = version
    with pytest.raises(CertificateError, match="^header: expected format 'mistakebound-certificate' version 2"):
        check(doc)


# ------------------------------------------------------------------ the lemmas the checker's steps cite
@settings(max_examples=150)
@given(M=class_matrices(max_rows=8, max_cols=4))
def test_the_bounds_the_checker_cites_hold_on_every_space_of_the_recursion(M):
    """The checker trusts a few lemmas (its docstrings argue them); here the oracle tests each on every
    space the recursion reaches: Ldim <= log2 d; RL <= log2(d) / 2; RL <= Ldim (1 - 2^(1-d)); a term
    of RL at most (1 + log2(d0) / 2 + log2(d1) / 2) / 2; VCdim <= Ldim."""
    tb = cl.Textbook(M)
    assert tb.vc() <= tb.ldim(tb.full)
    for V in tb.closure():
        d, L, rl = tb.distinct(V), tb.ldim(V), tb.rl(V)
        assert 2 ** L <= d
        assert 2 ** (2 * rl.numerator) <= d ** rl.denominator  # 2^(2 RL) <= d
        assert rl <= L * (1 - Fraction(1, 2 ** (d - 1)))
        for _, V0, V1 in tb.parts(V):
            term = (1 + tb.rl(V0) + tb.rl(V1)) / 2  # (2 term - 1) * 2 <= log2(d0 d1)
            assert 2 ** ((4 * term - 2).numerator) <= (tb.distinct(V0) * tb.distinct(V1)) ** (4 * term - 2).denominator


# ------------------------------------------------------------------ in-place log2 entries of an "le" fact
#: Instance 0 splits rows {000} and the four rows 1??: side 0 holds 1 row, side 1 holds 4 = 2^2; instance 3
#: labels every row 0 (it splits nothing); the last row repeats the one before it.  Ldim 2.
SKEW = np.array([[0, 0, 0, 0], [1, 0, 0, 0], [1, 0, 1, 0], [1, 1, 0, 0], [1, 1, 1, 0], [1, 1, 1, 0]],
                dtype=np.uint8)


def _skew(value: int, entries: list, M: np.ndarray = SKEW) -> dict:
    tb = cl.Textbook(M)
    return tb.document({"result": "ldim", "facts": [[tb.space(tb.full), "le", value, entries]],
                        "claim": {"upper": [0, value]}})


def test_honest_log2_entries_are_accepted_with_the_oracles_value():
    """Each side named holds fewer than 2^2 distinct rows (side 0 of instance 1: rows 000, 100, 101; side 1 of
    instance 2: 101 and 111 twice, two distinct)."""
    assert cl.textbook_ldim(SKEW) == 2
    assert check(_skew(2, [[0, 0, "log2"], [1, 0, "log2"], [2, 0, "log2"]])) == {"ldim": (None, 2)}
    assert check(_skew(2, [[0, 0, "log2"], [1, 1, "log2"], [2, 1, "log2"]])) == {"ldim": (None, 2)}


@pytest.mark.parametrize("value, entries, message", [
    # exactly 2^b distinct rows: the side of instance 0 labelled 1 holds 1??, four rows, and Ldim 2 > 1
    (2, [[0, 1, "log2"], [1, 0, "log2"], [2, 0, "log2"]],
     r"instance 0: its side labelled 1 holds 4 distinct rows, not fewer than 2\^2"),
    # the same with the bound lowered: the side of three rows is not below 2^1
    (1, [[0, 0, "log2"], [1, 0, "log2"], [2, 0, "log2"]],
     r"instance 1: its side labelled 0 holds 3 distinct rows, not fewer than 2\^1"),
    # b = 0: no side of a splitting instance is empty
    (0, [[0, 0, "log2"], [1, 0, "log2"], [2, 0, "log2"]],
     r"instance 0: its side labelled 0 holds 1 distinct rows, not fewer than 2\^0"),
    # instance 3 splits nothing: its side labelled 1 is empty, yet it answers for instance 0
    (2, [[3, 1, "log2"], [1, 0, "log2"], [2, 0, "log2"]], r"instances \[0\] not answered exactly once"),
    (2, [[0, 0, "log2"], [1, 0, "log2"], [2, 0, "log2"], [3, 1, "log2"]],
     r"instances not splitting the space, or listed twice, not answered exactly once"),
    # one instance twice, another left out
    (2, [[0, 0, "log2"], [1, 0, "log2"], [1, 0, "log2"]], r"instances \[2\] not answered exactly once"),
    (2, [[0, 0, "log2"], [1, 0, "log2"], [2, 0, "log2"], [2, 0, "log2"]],
     r"instances not splitting the space, or listed twice"),
    # odd shapes: the third element is "log2" or an earlier fact, nothing else
    (2, [[0, 0, "LOG2"], [1, 0, "log2"], [2, 0, "log2"]], r"instance 0: expected the index of an earlier fact, got 'LOG2'"),
    (2, [[0, 0, ["log2"]], [1, 0, "log2"], [2, 0, "log2"]], r"instance 0: expected the index of an earlier fact"),
    (2, [[0, 0, None], [1, 0, "log2"], [2, 0, "log2"]], r"instance 0: expected the index of an earlier fact, got None"),
    (2, [[0, 0, True], [1, 0, "log2"], [2, 0, "log2"]], r"instance 0: expected the index of an earlier fact, got True"),
    (2, [[0, "log2"], [1, 0, "log2"], [2, 0, "log2"]], r"expected \[instance, label 0/1, fact or 'log2'\]"),
    (2, [[0, 0, "log2", 0], [1, 0, "log2"], [2, 0, "log2"]], r"expected \[instance, label 0/1, fact or 'log2'\]"),
    (2, [[0, 2, "log2"], [1, 0, "log2"], [2, 0, "log2"]], r"expected a label 0 or 1, got 2"),
    (2, [[0, True, "log2"], [1, 0, "log2"], [2, 0, "log2"]], r"expected a label 0 or 1, got True"),
    (2, [["log2", 0, 0], [1, 0, "log2"], [2, 0, "log2"]], r"expected an instance 0..3, got 'log2'"),
    (2, "log2 log2", r"expected a list of \[instance, label, fact or 'log2'\], 'log2' or a map"),
])
def test_every_false_or_malformed_log2_entry_is_refused_by_name(value, entries, message):
    with pytest.raises(CertificateError, match=r"^ldim fact 0: " + message):
        check(_skew(value, entries))


def test_a_log2_entry_counts_distinct_rows_not_rows():
    """Side 1 of instance 0 holds four rows, 10 three times and 11: two distinct, below 2^2 though not 2^1."""
    M = np.array([[0, 0], [1, 0], [1, 0], [1, 0], [1, 1]], dtype=np.uint8)  # Ldim 1
    assert cl.textbook_ldim(M) == 1
    assert check(_skew(1, [[0, 0, "log2"], [1, 1, "log2"]], M)) == {"ldim": (None, 1)}
    assert check(_skew(2, [[0, 1, "log2"], [1, 0, "log2"]], M)) == {"ldim": (None, 2)}
    with pytest.raises(CertificateError, match=r"instance 0: its side labelled 1 holds 2 distinct rows, not fewer "
                                               r"than 2\^1"):
        check(_skew(1, [[0, 1, "log2"], [1, 1, "log2"]], M))
