"""The zoo: named finite hypothesis classes from the source texts, built as 0/1 tables.

Each function returns a :class:`~mistakebound.game.hypothesis_class.HypothesisClass` whose
``name`` is the call that made it (``"thresholds(8)"``, ``"k_sparse(6,2)"``) and whose
hypotheses carry readable names (``"x<3"``, ``"[2,5]"``, ``"x1 v x3"``, ``"{0,2}"``).
Every docstring states the class's size, VC dimension and Littlestone dimension, with
the textbook example it comes from or the small sizes at which it was checked by brute
force.  :data:`ZOO` maps each family's name to its function, and :func:`from_spec`
builds a class from a short text such as ``"thresholds:64"`` or ``"k_sparse:8,2"``.

Classes over the Boolean cube ``{0,1}^n`` list the instances as tuples in
:func:`itertools.product` order, so instance ``j`` is the binary expansion of ``j`` with
``x1`` as its most significant bit.  A table is built when the memory available takes it
and what every class builds beside it (the one check of a class's size,
:func:`~mistakebound.game.hypothesis_class.require_class_memory`, before anything is
allocated; ``MISTAKEBOUND_MEMORY_LIMIT`` caps it): there is no other limit on a size.

Examples
--------
>>> H = thresholds(3)
>>> H.name, H.names
('thresholds(3)', ('x<1', 'x<2', 'x<3', 'x<4'))
>>> from_spec("k_sparse:4,1").matrix.tolist()
[[0, 0, 0, 0], [1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]
"""

from __future__ import annotations

import inspect
import itertools
from collections.abc import Callable

import numpy as np

from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.foundations.validation import brief, check_flag, check_int, check_probability
from mistakebound.game.hypothesis_class import MAX_ENTRIES, HypothesisClass, require_class_memory, table_text
from mistakebound.game.specs import closest_hint, normal_name, parse_spec, spec_flags

__all__ = [
    "ZOO",
    "all_functions",
    "monotone_functions",
    "one_vs_rest",
    "disjunctions",
    "from_spec",
    "intervals",
    "k_sparse",
    "monotone_conjunctions",
    "monotone_disjunctions",
    "parities",
    "power_set",
    "projections",
    "random",
    "singletons",
    "thresholds",
]

#: Largest seed :func:`random` accepts (the 128 bits of entropy of a numpy SeedSequence).
MAX_SEED = 2**128 - 1
# Rows are filled in blocks of about this many entries, to bound temporary arrays.
_BLOCK_ENTRIES = 2**20


# ------------------------------------------------------------------ validation
def _require_int(param: str, value: object, minimum: int = 1, maximum: int = MAX_ENTRIES) -> int:
    """``value`` as an ``int`` if it is an integer (not a bool) in ``[minimum, maximum]``, else raise.

    A size above :data:`MAX_ENTRIES` is refused here, before any size is computed from it:
    every family has at least that many entries in its table.
    """
    value = check_int(param, value, minimum)
    if value > maximum:
        raise InvalidArgumentError(
            f"{param}: expected an integer <= {maximum:,}, got {brief(value)}; "
            + ("too large: the table would have more entries than an array can hold on this machine "
               f"({MAX_ENTRIES:,})" if maximum == MAX_ENTRIES else "too large")
        )
    return int(value)


def _block_rows(n_cols: int) -> int:
    """How many rows :func:`_fill` computes at once for a table of ``n_cols`` columns (at least one)."""
    return max(1, _BLOCK_ENTRIES // max(n_cols, 1))


def _require_size(spec: str, rows: int, cols: int, param: str, *, fill: int = 0) -> None:
    """Refuse a table that no array can hold, or that the memory available cannot take
    (:func:`~mistakebound.game.hypothesis_class.require_class_memory`, the one check of a class's size);
    ``fill``: the table is built by :func:`_fill` whose block function takes this many bytes per entry of a
    block for its temporary arrays (counted too: random's float64 draws, 8 bytes, and their comparison, 1)."""
    extra = fill * min(rows, _block_rows(cols)) * cols if rows * cols <= MAX_ENTRIES else 0
    require_class_memory(rows, cols, parameter=param, what=spec, extra=extra,
                         advice=f"too large for this machine: give a smaller {param}")


def _require_exponent(param: str, n: int, spec: str, size: Callable[[int], tuple[int, int]], *,
                      fill: int = 0) -> None:
    """Refuse a family of size ``2^n`` (or ``3^n``) that no array can hold or memory cannot take.

    ``size(n)`` gives (rows, columns); it is only evaluated for moderate ``n``, so an
    enormous ``n`` is refused without computing ``2**n``.
    """
    if n > 64:  # at least 2^n entries: more than any array holds
        raise InvalidArgumentError(
            f"{param}: {spec} is too large; it would need a table of more than 2^{n:,} entries, more than an "
            f"array can hold on this machine ({MAX_ENTRIES:,} entries)"
        )
    _require_size(spec, *size(n), param, fill=fill)


# ------------------------------------------------------------------ building blocks
def _fill(n_rows: int, n_cols: int, block: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """A ``uint8`` table whose rows ``r`` are ``block(r)`` (a boolean array), built in chunks.

    ``block`` is called on the rows in order, each time on at most :func:`_block_rows` of them; the bytes
    per entry its temporary arrays take are the family's ``fill`` in :func:`_require_size`."""
    out = np.empty((n_rows, n_cols), dtype=np.uint8)
    step = _block_rows(n_cols)
    for start in range(0, n_rows, step):
        rows = np.arange(start, min(start + step, n_rows))
        out[start : start + step] = block(rows)
    return out


def _cube(n: int) -> tuple[tuple, np.ndarray]:
    """The instances of ``{0,1}^n`` in product order and their integer codes (x1 = top bit)."""
    return tuple(itertools.product((0, 1), repeat=n)), np.arange(2**n, dtype=np.uint32)


def _members(code: int, n: int) -> list[int]:
    """The 1-based variables whose bits are set in ``code`` (variable i is bit ``n - i``)."""
    return [i for i in range(1, n + 1) if code >> (n - i) & 1]


def _subset_names(n: int, symbol: str, empty: str) -> list[str]:
    """Names ``"x1 <symbol> x3"`` of the subsets of {1..n}, indexed by their code."""
    return [f" {symbol} ".join(f"x{i}" for i in _members(r, n)) or empty for r in range(2**n)]


def _parity(values: np.ndarray) -> np.ndarray:
    """Parity of the number of set bits of each (< 2**32) unsigned integer."""
    v = values.astype(np.uint32)
    for shift in (16, 8, 4, 2, 1):
        v ^= v >> shift
    return (v & 1).astype(bool)


def _set_name(members) -> str:
    return "{" + ",".join(str(j) for j in members) + "}"


# ------------------------------------------------------------------ the line
def thresholds(N: int) -> HypothesisClass:
    """Thresholds on ``1..N``: ``h_a(x) = 1`` iff ``x < a``, for ``a = 1, ..., N+1``.

    Rows come in the order ``a = 1, ..., N+1``; the first is the all-zero hypothesis
    and the last the all-one hypothesis.  This is the finite version of the textbook's
    Example 21.4 (thresholds on ``[0, 1]``, where Ldim is infinite) and of the lecture
    notes' binary-search adversary.

    * ``|H| = N + 1``, ``|X| = N``.
    * ``VCdim = 1``: no hypothesis labels ``x < y`` as ``(0, 1)``.
    * ``Ldim = floor(log2(N + 1))``: the adversary halves the remaining thresholds at
      each mistake, and Example 21.2 gives ``Ldim <= log2 |H|``.  Checked by brute
      force for ``N = 1..16``.

    Parameters
    ----------
    N : int
        Number of instances, at least 1.

    Returns
    -------
    HypothesisClass
        Named ``"thresholds(N)"``, hypotheses named ``"x<a"``.

    Raises
    ------
    InvalidArgumentError
        If ``N`` is not an integer ``>= 1`` (bools rejected) or the table is too large.

    Examples
    --------
    >>> H = thresholds(3)
    >>> H.domain
    (1, 2, 3)
    >>> H.matrix.tolist()
    [[0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 1, 1]]
    """
    N = _require_int("N", N)
    spec = f"thresholds({N})"
    _require_size(spec, N + 1, N, "N", fill=1)  # the comparison
    x = np.arange(1, N + 1)
    matrix = _fill(N + 1, N, lambda r: x[None, :] < (r + 1)[:, None])
    return HypothesisClass.from_matrix(matrix, range(1, N + 1), [f"x<{a}" for a in range(1, N + 2)], name=spec)


def intervals(N: int) -> HypothesisClass:
    """Intervals on ``1..N``: ``h(x) = 1`` iff ``a <= x <= b``, plus the empty hypothesis.

    Rows list the intervals ``[a, b]`` with ``1 <= a <= b <= N`` in lexicographic order
    of ``(a, b)``, then the all-zero hypothesis ``"empty"`` last.

    * ``|H| = N(N+1)/2 + 1``, ``|X| = N``.
    * ``VCdim = 2`` for ``N >= 2`` (no interval labels ``x < y < z`` as ``(1, 0, 1)``),
      and 1 for ``N = 1``.
    * ``Ldim`` grows like ``log2 N``: it lies between ``floor(log2(N+1))`` (the
      thresholds' binary search works here too) and ``floor(log2 |H|)``.  Values
      computed by brute force:

      ====  ==  ==  ==  ==  ==  ==  ==  ==  ==  ==  ==  ==  ==  ==  ==  ==  ==  ==  ==  ==
      N      1   2   3   4   5   6   7   8   9  10  11  12  13  14  15  16  17  18  19  20
      Ldim   1   2   2   3   3   4   4   4   5   5   5   5   6   6   6   6   6   6   7   7
      ====  ==  ==  ==  ==  ==  ==  ==  ==  ==  ==  ==  ==  ==  ==  ==  ==  ==  ==  ==  ==

    Parameters
    ----------
    N : int
        Number of instances, at least 1.

    Returns
    -------
    HypothesisClass
        Named ``"intervals(N)"``, hypotheses named ``"[a,b]"`` and ``"empty"``.

    Raises
    ------
    InvalidArgumentError
        If ``N`` is not an integer ``>= 1`` or the table is too large.

    Examples
    --------
    >>> H = intervals(3)
    >>> H.names
    ('[1,1]', '[1,2]', '[1,3]', '[2,2]', '[2,3]', '[3,3]', 'empty')
    >>> H.matrix.tolist()
    [[1, 0, 0], [1, 1, 0], [1, 1, 1], [0, 1, 0], [0, 1, 1], [0, 0, 1], [0, 0, 0]]
    """
    N = _require_int("N", N)
    spec = f"intervals({N})"
    n_rows = N * (N + 1) // 2 + 1
    _require_size(spec, n_rows, N, "N", fill=3)  # two comparisons and their &
    a, b = np.triu_indices(N)  # 0-based ends, lexicographic in (a, b)
    a = np.append(a, N)  # the empty interval [N, -1] closes the list
    b = np.append(b, -1)
    x = np.arange(N)
    matrix = _fill(n_rows, N, lambda r: (a[r, None] <= x) & (x <= b[r, None]))
    names = [f"[{i + 1},{j + 1}]" for i, j in zip(a[:-1].tolist(), b[:-1].tolist())] + ["empty"]
    return HypothesisClass.from_matrix(matrix, range(1, N + 1), names, name=spec)


def singletons(d: int, include_empty: bool = False) -> HypothesisClass:
    """Singletons on ``1..d``: ``h_j(x) = 1`` iff ``x = j``, optionally with the empty hypothesis.

    Rows are ``h_1, ..., h_d``, then the all-zero hypothesis ``"empty"`` if
    ``include_empty``.  This is the textbook's Example 21.3 and Exercise 3: a class
    whose size grows with ``d`` while its Littlestone dimension stays at 1.

    * ``|H| = d`` (``d + 1`` with the empty hypothesis), ``|X| = d``.
    * ``VCdim = Ldim = 1``, except ``singletons(1)``, a single hypothesis, where both
      are 0.  With the empty hypothesis, ``d = 1`` gives two hypotheses and both are 1.

    Parameters
    ----------
    d : int
        Number of instances, at least 1.
    include_empty : bool, default False
        Whether to append the all-zero hypothesis.

    Returns
    -------
    HypothesisClass
        Named ``"singletons(d)"`` or ``"singletons(d,empty)"``, hypotheses named
        ``"x=j"`` and ``"empty"``.

    Raises
    ------
    InvalidArgumentError
        If ``d`` is not an integer ``>= 1``, ``include_empty`` is not a bool, or the
        table is too large.

    Examples
    --------
    >>> singletons(3).matrix.tolist()
    [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
    >>> H = singletons(2, include_empty=True)
    >>> H.name, H.names
    ('singletons(2,empty)', ('x=1', 'x=2', 'empty'))
    """
    d = _require_int("d", d)
    include_empty = check_flag("include_empty", include_empty, expected="a bool")
    spec = f"singletons({d},empty)" if include_empty else f"singletons({d})"
    n_rows = d + include_empty
    _require_size(spec, n_rows, d, "d")
    matrix = np.eye(n_rows, d, dtype=np.uint8)
    names = [f"x={j}" for j in range(1, d + 1)] + ["empty"] * include_empty
    return HypothesisClass.from_matrix(matrix, range(1, d + 1), names, name=spec)


# ------------------------------------------------------------------ the Boolean cube
def monotone_disjunctions(n: int) -> HypothesisClass:
    """Monotone disjunctions over ``{0,1}^n``: ``h_S(x) = OR_{i in S} x_i`` for every ``S``.

    Row ``r`` is ``h_S`` for the set ``S`` whose indicator vector is ``domain[r]``, so
    row 0 is the empty disjunction (always 0, named ``"false"``).  The lecture notes'
    first example: the elimination algorithm learns it with at most ``n`` mistakes, and
    the unit vectors force ``n``.

    * ``|H| = 2^n``, ``|X| = 2^n``.
    * ``VCdim = Ldim = n``: the unit vectors are shattered, and
      ``VCdim <= Ldim <= log2 |H| = n`` (Theorem 21.9 and Example 21.2).

    Parameters
    ----------
    n : int
        Number of variables, at least 1 (the memory available bounds it).

    Returns
    -------
    HypothesisClass
        Named ``"monotone_disjunctions(n)"``, hypotheses named like ``"x1 v x3"``.

    Raises
    ------
    InvalidArgumentError
        If ``n`` is not an integer ``>= 1``, or the table would be too large.

    Examples
    --------
    >>> H = monotone_disjunctions(2)
    >>> H.domain
    ((0, 0), (0, 1), (1, 0), (1, 1))
    >>> H.names
    ('false', 'x2', 'x1', 'x1 v x2')
    >>> H.matrix.tolist()
    [[0, 0, 0, 0], [0, 1, 0, 1], [0, 0, 1, 1], [0, 1, 1, 1]]
    """
    n = _require_int("n", n)
    spec = f"monotone_disjunctions({n})"
    _require_exponent("n", n, spec, lambda n: (2**n, 2**n), fill=5)  # uint32 &, its test
    domain, x = _cube(n)
    matrix = _fill(2**n, 2**n, lambda s: (s[:, None].astype(np.uint32) & x) != 0)
    return HypothesisClass.from_matrix(matrix, domain, _subset_names(n, "v", "false"), name=spec)


def disjunctions(n: int) -> HypothesisClass:
    """Disjunctions of literals over ``{0,1}^n``: each variable appears as ``x_i``, ``~x_i`` or not at all.

    Row ``r`` corresponds to the ``r``-th element of
    ``itertools.product((0, 1, 2), repeat=n)``: state 0 leaves ``x_i`` out, 1 adds
    ``x_i``, 2 adds ``~x_i``.  Row 0 is the empty disjunction (always 0, ``"false"``).
    No disjunction holds both ``x_i`` and ``~x_i`` (that would be always true), and no
    two rows coincide: a non-empty disjunction is false exactly on the subcube fixed
    by its literals, which determines them, and it is true somewhere, unlike the empty
    one.  So nothing is removed and ``|H| = 3^n``, the count behind the lecture notes'
    Halving bound ``log2 |H| = n log2 3``.

    * ``|H| = 3^n``, ``|X| = 2^n``.
    * ``VCdim = n``: checked by brute force for ``n = 1..4``; the unit vectors give
      ``>= n``.
    * ``Ldim = n + 1`` for ``n = 2, ..., 5`` and 1 for ``n = 1`` (brute force).  In
      general ``n <= Ldim <= n + 1``: start from all ``2n`` literals and drop those
      true on each false positive; the first mistake drops ``n`` of them and each later
      one at least one more.

    Parameters
    ----------
    n : int
        Number of variables, at least 1 (at most 11 by the table-size limit).

    Returns
    -------
    HypothesisClass
        Named ``"disjunctions(n)"``, hypotheses named like ``"x1 v ~x3"``.

    Raises
    ------
    InvalidArgumentError
        If ``n`` is not an integer ``>= 1``, or the table would be too large.

    Examples
    --------
    >>> H = disjunctions(1)
    >>> H.names
    ('false', 'x1', '~x1')
    >>> H.matrix.tolist()
    [[0, 0], [0, 1], [1, 0]]
    >>> disjunctions(3).matrix.shape
    (27, 8)
    """
    n = _require_int("n", n)
    spec = f"disjunctions({n})"
    _require_exponent("n", n, spec, lambda n: (3**n, 2**n), fill=11)  # two uint32 & and tests, their |
    domain, x = _cube(n)
    digits = (np.arange(3**n)[:, None] // 3 ** np.arange(n - 1, -1, -1)) % 3  # column i-1 is x_i
    weights = (1 << np.arange(n - 1, -1, -1)).astype(np.uint32)
    pos = ((digits == 1) * weights).sum(axis=1).astype(np.uint32)
    neg = ((digits == 2) * weights).sum(axis=1).astype(np.uint32)
    not_x = ~x & np.uint32(2**n - 1)
    matrix = _fill(3**n, 2**n, lambda r: ((pos[r, None] & x) != 0) | ((neg[r, None] & not_x) != 0))
    literal = {1: "x{}", 2: "~x{}"}
    names = [
        " v ".join(literal[s].format(i) for i, s in enumerate(state, 1) if s) or "false"
        for state in itertools.product((0, 1, 2), repeat=n)
    ]
    return HypothesisClass.from_matrix(matrix, domain, names, name=spec)


def monotone_conjunctions(n: int) -> HypothesisClass:
    """Monotone conjunctions over ``{0,1}^n``: ``h_S(x) = AND_{i in S} x_i`` for every ``S``.

    Row ``r`` is ``h_S`` for the ``S`` whose indicator vector is ``domain[r]``; row 0 is
    the empty conjunction (always 1, named ``"true"``).

    * ``|H| = 2^n``, ``|X| = 2^n``.
    * ``VCdim = Ldim = n``: the points with a single 0 are shattered, and
      ``VCdim <= Ldim <= log2 |H| = n`` (Theorem 21.9 and Example 21.2).

    Parameters
    ----------
    n : int
        Number of variables, at least 1 (the memory available bounds it).

    Returns
    -------
    HypothesisClass
        Named ``"monotone_conjunctions(n)"``, hypotheses named like ``"x1 & x3"``.

    Raises
    ------
    InvalidArgumentError
        If ``n`` is not an integer ``>= 1``, or the table would be too large.

    Examples
    --------
    >>> H = monotone_conjunctions(2)
    >>> H.names
    ('true', 'x2', 'x1', 'x1 & x2')
    >>> H.matrix.tolist()
    [[1, 1, 1, 1], [0, 1, 0, 1], [0, 0, 1, 1], [0, 0, 0, 1]]
    """
    n = _require_int("n", n)
    spec = f"monotone_conjunctions({n})"
    _require_exponent("n", n, spec, lambda n: (2**n, 2**n), fill=5)  # uint32 &, its test
    domain, x = _cube(n)
    matrix = _fill(2**n, 2**n, lambda s: (s[:, None].astype(np.uint32) & x) == s[:, None])
    return HypothesisClass.from_matrix(matrix, domain, _subset_names(n, "&", "true"), name=spec)


def projections(n: int) -> HypothesisClass:
    """Projections over ``{0,1}^n``: ``h_i(x) = x_i`` for ``i = 1, ..., n``.

    * ``|H| = n``, ``|X| = 2^n``.
    * ``VCdim = Ldim = floor(log2 n)``.  Take ``k = floor(log2 n)`` points, point ``t``
      having ``x_i`` equal to bit ``t`` of ``i - 1``: the first ``2^k`` projections
      realise every labeling, so ``VCdim >= k``; and ``Ldim <= log2 |H|``
      (Example 21.2).  Checked by brute force for ``n = 1..7``.  The lecture notes
      claim Halving errs at most once here; that only holds against a friendly
      sequence, since on the whole cube an adversary can split the version space in
      half at every round.

    Parameters
    ----------
    n : int
        Number of variables, at least 1 (the memory available bounds it).

    Returns
    -------
    HypothesisClass
        Named ``"projections(n)"``, hypotheses named ``"x1", ..., "xn"``.

    Raises
    ------
    InvalidArgumentError
        If ``n`` is not an integer ``>= 1``; ``InsufficientMemoryError`` if the table would not fit.

    Examples
    --------
    >>> H = projections(2)
    >>> H.names
    ('x1', 'x2')
    >>> H.matrix.tolist()
    [[0, 0, 1, 1], [0, 1, 0, 1]]
    """
    n = _require_int("n", n)
    spec = f"projections({n})"
    _require_exponent("n", n, spec, lambda n: (n, 2**n))
    domain, x = _cube(n)
    shifts = np.arange(n - 1, -1, -1, dtype=np.uint32)
    matrix = ((x[None, :] >> shifts[:, None]) & 1).astype(np.uint8)
    return HypothesisClass.from_matrix(matrix, domain, [f"x{i}" for i in range(1, n + 1)], name=spec)


def parities(n: int) -> HypothesisClass:
    """Parities over ``{0,1}^n``: ``h_S(x) = XOR_{i in S} x_i`` for every ``S``.

    Row ``r`` is ``h_S`` for the ``S`` whose indicator vector is ``domain[r]``; row 0 is
    the empty parity (always 0, named ``"false"``).  The table is the ``2^n x 2^n``
    Hadamard pattern in 0/1 form.

    * ``|H| = 2^n``, ``|X| = 2^n``.
    * ``VCdim = Ldim = n``: the unit vectors are shattered, and
      ``VCdim <= Ldim <= log2 |H| = n`` (Theorem 21.9 and Example 21.2).

    Parameters
    ----------
    n : int
        Number of variables, at least 1 (the memory available bounds it).

    Returns
    -------
    HypothesisClass
        Named ``"parities(n)"``, hypotheses named like ``"x1 xor x3"``.

    Raises
    ------
    InvalidArgumentError
        If ``n`` is not an integer ``>= 1``, or the table would be too large.

    Examples
    --------
    >>> H = parities(2)
    >>> H.names
    ('false', 'x2', 'x1', 'x1 xor x2')
    >>> H.matrix.tolist()
    [[0, 0, 0, 0], [0, 1, 0, 1], [0, 0, 1, 1], [0, 1, 1, 0]]
    """
    n = _require_int("n", n)
    spec = f"parities({n})"
    _require_exponent("n", n, spec, lambda n: (2**n, 2**n), fill=13)  # uint32 &, _parity's copy and shifts, bool
    domain, x = _cube(n)
    matrix = _fill(2**n, 2**n, lambda s: _parity(s[:, None].astype(np.uint32) & x))
    return HypothesisClass.from_matrix(matrix, domain, _subset_names(n, "xor", "false"), name=spec)


# ------------------------------------------------------------------ labelings of 0..d-1
def power_set(d: int) -> HypothesisClass:
    """Every labeling of the domain ``0..d-1``.

    Row ``r`` is the ``r``-th element of ``itertools.product((0, 1), repeat=d)``, so
    instance 0 is the most significant bit of ``r``.  Hypotheses are named by the set
    they label 1, e.g. ``"{0,2}"``; the all-zero one is ``"{}"``.

    * ``|H| = 2^d``, ``|X| = d``.
    * ``VCdim = Ldim = d``: the whole domain is shattered, and
      ``Ldim <= log2 |H| = d`` (Example 21.2).

    Parameters
    ----------
    d : int
        Number of instances, at least 1 (the memory available bounds it).

    Returns
    -------
    HypothesisClass
        Named ``"power_set(d)"``.

    Raises
    ------
    InvalidArgumentError
        If ``d`` is not an integer ``>= 1``; ``InsufficientMemoryError`` if the table would not fit.

    Examples
    --------
    >>> H = power_set(2)
    >>> H.names
    ('{}', '{1}', '{0}', '{0,1}')
    >>> H.matrix.tolist()
    [[0, 0], [0, 1], [1, 0], [1, 1]]
    """
    d = _require_int("d", d)
    spec = f"power_set({d})"
    _require_exponent("d", d, spec, lambda d: (2**d, d), fill=17)  # int64 shifts and &, the test
    shifts = np.arange(d - 1, -1, -1, dtype=np.int64)
    matrix = _fill(2**d, d, lambda r: (r[:, None] >> shifts[None, :]) & 1 == 1)
    names = [_set_name(i - 1 for i in _members(r, d)) for r in range(2**d)]
    return HypothesisClass.from_matrix(matrix, range(d), names, name=spec)


def k_sparse(d: int, k: int) -> HypothesisClass:
    """Every labeling of ``0..d-1`` with at most ``k`` ones.

    Rows are grouped by their number of ones (``0, 1, ..., k``), each group in the
    order of :func:`itertools.combinations`; hypotheses are named by the set they
    label 1, e.g. ``"{0,2}"``.

    * ``|H| = sum_{i=0..k} C(d, i)``, ``|X| = d``.
    * ``VCdim = k``: any ``k`` instances are shattered, and no ``k + 1`` can be
      labelled all 1.
    * ``Ldim = k``: ``VCdim <= Ldim`` (Theorem 21.9), and the learner that predicts 1
      only on instances already seen labelled 1 errs at most once per instance of the
      target's at most ``k`` ones.

    Parameters
    ----------
    d : int
        Number of instances, at least 1.
    k : int
        Largest number of ones, ``0 <= k <= d``.

    Returns
    -------
    HypothesisClass
        Named ``"k_sparse(d,k)"``.

    Raises
    ------
    InvalidArgumentError
        If ``d`` is not an integer ``>= 1``, ``k`` is not an integer in ``[0, d]``, or
        the table would be too large.

    Examples
    --------
    >>> H = k_sparse(3, 2)
    >>> H.names
    ('{}', '{0}', '{1}', '{2}', '{0,1}', '{0,2}', '{1,2}')
    >>> H.matrix.shape
    (7, 3)
    """
    d = _require_int("d", d)
    try:
        k = check_int("k", k, 0, d)
    except InvalidArgumentError as exc:  # say where the upper end comes from
        raise InvalidArgumentError(str(exc).replace(f"to {d},", f"to {d} (= d),", 1)) from None
    spec = f"k_sparse({d},{k})"
    n_rows, term = 0, 1  # term = C(d, i); the sum stops as soon as the table is too large
    for i in range(k + 1):
        n_rows += term
        if n_rows * d > MAX_ENTRIES:
            if i < k:
                raise InvalidArgumentError(
                    f"{spec}: too large; it would need more than {table_text(n_rows, d)}, "
                    f"more than an array can hold on this machine ({MAX_ENTRIES:,} entries)"
                )
            break
        term = term * (d - i) // (i + 1)
    _require_size(spec, n_rows, d, "d")
    supports = [c for i in range(k + 1) for c in itertools.combinations(range(d), i)]
    rows = np.repeat(np.arange(n_rows), [len(c) for c in supports])
    cols = np.fromiter(itertools.chain.from_iterable(supports), dtype=np.int64, count=rows.size)
    matrix = np.zeros((n_rows, d), dtype=np.uint8)
    matrix[rows, cols] = 1
    return HypothesisClass.from_matrix(matrix, range(d), [_set_name(c) for c in supports], name=spec)


def random(n_hypotheses: int, n_instances: int, density: float, seed: int) -> HypothesisClass:
    """A random table with i.i.d. Bernoulli(``density``) entries.

    Drawn from ``numpy.random.default_rng(seed)``, never from global random state, so
    the same arguments always give the same class.  Rows may repeat.

    * ``|H| = n_hypotheses`` (duplicates included), ``|X| = n_instances``.
    * ``VCdim`` and ``Ldim`` depend on the draw; both are at most
      ``floor(log2(number of distinct rows))`` (Example 21.2).

    Parameters
    ----------
    n_hypotheses : int
        Number of rows, at least 1.
    n_instances : int
        Number of instances ``0..n_instances-1``, at least 1.
    density : float
        Probability of a 1, in ``[0, 1]``.  0 gives the all-zero table, 1 the all-one.
    seed : int
        Seed of the generator, ``0 <= seed < 2**128``.

    Returns
    -------
    HypothesisClass
        Named ``"random(n_hypotheses,n_instances,density,seed)"``, hypotheses named
        ``"h0", "h1", ...``.

    Raises
    ------
    InvalidArgumentError
        If a size or ``seed`` is not a suitable integer, ``density`` is not a number in
        ``[0, 1]``, or the table would be too large.

    Examples
    --------
    >>> H = random(3, 4, 0.5, seed=1)
    >>> H.name, H.matrix.shape
    ('random(3,4,0.5,1)', (3, 4))
    >>> bool((H.matrix == random(3, 4, 0.5, seed=1).matrix).all())
    True
    >>> random(2, 3, 1.0, seed=0).matrix.tolist()
    [[1, 1, 1], [1, 1, 1]]
    """
    n_hypotheses = _require_int("n_hypotheses", n_hypotheses)
    n_instances = _require_int("n_instances", n_instances)
    density = check_probability("density", density)
    seed = _require_int("seed", seed, minimum=0, maximum=MAX_SEED)
    spec = f"random({n_hypotheses},{n_instances},{density!r},{seed})"
    _require_size(spec, n_hypotheses, n_instances, "n_hypotheses", fill=9)  # float64 draws, bool
    rng = np.random.default_rng(seed)
    # drawn by blocks of rows, in order: the same stream as one (n_hypotheses, n_instances) draw, without
    # its float64 table (8 bytes an entry, issue 27)
    matrix = _fill(n_hypotheses, n_instances, lambda r: rng.random((len(r), n_instances)) < density)
    return HypothesisClass.from_matrix(
        matrix, range(n_instances), [f"h{i}" for i in range(n_hypotheses)], name=spec
    )


# ------------------------------------------------------------------ classes of k labels
def _labels(k: object) -> int:
    return _require_int("k", k, minimum=2, maximum=256)


def all_functions(n: int, k: int) -> HypothesisClass:
    """Every function from ``0..n-1`` to the ``k`` labels ``0..k-1``: the multiclass power set.

    Row ``r`` writes ``r`` in base ``k``, instance 0 as its most significant digit.

    * ``|H| = k^n``, ``|X| = n``; with ``k = 2`` the rows of :func:`power_set` ``(n)``.
    * Multiclass Littlestone dimension ``n`` (full information: a tree branching on two
      labels at each of the ``n`` instances is shattered, and a mistake on an instance
      shows its label, so a learner errs at most once per instance; Daniely, Sabato,
      Ben-David and Shalev-Shwartz 2011).
    * Bandit Littlestone dimension ``n (k - 1)`` (the adversary answers "wrong" to ``k - 1``
      guesses on each instance; a learner that never repeats a wrong guess errs at most
      ``k - 1`` times on each; Daniely and Helbertal 2013).

    Examples
    --------
    >>> H = all_functions(2, 3)
    >>> H.n_hypotheses, H.labels, H.matrix[5].tolist()
    (9, (0, 1, 2), [1, 2])
    """
    n, k = _require_int("n", n), _labels(k)
    spec = f"all_functions({n},{k})"
    _require_exponent("n", n, spec, lambda n: (k**n, n), fill=17)  # int64 // and %, then uint8
    powers = k ** np.arange(n - 1, -1, -1, dtype=np.int64)
    matrix = _fill(k**n, n, lambda r: ((r[:, None] // powers[None, :]) % k).astype(np.uint8))
    # each row's digits as its name, read from the table's bytes (a list of Python ints per row would take
    # 8 bytes an entry more than the estimate counts)
    names = [b.decode("ascii") for b in (matrix + ord("0")).view(f"S{n}").ravel()] if k <= 10 else None
    return HypothesisClass.from_matrix(matrix, range(n), names, name=spec, labels=k)


def one_vs_rest(d: int, k: int) -> HypothesisClass:
    """Multiclass singletons on ``1..d``: label 0 everywhere, or one instance ``j`` given a label ``c`` in ``1..k-1``.

    * ``|H| = 1 + d (k - 1)``, ``|X| = d``; with ``k = 2``, :func:`singletons` ``(d, include_empty=True)``.
    * Multiclass Littlestone dimension 1: the learner predicts 0 until its first mistake,
      which names the hypothesis.
    * Bandit Littlestone dimension ``k - 1``: after the first mistake the learner knows
      ``j`` but only that the label is not 0, and the adversary rejects ``k - 2`` more guesses
      there (a learner trying each label once errs no more).

    Examples
    --------
    >>> H = one_vs_rest(2, 3)
    >>> H.names
    ('0', '1@1', '2@1', '1@2', '2@2')
    >>> H.matrix.tolist()
    [[0, 0], [1, 0], [2, 0], [0, 1], [0, 2]]
    """
    d, k = _require_int("d", d), _labels(k)
    spec = f"one_vs_rest({d},{k})"
    _require_size(spec, 1 + d * (k - 1), d, "d")
    matrix = np.zeros((1 + d * (k - 1), d), dtype=np.uint8)
    names = ["0"]
    for j in range(d):
        for c in range(1, k):
            matrix[len(names), j] = c
            names.append(f"{c}@{j + 1}")
    return HypothesisClass.from_matrix(matrix, range(1, d + 1), names, name=spec, labels=k)


def monotone_functions(N: int, k: int) -> HypothesisClass:
    """Multiclass thresholds: the non-decreasing functions from ``1..N`` to the labels ``0..k-1``.

    A hypothesis is ``k - 1`` thresholds ``a_1 <= ... <= a_{k-1}`` in ``1..N+1``; it gives ``x``
    the number of thresholds at or below ``x``.  Named by its labels in order (``"0012"``).

    * ``|H| = C(N + k - 1, k - 1)``, ``|X| = N``; with ``k = 2`` the :func:`thresholds` ``(N)``
      turned around (``x >= a`` instead of ``x < a``), of Ldim ``floor(log2(N + 1))``.

    Examples
    --------
    >>> H = monotone_functions(2, 3)
    >>> H.names
    ('00', '01', '02', '11', '12', '22')
    """
    N, k = _require_int("N", N), _labels(k)
    spec = f"monotone_functions({N},{k})"
    import math

    _require_size(spec, math.comb(N + k - 1, k - 1), N, "N")
    rows = [row for row in itertools.combinations_with_replacement(range(k), N)]  # non-decreasing label words
    matrix = np.array(rows, dtype=np.uint8).reshape(len(rows), N)
    names = ["".join(map(str, row)) for row in rows] if k <= 10 else None
    return HypothesisClass.from_matrix(matrix, range(1, N + 1), names, name=spec, labels=k)


# ------------------------------------------------------------------ registry and specs
#: The zoo: each family's spec name mapped to the function that builds it.
ZOO: dict[str, Callable[..., HypothesisClass]] = {
    f.__name__: f
    for f in (
        thresholds,
        intervals,
        singletons,
        monotone_disjunctions,
        disjunctions,
        monotone_conjunctions,
        projections,
        parities,
        power_set,
        k_sparse,
        random,
        all_functions,
        one_vs_rest,
        monotone_functions,
    )
}

def _usage(name: str) -> str:
    params = inspect.signature(ZOO[name]).parameters.values()
    required = [p.name for p in params if p.default is inspect.Parameter.empty]
    optional = [f"[,{p.name}]" for p in params if p.default is not inspect.Parameter.empty]
    return f"{name}:" + ",".join(required) + "".join(optional)


def from_spec(spec: str) -> HypothesisClass:
    """Build a zoo class from a short text: ``"name:arg1,arg2,..."`` or ``"name(arg1,...)"``.

    The text is read by :func:`mistakebound.game.specs.parse_spec` (arguments
    positional or ``key=value``; integers, floats, and the words ``true``/``empty``/
    ``yes`` and ``false``/``no`` as booleans; a boolean parameter, ``singletons``'
    ``include_empty``, also takes ``1``/``0``: :data:`~mistakebound.game.specs.BOOLEAN_SPELLINGS`);
    the name ignores case, ``-`` and ``_``.  The ``name(...)`` form is what
    :attr:`HypothesisClass.name` holds, so ``from_spec(H.name)`` rebuilds a zoo class.

    Parameters
    ----------
    spec : str
        For instance ``"thresholds:64"``, ``"k_sparse:8,2"``, ``"singletons:5,empty"``
        or ``"random:100,10,0.3,7"``.

    Returns
    -------
    HypothesisClass

    Raises
    ------
    InvalidArgumentError
        If ``spec`` is not a string, names no zoo family (the message suggests close
        names and lists the known ones), has the wrong number of arguments, or the
        family rejects an argument.

    Examples
    --------
    >>> from_spec("thresholds:7").name
    'thresholds(7)'
    >>> from_spec("singletons:3,empty").n_hypotheses
    4
    >>> from_spec(k_sparse(5, 2).name).n_hypotheses
    16
    >>> from_spec("treshold:4")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mistakebound.foundations.errors.InvalidArgumentError: spec 'treshold:4': unknown class 'treshold'; did you mean 'thresholds'? ...
    """
    if not isinstance(spec, str):
        raise InvalidArgumentError(f"spec: expected a string such as 'thresholds:64', got {spec!r}")
    given, args, kwargs = parse_spec(spec)
    by_normal = {normal_name(k): k for k in ZOO}
    name = by_normal.get(normal_name(given))
    if name is None:
        raise InvalidArgumentError(
            f"spec {spec!r}: unknown class {given!r}; {closest_hint(given, ZOO)}known classes: {', '.join(ZOO)}"
        )
    try:
        inspect.signature(ZOO[name]).bind(*args, **kwargs)
    except TypeError:
        raise InvalidArgumentError(
            f"spec {spec!r}: {name} takes arguments {_usage(name)!r}, got {len(args) + len(kwargs)} argument(s)"
        ) from None
    args, kwargs = spec_flags(ZOO[name], args, kwargs)  # include_empty: true/false, yes/no, 1/0
    return ZOO[name](*args, **kwargs)
