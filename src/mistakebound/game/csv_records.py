r"""The records of a CSV file: where its rows start and end, read block by block, and their cells.

A record is one line, or several when a quoted cell holds a line break.  The reader of
:mod:`~mistakebound.game.class_csv` asks this module for the file in blocks of whole
records (:func:`blocks`), splits each record into its cells (:func:`split_record`) and
counts line ends (:func:`lines_in`, :func:`count_lines`); a cell that never closes its
quote, or bytes that are not UTF-8, are refused here, naming the row and the column.

>>> import io
>>> from pathlib import Path
>>> data = io.BytesIO(b'a,"b\nc"\n0,1\n')
>>> [(block, line, plain) for block, _, line, plain in blocks(Path("f.csv"), data, 0)]
[(b'a,"b\nc"\n0,1\n', 1, False)]
>>> split_record(Path("f.csv"), b'a,"b\nc"\n', 1, 0)
['a', 'b\nc']
>>> lines_in(b"x\r\ny\rz\n"), is_blank([" "])
(3, True)
"""

from __future__ import annotations

import csv
import re
from pathlib import Path
from typing import Any

import numpy as np

from mistakebound.foundations.validation import refuse_file

__all__ = ["BLOCK", "MAX_QUOTED", "blocks", "count_lines", "is_blank", "lines_in", "records", "split_record"]

#: Bytes read at a time: the parser holds a block and the matrix, never a copy of the file.
BLOCK = 1 << 20
#: Longest quoted cell (bytes) before an unclosed quote is reported (csv's own limit is 131,072 characters).
MAX_QUOTED = 1 << 20

_CELL = rb'(?> *"(?:[^"]|"")*+"[^,\r\n]*+| *(?:[^ ",\r\n][^,\r\n]*+)?)'
_CELLS = re.compile(_CELL + rb"(?:," + _CELL + rb")*+")  # closed cells, to a line end or an open quote
_AFTER_QUOTE = re.compile(rb"[^,\r\n]*+(?:," + _CELL + rb")*+")


def _terminator(data: bytes, e: int) -> int:
    """The index after the line end at ``data[e]`` (``\\n``, ``\\r\\n`` or ``\\r``)."""
    return e + 2 if data[e] == 13 and data[e + 1:e + 2] == b"\n" else e + 1


def lines_in(data: bytes) -> int:
    """The number of line ends in ``data`` (``\\n``, ``\\r\\n`` and a lone ``\\r`` each count once)."""
    if len(data) < 4096:
        n = data.count(b"\n")
    else:
        n = int(np.count_nonzero(np.frombuffer(data, dtype=np.uint8) == 10))
    if b"\r" in data:
        n += data.count(b"\r") - data.count(b"\r\n")
    return n


class _OpenQuote(Exception):
    """A record whose quoted cell does not close within the data (``at``: where the quote opened)."""

    def __init__(self, at: int):
        super().__init__(at)
        self.at = at


def _record_end(data: bytes, start: int) -> int:
    """The index after the record that starts at ``data[start]`` (cells may be quoted over lines).

    Raises :class:`_OpenQuote` when a quoted cell does not close in ``data``.
    """
    e = _CELLS.match(data, start).end()
    while True:
        if e == len(data):
            raise _OpenQuote(start)
        if data[e] in b"\r\n":
            return _terminator(data, e)
        quote = data.index(b'"', e)  # the cells stopped at a quote that does not close in data
        raise _OpenQuote(quote)


def records(data: bytes) -> tuple[list[tuple[int, int]], int, bool]:
    """The ``(start, end)`` of each whole record of ``data``, where an unfinished one starts, and
    whether every record is one line ending in ``\\n`` (no quoted line break, no lone ``\\r``).

    A line whose quotes all close (checked up to its last quote, which is all a quote can
    change) is a record; only a line that leaves a quoted cell open is followed further.
    """
    found, start, n = [], 0, len(data)
    one_line = b"\r" not in data or data.count(b"\r") == data.count(b"\r\n")
    while start < n:
        end = -1
        if one_line:
            nl = data.find(b"\n", start)
            if nl < 0:
                break
            last_quote = data.rfind(b'"', start, nl)
            if last_quote < 0 or _CELLS.match(data, start, last_quote + 1).end() == last_quote + 1:
                end = nl + 1
        if end < 0:
            try:
                end = _record_end(data, start)
            except _OpenQuote:
                break
            one_line = False
        found.append((start, end))
        start = end
    return found, start, one_line


def blocks(path: Path, fh: Any, offset: int) -> Any:
    """``(data, offset, line, plain)``: the file from ``offset`` in blocks of whole records.

    ``offset`` is where ``data`` starts in the file and ``line`` the number of its first
    line; ``plain`` when each line of ``data`` is one record ending in ``\\n`` (no quoted
    cell spans lines, no lone ``\\r``), so that the lines can be cut at ``\\n`` bytes.

    Yields
    ------
    tuple
        ``(data, offset, line, plain)``, one block at a time.
    """
    pending: list[bytes] = []
    size, line = 0, 1
    while True:
        chunk = fh.read(BLOCK)
        if chunk:
            pending.append(chunk)
            size += len(chunk)
            cut = chunk.rfind(b"\n")
            if cut < 0:
                cut = chunk.rfind(b"\r", 0, len(chunk) - 1)
            if cut < 0:
                continue  # a line longer than a block: read on
            data = b"".join(pending)
            cut += size - len(chunk) + 1
        elif not pending:
            return
        else:
            data = b"".join(pending)
            if data[-1:] not in (b"\n", b"\r"):
                data += b"\n"  # the last line, without its line end
            cut = len(data)
        block, rest = data[:cut], data[cut:]
        plain = b"\r" not in block or block.count(b"\r") == block.count(b"\r\n")
        if b'"' in block:
            _, end, one_line = records(block)
            if end < len(block):  # a quoted cell opens and does not close in this block
                quote = _CELLS.match(block, end).end()
                quote = block.find(b'"', quote)
                if not chunk or len(block) - quote > MAX_QUOTED:
                    row, column = line + lines_in(block[:end]), _column_at(block[end:], quote - end)
                    raise refuse_file(path, f"row {row}, column {column}: a quoted cell is not closed "
                                        f"{'before the end of the file' if not chunk else 'within 1 MiB'}",
                                  "a closing double quote (a quote inside a quoted cell is written twice)")
                block, rest = block[:end], block[end:] + rest
            plain = plain and one_line
        if block:
            yield block, offset, line, plain
            offset += len(block)
            line += lines_in(block)
        pending, size = ([rest], len(rest)) if rest else ([], 0)


def _column_at(raw: bytes, position: int) -> int:
    """The column (from 1) of the cell holding byte ``position`` of the record ``raw``."""
    prefix = raw[:position].decode("utf-8", "replace")
    if '"' not in prefix:
        return prefix.count(",") + 1
    try:
        return max(len(next(csv.reader([prefix], skipinitialspace=True), [])), 1)
    except csv.Error:  # pragma: no cover - the prefix of a record csv could not split
        return prefix.count(",") + 1


def _decode(path: Path, raw: bytes, row: int, offset: int) -> str:  # noqa: ARG001 - offset: where raw starts
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise refuse_file(path, f"row {row}, column {_column_at(raw, exc.start)}: the byte 0x{raw[exc.start]:02x} is "
                            "not UTF-8 text", "a UTF-8 (or ASCII) CSV file") from None


def split_record(path: Path, raw: bytes, row: int, offset: int) -> list[str]:
    """The cells of one record (its bytes, line end included)."""
    text = _decode(path, raw, row, offset)
    if '"' not in text:
        return text.rstrip("\r\n").split(",")
    try:
        return next(csv.reader([text], skipinitialspace=True))
    except csv.Error as exc:
        raise refuse_file(path, f"row {row}: {exc}", "a comma-separated file") from None


def is_blank(cells: list[str]) -> bool:
    return len(cells) <= 1 and (not cells or not cells[0].strip())


def count_lines(fh: Any) -> int:
    """The line ends in the rest of the file (an upper bound on its rows), read block by block."""
    n, last = 0, b""
    while chunk := fh.read(BLOCK):
        n += lines_in(chunk)
        if last == b"\r" and chunk[:1] == b"\n":
            n -= 1
        last = chunk[-1:]
    return n
