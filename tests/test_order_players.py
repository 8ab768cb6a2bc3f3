"""The orders of the game played with ``play`` (issue 24): the referee's hooks, its refusals, and the optimal
players of :mod:`mistakebound.theory.order_players`, which play each other to the value exactly."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mistakebound import classes, game_value, play
from mistakebound.foundations.errors import IllegalInstanceError, InvalidArgumentError, NotApplicableError
from mistakebound.game.rules import Rules
from mistakebound.game.spaces import ExpertAdvice
from mistakebound.game.transcript_json import transcript_from_json, transcript_to_json
from mistakebound.learners import Halving
from mistakebound.adversaries import OppositeLabel
from mistakebound.theory.order_players import OrderAdversary, OrderLearner
from mistakebound.theory.transductive import transductive_value
from mistakebound.verification.strategies import hypothesis_classes as package_classes
from tests.players import RandomOrderLabels as RandomLabels
from tests.strategies import order_classes

ORDER_NAMES = ("transductive", "self-directed", "best", "worst")


class AnyOrderLearner:
    """A plain learner of every order: it takes the order as given (domain order when it chooses), the first
    instance left, and predicts the plurality label of the hypotheses consistent so far (ties: the smaller)."""

    orders = ("adaptive", *ORDER_NAMES)

    def __init__(self, H, reverse: bool = False):
        self.H, self.reverse = H, reverse
        self.alive = np.ones(H.n_hypotheses, dtype=bool)

    def announce(self, sequence):
        self.announced = tuple(sequence)

    def choose_order(self, domain):
        return tuple(reversed(domain)) if self.reverse else tuple(domain)

    def choose_instance(self, left):
        return left[-1] if self.reverse else left[0]

    def predict_one(self, x):
        counts = np.bincount(self.H.column(x)[self.alive], minlength=self.H.n_labels)
        return int(np.argmax(counts))

    def learn_one(self, x, y):
        self.alive &= self.H.column(x) == y


def rules_for(order: str, k: int = 2, randomized: bool = False) -> Rules:
    return Rules(labels=k, order=order, randomized=randomized)


@settings(max_examples=40, deadline=None)
@given(st.one_of(order_classes(max_rows=12, max_cols=5), package_classes(labels=3, max_hypotheses=8,
                                                                          max_instances=4)),
       st.sampled_from(ORDER_NAMES))
def test_the_optimal_players_reach_the_value_exactly(H, order):
    rules = rules_for(order, H.n_labels)
    rounds = H.n_instances + 2
    T = play(OrderLearner(H, rules), OrderAdversary(H, rules), H, rounds=rounds, seed=0, rules=rules)
    value = (transductive_value(H, rules, horizon=rounds) if order == "transductive" else game_value(H, rules)).value
    assert T.mistakes == value
    assert T.rules.order == order and len(T) <= H.n_instances + (2 if order == "transductive" else 0)


@settings(max_examples=40, deadline=None)
@given(order_classes(max_rows=12, max_cols=5), st.sampled_from(ORDER_NAMES), st.integers(0, 3), st.booleans())
def test_no_adversary_beats_the_optimal_learner_and_no_learner_escapes_the_optimal_adversary(H, order, seed,
                                                                                             reverse):
    rules = rules_for(order)
    rounds = H.n_instances
    value = (transductive_value(H, rules, horizon=rounds) if order == "transductive" else game_value(H, rules)).value
    assert play(OrderLearner(H, rules), RandomLabels(), H, rounds=rounds, seed=seed, rules=rules).mistakes <= value
    # the adversary's order (transductive, worst), or the learner's (best, self-directed: it pays at least the value
    # of the order it chose, at least the order's value): every learner pays the value
    forced = play(AnyOrderLearner(H, reverse), OrderAdversary(H, rules), H, rounds=rounds, seed=seed, rules=rules)
    assert forced.mistakes >= value


@settings(max_examples=25, deadline=None)
@given(order_classes(max_rows=10, max_cols=4), st.sampled_from(ORDER_NAMES))
def test_randomized_optimal_players_reach_the_expected_value(H, order):
    rules = rules_for(order, randomized=True)
    rounds = H.n_instances
    value = (transductive_value(H, rules, horizon=rounds) if order == "transductive" else game_value(H, rules)).value
    T = play(OrderLearner(H, rules), OrderAdversary(H, rules), H, rounds=rounds, seed=1, rules=rules)
    assert T.expected_mistakes == pytest.approx(float(value), abs=1e-9)


def test_each_order_is_played_as_defined():
    H = classes.thresholds(7)
    # worst: every instance once, in the adversary's order, told to the learner before round 1
    learner = AnyOrderLearner(H)
    T = play(learner, OrderAdversary(H, Rules(order="worst")), H, rounds=50, rules=Rules(order="worst"))
    assert tuple(r.x for r in T.rounds) == learner.announced and sorted(learner.announced) == list(H.domain)
    # best: the learner's order
    T = play(AnyOrderLearner(H, reverse=True), RandomLabels(), H, rounds=50, rules=Rules(order="best"))
    assert [r.x for r in T.rounds] == list(reversed(H.domain))
    # self-directed: the learner's picks, each instance once; the horizon cuts the game
    T = play(AnyOrderLearner(H, reverse=True), RandomLabels(), H, rounds=3, rules=Rules(order="self-directed"))
    assert [r.x for r in T.rounds] == [7, 6, 5]
    # transductive: the sequence announced, at most the rounds
    T = play(AnyOrderLearner(H), OrderAdversary(H, Rules(order="transductive")), H, rounds=3,
             rules=Rules(order="transductive"))
    assert len(T) == 3 and T.mistakes == 2


def test_the_transcript_keeps_the_order_and_its_json_reads_back():
    H = classes.thresholds(3)
    rules = Rules(order="self-directed")
    T = play(OrderLearner(H, rules), OrderAdversary(H, rules), H, rounds=5, rules=rules)
    text = transcript_to_json(T)
    assert json.loads(text)["rules"]["order"] == "self-directed"
    assert transcript_from_json(text).rules == rules
    plain = play(Halving(H), OppositeLabel(), H, rounds=5, rules=Rules(noise=0))
    assert "order" not in json.loads(transcript_to_json(plain))["rules"]  # today's transcripts read as before


class Lacking:
    """A learner that declares the orders but has none of their methods."""

    orders = ("adaptive", *ORDER_NAMES)

    def predict_one(self, x):
        return 0

    def learn_one(self, x, y):
        pass


@pytest.mark.parametrize("order", ORDER_NAMES)
def test_players_that_do_not_play_the_order_are_refused_before_round_1(order):
    H = classes.thresholds(3)
    rules = Rules(order=order)
    if order in ("best", "self-directed"):  # the learner moves: one without the move is refused
        with pytest.raises(NotApplicableError, match=f"learner: Halving.* does not declare the '{order}' order"):
            play(Halving(H), RandomLabels(), H, rounds=5, rules=rules)
    else:  # the learner is only told the sequence: the textbook's learner plays, the announcement ignored
        assert play(Halving(H), RandomLabels(), H, rounds=5, rules=rules).mistakes <= 2
    if order in ("transductive", "worst", "best", "self-directed"):
        with pytest.raises(NotApplicableError, match="learner: .*lacks"):
            play(Lacking(), RandomLabels(), H, rounds=5, rules=rules)
    with pytest.raises(NotApplicableError, match="adversary: OppositeLabel.* (lacks sequence|applies_to)"):
        play(AnyOrderLearner(H), OppositeLabel(), H, rounds=5, rules=rules)
    with pytest.raises(NotApplicableError, match="does not apply"):
        play(AnyOrderLearner(H), OrderAdversary(H, Rules(order="best" if order != "best" else "worst")), H,
             rounds=5, rules=rules)


def test_orders_need_a_finite_class_and_an_adaptive_labeller():
    from mistakebound.adversaries import ObliviousCoin

    space = ExpertAdvice(3)
    with pytest.raises(NotApplicableError, match="space"):
        play(AnyOrderLearner(classes.thresholds(3)), RandomLabels(), space, rounds=5, rules=Rules(order="worst"))
    with pytest.raises(NotApplicableError, match="commits its instances"):
        play(AnyOrderLearner(classes.thresholds(3)), ObliviousCoin(), classes.thresholds(3), rounds=5,
             rules=Rules(order="best"))


class Announcing(RandomLabels):
    def __init__(self, announced):
        self.announced = announced

    def sequence(self, state):
        return self.announced


class Choosing(AnyOrderLearner):
    def __init__(self, H, order=None, pick=None):
        super().__init__(H)
        self.order, self.pick = order, pick

    def choose_order(self, domain):
        return self.order

    def choose_instance(self, left):
        return self.pick


@pytest.mark.parametrize("order, announced, message", [
    ("worst", [1, 2], "every instance of thresholds\\(3\\) once"),
    ("worst", [1, 1, 2, 3], "every instance"),
    ("worst", [1, 2, 9], "9 is not one"),
    ("transductive", [1, 2, 3, 1, 2, 3], "at most 5 instances"),
    ("transductive", "123", "expected a sequence of instances"),
    ("transductive", None, "expected a sequence of instances"),
])
def test_an_illegal_announced_sequence_is_the_adversarys_error_in_round_1(order, announced, message):
    H = classes.thresholds(3)
    with pytest.raises(IllegalInstanceError, match=message) as caught:
        play(AnyOrderLearner(H), Announcing(announced), H, rounds=5, rules=Rules(order=order))
    assert caught.value.round == 1 and caught.value.player == "adversary"


def test_an_illegal_choice_is_the_learners_error():
    H = classes.thresholds(3)
    with pytest.raises(IllegalInstanceError, match="every instance") as caught:
        play(Choosing(H, order=(3, 2)), RandomLabels(), H, rounds=5, rules=Rules(order="best"))
    assert caught.value.player == "learner" and caught.value.round == 1
    with pytest.raises(IllegalInstanceError, match="choose_instance returned 7") as caught:
        play(Choosing(H, pick=7), RandomLabels(), H, rounds=5, rules=Rules(order="self-directed"))
    assert caught.value.player == "learner"

    class Repeating(AnyOrderLearner):
        def choose_instance(self, left):
            return 1

    with pytest.raises(IllegalInstanceError, match="not shown yet") as caught:
        play(Repeating(H), RandomLabels(), H, rounds=5, rules=Rules(order="self-directed"))
    assert caught.value.round == 2


def test_the_players_refuse_what_they_cannot_play():
    H = classes.thresholds(3)
    with pytest.raises(InvalidArgumentError, match="order other than 'adaptive'"):
        OrderLearner(H, Rules())
    with pytest.raises(NotApplicableError, match="noise budget 1"):
        OrderAdversary(H, Rules(order="best", noise=1))


def test_a_learner_of_one_order_is_refused_in_the_textbooks_game():
    H = classes.thresholds(3)
    learner = OrderLearner(H, Rules(order="worst"))
    assert learner.orders == ("worst",)
    with pytest.raises(NotApplicableError, match="plays only the orders \\('worst',\\)"):
        play(learner, OppositeLabel(), H, rounds=3)
    with pytest.raises(NotApplicableError, match="does not declare the 'best' order \\(its orders are \\('worst',\\)\\)"):
        play(learner, RandomLabels(), H, rounds=3, rules=Rules(order="best"))
