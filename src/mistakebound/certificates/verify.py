"""The independent checker of Littlestone-dimension certificates (format version 1).

Plain Python and the standard library only: it shares no code with the searches and can
run as a program of its own, ``python verify.py CERTIFICATE.json`` (exit 0 when every step
checks, 1 naming the first that fails, 2 when the file cannot be read).

The format
----------
A JSON object::

    {"format": "mistakebound-certificate", "version": 1, "result": "ldim",
     "class": {"n_hypotheses": n, "n_instances": m, "rows": ["0110", ...], "sha256": "..."},
     "spaces": ["<hex bitset of rows>", ...],
     "facts": [[space, "ge" | "le", value, step], ...],
     "claim": {"lower": [fact index, value], "upper": [fact index, value]}}

``rows[i]`` holds hypothesis ``i``'s labels on instances ``0 .. m-1`` as ``'0'``/``'1'``;
``sha256`` is the SHA-256 of ``f"{n} {m}\\n"`` followed by the rows joined by ``"\\n"``
(:func:`class_hash`).  A space is a set of rows, bit ``i`` standing for row ``i``; every
space a fact speaks of is non-empty.  A fact refers only to facts listed before it, so one
pass in order checks them all.  The steps (Ldim as in the textbook's recursion: Ldim(V) is
the largest ``d`` such that some instance ``x`` splits ``V`` into two parts of Ldim at
least ``d - 1``; 0 when no instance splits ``V``):

* ``[V, "ge", 0, null]``: a non-empty space has Ldim >= 0.
* ``[V, "ge", a, [x, f0, f1]]`` with ``a >= 1``: facts ``f0`` and ``f1`` are ``"ge"`` facts on
  exactly ``V_x^0`` and ``V_x^1`` (the rows of ``V`` labelling ``x`` 0, resp. 1), each with a
  value of at least ``a - 1``.
* ``[V, "le", b, [[x, y, f], ...]]``: one entry for every instance ``x`` that splits ``V``
  (no other), ``f`` a ``"le"`` fact on exactly ``V_x^y`` with a value of at most ``b - 1``:
  whichever ``x`` the adversary shows, the learner predicts ``1 - y``, so a mistake leaves
  ``V_x^y``.  With no splitting instance the list is empty and ``b >= 0``.
* ``[V, "le", b, "log2"]``: ``V`` holds fewer than ``2^(b+1)`` distinct rows (Ldim <= log2 |V|).

The claim's ``lower`` and ``upper`` (either may be missing in a partial certificate) name a
fact on the space of all rows and its value.

Examples
--------
>>> rows = ["0", "1"]                      # two hypotheses on one instance: Ldim 1
>>> c = {"format": FORMAT, "version": 1, "result": "ldim",
...      "class": {"n_hypotheses": 2, "n_instances": 1, "rows": rows, "sha256": class_hash(rows, 1)},
...      "spaces": ["3", "1", "2"],             # both rows; row 0; row 1
...      "facts": [[1, "ge", 0, None], [2, "ge", 0, None], [0, "ge", 1, [0, 0, 1]],
...                [1, "le", 0, []], [2, "le", 0, []], [0, "le", 1, [[0, 1, 4]]]],
...      "claim": {"lower": [2, 1], "upper": [5, 1]}}
>>> check(c)
(1, 1)
>>> c["facts"][2][2] = 2
>>> check(c)
Traceback (most recent call last):
...
mistakebound.certificates.verify.CertificateError: fact 2: its children must have values >= 1, got 0 and 0
"""

from __future__ import annotations

import hashlib
import json
import sys

__all__ = ["FORMAT", "VERSION", "CertificateError", "check", "check_file", "class_hash", "main"]

FORMAT = "mistakebound-certificate"
VERSION = 1


class CertificateError(ValueError):
    """A certificate that does not check; the message names the first failing step."""


def class_hash(rows: list[str], n_instances: int) -> str:
    """The SHA-256 that names a class: ``f"{n} {m}\\n"`` then its rows of ``'0'``/``'1'`` joined by newlines."""
    text = f"{len(rows)} {n_instances}\n" + "\n".join(rows)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def _fail(where: str, message: str) -> CertificateError:
    return CertificateError(f"{where}: {message}")


def _read_class(c: dict) -> tuple[list[int], int, int]:
    """Each instance's column as a bitset over the rows, the number of rows and of instances."""
    cls = c.get("class")
    if not isinstance(cls, dict):
        raise _fail("class", "missing")
    n, m, rows = cls.get("n_hypotheses"), cls.get("n_instances"), cls.get("rows")
    if type(n) is not int or type(m) is not int or n < 1 or m < 0 or not isinstance(rows, list) or len(rows) != n:
        raise _fail("class", "expected n_hypotheses >= 1, n_instances >= 0 and that many rows")
    for i, row in enumerate(rows):
        if not isinstance(row, str) or len(row) != m or set(row) - {"0", "1"}:
            raise _fail(f"class row {i}", f"expected {m} characters 0/1")
    if cls.get("sha256") != class_hash(rows, m):
        raise _fail("class", "its sha256 does not match its rows")
    columns = [sum(1 << i for i in range(n) if rows[i][x] == "1") for x in range(m)]
    return columns, n, m


def _distinct(space: int, rows: list[str]) -> int:
    return len({rows[i] for i in range(len(rows)) if space >> i & 1})


def check(c: dict, rows_of_class: list[str] | None = None) -> tuple[int | None, int | None]:
    """Check every step of certificate ``c``; return the claimed ``(lower, upper)`` (None where not claimed).

    With ``rows_of_class`` (the class as read from its own file), the certificate must speak
    of exactly that class.  Raises :class:`CertificateError` naming the first failing step.
    """
    if not isinstance(c, dict) or c.get("format") != FORMAT or c.get("version") != VERSION:
        raise _fail("header", f"expected format {FORMAT!r} version {VERSION}")
    if c.get("result") != "ldim":
        raise _fail("header", "expected result 'ldim' (the only kind this version checks)")
    columns, n, m = _read_class(c)
    rows = c["class"]["rows"]
    if rows_of_class is not None and (rows_of_class != rows):
        raise _fail("class", "the certificate speaks of another class than the one given")
    full = (1 << n) - 1
    spaces = []
    for k, text in enumerate(c.get("spaces") or []):
        try:
            s = int(text, 16)
        except (TypeError, ValueError):
            raise _fail(f"space {k}", "expected a hexadecimal bitset") from None
        if s <= 0 or s > full:
            raise _fail(f"space {k}", f"expected a non-empty set of rows 0..{n - 1}")
        spaces.append(s)
    facts = c.get("facts")
    if not isinstance(facts, list):
        raise _fail("facts", "missing")
    seen: list[tuple[int, str, int]] = []
    for k, fact in enumerate(facts):
        where = f"fact {k}"
        if not isinstance(fact, list) or len(fact) != 4:
            raise _fail(where, "expected [space, 'ge' or 'le', value, step]")
        s, kind, value, step = fact
        if type(s) is not int or not 0 <= s < len(spaces) or kind not in ("ge", "le") or type(value) is not int:
            raise _fail(where, "expected a space index, 'ge' or 'le', and an integer value")
        V = spaces[s]

        def child(f, want_kind: str, want_space: int, what: str) -> int:
            if type(f) is not int or not 0 <= f < k:
                raise _fail(where, f"{what}: expected the index of an earlier fact, got {f!r}")
            cs, ckind, cvalue = seen[f]
            if ckind != want_kind or spaces[cs] != want_space:
                raise _fail(where, f"{what}: fact {f} is not a {want_kind!r} fact on that part of the space")
            return cvalue

        splitting = [x for x in range(m) if 0 != V & columns[x] != V]
        if kind == "ge":
            if value <= 0:
                if value < 0 or step is not None:
                    raise _fail(where, "Ldim >= 0 needs no step (null), and values are >= 0")
            else:
                if not (isinstance(step, list) and len(step) == 3 and type(step[0]) is int and 0 <= step[0] < m):
                    raise _fail(where, "expected [instance, fact for label 0, fact for label 1]")
                x = step[0]
                if x not in splitting:
                    raise _fail(where, f"instance {x} does not split the space")
                v0 = child(step[1], "ge", V & ~columns[x], "label 0")
                v1 = child(step[2], "ge", V & columns[x], "label 1")
                if min(v0, v1) < value - 1:
                    raise _fail(where, f"its children must have values >= {value - 1}, got {v0} and {v1}")
        elif step == "log2":
            if value < 0 or _distinct(V, rows) >= 1 << (value + 1):
                raise _fail(where, f"the space holds {_distinct(V, rows)} distinct rows, not fewer than 2^{value + 1}")
        else:
            if not isinstance(step, list) or value < 0:
                raise _fail(where, "expected a list of [instance, label, fact] and a value >= 0")
            covered = []
            for entry in step:
                if not (isinstance(entry, list) and len(entry) == 3 and type(entry[0]) is int and entry[1] in (0, 1)):
                    raise _fail(where, f"expected [instance, label 0/1, fact], got {entry!r}")
                x, y, f = entry
                if x not in splitting:
                    raise _fail(where, f"instance {x} does not split the space")
                part = V & columns[x] if y == 1 else V & ~columns[x]
                if child(f, "le", part, f"instance {x}") > value - 1:
                    raise _fail(where, f"instance {x}: fact {f} allows more than {value - 1}")
                covered.append(x)
            if sorted(covered) != splitting:
                missing = sorted(set(splitting) - set(covered))
                raise _fail(where, f"instances {missing or 'listed twice'} not answered exactly once")
        seen.append((s, kind, value))
    claim = c.get("claim")
    if not isinstance(claim, dict) or not set(claim) <= {"lower", "upper"}:
        raise _fail("claim", "expected {'lower': [fact, value], 'upper': [fact, value]}")
    result = []
    for side, kind in (("lower", "ge"), ("upper", "le")):
        if side not in claim:
            result.append(None)
            continue
        entry = claim[side]
        if not (isinstance(entry, list) and len(entry) == 2 and type(entry[0]) is int and 0 <= entry[0] < len(seen)):
            raise _fail(f"claim {side}", "expected [fact index, value]")
        s, fkind, value = seen[entry[0]]
        if fkind != kind or spaces[s] != full or value != entry[1]:
            raise _fail(f"claim {side}", f"fact {entry[0]} is not a {kind!r} fact of value {entry[1]!r} on all rows")
        result.append(value)
    return result[0], result[1]


def check_file(path: str, rows_of_class: list[str] | None = None) -> tuple[int | None, int | None]:
    """:func:`check` on the JSON file at ``path``; a file that is not JSON is a :class:`CertificateError`."""
    try:
        with open(path, encoding="utf-8") as fh:
            c = json.load(fh)
    except (ValueError, RecursionError) as exc:
        raise CertificateError(f"file: not a JSON certificate ({exc})") from None
    return check(c, rows_of_class)


def main(argv: list[str] | None = None) -> int:
    """``python verify.py CERTIFICATE.json``: 0 if every step checks, 1 naming the first failing one, 2 unreadable."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python verify.py CERTIFICATE.json", file=sys.stderr)
        return 2
    try:
        lower, upper = check_file(args[0])
    except OSError as exc:
        print(f"verify: cannot read {args[0]!r}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except CertificateError as exc:
        print(f"verify: REJECTED: {exc}", file=sys.stderr)
        return 1
    print(f"verified: {'?' if lower is None else lower} <= Ldim <= {'?' if upper is None else upper}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
