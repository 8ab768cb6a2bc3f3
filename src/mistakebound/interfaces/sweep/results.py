"""The results file of a sweep: CSV, one row per finished cell, streamed and resumable.

:class:`ResultsFile` appends each record as its cell finishes (one ``write`` and one
``flush`` per row, so a killed sweep loses at most the row being written).  On a
restart :meth:`ResultsFile.load` reads what is there, drops a torn last line (a row
without its newline, cut by the kill) and returns the recorded cells, which the sweep
skips, but for rows of infrastructure errors (verdict ``infra``: a dead worker, memory
run out), which :func:`finished` leaves out so that the sweep runs those cells again.
When the sweep finishes, :meth:`ResultsFile.finalize` rewrites the file atomically in
grid order with each cell exactly once, so a resumed sweep and an uninterrupted one
leave the same rows.

**A full disk.**  A row that cannot be appended is :class:`ResultsWriteError`, naming the
file and the system's reason (the rows before it stay; a torn one is dropped on
resume).  Finalising needs no second copy of the file when the rows are already what
they must be (an in-process sweep, run once): the file is then left as it is.
Otherwise the rewrite needs the new file's size free beside the old one; when the disk
has not that much, or the rewrite fails, the appended file is kept as it is, complete
(each cell once, but for an infrastructure error followed by its rerun, which
:meth:`ResultsFile.load` and :func:`read_records` readers resolve), in the order the
cells finished, and :attr:`ResultsFile.unsorted` says why.

Columns are :data:`~mistakebound.interfaces.sweep.cells.FIELDS`; an empty field is None, booleans
are ``true``/``false``, numbers are written with ``repr`` (exact round trip) and read
back as ints when they look like ints.  The header is the file's format: a file of an
earlier version (:data:`LEGACY_FIELDS`, whose search rows kept Ldim or the worst case in
``mistakes``, without ``ldim``, ``vc`` and ``worst_case`` columns) is still read, its
search values moved to their own columns (``vc`` stays empty: it was not computed), and
:meth:`ResultsFile.load` rewrites it in the current format before a resumed sweep
appends to it; so is a file written before games had a ``setting`` column
(:data:`SETTINGLESS_FIELDS`: its games were the textbook's, and keep their cell ids).

Examples
--------
>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "r.csv"
>>> f = ResultsFile(path)
>>> f.load()
{}
>>> record = dict.fromkeys(FIELDS); record.update(id="abc", kind="game", mistakes=3, bound=3.0)
>>> f.append(record); f.close()
>>> with open(path, "a") as fh:  # a row cut by a kill: no newline
...     _ = fh.write("def,game,,Hal")
>>> loaded = ResultsFile(path).load()
>>> list(loaded), loaded["abc"]["mistakes"], loaded["abc"]["bound"], loaded["abc"]["exact"]
(['abc'], 3, 3.0, None)
"""

from __future__ import annotations

import csv
import io
import os
from pathlib import Path
from typing import Any, Iterable

from mistakebound.foundations.errors import InvalidArgumentError, MistakeboundError
from mistakebound.interfaces.sweep.cells import FIELDS, INFRA

__all__ = ["ResultsFile", "ResultsWriteError", "encode", "decode", "normalize", "read_records", "read_frame", "records_frame", "finished",
           "upgraded", "RERUN", "LEGACY_FIELDS", "SETTINGLESS_FIELDS"]

#: Verdicts of rows that do not count as recorded: a resumed sweep runs their cells again.
RERUN = frozenset({INFRA})

#: The columns of results files written before search values had their own columns (``ldim``,
#: ``vc``, ``worst_case``): read, and upgraded by :func:`upgraded`.
#: Written out, not derived from FIELDS: the old header stays what it was when FIELDS grows.
LEGACY_FIELDS = (
    "id", "kind", "search", "learner", "adversary", "class", "size", "seed", "horizon", "realizable", "max_nodes",
    "rounds", "mistakes", "expected_mistakes", "regret", "measured", "bound", "bound_measure", "forced",
    "forced_measure", "ratio", "note", "verdict", "exact", "lower", "upper", "nodes", "error_type", "error",
    "seconds", "peak_kib",
)
#: The columns of results files written before games had a ``setting`` (their rules): read, and upgraded
#: by :func:`upgraded` (the column empty: the textbook's game).
SETTINGLESS_FIELDS = (
    "id", "kind", "search", "learner", "adversary", "class", "size", "seed", "horizon", "realizable", "max_nodes",
    "rounds", "mistakes", "expected_mistakes", "regret", "measured", "ldim", "vc", "worst_case", "bound",
    "bound_measure", "forced", "forced_measure", "ratio", "note", "verdict", "exact", "lower", "upper", "nodes",
    "error_type", "error", "seconds", "peak_kib",
)
#: The searches whose value an old file kept in ``mistakes`` (each now has a column of its name).
_SEARCH_COLUMNS = ("ldim", "worst_case")

_TEXT = {"id", "kind", "search", "learner", "adversary", "class", "setting", "bound_measure", "forced_measure",
         "note", "verdict", "error_type", "error"}
_BOOL = {"realizable", "exact"}


class ResultsWriteError(MistakeboundError):
    """A row could not be appended to the results file (a full disk, a file system gone read-only).

    The message names the file and the reason; ``records`` holds, when the sweep sets it,
    every record it has (those of the file and those run since), for the summary.
    """

    def __init__(self, message: str, records: list | None = None):
        super().__init__(message)
        self.records = records or []


def encode(value: Any) -> str:
    """One field as text: None empty, booleans ``true``/``false``, numbers by ``repr``."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    return str(value)


def decode(field: str, text: str) -> Any:
    """One field read back (the inverse of :func:`encode` for the column ``field``).

    Examples
    --------
    >>> decode("mistakes", "3"), decode("bound", "3.0"), decode("ratio", "inf"), decode("exact", "")
    (3, 3.0, inf, None)
    """
    if text == "":
        return None
    if field in _TEXT:
        return text
    if field in _BOOL:
        if text not in ("true", "false"):
            raise ValueError(f"{field}: expected true or false, got {text!r}")
        return text == "true"
    try:
        return int(text)
    except ValueError:
        return float(text)


def normalize(record: dict) -> dict:
    """A record as it reads back from the file (the columns of FIELDS, round-tripped)."""
    return {k: decode(k, encode(record.get(k))) for k in FIELDS}


def _row(record: dict) -> str:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerow([encode(record.get(k)) for k in FIELDS])
    return buffer.getvalue()


class ResultsFile:
    """A sweep's CSV results file: load what a previous run recorded, append, finalize.

    Parameters
    ----------
    path : str or path-like
        The ``.csv`` file (created on the first :meth:`append`).
    parameter : str
        The name the messages of a refused ``path`` start with (``"--out"`` on the command line).

    Raises
    ------
    InvalidArgumentError
        If ``path`` does not end in ``.csv`` or could not be written
        (:func:`mistakebound.foundations.files.check_writable`).
    """

    def __init__(self, path: str | os.PathLike, *, parameter: str = "out"):
        from mistakebound.foundations.files import check_writable

        self.path = Path(path)
        if self.path.suffix.lower() != ".csv":
            raise InvalidArgumentError(f"{parameter}: expected a results file name ending in .csv, got {str(path)!r}")
        check_writable(self.path, parameter=parameter)  # before any work: a folder, a device, a read-only file...
        self._fh = None
        #: Whether :meth:`load` dropped a torn last line.
        self.dropped_torn_line = False
        #: Whether :meth:`load` rewrote a file of an earlier format (:data:`SETTINGLESS_FIELDS`,
        #: :data:`LEGACY_FIELDS`) in this one.
        self.upgraded = False
        #: Why :meth:`finalize` kept the file in the order the cells finished (None: it is in grid order).
        self.unsorted: str | None = None
        #: Rows appended by this object.
        self.appended = 0

    def load(self) -> dict[str, dict]:
        """The records already in the file, by cell id (the first that is not ``infra``, else the last).

        Infrastructure errors are among them; :func:`finished` leaves them out.

        A last line without its newline (torn by a kill) is cut off the file.

        Raises
        ------
        InvalidArgumentError
            If the file's header is not the sweep's columns or a complete row does not parse.
        """
        if not self.path.exists() or self.path.stat().st_size == 0:
            return {}
        data = self.path.read_bytes()
        if not data.endswith(b"\n"):
            keep = data.rfind(b"\n") + 1
            with open(self.path, "r+b") as fh:
                fh.truncate(keep)
            data = data[:keep]
            self.dropped_torn_line = True
        if not data:
            return {}
        rows = list(csv.reader(io.StringIO(data.decode("utf-8"), newline="")))
        columns = _columns(rows[0], self.path, "out", hint="; choose another --out or remove the file")
        records: dict[str, dict] = {}
        read = [_record(columns, row, self.path, line, "out") for line, row in enumerate(rows[1:], start=2)]
        if columns != FIELDS:  # an earlier format: rewritten in this one before anything is appended
            from mistakebound.foundations.files import write_atomically

            write_atomically(self.path, "".join([",".join(FIELDS) + "\n"] + [_row(r) for r in read]))
            self.upgraded = True
        for record in read:
            old = records.get(record["id"])
            if old is None or old["verdict"] in RERUN:  # a later row replaces an infrastructure error
                records[record["id"]] = record
        return records

    def append(self, record: dict) -> None:
        """Write one record as a row and flush it (the header first, for a new file).

        Raises
        ------
        ResultsWriteError
            When the system refuses the write (a full disk), naming the file.
        """
        try:
            if self._fh is None:
                new = not self.path.exists() or self.path.stat().st_size == 0
                self._fh = open(self.path, "a", encoding="utf-8", newline="")
                if new:
                    self._fh.write(",".join(FIELDS) + "\n")
            self._fh.write(_row(record))
            self._fh.flush()
        except OSError as exc:
            self._abandon()
            raise ResultsWriteError(
                f"out: cannot write {str(self.path)!r}: {exc.strerror or exc}; the {self.appended} row(s) written "
                "before stay in it: make room and run the same command again to resume"
            ) from None
        self.appended += 1

    def _abandon(self) -> None:
        """Close the file after a failed write, whatever is left in the buffer (lost: a resume runs its cells)."""
        fh, self._fh = self._fh, None
        if fh is not None:
            try:
                fh.close()
            except OSError:
                pass

    def close(self) -> None:
        """Close the file (records already appended stay)."""
        if self._fh is not None:
            try:
                self._fh.close()
            except OSError:  # a buffered row that no longer fits: the rows before it stay
                self._fh = None
                raise
            self._fh = None

    def finalize(self, records: Iterable[dict]) -> Path:
        """Rewrite the file atomically with ``records``, in their order, each id once; no copy when it holds them.

        When the file already holds exactly these rows in this order, it is left as it
        is.  Otherwise it is rewritten (:func:`~mistakebound.foundations.files.write_atomically`)
        if its disk has room for the new file beside the old one; if not, or if the rewrite
        fails, the file is kept as it was appended and :attr:`unsorted` says why.
        """
        from mistakebound.foundations.files import write_atomically

        self.close()
        seen: set = set()
        lines = [",".join(FIELDS) + "\n"]
        for r in records:
            if r["id"] not in seen:
                seen.add(r["id"])
                lines.append(_row(r))
        text = "".join(lines).encode("utf-8")
        try:
            if self.path.stat().st_size == len(text) and self.path.read_bytes() == text:
                return self.path  # already final: nothing to copy
        except OSError:
            pass
        room = _free_bytes(self.path.parent)
        if room is not None and room < len(text) + 2**16 and self.path.exists():
            self.unsorted = (f"{str(self.path)!r} is kept in the order the cells finished: rewriting it in grid "
                             f"order needs about {len(text):,} bytes free on its disk, and {room:,} are")
            return self.path
        try:
            return write_atomically(self.path, text)
        except OSError as exc:
            if not self.path.exists():
                raise
            self.unsorted = (f"{str(self.path)!r} is kept in the order the cells finished: it could not be "
                             f"rewritten in grid order ({exc.strerror or exc})")
            return self.path


def _free_bytes(folder: Path) -> int | None:
    """Bytes an unprivileged write may still use on ``folder``'s file system, None when unknown."""
    try:
        info = os.statvfs(folder)
    except (OSError, AttributeError):
        return None
    return info.f_bavail * info.f_frsize


def finished(records: dict[str, dict]) -> dict[str, dict]:
    """The records that count as done (not an infrastructure error), by id: the cells a resumed sweep skips.

    Examples
    --------
    >>> finished({"a": {"verdict": "ok"}, "b": {"verdict": "infra"}, "c": {"verdict": "error"}})
    {'a': {'verdict': 'ok'}, 'c': {'verdict': 'error'}}
    """
    return {k: r for k, r in records.items() if r.get("verdict") not in RERUN}


def read_records(path: str | os.PathLike) -> list[dict]:
    """The records of a results file, in file order (a torn last line is left out, not cut).

    Examples
    --------
    >>> import math, tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "r.csv"
    >>> ResultsFile(p).finalize([dict.fromkeys(FIELDS, None) | {"id": "a", "ratio": math.inf}])  # doctest: +ELLIPSIS
    PosixPath(...)
    >>> read_records(p)[0]["ratio"]
    inf
    """
    data = Path(path).read_text(encoding="utf-8")
    if not data.endswith("\n"):
        data = data[: data.rfind("\n") + 1]
    rows = list(csv.reader(io.StringIO(data, newline="")))
    if not rows:
        return []
    columns = _columns(rows[0], path, "path")
    return [_record(columns, row, path, line, "path") for line, row in enumerate(rows[1:], start=2) if len(row) == len(columns)]


def _columns(header: list[str], path: Any, parameter: str, hint: str = "") -> tuple:
    """The columns a results file's header names: :data:`FIELDS`, or an older file's (:data:`SETTINGLESS_FIELDS`,
    :data:`LEGACY_FIELDS`)."""
    columns = tuple(header)
    if columns not in (FIELDS, SETTINGLESS_FIELDS, LEGACY_FIELDS):
        raise InvalidArgumentError(
            f"{parameter}: {str(path)!r} is not a sweep results file (its header is "
            f"{','.join(header)[:80]!r}...); expected the columns {','.join(FIELDS[:4])},...{hint}"
        )
    return columns


def _record(columns: tuple, row: list[str], path: Any, line: int, parameter: str) -> dict:
    """One row as a record of :data:`FIELDS` (:func:`upgraded` from an older format)."""
    if len(row) != len(columns):
        raise InvalidArgumentError(
            f"{parameter}: {str(path)!r} line {line}: expected {len(columns)} fields, got {len(row)}"
        )
    try:
        record = {k: decode(k, v) for k, v in zip(columns, row)}
    except ValueError as exc:
        raise InvalidArgumentError(f"{parameter}: {str(path)!r} line {line}: {exc}") from None
    return record if columns == FIELDS else upgraded(record)


def upgraded(record: dict) -> dict:
    """A record of an earlier results file (:data:`SETTINGLESS_FIELDS`, :data:`LEGACY_FIELDS`) in the current columns.

    A game without a ``setting`` was played under the textbook's rules (the column is empty).  In
    the oldest files a search's value moves from ``mistakes`` to its own column (``ldim`` or
    ``worst_case``); ``vc`` stays empty, as the earlier sweep did not compute it.

    Examples
    --------
    >>> old = dict.fromkeys(LEGACY_FIELDS) | {"kind": "search", "search": "ldim", "mistakes": 3}
    >>> new = upgraded(old)
    >>> new["ldim"], new["mistakes"], new["vc"], tuple(new) == FIELDS
    (3, None, None, True)
    """
    new = {k: record.get(k) for k in FIELDS}
    column = record.get("search")
    if record.get("kind") == "search" and column in _SEARCH_COLUMNS and column not in record:
        new[column], new["mistakes"] = record.get("mistakes"), None
    return new


def records_frame(records: Iterable[dict]) -> Any:
    """Sweep records as a ``pandas.DataFrame``: one row per record, one typed column per field.

    The columns are the records' keys in the order they first appear (so a column added to
    :data:`~mistakebound.interfaces.sweep.cells.FIELDS` comes along), :data:`FIELDS` when
    there are no records; a missing value is NaN (``<NA>`` in an integer or boolean column),
    and a column without any value has the type :func:`decode` gives the field.

    Raises
    ------
    PandasDependencyError
        If pandas is not installed (``pip install 'mistakebound[pandas]'``).

    Examples
    --------
    >>> df = records_frame([{"id": "a", "mistakes": 3, "exact": None}, {"id": "b", "mistakes": None, "exact": True}])
    >>> list(df.columns), [str(t) for t in df.dtypes[1:]]
    (['id', 'mistakes', 'exact'], ['Int64', 'boolean'])
    """
    from mistakebound.foundations.dataframes import frame

    records = list(records)
    columns = list(dict.fromkeys(k for r in records for k in r)) or list(FIELDS)
    # a column with no value yet is typed as decode() reads the field: text, a flag or a number
    empty = {k: "object" if k in _TEXT else "boolean" if k in _BOOL else "float64" for k in columns}
    return frame({k: [r.get(k) for r in records] for k in columns}, empty=empty)


def read_frame(path: str | os.PathLike) -> Any:
    """A results file as a ``pandas.DataFrame`` (:func:`read_records`, then :func:`records_frame`).

    ``pandas.read_csv`` reads the file too; this reads each field with the sweep's own
    :func:`decode` (an id of digits stays text, ``inf`` a float, an empty field missing).
    """
    return records_frame(read_records(path))
