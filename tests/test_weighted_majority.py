"""Weighted-Majority (randomized and deterministic), ExpertsFromClass, the expert adversaries, the suite.

Expected values are computed here from the definitions: the weights by plain
multiplication, the best expert's (or hypothesis's) loss by summing the losses, the
forced regret of the heaviest-expert adversary from its round-robin pattern.  The
learners' expected losses come from the engine's exact ``expected_mistakes``.
"""

from __future__ import annotations

import math
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mistakebound import HypothesisClass, play
from mistakebound.game import classes
from mistakebound.adversaries import ObliviousCoin, OppositeLabel
from mistakebound.adversaries.expert_adversaries import HeaviestExpertLoss, RandomExpertLosses, SplitAdvice
from mistakebound.foundations.errors import InvalidArgumentError, NotApplicableError
from mistakebound.learners.experts_from_class import ExpertsFromClass
from mistakebound.learners.weighted_majority import (
    DeterministicWeightedMajority,
    WeightedMajority,
    deterministic_weighted_majority_bound,
    weighted_majority_rate_regret_bound,
    weighted_majority_regret_bound,
)
from mistakebound.game.players import ObliviousAdversary
from mistakebound.game.spaces import ExpertAdvice
from mistakebound.verification.claims import judge
from tests.strategies import hypothesis_classes

SETTINGS = settings(max_examples=60, deadline=None)
TOL = 1e-9


class Fixed(ObliviousAdversary):
    """Plays a given list of (instance, label) pairs."""

    def __init__(self, pairs):
        self.pairs = list(pairs)

    def commit(self, H, rounds, rng, realizable):
        return self.pairs


def cost_sequence(seed: int, d: int, T: int, kind: str, labels: str):
    """Advice/label pairs with expert losses v_t: 0/1 or uniform costs, label 0 or a coin."""
    rng = np.random.default_rng(seed)
    V = rng.integers(0, 2, size=(T, d)).astype(float) if kind == "binary" else rng.random((T, d))
    ys = rng.integers(0, 2, size=T) if labels == "coin" else np.zeros(T, dtype=int)
    return [(list(np.abs(y - v)), int(y)) for v, y in zip(V, ys)]


def best_expert_loss(rounds) -> float:
    X = np.array([r.x for r in rounds], dtype=float)
    y = np.array([r.y for r in rounds], dtype=float)[:, None]
    return min(math.fsum(col) for col in np.abs(X - y).T)


def naive_wm_probabilities(pairs, d: int, eta: float) -> list[float]:
    """The textbook algorithm literally: weights multiplied by exp(-eta v), p = <w/Z, x>."""
    w = np.ones(d)
    out = []
    for x, y in pairs:
        x = np.asarray(x, dtype=float)
        out.append(float(w @ x / w.sum()))
        w = w * np.exp(-eta * np.abs(x - y))
    return out


kinds = st.sampled_from(["binary", "uniform"])
label_modes = st.sampled_from(["zero", "coin"])


# ------------------------------------------------------------------ WeightedMajority
@SETTINGS
@given(st.integers(1, 6), st.integers(1, 40), st.integers(0, 10**6), kinds, label_modes)
def test_wm_probabilities_follow_the_textbook(d, T, seed, kind, labels):
    pairs = cost_sequence(seed, d, T, kind, labels)
    tr = play(WeightedMajority(d, T), Fixed(pairs), ExpertAdvice(d), rounds=T, seed=seed, realizable=False)
    eta = math.sqrt(2 * math.log(d) / T)
    assert [r.p for r in tr.rounds] == pytest.approx(naive_wm_probabilities(pairs, d, eta), abs=1e-9)


@SETTINGS
@given(st.integers(1, 8), st.integers(1, 80), st.integers(0, 10**6), kinds, label_modes)
def test_wm_regret_within_theorem_21_11(d, T, seed, kind, labels):
    pairs = cost_sequence(seed, d, T, kind, labels)
    tr = play(WeightedMajority(d, T), Fixed(pairs), ExpertAdvice(d), rounds=T, seed=seed, realizable=False)
    best = best_expert_loss(tr.rounds)
    regret = tr.expected_mistakes - best
    assert tr.regret == pytest.approx(regret, abs=TOL)
    assert regret <= math.sqrt(2 * T * math.log(d)) + TOL
    assert weighted_majority_regret_bound(d, T) == pytest.approx(math.sqrt(2 * T * math.log(d)))
    claim = WeightedMajority(d, T).bound(ExpertAdvice(d), realizable=False, transcript=tr)
    assert claim.value == pytest.approx(math.sqrt(2 * T * math.log(d))) and claim.measure == "regret"
    assert judge(tr.regret, claim).status == "ok"


@SETTINGS
@given(st.integers(8, 64), st.data(), st.integers(0, 10**6), st.booleans())
def test_wm_bound_holds_below_the_precondition(d, data, seed, adaptive):
    """T <= 2 ln d, outside Theorem 21.11's assumption: the bound still holds (it is >= T there)."""
    T = data.draw(st.integers(1, int(2 * math.log(d))))
    adversary = HeaviestExpertLoss() if adaptive else Fixed(cost_sequence(seed, d, T, "uniform", "coin"))
    tr = play(WeightedMajority(d, T), adversary, ExpertAdvice(d), rounds=T, seed=seed, realizable=False)
    regret = tr.expected_mistakes - best_expert_loss(tr.rounds)
    assert regret <= math.sqrt(2 * T * math.log(d)) + TOL
    assert math.sqrt(2 * T * math.log(d)) >= T  # vacuous there


@SETTINGS
@given(st.integers(2, 6), st.integers(1, 20), st.integers(1, 4), st.integers(0, 10**6))
def test_wm_beyond_its_horizon_meets_the_proofs_bound(d, T, factor, seed):
    """Played for n = factor * T rounds, regret <= ln d / eta + eta n / 2 (proof of Thm 21.11)."""
    n = factor * T
    pairs = cost_sequence(seed, d, n, "uniform", "coin")
    L = WeightedMajority(d, T)
    tr = play(L, Fixed(pairs), ExpertAdvice(d), rounds=n, seed=seed, realizable=False)
    eta = math.sqrt(2 * math.log(d) / T)
    assert tr.expected_mistakes - best_expert_loss(tr.rounds) <= math.log(d) / eta + eta * n / 2 + TOL
    assert weighted_majority_rate_regret_bound(d, eta, n) == pytest.approx(math.log(d) / eta + eta * n / 2)
    if n > T:  # past its horizon the learner claims nothing (the proof's bound above still holds)
        assert "tuned for T" in L.bound(ExpertAdvice(d), realizable=False, transcript=tr).reason


def test_wm_stays_finite_over_long_games():
    """Every expert loses every round; plain weights exp(-eta L) would all underflow to 0 (0/0)."""
    d, T, n = 3, 10, 4000  # eta = 0.47; the best expert's plain weight would be exp(-940)
    pairs = [([0.0, 0.5, 0.0], 1)] * n
    tr = play(WeightedMajority(d, T), Fixed(pairs), ExpertAdvice(d), rounds=n, seed=0, realizable=False)
    assert all(0.0 <= r.p <= 1.0 for r in tr.rounds)
    assert tr.rounds[-1].p == pytest.approx(0.5)  # expert 1 carries all the weight


def test_wm_single_expert_has_no_regret():
    tr = play(WeightedMajority(1, 10), RandomExpertLosses(labels="coin"), ExpertAdvice(1), rounds=10, seed=4,
              realizable=False)
    assert tr.regret == pytest.approx(0.0, abs=TOL)


# ------------------------------------------------------------------ HeaviestExpertLoss
def round_robin_regret(d: int, T: int, eta: float) -> float:
    """Independent: charge experts 0, 1, ..., d-1, 0, ... and pay the charged expert's weight."""
    L = np.zeros(d)
    paid = 0.0
    for t in range(T):
        i = t % d
        w = np.exp(-eta * L)
        paid += w[i] / w.sum()
        L[i] += 1
    return paid - L.min()


@SETTINGS
@given(st.integers(1, 8), st.integers(1, 80), st.integers(0, 1000))
def test_heaviest_expert_forces_its_closed_form(d, T, seed):
    L = WeightedMajority(d, T)
    tr = play(L, HeaviestExpertLoss(), ExpertAdvice(d), rounds=T, seed=seed, realizable=False)
    assert [int(np.argmax(r.x)) for r in tr.rounds] == [t % d for t in range(T)]
    assert all(r.y == 0 and sum(r.x) == 1 for r in tr.rounds)
    eta = math.sqrt(2 * math.log(d) / T)
    expected = round_robin_regret(d, T, eta)
    assert tr.regret == pytest.approx(expected, abs=1e-9)
    assert HeaviestExpertLoss.forced_regret(d, T, eta) == pytest.approx(expected, abs=1e-9)
    # the clean lower bound: per full cycle at least (1 - e^-eta)(d - 1)/(2d)
    assert tr.regret >= (T // d) * (1 - math.exp(-eta)) * (d - 1) / (2 * d) - TOL


def test_heaviest_expert_reaches_a_constant_fraction_of_the_bound():
    """Measured: about (d - 1)/(2 d^2) of sqrt(2 T ln d), i.e. 1/8 for d = 2 (documented in the class)."""
    for d, T, lo, hi in [(2, 64, 0.12, 0.126), (4, 64, 0.09, 0.1), (10, 100, 0.04, 0.05)]:
        L = WeightedMajority(d, T)
        tr = play(L, HeaviestExpertLoss(), ExpertAdvice(d), rounds=T, seed=0, realizable=False)
        ratio = tr.regret / weighted_majority_regret_bound(d, T)
        assert lo <= ratio <= hi, (d, T, ratio)


def test_heaviest_expert_ties_and_realizable_games():
    H = ExpertAdvice(4)
    tr = play(WeightedMajority(4, 10), HeaviestExpertLoss(eta=0.0), H, rounds=5, seed=0, realizable=False)
    assert [int(np.argmax(r.x)) for r in tr.rounds] == [0] * 5  # eta = 0: every round a tie, lowest index
    tr = play(WeightedMajority(4, 10), HeaviestExpertLoss(), H, rounds=10, seed=0)
    assert len(tr) == 3 and tr.best_hypothesis_mistakes == 0.0
    assert not HeaviestExpertLoss(d=3).applies_to(H) and HeaviestExpertLoss(d=4).applies_to(H)
    with pytest.raises(NotApplicableError):
        play(WeightedMajority(3, 5), HeaviestExpertLoss(), classes.thresholds(3), rounds=5, seed=0)


# ------------------------------------------------------------------ RandomExpertLosses
@SETTINGS
@given(st.integers(1, 6), st.integers(1, 30), st.integers(0, 10**6), kinds, label_modes, st.booleans())
def test_random_losses_are_oblivious_and_legal(d, T, seed, kind, labels, realizable):
    adversary = RandomExpertLosses(costs=kind, labels=labels)
    tr = play(WeightedMajority(d, T), adversary, ExpertAdvice(d), rounds=T, seed=seed, realizable=realizable)
    tr2 = play(DeterministicWeightedMajority(d), adversary, ExpertAdvice(d), rounds=T, seed=seed,
               realizable=realizable)
    assert tr.xs == tr2.xs and tr.ys == tr2.ys  # fixed before round 1, whatever the learner
    X = np.array(tr.xs)
    if kind == "binary":
        assert set(np.unique(X)) <= {0.0, 1.0}
    if labels == "zero":
        assert set(tr.ys) == {0}
    if realizable:
        assert tr.best_hypothesis_mistakes == 0.0


# ------------------------------------------------------------------ deterministic WM
def naive_dwm(pairs, d: int, beta: float) -> list[int]:
    w = np.ones(d)
    out = []
    for x, y in pairs:
        x = np.asarray(x, dtype=float)
        out.append(int(w @ x >= w.sum() / 2))
        w = w * beta ** np.abs(x - y)
    return out


def lw_bound(n: int, m: float, beta: float) -> float:
    return (math.log2(n) + m * math.log2(1 / beta)) / math.log2(2 / (1 + beta))


betas = st.sampled_from([0.5, 0.5, 0.1, 0.25, 0.75, 0.9])


@SETTINGS
@given(st.integers(1, 8), st.integers(1, 60), st.integers(0, 10**6), kinds, label_modes, betas)
def test_dwm_follows_the_definition_and_its_bound(d, T, seed, kind, labels, beta):
    pairs = cost_sequence(seed, d, T, kind, labels)
    tr = play(DeterministicWeightedMajority(d, beta), Fixed(pairs), ExpertAdvice(d), rounds=T, seed=seed,
              realizable=False)
    if kind == "binary" and beta == 0.5:  # exact weights: predictions must match exactly
        assert [r.prediction for r in tr.rounds] == naive_dwm(pairs, d, beta)
    m = best_expert_loss(tr.rounds)
    assert tr.mistakes <= lw_bound(d, m, beta) + TOL
    assert deterministic_weighted_majority_bound(d, m, beta) == pytest.approx(lw_bound(d, m, beta))
    claim = DeterministicWeightedMajority(d, beta).bound(ExpertAdvice(d), realizable=False, transcript=tr)
    assert claim.value == pytest.approx(lw_bound(d, m, beta)) and claim.measure == "mistakes"


@SETTINGS
@given(st.integers(1, 10), st.integers(1, 60), betas)
def test_split_advice_forces_a_mistake_every_round(d, T, beta):
    tr = play(DeterministicWeightedMajority(d, beta), SplitAdvice(), ExpertAdvice(d), rounds=T, seed=0,
              realizable=False)
    assert tr.mistakes == T
    m = best_expert_loss(tr.rounds)
    if d >= 2:
        assert m <= T / 2
    assert T <= lw_bound(d, m, beta) + TOL


@SETTINGS
@given(st.integers(1, 40), betas)
def test_split_advice_realizable_forces_log2_d(d, beta):
    tr = play(DeterministicWeightedMajority(d, beta), SplitAdvice(), ExpertAdvice(d), rounds=100, seed=0)
    assert tr.best_hypothesis_mistakes == 0.0
    assert tr.mistakes == len(tr) >= math.floor(math.log2(d))
    assert tr.mistakes <= lw_bound(d, 0, beta) + TOL


def test_dwm_tie_goes_to_one_and_weights_halve():
    L = DeterministicWeightedMajority(2)
    assert L.predict_one([1.0, 0.0]) == 1 and L.predict_one([0.0, 1.0]) == 1
    assert L.predict_one([0.5, 0.5]) == 1  # fractional advice: average exactly 1/2
    L.learn_one([1.0, 0.0], 0)
    assert L.weights.tolist() == [0.5, 1.0]
    assert L.predict_one([1.0, 0.0]) == 0
    assert deterministic_weighted_majority_bound(8, 2) == pytest.approx(5 / math.log2(4 / 3))


# ------------------------------------------------------------------ ExpertsFromClass
class NoisyTarget(ObliviousAdversary):
    """Uniform instances labelled by a random hypothesis, each label flipped with probability ``noise``."""

    def __init__(self, noise):
        self.noise = noise

    def commit(self, H, rounds, rng, realizable):
        cols = rng.integers(0, H.n_instances, size=rounds)
        h = int(rng.integers(0, H.n_hypotheses))
        flips = rng.random(rounds) < self.noise
        return [(H.domain[int(j)], int(H.matrix[h, j]) ^ int(f)) for j, f in zip(cols, flips)]


@SETTINGS
@given(hypothesis_classes(max_rows=10, max_cols=5, min_cols=1), st.integers(1, 40), st.integers(0, 10**6),
       st.sampled_from(["noisy", "coin", "opposite"]), st.floats(0, 0.5))
def test_experts_from_class_regret(H, T, seed, kind, noise):
    adversary = {"noisy": NoisyTarget(noise), "coin": ObliviousCoin(labels="coin"), "opposite": OppositeLabel()}[kind]
    tr = play(ExpertsFromClass(H, T), adversary, H, rounds=T, seed=seed, realizable=False)
    cols = [H.index_of(x) for x in tr.xs]
    ys = np.array(tr.ys)
    hyp_losses = (H.matrix[:, cols] != ys).sum(axis=1)
    best = int(hyp_losses.min()) if len(tr) else 0
    # p_t is the weighted vote of the hypotheses, weights exp(-eta * mistakes so far)
    eta = math.sqrt(2 * math.log(H.n_hypotheses) / T)
    mistakes = np.zeros(H.n_hypotheses)
    for r, j in zip(tr.rounds, cols):
        w = np.exp(-eta * mistakes)
        assert r.p == pytest.approx(float(w @ H.matrix[:, j]) / w.sum(), abs=1e-9)
        mistakes += H.matrix[:, j] != r.y
    assert tr.expected_mistakes - best <= math.sqrt(2 * T * math.log(H.n_hypotheses)) + TOL
    claim = ExpertsFromClass(H, T).bound(H, realizable=False, transcript=tr)
    assert claim.value == pytest.approx(math.sqrt(2 * T * math.log(H.n_hypotheses))) and claim.measure == "regret"


def test_experts_from_class_counts_duplicate_rows():
    H = HypothesisClass.from_matrix([[1], [1], [0]])
    assert ExpertsFromClass(H, 5).predict_proba_one(0) == pytest.approx(2 / 3)


# ------------------------------------------------------------------ the claims and for_setting
def test_issue_12_weighted_majority_on_expert_advice_claims_theorem_21_11():
    """Was None (a registry lookup swallowed the exception); now sqrt(2 * 200 * ln 4) = 23.55 on regret."""
    claim = WeightedMajority(4, 200).bound(ExpertAdvice(4), rounds=200, realizable=False)
    assert round(claim.value, 2) == 23.55 and claim.value == pytest.approx(math.sqrt(2 * 200 * math.log(4)))
    assert claim.measure == "regret" and "Theorem 21.11" in claim.source
    from mistakebound.verification.claims import stated_bound

    assert stated_bound(WeightedMajority(4, 200), ExpertAdvice(4), rounds=200, realizable=False) == claim
    realizable = WeightedMajority(4, 200).bound(ExpertAdvice(4), rounds=150)
    assert realizable.measure == "expected mistakes" and realizable.value == claim.value


def test_experts_from_class_claims_the_same_value_wherever_asked():
    H = classes.thresholds(7)
    L = ExpertsFromClass(H, 20)
    tr = play(L, ObliviousCoin(labels="coin"), H, rounds=20, seed=0, realizable=False)
    asked = {L.bound(H, rounds=20, realizable=False), L.bound(H, realizable=False, transcript=tr),
             ExpertsFromClass.for_setting(H, rounds=20).bound(H, rounds=20, realizable=False)}
    assert len(asked) == 1 and asked.pop().value == pytest.approx(math.sqrt(2 * 20 * math.log(8)))


def test_expert_claims_are_none_with_a_reason():
    S = ExpertAdvice(3)
    cases = {
        "d = 3 experts; the game has 4": WeightedMajority(3, 10).bound(ExpertAdvice(4), rounds=10),
        "plays on expert advice": WeightedMajority(3, 10).bound(classes.thresholds(3), rounds=10),
        "not given": WeightedMajority(3, 10).bound(S, realizable=False),
        "tuned for T = 10 rounds; the game has 11": WeightedMajority(3, 10).bound(S, rounds=11),
        "best expert's loss m": DeterministicWeightedMajority(3).bound(S, realizable=False),
        "built for thresholds(3)": ExpertsFromClass(classes.thresholds(3), 5).bound(classes.thresholds(4), rounds=5),
    }
    for words, claim in cases.items():
        assert claim.value is None and words in claim.reason, (words, claim.reason)
    # realizable: the best expert loses nothing, m = 0
    assert DeterministicWeightedMajority(8).bound(ExpertAdvice(8)).value == pytest.approx(3 / math.log2(4 / 3))
    assert DeterministicWeightedMajority(8, beta=0.25).bound(ExpertAdvice(8)).value == pytest.approx(lw_bound(8, 0, 0.25))


def test_for_setting_builds_on_expert_advice_and_finite_classes():
    S = ExpertAdvice(5)
    L = WeightedMajority.for_setting(S, rounds=30)
    assert (L.d, L.T) == (5, 30)
    D = DeterministicWeightedMajority.for_setting(S)
    assert (D.d, D.beta) == (5, 0.5)
    with pytest.raises(InvalidArgumentError, match="rounds"):
        WeightedMajority.for_setting(S)
    with pytest.raises(InvalidArgumentError, match="rounds"):
        ExpertsFromClass.for_setting(classes.thresholds(3))
    for learner in (WeightedMajority, DeterministicWeightedMajority):
        with pytest.raises(NotApplicableError, match=f"{learner.__name__} plays on expert advice"):
            learner.for_setting(classes.thresholds(3), rounds=5)
    with pytest.raises(NotApplicableError, match="ExpertsFromClass plays on finite classes"):
        ExpertsFromClass.for_setting(S, rounds=5)
    assert ExpertsFromClass.for_setting(classes.thresholds(3), rounds=7).T == 7


# ------------------------------------------------------------------ errors, clones, suite
def test_invalid_arguments_are_refused():
    with pytest.raises(InvalidArgumentError, match="d: expected"):
        WeightedMajority(0, 5)
    with pytest.raises(InvalidArgumentError, match="T: expected"):
        WeightedMajority(2, 0)
    with pytest.raises(InvalidArgumentError, match="beta"):
        DeterministicWeightedMajority(2, beta=1.0)
    with pytest.raises(InvalidArgumentError, match="shape"):
        WeightedMajority(3, 5).predict_proba_one([1.0, 0.0])
    with pytest.raises(InvalidArgumentError, match=r"\[0, 1\]"):
        DeterministicWeightedMajority(2).predict_one([2.0, 0.0])
    with pytest.raises(InvalidArgumentError, match="T: expected"):
        ExpertsFromClass(classes.thresholds(3), 0)
    with pytest.raises(InvalidArgumentError):
        HeaviestExpertLoss(eta=-1.0)


def test_clones_are_fresh():
    L = WeightedMajority(2, 4)
    L.learn_one([1.0, 0.0], 0)
    C = L.clone()
    assert (C.d, C.T) == (2, 4) and C.predict_proba_one([1.0, 0.0]) == 0.5
    D = DeterministicWeightedMajority(3, beta=0.25)
    D.learn_one([1.0, 0.0, 0.0], 0)
    assert D.clone().beta == 0.25 and D.clone().weights.tolist() == [1.0, 1.0, 1.0]
    E = ExpertsFromClass(classes.thresholds(3), 5)
    E.learn_one(1, 1)
    assert E.clone().predict_proba_one(1) == 0.75


def test_suite_scenarios_hold_and_run_fast():
    from mistakebound.verification.suites.experts import SCENARIOS

    start = time.perf_counter()
    for seed in (0, 1):
        for s in SCENARIOS:
            outcome = s.run(seed)
            assert outcome.verdict == "ok", (s.learner, s.adversary, outcome)
            assert outcome.note and (outcome.bound is not None or outcome.forced is not None)
    assert time.perf_counter() - start < 10  # two passes; one must take < 5 s
