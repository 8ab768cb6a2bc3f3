"""False certificates built by construction: for each kind of step, the smallest lie it could carry.

A checker is worth its soundness, so it is attacked before it is trusted.  Each generator
here takes a small class (a 0/1 matrix) and a seeded ``random.Random`` and builds documents
whose *claim is false*, judged by an oracle that shares nothing with the checker (the
textbook recursions of :mod:`mistakebound.theory.textbook`, brute
force for the VC dimension and the teaching parameters, and a plain recursion over a worst-case
table's game here).
Each lie departs from an honest certificate, built here by those same recursions, in one
step only, the step its ``kind`` names, so that the checker must refuse that step.

Besides lies, :func:`hostile` builds malformed documents (numbers in no grammar, sizes that
would exhaust memory, keys given twice) that must be refused with a
:class:`~mistakebound.certificates.verify.CertificateError` or an
:class:`~mistakebound.certificates.verify.UnreadableCertificate`, never an internal error,
and :func:`honest` the honest documents, which must be accepted (a checker that refuses
everything is sound and useless).

:func:`campaign` runs all of them against a checker (any object with ``check`` and
``parse_json``: the package's, or a mutated copy in :mod:`tests.test_certificates_mutations`)
and counts, per kind, what was tried and what went wrong.

Run a large campaign and print its counts (the closing note of issue 21 quotes one)::

    python -m tests.certificate_lies --classes 400 --seed 0
"""

from __future__ import annotations

import argparse
import functools
import itertools
import json
import random
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from mistakebound.theory.textbook import round_value, textbook_ldim, textbook_vcdim
from mistakebound.certificates.context import class_hash
from tests.documents import clone
from tests.game_lies import game_documents, rows_of
from tests.game_oracle import bandit_randomized_oracle, oblivious_oracle, oracle, randomized_oracle
from tests.parameter_lies import ORACLES, claimed, parameter_documents
from tests.teaching_lies import teaching_documents, truth as teaching_truth
from tests.order_lies import KINDS as ORDER_KINDS
from tests.order_lies import order_documents
from tests.order_lies import truth as order_truth

__all__ = ["Lie", "Textbook", "campaign", "classes", "hostile", "honest", "lies"]


@dataclass
class Lie:
    """A document to check, the class it is checked against (None: none given), and what it must give.

    ``kind`` names the step the document lies in (``"ldim.le"``, ``"vc.laminar"``, ...);
    ``accept`` is True for an honest document, which must be accepted; ``text`` replaces the
    document by raw JSON where the lie lives in the text itself (a key given twice).
    """

    kind: str
    document: dict | None
    expected: dict | None = None
    accept: bool = False
    text: str | None = None
    why: str = ""
    where: str | None = None  # where the checker must refuse it: by default in the section of its kind


# ---------------------------------------------------------------------------------- honest parts
class Textbook:
    """A class and the honest pieces of a certificate of it, built by the textbook recursions."""

    def __init__(self, M: np.ndarray, domain: list | None = None):
        self.M = np.asarray(M, dtype=np.uint8)
        self.n, self.m = self.M.shape
        self.rows = [sum(int(v) << x for x, v in enumerate(row)) for row in self.M]
        self.hex = [format(r, "x") for r in self.rows]
        self.columns = [sum(1 << i for i in range(self.n) if self.M[i, x]) for x in range(self.m)]
        self.full = (1 << self.n) - 1
        self.domain = list(range(self.m)) if domain is None else domain
        self.table: list = []
        self.index: dict[int, int] = {}

    # the class
    def cls(self) -> dict:
        return {"n_hypotheses": self.n, "n_instances": self.m, "rows": self.hex, "domain": self.domain,
                "sha256": class_hash(self.hex, self.domain)}

    def document(self, *sections: dict) -> dict:
        return {"format": "mistakebound-certificate", "version": 2, "class": self.cls(),
                "spaces": list(self.table), "results": list(sections)}

    def space(self, V: int) -> int:
        if V not in self.index:
            self.index[V] = len(self.table)
            self.table.append(format(V, "x"))
        return self.index[V]

    # the oracles, on a set of rows
    def members(self, V: int) -> list[int]:
        return [i for i in range(self.n) if V >> i & 1]

    def sub(self, V: int) -> np.ndarray:
        return self.M[self.members(V)]

    @functools.lru_cache(maxsize=None)
    def ldim(self, V: int) -> int:
        return textbook_ldim(self.sub(V))

    @functools.lru_cache(maxsize=None)
    def rl(self, V: int) -> Fraction:
        best = Fraction(0)
        for _, V0, V1 in self.parts(V):
            best = max(best, round_value(self.rl(V0), self.rl(V1)))
        return best

    def vc(self) -> int:
        return textbook_vcdim(self.M)

    def distinct(self, V: int) -> int:
        return len({self.rows[i] for i in self.members(V)})

    def part(self, V: int, x: int, y: int) -> int:
        return V & self.columns[x] if y else V & ~self.columns[x]

    def parts(self, V: int) -> list[tuple[int, int, int]]:
        return [(x, self.part(V, x, 0), self.part(V, x, 1)) for x in range(self.m) if self.part(V, x, 0) and
                self.part(V, x, 1)]

    def splitting(self, V: int) -> list[int]:
        return [x for x, _, _ in self.parts(V)]

    @functools.lru_cache(maxsize=None)
    def closure(self) -> frozenset[int]:
        """Every space the recursion reaches from the class: its parts, their parts, and so on."""
        seen, todo = {self.full}, [self.full]
        while todo:
            for _, V0, V1 in self.parts(todo.pop()):
                for W in (V0, V1):
                    if W not in seen:
                        seen.add(W)
                        todo.append(W)
        return frozenset(seen)


class Facts:
    """An honest ``"ldim"`` or ``"rldim"`` section under construction (facts shared per space and side)."""

    def __init__(self, tb: Textbook, kind: str):
        self.tb, self.kind, self.facts, self.done = tb, kind, [], {}
        self.values: dict[tuple[int, str], Fraction] = {}

    def override(self, V: int, side: str, fact: list) -> int:
        """Put ``fact`` (a lie, say) in place of the honest fact on ``V``: what is built above uses it."""
        self.done[V, side] = self.add(fact)
        self.values.clear()
        return self.done[V, side]

    def add(self, fact: list) -> int:
        self.facts.append(fact)
        return len(self.facts) - 1

    def value(self, V: int):
        return self.tb.ldim(V) if self.kind == "ldim" else self.tb.rl(V)

    def text(self, v) -> int | str:
        v = Fraction(v)
        return int(v) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"

    def term(self, V0: int, V1: int):
        if self.kind == "ldim":
            return 1 + min(self.tb.ldim(V0), self.tb.ldim(V1))
        return (1 + self.tb.rl(V0) + self.tb.rl(V1)) / 2

    def witness(self, V: int) -> tuple[int, int, int] | None:
        """The first instance whose term is the maximum, with its two sides."""
        best = None
        for x, V0, V1 in self.tb.parts(V):
            if best is None or self.term(V0, V1) > self.term(best[1], best[2]):
                best = (x, V0, V1)
        return best

    def ge_term(self, V0: int, V1: int):
        if self.kind == "ldim":
            return 1 + min(self.ge_value(V0), self.ge_value(V1))
        return (1 + self.ge_value(V0) + self.ge_value(V1)) / 2

    def ge_value(self, V: int):
        """The value the ``"ge"`` fact on ``V`` states: the true value, unless a lie below raised it."""
        if (V, "ge") in self.done:
            return Fraction(self.facts[self.done[V, "ge"]][2])
        if (V, "ge") not in self.values:
            self.values[V, "ge"] = max((self.ge_term(V0, V1) for _, V0, V1 in self.tb.parts(V)), default=0)
        return self.values[V, "ge"]

    def ge(self, V: int) -> int:
        if (V, "ge") not in self.done:
            w = max(self.tb.parts(V), key=lambda p: self.ge_term(p[1], p[2]), default=None)
            if w is None:
                k = self.add([self.tb.space(V), "ge", 0, None])
            else:
                x, V0, V1 = w
                f0, f1 = self.ge(V0), self.ge(V1)
                k = self.add([self.tb.space(V), "ge", self.text(self.ge_term(V0, V1)), [x, f0, f1]])
            self.done[V, "ge"] = k
        return self.done[V, "ge"]

    def le_entries(self, V: int, skip: Callable[[int], bool] = lambda x: False) -> list:
        entries = []
        for x, V0, V1 in self.tb.parts(V):
            if skip(x):
                continue
            if self.kind == "ldim":
                y, W = (0, V0) if self.le_value(V0) <= self.le_value(V1) else (1, V1)
                entries.append([x, y, self.le(W)])
            else:
                entries.append([x, self.le(V0), self.le(V1)])
        return entries

    def le_value(self, V: int):
        """The bound the ``"le"`` fact on ``V`` states: the true value, unless a lie below lowered it."""
        if (V, "le") in self.done:
            return Fraction(self.facts[self.done[V, "le"]][2])
        if (V, "le") not in self.values:
            if self.kind == "ldim":
                terms = (1 + min(self.le_value(V0), self.le_value(V1)) for _, V0, V1 in self.tb.parts(V))
            else:
                terms = ((1 + self.le_value(V0) + self.le_value(V1)) / 2 for _, V0, V1 in self.tb.parts(V))
            self.values[V, "le"] = max(terms, default=0)
        return self.values[V, "le"]

    def le(self, V: int) -> int:
        if (V, "le") not in self.done:
            value = self.le_value(V)
            entries = self.le_entries(V)
            self.done[V, "le"] = self.add([self.tb.space(V), "le", self.text(value), entries])
        return self.done[V, "le"]

    def ldim_fact(self, V: int, value: int | None = None) -> int:
        """An honest ``"ldim"`` fact on ``V`` in an ``"rldim"`` section (textbook step), at ``value`` if given."""
        if value is None and (V, "ldim") in self.done:
            return self.done[V, "ldim"]
        entries = []
        for x, V0, V1 in self.tb.parts(V):
            y, W = (0, V0) if self.tb.ldim(V0) <= self.tb.ldim(V1) else (1, V1)
            entries.append([x, y, self.ldim_fact(W)])
        k = self.add([self.tb.space(V), "ldim", self.tb.ldim(V) if value is None else value, entries])
        if value is None:
            self.done[V, "ldim"] = k
        return k

    def section(self, lower: int | None = None, upper: int | None = None, lower_value=None, upper_value=None) -> dict:
        claim = {}
        if lower is not None:
            claim["lower"] = [lower, self.facts[lower][2] if lower_value is None else lower_value]
        if upper is not None:
            claim["upper"] = [upper, self.facts[upper][2] if upper_value is None else upper_value]
        return {"result": self.kind, "facts": clone(self.facts), "claim": claim}


def _lie(kind: str, tb: Textbook, *sections: dict, why: str = "", expected: dict | None = None) -> Lie:
    return Lie(kind, tb.document(*sections), expected=expected, why=why)


# ---------------------------------------------------------------------------------- Ldim and RL
def _smaller(v, kind: str):
    """The largest value below ``v`` a fact of this kind can state (Ldim: v - 1; RL: a hair less)."""
    return v - 1 if kind == "ldim" else v - Fraction(1, 2 ** 12)


def _larger(v, kind: str):
    return v + 1 if kind == "ldim" else v + Fraction(1, 2 ** 12)


def _maps(tb: Textbook, V: int, W: int, rng: random.Random, tries: int = 6) -> Iterator[list]:
    """Maps from the instances splitting ``V`` to those splitting ``W`` that a careless check passes."""
    sv, sw = tb.splitting(V), tb.splitting(W)
    if not sv or not sw:
        return
    for _ in range(tries):
        yield [[x, rng.choice(sw), rng.randrange(2)] for x in sv]
    if len(sv) <= len(sw):
        yield [[x, z, 0] for x, z in zip(sv, rng.sample(sw, len(sv)))]


def recursion_lies(tb: Textbook, kind: str, rng: random.Random) -> Iterator[Lie]:
    """Lies about Ldim (``kind="ldim"``) or RL (``"rldim"``) at the root, one false step each."""
    full, prefix = tb.full, kind
    F = Facts(tb, kind)
    true = F.value(full)
    w = F.witness(full)
    # a lower bound one step too high: the witness and its honest sides, the value raised
    if w is not None:
        x, V0, V1 = w
        F = Facts(tb, kind)
        f0, f1 = F.ge(V0), F.ge(V1)
        k = F.add([tb.space(full), "ge", F.text(_larger(true, kind)), [x, f0, f1]])
        yield _lie(f"{prefix}.ge", tb, F.section(lower=k), why="the root's value raised over honest sides")
        # the sides cited from the wrong space, kind or order
        F = Facts(tb, kind)
        k0 = F.ge(full)
        if true > 0 and F.text(true) != 0:
            hi = F.text(_larger(true, kind))
            for cited, why in ((k0, "both sides cite the root's own fact"),):
                k = F.add([tb.space(full), "ge", hi, [x, cited, cited]])
                yield _lie(f"{prefix}.ge", tb, F.section(lower=k), why=why)
        F = Facts(tb, kind)
        k = len(F.facts)
        F.add([tb.space(full), "ge", F.text(_larger(true, kind)), [x, k, k]])
        yield _lie(f"{prefix}.ge", tb, F.section(lower=k), why="a fact citing itself")
    else:
        F = Facts(tb, kind)
        x = rng.randrange(tb.m) if tb.m else None
        k = F.add([tb.space(full), "ge", F.text(_larger(true, kind)), None])
        yield _lie(f"{prefix}.ge", tb, F.section(lower=k), why="a positive value with no step")
    # an upper bound one step too low
    if true > 0 or kind == "rldim":
        low = _smaller(true, kind)
        F = Facts(tb, kind)
        k = F.add([tb.space(full), "le", F.text(low), F.le_entries(full)])
        yield _lie(f"{prefix}.le", tb, F.section(upper=k), why="the root's bound lowered over honest sides")
        if w is not None:
            F = Facts(tb, kind)
            skip = {x for x, V0, V1 in tb.parts(full) if F.term(V0, V1) > low}
            entries = F.le_entries(full, skip=lambda x: x in skip)
            k = F.add([tb.space(full), "le", F.text(low), entries])
            yield _lie(f"{prefix}.le", tb, F.section(upper=k), why="the instances that need more left out")
            if entries:
                doubled = entries + [entries[0]] * len(skip)
                k = F.add([tb.space(full), "le", F.text(low), doubled])
                yield _lie(f"{prefix}.le", tb, F.section(upper=k), why="an answered instance in place of each left out")
        # log2 of the distinct rows, one too small
        F = Facts(tb, kind)
        d = tb.distinct(full)
        if kind == "ldim":
            b = d.bit_length() - 2  # 2^(b+1) <= d: refused, and b < floor(log2 d) may still be >= Ldim
            if 0 <= b < true:
                k = F.add([tb.space(full), "le", b, "log2"])
                yield _lie(f"{prefix}.log2", tb, F.section(upper=k))
        else:
            if low >= 0:
                k = F.add([tb.space(full), "le", F.text(_round_down(low)), "log2"])
                yield _lie(f"{prefix}.log2", tb, F.section(upper=k), why="RL <= log2 d / 2 > the value given")
                if w is not None:  # the witness's term bounded by its sides' log2
                    F = Facts(tb, kind)
                    entries = [[x, "log2"] for x in tb.splitting(full)]
                    k = F.add([tb.space(full), "le", F.text(_round_down(low)), entries])
                    yield _lie(f"{prefix}.le", tb, F.section(upper=k), why="every term by its sides' log2")
    if kind == "rldim":
        yield from _rl_by_ldim_lies(tb, rng)
        if true == 0:
            F = Facts(tb, kind)
            k = F.add([tb.space(full), "le", -1, []])
            yield _lie("rldim.le", tb, F.section(upper=k), why="a negative bound where nothing splits")
    # a claim that names a fact elsewhere, or states another value
    F = Facts(tb, kind)
    lower = F.ge(full)
    smaller = [V for V in {tb.part(full, x, y) for x in tb.splitting(full) for y in (0, 1)} if F.value(V) < true]
    if smaller:
        k = F.le(rng.choice(smaller))
        yield _lie(f"{prefix}.claim", tb, F.section(upper=k), why="the upper claim names a fact on a part")
    yield _lie(f"{prefix}.claim", tb, F.section(lower=lower, lower_value=F.text(_larger(true, kind))),
               why="the claim states a value its fact does not")
    yield from _map_lies(tb, kind, rng)
    yield from _empty_space_lies(tb, kind)
    if kind == "ldim":
        yield from _log2_entry_lies(tb)


def log2_entries(tb: Textbook, F: Facts, V: int, b: int, larger: bool = False, force: bool = False) -> list:
    """The entries of a fact ``Ldim(V) <= b`` answering each splitting instance in place, ``[x, y, "log2"]``,
    by its side of fewer distinct rows (of more with ``larger``) when that side holds fewer than ``2^b`` (always
    with ``force``), else by an honest fact on the side of lower Ldim; honest when ``b >= Ldim(V)`` and neither
    ``larger`` nor ``force``."""
    entries = []
    for x, V0, V1 in tb.parts(V):
        y = 0 if (tb.distinct(V0) <= tb.distinct(V1)) != larger else 1
        if force or tb.distinct((V0, V1)[y]) < 2 ** b:
            entries.append([x, y, "log2"])
        else:
            y, W = (0, V0) if tb.ldim(V0) <= tb.ldim(V1) else (1, V1)
            entries.append([x, y, F.le(W)])
    return entries


def _log2_entry_lies(tb: Textbook) -> Iterator[Lie]:
    """``Ldim <= L - 1`` at the root (``L`` the Ldim) with instances answered by in-place ``"log2"`` entries
    whose side holds ``2^(L-1)`` distinct rows or more (exactly that many in some classes: an off-by-one
    check accepts those; ``L = 1`` gives ``b = 0``); the side of more rows named; the entries that lie
    replaced by one for an instance that does not split the root (its side empty) or by a copy of one
    that does not lie."""
    full = tb.full
    L = tb.ldim(full)
    if L == 0:
        return
    b = L - 1
    lying = [x for x, V0, V1 in tb.parts(full) if min(tb.distinct(V0), tb.distinct(V1)) >= 2 ** b]
    for larger, why in ((False, "every instance by its smaller side's log2"), (True, "every instance by its larger "
                                                                                      "side's log2")):
        F = Facts(tb, "ldim")
        k = F.add([tb.space(full), "le", b, log2_entries(tb, F, full, b, larger, force=True)])
        yield _lie("ldim.log2-entry", tb, F.section(upper=k), why=f"{why}, the bound lowered to {b}")
    F = Facts(tb, "ldim")
    honest = [e for e in log2_entries(tb, F, full, b) if e[0] not in lying]
    constant = [z for z in range(tb.m) if z not in tb.splitting(full)]
    if constant:  # V_z^y empty: no row at all, fewer than 2^b
        z = constant[0]
        empty = 1 - int(tb.M[0, z])
        k = F.add([tb.space(full), "le", b, honest + [[z, empty, "log2"]] * len(lying)])
        yield _lie("ldim.log2-entry", tb, F.section(upper=k), why="an instance that does not split the root, its "
                                                                  "empty side by log2")
    passing = [e for e in honest if e[2] == "log2"]
    if passing:
        k = F.add([tb.space(full), "le", b, honest + [passing[0]] * len(lying)])
        yield _lie("ldim.log2-entry", tb, F.section(upper=k), why="an honest log2 entry in place of each that lies")


def _empty_space_lies(tb: Textbook, kind: str) -> Iterator[Lie]:
    """A space with no row: its parts are itself, so ``ge`` facts on it climb without end, and a part of a
    space on an instance that does not split it is that space or the empty one."""
    tb = Textbook(tb.M)  # a table of its own: the empty space must not reach other documents
    full = tb.full
    F0 = Facts(tb, kind)
    true = F0.value(full)
    singles = [V for V in tb.closure() if V.bit_count() == 1] or [full]
    V = singles[0]
    x = 0 if tb.m else None
    if x is None or tb.part(V, x, 0) and tb.part(V, x, 1):
        return
    F = Facts(tb, kind)
    empty = F.add([tb.space(0), "ge", 0, None])
    for _ in range(3):  # the empty space "shatters" a tree of any depth
        v = Fraction(F.facts[empty][2])
        empty = F.add([tb.space(0), "ge", F.text(v + 1 if kind == "ldim" else (1 + 2 * v) / 2), [x, empty, empty]])
    own = F.ge(V)
    sides = (own, empty) if tb.part(V, x, 0) else (empty, own)
    lift, mine = Fraction(F.facts[empty][2]), Fraction(F.facts[own][2])
    high = (1 + min(mine, lift)) if kind == "ldim" else (1 + mine + lift) / 2
    if V == full:
        k = F.add([tb.space(full), "ge", F.text(high), [x, *sides]])
    else:
        F.override(V, "ge", [tb.space(V), "ge", F.text(high), [x, *sides]])
        k = F.ge(full)
    if Fraction(F.facts[k][2]) > true:
        lie = _lie(f"{kind}.ge", tb, F.section(lower=k), why="a space with no row under an instance not splitting")
        lie.where = "space"
        yield lie


def _round_down(v: Fraction) -> Fraction:
    """``v`` rounded down to a denominator of at most 1024 (what the checker's log2 step reads)."""
    return Fraction(int(v * 1024), 1024)


def _rl_by_ldim_lies(tb: Textbook, rng: random.Random) -> Iterator[Lie]:
    """RL bounds through Ldim: ``L (1 - 2^(1-d))`` undercut, and Ldim facts that are themselves too small."""
    full = tb.full
    true, L, d = tb.rl(full), tb.ldim(full), tb.distinct(full)
    bound = L * (1 - Fraction(1, 2 ** (d - 1)))
    low = min(bound, true) - Fraction(1, 2 ** 12)
    if 0 <= low < true:
        F = Facts(tb, "rldim")
        k = F.add([tb.space(full), "le", F.text(low), ["ldim", F.ldim_fact(full)]])
        yield _lie("rldim.le", tb, F.section(upper=k), why="below L (1 - 2^(1-d))")
    if L >= 1:  # an Ldim bound one too small, then the RL bound it gives
        b = (L - 1) * (1 - Fraction(1, 2 ** (d - 1)))
        if b >= true:
            return
        for step, why in (("log2", "an Ldim bound too small by log2 (d >= 2^L always)"),
                          ("class", "'class' citing an ldim result that proves only L"),
                          ("step", "an Ldim step with a side too large")):
            F = Facts(tb, "rldim")
            lf = F.ldim_fact(full, value=L - 1) if step == "step" else F.add([tb.space(full), "ldim", L - 1, step])
            k = F.add([tb.space(full), "le", F.text(b), ["ldim", lf]])
            G = Facts(tb, "ldim")
            top = G.le(full)  # an honest ldim result first: 'class' may cite it, and it proves L, not L - 1
            yield _lie("rldim.ldim", tb, G.section(upper=top), F.section(upper=k), why=why)


def _map_lies(tb: Textbook, kind: str, rng: random.Random) -> Iterator[Lie]:
    """``"map"`` steps from a space of another value: relabellings that are not, and shifts that hide rows."""
    full = tb.full
    F0 = Facts(tb, kind)
    true = F0.value(full)
    spaces = sorted(tb.closure() - {full})
    lower = [W for W in spaces if F0.value(W) < true]
    higher = [W for W in spaces if F0.value(W) > 0]
    for W in rng.sample(lower, min(3, len(lower))):  # an upper bound on the root from a space of lower value
        for entries in _maps(tb, full, W, rng, tries=3):
            F = Facts(tb, kind)
            f = F.le(W)
            k = F.add([tb.space(full), "le", F.facts[f][2], ["map", f, entries]])
            yield _lie(f"{kind}.map", tb, F.section(upper=k), why="the root as a copy of a space of lower value")
    for W in rng.sample(lower, min(3, len(lower))):  # a map that leaves instances of the root out
        sv, sw = tb.splitting(full), tb.splitting(W)
        if sw and len(sv) > len(sw):
            entries = [[x, z, rng.randrange(2)] for x, z in zip(rng.sample(sv, len(sw)), sw)]
            F = Facts(tb, kind)
            f = F.le(W)
            k = F.add([tb.space(full), "le", F.facts[f][2], ["map", f, entries]])
            yield _lie(f"{kind}.map", tb, F.section(upper=k), why="a map that leaves out instances splitting the root")
    if kind == "ldim":  # genuine shifts (every row lands) whose columns do not correspond
        for V in spaces:
            low = (V & -V).bit_length() - 1  # V's rows start at ``low``: shifting by it loses none
            for shift in range(1, low + 1):
                W = V >> shift
                sv, sw = tb.splitting(V), tb.splitting(W) or [0]
                if tb.ldim(W) >= tb.ldim(V) or len(sv) < len(sw):
                    continue
                entries = [[x, z, rng.randrange(2)] for x, z in zip(sv, sw + [rng.choice(sw) for _ in sv])]
                F = Facts(tb, kind)
                f = F.le(W)
                F.override(V, "le", [tb.space(V), "le", F.facts[f][2], ["map", f, entries, shift]])
                k = F.le(full)
                if F.le_value(full) < true:
                    yield _lie("ldim.shift-map", tb, F.section(upper=k), why="rows that land, columns that do not")
                break
    if kind == "ldim":  # shifts: V shifted by k rows is W, but rows of V fall off the edge
        for V in [full] + spaces:
            for shift in range(1, V.bit_length()):
                W = V >> shift
                if not W or tb.ldim(W) == tb.ldim(V):
                    continue
                entries = _shift_entries(tb, V, W, shift)
                if entries is None:
                    continue
                side = "le" if tb.ldim(W) < tb.ldim(V) else "ge"
                F = Facts(tb, kind)
                f = F.le(W) if side == "le" else F.ge(W)
                F.override(V, side, [tb.space(V), side, F.facts[f][2], ["map", f, entries, shift]])
                k = F.le(full) if side == "le" else F.ge(full)  # the rest honest, over the false fact
                if (F.le_value(full) < true) if side == "le" else (F.ge_value(full) > true):
                    yield _lie("ldim.shift-map", tb, F.section(**{"upper" if side == "le" else "lower": k}),
                               why=f"rows of a space shifted off the edge by {shift} ({side})")
    # a lower bound on the root's witness sides from a space of higher value, copied onto a part
    w = F0.witness(full)
    if w is not None and higher:
        x, V0, V1 = w
        for side in (V0, V1):
            for W in rng.sample(higher, min(2, len(higher))):
                if F0.value(W) <= F0.value(side):
                    continue
                for entries in _maps(tb, side, W, rng, tries=2):
                    F = Facts(tb, kind)
                    f = F.ge(W)
                    fs = F.add([tb.space(side), "ge", F.facts[f][2], ["map", f, entries]])
                    other = F.ge(V1 if side == V0 else V0)
                    f0, f1 = (fs, other) if side == V0 else (other, fs)
                    v = F.term(V0, V1) if kind == "ldim" else None
                    if kind == "ldim":
                        v = 1 + min(F.facts[f0][2], F.facts[f1][2])
                    else:
                        v = (1 + Fraction(F.facts[f0][2]) + Fraction(F.facts[f1][2])) / 2
                    if v <= true:
                        continue
                    k = F.add([tb.space(full), "ge", F.text(v), [x, f0, f1]])
                    yield _lie(f"{kind}.map", tb, F.section(lower=k), why="a side as a copy of a space of higher value")
    F = Facts(tb, kind)
    if w is not None:
        f = F.ge(full)
        k = F.add([tb.space(full), "ge", F.text(_larger(true, kind)),
                   ["map", f, [[x, x, 0] for x in tb.splitting(full)]]])
        yield _lie(f"{kind}.map", tb, F.section(lower=k), why="a copy of itself, of a higher value")


def _shift_entries(tb: Textbook, V: int, W: int, shift: int) -> list | None:
    """Entries a column-by-column check of a shift accepts, if every instance of ``V`` finds one."""
    entries = []
    for x in tb.splitting(V):
        shifted = (V & tb.columns[x]) >> shift
        hit = next(([x, z, flip] for z in tb.splitting(W) for flip in (0, 1)
                    if shifted == tb.part(W, z, 1 - flip)), None)
        if hit is None:
            return None
        entries.append(hit)
    images = {e[1] for e in entries}
    for u in tb.splitting(W):
        a = W & tb.columns[u]
        if u not in images and not any(W & tb.columns[z] in (a, W ^ a) for z in images):
            return None
    return entries


# ---------------------------------------------------------------------------------- VC
def vc_lies(tb: Textbook, rng: random.Random) -> Iterator[Lie]:
    d = tb.vc()
    full = tb.full
    # a set one larger than any shattered one
    if d + 1 <= tb.m:
        for _ in range(3):
            xs = rng.sample(range(tb.m), d + 1)
            yield _lie("vc.lower", tb, {"result": "vc", "lower": xs})
        yield _lie("vc.lower", tb, {"result": "vc", "lower": [0] * (d + 1)}, why="one instance named twice")
    if d == 0:
        return
    b = d - 1
    # by ldim, with no ldim result or one that proves too little
    yield _lie("vc.by-ldim", tb, {"result": "vc", "upper": {"value": b, "by": "ldim"}})
    F = Facts(tb, "ldim")
    k = F.le(full)
    yield _lie("vc.by-ldim", tb, F.section(upper=k), {"result": "vc", "upper": {"value": b, "by": "ldim"}})
    # a laminar family: parents as a careless writer picks them, and b = 0
    parents = _parents(tb)
    yield _lie("vc.laminar", tb, {"result": "vc", "upper": {"value": max(b, 1) if d > 1 else 0, "by": "laminar",
                                                              "parents": parents}})
    if d >= 2:  # a chain has no siblings: only the nesting of each link refuses it
        yield _lie("vc.laminar", tb, {"result": "vc", "upper": {"value": 1, "by": "laminar",
                                                              "parents": list(range(-1, tb.m - 1))}},
                   why="every instance the child of the one before")
        if tb.m >= 3 and textbook_vcdim(tb.M[:, :-1]) <= 1:  # a family laminar but for the last instance
            chain = _parents(Textbook(tb.M[:, :-1]))
            yield _lie("vc.laminar", tb, {"result": "vc", "upper": {"value": 1, "by": "laminar", "parents": chain}},
                       why="one parent short: the last instance is never looked at")
    # the branch tree: honest for b = d - 1 except where it must lie
    first = {}
    for i, r in enumerate(tb.rows):
        first.setdefault(r, i)
    keep = sum(1 << i for i in first.values())
    cols = [c & keep for c in tb.columns]
    for cheat in ("cover", "rest"):
        tree = _vc_tree([], [keep], list(range(tb.m)), b, cols, cheat)
        yield _lie("vc.search", tb, {"result": "vc", "upper": {"value": b, "by": "search", "copies": [],
                                                              "tree": tree}}, why=f"a node cheats by its {cheat}")
    yield _lie("vc.search", tb, {"result": "vc", "upper": {"value": b, "by": "search", "copies": [], "tree": {}}},
               why="the root names none of the instances it must")
    # copies that are not copies, or that copy each other
    xs = list(range(tb.m))
    if len(xs) >= 2:
        x, z = rng.sample(xs, 2)
        if tb.columns[x] not in (tb.columns[z], tb.full ^ tb.columns[z]):
            allowed = [u for u in xs if u != x]
            if textbook_vcdim(tb.M[:, allowed]) < d:
                tree = _vc_tree([], [keep], allowed, b, cols, None)
                yield _lie("vc.search", tb, {"result": "vc", "upper": {"value": b, "by": "search",
                                                                      "copies": [[x, z]], "tree": tree}},
                           why="an instance dropped as a copy of another that it is not")
        for x, z in itertools.combinations(xs, 2):
            if tb.columns[x] in (tb.columns[z], tb.full ^ tb.columns[z]):
                allowed = [u for u in xs if u not in (x, z)]
                if textbook_vcdim(tb.M[:, allowed]) < d if allowed else d > 0:
                    tree = _vc_tree([], [keep], allowed, b, cols, None)
                    yield _lie("vc.search", tb, {"result": "vc", "upper": {"value": b, "by": "search",
                                                                          "copies": [[x, z], [z, x]], "tree": tree}},
                               why="two copies, each dropped as the other's")
                break


def _parents(tb: Textbook) -> list[int]:
    """For each instance, the smallest instance ranking above it whose rows (relative to row 0) hold its own."""
    N = [c ^ tb.full if c & 1 else c for c in tb.columns]
    parents = []
    for x in range(tb.m):
        above = [p for p in range(tb.m) if p != x and not N[x] & ~N[p]
                 and (N[p].bit_count(), -p) > (N[x].bit_count(), -x)]
        parents.append(min(above, key=lambda p: (N[p].bit_count(), -p)) if above else -1)
    return parents


def _vc_tree(S: list[int], cells: list[int], allowed: list[int], b: int, cols: list[int], cheat: str | None):
    """A branch tree for ``VCdim <= b``: every needed instance split on; where that cannot be true, a cheat."""
    X = {}
    for x in allowed:
        if all(0 != cell & cols[x] != cell for cell in cells):
            X[x] = min(min((cell & cols[x]).bit_count(), (cell & ~cols[x]).bit_count()) for cell in cells).bit_length()
    needed = sorted(x for x, g in X.items() if len(S) + g > b)
    if len(S) > b:  # a shattered set larger than b: no honest node exists
        return {} if cheat == "cover" else {"rest": needed} if cheat == "rest" else {}
    split = []
    for k, x in enumerate(needed):
        later = needed[k + 1:]
        c = cols[x]
        split.append([x, _vc_tree(S + [x], [p for cell in cells for p in (cell & c, cell & ~c)], later, b, cols,
                                  cheat)])
    return {"split": split} if split else {}


# ---------------------------------------------------------------------------------- worst case
@dataclass(eq=False)
class Table:
    """A learner as a table: predictions per state and instance, and transitions; its game's facts."""

    tb: Textbook
    preds: list[list]
    nxt: dict
    horizon: int | None

    def moves(self, V: int, s: int, r: int | None):
        """(x, y, gain, child) of every legal move but the no-ops (child None when no rounds are left)."""
        if r == 0:
            return
        for x in range(self.tb.m):
            for y in (0, 1):
                W = self.tb.part(V, x, y)
                if not W:
                    continue
                p = self.preds[s][x]
                t = self.nxt[s, x, y]
                if W == V and p == y and t == s:
                    continue
                yield x, y, abs(p - y), (None if r == 1 else (W, t, None if r is None else r - 1))

    @functools.lru_cache(maxsize=None)
    def value(self, V: int, s: int, r: int) -> Fraction:
        """The value of a position by plain recursion (a horizon ``r`` always; see :meth:`game_value`)."""
        return max((g + (0 if c is None else self.value(*c)) for _, _, g, c in self.moves(V, s, r)),
                   default=Fraction(0))

    def game_value(self, V: int, s: int, r: int | None):
        """The value; without a horizon, by value iteration over the positions reachable (infinite when
        it still grows after as many rounds as there are positions: a cycle that gains)."""
        if r is not None:
            return self.value(V, s, r)
        reach, todo = {(V, s)}, [(V, s)]
        while todo:
            for _, _, _, c in self.moves(*todo.pop(), None):
                if c[:2] not in reach:
                    reach.add(c[:2])
                    todo.append(c[:2])
        v = {pos: Fraction(0) for pos in reach}
        for _ in range(len(reach) + 1):
            new = {pos: max((g + v[c[:2]] for _, _, g, c in self.moves(*pos, None)), default=Fraction(0))
                   for pos in reach}
            if new == v:
                return v[V, s]
            v = new
        return float("inf")

    def states(self) -> list:
        return [[[_text(p) for p in row], [[x, y, self.nxt[s, x, y]] for x in range(self.tb.m) for y in (0, 1)], "0"]
                for s, row in enumerate(self.preds)]

    def section(self, facts: list, claim: dict, learner: str = "Table") -> dict:
        return {"result": "worst-case", "learner": learner, "horizon": self.horizon, "states": self.states(),
                "facts": clone(facts), "claim": clone(claim)}


def _text(v) -> int | str:
    v = Fraction(v)
    return int(v) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"


def random_table(tb: Textbook, rng: random.Random, horizon: int | None, states: int = 3) -> Table:
    k = rng.randint(1, states)
    choices = [Fraction(0), Fraction(1), Fraction(1, 2), Fraction(1, 4)]
    preds = [[rng.choice(choices) for _ in range(tb.m)] for _ in range(k)]
    nxt = {(s, x, y): rng.randrange(k) for s in range(k) for x in range(tb.m) for y in (0, 1)}
    return Table(tb, preds, nxt, horizon)


def halving_table(tb: Textbook, horizon: int | None) -> Table:
    """Halving as a table: a state per space the recursion reaches, predicting its majority (1 on a tie)."""
    spaces = sorted(tb.closure(), key=lambda V: (V != tb.full, V))
    index = {V: s for s, V in enumerate(spaces)}
    preds = [[Fraction(int(2 * tb.part(V, x, 1).bit_count() >= V.bit_count())) for x in range(tb.m)] for V in spaces]
    nxt = {(s, x, y): index.get(tb.part(V, x, y), s) for s, V in enumerate(spaces) for x in range(tb.m)
           for y in (0, 1)}
    return Table(tb, preds, nxt, horizon)


def worst_case_lies(tb: Textbook, rng: random.Random) -> Iterator[Lie]:
    if tb.m == 0:
        return
    for horizon in (1, 2, 3):
        T = random_table(tb, rng, horizon)
        root = (tb.full, 0, horizon)
        facts, where = [], {}

        def fact(pos, kind, value, step):
            facts.append([tb.space(pos[0]), pos[1], pos[2], kind, _text(value), step])
            where[pos, kind] = len(facts) - 1
            return len(facts) - 1

        def le(pos):  # honest le facts, children first
            if (pos, "le") not in where:
                for _, _, _, c in T.moves(*pos):
                    if c is not None:
                        le(c)
                fact(pos, "le", T.value(*pos), None)
            return where[pos, "le"]

        def ge(pos):  # honest ge facts along the best line
            if (pos, "ge") not in where:
                best = max(T.moves(*pos), key=lambda mv: mv[2] + (0 if mv[3] is None else T.value(*mv[3])),
                           default=None)
                if best is None:
                    return fact(pos, "ge", 0, None)
                x, y, _, c = best
                if c is not None:
                    ge(c)
                fact(pos, "ge", T.value(*pos), [x, y])
            return where[pos, "ge"]

        true = T.value(*root)
        k = le(root)
        top = fact(root, "le", true - Fraction(1, 8), None)
        yield _lie("worst-case.le", tb, T.section(facts, {"upper": [top, _text(true - Fraction(1, 8))]}),
                   why="the root's bound lowered over honest children")
        facts.clear(), where.clear()
        k = ge(root)
        up = true + Fraction(1, 8)
        step = facts[k][5]
        top = fact(root, "ge", up, step)
        yield _lie("worst-case.ge", tb, T.section(facts, {"lower": [top, _text(up)]}),
                   why="the root's value raised over its honest line")
        facts.clear(), where.clear()
        top = fact(root, "ge", up, None) if up > 0 else None
        if top is not None:
            yield _lie("worst-case.ge", tb, T.section(facts, {"lower": [top, _text(up)]}), why="a value with no step")
        # an illegal move: a label no row of the space gives, where the prediction is wrong
        for x in range(tb.m):
            y = next((y for y in (0, 1) if not tb.part(tb.full, x, y)), None)
            if y is not None and T.preds[0][x] != y and horizon == 1:
                facts.clear(), where.clear()
                top = fact(root, "ge", true + abs(T.preds[0][x] - y), [x, y]) if abs(
                    T.preds[0][x] - y) + 0 > true else None
                if top is not None:
                    yield _lie("worst-case.ge", tb, T.section(facts, {"lower": [top, facts[top][4]]}),
                               why="a move no hypothesis allows")
                break
        # the rounds bound below the rounds, and a cycle claimed with a horizon
        facts.clear(), where.clear()
        if true > horizon - 1:
            top = fact(root, "le", horizon - 1, "rounds")
            yield _lie("worst-case.rounds", tb, T.section(facts, {"upper": [top, horizon - 1]}))
        # a prediction above 1 makes a round gain more than 1: the rounds bound would be false
        T2 = Table(tb, [list(row) for row in T.preds], T.nxt, horizon)
        x = rng.randrange(tb.m)
        T2.preds[0][x] = Fraction(2)
        T2.value.cache_clear()
        if T2.value(*root) > horizon:
            facts.clear(), where.clear()
            top = fact(root, "le", horizon, "rounds")
            yield _lie("worst-case.table", tb, T2.section(facts, {"upper": [top, horizon]}),
                       why="a prediction of 2 gains 2 in a round")
        # the claim names a fact away from the root
        facts.clear(), where.clear()
        le(root)
        away = [pos for (pos, kind) in where if kind == "le" and pos != root and T.value(*pos) < true]
        if away:
            k = where[away[0], "le"]
            yield _lie("worst-case.claim", tb, T.section(facts, {"upper": [k, facts[k][4]]}),
                       why="the upper claim names a fact off the root")
    T = random_table(tb, rng, 0)  # no round left: the value is 0, not below
    facts = [[tb.space(tb.full), 0, 0, "le", "-1/8", None]]
    yield _lie("worst-case.le", tb, T.section(facts, {"upper": [0, "-1/8"]}), why="a negative bound with no round left")
    # without a horizon, Halving's table (finite: each mistake halves the space): cycles that do not
    # come back, or come back having gained nothing, and a cycle under a horizon
    T = halving_table(tb, None)
    root = (tb.full, 0, None)
    moves = list(T.moves(*root))
    if moves:
        x, y, _, _ = moves[0]
        facts = [[tb.space(tb.full), 0, None, "ge", "inf", ["cycle", [[x, y]]]]]
        yield _lie("worst-case.cycle", tb, T.section(facts, {"lower": [0, "inf"]}),
                   why="one move, claimed to be a cycle that gains")
        T1 = halving_table(tb, 2)
        facts = [[tb.space(tb.full), 0, 2, "ge", "inf", ["cycle", [[x, y]]]]]
        yield _lie("worst-case.cycle", tb, T1.section(facts, {"lower": [0, "inf"]}), why="a cycle under a horizon")
    for x in range(tb.m):  # a move that keeps the space and the state: it comes back, having gained nothing
        y = tb.M[0, x]
        if not tb.part(tb.full, x, 1 - y) and T.preds[0][x] == y:
            facts = [[tb.space(tb.full), 0, None, "ge", "inf", ["cycle", [[x, int(y)]]]]]
            yield _lie("worst-case.cycle", tb, T.section(facts, {"lower": [0, "inf"]}),
                       why="a cycle that gains nothing")
            break


# ---------------------------------------------------------------------------------- class and header
def identity_lies(tb: Textbook, rng: random.Random) -> Iterator[Lie]:
    """Certificates checked against a class they do not speak of, and headers outside the grammar."""
    F = Facts(tb, "ldim")
    k_lo, k_hi = F.ge(tb.full), F.le(tb.full)
    honest_doc = tb.document(F.section(lower=k_lo, upper=k_hi))
    wider = Textbook(np.column_stack([tb.M, np.zeros(tb.n, dtype=np.uint8)]))
    yield Lie("class", honest_doc, expected=wider.cls(), why="the class given has a trailing all-zero column")
    if tb.m:
        renamed = clone(tb.cls())
        renamed["domain"] = [f"x{j}" for j in range(tb.m)]
        yield Lie("class", honest_doc, expected=renamed, why="the class given names its instances otherwise")
        if tb.m >= 2:
            swapped = tb.cls()
            swapped["domain"] = tb.domain[1::-1] + tb.domain[2:]
            yield Lie("class", honest_doc, expected=swapped, why="two instances swapped in the domain")
    if len(set(tb.hex)) > 1:
        other = tb.cls()
        other["rows"] = tb.hex[::-1] if tb.hex[::-1] != tb.hex else tb.hex[1:] + tb.hex[:1]
        yield Lie("class", honest_doc, expected=other, why="the rows of the class given differ")
    # a class section whose hash names other rows: the statement would name the wrong class
    if tb.m and tb.n >= 2:
        M2 = tb.M.copy()
        M2[0] ^= 1
        tb2 = Textbook(M2)
        F2 = Facts(tb2, "ldim")
        lo, hi = F2.ge(tb2.full), F2.le(tb2.full)
        doc = tb2.document(F2.section(lower=lo, upper=hi))
        doc["class"]["sha256"] = tb.cls()["sha256"]
        yield Lie("class", doc, why="the hash of another class")
    # a row declared and not given: a checker that builds its columns from the rows given reads it
    # as a row of zeros, and proves things of a class the hash does not name
    zero = np.zeros((1, tb.m), dtype=np.uint8)
    if tb.m and not (tb.M == 0).all(axis=1).any():
        plus = Textbook(np.vstack([tb.M, zero]))
        if plus.ldim(plus.full) > tb.ldim(tb.full):
            G = Facts(plus, "ldim")
            doc = plus.document(G.section(lower=G.ge(plus.full)))
            doc["class"] = {**tb.cls(), "n_hypotheses": tb.n + 1}
            yield Lie("class", doc, why="a row declared and not given, read as a row of zeros")
    # the honest document with its header or keys outside the grammar
    for version, why in ((True, "version true"), (2.0, "version 2.0"), ("2", "version '2'"), (1, "version 1")):
        doc = clone(honest_doc)
        doc["version"] = version
        yield Lie("header", doc, why=why)
    doc = clone(honest_doc)
    doc["setting"] = {"noise": 1}
    yield Lie("header", doc, why="a key the checker does not know (a setting it would ignore)")
    doc = clone(honest_doc)
    doc["results"][0]["setting"] = "bandit"
    yield Lie("header", doc, why="a section key the checker does not know")
    # a key given twice: a reader keeping the first would see another document
    lie_doc = clone(honest_doc)
    lie_doc["results"][0]["claim"]["lower"] = [k_lo, _larger(F.facts[k_lo][2], "ldim")]
    text = json.dumps(honest_doc)
    twice = text[:-1] + ', "results": ' + json.dumps(lie_doc["results"]) + "}"
    yield Lie("header", None, text=twice, why="'results' given twice")
    twice_class = text[:-1] + ', "class": ' + json.dumps(wider.cls()) + "}"
    yield Lie("header", None, text=twice_class, why="'class' given twice")


def table_facts(T: Table, root: tuple) -> tuple[list, int]:
    """Honest ``le`` facts at every position reachable from ``root`` (children first); the root's fact."""
    facts, where = [], {}

    def le(pos):
        if pos not in where:
            for _, _, _, c in T.moves(*pos):
                if c is not None:
                    le(c)
            facts.append([T.tb.space(pos[0]), pos[1], pos[2], "le", _text(T.value(*pos)), None])
            where[pos] = len(facts) - 1
        return where[pos]

    return facts, le(root)


def honest_documents(tb: Textbook) -> dict[str, dict]:
    """One honest certificate per kind of section: ``"ldim"``, ``"rldim"``, ``"vc"``, ``"worst-case"``."""
    F = Facts(tb, "ldim")
    lo, hi = F.ge(tb.full), F.le(tb.full)
    R = Facts(tb, "rldim")
    rlo, rhi = R.ge(tb.full), R.le(tb.full)
    rl = R.section(lower=rlo, upper=rhi)
    rl["facts"].append([tb.space(tb.full), "ldim", tb.ldim(tb.full), "class"])  # an Ldim fact citing the result
    out = {"ldim": tb.document(F.section(lower=lo, upper=hi)),
           "rldim": tb.document(F.section(lower=lo, upper=hi), rl)}
    first: dict[int, int] = {}
    for i, r in enumerate(tb.rows):
        first.setdefault(r, i)
    keep = sum(1 << i for i in first.values())
    d = tb.vc()
    shattered = next(list(xs) for xs in itertools.combinations(range(tb.m), d)
                     if len({tuple(row[list(xs)]) for row in tb.M}) == 2 ** d)
    tree = _vc_tree([], [keep], list(range(tb.m)), d, [c & keep for c in tb.columns], None)
    out["vc"] = tb.document({"result": "vc", "lower": shattered,
                             "upper": {"value": d, "by": "search", "copies": [], "tree": tree}})
    if tb.m:
        for horizon, name in ((2, "worst-case"), (1, "worst-case 1")):
            T = halving_table(tb, horizon)
            facts, k = table_facts(T, (tb.full, 0, horizon))
            out[name] = tb.document(T.section(facts, {"upper": [k, facts[k][4]]}, learner="Halving"))
    return out


def honest(tb: Textbook, rng: random.Random) -> Iterator[Lie]:
    """Honest certificates of each kind, which must be accepted (a checker refusing all is useless)."""
    for doc in honest_documents(tb).values():
        yield Lie("honest", doc, expected=tb.cls(), accept=True)
    F = Facts(tb, "ldim")  # the upper side answered in place wherever a side holds few enough rows
    L = tb.ldim(tb.full)
    k = F.add([tb.space(tb.full), "le", L, log2_entries(tb, F, tb.full, L)])
    yield Lie("honest", tb.document(F.section(upper=k)), expected=tb.cls(), accept=True, why="log2 entries")
    if tb.m:
        T = random_table(tb, rng, 2)
        facts, k = table_facts(T, (tb.full, 0, 2))
        yield Lie("honest", tb.document(T.section(facts, {"upper": [k, facts[k][4]]})), accept=True)


def _hostile_cases(tb: Textbook, docs: dict) -> list[tuple[str, str, Callable[[dict], object]]]:
    """``(kind of document, what is wrong, the edit)``: each edit makes one departure from the grammar
    (an edit returning False does not apply to this class)."""
    n, m = tb.n, tb.m
    lf = docs["ldim"]["results"][0]["facts"]
    ge_step = next((k for k, f in enumerate(lf) if f[1] == "ge" and isinstance(f[3], list)), None)
    le_step = next((k for k, f in enumerate(lf) if f[1] == "le" and f[3]), None)
    split = tb.splitting(tb.full)
    digits = (1100 + n + m) // 3 + 1

    def facts(d):
        return d["results"][0]["facts"]

    def rl(d):
        return d["results"][1]

    def sec(d):
        return d["results"][0]

    def upper(d):
        return sec(d)["claim"]["upper"][0]

    def state(d):
        return sec(d)["states"][0]

    def legal(y_for_0: int) -> int:
        return y_for_0 if tb.part(tb.full, 0, y_for_0) else 1 - y_for_0

    return [
        # the document and the class
        ("ldim", "two 'ldim' results", lambda d: d["results"].append(clone(sec(d)))),
        ("ldim", "n_hypotheses true", lambda d: d["class"].__setitem__("n_hypotheses", True)),
        ("ldim", "one row more declared than given", lambda d: d["class"].__setitem__("n_hypotheses", n + 1)),
        ("ldim", "n_instances 10^7 and rows as they were", lambda d: d["class"].__setitem__("n_instances", 10 ** 7)),
        ("ldim", "a domain one short", lambda d: d["class"]["domain"].pop() if m else False),
        ("ldim", "an instance twice in the domain", lambda d: d["class"]["domain"].__setitem__(-1, 0) if m > 1
         else False),
        ("ldim", "a NaN in the domain (a document given in memory)", lambda d: d["class"]["domain"].__setitem__(
            0, float("nan")) if m else False),
        ("ldim", "a set in the domain", lambda d: d["class"]["domain"].__setitem__(0, {1, 2}) if m else False),
        ("ldim", "a row with a leading zero", lambda d: d["class"]["rows"].__setitem__(0, "0" + d["class"]["rows"][0])),
        ("ldim", "a row in upper case", lambda d: d["class"]["rows"].__setitem__(0, "A") if m >= 4 else False),
        ("ldim", "a row labelling instance m", lambda d: d["class"]["rows"].__setitem__(0, format(1 << m, "x"))
         if m % 4 else False),
        ("ldim", "a row of 10^5 hex digits", lambda d: d["class"]["rows"].__setitem__(0, "f" * 100000)),
        # the spaces
        ("ldim", "a space naming row n", lambda d: d["spaces"].append(format(1 << n, "x")) if n % 4 else False),
        ("ldim", "a space of 10^5 hex digits", lambda d: d["spaces"].append("f" * 100000)),
        ("ldim", "a space '0x3'", lambda d: d["spaces"].append("0x3")),
        ("ldim", "a space ' 3'", lambda d: d["spaces"].append(" 3")),
        ("ldim", "a part labelled true", lambda d: d["spaces"].append([0, 0, True]) if m else False),
        ("ldim", "a part of a space listed after it", lambda d: d["spaces"].append([len(d["spaces"]), 0, 0])
         if m else False),
        ("ldim", "a fact on space -1", lambda d: facts(d).append([-1, "ge", 0, None])),
        ("ldim", "a fact on space true", lambda d: facts(d).append([True, "ge", 0, None])),
        # values
        ("ldim", "a log2 bound of 10^20", lambda d: facts(d).append([0, "le", 10 ** 20, "log2"])),
        ("ldim", "a log2 bound of 10^11", lambda d: facts(d).append([0, "le", 10 ** 11, "log2"])),
        ("ldim", "a value of true", lambda d: facts(d).append([0, "le", True, "log2"])),
        ("ldim", "a value of 1.0", lambda d: facts(d).append([0, "le", 1.0, "log2"])),
        ("rldim", "an RL bound of 10^2000", lambda d: rl(d)["facts"].append([0, "le", 10 ** 2000, "log2"])),
        ("rldim", "an RL bound with 1.4 times the digits a value needs",
         lambda d: rl(d)["facts"].append([0, "le", "7" * int(1.4 * digits) + "/2", "log2"])),
        # claims
        ("ldim", "a claim with another key", lambda d: sec(d)["claim"].__setitem__("exact", 1)),
        ("ldim", "a claim naming fact true", lambda d: sec(d)["claim"].__setitem__("upper", [True, 0])),
        ("ldim", "a claim of one element", lambda d: sec(d)["claim"].__setitem__("upper", [upper(d)])),
        # steps of the recursion
        ("ldim", "a shift of -10^12 rows", lambda d: facts(d).append(
            [0, "le", facts(d)[upper(d)][2], ["map", upper(d), [], -10 ** 12]])),
        ("ldim", "a shift of 10^12 rows", lambda d: facts(d).append(
            [0, "le", facts(d)[upper(d)][2], ["map", upper(d), [], 10 ** 12]])),
        ("ldim", "a map entry of two elements", lambda d: facts(d).append(
            [0, "le", facts(d)[upper(d)][2], ["map", upper(d), [[x, x] for x in split]]]) if split else False),
        ("ldim", "a map entry flipped by 2", lambda d: facts(d).append(
            [0, "le", facts(d)[upper(d)][2], ["map", upper(d), [[x, x, 2] for x in split]]]) if split else False),
        ("ldim", "a fact of kind 'lt'", lambda d: facts(d).append([0, "lt", 0, None])),
        ("ldim", "a fact of five elements", lambda d: facts(d).append([0, "ge", 0, None, None])),
        ("ldim", "ge 0 with a step", lambda d: facts(d).append([0, "ge", 0, [0, 0, 0]])),
        ("ldim", "a ge step on instance x - m", lambda d: facts(d)[ge_step][3].__setitem__(
            0, facts(d)[ge_step][3][0] - m) if ge_step is not None else False),
        ("ldim", "an le entry labelled true", lambda d: facts(d)[le_step][3][0].__setitem__(1, True)
         if le_step is not None and facts(d)[le_step][3][0][1] == 1 else False),
        ("ldim", "an le entry of two elements", lambda d: facts(d)[le_step][3][0].pop()
         if le_step is not None else False),
        ("ldim", "a section key the checker does not know", lambda d: sec(d).__setitem__("setting", 1)),
        # the randomized recursion
        ("rldim", "an rldim key the checker does not know", lambda d: rl(d).__setitem__("noise", 1)),
        ("rldim", "an rldim fact of kind 'lt'", lambda d: rl(d)["facts"].append([0, "lt", 0, "log2"])),
        ("rldim", "an Ldim fact of value 1/2", lambda d: rl(d)["facts"].append([0, "ldim", "1/2", "class"])),
        # VC
        ("vc", "a vc key the checker does not know", lambda d: sec(d).__setitem__("setting", 1)),
        ("vc", "an upper side with another key", lambda d: sec(d)["upper"].__setitem__("exact", 1)),
        ("vc", "a laminar parent true", lambda d: sec(d).__setitem__(
            "upper", {"value": 1, "by": "laminar", "parents": [True] * m})),
        ("vc", "a laminar parent m", lambda d: sec(d).__setitem__(
            "upper", {"value": 1, "by": "laminar", "parents": [m] * m})),
        ("vc", "a node with another key", lambda d: sec(d)["upper"]["tree"].__setitem__("why", 1)),
        ("vc", "a split of three elements", lambda d: sec(d)["upper"]["tree"]["split"][0].append(0)
         if sec(d)["upper"]["tree"].get("split") else False),
        ("vc", "a rest naming instance m", lambda d: sec(d)["upper"]["tree"].setdefault("rest", []).append(m)),
        ("vc", "a needed instance split on twice", lambda d: sec(d)["upper"]["tree"]["split"].append(
            clone(sec(d)["upper"]["tree"]["split"][0])) if sec(d)["upper"]["tree"].get("split") else False),
        # the worst case's table
        ("worst-case", "no state", lambda d: sec(d).__setitem__("states", [])),
        ("worst-case", "a state of two parts", lambda d: state(d).pop()),
        ("worst-case", "one prediction too many", lambda d: state(d)[0].append(0)),
        ("worst-case", "predictions as text with a '?'", lambda d: state(d).__setitem__(0, "?" * m)),
        ("worst-case", "a transition of two elements", lambda d: state(d)[1][0].pop()),
        ("worst-case", "a transition on instance -1", lambda d: state(d)[1][0].__setitem__(0, -1)),
        ("worst-case", "a transition labelled true", lambda d: state(d)[1][0].__setitem__(1, True)
         if state(d)[1][0][1] == 1 else state(d)[1][1].__setitem__(1, True)),
        ("worst-case", "a transition to a state not listed", lambda d: state(d)[1][0].__setitem__(
            2, len(sec(d)["states"]))),
        ("worst-case", "a transition given twice", lambda d: state(d)[1].append(list(state(d)[1][0]))),
        ("worst-case", "a stay and a transition on one label", lambda d: state(d).__setitem__(2, "1")),
        ("worst-case", "a stay 'x1'", lambda d: state(d).__setitem__(2, "x1")),
        ("worst-case", "a stay naming instance m", lambda d: state(d).__setitem__(2, format(1 << m, "x"))
         if m % 4 else False),
        ("worst-case", "a stay on an instance predicted 1/2", lambda d: (
            state(d)[0].__setitem__(0, "1/2"), state(d).__setitem__(1, [t for t in state(d)[1] if t[0] != 0]),
            state(d).__setitem__(2, "1"))),
        ("worst-case", "a worst-case key the checker does not know", lambda d: sec(d).__setitem__("setting", 1)),
        ("worst-case", "a learner named 5", lambda d: sec(d).__setitem__("learner", 5)),
        ("worst-case", "a learner of 2,000 characters", lambda d: sec(d).__setitem__("learner", "H" * 2000)),
        ("worst-case", "a prediction not recorded, then played", lambda d: (
            state(d)[0].__setitem__(0, None), sec(d)["facts"].insert(0, [0, 0, 1, "ge", 0, [0, legal(0)]]))),
        ("worst-case", "a transition not recorded, then played", lambda d: (
            state(d).__setitem__(1, []), sec(d)["facts"].insert(0, [0, 0, 2, "ge", 0, [0, legal(0)]]))),
        ("worst-case", "an le fact whose children have none", lambda d: sec(d).__setitem__(
            "facts", [[0, 0, 2, "le", 2, None]])),
        ("worst-case", "a fact of five elements", lambda d: sec(d)["facts"].append([0, 0, 2, "ge", 0])),
        ("worst-case", "a fact in state true", lambda d: sec(d)["facts"].append([0, True, 2, "ge", 0, None])),
        ("worst-case", "a fact with no rounds under a horizon", lambda d: sec(d)["facts"].append(
            [0, 0, None, "ge", 0, None])),
        ("worst-case", "a fact with more rounds than the horizon", lambda d: sec(d)["facts"].append(
            [0, 0, 3, "ge", 0, None])),
        ("worst-case", "a horizon of 10^400", lambda d: sec(d).__setitem__("horizon", 10 ** 400)),
        ("worst-case 1", "a horizon of true", lambda d: sec(d).__setitem__("horizon", True)),
        ("worst-case", "states 5", lambda d: sec(d).__setitem__("states", 5)),
        ("worst-case", "a stay of 10^5 hex digits", lambda d: state(d).__setitem__(2, "f" * 100000)),
    ] + [
        ("rldim", f"the fraction {text[:12]!r}", lambda d, text=text: rl(d)["facts"].append([0, "ge", text, None]))
        for text in ("1/²", "1/0", "2/4", "01/2", "-0/3", "1/2/3", "١/٢", "1 /2", "+1/2", "3/1", "9" * 5000 + "/2",
                     "1/" + "9" * 5000, "inf", "nan", "1e3", "0x1/2")
    ] + [
        ("worst-case", f"a prediction {p!r}", lambda d, p=p: state(d).__setitem__(0, [p] * m))
        for p in ("1/²", "3/2", True, 1.0, "-1/2", "2/4")
    ]


def hostile(tb: Textbook, rng: random.Random) -> Iterator[Lie]:
    """Documents outside the grammar, one departure each from an honest one: each must be refused by
    name, and none may crash the checker or exhaust its memory or time.  An edit of the class is
    hashed again, so that the hash does not refuse it first."""
    docs = honest_documents(tb)
    for kind, why, change in _hostile_cases(tb, docs):
        if kind not in docs:
            continue
        doc = clone(docs[kind])
        if change(doc) is False:
            continue
        cls = doc["class"]
        if cls != docs[kind]["class"] and isinstance(cls.get("rows"), list) and isinstance(cls.get("domain"), list):
            try:
                cls["sha256"] = class_hash(cls["rows"], cls["domain"])
            except (TypeError, ValueError):  # a value JSON cannot hold: the hash cannot be computed either
                pass
        yield Lie("grammar", doc, why=why)


# ---------------------------------------------------------------------------------- the campaign
#: Every generator of the campaign, with the oracle's judgement built in.
GENERATORS: list[Callable[[Textbook, random.Random], Iterator[Lie]]] = [
    lambda tb, rng: recursion_lies(tb, "ldim", rng),
    lambda tb, rng: recursion_lies(tb, "rldim", rng),
    vc_lies, worst_case_lies, identity_lies, hostile, honest,
    lambda tb, rng: (Lie(kind, doc, accept=kind == "honest", why=why) for kind, doc, why in game_documents(tb.M, rng)),
    lambda tb, rng: (Lie(kind, doc, accept=kind == "honest", why=why) for kind, doc, why in parameter_documents(tb.M, rng)),
    lambda tb, rng: (Lie(kind, doc, accept=kind == "honest", why=why) for kind, doc, why in teaching_documents(tb.M, rng)),
    lambda tb, rng: (Lie(kind, doc, accept=kind == "honest", why=why) for kind, doc, why in order_documents(tb.M, rng)),
]


def lies(M: np.ndarray, seed: int = 0) -> list[Lie]:
    """Every lie, hostile document and honest certificate the generators build for the class ``M``.

    Every lie is judged false by the oracle (:func:`judge`) before it is returned: a generator
    that built a true statement would test nothing.
    """
    tb = Textbook(M)
    rng = random.Random(seed)
    out = [lie for make in GENERATORS for lie in make(tb, rng)]
    for lie in out:
        assert judge(lie), (lie.kind, lie.why, M.tolist())
    return out


def shift_prone(A: np.ndarray, B: np.ndarray, perm: list[int], flips: list[int]) -> np.ndarray:
    """Rows ``A``, then ``B``, then ``A`` with its columns permuted and flipped: shifted by ``len(A) + len(B)``
    rows, the last block lands on ``A`` column for column, so a check of a shift that compares columns
    only, and not that every row lands, takes the whole class for a copy of ``A``."""
    C = A[:, perm] ^ np.array(flips, dtype=np.uint8)
    return np.vstack([A, B, C]).astype(np.uint8)


#: Classes where a careless check lets a particular lie through: the four rows of issue 21 (a shift that
#: hides rows), a family laminar but for its last instance, a space whose rows land on another's by a
#: shift while its columns do not correspond.
SPECIMENS = [
    np.array([[0, 0], [0, 1], [1, 1], [1, 0]], dtype=np.uint8),
    np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 0, 1], [1, 0, 1]], dtype=np.uint8),
    np.array([[1, 0, 1], [1, 0, 1], [1, 1, 0], [0, 1, 0], [1, 0, 0]], dtype=np.uint8),
]


def classes(count: int, seed: int = 0, *, max_rows: int = 7, max_cols: int = 4) -> list[np.ndarray]:
    """:data:`SPECIMENS`, then ``count`` small classes, seeded: random tables with duplicated rows and
    columns in, and one in five :func:`shift_prone`."""
    rng = np.random.default_rng(seed)
    out = [M.copy() for M in SPECIMENS]
    for i in range(count):
        n, m = int(rng.integers(1, max_rows + 1)), int(rng.integers(1, max_cols + 1))
        if i % 5 == 4:
            a, b = int(rng.integers(2, 4)), int(rng.integers(0, 3))
            A, B = (rng.integers(0, 2, size=(k, m), dtype=np.uint8) for k in (a, b))
            A[0], A[1] = A[1] ^ 1, A[1]  # every column splits A: its copy's columns can land on A's
            out.append(shift_prone(A, B, [int(v) for v in rng.permutation(m)], [int(v) for v in rng.integers(0, 2, m)]))
            continue
        M = rng.integers(0, 2, size=(n, m), dtype=np.uint8)
        if rng.random() < 0.3 and n > 1:
            M[-1] = M[0]
        if rng.random() < 0.3 and m > 1:
            M[:, -1] = M[:, 0] if rng.random() < 0.5 else 1 - M[:, 0]
        out.append(M)
    return out


def judge(lie: Lie) -> bool:
    """Whether the oracle finds the document's statement false (or its class not the class given)."""
    if lie.kind in ("header", "grammar", "honest"):
        return True  # refused by the grammar whatever it states
    doc = lie.document
    M = _matrix(doc["class"])
    tb = Textbook(M, doc["class"]["domain"])
    if lie.expected is not None and lie.expected != doc["class"]:
        return True
    if lie.kind == "class":  # the hash names another class, or the rows are not the class declared
        cls = doc["class"]
        return (cls["sha256"] != class_hash(cls["rows"], cls["domain"], cls.get("labels"))
                or cls["n_hypotheses"] != len(cls["rows"]))
    spaces = _spaces(doc, tb)
    for section in doc["results"]:
        kind, claim = section["result"], section.get("claim", {})
        if kind.startswith("value-"):  # the game's value under the rules the section states, by brute force
            rules, rows = section["rules"], rows_of(doc["class"])
            if kind == "value-horizon":
                truth = oblivious_oracle(rows, rules["labels"], rules["feedback"], rules["noise"], section["horizon"],
                                         adaptive=rules["adaptive"])  # in floating point: a lie is off by HAIR or more
                if float(Fraction(claim["lower"])) > truth + 1e-9 or float(Fraction(claim["upper"])) < truth - 1e-9:
                    return True
                continue
            if rules["randomized"] and rules["feedback"] == "bandit":
                true = bandit_randomized_oracle(rows, rules["labels"], rules["noise"])
            elif rules["randomized"]:
                true = randomized_oracle(rows, rules["labels"], rules["noise"])
            else:
                true = oracle(rows, rules["labels"], rules["feedback"], rules["noise"])
            lo, hi = (Fraction(claim[side][1]) if claim.get(side) is not None else None for side in ("lower", "upper"))
        elif kind in ORACLES:  # the brute force of tests.parameter_oracles
            true = ORACLES[kind](M)
            lo, hi = claimed(section)
        elif kind in ("td", "tsmin", "rtd"):  # by brute force (tests.parameter_oracles)
            true = teaching_truth(M, kind)
            lo, hi = (section[side]["value"] if side in section else None for side in ("lower", "upper"))
        elif kind in ORDER_KINDS:  # by brute force over every order, sequence and history
            true = order_truth(rows_of(doc["class"]), section)
            lo, hi = (claim[side][1] if claim.get(side) is not None else None for side in ("lower", "upper"))
        elif kind == "vc":
            true = tb.vc()
            lo = len(section["lower"]) if "lower" in section else None
            hi = section["upper"]["value"] if "upper" in section else None
        elif kind == "worst-case":
            T = Table(tb, [[None if p is None else Fraction(p) for p in st[0]] for st in section["states"]],
                      {(s, x, y): t for s, st in enumerate(section["states"]) for x, y, t in st[1]},
                      section["horizon"])
            T.tb.index = {V: i for i, V in enumerate(spaces)}
            true = T.game_value(tb.full, 0, section["horizon"])
            lo, hi = (Fraction(claim[side][1]) if claim.get(side) is not None and claim[side][1] != "inf"
                      else (float("inf") if claim.get(side) is not None else None) for side in ("lower", "upper"))
        else:
            true = tb.ldim(tb.full) if kind == "ldim" else tb.rl(tb.full)
            lo, hi = (Fraction(claim[side][1]) if claim.get(side) is not None else None for side in ("lower", "upper"))
        if (lo is not None and lo > true) or (hi is not None and hi < true):
            return True
    return False


def _matrix(cls: dict) -> np.ndarray:
    n, m = len(cls["rows"]), len(cls["domain"])
    return np.array(rows_of(cls), dtype=np.uint8).reshape(n, m)


def _spaces(doc: dict, tb: Textbook) -> list[int]:
    out = []
    for entry in doc["spaces"]:
        out.append(tb.part(out[entry[0]], entry[1], entry[2]) if isinstance(entry, list) else int(entry, 16))
    return out


def outcome(lie: Lie, checker) -> str:
    """``"ok"`` when the checker does what the lie requires, else what went wrong."""
    try:
        document = checker.parse_json(lie.text) if lie.text is not None else lie.document
        proven = checker.check(document, lie.expected)
    except (checker.CertificateError, checker.UnreadableCertificate) as exc:
        if lie.accept:
            return f"refused: {exc}"
        prefix = lie.where or (lie.kind.split(".")[0] if "." in lie.kind else "class" if lie.kind == "class" else "")
        # a lie refused elsewhere than in its own section tests nothing: the generator built it wrong
        return "ok" if str(exc).startswith(prefix) else f"refused elsewhere: {exc}"
    except Exception as exc:  # noqa: BLE001 - a crash is what the campaign looks for
        return f"crashed: {type(exc).__name__}: {str(exc)[:80]}"
    if not lie.accept:
        return "ACCEPTED"
    return "ok" if proven else "refused"


def campaign(matrices: list[np.ndarray], checker, *, seed: int = 0) -> tuple[dict[str, Counter], list]:
    """Per kind, how many documents were tried and how those that went wrong went wrong; and the first of those."""
    counts: dict[str, Counter] = {}
    failures = []
    for i, M in enumerate(matrices):
        for lie in lies(M, seed + i):
            c = counts.setdefault(lie.kind, Counter())
            c["tried"] += 1
            result = outcome(lie, checker)
            c[result.split(":")[0]] += result == "ok"
            if result != "ok":
                c[result.split(":")[0]] += 1
                if len(failures) < 20:
                    failures.append((lie.kind, lie.why, result, M.tolist()))
    return counts, failures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--classes", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    from mistakebound.certificates import verify

    start = time.perf_counter()
    counts, failures = campaign(classes(args.classes, args.seed), verify, seed=args.seed)
    for failure in failures:
        print("FAILED:", *failure)
    print(f"{'kind':<20} {'tried':>7} {'accepted':>9} {'crashed':>8} {'refused (honest)':>17} {'elsewhere':>10}")
    for kind, c in sorted(counts.items()):
        print(f"{kind:<20} {c['tried']:>7} {c['ACCEPTED']:>9} {c['crashed']:>8} {c['refused']:>17} "
              f"{c['refused elsewhere']:>10}")
    print(f"{sum(c['tried'] for c in counts.values())} documents on {args.classes} classes in "
          f"{time.perf_counter() - start:.1f} s")
    return 0 if all(c["tried"] == c["ok"] for c in counts.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
