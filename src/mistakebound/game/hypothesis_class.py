"""Finite hypothesis classes as immutable 0/1 tables.

A :class:`HypothesisClass` is a finite domain (a tuple of hashable instances) and a
0/1 matrix with one row per hypothesis and one column per instance: entry ``[i, j]``
is the label hypothesis ``i`` gives to ``domain[j]``.  The matrix is read-only, so a
class can be shared between learners, adversaries and searches without copies: the
class owns it through an immutable ``bytes`` buffer, so that not even
``matrix.setflags(write=True)`` (on it, a view of it, or its base) can make it
writable again.

Examples
--------
>>> H = HypothesisClass.from_matrix([[0, 0], [1, 0], [1, 1]], domain=("a", "b"))
>>> H.n_hypotheses, H.n_instances
(3, 2)
>>> H.label(1, "a")
1
>>> H.column("b").tolist()
[0, 0, 1]
>>> G = HypothesisClass.from_functions(range(1, 4), [lambda x: int(x < 2), lambda x: 0])
>>> G.matrix.tolist()
[[1, 0, 0], [0, 0, 0]]
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import numbers
import sys
import types
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from typing import Any

import numpy as np
from attrs import field, frozen

from mistakebound.foundations.bitset import column_to_mask, columns_to_masks, full_mask, mask_to_indices
from mistakebound.foundations.errors import InvalidArgumentError, InvalidClassError, NotApplicableError
from mistakebound.foundations.memory import require_memory
from mistakebound.foundations.text import printable
from mistakebound.game.rules import LABELS, label_words
from mistakebound.game.setting import Setting

__all__ = [
    "BYTES_PER_COLUMN",
    "BYTES_PER_DISTINCT_ROW",
    "BYTES_PER_ENTRY",
    "BYTES_PER_ROW",
    "COUNTED_FROM_1",
    "HypothesisClass",
    "MAX_ENTRIES",
    "SMALL_CLASS_BYTES",
    "class_memory",
    "first_bad_entry",
    "require_binary",
    "require_class",
    "require_class_memory",
    "sizes_only",
    "SizeChecked",
    "table_text",
]

#: How every message that names a row or a column of a class's table counts them: from 1,
#: as a spreadsheet or a text editor does (``matrix[i, j]`` is row ``i + 1``, column ``j + 1``).
COUNTED_FROM_1 = "rows and columns counted from 1"


#: The most entries a table can have: numpy's limit on an array's size on this machine
#: (``sys.maxsize``), not a policy.  Below it, :func:`require_class_memory` alone decides.
MAX_ENTRIES = sys.maxsize
#: Bytes per entry of a class's table: the uint8 table itself and, while it is built or its
#: bitsets are packed, up to two bytes more (the copy that is sealed, the boolean arrays of
#: the 0/1 check of a float table, the padded copy of :func:`columns_to_masks`).
BYTES_PER_ENTRY = 3
#: Bytes per hypothesis besides its entries: its name (a short ``str`` and its slots) and
#: the int64 group :meth:`HypothesisClass.distinct_rows` gives every row.
BYTES_PER_ROW = 100
#: Bytes per distinct row, of which a class has at most ``min(n, 2**m)``: the key, the dict
#: slot and the representative :meth:`HypothesisClass.distinct_rows` keeps for it.
BYTES_PER_DISTINCT_ROW = 160
#: Bytes per instance besides its entries: the instance, its slot in the domain and in the
#: index of the domain, and the header of its bitset.
BYTES_PER_COLUMN = 200
#: A class estimated to need at most this many bytes is built without reading the memory
#: budget (reading it takes about 0.1 ms, more than building such a class).
SMALL_CLASS_BYTES = 1 << 20


def class_memory(n_hypotheses: int, n_instances: int, *, table: bool = True) -> int:
    """Bytes a class of ``n_hypotheses`` x ``n_instances`` takes, with what the package builds for any class.

    The table (``n * m`` bytes, and the copies made while it is built:
    :data:`BYTES_PER_ENTRY` per entry), the bitsets (:attr:`HypothesisClass.column_masks`,
    ``n`` bits per instance, and the rows packed into bits by
    :meth:`HypothesisClass.distinct_rows`), :data:`BYTES_PER_ROW` per hypothesis,
    :data:`BYTES_PER_DISTINCT_ROW` per distinct row (at most ``min(n, 2**m)``) and
    :data:`BYTES_PER_COLUMN` per instance.  A class without instances still costs its rows.

    Parameters
    ----------
    n_hypotheses, n_instances : int
        The shape of the table (rows, columns), each >= 0.
    table : bool
        Count the table and its 0/1 check (False: for a table already built and sealed,
        which the class keeps as it is).

    Returns
    -------
    int

    Examples
    --------
    >>> class_memory(8, 8) == 3 * 64 + (8 + 2 * 8) + 100 * 8 + 160 * 8 + 200 * 8
    True
    >>> class_memory(10**13, 0) >= 10**15  # no entries, but a group and a name per row
    True
    """
    n, m = int(n_hypotheses), int(n_instances)
    distinct = n if m >= n.bit_length() else min(n, 2**m)
    return ((BYTES_PER_ENTRY * n * m if table else 0)
            + m * ((n + 7) // 8) + 2 * n * ((m + 7) // 8)
            + BYTES_PER_ROW * n + BYTES_PER_DISTINCT_ROW * distinct + BYTES_PER_COLUMN * m)


def table_text(n_hypotheses: int, n_instances: int) -> str:
    """``a 8 x 3 table: 24 entries (2.24e-08 GiB as uint8)``: a class's size in every message about it.

    Examples
    --------
    >>> table_text(131072, 17)
    'a 131,072 x 17 table: 2,228,224 entries (0.00208 GiB as uint8)'
    """
    entries = n_hypotheses * n_instances
    return f"a {n_hypotheses:,} x {n_instances:,} table: {entries:,} entries ({entries / 2**30:.3g} GiB as uint8)"


def require_class_memory(n_hypotheses: int, n_instances: int, *, parameter: str, what: str, advice: str,
                         extra: int = 0, table: bool = True) -> None:
    """Refuse, before it is built, a class that no array can hold or the memory available cannot take.

    The one check of a class's size, whatever builds it (the zoo, a class file, a
    constructor): more than :data:`MAX_ENTRIES` entries, or :func:`class_memory` (plus
    ``extra``) more than :func:`~mistakebound.foundations.memory.require_memory` allows
    (free memory, cgroup, ``ulimit -v``, ``MISTAKEBOUND_MEMORY_LIMIT``).

    Parameters
    ----------
    n_hypotheses, n_instances : int
        The shape of the class.
    parameter : str
        What makes the class this large (named first in the message).
    what : str
        The class in words (``"power_set(17)"``, ``"'H.npy'"``); the message adds its size.
    advice : str
        What the user can do instead.
    extra : int
        Bytes the caller needs besides the class (a file's own array, say).
    table : bool
        As for :func:`class_memory`.

    Raises
    ------
    InvalidArgumentError
        For more entries than an array can hold.
    InsufficientMemoryError
        For more memory than is available.

    Examples
    --------
    >>> require_class_memory(8, 3, parameter="N", what="thresholds(7)", advice="give a smaller N")
    >>> require_class_memory(10**13, 0, parameter="path", what="'H.npy'",
    ...                      advice="expected a smaller file")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mistakebound.foundations.errors.InsufficientMemoryError: path: 'H.npy', a 10,000,000,000,000 x 0 table: 0 entries (0 GiB as uint8) with the arrays and bitsets every class builds per row and column, needs about ...; expected a smaller file
    """
    size = table_text(n_hypotheses, n_instances)
    if n_hypotheses * n_instances > MAX_ENTRIES:
        raise InvalidArgumentError(
            f"{parameter}: {what} is too large; it would need {size}, more than an array can hold on this "
            f"machine ({MAX_ENTRIES:,} entries); {advice}"
        )
    snapshot = _SIZES_ONLY.get()  # inside sizes_only(): the memory available as the block began
    require_memory(class_memory(n_hypotheses, n_instances, table=table) + extra, parameter=parameter,
                   what=f"{what}, {size} with the arrays and bitsets every class builds per row and column,",
                   advice=advice, **({} if snapshot is None else {"available": snapshot[0]}))
    if snapshot is not None:
        raise SizeChecked(what)


class SizeChecked(BaseException):
    """Raised by :func:`require_class_memory` inside :func:`sizes_only` once a class's size passed: nothing is built.

    A ``BaseException``, so that no ``except Exception`` between the check and the caller
    of :func:`sizes_only` takes it for an error.
    """


#: Inside :func:`sizes_only`: ``(the memory available as the block began,)``; else None.
_SIZES_ONLY: contextvars.ContextVar[tuple | None] = contextvars.ContextVar("mistakebound_sizes_only", default=None)


@contextlib.contextmanager
def sizes_only() -> Iterator[None]:
    """Within the block, building a class stops at its size check: :class:`SizeChecked` when the size passed.

    For validating many class specs without building them (a sweep's configuration with
    sizes up to 20,000): the spec is parsed, its arguments checked and its size checked
    against the memory available as the block began (:func:`require_class_memory`, the
    one check of a class's size; read once, so that 20,000 checks cost milliseconds, not
    seconds), and nothing is allocated.  A setting that has no table (a space) is built
    as usual, which costs nothing.

    Yields
    ------
    None
        Control, once, to the ``with`` block.

    Examples
    --------
    >>> from mistakebound.game.classes import thresholds
    >>> with sizes_only():
    ...     try:
    ...         thresholds(20_000)
    ...     except SizeChecked as checked:
    ...         print("checked, nothing built:", checked)
    checked, nothing built: thresholds(20000)
    """
    from mistakebound.foundations.memory import available_memory

    token = _SIZES_ONLY.set((available_memory(),))
    try:
        yield
    finally:
        _SIZES_ONLY.reset(token)


def first_bad_entry(arr: np.ndarray, labels: int = 2) -> tuple[int, int] | None:
    """The (row, column) of the first entry of the 2-D ``arr`` that is not a label ``0..labels-1``, or None.

    Vectorised and without a copy when every entry is a label in an integer or boolean
    array (a minimum and a maximum); the entries are compared one by one only otherwise.

    Examples
    --------
    >>> first_bad_entry(np.array([[0, 1], [1, 1]], dtype=np.uint8)) is None
    True
    >>> first_bad_entry(np.array([[0, 1.0], [0.5, 1]]))
    (1, 0)
    >>> first_bad_entry(np.array([[0, 2], [3, 1]]), labels=3)
    (1, 0)
    """
    if arr.size == 0 or arr.dtype.kind == "b":
        return None
    if arr.dtype.kind in "iu" and arr.max() <= labels - 1 and (arr.dtype.kind == "u" or arr.min() >= 0):
        return None
    bad = ~np.isin(arr, np.arange(labels)) if labels > 2 else ~((arr == 0) | (arr == 1))
    if not bad.any():
        return None
    i, j = np.argwhere(bad)[0]
    return int(i), int(j)


def _check_labels(labels: Any) -> int:
    """``labels`` (the number of labels of a class) as an int, or the refusal naming it."""
    if isinstance(labels, (bool, np.bool_)) or not isinstance(labels, numbers.Integral) or not 2 <= labels <= 256:
        raise InvalidClassError(f"labels: expected the number of labels, an integer from 2 to 256, got {labels!r}")
    return int(labels)


def _validate_matrix(matrix: Any, labels: int = 2) -> np.ndarray:
    """Turn ``matrix`` into a read-only 2-D uint8 array of labels ``0..labels-1``, or raise.

    A sealed matrix (:func:`_is_sealed`, C-contiguous) is checked and kept as it is, with
    no copy; anything else is checked and copied into a sealed array.  Either way the
    shape is checked against :func:`require_class_memory` when the class is not small
    (:data:`SMALL_CLASS_BYTES`).
    """
    if isinstance(matrix, HypothesisClass):
        return matrix.matrix
    sealed = _is_sealed(matrix) and matrix.flags.c_contiguous
    try:
        arr = matrix if sealed else np.asarray(matrix)
    except (ValueError, TypeError) as exc:
        raise InvalidClassError(
            f"matrix: expected a rectangular 2-D array of 0/1, got a ragged or non-numeric input ({exc})"
        ) from None
    if arr.dtype == object or arr.dtype.kind not in "biuf":
        raise InvalidClassError(
            f"matrix: expected a 2-D array of 0/1 numbers, got an array of dtype {arr.dtype}"
        )
    if arr.ndim != 2:
        raise InvalidClassError(f"matrix: expected a 2-D array (hypotheses x instances), got {arr.ndim}-D shape {arr.shape}")
    if arr.shape[0] == 0:
        raise InvalidClassError("matrix: expected at least one hypothesis (row), got 0 rows")
    n, m = arr.shape
    if class_memory(n, m, table=not sealed) > SMALL_CLASS_BYTES:
        require_class_memory(n, m, parameter="matrix", what="the class", table=not sealed,
                             advice="expected a smaller class")
    bad = first_bad_entry(arr, labels)
    if bad is not None:
        i, j = bad
        words = label_words(tuple(range(labels)))
        advice = "; a class of more labels says how many (labels=k)" if labels == 2 else f" (labels={labels})"
        raise InvalidClassError(f"matrix: row {i + 1}, column {j + 1}: {arr[i, j].item()!r} is not {words}; expected "
                                f"every entry to be {words} ({COUNTED_FROM_1}: matrix[{i}, {j}]){advice}")
    return arr if sealed else _sealed(np.ascontiguousarray(arr, dtype=np.uint8))


def _is_sealed(a: Any) -> bool:
    """Whether ``a`` is a read-only uint8 2-D array whose memory belongs to an immutable ``bytes``.

    Sealed is not valid: :func:`_validate_matrix` still checks the entries and the shape
    of a sealed array (without copying it).
    """
    if not isinstance(a, np.ndarray) or a.dtype != np.uint8 or a.ndim != 2 or a.flags.writeable:
        return False
    base = a.base
    while isinstance(base, np.ndarray):
        base = base.base
    return isinstance(base, bytes)


def _sealed(a: np.ndarray) -> np.ndarray:
    """A read-only copy of the C-contiguous ``a`` over an immutable ``bytes``: numpy refuses to
    make it (or any view of it) writable, since its memory belongs to an object that cannot
    be written."""
    sealed = np.frombuffer(a.tobytes(), dtype=np.uint8).reshape(a.shape)
    assert not sealed.flags.writeable
    return sealed


def _names_field(names: Any) -> tuple | None:
    """The converter of :attr:`HypothesisClass.names`: None, or a tuple of ``str`` (each name ``str()``-ed)."""
    if names is None:
        return None
    if isinstance(names, (str, bytes)) or not isinstance(names, Iterable):
        raise InvalidClassError(
            f"names: expected a sequence of strings, one per row, got {type(names).__name__} {names!r}"
        )
    if type(names) is tuple and set(map(type, names)) <= {str}:  # already what the class keeps: checked in C
        return names
    return tuple(str(n) for n in names)


def _name_field(name: Any) -> str | None:
    """The converter of :attr:`HypothesisClass.name`: None or a ``str``, else raise."""
    if name is not None and not isinstance(name, str):
        raise InvalidClassError(f"name: expected a string or None, got {name!r} of type {type(name).__name__}")
    return name


def _python_scalar(x: Any) -> Any:
    """numpy scalars and arrays become plain Python values (tuples for arrays)."""
    if isinstance(x, np.ndarray):
        return tuple(_python_scalar(v) for v in x.tolist()) if x.ndim else x.item()
    if isinstance(x, np.generic):
        return x.item()
    if isinstance(x, list):
        return tuple(_python_scalar(v) for v in x)
    return x


def _as_bit(v: Any) -> int | None:
    """``v`` as 0 or 1 when it is a bool or a real number equal to 0 or 1, else None."""
    if isinstance(v, (bool, np.bool_)):
        return int(v)
    if not isinstance(v, numbers.Number) or (isinstance(v, numbers.Complex) and not isinstance(v, numbers.Real)):
        return None  # arrays, strings, None, complex numbers
    try:
        if v == 0:
            return 0
        if v == 1:
            return 1
    except (ArithmeticError, TypeError, ValueError):  # e.g. Decimal('sNaN')
        return None
    return None  # NaN and every other number


def _validate_domain(domain: Any, n_columns: int | None = None) -> tuple:
    if isinstance(domain, (str, bytes)):
        raise InvalidClassError(f"domain: expected a sequence of instances, got the string {domain!r}")
    try:
        items = tuple(_python_scalar(x) for x in domain)
    except TypeError:
        raise InvalidClassError(f"domain: expected an iterable of instances, got {type(domain).__name__}") from None
    except RecursionError:
        raise InvalidClassError("domain: an instance is nested too deeply (lists within lists)") from None
    if n_columns is not None and len(items) != n_columns:
        raise InvalidClassError(
            f"domain: has {len(items)} instances but the matrix has {n_columns} columns; they must match"
        )
    seen: dict[Hashable, int] = {}
    for j, x in enumerate(items):
        try:
            if x in seen:
                raise InvalidClassError(
                    f"domain: instance {x!r} appears twice (positions {seen[x]} and {j}); instances must be distinct"
                )
        except TypeError:
            raise InvalidClassError(f"domain: instance {x!r} at position {j} is not hashable") from None
        except RecursionError:
            raise InvalidClassError(f"domain: the instance at position {j} is nested too deeply to hash") from None
        seen[x] = j
    return items


@frozen(eq=False, repr=False)
class HypothesisClass(Setting):
    """An immutable finite hypothesis class over a finite domain.

    Build one with :meth:`from_matrix` or :meth:`from_functions`, or take one from
    :mod:`mistakebound.game.classes`.  Every way of building one (those, :meth:`restrict`,
    unpickling, and this constructor called directly) checks what :meth:`from_matrix`
    documents; a matrix the class already owns (read-only ``uint8`` over a ``bytes``) is
    checked without a copy.

    Parameters
    ----------
    domain : iterable of hashable
        The instances, distinct and hashable, one per column; ``domain[j]`` labels column
        ``j``.  Kept as a tuple (numpy scalars as Python values).
    matrix : array_like
        The 0/1 table of shape ``(n_hypotheses, n_instances)``; kept as a read-only
        ``uint8`` array owned by the class through an immutable buffer (it cannot be made
        writable).
    names : sequence of str or None
        Optional names of the hypotheses, one per row (kept as a tuple of ``str``).
    name : str or None
        Optional name of the class itself, e.g. ``"thresholds(8)"``.
    n_labels : int
        The number of labels ``k`` (default 2, the textbook's 0/1 classes): every entry of
        the table is one of ``0..k-1``, and :attr:`labels` is ``(0, ..., k-1)``.  Searches
        and players written for two labels refuse a class of more
        (:func:`require_binary`); :func:`~mistakebound.theory.game_values.game_value`
        and the multiclass learners take any ``k``.

    Raises
    ------
    InvalidClassError
        As :meth:`from_matrix`; the message names the parameter.
    InsufficientMemoryError
        As :meth:`from_matrix`.

    Examples
    --------
    >>> HypothesisClass(domain=("a",), matrix=[[0, 1]])
    Traceback (most recent call last):
    ...
    mistakebound.foundations.errors.InvalidClassError: domain: has 1 instances but the matrix has 2 columns; they must match
    >>> HypothesisClass(domain=("a", "b"), matrix=[[0, 2], [1, 1]], n_labels=3).labels
    (0, 1, 2)
    """

    domain: tuple
    matrix: np.ndarray = field(repr=False)
    names: tuple | None = field(default=None, repr=False, converter=_names_field)
    name: str | None = field(default=None, converter=_name_field)
    n_labels: int = field(default=2, kw_only=True, converter=_check_labels)

    def __attrs_post_init__(self) -> None:
        # every constructor comes here (from_matrix, restrict, unpickling, a direct call): the
        # table is checked against the number of labels, the domain against the table it
        # labels, and the names against its rows
        object.__setattr__(self, "matrix", _validate_matrix(self.matrix, self.n_labels))
        object.__setattr__(self, "domain", _validate_domain(self.domain, self.matrix.shape[1]))
        if self.names is not None and len(self.names) != self.matrix.shape[0]:
            raise InvalidClassError(
                f"names: got {len(self.names)} names for {self.matrix.shape[0]} hypotheses; give one name per row"
            )

    # ----------------------------------------------------------- constructors
    @classmethod
    def from_matrix(
        cls,
        matrix: Any,
        domain: Iterable[Hashable] | None = None,
        names: Sequence[str] | None = None,
        *,
        name: str | None = None,
        labels: int = 2,
    ) -> HypothesisClass:
        """Build a class from a matrix of labels (rows are hypotheses, columns instances).

        Parameters
        ----------
        matrix : array_like
            Rectangular 2-D array of 0/1 (bool, int or float holding only 0 and 1), or of
            labels ``0..labels-1``.
        domain : iterable of hashable, optional
            One distinct instance per column; default ``0, 1, ..., n_columns - 1``.
        names : sequence of str, optional
            One name per row.
        name : str, optional
            A name for the class.
        labels : int
            The number of labels ``k``, 2 to 256 (default 2).

        Raises
        ------
        InvalidClassError
            For ragged, non-2-D, empty input or an entry that is no label, a domain whose length does not
            match the number of columns, duplicate or unhashable instances, or names
            whose number does not match the number of rows.
        InsufficientMemoryError
            For a shape whose class the memory cannot take, before it is built
            (:func:`require_class_memory`; a class without instances still costs its rows).

        Examples
        --------
        >>> H = HypothesisClass.from_matrix([[1, 0, 1]])
        >>> H.domain
        (0, 1, 2)
        >>> HypothesisClass.from_matrix([[0, 3]], labels=3)
        Traceback (most recent call last):
        ...
        mistakebound.foundations.errors.InvalidClassError: matrix: row 1, column 2: 3 is not 0, 1 or 2; expected every entry to be 0, 1 or 2 (rows and columns counted from 1: matrix[0, 1]) (labels=3)
        """
        labels = _check_labels(labels)
        arr = _validate_matrix(matrix, labels)  # sealed: the constructor checks it again without a copy
        return cls(domain=tuple(range(arr.shape[1])) if domain is None else domain, matrix=arr, names=names,
                   name=name, n_labels=labels)

    @classmethod
    def from_functions(
        cls,
        domain: Iterable[Hashable],
        functions: Iterable[Callable[[Any], Any]],
        names: Sequence[str] | None = None,
        *,
        name: str | None = None,
    ) -> HypothesisClass:
        """Build a class by evaluating each function on each instance of ``domain``.

        Each function must return 0/1 (or ``False``/``True``) on every instance.

        Examples
        --------
        >>> H = HypothesisClass.from_functions([1, 2, 3], [lambda x: x >= 2])
        >>> H.matrix.tolist()
        [[0, 1, 1]]
        """
        dom = _validate_domain(domain)
        if isinstance(functions, (str, bytes)) or not isinstance(functions, Iterable):
            raise InvalidClassError(
                f"functions: expected an iterable of callables, got {type(functions).__name__}"
            )
        funcs = list(functions)
        if not funcs:
            raise InvalidClassError("functions: expected at least one hypothesis, got none")
        for i, f in enumerate(funcs):
            if not callable(f):
                raise InvalidClassError(f"functions: hypothesis {i} is {f!r}, which is not callable")
        rows = []
        for i, f in enumerate(funcs):
            row = []
            for x in dom:
                try:
                    v = f(x)
                except Exception as exc:  # noqa: BLE001 - the user's function failed; say where
                    raise InvalidClassError(
                        f"functions: hypothesis {i} raised {type(exc).__name__}: {exc} on instance {x!r}"
                    ) from exc
                bit = _as_bit(v)
                if bit is None:
                    raise InvalidClassError(
                        f"functions: hypothesis {i} returned {v!r} on instance {x!r}; expected 0 or 1"
                    )
                row.append(bit)
            rows.append(row)
        matrix = np.array(rows, dtype=np.uint8).reshape(len(funcs), len(dom))
        return cls.from_matrix(matrix, dom, names, name=name)

    # ------------------------------------------------------------- basic view
    @property
    def n_hypotheses(self) -> int:
        """Number of hypotheses (rows), duplicates included."""
        return int(self.matrix.shape[0])

    @property
    def n_instances(self) -> int:
        """Number of instances in the domain (columns)."""
        return int(self.matrix.shape[1])

    def __len__(self) -> int:
        return self.n_hypotheses

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HypothesisClass):
            return NotImplemented
        return (
            self.domain == other.domain
            and self.names == other.names
            and self.n_labels == other.n_labels
            and self.matrix.shape == other.matrix.shape
            and bool(np.array_equal(self.matrix, other.matrix))
        )

    def __copy__(self) -> HypothesisClass:
        return self  # immutable: copies would only cost memory

    def __reduce__(self) -> tuple:
        # pickled as its bytes, so that the class rebuilt (in a worker process, say) owns
        # its matrix through an immutable buffer again
        return _rebuild, (self.domain, self.matrix.tobytes(), self.matrix.shape, self.names, self.name, self.n_labels)

    def __deepcopy__(self, memo: dict) -> HypothesisClass:
        return self

    def __hash__(self) -> int:
        return hash((self.domain, self.names, self.n_labels, self.matrix.shape, self.matrix.tobytes()))

    def __repr__(self) -> str:
        label = f"{self.name!r}, " if self.name else ""
        return f"HypothesisClass({label}{self.n_hypotheses} hypotheses x {self.n_instances} instances)"

    def _repr_html_(self) -> str:
        """The sizes and the top-left corner of the matrix, named rows and columns (for notebooks).

        At most :data:`~mistakebound.foundations.html_tables.PREVIEW_ROWS` hypotheses and
        :data:`~mistakebound.foundations.html_tables.PREVIEW_COLUMNS` instances are shown, the
        others counted; nothing is computed (no dimension, no search), whatever the size.
        """
        from mistakebound.foundations import html_tables as ht

        rows, columns = min(self.n_hypotheses, ht.PREVIEW_ROWS), min(self.n_instances, ht.PREVIEW_COLUMNS)
        corner = self.matrix[:rows, :columns].tolist()
        return ht.panel(
            f"HypothesisClass {self.describe()}", [("hypotheses", self.n_hypotheses), ("instances", self.n_instances)],
            ht.table(self.domain[:columns], corner, total=self.n_hypotheses, what="hypotheses",
                       row_names=[self.hypothesis_name(i) for i in range(rows)],
                       more_columns=self.n_instances - columns, what_columns="instances"),
        )

    def describe(self) -> str:
        """A short human-readable name, on one line: the class name (control characters escaped) or its shape.

        Examples
        --------
        >>> print(HypothesisClass.from_matrix([[0]], name="x\\nLdim = 99").describe())
        x\\nLdim = 99
        >>> HypothesisClass.from_matrix([[0, 1]]).describe()
        'class(1x2)'
        """
        return printable(self.name) if self.name else f"class({self.n_hypotheses}x{self.n_instances})"

    # ------------------------------------------------------- the Setting protocol
    finite = True  # the referee tracks the version space exactly
    hindsight = True  # the best hypothesis over any rounds: the fewest mistakes of a row

    @property
    def labels(self) -> tuple[int, ...]:
        """The labels a move may carry: ``(0, 1, ..., n_labels - 1)`` (the Setting protocol)."""
        return LABELS if self.n_labels == 2 else tuple(range(self.n_labels))

    def hindsight_curve(self, xs: Sequence, ys: Sequence[int]) -> np.ndarray:
        """The fewest mistakes of a hypothesis over the first ``t`` rounds, ``t = 0, ..., len(ys)``
        (the :class:`~mistakebound.game.setting.Setting` protocol).

        Examples
        --------
        >>> H = HypothesisClass.from_matrix([[0], [1]])
        >>> H.hindsight_curve([0, 0, 0], [1, 0, 1]).tolist()  # each constant errs in turn
        [0.0, 0.0, 1.0, 1.0]
        """
        M = self.matrix
        wrong = np.zeros(M.shape[0], dtype=np.int64)
        best = [0]
        for x, y in zip(xs, ys):
            wrong += M[:, self.index_of(x)] != y
            best.append(int(wrong.min()))
        return np.asarray(best, dtype=float)

    def referee(self, realizable: bool, *, totals: bool = False, noise: int = 0) -> Any:
        """A fresh referee for one game on this class: a :class:`~mistakebound.game.version_space.TableReferee`
        (the :class:`~mistakebound.game.setting.Setting` protocol), or with ``noise`` mistakes allowed to the best
        hypothesis or more than two labels a :class:`~mistakebound.game.version_space.BudgetReferee`.

        Examples
        --------
        >>> H = HypothesisClass.from_matrix([[0, 1], [1, 1]], domain=["a", "b"])
        >>> r = H.referee(realizable=True)
        >>> r.instance("a"), r.round_error(1, "b", 0)
        (('a', 'a'), "label 0 for instance 'b' is given by no hypothesis consistent with the history")
        """
        from mistakebound.game.version_space import BudgetReferee, TableReferee

        if noise or self.n_labels != 2:
            return BudgetReferee(self, realizable, totals=totals, noise=noise)
        return TableReferee(self, realizable, totals=totals)

    @functools.cached_property
    def _index(self) -> types.MappingProxyType:
        return types.MappingProxyType({x: j for j, x in enumerate(self.domain)})  # read-only, like the class

    def index_of(self, x: Hashable) -> int:
        """Column index of instance ``x``.

        Raises
        ------
        KeyError
            If ``x`` is not in the domain (or not hashable).
        """
        try:
            return self._index[x]
        except TypeError:
            raise KeyError(x) from None

    def __contains__(self, x: object) -> bool:
        try:
            return x in self._index
        except TypeError:
            return False

    def column(self, x: Hashable) -> np.ndarray:
        """The labels all hypotheses give to instance ``x`` (read-only view)."""
        return self.matrix[:, self.index_of(x)]

    def label(self, hypothesis: int, x: Hashable) -> int:
        """The label hypothesis number ``hypothesis`` gives to instance ``x``."""
        return int(self.matrix[hypothesis, self.index_of(x)])

    def hypothesis_name(self, i: int) -> str:
        """The name of hypothesis ``i`` on one line, control characters escaped (``"h{i}"`` when the class has
        no names; :attr:`names` keeps them as given).

        Examples
        --------
        >>> H = HypothesisClass.from_matrix([[0], [1]], names=["f\\tg", "h"])
        >>> print(H.hypothesis_name(0))
        f\\tg
        >>> H.hypothesis_name(1)
        'h'
        """
        return printable(self.names[i]) if self.names is not None else f"h{i}"

    # ----------------------------------------------------------- bitset view
    @functools.cached_property
    def column_masks(self) -> tuple[int, ...]:
        """Per instance, the bitset of hypotheses labelling it 1 (see :mod:`mistakebound.foundations.bitset`).

        A class of two labels only: what every binary search and player reads, so that none of them
        can read a class of more labels as a 0/1 table (:func:`require_binary`).
        """
        require_binary(self, what="the bitsets of label 1 (column_masks)")
        return tuple(columns_to_masks(self.matrix))

    def label_masks(self, j: int) -> tuple[int, ...]:
        """Per label ``y``, the bitset of hypotheses giving column ``j`` the label ``y`` (any number of labels).

        Examples
        --------
        >>> H = HypothesisClass.from_matrix([[0], [2], [2]], labels=3)
        >>> [bin(b) for b in H.label_masks(0)]
        ['0b1', '0b0', '0b110']
        """
        column = self.matrix[:, j]
        return tuple(column_to_mask((column == y).astype(np.uint8)) for y in range(self.n_labels))

    @property
    def full_mask(self) -> int:
        """The bitset of every hypothesis."""
        return full_mask(self.n_hypotheses)

    def mask_of_rows(self, rows: Iterable[int]) -> int:
        """The bitset of the given row indices."""
        col = np.zeros(self.n_hypotheses, dtype=np.uint8)
        col[np.asarray(list(rows), dtype=np.int64)] = 1
        return column_to_mask(col)

    # ------------------------------------------------------------ derived classes
    def restrict(self, rows: Iterable[int] | int) -> HypothesisClass:
        """The sub-class made of the given rows (a sequence of indices or a bitset).

        Examples
        --------
        >>> H = HypothesisClass.from_matrix([[0, 0], [1, 0], [1, 1]])
        >>> H.restrict([0, 2]).matrix.tolist()
        [[0, 0], [1, 1]]
        """
        idx = self._row_indices(rows)
        if idx.size == 0:
            raise InvalidClassError("rows: expected at least one hypothesis to keep, got none")
        if idx.min() < 0 or idx.max() >= self.n_hypotheses:
            raise InvalidClassError(
                f"rows: indices must lie in [0, {self.n_hypotheses - 1}], got {idx.min()}..{idx.max()}"
            )
        names = None if self.names is None else tuple(self.names[i] for i in idx)
        return HypothesisClass(domain=self.domain, matrix=_sealed(self.matrix[idx]), names=names,
                               n_labels=self.n_labels)

    def _row_indices(self, rows: Any) -> np.ndarray:
        """Row indices from a bitset (a non-negative int) or an iterable of integers, or raise."""
        if isinstance(rows, (int, np.integer)) and not isinstance(rows, (bool, np.bool_)):
            rows = int(rows)
            if rows < 0:
                raise InvalidClassError(f"rows: a bitset of rows must be >= 0, got {rows}")
            if rows.bit_length() > self.n_hypotheses:
                raise InvalidClassError(
                    f"rows: the bitset sets bit {rows.bit_length() - 1}, but the class has "
                    f"{self.n_hypotheses} hypotheses (bits 0..{self.n_hypotheses - 1})"
                )
            return mask_to_indices(rows)
        if isinstance(rows, (str, bytes)) or not isinstance(rows, Iterable):
            raise InvalidClassError(
                f"rows: expected row indices or a bitset of rows, got {type(rows).__name__} {rows!r}"
            )
        items = list(rows)
        for i in items:
            if isinstance(i, (bool, np.bool_)) or not isinstance(i, numbers.Integral):
                raise InvalidClassError(f"rows: expected integer row indices, got {i!r} of type {type(i).__name__}")
            if not 0 <= i < self.n_hypotheses:
                raise InvalidClassError(f"rows: indices must lie in [0, {self.n_hypotheses - 1}], got {i}")
        return np.asarray([int(i) for i in items], dtype=np.int64)

    def distinct_rows(self) -> tuple[np.ndarray, np.ndarray]:
        """Group identical rows.

        Returns
        -------
        representatives : numpy.ndarray
            The index of the first occurrence of each distinct row, in row order.
        row_to_distinct : numpy.ndarray
            For each row, the position of its distinct row in ``representatives``.

        Examples
        --------
        >>> H = HypothesisClass.from_matrix([[0, 1], [1, 1], [0, 1]])
        >>> [a.tolist() for a in H.distinct_rows()]
        [[0, 1], [0, 1, 0]]

        The arrays are read-only, and computed once per class (the class is immutable).
        """
        return self._distinct

    @functools.cached_property
    def _distinct(self) -> tuple[np.ndarray, np.ndarray]:
        packed = np.packbits(self.matrix, axis=1) if self.n_labels == 2 else self.matrix  # bits, or the labels
        seen: dict[bytes, int] = {}
        reps: list[int] = []
        group = np.empty(self.n_hypotheses, dtype=np.int64)
        for i, row in enumerate(packed):
            key = row.tobytes()
            g = seen.get(key)
            if g is None:
                g = seen[key] = len(reps)
                reps.append(i)
            group[i] = g
        reps_array = np.asarray(reps, dtype=np.int64)
        reps_array.setflags(write=False)
        group.setflags(write=False)
        return reps_array, group


def _rebuild(domain: tuple, data: bytes, shape: tuple, names: tuple | None, name: str | None,
             n_labels: int = 2) -> HypothesisClass:
    """Unpickle a :class:`HypothesisClass` (its matrix over the pickled bytes, not copied; validated as every class is)."""
    matrix = data
    if isinstance(data, bytes):
        try:
            matrix = np.frombuffer(data, dtype=np.uint8).reshape(shape)
        except (ValueError, TypeError) as exc:
            raise InvalidClassError(f"matrix: {len(data)} bytes cannot be a table of shape {shape!r} ({exc})") from None
    return HypothesisClass(domain=domain, matrix=matrix, names=names, name=name, n_labels=n_labels)


def require_binary(H: HypothesisClass, *, parameter: str = "H", what: str) -> HypothesisClass:
    """``H`` if it has two labels; else the one refusal every search and player written for 0/1 classes gives.

    Parameters
    ----------
    what : str
        What needs two labels, named in the message.

    Examples
    --------
    >>> H = HypothesisClass.from_matrix([[0, 2]], labels=3, name="three")
    >>> require_binary(H, what="the VC dimension")
    Traceback (most recent call last):
    ...
    mistakebound.foundations.errors.NotApplicableError: H: the VC dimension needs a class of labels 0 and 1; three has 3 labels
    """
    if H.n_labels != 2:
        raise NotApplicableError(f"{parameter}: {what} needs a class of labels 0 and 1; {H.describe()} has "
                                 f"{H.n_labels} labels")
    return H


def require_class(H: Any, parameter: str = "H") -> HypothesisClass:
    """``H`` if it is a :class:`HypothesisClass`; else the one refusal every function taking a class gives.

    Examples
    --------
    >>> require_class([[0, 1]])
    Traceback (most recent call last):
    ...
    mistakebound.foundations.errors.InvalidArgumentError: H: expected a HypothesisClass, got list
    """
    if not isinstance(H, HypothesisClass):
        raise InvalidArgumentError(f"{parameter}: expected a HypothesisClass, got {type(H).__name__}")
    return H
