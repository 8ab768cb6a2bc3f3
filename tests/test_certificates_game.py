"""Certificates of the game's value under other rules: ``value-full``, ``value-bandit``, ``value-randomized``.

Honest certificates, written by :mod:`mistakebound.theory.game_certificate` off the memo of
:func:`~mistakebound.theory.game_values.game_value`'s search, are accepted and prove exactly
the value the brute force of :mod:`tests.game_oracle` finds; each smallest lie (one step of
an honest certificate changed) is refused by the step it lies in.  The campaign of
:mod:`tests.certificate_lies` lies in every step of these kinds on many classes; here the
lies are spelled out one by one on a table of three labels.
"""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mistakebound import Rules, classes
from mistakebound.certificates import verify
from mistakebound.certificates.context import class_hash
from mistakebound.certificates.verify import CertificateError, check, describe
from mistakebound.foundations.errors import NotApplicableError
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.interfaces.cli import main
from mistakebound.theory.certificate import CertificateWriter, class_section, table_section
from mistakebound.theory.game_certificate import game_certificate
from mistakebound.theory.game_values import game_value
from tests.documents import clone
from tests.game_oracle import bandit_randomized_oracle, oracle, randomized_oracle

CHECKER = Path(verify.__file__)
#: Four hypotheses on two instances over three labels (full information: 1; bandit: 2; noise 1: 3).
TABLE = np.array([[0, 0], [1, 1], [2, 2], [0, 1]])


@st.composite
def tables(draw) -> tuple[np.ndarray, int]:
    """Small tables of 2 or 3 labels (rows repeated sometimes), and their number of labels."""
    k = draw(st.sampled_from([2, 3]))
    n, m = draw(st.integers(1, 5)), draw(st.integers(1, 3))
    rows = draw(st.lists(st.lists(st.integers(0, k - 1), min_size=m, max_size=m), min_size=n, max_size=n))
    if draw(st.booleans()):
        rows.append(rows[0])
    return np.array(rows), k


@st.composite
def all_rules(draw, k: int) -> Rules:
    randomized = draw(st.booleans())
    feedback = "full" if randomized else draw(st.sampled_from(["full", "bandit"]))
    return Rules(labels=k, feedback=feedback, noise=draw(st.integers(0, 2)), randomized=randomized)


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_honest_certificates_are_accepted_and_prove_exactly_the_value(data):
    M, k = data.draw(tables())
    rules = data.draw(all_rules(k))
    rows = [tuple(int(v) for v in row) for row in M]
    true = (randomized_oracle(rows, k, rules.noise) if rules.randomized
            else oracle(rows, k, rules.feedback, rules.noise))
    assert game_value(M, rules).value == true
    document = game_certificate(M, rules).document()
    proven = check(json.loads(json.dumps(document)))
    kind = {False: f"value-{rules.feedback}", True: "value-randomized"}[rules.randomized]
    assert list(proven) == [kind] and tuple(proven[kind]) == (true, true)
    assert proven[kind].about["rules"] == {"labels": k, "feedback": rules.feedback, "noise": rules.noise,
                                           "randomized": rules.randomized}


def test_the_statement_names_the_rules_and_the_class():
    proven = check(game_certificate(TABLE, Rules(labels=3, feedback="bandit", noise=1)).document())
    sha = table_section(TABLE)["sha256"]
    assert describe(proven) == [f"value(H; 3 labels, bandit feedback, noise 1, deterministic learners) = 5, where H is "
                                f"the class of 4 hypotheses on 2 instances over 3 labels with sha256 {sha}"]
    rules = Rules(noise=1, randomized=True)
    proven = check(game_certificate(classes.thresholds(3), rules).document())
    value = game_value(classes.thresholds(3), rules).value
    assert value == Fraction(19, 8)
    assert describe(proven)[0].startswith("value(H; 2 labels, full information, noise 1, randomized learners) = 19/8, "
                                          "where H is the class of 4 hypotheses on 3 instances with sha256 ")


@pytest.mark.parametrize("rules", [Rules(noise=2), Rules(noise=2, feedback="bandit", labels=3),
                                   Rules(noise=3, randomized=True), Rules(noise=1, labels=3)],
                         ids=lambda r: r.describe())
@pytest.mark.parametrize("max_nodes", [1, 30, 200])
def test_a_partial_search_certifies_the_interval_it_reports(rules, max_nodes):
    H = classes.intervals(8).matrix  # a table: its labels 0 and 1 are labels of any game
    found = game_value(H, rules, max_nodes=max_nodes)
    (lower, upper), = check(game_certificate(H, rules, max_nodes=max_nodes).document()).values()
    assert found.status == "budget" and (lower, upper) == (found.lower, found.upper)


@pytest.mark.parametrize("rules", [Rules(labels=3, randomized=True, adaptive=False),
                                   Rules(labels=3, randomized=True, feedback="bandit", adaptive=False)],
                         ids=lambda r: r.describe())
def test_randomized_learners_against_an_oblivious_adversary_are_refused(rules):
    with pytest.raises(NotApplicableError, match="has no kind of certificate without a horizon"):
        game_certificate(TABLE, rules)


# ------------------------------------------------------------------------------ randomized learners, bandit feedback
RB = "value-randomized-bandit"


@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_honest_randomized_bandit_certificates_prove_exactly_the_value(data):
    M, k = data.draw(tables())
    rules = Rules(labels=k, feedback="bandit", noise=data.draw(st.integers(0, 1)), randomized=True)
    true = game_value(M, rules).value
    assert true == bandit_randomized_oracle([tuple(int(v) for v in row) for row in M], k, rules.noise)
    proven = check(json.loads(json.dumps(game_certificate(M, rules).document())))
    assert list(proven) == [RB] and tuple(proven[RB]) == (true, true)
    assert proven[RB].about["rules"] == {"labels": k, "feedback": "bandit", "noise": rules.noise, "randomized": True}


@pytest.mark.parametrize("max_nodes", [1, 5, 40])
def test_a_partial_randomized_bandit_search_certifies_its_interval(max_nodes):
    M = np.array([[0, 1, 2], [1, 1, 0], [2, 0, 1], [0, 0, 0], [1, 2, 2]])
    rules = Rules(labels=3, feedback="bandit", noise=1, randomized=True)
    found = game_value(M, rules, max_nodes=max_nodes)
    proven = check(game_certificate(M, rules, max_nodes=max_nodes).document())[RB]
    assert tuple(proven) == (found.lower, found.upper)


RB_RULES = Rules(labels=3, feedback="bandit", randomized=True)


def _raise(doc: dict, side: str, v) -> None:
    fact = root_fact(doc, side)
    fact[2] = str(v) if Fraction(v).denominator > 1 else int(v)
    doc["results"][0]["claim"]["upper" if side == "le" else "lower"][1] = fact[2]


def test_the_adversarys_strategy_must_be_a_distribution_over_the_labels():
    ge = root_fact(honest(RB_RULES), "ge")
    assert ge[3] is not None and len(ge[3][1]) == 3
    true = Fraction(ge[2])
    for bad, match in (([1, 1, 0], "summing to 1"), ([-1, 2, 0], "summing to 1"), (["1/2", "1/2"], "expected 3 "
                                                                                                     "probabilities")):
        doc = honest(RB_RULES)
        root_fact(doc, "ge")[3][1] = bad
        _raise(doc, "ge", true + Fraction(1, 64))
        refused(doc, rf"^{RB} fact \d+: expected")
        refused(doc, match)


def test_a_value_one_hair_off_is_refused_by_its_step():
    doc = honest(RB_RULES)
    _raise(doc, "ge", Fraction(root_fact(doc, "ge")[2]) + Fraction(1, 64))
    refused(doc, rf"^{RB} fact \d+: the learner drawing \d pays .*, less than")
    doc = honest(RB_RULES)
    _raise(doc, "le", Fraction(root_fact(doc, "le")[2]) - Fraction(1, 64))
    refused(doc, rf"^{RB} fact \d+ instance \d+: the adversary naming \d gains .*, more than")


def test_a_hidden_column_is_refused():
    """The learner's mix that holds the live labels' columns but not the noise column (every draw wrong)."""
    M = np.array([[0, 0], [1, 1], [0, 1]])  # label 2 no row gives: with noise, the adversary may name it
    rules = Rules(labels=3, feedback="bandit", noise=1, randomized=True)
    doc = honest(rules, M)
    le = root_fact(doc, "le")
    assert isinstance(le[3], list)
    _raise(doc, "le", Fraction(le[2]) - Fraction(1, 64))
    refused(doc, rf"^{RB} fact \d+ instance \d+: the adversary naming \d gains")


def test_a_hidden_row_is_refused():
    """The adversary's mix that wins against every live draw but one: the checker lists the rows itself."""
    doc = honest(RB_RULES)
    ge = root_fact(doc, "ge")
    x = ge[3][0]
    ge[3][1] = [1, 0, 0]  # all on label 0: a learner drawing 0 is right
    _raise(doc, "ge", 1)
    refused(doc, rf"^{RB} fact \d+: the learner drawing 0 pays")


def test_a_draw_of_a_label_no_row_gives_and_a_noise_label_without_noise_are_refused():
    M = np.array([[0, 0], [1, 1], [0, 1]])
    doc = honest(RB_RULES, M)
    le = root_fact(doc, "le")
    le[3][0] = [0, 0, 1]
    refused(doc, rf"^{RB} fact \d+ instance 0: label 2: no row gives it, so drawing it")
    doc = honest(RB_RULES, M)
    root_fact(doc, "ge")[3] = [0, [0, 0, 1]]
    refused(doc, rf"^{RB} fact \d+: label 2: no row gives it and none has a mistake to spare")


def test_a_randomized_bandit_child_fact_on_the_wrong_state_and_a_missing_instance_are_refused():
    doc = honest(RB_RULES)
    children = [f for f in facts(doc) if f[1] == "le" and f is not root_fact(doc, "le") and isinstance(f[3], list)]
    assert children
    for f in children:  # each child's fact moved to another state (a row added or dropped)
        f[0] = [format(int(t, 16) ^ 1, "x") if i == 0 and int(t, 16) ^ 1 else t for i, t in enumerate(f[0])]
    refused(doc, rf"^{RB} fact \d+( instance \d+)?: (no earlier .le. fact on the state|the adversary naming|label \d: no row gives it)")
    doc = honest(RB_RULES)
    root_fact(doc, "le")[3].pop()
    refused(doc, rf"^{RB} fact \d+: expected a distribution for each of the 2 instances")


# ------------------------------------------------------------------------------ the smallest lies, one by one
def honest(rules: Rules, M: np.ndarray = TABLE) -> dict:
    return clone(game_certificate(M, rules).document())


def facts(doc: dict) -> list:
    return doc["results"][0]["facts"]


def root_fact(doc: dict, side: str) -> list:
    return facts(doc)[doc["results"][0]["claim"]["upper" if side == "le" else "lower"][0]]


def refused(doc: dict, match: str) -> None:
    with pytest.raises(CertificateError, match=match):
        check(doc)


@pytest.mark.parametrize("rules", [Rules(labels=3), Rules(labels=3, feedback="bandit"), Rules(labels=3, noise=1),
                                   Rules(labels=3, randomized=True)], ids=lambda r: r.describe())
def test_a_value_wrong_by_one_is_refused_by_its_step(rules):
    kind = "value-randomized" if rules.randomized else f"value-{rules.feedback}"
    doc = honest(rules)
    step = Fraction(1, 64) if rules.randomized else 1
    fact = root_fact(doc, "ge")
    fact[2] = str(Fraction(fact[2]) + step) if rules.randomized else fact[2] + step
    doc["results"][0]["claim"]["lower"][1] = fact[2]
    refused(doc, rf"^{kind} fact \d+: (prediction \d+: the answer is worth|a learner can keep every label's worth)")
    doc = honest(rules)
    fact = root_fact(doc, "le")
    fact[2] = str(Fraction(fact[2]) - step) if rules.randomized else fact[2] - step
    doc["results"][0]["claim"]["upper"][1] = fact[2]
    refused(doc, rf"^{kind} fact \d+( instance \d+)?: (instance \d+: an outcome of predicting \d+ is worth|label \d+ is "
                 "worth)")


def test_a_cover_missing_an_instance_is_refused():
    doc = honest(Rules(labels=3, noise=1))
    root_fact(doc, "le")[3].pop()
    refused(doc, r"^value-full fact \d+: expected a prediction for each of the 2 instances")
    doc = honest(Rules(labels=3, randomized=True))
    root_fact(doc, "le")[3].pop()
    refused(doc, r"^value-randomized fact \d+: expected a distribution for each of the 2 instances")


def test_a_missing_prediction_is_refused():
    doc = honest(Rules(labels=3, feedback="bandit"))
    root_fact(doc, "ge")[3][1].pop()
    refused(doc, r"^value-bandit fact \d+: expected an answer to each of the 3 predictions, got 2")


def _child_of_root(doc: dict) -> int:
    """The index of a ``"le"`` fact the root's ``"le"`` fact needs (the first one written)."""
    return next(k for k, f in enumerate(facts(doc)) if f[1] == "le" and f is not root_fact(doc, "le"))


def test_a_child_fact_on_the_wrong_state_is_refused():
    doc = honest(Rules(labels=3, noise=1))
    child = facts(doc)[_child_of_root(doc)]
    child[0] = child[0][::-1] if child[0][::-1] != child[0] else ["0", format(int(child[0][0], 16) ^ 1, "x")]
    refused(doc, r"^value-full fact \d+: no earlier 'le' fact on the state after an outcome")


def test_an_outcome_missing_its_fact_is_refused():
    doc = honest(Rules(labels=3, feedback="bandit", noise=1))
    k = _child_of_root(doc)
    facts(doc)[k] = [facts(doc)[k][0], "ge", 0, None]  # the child's bound gone, the numbering kept
    refused(doc, r"^value-bandit fact \d+: no earlier 'le' fact on the state after an outcome")


@pytest.mark.parametrize(("rules", "leaf", "message"), [
    (Rules(noise=1), "binomial", "2\\^\\d+ is not more than the binomial weights"),
    (Rules(labels=3, feedback="bandit", noise=1), "potential", "the potential of the state is"),
])
def test_a_bound_leaf_too_small_is_refused(rules, leaf, message):
    doc = honest(rules, classes.thresholds(7).matrix)
    leaves = [k for k, f in enumerate(facts(doc)) if f[3] == leaf and f[2] > 0]
    assert leaves
    for k in leaves[:5]:
        lie = clone(doc)
        facts(lie)[k][2] -= 1
        refused(lie, rf"^value-{rules.feedback} fact {k}: {message}")


def test_the_binomial_weights_bound_is_refused_under_bandit_feedback_over_three_labels():
    """All maps from two instances to three labels: bandit value 4, while 2^4 > 9 rows would allow 3."""
    table = np.array([[a, b] for a in range(3) for b in range(3)])
    doc = honest(Rules(labels=3, feedback="bandit"), table)
    fact = root_fact(doc, "le")
    fact[2], fact[3] = 3, "binomial"
    doc["results"][0]["claim"]["upper"][1] = 3
    refused(doc, r"^value-bandit fact \d+: the binomial-weights bound holds with full information or two labels")


@pytest.mark.parametrize(("field", "value", "match"), [
    ("noise", 2, r"^value-full fact 0: expected a state: 3 sets of rows"),
    ("labels", 2, r"^value-full rules: the class gives 3 labels, more than the 2 of the rules"),
    ("labels", 4, r"^value-full fact \d+: expected an answer to each of the 4 predictions"),
    ("feedback", "bandit", r"^value-full rules: expected \{'labels': k, 'feedback': 'full'"),
    ("randomized", True, r"^value-full rules: expected"),
])
def test_a_wrong_rules_field_is_refused(field, value, match):
    doc = honest(Rules(labels=3, noise=1))
    doc["results"][0]["rules"][field] = value
    refused(doc, match)


def test_a_class_table_changed_in_one_entry_is_refused():
    doc = honest(Rules(labels=3, noise=1))
    cls = doc["class"]
    assert cls["labels"] == 3 and cls["rows"] == ["00", "11", "22", "01"]
    cls["rows"][3] = "02"
    refused(clone(doc), r"^class: its sha256 does not match its rows and domain")
    cls["sha256"] = class_hash(cls["rows"], cls["domain"], 3)  # another class, named as such: its facts fail
    refused(doc, r"^value-full fact \d+:")


def test_a_class_of_more_labels_is_read_by_the_value_kinds_alone():
    doc = honest(Rules(labels=3))
    doc["results"].append({"result": "ldim", "facts": [], "claim": {}})
    refused(doc, r"^result 1: a 'ldim' result reads a class of two labels, not 3")
    doc = honest(Rules(labels=3))
    doc["class"]["labels"] = 2
    refused(doc, r"^class labels: expected the number of labels, an integer 3\.\.")
    doc = honest(Rules(labels=3))
    doc["class"]["rows"][0] = "0A"
    refused(doc, r"^class row 0: expected 2 labels of 1 lower-case base-36 digits each")


# ------------------------------------------------------------------------------ the format stays what it was
def test_a_table_of_two_labels_is_written_as_the_class_it_is():
    M = classes.thresholds(4).matrix
    assert table_section(M) == class_section(HypothesisClass.from_matrix(M)) == CertificateWriter(M).cls
    assert "labels" not in table_section(M) and CertificateWriter(TABLE).H is None
    assert class_hash(["00"], [0, 1], 3) != class_hash(["00"], [0, 1])


def test_the_checker_run_alone_verifies_a_written_certificate(tmp_path):
    for name, rules in (("full.json", Rules(labels=3, noise=1)), ("bandit.json.gz", Rules(labels=3, feedback="bandit")),
                        ("randomized.json", Rules(labels=3, randomized=True)),
                        ("randomized-bandit.json", RB_RULES)):
        path = tmp_path / name
        game_certificate(TABLE, rules).write(path)
        if name.endswith(".gz"):
            assert json.loads(gzip.decompress(path.read_bytes()))["class"]["labels"] == 3
        alone = subprocess.run([sys.executable, "-I", "-S", str(CHECKER), str(path)], capture_output=True, text=True,
                               timeout=60)
        assert alone.returncode == 0, alone.stderr
        value = game_value(TABLE, rules).value
        assert alone.stdout.startswith(f"verified: value(H; 3 labels, ") and f") = {value}, where H is" in alone.stdout
    doc = json.loads((tmp_path / "full.json").read_text())
    root_fact(doc, "le")[2] -= 1
    doc["results"][0]["claim"]["upper"][1] -= 1
    (tmp_path / "lie.json").write_text(json.dumps(doc))
    alone = subprocess.run([sys.executable, "-I", "-S", str(CHECKER), str(tmp_path / "lie.json")], capture_output=True,
                           text=True, timeout=60)
    assert alone.returncode == 1 and alone.stderr.startswith("verify: REJECTED: value-full fact ")


# ------------------------------------------------------------------------------ the command line
def test_ldim_certifies_the_value_under_other_rules_and_verify_states_it(tmp_path, capsys):
    path = tmp_path / "t.json"
    assert main(["ldim", "thresholds:7", "--what", "ldim", "--noise", "1", "--certificate", str(path)]) == 0
    out = capsys.readouterr().out
    assert ("a certificate of Ldim = 3, value (2 labels, full information, noise budget 1, adaptive, "
            "deterministic) = 5") in out
    assert "not in it" not in out
    assert [s["result"] for s in json.loads(path.read_text())["results"]] == ["ldim", "value-full"]
    assert main(["verify", str(path), "thresholds:7"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].startswith("verified: value(H; 2 labels, full information, noise 1, deterministic learners) = 5, "
                               "where H is thresholds(7) (8 hypotheses on 7 instances, sha256 ")


def test_ldim_under_the_textbooks_rules_writes_the_certificate_it_wrote_before(tmp_path, capsys):
    """The value under the textbook's rules is the Ldim: no section is added, the document is unchanged."""
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    assert main(["ldim", "intervals:5", "--what", "ldim", "--certificate", str(a)]) == 0
    assert main(["ldim", "intervals:5", "--what", "ldim,value", "--certificate", str(b)]) == 0
    capsys.readouterr()
    assert a.read_bytes() == b.read_bytes()
    assert [s["result"] for s in json.loads(a.read_text())["results"]] == ["ldim"]


def test_ldim_says_what_it_cannot_certify(tmp_path, capsys):
    path = tmp_path / "o.json"
    assert main(["ldim", "thresholds:3", "--what", "ldim", "--randomized", "--oblivious", "--certificate",
                 str(path)]) == 0
    out = capsys.readouterr().out
    assert "oblivious, randomized is not in it" in out
    assert [s["result"] for s in json.loads(path.read_text())["results"]] == ["ldim"]


def test_a_bound_of_three_hundred_digits_is_checked_at_once():
    """A randomized bound may be any exact number: past the potential the binomial check never computes 2^q."""
    doc = honest(Rules(labels=3, randomized=True))
    facts(doc).append([facts(doc)[-1][0], "le", "1" + "0" * 330 + "/7", "binomial"])
    start = time.perf_counter()
    assert tuple(check(doc)["value-randomized"]) == (Fraction(5, 6),) * 2
    assert time.perf_counter() - start < 5


def test_ldim_certifies_a_class_of_more_labels(tmp_path, capsys):
    """On a class of three labels the Ldim is the value of the full-information game, certified as such, beside
    the value under the rules given (each kind once in a document)."""
    path = tmp_path / "a.json"
    assert main(["ldim", "all_functions:2,3", "--labels", "3", "--feedback", "bandit", "--certificate", str(path)]) == 0
    out = capsys.readouterr().out
    assert ("a certificate of value (3 labels, bandit feedback, realizable, adaptive, deterministic) = 4, value "
            "(3 labels, full information, realizable, adaptive, deterministic) = 2; check it with") in out
    document = json.loads(path.read_text())
    assert document["class"]["labels"] == 3 and document["class"]["rows"][:3] == ["00", "01", "02"]
    assert main(["verify", str(path), "all_functions:2,3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(", where")[0] for line in lines] == [
        "verified: value(H; 3 labels, bandit feedback, noise 0, deterministic learners) = 4",
        "verified: value(H; 3 labels, full information, noise 0, deterministic learners) = 2"]
    assert "where H is all_functions(2,3) (9 hypotheses on 2 instances, sha256 " in lines[0]
    assert main(["verify", str(path), "all_functions:2,2"]) == 1  # another class
    assert "REJECTED: class: the certificate speaks of another class" in capsys.readouterr().out


def test_ldim_certifies_a_randomized_learner_under_bandit_feedback_and_verify_states_it(tmp_path, capsys):
    path = tmp_path / "b.json"
    assert main(["ldim", "all_functions:2,3", "--labels", "3", "--feedback", "bandit", "--randomized",
                 "--certificate", str(path)]) == 0
    assert "not in it" not in capsys.readouterr().out
    assert RB in [s["result"] for s in json.loads(path.read_text())["results"]]
    assert main(["verify", str(path)]) == 0
    value = game_value(classes.all_functions(2, 3), RB_RULES).value
    assert (f"verified: value(H; 3 labels, bandit feedback, noise 0, randomized learners) = {value}, where H is "
            "the class of 9 hypotheses on 2 instances over 3 labels") in capsys.readouterr().out
