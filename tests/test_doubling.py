"""The doubling trick (textbook ch. 21, Exercise 4) with Weighted-Majority inside.

Block boundaries, per-block regrets and the bounds are recomputed here from the
transcript: block ``m`` holds rounds ``2^m .. 2^(m+1) - 1`` and its regret is its
expected loss minus its best expert's loss.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mistakebound import play
from mistakebound.adversaries.expert_adversaries import HeaviestExpertLoss, RandomExpertLosses, SplitAdvice
from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.learners.doubling import (
    DoublingTrick,
    ForHorizon,
    block_of_round,
    doubling_block_regret_bound,
    doubling_regret_bound,
)
from mistakebound.learners.weighted_majority import DeterministicWeightedMajority, WeightedMajority
from mistakebound.game.spaces import ExpertAdvice

SETTINGS = settings(max_examples=50, deadline=None)
TOL = 1e-9


def blocks(n: int) -> list[range]:
    """Round indices (0-based) of each block: [0], [1, 2], [3..6], ... cut at n."""
    out, start, m = [], 0, 0
    while start < n:
        out.append(range(start, min(n, start + 2**m)))
        start += 2**m
        m += 1
    return out


def loss_matrix(rounds) -> np.ndarray:
    X = np.array([r.x for r in rounds], dtype=float)
    y = np.array([r.y for r in rounds], dtype=float)[:, None]
    return np.abs(X - y)


def naive_wm(xs, ys, d, T) -> list[float]:
    eta = math.sqrt(2 * math.log(d) / T)
    w = np.ones(d)
    out = []
    for x, y in zip(xs, ys):
        x = np.asarray(x, dtype=float)
        out.append(float(w @ x / w.sum()))
        w = w * np.exp(-eta * np.abs(x - y))
    return out


adversaries = st.sampled_from(["heaviest", "uniform", "binary"])


def make_adversary(kind):
    if kind == "heaviest":
        return HeaviestExpertLoss()
    return RandomExpertLosses(costs=kind, labels="coin")


@SETTINGS
@given(st.integers(1, 6), st.integers(1, 150), st.integers(0, 10**6), adversaries)
def test_doubling_regret_within_the_exercise_bound(d, n, seed, kind):
    horizons = []

    def factory(T):
        horizons.append(T)
        return WeightedMajority(d, T)

    L = DoublingTrick(factory)
    tr = play(L, make_adversary(kind), ExpertAdvice(d), rounds=n, seed=seed, realizable=False)
    parts = blocks(n)
    assert horizons == [2**m for m in range(len(parts))] == list(L.block_lengths)
    losses = loss_matrix(tr.rounds)
    alpha = math.sqrt(2 * math.log(d))
    total_block_regret = 0.0
    for m, part in enumerate(parts):
        rounds = [tr.rounds[i] for i in part]
        # inside a block the learner is a fresh WeightedMajority(d, 2^m)
        expected_p = naive_wm([r.x for r in rounds], [r.y for r in rounds], d, 2**m)
        assert [r.p for r in rounds] == pytest.approx(expected_p, abs=1e-9)
        block_regret = sum(abs(r.p - r.y) for r in rounds) - losses[list(part)].sum(axis=0).min()
        assert block_regret <= alpha * math.sqrt(2**m) + TOL
        total_block_regret += block_regret
    regret = tr.expected_mistakes - losses.sum(axis=0).min()
    assert regret <= total_block_regret + TOL
    geometric = alpha * (math.sqrt(2) ** len(parts) - 1) / (math.sqrt(2) - 1)
    assert regret <= geometric + TOL
    assert doubling_block_regret_bound(alpha, n) == pytest.approx(geometric)
    bound = math.sqrt(2) / (math.sqrt(2) - 1) * alpha * math.sqrt(n)
    assert geometric <= bound + TOL
    assert doubling_regret_bound(alpha, n) == pytest.approx(bound)
    # the wrapper's claim derives alpha = sqrt(2 ln d) from the blocks' own claims (Theorem 21.11)
    claim = L.bound(ExpertAdvice(d), rounds=n, realizable=False)
    assert claim.value == pytest.approx(bound) and claim.measure == "regret"
    assert claim == L.bound(ExpertAdvice(d), realizable=False, transcript=tr)
    assert regret <= claim.value + TOL


@SETTINGS
@given(st.integers(1, 6), st.integers(1, 80))
def test_doubling_a_deterministic_learner_keeps_it_deterministic(d, n):
    tr = play(DoublingTrick(lambda T: DeterministicWeightedMajority(d)), SplitAdvice(), ExpertAdvice(d),
              rounds=n, seed=0, realizable=False)
    assert all(r.p in (0.0, 1.0) and r.prediction == r.p for r in tr.rounds)
    assert tr.mistakes == n  # SplitAdvice answers against every prediction


def test_block_of_round_and_predict_one():
    assert [block_of_round(t) for t in (1, 2, 3, 4, 7, 8, 15, 16)] == [0, 1, 1, 2, 2, 3, 3, 4]
    L = DoublingTrick(lambda T: WeightedMajority(2, T))
    assert L.current is None and L.block_lengths == ()
    assert L.predict_one([1.0, 0.0]) == 1  # p = 1/2: the likelier label, 1 on a tie
    L.learn_one([1.0, 0.0], 0)
    assert L.current is None and L.block_lengths == (1,)  # the next block starts at its first round
    assert L.predict_proba_one([1.0, 0.0]) == 0.5 and L.block_lengths == (1, 2)
    assert L.clone().block_lengths == ()
    with pytest.raises(InvalidArgumentError, match="alpha"):
        doubling_regret_bound(-1.0, 4)
    with pytest.raises(InvalidArgumentError, match="t: expected"):
        block_of_round(0)


def test_claim_reasons_and_a_deterministic_inner_learner():
    L = DoublingTrick(lambda T: WeightedMajority(3, T))
    assert "not given" in L.bound(ExpertAdvice(3), realizable=False).reason
    # a block's learner stating nothing (DWM without its transcript in an unrealizable game) gives nothing
    D = DoublingTrick(lambda T: DeterministicWeightedMajority(3))
    claim = D.bound(ExpertAdvice(3), rounds=10, realizable=False)
    assert claim.value is None and "block 0" in claim.reason and "transcript" in claim.reason
    # realizable: each block's DWM claims log2 3 / log2(4/3); alpha is the largest claim_m / sqrt(2^m)
    dwm = math.log2(3) / math.log2(4 / 3)
    claim = D.bound(ExpertAdvice(3), rounds=10)
    assert claim.measure == "expected mistakes"
    assert claim.value == pytest.approx(math.sqrt(2) / (math.sqrt(2) - 1) * dwm * math.sqrt(10))
    assert L.bound(ExpertAdvice(4), rounds=10, realizable=False).value is None  # d = 3 learners, 4 experts
    assert L.bound(ExpertAdvice(3), rounds=0, realizable=False).value == 0.0


def test_for_setting_tunes_the_zoos_horizon_learners():
    from mistakebound.foundations.errors import NotApplicableError
    from mistakebound.game import classes
    from mistakebound.game.spaces import LinearSpace
    from mistakebound.learners.experts_from_class import ExpertsFromClass

    L = DoublingTrick.for_setting(ExpertAdvice(4))
    assert L.make_learner == ForHorizon(WeightedMajority, ExpertAdvice(4))
    tr = play(L, HeaviestExpertLoss(), ExpertAdvice(4), rounds=40, seed=0, realizable=False)
    assert L.block_lengths == (1, 2, 4, 8, 16, 32) and isinstance(L.current, WeightedMajority)
    assert tr.regret <= L.bound(ExpertAdvice(4), transcript=tr, realizable=False).value
    H = classes.thresholds(7)
    E = DoublingTrick.for_setting(H)
    assert isinstance(E.make_learner(8), ExpertsFromClass) and E.make_learner(8).T == 8
    # alpha = sqrt(2 ln |H|): ExpertsFromClass's claim for each block
    assert E.bound(H, rounds=20, realizable=False).value == pytest.approx(
        math.sqrt(2) / (math.sqrt(2) - 1) * math.sqrt(2 * math.log(8)) * math.sqrt(20))
    with pytest.raises(NotApplicableError, match="DoublingTrick plays on"):
        DoublingTrick.for_setting(LinearSpace(2))
