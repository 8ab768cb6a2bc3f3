"""Certificates of the star number and of the one-inclusion graph's largest degree: a star, and a proof.

Both sections are checked by :mod:`mistakebound.certificates.stars`; their lower side is the
star the search found (a center, instances as column indices, a leaf row per instance).

* ``"degree"``: the upper side is the search's upper bound, which the checker recounts (a
  class whose recount needs more than :data:`~mistakebound.certificates.stars.DEGREE_WORK`
  comparisons keeps only the lower side).
* ``"star"``: the upper side ``b`` is proven by a cover of the instances by chains of columns
  when ``2 * chains <= b`` (first fit, largest columns first: thresholds need one), otherwise
  by a tree per distinct center, written by a search of its own here aimed at ``b``: a node
  whose bound (the checker's own, :func:`~mistakebound.certificates.stars.star_bound`)
  reaches at most ``b`` is closed, any other split on its joinable candidates, fewest
  differing rows first.  When the budget runs out, or a tree would be deeper than
  :data:`~mistakebound.theory.threshold_certificate.MAX_DEPTH`, the upper side is left out.

Examples
--------
>>> from mistakebound import classes
>>> from mistakebound.certificates.verify import check
>>> from mistakebound.theory.certificate import CertificateWriter
>>> H = classes.singletons(5)
>>> w = CertificateWriter(H)
>>> star_section(H, w)["upper"]["by"], degree_section(H, w)["upper"]
('search', {'value': 0})
>>> check(w.document())
{'star': (4, 4), 'degree': (0, 0)}
>>> w = CertificateWriter(classes.thresholds(100))
>>> star_section(w.H, w)["upper"]["by"]
'chains'
"""

from __future__ import annotations

from mistakebound.certificates.stars import DEGREE_WORK, degree_work, joinable, star_bound, star_sets
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.theory.certificate import CertificateWriter, row_numbers
from mistakebound.theory.one_inclusion import Star, one_inclusion_degree_bounds
from mistakebound.theory.search_protocol import Budget, Clock, OutOfBudget, SearchResult
from mistakebound.theory.star_number import star_bounds
from mistakebound.theory.threshold_certificate import MAX_DEPTH

__all__ = ["degree_section", "star_section"]


def _star(H: HypothesisClass, star: Star) -> dict:
    """A star as the sections write it (instances by their column)."""
    return {"center": int(star.center) if star.center is not None else 0,
            "instances": [H.index_of(x) for x in star.instances], "leaves": [int(h) for h in star.leaves]}


def degree_section(H: HypothesisClass, writer: CertificateWriter, *, max_nodes: int | None = None,
                   time_limit: float | None = None, result: SearchResult | None = None) -> dict:
    """Find the largest degree of the one-inclusion graph of ``H`` and add its certificate to ``writer``.

    Parameters
    ----------
    H : HypothesisClass
        The writer's class.
    writer : CertificateWriter
        The document.
    max_nodes, time_limit : optional
        A budget for the search, when ``result`` is not given.
    result : OneInclusionDegree, optional
        :func:`~mistakebound.theory.one_inclusion.one_inclusion_degree_bounds` of ``H``, already computed.

    Returns
    -------
    dict
        The section added.

    Examples
    --------
    >>> from mistakebound import classes
    >>> w = CertificateWriter(classes.power_set(3))
    >>> degree_section(w.H, w)
    {'result': 'degree', 'lower': {'center': 0, 'instances': [0, 1, 2], 'leaves': [4, 2, 1]}, 'upper': {'value': 3}}
    """
    H = writer.of(H)
    if result is None:
        result = one_inclusion_degree_bounds(H, max_nodes=max_nodes, time_limit=time_limit)
    section: dict = {"result": "degree", "lower": _star(H, result.witness)}
    if degree_work(row_numbers(H), H.n_instances) <= DEGREE_WORK:
        section["upper"] = {"value": int(result.upper)}
    writer.add(section)
    return section


def star_section(H: HypothesisClass, writer: CertificateWriter, *, max_nodes: int | None = None,
                 time_limit: float | None = None, result: SearchResult | None = None) -> dict:
    """Search the star number of ``H`` within a budget and add its certificate to ``writer`` (exact or partial).

    Parameters
    ----------
    H : HypothesisClass
        The writer's class.
    writer : CertificateWriter
        The document.
    max_nodes, time_limit : optional
        A budget for the search (when ``result`` is not given) and, again, for the trees.
    result : StarBounds, optional
        :func:`~mistakebound.theory.star_number.star_bounds` of ``H``, already computed.

    Returns
    -------
    dict
        The section added; its upper side is left out when the budget runs out first.

    Examples
    --------
    >>> from mistakebound import classes
    >>> H = classes.random(30, 10, 0.5, seed=2)
    >>> w = CertificateWriter(H)
    >>> sorted(star_section(H, w, max_nodes=2))
    ['lower', 'result']
    """
    H = writer.of(H)
    if result is None:
        result = star_bounds(H, max_nodes=max_nodes, time_limit=time_limit)
    section: dict = {"result": "star", "lower": _star(H, result.witness)}
    b = int(result.upper)
    rows, cols = row_numbers(H), [int(c) for c in H.column_masks]
    chains = _chains(cols, (1 << H.n_hypotheses) - 1)
    if 2 * len(chains) <= b:
        section["upper"] = {"value": b, "by": "chains", "chains": chains}
    else:
        try:
            clock = Budget(max_nodes=max_nodes, time_limit=time_limit).start()
            section["upper"] = {"value": b, "by": "search", "centers": _centers(rows, cols, b, clock)}
        except OutOfBudget:
            pass
    writer.add(section)
    return section


def _chains(cols: list[int], full: int) -> list[list[int]]:
    """A first-fit cover of the non-constant columns by chains under inclusion, each listed smallest first."""
    chains: list[list[int]] = []
    for x in sorted(range(len(cols)), key=lambda x: -cols[x].bit_count()):
        if cols[x] in (0, full):
            continue
        for chain in chains:
            if not cols[x] & ~cols[chain[0]]:
                chain.insert(0, x)
                break
        else:
            chains.append([x])
    return chains


def _centers(rows: list[int], cols: list[int], b: int, clock: Clock) -> list:
    """A tree per distinct center proving that no star has more than ``b`` instances."""
    first: dict[int, int] = {}
    for i, r in enumerate(rows):
        first.setdefault(r, i)
    keep = sum(1 << i for i in first.values())
    out = []
    for c in first.values():
        E = star_sets(rows, cols, keep, c)
        out.append([c, _node(E, [], [], 0, list(range(len(cols))), b, clock)])
    return out


def _node(E: list[int], S: list[int], private: list[int], union: int, cands: list[int], b: int, clock: Clock) -> dict:
    clock.spend()
    join = joinable(E, private, union, cands)
    if len(S) + star_bound(E, union, join) <= b:
        return {}
    if len(S) >= MAX_DEPTH:
        raise OutOfBudget
    if len(S) >= b:  # pragma: no cover - b is proven: no star reaches past it
        raise AssertionError(f"a star of more than {b} instances")
    join.sort(key=lambda x: (E[x].bit_count(), x))
    split = []
    for k, x in enumerate(join):
        Ex = E[x]
        split.append([x, _node(E, S + [x], [p & ~Ex for p in private] + [Ex & ~union], union | Ex, join[k + 1:], b,
                               clock)])
    return {"split": split}
