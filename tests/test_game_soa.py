"""The learners and the adversary of the game's other settings: GameSOA, PluralityHalving, GameMinimax."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mistakebound import HypothesisClass, classes, play
from mistakebound.adversaries import GameMinimax
from mistakebound.foundations.errors import InvalidArgumentError, NotApplicableError
from mistakebound.game.rules import FEEDBACKS, Rules
from mistakebound.learners import SOA, GameSOA, Halving, PluralityHalving
from mistakebound.verification.claims import forced_bound, stated_bound
from mistakebound.verification.judged import judged_game
from tests.game_oracle import oracle


def _tables(k_max=4):
    return st.integers(2, k_max).flatmap(lambda k: st.tuples(st.just(k), st.lists(
        st.lists(st.integers(0, k - 1), min_size=2, max_size=3), min_size=1, max_size=6).filter(
        lambda rows: len({len(r) for r in rows}) == 1)))


class _RandomLegal:
    """An adversary drawing instances and labels at random among those the referee takes (realizable)."""

    def applies_to(self, H, *, rules=None):
        return rules is None or rules.noise == 0

    def start(self, state):
        self.rng = np.random.default_rng(int(state.rng.integers(2**32)))
        self.alive = np.ones(state.H.n_hypotheses, dtype=bool)

    def next_instance(self, state):
        return state.H.domain[int(self.rng.integers(state.H.n_instances))]

    def label(self, state, x, p):
        column = state.H.column(x)[self.alive]
        y = int(self.rng.choice(column))
        self.alive &= state.H.column(x) == y
        return y


@settings(max_examples=60, deadline=None)
@given(table=_tables(), feedback=st.sampled_from(FEEDBACKS), r=st.integers(0, 2), seed=st.integers(0, 3))
def test_game_soa_meets_its_claim_and_its_claim_is_the_oracles_value(table, feedback, r, seed):
    k, rows = table
    H = HypothesisClass.from_matrix(rows, labels=k)
    rules = Rules(labels=k, feedback=feedback, noise=r)
    learner = GameSOA(H, feedback=feedback, noise=r)
    claim = stated_bound(learner, H, rules=rules)
    assert claim.value == oracle([tuple(row) for row in rows], k, feedback, r)
    g = judged_game(GameSOA(H, feedback=feedback, noise=r), GameMinimax(feedback=feedback, noise=r), H,
                    rounds=60, seed=seed, rules=rules)
    assert g.verdict.status == "ok" and g.transcript.mistakes == claim.value  # optimal against optimal: the value
    if r == 0:
        T = play(GameSOA(H, feedback=feedback), _RandomLegal(), H, rounds=30, seed=seed, rules=rules)
        assert T.mistakes <= claim.value


@settings(max_examples=60, deadline=None)
@given(table=_tables(), seed=st.integers(0, 3))
def test_plurality_halving_errs_at_most_log2_size_and_game_minimax_forces_the_value_on_it(table, seed):
    k, rows = table
    H = HypothesisClass.from_matrix(rows, labels=k)
    value = oracle([tuple(row) for row in rows], k, "full", 0)
    for adversary in (GameMinimax(), _RandomLegal()):
        T = play(PluralityHalving(H), adversary, H, rounds=40, seed=seed)
        assert T.mistakes <= math.log2(H.n_hypotheses) + 1e-9
        if isinstance(adversary, GameMinimax):
            assert T.mistakes >= value  # the value is forced on every deterministic learner with full information
    assert forced_bound(GameMinimax(), H, learner=PluralityHalving(H), rounds=40).value == value


@settings(max_examples=40, deadline=None)
@given(rows=st.lists(st.lists(st.integers(0, 1), min_size=3, max_size=3), min_size=1, max_size=8))
def test_with_two_labels_they_are_the_textbooks_halving_and_soa(rows):
    H = HypothesisClass.from_matrix(rows)
    for x in H.domain:
        assert PluralityHalving(H).predict_one(x) == Halving(H).predict_one(x)
    assert stated_bound(GameSOA(H), H).value == stated_bound(SOA(H), H).value
    T1 = play(GameSOA(H), GameMinimax(), H, rounds=20, seed=0)
    T2 = play(SOA(H), GameMinimax(), H, rounds=20, seed=0)
    assert T1.mistakes == T2.mistakes == stated_bound(SOA(H), H).value


def test_a_claim_is_stated_for_its_own_rules_and_no_others():
    H = classes.all_functions(2, 3)
    bandit = Rules(labels=3, feedback="bandit")
    assert stated_bound(GameSOA(H), H, rules=bandit).reason.startswith("the SOA's bound is about the game with 3 "
                                                                       "labels, full information")
    assert stated_bound(PluralityHalving(H), H, rules=bandit).value is None
    assert stated_bound(PluralityHalving(H), H, rules=Rules(labels=3, noise=1)).value is None
    assert stated_bound(GameSOA(H, feedback="bandit"), H, rules=bandit).value == 4  # n (k - 1), all functions
    T = classes.thresholds(7)
    assert "full information without noise" in stated_bound(Halving(T), T, rules=Rules(noise=1)).reason
    assert stated_bound(Halving(T), T, rules=Rules()).value == 3.0
    assert forced_bound(GameMinimax(feedback="bandit"), H, learner=GameSOA(H), rules=bandit).value is None
    assert forced_bound(GameMinimax(), T, learner=SOA(T), rounds=2).value is None  # too short to force Ldim 3


def test_bad_rules_are_refused_by_name():
    H = classes.all_functions(2, 3)
    with pytest.raises(InvalidArgumentError, match=r"^feedback: "):
        GameSOA(H, feedback="partial")
    with pytest.raises(InvalidArgumentError, match=r"^noise: "):
        GameMinimax(noise=-1)
    with pytest.raises(NotApplicableError, match=r"^learner: GameSOA"):
        play(GameSOA(H), GameMinimax(feedback="bandit"), H, rounds=3, rules=Rules(labels=3, feedback="bandit"))


class _Cycler:
    """A deterministic bandit learner written here: on each instance it tries the labels down from k - 1."""

    feedbacks = ("full", "bandit")

    def __init__(self, k):
        self.k, self.guess = k, {}

    def predict_one(self, x):
        return self.guess.get(x, self.k - 1)

    def learn_one(self, x, feedback):
        if not feedback.correct:
            self.guess[x] = (self.predict_one(x) - 1) % self.k


@settings(max_examples=60, deadline=None)
@given(table=_tables(), r=st.integers(0, 1))
def test_under_bandit_feedback_game_minimax_forces_the_value_on_the_learner_it_plans_against(table, r):
    """Its labels follow a row its plan against a copy of the learner keeps: every planned outcome is played, so
    the learner pays at least the value; planned against the optimal learner instead, it may not."""
    k, rows = table
    H = HypothesisClass.from_matrix(rows, labels=k)
    rules = Rules(labels=k, feedback="bandit", noise=r)
    value = oracle([tuple(row) for row in rows], k, "bandit", r)
    adversary = GameMinimax(feedback="bandit", noise=r, learner=_Cycler(k))
    T = play(_Cycler(k), adversary, H, rounds=60, seed=0, rules=rules)
    assert T.mistakes >= value and T.best_hypothesis_mistakes <= r
    claim = forced_bound(adversary, H, learner=_Cycler(k), rounds=60, rules=rules)
    assert claim.value == value
    assert forced_bound(GameMinimax(feedback="bandit", noise=r), H, learner=_Cycler(k), rules=rules).value is None


def test_the_bandit_claim_is_refused_on_a_learner_that_plays_otherwise():
    H = classes.all_functions(2, 3)
    rules = Rules(labels=3, feedback="bandit")
    adversary = GameMinimax(feedback="bandit", learner=_Cycler(3))

    class Stubborn(_Cycler):  # never moves off label 2: errs for ever, which the claim does not need to replay
        def learn_one(self, x, feedback):
            pass

    assert forced_bound(adversary, H, learner=Stubborn(3), rounds=40, rules=rules).value == 4  # it still pays 4+
    lazy = GameMinimax(feedback="bandit", learner=Stubborn(3))  # planned against a learner that is not the one played
    claim = forced_bound(lazy, H, learner=GameSOA(H, feedback="bandit"), rounds=40, rules=rules)
    T = play(GameSOA(H, feedback="bandit"), lazy, H, rounds=40, seed=0, rules=rules)
    assert (claim.value is None) == (T.mistakes < 4)  # claimed exactly when a copy reaches the value


def test_planning_against_the_learner_played_is_what_forces_the_value():
    """A class where the adversary that plans against the optimal learner lets the cycling learner off with 2 of
    the value's 3 mistakes (its labels, committed early, rule out the outcomes it later wants); planning against
    the cycling learner itself forces all 3."""
    H = HypothesisClass.from_matrix([[0, 0, 2], [1, 0, 2], [2, 0, 2], [1, 1, 0], [0, 0, 1], [1, 2, 1], [1, 0, 0]],
                                    labels=3)
    rules = Rules(labels=3, feedback="bandit")
    assert oracle([tuple(r) for r in H.matrix.tolist()], 3, "bandit", 0) == 3
    unplanned = play(_Cycler(3), GameMinimax(feedback="bandit"), H, rounds=40, seed=0, rules=rules)
    planned = play(_Cycler(3), GameMinimax(feedback="bandit", learner=_Cycler(3)), H, rounds=40, seed=0, rules=rules)
    assert unplanned.mistakes == 2 and planned.mistakes >= 3
