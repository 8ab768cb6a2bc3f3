"""The zoo's players of the orders (issue 24): :class:`~mistakebound.learners.OrderSOA` and
:class:`~mistakebound.adversaries.OrderMinimax`, their claims against the brute force of
:mod:`tests.order_oracles`, and the textbook's learners in the orders they are only told."""

from __future__ import annotations

import pytest
from attrs import evolve
from hypothesis import given, settings
from hypothesis import strategies as st

from mistakebound import classes, play
from mistakebound.foundations.errors import InvalidArgumentError, NotApplicableError
from mistakebound.game import registry
from mistakebound.game.rules import Rules
from mistakebound.learners import SOA, Halving, OrderSOA
from mistakebound.adversaries import GameMinimax, OrderMinimax
from mistakebound.verification.judged import judged_game
from tests.game_oracle import oracle as textbook_oracle
from tests.order_oracles import best_order_oracle, self_directed_oracle, transductive_oracle, worst_order_oracle
from tests.players import RandomOrderLabels
from tests.strategies import order_classes

ORDER_NAMES = ("transductive", "self-directed", "best", "worst")

#: The brute force of each order's value (the transductive game's without a number of rounds: the worst order's).
ORACLES = {"transductive": worst_order_oracle, "worst": worst_order_oracle, "best": best_order_oracle,
           "self-directed": self_directed_oracle}


def rows_of(H):
    return [tuple(int(v) for v in row) for row in H.matrix]


def horizon_value(H, order, rounds):
    """The brute force of the game the zoo's players play: the transductive game of ``rounds`` rounds, else the
    order's value (every instance is shown)."""
    if order == "transductive":
        return transductive_oracle(rows_of(H), rounds)
    return ORACLES[order](rows_of(H))


def learners_for(H, rules):
    """The zoo learner as the registry builds it for the rules (its order), and built for every order."""
    return (registry.build("learner", "OrderSOA", H, rules=rules), OrderSOA(H))


single = st.builds(lambda row: classes.HypothesisClass.from_matrix([row]), st.lists(st.integers(0, 1), min_size=1,
                                                                                     max_size=4))
small_classes = st.one_of(order_classes(max_rows=8, max_cols=4), single)


@settings(max_examples=60, deadline=None)
@given(small_classes, st.sampled_from(ORDER_NAMES), st.integers(0, 3), st.integers(0, 2))
def test_the_zoo_learner_claims_the_orders_value_and_keeps_it(H, order, seed, extra):
    rules = Rules(order=order)
    rounds = H.n_instances + extra if order == "transductive" else H.n_instances
    value = ORACLES[order](rows_of(H))
    for learner in learners_for(H, rules):
        claim = learner.bound(H, rules=rules)
        assert claim.value == value and claim.measure == "mistakes"
        # against the zoo adversary: exactly the game's value (the transductive game's of these rounds)
        T = play(learner, registry.build("adversary", "OrderMinimax", H, rules=rules), H, rounds=rounds, seed=seed,
                 rules=rules)
        assert T.mistakes == horizon_value(H, order, rounds) <= claim.value
    for learner in learners_for(H, rules):  # against random labels of the order, seeded
        assert play(learner, RandomOrderLabels(), H, rounds=rounds, seed=seed, rules=rules).mistakes <= value


@settings(max_examples=40, deadline=None)
@given(small_classes, st.sampled_from(ORDER_NAMES), st.integers(1, 6))
def test_the_zoo_adversary_forces_the_value_deterministically(H, order, rounds):
    rules = Rules(order=order)
    adversary = OrderMinimax.for_setting(H, rules=rules)
    games = [play(OrderSOA.for_setting(H, rules=rules), adversary, H, rounds=rounds, seed=seed, rules=rules)
             for seed in (0, 1)]
    assert [(r.x, r.y) for r in games[0].rounds] == [(r.x, r.y) for r in games[1].rounds]  # the seed changes nothing
    forced = adversary.forces(H, learner=OrderSOA(H), rounds=rounds, rules=rules)
    if rounds >= H.n_instances:
        assert forced.value == ORACLES[order](rows_of(H)) == games[0].mistakes
    else:
        assert not forced.stated and "rounds played" in forced.reason
    # the textbook's learners where they are only told the sequence: they pay at least the value, within their claims
    if order in ("transductive", "worst") and rounds >= H.n_instances:
        for learner in (Halving(H), SOA(H)):
            g = judged_game(learner, OrderMinimax(order=order), H, rounds=rounds, rules=rules)
            assert g.transcript.mistakes >= forced.value and g.verdict.status == "ok"


@settings(max_examples=30, deadline=None)
@given(small_classes, st.integers(0, 3))
def test_in_the_textbooks_game_the_zoo_learner_is_the_soa(H, seed):
    """Asked a prediction first, OrderSOA plays the adaptive order as GameSOA and claims Ldim (its brute force)."""
    rows = rows_of(H)
    ldim = textbook_oracle(rows, 2, "full", 0)
    for learner in (OrderSOA(H), OrderSOA.for_setting(H, rules=Rules())):
        assert learner.bound(H).value == ldim and "adaptive" in learner.orders
        T = play(learner, GameMinimax(), H, rounds=H.n_instances + 3, seed=seed)
        assert T.mistakes == ldim


def test_the_zoo_learner_refuses_what_it_cannot_claim():
    H = classes.thresholds(7)
    assert OrderSOA(H).bound(H, rules=Rules(order="worst", noise=1)).reason.startswith("the worst-order game's")
    with pytest.raises(NotApplicableError, match="OrderSOA plays realizable games with full information"):
        OrderSOA.for_setting(H, rules=Rules(noise=1))
    assert "built for the 'best' order" in OrderSOA(H, order="best").bound(H, rules=Rules(order="worst")).reason
    assert "was built for thresholds(7)" in OrderSOA(H).bound(classes.thresholds(3), rules=Rules(order="worst")).reason
    with pytest.raises(InvalidArgumentError, match="order: expected one of"):
        OrderSOA(H, order="sideways")
    with pytest.raises(NotApplicableError, match="OrderSOA plays on finite classes"):
        OrderSOA.for_setting(registry.load_setting("experts:3"), rules=Rules(order="worst"))
    with pytest.raises(NotApplicableError, match="plays only the orders"):  # the referee, before round 1
        play(OrderSOA(H, order="worst"), GameMinimax(), H, rounds=7)


def test_out_of_its_search_the_claim_is_the_proven_upper_bound(monkeypatch):
    import mistakebound.theory.game_values as game_values

    H = classes.thresholds(7)
    partial = game_values.GameValue(1, 3, status="interrupted", rules=Rules(order="worst"))
    monkeypatch.setattr(game_values, "game_value", lambda matrix, rules: partial)
    claim = OrderSOA(H).bound(H, rules=Rules(order="worst"))
    assert claim.value == 3 and "upper bound" in claim.source and "interrupted" in claim.source
    monkeypatch.setattr(game_values, "game_value", lambda matrix, rules: evolve(partial, upper=float("inf")))
    assert "before it proved a bound" in OrderSOA(H).bound(H, rules=Rules(order="worst")).reason


def test_the_zoo_adversary_plays_its_order_only():
    H = classes.thresholds(7)
    with pytest.raises(NotApplicableError, match="give its order"):
        registry.build("adversary", "OrderMinimax", H)
    for rules in (Rules(order="worst"), None):
        with pytest.raises(NotApplicableError, match="does not apply"):
            play(OrderSOA(H), OrderMinimax(order="best"), H, rounds=7, rules=rules)
    assert "was built for the best-order game" in OrderMinimax(order="best").forces(
        H, learner=Halving(H), rules=Rules(order="worst")).reason
    spec = registry.spec_of(OrderMinimax(order="best"))  # the line that replays a game types back
    assert spec == "OrderMinimax(order=best)"
    assert registry.build("adversary", spec, H, rules=Rules(order="best")).order == "best"
