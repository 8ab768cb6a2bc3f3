"""Certificates of the Littlestone dimension, read off what an :class:`LdimSearch` proved.

The section (``"result": "ldim"``, checked by :mod:`mistakebound.certificates.ldim`) is a
list of facts ``Ldim(V) >= a`` and ``Ldim(V) <= b``, each justified by facts before it in
one step of the textbook recursion:

* ``Ldim(V) >= a`` names the column the search remembered as the witness of ``V`` and
  the facts ``>= a - 1`` on its two sides: together these facts are a shattered tree;
* ``Ldim(V) <= b`` answers every instance splitting ``V`` with the side whose Ldim is at
  most ``b - 1`` (the side the search refuted, read from its memo), or, when ``V`` has fewer
  than ``2^(b+1)`` distinct rows, cites ``log2 |V|`` and stops; a side of fewer than ``2^b``
  distinct rows is answered in place, ``[x, y, "log2"]``, with no space and no fact of its
  own (the checker counts its rows);
* a version space whose canonical form (its distinct rows on the columns that still split
  it, see :meth:`LdimSearch.canonical_form`) equals one already certified is answered by
  a ``"map"`` step that sends its columns to the twin's, which the checker verifies row by
  row; the step is used only where checking it costs less than the facts it replaces.

Each fact is written once per version space and side (the certificate is a DAG), over
the class's own rows (the search's bitsets over distinct rows are widened by
:meth:`~mistakebound.theory.certificate.CertificateWriter.from_distinct`).

:func:`ldim_certificate` reads both halves off the engine
:func:`~mistakebound.theory.littlestone.ldim_engine` chooses, under one budget
(:func:`engine_section`): the compiled search when the install has it, which reads them in
the same run (:func:`~mistakebound.theory.ldim_kernel.kernel_tree`: its shattered tree gives
the ``"ge"`` facts, its refutation the ``"le"`` facts, in the steps above but for ``"map"``),
:class:`LdimSearch` otherwise, within what is left of the budget.  When the compiled run
stops before its reading (out of budget, Ctrl-C), nothing is searched again: the partial
certificate is of what holds before any search (:func:`unsearched_section`).

Examples
--------
>>> from mistakebound import classes
>>> from mistakebound.certificates.verify import check
>>> from mistakebound.theory.certificate import CertificateWriter
>>> H = classes.intervals(6)
>>> w = CertificateWriter(H)
>>> section = ldim_certificate(H, w)
>>> section["claim"]["lower"][1], section["claim"]["upper"][1]
(4, 4)
>>> check(w.document())
{'ldim': (4, 4)}
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING

from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.foundations.memory import collection_paused
from mistakebound.foundations.validation import check_int
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.theory.certificate import CertificateWriter
from mistakebound.theory.ldim_search import LdimBounds, LdimSearch
from mistakebound.theory.search_protocol import Budget, OutOfBudget

if TYPE_CHECKING:
    from mistakebound.theory.littlestone import LdimEngine

__all__ = ["engine_section", "kernel_section", "ldim_certificate", "ldim_section", "unsearched_section"]

#: A ``"map"`` step replaces a subtree when checking it (rows x columns of the space) costs
#: less than this many times the facts of the subtree it replaces (``"le"`` facts counted
#: once per instance, as the checker lists every splitting instance of each).
MAP_COST_RATIO = 8


class _Producer:
    """The facts of one section, built on demand and shared (one per version space and side)."""

    def __init__(self, search: LdimSearch, writer: CertificateWriter):
        self.search, self.writer = search, writer
        self.columns = search.columns
        self.m = len(self.columns)
        self.facts: list[list] = []
        self.best: dict[tuple[str, int], tuple[int, int]] = {}  # (kind, V) -> (fact, value)
        self.twins: dict[tuple[str, Hashable], tuple[int, list[int], int, int, int]] = {}
        self.ids: dict[int, int] = {}

    def space(self, V: int) -> int:
        index = self.ids.get(V)
        if index is None:
            index = self.ids[V] = self.writer.space(self.writer.from_distinct(V, self.search.row_to_distinct))
        return index

    def derive(self, W: int, V: int, x: int, y: int) -> int:
        """Register ``W`` as the part ``V_x^y`` (written as such in the table of spaces); its index."""
        index = self.ids.get(W)
        if index is None:
            parent = self.space(V)
            index = self.ids[W] = self.writer.space(self.writer.from_distinct(W, self.search.row_to_distinct),
                                                    part_of=(parent, x, y))
        return index

    def add(self, V: int, kind: str, value: int, step: object, start: int, form=None) -> int:
        self.facts.append([self.space(V), kind, value, step])
        k = len(self.facts) - 1
        self.best[kind, V] = (k, value)
        if form is not None and (kind, form[0]) not in self.twins:
            self.twins[kind, form[0]] = (V, form[1], k, value, len(self.facts) - start)
        return k

    def splitting(self, V: int) -> list[int]:
        cols = self.columns
        return [x for x in range(self.m) if 0 != V & cols[x] != V]

    def known(self, V: int, kind: str, value: int) -> int | None:
        hit = self.best.get((kind, V))
        if hit is not None and (hit[1] >= value if kind == "ge" else hit[1] <= value):
            return hit[0]
        return None

    def twin(self, V: int, kind: str, value: int):
        """A ``"map"`` fact on ``V`` from a twin (the search's or one certified here), or None; and ``V``'s form."""
        if V.bit_count() < self.search.canonical_min or V == self.search.full:
            return None, None
        key, kcols, e = self.search.canonical_entry(V)
        form = (key, kcols)
        if e is not None:  # the version space whose search proved the form's value
            lo, lo_rep, lo_cols, hi, hi_rep, hi_cols = e
            if kind == "ge" and lo_rep is not None and lo_rep != V and lo >= value:
                return self.mapping(V, kcols, kind, lo_rep, lo_cols, self.ge(lo_rep, lo)), form
            if kind == "le" and hi_rep is not None and hi_rep != V and hi <= value:
                return self.mapping(V, kcols, kind, hi_rep, hi_cols, self.le(hi_rep, hi)), form
        mine = self.twins.get((kind, key))
        if mine is None or mine[0] == V or not (mine[3] >= value if kind == "ge" else mine[3] <= value):
            return None, form
        W, wcols, fact, _, size = mine
        if kind == "ge" and V.bit_count() * len(self.splitting(V)) > MAP_COST_RATIO * size * 4:
            return None, form  # checking the map would cost more than the shattered tree it replaces
        return self.mapping(V, kcols, kind, W, wcols, fact), form

    def mapping(self, V: int, kcols: list[int], kind: str, W: int, wcols: list[int], fact: int) -> int:
        """The fact that ``V`` (key columns ``kcols``) has the value of fact ``fact`` on its twin ``W``."""
        cols = self.columns
        position = {}
        for i, j in enumerate(kcols):
            a = V & cols[j]
            position[a], position[V ^ a] = (i, 0), (i, 1)
        entries = []
        for x in self.splitting(V):
            i, flip = position[V & cols[x]]
            entries.append([x, wcols[i], flip])
        step = ["map", fact, entries]
        if self.search.n_distinct == self.writer.H.n_hypotheses:  # spaces are the search's bitsets
            shift = ((V & -V).bit_length()) - ((W & -W).bit_length())
            moved = (lambda U: U >> shift) if shift >= 0 else (lambda U: U << -shift)
            if moved(V) == W and all(moved(V & cols[x]) == (W & cols[z] if not flip else W & ~cols[z])
                                     for x, z, flip in entries):
                step.append(shift)  # rows correspond by a shift: the checker compares columns only
        return self.add(V, kind, self.facts[fact][2], step, len(self.facts))

    def ge(self, V: int, a: int) -> int:
        """The index of a fact ``Ldim(V) >= a`` (``a <= Ldim(V)``)."""
        a = max(a, 0)
        hit = self.known(V, "ge", a)
        if hit is not None:
            return hit
        if a == 0:
            return self.add(V, "ge", 0, None, len(self.facts))
        mapped, form = self.twin(V, "ge", a)
        if mapped is not None:
            return mapped
        start = len(self.facts)
        x = self.search.witness(V, a)
        side1 = V & self.columns[x]
        self.derive(V ^ side1, V, x, 0)
        self.derive(side1, V, x, 1)
        f0, f1 = self.ge(V ^ side1, a - 1), self.ge(side1, a - 1)
        return self.add(V, "ge", a, [x, f0, f1], start, form)

    def le(self, V: int, b: int) -> int:
        """The index of a fact ``Ldim(V) <= b`` (``b >= Ldim(V)``)."""
        hit = self.known(V, "le", b)
        if hit is not None:
            return hit
        if V.bit_count() < 1 << (b + 1):  # the search's bitsets hold distinct rows only
            return self.add(V, "le", b, "log2", len(self.facts))
        mapped, form = self.twin(V, "le", b)
        if mapped is not None:
            return mapped
        start = len(self.facts)
        answer: dict[int, tuple[int, int | str]] = {}  # a split's smaller side -> (refuted side, its fact)
        step = []
        for x in self.splitting(V):
            side1 = V & self.columns[x]
            key = min(side1, V ^ side1)
            if key not in answer:
                small = side1 if 2 * side1.bit_count() <= V.bit_count() else V ^ side1
                for W in (small, V ^ small):  # the smaller side first, as the search refutes it
                    if W.bit_count() < 1 << b:  # checked in place: no space, no fact
                        answer[key] = (W, "log2")
                        break
                    if not self.search.at_least(W, b):
                        self.derive(W, V, x, 1 if W == side1 else 0)
                        answer[key] = (W, self.le(W, b - 1))
                        break
                else:  # pragma: no cover - the search proved Ldim(V) <= b
                    raise AssertionError(f"both sides of column {x} reach Ldim {b}")
            W, f = answer[key]
            step.append([x, 1 if W == side1 else 0, f])
        return self.add(V, "le", b, step, start, form)


def ldim_section(search: LdimSearch, writer: CertificateWriter, *, lower: int, upper: int,
                 budget: Budget | None = None) -> dict:
    """Add to ``writer`` the facts proving ``lower <= Ldim(H) <= upper``, as ``search`` proved them.

    ``lower`` and ``upper`` are bounds the search proved on the whole class (its
    :meth:`~LdimSearch.bounds`, exact or partial).  What the memo lost is searched again,
    within ``budget``; when that runs out, the upper side falls back to what needs no
    search (``log2`` of the distinct rows, or ``1 + log2`` of the smaller side of the most
    balanced split), and the section's claim says which upper bound it certifies.

    Returns
    -------
    dict
        The section, also added to ``writer``.

    Raises
    ------
    OutOfBudget
        When the budget runs out while certifying the lower side (a shattered tree).
    """
    lower = check_int("lower", lower, 0)
    upper = check_int("upper", upper, lower)
    p = _Producer(search, writer)
    V = search.full
    with search.running(budget):
        low = p.ge(V, lower)
        try:
            high = p.le(V, upper)
        except OutOfBudget:
            plan = search.plan(V)
            upper = plan.upper
            high = p.le(V, upper)  # the plan's bound is proven by log2 steps alone
    section = {"result": "ldim", "facts": p.facts,
               "claim": {"lower": [low, p.facts[low][2]], "upper": [high, p.facts[high][2]]}}
    writer.add(section)
    return section


def ldim_certificate(H: HypothesisClass, writer: CertificateWriter, *, max_nodes: int | None = None,
                     time_limit: float | None = None) -> dict:
    """Search ``Ldim(H)`` within a budget and add its certificate to ``writer`` (exact or partial).

    One engine (:func:`~mistakebound.theory.littlestone.ldim_engine`, ``read="certificate"``),
    one budget for the search and its certificate: :func:`engine_section`.  Returns the
    section; its claim holds the bounds certified.

    Examples
    --------
    >>> from mistakebound import classes
    >>> w = CertificateWriter(classes.thresholds(7))
    >>> ldim_certificate(classes.thresholds(7), w)["claim"]["upper"][1]
    3
    """
    from mistakebound.theory.littlestone import ldim_engine

    budget = Budget(max_nodes=max_nodes, time_limit=time_limit)
    engine = ldim_engine(H, budget=budget, read="certificate")
    bounds = engine.run()
    return engine_section(engine, bounds, writer, budget=budget.remaining(bounds))


def engine_section(engine: LdimEngine, bounds: LdimBounds, writer: CertificateWriter, *,
                   budget: Budget | None = None) -> dict:
    """Add to ``writer`` the section of what ``engine`` proved in its run (``bounds``, what its ``run()`` returned).

    The compiled search's reading (``engine.reading``, read in the run under its one budget)
    gives the section of :func:`kernel_section` when it is exact; when the run stopped before
    it (out of budget, interrupted, or the value found and the reading stopped), nothing is
    searched again: the section certifies what holds before any search
    (:func:`unsearched_section`), the bounds the run proved being the engine's to report.
    The Python search's memo is read within ``budget`` (:func:`ldim_section`, ``bounds``
    certified).

    Raises
    ------
    InvalidArgumentError
        For an engine not asked to read a certificate (``read="certificate"``).
    OutOfBudget
        When ``budget`` runs out while the Python search's shattered tree is read.
    """
    if engine.read != "certificate":
        raise InvalidArgumentError(f"engine: expected an engine asked to read a certificate (ldim_engine("
                                   f"read='certificate') or keep_search=True), got read={engine.read!r}")
    reading = engine.reading
    if reading is None:  # the Python search: its memo
        return ldim_section(engine.search, writer, lower=bounds.lower, upper=bounds.upper, budget=budget)
    if reading.bounds.exact:
        return kernel_section(engine.H, writer, reading.bounds.lower, reading.tree[0], reading.refutation)
    return unsearched_section(engine.H, writer)


def unsearched_section(H: HypothesisClass, writer: CertificateWriter) -> dict:
    """Add to ``writer`` the facts of what holds before any search: ``Ldim(H) >= 1`` when two rows differ (one split),
    and the upper bound of :meth:`LdimSearch.plan` (``floor(log2)`` of the distinct rows, or ``1 + floor(log2)`` of the
    smaller side of the most balanced split: no side of any split is larger), by ``log2`` steps alone.

    Nothing is searched (the plan needs no search, and neither do its facts); the section.

    Examples
    --------
    >>> from mistakebound import classes
    >>> from mistakebound.certificates.verify import check
    >>> w = CertificateWriter(classes.thresholds(7))
    >>> unsearched_section(classes.thresholds(7), w)["claim"]["upper"][1], check(w.document())
    (3, {'ldim': (1, 3)})
    """
    search = LdimSearch(H)
    plan = search.plan()
    return ldim_section(search, writer, lower=plan.lower, upper=plan.upper)


def kernel_section(H: HypothesisClass, writer: CertificateWriter, depth: int, instances: list[int],
                   refutation: tuple[list[int], list[int], list[int], list[int]]) -> dict:
    """Add to ``writer`` the facts proving ``Ldim(H) = depth`` read off the compiled search; the section.

    ``instances`` is the heap of a shattered tree of depth ``depth`` (its columns of ``H``;
    each node's version space is found down its path) and ``refutation`` the facts
    ``Ldim(V) <= b`` of :func:`~mistakebound.theory.ldim_kernel.kernel_tree`, whose entries
    name one column of ``H`` per split of the class's columns: each is written for every
    column of ``H`` equal to it on every row (the same label) or complementary (the other).
    A ``"log2"`` fact below the root is written in place, ``[x, y, "log2"]``, in every entry
    that cites it (the checker counts the side's rows there), with no space or fact of its own.
    Nothing is trusted: the checker judges the section.

    Examples
    --------
    >>> from mistakebound import classes
    >>> from mistakebound.certificates.verify import check
    >>> H = classes.thresholds(3)
    >>> w = CertificateWriter(H)
    >>> kernel_section(H, w, 2, [0, 1, 0, 2], ([2], [-1], [0], []))["claim"]
    {'lower': [6, 2], 'upper': [7, 2]}
    >>> check(w.document())
    {'ldim': (2, 2)}
    """
    with collection_paused():  # lists by the ten thousand, none of them garbage
        return _kernel_section(H, writer, depth, instances, refutation)


def _kernel_section(H: HypothesisClass, writer: CertificateWriter, depth: int, instances: list[int],
                    refutation: tuple[list[int], list[int], list[int], list[int]]) -> dict:
    """:func:`kernel_section`'s work."""
    masks, full = H.column_masks, H.full_mask
    parts = ([full ^ mask for mask in masks], masks)  # parts[y][x]: the rows labelling x with y
    facts: list[list] = []
    # the lower half: a "ge" fact per node of the tree, the leaves first, the root last
    first_leaf = 1 << depth
    spaces, ids = [0] * (2 * first_leaf), [0] * (2 * first_leaf)
    spaces[1], ids[1] = full, writer.space(full)
    for h in range(1, first_leaf):
        x, V = instances[h], spaces[h]
        for y, child in ((0, 2 * h), (1, 2 * h + 1)):
            spaces[child] = V & parts[y][x]
            ids[child] = writer.space(spaces[child], part_of=(ids[h], x, y))
    fact = [0] * (2 * first_leaf)
    for h in range(2 * first_leaf - 1, 0, -1):
        if h >= first_leaf:
            facts.append([ids[h], "ge", 0, None])
        else:
            facts.append([ids[h], "ge", depth - h.bit_length() + 1, [instances[h], fact[2 * h], fact[2 * h + 1]]])
        fact[h] = len(facts) - 1
    low = len(facts) - 1
    # the upper half: the refutation's facts in their order (children first), their spaces
    # found from the class's down the parts the entries name
    values, starts, counts, entries = refutation
    base, group = len(facts), _column_groups(H) if entries else {}
    root = len(values) - 1
    # a "log2" fact below the root is checked in place by every entry citing it: no space, no fact
    written = [k for k in range(len(values)) if starts[k] >= 0 or k == root]
    cite: list[int | str] = ["log2"] * len(values)  # what an entry citing fact k writes in its place
    for i, k in enumerate(written):
        cite[k] = base + i
    alone = all(len(g) == 1 for g in group.values())  # no column has a copy: one entry per triple
    space_of: dict[int, tuple[int, int] | None] = {root: (full, ids[1])}
    space_of.update(dict.fromkeys(k for k in range(root) if starts[k] < 0))  # in place: no space
    steps: dict[int, object] = {}
    for k in reversed(written):
        V, s = space_of[k]
        if starts[k] < 0:
            steps[k] = "log2"
            continue
        at = starts[k]
        triples = entries[at:at + 3 * counts[k]]
        columns, labels, children = triples[0::3], triples[1::3], triples[2::3]
        cites = list(map(cite.__getitem__, children))
        # the spaces first met here: one (column, label) per child (every entry citing a
        # written fact from V names the same side, the facts being one per version space)
        new = {child: (column, label) for column, label, child in zip(columns, labels, children)
               if child not in space_of}
        for child, (column, label) in new.items():
            W = V & parts[label][column]
            space_of[child] = (W, writer.space(W, part_of=(s, column, label)))
        if alone:  # the kernel lists a fact's entries by instance
            steps[k] = list(map(list, zip(columns, labels, cites)))
        else:
            step = [[x, label ^ flip, c] for column, label, c in zip(columns, labels, cites)
                    for x, flip in group[column]]
            step.sort(key=_first)
            steps[k] = step
    facts.extend([space_of[k][1], "le", values[k], steps[k]] for k in written)
    section = {"result": "ldim", "facts": facts,
               "claim": {"lower": [low, depth], "upper": [len(facts) - 1, values[-1]]}}
    writer.add(section)
    return section


def _first(entry: list) -> int:
    """An entry's instance (entries are listed by instance)."""
    return entry[0]


def _column_groups(H: HypothesisClass) -> dict[int, list[tuple[int, int]]]:
    """Per column of ``H``, the columns equal to it on every row (flip 0) or complementary (flip 1)."""
    masks, full = H.column_masks, H.full_mask
    by_mask: dict[int, list[int]] = {}
    for x, mask in enumerate(masks):
        by_mask.setdefault(mask, []).append(x)
    return {x: [(z, 0) for z in by_mask[mask]] + [(z, 1) for z in by_mask.get(full ^ mask, [])]
            for x, mask in enumerate(masks)}
