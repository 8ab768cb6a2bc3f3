"""Winnow (EG form, seed 003 section 5.2) and Littlestone's WINNOW1/WINNOW2.

Expected values come from closed forms, from reference implementations written here
independently of ``learners/winnow.py`` (plain Python loops, ``math.fsum``), and from
an exhaustive game-tree search of every instance sequence for small dimensions.

Finding: the lecture's ``8 (k+1) ln d`` fails for ``d = 1`` and the empty target
(see :func:`test_finding_lecture_bound_fails_for_one_variable_and_the_empty_target`).
"""

from __future__ import annotations

import itertools
import math
from functools import lru_cache

import numpy as np
import pytest
from attrs import define, field
from hypothesis import given, settings
from hypothesis import strategies as st

from mistakebound import HypothesisClass, play
from mistakebound.game import classes
from mistakebound.adversaries._labels import against
from mistakebound.adversaries.basis_vector_forcer import BasisVectorForcer
from mistakebound.adversaries.disjunction_stream import DisjunctionAdversary, DisjunctionStream
from mistakebound.adversaries.opposite_label import OppositeLabel
from mistakebound.foundations.errors import InvalidArgumentError, PlayerError
from mistakebound.learners.winnow import (
    LittlestoneWinnow,
    Winnow,
    disjunction_hinge_losses,
    winnow1_bound,
    winnow2_bound,
    winnow_lecture_bound,
    winnow_proven_bound,
)
from mistakebound.game.players import Adversary, ObliviousAdversary
from mistakebound.game.spaces import KDisjunctionSpace

SETTINGS = settings(max_examples=25, deadline=None)


# ----------------------------------------------------------------------------- helpers
@define
class Script(ObliviousAdversary):
    """A fixed sequence of (instance, label) pairs with a fixed certified target."""

    pairs: tuple
    target: tuple = ()

    def commit(self, H, rounds, rng, realizable):
        return list(self.pairs)[:rounds]

    def certificate(self, state):
        return self.target


@define
class AgainstWhenConsistent(Adversary):
    """Random instances; answers against the prediction whenever some target of at most
    ``k`` variables still agrees with every label (brute force over the subsets), else
    with the only consistent label.  Written here, independent of the shipped adversaries."""

    k: int
    density: float = 0.5
    _survivors: list = field(init=False, factory=list)

    def start(self, state):
        n = state.H.n
        self._survivors = [frozenset(c) for j in range(self.k + 1) for c in itertools.combinations(range(n), j)]

    def next_instance(self, state):
        return (state.rng.random(state.H.n) < self.density).astype(np.uint8)

    def label(self, state, x, p):
        want = against(p)
        agree = [S for S in self._survivors if int(any(x[i] for i in S)) == want]
        if not agree:
            want = 1 - want
            agree = [S for S in self._survivors if int(any(x[i] for i in S)) == want]
        self._survivors = agree
        return want

    def certificate(self, state):
        return None if not state.history else tuple(sorted(self._survivors[0]))


def reference_eg(pairs, d, eta=0.25):
    """Independent EG Winnow: weights e^{2 eta m_i}/d, predict 1 iff 2 <w, x> >= 1; returns the predictions."""
    m = [0] * d
    preds = []
    for x, y in pairs:
        active = [i for i in range(d) if x[i]]
        scaled = math.fsum(math.exp(2 * eta * m[i]) for i in active)  # = d <w, x>, exact when every m_i = 0
        p = 1 if 2 * scaled >= d else 0
        preds.append(p)
        if p != y:
            for i in active:
                m[i] += 1 if y == 1 else -1
    return preds


def reference_littlestone(pairs, n, alpha=2.0, theta=None, variant="winnow2", strict=False):
    theta = n if theta is None else theta
    w = [1.0] * n
    preds = []
    for x, y in pairs:
        s = sum(w[i] for i in range(n) if x[i])
        p = int(s > theta) if strict else int(s >= theta)
        preds.append(p)
        if p != y:
            for i in range(n):
                if x[i]:
                    if y == 1:
                        w[i] *= alpha
                    elif variant == "winnow1":
                        w[i] = 0.0
                    else:
                        w[i] /= alpha
    return preds


def eg_worst_case(d, target, eta=0.25):
    """The most mistakes EG Winnow can be made to commit on the disjunction ``target`` over
    {0,1}^d, over every sequence (an exhaustive search of the mistake tree: correct rounds
    change nothing), and one sequence achieving it."""
    X = list(itertools.product((0, 1), repeat=d))
    labels = {x: int(any(x[i] for i in target)) for x in X}

    @lru_cache(maxsize=None)
    def best(m):
        top, seq = 0, ()
        for x in X:
            active = [i for i in range(d) if x[i]]
            p = 1 if 2 * math.fsum(math.exp(2 * eta * m[i]) for i in active) >= d else 0
            y = labels[x]
            if p == y:
                continue
            nxt = list(m)
            for i in active:
                nxt[i] += 1 if y else -1
            count, tail = best(tuple(nxt))
            if count + 1 > top:
                top, seq = count + 1, ((x, y),) + tail
        return top, seq

    return best((0,) * d)


def littlestone_worst_case(n, target, variant, alpha=2, theta=None, strict=False):
    theta = n if theta is None else theta
    X = list(itertools.product((0, 1), repeat=n))
    labels = {x: int(any(x[i] for i in target)) for x in X}

    @lru_cache(maxsize=None)
    def best(w):
        top = 0
        for x in X:
            s = sum(w[i] for i in range(n) if x[i])
            p = int(s > theta) if strict else int(s >= theta)
            y = labels[x]
            if p == y:
                continue
            nxt = list(w)
            for i in range(n):
                if x[i]:
                    nxt[i] = w[i] * alpha if y else (0.0 if variant == "winnow1" else w[i] / alpha)
            top = max(top, 1 + best(tuple(nxt)))
        return top

    return best((1.0,) * n)


def lecture(d, k, eta=0.25, hinge=0.0):
    """The lecture's bound, written out independently."""
    return ((k + 1) * math.log(d) / eta + hinge) / (1 - 2 * eta)


def proven(d, j, eta=0.25, hinge=0.0):
    """The bound the derivation proves for a comparator with j ones, written out independently."""
    return ((1 + j * (math.log(d) - 1)) / eta + hinge) / (1 - 2 * eta)


# ------------------------------------------------------------------- EG Winnow: the rules
def test_initial_weights_tie_rule_and_update_directions():
    L = Winnow(3)
    assert L.weights.tolist() == pytest.approx([1 / 3] * 3)
    assert L.predict_one((1, 0, 0)) == 0  # 2/3 - 1 < 0
    L.learn_one((1, 0, 0), 1)  # missed positive: the active weight GROWS by e^{2 eta}
    assert L.weights.tolist() == pytest.approx([math.exp(0.5) / 3, 1 / 3, 1 / 3])
    assert L.predict_one((1, 0, 0)) == 1  # 2 e^{1/2}/3 - 1 = 0.099 > 0
    L.learn_one((1, 0, 0), 1)  # correct: no update
    assert L.weights.tolist() == pytest.approx([math.exp(0.5) / 3, 1 / 3, 1 / 3])
    assert L.predict_one((0, 1, 1)) == 1  # 2 * 2/3 - 1 > 0
    L.learn_one((0, 1, 1), 0)  # false positive: the active weights SHRINK by e^{-2 eta}
    assert L.weights.tolist() == pytest.approx([math.exp(0.5) / 3, math.exp(-0.5) / 3, math.exp(-0.5) / 3])
    assert L.exponents.tolist() == [1, -1, -1]


def test_tie_predicts_one_exactly_even_when_one_over_d_is_inexact():
    for d in (2, 4, 6, 10, 12, 1000):
        L = Winnow(d)
        x = np.zeros(d, dtype=np.uint8)
        x[: d // 2] = 1
        assert L.predict_one(x) == 1, d  # 2 * (d/2)(1/d) - 1 = 0: the tie goes to 1
        x[d // 2 - 1] = 0
        assert L.predict_one(x) == 0, d
        x[d // 2 - 1] = 1
        L.learn_one(x, 0)  # a tie on a negative instance is a mistake: demote the first d/2
        assert L.predict_one(x) == 0
        assert L.exponents.tolist() == [-1] * (d // 2) + [0] * (d - d // 2)


def test_weights_return_exactly_after_promotion_and_demotion():
    L = Winnow(6)
    L.learn_one((1, 0, 0, 0, 0, 0), 1)
    L.learn_one((1, 1, 1, 1, 1, 1), 0)  # x0 back to m = 0, the others at -1
    L.learn_one((0, 1, 1, 1, 0, 0), 1)  # the others of x back to 0
    assert L.exponents.tolist() == [0, 0, 0, 0, -1, -1]
    assert L.predict_one((1, 1, 1, 0, 0, 0)) == 1  # exactly the tie 2 * 3/6 = 1


def test_labels_enter_as_0_1_and_are_converted_at_the_edge():
    L = Winnow(3)
    with pytest.raises(InvalidArgumentError, match="y: expected the engine's label 0 or 1"):
        L.learn_one((1, 0, 0), -1)  # the -1/+1 of the lecture never enters the learner
    with pytest.raises(InvalidArgumentError):
        L.learn_one((1, 0, 0), 2)
    L.learn_one((1, 0, 0), np.int64(1))
    L.learn_one((1, 0, 0), True)
    assert L.exponents.tolist() == [1, 0, 0]  # label 1 -> +1: grow; the second round was correct
    L.learn_one((0, 1, 1), 0.0)  # label 0 -> -1: shrink
    assert L.exponents.tolist() == [1, -1, -1]
    assert type(L.predict_one((1, 0, 0))) is int
    M = LittlestoneWinnow(3)
    with pytest.raises(InvalidArgumentError):
        M.learn_one((1, 0, 0), -1)


def test_instances_as_tuples_lists_and_arrays_and_dimension_inference():
    forms = [(1, 0, 1), [1, 0, 1], np.array([1, 0, 1], dtype=np.uint8), np.array([True, False, True]),
             np.array([1.0, 0.0, 1.0])]
    for cls in (Winnow, LittlestoneWinnow):
        preds = set()
        for x in forms:
            L = cls()
            assert L.predict_one(x) in (0, 1)
            L.learn_one(x, 0 if L.predict_one(x) else 1)
            preds.add(tuple(L.weights.tolist()))
        assert len(preds) == 1
        L = cls()
        L.predict_one((0, 1, 0, 1))
        with pytest.raises(InvalidArgumentError, match="length n = 4"):
            L.predict_one((0, 1, 0))
        with pytest.raises(InvalidArgumentError, match="0/1"):
            L.predict_one((0, 2, 0, 1))
        with pytest.raises(InvalidArgumentError):
            cls(n=0)


def test_bad_hyperparameters_are_refused():
    for bad in (0, -0.1, float("nan"), float("inf"), "1/4", True):
        with pytest.raises(InvalidArgumentError, match="eta"):
            Winnow(eta=bad)
    for bad in (1, 0.5, float("inf"), "2"):
        with pytest.raises(InvalidArgumentError, match="alpha"):
            LittlestoneWinnow(alpha=bad)
    for bad in (0, -1.0, float("nan")):
        with pytest.raises(InvalidArgumentError, match="theta"):
            LittlestoneWinnow(theta=bad)
    with pytest.raises(ValueError):
        LittlestoneWinnow(variant="winnow3")
    for bad in (0.5, 0.0, 0.7):
        with pytest.raises(InvalidArgumentError, match="eta"):
            winnow_lecture_bound(10, 2, eta=bad)
    with pytest.raises(InvalidArgumentError, match="theta"):
        winnow1_bound(10, 2, alpha=2, theta=0.4)


@SETTINGS
@given(
    d=st.integers(1, 12),
    eta=st.sampled_from([0.25, 0.1, 0.4, 1.0]),
    data=st.data(),
)
def test_eg_winnow_matches_the_reference_round_by_round(d, eta, data):
    T = data.draw(st.integers(1, 60))
    xs = data.draw(st.lists(st.lists(st.integers(0, 1), min_size=d, max_size=d), min_size=T, max_size=T))
    ys = data.draw(st.lists(st.integers(0, 1), min_size=T, max_size=T))
    pairs = list(zip(map(tuple, xs), ys))
    L = Winnow(eta=eta)
    got = []
    for x, y in pairs:
        got.append(L.predict_one(np.array(x, dtype=np.uint8)))
        L.learn_one(x, y)
    assert got == reference_eg(pairs, d, eta)


@SETTINGS
@given(
    n=st.integers(1, 10),
    variant=st.sampled_from(["winnow1", "winnow2"]),
    strict=st.booleans(),
    alpha=st.sampled_from([2.0, 3.0, 1.5]),
    theta_scale=st.sampled_from([None, 0.5, 1.0, 2.0]),
    data=st.data(),
)
def test_littlestone_matches_the_reference_round_by_round(n, variant, strict, alpha, theta_scale, data):
    theta = None if theta_scale is None else theta_scale * n
    T = data.draw(st.integers(1, 60))
    xs = data.draw(st.lists(st.lists(st.integers(0, 1), min_size=n, max_size=n), min_size=T, max_size=T))
    ys = data.draw(st.lists(st.integers(0, 1), min_size=T, max_size=T))
    pairs = list(zip(map(tuple, xs), ys))
    L = LittlestoneWinnow(alpha=alpha, theta=theta, variant=variant, strict=strict)
    got = []
    for x, y in pairs:
        got.append(L.predict_one(x))
        L.learn_one(x, y)
    assert got == reference_littlestone(pairs, n, alpha, theta, variant, strict)


def test_littlestone_updates_and_threshold_ties():
    L = LittlestoneWinnow(4, variant="winnow2")
    assert L.threshold == 4.0
    assert L.predict_one((1, 1, 1, 1)) == 1  # 4 >= 4
    assert LittlestoneWinnow(4, strict=True).predict_one((1, 1, 1, 1)) == 0  # not 4 > 4
    L.learn_one((1, 1, 1, 1), 0)
    assert L.weights.tolist() == [0.5] * 4  # WINNOW2 divides by alpha
    L.learn_one((1, 1, 0, 0), 1)
    assert L.weights.tolist() == [1.0, 1.0, 0.5, 0.5]  # promotion multiplies by alpha
    E = LittlestoneWinnow(4, variant="winnow1")
    E.learn_one((1, 1, 1, 1), 0)
    assert E.weights.tolist() == [0.0] * 4  # WINNOW1 eliminates
    assert LittlestoneWinnow(alpha=3.0, theta=2.5).clone().theta == 2.5


# -------------------------------------------------------------------- closed-form bounds
def test_bound_closed_forms():
    for d, k in [(1000, 3), (2, 0), (10, 10), (64, 1)]:
        assert winnow_lecture_bound(d, k) == pytest.approx(8 * (k + 1) * math.log(d))
        assert winnow_lecture_bound(d, k, eta=0.1, hinge=3.0) == pytest.approx(((k + 1) * math.log(d) / 0.1 + 3) / 0.8)
        j_worst = k if math.log(d) > 1 else 0
        assert winnow_proven_bound(d, k) == pytest.approx(proven(d, j_worst))
    assert winnow_lecture_bound(1000, 3) == pytest.approx(221.04816892742838)
    for n, k in [(1024, 3), (8, 1), (1000, 0), (1, 1)]:
        assert winnow1_bound(n, k) == pytest.approx(2 * k * (math.log2(n) + 1) + 1)
        assert winnow2_bound(n, k) == pytest.approx(3 * k * (math.log2(n) + 1) + 2)
    assert winnow1_bound(9, 2, alpha=3, theta=3) == pytest.approx(3 * 2 * 2 + 3)
    assert winnow2_bound(9, 2, alpha=3, theta=3) == pytest.approx(4 * 2 * 2 + 3 * 9 / (2 * 3))
    S = KDisjunctionSpace(1000, 3)
    assert Winnow().bound(S).value == winnow_lecture_bound(1000, 3)
    assert LittlestoneWinnow().bound(classes.monotone_disjunctions(4)).value == pytest.approx(3 * 4 * 3 + 2)
    assert LittlestoneWinnow(variant="winnow1", alpha=3).bound(KDisjunctionSpace(9, 1)).value == winnow1_bound(9, 1, 3)


def test_proven_bound_is_below_the_lecture_bound_except_in_the_two_degenerate_cases():
    for d in range(1, 40):
        for k in range(0, 8):
            worse = winnow_proven_bound(d, k) > winnow_lecture_bound(d, k) + 1e-12
            assert worse == (d == 1 or (d == 2 and k == 0)), (d, k)


# ------------------------------------------------------------- exhaustive worst cases
@pytest.mark.parametrize("eta", [0.25, 0.4])
def test_exhaustive_worst_case_of_eg_winnow_within_the_bounds(eta):
    for d in range(1, 6 if eta == 0.25 else 5):
        for k in range(0, d + 1):
            target = tuple(range(k))  # by symmetry any target of k variables behaves alike
            worst, sequence = eg_worst_case(d, target, eta)
            assert worst <= proven(d, k, eta) + 1e-9
            if not (d == 1 and k == 0):
                assert worst <= lecture(d, k, eta) + 1e-9, (d, k, worst)
            # the learner really commits those mistakes on that sequence, in a certified game
            T = play(Winnow(eta=eta), Script(sequence, target), KDisjunctionSpace(d, max(k, 1)), rounds=len(sequence) + 1, seed=0)
            assert T.mistakes == worst == len(sequence)


def test_finding_lecture_bound_fails_for_one_variable_and_the_empty_target():
    """A counterexample to the lecture's ``|M| <= 8 (k+1) ln d`` (seed 003, section 5.2).

    With ``d = 1`` the stated bound is ``8 (k+1) ln 1 = 0`` for every ``k``.  Take the
    empty target (the disjunction of no variable: every label 0; a disjunction of "at
    most k" variables, and row ``false`` of ``monotone_disjunctions(1)``) and present
    ``x = (1,)`` twice.  ``w_1 = 1``: ``2w - 1 = 1 >= 0``, predicted 1, a mistake, and
    ``w`` becomes ``e^{-1/2}``; ``2 e^{-1/2} - 1 = 0.21 >= 0``, again a mistake (with
    either tie rule).  Two mistakes exceed the stated 0.

    The flaw: the derivation bounds ``1 + (log d - 1) ||u||_1`` by ``(k+1) log d``
    using ``||u||_1 <= k + 1``, which needs ``log d - 1 >= 0``; the step also silently
    drops the constant 1, which is harmless only if ``log d >= 1 - ||u||_1``.  For
    ``u = 0`` and ``d = 1`` the divergence ``D(u||w_1) = 1`` is not bounded by
    ``(k+1) ln 1 = 0``.  What the argument proves is ``8 [1 + ||u||_1 (ln d - 1)]``
    (``Winnow.proven_bound``), here 8.  The exhaustive search shows this is the only
    failure for ``d <= 5``.
    """
    pairs = (((1,), 0), ((1,), 0), ((1,), 0))
    for k in (0, 1):
        S = KDisjunctionSpace(1, k)
        T = play(Winnow(), Script(pairs, ()), S, rounds=3, seed=0)
        assert T.mistakes == 2 and T.target == ()
        assert winnow_lecture_bound(1, k) == 0.0 < T.mistakes  # the stated bound is exceeded
        assert T.mistakes <= winnow_proven_bound(1, k)
    H = classes.monotone_disjunctions(1)
    T = play(Winnow(), OppositeLabel(), H, rounds=5, seed=0)
    assert T.mistakes == 1 and Winnow().bound(H).value == 0.0  # the finite zoo class breaks it too
    assert 2 * math.exp(-0.5) - 1 > 0 > 2 * math.exp(-1.0) - 1  # exactly two mistakes, then no more
    assert eg_worst_case(1, ())[0] == 2


@pytest.mark.parametrize("variant", ["winnow1", "winnow2"])
def test_exhaustive_worst_case_of_littlestone_within_its_bounds(variant):
    bound = winnow1_bound if variant == "winnow1" else winnow2_bound
    cases = [(2, None), (2, 0.5), (3, 1.0), (1.5, 2.0)]
    for n in range(1, 5):
        for alpha, scale in cases:
            theta = None if scale is None else scale * n
            if theta is not None and theta < 1 / alpha:
                continue
            for k in range(0, n + 1):
                for strict in (False, True):
                    worst = littlestone_worst_case(n, tuple(range(k)), variant, alpha, theta, strict)
                    assert worst <= bound(n, k, alpha, theta) + 1e-9, (n, alpha, theta, k, strict, worst)


def test_finding_winnow2_exceeds_the_winnow1_form_of_the_bound():
    """``alpha k (log_alpha theta + 1) + n/theta`` is WINNOW1's bound, not WINNOW2's.

    With ``n = 4``, ``alpha = 2``, ``theta = 2`` and the empty target, WINNOW2 errs 3
    times on ``(1,1,0,0), (0,0,1,1), (1,1,1,1)`` (score 2 >= 2 each time, weights
    halved), while that form gives ``0 + 4/2 = 2``; WINNOW1 zeroes the weights and errs
    twice.  WINNOW2's demotion takes away only ``(1 - 1/alpha)`` of the score, hence the
    extra ``alpha/(alpha - 1)`` and ``(alpha + 1)`` factors of ``winnow2_bound``.
    """
    x = ((1, 1, 0, 0), (0, 0, 1, 1), (1, 1, 1, 1), (1, 1, 1, 1))
    pairs = tuple((v, 0) for v in x)
    S = KDisjunctionSpace(4, 1)
    T2 = play(LittlestoneWinnow(theta=2.0), Script(pairs, ()), S, rounds=4, seed=0)
    T1 = play(LittlestoneWinnow(theta=2.0, variant="winnow1"), Script(pairs, ()), S, rounds=4, seed=0)
    assert T2.mistakes == 3 > winnow1_bound(4, 0, 2, 2.0) == 2
    assert T2.mistakes <= winnow2_bound(4, 0, 2, 2.0) == 4
    assert T1.mistakes == 2


# ------------------------------------------------------------------ games and bounds
LEARNERS = [
    ("eg", lambda: Winnow()),
    ("winnow2", lambda: LittlestoneWinnow()),
    ("winnow1", lambda: LittlestoneWinnow(variant="winnow1")),
]


def bound_of(name, n, k):
    if name == "eg":
        return winnow_lecture_bound(n, k)
    return winnow2_bound(n, k) if name == "winnow2" else winnow1_bound(n, k)


@settings(max_examples=15, deadline=None)
@given(n=st.integers(2, 80), data=st.data(), seed=st.integers(0, 2**16))
def test_random_k_disjunction_streams_within_the_bounds(n, data, seed):
    k = data.draw(st.integers(0, n))
    density = data.draw(st.sampled_from([None, 0.05, 0.5, 0.9]))
    S = KDisjunctionSpace(n, k)
    for name, make in LEARNERS:
        T = play(make(), DisjunctionStream(density=density), S, rounds=120, seed=seed)
        assert T.mistakes <= bound_of(name, n, k), name
    T = play(Winnow(), DisjunctionStream(density=density), S, rounds=120, seed=seed)
    assert T.mistakes <= winnow_proven_bound(n, k)


@SETTINGS
@given(n=st.integers(1, 9), data=st.data(), seed=st.integers(0, 2**16))
def test_adversary_answering_against_whenever_consistent_stays_within_the_bounds(n, data, seed):
    k = data.draw(st.integers(0, min(n, 3)))
    density = data.draw(st.sampled_from([0.2, 0.5, 0.8]))
    eta = data.draw(st.sampled_from([0.25, 0.1, 0.45]))
    S = KDisjunctionSpace(n, k)
    T = play(Winnow(eta=eta), AgainstWhenConsistent(k, density), S, rounds=80, seed=seed)
    assert T.mistakes <= winnow_proven_bound(n, k, eta)
    if n >= 2 or T.target:
        assert T.mistakes <= winnow_lecture_bound(n, k, eta)
    for name, make in LEARNERS[1:]:
        T = play(make(), AgainstWhenConsistent(k, density), S, rounds=80, seed=seed)
        assert T.mistakes <= bound_of(name, n, k)


@settings(max_examples=15, deadline=None)
@given(n=st.integers(2, 120), data=st.data(), seed=st.integers(0, 2**16))
def test_adaptive_disjunction_adversary_forces_and_stays_within_the_bounds(n, data, seed):
    k = data.draw(st.integers(0, min(n, 6)))
    S = KDisjunctionSpace(n, k)
    forced = DisjunctionAdversary().forced_mistakes(S)
    for name, make in LEARNERS:
        T = play(make(), DisjunctionAdversary(), S, rounds=150, seed=seed)
        assert forced <= T.mistakes <= bound_of(name, n, k), name


@SETTINGS
@given(n=st.integers(1, 60), data=st.data())
def test_basis_vectors_force_k_mistakes_and_stay_within_the_bounds(n, data):
    k = data.draw(st.integers(0, n))
    S = KDisjunctionSpace(n, k)
    T = play(Winnow(), BasisVectorForcer(), S, rounds=n + 1, seed=0)
    assert T.mistakes == min(n, k)
    assert T.mistakes <= winnow_proven_bound(n, k)
    if n >= 2:
        assert T.mistakes <= winnow_lecture_bound(n, k)


def test_k_equals_d_on_the_finite_class_with_opposite_labels():
    for n in range(2, 7):
        H = classes.monotone_disjunctions(n)
        for name, make in LEARNERS:
            T = play(make(), OppositeLabel(), H, rounds=200, seed=0)
            assert T.mistakes <= bound_of(name, n, n), (n, name)
            assert len(T.version_space) == 1  # it played until the target was pinned down


def test_small_d_classes_of_at_most_k_variables_with_opposite_labels():
    for n in range(2, 6):
        X = list(itertools.product((0, 1), repeat=n))
        for k in range(0, n):
            rows = [S for j in range(k + 1) for S in itertools.combinations(range(n), j)]
            M = [[int(any(x[i] for i in S)) for x in X] for S in rows]
            H = HypothesisClass.from_matrix(M, domain=X)
            T = play(Winnow(), OppositeLabel(), H, rounds=300, seed=0)
            assert T.mistakes <= winnow_lecture_bound(n, k)


@SETTINGS
@given(
    n=st.integers(2, 120),
    noise=st.sampled_from([0.02, 0.1, 0.25, 0.5]),
    eta=st.sampled_from([0.25, 0.1, 0.4]),
    data=st.data(),
    seed=st.integers(0, 2**16),
)
def test_noisy_streams_within_the_agnostic_bound(n, noise, eta, data, seed):
    k = data.draw(st.integers(1, min(n, 5)))
    S = KDisjunctionSpace(n, k)
    T = play(Winnow(eta=eta), DisjunctionStream(noise=noise), S, rounds=150, seed=seed, realizable=False)
    assert T.best_hypothesis_mistakes == round(noise * 150)
    # f_t(u) on the mistake rounds, computed here from the transcript
    u = set(T.target)
    hinge = 0.0
    for r in T.rounds:
        if r.mistake:
            hits = sum(r.x[i] for i in u)
            hinge += max(0, 1 - (2 * r.y - 1) * (2 * hits - 1))
    assert hinge == sum(disjunction_hinge_losses(T))
    assert T.mistakes <= winnow_lecture_bound(n, k, eta, hinge)
    assert T.mistakes <= winnow_proven_bound(n, k, eta, hinge)
    # the learner's claim reads the same hinge loss off the transcript
    claim = Winnow(eta=eta).bound(S, realizable=False, transcript=T)
    by_hand = ((k + 1) * math.log(n) / eta + hinge) / (1 - 2 * eta)
    assert claim.value == pytest.approx(by_hand) and claim.measure == "mistakes"


def test_hinge_losses_all_rounds_and_explicit_target():
    from mistakebound.game.transcript import Round, Transcript

    rounds = [Round(1, (1, 1, 1), 1.0, 1, 0), Round(2, (0, 0, 1), 1.0, 1, 1)]
    T = Transcript(rounds=rounds)
    assert disjunction_hinge_losses(T, (0, 1)) == (4.0, 0.0)
    assert disjunction_hinge_losses(T, (2,), mistakes_only=False) == (2.0, 0.0)
    with pytest.raises(InvalidArgumentError, match="target"):
        disjunction_hinge_losses(T)


# ------------------------------------------------------------------------ n = 1000
@pytest.mark.parametrize("name,make", LEARNERS)
def test_n_1000_games(name, make):
    S = KDisjunctionSpace(1000, 3)
    for adversary in (DisjunctionStream(), DisjunctionAdversary()):
        T = play(make(), adversary, S, rounds=250, seed=7)
        assert len(T) == 250 and len(T.target) <= 3
        assert T.mistakes <= bound_of(name, 1000, 3)
    assert play(make(), DisjunctionAdversary(), S, rounds=250, seed=7).mistakes >= DisjunctionAdversary().forced_mistakes(S)
    T = play(make(), BasisVectorForcer(), S, rounds=10, seed=0)
    assert T.mistakes == 3


def test_n_1000_noisy_eg_within_agnostic_bound():
    S = KDisjunctionSpace(1000, 3)
    T = play(Winnow(), DisjunctionStream(noise=0.1), S, rounds=300, seed=5, realizable=False)
    hinge = sum(disjunction_hinge_losses(T))
    assert hinge > 0 and T.mistakes <= winnow_lecture_bound(1000, 3, hinge=hinge)


def test_a_noisy_stream_in_a_realizable_game_is_refused():
    with pytest.raises(PlayerError, match="noise"):
        play(Winnow(), DisjunctionStream(noise=0.1), KDisjunctionSpace(10, 2), rounds=10, seed=0)


# ------------------------------------------------------------------- the claims: bound() and for_setting()
def test_eg_winnow_claims_the_lecture_form():
    for n, k, eta in [(1000, 3, 0.25), (64, 1, 0.1), (10, 10, 0.4)]:
        claim = Winnow(eta=eta).bound(KDisjunctionSpace(n, k))
        assert claim.value == pytest.approx((k + 1) * math.log(n) / eta / (1 - 2 * eta))
        assert claim.measure == "mistakes" and "seed 003" in claim.source
    H = classes.monotone_disjunctions(5)  # k = n on the finite class
    assert Winnow().bound(H).value == pytest.approx(8 * 6 * math.log(5))


def test_eg_winnow_claim_is_none_with_a_reason():
    S = KDisjunctionSpace(20, 2)
    T = play(Winnow(), Script((((1,) * 20, 0),), (0,)), S, rounds=1, seed=0, realizable=False)  # f_1(u) = 2
    untargeted = play(Winnow(), OppositeLabel(), classes.monotone_disjunctions(3), rounds=3, seed=0, realizable=False)
    cases = {
        "transcript": Winnow().bound(S, realizable=False),
        "eta": Winnow(eta=0.6).bound(S),
        "plays on monotone disjunctions": Winnow().bound(classes.thresholds(3)),
        "not a monotone disjunction": Winnow().bound(classes.parities(2)),
        "certifies no target": Winnow().bound(classes.monotone_disjunctions(3), realizable=False, transcript=untargeted),
        "built for n = 5": Winnow(5).bound(S),
    }
    for word, claim in cases.items():
        assert claim.value is None and word in claim.reason, (word, claim.reason)
    assert T.mistakes == 1
    assert Winnow().bound(S, realizable=False, transcript=T).value == pytest.approx((3 * math.log(20) / 0.25 + 2) / 0.5)


def test_littlestone_winnow_claims_its_variants_bound():
    S = KDisjunctionSpace(1024, 2)
    assert LittlestoneWinnow().bound(S).value == pytest.approx(3 * 2 * 11 + 2)  # (alpha+1) k (log2 n + 1) + 2
    assert LittlestoneWinnow(variant="winnow1").bound(S).value == pytest.approx(2 * 2 * 11 + 1)
    custom = LittlestoneWinnow(alpha=3.0, theta=9.0, variant="winnow1").bound(KDisjunctionSpace(27, 1))
    assert custom.value == pytest.approx(3 * 1 * (2 + 1) + 27 / 9) and "WINNOW1" in custom.source
    assert "realizable" in LittlestoneWinnow().bound(S, realizable=False).reason
    assert "theta >= 1/alpha" in LittlestoneWinnow(theta=0.1).bound(S).reason
    assert LittlestoneWinnow().bound(classes.parities(3)).value is None


def test_disjunction_learners_are_built_for_disjunction_settings():
    from mistakebound.foundations.errors import NotApplicableError
    from mistakebound.game.spaces import LinearSpace

    for cls in (Winnow, LittlestoneWinnow):
        assert cls.for_setting(KDisjunctionSpace(30, 2)).n == 30
        H = classes.monotone_disjunctions(4)
        L = cls.for_setting(H)
        assert L.n == 4 and play(L, BasisVectorForcer(), H, rounds=10, seed=0).mistakes == 4
        for setting in (classes.thresholds(3), LinearSpace(3)):
            with pytest.raises(NotApplicableError, match=f"{cls.__name__} plays on"):
                cls.for_setting(setting)
