"""Certificates of the randomized Littlestone dimension: the ``"rldim"`` section, read off a search.

:func:`rldim_section` turns what an :class:`~mistakebound.theory.randomized_ldim.RLdimSearch`
proved into the facts :mod:`mistakebound.certificates.randomized` checks (that module
documents the section and why each step is sound).  Nothing is searched again where the
search's memo holds the answer:

* a version space the search answered from a relabelled copy (its canonical memo:
  :meth:`~mistakebound.theory.randomized_ldim.RLdimSearch.twin`) gets its facts as a ``"map"``
  onto the copy's facts, written once (the checker checks the relabelling), so a
  certificate grows with the version spaces searched, not with their copies;
* the lower side is the optimal tree the memo records (each version space's best split
  and its two sides' exact values); a partial result certifies instead the greedy tree
  the search measured (following the memo where it can) or a complete shattered tree of
  the proven Ldim depth, whichever is worth more;
* the upper side answers, at each memoised version space, every splitting instance
  with the cheapest bound on its two sides that suffices: their memoised values, the
  bound ``Ldim (1 - 2^(1 - d))`` (with a small Ldim certificate, the Ldim being read
  from the search's Ldim memo), ``log2 d / 2`` (rounded up to a 1024th), or the
  two sides' logarithms together.  These are the bounds the search pruned with; where the
  exact comparisons fail to confirm a pruning the search made in floating point, the
  side is searched exactly (counted in ``stats["searched"]``).  A partial result
  certifies the smaller of ``log2 d / 2``, the Ldim bound and one split down.

Examples
--------
>>> from mistakebound import classes
>>> from mistakebound.certificates.verify import check
>>> from mistakebound.theory.certificate import CertificateWriter
>>> H = classes.singletons(5)
>>> writer = CertificateWriter(H)
>>> section = rldim_section(H, writer)
>>> section["claim"]["lower"], section["facts"][8]       # the optimal tree's root: instance 0 first
([8, '15/16'], [8, 'ge', '15/16', [0, 6, 7]])
>>> check(writer.document())
{'rldim': (Fraction(15, 16), Fraction(15, 16))}

A search stopped by its budget certifies its interval (the upper bound ``log2 d / 2`` rounded
up to a 1024th):

>>> stats = {}
>>> writer = CertificateWriter(classes.intervals(6))
>>> rldim_section(RLdimSearch(classes.intervals(6), max_nodes=2), writer, stats=stats)["claim"]
{'lower': [42, '139/64'], 'upper': [56, '4561/2048']}
>>> stats["bounds"].describe()
'139/64 <= RL <= 2.226722648902133 (partial: budget)'
>>> check(writer.document())
{'rldim': (Fraction(139, 64), Fraction(4561, 2048))}
"""

from __future__ import annotations

import sys
from fractions import Fraction

import numpy as np

from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.theory.certificate import CertificateWriter, number_text
from mistakebound.theory.randomized_ldim import RLdimSearch

__all__ = ["rldim_section"]

#: Denominator of the ``log2 d / 2`` bounds written (the checker accepts up to 1024).
LOG_DENOMINATOR = 1024


def _log_bound(d: int) -> Fraction:
    """The least ``p / 1024`` with ``d^1024 <= 4^p``: ``log2(d) / 2`` rounded up to a 1024th."""
    t = d ** LOG_DENOMINATOR
    return Fraction(((t - 1).bit_length() + 1) // 2, LOG_DENOMINATOR)


class _Producer:
    """The facts of one section, each version space's facts written once."""

    def __init__(self, search: RLdimSearch, writer: CertificateWriter, exact: bool):
        self.search, self.writer, self.exact = search, writer, exact  # exact: the search finished
        self.rtd = search.ldim_search.row_to_distinct
        self.facts: list[list] = []
        self.done: dict[tuple, tuple[int, Fraction]] = {}  # (kind, V, ...) -> (fact, value)
        self.searched = 0
        self.ldims: dict[int, int] = {}
        self.class_ldim = writer.claimed("ldim", "upper")

    def add(self, key: tuple, V: int, kind: str, value: Fraction, step: object) -> tuple[int, Fraction]:
        """Write the fact ``[V, kind, value, step]``; remember it under ``key``; return ``(index, value)``."""
        fact_value = int(value) if kind == "ldim" else number_text(value)
        self.facts.append([self.writer.space(self.writer.from_distinct(V, self.rtd)), kind, fact_value, step])
        self.done[key] = (len(self.facts) - 1, value)
        return self.done[key]

    def split_columns(self, V: int) -> list[int]:
        """Every column splitting ``V`` (the checker asks for all of them, copies included)."""
        return [j for j, c in enumerate(self.search.columns) if 0 != V & c != V]

    def relabelled(self, V: int) -> int | None:
        """The version space searched in ``V``'s place when it is a relabelled copy of ``V`` (else None)."""
        W = self.search.twin(V)
        return None if W is None or W == V else W

    def mapping(self, V: int, W: int) -> list[list[int]]:
        """The ``"map"`` step's entries sending ``V`` onto its relabelled copy ``W`` (every instance splitting ``V``).

        Both forms put the key's words in one order (:meth:`RLdimSearch.form`): key position
        ``i`` is ``V``'s column ``cv[i]`` (flipped by ``fv[i]``) and ``W``'s ``cw[i]`` (by
        ``fw[i]``); a copy of ``cv[i]`` on ``V`` goes where ``cv[i]`` goes, flipped if complementary.
        """
        (kv, cv, fv), (kw, cw, fw) = self.search.form(V), self.search.form(W)
        if kv != kw:  # the search keyed both by their forms: never
            raise AssertionError(f"version spaces {V} and {W} are not relabelled copies")
        columns = self.search.columns
        image = {}
        for x, z, a, b in zip(cv, cw, fv, fw):
            image[V & columns[x]] = (z, a ^ b)
        entries = []
        for x in self.split_columns(V):
            part = V & columns[x]
            if part in image:
                z, flip = image[part]
            else:  # complementary to a key column on V
                z, flip = image[V ^ part]
                flip ^= 1
            entries.append([x, z, flip])
        return entries

    def mapped(self, kind: str, V: int, W: int, fact: tuple[int, Fraction]) -> tuple[int, Fraction]:
        """``V``'s ``kind`` fact as the relabelled copy of ``W``'s ``fact``."""
        return self.add((kind, V), V, kind, fact[1], ["map", fact[0], self.mapping(V, W)])

    # ---------------------------------------------------------------- lower bounds
    def ge(self, V: int) -> tuple[int, Fraction]:
        """The exact ``"ge"`` fact of a memoised ``V``: its optimal tree (or its twin's, mapped)."""
        if ("ge", V) not in self.done:
            W = self.relabelled(V)
            if W is not None:
                return self.mapped("ge", V, W, self.ge(W))
            value, j = self.search.memo(V)
            if j is None:
                return self.add(("ge", V), V, "ge", Fraction(0), None)
            V0, V1 = self.search.sides(V, j)
            (f0, _), (f1, _) = self.ge(V0), self.ge(V1)
            self.add(("ge", V), V, "ge", value, [j, f0, f1])
        return self.done["ge", V]

    def greedy(self, V: int) -> tuple[int, Fraction]:
        """The greedy tree a partial result measured (the memo's trees below it)."""
        if self.search.memo(V) is not None:
            return self.ge(V)
        if ("greedy", V) not in self.done:
            j = self.search.greedy_split(V)
            if j is None:
                return self.add(("greedy", V), V, "ge", Fraction(0), None)
            V0, V1 = self.search.sides(V, j)
            (f0, a0), (f1, a1) = self.greedy(V0), self.greedy(V1)
            self.add(("greedy", V), V, "ge", (1 + a0 + a1) / 2, [j, f0, f1])
        return self.done["greedy", V]

    def complete(self, V: int, depth: int) -> tuple[int, Fraction]:
        """A complete shattered tree of ``depth`` (worth ``depth / 2``), from the Ldim search's witnesses."""
        if ("tree", V, depth) not in self.done:
            if depth <= 0:
                return self.add(("tree", V, depth), V, "ge", Fraction(0), None)
            j = self.search.ldim_search.witness(V, depth)
            V0, V1 = self.search.sides(V, j)
            (f0, _), (f1, _) = self.complete(V0, depth - 1), self.complete(V1, depth - 1)
            self.add(("tree", V, depth), V, "ge", Fraction(depth, 2), [j, f0, f1])
        return self.done["tree", V, depth]

    # ---------------------------------------------------------------- upper bounds
    def ldim_of(self, V: int) -> int:
        """The exact Ldim of ``V`` (the Ldim search's, remembered here)."""
        L = self.ldims.get(V)
        if L is None:
            L = self.ldims[V] = self.search.ldim_search.ldim(V)
        return L

    def ldim(self, V: int) -> tuple[int, Fraction]:
        """``Ldim(V) <= L`` for the exact ``L``: by ``log2``, the class's certified Ldim, or the textbook step."""
        if ("ldim", V) not in self.done:
            L = self.ldim_of(V)
            if V.bit_count() < 1 << (L + 1):
                return self.add(("ldim", V), V, "ldim", Fraction(L), "log2")
            if L == self.class_ldim:
                return self.add(("ldim", V), V, "ldim", Fraction(L), "class")
            entries = []
            for j in self.split_columns(V):
                V0, V1 = self.search.sides(V, j)
                small = V0 if V0.bit_count() <= V1.bit_count() else V1  # often below 2^L rows: no query
                if small.bit_count() >= 1 << L and self.ldim_of(small) >= L:
                    small ^= V
                entries.append([j, int(small == V1), self.ldim(small)[0]])
            self.add(("ldim", V), V, "ldim", Fraction(L), entries)
        return self.done["ldim", V]

    def bound(self, V: int) -> tuple[Fraction, str]:
        """The least cheap upper bound on ``RL(V)`` and how it is proven (``"le"``: the memo, ``"log"``, ``"ldim"``).

        The Ldim bound only where the Ldim is known (always after an exact search); no fact is written yet.
        """
        memo = self.search.memo(V)
        if memo is not None:
            return memo[0], "le"
        d = V.bit_count()
        best = (_log_bound(d), "log")
        lo, hi = self.search.ldim_search.proven(V)
        if lo == hi or self.exact:
            L = self.ldim_of(V)
            best = min(best, (Fraction(L * ((1 << (d - 1)) - 1), 1 << (d - 1)), "ldim"), key=lambda t: t[0])
        return best

    def write(self, V: int, how: str) -> tuple[int, Fraction]:
        """The ``"le"`` fact of ``V`` of kind ``how`` (``"le"``: exact, ``"log"``, ``"ldim"``)."""
        if how == "le":
            return self.le(V)
        key = ("le by", how, V)  # not ("ldim", V): that is the Ldim fact this one cites
        if key not in self.done:
            if how == "log":
                self.add(key, V, "le", _log_bound(V.bit_count()), "log2")
            else:
                f, L = self.ldim(V)
                d = V.bit_count()
                self.add(key, V, "le", L * ((1 << (d - 1)) - 1) / (1 << (d - 1)), ["ldim", f])
        return self.done[key]

    def entry(self, j: int, V0: int, V1: int, b: Fraction) -> list | None:
        """An answer to the instance of column ``j`` whose sides are ``V0``, ``V1``: its term is ``<= b``."""
        (b0, how0), (b1, how1) = self.bound(V0), self.bound(V1)
        if (1 + b0 + b1) / 2 <= b:
            return [j, self.write(V0, how0)[0], self.write(V1, how1)[0]]
        product = V0.bit_count() * V1.bit_count()
        if 4 * b >= 2 and (product - 1).bit_length() <= int(4 * b - 2):
            return [j, "log2"]
        return None

    def le(self, V: int) -> tuple[int, Fraction]:
        """The exact ``"le"`` fact of a memoised ``V``: every splitting instance answered (or its twin's, mapped)."""
        if ("le", V) not in self.done:
            W = self.relabelled(V)
            if W is not None:
                return self.mapped("le", V, W, self.le(W))
            value = self.search.memo(V)[0]
            if _log_bound(V.bit_count()) <= value:  # log2 d / 2 is the value (a complete tree): one fact, no entries
                self.done["le", V] = self.write(V, "log")
                return self.done["le", V]
            entries, answered = [], {}
            for j in self.split_columns(V):
                V0, V1 = self.search.sides(V, j)
                if (V0, V1) not in answered:
                    e = self.entry(j, V0, V1, value)
                    if e is None:  # a floating-point pruning not confirmed exactly: search the sides
                        self.searched += 1
                        self.search.value(V0), self.search.value(V1)
                        e = self.entry(j, V0, V1, value)
                    answered[V0, V1] = e
                entries.append([j] + answered[V0, V1][1:])
            self.add(("le", V), V, "le", value, entries)
        return self.done["le", V]

    def upper(self, V: int) -> tuple[int, Fraction]:
        """The best upper bound certified without searching: memo, Ldim, log2, or one split down."""
        if self.search.memo(V) is not None:
            return self.le(V)
        fact = self.write(V, self.bound(V)[1])
        columns = self.split_columns(V)
        sides = [self.search.sides(V, j) for j in columns]
        pairs = [(self.bound(V0), self.bound(V1)) for V0, V1 in sides]
        down = max(((1 + a[0] + b[0]) / 2 for a, b in pairs), default=Fraction(0))
        if down < fact[1]:
            entries = [[j, self.write(V0, a[1])[0], self.write(V1, b[1])[0]]
                       for j, (V0, V1), (a, b) in zip(columns, sides, pairs)]
            fact = self.add(("down", V), V, "le", down, entries)
        return fact


def rldim_section(search_or_H: RLdimSearch | HypothesisClass, writer: CertificateWriter, *,
                  max_nodes: int | None = None, time_limit: float | None = None,
                  stats: dict | None = None) -> dict:
    """The ``"rldim"`` section certifying what an RL search proved about the whole class; added to ``writer``.

    Parameters
    ----------
    search_or_H : RLdimSearch or HypothesisClass
        A search (run now within its budget if its memo does not hold the whole class
        yet), or a class to search with ``max_nodes`` and ``time_limit``.
    writer : CertificateWriter
        The document the section is added to (its class must be the search's).
    stats : dict, optional
        Filled with ``facts`` (how many), ``searched`` (sides searched again to confirm a
        pruning) and ``bounds`` (the search's :class:`~mistakebound.theory.randomized_ldim.RLdimBounds`).

    Returns
    -------
    dict
        The section: exact results certify ``lower == upper == RL(H)``, partial ones
        their proven interval (lower and upper at least as good as the bounds the search
        reported where exact arithmetic confirms them).

    Raises
    ------
    InvalidArgumentError
        If ``writer`` speaks of another class than the search.
    SearchIncomplete
        In the rare case a pruning the search made in floating point must be confirmed by
        searching the pruned sides, and the search's budget runs out doing so.
    """
    search = search_or_H if isinstance(search_or_H, RLdimSearch) else RLdimSearch(
        search_or_H, max_nodes=max_nodes, time_limit=time_limit)
    if not np.array_equal(writer.H.matrix, search.H.matrix):
        raise InvalidArgumentError("writer: expected a certificate of the search's class")
    result = search.bounds()
    producer = _Producer(search, writer, result.exact)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 8 * search.n_distinct + 1000))
    try:
        V = search.full
        if result.exact:
            lower, upper = producer.ge(V), producer.le(V)
        else:
            lower = producer.greedy(V)
            depth = max(search.ldim_search.proven(V)[0], 0)
            if Fraction(depth, 2) > lower[1]:
                lower = producer.complete(V, depth)
            upper = producer.upper(V)
    finally:
        sys.setrecursionlimit(limit)
    section = {"result": "rldim", "facts": producer.facts,
               "claim": {"lower": [lower[0], number_text(lower[1])], "upper": [upper[0], number_text(upper[1])]}}
    if stats is not None:
        stats.update(facts=len(producer.facts), searched=producer.searched, bounds=result)
    writer.add(section)
    return section
