"""The CSV layout of a class file: how a class is read from one and written to one.

:func:`~mistakebound.game.class_files.load_class` and
:func:`~mistakebound.game.class_files.save_class` choose the format by the suffix; this
module holds the ``.csv`` reader (:func:`read_csv_class`) and writer (:func:`write_csv_class`),
with the refusals of :func:`~mistakebound.foundations.validation.refuse_file`.

The CSV layout
--------------
Comma-separated, quoted as spreadsheets do (a cell holding a comma, a quote or a line
break is written between double quotes, a quote inside doubled), UTF-8 (a byte-order mark,
as Excel's "CSV UTF-8" writes, is accepted and ignored), lines ending in ``\\n``,
``\\r\\n`` or ``\\r``, blank lines ignored, spaces around a cell ignored.  Every row has
the same number of cells.  A cell is an *entry* if its text is a decimal numeral whose
exact value is 0 or 1 (``0``, ``1``, ``1.0``, ``-0``, ``1e0``, numpy's
``1.000000000000000000e+00``): the text is compared, not the float it rounds to, so
``1.0000000000000001`` is not an entry.  Any other cell is a *number* if it reads as one
(``2``, ``0.5``, ``nan``), *empty*, or else *text*.  Rows are hypotheses, columns
instances, and:

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
"""

from __future__ import annotations

import codecs
import csv
import io
import os
import re
from pathlib import Path

import numpy as np

from mistakebound.foundations import json_format as jf
from mistakebound.foundations.errors import InvalidArgumentError, InvalidClassError
from mistakebound.foundations.files import write_atomically
from mistakebound.foundations.numerals import integral_value
from mistakebound.foundations.validation import brief, refuse_file
from mistakebound.game import csv_records
from mistakebound.game.hypothesis_class import COUNTED_FROM_1, MAX_ENTRIES, HypothesisClass, require_class_memory
from mistakebound.game.rules import label_words

__all__ = ["read_csv_class", "write_csv_class"]


_ENTRY_CELLS = frozenset({"0", "1"})
_INTEGER = re.compile(r"-?(?:0|[1-9][0-9]*)")
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_ENTRY, _NUMBER, _TEXT, _EMPTY = "entry", "number", "text", "empty"
_BOM = codecs.BOM_UTF8
_VALUES: dict[str, int | None] = {}  # cell text -> a label 0..255 or None (none), for the texts seen lately


def _entry_value(s: str, top: int = 1) -> int | None:
    """The label ``0..top`` (0 or 1 in a 0/1 class) when the stripped cell ``s`` is a decimal numeral whose exact
    value is that label, else None.

    The text is compared, not the nearest float: ``1.0``, ``1e0``, ``-0`` and numpy's
    ``1.000000000000000000e+00`` are entries; ``1.0000000000000001`` (a float would round it
    to 1), ``0x1``, ``nan`` and ``true`` are not.
    """
    if s == "0":
        return 0
    if s == "1":
        return 1
    value = _VALUES.get(s, -1)
    if value == -1:
        value = None
        if len(s) < 400:  # the exact value of the numeral, from its digits (0e-999999999999999999999 is 0)
            value = integral_value(s, 0, 255)
        if len(_VALUES) > 4096:
            _VALUES.clear()
        _VALUES[s] = value
    return value if value is not None and value <= top else None


def _kind(cell: str, top: int = 1) -> str:
    """Whether a cell is an entry (exactly a label ``0..top``), another number, text, or empty."""
    s = cell.strip()
    if s in _ENTRY_CELLS:
        return _ENTRY
    if not s:
        return _EMPTY
    if _entry_value(s, top) is not None:
        return _ENTRY
    try:
        float(s)
    except ValueError:
        return _TEXT
    return _NUMBER


def _not_entry(path: Path, cell: str, row: int, column: int, top: int = 1) -> InvalidClassError:
    """The refusal of a cell that is not a label ``0..top``, at its row and column (from 1)."""
    s = cell.strip()
    shown = "an empty cell" if not s else repr(s)
    words = label_words(tuple(range(top + 1)))
    why = (f" (its exact value is not {words}; entries are compared as written, not rounded)"
           if s and _kind(s, top) == _NUMBER and _DECIMAL.fullmatch(s) and 0 <= float(s) <= top
           and float(s) == round(float(s)) else "")
    return refuse_file(path, f"row {row}, column {column}: {shown} is not {words}{why}",
                   f"every entry to be {words} ({COUNTED_FROM_1})", InvalidClassError)


def _instance(cell: str) -> int | str:
    """An instance name of a header: an integer written as one is an int, anything else a str."""
    s = cell.strip()
    if _INTEGER.fullmatch(s):
        try:
            return int(s)
        except ValueError:  # more digits than int() converts
            return s
    return s


def _detect(path: Path, first_row: list[str], names_seen: bool, has_body: bool,
            first_line: int, top: int = 1) -> tuple[bool, bool]:
    """``(header, names)``: whether row 1 is a header and column 1 holds names (the module's rules).

    ``first_row`` is the first row's cells; ``names_seen`` whether a later row's first cell
    is text; ``has_body`` whether there are later rows.
    """
    corner = first_row[0].strip()
    if corner == "":
        return True, True
    header = any(_kind(c, top) in (_NUMBER, _TEXT) for c in first_row[1:])
    if header or names_seen or _kind(corner, top) == _ENTRY:
        return header, names_seen
    if len(first_row) == 1:
        return True, False  # one column: it cannot be names alone, so row 1 is its header
    if not has_body and _kind(corner, top) == _TEXT:
        return False, True  # one row: it cannot be a header alone, so its first cell is a name
    if _kind(corner, top) == _NUMBER:
        raise _not_entry(path, corner, first_line, 1, top)
    raise refuse_file(
        path,
        f"row {first_line}, column 1 holds the text {corner!r}, but no other cell of its row or column says "
        "whether it starts a header row or a name column",
        "an entry there, or an empty first cell over a header row and a name column",
        InvalidClassError,
    )


class _Restart(Exception):
    """Column 1 holds a text after all: read the file again with a name column."""


class _CsvReader:
    """Reads the rows of a CSV file into a matrix: numpy on whole blocks, Python only where needed.

    Rows and columns are numbered from 1 in every message: the row by the line of the
    file it starts on, the column by the cell's place in its row (the name column counts).
    """

    def __init__(self, path: Path, size: int, max_rows: int, names: bool | None, labels: int = 2):
        self.path, self.size, self.max_rows = path, size, max_rows
        self.top = labels - 1  # the largest label
        # the entries written as one character: a label below 10, its digit
        self.digits = "".join(str(y) for y in range(min(labels, 10)))
        self.cells = frozenset(self.digits)
        self.force_names = names
        self.first_row: list[str] | None = None
        self.first_line = 0
        self.names: bool | None = None
        self.header = False
        self.width = 0  # cells per row
        self.matrix: np.ndarray | None = None
        self.rows = 0  # rows of entries read (the first row not included)
        self.hypothesis_names: list[str] = []
        self.names_seen = False  # a first cell of a later row is text
        self.second_line = 0  # the line of the first row below row 1
        self.column_1_bad: tuple[int, str] | None = None  # (row, cell): column 1 not 0/1, if it holds entries

    # ------------------------------------------------------------ the layout
    def _start(self, first_cell: str) -> None:
        """The first row below row 1 begins with ``first_cell``: guess the layout, allocate the matrix."""
        corner = self.first_row[0].strip()
        top = self.top
        header = any(_kind(c, top) in (_NUMBER, _TEXT) for c in self.first_row[1:])
        if self.force_names is not None:
            names = self.force_names
        else:
            names = (corner == "" or _kind(first_cell, top) == _TEXT
                     or (not header and _kind(corner, top) == _TEXT and self.width > 1))
        if corner == "":
            header = True
        elif not header and not names and _kind(corner, top) != _ENTRY and self.width == 1:
            header = True
        self.names, self.header = names, header
        m = self.width - (1 if names else 0)
        if m == 0:
            raise refuse_file(self.path, "column 1 holds hypothesis names and no column of entries follows",
                          "at least one column of 0/1 entries, one per instance", InvalidClassError)
        # at most a row per line, and a row has m entries, w - 1 commas and a line end; row 1 too unless a header
        rows = min(self.max_rows - (1 if header else 0), (self.size + 1) // (self.width + m))
        self._require_memory(rows, m)
        self.matrix = np.empty((rows, m), dtype=np.uint8)
        if not header:  # row 1 is a row of entries (a name first, with a name column)
            self._row(self.first_row, self.first_line, first=True)

    def _require_memory(self, rows: int, m: int) -> None:
        """Refuse, before allocating, a matrix that would not fit (the rows read, and the class made of them)."""
        require_class_memory(rows, m, parameter="path", extra=rows * m, advice="expected a smaller file (or more memory)",
                             what=f"{str(self.path)!r}: a matrix of up to {rows:,} rows x {m:,} columns and the "
                                  "class made of it")

    # ---------------------------------------------------------------- rows
    def _first(self, cells: list[str], row: int) -> None:
        self.first_row, self.first_line, self.width = cells, row, len(cells)

    def _ragged(self, cells: list[str], row: int) -> InvalidClassError:
        hint = (" (a header row over a name column starts with an empty cell)"
                if len(cells) == self.width + 1 and row == self.second_line else "")
        return refuse_file(self.path, f"row {row} has {len(cells)} cells but row {self.first_line} has {self.width}{hint}",
                       f"the same number of cells in every row ({self.width})", InvalidClassError)

    def _row(self, cells: list[str], row: int, first: bool = False) -> None:
        """One row of the body (or row 1 when it is not a header, ``first``), cell by cell."""
        if len(cells) != self.width:
            raise self._ragged(cells, row)
        if self.rows >= self.matrix.shape[0]:  # pragma: no cover - the line count bounds the rows
            raise refuse_file(self.path, "holds more rows than lines", "a CSV file that does not change while read")
        out = self.matrix[self.rows]
        is_first, first = first, cells[0]
        top, plain = self.top, self.cells
        if self.names:
            self.hypothesis_names.append(first.strip())
            if not self.names_seen and not is_first and _kind(first, top) == _TEXT:
                self.names_seen = True
            entries = cells[1:]
        else:
            entries = cells
            value = _entry_value(first.strip(), top)
            if value is None:
                if not is_first and self.force_names is None and _kind(first, top) == _TEXT:
                    raise _Restart
                if self.column_1_bad is None:
                    self.column_1_bad = (row, first)
                entries = ["0", *cells[1:]]
        stripped = ",".join(entries).replace(" ", "").replace("\t", "").split(",")  # C speed, for " 0, 1"
        if len(stripped) != len(entries) or not plain.issuperset(stripped):
            stripped = [cell.strip() for cell in entries]
        if not plain.issuperset(stripped):  # other spellings ("1.0"), labels past 9, or a bad cell to report
            skip = 1 if self.names else 0
            values = []
            for j, s in enumerate(stripped):
                value = _entry_value(s, top)
                if value is None:
                    raise _not_entry(self.path, entries[j], row, j + 1 + skip, top)
                values.append(value)
            out[:] = values
        else:
            out[:] = np.frombuffer("".join(stripped).encode("ascii"), dtype=np.uint8) - 48
        self.rows += 1

    def _body(self, cells: list[str], row: int) -> None:
        if self.first_row is None:
            self._first(cells, row)
        else:
            if self.names is None:
                self.second_line = row
                self._start(cells[0])
            self._row(cells, row)

    # -------------------------------------------------------------- blocks
    def feed(self, data: bytes, offset: int, line: int, plain: bool) -> None:
        if not plain:
            self._slow_records(data, offset, line)
            return
        arr = np.frombuffer(data, dtype=np.uint8)
        if self.names is False and self._grid(arr):
            return
        ends = np.flatnonzero(arr == 10)
        if not len(ends):  # pragma: no cover - a plain block ends with a line end
            return
        starts = np.empty_like(ends)
        starts[0] = 0
        starts[1:] = ends[:-1] + 1
        i = 0
        while (self.names is None) and i < len(ends):  # row 1 and the row below it, in Python
            s, e = int(starts[i]), int(ends[i]) + 1
            cells = csv_records.split_record(self.path, data[s:e], line + i, offset + s)
            if not csv_records.is_blank(cells):
                self._body(cells, line + i)
            i += 1
        if i == len(ends):
            return
        starts, ends, line = starts[i:], ends[i:], line + i
        block = self._fast(arr, data, starts, ends)
        if block is None:
            self._slow_lines(data, offset, line, starts, ends)
            return
        k = block.shape[0]
        if self.rows + k > self.matrix.shape[0]:  # pragma: no cover - the line count bounds the rows
            raise refuse_file(self.path, "holds more rows than lines", "a CSV file that does not change while read")
        self.matrix[self.rows:self.rows + k] = block
        self.rows += k

    def _grid(self, arr: np.ndarray) -> bool:
        """Read a block of rows ``d,d,...,d\\n`` (one-character entries, no names, no blank lines) as one
        reshape, without looking for the line ends; False (nothing read) for any other block."""
        m = self.matrix.shape[1]
        stride = 2 * m  # m digits, m - 1 commas, the line end
        k = len(arr) // stride
        if not k or len(arr) != k * stride:
            return False
        rows = arr.reshape(k, stride)
        if not ((rows[:, -1] == 10).all() and (rows[:, 1:-1:2] == 44).all()):
            return False
        digits = rows[:, 0::2] - 48  # wraps below "0": anything but a label's digit is past the largest label
        if not (digits <= min(self.top, 9)).all():
            return False
        if self.rows + k > self.matrix.shape[0]:  # pragma: no cover - the line count bounds the rows
            raise refuse_file(self.path, "holds more rows than lines", "a CSV file that does not change while read")
        self.matrix[self.rows:self.rows + k] = digits
        self.rows += k
        return True

    def _slow_lines(self, data: bytes, offset: int, line: int, starts: np.ndarray, ends: np.ndarray) -> None:
        for i, (s, e) in enumerate(zip(starts.tolist(), ends.tolist())):
            raw = data[s:e + 1]
            if self.names is not None and self._quick_line(raw):
                continue
            cells = csv_records.split_record(self.path, raw, line + i, offset + s)
            if not csv_records.is_blank(cells):
                self._body(cells, line + i)

    def _quick_line(self, raw: bytes) -> bool:
        """Read a row of plain ``0``/``1`` cells (spaces around them allowed) with byte operations; False
        (nothing read) when it is anything else, which the cell-by-cell reader then reads or reports."""
        if b'"' in raw:
            return False
        body = raw.rstrip(b"\r\n")
        name = b""
        if self.names:
            name, comma, body = body.partition(b",")
            if not comma:
                return False
        packed = body.replace(b" ", b"").replace(b"\t", b"")
        m = self.matrix.shape[1]
        if (len(packed) != 2 * m - 1 or packed[1::2].count(b",") != m - 1
                or packed[0::2].translate(None, self.digits.encode("ascii"))):
            return False
        if self.names:
            try:
                text = name.decode("utf-8").strip()
            except UnicodeDecodeError:
                return False
            self.hypothesis_names.append(text)
            if not self.names_seen and _kind(text, self.top) == _TEXT:
                self.names_seen = True
        self.matrix[self.rows] = np.frombuffer(packed[0::2], dtype=np.uint8) - 48
        self.rows += 1
        return True

    def _slow_records(self, data: bytes, offset: int, line: int) -> None:
        records, _, _ = csv_records.records(data)
        for s, e in records:
            raw = data[s:e]
            cells = csv_records.split_record(self.path, raw, line, offset + s)
            if not csv_records.is_blank(cells):
                self._body(cells, line)
            line += csv_records.lines_in(raw)

    def _fast(self, arr: np.ndarray, data: bytes, starts: np.ndarray, ends: np.ndarray) -> np.ndarray | None:
        """The entries of the lines ``starts..ends`` of a plain block, or None to read them cell by cell.

        Every line must be blank or hold ``m`` entries of one width ``L`` (``0``, or ``1.0``,
        or numpy's ``1.000000000000000000e+00``) after the name, with the same line end.
        """
        lengths = ends - starts  # without the \n
        cr = arr[np.maximum(ends - 1, 0)] == 13
        blank = (lengths == 0) | ((lengths == 1) & cr)
        if blank.any():
            keep = ~blank
            if not keep.any():
                return np.empty((0, self.matrix.shape[1]), dtype=np.uint8)
            starts, ends, lengths, cr = starts[keep], ends[keep], lengths[keep], cr[keep]
        if not (cr.all() or not cr.any()):
            return None
        crlf = bool(cr[0])
        m = self.matrix.shape[1]
        s0, e0 = int(starts[0]), int(ends[0]) - crlf
        last = data.rfind(b",", s0, e0)
        width = e0 - last - 1 if self.names or m > 1 else e0 - s0  # the characters of the last cell
        if width < 1 or (last < 0 and (self.names or m > 1)):
            return None
        span = m * (width + 1)  # the entries and their commas (one before each, with names; after, without)
        k = len(starts)
        if self.names:
            first = ends - crlf - span  # where each row's ",c,c,...,c" starts
            if (first < starts).any():
                return None
            if span >= 256:  # long rows, few of them: copy each (a gather of k x span indices costs 10x more)
                gathered = np.empty((k, span), dtype=np.uint8)
                for r, f in enumerate(first.tolist()):
                    gathered[r] = arr[f:f + span]
            else:
                gathered = arr[first[:, None] + np.arange(span)]  # (k, span): ",c,c,...,c" of each row
            if not (gathered[:, 0::width + 1] == 44).all():
                return None
            buffer, offset, stride = gathered, 1, span
        else:
            if not (lengths == span - 1 + crlf).all():
                return None
            first = int(starts[0])
            if not (np.diff(starts) == span + crlf).all():
                return None  # lines of the right length, but not back to back (blank lines between)
            rows = arr[first:first + k * (span + crlf)].reshape(k, span + crlf)
            seps = rows[:, width:span:width + 1]
            if not ((seps[:, :-1] == 44).all() and (seps[:, -1] == (13 if crlf else 10)).all()):
                return None
            buffer, offset, stride = arr, first, span + crlf
        values = self._values(buffer, offset, stride, k, m, width, self.top)
        if values is None:
            return None
        if self.names:
            names = []
            for s, t in zip(starts.tolist(), (ends - crlf - span).tolist()):
                try:
                    text = data[s:t].decode("utf-8")
                except UnicodeDecodeError:
                    return None
                if '"' in text:  # a quoted name ("h, 1", as R writes every name)
                    try:
                        cells = next(csv.reader([text], skipinitialspace=True))
                    except (csv.Error, StopIteration):
                        return None
                    if len(cells) != 1:
                        return None
                    text = cells[0]
                elif "," in text:
                    return None
                names.append(text.strip())
            if not self.names_seen:
                self.names_seen = any(_kind(n, self.top) == _TEXT for n in names)
            self.hypothesis_names.extend(names)
        return values

    @staticmethod
    def _values(buffer: np.ndarray, offset: int, stride: int, k: int, m: int, width: int,
                top: int = 1) -> np.ndarray | None:
        """The labels ``0..top`` of ``k`` rows of ``m`` cells of ``width`` characters in ``buffer`` (rows ``stride``
        bytes apart from ``offset``, cells ``width + 1``), or None if a cell is not an entry."""
        if width == 1:
            digits = np.ndarray((k, m), dtype=np.uint8, buffer=buffer, offset=offset, strides=(stride, 2))
            values = digits - 48
            return values if (values <= min(top, 9)).all() else None
        # "0.0" and "1.0" (numpy's "0.000...e+00" and "1.000...e+00"): one tail after the first digit, which
        # is then the value; compared byte by byte, as the digits are
        cells = np.ndarray((k, m, width), dtype=np.uint8, buffer=buffer, offset=offset,
                           strides=(stride, width + 1, 1))
        tail = bytes(cells[0, 0, 1:])
        try:
            shared = (top == 1 and _entry_value("0" + tail.decode("ascii").strip()) == 0
                      and _entry_value("1" + tail.decode("ascii").strip()) == 1 and tail == tail.strip())
        except UnicodeDecodeError:
            shared = False
        if shared:
            lead = cells[:, :, 0] - 48
            if (lead <= 1).all() and (cells[:, :, 1:] == np.frombuffer(tail, dtype=np.uint8)).all():
                return lead
        text = np.ndarray((k, m), dtype=f"S{width}", buffer=buffer, offset=offset, strides=(stride, width + 1))
        values = np.empty((k, m), dtype=np.uint8)
        done = np.zeros((k, m), dtype=bool)
        for _ in range(8):  # the distinct texts are few ("1.0" and "0.0")
            left = np.flatnonzero(~done)
            if not len(left):
                return values
            word = text.flat[int(left[0])]
            if len(word) != width:  # NUL bytes, which numpy drops at the end
                return None
            try:
                value = _entry_value(word.decode("ascii").strip(), top)
            except UnicodeDecodeError:
                return None
            if value is None:
                return None
            same = text == word
            values[same] = value
            done |= same
        return None

    # -------------------------------------------------------------- result
    def result(self) -> HypothesisClass:
        path = self.path
        if self.first_row is None:
            raise refuse_file(path, "holds no entries (only blank lines)", "rows of 0/1 entries, one per hypothesis")
        if self.names is None:  # one row only
            header, names = _detect(path, self.first_row, False, False, self.first_line, self.top)
            if header:
                raise refuse_file(path, f"row {self.first_line} is a header row (instance names) and no row of entries "
                                    "follows", "at least one row of 0/1 entries, one per hypothesis", InvalidClassError)
            self.names, self.header = names, False
            if self.width - names == 0:
                raise refuse_file(path, "column 1 holds hypothesis names and no column of entries follows",
                              "at least one column of 0/1 entries, one per instance", InvalidClassError)
            self.matrix = np.empty((1, self.width - names), dtype=np.uint8)
            self._row(self.first_row, self.first_line, first=True)
        else:
            header, names = _detect(path, self.first_row, self.names_seen, True, self.first_line, self.top)
            if (header, names) != (self.header, self.names):  # the guess was wrong: only a refusal is left
                raise refuse_file(path, f"row {self.first_line}, column 1 holds the text {self.first_row[0].strip()!r}, "
                                    "but no other cell of its row or column says whether it starts a header row or "
                                    "a name column", "an entry there, or an empty first cell over a header row and a "
                                                     "name column", InvalidClassError)
        if not self.names and self.column_1_bad is not None:
            row, cell = self.column_1_bad
            raise _not_entry(path, cell, row, 1, self.top)
        if self.rows == 0:
            raise refuse_file(path, f"row {self.first_line} is a header row (instance names) and no row of entries follows",
                          "at least one row of 0/1 entries, one per hypothesis", InvalidClassError)
        skip = 1 if self.names else 0
        domain = None
        if self.header:
            domain, seen = [], {}
            cells = self.first_row[skip:]
            for k, cell in enumerate(cells):
                x, column = _instance(cell), k + 1 + skip
                if x in seen:
                    why = ("" if any(_kind(c, self.top) == _TEXT for c in cells) else
                           f"; row {self.first_line} was read as a header because it holds numbers other than 0 and 1")
                    raise refuse_file(path, f"row {self.first_line}, columns {seen[x]} and {column}: instance {x!r} "
                                        f"appears twice{why}", "distinct instance names", InvalidClassError)
                seen[x] = column
                domain.append(x)
        matrix = self.matrix[:self.rows]
        self.matrix = None
        try:
            return HypothesisClass.from_matrix(matrix, domain, self.hypothesis_names if self.names else None,
                                               name=path.name, labels=self.top + 1)
        except InvalidClassError as exc:  # pragma: no cover - everything from_matrix checks is checked above
            raise refuse_file(path, str(exc), "a valid class", InvalidClassError) from None


def read_csv_class(path: Path, size: int, labels: int = 2) -> HypothesisClass:
    if (size + 1) // 2 > MAX_ENTRIES:  # an entry takes a character and a separator
        raise refuse_file(path, f"the file has {size} bytes, room for up to {(size + 1) // 2} entries, more than "
                            f"the limit of {MAX_ENTRIES} (what an array can hold on this machine)",
                      "a smaller matrix (save large classes as .npy)")
    names = None
    try:
        with open(path, "rb") as fh:
            start = len(_BOM) if fh.read(len(_BOM)) == _BOM else 0  # a byte-order mark is not a cell
            fh.seek(start)
            lines = csv_records.count_lines(fh) + 1
            for _ in range(2):
                fh.seek(start)
                reader = _CsvReader(path, size, lines, names, labels)
                try:
                    for block in csv_records.blocks(path, fh, start):
                        reader.feed(*block)
                except _Restart:  # column 1 holds a text after rows that looked like entries: names
                    names = True
                    continue
                return reader.result()
    except OSError as exc:
        raise refuse_file(path, f"cannot read the file ({exc.strerror or exc})", "a readable file") from None
    raise AssertionError("unreachable")  # pragma: no cover


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
        raise refuse_file(path, f"{H!r} has no instances, and a .csv row needs at least one entry",
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
                raise refuse_file(path, f"instance {j + 1} is an integer of {x.bit_length()} bits, too long for a "
                                    ".csv header", lossy) from None
        elif type(x) is str:
            instances.append(x)
        else:
            raise refuse_file(path, f"instance {j + 1} of {H!r} is {brief(x)} of type {jf.type_name(x)}, and a .csv "
                                "header keeps only str and int instances", lossy)
        if _instance(instances[-1]) != x or type(_instance(instances[-1])) is not type(x):
            why = ("has surrounding spaces, which a .csv file does not keep" if x != x.strip() else
                   "would read back as the integer " + x) if type(x) is str else "would not read back"
            raise refuse_file(path, f"instance {j + 1} of {H!r}, {brief(x)}, {why}", lossy)
    names = None if H.names is None else list(H.names)
    for i, name in enumerate(names or ()):
        if name != name.strip():
            raise refuse_file(path, f"hypothesis name {i + 1} of {H!r}, {brief(name)}, has surrounding spaces, which a "
                                ".csv file does not keep", lossy)
    header = ([""] if names is not None else []) + instances
    # What the reader will see: the cells after quoting, and the layout they make.
    text = ",".join(map(_quote, header)) + "\n" + "".join(_quote(n) + ",0\n" for n in names or ())
    cells = [row for row in csv.reader(io.StringIO(text, newline=""), skipinitialspace=True)]
    seen = [c.strip() for c in cells[0]] + [row[0].strip() if row else "" for row in cells[1:]]
    if len(cells[0]) != len(header) or len(cells) != 1 + len(names or ()) or seen != header + (names or []):
        raise refuse_file(path, f"a hypothesis or instance name of {H!r} does not survive CSV quoting", lossy)
    if names is None:  # the header must be recognised without a name column
        try:
            layout = _detect(path, header, False, True, 1, H.n_labels - 1)  # column 1 holds entries: no text below
        except InvalidArgumentError:
            layout = None
        if layout != (True, False):
            raise refuse_file(path, f"the instances of {H!r} would not be read back as a header row (a header needs "
                                "a cell other than the first that is not 0 or 1, and a first cell that is not empty)",
                          lossy)
    return header, names


def write_csv_class(H: HypothesisClass, path: Path, matrix_only: bool) -> Path:
    header, names = _csv_lines(H, path, matrix_only)
    n, m = H.matrix.shape
    chunk = max(1, 2**22 // (2 * m))  # rows per block of about 4 MiB of text

    def write(tmp: str) -> None:
        with open(tmp, "wb") as fh:
            if header is not None:
                fh.write((",".join(map(_quote, header)) + "\n").encode("utf-8"))
            for start in range(0, n, chunk):
                block = H.matrix[start:start + chunk]
                if H.n_labels > 10:  # labels of two or three digits: written as text
                    rows = [(",".join(map(str, row)) + "\n").encode("ascii") for row in block.tolist()]
                else:
                    text = np.full((block.shape[0], 2 * m), ord(","), dtype=np.uint8)
                    text[:, 0::2] = block + ord("0")
                    text[:, -1] = ord("\n")
                    rows = list(text) if names is not None else [text.tobytes()]
                if names is None:
                    fh.write(b"".join(bytes(row) for row in rows))
                else:
                    fh.write(b"".join((_quote(names[start + i]) + ",").encode("utf-8") + bytes(row)
                                      for i, row in enumerate(rows)))
            fh.flush()
            os.fsync(fh.fileno())

    return write_atomically(path, write)
