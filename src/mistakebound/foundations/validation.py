"""Argument checks: one function per kind of parameter, one wording for every refusal.

Every public function of the framework checks its arguments with these, so that a bad
argument is always refused the same way: an
:class:`~mistakebound.foundations.errors.InvalidArgumentError` whose message names the
parameter, shows the value received (shortened, and safe for huge integers and broken
``__repr__`` methods) and says what was expected.  Each check returns the value in its
canonical type (``int`` for integers, ``float`` for reals), so callers store what the
check returns.  (hypothesis's ``internal/validation.py`` is the model.)

Examples
--------
>>> check_int("rounds", 5, minimum=0)
5
>>> check_int("rounds", -1, minimum=0)
Traceback (most recent call last):
...
mistakebound.foundations.errors.InvalidArgumentError: rounds: expected an integer >= 0, got -1
>>> check_int("workers", 300, minimum=1, maximum=256)
Traceback (most recent call last):
...
mistakebound.foundations.errors.InvalidArgumentError: workers: expected an integer from 1 to 256, got 300
>>> check_real("gamma", 0.25, minimum=0, open_minimum=True)
0.25
>>> check_int("max_nodes", None, minimum=1, optional=True) is None
True
>>> check_choice("measure", "regret", ("mistakes", "regret"))
'regret'
"""

from __future__ import annotations

import functools
import inspect
import math
import numbers
from collections.abc import Callable, Collection
from typing import Any

import numpy as np

from mistakebound.foundations.errors import InvalidArgumentError

__all__ = [
    "keywords_of",
    "brief",
    "check_int",
    "check_real",
    "check_probability",
    "check_flag",
    "check_choice",
    "check_callable",
    "check_instance",
    "integer_converter",
    "real_converter",
    "refuse_file",
]


def brief(value: Any, limit: int = 60) -> str:
    """``repr(value)`` for an error message: shortened, and safe for ints of any size.

    Examples
    --------
    >>> brief(2**1000)
    'an integer of 1001 bits'
    >>> brief("x" * 100)[-5:]
    'xx...'
    """
    if isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_)) and abs(int(value)).bit_length() > 190:
        return f"an integer of {abs(int(value)).bit_length()} bits"
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - a broken __repr__ must not hide the real error
        return f"<{type(value).__name__} object>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _is_integer(value: Any) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_))


def _is_real(value: Any) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_))


def _fail(name: str, value: Any, expected: str, optional: bool) -> InvalidArgumentError:
    expected = f"None or {expected}" if optional else expected
    return InvalidArgumentError(f"{name}: expected {expected}, got {brief(value)}")


def check_int(
    name: str, value: Any, minimum: int | None = None, maximum: int | None = None, *, optional: bool = False,
    expected: str | Callable[[], str] | None = None,
) -> int | None:
    """``value`` as an ``int`` in ``[minimum, maximum]`` (bools refused); None too if ``optional``.

    ``expected`` says in words what the integer is, for the message, when the range alone
    does not (``"a bitset over the 7 distinct rows (an int in 0..127)"``), or is a function
    returning those words (called only for a refusal: a text that costs something to
    write).  Cheap enough for a search's entry points: a plain ``int`` in range is
    returned at once, and the message is only written for a refusal.

    Raises
    ------
    InvalidArgumentError
        ``"NAME: expected an integer >= MIN, got VALUE"`` (or ``from MIN to MAX``, or
        ``<= MAX``, or ``expected``; ``None or ...`` when ``optional``).

    Examples
    --------
    >>> check_int("V", 9, 0, 7, expected="a bitset over 3 rows (an int in 0..7)")
    Traceback (most recent call last):
    ...
    mistakebound.foundations.errors.InvalidArgumentError: V: expected a bitset over 3 rows (an int in 0..7), got 9
    """
    if type(value) is int and (minimum is None or value >= minimum) and (maximum is None or value <= maximum):
        return value
    if value is None and optional:
        return None
    if _is_integer(value) and (minimum is None or value >= minimum) and (maximum is None or value <= maximum):
        return int(value)
    if callable(expected):
        expected = expected()
    elif expected is None:
        if minimum is not None and maximum is not None:
            expected = f"an integer from {minimum} to {maximum}"
        elif minimum is not None:
            expected = f"an integer >= {minimum}"
        elif maximum is not None:
            expected = f"an integer <= {maximum}"
        else:
            expected = "an integer"
    raise _fail(name, value, expected, optional)


def check_real(
    name: str,
    value: Any,
    *,
    minimum: float | None = None,
    maximum: float | None = None,
    open_minimum: bool = False,
    open_maximum: bool = False,
    finite: bool = True,
    optional: bool = False,
) -> float | None:
    """``value`` as a ``float`` in the given range (NaN and bools refused; inf only if not ``finite``).

    Raises
    ------
    InvalidArgumentError
        ``"NAME: expected a finite number > 0, got VALUE"`` and the like.

    Examples
    --------
    >>> check_real("eta", 0, minimum=0, open_minimum=True)
    Traceback (most recent call last):
    ...
    mistakebound.foundations.errors.InvalidArgumentError: eta: expected a finite number > 0, got 0
    """
    if value is None and optional:
        return None
    parts = []
    if minimum is not None:
        parts.append(f"{'>' if open_minimum else '>='} {minimum:g}")
    if maximum is not None:
        parts.append(f"{'<' if open_maximum else '<='} {maximum:g}")
    expected = ("a finite number" if finite else "a number") + (" " + " and ".join(parts) if parts else "")
    ok = _is_real(value)
    if ok:
        try:
            v = float(value)
        except (OverflowError, ValueError, TypeError):
            ok = False
    if ok:
        ok = not math.isnan(v) and (math.isfinite(v) or not finite)
        if ok and minimum is not None:
            ok = v > minimum if open_minimum else v >= minimum
        if ok and maximum is not None:
            ok = v < maximum if open_maximum else v <= maximum
    if not ok:
        raise _fail(name, value, expected, optional)
    return v


def check_probability(name: str, value: Any) -> float:
    """``value`` as a float in ``[0, 1]``.

    Examples
    --------
    >>> check_probability("density", 1.5)
    Traceback (most recent call last):
    ...
    mistakebound.foundations.errors.InvalidArgumentError: density: expected a probability in [0, 1], got 1.5
    """
    try:
        return check_real(name, value, minimum=0.0, maximum=1.0)
    except InvalidArgumentError:
        raise _fail(name, value, "a probability in [0, 1]", False) from None


def check_flag(name: str, value: Any, *, expected: str = "True or False") -> bool:
    """``value`` if it is a bool (numpy bools included), else refused; no truthiness guessing.

    ``expected`` is what the message says was expected.

    Examples
    --------
    >>> check_flag("include_empty", "yes", expected="a bool")
    Traceback (most recent call last):
    ...
    mistakebound.foundations.errors.InvalidArgumentError: include_empty: expected a bool, got 'yes'
    """
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise _fail(name, value, expected, False)


def check_choice(name: str, value: Any, choices: Collection[Any]) -> Any:
    """``value`` if it is one of ``choices``."""
    try:
        if value in choices:
            return value
    except TypeError:  # unhashable
        pass
    raise _fail(name, value, "one of " + ", ".join(repr(c) for c in choices), False)


def check_callable(name: str, value: Any, *, optional: bool = False) -> Callable | None:
    """``value`` if it is callable (or None when ``optional``)."""
    if value is None and optional:
        return None
    if not callable(value):
        raise _fail(name, value, "a callable", optional)
    return value


def check_instance(name: str, value: Any, types: type | tuple[type, ...], expected: str) -> Any:
    """``value`` if it is an instance of ``types``; ``expected`` says what in words.

    Examples
    --------
    >>> check_instance("H", 3, str, "a HypothesisClass")
    Traceback (most recent call last):
    ...
    mistakebound.foundations.errors.InvalidArgumentError: H: expected a HypothesisClass, got int
    """
    if not isinstance(value, types):
        raise InvalidArgumentError(f"{name}: expected {expected}, got {type(value).__name__}")
    return value


def integer_converter(name: str, minimum: int | None = None, maximum: int | None = None, *,
                      optional: bool = False) -> Callable[[Any], int | None]:
    """:func:`check_int` as a one-argument converter, for attrs fields.

    Examples
    --------
    >>> integer_converter("d", 1)(3)
    3
    """
    def convert(value: Any) -> int | None:
        return check_int(name, value, minimum, maximum, optional=optional)

    return convert


def real_converter(name: str, **limits: Any) -> Callable[[Any], float | None]:
    """:func:`check_real` as a one-argument converter, for attrs fields.

    Examples
    --------
    >>> real_converter("R", minimum=0, open_minimum=True)(2)
    2.0
    """
    def convert(value: Any) -> float | None:
        return check_real(name, value, **limits)

    return convert


def refuse_file(path: Any, problem: str, expected: str, error: type = InvalidArgumentError) -> InvalidArgumentError:
    """The refusal of an input file, on one line: ``path: 'FILE': PROBLEM; expected EXPECTED``.

    Every reader of a file the user names (class files in every format) refuses with it, so
    the messages have one form.  Returns the error, for the caller to raise.

    Examples
    --------
    >>> refuse_file("a.csv", "row 2 is short", "3 cells a row")
    InvalidArgumentError("path: 'a.csv': row 2 is short; expected 3 cells a row")
    """
    from mistakebound.foundations.text import one_line

    return error(one_line(f"path: {str(path)!r}: {problem}; expected {expected}"))


@functools.lru_cache(maxsize=256)
def keywords_of(method_type: type, name: str) -> frozenset | None:
    """The keyword names the method ``name`` of ``method_type`` accepts (None: any, it takes ``**kwargs``).

    How the package asks whether a player's method takes an option added after the player
    was written (a claim's ``transcript``, the game's ``rules``) before passing it.

    Examples
    --------
    >>> class P:
    ...     def bound(self, setting, *, rounds=None): ...
    ...     def forces(self, setting, **options): ...
    >>> sorted(keywords_of(P, "bound")), keywords_of(P, "forces")
    (['rounds', 'self', 'setting'], None)
    """
    try:
        parameters = inspect.signature(getattr(method_type, name)).parameters.values()
    except (TypeError, ValueError, AttributeError):
        return None
    if any(p.kind is p.VAR_KEYWORD for p in parameters):
        return None
    return frozenset(p.name for p in parameters)
