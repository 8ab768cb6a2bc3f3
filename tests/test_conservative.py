"""Conservative: updates only on mistake rounds, keeps the wrapped learner's bound (Lemma 1, seed 001)."""

from __future__ import annotations

import pytest
from attrs import define, field
from hypothesis import given, settings
from hypothesis import strategies as st

from mistakebound import play
from mistakebound.game import classes
from mistakebound.adversaries.oblivious_coin import ObliviousCoin
from mistakebound.adversaries.opposite_label import OppositeLabel
from mistakebound.adversaries.shattered_tree_walker import ShatteredTreeWalker
from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.learners.consistent import Consistent
from mistakebound.learners.conservative import Conservative
from mistakebound.learners.halving import Halving
from mistakebound.learners.soa import SOA
from mistakebound.learners.winnow import Winnow
from mistakebound.game.players import Learner
from mistakebound.verification.claims import judge
from tests.strategies import hypothesis_classes

SETTINGS = settings(max_examples=30, deadline=None)


@define
class Spy(Learner):
    """Halving that records every learn_one call it receives."""

    H: object
    calls: list = field(init=False, factory=list)
    inner: Halving = field(init=False)

    def __attrs_post_init__(self):
        self.inner = Halving(self.H)

    def predict_one(self, x):
        return self.inner.predict_one(x)

    def learn_one(self, x, y):
        self.calls.append((x, y))
        self.inner.learn_one(x, y)


@SETTINGS
@given(
    H=hypothesis_classes(max_rows=10, max_cols=6, min_cols=1),
    learner=st.sampled_from([Halving, SOA, Consistent]),
    adversary=st.sampled_from(["opposite", "coin", "tree"]),
    seed=st.integers(0, 2**16),
)
def test_wrapped_learners_stay_within_their_bounds(H, learner, adversary, seed):
    A = {"opposite": OppositeLabel(), "coin": ObliviousCoin(), "tree": ShatteredTreeWalker()}[adversary]
    L = Conservative(learner(H))
    T = play(L, A, H, rounds=3 * H.n_instances + 5, seed=seed)
    claim = L.bound(H)
    assert claim.value == learner(H).bound(H).value and claim.measure == "mistakes"
    assert "Lemma 1" in claim.source and learner(H).bound(H).source in claim.source
    assert judge(T.mistakes, claim).status == "ok"
    assert L.updates == T.mistakes and L.updates + L.skipped == len(T)


@SETTINGS
@given(H=hypothesis_classes(max_rows=10, max_cols=6, min_cols=1), seed=st.integers(0, 2**16))
def test_learn_one_is_called_exactly_on_the_mistake_rounds(H, seed):
    spy = Spy(H)
    T = play(Conservative(spy), ObliviousCoin(), H, rounds=2 * H.n_instances + 4, seed=seed)
    assert spy.calls == [(r.x, r.y) for r in T.rounds if r.mistake]


@SETTINGS
@given(H=hypothesis_classes(max_rows=10, max_cols=6, min_cols=1), seed=st.integers(0, 2**16))
def test_wrapper_acts_as_the_learner_fed_only_its_mistakes(H, seed):
    T = play(Conservative(Halving(H)), ObliviousCoin(), H, rounds=2 * H.n_instances + 4, seed=seed)
    replay = Halving(H)  # independent replay of Lemma 1's construction
    for r in T.rounds:
        p = replay.predict_one(r.x)
        assert p == r.prediction
        if p != r.y:
            replay.learn_one(r.x, r.y)


def test_wrapping_changes_a_non_conservative_learner():
    H = classes.thresholds(15)
    T_plain = play(Halving(H), ObliviousCoin(), H, rounds=40, seed=3)
    L = Conservative(Halving(H))
    play(L, ObliviousCoin(), H, rounds=40, seed=3)
    plain = Halving(H)
    for r in T_plain.rounds:
        plain.learn_one(r.x, r.y)
    assert L.learner.version_space.size > plain.version_space.size  # correct rounds were withheld


def test_learn_one_without_a_prediction_asks_the_learner():
    H = classes.singletons(4)
    L = Conservative(Spy(H))
    L.learn_one(1, 0)  # Halving predicts 0 on a singleton: correct, withheld
    L.learn_one(1, 1)  # a mistake: passed on
    assert L.learner.calls == [(1, 1)] and (L.updates, L.skipped) == (1, 1)


def test_randomized_and_incomplete_learners_are_refused():
    @define
    class Coin(Learner):
        def predict_proba_one(self, x):
            return 0.5

        def learn_one(self, x, y):
            pass

    with pytest.raises(InvalidArgumentError, match="randomized"):
        Conservative(Coin())

    class NoLearn:
        def predict_one(self, x):
            return 0

    with pytest.raises(InvalidArgumentError, match="learn_one"):
        Conservative(NoLearn())

    class BadPrediction:
        def predict_one(self, x):
            return 7

        def learn_one(self, x, y):
            pass

    with pytest.raises(InvalidArgumentError, match="label"):
        Conservative(BadPrediction()).predict_one(0)


def test_clone_wraps_a_fresh_learner_and_describe_names_it():
    H = classes.thresholds(7)
    L = Conservative(Halving(H))
    play(L, OppositeLabel(), H, rounds=10, seed=0)
    fresh = L.clone()
    assert fresh.learner is not L.learner
    assert fresh.learner.version_space.size == H.n_hypotheses
    assert (fresh.updates, fresh.skipped) == (0, 0)
    assert repr(L).startswith("Conservative(Halving")
    W = Conservative(Winnow(eta=0.1)).clone()
    assert W.learner.eta == 0.1


def test_winnow_is_already_conservative():
    from mistakebound.adversaries.disjunction_stream import DisjunctionStream
    from mistakebound.game.spaces import KDisjunctionSpace

    S = KDisjunctionSpace(100, 2)
    T1 = play(Winnow(), DisjunctionStream(), S, rounds=100, seed=1)
    T2 = play(Conservative(Winnow()), DisjunctionStream(), S, rounds=100, seed=1)
    assert [r.prediction for r in T1.rounds] == [r.prediction for r in T2.rounds]


# ---------------------------------------------------------------------- claim reasons and for_setting
def test_claim_is_none_when_the_game_or_the_wrapped_learner_gives_none():
    from mistakebound.game.spaces import KDisjunctionSpace, LinearSpace
    from mistakebound.learners.perceptron import Perceptron

    H = classes.thresholds(7)
    assert "not realizable" in Conservative(SOA(H)).bound(H, realizable=False).reason
    claim = Conservative(Perceptron()).bound(LinearSpace(2, R=1.0))  # no margin: the Perceptron states none
    assert claim.value is None and "the wrapped Perceptron states no bound" in claim.reason
    assert Conservative(Perceptron()).bound(LinearSpace(2, R=1.0, gamma=0.5)).value == 4.0
    assert Conservative(Winnow()).bound(KDisjunctionSpace(100, 2)).value == Winnow().bound(KDisjunctionSpace(100, 2)).value
    assert Conservative(Halving(H)).bound(classes.thresholds(3)).value is None  # built for another class

    class NoClaim:
        def predict_one(self, x):
            return 1

        def learn_one(self, x, y):
            pass

    assert "states no bound" in Conservative(NoClaim()).bound(H).reason


def test_for_setting_wraps_halving_on_finite_classes_only():
    from mistakebound.foundations.errors import NotApplicableError
    from mistakebound.game.spaces import LinearSpace

    H = classes.thresholds(15)
    L = Conservative.for_setting(H)
    assert isinstance(L.learner, Halving) and L.learner.H is H
    assert L.bound(H).value == 4.0
    with pytest.raises(NotApplicableError, match="Conservative plays on finite classes"):
        Conservative.for_setting(LinearSpace(3))
