"""Certificates of a learner's worst case ``M_A(H)`` (issue 14): producer, checker, replay.

The producer records the exact search; the independent checker must accept every certificate
with the value of the plain recursion of mistakebound.theory.textbook, reject every tampering that
makes a claim false (naming the step), and run as a program with nothing of the package
importable; the replay must accept the learner that was searched and reject another.
"""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import networkx as nx
import numpy as np
import pytest
from attrs import define
from hypothesis import HealthCheck, given, settings

from mistakebound.theory.textbook import consistent_rule, halving_rule, textbook_ldim, textbook_worst_case, vote_rule
from mistakebound import HypothesisClass, littlestone_dimension
from mistakebound.certificates import verify
from mistakebound.certificates.verify import CertificateError, check
from mistakebound.game import classes
from mistakebound.game.counterexamples import halving_exceeds_ldim
from mistakebound.learners import SOA, Consistent, Halving, OptimalRandomizedLearner
from mistakebound.theory.certificate import CertificateWriter
from mistakebound.theory.worst_case_certificate import replay, worst_case_section
from tests.players import VoteFraction
from tests.strategies import hypothesis_classes
from tests.documents import clone

CHECKER = Path(verify.__file__)
PROPERTY = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def certify(learner, H, **kwargs) -> tuple:
    writer = CertificateWriter(H)
    W, _ = worst_case_section(learner, H, writer, **kwargs)
    return W, writer.document()


@define
class Stubborn:
    """Predicts 0 everywhere and never changes: errs forever on an instance every hypothesis labels 1."""

    def predict_one(self, x):
        return 0

    def learn_one(self, x, y):
        pass

    def state_key(self):
        return 0


@define
class Alternating:
    """No state_key: predicts the parity of the rounds it has seen (searched with a horizon)."""

    seen: int = 0

    def predict_one(self, x):
        return self.seen % 2

    def learn_one(self, x, y):
        self.seen += 1


# ------------------------------------------------------------------------------------ values
@PROPERTY
@given(hypothesis_classes(max_rows=7, max_cols=4))
def test_every_certificate_verifies_with_the_recursions_value_and_replays(H):
    for L, rule in ((Halving, halving_rule), (Consistent, consistent_rule), (VoteFraction, vote_rule), (SOA, None)):
        W, doc = certify(L(H), H)
        lower, upper = check(doc)["worst-case"]
        expected = textbook_worst_case(H, rule(H)) if rule else (textbook_ldim(H.matrix) if H.n_instances else 0)
        assert lower == upper and math.isclose(lower, expected), (L.__name__, H.matrix.tolist())
        if L is not VoteFraction:
            assert lower == expected == W.value  # exact, not close
        replay(doc, L(H), H)


@PROPERTY
@given(hypothesis_classes(max_rows=6, max_cols=4))
def test_horizons_and_partial_searches_certify_intervals_that_hold_the_value(H):
    exact = textbook_worst_case(H, halving_rule(H))
    for h in (0, 1, 2):
        W, doc = certify(Halving(H), H, horizon=h)
        lower, upper = check(doc)["worst-case"]
        assert lower == upper == W.value <= min(h, exact)
    for nodes in (1, 3):
        W, doc = certify(Halving(H), H, max_nodes=nodes)
        lower, upper = check(doc)["worst-case"]
        assert lower <= exact and (upper is None or upper == exact)
        replay(doc, Halving(H), H)


def test_halving_exceeds_ldim_and_the_replay_tells_learners_apart():
    H = halving_exceeds_ldim()
    assert littlestone_dimension(H) == 2
    W, doc = certify(Halving(H), H)
    assert check(doc) == {"worst-case": (3, 3)}
    replay(doc, Halving(H), H)
    with pytest.raises(CertificateError, match="replay: the certificate says its table is the learner 'Halving', not 'Consistent'"):
        replay(doc, Consistent(H), H)
    renamed = clone(doc)
    renamed["results"][0]["learner"] = "Consistent"  # the name alone is not enough: every prediction is replayed
    with pytest.raises(CertificateError, match="replay: state 0, instance 0 .*recorded prediction 0"):
        replay(renamed, Consistent(H), H)
    with pytest.raises(CertificateError, match="another class"):
        replay(doc, Halving(classes.thresholds(3)), classes.thresholds(3))
    _, doc_soa = certify(SOA(H), H)
    assert check(doc_soa) == {"worst-case": (2, 2)}
    with pytest.raises(CertificateError, match="replay"):
        replay(doc_soa, Halving(H), H)


def test_infinite_values_randomized_learners_and_learners_without_state_keys():
    H = HypothesisClass.from_matrix([[1, 0], [1, 1]])
    _, doc = certify(Stubborn(), H)
    assert check(doc) == {"worst-case": (math.inf, None)}
    assert doc["results"][0]["facts"][0][5] == ["cycle", [[0, 1]]]
    replay(doc, Stubborn(), H)
    _, doc = certify(Stubborn(), H, horizon=4)
    assert check(doc) == {"worst-case": (4, 4)}
    _, doc = certify(Alternating(), H, horizon=3)
    assert check(doc)["worst-case"] == (3, 3)
    replay(doc, Alternating(), H)
    with pytest.raises(CertificateError, match="replay"):
        replay(doc, Stubborn(), H)
    S = classes.singletons(4)
    W, doc = certify(OptimalRandomizedLearner(S), S)
    assert check(doc) == {"worst-case": (Fraction(7, 8), Fraction(7, 8))} and W.value == 0.875
    replay(doc, OptimalRandomizedLearner(S), S)


# ---------------------------------------------------------------------------------- tampering
def automaton_values(doc: dict) -> dict:
    """The game's value at the root and at every fact's position, for the learner the (possibly
    tampered) table describes, over its defined moves (a prediction in [0, 1] and, but for the last
    round, a transition; a (state, x, y) given twice may go either way).

    An independent computation: the positions reachable by such moves, then infinity where a
    cycle that gains can be reached, else the longest path.
    """
    cls, sec = doc["class"], doc["results"][0]
    rows = [int(r, 16) for r in cls["rows"]]
    m = cls["n_instances"]
    states = []
    for row, nxt, stay in sec["states"]:
        if isinstance(row, str):
            row = [None if c == "-" else int(c) if c in "01" else "?" for c in row]
        preds = [Fraction(p) if isinstance(p, (int, str)) and p != "inf" else None for p in row]
        preds = [p if p is not None and 0 <= p <= 1 else None for p in preds]
        table: dict = {}
        for x, y, t in nxt:
            table.setdefault((x, y), set()).add(t)
        for x in range(m):
            if int(stay, 16) >> x & 1 and preds[x] in (0, 1):
                table.setdefault((x, int(preds[x])), set()).add(len(states))
        states.append((preds, table))

    def rows_of(space: str) -> frozenset:
        return frozenset(i for i in range(len(rows)) if int(space, 16) >> i & 1)

    starts = [(frozenset(range(len(rows))), 0, sec["horizon"])]
    starts += [(rows_of(doc["spaces"][f[0]]), f[1], f[2]) for f in sec["facts"]]
    G = nx.DiGraph()
    G.add_nodes_from(starts)
    todo = list(starts)
    while todo:
        pos = todo.pop()
        if len(pos) == 1 or pos[2] == 0:  # the game is over
            continue
        V, s, r = pos
        preds, table = states[s]
        for x in range(m):
            for y in (0, 1):
                W = frozenset(i for i in V if rows[i] >> x & 1 == y)
                p = preds[x]
                if not W or p is None:
                    continue
                children = [("end",)] if r == 1 else [(W, t, None if r is None else r - 1)
                                                      for t in table.get((x, y), ())]
                for child in children:
                    if child == pos and p == y:
                        continue
                    if child not in G:
                        G.add_node(child)
                        todo.append(child)
                    gain = abs(p - y)
                    old = G.edges[pos, child]["weight"] if G.has_edge(pos, child) else 0
                    G.add_edge(pos, child, weight=max(gain, old))
    C = nx.condensation(G)
    comp = C.graph["mapping"]
    loops = {comp[u] for u, v, w in G.edges(data="weight") if comp[u] == comp[v] and w > 0}
    best: dict = {}
    for c in reversed(list(nx.topological_sort(C))):
        out = [w + best[comp[v]] for u in C.nodes[c]["members"] for _, v, w in G.out_edges(u, data="weight")
               if comp[v] != c]
        best[c] = math.inf if c in loops else max([0] + out)
    return {pos: best[comp[pos]] for pos in starts}


def _facts_true(doc: dict) -> bool:
    """Whether every fact of an accepted certificate holds of the table it describes."""
    values = automaton_values(doc)
    for sp, s, r, kind, value, _ in doc["results"][0]["facts"]:
        V = frozenset(i for i in range(doc["class"]["n_hypotheses"]) if int(doc["spaces"][sp], 16) >> i & 1)
        v, value = values[V, s, r], (math.inf if value == "inf" else Fraction(value))
        if (kind == "ge" and v < value) or (kind == "le" and v > value):
            return False
    return True


def mutations(doc: dict):
    """Every single tampering of the section: values off by one, other instances and labels in the
    lines, other positions, changed predictions, dropped and redirected transitions, changed claims,
    dropped facts, and a class whose rows or hash changed."""
    sec = doc["results"][0]
    n_states, n_spaces, m = len(sec["states"]), len(doc["spaces"]), doc["class"]["n_instances"]
    for k, (sp, s, r, kind, value, step) in enumerate(sec["facts"]):
        f = ("results", 0, "facts", k)
        if value != "inf":
            for delta in (-1, 1):
                yield f"fact {k} value {delta:+d}", f + (4, Fraction(value) + delta)
        yield f"fact {k} space", f + (0, (sp + 1) % n_spaces)
        yield f"fact {k} state", f + (1, (s + 1) % n_states)
        for other in ((r + 1, r - 1, None) if r is not None else (1,)):
            yield f"fact {k} rounds {other}", f + (2, other)
        if kind == "ge" and isinstance(step, list) and step[0] != "cycle":
            yield f"fact {k} other instance", f + (5, [(step[0] + 1) % m, step[1]])
            yield f"fact {k} swapped label", f + (5, [step[0], 1 - step[1]])
        if kind == "ge" and isinstance(step, list) and step[0] == "cycle":
            yield f"fact {k} dropped move", f + (5, ["cycle", step[1][1:]])
            yield f"fact {k} swapped label", f + (5, ["cycle", [[x, 1 - y] for x, y in step[1]]])
        if kind == "le" and step is None:
            yield f"fact {k} the horizon as a step", f + (5, "rounds")
        if kind == "ge" and step is not None:
            yield f"fact {k} no step", f + (5, None)
        yield f"drop fact {k}", ("results", 0, "facts", k, None)
    for s, (row, nxt, stay) in enumerate(sec["states"]):
        st = ("results", 0, "states", s)
        for x in range(m):
            p = row[x]
            if p not in ("-", None):
                other = {"0": "1", "1": "0"}.get(p, "0") if isinstance(row, str) else (1 if p != 1 else 0)
                new = row[:x] + other + row[x + 1:] if isinstance(row, str) else row[:x] + [other] + row[x + 1:]
                yield f"state {s} prediction {x}", st + (0, new)
                as_list = [None if c == "-" else int(c) for c in row] if isinstance(row, str) else list(row)
                yield f"state {s} prediction {x} out of range", st + (0, as_list[:x] + ["3/2"] + as_list[x + 1:])
        for i, (x, y, t) in enumerate(nxt):
            yield f"state {s} dropped transition {i}", st + (1, nxt[:i] + nxt[i + 1:])
            yield f"state {s} redirected transition {i}", st + (1, nxt[:i] + [[x, y, (t + 1) % n_states]] + nxt[i + 1:])
            yield f"state {s} transition {i} swapped label", st + (1, nxt[:i] + [[x, 1 - y, t]] + nxt[i + 1:])
            yield f"state {s} transition {i} given twice", st + (1, nxt + [[x, y, (t + 1) % n_states]])
        for x in range(m):
            yield f"state {s} stay {x} flipped", st + (2, format(int(stay, 16) ^ (1 << x), "x"))
    facts = sec["facts"]
    for side, (k, value) in sec["claim"].items():
        if value != "inf":
            yield f"claim {side} +1", ("results", 0, "claim", side, [k, Fraction(value) + 1])
            for delta in (-1, 1):  # the claimed fact and the claim together
                new = clone(facts)
                new[k][4] = _text(Fraction(value) + delta)
                yield f"claimed fact {side} {delta:+d}", ("results", 0, "facts", new)
                yield f"claim {side} {delta:+d} with its fact", ("results", 0, (new, {
                    **sec["claim"], side: [k, _text(Fraction(value) + delta)]}))
        other = [i for i in range(k) if facts[i][3] == facts[k][3]]
        if other:
            yield f"claim {side} another fact", ("results", 0, "claim", side, [other[-1], facts[other[-1]][4]])
    rows = doc["class"]["rows"]
    yield "class row", ("class", "rows", [format(int(rows[0], 16) ^ 1, "x")] + rows[1:])
    yield "class hash", ("class", "sha256", "0" * 64)


def _text(v):
    v = Fraction(v)
    return int(v) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"


def _apply(doc: dict, where: tuple) -> dict:
    t = clone(doc)
    *path, key, value = where
    target = t
    for p in path:
        target = target[p]
    if isinstance(value, tuple):  # the facts and the claim at once
        target[key]["facts"], target[key]["claim"] = value
    elif value is None:
        del target[key]
    else:
        target[key] = _text(value) if isinstance(value, Fraction) else value
    return t


def _judge(doc: dict, learner, H, true_value: float, sample: int | None = None) -> tuple[int, int]:
    """(rejected, total) over every mutation of ``doc`` (or a seeded sample of ``sample`` of them, for a
    large certificate); an accepted tampering must claim only what is true."""
    rejected = total = 0
    every = list(mutations(doc))
    if sample is not None and len(every) > sample:
        every = [every[i] for i in sorted(np.random.default_rng(21).choice(len(every), sample, replace=False))]
    for name, where in every:
        t = _apply(doc, where)
        total += 1
        try:
            lower, upper = check(t)["worst-case"]
        except CertificateError as exc:
            rejected += 1
            assert str(exc).startswith(("worst-case ", "class")), (name, str(exc))
            continue
        assert _facts_true(t), name  # the checker's soundness: every fact true of the table it accepted
        value = automaton_values(t)[frozenset(range(t["class"]["n_hypotheses"])), 0, t["results"][0]["horizon"]]
        assert lower <= value and (upper is None or value <= upper), (name, lower, value, upper)
        try:  # and of the learner, unless the replay finds the table is not the learner's
            replay(t, learner, H)
        except CertificateError:
            continue
        assert lower <= true_value and (upper is None or true_value <= upper), (name, lower, true_value, upper)
    return rejected, total


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hypothesis_classes(max_rows=5, max_cols=3))
def test_the_checker_rejects_every_tampering_that_makes_a_claim_false(H):
    for L in (Halving, Consistent):
        W, doc = certify(L(H), H)
        _judge(doc, L(H), H, W.value)


def test_tampering_is_rejected_in_almost_every_case_and_the_step_is_named():
    """The fraction over fixed classes (exact, partial, horizon, infinite, randomized), as reported."""
    rng = np.random.default_rng(14)
    cases = [(Halving, halving_exceeds_ldim(), {"sample": 600}), (SOA, classes.thresholds(7), {"horizon": 2}),
             (Halving, classes.thresholds(15), {"max_nodes": 4}), (VoteFraction, classes.singletons(3), {}),
             (Halving, classes.thresholds(15), {"max_nodes": 4, "horizon": 3})]
    for _ in range(12):
        M = rng.integers(0, 2, size=(int(rng.integers(2, 7)), int(rng.integers(2, 5))), dtype=np.uint8)
        cases.append((Halving if len(cases) % 2 else Consistent, HypothesisClass.from_matrix(M), {}))
    rejected = total = 0
    for L, H, kwargs in cases:
        sample = kwargs.pop("sample", None)
        _, doc = certify(L(H), H, **kwargs)
        full = {k: v for k, v in kwargs.items() if k != "max_nodes"}
        r, t = _judge(doc, L(H), H, check(certify(L(H), H, **full)[1])["worst-case"][0], sample)
        rejected, total = rejected + r, total + t
    H = HypothesisClass.from_matrix([[1, 0], [1, 1]])
    _, doc = certify(Stubborn(), H)
    r, t = _judge(doc, Stubborn(), H, math.inf)
    rejected, total = rejected + r, total + t
    print(f"worst-case tampering: {rejected}/{total} rejected ({rejected / total:.1%})")
    assert total > 1000 and rejected / total > 0.85, (rejected, total)


@pytest.mark.parametrize("edit, message", [
    (lambda sec: sec["states"][0][1].append([0, 0, 3]), "state 0: two transitions on instance 0, label 0"),
    (lambda sec: sec["states"][0].__setitem__(2, "1"), "state 0: instance 0: a stay and a transition"),
    (lambda sec: sec["states"][0].__setitem__(0, [1, "3/2", 0]), "state 0 instance 1: a prediction must be in"),
    (lambda sec: sec["states"][0].__setitem__(0, "11"), "state 0: expected 3 predictions"),
    (lambda sec: sec["facts"][0].__setitem__(2, None), "fact 0: rounds must be null without a horizon"),
    (lambda sec: sec["facts"].insert(0, [3, 4, 0, "ge", 1, [0, 0]]), "fact 0: instance 0, label 0 is no legal move"),
    (lambda sec: sec["facts"][0].__setitem__(4, "inf"), "fact 0: expected a finite value"),
    (lambda sec: sec["facts"][7].__setitem__(5, ["cycle", [[0, 0]]]), "fact 7: the cycle must come back to its position"),
    (lambda sec: sec.__setitem__("learner", 5), "learner: expected the learner's name"),
    (lambda sec: sec.__setitem__("horizon", -1), "horizon"),
])
def test_malformed_tables_and_steps_are_rejected_by_name(edit, message):
    H = classes.thresholds(3)
    _, doc = certify(Halving(H), H, horizon=2)
    assert check(doc) == {"worst-case": (2, 2)}
    edit(doc["results"][0])
    with pytest.raises(CertificateError, match=f"^worst-case {re.escape(message)}"):
        check(doc)


# ------------------------------------------------------------------------------- files, programs
def test_a_truncated_file_and_another_class_are_rejected(tmp_path):
    H = classes.thresholds(5)
    writer = CertificateWriter(H)
    worst_case_section(Halving(H), H, writer)
    path = writer.write(tmp_path / "c.json")
    text = path.read_text()
    assert verify.check_file(str(path), writer.cls) == {"worst-case": (2, 2)}
    path.write_text(text[: len(text) // 2])
    with pytest.raises(CertificateError, match="not a JSON certificate"):
        verify.check_file(str(path))
    path.write_text(text)
    with pytest.raises(CertificateError, match="another class"):
        verify.check_file(str(path), {**writer.cls, "rows": writer.rows[::-1]})


def test_the_checker_runs_as_a_program_with_nothing_of_the_package_importable(tmp_path):
    H = halving_exceeds_ldim()
    writer = CertificateWriter(H)
    worst_case_section(Halving(H), H, writer)
    for name in ("c.json", "c.json.gz"):
        path = writer.write(tmp_path / name)
        run = subprocess.run([sys.executable, "-I", "-S", str(CHECKER), str(path)], capture_output=True, text=True,
                             cwd=tmp_path, timeout=60)
        assert run.returncode == 0, run.stderr
        assert run.stdout.strip() == (
            "verified: 3 <= M_A(H) <= 3 with no horizon, where A is the learner that makes the moves the certificate "
            f"records (a table of {len(writer.document()['results'][0]['states'])} states, said to be 'Halving'; not "
            f"replayed) and H is the class of 9 hypotheses on 8 instances with sha256 {writer.cls['sha256']}")
    doc = writer.document()
    sec = doc["results"][0]
    k = sec["claim"]["upper"][0]
    sec["facts"][k][4] = 2
    sec["claim"]["upper"][1] = 2
    path = tmp_path / "t.json"
    path.write_text(json.dumps(doc))
    run = subprocess.run([sys.executable, "-I", "-S", str(CHECKER), str(path)], capture_output=True, text=True,
                         cwd=tmp_path, timeout=60)
    assert run.returncode == 1 and f"REJECTED: worst-case fact {k}:" in run.stderr, run.stderr
