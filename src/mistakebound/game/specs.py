"""The one reader of short texts that name things: ``NAME:ARGS`` and ``NAME(ARGS)``.

A class, a space or a player with parameters is named by a short text, on the command
line, in sweep configurations and in the names the framework prints:

* ``thresholds:64``, ``k_sparse:8,2``, ``halfspaces:d=16,R=1,gamma=0.25``: a name, a
  colon, comma-separated arguments, positional or ``key=value``;
* ``thresholds(64)``, ``halfspaces(d=16, R=1, gamma=0.25)``: the same in the form the
  framework prints (``H.describe()``), so every printed name can be typed back.

Argument values are read as integers, then floats, then the words ``true``, ``yes``,
``empty`` (True) and ``false``, ``no`` (False), else kept as text.  A boolean parameter
(a class's, a space's or a player's: one whose default is True or False) is written one
way everywhere, :data:`BOOLEAN_SPELLINGS`: :func:`spec_flags` turns the ``1`` and ``0``
given to it into True and False, and refuses anything else.  Names are compared
ignoring case, ``-``, ``_`` and spaces (:func:`normal_name`), everywhere.

Examples
--------
>>> parse_spec("halfspaces:d=16,R=1,gamma=0.25")
('halfspaces', (), {'d': 16, 'R': 1, 'gamma': 0.25})
>>> parse_spec("k_disjunctions(n=1000, k=3)")
('k_disjunctions', (), {'n': 1000, 'k': 3})
>>> parse_spec("singletons:5,empty")
('singletons', (5, True), {})
>>> normal_name("Binary-Search_Threshold")
'binarysearchthreshold'
>>> def singletons(d, include_empty=False): ...
>>> spec_flags(singletons, (5, 1), {})
((5, True), {})
"""

from __future__ import annotations

import difflib
import inspect
from collections.abc import Callable, Iterable
from typing import Any

from mistakebound.foundations.errors import InvalidArgumentError

__all__ = ["BOOLEAN_SPELLINGS", "parse_spec", "parse_value", "normal_name", "closest_hint", "spec_flags"]

_TRUE_WORDS = ("true", "empty", "yes")
_FALSE_WORDS = ("false", "no")
#: How a boolean parameter is written in a spec, for every class, space and player.
BOOLEAN_SPELLINGS = "true/false, yes/no or 1/0 (any case; empty is true, as singletons(5,empty) prints)"


def normal_name(name: str) -> str:
    """``name`` lower-cased, without ``-``, ``_`` and spaces: how names are compared."""
    return name.lower().replace("-", "").replace("_", "").replace(" ", "")


def parse_value(token: str) -> Any:
    """A spec argument as a bool word, an int, a float, or else the raw text.

    Examples
    --------
    >>> parse_value("3"), parse_value("0.5"), parse_value("Empty"), parse_value("coin")
    (3, 0.5, True, 'coin')
    """
    if token.lower() in _TRUE_WORDS:
        return True
    if token.lower() in _FALSE_WORDS:
        return False
    for kind in (int, float):
        try:
            return kind(token)
        except ValueError:
            pass
    return token


def parse_spec(spec: Any, *, parameter: str = "spec") -> tuple[str, tuple, dict]:
    """``(name, positional arguments, keyword arguments)`` of ``NAME:ARGS`` or ``NAME(ARGS)``.

    Raises
    ------
    InvalidArgumentError
        For a spec that is not text, has no name, or repeats a keyword.

    Examples
    --------
    >>> parse_spec("ObliviousCoin(labels=coin)")
    ('ObliviousCoin', (), {'labels': 'coin'})
    >>> parse_spec("thresholds")
    ('thresholds', (), {})
    >>> parse_spec("random:10,x=1,x=2")
    Traceback (most recent call last):
    ...
    mistakebound.foundations.errors.InvalidArgumentError: spec 'random:10,x=1,x=2': the argument 'x' is given twice
    """
    if not isinstance(spec, str):
        raise InvalidArgumentError(f"{parameter}: expected a text such as 'thresholds:64', got {type(spec).__name__}")
    text = spec.strip()
    if text.endswith(")") and "(" in text:
        name, _, args = text[:-1].partition("(")
    else:
        name, _, args = text.partition(":")
    name = name.strip()
    if not name:
        raise InvalidArgumentError(f"{parameter}: {spec!r} names nothing; expected NAME:ARGS or NAME(ARGS)")
    positional: list = []
    keywords: dict = {}
    for token in (t.strip() for t in args.split(",")) if args.strip() else ():
        key, eq, value = token.partition("=")
        if eq:
            key = key.strip()
            if key in keywords:
                raise InvalidArgumentError(f"spec {spec!r}: the argument {key!r} is given twice")
            keywords[key] = parse_value(value.strip())
        elif keywords:
            raise InvalidArgumentError(
                f"spec {spec!r}: the positional argument {token!r} follows keyword arguments"
            )
        else:
            positional.append(parse_value(token))
    return name, tuple(positional), keywords


def _is_flag(p: inspect.Parameter) -> bool:
    return isinstance(p.default, bool) or p.annotation in (bool, "bool")


def spec_flags(target: Callable, args: tuple, kwargs: dict) -> tuple[tuple, dict]:
    """``args`` and ``kwargs`` for ``target`` with its boolean parameters read as :data:`BOOLEAN_SPELLINGS`.

    A parameter is boolean when its default is True or False (or it is annotated ``bool``);
    the ``1`` and ``0`` a spec gives it become True and False.  Arguments that do not
    bind to ``target`` are returned as they are (calling it reports them).

    Raises
    ------
    InvalidArgumentError
        When a boolean parameter is given something else (``2``, ``maybe``).

    Examples
    --------
    >>> def singletons(d, include_empty=False): ...
    >>> spec_flags(singletons, (3,), {"include_empty": 0})
    ((3,), {'include_empty': False})
    >>> spec_flags(singletons, (3, 2), {})
    Traceback (most recent call last):
    ...
    mistakebound.foundations.errors.InvalidArgumentError: include_empty: expected a boolean, true/false, yes/no or 1/0 (any case; empty is true, as singletons(5,empty) prints), got 2
    """
    try:
        signature = inspect.signature(target)
        signature.bind_partial(*args, **kwargs)
    except (TypeError, ValueError):
        return args, kwargs
    positional = [p for p in signature.parameters.values() if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]

    def flag(p: inspect.Parameter | None, value: Any) -> Any:
        if p is None or not _is_flag(p) or isinstance(value, bool):
            return value
        if type(value) is int and value in (0, 1):
            return bool(value)
        raise InvalidArgumentError(f"{p.name}: expected a boolean, {BOOLEAN_SPELLINGS}, got {value!r}")

    return (tuple(flag(positional[i] if i < len(positional) else None, v) for i, v in enumerate(args)),
            {k: flag(signature.parameters.get(k), v) for k, v in kwargs.items()})


def closest_hint(name: str, known: Iterable[str]) -> str:
    """``"did you mean 'X'? "`` for the known names closest to ``name`` (empty if none is close).

    Examples
    --------
    >>> closest_hint("treshold", ["thresholds", "intervals"])
    "did you mean 'thresholds'? "
    """
    by_normal = {normal_name(k): k for k in known}
    close = difflib.get_close_matches(normal_name(name), list(by_normal), n=3, cutoff=0.6)
    return f"did you mean {' or '.join(repr(by_normal[c]) for c in close)}? " if close else ""
