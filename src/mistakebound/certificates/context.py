"""What every kind of result is checked against: the class, the table of spaces, the grammar of values.

:class:`Context` reads the parts of a certificate that every result shares and gives each
kind's checker (:mod:`~mistakebound.certificates.ldim`, :mod:`~mistakebound.certificates.vc`, :mod:`~mistakebound.certificates.worst_case`, :mod:`~mistakebound.certificates.randomized`) the few
operations they are written with.  Everything here is checked before any arithmetic is done
with it, against sizes the class itself implies, so that a crafted document can neither
crash the checker nor make it allocate more than the memory it is given.

The class
---------
``{"n_hypotheses": n, "n_instances": m, "rows": [...], "domain": [...], "sha256": ...}`` and
nothing else.  ``rows[i]`` is hypothesis ``i``'s labels as a number, bit ``x`` its label of
instance ``x``, in lower-case hexadecimal without leading zeros, at most ``ceil(m / 4)``
digits and below ``2^m`` ``[class-row]``, ``n`` of them ``[class-shape]``; ``domain`` holds ``m`` distinct JSON values
``[class-domain]``, the instances' names (the checker compares them, never interprets
them); ``sha256`` is :func:`class_hash` of the rest ``[class-hash]``.  A class compared with
the one a user names (:meth:`Context.same_class`) is compared by all of ``n``, ``m``, its
rows and its domain ``[class-same]``: a trailing instance that every row labels 0 changes
no row's hexadecimal, but it changes ``m``.

A class of more than two labels (a table of labels ``0..k-1``: the game's value under rules of
``k`` labels, :mod:`~mistakebound.certificates.game_value`) adds the key ``"labels": k``, an integer ``3..MAX_LABELS``
``[class-labels]``; its rows are then texts of ``m`` labels, each written in lower-case base 36
with :func:`label_width` ``(k)`` digits (one digit up to 36 labels), every label below ``k``
``[class-row]``, and its hash is :func:`class_hash` with ``labels=k``, whose text begins
``f"{n} {m} labels {k}\n"``, a line no class of two labels writes.  A class without the key
is read exactly as before (its labels are 0 and 1).  Only the kinds of :data:`MULTICLASS`
read a class of more labels; spaces of such a class are bitsets (a part ``[s, x, y]`` reads a
column of 0s and 1s) ``[space-part]``.

An index of a space, an instance, a label and an integer with its range are checked where
they are read ``[space-index]``, ``[instance]``, ``[label]``, ``[integer]``; a fact cites only
facts before it, of the kind and on the space its step requires ``[earlier]``; a section's claim
is ``{"lower": [fact, value], "upper": [fact, value]}``, either side optional ``[claim-shape]``.

Values
------
Integers are JSON integers (never ``true``, never ``1.0``); exact fractions are strings
``"p/q"`` in lowest terms with ``q >= 2``, written with ASCII digits and no leading zero;
``"inf"`` is infinity where a kind allows it ``[value-grammar]``.  Numerator and denominator
have at most ``BITS + n + m`` bits, and the text at most the digits that allows, checked
before it is converted ``[value-size]`` (:meth:`Context.number`): enough for the exact value
of any double (1,075 bits), any sum of them along a play, and the dyadic values of the
randomized recursion, whose denominators double at most once per row.  Each kind bounds
its own integers further (an Ldim is at most ``n``).

Spaces
------
A space is a non-empty set of rows: a bitset in the grammar of rows, at most
``ceil(n / 4)`` digits ``[space-hex]``, or ``[s, x, y]``, the part ``V_x^y`` of the earlier
space ``s`` ``[space-part]``; parts must be non-empty ``[space-empty]``.

Relabelled copies (the ``"map"`` step)
--------------------------------------
:meth:`Context.relabelled` checks that a space ``V`` is a relabelled copy of a space ``W``
under a list of entries ``[x, z, flip]``: whatever their Ldim or randomized Littlestone
dimension is, the other's is the same.  Soundness: both values depend only on the set of
distinct *words* a space's rows write on the instances that split it, and are unchanged
when an instance is dropped that is a copy (equal or complementary on the space) of another
kept, or when an instance's labels are flipped.  The checker requires:

1. every instance splitting ``V`` is listed exactly once ``[map-cover]`` and is sent to an
   instance ``z`` with a flip 0 or 1 ``[map-entry]`` (``z`` then splits ``W``, or 3 and 4 below
   fail: the listed instance writes both letters on ``V``'s rows, a ``z`` constant on ``W`` one);
2. every instance splitting ``W`` that is no ``z`` is a copy of some ``z`` on ``W``
   ``[map-copies]``;
3. without a shift: on every row of ``V``, all instances sent to one ``z`` read the same
   letter once flipped ``[map-agree]``, and the set of words the rows of ``V`` so write on
   the ``z`` (in increasing order) is the set of words the rows of ``W`` write there
   ``[map-words]``.  By 1 and 3, dropping from ``V`` the copies sent to a common ``z`` and
   flipping leaves exactly ``W``'s words; by 2 dropping ``W``'s copies leaves the same words.
4. with a shift ``k``, a bijection between the rows is claimed instead, row ``i`` of ``V`` to
   row ``i - k`` of ``W``: ``|k| < n`` ``[shift-range]``, ``V`` shifted by ``k`` is ``W`` *and*
   ``W`` shifted back is ``V`` ``[shift-bijection]`` (so no row of either is lost over an
   edge), and for every entry ``V_x^1`` shifted is ``W_z^1`` (``W_z^0`` when flipped)
   ``[shift-columns]``: row ``i`` of ``V`` reads on ``x``, flipped, what row ``i - k`` of
   ``W`` reads on ``z``.  So every row of ``V`` writes on the ``z`` the word its partner
   writes, which is 3 for a bijection of rows.

Examples
--------
>>> c = {"n_hypotheses": 2, "n_instances": 1, "rows": ["0", "1"], "domain": [0], "sha256": class_hash(["0", "1"], [0])}
>>> ctx = Context(c)
>>> ctx.columns, ctx.splitting(3)
([2], [0])
>>> ctx.number("3/6", "here")
Traceback (most recent call last):
...
mistakebound.certificates.document.CertificateError: here: expected an integer, a fraction 'p/q' in lowest terms (q >= 2), got '3/6'
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from fractions import Fraction

if __package__:
    from .document import CertificateError, UnreadableCertificate
else:  # run as a program: see verify.py
    from document import CertificateError, UnreadableCertificate  # type: ignore[no-redef]

__all__ = ["BITS", "CLASS_KEYS", "MAX_LABELS", "Context", "brief", "canonical_json", "class_hash", "label_width",
           "memory_needed"]

#: The bits every value may have beside one per row and per instance (a double's exact value needs 1,075).
BITS = 1100
#: The keys of a certificate's class, all required.
CLASS_KEYS = ("n_hypotheses", "n_instances", "rows", "domain", "sha256")
#: The most labels a class may be written over (a label takes at most four base-36 digits).
MAX_LABELS = 36 ** 4

_HEX = re.compile(r"0|[1-9a-f][0-9a-f]*")
_BASE36 = re.compile(r"[0-9a-z]*")
_FRACTION = re.compile(r"(-?)(0|[1-9][0-9]*)/([1-9][0-9]*)")
#: Python converts at most 4,300 decimal digits at once; longer numbers are read in pieces.
_CHUNK = 4000


def brief(value: object, limit: int = 60) -> str:
    """A short text naming a value read from a document, whatever its size (for messages)."""
    if value is None or type(value) in (bool, int) and abs(value).bit_length() <= 64:
        return repr(value)
    if isinstance(value, str):
        return ascii(value[:limit]) + ("..." if len(value) > limit else "")
    if isinstance(value, list) and len(value) <= 4 and all(v is None or type(v) in (bool, int, str) for v in value):
        return "[" + ", ".join(brief(v, 20) for v in value) + "]"
    return f"a {type(value).__name__}" + (f" of {len(value)} items" if isinstance(value, (list, dict)) else "")


def canonical_json(value: object) -> str:
    """One text per JSON value (sorted keys, no spaces, ASCII): how domains are hashed and compared."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False)


def class_hash(rows: list[str], domain: list, labels: int | None = None) -> str:
    """The SHA-256 that names a class: ``f"{n} {m}\\n"`` (``f"{n} {m} labels {k}\\n"`` for a class of ``k > 2``
    labels), the rows each ended by a newline, then the domain's JSON."""
    shape = f"{len(rows)} {len(domain)}" + ("" if labels is None else f" labels {labels}")
    text = shape + "\n" + "".join(r + "\n" for r in rows) + canonical_json(domain)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def label_width(labels: int) -> int:
    """The base-36 digits one label of a class of ``labels`` labels takes in its rows.

    >>> label_width(3), label_width(36), label_width(37)
    (1, 1, 2)
    """
    width, top = 1, 36
    while top < labels:
        width, top = width + 1, top * 36
    return width


def memory_needed(n: int, m: int, width: int, spaces: int = 0, *, labels: int | None = None) -> int:
    """Bytes, about, that checking a class of ``n`` rows on ``m`` instances holds, beyond its text.

    ``width`` is the number of instances some row labels 1 (those from ``width`` on are all 0):
    the columns up to it as numbers (a Python integer takes about 48 bytes besides its bits),
    the text they are cut from (two copies of ``n * width`` characters), a pointer per
    instance, and ``spaces`` sets of rows.
    """
    if labels is not None:  # a list of labels per row, and per instance a set of rows per label given
        return 8 * m + 8 * n * m + m * min(n, labels) * (80 + n // 8) + spaces * (48 + n // 8)
    return 8 * m + width * (48 + n // 8) + 2 * n * width + spaces * (48 + n // 8)


def _name(x: object) -> str | None:
    """An instance's name as the checker compares it: its canonical JSON (``str`` of an integer is that);
    None for a value no JSON document holds (NaN, a set: possible in a document given in memory)."""
    if type(x) is int:
        return str(x)
    try:
        return canonical_json(x)
    except (TypeError, ValueError):
        return None


def _identity(cls: object) -> tuple | None:
    """``(n, m, rows, domain as canonical texts)`` of a class section (None when it is not one)."""
    if not isinstance(cls, dict) or not isinstance(cls.get("rows"), list) or not isinstance(cls.get("domain"), list):
        return None
    return cls.get("n_hypotheses"), cls.get("n_instances"), cls["rows"], [_name(x) for x in cls["domain"]]


def _decimal(digits: str) -> int:
    """The integer written by ``digits`` (ASCII, checked by the caller), read in pieces Python accepts."""
    value = 0
    for k in range(0, len(digits), _CHUNK):
        piece = digits[k:k + _CHUNK]
        value = value * 10 ** len(piece) + int(piece)
    return value


class Context:
    """The class of a certificate (checked), its table of spaces, and the operations the kinds share.

    ``rows[i]`` is row ``i`` as a number (bit ``x``: its label of instance ``x``);
    ``columns[x]`` is the set of rows labelling instance ``x`` with 1, as a bitset (bit ``i``:
    row ``i``); ``spaces`` the table of spaces, filled by :meth:`read_spaces`; ``proven`` maps
    each kind checked so far in this document to what it proved.
    """

    def __init__(self, cls: object, memory: int | None = None):
        if not isinstance(cls, dict) or set(cls) - {"labels"} != set(CLASS_KEYS):
            raise self.fail("class", f"expected an object with exactly the keys {', '.join(CLASS_KEYS)} "
                                     "(and 'labels' for a class of more than two labels)")
        labels = cls.get("labels")
        if "labels" in cls:
            labels = self.integer(labels, "class labels", 3, MAX_LABELS, "the number of labels")  # [class-labels]
        self.labels = 2 if labels is None else labels
        n, m, rows, domain = cls["n_hypotheses"], cls["n_instances"], cls["rows"], cls["domain"]
        if type(n) is not int or type(m) is not int or n < 1 or m < 0:  # [class-shape]
            raise self.fail("class", f"expected n_hypotheses >= 1 and n_instances >= 0, got {brief(n)} and {brief(m)}")
        if not isinstance(rows, list) or len(rows) != n:  # [class-shape]
            raise self.fail("class", f"expected {n} rows, got {len(rows) if isinstance(rows, list) else brief(rows)}")
        if not isinstance(domain, list) or len(domain) != m:  # [class-domain]
            raise self.fail("class", f"expected a domain of {m} instances, "
                                     f"got {len(domain) if isinstance(domain, list) else brief(domain)}")
        self.n, self.m = n, m
        self.bits = BITS + n + m
        self.spaces: list[int] = []
        self.proven: dict[str, tuple] = {}
        if labels is None:
            self.rows = [self._row(i, r) for i, r in enumerate(rows)]  # no larger than their text
            self.width = max(r.bit_length() for r in self.rows)  # every row labels the instances from here on 0
        else:
            self.rows = [self._labels_row(i, r) for i, r in enumerate(rows)]
            self.width = m
        if memory is not None and memory_needed(n, m, self.width, labels=labels) > memory:
            raise UnreadableCertificate(f"class: checking a class of {n:,} rows and {m:,} instances needs about "
                                        f"{memory_needed(n, m, self.width, labels=labels):,} bytes, more than the "
                                        f"{memory:,} the checker may use")
        names = [_name(x) for x in domain]
        if None in names or len(set(names)) != len(names):  # [class-domain]
            raise self.fail("class", "the domain names an instance twice, or holds a value JSON cannot hold (NaN, a "
                                     "set); expected distinct JSON values")
        if cls["sha256"] != class_hash(rows, domain, labels):  # [class-hash]
            raise self.fail("class", "its sha256 does not match its rows and domain")
        self.text_rows, self.domain = rows, names
        self.sha256 = cls["sha256"]
        self.full = (1 << n) - 1
        if labels is None:
            self.columns = self._columns()
            # the instances some rows label 0 and others 1: the only ones that can split a space
            self.varying = [x for x, c in enumerate(self.columns) if 0 != c != self.full]
            self._by_label: list[dict[int, int]] | None = None
        else:
            self.columns, self.varying = [], []
            self._by_label = self._label_columns()

    def _row(self, i: int, text: object) -> int:
        if not (isinstance(text, str) and len(text) <= max(1, -(-self.m // 4)) and _HEX.fullmatch(text)):  # [class-row]
            raise self.fail(f"class row {i}", f"expected {self.m} labels as lower-case hexadecimal without "
                                              "leading zeros")
        value = int(text, 16)
        if value.bit_length() > self.m:  # [class-row]
            raise self.fail(f"class row {i}", f"labels an instance beyond the {self.m} of the class")
        return value

    def _labels_row(self, i: int, text: object) -> list[int]:
        width = label_width(self.labels)
        if not (isinstance(text, str) and len(text) == self.m * width and _BASE36.fullmatch(text)):  # [class-row]
            raise self.fail(f"class row {i}", f"expected {self.m} labels of {width} lower-case base-36 digits each")
        row = [int(text[j:j + width], 36) for j in range(0, len(text), width)]
        if any(y >= self.labels for y in row):  # [class-row]
            raise self.fail(f"class row {i}", f"gives a label beyond the {self.labels} of the class")
        return row

    def _label_columns(self) -> list[dict[int, int]]:
        """Per instance, each label some row gives it and the set of those rows (a class of more labels)."""
        out = []
        for x in range(self.m):
            found: dict[int, list[int]] = {}
            for i, row in enumerate(self.rows):
                found.setdefault(row[x], []).append(i)
            out.append({y: sum(1 << i for i in rows) for y, rows in found.items()})
        return out

    def by_label(self, x: int) -> dict[int, int]:
        """Each label some row gives instance ``x``, and the set of the rows giving it (any class)."""
        if self._by_label is None:
            self._by_label = [{y: c for y, c in ((0, self.full ^ col), (1, col)) if c} for col in self.columns]
        return self._by_label[x]

    def _columns(self) -> list[int]:
        """The columns, by transposing the rows written in binary over the instances some row labels 1."""
        width = self.width
        if width == 0:
            return [0] * self.m
        # in ``table``, row i's label of instance x is character i * width + x: column x is every width-th from x
        table = "".join(format(r, f"0{width}b")[::-1] for r in self.rows)
        return [int(table[x::width][::-1], 2) for x in range(width)] + [0] * (self.m - width)

    # ------------------------------------------------------------------ the class
    def describe(self) -> str:
        """The class as a statement names it: its shape (and labels, past two) and its SHA-256."""
        labels = "" if self.labels == 2 else f" over {self.labels} labels"
        return f"the class of {self.n} hypotheses on {self.m} instances{labels} with sha256 {self.sha256}"

    def same_class(self, expected: object) -> None:
        """Refuse unless ``expected`` (a class section, as its writer writes it) is this class exactly."""
        theirs = _identity(expected)
        if theirs != (self.n, self.m, self.text_rows, self.domain):  # [class-same]
            raise self.fail("class", f"the certificate speaks of another class: {self._difference(theirs)}")

    def _difference(self, theirs: tuple | None) -> str:
        """The first way the class given (its identity, None if malformed) differs from this one, in words."""
        if theirs is None:
            return "the class given is malformed"
        n, m, rows, domain = theirs
        if (n, m) != (self.n, self.m):
            return f"one of {self.n} hypotheses on {self.m} instances, not the {n} on {m} of the class given"
        i = next(i for i, (a, b) in enumerate(zip(self.text_rows + self.domain, rows + domain)) if a != b)
        if i < self.n:
            return f"its row {i} is not row {i} of the class given"
        x = i - self.n
        return f"its instance {x} is {brief(self.domain[x])}, not {brief(domain[x])} as in the class given"

    # ------------------------------------------------------------------ the spaces
    def read_spaces(self, table: object, memory: int | None = None) -> None:
        """Read the table of spaces (each a non-empty set of rows); see the module's docstring."""
        if not isinstance(table, list):
            raise self.fail("spaces", "expected a list of spaces")
        need = memory_needed(self.n, self.m, self.width, len(table))
        if memory is not None and need > memory:
            raise UnreadableCertificate(f"spaces: {len(table):,} spaces of {self.n:,} rows need about {need:,} bytes "
                                        "with the class, "
                                        f"more than the {memory:,} the checker may use")
        digits = max(1, -(-self.n // 4))
        for k, entry in enumerate(table):
            where = f"space {k}"
            if isinstance(entry, list):
                if (len(entry) != 3 or type(entry[2]) is not int or entry[2] not in (0, 1)
                        or self.labels > 2):  # [space-part]
                    raise self.fail(where, "expected [space, instance, label 0/1]")
                s = self.part(self.space(entry[0], where), self.instance(entry[1], where), entry[2])
            else:
                if not (isinstance(entry, str) and len(entry) <= digits and _HEX.fullmatch(entry)):  # [space-hex]
                    raise self.fail(where, "expected a set of rows in lower-case hexadecimal or [space, instance, "
                                           "label]")
                s = int(entry, 16)
                if s.bit_length() > self.n:  # [space-hex]
                    raise self.fail(where, f"names a row beyond the {self.n} of the class")
            if s == 0:  # [space-empty]
                raise self.fail(where, "expected a non-empty set of rows")
            self.spaces.append(s)

    brief = staticmethod(brief)

    @staticmethod
    def fail(where: str, message: str) -> CertificateError:
        """The error a check raises: ``where`` names the step, ``message`` what is wrong with it."""
        return CertificateError(f"{where}: {message}")

    def space(self, index: object, where: str) -> int:
        """The space at ``index`` of the table (an error naming ``where`` if there is none)."""
        if type(index) is not int or not 0 <= index < len(self.spaces):  # [space-index]
            raise self.fail(where, f"expected the index of a space (0..{len(self.spaces) - 1}), got {brief(index)}")
        return self.spaces[index]

    def part(self, V: int, x: int, y: int) -> int:
        """``V_x^y``: the rows of ``V`` giving instance ``x`` the label ``y``."""
        return V & self.columns[x] if y == 1 else V & ~self.columns[x]

    def splits(self, V: int, x: int) -> bool:
        """Whether instance ``x`` splits ``V`` (some rows of ``V`` label it 0, others 1)."""
        return 0 != V & self.columns[x] != V

    def splitting(self, V: int) -> list[int]:
        """The instances that split ``V``, in increasing order."""
        cols = self.columns
        return [x for x in self.varying if 0 != V & cols[x] != V]

    def instance(self, x: object, where: str) -> int:
        """``x`` if it is an instance of the class (an error naming ``where`` otherwise)."""
        if type(x) is not int or not 0 <= x < self.m:  # [instance]
            raise self.fail(where, f"expected an instance 0..{self.m - 1}, got {brief(x)}")
        return x

    def label_of(self, y: object, where: str) -> int:
        """``y`` if it is a label, the integer 0 or 1 (an error naming ``where`` otherwise)."""
        if type(y) is not int or y not in (0, 1):  # [label]
            raise self.fail(where, f"expected a label 0 or 1, got {brief(y)}")
        return y

    def integer(self, value: object, where: str, low: int, high: int, what: str = "a value") -> int:
        """``value`` if it is a JSON integer in ``[low, high]`` (an error naming ``where`` otherwise)."""
        if type(value) is not int or not low <= value <= high:  # [integer]
            raise self.fail(where, f"expected {what}, an integer {low}..{high}, got {brief(value)}")
        return value

    def members(self, V: int) -> list[int]:
        """The rows of ``V``, in increasing order."""
        bits = bin(V)[:1:-1]  # bit i at position i
        found, i = [], bits.find("1")
        while i >= 0:
            found.append(i)
            i = bits.find("1", i + 1)
        return found

    def label(self, i: int, x: int) -> int:
        """The label row ``i`` gives instance ``x``."""
        return self.rows[i] >> x & 1

    def distinct(self, V: int, below: int | None = None) -> int:
        """How many distinct rows ``V`` holds (just its size when that is under ``below``)."""
        size = V.bit_count()
        if below is not None and size < below:
            return size
        return len({self.rows[i] for i in self.members(V)})

    def earlier(self, seen: list, f: object, kind: str, space: int | None, where: str, what: str = "") -> object:
        """The value of fact ``f``, which must be listed before this one (``len(seen)`` facts are) and be a
        ``kind`` fact on exactly ``space`` (any space when None); ``seen[k]`` is ``(space index, kind, value)``."""
        prefix = f"{what}: " if what else ""
        if type(f) is not int or not 0 <= f < len(seen):  # [earlier]
            raise self.fail(where, f"{prefix}expected the index of an earlier fact, got {brief(f)}")
        s, fkind, value = seen[f]
        if fkind != kind or (space is not None and self.spaces[s] != space):  # [earlier]
            raise self.fail(where, f"{prefix}fact {f} is not a {kind!r} fact on that part of the space")
        return value

    # ------------------------------------------------------------------ values
    def number(self, value: object, where: str, *, infinite: bool = False) -> int | Fraction | float:
        """An exact value of the grammar above: an integer, ``"p/q"`` or (``infinite=True``) ``"inf"``.

        Every size is checked before any arithmetic: the digits before they are converted, the
        numerator and denominator against ``self.bits``.
        """
        if type(value) is int:
            if value.bit_length() > self.bits:  # [value-size]
                raise self.fail(where, f"the integer has {value.bit_length()} bits, more than the {self.bits} "
                                       "any value of this class needs")
            return value
        if infinite and value == "inf":
            return math.inf
        digits = self.bits // 3 + 1  # a number of b bits has at most 0.302 b + 1 decimal digits
        if not isinstance(value, str) or len(value) > 2 * digits + 2:  # [value-size]
            raise self._not_a_number(value, where, infinite)
        m = _FRACTION.fullmatch(value)
        if m is None:  # [value-grammar]
            raise self._not_a_number(value, where, infinite)
        p, q = _decimal(m.group(2)), _decimal(m.group(3))
        if max(p.bit_length(), q.bit_length()) > self.bits:  # [value-size]
            raise self.fail(where, f"the fraction has more than the {self.bits} bits any value of this class needs")
        if q < 2 or math.gcd(p, q) != 1:  # [value-grammar]
            raise self._not_a_number(value, where, infinite)
        return Fraction(-p if m.group(1) else p, q)

    def distribution(self, value: object, size: int, where: str, what: str = "move") -> list[Fraction]:
        """``value`` if it is a probability distribution: a list of ``size`` exact numbers ``[entry]``, none
        negative, summing to 1 ``[distribution]`` (an error naming ``where`` otherwise)."""
        if not isinstance(value, list) or len(value) != size:  # [entry]
            raise self.fail(where, f"expected {size} probabilities, one per {what}")
        p = [Fraction(self.number(v, where)) for v in value]
        if min(p) < 0 or sum(p) != 1:  # [distribution]
            raise self.fail(where, f"expected the {what}s' probabilities >= 0 summing to 1")
        return p

    def _not_a_number(self, value: object, where: str, infinite: bool) -> CertificateError:
        return self.fail(where, "expected an integer, a fraction 'p/q' in lowest terms (q >= 2)"
                                f"{' or ' + repr('inf') if infinite else ''}, got {brief(value)}")

    def claim(self, section: dict, name: str, seen: list, at_root=None, root: str = "on all rows") -> tuple:
        """A section's claimed ``(lower, upper)``, each naming a fact and its value (None where not claimed).

        ``seen[k]`` is ``(where, kind, value)`` for fact ``k`` as checked; the lower claim must
        name a ``"ge"`` fact, the upper one a ``"le"`` fact, with the value stated, and
        ``at_root(where)`` (default: the fact's space is all rows) must hold.
        """
        at_root = at_root or (lambda s: self.spaces[s] == self.full)
        claim = section.get("claim")
        if not isinstance(claim, dict) or not set(claim) <= {"lower", "upper"}:  # [claim-shape]
            raise self.fail(f"{name} claim", "expected {'lower': [fact, value], 'upper': [fact, value]}")
        result = []
        for side, kind in (("lower", "ge"), ("upper", "le")):
            entry, where = claim.get(side), f"{name} claim {side}"
            if entry is None:
                result.append(None)
                continue
            if not (isinstance(entry, list) and len(entry) == 2 and type(entry[0]) is int
                    and 0 <= entry[0] < len(seen)):  # [claim-shape]
                raise self.fail(where, "expected [fact index, value]")
            key, fkind, value = seen[entry[0]]
            stated = self.number(entry[1], where, infinite=True)
            if fkind != kind or not at_root(key) or value != stated:  # [claim-root]
                raise self.fail(where, f"fact {entry[0]} is not a {kind!r} fact of value {brief(entry[1])} {root}")
            result.append(value)
        return result[0], result[1]

    # ------------------------------------------------------------------ maps
    def _words(self, V: int, order: list[int]) -> set[str]:
        """The words the rows of ``V`` give on the instances ``order``."""
        return {"".join(str(self.label(i, z)) for z in order) for i in self.members(V)}

    @staticmethod
    def _shifted(V: int, shift: int) -> int:
        return V >> shift if shift >= 0 else V << -shift

    def relabelled(self, where: str, V: int, W: int, entries: object, shift: object = None) -> None:
        """Check that ``V`` is a relabelled copy of ``W`` under ``entries`` (the module's "map" step)."""
        if shift is not None:
            if type(shift) is not int or not -self.n < shift < self.n:  # [shift-range]
                raise self.fail(where, f"expected a shift of fewer rows than the class has, got {brief(shift)}")
            if self._shifted(V, shift) != W or self._shifted(W, -shift) != V:  # [shift-bijection]
                raise self.fail(where, f"the space shifted by {shift} rows is not the space mapped to")
        if not isinstance(entries, list):
            raise self.fail(where, "expected a list of [instance, instance, flip]")
        onto: dict[int, list[tuple[int, int]]] = {}
        listed = []
        target = set(self.splitting(W))
        for e in entries:
            if not (isinstance(e, list) and len(e) == 3 and type(e[2]) is int and e[2] in (0, 1)):  # [map-entry]
                raise self.fail(where, f"expected [instance, instance, flip 0/1], got {brief(e)}")
            x, z = self.instance(e[0], where), self.instance(e[1], where)
            onto.setdefault(z, []).append((x, e[2]))
            listed.append(x)
        if sorted(listed) != self.splitting(V):  # [map-cover]
            raise self.fail(where, "the map must list every instance splitting the space exactly once")
        for w in sorted(target - set(onto)):
            a = W & self.columns[w]
            if not any(W & self.columns[z] in (a, W ^ a) for z in onto):  # [map-copies]
                raise self.fail(where, f"instance {w} splits the space mapped to but is no image, "
                                       "nor a copy of one")
        if shift is not None:
            for z, sources in onto.items():
                for x, flip in sources:
                    if self._shifted(V & self.columns[x], shift) != self.part(W, z, 1 - flip):  # [shift-columns]
                        raise self.fail(where, f"instance {x} shifted is not instance {z}{' flipped' * flip}")
            return
        order = sorted(onto)
        words = set()
        for i in self.members(V):
            letters = []
            for z in order:
                seen = {self.label(i, x) ^ flip for x, flip in onto[z]}
                if len(seen) != 1:  # [map-agree]
                    raise self.fail(where, f"the instances sent to {z} disagree on row {i}")
                letters.append(str(seen.pop()))
            words.add("".join(letters))
        if words != self._words(W, order):  # [map-words]
            raise self.fail(where, "the mapped rows are not the rows of the space mapped to")
