"""``mistakebound dims``: every parameter of the profile door, one line each (issue 24).

The values printed are the door's (:func:`~mistakebound.theory.profile.class_profile`), and the door's are
the searches' own (compared here with the searches called directly); what the command adds is the format,
the witnesses and the exit code.
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from mistakebound import classes
from mistakebound.game.rules import Rules
from mistakebound.interfaces.cli import main
from mistakebound.interfaces.cli.dims import witness_json
from mistakebound.theory.game_values import game_value
from mistakebound.theory.littlestone import littlestone_dimension
from mistakebound.theory.profile import MORE, PARAMETERS, class_profile
from mistakebound.theory.one_inclusion import one_inclusion_degree
from mistakebound.theory.star_number import star_number
from mistakebound.theory.teaching import minimum_teaching_set_size, recursive_teaching_dimension, teaching_dimension
from mistakebound.theory.threshold_dimension import threshold_dimension
from mistakebound.theory.vc import vc_dimension
from tests.order_oracles import sequence_oracle


def _run(argv, capsys) -> tuple[int, str, str]:
    code = main(["dims", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("spec", ["thresholds:7", "power_set:3", "intervals:5", "singletons:4"])
def test_each_line_is_the_searches_own_value(spec, capsys):
    H = classes.from_spec(spec)
    code, out, _ = _run([spec], capsys)
    assert code == 0
    lines = dict(line.split(" = ") for line in out.splitlines()[3:])
    assert list(lines) == [p for p in PARAMETERS if p != "value"]  # cheapest first, every one but value
    assert int(lines["ldim"]) == littlestone_dimension(H) and int(lines["vc"]) == vc_dimension(H)
    for name, order in (("self_directed", "self-directed"), ("best_order", "best"), ("worst_order", "worst")):
        assert int(lines[name]) == game_value(H, Rules(order=order)).value
    assert int(lines["threshold"]) == threshold_dimension(H) and int(lines["star"]) == star_number(H)
    assert int(lines["td"]) == teaching_dimension(H) and int(lines["rtd"]) == recursive_teaching_dimension(H)
    assert int(lines["tsmin"]) == minimum_teaching_set_size(H) and int(lines["degree"]) == one_inclusion_degree(H)
    assert Fraction(lines["rldim"]) == class_profile(H, what="rldim").rldim.value


def test_what_chooses_the_parameters_and_the_rules_add_the_value(capsys):
    code, out, _ = _run(["thresholds:7", "--what", "worst_order,ldim"], capsys)
    assert code == 0 and out.splitlines()[3:] == ["ldim = 3", "worst_order = 3"]
    code, out, _ = _run(["thresholds:7", "--what", "ldim", "--noise", "1"], capsys)
    assert code == 0 and out.splitlines()[3:] == ["ldim = 3", "value = 5"]


def test_a_parameter_out_of_budget_prints_its_proven_interval_and_exit_3(capsys):
    code, out, _ = _run(["thresholds:7", "--what", "ldim,best_order,worst_order", "--max-nodes", "3"], capsys)
    assert code == 3
    lines = out.splitlines()[3:]
    for line, name in zip(lines, ("ldim", "best_order", "worst_order")):
        low, rest = line.split(f" <= {name} <= ")
        high = int(rest.split(" ")[0])
        truth = littlestone_dimension(classes.thresholds(7)) if name == "ldim" else \
            game_value(classes.thresholds(7), Rules(order=name.split("_")[0])).value
        assert int(low) <= truth <= high and "(partial: budget)" in rest


def test_a_parameter_not_defined_says_why_and_is_not_partial(capsys):
    code, out, _ = _run(["all_functions:2,3", "--what", "ldim,vc"], capsys)
    assert code == 0
    assert "vc: not defined (a class of 3 labels has no VC dimension" in out
    code, out, _ = _run(["thresholds:5", "--what", "ldim,best_order", "--noise", "1"], capsys)
    assert code == 0 and "best_order: not defined (rules: the best order is searched in realizable games" in out


def test_json_prints_one_object_per_parameter_with_its_witness(capsys):
    code, out, _ = _run(["thresholds:7", "--json", "--witness"], capsys)
    assert code == 0
    records = [json.loads(line) for line in out.splitlines()]
    assert records[0] == {"class": "thresholds(7)", "n_hypotheses": 8, "n_instances": 7}
    by_name = {r["parameter"]: r for r in records[1:]}
    assert list(by_name) == [p for p in PARAMETERS if p != "value"]
    assert by_name["ldim"]["witness"]["depth"] == 3  # the shattered tree, as tree_to_json writes it
    assert len(by_name["vc"]["witness"]) == 1
    H = classes.thresholds(7)
    order = by_name["worst_order"]["witness"]
    assert sorted(order) == sorted(H.domain)  # every instance once
    rows = [tuple(int(v) for v in row) for row in H.matrix]
    assert sequence_oracle(rows, [H.index_of(x) for x in order]) == by_name["worst_order"]["value"] == 3


def test_the_witness_of_an_order_is_an_order_that_reaches_the_value(capsys):
    """Each order printed is worth the value printed, by the brute force of the game on a fixed order."""
    H = classes.intervals(5)
    rows = [tuple(int(v) for v in row) for row in H.matrix]
    code, out, _ = _run(["intervals:5", "--what", "ldim,worst_order,best_order", "--witness"], capsys)
    assert code == 0
    lines = out.splitlines()
    for name in ("worst_order", "best_order"):
        i = next(j for j, line in enumerate(lines) if line.startswith(f"{name} = "))
        value, witness = int(lines[i].split(" = ")[1]), json.loads(lines[i + 1].split("witness: ")[1])
        assert sequence_oracle(rows, [H.index_of(x) for x in witness]) == value


def test_witness_json_turns_every_shape_into_json():
    assert witness_json((1, 2)) == [1, 2]
    assert witness_json(frozenset({3, 1})) == [1, 3]
    assert witness_json({(1, 2): Fraction(1, 2)}) == [[[1, 2], "1/2"]]
    assert witness_json({"a": (1,)}) == {"a": [1]}


def test_bad_what_is_refused_by_name(capsys):
    code, _, err = _run(["thresholds:7", "--what", "ldim,bogus"], capsys)
    assert code == 2 and "--what" in err and "bogus" in err


def test_the_door_holds_every_parameter_as_a_field():
    P = class_profile(classes.thresholds(7), what=PARAMETERS)
    for name in PARAMETERS:
        assert P.result(name) is not None, name
    assert {p.name for p in MORE} <= set(PARAMETERS)
    with pytest.raises(Exception, match="name: expected a parameter among"):
        P.result("bogus")


def test_certificate_writes_what_the_checker_proves_for_every_parameter(tmp_path, capsys):
    from mistakebound.certificates.verify import check_file

    path = tmp_path / "i5.json"
    code, out, _ = _run(["intervals:5", "--what", "ldim,threshold,star,td,rtd", "--certificate", str(path)], capsys)
    assert code == 0
    proven = check_file(path)
    H = classes.intervals(5)
    assert proven["threshold"] == (threshold_dimension(H),) * 2 and proven["star"] == (star_number(H),) * 2
    assert proven["td"] == (teaching_dimension(H),) * 2 and proven["rtd"] == (recursive_teaching_dimension(H),) * 2
    assert f"threshold = {threshold_dimension(H)}, star = {star_number(H)}" in out.splitlines()[-1]


def test_certificate_and_json_are_refused_together(tmp_path, capsys):
    code, _, err = _run(["thresholds:3", "--json", "--certificate", str(tmp_path / "c.json")], capsys)
    assert code == 2 and "--certificate" in err and not (tmp_path / "c.json").exists()
