"""The canonical memo of the Littlestone search: version spaces that are one up to relabelling share an entry.

A version space's *canonical form* is its distinct rows projected onto the columns that
still split it (one column per distinct split, in column order), as a sorted set of
rows.  Two version spaces with one form give the same set of words on their key columns,
so they have the same Littlestone dimension: the search of
:class:`~mistakebound.theory.ldim_search.LdimSearch` keeps a second memo keyed by the
form, and the certificates record the fact as a ``"map"`` step.  A version space whose
rows are consecutive (a window) is keyed, more cheaply, by its columns cut to the window.
:class:`CanonicalMemo` holds the forms and that memo, as the part of the search that
computes them; a cheap fingerprint (size and split sizes) is computed first, and the form
only once two version spaces share a fingerprint.

Examples
--------
>>> from mistakebound import classes
>>> from mistakebound.theory.ldim_search import LdimSearch
>>> search = LdimSearch(classes.thresholds(15))
>>> a, b = search.mask_of_rows(range(0, 9)), search.mask_of_rows(range(4, 13))
>>> search.canonical_form(a)[0] == search.canonical_form(b)[0]  # shifted windows: one form
True
"""

from __future__ import annotations

from collections.abc import Hashable

import numpy as np

from mistakebound.foundations.bitset import mask_to_indices
from mistakebound.theory.canonical import projection, sorted_rows_key

__all__ = ["CANONICAL_MIN", "CANONICAL_WINDOW", "CanonicalMemo", "key_bytes"]

#: Version spaces with fewer distinct hypotheses than this skip the canonical memo.
CANONICAL_MIN = 8
#: Every this many canonical forms computed, the size threshold doubles if fewer than
#: one in eight was answered from the canonical memo (classes without symmetry).
CANONICAL_WINDOW = 16


class CanonicalMemo:
    """The canonical forms of an :class:`~mistakebound.theory.ldim_search.LdimSearch` and its canonical memo.

    The part of the search that computes forms (the search extends it): it uses the
    search's columns, its splits and its memos (``_lo``, ``_hi``, ``_wit``), and keeps the
    canonical memo ``_canon``, the fingerprints ``_fps`` and their accounts, which the
    search creates.
    """

    def canonical_form(self, V: int) -> tuple[Hashable, list[int]]:
        """The canonical form of ``V`` and its key columns (one per distinct split of ``V``, ascending).

        Two version spaces with equal forms give the same set of words on their key
        columns (column ``i`` of one standing for column ``i`` of the other), so they have
        the same Littlestone dimension: the fact certificates record as a ``"map"`` step.
        """
        key, kcols, _ = self._canonical(V, self._distinct_splits(V, self._splitting(V)))
        return key, kcols.tolist()

    @property
    def canonical_min(self) -> int:
        """The fewest rows of a version space the canonical memo may hold (smaller ones are searched).

        Read when the search is built from :data:`CANONICAL_MIN`; a certificate writer asks
        the search, so that it looks for twins exactly where the search kept them.
        """
        return self._canon_min

    def canonical_entry(self, V: int) -> tuple:
        """``V``'s canonical form and what the canonical memo holds for it, for certificates.

        ``(key, kcols, entry)``: the form and ``V``'s key columns as from
        :meth:`canonical_form`; ``entry`` is None, or ``(lo, lo_rep, lo_cols, hi, hi_rep,
        hi_cols)``: the largest ``lo`` proven for the form and the version space ``lo_rep``
        whose search proved it with a witness (None if none) with its key columns, and
        the same for the smallest ``hi``.  ``V``'s key column ``i`` stands for each
        representative's key column ``i``.
        """
        key, kcols = self.canonical_form(V)
        e = self._canon.get(key)
        if e is None:
            return key, kcols, None
        lo_rep = e[3] if e[2] is not None and e[4] is not None else None
        return key, kcols, (e[0], lo_rep, None if lo_rep is None else e[4].tolist(),
                            e[1], e[6] if e[7] is not None else None, None if e[7] is None else e[7].tolist())

    def _canonical(self, V: int, splits) -> tuple[tuple, np.ndarray, np.ndarray]:
        """The canonical form of V, its key columns (ascending) and its rows in key order."""
        kcols = np.fromiter(sorted(j for _, _, j in splits), dtype=np.int64, count=len(splits))
        low = (V & -V).bit_length() - 1
        s = V.bit_count()
        if V >> low == (1 << s) - 1:
            # the rows of V are consecutive (a window): the columns restricted to it, shifted
            cols = self.columns
            key = ("window", s, tuple((cols[j] & V) >> low for j in kcols.tolist()))
            return key, kcols, np.arange(low, low + s, dtype=np.int64)
        idx = mask_to_indices(V)
        rows, order = sorted_rows_key(projection(self.H.matrix, self.representatives[idx], kcols))
        return (len(kcols), rows), kcols, idx[order]

    def _store_canonical(self, key, kcols, rows, V: int) -> None:
        """Copy V's bitset-memo knowledge into the canonical entry ``key``."""
        e = self._canon.get(key)
        if e is None:
            e = self._canon[key] = [1, None, None, 0, None, None, 0, None]
            self._canon_bytes += 200 + key_bytes(key) + 8 * (2 * len(kcols) + len(rows))
        hi = self._hi.get(V)
        if hi is not None and (e[1] is None or hi < e[1]):
            e[6], e[7] = V, kcols  # the version space that proved it (for certificates)
            e[1] = hi
        lo = self._lo.get(V)
        if lo is not None and lo >= e[0]:
            w = self._wit.get(V)
            pos = None if w is None else int(np.searchsorted(kcols, w))
            if pos is not None and (pos >= len(kcols) or kcols[pos] != w):
                pos = None  # a witness found from a list of columns that was not V's own
            if lo > e[0] or pos is not None:
                # written in an order that is consistent at every step (see _at_least)
                e[2] = None
                if pos is not None:
                    e[3], e[4], e[5] = V, kcols, rows
                e[0] = lo
                e[2] = pos

    def _fingerprint_lookup(self, V: int, s: int, splits):
        """The canonical key of V if its fingerprint was seen before (else None), and the entry."""
        fp = (s, tuple([t[0] for t in sorted(splits, key=_column_of)]))  # smaller sides by column
        pending = self._fps.get(fp, 0)
        if pending == 0:
            self._fps[fp] = [V]
            self._canon_bytes += 100 + 8 * len(splits)
            return None
        if pending is not None:  # a second version space with this fingerprint: key the first ones
            self._fps[fp] = None
            for P in pending:
                if P != V and (P in self._lo or P in self._hi):
                    Psplits = self._distinct_splits(P, self._splitting(P))
                    self._store_canonical(*self._canonical(P, Psplits), P)
        self._keys_made += 1
        if self._keys_made >= CANONICAL_WINDOW:
            # few hits for the canonical forms computed: try only larger version spaces
            if self._window_hits * 8 < self._keys_made:
                self._cmin *= 2
            self._keys_made = self._window_hits = 0
        return self._canonical(V, splits)


def _column_of(split: tuple) -> int:
    """The column of a ``(size, side, column)`` split."""
    return split[2]


def key_bytes(key: tuple) -> int:
    """Estimated bytes of a canonical form (its rows times its columns, in bits).

    Examples
    --------
    >>> key_bytes(("window", 8, (1, 2, 4))), key_bytes((2, b"abcd"))
    (123, 4)
    """
    if key[0] == "window":
        return key[1] * len(key[2]) // 8 + 40 * len(key[2])
    return len(key[1])
