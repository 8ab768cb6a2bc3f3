"""Sweep configuration: validation errors name the key, the value and what was expected; cell ids."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.interfaces.sweep import Cell, SweepConfig, expand, load_config

GAME = {"kind": "game", "learners": ["Halving"], "adversaries": ["OppositeLabel"],
        "classes": ["thresholds"], "sizes": [4], "seeds": [0], "horizons": [10]}


def _error(grid: dict) -> str:
    with pytest.raises(InvalidArgumentError) as info:
        SweepConfig.from_dict({"grid": [grid]})
    return str(info.value)


@pytest.mark.parametrize("change, expected", [
    ({"learners": ["halvng"]}, ["grid[0].learners[0]", "'halvng'", "did you mean 'Halving'"]),
    ({"adversaries": ["Halving", "OpositeLabel"]}, ["grid[0].adversaries[0]", "'Halving'"]),
    ({"adversaries": ["OpositeLabel"]}, ["grid[0].adversaries[0]", "did you mean 'OppositeLabel'"]),
    ({"classes": ["treshold"]}, ["grid[0].classes[0]", "'treshold'", "did you mean 'thresholds'"]),
    ({"classes": ["k_sparse:{n}"]}, ["grid[0].classes[0]", "k_sparse", "argument"]),
    ({"sizes": [4, 0]}, ["grid[0].sizes[1]", "0", "an integer >= 1"]),
    ({"sizes": [4, "8"]}, ["grid[0].sizes[1]", "'8'", "an integer >= 1"]),
    ({"seeds": [-1]}, ["grid[0].seeds[0]", "-1", "an integer >= 0"]),
    ({"horizons": []}, ["grid[0].horizons", "[]", "a non-empty list"]),
    ({"realizable": "yes"}, ["grid[0].realizable", "'yes'", "true or false"]),
    ({"kind": "games"}, ["grid[0].kind", "'games'", "'game'"]),
    ({"seed": [1]}, ["grid[0].seed", "unknown key", "did you mean 'seeds'"]),
    ({"learners": ["..:x"]}, ["grid[0].learners[0]", "'..:x'", "not an import path", "module:Class"]),
    ({"adversaries": ["os:abort"]}, ["grid[0].adversaries[0]", "standard library", "module:Class"]),
    ({"sizes": []}, ["grid[0].sizes", "non-empty list"]),
])
def test_bad_values_are_refused_naming_the_key_value_and_expectation(change, expected):
    message = _error({**GAME, **change})
    for part in expected:
        assert part in message, (part, message)


def test_missing_keys_and_search_options_are_named():
    assert "grid[0].learners: missing" in _error({k: v for k, v in GAME.items() if k != "learners"})
    assert "grid[0].search" in _error({"kind": "search", "classes": ["thresholds"], "sizes": [3]})
    message = _error({"kind": "search", "search": "ldim", "learners": ["SOA"], "classes": ["thresholds"],
                      "sizes": [3]})
    assert "grid[0].learners" in message and "ldim" in message
    assert "grid[0].max_nodes" in _error({"kind": "search", "search": "ldim", "classes": ["thresholds"],
                                          "sizes": [3], "max_nodes": 0})
    with pytest.raises(InvalidArgumentError, match="grid: expected at least one"):
        SweepConfig.from_dict({"grid": []})
    with pytest.raises(InvalidArgumentError, match="grids: unknown key; did you mean 'grid'"):
        SweepConfig.from_dict({"grids": [GAME]})


def test_toml_files_are_read_and_bad_toml_is_reported(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text('[[grid]]\nlearners = ["SOA", "halving"]\nadversaries = ["opposite-label"]\n'
                    'classes = ["thresholds", "random:5,4,0.5,1"]\nsizes = [3, 7]\nseeds = [0, 1]\n')
    config = load_config(path)
    assert config.grids[0].learners == ("SOA", "Halving")
    # 2 learners x (2 sized thresholds + 1 fixed random class) x 2 seeds x 1 default horizon
    cells = expand(config)
    assert len(cells) == 2 * 3 * 2
    assert {c.cls for c in cells} == {"thresholds:3", "thresholds:7", "random:5,4,0.5,1"}
    assert {c.size for c in cells if c.cls.startswith("random")} == {None}
    path.write_text("[[grid]\nlearners = 1")
    with pytest.raises(InvalidArgumentError, match="not valid TOML"):
        load_config(path)
    with pytest.raises(InvalidArgumentError, match="does not exist"):
        load_config(tmp_path / "missing.toml")


def test_import_paths_are_players_with_their_constructor_arity():
    config = SweepConfig.from_dict({"grid": [{**GAME, "learners": ["mistakebound.learners.halving:Halving"]}]})
    assert config.grids[0].learners == ("mistakebound.learners.halving:Halving",)


_CELLS = st.builds(
    Cell, kind=st.sampled_from(["game", "search"]), cls=st.sampled_from(["thresholds:3", "thresholds:4"]),
    learner=st.sampled_from([None, "Halving", "SOA"]), adversary=st.sampled_from([None, "OppositeLabel"]),
    size=st.sampled_from([None, 3, 4]), seed=st.integers(0, 3), horizon=st.sampled_from([None, 1, 10]),
    realizable=st.booleans(), search=st.sampled_from([None, "ldim"]), max_nodes=st.sampled_from([None, 5]),
)


@settings(max_examples=200, deadline=None)
@given(_CELLS, _CELLS)
def test_cell_ids_are_equal_exactly_when_the_inputs_are(a, b):
    assert (a.id == b.id) == (a == b)
    assert a.id == Cell(**{("cls" if k == "class" else k): v for k, v in a.inputs.items()}).id


def test_expansion_order_and_ids_do_not_depend_on_other_grids():
    one = SweepConfig.from_dict({"grid": [GAME]})
    two = SweepConfig.from_dict({"grid": [{**GAME, "sizes": [8]}, GAME]})
    assert {c.id for c in expand(one)} <= {c.id for c in expand(two)}
    # a cell listed twice (here: the same grid twice) is run once
    assert len(expand(SweepConfig.from_dict({"grid": [GAME, GAME]}))) == len(expand(one))


# ------------------------------------------------------------------ players and settings through the one registry
@pytest.mark.parametrize("name, kind, canonical", [
    ("weighted_majority", "learner", "WeightedMajority"),
    ("SOA", "learner", "SOA"),
    ("binary-search-threshold", "adversary", "BinarySearchThreshold"),
    ("obliviouscoin(labels=coin)", "adversary", "ObliviousCoin(labels=coin)"),
    ("mistakebound.learners.halving:Halving", "learner", "mistakebound.learners.halving:Halving"),
])
def test_resolve_player_returns_the_canonical_name_text(name, kind, canonical):
    from mistakebound.game import registry
    from mistakebound.interfaces.sweep.config import resolve_player

    assert resolve_player(name, kind, "k") == canonical
    assert resolve_player(canonical, kind, "k") == canonical  # a fixed point
    assert registry.find(kind, canonical).target is registry.find(kind, name).target


@pytest.mark.parametrize("name, expected", [
    ("ObliviousCoin(labels=coin", "unbalanced parentheses"),  # would build an ObliviousCoin without its labels
    ("OppositeLabel(3)", "parameters of OppositeLabel are given by name, OppositeLabel(key=value, ...)"),
    ("ObliviousCoin(labels=coin, labels=x)", "'labels' is given twice"),
    ("Halving", "'Halving' is a learner, not an adversary"),
])
def test_bad_player_parameters_fail_the_config_naming_the_key(name, expected):
    message = _error({**GAME, "adversaries": ["OppositeLabel", name]})
    assert message.startswith("grid[0].adversaries[1]: ") and expected in message, message


@pytest.mark.parametrize("entry, sizes, specs", [
    ("experts", [2, 4], ["experts:2", "experts:4"]),
    ("halfspaces:d=3,R=1,gamma=0.5", [2, 4], ["halfspaces:d=3,R=1,gamma=0.5"]),
    ("k_disjunctions:{n},2", [5, 6], ["k_disjunctions:5,2", "k_disjunctions:6,2"]),
    ("halfspaces(d=2, R=1, gamma=0.5)", [3], ["halfspaces(d=2, R=1, gamma=0.5)"]),
])
def test_classes_may_be_spaces(entry, sizes, specs):
    from mistakebound.game.registry import load_setting

    config = SweepConfig.from_dict({"grid": [{**GAME, "classes": [entry], "sizes": sizes,
                                              "learners": ["Perceptron"], "adversaries": ["BasisVectorForcer"]}]})
    cells = config.cells()
    assert [c.cls for c in cells] == specs
    for c in cells:
        load_setting(c.cls)  # every cell's class is a setting the registry reads


@pytest.mark.parametrize("suffix", [".csv", ".npy", ".json"])
def test_classes_may_be_class_files_and_a_bad_file_fails_the_config(tmp_path, suffix):
    from mistakebound.game import classes
    from mistakebound.game.class_files import save_class

    path = save_class(classes.thresholds(4), tmp_path / f"t{suffix}", matrix_only=suffix == ".npy")
    config = SweepConfig.from_dict({"grid": [{**GAME, "classes": [str(path)], "sizes": [3, 5]}]})
    (cell,) = config.cells()
    assert cell.cls == str(path) and cell.size is None
    message = _error({**GAME, "classes": [str(tmp_path / f"missing{suffix}")]})
    assert message.startswith("grid[0].classes[0]: ") and "missing" in message
    (tmp_path / f"bad{suffix}").write_bytes(b"not a class")
    assert _error({**GAME, "classes": [str(tmp_path / f"bad{suffix}")]}).startswith("grid[0].classes[0]: ")


def test_a_bad_space_spec_is_refused_naming_the_key():
    message = _error({**GAME, "classes": ["halfspaces:d=0"]})
    assert message.startswith("grid[0].classes[0]: ") and "halfspaces" in message
    message = _error({**GAME, "classes": ["expert"], "sizes": [4]})
    assert "did you mean 'experts'" in message


def test_class_specs_lives_with_the_cells():
    from mistakebound.interfaces.sweep import cells

    assert cells.class_specs("thresholds", (4, 8)) == [("thresholds:4", 4), ("thresholds:8", 8)]
    assert cells.class_specs("mine.CSV", (4,)) == [("mine.CSV", None)]
    assert cells.class_specs("experts:4", (1, 2)) == [("experts:4", None)]


# ------------------------------------------------------------------ the trust boundary
def test_validation_imports_no_module_a_config_names(tmp_path, monkeypatch):
    import sys

    (tmp_path / "loud_module.py").write_text("raise SystemExit('imported!')\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delitem(sys.modules, "loud_module", raising=False)
    config = SweepConfig.from_dict({"grid": [{**GAME, "learners": ["loud_module:Learner(eta=2)"],
                                              "adversaries": ["loud_module:Adversary"]}]})
    assert config.grids[0].learners == ("loud_module:Learner(eta=2)",)
    assert config.grids[0].adversaries == ("loud_module:Adversary",)
    assert "loud_module" not in sys.modules


def test_allow_imports_false_keeps_only_registered_names(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text('[[grid]]\nlearners = ["halving", "mymodule:Mine"]\nadversaries = ["OppositeLabel"]\n'
                    'classes = ["thresholds"]\nsizes = [3]\n')
    assert load_config(path).grids[0].learners == ("Halving", "mymodule:Mine")
    with pytest.raises(InvalidArgumentError, match=r"grid\[0\]\.learners\[1\]: 'mymodule:Mine' is an import path, "
                                                   r"and imports are not allowed \(--no-import\)"):
        load_config(path, allow_imports=False)
    with pytest.raises(InvalidArgumentError, match="imports are not allowed"):
        SweepConfig.from_toml(path.read_text(), allow_imports=False)


def test_toml_nested_too_deeply_is_refused_in_one_line():
    with pytest.raises(InvalidArgumentError, match="nested too deeply") as info:
        SweepConfig.from_toml("[[grid]]\nlearners = " + "[" * 50_000)
    assert "\n" not in str(info.value)
    message = _error({**GAME, "learners": [[[[["halving"]]]] * 100]})  # nested, but parsed: refused briefly
    assert "grid[0].learners[0]" in message and len(message) < 300
