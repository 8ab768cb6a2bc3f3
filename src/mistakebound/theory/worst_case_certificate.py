"""Certificates of a learner's worst case ``M_A(H)``: the section the search writes, and its replay.

:func:`worst_case_section` runs the exact search of
:func:`~mistakebound.theory.worst_case.worst_case_mistakes` with a recorder and writes a
``"worst-case"`` section (documented and checked by :mod:`mistakebound.certificates.worst_case`)
into a :class:`~mistakebound.theory.certificate.CertificateWriter`: the learner's behaviour as a
table (its states, each state's exact predictions, the transitions the search made) and facts
that prove the game's value for a learner that behaves as the table says.  The checker cannot
run the learner; :func:`replay` does, in the package: it replays every recorded transition from
the learner's initial state with ``snapshot()`` / ``learn_one`` and compares every recorded
prediction exactly, so an accepted certificate plus a replay that passes prove ``M_A(H)``.

Predictions are recorded exactly as the search sees them: 0 or 1 for a deterministic learner,
the exact value of the float a randomized learner returns (the probability the engine draws
with).  States are told apart by ``state_key()`` (the search's own assumption: equal keys, equal
behaviour); a learner without one (searched with a horizon) gets one state per node of the
game tree.  Values are computed exactly from the table, so a randomized learner's certified
value is the exact sum, which may differ from the search's float by rounding.

Examples
--------
>>> from mistakebound.certificates.verify import check
>>> from mistakebound.game.counterexamples import halving_exceeds_ldim
>>> from mistakebound.learners import Consistent, Halving
>>> from mistakebound.theory.certificate import CertificateWriter
>>> H = halving_exceeds_ldim()
>>> writer = CertificateWriter(H)
>>> W, section = worst_case_section(Halving(H), H, writer)
>>> W.value, section["claim"]["lower"][1], section["claim"]["upper"][1]
(3, 3, 3)
>>> check(writer.document())
{'worst-case': (3, 3)}
>>> replay(writer.document(), Halving(H), H)
>>> replay(writer.document(), Consistent(H), H)
Traceback (most recent call last):
...
mistakebound.certificates.document.CertificateError: replay: the certificate says its table is the learner 'Halving', not 'Consistent'
>>> document = writer.document()
>>> document["results"][0]["learner"] = "Consistent"     # renamed: every prediction is still replayed
>>> replay(document, Consistent(H), H)
Traceback (most recent call last):
...
mistakebound.certificates.document.CertificateError: replay: state 0, instance 0 ('x0'): recorded prediction 0, ...
"""

from __future__ import annotations

import copy
from collections import deque
from fractions import Fraction
from collections.abc import Callable
from typing import Any

from mistakebound.certificates.verify import CertificateError
from mistakebound.game.hypothesis_class import HypothesisClass, require_class
from mistakebound.game.rules import as_prediction
from mistakebound.game.players import describe, is_randomized
from mistakebound.theory.certificate import CertificateWriter, class_section, number_text
from mistakebound.theory.worst_case import WorstCase, _worst_case

__all__ = ["replay", "worst_case_section"]

_INF = float("inf")


def _exact(p: float) -> int | Fraction:
    """A prediction as an exact number: 0, 1 or the float's exact value."""
    return int(p) if p in (0, 1) else Fraction(p)


class _Recorder:
    """What the search saw: states (by ``state_key``, or one per node), predictions, transitions, positions."""

    def __init__(self, keyed: bool):
        self.keyed = keyed
        self.ids: dict = {}  # state_key (or id() of a snapshot) -> state
        self.alive: list = []  # without state keys: the snapshots, so that their id()s stay unique
        self.preds: list[dict] = []
        self.next: list[dict] = []
        self.stays: list[set] = []
        self.done_list: list[tuple] = []

    def _new(self, L: Any) -> int:
        s = len(self.preds)
        self.preds.append({})
        self.next.append({})
        self.stays.append(set())
        if self.keyed:
            self.ids[L.state_key()] = s
        else:
            self.ids[id(L)] = s
            self.alive.append(L)
        return s

    def root(self, L: Any) -> None:
        self._new(L)

    def line_start(self) -> int:
        return 0

    def state(self, L: Any) -> int:
        return self.ids[L.state_key() if self.keyed else id(L)]

    def prediction(self, s: int, j: int, p: float) -> None:
        e = _exact(p)
        if self.preds[s].setdefault(j, e) != e:
            raise CertificateError(f"record: state {s} predicted {self.preds[s][j]} and {e} on instance {j}")

    def follow(self, s: int, j: int, y: int, child: Any) -> int:
        t = self.ids.get(child.state_key()) if self.keyed else self.next[s].get((j, y))
        if t is None:
            t = self._new(child)
        elif not self.keyed:
            self.ids[id(child)] = t
            self.alive.append(child)
        if self.next[s].setdefault((j, y), t) != t:
            raise CertificateError(f"record: state {s} moved to two states on instance {j}, label {y}")
        return t

    def stay(self, s: int, j: int, y: int) -> None:
        self.stays[s].add(j)

    def done(self, V: int, s: int, h: int | None) -> None:
        self.done_list.append((V, s, h))


def worst_case_section(learner: Any, H: HypothesisClass, writer: CertificateWriter, *, horizon: int | None = None,
                       max_nodes: int | None = None, time_limit: float | None = None,
                       progress: Callable[[int], None] | None = None) -> tuple[WorstCase, dict]:
    """Search ``M_A(H)`` (recording) and add its ``"worst-case"`` section to ``writer``.

    The parameters are those of :func:`~mistakebound.theory.worst_case.worst_case_mistakes`.
    Returns the search's :class:`~mistakebound.theory.worst_case.WorstCase` and the section added.
    An exact finite value is certified on both sides (an ``le`` fact per position searched, and
    ``ge`` facts along an optimal line), an infinite one by a cycle of moves that gains, a
    partial result by its line (the lower bound) and, with a horizon, the horizon (the upper).

    Examples
    --------
    >>> from mistakebound import classes
    >>> from mistakebound.learners import SOA
    >>> H = classes.thresholds(7)
    >>> W, section = worst_case_section(SOA(H), H, CertificateWriter(H), max_nodes=10, horizon=5)
    >>> W.status, section["claim"]
    ('budget', {'lower': [4, 2], 'upper': [5, 5]})
    """
    require_class(H)
    rec = _Recorder(callable(getattr(learner, "state_key", None)))
    W = _worst_case(learner, H, horizon=horizon, max_nodes=max_nodes, time_limit=time_limit, recorder=rec,
                    progress=progress)
    m, columns = H.n_instances, H.column_masks
    root = (H.full_mask, 0, horizon)

    def moves(pos: tuple):
        V, s, h = pos
        for j in range(m if h != 0 else 0):
            p = rec.preds[s][j]
            for y in (0, 1):
                Wy = V & columns[j] if y else V & ~columns[j]
                if not Wy or (Wy == V and p == y and j in rec.stays[s]):
                    continue
                child = None if h == 1 else (Wy, rec.next[s][j, y], None if h is None else h - 1)
                yield j, y, abs(p - y), child

    facts: list = []

    def fact(pos: tuple, kind: str, value: Any, step: Any) -> int:
        facts.append([writer.space(pos[0]), pos[1], pos[2], kind, number_text(value), step])
        return len(facts) - 1

    def line_facts(line: list[tuple[int, int]]) -> tuple[int, Any]:
        """``ge`` facts along a line from the root; the root's fact and value."""
        positions, gains = [root], []
        for j, y in line:
            V, s, h = positions[-1]
            p = rec.preds[s][j]
            gains.append(abs(p - y))
            Wy = V & columns[j] if y else V & ~columns[j]
            positions.append(None if h == 1 else (Wy, rec.next[s][j, y], None if h is None else h - 1))
        if positions[-1] in positions[:-1]:  # a cycle that gains: the value is infinite
            i = positions.index(positions[-1])
            k = fact(positions[i], "ge", _INF, ["cycle", [list(mv) for mv in line[i:]]])
            value, stop = _INF, i
        else:
            value, stop = 0, len(line)
            if positions[-1] is not None:
                k = fact(positions[-1], "ge", 0, None)
        for i in range(stop - 1, -1, -1):
            value += gains[i]
            k = fact(positions[i], "ge", value, list(line[i]))
        return k, value

    claim: dict = {}
    index = {x: j for j, x in enumerate(H.domain)}
    if W.exact and horizon == 0:
        claim = {"lower": [fact(root, "ge", 0, None), 0], "upper": [fact(root, "le", 0, "rounds"), 0]}
    elif W.exact and W.value != _INF:
        if not rec.done_list or rec.done_list[-1] != root:
            raise CertificateError("record: the search did not finish at the root")
        values: dict = {}
        best: dict = {}
        for pos in rec.done_list:
            values[pos], best[pos] = 0, None
            for j, y, gain, child in moves(pos):
                v = gain + (0 if child is None else values[child])
                if v > values[pos]:
                    values[pos], best[pos] = v, (j, y, child)
            upper = fact(pos, "le", values[pos], None)
        line, pos = [], root
        while pos is not None and best.get(pos) is not None:
            j, y, pos = best[pos]
            line.append((j, y))
        lower, value = line_facts(line)
        claim = {"lower": [lower, number_text(value)], "upper": [upper, number_text(values[root])]}
    else:
        lower, value = line_facts([(index[x], y) for x, y in W.line])
        claim["lower"] = [lower, number_text(value)]
        if horizon is not None:
            claim["upper"] = [fact(root, "le", horizon, "rounds"), horizon]
    section = {"result": "worst-case", "learner": describe(learner), "horizon": horizon,
               "states": [_state(rec, s, m) for s in range(len(rec.preds))], "facts": facts, "claim": claim}
    writer.add(section)
    return W, section


def _state(rec: _Recorder, s: int, m: int) -> list:
    """One state's entry: its predictions, its transitions, the instances where it stays."""
    row = [rec.preds[s].get(j) for j in range(m)]
    nxt = dict(rec.next[s])
    for j in rec.stays[s]:
        if nxt.get((j, row[j])) == s:
            del nxt[j, row[j]]  # the stay says it
    if all(p in (0, 1, None) for p in row):
        text: Any = "".join("-" if p is None else str(p) for p in row)
    else:
        text = [None if p is None else number_text(p) for p in row]
    return [text, [[j, y, t] for (j, y), t in sorted(nxt.items())], format(sum(1 << j for j in rec.stays[s]), "x")]


def _section(certificate: dict, H: HypothesisClass) -> dict:
    if certificate.get("result") == "worst-case":
        return certificate
    if certificate.get("class") != class_section(H):
        raise CertificateError("replay: the certificate speaks of another class than the one given "
                               "(its shape, rows or domain differ)")
    for section in certificate.get("results") or []:
        if isinstance(section, dict) and section.get("result") == "worst-case":
            return section
    raise CertificateError("replay: the certificate has no 'worst-case' result")


def replay(certificate: dict, learner: Any, H: HypothesisClass) -> None:
    """Confirm that a ``"worst-case"`` section's table is the behaviour of ``learner`` (in its initial state) on ``H``.

    ``certificate`` is the section or the whole document (then its class must be ``H``: shape,
    rows and domain), and the section must name the learner as ``describe(learner)`` does.  Every
    recorded transition is replayed from the initial state (on snapshots) and every recorded
    prediction compared exactly; a state reached twice must have the same ``state_key()`` each
    time, and every state must be reached.  Returns None; raises
    :class:`~mistakebound.certificates.verify.CertificateError` naming the first disagreement.
    The learner is not modified.  (See the module's examples.)
    """
    section = _section(certificate, require_class(H))
    if section.get("learner") != describe(learner):
        raise CertificateError(f"replay: the certificate says its table is the learner {section.get('learner')!r}, "
                               f"not {describe(learner)!r}")
    states = section.get("states") or []
    randomized = is_randomized(learner)
    keyed = callable(getattr(learner, "state_key", None))
    snap = getattr(type(learner), "snapshot", None)
    clone = (lambda L: L.snapshot()) if callable(snap) else copy.deepcopy
    reps = {0: clone(learner)}
    keys = {0: reps[0].state_key() if keyed else None}
    queue = deque([0])
    while queue:
        s = queue.popleft()
        L = reps[s]
        row, nxt, stay = states[s]
        row = [None if c == "-" else int(c) for c in row] if isinstance(row, str) else row
        for j, want in enumerate(row):
            if want is None:
                continue
            x = H.domain[j]
            raw = L.predict_proba_one(x) if randomized else L.predict_one(x)
            p = as_prediction(raw, randomized)
            got = None if p is None else _exact(float(p))
            if got is None or number_text(got) != want:
                raise CertificateError(f"replay: state {s}, instance {j} ({x!r}): recorded prediction {want}, "
                                       f"the learner predicts {raw if got is None else number_text(got)}")
        stays = [(j, row[j], s) for j in range(len(row)) if int(stay, 16) >> j & 1]
        for j, y, t in list(nxt) + stays:
            child = clone(L)
            child.learn_one(H.domain[j], y)
            if t not in reps:
                reps[t], keys[t] = child, child.state_key() if keyed else None
                queue.append(t)
            elif not keyed or child.state_key() != keys[t]:
                raise CertificateError(f"replay: state {s}, instance {j}, label {y}: the learner does not reach "
                                       f"state {t} " + ("(another state_key)" if keyed else
                                                        "(reached twice, and the learner has no state_key)"))
    missing = [s for s in range(len(states)) if s not in reps]
    if missing:
        raise CertificateError(f"replay: states {missing[:5]} are reached by no recorded transition")
