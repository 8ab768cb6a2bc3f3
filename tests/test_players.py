"""The learner protocol's cloning (issue 16): any class whose hyperparameters are its ``__init__``
arguments clones, attrs or not; a hidden hyperparameter is a clear error; the checks use the same rule."""

from __future__ import annotations

import numpy as np
import pytest
from attrs import define, field

from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.game import classes
from mistakebound.game.oco import OCOLearner
from mistakebound.game.players import Learner, hyperparameters, rebuild, state_key_hint
from mistakebound.verification.checks import (
    CheckFailure,
    check_clone_is_independent,
    check_learner,
    parametrize_with_checks,
    yield_checks,
)
from tests.players import PlainVote


class HiddenRate(Learner):
    """Keeps its hyperparameter under another name: cannot be cloned."""

    def __init__(self, rate=0.5):
        self._rate = rate

    def predict_one(self, x):
        return 1

    def learn_one(self, x, y):
        pass


@define
class AttrsWithPrivateField(Learner):
    _rate: float = 0.5
    seen: list = field(init=False, factory=list)

    def predict_one(self, x):
        return 1

    def learn_one(self, x, y):
        self.seen.append(x)


def test_a_plain_learner_clones_fresh_with_the_same_hyperparameters():
    H = classes.thresholds(5)
    L = PlainVote(H, tie=0)
    L.learn_one(2, 1)
    C = L.clone()
    assert type(C) is PlainVote and C.H is H and C.tie == 0
    assert C.alive == H.full_mask != L.alive


def test_hyperparameters_read_the_init_signature_for_plain_and_attrs_classes():
    H = classes.thresholds(3)
    assert hyperparameters(PlainVote(H, tie=0)) == {"H": H, "tie": 0}
    trained = AttrsWithPrivateField(rate=0.25)
    trained.learn_one(1, 1)
    assert hyperparameters(trained) == {"rate": 0.25}
    again = trained.clone()
    assert again.seen == [] and again._rate == 0.25


def test_a_hidden_hyperparameter_is_a_framework_error_naming_it():
    with pytest.raises(InvalidArgumentError) as info:
        HiddenRate(0.1).clone()
    message = str(info.value)
    assert "HiddenRate: __init__ takes 'rate' but the object has no attribute 'rate'" in message
    assert "self.rate = rate" in message


def test_star_arguments_cannot_be_read_back():
    class Star(PlainVote):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)

    with pytest.raises(InvalidArgumentError, match=r"Star: __init__ takes \*args"):
        Star(classes.thresholds(2)).clone()


def test_rebuild_changes_named_hyperparameters_and_refuses_unknown_ones():
    H, G = classes.thresholds(3), classes.singletons(4)
    L = rebuild(PlainVote(H, tie=0), H=G)
    assert L.H is G and L.tie == 0 and L.alive == G.full_mask
    with pytest.raises(InvalidArgumentError, match="ties: PlainVote's __init__ takes no argument 'ties'"):
        rebuild(PlainVote(H), ties=1)


def test_a_plain_oco_learner_clones_too():
    class Stay(OCOLearner):
        def __init__(self, d):
            self.d = d
            self.w = np.zeros(d)

        def predict_point(self):
            return self.w

        def learn_loss(self, loss):
            self.w = self.w + 1

    s = Stay(3)
    s.learn_loss(None)
    assert s.clone().d == 3 and not s.clone().w.any()


# ------------------------------------------------------------------ the checks use the same rule
def test_the_clone_check_passes_a_plain_learner_and_explains_a_hidden_hyperparameter():
    check_clone_is_independent(PlainVote)  # failed with attrs' NotAnAttrsClassError before issue 16
    with pytest.raises(CheckFailure, match=r"HiddenRate.clone\(\) cannot rebuild the learner: .*'rate'"):
        check_clone_is_independent(HiddenRate)


def test_every_check_passes_a_plain_learner():
    names = []
    for check in yield_checks(PlainVote):
        check(PlainVote)
        names.append(check.__name__)
    assert "check_clone_is_independent" in names


@parametrize_with_checks([PlainVote, PlainVote(classes.thresholds(4))])
def test_parametrize_with_checks_on_a_plain_learner(learner, check):
    check(learner)


def test_a_plain_learner_instance_is_rebuilt_on_every_drawn_class():
    # check_learner rebuilds an instance whose __init__ takes H on each class (attrs.evolve before)
    summary = check_learner(PlainVote(classes.thresholds(3)), bound=lambda H: np.log2(H.n_hypotheses),
                            max_examples=10)
    assert summary.violations == 0 and summary.cases >= 10 and summary.refused == 0


# ------------------------------------------------------------------ what the worst-case search asks for
def test_the_state_key_hint_names_the_learned_attributes():
    assert state_key_hint(PlainVote(classes.thresholds(3))) == "def state_key(self): return (self.alive,)"
    trained = AttrsWithPrivateField()
    assert state_key_hint(trained) == "def state_key(self): return (tuple(self.seen),)"
    assert state_key_hint(HiddenRate()).startswith("def state_key(self): return (self._rate,)")


def test_a_player_is_described_on_one_line_whatever_its_type_is_named():
    """Issue 21: a user's player type (``module:Class``) may be named anything; its description is one line."""
    from mistakebound.game.players import describe

    Evil = type("Evil\nLearner = 99\x1b[2J", (), {})
    assert describe(Evil()) == "Evil\\nLearner = 99\\x1b[2J"

    @define
    class Named:
        label: str = field(default="plain")

    Named.__name__ = "Named\u2028"
    assert describe(Named(label="two\nlines")) == "Named\\u2028(label='two\\nlines')"
