"""Numbers written as text: the one reading of a numeral, whatever carries it.

An argument (``--rounds 10``), a JSON document (``"version": 1``) and a CSV cell (``1.0``)
all hold numbers as text, and text can hold numbers no machine type takes: 5,000 digits
(Python's ``int()`` refuses more than :func:`digit_limit` digits with a ``ValueError``
that looks like a bug), ``1e308`` inches, ``0e-999999999999999999999`` (which
:class:`decimal.Decimal` reads, then refuses to round).  This module reads them once,
for every reader:

:func:`integer_text`
    An integer in a range (the command line's integer options): what ``int()`` reads, a
    numeral too long to read refused as out of range (it *is* an integer), and the message
    naming the parameter, the value (shortened) and the range.
:func:`real_text`
    A finite float in a range (``--time-limit``, ``--width``).
:func:`integral_value`
    The exact integer a decimal numeral stands for (``1.0``, ``1e0``, ``-0``,
    ``0e-999999999999999999999``), when it is one in a range: computed from its digits and
    exponent, never through a number as large as the exponent says (the CSV reader's entries).
:func:`too_long`
    The refusal of a document holding a number longer than :func:`digit_limit` (the JSON readers).

Every refusal is an :class:`~mistakebound.foundations.errors.InvalidArgumentError`; with
``name=None`` its message starts with ``expected``, for a caller that names the parameter
itself (argparse does).

Examples
--------
>>> integer_text("12", name="--rounds", minimum=1, maximum=10**12)
12
>>> integer_text("9" * 5000, name="--max-nodes", minimum=1, maximum=2**63 - 1)
Traceback (most recent call last):
...
mistakebound.foundations.errors.InvalidArgumentError: --max-nodes: expected an integer from 1 to 2**63 - 1, got a number of 5,000 digits ('99999999999999999999'...)
>>> real_text("1e308", name="--width", minimum=1, maximum=100)
Traceback (most recent call last):
...
mistakebound.foundations.errors.InvalidArgumentError: --width: expected a number from 1 to 100, got '1e308'
>>> integral_value("1.0", 0, 1), integral_value("0e-999999999999999999999", 0, 1), integral_value("1e-3", 0, 1)
(1, 0, None)
"""

from __future__ import annotations

import math
import re
import sys

from mistakebound.foundations.errors import InvalidArgumentError

__all__ = ["digit_limit", "integer_text", "integral_value", "range_text", "real_text", "too_long"]

# a decimal numeral: sign, whole digits, fraction digits, exponent (ASCII only)
_DECIMAL = re.compile(r"([+-]?)([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?")
_SHOWN = 20  # characters of a long value shown in a message


def digit_limit() -> int:
    """The most digits ``int()`` converts from text in this interpreter (4,300 by default; 0 is no limit).

    Examples
    --------
    >>> digit_limit() >= 640
    True
    """
    getter = getattr(sys, "get_int_max_str_digits", None)
    limit = getter() if getter else 0
    return limit or 10**9


def _bound(n: int) -> str:
    """``n`` for a message: ``1,000`` below 10**15, else ``10**k`` or ``2**k - 1`` when it is one."""
    if abs(n) < 10**15:
        return f"{n:,}"
    if n > 0 and (n + 1) & n == 0:
        return f"2**{n.bit_length()} - 1"
    k = len(str(n)) - 1
    if n == 10**k:
        return f"10**{k}"
    return f"{n:.3e}"


def range_text(minimum: int | float | None, maximum: int | float | None, what: str = "an integer") -> str:
    """``an integer from 1 to 10**12``, ``an integer >= 0``: the range in every message about it.

    Examples
    --------
    >>> range_text(1, 2**128 - 1), range_text(0, None), range_text(0.0, 1e9, "a number of seconds")
    ('an integer from 1 to 2**128 - 1', 'an integer >= 0', 'a number of seconds from 0 to 1e+09')
    """
    def shown(v):
        return _bound(v) if isinstance(v, int) else f"{v:g}"

    if minimum is not None and maximum is not None:
        return f"{what} from {shown(minimum)} to {shown(maximum)}"
    if minimum is not None:
        return f"{what} >= {shown(minimum)}"
    if maximum is not None:
        return f"{what} <= {shown(maximum)}"
    return what


def _shown(text: str) -> str:
    return repr(text) if len(text) <= 4 * _SHOWN else f"{text[:_SHOWN]!r}... ({len(text):,} characters)"


def _refuse(name: str | None, expected: str, got: str) -> InvalidArgumentError:
    return InvalidArgumentError(f"{name + ': ' if name else ''}expected {expected}, got {got}")


def integer_text(text: str, *, name: str | None, minimum: int | None = None, maximum: int | None = None) -> int:
    """``text`` as an integer in ``[minimum, maximum]`` (either may be None: no bound).

    Reads what ``int()`` reads (blanks around, ``+``, ``_`` between digits); a numeral of
    more digits than :func:`digit_limit` is an integer out of any range a program takes,
    and refused as such, not as "not an integer".

    Raises
    ------
    InvalidArgumentError
        ``NAME: expected an integer from MIN to MAX, got VALUE``.

    Examples
    --------
    >>> integer_text(" +4", name="--seed", minimum=0)
    4
    >>> integer_text("1.5", name=None, minimum=0)
    Traceback (most recent call last):
    ...
    mistakebound.foundations.errors.InvalidArgumentError: expected an integer >= 0, got '1.5'
    """
    expected = range_text(minimum, maximum)
    text = str(text)
    core = text.strip().lstrip("+-").replace("_", "")
    if len(core) > min(digit_limit(), 4000):
        if core.isdigit():
            raise _refuse(name, expected, f"a number of {len(core):,} digits ({text.strip()[:_SHOWN]!r}...)")
        raise _refuse(name, expected, _shown(text))
    try:
        value = int(text)
    except ValueError:
        raise _refuse(name, expected, _shown(text)) from None
    if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
        raise _refuse(name, expected, _shown(text))
    return value


def real_text(text: str, *, name: str | None, minimum: float | None = None, maximum: float | None = None,
              above: bool = False, what: str = "a number") -> float:
    """``text`` as a finite float in ``[minimum, maximum]`` (``above``: strictly above ``minimum``).

    ``nan``, infinities, and numerals that overflow (``1e400``) are refused; so is a
    numeral that rounds to 0 when 0 is out of the range (``1e-400`` seconds).

    Examples
    --------
    >>> real_text("2.5", name="--time-limit", minimum=0, above=True)
    2.5
    >>> real_text("0", name="--time-limit", minimum=0, maximum=1e9, above=True, what="a number of seconds")
    Traceback (most recent call last):
    ...
    mistakebound.foundations.errors.InvalidArgumentError: --time-limit: expected a number of seconds > 0 and <= 1e+09, got '0'
    """
    if above and minimum is not None:
        expected = f"{what} > {minimum:g}" + (f" and <= {maximum:g}" if maximum is not None else "")
    else:
        expected = range_text(minimum, maximum, what)
    text = str(text)
    try:
        value = float(text) if len(text) <= 4000 else math.nan
    except ValueError:
        value = math.nan
    if (not math.isfinite(value) or (minimum is not None and (value <= minimum if above else value < minimum))
            or (maximum is not None and value > maximum)):
        raise _refuse(name, expected, _shown(text))
    return value


def integral_value(text: str, low: int, high: int) -> int | None:
    """The integer the decimal numeral ``text`` stands for exactly, when it is one in ``[low, high]``; else None.

    The numeral is ASCII: a sign, digits with an optional point, an optional exponent
    (``-0``, ``1.0``, ``1e0``, ``100e-2``, ``1.000000000000000000e+00``).  Its value is
    computed from its digits and exponent: ``0e-999999999999999999999`` is 0 and
    ``1e999999999999999999999`` is out of range, without a number that large being made.

    Examples
    --------
    >>> [integral_value(t, 0, 1) for t in ("1", "-0", "10e-1", "1.0000000000000001", "2", "x", ".", "1e")]
    [1, 0, 1, None, None, None, None, None]
    """
    m = _DECIMAL.fullmatch(text)
    if m is None:
        return None
    sign, whole, fraction, exponent = m.group(1), m.group(2), m.group(3) or "", m.group(4)
    if not whole and not fraction:
        return None
    digits = (whole + fraction).lstrip("0")
    if not digits:
        return 0 if low <= 0 <= high else None
    if exponent is not None and len(exponent.lstrip("+-").lstrip("0")) > 18:  # |exponent| >= 10**18
        return None  # nonzero digits times 10**(+-huge): no integer in any range a reader asks for
    shift = (int(exponent) if exponent else 0) - len(fraction)
    stripped = digits.rstrip("0")
    shift += len(digits) - len(stripped)
    if shift < 0:
        return None  # a fraction: not an integer
    width = max(len(str(abs(low))), len(str(abs(high))))
    if len(stripped) + shift > width:
        return None
    value = int(stripped) * 10**shift * (-1 if sign == "-" else 1)
    return value if low <= value <= high else None


def too_long(where: str, exc: ValueError) -> InvalidArgumentError | None:
    """The refusal of a document holding a number longer than :func:`digit_limit` digits, or None for another error.

    ``exc`` is the ``ValueError`` a reader (``json.loads``) raised; a reader calls this for
    a ``ValueError`` that is not its own syntax error.

    Examples
    --------
    >>> import json
    >>> try:
    ...     json.loads("9" * 5000)
    ... except ValueError as exc:
    ...     print(too_long("text: the class JSON", exc))
    text: the class JSON holds a number of more than 4,300 digits; expected numbers of at most 4,300 digits
    """
    if "int" in str(exc) and "digits" in str(exc):
        limit = digit_limit()
        return InvalidArgumentError(f"{where} holds a number of more than {limit:,} digits; expected numbers of at "
                                    f"most {limit:,} digits")
    return None
