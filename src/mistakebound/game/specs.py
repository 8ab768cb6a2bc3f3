"""The one reader of short texts that name things: ``NAME:ARGS`` and ``NAME(ARGS)``.

A class, a space or a player with parameters is named by a short text, on the command
line, in sweep configurations and in the names the framework prints:

* ``thresholds:64``, ``k_sparse:8,2``, ``halfspaces:d=16,R=1,gamma=0.25``: a name, a
  colon, comma-separated arguments, positional or ``key=value``;
* ``thresholds(64)``, ``halfspaces(d=16, R=1, gamma=0.25)``: the same in the form the
  framework prints (``H.describe()``), so every printed name can be typed back.

Argument values are read as integers, then floats, then the words ``true``, ``yes``,
``empty`` (True) and ``false``, ``no`` (False), else kept as text.  Names are compared
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
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from typing import Any

from mistakebound.foundations.errors import InvalidArgumentError

__all__ = ["parse_spec", "parse_value", "normal_name", "closest_hint"]

_TRUE_WORDS = ("true", "empty", "yes")
_FALSE_WORDS = ("false", "no")


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
