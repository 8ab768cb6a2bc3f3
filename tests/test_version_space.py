"""The version space gives the same answers in bitset and in sparse (index-array) form."""

from __future__ import annotations

import contextlib

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from mistakebound import play
from mistakebound.game import classes
import mistakebound.game.version_space as vs_module
from mistakebound.adversaries import ObliviousCoin, OppositeLabel
from mistakebound.learners import Consistent, Halving
from mistakebound.game.version_space import VersionSpace
from tests.strategies import hypothesis_classes


#: (SPARSE_MIN_HYPOTHESES, SPARSE_RATIO) that put a small class in each form:
#: int bitset; numpy words throughout; words switching to rows midway; rows from the first change
FORMS = {"int": (1 << 16, 256), "words": (1, 10**9), "words-then-rows": (1, 4), "rows": (1, 1)}


@contextlib.contextmanager
def _form(name):
    old = vs_module.SPARSE_MIN_HYPOTHESES, vs_module.SPARSE_RATIO
    vs_module.SPARSE_MIN_HYPOTHESES, vs_module.SPARSE_RATIO = FORMS[name]
    try:
        yield
    finally:
        vs_module.SPARSE_MIN_HYPOTHESES, vs_module.SPARSE_RATIO = old


@settings(max_examples=150, deadline=None)
@given(hypothesis_classes(max_rows=140, max_cols=6, min_cols=1), st.data())
def test_every_form_agrees_with_brute_force(H, data):
    spaces = {}
    keep = np.ones(H.n_hypotheses, dtype=bool)
    for name in FORMS:
        with _form(name):
            spaces[name] = VersionSpace(H)
    copies = {}
    for _ in range(data.draw(st.integers(0, 8))):
        j = data.draw(st.integers(0, H.n_instances - 1))
        y = data.draw(st.integers(0, 1))
        vote = data.draw(st.booleans())  # restrict with and without a vote on the column first
        for name, V in spaces.items():
            with _form(name):
                if vote:
                    assert V.count(j, y) == int((keep & (H.matrix[:, j] == y)).sum())
                    assert V.count(j, 1 - y) == int((keep & (H.matrix[:, j] != y)).sum())
        before = keep.copy()
        keep &= H.matrix[:, j] == y
        copies = {name: V.copy() for name, V in spaces.items()}
        for name, V in spaces.items():
            with _form(name):
                assert V.restrict(j, y) == bool(keep.any())
        for name, V in list(spaces.items()) + [(f"copy of {n}", C) for n, C in copies.items()]:
            truth = keep if not name.startswith("copy") else before  # a copy is unaffected
            assert V.size == int(truth.sum()), name
            assert V.rows().tolist() == np.flatnonzero(truth).tolist(), name
            assert V.mask == sum(1 << int(i) for i in np.flatnonzero(truth)), name
            assert V.first() == (int(np.flatnonzero(truth)[0]) if truth.any() else None), name
            for c in range(H.n_instances):  # a vote after the change sees the new set
                assert V.count(c, 1) == int((truth & (H.matrix[:, c] == 1)).sum()), name


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
    assert T.mistakes <= Halving(H).bound(H).value
