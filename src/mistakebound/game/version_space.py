"""The version space of a finite class: the hypotheses consistent with every label so far.

:class:`VersionSpace` keeps the surviving hypotheses in one of three forms, chosen so
that a round costs as little as the class allows:

* a Python ``int`` bitset (see :mod:`mistakebound.foundations.bitset`) on classes of fewer than
  :data:`SPARSE_MIN_HYPOTHESES` hypotheses, where big-integer operations are cheap and
  the bitset doubles as a hashable memo key;
* on larger classes, a read-only numpy array of 64-bit words holding the same bits,
  combined with the class's columns packed the same way (an ``&`` and a vectorised
  popcount per vote: CPython's ``int.bit_count`` walks 30-bit digits one at a time,
  which on a million hypotheses costs several times more than the numpy form);
* once few hypotheses survive (at most one in :data:`SPARSE_RATIO`), a sorted array of
  row indices, so that a round costs time proportional to the survivors rather than
  to the class.

A vote (:meth:`VersionSpace.count`) on a column remembers its result until the set
changes, so the restriction that usually follows it (:meth:`VersionSpace.restrict`)
reuses it instead of recomputing it.  The arrays are never modified in place:
:meth:`VersionSpace.copy` shares them.

Examples
--------
>>> from mistakebound import classes
>>> H = classes.thresholds(7)
>>> V = VersionSpace(H)
>>> V.count(H.index_of(4), 1)   # thresholds x < a with a > 4
4
>>> V.restrict(H.index_of(4), 1)
True
>>> V.size, V.first(), V.rows().tolist()
(4, 4, [4, 5, 6, 7])
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from typing import Any

import numpy as np

from mistakebound.foundations.bitset import indices_to_mask, mask_to_indices
from mistakebound.foundations.validation import brief
from mistakebound.game.setting import Referee

# HypothesisClass appears in annotations only: importing it would close a circle (HypothesisClass.referee
# builds a TableReferee).

__all__ = ["VersionSpace", "TableReferee", "BudgetReferee", "SPARSE_MIN_HYPOTHESES", "SPARSE_RATIO"]

#: Classes with fewer hypotheses always stay in ``int`` bitset form; larger ones use
#: numpy words, then row indices.
SPARSE_MIN_HYPOTHESES = 1 << 16

#: On large classes the row-index form takes over once ``SPARSE_RATIO * size <= |H|``.
SPARSE_RATIO = 256

_BYTE_POPCOUNT = np.array([bin(i).count("1") for i in range(256)], dtype=np.uint8)


def _popcount(words: np.ndarray) -> int:
    """Number of set bits in an array of 64-bit words."""
    if hasattr(np, "bitwise_count"):  # numpy >= 2.0
        return int(np.bitwise_count(words).sum(dtype=np.int64))
    return int(_BYTE_POPCOUNT[words.view(np.uint8)].sum(dtype=np.int64))  # pragma: no cover - numpy 1.x


def _frozen(a: np.ndarray) -> np.ndarray:
    a.setflags(write=False)
    return a


def _words_from_bits(bits: np.ndarray, n_words: int) -> np.ndarray:
    """Pack a 0/1 vector (one entry per hypothesis) into ``n_words`` little-endian 64-bit words."""
    packed = np.packbits(bits.astype(np.uint8, copy=False), bitorder="little")
    out = np.zeros(8 * n_words, dtype=np.uint8)
    out[: packed.size] = packed
    return out.view(np.uint64)


def _words_to_rows(words: np.ndarray, n: int) -> np.ndarray:
    """The sorted indices of the set bits of ``words`` (below ``n``), as int64."""
    bits = np.unpackbits(words.view(np.uint8), bitorder="little", count=n)
    return np.flatnonzero(bits).astype(np.int64, copy=False)


#: id(H) -> (weak reference to H, its columns as words, its full set as words)
_COLUMN_WORDS: dict[int, tuple] = {}


def _class_words(H: HypothesisClass) -> tuple[np.ndarray, np.ndarray]:
    """The columns of ``H`` packed as rows of 64-bit words, and the full set; cached per class."""
    key = id(H)
    entry = _COLUMN_WORDS.get(key)
    if entry is not None and entry[0]() is H:
        return entry[1], entry[2]
    n, m = H.matrix.shape
    n_words = (n + 63) // 64
    packed = np.packbits(H.matrix, axis=0, bitorder="little")  # (ceil(n / 8), m)
    columns = np.zeros((m, 8 * n_words), dtype=np.uint8)
    columns[:, : packed.shape[0]] = packed.T
    columns = _frozen(columns.view(np.uint64))
    full = _frozen(_words_from_bits(np.ones(n, dtype=np.uint8), n_words))
    try:
        ref = weakref.ref(H, lambda _, key=key: _COLUMN_WORDS.pop(key, None))
    except TypeError:  # pragma: no cover - a class without weak references: no cache
        return columns, full
    _COLUMN_WORDS[key] = (ref, columns, full)
    return columns, full


#: The last vote and the last restriction computed on the numpy forms, keyed by the
#: identity of the array they were computed on (kept alive here, so the identity cannot
#: be reused): version spaces that hold the same array, such as the referee's and a
#: learner's during a game, compute each vote and each restriction once between them.
#: The arrays are never modified in place, so a hit is always the right answer.
_SHARED: list = [(None, -1, None), (None, -1, -1, None)]


class VersionSpace:
    """A mutable set of the rows of ``H`` still consistent with the labels seen.

    Parameters
    ----------
    H : HypothesisClass
    """

    __slots__ = ("H", "_mask", "_words", "_columns", "_rows", "size", "_vote")

    def __init__(self, H: HypothesisClass):
        self.H = H
        self.size = H.n_hypotheses
        self._rows: np.ndarray | None = None
        self._vote: tuple | None = None  # (column, ones, count of ones) of the current set
        if H.n_hypotheses >= SPARSE_MIN_HYPOTHESES:
            self._columns, self._words = _class_words(H)
            self._mask: int | None = None
        else:
            self._columns = self._words = None
            self._mask = H.full_mask

    def copy(self) -> VersionSpace:
        """An independent copy."""
        other = VersionSpace.__new__(VersionSpace)
        other.H, other._mask, other._words, other._columns = self.H, self._mask, self._words, self._columns
        other._rows, other.size, other._vote = self._rows, self.size, self._vote
        return other  # the arrays are never modified in place, so sharing them is safe

    @property
    def mask(self) -> int:
        """The survivors as a bitset (built on demand outside the ``int`` form)."""
        if self._mask is None:
            if self._rows is not None:
                self._mask = indices_to_mask(self._rows)
            else:
                self._mask = int.from_bytes(self._words.view(np.uint8).tobytes(), "little")
        return self._mask

    def rows(self) -> np.ndarray:
        """The survivors' row indices, sorted."""
        if self._rows is not None:
            return self._rows
        if self._words is not None:
            return _words_to_rows(self._words, self.H.n_hypotheses)
        return mask_to_indices(self._mask)

    def _ones(self, column: int) -> tuple:
        """``(column, ones, count)``: the survivors labelling ``column`` with 1, in the current form."""
        vote = self._vote
        if vote is not None and vote[0] == column:
            return vote
        state = self._rows if self._rows is not None else self._words
        if state is not None:
            shared = _SHARED[0]
            if shared[0] is state and shared[1] == column:
                self._vote = vote = shared[2]
                return vote
        if self._rows is not None:
            ones = _frozen(self.H.matrix[self._rows, column])
            vote = (column, ones, int(np.count_nonzero(ones)))
        elif self._words is not None:
            ones = _frozen(np.bitwise_and(self._words, self._columns[column]))
            vote = (column, ones, _popcount(ones))
        else:
            ones = self._mask & self.H.column_masks[column]
            vote = (column, ones, ones.bit_count())
        if state is not None:
            _SHARED[0] = (state, column, vote)
        self._vote = vote
        return vote

    def count(self, column: int, y: int) -> int:
        """How many survivors label instance number ``column`` with ``y``."""
        ones = self._ones(column)[2]
        return ones if y == 1 else self.size - ones

    def first(self) -> int | None:
        """The lowest surviving row index (None if none survives)."""
        if self.size == 0:
            return None
        if self._rows is not None:
            return int(self._rows[0])
        if self._words is not None:
            w = int(np.flatnonzero(self._words)[0])
            word = int(self._words[w])
            return 64 * w + (word & -word).bit_length() - 1
        return (self._mask & -self._mask).bit_length() - 1

    def restrict(self, column: int, y: int) -> bool:
        """Keep the survivors labelling instance number ``column`` with ``y``; True if any left."""
        _, ones, n_ones = self._ones(column)
        size = n_ones if y == 1 else self.size - n_ones
        if size == self.size:  # every survivor already agrees: nothing changes
            return size > 0
        self.size, self._vote = size, None
        if self._rows is None and self._words is None:
            self._mask = ones if y == 1 else self._mask ^ ones
            return size > 0
        state = self._rows if self._rows is not None else self._words
        shared = _SHARED[1]
        if shared[0] is state and shared[1] == column and shared[2] == y:
            self._words, self._rows = shared[3]
        else:
            if self._rows is not None:
                self._rows = _frozen(self._rows[ones == y])
            else:
                words = ones if y == 1 else np.bitwise_xor(self._words, ones)  # ones is a subset of the set
                if SPARSE_RATIO * size <= self.H.n_hypotheses:
                    self._rows, self._words = _frozen(_words_to_rows(words, self.H.n_hypotheses)), None
                else:
                    self._words = _frozen(words)
            _SHARED[1] = (state, column, y, (self._words, self._rows))
        self._mask = None
        return size > 0


class TableReferee(Referee):
    """The referee of a finite class (:meth:`HypothesisClass.referee <mistakebound.game.hypothesis_class.HypothesisClass.referee>`):
    tracks the version space exactly.

    Instances are stored as the class's own domain elements (an instance equal to one is
    replaced by it), so that no object of a player's is kept.  With ``totals`` it also
    counts the rounds per instance and label, from which a game that keeps only its
    totals gets the same version space and best hypothesis as from its rounds
    (:meth:`folded`).

    Examples
    --------
    >>> from mistakebound import classes
    >>> H = classes.thresholds(3)
    >>> r = TableReferee(H, realizable=True, totals=True)
    >>> r.update(*r.instance(2)[:1], 1)
    >>> r.round_error(2, 2, 0)
    'label 0 for instance 2 is given by no hypothesis consistent with the history'
    >>> r.folded(1)
    {'version_space': (2, 3), 'best_hypothesis_mistakes': 0}
    """

    def __init__(self, H: HypothesisClass, realizable: bool, *, totals: bool = False):
        super().__init__(realizable, H)
        self.vs = VersionSpace(H)
        self.n_updates = 0  # rounds applied to the version space
        self._index_of = H.index_of
        self._index = H._index  # the same read-only mapping index_of reads, without its call (3 per round)
        self._domain = H.domain
        self.counts = ([0] * H.n_instances, [0] * H.n_instances) if totals else None

    @property
    def mask(self) -> int:
        return self.vs.mask

    def instance(self, x: Any) -> tuple[Any, Any]:
        try:
            j = self._index[x]
        except (KeyError, TypeError):  # not in the domain, or not hashable
            raise ValueError(f"instance {brief(x)} is not in the domain of {self.space.describe()}") from None
        stored = self._domain[j]
        return stored, stored

    def instances(self, xs: Sequence) -> tuple[list, list]:
        """:meth:`instance` of every ``x`` at once (the class's own elements); one by one from the first refused."""
        index, domain = self._index, self._domain
        try:
            stored = [domain[index[x]] for x in xs]
        except Exception:  # noqa: BLE001 - not in the domain, unhashable, or a broken __eq__: found one by one
            return super().instances(xs)
        return stored, stored.copy()

    def round_error(self, t: int, x: Any, y: int) -> str | None:
        if self.realizable and self.vs.count(self._index[x], y) == 0:
            return f"label {y} for instance {x!r} is given by no hypothesis consistent with the history"
        return None

    def update(self, x: Any, y: int) -> None:
        j = self._index[x]
        self.vs.restrict(j, y)
        self.n_updates += 1
        if self.counts is not None:
            self.counts[y][j] += 1

    def narrows(self, x: Any, y: int) -> bool:
        """Whether label ``y`` (0 or 1) of stored instance ``x`` removes a hypothesis from the version space.

        A legal round that does not (every survivor gives ``x`` the label ``y``) changes no
        version space: the referee's loop (:func:`~mistakebound.game.play.play`) records it with
        :meth:`agreed` instead of :meth:`update`.

        >>> from mistakebound import classes
        >>> r = TableReferee(classes.thresholds(3), realizable=True)
        >>> r.narrows(2, 1), r.update(2, 1), r.narrows(2, 1)
        (True, None, False)
        """
        return self.vs.count(self._index[x], 1 - y) > 0

    def agreed(self, x: Any, y: int) -> None:
        """:meth:`update` for a legal round that does not :meth:`narrow <narrows>` the version space: counted only."""
        self.n_updates += 1
        if self.counts is not None:
            self.counts[y][self._index[x]] += 1

    def agreed_rounds(self, n: int) -> None:
        """:meth:`agreed` for ``n`` rounds at once, on a referee that keeps no counts per instance (``totals=False``)."""
        if self.counts is not None:
            raise ValueError("agreed_rounds: this referee counts the rounds per instance (totals=True); use agreed")
        self.n_updates += n

    def finish(self, rounds) -> dict:
        H = self.space
        if not rounds:
            return {"version_space": tuple(range(H.n_hypotheses)), "best_hypothesis_mistakes": 0}
        if len(rounds) == self.n_updates and self.vs.size > 0:
            # the tracked version space is exactly the hypotheses with no mistake on these
            # rounds, and one of them makes the best hypothesis's count 0
            return {"version_space": tuple(self.vs.rows().tolist()), "best_hypothesis_mistakes": 0}
        counts = np.zeros((2, H.n_instances), dtype=np.int64)
        index_of = self._index_of
        for r in rounds:
            counts[r.y, index_of(r.x)] += 1
        return self._from_counts(counts)

    def folded(self, n: int) -> dict:
        """:meth:`finish` for the ``n`` rounds applied so far, from the counts (``totals=True``; the rounds are
        counted as they are applied, so :meth:`fold` has nothing to add)."""
        H = self.space
        if not n:
            return {"version_space": tuple(range(H.n_hypotheses)), "best_hypothesis_mistakes": 0}
        if n == self.n_updates and self.vs.size > 0:
            return {"version_space": tuple(self.vs.rows().tolist()), "best_hypothesis_mistakes": 0}
        return self._from_counts(np.array(self.counts, dtype=np.int64))

    def _from_counts(self, counts: np.ndarray) -> dict:
        # mistakes of hypothesis i = sum_j ones_j (1 - M[i, j]) + zeros_j M[i, j], where
        # ones_j / zeros_j count the rounds on instance j labelled 1 / 0; the version
        # space after these rounds is the set of hypotheses with no mistake
        H = self.space
        zeros, ones = counts
        used = np.flatnonzero(zeros + ones)
        weights = (zeros - ones)[used].astype(np.float64)  # exact: integers far below 2**53
        mistakes = np.empty(H.n_hypotheses, dtype=np.int64)
        step = max(1, 2**22 // max(used.size, 1))  # bounded temporaries on huge classes
        for start in range(0, H.n_hypotheses, step):
            block = H.matrix[start : start + step][:, used].astype(np.float64)
            mistakes[start : start + step] = np.rint(block @ weights).astype(np.int64)
        mistakes += int(ones.sum())
        best = int(mistakes.min())
        survivors = np.flatnonzero(mistakes == 0)
        return {"version_space": tuple(survivors.tolist()), "best_hypothesis_mistakes": best}


class BudgetReferee(Referee):
    """The referee of a finite class of any number of labels, with a noise budget ``noise`` (0: realizable).

    It keeps each hypothesis's mistakes so far; a label is legal when some hypothesis would
    still have made at most ``noise`` mistakes with it (``Rules(noise=r)``: the r-realizable
    game).  An unrealizable game (``realizable=False``) takes any label.  The version space
    it reports is the hypotheses without a mistake; the best hypothesis's mistakes are the
    fewest of any.  :class:`TableReferee` is the faster form for two labels and no budget.

    Examples
    --------
    >>> from mistakebound import classes
    >>> r = BudgetReferee(classes.thresholds(3), realizable=True, noise=1)
    >>> r.update(*r.instance(2)[:1], 1)   # x < a with a > 2: thresholds 3 and 4 agree
    >>> r.round_error(2, 3, 0), r.round_error(2, 1, 0)
    (None, None)
    >>> r.update(1, 0)                      # now every hypothesis has made a mistake
    >>> r.round_error(3, 3, 0) is None      # legal: x < 1 still has only one
    True
    >>> r.folded(2)
    {'version_space': (), 'best_hypothesis_mistakes': 1}
    """

    def __init__(self, H: HypothesisClass, realizable: bool, *, totals: bool = False, noise: int = 0):
        super().__init__(realizable, H)
        self.noise = noise
        self.mistakes = np.zeros(H.n_hypotheses, dtype=np.int64)
        self._index = H._index
        self._domain = H.domain
        self.vs = None  # no version space to show the players: the referee keeps mistakes, not survivors

    #: An instance is read as the class's referee reads it (the class's own element, or the refusal).
    instance = TableReferee.instance

    def round_error(self, t: int, x: Any, y: int) -> str | None:
        if not self.realizable:
            return None
        after = self.mistakes + (self.space.matrix[:, self._index[x]] != y)
        if int(after.min()) <= self.noise:
            return None
        if self.noise == 0:
            return f"label {y} for instance {x!r} is given by no hypothesis consistent with the history"
        return (f"label {y} for instance {x!r} would leave every hypothesis with more than {self.noise} mistakes "
                f"(the noise budget)")

    def update(self, x: Any, y: int) -> None:
        self.mistakes += self.space.matrix[:, self._index[x]] != y

    def _fields(self) -> dict:
        return {"version_space": tuple(np.flatnonzero(self.mistakes == 0).tolist()),
                "best_hypothesis_mistakes": int(self.mistakes.min())}

    def finish(self, rounds) -> dict:
        return self._fields()

    def folded(self, n: int) -> dict:
        return self._fields()
