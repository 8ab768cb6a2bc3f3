"""The version space gives the same answers in bitset and in sparse (index-array) form."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from mistakebound import classes, play
import mistakebound.version_space as vs_module
from mistakebound.adversaries import ObliviousCoin, OppositeLabel
from mistakebound.learners import Consistent, Halving
from mistakebound.version_space import VersionSpace
from tests.strategies import hypothesis_classes


@settings(max_examples=150, deadline=None)
@given(hypothesis_classes(max_rows=40, max_cols=6, min_cols=1), st.data())
def test_sparse_and_bitset_forms_agree_with_brute_force(H, data):
    dense = VersionSpace(H)
    old = vs_module.SPARSE_MIN_HYPOTHESES
    vs_module.SPARSE_MIN_HYPOTHESES = 1  # let the sparse form kick in on small classes
    try:
        sparse = VersionSpace(H)
        keep = np.ones(H.n_hypotheses, dtype=bool)
        for _ in range(data.draw(st.integers(0, 8))):
            j = data.draw(st.integers(0, H.n_instances - 1))
            y = data.draw(st.integers(0, 1))
            for V in (dense, sparse):
                assert V.count(j, y) == int((keep & (H.matrix[:, j] == y)).sum())
            keep &= H.matrix[:, j] == y
            assert dense.restrict(j, y) == sparse.restrict(j, y) == bool(keep.any())
            for V in (dense, sparse):
                assert V.size == int(keep.sum())
                assert V.rows().tolist() == np.flatnonzero(keep).tolist()
                assert V.mask == sum(1 << int(i) for i in np.flatnonzero(keep))
                assert V.first() == (int(np.flatnonzero(keep)[0]) if keep.any() else None)
    finally:
        vs_module.SPARSE_MIN_HYPOTHESES = old


def test_games_on_a_large_class_switch_to_the_sparse_form_and_stay_exact():
    H = classes.random(70_000, 12, 0.5, seed=3)  # above the sparse threshold
    for L in (Halving, Consistent):
        learner = L(H)
        T = play(learner, ObliviousCoin(), H, rounds=40, seed=1)
        assert learner._vs._rows is not None  # few survivors: the sparse form is in use
        truth = np.ones(H.n_hypotheses, dtype=bool)
        for r in T.rounds:
            truth &= H.column(r.x) == r.y
        assert list(T.version_space) == np.flatnonzero(truth).tolist()
        assert learner.version_space.tolist() == np.flatnonzero(truth).tolist()
    T = play(Halving(H), OppositeLabel(), H, rounds=40, seed=0)
    assert T.mistakes <= Halving.mistake_bound(H)
