"""The worst case of a learner under the game's other rules (issue 23): labels, bandit feedback, a noise budget.

Checked against the game's value (:func:`~mistakebound.theory.game_values.game_value`: the
optimal learner attains it, no learner does better), against the textbook's search on the
textbook's rules, and against a brute force (:func:`tests.game_oracle.learner_oracle`) that
shares no code with the search.
"""

from __future__ import annotations

import copy
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mistakebound import HypothesisClass, classes, play
from mistakebound.adversaries import OppositeLabel
from mistakebound.foundations.errors import InvalidArgumentError, NotApplicableError, PeekError
from mistakebound.game.feedback import BanditFeedback
from mistakebound.game.rules import Rules
from mistakebound.learners import SOA, Consistent, GameSOA, Halving, PluralityHalving
from mistakebound.theory.game_values import GameSearch, game_value
from mistakebound.theory.worst_case import _search_by_rules, _worst_case, worst_case_mistakes
from mistakebound.theory.worst_case_rules import BudgetStates
from tests.game_oracle import automaton_oracle, learner_oracle
from tests.players import VoteFraction
from tests.strategies import hypothesis_classes


@st.composite
def tables(draw, max_rows: int = 4, max_cols: int = 3, k=st.integers(2, 3)):
    """A class of ``k`` labels (2 or 3) on a few instances."""
    k = draw(k) if not isinstance(k, int) else k
    n_rows, n_cols = draw(st.integers(1, max_rows)), draw(st.integers(1, max_cols))
    M = draw(st.lists(st.lists(st.integers(0, k - 1), min_size=n_cols, max_size=n_cols),
                      min_size=n_rows, max_size=n_rows))
    return HypothesisClass.from_matrix(np.array(M), labels=k)


class Keyed:
    """The optimal learner of :class:`GameSearch` with a state key (its state ``S``) and a cheap snapshot: the
    search memoises it (GameSearch's learner offers neither, and a deep copy copies the search's memo)."""

    def __init__(self, inner):
        self.inner, self.feedbacks = inner, inner.feedbacks

    def predict_one(self, x):
        return self.inner.predict_one(x)

    def learn_one(self, x, y):
        self.inner.learn_one(x, y)

    def state_key(self):
        return self.inner.S

    def snapshot(self):
        return Keyed(copy.copy(self.inner))


class Counting:
    """Predicts (a count + the instance's column) mod k, where the count is of the rounds it got wrong (mod k)
    or right (mod 2): its state."""

    feedbacks = ("full", "bandit")
    counts_right, modulus = False, None

    def __init__(self, H):
        self.H, self.count = H, 0

    def predict_one(self, x):
        return (self.count + self.H.index_of(x)) % self.H.n_labels

    def learn_one(self, x, y):
        right = y.correct if isinstance(y, BanditFeedback) else y == self.predict_one(x)
        self.count = (self.count + (right == self.counts_right)) % (self.modulus or self.H.n_labels)

    def state_key(self):
        return self.count


class Stubborn(Counting):
    """A deliberately bad learner of any rules: it counts its mistakes, and keeps erring where the answer is
    known."""


class Fickle(Counting):
    """A learner whose state changes on rounds it gets right, which shifts its prediction: under a budget the
    adversary may steer it for free."""

    counts_right, modulus = True, 2


class Toggling:
    """Another learner with a bit it flips on each round it gets right: it predicts as the other does, so its
    worst case is the other's; but a round that costs nothing changes its state, and lines come back to
    positions they have visited (twice such a round), which the search must cut without losing a move."""

    def __init__(self, inner):
        self.inner, self.bit, self.guess = inner, 0, None
        self.feedbacks = getattr(inner, "feedbacks", ("full",))

    def predict_one(self, x):
        self.guess = self.inner.predict_one(x)
        return self.guess

    def learn_one(self, x, y):
        self.bit ^= bool(y.correct if isinstance(y, BanditFeedback) else y == self.guess)
        self.inner.learn_one(x, y)

    def state_key(self):
        return self.inner.state_key(), self.bit

    def snapshot(self):
        twin = copy.copy(self)
        twin.inner = self.inner.snapshot() if hasattr(self.inner, "snapshot") else copy.deepcopy(self.inner)
        return twin


class Automaton:
    """A learner of finitely many states given by tables (see :func:`tests.game_oracle.automaton_oracle`)."""

    feedbacks = ("full", "bandit")

    def __init__(self, H, predictions, transitions):
        self.H, self.predictions, self.transitions, self.state = H, predictions, transitions, 0

    def predict_one(self, x):
        return self.predictions[self.state][self.H.index_of(x)]

    def learn_one(self, x, y):
        shown = int(y.correct) if isinstance(y, BanditFeedback) else y
        self.state = self.transitions[self.state][self.H.index_of(x)][shown]

    def state_key(self):
        return self.state

    def snapshot(self):
        return copy.copy(self)


@st.composite
def automata(draw, H, feedback):
    """Tables of a learner of 1 to 4 states on ``H`` (see :class:`Automaton`)."""
    n, m, k = draw(st.integers(1, 4)), H.n_instances, H.n_labels
    outcomes = k if feedback == "full" else 2
    predictions = [[draw(st.integers(0, k - 1)) for _ in range(m)] for _ in range(n)]
    transitions = [[[draw(st.integers(0, n - 1)) for _ in range(outcomes)] for _ in range(m)] for _ in range(n)]
    return predictions, transitions


def rules_of(H, feedback="full", noise=0):
    return Rules(labels=H.n_labels, feedback=feedback, noise=noise)


def by_rules(learner, H, rules, *, horizon=None, max_nodes=None):
    """The search by rules, also on the textbook's rules (where the door runs the textbook's search, which asks
    a learner that changes its state without a mistake, like :class:`Fickle`, for a horizon)."""
    return _search_by_rules(learner, H, rules, horizon=horizon, max_nodes=max_nodes, time_limit=None)


# ------------------------------------------------------------------ the game's value
@settings(max_examples=120, deadline=None)
@given(tables(), st.sampled_from(["full", "bandit"]), st.integers(0, 2))
def test_the_optimal_learner_attains_the_games_value(H, feedback, r):
    rules = rules_of(H, feedback, r)
    W = worst_case_mistakes(Keyed(GameSearch(H, rules).learner()), H, rules=rules)
    assert W.exact and W.value == game_value(H, rules).value
    assert W.rules == rules and len(W.line) >= W.value  # the line plays the value


@settings(max_examples=80, deadline=None)
@given(tables(), st.sampled_from(["full", "bandit"]), st.integers(0, 2))
def test_no_learner_does_better_than_the_games_value(H, feedback, r):
    rules = rules_of(H, feedback, r)
    value = game_value(H, rules).value
    learners = [Stubborn(H), Fickle(H)] + ([PluralityHalving(H)] if feedback == "full" else [])
    if H.n_labels == 2 and feedback == "full":
        learners += [Halving(H), SOA(H), Consistent(H)]
    for learner in learners:
        W = by_rules(learner, H, rules, max_nodes=20_000)
        assert W.upper >= value and (W.lower >= value or not W.exact), type(learner).__name__


@settings(max_examples=40, deadline=None)
@given(tables(k=2, max_rows=5), st.integers(0, 2))
def test_a_randomized_learner_pays_at_least_the_randomized_value(H, r):
    W = worst_case_mistakes(VoteFraction(H), H, rules=Rules(noise=r, randomized=True))
    assert W.value >= game_value(H, Rules(noise=r, randomized=True)).value


# ------------------------------------------------------------------ the textbook's rules, by both searches
@settings(max_examples=80, deadline=None)
@given(hypothesis_classes(max_rows=7, max_cols=4))
def test_on_the_textbooks_rules_the_search_by_rules_is_the_textbooks_search(H):
    for learner in (Halving(H), SOA(H), Consistent(H)):
        textbook = worst_case_mistakes(learner, H)
        by_rules = _search_by_rules(learner, H, Rules(), horizon=None, max_nodes=None, time_limit=None)
        assert by_rules.value == textbook.value, type(learner).__name__
    learner = VoteFraction(H)
    assert (_search_by_rules(learner, H, Rules(randomized=True), horizon=None, max_nodes=None,
                             time_limit=None).value == worst_case_mistakes(learner, H).value)


def test_without_rules_the_textbooks_search_runs_as_it_did():
    H = classes.thresholds(15)
    for learner in (Halving(H), SOA(H), Consistent(H)):
        before = _worst_case(learner, H, horizon=None, max_nodes=None, time_limit=None)
        W = worst_case_mistakes(learner, H)
        assert (W, W.nodes, W.line, W.rules) == (before, before.nodes, before.line, None)
        explicit = worst_case_mistakes(learner, H, rules=Rules())  # the same search, the rules recorded
        assert (explicit.value, explicit.nodes, explicit.line, explicit.rules) == (W.value, W.nodes, W.line, Rules())
    assert worst_case_mistakes(Halving(classes.singletons(40)), classes.singletons(40), symmetry=True).nodes == 40


# ------------------------------------------------------------------ the brute force
@settings(max_examples=60, deadline=None)
@given(tables(max_rows=3, max_cols=2), st.sampled_from(["full", "bandit"]), st.integers(0, 1), st.integers(1, 3))
def test_the_search_is_the_brute_force_on_tiny_classes(H, feedback, r, rounds):
    rules = rules_of(H, feedback, r)
    rows = [tuple(row) for row in H.matrix.tolist()]
    makers = [lambda: Stubborn(H), lambda: Fickle(H), lambda: GameSOA(H, feedback=feedback, noise=r)]
    if feedback == "full":
        makers.append(lambda: PluralityHalving(H))
    for make in makers:
        W = by_rules(make(), H, rules, horizon=rounds)
        assert W.value == learner_oracle(make, rows, H.n_labels, feedback, r, rounds), type(make()).__name__


@settings(max_examples=40, deadline=None)
@given(tables(max_rows=3, max_cols=2), st.sampled_from(["full", "bandit"]), st.integers(0, 1))
def test_without_a_horizon_the_search_is_the_limit_of_the_horizons(H, feedback, r):
    """A finite worst case is reached within some horizon and never passed; an infinite one grows with it."""
    rules = rules_of(H, feedback, r)
    rows = [tuple(row) for row in H.matrix.tolist()]
    for make in (lambda: Stubborn(H), lambda: Fickle(H)):
        W = by_rules(make(), H, rules)
        assert learner_oracle(make, rows, H.n_labels, feedback, r, 4) <= W.value
        long = by_rules(make(), H, rules, horizon=12).value
        assert long == W.value or (W.value == math.inf and long >= 4)


# ------------------------------------------------------------------ examples
def test_examples_of_each_setting():
    G = classes.all_functions(2, 3)
    assert worst_case_mistakes(PluralityHalving(G), G).value == 2  # the class's labels, by default
    assert worst_case_mistakes(PluralityHalving(G), G, rules=Rules(labels=3, noise=1)).value == math.inf
    H = classes.thresholds(3)
    W = worst_case_mistakes(Halving(H), H, rules=Rules(noise=1))  # its version space emptied, it errs forever
    assert W.value == math.inf and [step[1] for step in W.line] == [0, 0, 1, 0]


@settings(max_examples=80, deadline=None)
@given(tables(max_rows=4, max_cols=3), st.sampled_from(["full", "bandit"]), st.integers(0, 1))
def test_a_line_may_come_back_to_a_position_it_has_visited(H, feedback, r):
    """A learner with a bit it flips for free: the same worst case, though lines loop (and are cut)."""
    rules = rules_of(H, feedback, r)
    learners = [Stubborn(H), Keyed(GameSearch(H, rules).learner())] + ([PluralityHalving(H)] if feedback == "full"
                                                                      else [])
    for learner in learners:
        assert by_rules(Toggling(learner), H, rules).value == by_rules(learner, H, rules).value


@settings(max_examples=300, deadline=None)
@given(st.data(), tables(max_rows=3, max_cols=2), st.sampled_from(["full", "bandit"]), st.integers(0, 1))
def test_the_search_is_the_value_iteration_of_learners_of_few_states(data, H, feedback, r):
    """Learners given by tables: lines loop, for free or with gains, and the positions in a loop differ."""
    predictions, transitions = data.draw(automata(H, feedback))
    rows = [tuple(row) for row in H.matrix.tolist()]
    W = by_rules(Automaton(H, predictions, transitions), H, rules_of(H, feedback, r))
    assert W.value == automaton_oracle(predictions, transitions, rows, H.n_labels, feedback, r)


@pytest.mark.parametrize("rows, feedback, r, predictions, transitions", [
    ([[0, 0]], "bandit", 1, [[0, 1], [0, 0], [0, 0]], [[[2, 2], [2, 2]], [[0, 0], [1, 1]], [[0, 1], [0, 1]]]),
    ([[1, 1]], "bandit", 0, [[1, 0], [1, 1]], [[[0, 1], [1, 0]], [[0, 0], [0, 1]]]),
])
def test_a_position_searched_with_a_loop_cut_is_not_remembered(rows, feedback, r, predictions, transitions):
    """Found by value iteration against a search that memoised every position: a position whose loop back to
    the line was cut was remembered as worth less, and a loop that gains was missed (inf, not 3 or 1)."""
    H = HypothesisClass.from_matrix(np.array(rows))
    W = by_rules(Automaton(H, predictions, transitions), H, rules_of(H, feedback, r))
    assert W.value == automaton_oracle(predictions, transitions, [tuple(row) for row in rows], 2, feedback, r)
    assert W.value == math.inf


def test_the_textbooks_search_still_asks_a_learner_that_changes_state_for_free_for_a_horizon():
    H = classes.thresholds(3)
    with pytest.raises(InvalidArgumentError, match="Toggling changed its state on a round without a mistake"):
        worst_case_mistakes(Toggling(SOA(H)), H)
    assert by_rules(Toggling(SOA(H)), H, Rules()).value == 2


def test_a_bandit_learner_is_shown_what_play_shows_it():
    G = classes.all_functions(1, 3)
    seen = []

    class Recorder(Stubborn):
        def learn_one(self, x, y):
            seen.append(y)
            super().learn_one(x, y)

    worst_case_mistakes(Recorder(G), G, rules=Rules(labels=3, feedback="bandit"), horizon=1)
    assert all(isinstance(f, BanditFeedback) and f.t == 1 for f in seen)
    assert {(f.prediction, f.correct, f.revealed) for f in seen} == {(0, True, True), (0, False, False)}


def test_a_learner_that_reads_a_label_it_was_not_shown_is_caught():
    G = classes.all_functions(1, 3)

    class Peeker(Stubborn):
        def learn_one(self, x, y):
            self.count = int(y)

    with pytest.raises(PeekError, match="round 1") as info:
        worst_case_mistakes(Peeker(G), G, rules=Rules(labels=3, feedback="bandit"), horizon=2)
    assert info.value.player == "learner"


def test_a_partial_search_proves_a_line_and_no_more_than_its_horizon():
    H = classes.thresholds(7)
    rules = Rules(noise=2)
    value = game_value(H, rules).value
    search = GameSearch(H, rules)
    W = worst_case_mistakes(Keyed(search.learner()), H, rules=rules, max_nodes=5)
    assert W.status == "budget" and 0 < W.lower <= value and W.upper == math.inf
    W = worst_case_mistakes(Keyed(search.learner()), H, rules=rules, max_nodes=5, horizon=4)
    assert W.upper == 4 and W.lower <= 4

    def stop(_):
        raise KeyboardInterrupt

    W = worst_case_mistakes(Keyed(search.learner()), H, rules=rules, progress=stop)
    assert W.status == "interrupted" and W.lower <= value


# ------------------------------------------------------------------ refusals
def test_a_learner_that_does_not_play_the_rules_is_refused_with_plays_own_words():
    H = classes.thresholds(7)
    with pytest.raises(NotApplicableError) as searched:
        worst_case_mistakes(Halving(H), H, rules=Rules(feedback="bandit"))
    with pytest.raises(NotApplicableError) as played:
        play(Halving(H), OppositeLabel(), H, rounds=1, rules=Rules(feedback="bandit"))
    assert str(searched.value) == str(played.value)
    with pytest.raises(NotApplicableError, match="randomizes"):
        worst_case_mistakes(VoteFraction(H), H, rules=Rules(noise=1))


@pytest.mark.parametrize("rules, error, message", [
    (Rules(feedback="bandit", randomized=True), NotApplicableError, "rules: the worst case of a randomized"),
    (Rules(randomized=True, adaptive=False), NotApplicableError, "against adaptive adversaries"),
    (Rules(labels=3, randomized=True), InvalidArgumentError, "rules: the game has 3 labels"),
    ({"noise": 1}, InvalidArgumentError, "rules: expected a Rules value, got dict"),
])
def test_rules_the_search_does_not_play_are_refused_by_name(rules, error, message):
    H = classes.thresholds(3)

    class Declared(VoteFraction):
        feedbacks = ("full", "bandit")

    with pytest.raises(error, match=message):
        worst_case_mistakes(Declared(H), H, rules=rules)


def test_a_deterministic_learner_is_searched_the_same_against_oblivious_adversaries():
    G = classes.all_functions(2, 3)
    assert worst_case_mistakes(PluralityHalving(G), G, rules=Rules(labels=3, adaptive=False)).value == 2


def test_the_referees_states_are_the_budget_referees():
    H = HypothesisClass.from_matrix(np.array([[0, 1, 2], [2, 2, 0], [1, 0, 0]]), labels=3)
    states = BudgetStates(H, noise=1)
    referee = H.referee(True, noise=1)
    S = states.root
    for j, y in [(0, 2), (1, 2), (2, 1)]:
        legal = referee.round_error(1, H.domain[j], y) is None
        T = states.after(S, j, y)
        assert (T is not None) == legal
        if legal:
            referee.update(H.domain[j], y)
            S = T
            assert [sum(S[i] >> h & 1 for i in range(2)) for h in range(3)] == \
                [int(m <= 1) for m in referee.mistakes]
