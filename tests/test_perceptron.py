"""Perceptron: the algorithm round by round, its label edge, and its three bounds as properties.

Every expected value here is computed independently in the test: a reference
Perceptron written with -1/+1 labels, the hinge losses from the transcript's rounds,
the bounds' formulas written out again, and closed forms on the basis vectors.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mistakebound import play
from mistakebound.adversaries.basis_vector_forcer import BasisVectorForcer
from mistakebound.adversaries.separable_stream import SeparableStream
from mistakebound.foundations.errors import InvalidArgumentError, PlayerError
from mistakebound.learners.perceptron import (
    Perceptron,
    hinge_bound,
    margin_bound,
    perceptron_bound,
    perceptron_hinge_bound,
    perceptron_margin_bound,
    q_hinge_bound,
)
from mistakebound.game.players import ObliviousAdversary
from mistakebound.game.spaces import LinearSpace

FAST = settings(max_examples=40, deadline=None)


class Fixed(ObliviousAdversary):
    """Plays a given list of (vector, 0/1 label) pairs and certifies nothing."""

    def __init__(self, pairs):
        self.pairs = pairs

    def commit(self, H, rounds, rng, realizable):
        return self.pairs


def reference_perceptron(xs, ys01):
    """The Perceptron of seed 001 with +/-1 labels, in plain Python: (weights, mistakes)."""
    d = len(xs[0])
    w = [0.0] * d
    mistakes = 0
    for x, y01 in zip(xs, ys01):
        y = 1 if y01 == 1 else -1
        score = math.fsum(a * b for a, b in zip(w, x))
        prediction = 1 if score >= 0 else -1
        if prediction != y:
            mistakes += 1
            w = [a + y * b for a, b in zip(w, x)]
    return w, mistakes


def hinge(T, u):
    """Per round max(0, 1 - y<u, x>) with y = +1 for label 1 and -1 for label 0 (computed here)."""
    out = []
    for r in T.rounds:
        y = 1.0 if r.y == 1 else -1.0
        out.append(max(0.0, 1.0 - y * math.fsum(a * b for a, b in zip(u, r.x))))
    return np.array(out)


def textbook_bound(M_rounds, losses, R, u_norm):
    """Theorem 21.16 (seed 000), written out: L + b sqrt(L) + b^2, L over the mistake rounds."""
    L = math.fsum(l for l, m in zip(losses, M_rounds) if m)
    b = R * u_norm
    return L + b * math.sqrt(L) + b * b


def lecture_bound(losses, R, u_norm, q):
    """Theorem 2 (seed 002), written out with the factor R the proof gives: L_1 + a^2/2 + a sqrt(a^2/4 + L_q)."""
    a = q * R * u_norm
    return math.fsum(losses) + a * a / 2 + a * math.sqrt(a * a / 4 + math.fsum(losses**q))


# ---------------------------------------------------------------------- the algorithm
def test_starts_at_zero_and_a_tie_predicts_label_1():
    p = Perceptron(d=3)
    assert p.weights.tolist() == [0.0, 0.0, 0.0]
    assert p.predict_one(np.array([-5.0, 2.0, 7.0])) == 1  # <0, x> = 0
    p.learn_one(np.array([1.0, 0.0, 0.0]), 0)  # a mistake: w = -e_1
    assert p.predict_one(np.array([0.0, 4.0, -1.0])) == 1  # <w, x> = 0 exactly
    assert p.predict_one(np.array([1e-300, 0.0, 0.0])) == 0  # just below 0


def test_label_conversion_at_the_edge():
    x = np.array([2.0, -1.0])
    p = Perceptron()
    p.learn_one(x, 1)  # predicted 1, label 1: no mistake, no update
    assert p.weights.tolist() == [0.0, 0.0] and p.n_updates == 0
    p.learn_one(x, 0)  # predicted 1, label 0 = y -1: w = -x
    assert p.weights.tolist() == [-2.0, 1.0]
    p.learn_one(x, 0)  # predicted 0 now: correct
    assert p.weights.tolist() == [-2.0, 1.0]
    p.learn_one(x, 1)  # predicted 0, label 1 = y +1: w = -x + x
    assert p.weights.tolist() == [0.0, 0.0] and p.n_updates == 2
    for bad in (-1, 2, 0.5):
        with pytest.raises(InvalidArgumentError, match="y"):
            p.learn_one(x, bad)


def test_dimension_inferred_or_checked_and_clone_is_fresh():
    p = Perceptron()
    p.learn_one([1.0, 2.0, 3.0], 0)
    assert p.weights.shape == (3,)
    with pytest.raises(InvalidArgumentError, match="x"):
        p.predict_one([1.0, 2.0])
    with pytest.raises(InvalidArgumentError, match="d"):
        Perceptron(d=0)
    q = Perceptron(d=4)
    with pytest.raises(InvalidArgumentError):
        q.predict_one(np.zeros(3))
    assert p.clone().weights is None and Perceptron(d=2).clone().weights.tolist() == [0.0, 0.0]


def test_a_writable_vector_changed_between_predict_and_learn_is_read_again():
    p = Perceptron(d=2)
    p.learn_one(np.array([1.0, 0.0]), 0)  # w = (-1, 0)
    x = np.array([-1.0, 0.0])
    assert p.predict_one(x) == 1  # score 1
    x[0] = 1.0  # score -1 now: label 0 is correct, no update (a stale score would update)
    p.learn_one(x, 0)
    assert p.weights.tolist() == [-1.0, 0.0] and p.n_updates == 1


def test_plays_on_disjunction_vectors_without_overflow():
    from mistakebound.game.spaces import KDisjunctionSpace

    T = play(Perceptron(), BasisVectorForcer(), KDisjunctionSpace(50, 3), rounds=10, seed=0)
    assert T.mistakes == 3


vectors = st.lists(st.floats(-3, 3, allow_nan=False, width=32), min_size=1, max_size=4)


@st.composite
def sequences(draw, max_len=40):
    d = draw(st.integers(1, 4))
    n = draw(st.integers(1, max_len))
    xs = [draw(st.lists(st.floats(-3, 3, allow_nan=False), min_size=d, max_size=d)) for _ in range(n)]
    ys = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
    return xs, ys


@FAST
@given(sequences())
def test_follows_the_reference_algorithm_round_by_round(seq):
    xs, ys = seq
    d = len(xs[0])
    T = play(Perceptron(), Fixed(list(zip(xs, ys))), LinearSpace(d), rounds=len(xs), seed=0, realizable=False)
    w, mistakes = reference_perceptron(xs, ys)
    assert T.mistakes == mistakes
    p = Perceptron()
    for x, y in zip(xs, ys):
        p.predict_one(np.array(x))
        p.learn_one(np.array(x), y)
    np.testing.assert_allclose(p.weights, w, rtol=1e-12, atol=1e-9)
    assert p.n_updates == mistakes


# ---------------------------------------------------------------------- the bounds as properties
@FAST
@given(
    d=st.integers(1, 8),
    R=st.floats(0.25, 4.0),
    ratio=st.floats(0.02, 1.0),
    rounds=st.integers(1, 300),
)
def test_margin_bound_on_separable_streams(d, R, ratio, rounds):
    gamma = ratio * R
    S = LinearSpace(d, R=R, gamma=gamma)
    T = play(Perceptron(), SeparableStream(d, gamma, R=R), S, rounds=rounds, seed=rounds)
    assert T.mistakes <= (R / gamma) ** 2 + 1e-9
    assert perceptron_margin_bound(T) == pytest.approx((R / gamma) ** 2)
    assert Perceptron().bound(S).value == pytest.approx((R / gamma) ** 2)


@FAST
@given(
    d=st.integers(1, 6),
    gamma=st.floats(0.02, 0.9),
    noise=st.floats(0.0, 0.5),
    rounds=st.integers(1, 200),
    scale=st.floats(0.05, 50.0),
    q=st.floats(1.0, 4.0),
)
def test_hinge_bounds_on_noisy_streams(d, gamma, noise, rounds, scale, q):
    T = play(Perceptron(), SeparableStream(d, gamma, noise=noise), LinearSpace(d, R=1.0), rounds=rounds,
             seed=d + rounds, realizable=False)
    u = scale * np.array(T.comparator)
    losses = hinge(T, u)
    mistakes = [r.mistake for r in T.rounds]
    norm = float(np.linalg.norm(u))
    expected_textbook = textbook_bound(mistakes, losses, 1.0, norm)
    expected_lecture = lecture_bound(losses, 1.0, norm, q)
    assert T.mistakes <= expected_textbook + 1e-9
    assert T.mistakes <= expected_lecture + 1e-9
    assert perceptron_hinge_bound(T, u) == pytest.approx(expected_textbook, rel=1e-9)
    assert perceptron_bound(T, q, u) == pytest.approx(expected_lecture, rel=1e-9)


@FAST
@given(d=st.integers(1, 6), gamma=st.floats(0.05, 0.9), noise=st.floats(0.0, 0.5), rounds=st.integers(1, 150))
def test_transcript_comparator_is_the_default(d, gamma, noise, rounds):
    T = play(Perceptron(), SeparableStream(d, gamma, noise=noise), LinearSpace(d, R=1.0), rounds=rounds,
             seed=rounds, realizable=False)
    losses = hinge(T, T.comparator)
    mistakes = [r.mistake for r in T.rounds]
    assert perceptron_hinge_bound(T) == pytest.approx(textbook_bound(mistakes, losses, 1.0, 1.0), rel=1e-9)
    assert perceptron_bound(T, 2) == pytest.approx(lecture_bound(losses, 1.0, 1.0, 2.0), rel=1e-9)
    assert T.mistakes <= min(perceptron_hinge_bound(T), perceptron_bound(T, 1), perceptron_bound(T, 2)) + 1e-9


@FAST
@given(seq=sequences(), u=st.lists(st.floats(-5, 5, allow_nan=False), min_size=4, max_size=4), q=st.floats(1, 3))
def test_hinge_bounds_on_arbitrary_sequences_and_comparators(seq, u, q):
    xs, ys = seq
    d = len(xs[0])
    u = np.array(u[:d])
    T = play(Perceptron(), Fixed(list(zip(xs, ys))), LinearSpace(d), rounds=len(xs), seed=0, realizable=False)
    R = max(math.sqrt(math.fsum(a * a for a in x)) for x in xs)
    losses = hinge(T, u)
    mistakes = [r.mistake for r in T.rounds]
    norm = float(np.linalg.norm(u))
    assert T.mistakes <= textbook_bound(mistakes, losses, R, norm) + 1e-7
    assert T.mistakes <= lecture_bound(losses, R, norm, q) + 1e-7
    assert perceptron_hinge_bound(T, u) == pytest.approx(textbook_bound(mistakes, losses, R, norm), rel=1e-9, abs=1e-9)


# ---------------------------------------------------------------------- tightness on basis vectors
@FAST
@given(d=st.integers(1, 30), k=st.integers(1, 30), R=st.floats(0.1, 10.0))
def test_margin_bound_is_tight_on_basis_vectors(d, k, R):
    k = min(k, d)
    gamma = R / math.sqrt(k)  # (R/gamma)^2 = k, an integer <= d
    S = LinearSpace(d, R=R, gamma=gamma)
    T = play(Perceptron(), BasisVectorForcer(), S, rounds=d + 5, seed=0)
    assert T.mistakes == k == len(T)
    assert perceptron_margin_bound(T) == pytest.approx(k)
    assert all(r.y == 0 for r in T.rounds)  # the Perceptron predicts +1 on every e_i, orthogonal to w


@FAST
@given(k=st.integers(1, 20), R=st.floats(0.1, 10.0), alpha=st.floats(0.01, 1.0))
def test_q1_hinge_bound_is_tight_on_basis_vectors(k, R, alpha):
    """With u = -(alpha/R) sum e_i every e_i has hinge loss 1 - alpha and Theorem 2 (q = 1) gives exactly k."""
    T = play(Perceptron(), BasisVectorForcer(), LinearSpace(k, R=R), rounds=k, seed=0)
    u = -(alpha / R) * np.ones(k)
    assert T.mistakes == k
    assert perceptron_bound(T, 1, u) == pytest.approx(k, rel=1e-9)
    # closed form: k(1 - alpha) + alpha^2 k / 2 + alpha k (1 - alpha / 2) = k
    assert k * (1 - alpha) + alpha**2 * k / 2 + alpha * k * (1 - alpha / 2) == pytest.approx(k)


# ---------------------------------------------------------------------- findings: misprinted statements
def test_finding_theorem_21_16_as_printed_is_broken_by_basis_vectors():
    """Seed 000 prints Theorem 21.16 as M <= L + R||w|| sqrt(L + R^2 ||w||^2).

    Its proof shows M - R||w|| sqrt(M) - L <= 0 and concludes M <= L + b^2 + b sqrt(L)
    (b = R||w||), which is what ``hinge_bound`` implements.  The printed form is
    smaller and false: the Perceptron on e_1..e_4 (labels all -1) with the comparator
    w = -(1/2) sum e_i has L = 4 * 1/2 = 2, b = 1, so the printed bound is
    2 + sqrt(3) < 4 = M, while the proof's bound is 2 + sqrt(2) + 1 >= 4.
    """
    T = play(Perceptron(), BasisVectorForcer(), LinearSpace(4, R=1.0), rounds=4, seed=0)
    w = -0.5 * np.ones(4)
    losses = hinge(T, w)
    L = math.fsum(losses)  # every round is a mistake
    b = 1.0 * float(np.linalg.norm(w))
    printed = L + b * math.sqrt(L + b * b)
    assert (T.mistakes, L, b) == (4, 2.0, 1.0)
    assert T.mistakes > printed == pytest.approx(2 + math.sqrt(3))
    assert T.mistakes <= perceptron_hinge_bound(T, w) == pytest.approx(3 + math.sqrt(2))


def test_finding_lecture_theorem_2_as_printed_is_broken_when_R_exceeds_1():
    """Seed 002 prints Theorem 2 with q||u|| (no R) in front of the square root.

    Its proof applies Lemma 4 with a = q R ||u||.  The printed form is not invariant
    under x -> s x, u -> u / s, and fails for R > 1: on 2 e_1, ..., 2 e_4 (R = 2,
    labels -1) with u = -(1/4) sum e_i, each round has hinge loss 1/2, L_1 = L_q = 2,
    ||u|| = 1/2, and for q = 1 the printed bound is 2 + 1/2 + (1/2) sqrt(1/4 + 2) =
    3.25 < 4 = M; with the factor R it is exactly 4.
    """
    T = play(Perceptron(), BasisVectorForcer(), LinearSpace(4, R=2.0), rounds=4, seed=0)
    u = -0.25 * np.ones(4)
    losses = hinge(T, u)
    L1, norm, R, q = math.fsum(losses), float(np.linalg.norm(u)), 2.0, 1.0
    printed = L1 + q**2 * R**2 * norm**2 / 2 + q * norm * math.sqrt(q**2 * R**2 * norm**2 / 4 + L1)
    assert (T.mistakes, L1, norm) == (4, 2.0, 0.5)
    assert T.mistakes > printed == pytest.approx(3.25)
    assert perceptron_bound(T, 1, u) == pytest.approx(4.0)


# ---------------------------------------------------------------------- the bound functions themselves
def test_bound_functions_closed_forms_and_validation():
    assert margin_bound(3.0, 0.5) == 36.0
    assert hinge_bound(2.0, 1.5, 9.0) == 9.0 + 3.0 * 3.0 + 9.0
    assert q_hinge_bound(1.0, 2.0, 5.0, 1.0, q=2.0) == pytest.approx(5.0 + 8.0 + 4.0 * math.sqrt(4.0 + 1.0))
    for call in (lambda: margin_bound(1.0, 0.0), lambda: hinge_bound(-1.0, 1.0, 0.0),
                 lambda: q_hinge_bound(1.0, 1.0, 0.0, 0.0, q=0.5), lambda: margin_bound(float("nan"), 1.0)):
        with pytest.raises(InvalidArgumentError):
            call()


def test_transcript_bounds_need_a_comparator_or_a_margin():
    T = play(Perceptron(), Fixed([([1.0, 0.0], 0)]), LinearSpace(2), rounds=1, seed=0, realizable=False)
    with pytest.raises(InvalidArgumentError, match="comparator"):
        perceptron_hinge_bound(T)
    with pytest.raises(InvalidArgumentError, match="gamma"):
        perceptron_margin_bound(T)
    with pytest.raises(InvalidArgumentError, match="u"):
        perceptron_bound(T, 1, [1.0, 2.0, 3.0])
    claim = Perceptron().bound(LinearSpace(2), realizable=False, transcript=T)
    assert claim.value is None and "comparator" in claim.reason


# ---------------------------------------------------------------------- the claim: bound() and for_setting()
def test_claim_on_a_space_with_a_margin_is_R_over_gamma_squared():
    for d, R, gamma in [(3, 2.0, 0.5), (16, 1.0, 0.25), (2, 3.0, 1.0)]:
        claim = Perceptron().bound(LinearSpace(d, R=R, gamma=gamma))
        assert claim.value == pytest.approx((R / gamma) ** 2)
        assert claim.measure == "mistakes" and "Theorem 4" in claim.source and "realizable" in claim.assumptions
    # the transcript does not change the default claim of a space with a margin
    S = LinearSpace(16, R=1.0, gamma=0.25)
    T = play(Perceptron(), BasisVectorForcer(), S, rounds=20, seed=0)
    assert Perceptron().bound(S, transcript=T).value == 16.0 == T.mistakes  # tight


def test_claim_is_none_with_a_reason_where_no_theorem_applies():
    from mistakebound.game import classes
    from mistakebound.game.spaces import KDisjunctionSpace

    cases = {
        "margin": Perceptron().bound(LinearSpace(2, R=1.0)),
        "radius": Perceptron().bound(LinearSpace(2, gamma=0.5)),
        "transcript": Perceptron().bound(LinearSpace(2, R=1.0, gamma=0.5), realizable=False),
        "LinearSpace": Perceptron().bound(classes.monotone_disjunctions(3)),
        "not on": Perceptron().bound(KDisjunctionSpace(5, 2)),
        "d = 3": Perceptron(3).bound(LinearSpace(4, R=1.0, gamma=0.5)),
    }
    for word, claim in cases.items():
        assert claim.value is None and word in claim.reason, (word, claim)


@FAST
@given(d=st.integers(1, 6), gamma=st.floats(0.05, 0.9), rounds=st.integers(1, 120), seed=st.integers(0, 10**6))
def test_claim_from_the_transcripts_margin_when_the_space_gives_none(d, gamma, rounds, seed):
    S = LinearSpace(d, R=1.0)  # a radius, no margin: the comparator's margin comes from the transcript
    T = play(Perceptron(), SeparableStream(d, gamma), S, rounds=rounds, seed=seed)
    u = np.asarray(T.comparator)
    margins = [(2 * r.y - 1) * float(np.dot(u, r.x)) / float(np.linalg.norm(u)) for r in T.rounds]
    by_hand = (1.0 / min(margins)) ** 2
    claim = Perceptron().bound(S, transcript=T)
    assert claim.value == pytest.approx(by_hand, rel=1e-9) and "R and gamma of the transcript" in claim.assumptions
    assert T.mistakes <= claim.value + 1e-9


@FAST
@given(d=st.integers(1, 6), gamma=st.floats(0.05, 0.5), noise=st.sampled_from([0.05, 0.2, 0.4]),
       rounds=st.integers(1, 150), seed=st.integers(0, 10**6))
def test_claim_of_an_unrealizable_game_is_theorem_21_16_with_the_certified_comparator(d, gamma, noise, rounds, seed):
    S = LinearSpace(d, R=1.0)
    T = play(Perceptron(), SeparableStream(d, gamma, noise=noise), S, rounds=rounds, seed=seed, realizable=False)
    u = np.asarray(T.comparator)
    L = math.fsum(max(0.0, 1 - (2 * r.y - 1) * float(np.dot(u, r.x))) for r in T.rounds if r.mistake)
    b = 1.0 * float(np.linalg.norm(u))  # R ||u||
    claim = Perceptron().bound(S, realizable=False, transcript=T)
    assert claim.value == pytest.approx(L + b * math.sqrt(L) + b * b) and "Theorem 21.16" in claim.source
    assert claim.measure == "mistakes" and T.mistakes <= claim.value + 1e-9


def test_for_setting_builds_on_vector_settings_and_refuses_the_others():
    from mistakebound.foundations.errors import NotApplicableError
    from mistakebound.game import classes
    from mistakebound.game.oco import OCOSetting
    from mistakebound.game.spaces import ExpertAdvice, KDisjunctionSpace

    assert Perceptron.for_setting(LinearSpace(5, R=1.0)).d == 5
    assert Perceptron.for_setting(KDisjunctionSpace(7, 2)).d == 7
    H = classes.monotone_disjunctions(3)
    L = Perceptron.for_setting(H, rounds=10)
    assert L.d == 3 and play(L, BasisVectorForcer(), H, rounds=5, seed=0).mistakes == 3
    for setting in (classes.thresholds(4), ExpertAdvice(3), OCOSetting(2, radius=1.0)):
        with pytest.raises(NotApplicableError, match="Perceptron plays on"):
            Perceptron.for_setting(setting)


def test_a_noisy_stream_refuses_a_realizable_game():
    with pytest.raises(PlayerError, match="noise"):
        play(Perceptron(), SeparableStream(3, 0.1, noise=0.2), LinearSpace(3, R=1.0), rounds=50, seed=0)
