"""A class's table as the combinatorial parameters read it: its distinct rows, on the columns that matter.

The threshold dimension, the star number, the teaching dimensions and the degree of the
one-inclusion graph are properties of the class as a *family of sets* (the convention of
the Combinatorial Parameters database): two hypotheses with the same labels everywhere are
the same concept, so each search works on the distinct rows.  Columns matter differently to
each parameter:

* a constant column is in no star, no teaching set and no threshold sequence, and a column
  equal to another adds nothing to any of them (``copies="equal"``);
* the star number and the teaching dimensions are unchanged by complementing a column, so
  for them a column that is the complement of another adds nothing either
  (``copies="complement"``); the threshold dimension is not (a threshold sequence reads
  the labels in order), so it keeps complements;
* the degree of the one-inclusion graph counts pairs of concepts differing on exactly one
  instance of the domain as given, so it reads every column (``copies=None``,
  ``constants=True``).

:func:`reduce_table` does this once, and keeps each row and column's place in the class
so that a witness names the class's own hypotheses and instances.

Examples
--------
>>> from mistakebound import HypothesisClass
>>> H = HypothesisClass.from_matrix([[0, 1, 1, 0], [1, 0, 0, 0], [0, 1, 1, 0]])
>>> T = reduce_table(H, copies="complement")
>>> T.matrix.tolist(), T.rows.tolist(), T.columns.tolist()
([[0], [1]], [0, 1], [0])
>>> reduce_table(H, copies="equal").columns.tolist()
[0, 1]
>>> reduce_table(H, copies=None, constants=True).matrix.shape
(2, 4)
"""

from __future__ import annotations

import numpy as np
from attrs import field, frozen

from mistakebound.foundations import memory
from mistakebound.foundations.bitset import columns_to_masks
from mistakebound.foundations.memory import require_memory
from mistakebound.foundations.validation import check_choice, check_flag
from mistakebound.game.hypothesis_class import HypothesisClass, require_binary, require_class
from mistakebound.theory.ldim_search import search_memory_estimate
from mistakebound.theory.search_protocol import Budget, Clock

__all__ = ["COPIES", "ReducedTable", "reduce_table", "require_table_memory", "row_masks", "start_search",
           "table_memory_estimate"]

#: What :func:`reduce_table` drops as a copy of an earlier column: nothing, an equal column,
#: or an equal or complementary one.
COPIES = (None, "equal", "complement")


def row_masks(matrix: np.ndarray) -> list[int]:
    """Each row of the 0/1 ``matrix`` as a bitset over its columns (bit ``j`` = column ``j``).

    Examples
    --------
    >>> row_masks(np.array([[1, 0, 1], [0, 1, 1]], dtype=np.uint8))
    [5, 6]
    """
    return columns_to_masks(np.ascontiguousarray(np.asarray(matrix, dtype=np.uint8).T))


@frozen
class ReducedTable:
    """The distinct rows of a class, read on the columns kept (see :func:`reduce_table`).

    Attributes
    ----------
    matrix : numpy.ndarray
        The ``uint8`` table: one row per distinct hypothesis, one column per column kept.
    rows : numpy.ndarray
        For each row of ``matrix``, the index in the class of the first hypothesis with
        those labels.
    columns : numpy.ndarray
        For each column of ``matrix``, its index in the class's domain.
    row_bits : list of int
        Each row's 1s as a bitset over the columns kept (bit ``j`` = column ``j`` of ``matrix``).
    column_bits : list of int
        Each column's 1s as a bitset over the rows (bit ``i`` = row ``i`` of ``matrix``).
    """

    matrix: np.ndarray = field(repr=False)
    rows: np.ndarray = field(repr=False)
    columns: np.ndarray = field(repr=False)
    row_bits: list = field(repr=False, eq=False)
    column_bits: list = field(repr=False, eq=False)

    @property
    def n_rows(self) -> int:
        """Number of distinct rows."""
        return int(self.matrix.shape[0])

    @property
    def n_columns(self) -> int:
        """Number of columns kept."""
        return int(self.matrix.shape[1])

    @property
    def all_rows(self) -> int:
        """The bitset of every row."""
        return (1 << self.n_rows) - 1

    def instances(self, H: HypothesisClass, columns) -> tuple:
        """The instances of ``H`` that the given columns of :attr:`matrix` stand for, in the order given."""
        return tuple(H.domain[int(self.columns[j])] for j in columns)

    def hypotheses(self, rows) -> tuple:
        """The indices in the class of the given rows of :attr:`matrix`, in the order given."""
        return tuple(int(self.rows[i]) for i in rows)


def reduce_table(H: HypothesisClass, *, copies: str | None, constants: bool = False) -> ReducedTable:
    """The distinct rows of ``H`` on its columns, copies (and constant columns) dropped.

    Parameters
    ----------
    H : HypothesisClass
        A class of labels 0 and 1 (the caller checks).
    copies : {None, "equal", "complement"}
        Which later columns to drop as copies of an earlier one: none, those equal to it,
        or those equal or complementary to it.  The earliest column of each group is kept.
    constants : bool
        Whether to keep the columns constant on the class (default: drop them).

    Returns
    -------
    ReducedTable

    Examples
    --------
    >>> from mistakebound import classes
    >>> T = reduce_table(classes.singletons(3, include_empty=True), copies="equal")
    >>> T.n_rows, T.n_columns, T.row_bits, T.column_bits
    (4, 3, [1, 2, 4, 0], [1, 2, 4])
    """
    check_choice("copies", copies, COPIES)
    constants = check_flag("constants", constants)
    reps, _ = H.distinct_rows()
    D = H.matrix if reps.size == H.n_hypotheses else H.matrix[reps]
    n = int(D.shape[0])
    full = (1 << n) - 1
    cols = columns_to_masks(D)
    kept: list[int] = []
    seen: set[int] = set()
    for j, c in enumerate(cols):
        if not constants and (c == 0 or c == full):
            continue
        if copies is not None:
            key = min(c, full ^ c) if copies == "complement" else c
            if key in seen:
                continue
            seen.add(key)
        kept.append(j)
    columns = np.asarray(kept, dtype=np.int64)
    matrix = np.ascontiguousarray(D[:, columns]) if columns.size != D.shape[1] else np.ascontiguousarray(D)
    matrix = matrix.astype(np.uint8, copy=False)
    return ReducedTable(matrix=matrix, rows=np.asarray(reps, dtype=np.int64), columns=columns,
                        row_bits=row_masks(matrix), column_bits=[cols[j] for j in kept])


def table_memory_estimate(H: HypothesisClass) -> int:
    """Bytes a search over the reduced table of ``H`` allocates up front, with every row assumed distinct.

    The grouping of identical rows and the distinct rows (as for
    :func:`~mistakebound.theory.ldim_search.search_memory_estimate`), three working copies of
    the table (one byte per entry: the reduced table, its transpose, a complement), its
    bitsets both ways, and a few counts per row and column.  Linear in the table:
    ``thresholds(4095)`` needs about 100 MiB.

    Examples
    --------
    >>> from mistakebound import classes
    >>> table_memory_estimate(classes.thresholds(4095)) < 120 * 2**20
    True
    """
    n, m = H.n_hypotheses, H.n_instances
    return search_memory_estimate(H) + 3 * n * m + n * m // 4 + 16 * (n + m)


def require_table_memory(H: HypothesisClass, what: str) -> int | None:
    """Refuse, before it starts, a search whose :func:`table_memory_estimate` exceeds the memory available.

    Returns the memory available as read (once) for the search's memo, None when unknown.

    Raises
    ------
    InsufficientMemoryError
        Naming ``H``, the search (``what``) and the sizes.
    """
    available = memory.available_memory()
    require_memory(table_memory_estimate(H), parameter="H",
                   what=f"{what} of {H.n_hypotheses} hypotheses x {H.n_instances} instances",
                   advice="search a smaller class", available=available)
    return available


def start_search(H: HypothesisClass, *, what: str, search: str, copies: str | None, constants: bool = False,
                 max_nodes: int | None = None,
                 time_limit: float | None = None) -> tuple[ReducedTable, Clock, int | None]:
    """The checks and the start every parameter's search shares: the class, the budget, the memory, the table.

    Checks that ``H`` is a class of labels 0 and 1 (naming ``what`` it is needed for) and
    the budget, refuses a class whose :func:`table_memory_estimate` exceeds the memory
    available (naming ``search``), starts the clock, and reduces the table (``copies``,
    ``constants`` as for :func:`reduce_table`; the reading counts against the time limit).

    Returns
    -------
    (ReducedTable, Clock, int or None)
        The table, the running clock, and the memory available as read (None: unknown).

    Raises
    ------
    InvalidArgumentError
        For an ``H`` that is no HypothesisClass, or a bad ``max_nodes`` or ``time_limit``.
    NotApplicableError
        For a class of more than two labels.
    InsufficientMemoryError
        Before the search starts, when its tables cannot fit in the memory available.

    Examples
    --------
    >>> from mistakebound import classes
    >>> T, clock, _ = start_search(classes.thresholds(3), what="a parameter", search="a search",
    ...                            copies="equal", max_nodes=5)
    >>> T.n_rows, T.n_columns, clock.node_limit
    (4, 3, 5)
    """
    require_binary(require_class(H), what=what)
    budget = Budget(max_nodes=max_nodes, time_limit=time_limit)
    available = require_table_memory(H, search)
    clock = budget.start()
    return reduce_table(H, copies=copies, constants=constants), clock, available
