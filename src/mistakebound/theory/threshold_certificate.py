"""Certificates of the threshold dimension: a longest sequence, and a tree proving that none is longer.

The section (``"result": "threshold"``, checked by :mod:`mistakebound.certificates.threshold`)
holds

* ``lower``: the sequence the search found (:class:`~mistakebound.theory.threshold_dimension.ThresholdSequence`:
  instances ``x_1..x_d`` as column indices, hypotheses ``h_0..h_d`` as row indices);
* ``upper``, the cheapest proof that applies of the search's upper bound ``b``: ``"ldim"`` when an
  ``"ldim"`` section already in the writer proves ``Ldim <= L`` with ``2^(L + 1) - 2 <= b``;
  otherwise a tree over the states ``(I, Z)`` of growing a sequence from its bottom, written by a
  search of its own here aimed at ``b``: a state whose bound (the checker's own,
  :func:`~mistakebound.certificates.threshold.state_bound`) reaches at most ``b`` is closed, and
  any other is expanded over the steps the search of
  :mod:`~mistakebound.theory.threshold_dimension` keeps (rows whose 1s on the useful instances
  are minimal, then instances whose 1s on the rows are maximal), which dominate every other.

When the budget runs out before the tree is done, or the tree would be deeper than
:data:`MAX_DEPTH`, the section keeps the sides it can prove: the sequence, and ``"ldim"`` if it
applies.

Examples
--------
>>> from mistakebound import classes
>>> from mistakebound.certificates.verify import check
>>> from mistakebound.theory.certificate import CertificateWriter
>>> H = classes.intervals(4)                      # a chain of all 5 initial segments: a tree of one node
>>> w = CertificateWriter(H)
>>> section = threshold_section(H, w)
>>> section["lower"]["instances"], section["upper"]
([1, 2, 0, 3], {'value': 4, 'by': 'search', 'tree': {}})
>>> H = classes.random(30, 12, 0.5, seed=1)
>>> w = CertificateWriter(H)
>>> len(threshold_section(H, w)["upper"]["tree"]["children"])
125
>>> check(w.document())
{'threshold': (6, 6)}
"""

from __future__ import annotations


from mistakebound.certificates.threshold import state_bound
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.theory.certificate import CertificateWriter, row_numbers
from mistakebound.theory.search_protocol import Budget, Clock, OutOfBudget, SearchResult
from mistakebound.theory.threshold_dimension import threshold_bounds

__all__ = ["MAX_DEPTH", "threshold_section"]

#: The deepest tree a writer writes (a JSON document nests three levels a node; the checker's JSON
#: reader, like Python's, stops near a thousand): past it the section leaves its upper side out.
MAX_DEPTH = 250


def threshold_section(H: HypothesisClass, writer: CertificateWriter, *, max_nodes: int | None = None,
                      time_limit: float | None = None, result: SearchResult | None = None) -> dict:
    """Search ``Tdim(H)`` within a budget and add its certificate to ``writer`` (exact or partial).

    Parameters
    ----------
    H : HypothesisClass
        The writer's class.
    writer : CertificateWriter
        The document; an ``"ldim"`` section it already holds may prove the upper side.
    max_nodes, time_limit : optional
        A budget for the search (when ``result`` is not given) and, again, for the tree.
    result : ThresholdBounds, optional
        :func:`~mistakebound.theory.threshold_dimension.threshold_bounds` of ``H``, already
        computed (a profile's): its sequence and its upper bound are used as they are.

    Returns
    -------
    dict
        The section added; a side it cannot prove within the budget is left out.

    Raises
    ------
    InvalidArgumentError
        For a bad ``H`` or budget, or a writer of another class.

    Examples
    --------
    >>> from mistakebound import classes
    >>> from mistakebound.theory.threshold_dimension import threshold_bounds
    >>> H = classes.random(30, 12, 0.5, seed=1)
    >>> found = threshold_bounds(H)                  # say, a profile's
    >>> w = CertificateWriter(H)
    >>> sorted(threshold_section(H, w, result=found, max_nodes=2))   # the tree needs more nodes: no upper side
    ['lower', 'result']
    """
    H = writer.of(H)
    if result is None:
        result = threshold_bounds(H, max_nodes=max_nodes, time_limit=time_limit)
    seq = result.witness
    section: dict = {"result": "threshold",
                     "lower": {"instances": [H.index_of(x) for x in seq.instances],
                               "hypotheses": [int(h) for h in seq.hypotheses]}}
    b = int(result.upper)
    ldim = writer.claimed("ldim", "upper")
    if ldim is not None and (1 << ldim + 1) - 2 <= b:
        section["upper"] = {"value": b, "by": "ldim"}
    else:
        try:
            clock = Budget(max_nodes=max_nodes, time_limit=time_limit).start()
            tree = _Tree(H, b, clock).node((1 << H.n_hypotheses) - 1, (1 << H.n_instances) - 1, 0)
            section["upper"] = {"value": b, "by": "search", "tree": tree}
        except OutOfBudget:
            pass
    writer.add(section)
    return section


class _Tree:
    """The proof that no sequence of ``H`` is longer than ``b`` (see the module's docstring)."""

    def __init__(self, H: HypothesisClass, b: int, clock: Clock):
        self.rows = row_numbers(H)
        self.cols = [int(c) for c in H.column_masks]
        self.b, self.clock = b, clock

    def node(self, I: int, Z: int, depth: int) -> dict:
        self.clock.spend()
        Zu, patterns, bound = state_bound(self.rows, self.cols, I, Z)
        if depth + bound <= self.b:
            return {}
        if depth >= MAX_DEPTH:
            raise OutOfBudget
        if depth >= self.b:  # pragma: no cover - b is proven: no sequence reaches past it
            raise AssertionError(f"a threshold sequence of more than {self.b} instances")
        children = [[h, x, self.node(I & self.cols[x], Z & ~self.rows[h], depth + 1)]
                    for h, x in self._steps(I, Zu, patterns)]
        return {"children": children}

    def _steps(self, I: int, Zu: int, patterns: list[int]) -> list[tuple[int, int]]:
        """One step per pair of a minimal pattern of the rows of ``I`` on ``Zu`` and a maximal ``I & C_x``."""
        rows, cols = self.rows, self.cols
        by_pattern: dict[int, int] = {}
        i = I
        while i:
            low = i & -i
            by_pattern.setdefault(rows[low.bit_length() - 1] & Zu, low.bit_length() - 1)
            i ^= low
        minimal: list[int] = []
        for p in sorted(patterns, key=int.bit_count):
            if not any(not q & ~p for q in minimal):
                minimal.append(p)
        steps = []
        for p in minimal:
            by_rows: dict[int, int] = {}
            for x in range(len(cols)):
                if Zu >> x & 1 and not p >> x & 1:
                    by_rows.setdefault(cols[x] & I, x)
            maximal: list[int] = []
            for c in sorted(by_rows, key=int.bit_count, reverse=True):
                if not any(not c & ~d for d in maximal):
                    maximal.append(c)
            steps.extend((by_pattern[p], by_rows[c]) for c in maximal)
        return steps
