"""Certificates of the teaching parameters: ``"td"``, ``"tsmin"`` and ``"rtd"`` sections, from the teaching searches.

The sections are checked by :mod:`mistakebound.certificates.teaching`, whose docstring says
what each holds and why it proves its claim.  Here:

* the **upper** sides are the searches' own witnesses
  (:mod:`mistakebound.theory.teaching`): a teaching set of every concept (``"td"``), a
  smallest one found (``"tsmin"``), the plan of the peeled layers in order (``"rtd"``: each
  concept's set teaches it within its layer's class, which holds every later concept);
* the **lower** sides are hitting trees, found here by a search of their own
  (:func:`hitting_tree`) for the bound the teaching search proved: for ``"td"`` one tree, of
  the hardest concept; for ``"tsmin"`` one per concept; for ``"rtd"`` one per concept of the
  class left when the layer of the largest value was peeled (every concept there needs that
  many instances within it).

Most trees are one ``"pack"``: a concept's neighbours in the one-inclusion graph (up to copied
columns) differ from it on disjoint sets of instances, and on thresholds, the cube and
intervals they alone settle every ``TS``; ``thresholds(63)`` and ``power_set(6)`` take one
node per tree (129 in all, 5 and 8 kB for the three sections), a random class of 200 rows
on 16 instances 10,542 nodes for ``TSmin`` (440 kB, checked in 0.3 s).

A side the search did not prove, or whose tree the budget did not let this module find, is
left out: a partial section claims only what it proves.  A profile's results are used as
they are (no search again)::

    for parameter in ("td", "tsmin", "rtd"):
        if getattr(profile, parameter) is not None:
            teaching_section(profile.H, writer, parameter, result=getattr(profile, parameter),
                             max_nodes=max_nodes, time_limit=time_limit)

Examples
--------
>>> from mistakebound import classes
>>> from mistakebound.certificates.verify import check
>>> from mistakebound.theory.certificate import CertificateWriter
>>> H = classes.intervals(5)
>>> w = CertificateWriter(H)
>>> for parameter in ("td", "tsmin", "rtd"):
...     _ = teaching_section(H, w, parameter)
>>> check(w.document())
{'td': (5, 5), 'tsmin': (2, 2), 'rtd': (2, 2)}
"""

from __future__ import annotations

import sys


from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.foundations.validation import check_choice
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.theory.certificate import CertificateWriter, row_numbers
from mistakebound.theory.search_protocol import Budget, Clock, OutOfBudget, SearchResult
from mistakebound.theory.table_reduction import reduce_table
from mistakebound.theory.teaching import (MinTeachingBounds, RecursiveTeachingBounds, TeachingBounds, _Teacher,
                                          minimum_teaching_set_bounds, recursive_teaching_bounds,
                                          teaching_dimension_bounds)

__all__ = ["PARAMETERS", "hitting_tree", "teaching_section"]

#: The parameters a section certifies, and the search whose result it is read off.
PARAMETERS = {"td": (teaching_dimension_bounds, TeachingBounds),
              "tsmin": (minimum_teaching_set_bounds, MinTeachingBounds),
              "rtd": (recursive_teaching_bounds, RecursiveTeachingBounds)}


def teaching_section(H: HypothesisClass, writer: CertificateWriter, parameter: str, *, max_nodes: int | None = None,
                     time_limit: float | None = None, result: SearchResult | None = None) -> dict:
    """Add a certificate of ``TD``, ``TSmin`` or ``RTD`` of ``H`` to ``writer`` (exact or partial); return it.

    Parameters
    ----------
    H : HypothesisClass
        The writer's class (labels 0 and 1).
    writer : CertificateWriter
        The document.
    parameter : {"td", "tsmin", "rtd"}
        The parameter, which is also the section's kind.
    max_nodes, time_limit : optional
        A budget, as in :func:`~mistakebound.theory.teaching.teaching_dimension_bounds`:
        for the search when ``result`` is not given, and (afresh) for the hitting trees.
    result : TeachingBounds, MinTeachingBounds or RecursiveTeachingBounds, optional
        The search's result for ``H`` already computed (a profile's), of the parameter's
        type; its witness gives the upper side and its ``lower`` the bound the trees prove.

    Returns
    -------
    dict
        The section added: ``"lower"`` and ``"upper"`` for the sides proven (see
        :mod:`mistakebound.certificates.teaching`).

    Raises
    ------
    InvalidArgumentError
        For a bad ``H``, ``parameter``, budget or ``result``, or a writer of another class.

    Examples
    --------
    >>> from mistakebound import classes
    >>> H = classes.thresholds(4)
    >>> w = CertificateWriter(H)
    >>> s = teaching_section(H, w, "td")
    >>> s["lower"], s["upper"]["value"]
    ({'value': 2, 'trees': [[1, {'pack': [0, 2]}]]}, 2)
    >>> sorted(teaching_section(H, w, "rtd", max_nodes=1))   # the search stops at once: only RTD <= 4 - 1
    ['result']
    """
    H = writer.of(H)
    parameter = check_choice("parameter", parameter, tuple(PARAMETERS))
    search, kind = PARAMETERS[parameter]
    if result is None:
        result = search(H, max_nodes=max_nodes, time_limit=time_limit)
    elif not isinstance(result, kind):
        raise InvalidArgumentError(f"result: expected a {kind.__name__} of H (from {search.__name__}), "
                                   f"got {type(result).__name__}")
    rows = row_numbers(H)
    reps = [int(i) for i in H.distinct_rows()[0]]
    section: dict = {"result": parameter}
    upper = _UPPER[parameter](H, rows, reps, result)
    if upper is not None:
        section["upper"] = upper
    clock = Budget(max_nodes=max_nodes, time_limit=time_limit).start()
    try:
        near = _near(H, clock)
    except OutOfBudget:  # no tree will be found within what is left either
        near = None
    lower = _LOWER[parameter](rows, reps, result, _Trees(rows, near, clock))
    if lower is not None:
        section["lower"] = lower
    writer.add(section)
    return section


# ------------------------------------------------------------------ upper sides
def _columns(H: HypothesisClass, instances: tuple) -> list[int]:
    """The column indices of instances the searches name by their domain values."""
    out = []
    for x in instances:
        try:
            out.append(H.index_of(x))
        except KeyError:  # an instance that is not hashable: the very object of the domain
            out.append(next(j for j, z in enumerate(H.domain) if z is x))
    return sorted(out)


def _td_upper(H: HypothesisClass, rows: list[int], reps: list[int], result: TeachingBounds) -> dict | None:
    sets = result.witness.sets
    if not sets or len(sets) != len(reps):  # the search did not read every concept
        return None
    entries = [[s.hypothesis, _columns(H, s.instances)] for s in sets]
    return {"value": max(len(xs) for _, xs in entries), "sets": entries}


def _tsmin_upper(H: HypothesisClass, rows: list[int], reps: list[int], result: MinTeachingBounds) -> dict | None:
    s = result.witness
    if s is None:
        return None
    return {"value": s.size, "sets": [[s.hypothesis, _columns(H, s.instances)]]}


def _rtd_upper(H: HypothesisClass, rows: list[int], reps: list[int], result: RecursiveTeachingBounds) -> dict | None:
    plan = [[s.hypothesis, _columns(H, s.instances)] for layer in result.witness.layers for s in layer.sets]
    if len(plan) != len(reps):  # the peeling stopped before the last layer
        return None
    return {"value": max((len(xs) for _, xs in plan), default=0), "plan": plan}


_UPPER = {"td": _td_upper, "tsmin": _tsmin_upper, "rtd": _rtd_upper}


# ------------------------------------------------------------------ lower sides
class _Trees:
    """What the lower sides' trees are found with: the rows, each concept's packed neighbours, the budget."""

    def __init__(self, rows: list[int], near: dict[int, list[int]] | None, clock: Clock):
        self.rows, self.near, self.clock = rows, near, clock


def _near(H: HypothesisClass, clock: Clock) -> dict[int, list[int]]:
    """Each concept's neighbours in the table of distinct rows without copied columns (by their first rows).

    Such a neighbour differs from the concept exactly on one column of that table and its
    copies in ``H``: different neighbours, on disjoint sets of instances.
    """
    T = reduce_table(H, copies="complement")  # as the teaching searches read the class
    near = _Teacher(T, clock).neighbours
    return {int(T.rows[i]): [int(T.rows[j]) for j in sorted(near[i])] for i in range(T.n_rows)}


def _trees(trees: _Trees, hs: list[int], W: list[int], a: int) -> list | None:
    """A hitting tree of ``TS(h; W) >= a`` for each ``h`` of ``hs`` (None when the budget runs out first)."""
    if a == 0:
        return []
    within = _Within(trees.rows, W, trees.near)
    out = []
    for h in hs:
        try:
            tree = within.tree(h, a, trees.clock)
        except OutOfBudget:
            return None
        if tree is None:  # pragma: no cover - the search proved the bound, so no smaller teaching set exists
            raise AssertionError(f"row {h} has a teaching set of fewer than {a} instances")
        out.append([h, tree])
    return out


def _td_lower(rows: list[int], reps: list[int], result: TeachingBounds, found: _Trees) -> dict | None:
    h = result.witness.hardest
    if h is None:
        return None
    trees = _trees(found, [h], reps, result.lower)
    return None if trees is None else {"value": result.lower, "trees": trees}


def _tsmin_lower(rows: list[int], reps: list[int], result: MinTeachingBounds, found: _Trees) -> dict | None:
    trees = _trees(found, reps, reps, result.lower)
    return None if trees is None else {"value": result.lower, "trees": trees}


def _rtd_lower(rows: list[int], reps: list[int], result: RecursiveTeachingBounds, found: _Trees) -> dict | None:
    a = result.lower
    left = [h for h in reps]  # the class left when the layer of value a was peeled (or after the last layer)
    for layer in result.witness.layers:
        if layer.value >= a:
            break
        gone = {rows[s.hypothesis] for s in layer.sets}
        left = [h for h in left if rows[h] not in gone]
    trees = _trees(found, left, left, a)
    return None if trees is None else {"value": a, "rows": left, "trees": trees}


_LOWER = {"td": _td_lower, "tsmin": _tsmin_lower, "rtd": _rtd_lower}


def hitting_tree(rows: list[int], h: int, W: list[int], a: int, clock: Clock | None = None) -> dict | None:
    """A tree proving that no fewer than ``a >= 1`` instances teach row ``h`` within the rows ``W``; None if some do.

    ``rows[i]`` is row ``i`` as a bitset over the instances; a node is as
    :mod:`mistakebound.certificates.teaching` reads it.  When ``h`` has ``a`` neighbours in
    ``W`` (rows differing from it on one instance only), the tree is one ``"pack"`` of them.
    Otherwise each node is the set ``S`` chosen so far, the instances ``E`` excluded and the
    count ``r`` left: when the rows ``S`` does not tell apart from ``h`` have ``r + 1``
    disagreement sets disjoint outside ``E`` (found greedily, smallest first), a ``"pack"``;
    else a branch on the row of fewest disagreements outside ``E``, one child per instance of
    them.  ``clock`` counts a node each (raising
    :class:`~mistakebound.theory.search_protocol.OutOfBudget` when spent).

    Examples
    --------
    >>> rows = [0b00, 0b01, 0b11]            # thresholds on 2 instances
    >>> hitting_tree(rows, 1, [0, 1, 2], 2)
    {'pack': [0, 2]}
    >>> hitting_tree(rows, 1, [0, 1, 2], 3) is None   # both instances teach it
    True
    >>> hitting_tree([0b000, 0b011, 0b101, 0b110], 0, [0, 1, 2, 3], 2)   # every pair of instances teaches
    {'g': 1, 'x': [[0, {'pack': [3]}], [1, {'pack': [2]}]]}
    """
    return _Within(rows, W).tree(h, a, clock or Budget().start())


class _Within:
    """The rows ``W`` of a class (bitsets over the instances), indexed by their labels, to find hitting trees in."""

    def __init__(self, rows: list[int], W: list[int], near: dict[int, list[int]] | None = None):
        self.rows, self.W, self.near = rows, W, near
        self.index: dict[int, int] = {}
        for g in W:
            self.index.setdefault(rows[g], g)
        self.members = set(self.index.values())
        self.width = max((rows[g].bit_length() for g in W), default=0)

    def tree(self, h: int, a: int, clock: Clock) -> dict | None:
        mine = self.rows[h]
        if self.near is not None and h in self.near:  # neighbours up to copied columns: disjoint disagreements
            neighbours = [g for g in self.near[h] if g in self.members]
        else:
            neighbours = [g for x in range(max(self.width, mine.bit_length()))
                          for g in [self.index.get(mine ^ 1 << x)] if g is not None]
        if len(neighbours) >= a:  # disagreements of one instance each, all different: disjoint
            clock.spend()
            return {"pack": neighbours[:a]}
        others = [(g, D) for D, g in ((r ^ mine, g) for r, g in self.index.items()) if D]
        limit = sys.getrecursionlimit()
        if a > limit // 2:
            sys.setrecursionlimit(a * 2 + 100)  # one frame per instance chosen
        try:
            return _node(others, 0, a - 1, clock)
        finally:
            sys.setrecursionlimit(limit)


def _node(cands: list[tuple[int, int]], E: int, r: int, clock: Clock) -> dict | None:
    """The node for the rows ``cands`` (row, disagreement set) not yet told apart, excluded ``E``, count ``r``."""
    clock.spend()
    if not cands:
        return None  # the instances chosen teach h
    rest = sorted(((D & ~E).bit_count(), g, D & ~E) for g, D in cands)
    if rest[0][0] == 0:  # no instance left tells this row apart
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
    while d:
        low = d & -d
        x = low.bit_length() - 1
        child = _node([(g2, D2) for g2, D2 in cands if not D2 & low], done, r - 1, clock)
        if child is None:
            return None
        children.append([x, child])
        done |= low
        d ^= low
    return {"g": g, "x": children}
