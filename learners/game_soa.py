"""Learners for the game's other settings: the SOA of any rules, and Halving by plurality vote.

:class:`GameSOA` is the Standard Optimal Algorithm of a game's rules (labels, feedback,
noise budget): at each instance it predicts the label whose worst outcome leaves the
least value, read off the exact search of
:func:`~mistakebound.theory.game_values.game_value`.  With two labels, full information
and no noise this is the textbook's SOA (Littlestone 1988; Lemma 21.7); with ``k``
labels, the multiclass SOA (Daniely, Sabato, Ben-David and Shalev-Shwartz 2011); under
bandit feedback, the bandit SOA (Daniely and Helbertal 2013); with a noise budget, the
optimal learner of the r-realizable game.  It errs at most the game's value, which no
deterministic learner beats.

:class:`PluralityHalving` predicts the label most hypotheses of the version space give:
a mistake leaves at most half of it (the true label's voters are no more than the
plurality's, and the two are disjoint), so it errs at most ``log2 |H|`` times in a
realizable game with full information, whatever the number of labels.

Examples
--------
>>> from mistakebound import classes, play
>>> from mistakebound.game.rules import Rules
>>> from mistakebound.adversaries import GameMinimax
>>> H = classes.all_functions(2, 3)
>>> rules = Rules(labels=3, feedback="bandit")
>>> T = play(GameSOA(H, feedback="bandit"), GameMinimax(feedback="bandit"), H, rounds=20, rules=rules)
>>> T.mistakes, GameSOA(H, feedback="bandit").bound(H, rules=rules).value
(4, 4)
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
from attrs import define, field

from mistakebound.foundations.validation import check_choice, check_instance, check_int
from mistakebound.game.feedback import BanditFeedback
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.game.players import Learner
from mistakebound.game.rules import FEEDBACKS, Rules
from mistakebound.learners._setting import class_claim, not_applicable
from mistakebound.verification.bounds import log2_size
from mistakebound.verification.claims import Bound

__all__ = ["GameSOA", "PluralityHalving", "own_rules", "rules_claim"]


def rules_claim(learner: Any, setting: Any, own: Rules, game: Rules | None, *, realizable: bool, theorem: str,
                source: str, value: Any) -> Bound:
    """:func:`~mistakebound.learners._setting.class_claim` for a learner built for the rules ``own``: the claim holds
    in a game played under them (``game``; None: the textbook's), on the learner's class, within the budget."""
    played = game if game is not None else Rules(labels=getattr(setting, "n_labels", 2))
    if (played.labels, played.feedback, played.noise) != (own.labels, own.feedback, own.noise):
        return Bound.none(f"{theorem} is about the game with {own.describe()}; this one has {played.describe()}",
                          measure="mistakes")
    return class_claim(learner, setting, realizable=realizable, theorem=theorem, source=source, value=value)


def own_rules(feedback: str | None, noise: int | None, rules: Rules | None) -> tuple[str, int]:
    """The feedback and noise a player is built for: those given, else the game's ``rules``', else the textbook's."""
    textbook = rules if rules is not None else Rules()
    return (textbook.feedback if feedback is None else feedback, textbook.noise if noise is None else noise)


@define
class GameSOA(Learner):
    """The Standard Optimal Algorithm of a game's rules: the prediction of least worth to the adversary.

    Parameters
    ----------
    H : HypothesisClass
        The class, of any number of labels.
    feedback : {"full", "bandit"}
        What the game shows the learner.
    noise : int
        The best hypothesis's mistakes the game allows (0: realizable).

    Examples
    --------
    >>> from mistakebound import classes
    >>> H = classes.one_vs_rest(3, 4)
    >>> GameSOA(H).bound(H).value, GameSOA(H, feedback="bandit").bound(H, rules=Rules(labels=4, feedback="bandit")).value
    (1, 3)
    """

    H: HypothesisClass = field(validator=lambda self, a, v: check_instance("H", v, HypothesisClass, "a HypothesisClass"))
    feedback: str = field(default="full", validator=lambda self, a, v: check_choice("feedback", v, FEEDBACKS))
    noise: int = field(default=0, validator=lambda self, a, v: check_int("noise", v, 0))
    _search: Any = field(init=False, repr=False)
    _player: Any = field(init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        from mistakebound.theory.game_values import GameSearch

        self._search = GameSearch.shared(self.H, self.rules)  # one search per class and rules, across games
        self._player = self._search.learner()

    @property
    def rules(self) -> Rules:
        """The rules it is built for."""
        return Rules(labels=self.H.n_labels, feedback=self.feedback, noise=self.noise)

    @property
    def feedbacks(self) -> tuple[str, ...]:
        """The feedbacks it learns from: full information, and bandit feedback when built for it."""
        return ("full",) if self.feedback == "full" else ("full", "bandit")

    def predict_one(self, x: Any) -> int:
        return self._player.predict_one(x)

    def state_key(self) -> tuple[int, ...]:
        """Its whole state: the game's state it follows (each hypothesis's mistakes, as the search keeps them)."""
        return self._player.S

    def snapshot(self) -> GameSOA:
        """A copy in the current state, sharing the class and the search (its memo is not copied)."""
        other = copy.copy(self)
        other._player = copy.copy(self._player)
        return other

    def learn_one(self, x: Any, y: Any) -> None:
        if self.feedback == "full" and isinstance(y, BanditFeedback):
            raise not_applicable("GameSOA", self.H, "the game it was built for (feedback='full'); build it with "
                                 "feedback='bandit'")
        self._player.learn_one(x, y)

    @classmethod
    def for_setting(cls, setting: Any, *, rounds: int | None = None, feedback: str | None = None,
                    noise: int | None = None, rules: Rules | None = None) -> GameSOA:
        """A fresh GameSOA for a game on the finite class ``setting``, under ``rules`` (or the feedback and noise
        given; default full information, no noise)."""
        if not isinstance(setting, HypothesisClass):
            raise not_applicable("GameSOA", setting, "finite classes (it searches the game's value on the table)")
        feedback, noise = own_rules(feedback, noise, rules)
        return cls(setting, feedback=feedback, noise=noise)

    def bound(self, setting: Any, *, rounds: int | None = None, realizable: bool = True, transcript: Any = None,
              rules: Rules | None = None) -> Bound:
        """The game's value under its rules, proven by the exact search (the SOA's mistake bound); none in
        another game."""
        source = ("the game's value, by exact search (Littlestone 1988; multiclass: Daniely et al. 2011; bandit: "
                  "Daniely and Helbertal 2013)")
        return rules_claim(self, setting, self.rules, rules, realizable=realizable, theorem="the SOA's bound",
                           source=source, value=lambda H: self._search.value(self._search.root))


@define
class PluralityHalving(Learner):
    """Predicts the label most hypotheses still consistent give; on a tie the largest such label (1 for two labels).

    Parameters
    ----------
    H : HypothesisClass
        The class, of any number of labels.

    Examples
    --------
    >>> from mistakebound import classes, play
    >>> from mistakebound.adversaries import GameMinimax
    >>> H = classes.all_functions(3, 3)
    >>> T = play(PluralityHalving(H), GameMinimax(), H, rounds=20, seed=0)
    >>> T.mistakes <= PluralityHalving(H).bound(H).value
    True
    """

    H: HypothesisClass = field(validator=lambda self, a, v: check_instance("H", v, HypothesisClass, "a HypothesisClass"))
    _alive: np.ndarray = field(init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        self._alive = np.ones(self.H.n_hypotheses, dtype=bool)

    def predict_one(self, x: Any) -> int:
        column = self.H.column(x)[self._alive]
        counts = np.bincount(column, minlength=self.H.n_labels)
        return int(np.flatnonzero(counts == counts.max())[-1])

    def learn_one(self, x: Any, y: int) -> None:
        self._alive &= self.H.column(x) == y

    def state_key(self) -> bytes:
        """The learner's whole state: the survivors."""
        return np.packbits(self._alive).tobytes()

    @classmethod
    def for_setting(cls, setting: Any, *, rounds: int | None = None) -> PluralityHalving:
        if not isinstance(setting, HypothesisClass):
            raise not_applicable("PluralityHalving", setting, "finite classes")
        return cls(setting)

    def bound(self, setting: Any, *, rounds: int | None = None, realizable: bool = True, transcript: Any = None,
              rules: Rules | None = None) -> Bound:
        """``log2 |H|`` mistakes in a realizable game with full information on ``H`` (Theorem 21.3's argument:
        the true label's voters are at most the plurality's and disjoint from them, so a mistake halves the
        version space); none otherwise."""
        own = Rules(labels=self.H.n_labels)
        return rules_claim(self, setting, own, rules, realizable=realizable, theorem="Theorem 21.3",
                           source="Theorem 21.3 (textbook ch. 21) by plurality vote: M <= log2 |H|", value=log2_size)
