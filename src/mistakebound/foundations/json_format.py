"""The pieces every JSON format of the framework is built from, so that all of them behave alike.

The class files (:mod:`mistakebound.game.class_files`), transcripts
(:mod:`mistakebound.game.transcript_json`) and check reports
(:mod:`mistakebound.verification.report_json`) are written with these helpers:

* a header: every document is a JSON object that starts with ``"format"`` (what it holds)
  and ``"version"`` (:data:`FORMAT_VERSION`); :func:`parse` refuses another format or
  version before looking further, and :func:`check_keys` refuses missing and unknown fields;
* values checked by type, never coerced (:func:`expect_int`, :func:`expect_number`,
  :func:`expect_str`, :func:`expect_bool`, :func:`optional`, :func:`tuple_of`): ``True`` is
  not an int, ``1.0`` is not an int, ``[1]`` is not a tuple;
* floats bit for bit: :func:`dumps` writes ``repr(float)``, which reads back as the same
  double (``-0.0`` included); NaN and infinities are refused by :func:`expect_number` and
  written as tagged objects by :func:`encode_tagged_number`
  (``{"float": "inf"}``, ``{"float": "-inf"}``, ``{"float": "nan"}``) where a format allows them;
* instances (:func:`encode_instance`, :func:`decode_instance`): ``int``, ``float``, ``str``,
  ``bool``, ``None`` and tuples of those, nested at most :data:`MAX_INSTANCE_DEPTH` deep, a
  tuple written as ``{"tuple": [...]}`` so that it reads back as a tuple;
* values of the free-form records that are written but never read back by a format (the
  JSON Lines of ``play --out``, a game's summary, a claim's value): :func:`json_value`, the
  one conversion of numpy scalars, arrays, tuples and sets, and non-finite floats.

Every refusal is an :class:`~mistakebound.foundations.errors.InvalidArgumentError` whose
message starts with where the value sits (``rounds[3].p``, ``domain[0]``; indices in
brackets count from 0, as in JSON) and says what was expected.  The same value always
gives the same text.

Examples
--------
>>> text = dumps({**header("demo"), "x": encode_instance((1, "a", -0.0))})
>>> text
'{"format":"demo","version":1,"x":{"tuple":[1,"a",-0.0]}}'
>>> data = parse(text, what="demo", fmt="demo")
>>> decode_instance(data["x"], "x")
(1, 'a', -0.0)
>>> expect_int("t", True)
Traceback (most recent call last):
...
mistakebound.foundations.errors.InvalidArgumentError: t: expected an int, got True of type bool
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.foundations.memory import require_memory
from mistakebound.foundations.numerals import too_long

__all__ = [
    "FORMAT_VERSION",
    "JSON_BYTES_PER_CHARACTER",
    "MAX_INSTANCE_DEPTH",
    "type_name",
    "expect_int",
    "expect_number",
    "expect_str",
    "expect_bool",
    "optional",
    "tuple_of",
    "encode_tagged_number",
    "decode_tagged_number",
    "encode_instance",
    "decode_instance",
    "json_value",
    "header",
    "dumps",
    "parse",
    "check_keys",
]

#: Bytes the parse of a JSON document takes per character of its text, checked against the memory
#: budget before it starts: the decoded text (1) and the parsed values (a list's 8-byte slot per
#: 2-character entry such as ``0,``, and the lists' own headers).
JSON_BYTES_PER_CHARACTER = 5
#: A document estimated to take at most this many bytes is parsed without reading the budget.
SMALL_DOCUMENT_BYTES = 1 << 20

#: The version of every format; a document of another version is refused.
FORMAT_VERSION = 1

#: Deepest nesting of tuples inside an instance that is written or read (JSON parsers
#: refuse deeper text, so a deeper instance could be written but not read back).
MAX_INSTANCE_DEPTH = 100

_NON_FINITE = {"inf": math.inf, "-inf": -math.inf, "nan": math.nan}


def type_name(value: Any) -> str:
    """The name of ``value``'s type, as error messages show it.

    Examples
    --------
    >>> type_name(1.5)
    'float'
    """
    return type(value).__name__


# ---------------------------------------------------------------------- scalars
def _finite(where: str, value: float) -> float:
    if not math.isfinite(value):
        raise InvalidArgumentError(
            f"{where}: cannot serialise the non-finite float {value!r}; expected a finite number "
            "(the engine never records NaN or infinity)"
        )
    return value


def expect_int(where: str, value: Any) -> int:
    """``value`` if it is an ``int`` (not a bool), else refused naming ``where``.

    Examples
    --------
    >>> expect_int("t", 3)
    3
    """
    if type(value) is not int:
        raise InvalidArgumentError(f"{where}: expected an int, got {value!r} of type {type_name(value)}")
    return value


def expect_number(where: str, value: Any) -> int | float:
    """``value`` if it is an ``int`` or a finite ``float`` (NaN, infinities and bools refused).

    Examples
    --------
    >>> expect_number("p", 0.5)
    0.5
    >>> expect_number("p", float("nan"))
    Traceback (most recent call last):
    ...
    mistakebound.foundations.errors.InvalidArgumentError: p: cannot serialise the non-finite float nan; expected a finite number (the engine never records NaN or infinity)
    """
    if type(value) is int:
        return value
    if type(value) is float:
        return _finite(where, value)
    raise InvalidArgumentError(f"{where}: expected an int or a float, got {value!r} of type {type_name(value)}")


def expect_str(where: str, value: Any) -> str:
    """``value`` if it is a ``str``.

    Examples
    --------
    >>> expect_str("learner", "SOA")
    'SOA'
    """
    if type(value) is not str:
        raise InvalidArgumentError(f"{where}: expected a string, got {value!r} of type {type_name(value)}")
    return value


def expect_bool(where: str, value: Any) -> bool:
    """``value`` if it is ``True`` or ``False`` (no truthiness: ``1`` is refused).

    Examples
    --------
    >>> expect_bool("realizable", False)
    False
    """
    if type(value) is not bool:
        raise InvalidArgumentError(f"{where}: expected true or false, got {value!r} of type {type_name(value)}")
    return value


def optional(check: Callable[[str, Any], Any]) -> Callable[[str, Any], Any]:
    """The check ``check`` that also lets ``None`` through.

    Examples
    --------
    >>> optional(expect_int)("seed", None) is None
    True
    """

    def inner(where: str, value: Any) -> Any:
        return None if value is None else check(where, value)

    return inner


def tuple_of(check: Callable[[str, Any], Any]) -> tuple[Callable[[str, Any], list], Callable[[str, Any], tuple]]:
    """``(encode, decode)`` for a tuple whose items pass ``check``, stored as a JSON list.

    Examples
    --------
    >>> encode, decode = tuple_of(expect_int)
    >>> encode("target", (1, 2)), decode("target", [1, 2])
    ([1, 2], (1, 2))
    """

    def encode(where: str, value: Any) -> list:
        if type(value) is not tuple:
            raise InvalidArgumentError(f"{where}: expected a tuple, got {value!r} of type {type_name(value)}")
        return [check(f"{where}[{i}]", v) for i, v in enumerate(value)]

    def decode(where: str, value: Any) -> tuple:
        if type(value) is not list:
            raise InvalidArgumentError(f"{where}: expected a JSON list, got {value!r} of type {type_name(value)}")
        return tuple(check(f"{where}[{i}]", v) for i, v in enumerate(value))

    return encode, decode


def encode_tagged_number(where: str, value: Any) -> Any:
    """``None``, an int, a finite float, or ``{"float": "inf" | "-inf" | "nan"}``.

    numpy scalars are written as the Python number they hold.

    Examples
    --------
    >>> encode_tagged_number("bound", float("-inf")), encode_tagged_number("bound", 2.5)
    ({'float': '-inf'}, 2.5)
    """
    if isinstance(value, np.generic):
        value = value.item()
    if value is None or type(value) is int:
        return value
    if type(value) is float:
        if math.isfinite(value):
            return value
        return {"float": "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")}
    raise InvalidArgumentError(f"{where}: expected None, an int or a float, got {value!r} of type {type_name(value)}")


def decode_tagged_number(where: str, value: Any) -> Any:
    """The number written by :func:`encode_tagged_number`.

    Examples
    --------
    >>> decode_tagged_number("bound", {"float": "inf"})
    inf
    """
    if value is None or type(value) is int:
        return value
    if type(value) is float:
        return _finite(where, value)
    if type(value) is dict and set(value) == {"float"} and value["float"] in _NON_FINITE:
        return _NON_FINITE[value["float"]]
    raise InvalidArgumentError(
        f"{where}: expected null, a number or {{\"float\": \"inf\" | \"-inf\" | \"nan\"}}, got {value!r}"
    )


# -------------------------------------------------------------------- instances
def _check_depth(where: str, depth: int) -> None:
    if depth > MAX_INSTANCE_DEPTH:
        raise InvalidArgumentError(
            f"{where}: instance nests tuples more than {MAX_INSTANCE_DEPTH} levels deep; "
            "expected at most that many"
        )


def encode_instance(value: Any, where: str = "instance", depth: int = 0) -> Any:
    """A JSON-ready form of an instance: scalars as themselves, tuples tagged.

    Raises
    ------
    InvalidArgumentError
        For a type outside ``int``, ``float``, ``str``, ``bool``, ``None`` and tuples of
        those, a non-finite float, or tuples nested more than :data:`MAX_INSTANCE_DEPTH` deep.

    Examples
    --------
    >>> encode_instance(((0, 1), "b"))
    {'tuple': [{'tuple': [0, 1]}, 'b']}
    >>> encode_instance(b"x", "domain[2]")
    Traceback (most recent call last):
    ...
    mistakebound.foundations.errors.InvalidArgumentError: domain[2]: cannot serialise instance b'x' of type builtins.bytes; expected int, float, str, bool, None or a tuple of those
    """
    kind = type(value)
    if value is None or kind in (bool, int, str):
        return value
    if kind is float:
        return _finite(where, value)
    if kind is tuple:
        _check_depth(where, depth + 1)
        return {"tuple": [encode_instance(v, f"{where}[{i}]", depth + 1) for i, v in enumerate(value)]}
    raise InvalidArgumentError(
        f"{where}: cannot serialise instance {value!r} of type {kind.__module__}.{kind.__qualname__}; "
        "expected int, float, str, bool, None or a tuple of those"
    )


def decode_instance(value: Any, where: str = "instance", depth: int = 0) -> Any:
    """The instance written by :func:`encode_instance`.

    Examples
    --------
    >>> decode_instance({"tuple": [1, {"tuple": []}]})
    (1, ())
    """
    kind = type(value)
    if value is None or kind in (bool, int, str):
        return value
    if kind is float:
        return _finite(where, value)
    if kind is dict:
        if set(value) != {"tuple"} or type(value["tuple"]) is not list:
            raise InvalidArgumentError(f"{where}: expected a scalar or {{\"tuple\": [...]}}, got the object {value!r}")
        _check_depth(where, depth + 1)
        return tuple(decode_instance(v, f"{where}[{i}]", depth + 1) for i, v in enumerate(value["tuple"]))
    raise InvalidArgumentError(
        f"{where}: expected a scalar or {{\"tuple\": [...]}}, got {value!r} of type {kind.__name__}"
    )


def json_value(value: Any) -> Any:
    """``value`` as JSON can hold it: numpy scalars as Python ones, arrays, tuples and sets as lists,
    non-finite floats as text (``"inf"``), and an exact fraction as an integer or its text (``"139/64"``).

    For records that are written and never read back as a format (no tags: a tuple comes
    back as a list, ``"inf"`` as a string).

    Examples
    --------
    >>> json_value((np.int64(1), 0.5, float("inf")))
    [1, 0.5, 'inf']
    >>> json_value([Fraction(139, 64), Fraction(4)])
    ['139/64', 4]
    >>> json_value({"a": 1})  # anything else is left as it is
    {'a': 1}
    """
    if isinstance(value, (np.integer, np.floating, np.bool_)):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, (tuple, list, set, frozenset)):
        return [json_value(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else str(value)
    return value


# ------------------------------------------------------------------- documents
def header(fmt: str) -> dict[str, Any]:
    """The first two fields of a document of format ``fmt``.

    Examples
    --------
    >>> header("mistakebound.class")
    {'format': 'mistakebound.class', 'version': 1}
    """
    return {"format": fmt, "version": FORMAT_VERSION}


def dumps(obj: Any) -> str:
    """Compact JSON, ASCII only, NaN and infinity refused: the same value gives the same text.

    Examples
    --------
    >>> dumps({"p": 0.1, "s": "é"})
    '{"p":0.1,"s":"\\\\u00e9"}'
    """
    return json.dumps(obj, ensure_ascii=True, allow_nan=False, separators=(",", ":"))


def parse(text: Any, *, what: str, fmt: str) -> dict:
    """The JSON object in ``text`` (str or UTF-8 bytes), after checking its format and version.

    Parameters
    ----------
    text : str or bytes
    what : str
        What the document holds, for messages (``"class"``, ``"transcript"``).
    fmt : str
        The ``"format"`` the document must declare.

    Raises
    ------
    InvalidArgumentError
        For text that is not UTF-8 or not JSON, NaN or infinity in the text, JSON nested
        too deeply, a value that is not an object, or another format or version.

    Examples
    --------
    >>> parse('{"format": "a", "version": 2}', what="demo", fmt="a")
    Traceback (most recent call last):
    ...
    mistakebound.foundations.errors.InvalidArgumentError: version: expected 1, got 2
    """
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InvalidArgumentError(f"text: {what} JSON is not valid UTF-8 ({exc}); expected UTF-8 text") from None
    if not isinstance(text, str):
        raise InvalidArgumentError(f"text: expected the JSON text of a {what}, got {type_name(text)}")

    def refuse_constant(name: str) -> Any:
        raise InvalidArgumentError(f"text: {what} JSON contains {name}; expected finite numbers only")

    if len(text) * JSON_BYTES_PER_CHARACTER > SMALL_DOCUMENT_BYTES:  # reading the budget costs more than a small parse
        require_memory(len(text) * JSON_BYTES_PER_CHARACTER, parameter="text",
                       what=f"parsing {len(text):,} characters of {what} JSON", advice=f"expected a smaller {what}")
    try:
        data = json.loads(text, parse_constant=refuse_constant)
    except json.JSONDecodeError as exc:
        raise InvalidArgumentError(f"text: malformed {what} JSON ({exc}); expected the JSON text of a {what}") from None
    except ValueError as exc:  # not a syntax error: a number longer than int() reads (4,300 digits)
        refusal = too_long(f"text: the {what} JSON", exc)
        if refusal is None:
            raise
        raise refusal from None
    except RecursionError:
        raise InvalidArgumentError(
            f"text: {what} JSON is nested too deeply to parse; expected the JSON text of a {what}"
        ) from None
    if type(data) is not dict:
        raise InvalidArgumentError(f"text: expected a JSON object holding a {what}, got {type_name(data)}")
    if data.get("format") != fmt:
        raise InvalidArgumentError(f"format: expected {fmt!r}, got {data.get('format')!r}")
    if data.get("version") != FORMAT_VERSION:
        raise InvalidArgumentError(f"version: expected {FORMAT_VERSION}, got {data.get('version')!r}")
    return data


def check_keys(where: str, data: dict, expected: Sequence[str]) -> None:
    """Refuse ``data`` if a key of ``expected`` is missing or a key outside it is present.

    Examples
    --------
    >>> check_keys("round", {"t": 1, "z": 2}, ["t"])
    Traceback (most recent call last):
    ...
    mistakebound.foundations.errors.InvalidArgumentError: round: unknown field(s) z; expected only the fields t
    """
    missing = [k for k in expected if k not in data]
    if missing:
        raise InvalidArgumentError(
            f"{where}: missing field(s) {', '.join(missing)}; expected the fields {', '.join(expected)}"
        )
    extra = sorted(set(data) - set(expected), key=str)
    if extra:
        raise InvalidArgumentError(
            f"{where}: unknown field(s) {', '.join(map(str, extra))}; expected only the fields {', '.join(expected)}"
        )
