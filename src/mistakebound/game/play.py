"""The referee: :func:`play` runs one game of the mistake-bound game.

Round ``t`` goes: the adversary presents ``x_t``; the learner predicts (a label, or
for a randomized learner a probability ``p_t`` of label 1, from which the engine draws
the label with the game's generator, unseen by the adversary); the adversary reveals
``y_t``; the learner learns it.  The engine enforces the rules: instances must be in
the class's domain, predictions must be labels or probabilities, labels must be 0 or 1
and, in a realizable game, consistent with some hypothesis still in the version space.
A broken rule or an exception from a player stops the game with a
:class:`~mistakebound.foundations.errors.GameError` naming the round and the player and carrying the
transcript of the rounds completed before it.

Examples
--------
>>> from mistakebound import classes
>>> from mistakebound.learners import Halving
>>> from mistakebound.adversaries import BinarySearchThreshold
>>> H = classes.thresholds(15)
>>> T = play(Halving(H), BinarySearchThreshold(), H, rounds=20, seed=0)
>>> T.mistakes, len(T)
(4, 4)
"""

from __future__ import annotations

import contextlib
import itertools
import math
import numbers
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
from attrs import define, field, frozen

from mistakebound.foundations.errors import (
    GameInterrupted,
    IllegalInstanceError,
    IllegalLabelError,
    IllegalPredictionError,
    InvalidArgumentError,
    MistakeboundError,
    NotApplicableError,
    PlayerError,
    UnrealizableLabelError,
)
from mistakebound.foundations.validation import brief, check_int
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.game.oco import OCOSetting, play_oco
from mistakebound.game.players import describe, is_randomized
from mistakebound.game.spaces import Referee, Space
from mistakebound.game.transcript import Round, RoundLog, Transcript
from mistakebound.game.version_space import VersionSpace

__all__ = ["GameInfo", "GameState", "Observer", "observing", "play"]


@define
class GameState:
    """What an adaptive adversary may look at during a game.

    Attributes
    ----------
    H : HypothesisClass or Space
        The class (or space) of the game.
    rounds : int
        The horizon: the game lasts at most this many rounds.
    realizable : bool
        Whether labels must stay consistent with some hypothesis of ``H``.
    rng : numpy.random.Generator
        The adversary's own generator (derived from the game's seed).
    versions : VersionSpace or None
        The hypotheses consistent with every round so far (finite classes; None on a
        space); ``version_mask`` and ``version_space`` give it as a bitset and as rows.
    history : list of Round
        Completed rounds (read them; do not modify).
    """

    H: HypothesisClass | Space
    rounds: int
    realizable: bool
    rng: np.random.Generator = field(repr=False)
    versions: VersionSpace | None = field(default=None, repr=False)
    history: list = field(factory=list, repr=False)

    @property
    def version_mask(self) -> int | None:
        """Bitset of the hypotheses consistent with every round so far (None on a space)."""
        return None if self.versions is None else self.versions.mask

    @property
    def t(self) -> int:
        """The number of the round being played (1-based)."""
        return len(self.history) + 1

    @property
    def version_space(self) -> np.ndarray:
        """Row indices of the hypotheses consistent with every round so far."""
        return self.versions.rows()

    def split(self, x: Any) -> tuple[int, int]:
        """How many hypotheses of the version space label ``x`` with 0 and with 1."""
        j = self.H.index_of(x)
        return self.versions.count(j, 0), self.versions.count(j, 1)

    def possible_labels(self, x: Any) -> tuple[int, ...]:
        """The labels of ``x`` that some hypothesis of the version space gives."""
        n0, n1 = self.split(x)
        return tuple(y for y, n in ((0, n0), (1, n1)) if n)

    def disagreements(self) -> list:
        """The instances, in domain order, on which the version space disagrees."""
        V = self.version_mask
        return [x for x, c in zip(self.H.domain, self.H.column_masks) if 0 != (V & c) != V]


@frozen
class GameInfo:
    """Who plays which game: what :class:`Observer` methods receive.

    Attributes
    ----------
    learner, adversary
        The players (observers must not call their methods: that would change the game).
    H : HypothesisClass or Space
    rounds : int
        The horizon.
    seed : int
    realizable : bool
    """

    learner: Any
    adversary: Any
    H: Any
    rounds: int
    seed: int
    realizable: bool


class Observer:
    """Something that watches games: every method is optional, and a no-op here.

    Pass observers to :func:`play` (``observers=[...]``) for one game, or install them
    for every game with :func:`observing`.  They see each round after it is complete,
    never before the players move, and must not touch the players.

    Examples
    --------
    >>> from mistakebound.game import classes
    >>> from mistakebound.learners import Halving
    >>> from mistakebound.adversaries import BinarySearchThreshold
    >>> class Mistakes(Observer):
    ...     def __init__(self):
    ...         self.seen = []
    ...     def on_round(self, game, r):
    ...         self.seen.append(r.mistake)
    >>> watch = Mistakes()
    >>> H = classes.thresholds(7)
    >>> _ = play(Halving(H), BinarySearchThreshold(), H, rounds=10, seed=0, observers=[watch])
    >>> watch.seen
    [True, True, True]
    """

    def on_start(self, game: GameInfo) -> None:
        """Before round 1 (after the adversary committed or started)."""

    def on_round(self, game: GameInfo, r: Round) -> None:
        """After each completed round."""

    def on_end(self, game: GameInfo, transcript: Transcript) -> None:
        """After the last round, with the transcript :func:`play` returns."""


#: Observers installed for every game by :func:`observing` (a tuple, replaced, never mutated).
_OBSERVERS: tuple = ()


@contextlib.contextmanager
def observing(*observers: Any) -> Iterator[None]:
    """Install ``observers`` for every game played inside the ``with`` block.

    This is how the pytest report (``pytest --mistakebound-report``) sees every game of a
    test session without changing :func:`play`.

    Examples
    --------
    >>> from mistakebound.game import classes
    >>> from mistakebound.learners import SOA
    >>> from mistakebound.adversaries import OppositeLabel
    >>> class Count(Observer):
    ...     games = 0
    ...     def on_end(self, game, transcript):
    ...         Count.games += 1
    >>> H = classes.thresholds(3)
    >>> with observing(Count()):
    ...     _ = play(SOA(H), OppositeLabel(), H, rounds=5, seed=0)
    >>> _ = play(SOA(H), OppositeLabel(), H, rounds=5, seed=0)
    >>> Count.games
    1
    """
    global _OBSERVERS
    added = _check_observers(observers)
    _OBSERVERS = (*_OBSERVERS, *added)
    try:
        yield
    finally:
        remaining = list(_OBSERVERS)
        for o in added:
            remaining.remove(o)
        _OBSERVERS = tuple(remaining)


def _check_observers(observers: Any) -> tuple:
    if isinstance(observers, (str, bytes)) or not isinstance(observers, (Sequence, tuple)):
        raise InvalidArgumentError(f"observers: expected a sequence of observers, got {brief(observers)}")
    for o in observers:
        if not any(callable(getattr(o, name, None)) for name in ("on_start", "on_round", "on_end")):
            raise InvalidArgumentError(
                f"observers: {brief(o)} has none of on_start, on_round, on_end; expected an Observer"
            )
    return tuple(observers)


def _hooks(observers: tuple) -> tuple[list, list, list]:
    """The observers' bound methods, by moment (the base class's no-ops left out)."""
    out: tuple[list, list, list] = ([], [], [])
    for o in observers:
        for hooks, name in zip(out, ("on_start", "on_round", "on_end")):
            method = getattr(o, name, None)
            if callable(method) and getattr(type(o), name, None) is not getattr(Observer, name):
                hooks.append(method)
    return out


def _check_seed(seed: Any) -> int:
    """``seed``, or a fresh one (recorded in the transcript) for None."""
    seed = check_int("seed", seed, 0, optional=True)
    return int(np.random.SeedSequence().entropy) if seed is None else seed


def _as_label(value: Any) -> int | None:
    """``value`` as 0 or 1, or None when it is not a label."""
    if isinstance(value, (bool, np.bool_)):
        return int(value)
    if isinstance(value, numbers.Real) and not (isinstance(value, float) and math.isnan(value)):
        if value == 0 or value == 1:
            return int(value)
    return None


def _as_probability(value: Any) -> float | None:
    if isinstance(value, (bool, np.bool_)):
        return float(value)
    if isinstance(value, numbers.Real):
        try:
            p = float(value)
        except (OverflowError, ValueError, TypeError):  # 10**400, or a Real whose float() fails
            return None
        if 0.0 <= p <= 1.0:  # False for NaN
            return p
    return None


def _check_players(learner: Any, adversary: Any) -> None:
    """Refuse, before round 1, players that lack the methods the game calls."""
    if not (callable(getattr(learner, "predict_one", None)) or is_randomized(learner)):
        raise InvalidArgumentError(
            f"learner: {type(learner).__name__} has neither predict_one nor predict_proba_one"
        )
    if not callable(getattr(learner, "learn_one", None)):
        raise InvalidArgumentError(f"learner: {type(learner).__name__} has no learn_one method")
    if getattr(adversary, "oblivious", False):
        needed = ("commit",)
    else:
        needed = ("next_instance", "label")
    missing = [m for m in needed if not callable(getattr(adversary, m, None))]
    if missing:
        raise InvalidArgumentError(
            f"adversary: {type(adversary).__name__} lacks {', '.join(missing)}; an adaptive adversary "
            "needs next_instance and label, an oblivious one (oblivious = True) needs commit"
        )


def play(
    learner: Any,
    adversary: Any,
    H: HypothesisClass | Space | None = None,
    *,
    rounds: int,
    seed: int | None = None,
    realizable: bool = True,
    observers: Sequence[Any] = (),
) -> Transcript:
    """Play one game and return its transcript.

    Parameters
    ----------
    learner
        An object with ``predict_one`` (or ``predict_proba_one``) and ``learn_one``.
    adversary
        An :class:`~mistakebound.game.players.Adversary` or
        :class:`~mistakebound.game.players.ObliviousAdversary`.
    H : HypothesisClass, Space or OCOSetting
        The class of the game (the domain, and the version space the engine tracks), or
        a space from :mod:`mistakebound.game.spaces` (halfspaces, k-disjunctions, expert
        advice), where realizability is certified by the adversary's
        ``certificate(state)``: the witness (comparator, target), given before round 1
        or revealed at the end, and checked against every round.  An
        :class:`~mistakebound.game.oco.OCOSetting` plays the online convex optimisation
        game instead (:func:`~mistakebound.game.oco.play_oco`, which returns an
        ``OCOTranscript``; observers are not told of it).
    rounds : int
        The horizon; the adversary may end the game earlier.
    seed : int, optional
        Seeds the engine's draws and the adversary's generator; ``None`` picks a fresh
        seed, recorded in the transcript.  Same seed, same transcript.
    realizable : bool
        If true, every label must be given by some hypothesis still consistent with the
        history; otherwise any label is legal and the transcript's ``regret`` measures
        the learner against the best hypothesis in hindsight.
    observers : sequence of Observer
        Told of the game as it goes (:class:`Observer`: ``on_start``, ``on_round`` after
        each completed round, ``on_end`` with the transcript), after the observers
        installed with :func:`observing` for every game.

    Returns
    -------
    Transcript

    Raises
    ------
    InvalidArgumentError
        For a bad ``H``, ``rounds`` or ``seed``.
    NotApplicableError
        If the adversary does not apply to ``H``.
    GameError
        When a player breaks a rule or raises (see :mod:`mistakebound.foundations.errors`).
    GameInterrupted
        On Ctrl-C (a ``KeyboardInterrupt``), carrying the transcript of the rounds
        completed before it.

    Notes
    -----
    Against an oblivious adversary the committed sequence is checked in bulk before
    round 1 (:meth:`~mistakebound.game.spaces.Referee.instances`,
    :meth:`~mistakebound.game.spaces.Referee.sure_labels`) and the rounds are logged as
    columns, built into :class:`~mistakebound.game.transcript.Round` objects when the
    transcript's ``rounds`` are first read; the moves, the errors (same round, player,
    message and transcript) and the transcripts are those of the round-by-round rules.
    """
    if isinstance(H, OCOSetting):
        return _play_convex(learner, adversary, H, rounds, seed, realizable, observers)
    if isinstance(H, HypothesisClass):
        referee: Referee = _TableReferee(H, bool(realizable))
    elif isinstance(H, Space):
        referee = H.referee(bool(realizable))
    else:
        raise InvalidArgumentError(
            f"H: expected the HypothesisClass, Space or OCOSetting of the game, got {type(H).__name__}"
        )
    rounds = check_int("rounds", rounds, 0)
    seed = _check_seed(seed)
    draw_seq, adversary_seq = np.random.SeedSequence(seed).spawn(2)
    draw_rng = np.random.default_rng(draw_seq)
    _check_players(learner, adversary)
    state = GameState(
        H=H, rounds=rounds, realizable=bool(realizable),
        rng=np.random.default_rng(adversary_seq), versions=getattr(referee, "vs", None),
    )
    randomized = is_randomized(learner)
    history = state.history
    certificate_of = getattr(adversary, "certificate", None)
    # Rounds played against an oblivious adversary's committed sequence are logged as
    # columns (instances from the referee, p, prediction, y) and become Round objects
    # when read: flush() moves them into ``history`` before anyone can look at it.
    log_ps: list = []
    log_predictions: list = []
    log_xs: Any = ()
    log_ys: Any = ()

    def flush() -> None:
        if log_predictions:
            history.extend(RoundLog(log_xs, log_ps, log_predictions, log_ys, len(history) + 1).rounds())
            log_ps.clear()
            log_predictions.clear()

    def transcript(upto: int | None = None) -> Transcript:
        flush()
        played = history if upto is None else history[:upto]
        return Transcript(
            rounds=tuple(played), learner=describe(learner), adversary=describe(adversary),
            seed=seed, class_name=H.describe(), realizable=bool(realizable),
            **referee.finish(played),
        )

    def fault(player: str, exc: Exception, t: int) -> MistakeboundError:
        """The error to raise for ``exc``, raised by ``player`` in round ``t``."""
        if isinstance(exc, MistakeboundError) and getattr(exc, "round", None) is not None:
            return exc
        return PlayerError(f"raised {exc!r}", round=t, player=player, transcript=transcript())

    def call(player: str, func, *args):
        try:
            return func(*args)
        except Exception as exc:
            error = fault(player, exc, state.t)
            if error is exc:
                raise
            raise error from exc

    info = GameInfo(learner=learner, adversary=adversary, H=H, rounds=rounds, seed=seed, realizable=bool(realizable))
    starts, on_rounds, ends = _hooks((*_OBSERVERS, *_check_observers(observers)))
    try:
        applies = getattr(adversary, "applies_to", None)
        if applies is not None and not call("adversary", lambda: bool(applies(H))):
            raise NotApplicableError(
                f"adversary: {describe(adversary)} does not apply to {H.describe()}"
            )
        committed = None
        if getattr(adversary, "oblivious", False):
            def commit() -> list:
                sequence = adversary.commit(H, rounds, state.rng, bool(realizable))
                if sequence is None or isinstance(sequence, (str, bytes)) or not hasattr(sequence, "__iter__"):
                    raise IllegalInstanceError(
                        f"commit returned {sequence!r}; expected a sequence of (instance, label) pairs",
                        round=1, player="adversary", transcript=transcript(),
                    )
                return list(itertools.islice(sequence, rounds))  # an endless generator is cut at the horizon

            committed = call("adversary", commit)
        elif callable(getattr(adversary, "start", None)):
            call("adversary", adversary.start, state)
        if referee.needs_certificate and callable(certificate_of):
            call("adversary", lambda: referee.commit(certificate_of(state)))

        for on_start in starts:
            on_start(info)
        predict = learner.predict_proba_one if randomized else learner.predict_one
        learn_one = learner.learn_one
        round_error, update = referee.round_error, referee.update
        if committed is not None:
            # The whole game is known: check the instances and labels in bulk.  Rounds
            # 1..n_checked have legal instances and 0/1 labels, and ``sure[i]`` marks the
            # labels legal whatever happens before them; the first round past them, if
            # played, goes through the round-by-round checks below, which raise the same
            # error in the same round as without this.
            xs, raw_ys = [], []
            for pair in committed:
                if not isinstance(pair, tuple) or len(pair) != 2:
                    break
                x, raw_y = pair
                xs.append(x)
                raw_ys.append(raw_y)
            try:
                log_xs, shown_xs = referee.instances(xs)
            except Exception:  # noqa: BLE001 - leave every round to the per-round check, which names it
                log_xs, shown_xs = [], []
            log_ys = []
            for raw_y in itertools.islice(raw_ys, len(shown_xs)):
                y = _LABELS.get(raw_y) if type(raw_y) is int else _as_label(raw_y)
                if y is None:
                    break
                log_ys.append(y)
            n_checked = len(log_ys)
            sure = referee.sure_labels(shown_xs[:n_checked], log_ys)
            if sure is None:
                sure = [False] * n_checked
            else:
                sure = sure.tolist() if isinstance(sure, np.ndarray) else [bool(v) for v in sure]
            updates = type(referee).update is not Referee.update
            draw = draw_rng.random
            for i, shown, y, sure_y in zip(range(n_checked), shown_xs, log_ys, sure):
                try:
                    raw = predict(shown)
                except Exception as exc:
                    error = fault("learner", exc, i + 1)
                    if error is exc:
                        raise
                    raise error from exc
                if randomized:
                    p = _as_probability(raw)
                    if p is None:
                        raise IllegalPredictionError(
                            f"predict_proba_one returned {raw!r}; expected a probability in [0, 1]",
                            round=i + 1, player="learner", transcript=transcript(),
                        )
                    prediction = int(draw() < p)
                else:
                    prediction = _LABELS.get(raw) if type(raw) is int else _as_label(raw)
                    if prediction is None:
                        raise IllegalPredictionError(
                            f"predict_one returned {raw!r}; expected a label 0 or 1",
                            round=i + 1, player="learner", transcript=transcript(),
                        )
                    p = _FLOATS[prediction]
                if not sure_y:
                    problem = round_error(i + 1, log_xs[i], y)
                    if problem is not None:
                        raise UnrealizableLabelError(problem, round=i + 1, player="adversary", transcript=transcript())
                try:
                    learn_one(shown, y)
                except Exception as exc:
                    error = fault("learner", exc, i + 1)
                    if error is exc:
                        raise
                    raise error from exc
                if updates:
                    update(log_xs[i], y)
                log_ps.append(p)
                log_predictions.append(prediction)
                if on_rounds:
                    done = Round(t=i + 1, x=log_xs[i], p=p, prediction=prediction, y=y)
                    for on_round in on_rounds:
                        on_round(info, done)

        for t in range(len(log_predictions) + 1, rounds + 1):
            if committed is not None:
                if t > len(committed):
                    break
                flush()  # a round past the checked ones: its error names the rounds before it
                pair = committed[t - 1]
                if not isinstance(pair, tuple) or len(pair) != 2:
                    raise IllegalInstanceError(
                        f"committed item {pair!r} is not an (instance, label) pair",
                        round=t, player="adversary", transcript=transcript(),
                    )
                x, y_committed = pair
            else:
                x = call("adversary", adversary.next_instance, state)
                if x is None:
                    break
            try:
                stored, shown = referee.instance(x)
            except (ValueError, TypeError) as exc:  # the referee's own refusals
                raise IllegalInstanceError(str(exc), round=t, player="adversary", transcript=transcript()) from None
            except Exception as exc:  # noqa: BLE001 - the instance itself failed (e.g. its __eq__ raised)
                raise IllegalInstanceError(
                    f"the instance {brief(x)} could not be looked up: {exc!r}",
                    round=t, player="adversary", transcript=transcript(),
                ) from exc
            if randomized:
                raw = call("learner", predict, shown)
                p = _as_probability(raw)
                if p is None:
                    raise IllegalPredictionError(
                        f"predict_proba_one returned {raw!r}; expected a probability in [0, 1]",
                        round=t, player="learner", transcript=transcript(),
                    )
                prediction = int(draw_rng.random() < p)
            else:
                raw = call("learner", predict, shown)
                label = _as_label(raw)
                if label is None:
                    raise IllegalPredictionError(
                        f"predict_one returned {raw!r}; expected a label 0 or 1",
                        round=t, player="learner", transcript=transcript(),
                    )
                p, prediction = float(label), label
            raw_y = y_committed if committed is not None else call("adversary", adversary.label, state, shown, p)
            y = _as_label(raw_y)
            if y is None:
                raise IllegalLabelError(
                    f"label {raw_y!r} for instance {stored!r}; expected 0 or 1",
                    round=t, player="adversary", transcript=transcript(),
                )
            problem = round_error(t, stored, y)
            if problem is not None:
                raise UnrealizableLabelError(problem, round=t, player="adversary", transcript=transcript())
            call("learner", learn_one, shown, y)
            update(stored, y)
            done = Round(t=t, x=stored, p=p, prediction=prediction, y=y)
            history.append(done)
            for on_round in on_rounds:
                on_round(info, done)

        if referee.needs_certificate and referee.certificate is None:
            flush()  # the adversary may read the history
            if callable(certificate_of):
                call("adversary", lambda: referee.commit(certificate_of(state)))
            if referee.certificate is None and realizable and history:
                raise UnrealizableLabelError(
                    f"a realizable game on {H.describe()} needs the adversary's certificate "
                    "(a method certificate(state) returning the witness), and none was given",
                    round=len(history), player="adversary", transcript=transcript(),
                )
            failed = referee.first_error(history)  # a certificate revealed at the end must fit every round
            if failed is not None:
                t, problem = failed
                raise UnrealizableLabelError(problem, round=t, player="adversary", transcript=transcript(t - 1))
        if not log_predictions:
            final = transcript()
        else:
            played = RoundLog(log_xs, log_ps, log_predictions, log_ys)  # every round of the game
            final = Transcript.from_log(
                played, learner=describe(learner), adversary=describe(adversary),
                seed=seed, class_name=H.describe(), realizable=bool(realizable),
                **referee.finish(played),
            )
        for on_end in ends:
            on_end(info, final)
        return final
    except GameInterrupted:
        raise
    except KeyboardInterrupt:
        raise GameInterrupted(transcript()) from None


def _play_convex(learner: Any, adversary: Any, setting: OCOSetting, rounds: Any, seed: Any, realizable: Any,
                 observers: Any) -> Any:
    """An online convex optimisation game: :func:`~mistakebound.game.oco.play_oco` on the setting."""
    if not realizable:
        raise InvalidArgumentError("realizable: an online convex optimisation game has no labels to realize; "
                                   "leave realizable=True")
    if _check_observers(observers):
        raise InvalidArgumentError("observers: an online convex optimisation game takes no observers")
    return play_oco(learner, adversary, d=setting.d, rounds=rounds, seed=seed, radius=setting.radius)


#: The labels of the common case (an ``int`` 0 or 1) and the probabilities they stand for.
_LABELS = {0: 0, 1: 1}
_FLOATS = (0.0, 1.0)


class _TableReferee(Referee):
    """The referee of a finite class: tracks the version space exactly."""

    def __init__(self, H: HypothesisClass, realizable: bool):
        super().__init__(realizable, H)
        self.vs = VersionSpace(H)
        self.n_updates = 0  # rounds applied to the version space
        self._index_of = H.index_of

    @property
    def mask(self) -> int:
        return self.vs.mask

    def instance(self, x: Any) -> tuple[Any, Any]:
        if x not in self.space:
            raise ValueError(f"instance {x!r} is not in the domain of {self.space.describe()}")
        return x, x

    def round_error(self, t: int, x: Any, y: int) -> str | None:
        if self.realizable and self.vs.count(self._index_of(x), y) == 0:
            return f"label {y} for instance {x!r} is given by no hypothesis consistent with the history"
        return None

    def update(self, x: Any, y: int) -> None:
        self.vs.restrict(self._index_of(x), y)
        self.n_updates += 1

    def finish(self, rounds) -> dict:
        H = self.space
        if not rounds:
            return {"version_space": tuple(range(H.n_hypotheses)), "best_hypothesis_mistakes": 0}
        if len(rounds) == self.n_updates and self.vs.size > 0:
            # the tracked version space is exactly the hypotheses with no mistake on these
            # rounds, and one of them makes the best hypothesis's count 0
            return {"version_space": tuple(self.vs.rows().tolist()), "best_hypothesis_mistakes": 0}
        # mistakes of hypothesis i = sum_j ones_j (1 - M[i, j]) + zeros_j M[i, j], where
        # ones_j / zeros_j count the rounds on instance j labelled 1 / 0; the version
        # space after these rounds is the set of hypotheses with no mistake
        counts = np.zeros((2, H.n_instances), dtype=np.int64)
        index_of = self._index_of
        for r in rounds:
            counts[r.y, index_of(r.x)] += 1
        zeros, ones = counts
        used = np.flatnonzero(zeros + ones)
        weights = (zeros - ones)[used].astype(np.float64)  # exact: integers far below 2**53
        mistakes = np.empty(H.n_hypotheses, dtype=np.int64)
        step = max(1, 2**22 // max(used.size, 1))  # bounded temporaries on huge classes
        for start in range(0, H.n_hypotheses, step):
            block = H.matrix[start : start + step][:, used].astype(np.float64)
            mistakes[start : start + step] = np.rint(block @ weights).astype(np.int64)
        mistakes += int(ones.sum())
        best = int(mistakes.min())
        survivors = np.flatnonzero(mistakes == 0)
        return {"version_space": tuple(survivors.tolist()), "best_hypothesis_mistakes": best}
