"""Hypothesis strategies for the test suite: small finite classes with the awkward cases in.

Generated classes include a single hypothesis, duplicate rows, duplicate and
complementary columns, and constant columns, because those are where a search that
skips or merges work goes wrong.
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from mistakebound import HypothesisClass

__all__ = ["class_matrices", "hypothesis_classes", "order_classes", "sparse_matrices"]


@st.composite
def class_matrices(draw, *, max_rows: int = 12, max_cols: int = 6, min_cols: int = 0) -> np.ndarray:
    """0/1 matrices, sometimes with duplicated/complemented/constant columns and repeated rows."""
    n_rows = draw(st.integers(1, max_rows))
    n_cols = draw(st.integers(min_cols, max_cols))
    density = draw(st.sampled_from([0.1, 0.3, 0.5, 0.7, 0.9]))
    bits = draw(st.lists(st.floats(0, 1, exclude_max=True), min_size=n_rows * n_cols, max_size=n_rows * n_cols))
    M = (np.array(bits, dtype=float).reshape(n_rows, n_cols) < density).astype(np.uint8)
    extras = draw(st.lists(st.sampled_from(["dup_row", "dup_col", "neg_col", "const0", "const1"]), max_size=3))
    for extra in extras:
        if extra == "dup_row":
            M = np.vstack([M, M[draw(st.integers(0, M.shape[0] - 1))]])
        elif M.shape[1] and extra in ("dup_col", "neg_col"):
            c = M[:, draw(st.integers(0, M.shape[1] - 1))]
            M = np.column_stack([M, c if extra == "dup_col" else 1 - c])
        elif extra in ("const0", "const1"):
            M = np.column_stack([M, np.full(M.shape[0], int(extra == "const1"), dtype=np.uint8)])
    return M.astype(np.uint8).reshape(M.shape[0], -1)


@st.composite
def hypothesis_classes(draw, **kwargs) -> HypothesisClass:
    """A :class:`HypothesisClass` over ``class_matrices(**kwargs)``."""
    return HypothesisClass.from_matrix(draw(class_matrices(**kwargs)))


@st.composite
def sparse_matrices(draw) -> np.ndarray:
    """Rows with at most 1-2 ones (or zeros): Ldim well below log2 |H|, so the top of the
    search refutes levels before it succeeds (random dense tables rarely make it do so)."""
    rows, cols, s = draw(st.integers(16, 48)), draw(st.integers(6, 9)), draw(st.integers(1, 2))
    supports = draw(st.lists(st.sets(st.integers(0, cols - 1), max_size=s), min_size=rows, max_size=rows))
    M = np.zeros((rows, cols), dtype=np.uint8)
    for r, support in enumerate(supports):
        M[r, sorted(support)] = 1
    return 1 - M if draw(st.booleans()) else M


@st.composite
def order_classes(draw, *, max_rows: int = 10, max_cols: int = 5, labels: int = 2) -> HypothesisClass:
    """Classes of many distinct rows on few columns, where who orders the instances matters (the self-directed,
    best-order and worst-order values often differ), with the awkward cases now and then: a repeated row, a
    repeated or complemented column (two labels), a single hypothesis."""
    n_cols = draw(st.integers(1, max_cols))
    n_rows = draw(st.integers(1, min(max_rows, labels ** n_cols)))
    codes = draw(st.lists(st.integers(0, labels ** n_cols - 1), min_size=n_rows, max_size=n_rows))
    M = np.array([[code // labels ** j % labels for j in range(n_cols)] for code in codes], dtype=np.int64)
    extra = draw(st.sampled_from(["none", "none", "none", "dup_row", "dup_col", "neg_col"]))
    if extra == "dup_row":
        M = np.vstack([M, M[draw(st.integers(0, n_rows - 1))]])
    elif extra in ("dup_col", "neg_col") and n_cols < max_cols:
        c = M[:, draw(st.integers(0, n_cols - 1))]
        M = np.column_stack([M, c if extra == "dup_col" or labels != 2 else 1 - c])
    return HypothesisClass.from_matrix(M, labels=labels)
