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

The CSV layout, and how a class is read from it and written to it, are described in
:mod:`mistakebound.game.class_csv`.

Errors
------
Every refusal is an :class:`~mistakebound.foundations.errors.InvalidArgumentError` (an
:class:`~mistakebound.foundations.errors.InvalidClassError` when the content is not a valid
class) on one line, starting ``path: 'FILE':``, saying what is wrong and what was expected.
Every position is numbered from 1, one way: in a ``.csv`` file the row is the line of the
file the row starts on (as a text editor numbers lines: blank lines and line breaks inside
quoted cells count) and the column is the cell's place in its row (the name column
counts), so a bad cell has the same ``row R, column C`` in every message, whichever way it
was read; ``.npy`` rows and columns and JSON ``matrix`` rows and columns are numbered from
1 too, while ``domain[j]`` and ``names[i]`` are JSON positions, from 0.  Sizes are checked
before anything large is read: the file against ``max_bytes``, a ``.npy`` header's shape
against ``max_bytes``, the file's size and :data:`~mistakebound.game.hypothesis_class.MAX_ENTRIES`,
the entries a ``.csv`` file could hold against
:data:`~mistakebound.game.hypothesis_class.MAX_ENTRIES`, and the class a file makes, by its shape (a
``.npy`` header's, a ``.csv`` file's rows bounded by its lines, counted first, a JSON
matrix's rows and domain), against the memory budget
(:func:`~mistakebound.game.hypothesis_class.require_class_memory`: the table and what every
class builds per row and per column, against cgroup limits, ``ulimit -v`` and
``MISTAKEBOUND_MEMORY_LIMIT`` as well as the free memory), before it is allocated: a
``.npy`` file of shape ``(10**13, 0)`` holds no data, yet no memory holds its rows.  A
``.csv`` file is read in blocks of 1 MiB with numpy working on whole rows (a block of
``0,1,...`` rows without names in one reshape; Python looks at single cells only in rows
that are not plain 0/1 grids, or to report a bad one), so it takes the memory the same
matrix takes from ``.npy`` and a few times its time (``python -m benchmarks.csv_loading``).  A ``.npy`` file holding pickled
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
mistakebound.foundations.errors.InvalidClassError: path: '.../bad.csv': row 2, column 2: '2' is not 0 or 1; expected every entry to be 0 or 1 (rows and columns counted from 1)
"""

from __future__ import annotations

import io
import os
import stat
from pathlib import Path
from typing import Any

import numpy as np

from mistakebound.foundations import json_format as jf
from mistakebound.foundations.errors import InsufficientMemoryError, InvalidArgumentError, InvalidClassError
from mistakebound.foundations.files import write_atomically
from mistakebound.foundations.memory import require_memory
from mistakebound.foundations.text import one_line
from mistakebound.foundations.validation import brief, check_flag, check_int, refuse_file
from mistakebound.game.class_csv import read_csv_class, write_csv_class
from mistakebound.game.hypothesis_class import (
    COUNTED_FROM_1,
    MAX_ENTRIES,
    HypothesisClass,
    first_bad_entry,
    require_class_memory,
)
from mistakebound.game.rules import label_words

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
        raise refuse_file(path, f"unknown suffix {suffix or '(none)'!r}", _EXPECTED_SUFFIX)
    return suffix


def _check_file(path: Path, max_bytes: int | None) -> int:
    """The size of the file at ``path``, after refusing a missing, empty or too large one."""
    try:
        info = path.stat()
        size, is_dir = info.st_size, stat.S_ISDIR(info.st_mode)
    except FileNotFoundError:
        raise refuse_file(path, "the file does not exist", "an existing file") from None
    except (OSError, ValueError) as exc:  # permissions, a name too long, a NUL in the name
        reason = getattr(exc, "strerror", None) or exc
        raise refuse_file(path, f"cannot read the file ({reason})", "a readable file") from None
    if is_dir:
        raise refuse_file(path, "is a directory", "a file")
    if not stat.S_ISREG(info.st_mode):  # a FIFO or a device would be read forever (or have no size)
        raise refuse_file(path, "is not a regular file (a pipe, a device or a socket)", "a regular file")
    if size == 0:
        raise refuse_file(path, "the file is empty", "a class: rows of 0/1 entries or a saved class")
    if max_bytes is not None and size > max_bytes:
        raise refuse_file(path, f"the file has {size} bytes, more than max_bytes = {max_bytes}",
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
    if H.n_labels != 2:  # a class of more labels says how many (a file of 0/1 classes stays as it was)
        out["labels"] = H.n_labels
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
    mistakebound.foundations.errors.InvalidClassError: matrix: row 2, column 2 holds 2; expected every entry to be 0 or 1 (rows and columns counted from 1)
    """
    data = jf.parse(text, what="class", fmt=CLASS_FORMAT)
    keys = ["format", "version", "name", "names", "domain", "matrix"]
    jf.check_keys("class", data, keys + ["labels"] if "labels" in data else keys)
    labels = data.get("labels", 2)
    if "labels" in data and (type(labels) is not int or not 2 < labels <= 256):
        raise InvalidArgumentError(f"labels: expected the number of labels, an integer from 3 to 256 (a class of 0/1 "
                                   f"leaves it out), got {brief(labels)}")
    words = label_words(tuple(range(labels)))
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
        raise InvalidClassError(f"matrix: expected a JSON list of rows, each a list of labels {words}")
    if not matrix:
        raise InvalidClassError("matrix: holds no rows; expected at least one hypothesis (row)")
    require_class_memory(len(matrix), len(domain), parameter="matrix", what=f"a class of {len(matrix):,} rows",
                         advice="expected a smaller class (or more memory)")
    for i, row in enumerate(matrix):
        if len(row) != len(domain):
            raise InvalidClassError(
                f"matrix: row {i + 1} has {len(row)} entries but the domain has {len(domain)} instances; "
                "expected one entry per instance"
            )
        for j, v in enumerate(row):
            if type(v) is not int or not 0 <= v < labels:
                raise InvalidClassError(
                    f"matrix: row {i + 1}, column {j + 1} holds {brief(v)}; expected every entry to be {words} "
                    f"({COUNTED_FROM_1})"
                )
    arr = np.array(matrix, dtype=np.uint8).reshape(len(matrix), len(domain))
    return HypothesisClass.from_matrix(arr, domain, names, name=name, labels=labels)


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
        raise refuse_file(path, f"is not a valid .npy file ({type(exc).__name__}: {exc})",
                      "a .npy file written by numpy.save (format version 1 or 2)") from None


def _read_npy(path: Path, max_bytes: int | None, size: int) -> np.ndarray:
    shape, _, dtype, offset = _npy_header(path)
    if dtype.hasobject:
        raise refuse_file(path, f"holds a pickled object array ({dtype}); pickles are refused because loading "
                            "them could run code", "a numeric 0/1 array (save it with allow_pickle=False)")
    if dtype.kind not in "biuf":
        raise refuse_file(path, f"holds an array of dtype {dtype}", "0/1 numbers (bool, int, uint or float)")
    if len(shape) != 2 or any(not isinstance(k, int) or k < 0 for k in shape):
        raise refuse_file(path, f"holds an array of shape {shape}", "a 2-D array (hypotheses x instances)",
                      InvalidClassError)
    entries = int(np.prod(shape, dtype=object))
    need = entries * dtype.itemsize
    if entries > MAX_ENTRIES:
        raise refuse_file(path, f"the matrix of shape {shape} has {entries} entries, more than the limit of {MAX_ENTRIES} "
                            "(what an array can hold on this machine)", f"at most {MAX_ENTRIES} entries")
    if max_bytes is not None and need > max_bytes:
        raise refuse_file(path, f"the matrix of shape {shape} needs {need} bytes, more than max_bytes = {max_bytes}",
                      "a smaller matrix (or pass a larger max_bytes, or None for no limit)")
    if need > size - offset:
        raise refuse_file(path, f"the header declares shape {shape} ({need} bytes of data) but the file holds "
                            f"{size - offset} bytes after it", "a complete .npy file")
    require_class_memory(*shape, parameter="path", extra=need, advice="expected a smaller file (or more memory)",
                         what=f"{str(path)!r}: a matrix of shape {shape} ({dtype}) and the class made of it")
    try:
        return np.load(path, allow_pickle=False)
    except (ValueError, OSError, EOFError, TypeError) as exc:
        raise refuse_file(path, f"cannot read the matrix ({exc})", "a .npy file written by numpy.save") from None


def read_npy_matrix(path: str | os.PathLike, max_bytes: int | None = DEFAULT_MAX_BYTES) -> np.ndarray:
    """The 2-D numeric array in a ``.npy`` file, checked from its header before it is loaded.

    Pickled object arrays are refused unread (nothing in a data file runs code), and so is
    a matrix that would need more than ``max_bytes`` of memory, hold more than
    :data:`~mistakebound.game.hypothesis_class.MAX_ENTRIES` entries, or more data than the file
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


def _npy_class(path: Path, max_bytes: int | None, size: int, labels: int) -> HypothesisClass:
    arr = _read_npy(path, max_bytes, size)
    if arr.shape[0] == 0:
        raise refuse_file(path, f"holds a matrix of shape {arr.shape}", "at least one hypothesis (row)", InvalidClassError)
    bad = first_bad_entry(arr, labels)
    if bad is not None:
        i, j = bad
        words = label_words(tuple(range(labels)))
        advice = "; a class of more labels is read with labels=k" if labels == 2 else f" (labels={labels})"
        raise refuse_file(path, f"row {i + 1}, column {j + 1}: {arr[i, j].item()!r} is not {words}",
                      f"every entry to be {words} ({COUNTED_FROM_1}){advice}", InvalidClassError)
    return HypothesisClass.from_matrix(arr, name=path.name, labels=labels)


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
        raise refuse_file(path, f"the folder {str(folder)!r} does not exist", "a file in an existing folder")
    if path.is_dir():
        raise refuse_file(path, "is a directory", "a file name")
    if suffix == ".json":
        return write_atomically(path, class_to_json(H))
    if suffix == ".csv":
        return write_csv_class(H, path, matrix_only)
    default_domain = H.domain == tuple(range(H.n_instances)) and all(type(x) is int for x in H.domain)
    lost = [what for what, gone in (("domain", not default_domain), ("names", H.names is not None)) if gone]
    if lost and not matrix_only:
        raise refuse_file(path, f"a .npy file holds the matrix alone, and the {' and the '.join(lost)} of {H!r} would "
                            "be lost", "a .json file (which keeps everything), or matrix_only=True to write the "
                                       "matrix alone")
    buffer = io.BytesIO()
    np.save(buffer, np.ascontiguousarray(H.matrix, dtype=np.uint8), allow_pickle=False)
    return write_atomically(path, buffer.getvalue())


def load_class(path: str | os.PathLike, *, max_bytes: int | None = DEFAULT_MAX_BYTES,
               labels: int | None = None) -> HypothesisClass:
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
    labels : int, optional
        The number of labels of the class: a ``.npy`` or ``.csv`` table of ``k`` labels is
        read with ``labels=k`` (default 2: 0/1 entries); a ``.json`` file says how many
        itself, and a different ``labels`` is refused.

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
    if labels is not None:
        labels = check_int("labels", labels, minimum=2, maximum=256)
    if suffix == ".npy":
        return _npy_class(path, max_bytes, size, labels or 2)
    if suffix == ".csv":
        return read_csv_class(path, size, labels or 2)
    if size * (1 + jf.JSON_BYTES_PER_CHARACTER) > jf.SMALL_DOCUMENT_BYTES:  # the bytes read, then their parse
        require_memory(size * (1 + jf.JSON_BYTES_PER_CHARACTER), parameter="path",
                       what=f"{str(path)!r}: reading and parsing {size:,} bytes of JSON",
                       advice="expected a smaller file (or more memory)")
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise refuse_file(path, f"cannot read the file ({exc.strerror or exc})", "a readable file") from None
    try:
        H = class_from_json(raw)
    except InvalidArgumentError as exc:
        raise type(exc)(one_line(f"path: {str(path)!r}: {exc}")) from None
    except InsufficientMemoryError as exc:
        raise InsufficientMemoryError(one_line(f"path: {str(path)!r}: {exc}"), needed=exc.needed,
                                      available=exc.available) from None
    if labels is not None and labels != H.n_labels:
        raise InvalidArgumentError(f"labels: {str(path)!r} holds a class of {H.n_labels} labels, and labels={labels} "
                                   "was given; expected the file's own number (or no labels)")
    return H
