"""The one registry: players, classes and spaces by name (mistakebound.game.registry)."""

from __future__ import annotations

import importlib.metadata
import sys

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mistakebound.adversaries as adversary_zoo
import mistakebound.learners as learner_zoo
from mistakebound.foundations.errors import InvalidArgumentError, NotApplicableError
from mistakebound.game import classes, registry
from mistakebound.game.oco import OCOSetting
from mistakebound.game.play import play
from mistakebound.game.spaces import ExpertAdvice, KDisjunctionSpace, LinearSpace


def _zoo_players(module, kind):
    return {name for name in module.__all__
            if isinstance(getattr(module, name), type) and registry.player_kind(getattr(module, name)) == kind}


def test_every_player_of_the_zoos_is_registered_once():
    for module, kind in ((learner_zoo, "learner"), (adversary_zoo, "adversary")):
        listed = registry.names(kind)
        assert len(listed) == len(set(listed))
        assert set(listed) >= _zoo_players(module, kind)
        assert _zoo_players(module, kind), kind


def test_the_zoos_keep_no_registries_of_their_own():
    assert not hasattr(learner_zoo, "REALIZABLE_LEARNERS")
    assert not hasattr(adversary_zoo, "ADVERSARIES")


def test_base_classes_that_do_not_predict_are_not_players():
    assert registry.player_kind(learner_zoo.VersionSpaceLearner) is None
    assert "VersionSpaceLearner" not in registry.names("learner")


@given(st.sampled_from(["halving", "HALVING", "Halving", "hal-ving", "hal_ving", " halving "]))
def test_player_names_ignore_case_dashes_and_underscores(name):
    assert registry.find("learner", name).target is learner_zoo.Halving


@pytest.mark.parametrize("spec", ["thresholds:7", "Thresholds:7", "THRESHOLDS(7)", "thresholds(N=7)"])
def test_class_names_ignore_case_too(spec):
    assert registry.load_setting(spec) == classes.thresholds(7)


def test_unknown_names_are_refused_with_the_closest_ones():
    with pytest.raises(InvalidArgumentError, match=r"learner: unknown name 'halvng'; did you mean 'Halving'\?"):
        registry.find("learner", "halvng")
    with pytest.raises(InvalidArgumentError, match="did you mean 'thresholds'"):
        registry.load_setting("treshold:4")
    with pytest.raises(InvalidArgumentError, match="'OppositeLabel' is an adversary, not a learner"):
        registry.find("learner", "opposite-label")


@pytest.mark.parametrize("spec, expected", [
    ("halfspaces:d=16,R=1,gamma=0.25", LinearSpace(16, R=1.0, gamma=0.25)),
    ("halfspaces(d=16, R=1, gamma=0.25)", LinearSpace(16, R=1.0, gamma=0.25)),
    ("k_disjunctions:1000,3", KDisjunctionSpace(1000, 3)),
    ("K-Disjunctions(n=1000, k=3)", KDisjunctionSpace(1000, 3)),
    ("experts:4", ExpertAdvice(4)),
    ("oco:d=1,radius=1", OCOSetting(1, radius=1.0)),
])
def test_spaces_by_name_and_by_their_printed_form(spec, expected):
    S = registry.load_setting(spec)
    assert S == expected
    assert registry.load_setting(S.describe()) == S  # what the framework prints can be typed back


def test_bad_space_arguments_name_the_space_and_the_usage():
    with pytest.raises(InvalidArgumentError, match=r"halfspaces takes 'halfspaces:d\[,R\]\[,gamma\]'"):
        registry.load_setting("halfspaces:d=2,radius=3")
    with pytest.raises(InvalidArgumentError, match="d: expected"):
        registry.load_setting("experts:0")


def test_build_gives_the_class_and_the_horizon_by_name():
    H = classes.thresholds(7)
    assert registry.build("learner", "Halving", H).H is H
    learner = registry.build("learner", "ExpertsFromClass", H, rounds=30)
    assert (learner.H, learner.T) == (H, 30)
    with pytest.raises(InvalidArgumentError, match="^rounds: ExpertsFromClass is tuned for a horizon T"):
        registry.build("learner", "ExpertsFromClass", H)


def test_build_refuses_where_a_player_cannot_play():
    with pytest.raises(NotApplicableError, match="Halving plays on finite classes"):
        registry.build("learner", "Halving", ExpertAdvice(3))
    with pytest.raises(NotApplicableError, match="BasisVectorForcer does not apply to thresholds"):
        registry.build("adversary", "BasisVectorForcer", classes.thresholds(4))


def test_parameters_in_the_name_are_set_and_printed_back():
    H = classes.thresholds(7)
    coin = registry.build("adversary", "ObliviousCoin(labels=coin)", H)
    assert coin.labels == "coin"
    assert registry.spec_of(coin) == "ObliviousCoin(labels=coin)"
    assert registry.spec_of(registry.build("adversary", registry.spec_of(coin), H)) == "ObliviousCoin(labels=coin)"
    with pytest.raises(InvalidArgumentError, match="labels"):
        registry.build("adversary", "ObliviousCoin(labels=sometimes)", H)
    with pytest.raises(InvalidArgumentError, match="given by name"):
        registry.build("adversary", "ObliviousCoin(coin)", H)


@pytest.fixture
def user_module(tmp_path, monkeypatch):
    """A module of the user's in the current directory, not on sys.path."""
    (tmp_path / "my_players.py").write_text(
        "from mistakebound.learners import Halving\n"
        "class Lazy(Halving):\n"
        "    '''Halving that never learns.'''\n"
        "    def learn_one(self, x, y):\n"
        "        pass\n"
        "def make(H):\n"
        "    return Lazy(H)\n"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    monkeypatch.delitem(sys.modules, "my_players", raising=False)
    return tmp_path


def test_module_class_imports_from_the_current_directory(user_module):
    H = classes.thresholds(7)
    lazy = registry.build("learner", "my_players:Lazy", H)
    assert type(lazy).__name__ == "Lazy"
    assert registry.spec_of(lazy) == "my_players:Lazy"
    with pytest.raises(InvalidArgumentError, match="'my_players:make' is a function object, not a learner class"):
        registry.build("learner", "my_players:make", H)  # a factory is never called: classes only
    with pytest.raises(InvalidArgumentError, match="is a learner, not an adversary"):
        registry.find("adversary", "my_players:Lazy")
    with pytest.raises(InvalidArgumentError, match="cannot import 'my_players:Nope'"):
        registry.find("learner", "my_players:Nope")


class _EntryPoint:
    def __init__(self, name, obj):
        self.name, self.obj = name, obj

    def load(self):
        if isinstance(self.obj, Exception):
            raise self.obj
        return self.obj


@attrs.define
class PluginLearner(learner_zoo.Halving):
    """A learner another package registers."""


def test_plugins_from_the_entry_point_group_are_found_and_a_broken_one_breaks_only_itself(monkeypatch):
    def entry_points(group=None):
        assert group == registry.ENTRY_POINT_GROUP
        return [_EntryPoint("PluginLearner", PluginLearner), _EntryPoint("Broken", ImportError("no module x"))]

    monkeypatch.setattr(importlib.metadata, "entry_points", entry_points)
    registry._plugin_entries.cache_clear()
    try:
        entry = registry.find("learner", "plugin-learner")
        assert entry.origin == "plugin" and entry.target is PluginLearner
        H = classes.thresholds(3)
        assert play(registry.build("learner", entry, H), registry.build("adversary", "OppositeLabel", H),
                    H, rounds=5, seed=0).mistakes <= 2
        assert "Halving" in registry.names("learner")
        with pytest.raises(InvalidArgumentError, match="Broken"):
            registry.find("learner", "Broken")
    finally:
        registry._plugin_entries.cache_clear()


class Needs:
    """A learner with a knob the registry cannot guess."""

    def __init__(self, H, knob):
        self.H, self.knob = H, knob

    def predict_one(self, x):
        return 1

    def learn_one(self, x, y):
        pass


def test_a_player_that_cannot_be_built_by_default_says_what_it_needs():
    H = classes.thresholds(3)
    with pytest.raises(NotApplicableError, match="its constructor needs 'knob'"):
        registry.build("learner", Needs, H)
    assert registry.build("learner", "tests.test_registry:Needs(knob=2)", H).knob == 2


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(sorted(classes.ZOO)), st.integers(1, 4))
def test_zoo_specs_and_describe_round_trip(family, n):
    args = {"random": "6,4,0.5,1", "k_sparse": f"{n + 1},{min(n, 2)}", "all_functions": f"{n},3",
            "one_vs_rest": f"{n},4", "monotone_functions": f"{n},3"}.get(family, str(n))
    H = registry.load_setting(f"{family}:{args}")
    assert registry.load_setting(H.describe()) == H


class TunedForT:
    """A third-party learner tuned for a horizon, without for_setting: built as (H, T) by name."""

    def __init__(self, H, T):
        self.H, self.T = H, T

    def predict_one(self, x):
        return 1

    def learn_one(self, x, y):
        pass


def test_the_default_construction_passes_the_class_and_the_horizon_by_name():
    H = classes.thresholds(3)
    built = registry.build("learner", "tests.test_registry:TunedForT", H, rounds=12)
    assert (built.H, built.T) == (H, 12)
    with pytest.raises(InvalidArgumentError, match="^rounds: tests.test_registry:TunedForT is tuned for a horizon T"):
        registry.build("learner", "tests.test_registry:TunedForT", H)
    with pytest.raises(NotApplicableError, match="plays on finite classes"):
        registry.build("learner", "tests.test_registry:TunedForT", ExpertAdvice(2), rounds=3)


class PlainWithSetting:
    """A plain (non-attrs) learner with for_setting: named parameters are applied by rebuilding it."""

    def __init__(self, H, tie=1):
        self.H, self.tie = H, tie

    @classmethod
    def for_setting(cls, setting, *, rounds=None):
        return cls(setting)

    def predict_one(self, x):
        return self.tie

    def learn_one(self, x, y):
        pass


def test_named_parameters_of_a_plain_learner_with_for_setting_are_applied():
    # issue 16: before, only attrs players took parameters by name after for_setting
    H = classes.thresholds(3)
    built = registry.build("learner", "tests.test_registry:PlainWithSetting(tie=0)", H)
    assert (built.H, built.tie) == (H, 0)
    with pytest.raises(InvalidArgumentError, match="PlainWithSetting takes no parameter 'ties'; did you mean 'tie'"):
        registry.build("learner", "tests.test_registry:PlainWithSetting(ties=0)", H)


# ------------------------------------------------------------- import paths, as text
@pytest.mark.parametrize("path, ok", [
    ("my_players:Lazy", True), ("pkg.sub.mod:Outer.Inner", True), (" mod : Cls ", True),
    ("..:x", False), (".mod:X", False), ("mod.:X", False), ("mod:", False), (":X", False), ("mod:X.", False),
    ("mod:class", False), ("class:X", False), ("my mod:X", False), ("mod:X:Y", False), ("m\u00e9:X", True),
    ("os:abort", False), ("os.path:join", False), ("this:s", False), ("builtins:input", False),
    ("__main__:X", False), ("antigravity:X", False),
])
def test_import_paths_are_checked_as_text(path, ok):
    if ok:
        assert registry.check_import_path(path, "learner") == ":".join(p.strip() for p in path.split(":"))
        entry, params = registry.resolve("learner", path + "(a=1)", imports="check")  # nothing imported
        assert (entry.name, entry.target, entry.origin, params) == (registry.check_import_path(path, "learner"),
                                                                    None, "import", {"a": 1})
    else:
        with pytest.raises(InvalidArgumentError, match="learner: "):
            registry.check_import_path(path, "learner")
        with pytest.raises(InvalidArgumentError, match="learner: "):
            registry.resolve("learner", path + "(a=1)", imports="check")
    with pytest.raises(InvalidArgumentError, match="imports are not allowed"):
        registry.resolve("learner", path + "(a=1)", imports="refuse")


def test_imports_modes_keep_registered_names_and_are_checked():
    for imports in registry.IMPORTS:
        assert registry.resolve("adversary", "oblivious-coin(labels=coin)", imports=imports)[0].name == "ObliviousCoin"
    with pytest.raises(InvalidArgumentError, match="imports: expected one of 'import', 'check', 'refuse', got 'no'"):
        registry.find("learner", "halving", imports="no")


def test_a_player_s_boolean_parameter_takes_the_spellings_of_the_zoo(tmp_path, monkeypatch):
    """Booleans are written one way for players too: 1/0, true/false, yes/no."""
    (tmp_path / "flag_players.py").write_text(
        "from mistakebound.learners import Halving\n"
        "class Flagged(Halving):\n"
        "    '''Halving with a flag.'''\n"
        "    def __init__(self, H, strict=False):\n"
        "        super().__init__(H)\n"
        "        self.strict = strict\n"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.delitem(sys.modules, "flag_players", raising=False)
    H = classes.thresholds(7)
    for word, value in (("1", True), ("yes", True), ("true", True), ("0", False), ("no", False), ("false", False)):
        learner = registry.build("learner", f"flag_players:Flagged(strict={word})", H)
        assert learner.strict is value
    with pytest.raises(InvalidArgumentError, match=r"strict: expected a boolean, true/false, yes/no or 1/0"):
        registry.build("learner", "flag_players:Flagged(strict=2)", H)


# ------------------------------------------------------------------ issue 27: parameters checked where the name is read
@pytest.mark.parametrize("kind, spec, expected", [
    ("learner", "Halving(foo=1)", "Halving takes no parameter 'foo'"),
    ("adversary", "ObliviousCoin(lables=coin)", "did you mean 'labels'?"),
    ("adversary", "ObliviousCoin(labels=bogus)", "'labels' must be in (None, 'target', 'coin')"),
])
def test_resolve_refuses_a_parameter_the_player_does_not_take_or_a_value_its_field_refuses(kind, spec, expected):
    with pytest.raises(InvalidArgumentError) as info:
        registry.resolve(kind, spec)
    assert expected in str(info.value), info.value


def test_every_registered_players_defaults_pass_its_own_parameter_check():
    """No false refusal: each attrs parameter with a plain default, given that default by name, is accepted."""
    import attrs

    checked = 0
    for kind in ("learner", "adversary"):
        for entry in registry.entries(kind):
            if not attrs.has(entry.target):
                continue
            for a in attrs.fields(entry.target):
                if a.init and a.default is not attrs.NOTHING and not isinstance(a.default, attrs.Factory) \
                        and a.alias not in ("H", "T"):
                    assert registry.check_parameters(entry, {a.alias: a.default}) == {a.alias: a.default}
                    checked += 1
    assert checked > 10
