"""The optimal adversary of any rules: the instance and the outcome of most worth, by exact search.

:class:`GameMinimax` builds the exact search of the game's value
(:class:`~mistakebound.theory.game_values.GameSearch`) for the class and its rules and
plays by it: with full information it forces the value on every deterministic learner
(each instance it presents is worth the value whatever the learner predicts, and it
answers the outcome worth most); under bandit feedback the referee still takes a label,
and it labels by the row its plan against a learner it knows keeps (``learner``: a copy
runs beside the game; by default the optimal learner), which forces the value on that
learner (see :meth:`GameSearch.adversary
<mistakebound.theory.game_values.GameSearch.adversary>`): ``GameMinimax(feedback=bandit,
learner=NAME)`` on the command line, as ``MinimaxAdversary(learner=NAME)``.

Examples
--------
>>> from mistakebound import classes, play
>>> from mistakebound.learners import PluralityHalving
>>> H = classes.all_functions(2, 3)
>>> play(PluralityHalving(H), GameMinimax(), H, rounds=10, seed=0).mistakes >= 2
True
"""

from __future__ import annotations

from typing import Any

from attrs import define, field

from mistakebound.foundations.validation import check_choice, check_int
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.game.players import Adversary
from mistakebound.game.rules import FEEDBACKS, Rules
from mistakebound.verification.claims import Bound

__all__ = ["GameMinimax"]


@define
class GameMinimax(Adversary):
    """Plays the exact search's best instance and outcome under the rules ``feedback`` and ``noise``.

    Parameters
    ----------
    feedback : {"full", "bandit"}
    noise : int
        The best hypothesis's mistakes the game allows (0: realizable).
    learner : learner, optional
        Under bandit feedback, the deterministic learner it plans against (a copy runs
        beside the game); default the optimal learner.
    """

    feedback: str = field(default="full", validator=lambda self, a, v: check_choice("feedback", v, FEEDBACKS))
    noise: int = field(default=0, validator=lambda self, a, v: check_int("noise", v, 0))
    learner: Any = field(default=None, repr=lambda v: "None" if v is None else type(v).__name__)
    _player: Any = field(default=None, init=False, repr=False)
    _for: Any = field(default=None, init=False, repr=False)

    @classmethod
    def for_setting(cls, setting: Any, *, rounds: int | None = None, feedback: str | None = None,
                    noise: int | None = None, rules: Rules | None = None, learner: Any = None) -> GameMinimax:
        """A GameMinimax for a game under ``rules`` (or the feedback and noise given; default the textbook's),
        planning against ``learner`` (a registered name or ``module:Class``, built for the game) under bandit
        feedback."""
        from mistakebound.game import registry

        from mistakebound.learners._setting import not_applicable
        from mistakebound.learners.game_soa import own_rules

        if not isinstance(setting, HypothesisClass):
            raise not_applicable("GameMinimax", setting, "finite classes (it searches the game's value on the table)")
        feedback, noise = own_rules(feedback, noise, rules)
        if learner is not None:
            learner = registry.build("learner", learner, setting, rounds=rounds, rules=rules)
        return cls(feedback=feedback, noise=noise, learner=learner)

    def applies_to(self, H: Any, *, rules: Rules | None = None) -> bool:
        """Finite classes, under any rules where it picks the instances (it searches the game they make)."""
        return isinstance(H, HypothesisClass) and (rules is None or rules.order == "adaptive")

    def _rules(self, H: HypothesisClass) -> Rules:
        return Rules(labels=H.n_labels, feedback=self.feedback, noise=self.noise)

    def start(self, state: Any) -> None:
        from mistakebound.theory.game_values import GameSearch

        if self._for is not state.H:  # one search per class and rules, kept across games and players
            self._player = GameSearch.shared(state.H, self._rules(state.H)).adversary(self.learner)
            self._for = state.H
        self._player.start(state)

    def next_instance(self, state: Any) -> Any:
        return self._player.next_instance(state)

    def label(self, state: Any, x: Any, p: float) -> int:
        return self._player.label(state, x, p)

    def forces(self, setting: Any, *, learner: Any = None, rounds: int | None = None, realizable: bool = True,
               rules: Rules | None = None) -> Bound:
        """The game's value, on every deterministic learner with full information (on the optimal learner under
        bandit feedback: no claim on others), when the game is played under its rules and lasts long enough."""
        from mistakebound.game.players import is_randomized
        from mistakebound.theory.game_values import GameSearch

        if not isinstance(setting, HypothesisClass):
            return Bound.none("GameMinimax plays finite classes", measure="mistakes")
        own = self._rules(setting)
        played = rules if rules is not None else Rules(labels=setting.n_labels)
        if (played.labels, played.feedback, played.noise) != (own.labels, own.feedback, own.noise):
            return Bound.none(f"GameMinimax was built for {own.describe()}; the game has {played.describe()}",
                              measure="mistakes")
        if learner is not None and is_randomized(learner):
            return Bound.none("GameMinimax forces the value on deterministic learners", measure="mistakes")
        search = GameSearch.shared(setting, own)  # the search its games play by: its value is computed once
        value = search.value(search.root)
        if rounds is not None and rounds < value:
            return Bound.none(f"the game's value is {value} mistakes, more than the {rounds} rounds played",
                              measure="mistakes")
        assumptions = ("realizable",) if self.noise == 0 else ("noise budget",)
        if self.feedback != "bandit":
            return Bound(value, "mistakes", "the game's value, by exact search: the adversary's best instance and "
                                            "outcome", assumptions)
        # under bandit feedback its labels follow a plan against the learner it knows: the claim holds on a learner
        # that plays as that one, which a copy of the learner judged, played against a copy of this, shows
        if learner is None or self.learner is None:
            return Bound.none("under bandit feedback GameMinimax forces the value on the learner it plans against: "
                              "name it, GameMinimax(feedback=bandit, learner=NAME)", measure="mistakes")
        from mistakebound.game.play import play
        from mistakebound.game.players import snapshot_of

        replay = play(snapshot_of(learner), GameMinimax(feedback=self.feedback, noise=self.noise, learner=self.learner),
                      setting, rounds=rounds if rounds is not None else 10 * (value + 1) + setting.n_instances,
                      seed=0, rules=own)
        if replay.mistakes < value:
            return Bound.none(f"{type(learner).__name__} does not play as the learner GameMinimax plans against (a "
                              f"copy made {replay.mistakes} mistakes of the value {value})", measure="mistakes")
        return Bound(value, "mistakes", "the game's value, by exact search, forced under bandit feedback on the "
                                        "learner it plans against (replayed on a copy of the learner)", assumptions)
