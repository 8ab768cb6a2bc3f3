"""pandas DataFrames of the framework's records, with pandas optional and imported on first use.

:func:`frame` is the one way a transcript's rounds or a sweep's records become a
``pandas.DataFrame``: named columns, each typed from its values (whole numbers as
``int64``, or the nullable ``Int64`` when some are missing; ``bool``, or ``boolean``
with missing values; ``float64`` with NaN for missing numbers; anything else, tuples and
text included, as pandas infers it).  Without pandas it raises
:class:`PandasDependencyError`, which names the extra to install.

Examples
--------
>>> df = frame({"t": [1, 2], "bound": [3.0, None], "exact": [True, None], "x": [(0, 1), (1, 0)]})
>>> [str(t) for t in df.dtypes]
['int64', 'float64', 'boolean', 'object']
>>> frame({"lower": [None, None]}, empty={"lower": "float64"})["lower"].dtype
dtype('float64')
>>> df["x"].tolist()
[(0, 1), (1, 0)]
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from mistakebound.foundations.errors import MistakeboundError

__all__ = ["PandasDependencyError", "pandas", "frame"]


class PandasDependencyError(MistakeboundError, ImportError):
    """pandas, needed for ``to_pandas()``, is not installed (``pip install 'mistakebound[pandas]'``)."""


def pandas() -> Any:
    """The ``pandas`` module, imported on first use.

    Raises
    ------
    PandasDependencyError
        If pandas is not installed.
    """
    try:
        import pandas as pd
    except ImportError as exc:
        raise PandasDependencyError(
            "to_pandas() needs pandas, which is not installed; install the pandas extra: "
            "pip install 'mistakebound[pandas]' (or pip install pandas)"
        ) from exc
    return pd


def _dtype(values: Sequence[Any], empty: str) -> str | None:
    """The column's dtype from its values, ``empty`` when none is present (None: let pandas infer it)."""
    kinds = set(map(type, values))
    missing = type(None) in kinds
    kinds.discard(type(None))
    if not kinds:
        return empty
    if kinds <= {bool, np.bool_}:  # numpy's bool is no Integral: it would fall through to object
        return "boolean" if missing else "bool"
    if all(issubclass(k, numbers.Integral) and k is not bool for k in kinds):
        present = [v for v in values if v is not None] if missing else values
        fits = -2**63 <= min(present) and max(present) < 2**63  # else exact Python ints, one per cell
        return ("Int64" if missing else "int64") if fits else None
    if all(issubclass(k, numbers.Real) and k is not bool for k in kinds):
        return "float64"
    return None


def frame(columns: Mapping[str, Sequence[Any]], *, empty: Mapping[str, str] | None = None) -> Any:
    """A DataFrame with one column per entry of ``columns`` (name -> values, all of one length), typed from the values.

    ``empty`` gives the dtype of a column whose values are all missing (default ``object``):
    ``"float64"`` for a column of numbers, ``"boolean"`` for one of flags.

    Raises
    ------
    PandasDependencyError
        If pandas is not installed.
    """
    pd = pandas()
    data = {}
    for name, values in columns.items():
        values = list(values)
        dtype = _dtype(values, (empty or {}).get(name, "object"))
        if dtype is None:  # tuples, text, mixed: one Python object per cell, then pandas' own inference
            cells = np.empty(len(values), dtype=object)
            for i, v in enumerate(values):  # one by one: a tuple or an array stays one cell
                cells[i] = v
            data[name] = pd.Series(cells, dtype=object).infer_objects()
        elif dtype == "float64":
            data[name] = pd.Series(np.array([np.nan if v is None else v for v in values], dtype=np.float64))
        else:
            data[name] = pd.Series(values, dtype=dtype)
    return pd.DataFrame(data)
