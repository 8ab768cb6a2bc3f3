"""False certificates of the teaching parameters: for each kind of step, the smallest lie it could carry.

The campaign of :mod:`tests.certificate_lies` calls :func:`teaching_documents` for each of its
classes.  The honest pieces are built here by brute force over subsets of instances (smallest
teaching sets, the peeled layers of a recursive teaching plan) and by a plain tree builder
(:func:`tree`), sharing no code with the checker (:mod:`mistakebound.certificates.teaching`)
or the package's searches; the package's writer
(:func:`~mistakebound.theory.teaching_certificate.teaching_section`) adds honest documents of
its own, each checked honest by the campaign.  The judge finds a lie false with the brute
forces of :mod:`tests.parameter_oracles`.  Each lie departs from an honest certificate in one
step, the step its kind names (``"td.sets"``, ``"tsmin.tree"``, ``"rtd.plan"``, ...);
``"grammar"`` documents leave the section's grammar and ``"honest"`` ones must be accepted.

A false lower claim ``a + 1`` (the true value ``a``) is carried by a tree built for it: the
builder follows the honest rules until a node whose instances already teach the row (it can
only be a node with no instance left to choose, as no fewer than ``a`` instances teach it),
and there tells its lie: a row those instances tell apart, the row itself, no row at all, or
the child left out of its parent (or replaced by a sibling listed twice).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

import numpy as np

from mistakebound.certificates.context import class_hash
from tests.documents import clone

__all__ = ["peel", "smallest_set", "teaching_documents", "tree"]

KINDS = ("td", "tsmin", "rtd")


def _rows(M: np.ndarray) -> list[int]:
    return [sum(int(v) << x for x, v in enumerate(row)) for row in M]


def _firsts(rows: list[int], W: list[int]) -> list[int]:
    """The first row of each concept among the rows ``W``."""
    seen: dict[int, int] = {}
    for i in W:
        seen.setdefault(rows[i], i)
    return sorted(seen.values())


def smallest_set(rows: list[int], m: int, h: int, W: list[int]) -> list[int]:
    """A smallest set of instances on which only rows of ``h``'s concept among ``W`` agree with ``h``."""
    others = [rows[g] ^ rows[h] for g in W if rows[g] != rows[h]]
    for size in range(m + 1):
        for T in itertools.combinations(range(m), size):
            mask = sum(1 << x for x in T)
            if all(D & mask for D in others):
                return list(T)
    raise AssertionError("distinct rows differ somewhere")


def peel(rows: list[int], m: int) -> list[tuple[int, list[int], list[list[int]]]]:
    """The layers of the recursive teaching plan: ``(value, rows left before it, [[h, set], ...])``."""
    left = _firsts(rows, range(len(rows)))
    layers = []
    while left:
        sets = {h: smallest_set(rows, m, h, left) for h in left}
        low = min(len(s) for s in sets.values())
        layers.append((low, list(left), [[h, s] for h, s in sets.items() if len(s) == low]))
        left = [h for h in left if len(sets[h]) != low]
    return layers


class _Fail(Exception):
    pass


def tree(rows: list[int], h: int, W: list[int], a: int, cheat: str | None = None):
    """A hitting tree for ``TS(h; W) >= a`` (None when the claim is false and ``cheat`` is None).

    ``cheat`` names the lie told where the claim fails: ``"unhit"``, ``"row"``, ``"count"``,
    ``"cover"`` or ``"twice"`` (see the module's docstring).
    """
    mine = rows[h]
    cands = {}
    for g in W:
        if rows[g] != mine:
            cands.setdefault(rows[g] ^ mine, g)
    others = [(g, D) for D, g in cands.items()]
    lies = [0]

    def node(cs, S, E, r):
        if not cs:  # S teaches h: the claim fails here (r is 0: see the module's docstring)
            if cheat in (None, "cover", "twice"):
                raise _Fail
            lies[0] += 1
            if cheat == "unhit":
                return {"pack": [next(g for g in W if rows[g] != mine)]}
            return {"pack": [h]} if cheat == "row" else {"pack": []}
        rest = sorted(((D & ~E).bit_count(), g, D & ~E) for g, D in cs)
        if rest[0][0] == 0:
            return {"g": rest[0][1], "x": []}
        pack, union = [], 0
        for _, g, d in rest:
            if not d & union:
                pack.append(g)
                union |= d
                if len(pack) > r:
                    return {"pack": pack}
        _, g, d = rest[0]
        children, done = [], E
        for x in range(d.bit_length()):
            if not d >> x & 1:
                continue
            try:
                children.append([x, node([(g2, D2) for g2, D2 in cs if not D2 >> x & 1], S | 1 << x, done, r - 1)])
            except _Fail:
                if cheat not in ("cover", "twice"):
                    raise
                lies[0] += 1
                if cheat == "twice" and children:
                    children.append(clone(children[-1]))
            done |= 1 << x
        return {"g": g, "x": children}

    try:
        built = node(others, 0, 0, a - 1)
    except _Fail:
        return None
    if cheat is not None and not lies[0]:
        return None  # no lie could be told: the claim was true
    return built


def _document(M: np.ndarray, *sections: dict) -> dict:
    n, m = M.shape
    rows = [format(r, "x") for r in _rows(M)]
    domain = list(range(m))
    cls = {"n_hypotheses": n, "n_instances": m, "rows": rows, "domain": domain, "sha256": class_hash(rows, domain)}
    return {"format": "mistakebound-certificate", "version": 2, "class": cls, "spaces": [], "results": list(sections)}


class _Honest:
    """The honest pieces of the three sections of a class, by brute force."""

    def __init__(self, M: np.ndarray):
        self.M = M
        self.rows = rows = _rows(M)
        self.n, self.m = M.shape
        self.reps = _firsts(rows, range(self.n))
        self.sets = {h: smallest_set(rows, self.m, h, self.reps) for h in self.reps}
        self.td = max(len(s) for s in self.sets.values())
        self.tsmin = min(len(s) for s in self.sets.values())
        self.layers = peel(rows, self.m)
        self.rtd = max(v for v, _, _ in self.layers)
        self.hardest = next(h for h in self.reps if len(self.sets[h]) == self.td)
        self.easiest = next(h for h in self.reps if len(self.sets[h]) == self.tsmin)
        self.left = next(left for v, left, _ in self.layers if v == self.rtd)  # TSmin(left) = RTD

    def trees(self, hs: list[int], W: list[int], a: int) -> list:
        return [] if a == 0 else [[h, tree(self.rows, h, W, a)] for h in hs]

    def sections(self) -> dict[str, dict]:
        plan = [[h, s] for _, _, layer in self.layers for h, s in layer]
        return {
            "td": {"result": "td", "lower": {"value": self.td, "trees": self.trees([self.hardest], self.reps, self.td)},
                   "upper": {"value": self.td, "sets": [[h, s] for h, s in self.sets.items()]}},
            "tsmin": {"result": "tsmin",
                      "lower": {"value": self.tsmin, "trees": self.trees(self.reps, self.reps, self.tsmin)},
                      "upper": {"value": self.tsmin, "sets": [[self.easiest, self.sets[self.easiest]]]}},
            "rtd": {"result": "rtd", "lower": {"value": self.rtd, "rows": self.left,
                                               "trees": self.trees(self.left, self.left, self.rtd)},
                    "upper": {"value": self.rtd, "plan": plan}},
        }


def _lower_lies(hb: _Honest, kind: str, section: dict) -> Iterator[tuple[str, dict, str]]:
    """The lower claim one too high, carried by each lie a tree can tell."""
    a = section["lower"]["value"]
    W = section["lower"].get("rows", hb.reps)
    hs = [hb.hardest] if kind == "td" else _firsts(hb.rows, W)
    sizes = {h: len(smallest_set(hb.rows, hb.m, h, W)) for h in hs}
    yield f"{kind}.tree", {**section, "lower": {**section["lower"], "value": a + 1}}, f"the claim {a + 1}, trees for {a}"
    if a + 1 > hb.m or len(_firsts(hb.rows, W)) < 2:
        return
    for cheat in ("unhit", "row", "count", "cover", "twice"):
        trees = []
        for h in hs:
            t = tree(hb.rows, h, W, a + 1, cheat if sizes[h] == a else None)
            if t is None:
                break
            trees.append([h, t])
        else:
            yield (f"{kind}.tree", {**section, "lower": {**section["lower"], "value": a + 1, "trees": trees}},
                   f"a tree for {a + 1} whose failing node lies: {cheat}")
    if a >= 1:  # a pack of one row's disagreements, named a + 1 times: they meet
        h = hs[0] if kind == "td" else next(h for h in hs if sizes[h] == a)
        g = next(g for g in W if hb.rows[g] != hb.rows[h])
        trees = [[h, {"pack": [g] * (a + 1)}]] + [[k, tree(hb.rows, k, W, a + 1)] for k in hs if sizes[k] > a]
        yield f"{kind}.tree", {**section, "lower": {**section["lower"], "value": a + 1, "trees": trees}}, \
            "a pack of one row named twice"
    if kind == "td":
        yield "td.tree", {**section, "lower": {"value": a + 1, "trees": []}}, "no tree"
    else:
        trees = [[h, tree(hb.rows, h, W, a + 1)] for h in hs if sizes[h] > a]
        yield f"{kind}.tree", {**section, "lower": {**section["lower"], "value": a + 1, "trees": trees}}, \
            "the rows that need only a instances have no tree"


def _upper_lies(hb: _Honest, kind: str, section: dict) -> Iterator[tuple[str, dict, str]]:
    """The upper claim one too low: with sets one instance short, with the sets as they are, with sets left out."""
    b = section["upper"]["value"]
    if b == 0:
        return
    key = "plan" if kind == "rtd" else "sets"
    step = f"{kind}.{key}"
    entries = section["upper"][key]
    shorter = [[h, s[:-1] if len(s) == b else s] for h, s in entries]
    yield step, {**section, "upper": {"value": b - 1, key: shorter}}, "the largest sets one instance short"
    yield step, {**section, "upper": {"value": b - 1, key: entries}}, "the claim one lower, the sets as they are"
    if kind == "td":
        kept = [[h, s] for h, s in entries if len(s) < b]
        yield step, {**section, "upper": {"value": b - 1, key: kept}}, "the concepts of the largest sets left out"
    if kind == "tsmin":
        yield step, {**section, "upper": {"value": b - 1, key: []}}, "no teaching set"


def teaching_documents(M: np.ndarray, rng: random.Random) -> Iterator[tuple[str, dict, str]]:
    """``(kind, document, why)``: the honest certificates, lies and documents outside the grammar for ``M``."""
    M = np.asarray(M, dtype=np.uint8)
    hb = _Honest(M)
    sections = hb.sections()
    yield "honest", _document(M, *sections.values()), "td, tsmin and rtd by brute force"
    yield "honest", _written(M), "td, tsmin and rtd by the package's writer"
    for kind, section in sections.items():
        for step, lie, why in [*_upper_lies(hb, kind, section), *_lower_lies(hb, kind, section)]:
            yield step, _document(M, lie), why
    kind = rng.choice(KINDS)
    section = sections[kind]
    yield "grammar", _document(M, {**section, "note": 1}), "a key the section does not have"
    side = rng.choice(("lower", "upper"))
    yield "grammar", _document(M, {**section, side: {**section[side], "note": 1}}), f"a key the {side} side does not have"


def _written(M: np.ndarray) -> dict:
    from mistakebound import HypothesisClass
    from mistakebound.theory.certificate import CertificateWriter
    from mistakebound.theory.teaching_certificate import teaching_section

    H = HypothesisClass.from_matrix(M)
    w = CertificateWriter(H)
    for kind in KINDS:
        teaching_section(H, w, kind)
    return w.document()


def truth(M: np.ndarray, kind: str) -> int:
    """The parameter ``kind`` of ``M`` by the brute forces of :mod:`tests.parameter_oracles`."""
    from tests import parameter_oracles as po

    return {"td": po.teaching_dimension, "tsmin": po.minimum_teaching_set_size,
            "rtd": po.recursive_teaching_dimension}[kind](M.tolist())
