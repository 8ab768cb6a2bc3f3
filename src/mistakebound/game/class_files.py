"""Hypothesis classes in files: the one reader and the one writer of ``.npy``, ``.csv`` and ``.json``.

:func:`load_class` reads a class from a file, choosing the format by the suffix, and
:func:`save_class` writes one, atomically.  Every front end (the command line, sweeps, the
registry, users' scripts) reads class files through :func:`load_class`, so a file means
the same thing everywhere.

What each format keeps
----------------------
``.json``
    Everything: the domain (instances of type ``int``, ``float``, ``str``, ``bool``,
    ``None`` and tuples of those), the matrix, the hypothesis names and the class name
    (format ``"mistakebound.class"``, version 1; :func:`class_to_json`, :func:`class_from_json`).
``.csv``
    The matrix, the hypothesis names, and a domain of ``str`` and ``int`` instances (an
    instance written as an integer, such as ``12`` or ``-3``, reads back as an ``int``;
    any other text as a ``str``).  Surrounding spaces of a cell are not kept.
``.npy``
    The matrix only; it reads back over the domain ``0, 1, ..., n - 1`` with no names.

A class read from ``.csv`` or ``.npy`` is named after its file (``"thresholds.csv"``).
:func:`save_class` refuses, before writing anything, a save that would lose part of the
domain or the names (say ``.json``, or pass ``matrix_only=True`` to keep the matrix alone).

The CSV layout
--------------
Comma-separated, quoted as spreadsheets do (a cell holding a comma, a quote or a line
break is written between double quotes, a quote inside doubled), UTF-8 (a byte-order mark
is ignored), blank lines ignored, spaces around a cell ignored.  Every row has the same
number of cells.  A cell is an *entry* if it reads as the number 0 or 1 (``0``, ``1``,
``1.0``, ``0e0``), a *number* if it reads as another number, *empty*, or else *text*.
Rows are hypotheses, columns instances, and:

* the first row is a **header** of instance names if its first cell is empty, or if one of
  its other cells is a number other than 0 and 1 or text (so ``x1,x2`` and ``1,2,3`` are
  headers);
* the first column holds **hypothesis names** if its first cell is empty, or if one of its
  other cells is text (a column of numbers is entries: a mistyped ``2`` is reported, not
  taken for a name; instances are often numbered, hypotheses named in words);
* the first cell is then the label of the name column (header and names), the first
  instance (header only), the first hypothesis's name (names only) or an entry (neither).
  If it is not an entry while nothing else marks a header or names, it starts the header
  of a file of one column, names the hypothesis of a file of one row, and is refused as
  ambiguous in any other file;
* every other cell is an entry (an empty one is refused), the instances are distinct, and
  there is at least one hypothesis and one instance.

:func:`save_class` writes the matrix alone when the class has the default domain and no
names, a header row when it has another domain, and a header row over a name column, with
an empty first cell, when it has names (the layout pandas and spreadsheets write).

Errors
------
Every refusal is an :class:`~mistakebound.foundations.errors.InvalidArgumentError` (an
:class:`~mistakebound.foundations.errors.InvalidClassError` when the content is not a valid
class) on one line, starting ``path: 'FILE':``, saying what is wrong and what was expected.
In a ``.csv`` or ``.npy`` file, rows and columns are numbered from 1, as a spreadsheet
shows them (a CSV row by the line it starts on); in JSON messages, ``matrix`` rows and
columns are numbered from 1 too, while ``domain[j]`` and ``names[i]`` are JSON positions,
from 0.  Sizes are checked before anything large is read: the file against ``max_bytes``,
a ``.npy`` header's shape against ``max_bytes``, the file's size and
:data:`~mistakebound.game.classes.MAX_ENTRIES`, and the entries a ``.csv`` file could hold
against :data:`~mistakebound.game.classes.MAX_ENTRIES`.  A ``.npy`` file holding pickled
objects is refused without being unpickled.

Examples
--------
>>> import pathlib, tempfile
>>> from mistakebound.game import classes
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> H = classes.thresholds(3)
>>> path = save_class(H, folder / "thresholds.csv")
>>> print(path.read_text(), end="")
,1,2,3
x<1,0,0,0
x<2,1,0,0
x<3,1,1,0
x<4,1,1,1
>>> G = load_class(path)
>>> G == H, G.domain, G.name
(True, (1, 2, 3), 'thresholds.csv')
>>> _ = (folder / "bad.csv").write_text("0,1\\n1,2\\n")
>>> load_class(folder / "bad.csv")
Traceback (most recent call last):
...
mistakebound.foundations.errors.InvalidClassError: path: '.../bad.csv': row 2, column 2: '2' is not 0 or 1; expected every entry to be 0 or 1
"""

from __future__ import annotations

import codecs
import csv
import io
import os
import re
from pathlib import Path
from typing import Any

import numpy as np

from mistakebound.foundations import json_format as jf
from mistakebound.foundations.errors import InvalidArgumentError, InvalidClassError
from mistakebound.foundations.files import write_atomically
from mistakebound.foundations.validation import brief, check_flag, check_int
from mistakebound.game.classes import MAX_ENTRIES
from mistakebound.game.hypothesis_class import HypothesisClass

__all__ = [
    "load_class",
    "save_class",
    "class_to_json",
    "class_from_json",
    "read_npy_matrix",
    "CLASS_FORMAT",
    "SUFFIXES",
    "DEFAULT_MAX_BYTES",
]

#: The ``"format"`` tag of a class saved as JSON.
CLASS_FORMAT = "mistakebound.class"
#: The suffixes :func:`load_class` and :func:`save_class` know (compared without case).
SUFFIXES = (".npy", ".csv", ".json")
#: Default largest file :func:`load_class` reads (1 GiB); pass ``max_bytes`` to change it.
DEFAULT_MAX_BYTES = 2**30

_EXPECTED_SUFFIX = "a file ending in .npy or .csv (a 0/1 matrix) or .json (a saved class)"


# ------------------------------------------------------------------------ messages
def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _refuse(path: Path, problem: str, expected: str, error: type = InvalidArgumentError) -> InvalidArgumentError:
    """The error ``path: 'FILE': PROBLEM; expected EXPECTED``, on one line."""
    return error(_one_line(f"path: {str(path)!r}: {problem}; expected {expected}"))


def _as_path(path: Any) -> Path:
    if not isinstance(path, (str, os.PathLike)):
        raise InvalidArgumentError(
            f"path: expected a file name (a str or an os.PathLike), got {brief(path)} of type {jf.type_name(path)}"
        )
    try:
        return Path(path)
    except TypeError:  # an os.PathLike whose __fspath__ returns bytes
        raise InvalidArgumentError(f"path: expected a file name (a str or an os.PathLike), got {brief(path)}") from None


def _suffix(path: Path) -> str:
    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        raise _refuse(path, f"unknown suffix {suffix or '(none)'!r}", _EXPECTED_SUFFIX)
    return suffix


def _check_file(path: Path, max_bytes: int | None) -> int:
    """The size of the file at ``path``, after refusing a missing, empty or too large one."""
    try:
        size = path.stat().st_size
        is_dir = path.is_dir()
    except FileNotFoundError:
        raise _refuse(path, "the file does not exist", "an existing file") from None
    except (OSError, ValueError) as exc:  # permissions, a name too long, a NUL in the name
        reason = getattr(exc, "strerror", None) or exc
        raise _refuse(path, f"cannot read the file ({reason})", "a readable file") from None
    if is_dir:
        raise _refuse(path, "is a directory", "a file")
    if size == 0:
        raise _refuse(path, "the file is empty", "a class: rows of 0/1 entries or a saved class")
    if max_bytes is not None and size > max_bytes:
        raise _refuse(path, f"the file has {size} bytes, more than max_bytes = {max_bytes}",
                      "a smaller file (or pass a larger max_bytes, or None for no limit)")
    return size


# ---------------------------------------------------------------------------- JSON
def class_to_json(H: HypothesisClass) -> str:
    """The JSON text of class ``H``: its domain, matrix (rows of 0/1), names and name.

    Raises
    ------
    InvalidArgumentError
        If ``H`` is not a HypothesisClass or an instance of its domain is not serialisable
        (the message names its position, ``domain[j]``).

    Examples
    --------
    >>> class_to_json(HypothesisClass.from_matrix([[1, 0]]))
    '{"format":"mistakebound.class","version":1,"name":null,"names":null,"domain":[0,1],"matrix":[[1,0]]}'
    """
    if not isinstance(H, HypothesisClass):
        raise InvalidArgumentError(f"H: expected a HypothesisClass, got {brief(H)} of type {jf.type_name(H)}")
    out = {
        **jf.header(CLASS_FORMAT),
        "name": jf.optional(jf.expect_str)("name", H.name),
        "names": None if H.names is None else [jf.expect_str(f"names[{i}]", n) for i, n in enumerate(H.names)],
        "domain": [jf.encode_instance(x, f"domain[{j}]") for j, x in enumerate(H.domain)],
        "matrix": H.matrix.astype(int).tolist(),
    }
    return jf.dumps(out)


def class_from_json(text: str | bytes) -> HypothesisClass:
    """Rebuild the class written by :func:`class_to_json` (validated like ``from_matrix``).

    Raises
    ------
    InvalidArgumentError
        For malformed JSON, another format or version, missing or unknown fields, values
        of the wrong type; :class:`~mistakebound.foundations.errors.InvalidClassError` (a
        subclass) for a matrix that is not 0/1, ragged, empty or does not match the domain,
        or a domain with an instance twice.

    Examples
    --------
    >>> text = '{"format":"mistakebound.class","version":1,"name":null,"names":null,"domain":[0,1],"matrix":[[1,0],[0,2]]}'
    >>> class_from_json(text)
    Traceback (most recent call last):
    ...
    mistakebound.foundations.errors.InvalidClassError: matrix: row 2, column 2 holds 2; expected every entry to be 0 or 1
    """
    data = jf.parse(text, what="class", fmt=CLASS_FORMAT)
    jf.check_keys("class", data, ["format", "version", "name", "names", "domain", "matrix"])
    name = jf.optional(jf.expect_str)("name", data["name"])
    names = jf.optional(jf.tuple_of(jf.expect_str)[1])("names", data["names"])
    if type(data["domain"]) is not list:
        raise InvalidArgumentError(f"domain: expected a JSON list, got {jf.type_name(data['domain'])}")
    domain = tuple(jf.decode_instance(x, f"domain[{j}]") for j, x in enumerate(data["domain"]))
    seen: dict[Any, int] = {}
    for j, x in enumerate(domain):
        if x in seen:
            raise InvalidClassError(
                f"domain[{j}]: instance {brief(x)} appears twice (also at domain[{seen[x]}]); "
                "expected distinct instances"
            )
        seen[x] = j
    matrix = data["matrix"]
    if type(matrix) is not list or not all(type(row) is list for row in matrix):
        raise InvalidClassError("matrix: expected a JSON list of rows, each a list of 0/1")
    if not matrix:
        raise InvalidClassError("matrix: holds no rows; expected at least one hypothesis (row)")
    for i, row in enumerate(matrix):
        if len(row) != len(domain):
            raise InvalidClassError(
                f"matrix: row {i + 1} has {len(row)} entries but the domain has {len(domain)} instances; "
                "expected one entry per instance"
            )
        for j, v in enumerate(row):
            if type(v) is not int or (v != 0 and v != 1):
                raise InvalidClassError(
                    f"matrix: row {i + 1}, column {j + 1} holds {brief(v)}; expected every entry to be 0 or 1"
                )
    arr = np.array(matrix, dtype=np.uint8).reshape(len(matrix), len(domain))
    return HypothesisClass.from_matrix(arr, domain, names, name=name)


# ----------------------------------------------------------------------------- npy
def _npy_header(path: Path) -> tuple[tuple, bool, np.dtype, int]:
    """``(shape, fortran_order, dtype, data_offset)`` from the header of a ``.npy`` file."""
    try:
        with open(path, "rb") as fh:
            version = np.lib.format.read_magic(fh)
            if version == (1, 0):
                shape, fortran, dtype = np.lib.format.read_array_header_1_0(fh)
            elif version == (2, 0):
                shape, fortran, dtype = np.lib.format.read_array_header_2_0(fh)
            else:
                raise ValueError(f"unsupported .npy version {version}")
            return shape, fortran, dtype, fh.tell()
    except Exception as exc:  # noqa: BLE001 - numpy's header parser raises many types (e.g. TokenError)
        raise _refuse(path, f"is not a valid .npy file ({type(exc).__name__}: {exc})",
                      "a .npy file written by numpy.save (format version 1 or 2)") from None


def _read_npy(path: Path, max_bytes: int | None, size: int) -> np.ndarray:
    shape, _, dtype, offset = _npy_header(path)
    if dtype.hasobject:
        raise _refuse(path, f"holds a pickled object array ({dtype}); pickles are refused because loading "
                            "them could run code", "a numeric 0/1 array (save it with allow_pickle=False)")
    if dtype.kind not in "biuf":
        raise _refuse(path, f"holds an array of dtype {dtype}", "0/1 numbers (bool, int, uint or float)")
    if len(shape) != 2:
        raise _refuse(path, f"holds an array of shape {shape}", "a 2-D array (hypotheses x instances)",
                      InvalidClassError)
    entries = int(np.prod(shape, dtype=object))
    need = entries * dtype.itemsize
    if entries > MAX_ENTRIES:
        raise _refuse(path, f"the matrix of shape {shape} has {entries} entries, more than the limit of {MAX_ENTRIES}",
                      f"at most {MAX_ENTRIES} entries")
    if max_bytes is not None and need > max_bytes:
        raise _refuse(path, f"the matrix of shape {shape} needs {need} bytes, more than max_bytes = {max_bytes}",
                      "a smaller matrix (or pass a larger max_bytes, or None for no limit)")
    if need > size - offset:
        raise _refuse(path, f"the header declares shape {shape} ({need} bytes of data) but the file holds "
                            f"{size - offset} bytes after it", "a complete .npy file")
    try:
        return np.load(path, allow_pickle=False)
    except (ValueError, OSError, EOFError, TypeError) as exc:
        raise _refuse(path, f"cannot read the matrix ({exc})", "a .npy file written by numpy.save") from None


def read_npy_matrix(path: str | os.PathLike, max_bytes: int | None = DEFAULT_MAX_BYTES) -> np.ndarray:
    """The 2-D numeric array in a ``.npy`` file, checked from its header before it is loaded.

    Pickled object arrays are refused unread (nothing in a data file runs code), and so is
    a matrix that would need more than ``max_bytes`` of memory, hold more than
    :data:`~mistakebound.game.classes.MAX_ENTRIES` entries, or more data than the file
    has, before anything is allocated.  The entries are not checked to be 0/1 (that is
    :func:`load_class`'s job).

    Raises
    ------
    InvalidArgumentError
        For a missing, empty, too large, truncated or malformed file, or a pickle;
        :class:`~mistakebound.foundations.errors.InvalidClassError` for an array that is
        not 2-D.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "m.npy"
    >>> np.save(p, np.eye(2))
    >>> read_npy_matrix(p).tolist()
    [[1.0, 0.0], [0.0, 1.0]]
    """
    path = _as_path(path)
    max_bytes = check_int("max_bytes", max_bytes, minimum=1, optional=True)
    return _read_npy(path, max_bytes, _check_file(path, max_bytes))


def _first_bad_entry(arr: np.ndarray) -> tuple[int, int] | None:
    """The (row, column) of the first entry of ``arr`` that is not 0 or 1, or None."""
    if arr.size == 0 or arr.dtype.kind == "b":
        return None
    if arr.dtype.kind in "iu" and arr.min() >= 0 and arr.max() <= 1:
        return None
    bad = ~((arr == 0) | (arr == 1))
    if not bad.any():
        return None
    i, j = np.argwhere(bad)[0]
    return int(i), int(j)


def _npy_class(path: Path, max_bytes: int | None, size: int) -> HypothesisClass:
    arr = _read_npy(path, max_bytes, size)
    if arr.shape[0] == 0:
        raise _refuse(path, f"holds a matrix of shape {arr.shape}", "at least one hypothesis (row)", InvalidClassError)
    bad = _first_bad_entry(arr)
    if bad is not None:
        i, j = bad
        raise _refuse(path, f"row {i + 1}, column {j + 1}: {arr[i, j].item()!r} is not 0 or 1",
                      "every entry to be 0 or 1", InvalidClassError)
    return HypothesisClass.from_matrix(arr, name=path.name)


# ----------------------------------------------------------------------------- csv
_ENTRY_CELLS = frozenset({"0", "1"})
_TO_BITS = bytes.maketrans(b"01", b"\x00\x01")
_INTEGER = re.compile(r"-?(?:0|[1-9][0-9]*)")
_ENTRY, _NUMBER, _TEXT, _EMPTY = "entry", "number", "text", "empty"


def _kind(cell: str) -> str:
    """Whether a cell is an entry (0 or 1), another number, text, or empty."""
    s = cell.strip()
    if s in _ENTRY_CELLS:
        return _ENTRY
    if not s:
        return _EMPTY
    try:
        value = float(s)
    except ValueError:
        return _TEXT
    return _ENTRY if value == 0 or value == 1 else _NUMBER


def _entry(path: Path, cell: str, row: int, column: int) -> str:
    """``"0"`` or ``"1"`` for an entry cell, else refused naming its row and column."""
    s = cell.strip()
    if s in _ENTRY_CELLS:
        return s
    if _kind(s) == _ENTRY:
        return "0" if float(s) == 0 else "1"
    shown = "an empty cell" if not s else repr(s)
    raise _refuse(path, f"row {row}, column {column}: {shown} is not 0 or 1", "every entry to be 0 or 1",
                  InvalidClassError)


def _instance(cell: str) -> int | str:
    """An instance name of a header: an integer written as one is an int, anything else a str."""
    s = cell.strip()
    if _INTEGER.fullmatch(s):
        try:
            return int(s)
        except ValueError:  # more digits than int() converts
            return s
    return s


def _detect(path: Path, first_row: list[str], first_column: list[str], first_line: int) -> tuple[bool, bool]:
    """``(header, names)``: whether row 1 is a header and column 1 holds names (the module's rules).

    ``first_row`` is the first row's cells; ``first_column`` the first cells of the rows below it.
    """
    corner = first_row[0].strip()
    if corner == "":
        return True, True
    header = any(_kind(c) in (_NUMBER, _TEXT) for c in first_row[1:])
    names = any(_kind(c) == _TEXT for c in first_column)
    if header or names or _kind(corner) == _ENTRY:
        return header, names
    if len(first_row) == 1:
        return True, False  # one column: it cannot be names alone, so row 1 is its header
    if not first_column and _kind(corner) == _TEXT:
        return False, True  # one row: it cannot be a header alone, so its first cell is a name
    if _kind(corner) == _NUMBER:
        raise _refuse(path, f"row {first_line}, column 1: {corner!r} is not 0 or 1", "every entry to be 0 or 1",
                      InvalidClassError)
    raise _refuse(
        path,
        f"row {first_line}, column 1 holds the text {corner!r}, but no other cell of its row or column says "
        "whether it starts a header row or a name column",
        "an entry there, or an empty first cell over a header row and a name column",
        InvalidClassError,
    )


def _not_utf8(path: Path) -> str:
    """Where the first byte that is not UTF-8 sits in the file: its row (line) and offset."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    data_offset, lines_before = 0, 0  # of the bytes the decoder is given next (pending ones included)
    with open(path, "rb") as fh:
        while chunk := fh.read(2**20):
            pending = decoder.getstate()[0]
            try:
                decoder.decode(chunk)
            except UnicodeDecodeError as exc:
                data = pending + chunk
                at = data_offset - len(pending) + exc.start
                line = lines_before + 1 + data[:exc.start].count(b"\n") - pending.count(b"\n")
                return f"row {line}: the byte 0x{data[exc.start]:02x} at offset {at} is not UTF-8 text"
            data_offset += len(chunk)
            lines_before += chunk.count(b"\n")
    return "the file ends inside a UTF-8 character"


def _scan_csv(path: Path) -> tuple[list[str], int, list[str], list[int], bytearray]:
    """Read a CSV file row by row.

    Returns the first row's cells and line, the first cell of every later row, the line
    of every later row, and the entries of the later rows without their first cell (as
    bytes 0/1, row after row): those are entries whatever the layout, so they are checked
    here, while the first row and column wait for :func:`_detect`.
    """
    first_row: list[str] | None = None
    first_line = 0
    first_column: list[str] = []
    lines: list[int] = []
    body = bytearray()
    previous_end = 0
    try:
        with open(path, encoding="utf-8-sig", newline="") as fh:
            reader = csv.reader(fh, skipinitialspace=True)
            for cells in reader:
                line, previous_end = previous_end + 1, reader.line_num
                if len(cells) <= 1 and (not cells or not cells[0].strip()):
                    continue  # a blank line
                if first_row is None:
                    first_row, first_line = cells, line
                    continue
                if len(cells) != len(first_row):
                    hint = (" (a header row over a name column starts with an empty cell)"
                            if len(cells) == len(first_row) + 1 and len(lines) == 0 else "")
                    raise _refuse(path, f"row {line} has {len(cells)} cells but row {first_line} has "
                                        f"{len(first_row)}{hint}",
                                  f"the same number of cells in every row ({len(first_row)})", InvalidClassError)
                first_column.append(cells[0])
                lines.append(line)
                rest = cells[1:]
                if not _ENTRY_CELLS.issuperset(rest):
                    rest = [_entry(path, c, line, k + 2) for k, c in enumerate(rest)]
                body += "".join(rest).encode("ascii").translate(_TO_BITS)
    except UnicodeDecodeError:
        raise _refuse(path, _not_utf8(path), "a UTF-8 (or ASCII) CSV file") from None
    except csv.Error as exc:
        raise _refuse(path, f"row {previous_end + 1}: {exc}", "a comma-separated file") from None
    except OSError as exc:
        raise _refuse(path, f"cannot read the file ({exc.strerror or exc})", "a readable file") from None
    if first_row is None:
        raise _refuse(path, "holds no entries (only blank lines)", "rows of 0/1 entries, one per hypothesis")
    return first_row, first_line, first_column, lines, body


def _csv_class(path: Path, size: int) -> HypothesisClass:
    if (size + 1) // 2 > MAX_ENTRIES:  # an entry takes a character and a separator
        raise _refuse(path, f"the file has {size} bytes, room for up to {(size + 1) // 2} entries, more than "
                            f"the limit of {MAX_ENTRIES}", "a smaller matrix (save large classes as .npy)")
    first_row, first_line, first_column, lines, body = _scan_csv(path)
    header, names = _detect(path, first_row, first_column, first_line)
    width = len(first_row)
    n_rows = len(first_column) + (0 if header else 1)
    n_cols = width - (1 if names else 0)
    if n_rows == 0:
        raise _refuse(path, f"row {first_line} is a header row (instance names) and no row of entries follows",
                      "at least one row of 0/1 entries, one per hypothesis", InvalidClassError)
    if n_cols == 0:
        raise _refuse(path, "column 1 holds hypothesis names and no column of entries follows",
                      "at least one column of 0/1 entries, one per instance", InvalidClassError)
    skip = 1 if names else 0
    matrix = np.frombuffer(body, dtype=np.uint8).reshape(len(first_column), width - 1)
    if not names:
        column = [_entry(path, c, line, 1) for c, line in zip(first_column, lines)]
        column = np.frombuffer("".join(column).encode("ascii").translate(_TO_BITS), dtype=np.uint8)
        matrix = np.hstack([column.reshape(-1, 1), matrix])
    if not header:
        top = [_entry(path, c, first_line, k + 1 + skip) for k, c in enumerate(first_row[skip:])]
        top = np.frombuffer("".join(top).encode("ascii").translate(_TO_BITS), dtype=np.uint8)
        matrix = np.vstack([top.reshape(1, -1), matrix])
    domain = None
    if header:
        domain, seen = [], {}
        for k, cell in enumerate(first_row[skip:]):
            x, column_number = _instance(cell), k + 1 + skip
            if x in seen:
                why = ("" if any(_kind(c) == _TEXT for c in first_row[skip:]) else
                       f"; row {first_line} was read as a header because it holds numbers other than 0 and 1")
                raise _refuse(path, f"row {first_line}, columns {seen[x]} and {column_number}: instance {x!r} "
                                    f"appears twice{why}", "distinct instance names", InvalidClassError)
            seen[x] = column_number
            domain.append(x)
    hypothesis_names = None
    if names:
        hypothesis_names = ([] if header else [first_row[0].strip()]) + [c.strip() for c in first_column]
    try:
        return HypothesisClass.from_matrix(matrix, domain, hypothesis_names, name=path.name)
    except InvalidClassError as exc:  # pragma: no cover - everything from_matrix checks is checked above
        raise _refuse(path, str(exc), "a valid class", InvalidClassError) from None


# ------------------------------------------------------------------ writing csv
def _quote(cell: str) -> str:
    """A CSV cell as spreadsheets quote it: between double quotes if it holds , " or a line break."""
    if any(c in cell for c in ',"\r\n'):
        return '"' + cell.replace('"', '""') + '"'
    return cell


def _csv_lines(H: HypothesisClass, path: Path, matrix_only: bool) -> tuple[list[str] | None, list[str] | None]:
    """The header cells and the name cells to write (each None when not written), or refused.

    Checks that the file reads back as ``H``: the cells survive quoting and the reader's
    trimming, instances keep their types, and :func:`_detect` sees the intended layout.
    """
    if H.n_instances == 0:
        raise _refuse(path, f"{H!r} has no instances, and a .csv row needs at least one entry",
                      "a class with instances (save it to .json or .npy)")
    default_domain = H.domain == tuple(range(H.n_instances)) and all(type(x) is int for x in H.domain)
    if matrix_only or (H.names is None and default_domain):
        return None, None
    lossy = "a .json file (which keeps everything), or matrix_only=True to write the matrix alone"
    instances = []
    for j, x in enumerate(H.domain):
        if type(x) is int:
            try:
                instances.append(str(x))
            except ValueError:  # more digits than str() converts
                raise _refuse(path, f"instance {j + 1} is an integer of {x.bit_length()} bits, too long for a "
                                    ".csv header", lossy) from None
        elif type(x) is str:
            instances.append(x)
        else:
            raise _refuse(path, f"instance {j + 1} of {H!r} is {brief(x)} of type {jf.type_name(x)}, and a .csv "
                                "header keeps only str and int instances", lossy)
        if _instance(instances[-1]) != x or type(_instance(instances[-1])) is not type(x):
            why = ("has surrounding spaces, which a .csv file does not keep" if x != x.strip() else
                   "would read back as the integer " + x) if type(x) is str else "would not read back"
            raise _refuse(path, f"instance {j + 1} of {H!r}, {brief(x)}, {why}", lossy)
    names = None if H.names is None else list(H.names)
    for i, name in enumerate(names or ()):
        if name != name.strip():
            raise _refuse(path, f"hypothesis name {i + 1} of {H!r}, {brief(name)}, has surrounding spaces, which a "
                                ".csv file does not keep", lossy)
    header = ([""] if names is not None else []) + instances
    # What the reader will see: the cells after quoting, and the layout they make.
    text = ",".join(map(_quote, header)) + "\n" + "".join(_quote(n) + ",0\n" for n in names or ())
    cells = [row for row in csv.reader(io.StringIO(text, newline=""), skipinitialspace=True)]
    seen = [c.strip() for c in cells[0]] + [row[0].strip() if row else "" for row in cells[1:]]
    if len(cells[0]) != len(header) or len(cells) != 1 + len(names or ()) or seen != header + (names or []):
        raise _refuse(path, f"a hypothesis or instance name of {H!r} does not survive CSV quoting", lossy)
    if names is None:  # the header must be recognised without a name column
        first_column = [str(v) for v in H.matrix[:, 0]]
        try:
            layout = _detect(path, header, first_column, 1)
        except InvalidArgumentError:
            layout = None
        if layout != (True, False):
            raise _refuse(path, f"the instances of {H!r} would not be read back as a header row (a header needs "
                                "a cell other than the first that is not 0 or 1, and a first cell that is not empty)",
                          lossy)
    return header, names


def _write_csv(H: HypothesisClass, path: Path, matrix_only: bool) -> Path:
    header, names = _csv_lines(H, path, matrix_only)
    n, m = H.matrix.shape
    chunk = max(1, 2**22 // (2 * m))  # rows per block of about 4 MiB of text

    def write(tmp: str) -> None:
        with open(tmp, "wb") as fh:
            if header is not None:
                fh.write((",".join(map(_quote, header)) + "\n").encode("utf-8"))
            for start in range(0, n, chunk):
                block = H.matrix[start:start + chunk]
                text = np.full((block.shape[0], 2 * m), ord(","), dtype=np.uint8)
                text[:, 0::2] = block + ord("0")
                text[:, -1] = ord("\n")
                if names is None:
                    fh.write(text.tobytes())
                else:
                    fh.write(b"".join((_quote(names[start + i]) + ",").encode("utf-8") + row.tobytes()
                                      for i, row in enumerate(text)))
            fh.flush()
            os.fsync(fh.fileno())

    return write_atomically(path, write)


# --------------------------------------------------------------------------- files
def save_class(H: HypothesisClass, path: str | os.PathLike, *, matrix_only: bool = False) -> Path:
    """Write class ``H`` to ``path`` (``.json``, ``.csv`` or ``.npy``, by the suffix), atomically.

    ``.json`` keeps everything.  ``.csv`` keeps the matrix, the hypothesis names and a
    domain of ``str`` and ``int`` instances; ``.npy`` the matrix alone (see the module
    docstring for the layouts).  A save that would lose part of the domain or the names
    is refused, and nothing is written, unless ``matrix_only=True``, which writes the
    matrix alone to ``.csv`` or ``.npy``.  The class's own ``name`` is kept by ``.json``
    only; a class read from ``.csv`` or ``.npy`` is named after its file.

    Parameters
    ----------
    H : HypothesisClass
    path : str or os.PathLike
        The file to write; its folder must exist.  A file already there is replaced in
        one step, so a reader never sees half of it.
    matrix_only : bool
        Write the matrix alone (``.csv`` and ``.npy``; ignored by ``.json``).

    Returns
    -------
    pathlib.Path
        ``path``.

    Raises
    ------
    InvalidArgumentError
        For another suffix, a missing folder, a ``path`` that is a folder, or a save that
        would lose something without ``matrix_only``; the message says what would be lost.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> H = HypothesisClass.from_matrix([[0, 1], [1, 1]], domain=["a", "b, c"], names=["h", "g"])
    >>> print(save_class(H, folder / "H.csv").read_text(), end="")
    ,a,"b, c"
    h,0,1
    g,1,1
    >>> load_class(folder / "H.csv") == H
    True
    >>> save_class(H, folder / "H.npy")
    Traceback (most recent call last):
    ...
    mistakebound.foundations.errors.InvalidArgumentError: path: '.../H.npy': a .npy file holds the matrix alone, and the domain and the names of HypothesisClass(2 hypotheses x 2 instances) would be lost; expected a .json file (which keeps everything), or matrix_only=True to write the matrix alone
    >>> load_class(save_class(H, folder / "H.npy", matrix_only=True)).domain
    (0, 1)
    """
    path = _as_path(path)
    suffix = _suffix(path)
    if not isinstance(H, HypothesisClass):
        raise InvalidArgumentError(f"H: expected a HypothesisClass, got {brief(H)} of type {jf.type_name(H)}")
    matrix_only = check_flag("matrix_only", matrix_only)
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise _refuse(path, f"the folder {str(folder)!r} does not exist", "a file in an existing folder")
    if path.is_dir():
        raise _refuse(path, "is a directory", "a file name")
    if suffix == ".json":
        return write_atomically(path, class_to_json(H))
    if suffix == ".csv":
        return _write_csv(H, path, matrix_only)
    default_domain = H.domain == tuple(range(H.n_instances)) and all(type(x) is int for x in H.domain)
    lost = [what for what, gone in (("domain", not default_domain), ("names", H.names is not None)) if gone]
    if lost and not matrix_only:
        raise _refuse(path, f"a .npy file holds the matrix alone, and the {' and the '.join(lost)} of {H!r} would "
                            "be lost", "a .json file (which keeps everything), or matrix_only=True to write the "
                                       "matrix alone")
    buffer = io.BytesIO()
    np.save(buffer, np.ascontiguousarray(H.matrix, dtype=np.uint8), allow_pickle=False)
    return write_atomically(path, buffer.getvalue())


def load_class(path: str | os.PathLike, *, max_bytes: int | None = DEFAULT_MAX_BYTES) -> HypothesisClass:
    """Read the class in a ``.npy``, ``.csv`` or ``.json`` file (by the suffix, in any case).

    ``.npy``: a 2-D array of 0/1 numbers, read with pickles refused; ``.csv``: 0/1 entries
    with an optional header row of instance names and an optional first column of
    hypothesis names, recognised as the module docstring says; ``.json``: a class written
    by :func:`save_class` or :func:`class_to_json`.  A class read from ``.csv`` or
    ``.npy`` is named after its file.

    Parameters
    ----------
    path : str or os.PathLike
    max_bytes : int or None
        Largest file read (and, for ``.npy``, largest matrix in memory); ``None`` lifts
        the limit.  Checked before the file is read.

    Returns
    -------
    HypothesisClass

    Raises
    ------
    InvalidArgumentError
        On one line naming the file, the problem and what was expected: another suffix; a
        missing, empty, unreadable or too large file; a pickled or malformed ``.npy``; a
        ragged or malformed CSV; malformed JSON.
        :class:`~mistakebound.foundations.errors.InvalidClassError` (a subclass) when the
        content is not a class: an entry that is not 0 or 1 (its row and column, from 1),
        an array that is not 2-D, no hypotheses or instances, an instance twice.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "H.csv"
    >>> _ = p.write_text("hypothesis,x1,x2\\nh1,0,1\\nh2,1,1\\n")
    >>> H = load_class(p)
    >>> H.domain, H.names, H.matrix.tolist()
    (('x1', 'x2'), ('h1', 'h2'), [[0, 1], [1, 1]])
    >>> load_class(p, max_bytes=10)
    Traceback (most recent call last):
    ...
    mistakebound.foundations.errors.InvalidArgumentError: path: '.../H.csv': the file has 31 bytes, more than max_bytes = 10; expected a smaller file (or pass a larger max_bytes, or None for no limit)
    """
    path = _as_path(path)
    suffix = _suffix(path)
    max_bytes = check_int("max_bytes", max_bytes, minimum=1, optional=True)
    size = _check_file(path, max_bytes)
    if suffix == ".npy":
        return _npy_class(path, max_bytes, size)
    if suffix == ".csv":
        return _csv_class(path, size)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise _refuse(path, f"cannot read the file ({exc.strerror or exc})", "a readable file") from None
    try:
        return class_from_json(raw)
    except InvalidArgumentError as exc:
        raise type(exc)(_one_line(f"path: {str(path)!r}: {exc}")) from None
