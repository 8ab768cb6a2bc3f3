"""Online-to-batch (Exercise 21.5) and mistake bound => PAC (seeds/001 Theorem 1).

The online-to-batch expectation is computed exactly here by enumerating every sample
with fresh learners (independently of the depth-first walk in the module); the PAC
conversion's failure frequency is compared with delta through an exact binomial tail.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from attrs import define
from hypothesis import given, settings
from hypothesis import strategies as st

from mistakebound import HypothesisClass
from mistakebound.game import classes
from mistakebound.foundations.errors import InvalidArgumentError, NotApplicableError
from mistakebound.learners import SOA, Consistent, Halving
from mistakebound.learners.conversions import (
    exact_online_to_batch,
    iid_sample,
    mistake_bound_to_pac,
    online_to_batch,
    pac_from_mistake_bound,
    survival_length,
)
from mistakebound.game.players import Learner
from tests.strategies import class_matrices

LEARNERS = {"Consistent": Consistent, "Halving": Halving, "SOA": SOA}


def _risk_by_hand(learner, H, target, probs, randomized=False):
    total = 0.0
    for x, p in zip(H.domain, probs):
        pred = learner.predict_proba_one(x) if randomized else learner.predict_one(x)
        total += p * abs(pred - H.label(target, x))
    return total


def _enumerate(make, H, target, probs, T, randomized=False):
    """E_S[(1/T) sum_t L_D(h_t)] and E_S[mistakes], by running a fresh learner on every sample."""
    support = [i for i, p in enumerate(probs) if p > 0]
    e_risk = e_mistakes = 0.0
    for seq in itertools.product(support, repeat=T):
        weight = math.prod(probs[i] for i in seq)
        learner = make()
        risks, mistakes = [], 0.0
        for i in seq:
            x = H.domain[i]
            y = H.label(target, x)
            risks.append(_risk_by_hand(learner, H, target, probs, randomized))
            pred = learner.predict_proba_one(x) if randomized else learner.predict_one(x)
            mistakes += abs(pred - y)
            learner.learn_one(x, y)
        e_risk += weight * sum(risks) / T
        e_mistakes += weight * mistakes
    return e_risk, e_mistakes


@st.composite
def small_games(draw):
    M = draw(class_matrices(max_rows=6, max_cols=3, min_cols=1))
    H = HypothesisClass.from_matrix(M)
    weights = draw(st.lists(st.integers(0, 4), min_size=H.n_instances, max_size=H.n_instances).filter(any))
    probs = [w / sum(weights) for w in weights]
    target = draw(st.integers(0, H.n_hypotheses - 1))
    T = draw(st.integers(1, 4))
    name = draw(st.sampled_from(sorted(LEARNERS)))
    return H, probs, target, T, name


@settings(max_examples=40, deadline=None)
@given(game=small_games())
def test_online_to_batch_expected_risk_is_mistakes_over_T_and_at_most_M_over_T(game):
    """Exercise 21.5 (seeds/000): E[L_D(h_r)] <= M/T; the proof gives E[mistakes]/T exactly."""
    H, probs, target, T, name = game
    cls = LEARNERS[name]
    e_risk, e_mistakes = _enumerate(lambda: cls(H), H, target, probs, T)
    exact = exact_online_to_batch(lambda: cls(H), H, target=target, distribution=probs, T=T)
    assert exact.expected_risk == pytest.approx(e_risk, abs=1e-12)
    assert exact.expected_mistakes == pytest.approx(e_mistakes, abs=1e-12)
    assert e_risk == pytest.approx(e_mistakes / T, abs=1e-12)
    assert exact.expected_risk <= cls(H).bound(H).value / T + 1e-12


@define
class VoteFraction(Learner):
    """Randomized: predicts 1 with the fraction of the consistent hypotheses that say 1."""

    H: HypothesisClass
    alive: list = None

    def __attrs_post_init__(self):
        self.alive = list(range(self.H.n_hypotheses))

    def predict_proba_one(self, x):
        return sum(self.H.label(h, x) for h in self.alive) / len(self.alive)

    def learn_one(self, x, y):
        self.alive = [h for h in self.alive if self.H.label(h, x) == y]


def test_online_to_batch_with_a_randomized_learner_uses_expected_risks():
    H = classes.thresholds(3)
    probs = [0.2, 0.5, 0.3]
    e_risk, e_mistakes = _enumerate(lambda: VoteFraction(H), H, 1, probs, 3, randomized=True)
    exact = exact_online_to_batch(lambda: VoteFraction(H), H, target=1, distribution=probs, T=3)
    assert exact.expected_risk == pytest.approx(e_risk) == pytest.approx(e_mistakes / 3)


@settings(max_examples=25, deadline=None)
@given(N=st.integers(2, 12), T=st.integers(1, 40), seed=st.integers(0, 2**32 - 1), name=st.sampled_from(sorted(LEARNERS)))
def test_online_to_batch_keeps_the_hypothesis_before_each_round(N, T, seed, name):
    H = classes.thresholds(N)
    rng = np.random.default_rng(seed)
    probs = rng.dirichlet(np.ones(N))
    target = int(rng.integers(H.n_hypotheses))
    sample = iid_sample(H, target=target, distribution=probs, T=T, seed=seed)
    assert all(y == H.label(target, x) for x, y in sample)
    result = online_to_batch(lambda: LEARNERS[name](H), sample, H=H, target=target, distribution=probs)
    # replay by hand: the t-th hypothesis is the learner after t - 1 examples
    learner, mistakes = LEARNERS[name](H), 0
    for (x, y), h, risk in zip(sample, result.hypotheses, result.risks):
        assert risk == pytest.approx(_risk_by_hand(learner, H, target, probs))
        assert all(h.predict_one(v) == learner.predict_one(v) for v in H.domain)
        mistakes += learner.predict_one(x) != y
        learner.learn_one(x, y)
    assert result.mistakes == mistakes <= LEARNERS[name](H).bound(H).value
    assert len(result.hypotheses) == T
    assert result.expected_risk == pytest.approx(sum(result.risks) / T)
    assert result.pick(3) in result.hypotheses


def test_online_to_batch_arguments():
    H = classes.thresholds(3)
    with pytest.raises(InvalidArgumentError, match="distribution"):
        iid_sample(H, target=0, distribution=[0.5, 0.5], T=3, seed=0)
    with pytest.raises(InvalidArgumentError, match="distribution"):
        iid_sample(H, target=0, distribution=[0.5, 0.6, -0.1], T=3, seed=0)
    with pytest.raises(InvalidArgumentError, match="target"):
        iid_sample(H, target=9, distribution=[1, 0, 0], T=3, seed=0)
    with pytest.raises(InvalidArgumentError, match="distribution"):
        iid_sample(H, target=0, distribution={"a": 1.0}, T=3, seed=0)
    assert online_to_batch(lambda: Halving(H), [], H=H, target=0, distribution=[1, 0, 0]).expected_risk == 0.0


# ---------------------------------------------------------------------- mistake bound => PAC
@given(M=st.integers(1, 10_000), eps=st.floats(0.001, 0.99), delta=st.floats(0.001, 0.99))
def test_survival_length_and_sample_size(M, eps, delta):
    m = survival_length(M, eps, delta)
    assert m == max(1, math.ceil(math.log(M / delta) / eps))
    assert M * (1 - eps) ** m <= delta * (1 + 1e-12)  # the union bound of Theorem 1
    assert mistake_bound_to_pac(M, eps, delta) == M * m >= (M / eps) * math.log(M / delta) - 1e-9


def test_pac_parameters_are_validated():
    assert survival_length(0, 0.1, 0.1) == 0 and mistake_bound_to_pac(0, 0.1, 0.1) == 0
    assert survival_length(3.0, 0.1, 0.1) == survival_length(3, 0.1, 0.1)
    assert mistake_bound_to_pac(math.log2(6), 0.1, 0.1) == mistake_bound_to_pac(2, 0.1, 0.1)  # 2.58 -> 2
    for bad in [{"M": -1}, {"eps": 0.0}, {"delta": 1.0}, {"eps": 1.5}]:
        args = {"M": 2, "eps": 0.1, "delta": 0.1} | bad
        with pytest.raises(InvalidArgumentError):
            survival_length(**args)
    H = classes.thresholds(3)
    with pytest.raises(NotApplicableError):
        pac_from_mistake_bound(VoteFraction(H), [], 2, 0.1, 0.1)
    with pytest.raises(InvalidArgumentError, match="sample_stream"):
        pac_from_mistake_bound(Halving(H), [(1, 0)] * 3, 2, 0.1, 0.1)


def _binomial_upper_quantile(n: int, p: float, alpha: float) -> int:
    """The least k with P(Binomial(n, p) > k) <= alpha."""
    tail = 1.0
    for k in range(n + 1):
        tail -= math.comb(n, k) * p**k * (1 - p) ** (n - k)
        if tail <= alpha:
            return k
    return n


def _pac_runs(make, H, target, probs, M, eps_run, eps_judge, delta, runs, *, stop=True):
    failures = 0
    for seed in range(runs):
        stream = iid_sample(H, target=target, distribution=probs, T=mistake_bound_to_pac(M, eps_run, delta) + 1, seed=seed)
        res = pac_from_mistake_bound(make(), iter(stream), M, eps_run, delta, stop_at_mistake_bound=stop)
        assert res.mistakes <= M
        if stop:
            assert res.examples <= mistake_bound_to_pac(M, eps_run, delta)
        risk = _risk_by_hand(res.hypothesis, H, target, probs)
        if res.reason == "mistake bound reached":
            assert risk == 0.0
        failures += risk > eps_judge
    return failures


@pytest.mark.parametrize("stop", [True, False])
def test_pac_from_mistake_bound_fails_at_most_with_probability_delta(stop):
    """Theorem 1 (seeds/001): P[err(h) > eps] <= delta; compare the failure count of 400
    seeded runs with the binomial(400, delta) quantile at level 1e-4.  Consistent on
    thresholds (M = 8) starts from the all-0 hypothesis against the all-1 target; most
    mass sits on x = 7, so it soon plays h_7, whose error P(x = 8) = 0.12 is just above eps."""
    H = classes.thresholds(8)
    M, eps, delta, runs = Consistent(H).bound(H).value, 0.1, 0.2, 400
    failures = _pac_runs(lambda: Consistent(H), H, 8, _SKEWED, M, eps, eps, delta, runs, stop=stop)
    assert failures <= _binomial_upper_quantile(runs, delta, 1e-4)


def test_pac_failure_frequency_where_the_union_bound_is_tight():
    """M = 1: one bad hypothesis with error 0.101 survives m = ceil(ln(1/delta)/eps) = 17
    examples with probability 0.899^17 = 0.164, close to delta = 0.2, so a shorter
    survival length (a wrong constant or a missing log) would show in 1000 runs."""
    H = HypothesisClass.from_matrix([[0, 0], [0, 1]])
    probs = [0.899, 0.101]
    M, eps, delta, runs = 1, 0.1, 0.2, 1000
    failures = _pac_runs(lambda: Consistent(H), H, 1, probs, M, eps, eps, delta, runs)
    assert failures <= _binomial_upper_quantile(runs, delta, 1e-4)
    expected = runs * 0.899**17
    assert abs(failures - expected) <= 5 * math.sqrt(expected)  # and the rate is what the survival length implies


def test_the_pac_frequency_test_has_power():
    """The skewed experiment with hypotheses checked on a much shorter survival length
    (eps 0.9 used, 0.1 judged) fails far more often than delta: the frequency test above
    can fail."""
    H = classes.thresholds(8)
    M, delta, runs = Consistent(H).bound(H).value, 0.2, 400
    failures = _pac_runs(lambda: Consistent(H), H, 8, _SKEWED, M, 0.9, 0.1, delta, runs)
    assert failures > _binomial_upper_quantile(runs, delta, 1e-4)


_SKEWED = np.array([0.02, 0.02, 0.02, 0.02, 0.05, 0.05, 0.7, 0.12])
