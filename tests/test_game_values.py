"""The game's value under other rules (issue 23): labels, bandit feedback, a noise budget.

The oracle (:mod:`tests.game_oracle`) is a brute-force game search written in the tests,
sharing no code with :mod:`mistakebound.theory.game_values`.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mistakebound import classes
from mistakebound.foundations.errors import InvalidArgumentError, NotApplicableError
from mistakebound.game.rules import FEEDBACKS, Rules
from mistakebound.theory.game_values import game_value
from mistakebound.theory.littlestone import littlestone_dimension
from mistakebound.theory.textbook import textbook_ldim, textbook_rldim
from tests.game_oracle import bandit_randomized_oracle, oracle, randomized_oracle


@st.composite
def games(draw, max_rows=5, max_cols=3):
    k = draw(st.integers(2, 3))
    n_rows, n_cols = draw(st.integers(1, max_rows)), draw(st.integers(1, max_cols))
    M = draw(st.lists(st.lists(st.integers(0, k - 1), min_size=n_cols, max_size=n_cols),
                      min_size=n_rows, max_size=n_rows))
    return np.array(M), k


@settings(max_examples=150, deadline=None)
@given(games(), st.sampled_from(["full", "bandit"]), st.integers(0, 2))
def test_the_value_is_the_brute_force_game_value_in_every_setting(game, feedback, r):
    M, k = game
    rules = Rules(labels=k, feedback=feedback, noise=r)
    assert game_value(M, rules).value == oracle([tuple(row) for row in M.tolist()], k, feedback, r)


@settings(max_examples=100, deadline=None)
@given(games(max_rows=6, max_cols=4), st.integers(0, 2))
def test_relations_the_literature_proves(game, r):
    """Full information is worth at most bandit feedback to the adversary; with two labels they agree (a
    wrong guess reveals the label); the noise budget r adds at least r on a class with an instance; the
    value grows with r."""
    M, k = game
    full = game_value(M, Rules(labels=k, noise=r)).value
    bandit = game_value(M, Rules(labels=k, feedback="bandit", noise=r)).value
    assert full <= bandit
    if k == 2:
        assert full == bandit
    realizable = game_value(M, Rules(labels=k)).value
    assert full >= r + realizable
    assert game_value(M, Rules(labels=k, noise=r + 1)).value >= full + 1


@settings(max_examples=100, deadline=None)
@given(st.lists(st.lists(st.integers(0, 1), min_size=3, max_size=3), min_size=1, max_size=8))
def test_the_textbook_rules_give_the_littlestone_dimension(rows):
    M = np.array(rows)
    assert game_value(M).value == textbook_ldim(M)


@pytest.mark.parametrize("H", [classes.thresholds(15), classes.singletons(9), classes.power_set(5),
                               classes.intervals(8), classes.monotone_disjunctions(4)], ids=str)
def test_the_textbook_rules_agree_with_the_compiled_search_on_the_zoo(H):
    assert game_value(H).value == littlestone_dimension(H)


@pytest.mark.parametrize("n, k", [(1, 2), (2, 3), (3, 3), (2, 4), (1, 5)])
def test_all_functions_from_n_points_to_k_labels(n, k):
    """Known values: the multiclass Ldim of all functions [n] -> [k] is n (each point once), the bandit Ldim
    n (k - 1) (Daniely and Helbertal 2013: the adversary answers "wrong" until one label is left)."""
    M = np.array(list(itertools.product(range(k), repeat=n)))
    assert game_value(M, Rules(labels=k)).value == n
    assert game_value(M, Rules(labels=k, feedback="bandit")).value == n * (k - 1)


def test_a_search_out_of_budget_gives_proven_bounds():
    M = classes.power_set(5).matrix
    truth = game_value(M, Rules(noise=1)).value
    for nodes in (1, 3, 30, 300):
        b = game_value(M, Rules(noise=1), max_nodes=nodes)
        assert b.status in ("budget", "exact") and b.lower <= truth <= b.upper
        assert not b.exact or b.lower == truth
    b = game_value(M, Rules(noise=1), max_nodes=1)  # the root alone: r below, the binomial-weights bound above
    assert (b.status, b.lower, b.upper) == ("budget", 1, binomial_weights_bound(32, 1))
    bandit = game_value(np.array(list(itertools.product(range(3), repeat=3))), Rules(labels=3, feedback="bandit",
                                                                                    noise=1), max_nodes=1)
    assert (bandit.status, bandit.lower, bandit.upper) == ("budget", 1, 27 * 2 - 1)  # the potential, minus one
    randomized = game_value(M, Rules(noise=2, randomized=True), max_nodes=1)  # the randomized floor is r / 2
    assert (randomized.status, randomized.lower) == ("budget", 1)
    assert randomized.upper == binomial_weights_bound(32, 2)  # a deterministic learner's bound holds for it too


@pytest.mark.parametrize("matrix, rules, message", [
    ([[0, 3]], Rules(labels=3), "matrix: expected labels in 0..2 (labels=3), got 3 at row 0, column 1"),
    ([[0, -1]], Rules(), "matrix: expected labels in 0..1 (labels=2), got -1 at row 0, column 1"),
    ([[0.5, 1]], Rules(), "matrix: expected integer labels in 0..1, got dtype float64"),
    ([], Rules(), "matrix: expected a 2-d array with at least one row, got shape (0,)"),
    ([[0, 1]], "full", "rules: expected a Rules value, got str"),
])
def test_bad_input_is_refused_by_name(matrix, rules, message):
    with pytest.raises(InvalidArgumentError) as info:
        game_value(matrix, rules)
    assert str(info.value) == message


def test_an_oblivious_adversary_against_a_randomized_bandit_learner_is_sent_to_the_horizon_values():
    with pytest.raises(NotApplicableError, match=r"^rules: adaptive=False with randomized=True and bandit feedback: "
                                                 r"the oblivious adversary's value depends on the number of rounds"):
        game_value([[0, 1]], Rules(randomized=True, feedback="bandit", adaptive=False))
    # with full information the oblivious adversary is as strong: the adaptive value
    M = classes.thresholds(7)
    assert game_value(M, Rules(randomized=True, adaptive=False)).value == game_value(M, Rules(randomized=True)).value


# ------------------------------------------------------------------ randomized learners under bandit feedback
@settings(max_examples=120, deadline=None)
@given(games(), st.integers(0, 1))
def test_the_randomized_bandit_value_is_the_brute_force_value(game, r):
    M, k = game
    value = game_value(M, Rules(labels=k, noise=r, randomized=True, feedback="bandit")).value
    assert value == bandit_randomized_oracle([tuple(row) for row in M.tolist()], k, r)


@settings(max_examples=120, deadline=None)
@given(games(max_rows=6, max_cols=3), st.integers(0, 1))
def test_the_randomized_bandit_value_lies_between_full_information_and_determinism(game, r):
    """The bandit learner knows less than the full-information one, and may randomize where the deterministic
    one may not: full <= bandit <= deterministic bandit; with two labels a wrong draw reveals the label."""
    M, k = game
    bandit = game_value(M, Rules(labels=k, noise=r, randomized=True, feedback="bandit")).value
    full = game_value(M, Rules(labels=k, noise=r, randomized=True)).value
    assert full <= bandit <= game_value(M, Rules(labels=k, noise=r, feedback="bandit")).value
    if k == 2:
        assert bandit == full


@settings(max_examples=80, deadline=None)
@given(st.lists(st.lists(st.integers(0, 1), min_size=4, max_size=4), min_size=1, max_size=9))
def test_two_labels_without_noise_a_bandit_learner_pays_the_randomized_littlestone_dimension(rows):
    M = np.array(rows)
    assert game_value(M, Rules(randomized=True, feedback="bandit")).value == textbook_rldim(M)


def test_the_randomized_bandit_value_on_all_functions():
    """Every map from n points to 3 labels: n(k-1) = 2n for a deterministic learner; a randomized one does better
    (one point: it spreads evenly, errs with probability 2/3, then spreads over the two labels left: 2/3 (1 + 1/2))."""
    for n, expected in ((1, Fraction(1)), (2, None)):
        M = np.array(list(itertools.product(range(3), repeat=n)))
        value = game_value(M, Rules(labels=3, feedback="bandit", randomized=True)).value
        assert game_value(M, Rules(labels=3, randomized=True)).value < value < 2 * n
        assert expected is None or value == expected


def test_a_randomized_bandit_search_out_of_budget_gives_proven_bounds():
    M = np.array(list(itertools.product(range(3), repeat=3)))
    rules = Rules(labels=3, feedback="bandit", randomized=True)
    truth = game_value(M, rules).value
    for nodes in (1, 5, 50):
        b = game_value(M, rules, max_nodes=nodes)
        assert b.status == "budget" and b.lower <= truth <= b.upper
    b = game_value(M, rules, max_nodes=1)
    assert (b.lower, b.upper) == (0, 27 - 1)  # nothing proven below; the potential, minus one, above


@settings(max_examples=120, deadline=None)
@given(games(), st.integers(0, 2))
def test_the_randomized_value_is_the_brute_force_value(game, r):
    M, k = game
    value = game_value(M, Rules(labels=k, noise=r, randomized=True)).value
    assert value == randomized_oracle([tuple(row) for row in M.tolist()], k, r)
    deterministic = game_value(M, Rules(labels=k, noise=r)).value
    assert value <= deterministic  # a deterministic learner is a randomized one
    if r == 0:  # FHMM 2023: in full information, RL >= Ldim / 2; with k labels the multiclass tree's two labels
        assert 2 * value >= deterministic  # at a node share the learner's probability, one gets at most 1/2


@settings(max_examples=80, deadline=None)
@given(st.lists(st.lists(st.integers(0, 1), min_size=4, max_size=4), min_size=1, max_size=9))
def test_two_labels_without_noise_give_the_randomized_littlestone_dimension(rows):
    from mistakebound.theory.randomized_ldim import randomized_littlestone_dimension
    from mistakebound.theory.textbook import textbook_rldim

    H = HypothesisClass.from_matrix(np.array(rows, dtype=np.uint8))
    value = game_value(H, Rules(randomized=True)).value
    assert value == randomized_littlestone_dimension(H) == textbook_rldim(H)


@pytest.mark.parametrize("kwargs, message", [
    ({"labels": 1}, "labels: expected an int >= 2 (the number of labels), got 1"),
    ({"feedback": "semi"}, "feedback: expected one of 'full', 'bandit', got 'semi'"),
    ({"noise": -1}, "noise: expected an int from 0 to 1,000,000,000,000 (the mistakes the best hypothesis may make), "
                    "got -1"),
    ({"noise": 10**30}, "noise: expected an int from 0 to 1,000,000,000,000 (the mistakes the best hypothesis may "
                        "make), got 1000000000000000000000000000000"),
    ({"adaptive": "no"}, "adaptive: expected True or False, got 'no'"),
    ({"randomized": 2}, "randomized: expected True or False, got 2"),
])
def test_rules_refuse_bad_values_by_name(kwargs, message):
    with pytest.raises(InvalidArgumentError) as info:
        Rules(**kwargs)
    assert str(info.value) == message


def test_the_default_rules_are_the_textbooks_game():
    assert Rules().textbook and not Rules(labels=3).textbook and not Rules(adaptive=False).textbook
    assert Rules() == Rules(labels=2, feedback="full", noise=0, adaptive=True, randomized=False)
    assert hash(Rules(noise=1)) == hash(Rules(noise=1))


def binomial_weights_bound(n: int, r: int) -> int:
    """The largest q with ``2^q <= n * sum_{i <= r} C(q, i)``: the learner that runs Halving over the n experts,
    each copied with every pattern of at most r flipped answers, makes at most that many mistakes (the
    binomial-weights argument of Cesa-Bianchi, Freund, Helmbold, Haussler, Schapire and Warmuth 1997,
    deterministic case): an upper bound on the value, not the value."""
    q = 0
    while 2 ** (q + 1) <= n * sum(math.comb(q + 1, i) for i in range(r + 1)):
        q += 1
    return q


@pytest.mark.parametrize("n", [2, 3, 4, 5])
@pytest.mark.parametrize("r", [0, 1, 2, 3])
def test_expert_advice_with_a_noise_budget(n, r):
    """n experts whose advice the adversary chooses (the projections class: every advice vector is an
    instance), the best one wrong at most r times.  The value lies between 2r + 1 (two experts that
    disagree: whatever the learner says, one of them errs) and the binomial-weights bound, and two experts
    give exactly 2r + 1."""
    value = game_value(classes.projections(n), Rules(noise=r)).value
    assert 2 * r + 1 <= value <= binomial_weights_bound(n, r)
    if n == 2:
        assert value == 2 * r + 1
    if (n, r) in ((3, 2), (4, 3)):  # the settings page's finding: the bound is an upper bound, not the value
        assert value == binomial_weights_bound(n, r) - 1


def test_the_settings_pages_table_of_values_is_what_game_value_gives():
    """Every exact value of the settings page's table (of benchmarks/settings_table.py) whose search took under a
    second there, computed again; an interval must hold the value where the suite can afford it."""
    import re
    from pathlib import Path

    from benchmarks.settings_table import COLUMNS, cases

    page = (Path(__file__).resolve().parents[1] / "docs" / "settings.md").read_text(encoding="utf-8")
    table = page.split("| full | bandit | noise 1 | noise 2 |\n|---|---|---|---|---|---|\n", 1)[1].split("\n\n")[0]
    rows = {line.split("|")[1].strip(): [c.strip() for c in line.split("|")[3:-1]] for line in table.splitlines()}
    checked = 0
    for name, matrix, k in cases():
        assert name in rows, name
        for (_, fields), cell in zip(COLUMNS, rows[name], strict=True):
            shown, seconds = re.fullmatch(r"(.+) \(([\d.e-]+) s\)", cell).groups()
            if float(seconds) < 1 and not shown.startswith("["):
                assert game_value(matrix, Rules(labels=k, **fields)).value == int(shown), (name, fields)
                checked += 1
    assert checked >= 30


@pytest.mark.parametrize("r", [0, 1, 2])
def test_expert_advice_agrees_with_the_brute_force(r):
    M = classes.projections(3).matrix
    assert game_value(M, Rules(noise=r)).value == oracle([tuple(row) for row in M.tolist()], 2, "full", r)


def test_the_memo_stops_at_its_share_of_the_memory_with_proven_bounds(monkeypatch):
    from mistakebound.foundations import memory
    from mistakebound.theory import game_values
    from mistakebound.theory.search_protocol import MEMO_FRACTION

    M = np.array(list(itertools.product(range(3), repeat=3)))
    rules = Rules(labels=3, noise=1)
    truth = game_value(M, rules)
    per = game_values.ENTRY_BYTES + 2 * ((27 + 7) // 8 + 28)
    monkeypatch.setattr(memory, "available_memory", lambda: int(10 * per / MEMO_FRACTION) + 1)
    b = game_value(M, rules)
    assert truth.exact and truth.nodes > 10
    assert b.status == "memory" and b.nodes < truth.nodes and b.lower <= truth.value <= b.upper  # stopped early


# ------------------------------------------------------------------ through the profile door and the command line
def test_the_profile_door_answers_the_value_under_its_rules():
    from mistakebound.theory.profile import class_profile, requested

    H = classes.thresholds(7)
    P = class_profile(H, rules=Rules(noise=1))
    assert P.value.value == game_value(H, Rules(noise=1)).value and P.rules == Rules(noise=1)
    assert P.ldim.value == littlestone_dimension(H) and P.vc is not None
    assert class_profile(H).value is None  # the textbook's rules: no value unless asked for
    assert class_profile(H, what="value").value.value == littlestone_dimension(H)
    assert requested("vc", Rules(feedback="bandit")) == ("ldim", "vc", "value")
    with pytest.raises(InvalidArgumentError, match="^horizon: the oblivious adversary.s value against randomized "
                                                   "learners under bandit feedback depends on the number of rounds"):
        class_profile(H, rules=Rules(noise=1, randomized=True, feedback="bandit", adaptive=False))
    bandit = Rules(labels=2, randomized=True, feedback="bandit")
    assert class_profile(H, what="value", rules=bandit).value.value == game_value(H, bandit).value
    assert class_profile(H, what="ldim", rules=Rules(randomized=True)).value.value == class_profile(
        H, what="rldim").rldim.value
    with pytest.raises(InvalidArgumentError, match="^rules: expected a Rules value, got dict"):
        class_profile(H, rules={"noise": 1})


@pytest.mark.parametrize("argv, rules", [
    (["--noise", "1"], Rules(noise=1)),
    (["--feedback", "bandit"], Rules(labels=3, feedback="bandit")),
    (["--noise", "2", "--oblivious"], Rules(noise=2, adaptive=False)),
])
def test_ldim_prints_the_value_the_library_gives(capsys, argv, rules):
    from mistakebound.interfaces.cli import main

    spec = "one_vs_rest:5,3" if rules.labels == 3 else "singletons:5"
    H = classes.from_spec(spec)
    code = main(["ldim", spec, "--what", "ldim", *argv])
    out = capsys.readouterr().out
    assert code == 0
    assert f"value ({rules.describe()}) = {game_value(H, rules).value}" in out.splitlines()


def test_ldim_with_a_small_budget_prints_the_values_proven_interval_and_exits_3(capsys):
    from mistakebound.interfaces.cli import main

    code = main(["ldim", "power_set:6", "--what", "ldim", "--noise", "2", "--max-nodes", "20"])
    out = capsys.readouterr().out
    b = game_value(classes.power_set(6), Rules(noise=2), max_nodes=20)
    assert code == 3 and not b.exact
    assert f"{b.lower} <= value ({Rules(noise=2).describe()}) <= {b.upper} (partial: budget), after 20 nodes" in out
    assert "the game's value is partial: raise --max-nodes / --time-limit for the exact value" in out


@pytest.mark.parametrize("argv, message", [
    (["--labels", "1"], "argument --labels: expected an integer from 2 to 256, got '1'"),
    (["--noise", "-1"], "argument --noise: expected an integer from 0 to 1,000,000,000,000, got '-1'"),
    (["--feedback", "partial"], "argument --feedback: invalid choice: 'partial'"),
    (["--feedback", "bandit", "--randomized", "--oblivious"],
     "horizon: the oblivious adversary's value against randomized learners under bandit feedback depends on the "
     "number of rounds"),
])
def test_ldim_refuses_bad_rules_before_reading_the_class(capsys, argv, message):
    from mistakebound.interfaces.cli import main

    code = main(["ldim", "thresholds:5", *argv])
    captured = capsys.readouterr()
    assert code == 2 and captured.out == ""
    assert message in captured.err and len(captured.err.strip().splitlines()) == 1


# ------------------------------------------------------------------ the optimal players
from mistakebound import HypothesisClass, play  # noqa: E402
from mistakebound.adversaries import ObliviousCoin, OppositeLabel  # noqa: E402
from mistakebound.learners import SOA, Consistent, Halving  # noqa: E402
from mistakebound.theory.game_values import GameSearch  # noqa: E402


@settings(max_examples=80, deadline=None)
@given(st.lists(st.lists(st.integers(0, 1), min_size=3, max_size=3), min_size=1, max_size=6), st.integers(0, 2))
def test_the_optimal_players_play_each_other_to_the_value(rows, r):
    H = HypothesisClass.from_matrix(np.array(rows, dtype=np.uint8))
    rules = Rules(noise=r)
    search = GameSearch(H, rules)
    value = game_value(H, rules).value
    T = play(search.learner(), search.adversary(), H, rounds=100, rules=rules)
    assert T.mistakes == value and T.best_hypothesis_mistakes <= r
    for learner in (SOA(H), Halving(H), Consistent(H)):  # every deterministic learner pays at least the value
        T = play(learner, search.adversary(), H, rounds=100, rules=rules)
        assert T.mistakes >= value and T.best_hypothesis_mistakes <= r
    if r == 0:  # and the optimal learner at most (noisy games: the next test's labels within the budget)
        for adversary in (OppositeLabel(), ObliviousCoin()):
            T = play(search.learner(), adversary, H, rounds=60, realizable=True, seed=1)
            assert T.mistakes <= value


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.integers(0, 1), min_size=3, max_size=3), min_size=1, max_size=6), st.integers(1, 2),
       st.lists(st.tuples(st.integers(0, 2), st.integers(0, 1)), max_size=25))
def test_the_optimal_learner_keeps_to_the_value_against_any_labels_within_the_budget(rows, r, moves):
    """Any sequence of instances and labels that keeps some hypothesis within r mistakes: at most the value."""
    M = np.array(rows)
    search = GameSearch(M, Rules(noise=r))
    learner, S, mistakes = search.learner(), search.root, 0
    for j, y in moves:
        T = search.after(S, j, y)
        if not any(T):
            continue  # this label would leave no hypothesis within the budget: the adversary may not give it
        mistakes += int(learner.predict_one(j) != y)
        learner.learn_one(j, y)
        S = T
    assert mistakes <= game_value(M, Rules(noise=r)).value


@settings(max_examples=60, deadline=None)
@given(k=st.integers(2, 4), feedback=st.sampled_from(FEEDBACKS), r=st.integers(0, 2), data=st.data())
def test_the_optimal_players_reach_the_value_in_every_setting_with_play(k, feedback, r, data):
    """The optimal learner and adversary of each setting, played by the referee under the rules (bandit feedback:
    the learner sees only whether it erred; a noise budget: the referee refuses a label that leaves every
    hypothesis past it), make exactly the oracle's number of mistakes."""
    from mistakebound.game.play import play

    rows = data.draw(st.lists(st.lists(st.integers(0, k - 1), min_size=2, max_size=2), min_size=1, max_size=5))
    H = HypothesisClass.from_matrix(rows, labels=k)
    rules = Rules(labels=k, feedback=feedback, noise=r)
    search = GameSearch(H, rules)
    T = play(search.learner(), search.adversary(), H, rounds=100, seed=0, rules=rules)
    assert T.mistakes == oracle([tuple(row) for row in rows], k, feedback, r)
    assert T.best_hypothesis_mistakes <= r and T.rules == rules


def test_the_players_search_what_they_play():
    search = GameSearch(classes.thresholds(3), Rules(feedback="bandit"))
    assert search.value(search.root) == 2 and search.best_outcome(search.root, 1, 0) in (True, False)
    with pytest.raises(InvalidArgumentError, match="^x: expected an instance of the class, got 9"):
        GameSearch(classes.thresholds(3)).column(9)


# ------------------------------------------------------------------ shattered trees of the other settings
def _shattered_by_brute_force(rows, tree):
    """An independent check of a game tree: every path's labels (multiclass) or refused predictions (bandit) are
    those of some row (written here, sharing nothing with theory.game_trees)."""
    kind = tree.graph["kind"]
    paths = []

    def walk(node, path):
        children = sorted(tree.successors(node))
        if not children:
            paths.append(path)
            return
        for c in children:
            walk(c, path + [(tree.nodes[node]["instance"], tree.edges[node, c].get("prediction", tree.edges[node, c]["label"]))])

    walk(1, [])
    for path in paths:
        if kind == "multiclass" and not any(all(row[x] == y for x, y in path) for row in rows):
            return False
        if kind == "bandit" and not any(all(row[x] != p for x, p in path) for row in rows):
            return False
    return all(len(p) == tree.graph["depth"] for p in paths)


@settings(max_examples=60, deadline=None)
@given(k=st.integers(2, 4), feedback=st.sampled_from(FEEDBACKS), data=st.data())
def test_the_game_tree_has_depth_the_oracles_value_and_is_shattered(k, feedback, data):
    from mistakebound.theory.game_trees import game_tree, is_game_shattered

    rows = data.draw(st.lists(st.lists(st.integers(0, k - 1), min_size=3, max_size=3), min_size=1, max_size=6))
    H = HypothesisClass.from_matrix(rows, labels=k)
    tree = game_tree(H, Rules(labels=k, feedback=feedback))
    assert tree.graph["depth"] == oracle([tuple(r) for r in rows], k, feedback, 0)
    assert is_game_shattered(H, tree) and _shattered_by_brute_force(rows, tree)
    children = {len(list(tree.successors(n))) for n in tree if tree.out_degree(n)}
    assert children <= ({k} if feedback == "bandit" else {2})


def test_a_tree_that_lies_is_refused_and_noisy_rules_have_no_tree():
    from mistakebound.theory.game_trees import game_tree, is_game_shattered
    from mistakebound.theory.search_protocol import SearchIncomplete

    H = classes.all_functions(2, 3)
    tree = game_tree(H)
    leaf = next(n for n in tree if tree.out_degree(n) == 0)
    wrong = tree.copy()
    wrong.nodes[leaf]["witness"] = (tree.nodes[leaf]["witness"] + 1) % H.n_hypotheses
    assert not is_game_shattered(H, wrong)
    same = tree.copy()
    child = next(iter(same.successors(1)))
    other = [c for c in same.successors(1) if c != child][0]
    same.edges[1, child]["label"] = same.edges[1, other]["label"]  # two edges with one label: no mistake forced
    assert not is_game_shattered(H, same)
    deeper = tree.copy()
    deeper.graph["depth"] = 3
    assert not is_game_shattered(H, deeper)
    with pytest.raises(NotApplicableError, match=r"^rules: .* has no shattered tree"):
        game_tree(H, Rules(labels=3, noise=1))
    with pytest.raises(SearchIncomplete):
        game_tree(classes.all_functions(4, 3), max_nodes=2)


@settings(max_examples=80, deadline=None)
@given(k=st.integers(3, 5), data=st.data())
def test_the_bandit_value_is_at_most_the_bandit_halving_bound(k, data):
    """Bandit feedback costs at most log_{k/(k-1)} of the distinct rows: predict the plurality label, and a wrong
    guess removes at least a k-th of the version space (the bandit Halving argument, Daniely and Helbertal 2013).
    Long's (1 + o(1)) k ln k factor on the full-information value (TCS 2020) is asymptotic in k: no small class can
    test it, so the settings page states it and its table shows the ratios met."""
    rows = data.draw(st.lists(st.lists(st.integers(0, k - 1), min_size=2, max_size=3), min_size=1, max_size=7)
                     .filter(lambda rows: len({len(r) for r in rows}) == 1))
    d = len({tuple(r) for r in rows})
    bandit = game_value(np.array(rows), Rules(labels=k, feedback="bandit")).value
    full = game_value(np.array(rows), Rules(labels=k)).value
    assert full <= bandit
    assert (k / (k - 1)) ** bandit <= d  # each of the bandit value's mistakes keeps at most (k-1)/k of the rows
