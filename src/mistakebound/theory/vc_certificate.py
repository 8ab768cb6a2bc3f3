"""Certificates of the VC dimension, read off the branches the VC search took.

The section (``"result": "vc"``, checked by :mod:`mistakebound.certificates.vc`) holds

* ``lower``: the shattered set the search found (instances as column indices);
* ``upper``: the cheapest proof that applies of the bound the search proved, tried in
  this order: ``"ldim"`` when an ``"ldim"`` section already in the writer proves
  ``Ldim <= b`` (``VCdim <= Ldim``); a tree of one node, ``S = {}`` with every candidate in
  its ``rest``, when their h-index is at most ``b`` (this covers ``floor(log2 |distinct
  rows|)`` and the number of candidates, the search's static bounds); ``"laminar"`` when the
  search found the columns laminar (``VCdim <= 1``), with each column's smallest superset
  as its parent; otherwise the search's own branches, recorded as it ran
  (:func:`~mistakebound.theory.vc.vc_bounds` with a record kept): one node per shattered
  set it expanded, its branches in the search's order, ``rest`` for the candidates an
  h-index cut (or the budget) left unbranched.  Each node names only the candidates whose
  gain could still reach past the bound proven (the checker requires exactly those):
  the search's other branches, cut by the bound it knew then or since, are left out.

The search that writes the section is the one over the rows (its branches are the proof),
even where :func:`~mistakebound.theory.vc.vc_bounds` alone would project the cube instead
(the cube search leaves no record a stdlib checker could replay quickly), so producing a
certificate may take longer than the search it certifies.

The columns the search dropped as copies of earlier ones (equal or complementary on
every row) are listed with the column each copies.  A search stopped by its budget
certifies the interval it proved: the branches it left open are the ``rest`` of the nodes
it was in, and their h-index is the search's own bound on them.

Examples
--------
>>> from mistakebound import classes
>>> from mistakebound.certificates.verify import check
>>> from mistakebound.theory.certificate import CertificateWriter
>>> H = classes.intervals(8)
>>> w = CertificateWriter(H)
>>> section = vc_section(H, w)
>>> section["lower"], section["upper"]["value"], section["upper"]["by"]
([2, 3], 2, 'search')
>>> [x for x, _ in section["upper"]["tree"]["split"]]      # the search's first branches
[2, 3, 4, 5, 0, 1]
>>> check(w.document())
{'vc': (2, 2)}
>>> w = CertificateWriter(classes.thresholds(100))
>>> vc_section(w.H, w)["upper"]["by"]
'laminar'
>>> check(w.document())
{'vc': (1, 1)}
"""

from __future__ import annotations


from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.theory.certificate import CertificateWriter
from mistakebound.theory.search_protocol import Budget
from mistakebound.theory.vc import VCBounds, _h_index, _searched, _VCSearch

__all__ = ["vc_section"]


def vc_section(H: HypothesisClass, writer: CertificateWriter, *, max_nodes: int | None = None,
               time_limit: float | None = None) -> dict:
    """Search ``VCdim(H)`` within a budget and add its certificate to ``writer`` (exact or partial).

    Parameters
    ----------
    H : HypothesisClass
        The writer's class.
    writer : CertificateWriter
        The document; an ``"ldim"`` section it already holds lends its upper bound to the
        search and to the certificate (``VCdim <= Ldim``, textbook Section 21.1).
    max_nodes, time_limit : optional
        A budget, as in :func:`~mistakebound.theory.vc.vc_bounds`; when it runs out the
        section certifies the interval proven.

    Returns
    -------
    dict
        The section added (its ``lower`` a shattered set, its ``upper["value"]`` the bound
        proven).

    Raises
    ------
    InvalidArgumentError
        For a bad ``H`` or budget, or a writer of another class.
    InsufficientMemoryError
        As :func:`~mistakebound.theory.vc.vc_bounds`.

    Examples
    --------
    >>> from mistakebound import classes
    >>> H = classes.random(300, 12, 0.5, seed=1)
    >>> w = CertificateWriter(H)
    >>> s = vc_section(H, w, max_nodes=1)
    >>> len(s["lower"]) <= s["upper"]["value"]
    True
    """
    H = writer.of(H)
    ldim_upper = writer.claimed("ldim", "upper")
    search, bounds = _searched(H, Budget(max_nodes=max_nodes, time_limit=time_limit), ldim_upper, record=True)
    section = {"result": "vc", "lower": sorted(search.cand[p] for p in search.best),
               "upper": _upper(search, bounds, ldim_upper)}
    writer.add(section)
    return section


def _upper(search: _VCSearch, bounds: VCBounds, ldim_upper: int | None) -> dict:
    """The cheapest proof of ``VCdim <= bounds.upper`` (see the module's docstring)."""
    b, cand = bounds.upper, search.cand
    if ldim_upper is not None and ldim_upper <= b:
        return {"value": b, "by": "ldim"}
    copies = search.copies
    n = search.n_distinct
    gains = [min(c.bit_count(), n - c.bit_count()).bit_length() for c in search.cols]
    if _h_index(sorted(gains, reverse=True)) <= b:
        root = {"split": [], "L": list(range(len(cand))), "gains": gains}
        return {"value": b, "by": "search", "copies": copies, "tree": _tree(root, cand, b, 0)}
    if search.parents is not None:
        return {"value": b, "by": "laminar", "parents": _parents(search)}
    if search.tree is None or "L" not in search.tree:  # pragma: no cover - a static bound applies then
        raise AssertionError("the VC search proved a bound its record does not hold")
    return {"value": b, "by": "search", "copies": copies, "tree": _tree(search.tree, cand, b, 0)}


def _tree(node: dict | None, cand: list[int], b: int, size: int) -> dict:
    """The node the checker reads for a recorded one of ``size`` instances, for the bound ``b``.

    The record keeps the search's list ``L`` (candidate positions) and their gains, and one
    ``[position, child]`` per branch taken, ``L``'s first ones in order (``None``: not
    expanded); the rest of ``L`` was left unbranched.  Only the candidates with
    ``size + gain > b`` are named; empty lists are left out.
    """
    out: dict = {}
    if node is None:
        return out
    L, gains, taken = node["L"], node["gains"], node["split"]
    split = [[cand[p], _tree(child, cand, b, size + 1)] for (p, child), g in zip(taken, gains) if size + g > b]
    rest = [cand[p] for p, g in zip(L[len(taken):], gains[len(taken):]) if size + g > b]
    if split:
        out["split"] = split
    if rest:
        out["rest"] = rest
    return out


def _parents(search: _VCSearch) -> list[int]:
    """Each instance's parent in the laminar forest: its smallest superset, copies chained under their original.

    A column's copies have the same rows (once turned to exclude row 0), so they hang in a
    chain below it (each ranking below the one before: same rows, larger index), and the
    column's own children move to the end of the chain, where they stay pairwise disjoint.
    """
    cand = search.cand
    parents = [-1] * search.H.n_instances
    for p, q in enumerate(search.parents):
        parents[cand[p]] = -1 if q < 0 else cand[q]
    chains: dict[int, list[int]] = {}
    for x, z in search.copies:
        chains.setdefault(z, []).append(x)
    for j in cand:
        if parents[j] in chains:
            parents[j] = chains[parents[j]][-1]
    for z, xs in chains.items():
        for above, x in zip([z] + xs, xs):
            parents[x] = above
    return parents
