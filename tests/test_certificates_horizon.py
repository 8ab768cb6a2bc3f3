"""Certificates of the value of a game of a few rounds for randomized learners (``"value-horizon"``, issue 23).

The honest certificates are the writer's (:mod:`mistakebound.theory.horizon_certificate`); what they prove is
compared with the other linear program of :func:`tests.game_oracle.oblivious_oracle`, which shares no code
with the package or the checker.  The smallest lie of each step is in the campaign
(:func:`tests.game_lies.horizon_lies`); the tests here show the refusals a reader would look for first.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mistakebound import HypothesisClass
from mistakebound.certificates import horizon_value
from mistakebound.certificates.document import CertificateError
from mistakebound.certificates.verify import check, describe
from mistakebound.foundations.errors import NotApplicableError
from mistakebound.game.rules import Rules
from mistakebound.interfaces.cli import main
from mistakebound.theory.horizon_certificate import horizon_certificate
from mistakebound.theory.oblivious_values import GAP_CLASS, oblivious_value
from mistakebound.theory.profile import certified_rules, class_profile
from tests.documents import clone
from tests.game_oracle import oblivious_oracle
from tests.test_certificates_game import CHECKER


@st.composite
def tiny_games(draw):
    k = draw(st.integers(2, 3))
    n_rows, n_cols = draw(st.integers(1, 3)), draw(st.integers(1, 2))
    rows = draw(st.lists(st.tuples(*[st.integers(0, k - 1)] * n_cols), min_size=n_rows, max_size=n_rows))
    return rows, k


def _rules(k, feedback, r, adaptive):
    return Rules(labels=k, feedback=feedback, noise=r, adaptive=adaptive, randomized=True)


@settings(max_examples=60, deadline=None)
@given(tiny_games(), st.sampled_from(["full", "bandit"]), st.integers(0, 1), st.booleans(), st.integers(0, 2))
def test_honest_certificates_are_accepted_and_prove_the_other_programs_value(game, feedback, r, adaptive, T):
    rows, k = game
    doc = horizon_certificate(rows, _rules(k, feedback, r, adaptive), T).document()
    proven = check(json.loads(json.dumps(doc)))["value-horizon"]
    lo, hi = proven
    assert lo == hi == oblivious_value(rows, _rules(k, feedback, r, adaptive), T).value
    if T:
        assert abs(float(lo) - oblivious_oracle(rows, k, feedback, r, T, adaptive=adaptive)) < 1e-9
    else:
        assert lo == 0
    assert proven.about == {"rules": {"labels": k, "feedback": feedback, "noise": r, "adaptive": adaptive,
                                      "randomized": True}, "horizon": T}


def test_the_statement_names_the_adversary_and_the_rounds_and_separates_the_gap_class():
    rules = _rules(3, "bandit", 0, False)
    oblivious = describe(check(horizon_certificate(GAP_CLASS, rules, 2).document()))[0]
    adaptive = describe(check(horizon_certificate(GAP_CLASS, _rules(3, "bandit", 0, True), 2).document()))[0]
    assert oblivious.startswith("value(H; 3 labels, bandit feedback, noise 0, oblivious adversaries, randomized "
                                "learners, 2 rounds) = 1, where H is the class of 4 hypotheses")
    assert adaptive.startswith("value(H; 3 labels, bandit feedback, noise 0, adaptive adversaries held to their "
                               "labels, randomized learners, 2 rounds) = 15/14")


def test_a_strategy_is_written_only_where_its_player_goes():
    """One hypothesis: the adversary's moves are forced, the learner's draws are certain after the first round."""
    doc = horizon_certificate([[0, 1]], _rules(2, "full", 0, False), 3).document()
    section = doc["results"][0]
    assert check(doc)["value-horizon"] == (0, 0)
    reached = {tuple(key) for key, _ in section["learner"]}
    assert (0,) in reached or (1,) in reached
    assert all(p in ([1, 0], [0, 1]) for _, p in section["learner"])  # no mistake to pay: the learner is certain


def _gap_document(adaptive=False, T=2):
    return horizon_certificate(GAP_CLASS, _rules(3, "bandit", 0, adaptive), T).document()


def _refused(doc, match):
    with pytest.raises(CertificateError, match=match):
        check(doc)


def test_a_claim_one_hair_past_what_the_strategies_prove_is_refused():
    hair = Fraction(1, 2 ** 20)
    doc = _gap_document()
    doc["results"][0]["claim"]["lower"] = f"{(1 + hair).numerator}/{(1 + hair).denominator}"
    _refused(doc, r"claim lower: the learner's best answer to the adversary's strategy pays 1, less than")
    doc = _gap_document()
    doc["results"][0]["claim"]["upper"] = f"{(1 - hair).numerator}/{(1 - hair).denominator}"
    _refused(doc, r"claim upper: the adversary's best answer to the learner's strategy gets 1, more than")


def test_a_weaker_claim_is_accepted():
    doc = _gap_document()
    doc["results"][0]["claim"] = {"lower": "1/2", "upper": 2}
    assert check(doc)["value-horizon"] == (Fraction(1, 2), 2)


def test_an_information_set_the_learner_reaches_must_have_its_distribution():
    doc = _gap_document()
    del doc["results"][0]["learner"][-1]
    _refused(doc, r"value-horizon learner: no distribution for the key \[")


def test_a_key_of_no_information_set_or_twice_and_a_bad_distribution_are_refused():
    doc = _gap_document()
    first = doc["results"][0]["learner"][0]
    for change, match in (
            (lambda s: s["learner"].append([[5], [1, 0, 0]]), r"learner \d+: the key \[5\] names no information set"),
            (lambda s: s["learner"].append(clone(first)), r"a second distribution for the key"),
            (lambda s: s["learner"].__setitem__(0, [first[0], ["1/2", "1/2", "1/2"]]), "summing to 1"),
            (lambda s: s["learner"].__setitem__(0, [first[0], [1, 0]]), "expected 3 probabilities"),
            (lambda s: s["learner"].__setitem__(0, [first[0], [0.5, 0.5, 0]]), "expected an integer, a fraction"),
            (lambda s: s["adversary"].__setitem__(0, [[], [1]]), "expected 2 probabilities")):
        bad = clone(doc)
        change(bad["results"][0])
        _refused(bad, match)


def test_the_adversary_may_not_name_a_label_that_leaves_no_row():
    """Instance 0 of the gap class: no row gives it the label 2 (and there is no noise)."""
    doc = _gap_document()
    adversary = doc["results"][0]["adversary"]
    adversary[:] = [[[], [1, 0]], [[0], [0, 0, 1]]] + [e for e in adversary if len(e[0]) > 1]
    _refused(doc, r"label 2 is not legal there")


def test_a_game_tree_past_the_checkers_limit_is_refused_before_it_is_built():
    doc = horizon_certificate([[0]], _rules(3, "full", 1, False), 1).document()
    doc["results"][0]["horizon"] = horizon_value.MAX_HORIZON
    start = time.perf_counter()
    _refused(doc, rf"the game tree of {horizon_value.MAX_HORIZON} rounds has more than")
    assert time.perf_counter() - start < 5  # counted, not built (a correctness property, not a benchmark)


@pytest.mark.parametrize(("field", "value", "match"), [
    ("randomized", False, "'randomized': true"), ("adaptive", 0, "'adaptive': true or false"),
    ("feedback", "partial", "'feedback': 'full' or 'bandit'"), ("labels", 2, "more than the 2 of the rules"),
    ("noise", -1, "the noise budget, an integer 0")])
def test_a_wrong_rules_field_is_refused(field, value, match):
    doc = _gap_document()
    doc["results"][0]["rules"][field] = value
    _refused(doc, match)


def test_the_strategies_checked_under_other_rules_do_not_prove_the_value():
    """With a mistake to spare the adversary names labels the learner's strategy did not expect."""
    doc = _gap_document()
    doc["results"][0]["rules"]["noise"] = 1
    _refused(doc, "claim upper: the adversary's best answer to the learner's strategy gets 2, more than 1")


def test_a_game_tree_not_built_within_the_budget_has_no_certificate():
    with pytest.raises(NotApplicableError, match="was not built within the budget"):
        horizon_certificate(GAP_CLASS, _rules(3, "bandit", 0, False), 6, max_nodes=100)


def test_the_profile_door_certifies_a_randomized_learners_value_at_a_horizon():
    H = HypothesisClass.from_matrix(GAP_CLASS, labels=3)
    rules = _rules(3, "bandit", 0, False)
    P = class_profile(H, what="ldim", rules=rules, horizon=2, keep_search=True)
    assert P.value.value == 1 and P.horizon == 2
    proven = check(P.certificate().document())
    assert proven["value-horizon"] == (1, 1) and proven["value-horizon"].about["horizon"] == 2
    assert certified_rules(rules, 2) and not certified_rules(Rules(), 2)


def test_the_checker_run_alone_verifies_a_horizon_certificate(tmp_path):
    path = tmp_path / "gap.json"
    horizon_certificate(GAP_CLASS, _rules(3, "bandit", 0, True), 2).write(path)
    alone = subprocess.run([sys.executable, "-I", "-S", str(CHECKER), str(path)], capture_output=True, text=True,
                           timeout=60)
    assert alone.returncode == 0, alone.stderr
    assert "adaptive adversaries held to their labels, randomized learners, 2 rounds) = 15/14" in alone.stdout


def test_ldim_with_a_horizon_certifies_the_oblivious_value_and_verify_states_it(tmp_path, capsys):
    table = tmp_path / "gap.csv"
    table.write_text("".join(f"{a},{b}\n" for a, b in GAP_CLASS))
    cert = tmp_path / "gap_cert.json"
    code = main(["ldim", str(table), "--labels", "3", "--feedback", "bandit", "--randomized", "--oblivious",
                 "--horizon", "2", "--what", "ldim", "--certificate", str(cert)])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "value (3 labels, bandit feedback, realizable, oblivious, randomized, 2 rounds) = 1\n" in out
    assert main(["verify", str(cert)]) == 0
    assert "oblivious adversaries, randomized learners, 2 rounds) = 1" in capsys.readouterr().out


def test_ldim_asks_for_a_horizon_where_the_value_depends_on_it(tmp_path, capsys):
    table = tmp_path / "gap.csv"
    table.write_text("".join(f"{a},{b}\n" for a, b in GAP_CLASS))
    assert main(["ldim", str(table), "--labels", "3", "--feedback", "bandit", "--randomized", "--oblivious"]) == 2
    err = capsys.readouterr().err
    assert "horizon:" in err and "expected a horizon" in err
    assert main(["ldim", str(table), "--labels", "3", "--horizon", "-1"]) == 2
    assert "--horizon" in capsys.readouterr().err


def test_ldim_json_names_the_horizon_beside_the_value(tmp_path, capsys):
    table = tmp_path / "gap.csv"
    table.write_text("".join(f"{a},{b}\n" for a, b in GAP_CLASS))
    assert main(["ldim", str(table), "--labels", "3", "--feedback", "bandit", "--randomized", "--horizon", "2",
                 "--what", "ldim", "--json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    value = next(r for r in records if r.get("parameter") == "value")
    assert value["horizon"] == 2 and Fraction(value["value"]) == Fraction(15, 14)
