"""Lossless JSON (and ``.npy``) forms of transcripts and hypothesis classes, written atomically.

* :func:`transcript_to_json` / :func:`transcript_from_json` turn a
  :class:`~mistakebound.game.transcript.Transcript` into text and back with nothing lost:
  every field, every round, floats bit for bit (including ``-0.0``), ints as ints.
* :func:`class_to_json` / :func:`class_from_json` do the same for a
  :class:`~mistakebound.game.hypothesis_class.HypothesisClass` (domain, matrix, names, name);
  :func:`save_class` / :func:`load_class` write and read ``.json`` or ``.npy`` files
  (``.npy`` holds the matrix only and is read with pickles refused).
* :func:`report_to_json` / :func:`report_from_json` do the same for the
  :class:`~mistakebound.verification.selfcheck.CheckReport` of ``mistakebound check`` (``--json``).
* :func:`write_atomically` writes text or bytes to a temporary file in the same folder
  and moves it over the target in one step, so an interrupted run never leaves a
  truncated file behind (:func:`mistakebound.foundations.files.write_atomically`).

Instances (``Round.x`` and the domain of a class) may be ``int``, ``float``, ``str``,
``bool``, ``None`` and tuples, nested, of those; a tuple is written as the tagged object
``{"tuple": [...]}`` so it reads back as a tuple.  Anything else, and NaN or infinite
floats (the engine never records them), is refused with an
:class:`~mistakebound.foundations.errors.InvalidArgumentError` naming the field and the value.  The
JSON text depends only on the value: the same transcript gives the same bytes.

Examples
--------
>>> from mistakebound.game.transcript import Round, Transcript
>>> T = Transcript(rounds=(Round(t=1, x=(0, "a"), p=0.1, prediction=0, y=1),), seed=7)
>>> text = transcript_to_json(T)
>>> transcript_from_json(text) == T
True
>>> transcript_from_json(text).rounds[0].x
(0, 'a')
>>> from mistakebound import HypothesisClass
>>> H = HypothesisClass.from_matrix([[0, 1], [1, 1]], domain=("u", (1, 2)), name="tiny")
>>> class_from_json(class_to_json(H)) == H
True
"""

from __future__ import annotations

import io
import json
import math
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import numpy as np

from mistakebound.foundations.errors import InvalidArgumentError, InvalidClassError
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.foundations.files import write_atomically
from mistakebound.game.transcript import Round, Transcript

__all__ = [
    "transcript_to_json",
    "transcript_from_json",
    "class_to_json",
    "class_from_json",
    "save_class",
    "load_class",
    "read_npy_matrix",
    "report_to_json",
    "report_from_json",
    "write_atomically",
    "TRANSCRIPT_FORMAT",
    "CLASS_FORMAT",
    "REPORT_FORMAT",
    "FORMAT_VERSION",
]

#: The ``"format"`` tag of a serialised transcript.
TRANSCRIPT_FORMAT = "mistakebound.transcript"
#: The ``"format"`` tag of a serialised hypothesis class.
CLASS_FORMAT = "mistakebound.class"
#: The ``"format"`` tag of a serialised check report (:class:`~mistakebound.verification.selfcheck.CheckReport`).
REPORT_FORMAT = "mistakebound.check_report"
#: The version of every format; a file with another version is refused.
FORMAT_VERSION = 1

#: Default largest file :func:`load_class` reads (1 GiB); pass ``max_bytes`` to change it.
DEFAULT_MAX_BYTES = 2**30

_ROUND_KEYS = ("t", "x", "p", "prediction", "y")


# ------------------------------------------------------------------- scalar checks
def _type_name(value: Any) -> str:
    return type(value).__name__


def _check_float(where: str, value: float) -> float:
    if not math.isfinite(value):
        raise InvalidArgumentError(
            f"{where}: cannot serialise the non-finite float {value!r}; expected a finite number "
            "(the engine never records NaN or infinity)"
        )
    return value


def _int(where: str, value: Any) -> int:
    if type(value) is not int:
        raise InvalidArgumentError(f"{where}: expected an int, got {value!r} of type {_type_name(value)}")
    return value


def _number(where: str, value: Any) -> int | float:
    if type(value) is int:
        return value
    if type(value) is float:
        return _check_float(where, value)
    raise InvalidArgumentError(f"{where}: expected an int or a float, got {value!r} of type {_type_name(value)}")


def _str(where: str, value: Any) -> str:
    if type(value) is not str:
        raise InvalidArgumentError(f"{where}: expected a string, got {value!r} of type {_type_name(value)}")
    return value


def _bool(where: str, value: Any) -> bool:
    if type(value) is not bool:
        raise InvalidArgumentError(f"{where}: expected true or false, got {value!r} of type {_type_name(value)}")
    return value


def _optional(check: Callable[[str, Any], Any]) -> Callable[[str, Any], Any]:
    def inner(where: str, value: Any) -> Any:
        return None if value is None else check(where, value)

    return inner


def _sequence(check: Callable[[str, Any], Any]) -> tuple[Callable, Callable]:
    """(encode, decode) for a tuple whose items pass ``check``, stored as a JSON list."""

    def encode(where: str, value: Any) -> list:
        if type(value) is not tuple:
            raise InvalidArgumentError(f"{where}: expected a tuple, got {value!r} of type {_type_name(value)}")
        return [check(f"{where}[{i}]", v) for i, v in enumerate(value)]

    def decode(where: str, value: Any) -> tuple:
        if type(value) is not list:
            raise InvalidArgumentError(f"{where}: expected a JSON list, got {value!r} of type {_type_name(value)}")
        return tuple(check(f"{where}[{i}]", v) for i, v in enumerate(value))

    return encode, decode


# ------------------------------------------------------------------------ instances
#: Deepest nesting of tuples inside an instance that is written or read (JSON parsers
#: refuse deeper text, so a deeper instance could be written but not read back).
MAX_INSTANCE_DEPTH = 100


def _check_depth(where: str, depth: int) -> None:
    if depth > MAX_INSTANCE_DEPTH:
        raise InvalidArgumentError(
            f"{where}: instance nests tuples more than {MAX_INSTANCE_DEPTH} levels deep; "
            "expected at most that many"
        )


def _encode_instance(value: Any, where: str = "instance", depth: int = 0) -> Any:
    """A JSON-ready form of an instance: scalars as themselves, tuples tagged."""
    kind = type(value)
    if value is None or kind in (bool, int, str):
        return value
    if kind is float:
        return _check_float(where, value)
    if kind is tuple:
        _check_depth(where, depth + 1)
        return {"tuple": [_encode_instance(v, f"{where}[{i}]", depth + 1) for i, v in enumerate(value)]}
    raise InvalidArgumentError(
        f"{where}: cannot serialise instance {value!r} of type {kind.__module__}.{kind.__qualname__}; "
        "expected int, float, str, bool, None or a tuple of those"
    )


def _decode_instance(value: Any, where: str = "instance", depth: int = 0) -> Any:
    kind = type(value)
    if value is None or kind in (bool, int, str):
        return value
    if kind is float:
        return _check_float(where, value)
    if kind is dict:
        if set(value) != {"tuple"} or type(value["tuple"]) is not list:
            raise InvalidArgumentError(
                f"{where}: expected a scalar or {{\"tuple\": [...]}}, got the object {value!r}"
            )
        _check_depth(where, depth + 1)
        return tuple(_decode_instance(v, f"{where}[{i}]", depth + 1) for i, v in enumerate(value["tuple"]))
    raise InvalidArgumentError(
        f"{where}: expected a scalar or {{\"tuple\": [...]}}, got {value!r} of type {kind.__name__}"
    )


# ----------------------------------------------------------------------- transcript
_opt_int_tuple = tuple(_optional(f) for f in _sequence(_int))
_opt_num_tuple = tuple(_optional(f) for f in _sequence(_number))

#: Per field of Transcript (except rounds): (encode, decode).
_TRANSCRIPT_FIELDS: dict[str, tuple[Callable, Callable]] = {
    "learner": (_str, _str),
    "adversary": (_str, _str),
    "seed": (_optional(_int), _optional(_int)),
    "class_name": (_optional(_str), _optional(_str)),
    "realizable": (_bool, _bool),
    "version_space": _opt_int_tuple,
    "best_hypothesis_mistakes": (_optional(_number), _optional(_number)),
    "R": (_optional(_number), _optional(_number)),
    "gamma": (_optional(_number), _optional(_number)),
    "comparator": _opt_num_tuple,
    "target": _opt_int_tuple,
}


def _check_schema() -> None:
    known = set(_TRANSCRIPT_FIELDS) | {"rounds"}
    actual = {a.name for a in attrs.fields(Transcript)}
    if known != actual:  # pragma: no cover - guards a change of Transcript
        raise InvalidArgumentError(
            f"transcript: fields {sorted(actual ^ known)} are not known to mistakebound.interfaces.serialize; "
            "update its schema so that nothing is lost"
        )


def _dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=True, allow_nan=False, separators=(",", ":"))


def _encode_round(i: int, r: Any) -> dict:
    where = f"rounds[{i}]"
    if type(r) is not Round:
        raise InvalidArgumentError(f"{where}: expected a Round, got {r!r} of type {_type_name(r)}")
    return {
        "t": _int(f"{where}.t", r.t),
        "x": _encode_instance(r.x, f"{where}.x"),
        "p": _number(f"{where}.p", r.p),
        "prediction": _int(f"{where}.prediction", r.prediction),
        "y": _int(f"{where}.y", r.y),
    }


def transcript_to_json(T: Transcript) -> str:
    """The JSON text of transcript ``T``, from which :func:`transcript_from_json` rebuilds it exactly.

    Parameters
    ----------
    T : Transcript

    Returns
    -------
    str
        Compact JSON; the same transcript always gives the same text.

    Raises
    ------
    InvalidArgumentError
        If ``T`` is not a Transcript, an instance is not serialisable (see the module
        docstring), or a field holds NaN, infinity or a value of the wrong type; the
        message names the field (e.g. ``rounds[3].p``).

    Examples
    --------
    >>> from mistakebound.game.transcript import Round, Transcript
    >>> transcript_to_json(Transcript(rounds=(Round(1, 2, 1.0, 1, 1),), seed=0))[:60]
    '{"format":"mistakebound.transcript","version":1,"learner":""'
    """
    if not isinstance(T, Transcript):
        raise InvalidArgumentError(f"T: expected a Transcript, got {T!r} of type {_type_name(T)}")
    _check_schema()
    out: dict[str, Any] = {"format": TRANSCRIPT_FORMAT, "version": FORMAT_VERSION}
    for name, (encode, _) in _TRANSCRIPT_FIELDS.items():
        out[name] = encode(name, getattr(T, name))
    out["rounds"] = [_encode_round(i, r) for i, r in enumerate(T.rounds)]
    return _dumps(out)


def _parse(text: Any, what: str, fmt: str) -> dict:
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InvalidArgumentError(f"text: {what} JSON is not valid UTF-8 ({exc})") from None
    if not isinstance(text, str):
        raise InvalidArgumentError(f"text: expected the JSON text of a {what}, got {_type_name(text)}")

    def refuse_constant(name: str) -> Any:
        raise InvalidArgumentError(f"text: {what} JSON contains {name}; expected finite numbers only")

    try:
        data = json.loads(text, parse_constant=refuse_constant)
    except json.JSONDecodeError as exc:
        raise InvalidArgumentError(f"text: malformed {what} JSON: {exc}") from None
    except RecursionError:
        raise InvalidArgumentError(f"text: {what} JSON is nested too deeply") from None
    if type(data) is not dict:
        raise InvalidArgumentError(f"text: expected a JSON object holding a {what}, got {_type_name(data)}")
    if data.get("format") != fmt:
        raise InvalidArgumentError(f"format: expected {fmt!r}, got {data.get('format')!r}")
    if data.get("version") != FORMAT_VERSION:
        raise InvalidArgumentError(f"version: expected {FORMAT_VERSION}, got {data.get('version')!r}")
    return data


def _check_keys(where: str, data: dict, expected: list | tuple) -> None:
    missing = [k for k in expected if k not in data]
    if missing:
        raise InvalidArgumentError(f"{where}: missing field(s) {', '.join(missing)}")
    extra = sorted(set(data) - set(expected))
    if extra:
        raise InvalidArgumentError(f"{where}: unknown field(s) {', '.join(map(str, extra))}")


def transcript_from_json(text: str | bytes) -> Transcript:
    """Rebuild the transcript written by :func:`transcript_to_json`.

    Raises
    ------
    InvalidArgumentError
        For malformed JSON, another format or version, a missing or unknown field, or a
        field of the wrong type; the message names the field.

    Examples
    --------
    >>> transcript_from_json('{"format": "mistakebound.transcript", "version": 1}')
    Traceback (most recent call last):
    ...
    mistakebound.foundations.errors.InvalidArgumentError: transcript: missing field(s) learner, adversary, seed, class_name, realizable, version_space, best_hypothesis_mistakes, R, gamma, comparator, target, rounds
    """
    data = _parse(text, "transcript", TRANSCRIPT_FORMAT)
    _check_keys("transcript", data, ["format", "version", *_TRANSCRIPT_FIELDS, "rounds"])
    kwargs = {name: decode(name, data[name]) for name, (_, decode) in _TRANSCRIPT_FIELDS.items()}
    if type(data["rounds"]) is not list:
        raise InvalidArgumentError(f"rounds: expected a JSON list, got {_type_name(data['rounds'])}")
    rounds = []
    for i, r in enumerate(data["rounds"]):
        where = f"rounds[{i}]"
        if type(r) is not dict:
            raise InvalidArgumentError(f"{where}: expected a JSON object, got {r!r}")
        _check_keys(where, r, _ROUND_KEYS)
        rounds.append(
            Round(
                t=_int(f"{where}.t", r["t"]),
                x=_decode_instance(r["x"], f"{where}.x"),
                p=_number(f"{where}.p", r["p"]),
                prediction=_int(f"{where}.prediction", r["prediction"]),
                y=_int(f"{where}.y", r["y"]),
            )
        )
    return Transcript(rounds=tuple(rounds), **kwargs)


# --------------------------------------------------------------------------- classes
def class_to_json(H: HypothesisClass) -> str:
    """The JSON text of class ``H``: its domain, matrix (rows of 0/1), names and name.

    Raises
    ------
    InvalidArgumentError
        If ``H`` is not a HypothesisClass or an instance of its domain is not serialisable.

    Examples
    --------
    >>> from mistakebound import HypothesisClass
    >>> class_to_json(HypothesisClass.from_matrix([[1, 0]]))
    '{"format":"mistakebound.class","version":1,"name":null,"names":null,"domain":[0,1],"matrix":[[1,0]]}'
    """
    if not isinstance(H, HypothesisClass):
        raise InvalidArgumentError(f"H: expected a HypothesisClass, got {H!r} of type {_type_name(H)}")
    out = {
        "format": CLASS_FORMAT,
        "version": FORMAT_VERSION,
        "name": _optional(_str)("name", H.name),
        "names": None if H.names is None else [_str(f"names[{i}]", n) for i, n in enumerate(H.names)],
        "domain": [_encode_instance(x, f"domain[{j}]") for j, x in enumerate(H.domain)],
        "matrix": H.matrix.astype(int).tolist(),
    }
    return _dumps(out)


def class_from_json(text: str | bytes) -> HypothesisClass:
    """Rebuild the class written by :func:`class_to_json` (validated like ``from_matrix``).

    Raises
    ------
    InvalidArgumentError
        For malformed JSON, another format or version, missing or unknown fields, values
        of the wrong type; :class:`~mistakebound.foundations.errors.InvalidClassError` (a subclass)
        for a matrix that is not 0/1, ragged, empty or does not match the domain.
    """
    data = _parse(text, "class", CLASS_FORMAT)
    _check_keys("class", data, ["format", "version", "name", "names", "domain", "matrix"])
    name = _optional(_str)("name", data["name"])
    names = _optional(_sequence(_str)[1])("names", data["names"])
    if type(data["domain"]) is not list:
        raise InvalidArgumentError(f"domain: expected a JSON list, got {_type_name(data['domain'])}")
    domain = tuple(_decode_instance(x, f"domain[{j}]") for j, x in enumerate(data["domain"]))
    matrix = data["matrix"]
    if type(matrix) is not list or not all(type(row) is list for row in matrix):
        raise InvalidClassError("matrix: expected a JSON list of rows, each a list of 0/1")
    for i, row in enumerate(matrix):
        if len(row) != len(domain):
            raise InvalidClassError(
                f"matrix: row {i} has {len(row)} entries but the domain has {len(domain)} instances"
            )
        for j, v in enumerate(row):
            if type(v) is not int or v not in (0, 1):
                raise InvalidClassError(f"matrix: entries must be 0 or 1, found {v!r} at row {i}, column {j}")
    arr = np.array(matrix, dtype=np.uint8).reshape(len(matrix), len(domain))
    return HypothesisClass.from_matrix(arr, domain, names, name=name)


# ---------------------------------------------------------------------- check reports
_REPORT_TEXT_FIELDS = ("learner", "adversary", "class_name", "forced_by", "verdict", "message", "measure")
_REPORT_NUMBER_FIELDS = ("mistakes", "bound", "forced")
_NON_FINITE = {"inf": math.inf, "-inf": -math.inf, "nan": math.nan}


def _encode_report_number(where: str, value: Any) -> Any:
    """None, an int, a finite float, or ``{"float": "inf" | "-inf" | "nan"}``."""
    if isinstance(value, np.generic):
        value = value.item()
    if value is None or type(value) is int:
        return value
    if type(value) is float:
        if math.isfinite(value):
            return value
        return {"float": "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")}
    raise InvalidArgumentError(f"{where}: expected None, an int or a float, got {value!r} of type {_type_name(value)}")


def _decode_report_number(where: str, value: Any) -> Any:
    if value is None or type(value) is int:
        return value
    if type(value) is float:
        return _check_float(where, value)
    if type(value) is dict and set(value) == {"float"} and value["float"] in _NON_FINITE:
        return _NON_FINITE[value["float"]]
    raise InvalidArgumentError(
        f"{where}: expected null, a number or {{\"float\": \"inf\" | \"-inf\" | \"nan\"}}, got {value!r}"
    )


def report_to_json(report: Any) -> str:
    """The JSON text of a check report, from which :func:`report_from_json` rebuilds it exactly.

    Every row keeps every field: texts as they are (any unicode), numbers as ints or
    floats bit for bit (``-0.0`` too), None as ``null``, and infinities and NaN as the
    tagged objects ``{"float": "inf"}``, ``{"float": "-inf"}`` and ``{"float": "nan"}``.
    The verdict ``ok`` and the one-line ``summary`` are written too, for readers of the
    file; they are checked against the rows when it is read back.

    Raises
    ------
    InvalidArgumentError
        If ``report`` is not a :class:`~mistakebound.verification.selfcheck.CheckReport`, or a row holds
        a value of a type the format does not know (the message names the field).

    Examples
    --------
    >>> from mistakebound.verification.selfcheck import CheckReport, CheckRow
    >>> report = CheckReport(rows=(CheckRow("SOA", "Walker", "thresholds(7)", mistakes=3, bound=3),))
    >>> report_from_json(report_to_json(report)) == report
    True
    >>> report_to_json(CheckReport(rows=()))
    '{"format":"mistakebound.check_report","version":1,"ok":true,"summary":"0 games, all bounds hold","rows":[]}'
    """
    from mistakebound.verification.selfcheck import CheckReport, CheckRow

    if not isinstance(report, CheckReport):
        raise InvalidArgumentError(f"report: expected a CheckReport, got {report!r} of type {_type_name(report)}")
    rows = []
    for i, row in enumerate(report.rows):
        where = f"rows[{i}]"
        if not isinstance(row, CheckRow):
            raise InvalidArgumentError(f"{where}: expected a CheckRow, got {row!r} of type {_type_name(row)}")
        out: dict[str, Any] = {}
        for a in attrs.fields(CheckRow):
            value = getattr(row, a.name)
            if a.name in _REPORT_NUMBER_FIELDS:
                out[a.name] = _encode_report_number(f"{where}.{a.name}", value)
            else:
                out[a.name] = _str(f"{where}.{a.name}", value)
        rows.append(out)
    return _dumps({"format": REPORT_FORMAT, "version": FORMAT_VERSION, "ok": report.ok,
                   "summary": report.summary(), "rows": rows})


def report_from_json(text: str | bytes) -> Any:
    """Rebuild the check report written by :func:`report_to_json`.

    Raises
    ------
    InvalidArgumentError
        For malformed JSON, another format or version, a missing or unknown field, a
        field of the wrong type, a verdict outside ``ok``/``BROKEN``/``ERROR``, or an
        ``ok`` or ``summary`` that does not match the rows.
    """
    from mistakebound.verification.selfcheck import VERDICTS, CheckReport, CheckRow

    data = _parse(text, "check report", REPORT_FORMAT)
    _check_keys("check report", data, ["format", "version", "ok", "summary", "rows"])
    if type(data["rows"]) is not list:
        raise InvalidArgumentError(f"rows: expected a JSON list, got {_type_name(data['rows'])}")
    names = [a.name for a in attrs.fields(CheckRow)]
    rows = []
    for i, r in enumerate(data["rows"]):
        where = f"rows[{i}]"
        if type(r) is not dict:
            raise InvalidArgumentError(f"{where}: expected a JSON object, got {r!r}")
        _check_keys(where, r, names)
        kwargs = {
            name: _decode_report_number(f"{where}.{name}", r[name]) if name in _REPORT_NUMBER_FIELDS
            else _str(f"{where}.{name}", r[name])
            for name in names
        }
        if kwargs["verdict"] not in VERDICTS:
            raise InvalidArgumentError(f"{where}.verdict: expected one of {VERDICTS}, got {kwargs['verdict']!r}")
        rows.append(CheckRow(**kwargs))
    report = CheckReport(rows=tuple(rows))
    if _bool("ok", data["ok"]) != report.ok:
        raise InvalidArgumentError(f"ok: the file says {data['ok']!r} but its rows give {report.ok!r}")
    if _str("summary", data["summary"]) != report.summary():
        raise InvalidArgumentError(
            f"summary: the file says {data['summary']!r} but its rows give {report.summary()!r}"
        )
    return report


# ----------------------------------------------------------------------------- files
def _as_path(path: Any) -> Path:
    if not isinstance(path, (str, os.PathLike)):
        raise InvalidArgumentError(f"path: expected a file name (str or path), got {path!r} of type {_type_name(path)}")
    return Path(path)


def _suffix(path: Path) -> str:
    suffix = path.suffix.lower()
    if suffix not in (".json", ".npy"):
        raise InvalidArgumentError(f"path: expected a file name ending in .json or .npy, got {str(path)!r}")
    return suffix


def save_class(H: HypothesisClass, path: str | os.PathLike, *, matrix_only: bool = False) -> Path:
    """Write class ``H`` to ``path`` (``.json``: everything; ``.npy``: the matrix) atomically.

    A ``.npy`` file holds only the matrix, so it reads back with the domain
    ``0, ..., n - 1`` and no names; to avoid losing anything silently, saving a class
    with another domain, names or a name to ``.npy`` is refused unless
    ``matrix_only=True``.

    Raises
    ------
    InvalidArgumentError
        For another suffix, a missing directory, or a lossy ``.npy`` save without
        ``matrix_only``.
    """
    path = _as_path(path)
    suffix = _suffix(path)
    if not isinstance(H, HypothesisClass):
        raise InvalidArgumentError(f"H: expected a HypothesisClass, got {H!r} of type {_type_name(H)}")
    if suffix == ".json":
        return write_atomically(path, class_to_json(H))
    default_domain = H.domain == tuple(range(H.n_instances)) and all(type(x) is int for x in H.domain)
    if not matrix_only and not (default_domain and H.names is None and H.name is None):
        raise InvalidArgumentError(
            f"path: {str(path)!r} is a .npy file, which holds only the matrix, but {H!r} has a domain, "
            "names or a name that would be lost; save to .json, or pass matrix_only=True"
        )
    buffer = io.BytesIO()
    np.save(buffer, np.ascontiguousarray(H.matrix, dtype=np.uint8), allow_pickle=False)
    return write_atomically(path, buffer.getvalue())


def _check_size(path: Path, max_bytes: int | None) -> int:
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        raise InvalidArgumentError(f"path: the file {str(path)!r} does not exist") from None
    except OSError as exc:
        raise InvalidArgumentError(f"path: cannot read {str(path)!r} ({exc.strerror})") from None
    if path.is_dir():
        raise InvalidArgumentError(f"path: {str(path)!r} is a directory; expected a file")
    if size == 0:
        raise InvalidArgumentError(f"path: the file {str(path)!r} is empty")
    if max_bytes is not None and size > max_bytes:
        raise InvalidArgumentError(
            f"path: {str(path)!r} has {size} bytes, more than max_bytes = {max_bytes}; pass a larger max_bytes"
        )
    return size


def read_npy_matrix(path: str | os.PathLike, max_bytes: int | None = DEFAULT_MAX_BYTES) -> np.ndarray:
    """The 2-D numeric array in a ``.npy`` file, checked from its header before loading.

    Pickled object arrays are refused (nothing in a data file runs code), and so is a
    matrix that would need more than ``max_bytes`` of memory, before it is allocated.
    """
    path = _as_path(path)
    try:
        with open(path, "rb") as fh:
            version = np.lib.format.read_magic(fh)
            if version == (1, 0):
                shape, fortran, dtype = np.lib.format.read_array_header_1_0(fh)
            elif version == (2, 0):
                shape, fortran, dtype = np.lib.format.read_array_header_2_0(fh)
            else:
                raise ValueError(f"unsupported .npy version {version}")
    except Exception as exc:  # noqa: BLE001 - numpy's header parser raises many types (e.g. TokenError)
        raise InvalidArgumentError(
            f"path: {str(path)!r} is not a valid .npy file ({type(exc).__name__}: {exc})"
        ) from None
    if dtype.hasobject:
        raise InvalidArgumentError(
            f"path: {str(path)!r} holds a pickled object array ({dtype}); pickles are refused "
            "because loading them could run code. Save the matrix as a numeric 0/1 array"
        )
    if dtype.kind not in "biuf":
        raise InvalidArgumentError(f"path: {str(path)!r} holds an array of dtype {dtype}; expected 0/1 numbers")
    if len(shape) != 2:
        raise InvalidClassError(f"matrix: expected a 2-D array (hypotheses x instances) in {str(path)!r}, got shape {shape}")
    need = int(np.prod(shape, dtype=object)) * dtype.itemsize
    if max_bytes is not None and need > max_bytes:
        raise InvalidArgumentError(
            f"path: the matrix in {str(path)!r} of shape {shape} needs {need} bytes, more than "
            f"max_bytes = {max_bytes}; pass a larger max_bytes"
        )
    try:
        return np.load(path, allow_pickle=False)
    except (ValueError, OSError, EOFError, TypeError) as exc:
        raise InvalidArgumentError(f"path: cannot read the matrix in {str(path)!r} ({exc})") from None


def load_class(path: str | os.PathLike, *, max_bytes: int | None = DEFAULT_MAX_BYTES) -> HypothesisClass:
    """Read a class saved by :func:`save_class` (``.json``) or a 0/1 matrix (``.npy``).

    ``.npy`` files are read with ``allow_pickle=False``: nothing in a data file runs
    code.  Files larger than ``max_bytes`` (for ``.npy``: a matrix that would need more
    than ``max_bytes`` of memory) are refused before they are read; ``None`` lifts the limit.

    Raises
    ------
    InvalidArgumentError
        For a missing, empty, too large or malformed file, another suffix, or a pickled
        ``.npy``; :class:`~mistakebound.foundations.errors.InvalidClassError` for a matrix that is
        not a 2-D 0/1 array.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from mistakebound import classes
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "thresholds.json"
    >>> H = classes.thresholds(5)
    >>> load_class(save_class(H, p)) == H
    True
    """
    path = _as_path(path)
    suffix = _suffix(path)
    if max_bytes is not None and (isinstance(max_bytes, bool) or not isinstance(max_bytes, int) or max_bytes < 1):
        raise InvalidArgumentError(f"max_bytes: expected None or an integer >= 1, got {max_bytes!r}")
    _check_size(path, max_bytes if suffix == ".json" else None)
    if suffix == ".npy":
        return HypothesisClass.from_matrix(read_npy_matrix(path, max_bytes))
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise InvalidArgumentError(f"path: cannot read {str(path)!r} ({exc.strerror})") from None
    return class_from_json(raw)
