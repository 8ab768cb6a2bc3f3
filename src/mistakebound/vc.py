"""The VC dimension of a finite class, by depth-first search with early exit.

A set of instances is shattered when the class realises all its labelings.  Every
subset of a shattered set is shattered, so the search grows sets one instance at a
time and abandons a set as soon as it is not shattered.  A set ``S`` partitions the
class into ``2^|S|`` non-empty cells (one per labeling); adding instance ``x`` keeps
``S + x`` shattered exactly when ``x`` splits every cell, and a cell of ``s``
hypotheses can support at most ``floor(log2 s)`` further instances, which bounds how far
the current branch can still go.  Columns that are constant, or equal or complementary
to an earlier column, are never part of a shattered set of size two or more, so they
are dropped up front.

Examples
--------
>>> from mistakebound import classes
>>> vc_dimension(classes.thresholds(10))
1
>>> shattered_set(classes.power_set(3))
(0, 1, 2)
"""

from __future__ import annotations

from mistakebound.hypothesis_class import HypothesisClass
from mistakebound.littlestone import LdimSearch, _require_class

__all__ = ["vc_dimension", "shattered_set", "is_vc_shattered"]


def shattered_set(H: HypothesisClass) -> tuple:
    """A largest set of instances shattered by ``H`` (in the VC sense).

    Returns
    -------
    tuple
        Instances of ``H.domain``, in domain order; ``()`` when no single instance is
        labelled both ways.

    Examples
    --------
    >>> from mistakebound import classes
    >>> len(shattered_set(classes.intervals(6)))
    2
    """
    _require_class(H)
    index = LdimSearch(H)  # reuses its row merging and column packing
    full = index.full
    cols = index.columns
    seen: set[int] = set()
    cand: list[int] = []
    for j in range(len(cols)):
        c = cols[j]
        if c == 0 or c == full:
            continue
        key = min(c, full ^ c)
        if key not in seen:
            seen.add(key)
            cand.append(j)
    limit = full.bit_count().bit_length() - 1  # floor(log2 of the number of distinct rows)
    best: list[int] = []

    def grow(start: int, cells: list[int], chosen: list[int]) -> bool:
        nonlocal best
        if len(chosen) > len(best):
            best = list(chosen)
            if len(best) == limit:
                return True
        room = min(c.bit_count() for c in cells).bit_length() - 1
        if len(chosen) + room <= len(best):
            return False
        for pos in range(start, len(cand)):
            if len(chosen) + len(cand) - pos <= len(best):
                return False
            c = cols[cand[pos]]
            split: list[int] = []
            for cell in cells:
                a = cell & c
                if a == 0 or a == cell:
                    break
                split.append(a)
                split.append(cell ^ a)
            else:
                chosen.append(cand[pos])
                if grow(pos + 1, split, chosen):
                    return True
                chosen.pop()
        return False

    grow(0, [full], [])
    return tuple(H.domain[j] for j in sorted(best))


def vc_dimension(H: HypothesisClass) -> int:
    """The VC dimension of ``H``: the size of a largest shattered set.

    Examples
    --------
    >>> from mistakebound import classes
    >>> vc_dimension(classes.monotone_disjunctions(3))
    3
    """
    return len(shattered_set(H))


def is_vc_shattered(H: HypothesisClass, instances) -> bool:
    """Whether ``H`` realises every labeling of the given distinct instances.

    Examples
    --------
    >>> from mistakebound import classes
    >>> is_vc_shattered(classes.thresholds(5), [2]), is_vc_shattered(classes.thresholds(5), [2, 4])
    (True, False)
    """
    _require_class(H)
    items = list(instances)
    if len(set(items)) != len(items) or any(x not in H for x in items):
        return False
    patterns = {tuple(row) for row in H.matrix[:, [H.index_of(x) for x in items]].tolist()}
    return len(patterns) == 2 ** len(items)
