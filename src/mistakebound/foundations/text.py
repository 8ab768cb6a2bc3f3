"""How numbers are written in every table, verdict and message: one function.

Integers (and floats that are whole numbers) are written plainly, other floats to a
number of significant digits, infinities as ``inf``, and a missing value as ``-``.

Examples
--------
>>> number_text(4.0), number_text(2.584962500721156), number_text(float("inf")), number_text(None)
('4', '2.585', 'inf', '-')
>>> number_text(13.3169, digits=3), number_text(7)
('13.3', '7')
"""

from __future__ import annotations

import math
import numbers
from typing import Any

__all__ = ["number_text"]


def number_text(value: Any, *, digits: int = 4) -> str:
    """``value`` as text: whole numbers plainly, others to ``digits`` significant digits, None as ``-``."""
    if value is None:
        return "-"
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return str(value)
    v = float(value)
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    if v.is_integer() and abs(v) < 2**63:
        return str(int(v))
    return f"{v:.{digits}g}"
