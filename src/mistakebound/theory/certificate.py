"""The certificate document the searches write into: the class, one table of spaces, a section per result.

A certificate (format ``mistakebound-certificate``, documented and checked by
:mod:`mistakebound.certificates.verify`, which shares no code with this module beyond the
format's constants and :func:`~mistakebound.certificates.verify.class_hash`) holds the
class it speaks of (:func:`class_section`: its shape, rows, domain and hash), a table of version spaces (sets of the class's rows, as bitsets) and
one section per result (``"ldim"``, ``"vc"``, ``"worst-case"``, ``"rldim"``).  Each search's
producer adds its section to one :class:`CertificateWriter`, so the results about one
class share its rows and its spaces; :meth:`CertificateWriter.write` writes the document
atomically (compressed with gzip when the file name ends in ``.gz``).

Spaces here are over *all* rows of the class, as the checker reads them; searches that
merge identical rows first turn their bitsets over distinct rows into these with
:meth:`CertificateWriter.from_distinct`.

Examples
--------
>>> from mistakebound import classes
>>> w = CertificateWriter(classes.thresholds(3))
>>> w.rows
['0', '1', '3', '7']
>>> w.space(0b11), w.space(0b10, part_of=(0, 0, 1)), w.space(0b11)
(0, 1, 0)
>>> w.document()["spaces"]
['3', [0, 0, 1]]
>>> w.add({"result": "ldim", "facts": [], "claim": {}})
>>> sorted(w.document())
['class', 'format', 'results', 'spaces', 'version']
>>> class_section(classes.thresholds(2))["domain"]
[1, 2]
"""

from __future__ import annotations

import gzip
import json
import math
import os
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from mistakebound.certificates.context import label_width
from mistakebound.certificates.verify import FORMAT, VERSION, class_hash
from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.foundations.files import write_atomically
from mistakebound.foundations.json_format import encode_instance
from mistakebound.game.hypothesis_class import HypothesisClass, require_class

__all__ = ["CertificateWriter", "class_section", "number_text", "row_numbers", "table_section"]


def number_text(v: int | Fraction | float) -> int | str:
    """An exact number as certificates write it: an integer, ``"p/q"`` in lowest terms, or ``"inf"``.

    Examples
    --------
    >>> number_text(Fraction(6, 4)), number_text(Fraction(4, 2)), number_text(math.inf)
    ('3/2', 2, 'inf')
    """
    if v == math.inf:
        return "inf"
    v = Fraction(v)
    return int(v) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"


def row_numbers(H: HypothesisClass) -> list[int]:
    """Each row of ``H`` as a number whose bit ``x`` is its label of instance ``x`` (the format's rows).

    Examples
    --------
    >>> row_numbers(HypothesisClass.from_matrix([[1, 0, 1], [0, 1, 1]]))
    [5, 6]
    """
    packed = np.packbits(require_class(H).matrix, axis=1, bitorder="little")
    return [int.from_bytes(row.tobytes(), "little") for row in packed]


def _instance(x: object, j: int) -> object:
    """Instance ``x`` as JSON: as class files write it, else (an object JSON cannot hold) its ``repr``."""
    try:
        return encode_instance(x, f"domain[{j}]")
    except InvalidArgumentError:
        return {"repr": repr(x)}


def _domain(H: HypothesisClass) -> list:
    """The domain of ``H`` as JSON, a distinct value per instance (the checker refuses a domain naming one twice).

    Instances are written by :func:`_instance`; objects JSON cannot hold that share a ``repr``
    while Python tells them apart (two NaNs, two objects equal only to themselves) also get
    their ``"position"`` in the domain.

    Examples
    --------
    >>> nan = float("nan")
    >>> _domain(HypothesisClass.from_matrix([[0, 1, 0]], domain=[nan, float("nan"), complex(0, 1)]))
    [{'repr': 'nan', 'position': 0}, {'repr': 'nan', 'position': 1}, {'repr': '1j'}]
    """
    domain = [_instance(x, j) for j, x in enumerate(H.domain)]
    reprs = Counter(x["repr"] for x in domain if isinstance(x, dict) and "repr" in x)
    return [{**x, "position": j} if isinstance(x, dict) and reprs.get(x.get("repr"), 0) > 1 else x
            for j, x in enumerate(domain)]


def class_section(H: HypothesisClass) -> dict:
    """The class of ``H`` as a certificate writes it: its shape, rows, domain and their hash.

    The one description of a class in certificates: the writer puts it in every document, and
    ``mistakebound verify FILE CLASS`` gives it to the checker, which compares the two exactly.
    """
    require_class(H)
    domain = _domain(H)
    if H.n_labels > 2 and H.n_hypotheses and H.n_instances and int(H.matrix.max()) > 1:
        return _labels_section(H.matrix, H.n_labels, domain)
    rows = [format(r, "x") for r in row_numbers(H)]
    return {"n_hypotheses": H.n_hypotheses, "n_instances": H.n_instances, "rows": rows, "domain": domain,
            "sha256": class_hash(rows, domain)}


def _labels_section(M: np.ndarray, labels: int, domain: list) -> dict:
    """The section of a class of ``labels > 2`` labels: ``"labels"``, and each row a text of base-36 labels."""
    width = label_width(labels)
    rows = ["".join(np.base_repr(int(y), 36).lower().rjust(width, "0") for y in row) for row in M]
    return {"n_hypotheses": M.shape[0], "n_instances": M.shape[1], "rows": rows, "domain": domain, "labels": labels,
            "sha256": class_hash(rows, domain, labels)}


def table_section(M: np.ndarray) -> dict:
    """The class of a table of labels ``0..k-1`` (a 2-d integer array; instances ``0..m-1``) as a certificate
    writes it: a table of 0s and 1s as :func:`class_section` writes its class, a table of more labels with
    ``"labels": k`` (``k`` one more than its largest label) and each row a text of labels in base 36.

    (A class of ``k`` labels is written with its own ``k``, when some row gives a label past 1.)

    Examples
    --------
    >>> table_section(np.array([[0, 2], [1, 0]]))["rows"]
    ['02', '10']
    >>> table_section(np.array([[0, 1], [1, 1]])) == class_section(HypothesisClass.from_matrix([[0, 1], [1, 1]]))
    True
    """
    M = np.asarray(M)
    k = int(M.max()) + 1 if M.size else 1
    if k <= 2:
        return class_section(HypothesisClass.from_matrix(M.astype(np.uint8)))
    return _labels_section(M, k, list(range(M.shape[1])))


class CertificateWriter:
    """One certificate document under construction: the class of ``H``, its spaces, its sections.

    ``H`` is a :class:`HypothesisClass`, or (for the game's value under rules of more labels) a table
    of labels, whose class :func:`table_section` writes; ``self.H`` is then None when the table has
    more than two labels.
    """

    def __init__(self, H: HypothesisClass | np.ndarray):
        if isinstance(H, np.ndarray):
            self.cls = table_section(H)
            self.H = None if "labels" in self.cls else HypothesisClass.from_matrix(H.astype(np.uint8))
        else:
            self.H = require_class(H)
            self.cls = class_section(H)
        self.rows = self.cls["rows"]
        self._spaces: dict[int, int] = {}
        self._table: list = []
        self._sections: list[dict] = []
        self._expand: tuple | None = None

    def space(self, V: int, part_of: tuple[int, int, int] | None = None) -> int:
        """The index of the space ``V`` (a non-empty bitset over the rows of ``H``), added if new.

        ``part_of=(s, x, y)`` says that ``V`` is the part ``V_x^y`` of the space of index
        ``s``: a new ``V`` is then written as those three numbers instead of its bitset.
        """
        index = self._spaces.get(V)
        if index is None:
            n = self.cls["n_hypotheses"]
            if not 0 < V < 1 << n:
                raise InvalidArgumentError(f"V: expected a non-empty set of the {n} rows, got {V}")
            index = self._spaces[V] = len(self._table)
            self._table.append(list(part_of) if part_of is not None else format(V, "x"))
        return index

    def from_distinct(self, V: int, row_to_distinct: np.ndarray) -> int:
        """The bitset over all rows of ``V``, a bitset over the distinct rows that ``row_to_distinct`` groups.

        ``row_to_distinct[i]`` is the distinct row of row ``i`` (as from
        :meth:`~mistakebound.game.hypothesis_class.HypothesisClass.distinct_rows`).
        """
        if self._expand is None or self._expand[0] is not row_to_distinct:
            identity = bool(np.array_equal(row_to_distinct, np.arange(len(row_to_distinct))))
            self._expand = (row_to_distinct, identity)
        if self._expand[1]:
            return V
        n_distinct = int(row_to_distinct.max()) + 1
        bits = np.unpackbits(np.frombuffer(V.to_bytes((n_distinct + 7) // 8, "little"), dtype=np.uint8),
                             bitorder="little")[:n_distinct]
        rows = bits[row_to_distinct]
        return int.from_bytes(np.packbits(rows, bitorder="little").tobytes(), "little")

    def add(self, section: dict) -> None:
        """Add one result's section (its ``"result"`` names the kind)."""
        self._sections.append(section)

    def of(self, H: Any) -> HypothesisClass:
        """``H``, checked to be this writer's class (the same object, or equal rows): what a writer of a section
        calls first.

        Raises
        ------
        InvalidArgumentError
            Naming ``writer``, when ``H`` is another class.
        """
        H = require_class(H)
        if self.H is not H and not (self.H is not None and self.H.matrix.shape == H.matrix.shape
                                    and np.array_equal(self.H.matrix, H.matrix)):
            raise InvalidArgumentError("writer: expected a CertificateWriter of the same class as H")
        return H

    def claimed(self, kind: str, side: str) -> Any:
        """The value a section of ``kind`` already added claims on ``side`` (``"lower"`` or ``"upper"``), as it is
        written (an int or ``"p/q"``); None when there is no such section or side.

        Examples
        --------
        >>> from mistakebound import classes
        >>> w = CertificateWriter(classes.thresholds(3))
        >>> w.add({"result": "ldim", "facts": [], "claim": {"upper": [0, 2]}})
        >>> w.claimed("ldim", "upper"), w.claimed("ldim", "lower"), w.claimed("vc", "upper")
        (2, None, None)
        """
        section = self.section(kind)
        entry = None if section is None else section.get("claim", {}).get(side)
        return None if entry is None else entry[1]

    def section(self, kind: str) -> dict | None:
        """The section of ``kind`` already added (a document holds each kind once), or None."""
        return next((s for s in self._sections if s.get("result") == kind), None)

    def document(self) -> dict:
        """The certificate as a JSON-ready dictionary."""
        return {
            "format": FORMAT, "version": VERSION,
            "class": self.cls,
            "spaces": self._table,
            "results": self._sections,
        }

    def write(self, path: str | os.PathLike, *, parameter: str = "--certificate") -> Path:
        """Write the document to ``path`` atomically (gzip-compressed when it ends in ``.gz``); return the path."""
        data = json.dumps(self.document(), separators=(",", ":")).encode("ascii")
        if str(path).endswith(".gz"):
            data = gzip.compress(data, compresslevel=6, mtime=0)
        return write_atomically(path, data, parameter=parameter)
