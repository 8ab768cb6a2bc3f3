"""The independent checker of certificates (format ``mistakebound-certificate``, version 1).

Plain Python and the standard library only: it shares no code with the searches and runs
as a program of its own, ``python verify.py CERTIFICATE.json`` (exit 0 when every step
checks, 1 naming the first step that fails, 2 when the file cannot be read).  This file
reads the parts every certificate shares (the header, the class, the table of version
spaces) and hands each result to the module that checks its kind: :mod:`.ldim` (the
Littlestone dimension and shattered trees), :mod:`.vc` (the VC dimension),
:mod:`.worst_case` (a learner's worst case ``M_A(H)``) and :mod:`.randomized` (the
randomized Littlestone dimension).  Each of those imports nothing but the standard library.

The document
------------
A JSON object::

    {"format": "mistakebound-certificate", "version": 1,
     "class": {"n_hypotheses": n, "n_instances": m, "rows": ["6", ...], "sha256": "..."},
     "spaces": ["<hex bitset of rows>", ...],
     "results": [{"result": "ldim", ...}, {"result": "vc", ...}, ...]}

``rows[i]`` holds hypothesis ``i``'s labels as a number in lower-case hexadecimal without
leading zeros, bit ``x`` being the label of instance ``x`` (``"6"``: instances 1 and 2 labelled
1); ``sha256`` is the SHA-256 of ``f"{n} {m}\\n"`` followed by the rows joined by ``"\\n"``
(:func:`class_hash`).  A file whose name ends in ``.gz`` is read through gzip.  A space
is a non-empty set of rows, bit ``i`` standing for row ``i``, written in hexadecimal, or ``[s, x, y]``: the part ``V_x^y`` of the space ``s`` listed
before it; results refer to spaces by their index in the table.
``V_x^y`` is the set of rows of ``V`` that give instance ``x`` the label ``y``; ``x``
*splits* ``V`` when both ``V_x^0`` and ``V_x^1`` are non-empty.  Results are checked in
order, and a result may use what an earlier one proved (a VC dimension is at most the
Littlestone dimension).  Each kind's module documents its section.

Numbers are JSON integers, or strings ``"p/q"`` for exact fractions, or ``"inf"``.

Examples
--------
>>> rows = ["0", "1"]                      # two hypotheses on one instance: Ldim 1
>>> c = {"format": FORMAT, "version": 1,
...      "class": {"n_hypotheses": 2, "n_instances": 1, "rows": rows, "sha256": class_hash(rows, 1)},
...      "spaces": ["3", "1", "2"],             # both rows; row 0; row 1
...      "results": [{"result": "ldim",
...          "facts": [[1, "ge", 0, None], [2, "ge", 0, None], [0, "ge", 1, [0, 0, 1]],
...                    [1, "le", 0, []], [2, "le", 0, []], [0, "le", 1, [[0, 1, 4]]]],
...          "claim": {"lower": [2, 1], "upper": [5, 1]}}]}
>>> check(c)
{'ldim': (1, 1)}
>>> c["results"][0]["facts"][2][2] = 2
>>> check(c)
Traceback (most recent call last):
...
mistakebound.certificates.verify.CertificateError: ldim fact 2: its children must have values >= 1, got 0 and 0
"""

from __future__ import annotations

import gzip
import hashlib
import json
import math
import os
import sys
from fractions import Fraction

if __package__:
    from . import ldim, randomized, vc, worst_case
else:  # run as a program (python -I -S verify.py): the kinds' checkers are this file's neighbours
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import ldim  # type: ignore[no-redef]
    import randomized  # type: ignore[no-redef]
    import vc  # type: ignore[no-redef]
    import worst_case  # type: ignore[no-redef]

__all__ = ["FORMAT", "KINDS", "VERSION", "CertificateError", "Context", "check", "check_file", "class_hash",
           "describe", "load", "main"]

FORMAT = "mistakebound-certificate"
VERSION = 1
#: The kinds of result this version checks, and the module that checks each.
KINDS = {"ldim": ldim, "vc": vc, "worst-case": worst_case, "rldim": randomized}
#: How each kind's value is named when a check is reported.
NAMES = {"ldim": "Ldim", "vc": "VCdim", "worst-case": "M_A(H)", "rldim": "RL"}


class CertificateError(ValueError):
    """A certificate that does not check; the message names the first failing step."""


def class_hash(rows: list[str], n_instances: int) -> str:
    """The SHA-256 that names a class: ``f"{n} {m}\\n"`` then its hexadecimal rows joined by newlines."""
    text = f"{len(rows)} {n_instances}\n" + "\n".join(rows)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


class Context:
    """What every kind's check reads: the class (checked against its hash) and the table of spaces.

    ``rows[i]`` is row ``i`` as a number (bit ``x``: its label of instance ``x``);
    ``columns[x]`` is the set of rows labelling instance ``x`` with 1, as a bitset (bit ``i``:
    row ``i``); ``proven`` maps each kind checked so far in this document to its ``(lower, upper)``.
    """

    def __init__(self, rows: list[int], n_instances: int, spaces: list[int]):
        self.rows, self.n, self.m = rows, len(rows), n_instances
        self.full = (1 << self.n) - 1
        # the columns, by transposing the rows written in binary: in ``table``, row i's label of
        # instance x is character i * m + x, so column x is every m-th character from x
        m = n_instances
        table = "".join(format(r, f"0{m}b")[::-1] for r in rows)
        self.columns = [int(table[x::m][::-1], 2) for x in range(m)]
        self.spaces = spaces
        self.proven: dict[str, tuple] = {}

    @staticmethod
    def fail(where: str, message: str) -> CertificateError:
        """The error a check raises: ``where`` names the step, ``message`` what is wrong with it."""
        return CertificateError(f"{where}: {message}")

    def space(self, index: object, where: str) -> int:
        """The space at ``index`` of the table (an error naming ``where`` if there is none)."""
        if type(index) is not int or not 0 <= index < len(self.spaces):
            raise self.fail(where, f"expected the index of a space (0..{len(self.spaces) - 1}), got {index!r}")
        return self.spaces[index]

    def part(self, V: int, x: int, y: int) -> int:
        """``V_x^y``: the rows of ``V`` giving instance ``x`` the label ``y``."""
        return V & self.columns[x] if y == 1 else V & ~self.columns[x]

    def splitting(self, V: int) -> list[int]:
        """The instances that split ``V``, in increasing order."""
        return [x for x in range(self.m) if 0 != V & self.columns[x] != V]

    def instance(self, x: object, where: str) -> int:
        """``x`` if it is an instance of the class (an error naming ``where`` otherwise)."""
        if type(x) is not int or not 0 <= x < self.m:
            raise self.fail(where, f"expected an instance 0..{self.m - 1}, got {x!r}")
        return x

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
        if type(f) is not int or not 0 <= f < len(seen):
            raise self.fail(where, f"{prefix}expected the index of an earlier fact, got {f!r}")
        s, fkind, value = seen[f]
        if fkind != kind or (space is not None and self.spaces[s] != space):
            raise self.fail(where, f"{prefix}fact {f} is not a {kind!r} fact on that part of the space")
        return value

    def _words(self, V: int, order: list[int]) -> set[str]:
        """The words the rows of ``V`` give on the instances ``order``."""
        return {"".join(str(self.label(i, z)) for z in order) for i in self.members(V)}

    @staticmethod
    def _shifted(V: int, shift: int) -> int:
        return V >> shift if shift >= 0 else V << -shift

    def relabelled(self, where: str, V: int, W: int, entries: object, shift: object = None) -> None:
        """Check that ``V`` is a relabelled copy of ``W`` under ``entries`` (the ``"map"`` step: see
        :mod:`.ldim`); every Littlestone-type value (Ldim, RL) of one is then that of the other."""
        if shift is not None and (type(shift) is not int or self._shifted(V, shift) != W):
            raise self.fail(where, f"the space shifted by {shift!r} rows is not the space mapped to")
        if not isinstance(entries, list):
            raise self.fail(where, "expected a list of [instance, instance, flip]")
        onto: dict[int, list[tuple[int, int]]] = {}
        listed = []
        target = set(self.splitting(W))
        for e in entries:
            if not (isinstance(e, list) and len(e) == 3 and e[2] in (0, 1)):
                raise self.fail(where, f"expected [instance, instance, flip 0/1], got {e!r}")
            x, z = self.instance(e[0], where), self.instance(e[1], where)
            if z not in target:
                raise self.fail(where, f"instance {z} does not split the space mapped to")
            onto.setdefault(z, []).append((x, e[2]))
            listed.append(x)
        if sorted(listed) != self.splitting(V):
            raise self.fail(where, "the map must list every instance splitting the space exactly once")
        for w in sorted(target - set(onto)):
            a = W & self.columns[w]
            if not any(W & self.columns[z] in (a, W ^ a) for z in onto):
                raise self.fail(where, f"instance {w} splits the space mapped to but is no image, "
                                       "nor a copy of one")
        if shift is not None:
            for z, sources in onto.items():
                for x, flip in sources:
                    if self._shifted(V & self.columns[x], shift) != self.part(W, z, 1 - flip):
                        raise self.fail(where, f"instance {x} shifted is not instance {z}{' flipped' * flip}")
            return
        order = sorted(onto)
        words = set()
        for i in self.members(V):
            letters = []
            for z in order:
                seen = {self.label(i, x) ^ flip for x, flip in onto[z]}
                if len(seen) != 1:
                    raise self.fail(where, f"the instances sent to {z} disagree on row {i}")
                letters.append(str(seen.pop()))
            words.add("".join(letters))
        if words != self._words(W, order):
            raise self.fail(where, "the mapped rows are not the rows of the space mapped to")

    def claim(self, section: dict, name: str, seen: list, at_root=None, root: str = "on all rows") -> tuple:
        """A section's claimed ``(lower, upper)``, each naming a fact and its value (None where not claimed).

        ``seen[k]`` is ``(where, kind, value)`` for fact ``k`` as checked; the lower claim must
        name a ``"ge"`` fact, the upper one a ``"le"`` fact, with the value stated, and
        ``at_root(where)`` (default: the fact's space is all rows) must hold.
        """
        at_root = at_root or (lambda s: self.spaces[s] == self.full)
        claim = section.get("claim")
        if not isinstance(claim, dict) or not set(claim) <= {"lower", "upper"}:
            raise self.fail(f"{name} claim", "expected {'lower': [fact, value], 'upper': [fact, value]}")
        result = []
        for side, kind in (("lower", "ge"), ("upper", "le")):
            entry, where = claim.get(side), f"{name} claim {side}"
            if entry is None:
                result.append(None)
                continue
            if not (isinstance(entry, list) and len(entry) == 2 and type(entry[0]) is int
                    and 0 <= entry[0] < len(seen)):
                raise self.fail(where, "expected [fact index, value]")
            key, fkind, value = seen[entry[0]]
            if fkind != kind or not at_root(key) or value != self.number(entry[1], where):
                raise self.fail(where, f"fact {entry[0]} is not a {kind!r} fact of value {entry[1]!r} {root}")
            result.append(value)
        return result[0], result[1]

    def number(self, value: object, where: str) -> int | Fraction | float:
        """An exact number of the format: an integer, a string ``"p/q"``, or ``"inf"`` (``math.inf``)."""
        if type(value) is int:
            return value
        if value == "inf":
            return math.inf
        if isinstance(value, str) and value.count("/") == 1:
            p, q = value.split("/")
            if p.lstrip("-").isdigit() and q.isdigit() and int(q) > 0:
                return Fraction(int(p), int(q))
        raise self.fail(where, f"expected an integer, a fraction 'p/q' or 'inf', got {value!r}")


def _read_class(c: dict) -> tuple[list[str], list[int], int]:
    cls = c.get("class")
    if not isinstance(cls, dict):
        raise Context.fail("class", "missing")
    n, m, rows = cls.get("n_hypotheses"), cls.get("n_instances"), cls.get("rows")
    if type(n) is not int or type(m) is not int or n < 1 or m < 0 or not isinstance(rows, list) or len(rows) != n:
        raise Context.fail("class", "expected n_hypotheses >= 1, n_instances >= 0 and that many rows")
    numbers = []
    for i, row in enumerate(rows):
        try:
            value = int(row, 16) if isinstance(row, str) else -1
        except ValueError:
            value = -1
        if not 0 <= value < 1 << m or format(value, "x") != row:
            raise Context.fail(f"class row {i}", f"expected {m} labels as lower-case hexadecimal without leading zeros")
        numbers.append(value)
    if cls.get("sha256") != class_hash(rows, m):
        raise Context.fail("class", "its sha256 does not match its rows")
    return rows, numbers, m


def check(c: dict, rows_of_class: list[str] | None = None) -> dict[str, tuple]:
    """Check every step of certificate ``c``; return each result's proven ``(lower, upper)`` by kind.

    A bound the certificate does not claim is None.  With ``rows_of_class`` (the class as
    read from its own file) the certificate must speak of exactly that class.  Raises
    :class:`CertificateError` naming the first failing step.
    """
    if not isinstance(c, dict) or c.get("format") != FORMAT or c.get("version") != VERSION:
        raise Context.fail("header", f"expected format {FORMAT!r} version {VERSION}")
    rows, numbers, m = _read_class(c)
    if rows_of_class is not None and rows_of_class != rows:
        raise Context.fail("class", "the certificate speaks of another class than the one given")
    spaces: list[int] = []
    ctx = Context(numbers, m, spaces)
    table = c.get("spaces")
    for k, entry in enumerate(table if isinstance(table, list) else []):
        where = f"space {k}"
        if isinstance(entry, list) and len(entry) == 3 and entry[2] in (0, 1) and type(entry[2]) is int:
            s = ctx.part(ctx.space(entry[0], where), ctx.instance(entry[1], where), entry[2])
        else:
            try:
                s = int(entry, 16)
            except (TypeError, ValueError):
                raise Context.fail(where, "expected a hexadecimal bitset or [space, instance, label]") from None
        if s <= 0 or s > ctx.full:
            raise Context.fail(where, f"expected a non-empty set of rows 0..{len(rows) - 1}")
        spaces.append(s)
    results = c.get("results")
    if not isinstance(results, list) or not results:
        raise Context.fail("results", "expected a non-empty list of results")
    for r, section in enumerate(results):
        kind = section.get("result") if isinstance(section, dict) else None
        if kind not in KINDS:
            raise Context.fail(f"result {r}", f"expected a kind among {sorted(KINDS)}, got {kind!r}")
        if kind in ctx.proven:
            raise Context.fail(f"result {r}", f"a second {kind!r} result")
        ctx.proven[kind] = KINDS[kind].check(section, ctx)
    return dict(ctx.proven)


def load(path: str) -> dict:
    """The certificate in the JSON file at ``path`` (read through gzip when it ends in ``.gz``).

    A file that is not JSON is a :class:`CertificateError`; one that cannot be read, an ``OSError``.
    """
    try:
        with (gzip.open(path, "rt", encoding="utf-8") if str(path).endswith(".gz")
              else open(path, encoding="utf-8")) as fh:
            return json.load(fh)
    except (ValueError, RecursionError, EOFError, gzip.BadGzipFile) as exc:
        raise CertificateError(f"file: not a JSON certificate ({exc})") from None


def check_file(path: str, rows_of_class: list[str] | None = None) -> dict[str, tuple]:
    """:func:`check` on the certificate :func:`load` reads from ``path``."""
    return check(load(path), rows_of_class)


def describe(proven: dict[str, tuple]) -> list[str]:
    """One line per result: ``"3 <= Ldim <= 3"``, with ``?`` for a side not claimed."""
    def text(v: object) -> str:
        return "?" if v is None else str(v)
    return [f"{text(lo)} <= {NAMES[kind]} <= {text(hi)}" for kind, (lo, hi) in proven.items()]


def main(argv: list[str] | None = None) -> int:
    """``python verify.py CERTIFICATE.json``: 0 if every step checks, 1 naming the first failing one, 2 unreadable."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python verify.py CERTIFICATE.json", file=sys.stderr)
        return 2
    try:
        proven = check_file(args[0])
    except OSError as exc:
        print(f"verify: cannot read {args[0]!r}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except CertificateError as exc:
        print(f"verify: REJECTED: {exc}", file=sys.stderr)
        return 1
    for line in describe(proven):
        print(f"verified: {line}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
