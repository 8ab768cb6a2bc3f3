"""The move rules (:mod:`mistakebound.game.rules`): what the referee and every search read a move as.

The referee (:func:`~mistakebound.play`) and the worst-case search read predictions and
labels through the rules; the worst case's bitset search (``_FastGame``) inlines two of
them in its inner loop, so its lines are replayed here through the rules themselves.
"""

from __future__ import annotations

import math
import numbers
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mistakebound import classes, play
from mistakebound.foundations.errors import IllegalLabelError, IllegalPredictionError
from mistakebound.game import rules
from mistakebound.learners import SOA, Consistent, Halving, OptimalRandomizedLearner
from mistakebound.theory.symmetry import policy_of
from mistakebound.theory.worst_case import worst_case_mistakes
from tests.strategies import hypothesis_classes


# ------------------------------------------------------------------ reading moves
@pytest.mark.parametrize("value, label", [
    (0, 0), (1, 1), (True, 1), (False, 0), (np.bool_(True), 1), (1.0, 1), (np.float32(0.0), 0), (Fraction(1), 1),
    (np.int8(1), 1), (2, None), (-1, None), (0.5, None), (math.nan, None), ("1", None), (None, None), ([1], None),
])
def test_a_label_is_a_number_equal_to_0_or_1(value, label):
    assert rules.as_label(value) == label
    assert rules.as_prediction(value, randomized=False) == label


@pytest.mark.parametrize("value, p", [
    (0, 0.0), (1, 1.0), (True, 1.0), (0.25, 0.25), (Fraction(3, 4), 0.75), (np.float16(0.5), 0.5),
    (1.5, None), (-0.1, None), (math.nan, None), (math.inf, None), (10**400, None), ("0.5", None),
])
def test_a_probability_is_a_real_number_in_the_unit_interval(value, p):
    assert rules.as_probability(value) == p
    assert rules.as_prediction(value, randomized=True) == p


class _Raises(numbers.Real):
    """A real number whose comparison and conversion raise ``exc`` (its other methods are never reached)."""

    def __init__(self, exc):
        self.exc = exc

    def _raise(self, *args):
        raise self.exc

    __eq__ = __float__ = __bool__ = _raise
    __hash__ = object.__hash__


for _name in numbers.Real.__abstractmethods__:
    if _name not in vars(_Raises):
        setattr(_Raises, _name, _Raises._raise)
_Raises.__abstractmethods__ = frozenset()


def test_a_move_whose_comparison_raises_is_no_move_but_ctrl_c_passes_through():
    assert rules.as_label(_Raises(ValueError())) is None
    assert rules.as_probability(_Raises(SystemExit(1))) is None
    for fatal in (KeyboardInterrupt(), MemoryError(), RecursionError()):
        with pytest.raises(type(fatal)):
            rules.as_label(_Raises(fatal))
        with pytest.raises(type(fatal)):
            rules.as_probability(_Raises(fatal))


def test_the_referee_refuses_exactly_what_the_rules_refuse():
    """play's messages name what the rules expect (one wording: rules.expected_prediction)."""
    from mistakebound.adversaries import OppositeLabel

    H = classes.thresholds(3)

    class Says:
        def __init__(self, value, randomized):
            self.value = value
            if randomized:
                self.predict_proba_one = lambda x: self.value
            else:
                self.predict_one = lambda x: self.value

        def learn_one(self, x, y):
            pass

    for randomized in (False, True):
        with pytest.raises(IllegalPredictionError, match=rf"expected {rules.expected_prediction(randomized)}"
                           .replace("[", r"\[").replace("]", r"\]")):
            play(Says(7, randomized), OppositeLabel(), H, rounds=2, seed=0)

    class Labels2(OppositeLabel):
        def label(self, state, x, p):
            return 2

    with pytest.raises(IllegalLabelError, match="expected 0 or 1"):
        play(Says(1, False), Labels2(), H, rounds=2, seed=0)


# ------------------------------------------------------------------ costs and legal labels
@given(st.sampled_from([0, 1, 0.0, 1.0, 0.25, 0.5, 1 / 3, 0.999]), st.sampled_from([0, 1]))
def test_a_round_costs_the_distance_from_prediction_to_label_an_int_when_whole(p, y):
    cost = rules.mistake_cost(p, y)
    assert cost == abs(p - y)
    assert type(cost) is int if float(abs(p - y)).is_integer() else type(cost) is float
    inlined = p - y if p >= y else y - p  # the worst case's bitset search's inlined form
    if inlined.__class__ is float and inlined == int(inlined):
        inlined = int(inlined)
    assert (inlined, type(inlined)) == (cost, type(cost))


@given(hypothesis_classes(), st.data())
def test_label_splits_and_restrict_are_the_version_space_of_the_textbook(H, data):
    V = data.draw(st.integers(0, H.full_mask))
    if not H.n_instances:
        return
    j = data.draw(st.integers(0, H.n_instances - 1))
    zeros, ones = rules.label_splits(V, H.column_masks[j])
    rows = [i for i in range(H.n_hypotheses) if V >> i & 1]
    assert ones == sum(1 << i for i in rows if H.matrix[i, j] == 1)
    assert zeros == sum(1 << i for i in rows if H.matrix[i, j] == 0)
    for y, part in ((0, zeros), (1, ones)):
        assert rules.restrict(V, H.column_masks[j], y) == part


# ------------------------------------------------------------------ the searches use the rules
@settings(max_examples=40, deadline=None)
@given(hypothesis_classes(max_rows=8, max_cols=4), st.sampled_from([Halving, SOA, Consistent, OptimalRandomizedLearner]),
       st.sampled_from([None, 2, 3]))
def test_the_bitset_search_plays_by_the_rules(H, make, horizon):
    """Every line the fast search reports is legal and priced by the rules, and its value is the plain
    search's (which reads every move through the rules)."""
    learner = make(H)
    policy = policy_of(learner, H)
    assert policy is not None
    fast = worst_case_mistakes(learner, H, horizon=horizon)
    plain = worst_case_mistakes(make(H), H, horizon=horizon, fast=False)
    assert fast.value == plain.value
    V, total = H.full_mask, 0
    randomized = make is OptimalRandomizedLearner
    for x, p, y, gain in _moves(fast):
        j = H.index_of(x)
        zeros, ones = rules.label_splits(V, H.column_masks[j])
        assert ones if y else zeros, "an illegal label: no hypothesis of the version space gives it"
        assert p == rules.as_prediction(policy(V, j), randomized)
        assert (gain, type(gain)) == (rules.mistake_cost(p, y), type(rules.mistake_cost(p, y)))
        total += gain
        V = rules.restrict(V, H.column_masks[j], y)
    assert total == fast.value


def _moves(W):
    G = W.witness
    return [(G.nodes[t]["instance"], G.nodes[t]["prediction"], G.nodes[t]["label"], G.nodes[t]["gain"])
            for t in range(G.number_of_nodes() - 1)]
