"""The game in a fixed number of rounds: the oblivious adversary's value and the adaptive one (issue 23).

The oracles (:mod:`tests.game_oracle`) share no code with the library: the program's values by another
linear program (the adversary's pure sequences, or trees over the learner's draws, as its variables, the learner's best response as
constraints), the adaptive recursion by brute force over per-hypothesis mistakes with matrix games solved by
support enumeration.
"""

from __future__ import annotations

import sys
from fractions import Fraction

import attrs
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mistakebound import classes
from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.game.rules import Rules
from mistakebound.theory.game_values import game_value
from mistakebound.theory.oblivious_values import GAP_CLASS, LPDependencyError, adaptive_value, oblivious_value
from tests.game_oracle import bandit_randomized_oracle, oblivious_oracle, oracle, randomized_oracle


@st.composite
def tiny_games(draw, max_rows=3, max_cols=2):
    k = draw(st.integers(2, 3))
    n_rows, n_cols = draw(st.integers(1, max_rows)), draw(st.integers(1, max_cols))
    rows = draw(st.lists(st.tuples(*[st.integers(0, k - 1)] * n_cols), min_size=n_rows, max_size=n_rows))
    return rows, k


def randomized(k, feedback, r, adaptive=True):
    return Rules(labels=k, feedback=feedback, noise=r, adaptive=adaptive, randomized=True)


@settings(max_examples=60, deadline=None)
@given(tiny_games(), st.sampled_from(["full", "bandit"]), st.integers(0, 1), st.integers(1, 2), st.booleans())
def test_the_programs_value_is_exact_and_is_the_other_programs_value(game, feedback, r, T, adaptive):
    """Oblivious, or adaptive and held to its labels: the other program enumerates the adversary's pure strategies
    (sequences, or trees over the learner's past draws)."""
    rows, k = game
    value = oblivious_value(rows, randomized(k, feedback, r, adaptive=adaptive), T)
    assert value.exact and isinstance(value.value, Fraction)
    assert abs(float(value.value) - oblivious_oracle(rows, k, feedback, r, T, adaptive=adaptive)) < 1e-7


@settings(max_examples=60, deadline=None)
@given(tiny_games(max_rows=4, max_cols=3), st.integers(0, 1), st.integers(0, 4))
def test_the_adaptive_value_at_a_horizon_is_the_brute_force_recursion(game, r, T):
    rows, k = game
    assert adaptive_value(rows, randomized(k, "bandit", r), T).value == bandit_randomized_oracle(rows, k, r, T)


@settings(max_examples=40, deadline=None)
@given(tiny_games(), st.sampled_from(["full", "bandit"]), st.integers(0, 1), st.integers(1, 2))
def test_relations_between_the_values_at_a_horizon(game, feedback, r, T):
    """oblivious <= adaptive held to its labels <= the recursion's adaptive (it names a wrong round's label
    later); a randomized learner pays at most a deterministic one; the values grow with the horizon; with full
    information all three are one value."""
    rows, k = game
    oblivious = oblivious_value(rows, randomized(k, feedback, r, adaptive=False), T).value
    held = oblivious_value(rows, randomized(k, feedback, r), T).value
    recursion = adaptive_value(rows, randomized(k, feedback, r), T).value
    assert oblivious <= held <= recursion <= adaptive_value(rows, Rules(labels=k, feedback=feedback, noise=r), T).value
    assert oblivious_value(rows, randomized(k, feedback, r, adaptive=False), T - 1).value <= oblivious
    assert adaptive_value(rows, randomized(k, feedback, r), T - 1).value <= recursion
    if feedback == "full":
        assert oblivious == held == recursion
    else:
        assert oblivious_value(rows, randomized(k, "full", r, adaptive=False), T).value <= oblivious


@settings(max_examples=60, deadline=None)
@given(tiny_games(max_rows=4, max_cols=3), st.sampled_from(["full", "bandit"]), st.integers(0, 1))
def test_past_the_games_depth_the_horizon_values_are_game_values(game, feedback, r):
    """The depth is at most the potential, rows times (r + 1): beyond it, the unbounded game's value (and the
    brute-force oracles'), except for a randomized learner with full information and noise, where a label every
    hypothesis gives may be repeated: the horizon values then approach the value from below (one hypothesis,
    r = 1: v_T = (1 + v_{T-1}) / 2, 1/2, 3/4, ... towards 1)."""
    rows, k = game
    depth = len(rows) * (r + 1)
    deterministic = Rules(labels=k, feedback=feedback, noise=r)
    assert adaptive_value(rows, deterministic, depth).value == oracle(rows, k, feedback, r)
    rand = randomized(k, feedback, r)
    truth = bandit_randomized_oracle(rows, k, r) if feedback == "bandit" else randomized_oracle(rows, k, r)
    assert game_value(np.array(rows), rand).value == truth
    if feedback == "bandit" or r == 0:
        assert adaptive_value(rows, rand, depth).value == truth
    else:
        assert adaptive_value(rows, rand, depth).value <= truth


def test_with_full_information_and_noise_the_horizon_values_approach_the_value():
    rand = randomized(2, "full", 1)
    assert [adaptive_value([(0,)], rand, T).value for T in range(5)] == [0, Fraction(1, 2), Fraction(3, 4),
                                                                       Fraction(7, 8), Fraction(15, 16)]
    assert game_value([[0]], rand).value == 1


def test_the_exhibited_class_where_adaptivity_matters_under_bandit_feedback():
    """The module's finding: four hypotheses, three labels, bandit feedback, two rounds: an oblivious adversary
    gets 1 from the best randomized learner, an adaptive one 15/14; at one round, and from three on, they agree
    (2/3, then 7/6, the unbounded game's value).  With full information they agree at every horizon."""
    bandit = randomized(3, "bandit", 0)
    oblivious = attrs.evolve(bandit, adaptive=False)
    assert [oblivious_value(GAP_CLASS, oblivious, T).value for T in (1, 2, 3)] == [Fraction(2, 3), 1, Fraction(7, 6)]
    assert [oblivious_value(GAP_CLASS, bandit, T).value for T in (1, 2, 3)] == [Fraction(2, 3), Fraction(15, 14),
                                                                            Fraction(7, 6)]
    assert adaptive_value(GAP_CLASS, bandit, 2).value == Fraction(15, 14)
    assert game_value(np.array(GAP_CLASS), bandit).value == Fraction(7, 6)
    full = randomized(3, "full", 0)
    for T in (1, 2, 3):
        assert (oblivious_value(GAP_CLASS, attrs.evolve(full, adaptive=False), T).value
                == oblivious_value(GAP_CLASS, full, T).value == adaptive_value(GAP_CLASS, full, T).value)


def test_the_recursions_adaptive_adversary_may_be_stronger_than_one_held_to_its_labels():
    """Under bandit feedback the recursion's adversary names a wrong round's label at the end: on this class it
    gets more in two rounds than an adaptive adversary that names its labels as it goes."""
    rows = [(0, 0), (0, 1), (1, 0), (2, 2)]
    rules = randomized(3, "bandit", 0)
    assert oblivious_value(rows, rules, 2).value == Fraction(27, 25)
    assert adaptive_value(rows, rules, 2).value == Fraction(75, 68)


def test_a_deterministic_learner_is_sent_to_the_adaptive_value():
    H = classes.thresholds(7)
    for T in range(5):
        assert oblivious_value(H, Rules(adaptive=False), T).value == adaptive_value(H, Rules(), T).value
    assert adaptive_value(H, Rules(), 4).value == game_value(H).value == 3


def test_budgets_give_proven_intervals():
    rules = randomized(3, "bandit", 1)
    truth = adaptive_value(GAP_CLASS, rules, 4).value
    for nodes in (1, 4, 40):
        b = adaptive_value(GAP_CLASS, rules, 4, max_nodes=nodes)
        assert b.status == "budget" and b.lower <= truth <= b.upper <= 4 and b.horizon == 4
    b = oblivious_value(GAP_CLASS, attrs.evolve(rules, adaptive=False), 2, max_nodes=10)
    assert (b.status, b.lower, b.upper) == ("budget", 0, 2)
    assert oblivious_value(GAP_CLASS, attrs.evolve(rules, adaptive=False), 2).exact
    with pytest.raises(InvalidArgumentError, match="^max_nodes: expected None or an integer >= 1, got 0"):
        oblivious_value(GAP_CLASS, rules, 2, max_nodes=0)


@pytest.mark.parametrize("function", [oblivious_value, adaptive_value])
@pytest.mark.parametrize("horizon, message", [
    (-1, "horizon: expected an int >= 0 (the number of rounds), got -1"),
    (1.5, "horizon: expected an int >= 0 (the number of rounds), got 1.5"),
    ("2", "horizon: expected an int >= 0 (the number of rounds), got '2'"),
])
def test_a_bad_horizon_is_refused_by_name(function, horizon, message):
    with pytest.raises(InvalidArgumentError) as info:
        function([[0, 1]], Rules(randomized=True), horizon)
    assert str(info.value) == message


def test_bad_tables_and_rules_are_refused_by_name():
    with pytest.raises(InvalidArgumentError, match=r"^matrix: expected labels in 0\.\.1 \(labels=2\), got 2"):
        oblivious_value([[0, 2]], Rules(randomized=True), 1)
    with pytest.raises(InvalidArgumentError, match="^rules: expected a Rules value, got dict"):
        adaptive_value([[0, 1]], {"randomized": True}, 1)


def test_without_scipy_the_program_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "scipy.optimize", None)  # importing it now raises ImportError
    with pytest.raises(LPDependencyError) as info:
        oblivious_value([[0, 1]], Rules(randomized=True, adaptive=False), 1)
    assert str(info.value) == ("oblivious_value needs scipy, which is not installed; install the lp extra: "
                               "pip install 'mistakebound[lp]'")
    assert len(str(info.value).splitlines()) == 1
    assert adaptive_value([[0], [1]], Rules(randomized=True), 1).value == Fraction(1, 2)  # the recursion needs none


def test_a_table_of_no_instance_is_worth_nothing_in_any_number_of_rounds():
    """Found by the lie campaign: the program was handed to the solver with no variable of the learner's."""
    empty = np.zeros((2, 0), dtype=np.uint8)
    for adaptive in (False, True):
        value = oblivious_value(empty, randomized(2, "bandit", 1, adaptive=adaptive), 3)
        assert value.exact and value.value == 0
