"""False certificates of the threshold dimension, the star number and the largest one-inclusion degree.

The campaign of :mod:`tests.certificate_lies` calls :func:`parameter_documents` for each of its
classes.  The honest sections are the package's writers' (:mod:`mistakebound.theory.threshold_certificate`,
:mod:`mistakebound.theory.star_certificate`), each checked honest by the campaign; every lie
departs from the truth in one step, the step its kind names, and states a value the brute
forces of :mod:`tests.parameter_oracles` (which share nothing with the checker or the searches)
find false: :func:`truth` is the campaign's judge for these kinds.  The trees of the lies are
built here by plain recursions over every step (no domination), closed by the checker's own
bounds (a tree the checker would refuse for its bounds alone would test nothing), with the
lie in one place:

* ``"threshold.lower"``, ``"star.lower"``, ``"degree.lower"``: a witness one longer than the
  truth, its new entries chosen to break as few conditions as they can (or a hypothesis, a
  leaf left out, an instance given twice);
* ``"threshold.bound"``, ``"star.bound"``: a node closed by a bound one too small;
* ``"threshold.depth"``, ``"star.size"``: a tree for one less than the truth, followed down to
  the sequence or star that reaches past it;
* ``"threshold.cover"``, ``"star.cover"``: a node missing the children whose subtrees reach
  past the bound;
* ``"threshold.by-ldim"``, ``"star.chains"``, ``"star.centers"``, ``"degree.upper"``: an upper
  side one too small by the Littlestone dimension no section proved, by too few chains or
  chains that are none, by trees that leave a center out, by a recount;
* ``"grammar"``: sections, nodes and sides outside their shapes, which must be refused.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

import numpy as np

from mistakebound import HypothesisClass
from mistakebound.certificates.stars import joinable, star_bound, star_sets
from mistakebound.certificates.threshold import state_bound
from mistakebound.certificates.verify import FORMAT, VERSION
from mistakebound.theory.certificate import CertificateWriter
from mistakebound.theory.star_certificate import degree_section, star_section
from mistakebound.theory.threshold_certificate import threshold_section
from tests import parameter_oracles as oracles
from tests.game_lies import class_of

__all__ = ["ORACLES", "claimed", "parameter_documents", "truth"]

#: The brute force of each kind's value.
ORACLES = {"threshold": oracles.threshold_dimension, "star": oracles.star_number,
           "degree": oracles.one_inclusion_degree}


def truth(kind: str, M: np.ndarray) -> int:
    """The value of the parameter ``kind`` of the class ``M``, by brute force."""
    return ORACLES[kind](M)


def claimed(section: dict) -> tuple[int | None, int | None]:
    """The ``(lower, upper)`` a section states (None for a side left out)."""
    low, up = section.get("lower"), section.get("upper")
    return (len(low["instances"]) if low is not None else None, up["value"] if up is not None else None)


def _document(M: np.ndarray, *sections: dict) -> dict:
    return {"format": FORMAT, "version": VERSION, "class": class_of(M), "spaces": [], "results": list(sections)}


def _bits(s: int) -> list[int]:
    return [i for i in range(s.bit_length()) if s >> i & 1]


class _Table:
    """The class as bitsets: rows (bit ``x``: label of ``x``) and columns (bit ``i``: row ``i`` labels 1)."""

    def __init__(self, M: np.ndarray):
        self.M = np.asarray(M, dtype=np.uint8)
        self.n, self.m = self.M.shape
        self.rows = [sum(int(v) << x for x, v in enumerate(row)) for row in self.M]
        self.cols = [sum(1 << i for i in range(self.n) if self.M[i, x]) for x in range(self.m)]
        self.full = (1 << self.n) - 1
        self.longest: dict[tuple[int, int], int] = {}

    def label(self, i: int, x: int) -> int:
        return self.rows[i] >> x & 1

    # ------------------------------------------------------------------ threshold
    def steps(self, I: int, Z: int) -> list[tuple[int, int, int, int]]:
        """Every admissible step ``(h, x)`` from ``(I, Z)``, one per child state, with the state."""
        seen, out = set(), []
        for h in _bits(I):
            for x in _bits(Z):
                if not self.label(h, x) and I & self.cols[x]:
                    state = (I & self.cols[x], Z & ~self.rows[h])
                    if state not in seen:
                        seen.add(state)
                        out.append((h, x, *state))
        return out

    def t(self, I: int, Z: int) -> int:
        """The longest sequence with rows in ``I`` and instances in ``Z``, by the plain recursion."""
        if (I, Z) not in self.longest:
            self.longest[I, Z] = max([0] + [1 + self.t(I2, Z2) for _, _, I2, Z2 in self.steps(I, Z)])
        return self.longest[I, Z]

    def threshold_tree(self, b: int, I: int, Z: int, depth: int, drop: bool) -> dict:
        """A tree for ``Tdim <= b``, closed by the checker's bound where it can be; ``drop``: children whose
        subtree reaches past ``b`` are left out (else the tree follows them down)."""
        if depth + state_bound(self.rows, self.cols, I, Z)[2] <= b:
            return {}
        children = [[h, x, self.threshold_tree(b, I2, Z2, depth + 1, drop)] for h, x, I2, Z2 in self.steps(I, Z)
                    if not drop or depth + 1 + self.t(I2, Z2) <= b]
        return {"children": children}

    # ------------------------------------------------------------------ stars
    def keep(self) -> int:
        first: dict[int, int] = {}
        for i, r in enumerate(self.rows):
            first.setdefault(r, i)
        return sum(1 << i for i in first.values())

    def largest(self, c: int, S: list[int], cands: list[int]) -> int:
        """The largest star centered on row ``c`` holding ``S`` within ``S`` and ``cands``, by brute force."""
        best = -1
        for k in range(len(cands) + 1):
            for extra in itertools.combinations(cands, k):
                xs = S + list(extra)
                if len(set(xs)) == len(xs) and all(
                        any(all((self.rows[i] ^ self.rows[c]) >> y & 1 == (y == x) for y in xs) for i in range(self.n))
                        for x in xs):
                    best = max(best, len(xs))
        return best

    def star_tree(self, b: int, c: int, E: list[int], S: list[int], private: list[int], union: int,
                  cands: list[int], drop: bool) -> dict:
        join = joinable(E, private, union, cands)
        if len(S) + star_bound(E, union, join) <= b:
            return {}
        split = []
        for k, x in enumerate(join):
            if drop and self.largest(c, S + [x], join[k + 1:]) > b:
                continue
            Ex = E[x]
            split.append([x, self.star_tree(b, c, E, S + [x], [p & ~Ex for p in private] + [Ex & ~union], union | Ex,
                                            join[k + 1:], drop)])
        return {"split": split}

    def star_centers(self, b: int, drop: bool, centers: list[int] | None = None) -> list:
        keep = self.keep()
        out = []
        for c in _bits(keep) if centers is None else centers:
            E = star_sets(self.rows, self.cols, keep, c)
            out.append([c, self.star_tree(b, c, E, [], [], 0, list(range(self.m)), drop)])
        return out


def parameter_documents(M: np.ndarray, rng: random.Random) -> Iterator[tuple[str, dict, str]]:
    """``(kind, document, why)``: the honest certificate, lies and documents outside the grammar for ``M``."""
    M = np.asarray(M, dtype=np.uint8)
    H = HypothesisClass.from_matrix(M)
    w = CertificateWriter(H)
    sections = {f.__name__.split("_")[0]: f(H, w) for f in (threshold_section, star_section, degree_section)}
    yield "honest", w.document(), "the writers' three sections"
    tb = _Table(M)
    yield from _threshold_lies(M, tb, sections["threshold"], rng)
    yield from _star_lies(M, tb, sections["star"], rng)
    yield from _degree_lies(M, tb, sections["degree"], rng)


def _one_more(tb: _Table, xs: list[int], check) -> tuple[int, int]:
    """An instance (new if one is left) and the row with it that ``check(row, x)`` finds fewest faults in."""
    x = next((x for x in range(tb.m) if x not in xs), 0)
    return x, min(range(tb.n), key=lambda h: (check(h, x), h))


def _threshold_lies(M: np.ndarray, tb: _Table, honest: dict, rng: random.Random) -> Iterator[tuple[str, dict, str]]:
    T = truth("threshold", M)
    low = honest["lower"]
    xs, hs = low["instances"], low["hypotheses"]

    def faults(h: int, x: int) -> int:  # the wrong entries of h as h_(T+1), and of the others on x
        return sum(tb.label(h, y) != 1 for y in xs + [x]) + sum(tb.label(g, x) != 0 for g in hs)

    x, h = _one_more(tb, xs, faults)
    sec = {"result": "threshold", "lower": {"instances": xs + [x], "hypotheses": hs + [h]}}
    yield "threshold.lower", _document(M, sec), f"a sequence one longer, {faults(h, x)} entries wrong"
    sec = {"result": "threshold", "lower": {"instances": xs + [x], "hypotheses": hs}}
    yield "threshold.lower", _document(M, sec), "a sequence one longer, its last hypothesis left out"
    if xs:
        sec = {"result": "threshold", "lower": {"instances": xs + xs[-1:], "hypotheses": hs + hs[-1:]}}
        yield "threshold.lower", _document(M, sec), "a sequence one longer, its last instance and hypothesis twice"
    if T == 0:
        return
    top = (tb.full, (1 << tb.m) - 1, 0)
    for kind, tree, why in (("threshold.bound", {}, "the root closed by a bound one too small"),
                            ("threshold.depth", tb.threshold_tree(T - 1, *top, drop=False),
                             "a tree one too small, followed down to the longest sequence"),
                            ("threshold.cover", tb.threshold_tree(T - 1, *top, drop=True),
                             "a tree one too small, missing the children that reach past it")):
        yield kind, _document(M, {"result": "threshold", "upper": {"value": T - 1, "by": "search", "tree": tree}}), why
    yield "threshold.by-ldim", _document(M, {"result": "threshold", "upper": {"value": T - 1, "by": "ldim"}}), \
        "one too small by a Littlestone dimension no section proved"
    grammar = [({"result": "threshold", "upper": {"value": T - 1, "by": "search"}}, "a search without its tree"),
               ({"result": "threshold", "upper": {"value": T, "by": "search",
                                                  "tree": _listed(tb.threshold_tree(T, *top, drop=False))}},
                "a closed node that is no object"),
               ({"result": "threshold", "upper": {"value": T - 1, "by": "search", "tree": {"children": [[0, 0]]}}},
                "a child without its node"),
               ({**honest, "claim": 1}, "a section with a key of no section")]
    for sec, why in grammar:
        yield "grammar", _document(M, sec), why


def _star_lies(M: np.ndarray, tb: _Table, honest: dict, rng: random.Random) -> Iterator[tuple[str, dict, str]]:
    s = truth("star", M)
    low = honest["lower"]
    c, xs, ls = low["center"], low["instances"], low["leaves"]

    def faults(h: int, x: int) -> int:  # the instances on which a leaf h of x breaks the star, and the others on x
        return (sum(((tb.rows[h] ^ tb.rows[c]) >> y & 1) != (y == x) for y in xs + [x])
                + sum((tb.rows[g] ^ tb.rows[c]) >> x & 1 for g in ls))

    x, h = _one_more(tb, xs, faults)
    yield "star.lower", _document(M, {"result": "star", "lower": {"center": c, "instances": xs + [x],
                                                                   "leaves": ls + [h]}}), \
        f"a star one larger, {faults(h, x)} labels wrong"
    yield "star.lower", _document(M, {"result": "star", "lower": {"center": c, "instances": xs + [x],
                                                                   "leaves": ls}}), "a star one larger, a leaf left out"
    if s == 0:
        return
    b = s - 1
    chains = honest["upper"]["chains"] if honest["upper"]["by"] == "chains" else _cover(tb)
    yield "star.chains", _document(M, {"result": "star", "upper": {"value": b, "by": "chains", "chains": chains}}), \
        "one too small by too few chains"
    yield "star.chains", _document(M, {"result": "star", "upper": {"value": b, "by": "chains",
                                                                    "chains": chains[:b // 2]}}), \
        "one too small by chains that leave instances out"
    if b >= 2:
        merged = [[x for chain in chains[k::b // 2] for x in chain] for k in range(b // 2)]
        yield "star.chains", _document(M, {"result": "star", "upper": {"value": b, "by": "chains",
                                                                        "chains": merged}}), \
            "one too small by lists of instances that are no chains"
    for kind, centers, why in (
            ("star.bound", [[c, {}] for c in _bits(tb.keep())], "every center closed by a bound one too small"),
            ("star.size", tb.star_centers(b, drop=False), "trees one too small, followed down to the largest star"),
            ("star.cover", tb.star_centers(b, drop=True), "trees one too small, missing the branches past it"),
            ("star.centers", tb.star_centers(b, drop=False, centers=[
                i for i in _bits(tb.keep()) if tb.largest(i, [], list(range(tb.m))) <= b]),
             "trees one too small, for the centers of no largest star only")):
        yield kind, _document(M, {"result": "star", "upper": {"value": b, "by": "search", "centers": centers}}), why
    grammar = [({"result": "star", "upper": {"value": b, "by": "search"}}, "a search without its trees"),
               ({"result": "star", "upper": {"value": s, "by": "search",
                                             "centers": [[c, _listed(t)] for c, t in tb.star_centers(s, drop=False)]}},
                "closed nodes that are no objects"),
               ({"result": "star", "upper": {"value": b, "by": "search", "centers": [[c, {"split": [[0]]}]]}},
                "a branch without its node"),
               ({**honest, "claim": 1}, "a section with a key of no section")]
    for sec, why in grammar:
        yield "grammar", _document(M, sec), why


def _listed(node: dict) -> dict | list:
    """``node`` with its closed nodes (``{}``) written as empty lists."""
    if not node:
        return []
    key = next(iter(node))
    return {key: [e[:-1] + [_listed(e[-1])] for e in node[key]]}


def _cover(tb: _Table) -> list[list[int]]:
    """The non-constant instances, one chain each (a cover, if rarely the fewest)."""
    return [[x] for x in range(tb.m) if 0 != tb.cols[x] != tb.full]


def _degree_lies(M: np.ndarray, tb: _Table, honest: dict, rng: random.Random) -> Iterator[tuple[str, dict, str]]:
    D = truth("degree", M)
    low = honest["lower"]
    c, xs, ls = low["center"], low["instances"], low["leaves"]

    def faults(h: int, x: int) -> int:
        return (tb.rows[h] ^ tb.rows[c] ^ 1 << x).bit_count()

    x, h = _one_more(tb, xs, faults)
    yield "degree.lower", _document(M, {"result": "degree", "lower": {"center": c, "instances": xs + [x],
                                                                       "leaves": ls + [h]}}), \
        f"a vertex of one more neighbour, the new one {faults(h, x)} labels off"
    yield "degree.lower", _document(M, {"result": "degree", "lower": {"center": c, "instances": xs + [x],
                                                                       "leaves": ls}}), \
        "a vertex of one more neighbour, its leaf left out"
    if xs:
        yield "degree.lower", _document(M, {"result": "degree", "lower": {"center": c, "instances": xs + xs[:1],
                                                                           "leaves": ls + ls[:1]}}), \
            "a vertex of one more neighbour, one counted twice"
    if D:
        yield "degree.upper", _document(M, {"result": "degree", "upper": {"value": D - 1}}), "a degree one too small"
    yield "grammar", _document(M, {"result": "degree", "upper": {"value": D, "by": "count"}}), "a key of no degree"
