"""Normal forms of version spaces: one memo key for the sub-classes that differ by a relabelling.

Every search of this layer (Ldim, randomized Ldim) gives a version space a value that depends
only on the *set of words* its hypotheses write on the instances that split it, up to
relabelling the instances: dropping instances that split nothing, dropping copies (an
instance equal or complementary to another on the space), permuting the instances, and
complementing an instance's labels change no value, nor does merging duplicate rows.  A memo
keyed by a form that forgets exactly these things lets relabelled copies share one entry:
the shifted windows of ``intervals``, the sub-cubes of ``power_set``, the equal-sized sets
of ``singletons``.

The forms here are exact, not complete: two version spaces with one key are relabelled
copies (so equal keys give equal values), but two copies may get different keys (the
relabelling is normalised by cheap invariants, not by a graph-isomorphism search).  That
only costs memo hits, never correctness.

* :func:`projection` -- the 0/1 matrix of a version space's rows on some instances.
* :func:`sorted_rows_key` -- the rows of such a matrix, packed and sorted: a key that
  forgets the order and duplicates of the rows (the Ldim engine's key, columns in the
  order given).
* :func:`normal_columns` -- a normal polarity and order of the columns: each column
  complemented to hold at most half ones, then sorted by its number of ones and the
  moments of the row weights it holds (ties kept in the order given).
* :func:`relabelled_key` -- the two together: a key that also forgets the columns'
  order and polarity, with the column order and flips that map a space onto its key.
* :func:`sorted_rows_and_columns_key` -- a key that forgets the order of the rows and of
  the columns and nothing else: rows and columns sorted alternately until neither moves.

Two relabellings, two keys.  The values of a class (Ldim, RL) do not change when an
instance's labels are complemented or a row is copied, so their searches key a version
space by :func:`relabelled_key` of its distinct rows.  A *learner's* predictions can
change under both (Halving and SOA predict 1 on a tie, so complementing an instance moves
the tie; Halving counts copies), so the worst-case search, which memoises a learner's
positions, keys them only up to the symmetries the learner declares
(:class:`~mistakebound.theory.symmetry.VersionSpaceKeys`): :func:`sorted_rows_and_columns_key`
of the rows of the space, every copy kept, each column with its polarity.

Examples
--------
>>> import numpy as np
>>> a = np.array([[1, 0, 0], [0, 1, 0], [1, 1, 1]], dtype=np.uint8)
>>> b = 1 - a[[2, 0, 1]][:, [2, 0, 1]]      # rows shuffled, columns permuted and complemented
>>> relabelled_key(a)[0] == relabelled_key(b)[0]
True
>>> sorted_rows_key(a)[0] == sorted_rows_key(b)[0]   # the row key alone keeps column order and polarity
False
"""

from __future__ import annotations

import numpy as np

__all__ = ["normal_columns", "projection", "relabelled_key", "sorted_rows_and_columns_key", "sorted_rows_key"]

#: :func:`sorted_rows_and_columns_key` sorts rows and columns at most this many times each.
SORT_ROUNDS = 8


def projection(matrix: np.ndarray, rows: np.ndarray, columns: np.ndarray) -> np.ndarray:
    """The sub-matrix of ``matrix`` on ``rows`` and ``columns`` (index arrays), a new uint8 array."""
    return matrix.take(rows, axis=0).take(columns, axis=1)


def sorted_rows_key(sub: np.ndarray) -> tuple[bytes, np.ndarray]:
    """The rows of the 0/1 matrix ``sub`` packed and sorted, as bytes, and the row order that sorts them.

    Two matrices with the same columns have one key exactly when they hold the same rows
    in some order (with as many copies: merge duplicates first for a key of the set).

    Examples
    --------
    >>> key, order = sorted_rows_key(np.array([[1, 0], [0, 1]], dtype=np.uint8))
    >>> key, order.tolist()
    (b'@\\x80', [1, 0])
    """
    packed = np.ascontiguousarray(np.packbits(sub, axis=1))
    if packed.shape[1] == 0:
        return b"", np.arange(sub.shape[0], dtype=np.int64)
    order = np.argsort(packed.view(np.dtype((np.void, packed.shape[1]))).ravel(), kind="stable")
    return packed[order].tobytes(), order


def normal_columns(sub: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A normal polarity and order of the columns of the 0/1 matrix ``sub``: ``(normalised, order, flips)``.

    Column ``j`` is complemented (``flips[j] = 1``) when it holds more ones than zeros;
    then the columns are sorted by their number of ones, then by the sums of the first,
    second and third powers of the row weights (ones per row) over the rows holding a one
    in the column, ties kept in the given order.  ``normalised`` is ``sub`` with the flips applied and the columns in
    ``order`` (its column ``i`` is column ``order[i]`` of ``sub``, complemented when
    ``flips[order[i]]``).  Relabelled copies (rows, columns permuted, columns complemented)
    usually come out equal; when they do not, only a memo hit is lost.

    Examples
    --------
    >>> normalised, order, flips = normal_columns(np.array([[1, 1], [0, 1], [0, 1]], dtype=np.uint8))
    >>> normalised.tolist(), order.tolist(), flips.tolist()
    ([[0, 1], [0, 0], [0, 0]], [1, 0], [0, 1])
    """
    s, m = sub.shape
    if m == 0:
        return sub, np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.uint8)
    ones = sub.sum(axis=0, dtype=np.int64)
    flips = (2 * ones > s).astype(np.uint8)
    if flips.any():
        sub = sub ^ flips
        ones = np.where(flips, s - ones, ones)
    weights = sub.sum(axis=1, dtype=np.int64)
    # per column, the first three moments of the weights of the rows holding its ones (in blocks
    # of rows, so that the int64 copy stays near 8 MB however large the space)
    powers = np.stack([weights, weights * weights, weights * weights * weights], axis=1)
    block = max(1, (1 << 20) // m)
    moments = np.zeros((m, 3), dtype=np.int64)
    for i in range(0, s, block):
        moments += sub[i:i + block].T.astype(np.int64) @ powers[i:i + block]
    order = np.lexsort((np.arange(m), moments[:, 2], moments[:, 1], moments[:, 0], ones))
    return sub[:, order], order, flips


def relabelled_key(sub: np.ndarray) -> tuple[tuple, np.ndarray, np.ndarray]:
    """A key of the distinct rows of ``sub`` forgetting row order, column order and column polarity.

    Returns ``(key, order, flips)`` as :func:`normal_columns`: position ``i`` of the key is
    column ``order[i]`` of ``sub``, complemented when ``flips[order[i]]``.  Two matrices
    with one key hold the same set of rows once relabelled that way, so any value that
    depends only on the set of rows up to a relabelling of columns (Ldim, RL) is equal.
    ``sub``'s rows should be distinct (as a version space's are on its splitting columns),
    else the key also counts copies.

    Examples
    --------
    >>> relabelled_key(np.array([[0, 1], [1, 0]], dtype=np.uint8))[0]
    (2, 2, b'@\\x80')
    """
    normalised, order, flips = normal_columns(sub)
    rows, _ = sorted_rows_key(normalised)
    return (sub.shape[1], sub.shape[0], rows), order, flips


def sorted_rows_and_columns_key(sub: np.ndarray) -> tuple[bytes, np.ndarray]:
    """A key of the 0/1 matrix ``sub`` that forgets the order of its rows and of its columns, nothing else.

    The rows are sorted (lexicographically, over the columns in their current order), then
    the columns (over the rows in their new order), alternately, until neither moves or
    :data:`SORT_ROUNDS` rounds have passed.  The key is the sorted matrix, its columns
    packed one after another (a heuristic normal form: exact, not complete, as the other
    keys here).  Unlike :func:`relabelled_key`, a column is never complemented and copies
    of a row count (see the module's docstring for which search needs which).

    Returns
    -------
    key : bytes
    order : numpy.ndarray
        Column ``i`` of the sorted matrix is column ``order[i]`` of ``sub``.

    Examples
    --------
    >>> a = np.array([[1, 0, 0], [1, 1, 0], [0, 0, 0]], dtype=np.uint8)
    >>> b = a[[2, 0, 1]][:, [2, 1, 0]]  # rows and columns in another order
    >>> sorted_rows_and_columns_key(a)[0] == sorted_rows_and_columns_key(b)[0]
    True
    >>> sorted_rows_and_columns_key(a)[0] == sorted_rows_and_columns_key(1 - a)[0]  # polarity is kept
    False
    """
    A = sub.T  # columns as rows
    k, s = A.shape
    order = np.arange(k)
    for _ in range(SORT_ROUNDS):
        r = np.lexsort(A[::-1]) if k else np.arange(s)  # the rows of ``sub``
        A = A[:, r]
        c = np.lexsort(A.T[::-1]) if s else np.arange(k)  # its columns
        A = A[c]
        order = order[c]
        if (r == np.arange(s)).all() and (c == np.arange(k)).all():
            break
    return np.packbits(A, axis=1).tobytes(), order
