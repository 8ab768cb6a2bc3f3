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

The engine keeps its own state: the players see the history through a read-only
:class:`~mistakebound.game.transcript.History` and the version space through a
read-only view, a class's matrix cannot be made writable, a player's output whose
comparison raises is an illegal move, and anything a player raises (``SystemExit``
included; only Ctrl-C stops the game as such) is that player's error.  For long
horizons ``play(..., keep="totals", out=FILE)`` keeps only the totals, exact, in
memory and writes the rounds to ``FILE`` as JSON Lines as the game goes.

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
import json
import os
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, NoReturn

import numpy as np

from mistakebound.foundations.exact_sums import SHIFT, exact_column_sums
from mistakebound.foundations.errors import (
    GameError,
    GameInterrupted,
    IllegalInstanceError,
    IllegalLabelError,
    IllegalPredictionError,
    InvalidArgumentError,
    MistakeboundError,
    NotApplicableError,
    PeekError,
    PlayerError,
    UnrealizableLabelError,
)
from mistakebound.foundations.validation import brief, check_choice, check_int, keywords_of
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.game.oco import OCOSetting, play_oco
from mistakebound.game.feedback import BanditFeedback, LabelNotShown, feedbacks_of
from mistakebound.game.orders import is_told, order_refusal
from mistakebound.game.players import describe, follows_version_space, is_randomized
from mistakebound.game.rules import (
    Rules, as_probability, expected_prediction, is_fatal, require_rounds, require_rules,
)
from mistakebound.game.rules import label_words as _label_words
from mistakebound.game.setting import Referee, Setting
from mistakebound.game.spaces import Space
from mistakebound.game.transcript import History, Round, RoundLog, Transcript, round_record
from mistakebound.game import observers as game_observers
from mistakebound.game.observers import GameInfo, GameState, Observer, _check_observers, _hooks, observing

__all__ = ["GameInfo", "GameState", "Observer", "observing", "play", "learner_rules", "KEEP", "general_loop"]

#: What :func:`play` keeps of a game: every round, or only the totals (``keep=``).
KEEP = ("rounds", "totals")

#: A game that keeps only its totals folds its rounds into them (and writes them out) this many at a time.
_BLOCK = 4096


def _check_seed(seed: Any) -> int:
    """``seed``, or a fresh one (recorded in the transcript) for None."""
    seed = check_int("seed", seed, 0, optional=True)
    return int(np.random.SeedSequence().entropy) if seed is None else seed


def _move(convert: Any, value: Any) -> Any:
    """``convert(value)`` in a game, where a move whose own methods exhaust the stack is no move either."""
    try:
        return convert(value)
    except RecursionError:
        return None


def _safe_repr(value: Any) -> str:
    """``repr(value)``, or the type's name when its ``__repr__`` raises."""
    try:
        return repr(value)
    except BaseException as exc:  # noqa: BLE001 - a broken __repr__ must not hide the real error
        if is_fatal(exc):
            raise
        return f"<{type(value).__name__} object>"


def _describe(player: Any) -> str:
    """:func:`~mistakebound.game.players.describe`, or the type's name when a parameter's repr raises."""
    try:
        return describe(player)
    except BaseException as exc:  # noqa: BLE001
        if is_fatal(exc):
            raise
        return type(player).__name__


def _check_players(learner: Any, adversary: Any, order: str = "adaptive") -> None:
    """Refuse, before round 1, players that lack the methods the game calls (an adversary in a game whose
    instances come from elsewhere, :mod:`~mistakebound.game.orders`, only labels)."""
    if not (callable(getattr(learner, "predict_one", None)) or is_randomized(learner)):
        raise InvalidArgumentError(
            f"learner: {type(learner).__name__} has neither predict_one nor predict_proba_one"
        )
    if not callable(getattr(learner, "learn_one", None)):
        raise InvalidArgumentError(f"learner: {type(learner).__name__} has no learn_one method")
    if getattr(adversary, "oblivious", False):
        needed = ("commit",)
    elif order != "adaptive":
        needed = ("label",)
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
    keep: str = "rounds",
    out: Any = None,
    rules: Rules | None = None,
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
        The horizon, 0 to :data:`~mistakebound.game.rules.MAX_ROUNDS` (10**12, the range of
        ``--rounds``); the adversary may end the game earlier.
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
    keep : {"rounds", "totals"}
        ``"rounds"`` (the default) keeps every round in the transcript.  ``"totals"``
        keeps only the totals, for long horizons: memory does not grow with the rounds,
        the transcript's ``rounds`` is a
        :class:`~mistakebound.game.transcript.RoundsNotKept` (its length is the number
        of rounds), and its mistakes, expected mistakes (summed exactly), version space
        and, on finite classes and the spaces of :mod:`mistakebound.game.spaces`, the
        loss of the best hypothesis (hence the regret), the radius, margin, comparator
        and target are those of ``keep="rounds"``, equal.  Adaptive adversaries see only
        the last round in ``state.history``; against an adversary that reveals its
        certificate only at the end, the rounds are kept until then (every round must be
        checked against it).
    out : path or writable text file, optional
        Where to write the rounds as JSON Lines, one object per round
        (:func:`~mistakebound.game.transcript.round_record`, the format of
        ``mistakebound play --out``), in blocks as the game goes with
        ``keep="totals"``.  A path is written atomically when the game ends, also when
        it ends with a :class:`~mistakebound.foundations.errors.GameError` or Ctrl-C
        (the file holds the rounds of the exception's transcript); a file object is
        written to and left open.
    rules : Rules, optional
        The game's other settings (:class:`~mistakebound.game.rules.Rules`): its labels must
        be the class's (``H.labels``); ``noise=r`` lets the best hypothesis err ``r`` times (on a
        finite class; ``realizable=False`` still lifts every limit); ``feedback="bandit"``
        shows the learner only whether it erred (``learn_one`` gets a
        :class:`~mistakebound.game.feedback.BanditFeedback`, and a learner must list
        ``"bandit"`` in its ``feedbacks``); ``adaptive=False`` needs an oblivious adversary;
        ``randomized=False`` refuses a randomized learner.  Refused before round 1 when a
        player does not support them.  Default: the textbook's game on the class's labels,
        any learner.  The transcript keeps them (``T.rules``).

    Returns
    -------
    Transcript

    Raises
    ------
    InvalidArgumentError
        For a bad ``H``, ``rounds``, ``seed``, ``keep`` or ``out`` (also when ``out``
        cannot be written).
    NotApplicableError
        If the adversary does not apply to ``H``, or a player does not support ``rules``.
    GameError
        When a player breaks a rule or raises (see :mod:`mistakebound.foundations.errors`):
        an illegal move, a move whose comparison raises, or any exception, ``SystemExit``
        included, from a player's method.
    GameInterrupted
        On Ctrl-C (a ``KeyboardInterrupt``), carrying the transcript of the rounds
        completed before it.

    Notes
    -----
    Against an oblivious adversary the committed sequence is checked in bulk before
    round 1 (:meth:`~mistakebound.game.spaces.Referee.instances`,
    :meth:`~mistakebound.game.spaces.Referee.sure_labels`; in blocks of rounds, read from
    the sequence as the game goes, with ``keep="totals"``) and the rounds are logged as
    columns, built into :class:`~mistakebound.game.transcript.Round` objects when the
    transcript's ``rounds`` are first read; the moves, the errors (same round, player,
    message and transcript) and the transcripts are those of the round-by-round rules.
    In such a game on a finite class, a learner that declares its state is its version space
    (:func:`~mistakebound.game.players.follows_version_space`: Halving, Consistent and other
    learners with a ``version_space_policy``) is asked ``predict_one`` once per instance between
    two rounds that narrow the version space, and told ``learn_one`` only in those rounds: its
    predictions cannot change in between, by its declaration.  The referee still judges every
    label and records every round, and the transcript is the same
    (:func:`general_loop` plays the same game round by round, for comparisons).

    Examples
    --------
    >>> import io, json
    >>> from mistakebound import classes
    >>> from mistakebound.learners import Halving
    >>> from mistakebound.adversaries import OppositeLabel
    >>> H = classes.thresholds(7)
    >>> out = io.StringIO()
    >>> T = play(Halving(H), OppositeLabel(), H, rounds=10**4, seed=0, realizable=False, keep="totals", out=out)
    >>> len(T), T.mistakes, T.regret, T.rounds_kept
    (10000, 10000, 9999.0, False)
    >>> json.loads(out.getvalue().splitlines()[-1])["t"]
    10000
    """
    check_choice("keep", keep, KEEP)
    rounds = require_rounds(rounds)
    if isinstance(H, Setting) and not H.labelled:  # points and losses: online convex optimisation
        if keep != "rounds" or out is not None:
            raise InvalidArgumentError("keep: an online convex optimisation game keeps its rounds; "
                                       "leave keep='rounds' and out=None")
        if rules is not None:
            raise InvalidArgumentError("rules: an online convex optimisation game has no labels to set rules on; "
                                       "leave rules=None")
        return _play_convex(learner, adversary, H, rounds, seed, realizable, observers)
    if out is None or callable(getattr(out, "write", None)):
        return _play(learner, adversary, H, rounds, seed, realizable, observers, keep, out, rules)
    if not isinstance(out, (str, os.PathLike)) or not str(out).strip():
        raise InvalidArgumentError(f"out: expected a file name or a writable text file, got {brief(out)}")
    from mistakebound.foundations.files import write_atomically

    result: list = []
    stopped: list = []

    def write(tmp: str) -> None:
        with open(tmp, "w", encoding="utf-8") as fh:
            try:
                result.append(_play(learner, adversary, H, rounds, seed, realizable, observers, keep, fh, rules))
            except (GameError, GameInterrupted) as exc:  # the rounds of its transcript are in the file
                stopped.append(exc)
            fh.flush()
            os.fsync(fh.fileno())

    try:
        write_atomically(out, write)
    except OSError as exc:
        raise InvalidArgumentError(f"out: cannot write {str(out)!r} ({exc.strerror or exc})") from None
    if stopped:
        raise stopped[0]
    return result[0]


class _RoundWriter:
    """Writes rounds to a text file as JSON Lines (:func:`~mistakebound.game.transcript.round_record`)."""

    def __init__(self, stream: Any):
        self.stream = stream
        self.written = 0  # rounds written so far

    def columns(self, first_t: int, xs: Sequence, ps: Sequence, predictions: Sequence, ys: Sequence) -> None:
        dumps = json.dumps
        self._write([dumps(round_record(Round(t, x, p, prediction, y)))
                     for t, x, p, prediction, y in zip(itertools.count(first_t), xs, ps, predictions, ys)])

    def rounds(self, rounds: Sequence) -> None:
        dumps = json.dumps
        self._write([dumps(round_record(r)) for r in rounds])

    def _write(self, lines: list) -> None:
        if not lines:
            return
        try:
            self.stream.write("\n".join(lines) + "\n")
        except OSError as exc:
            raise InvalidArgumentError(f"out: cannot write the rounds ({exc.strerror or exc})") from None
        self.written += len(lines)


class _Totals:
    """What a game played with ``keep="totals"`` keeps: its totals, exact, folded in blocks of rounds.

    The mistakes and the expected mistakes (summed exactly) are the game's own; the
    fields the referee's ``finish`` computes from every round (a finite class's version
    space and best hypothesis, the radius, margin and comparator of halfspaces, the
    target's mistakes, the best expert's loss) are folded by the referee itself
    (:meth:`~mistakebound.game.setting.Referee.fold`), with equal results.
    """

    def __init__(self, referee: Referee, writer: _RoundWriter | None):
        self.referee, self.writer = referee, writer
        self.n = 0
        self.mistakes = 0
        self.whole = 0  # expected mistakes = whole + scaled / 2**SHIFT
        self.scaled = 0

    def add(self, first_t: int, xs: Sequence, ps: Sequence, predictions: Sequence, ys: Sequence, *,
            written: bool = False) -> None:
        """Fold rounds ``first_t, first_t + 1, ...`` (stored instances, p, predictions, labels) into the totals
        (and write them out, unless already ``written``)."""
        n = len(predictions)
        if not n:
            return
        if self.writer is not None and not written:
            self.writer.columns(first_t, xs, ps, predictions, ys)
        P = np.asarray(ps, dtype=np.float64)
        Y = np.asarray(ys, dtype=np.int64)
        self.mistakes += int(np.count_nonzero(np.asarray(predictions, dtype=np.int64) != Y))
        sure = (P == 0.0) | (P == 1.0)
        self.whole += int(np.count_nonzero(sure & (P != Y)))
        if not sure.all():
            zeros, ones = ~sure & (Y == 0), ~sure & (Y == 1)
            self.scaled += exact_column_sums(P[zeros][:, None])[0]
            self.scaled += (int(np.count_nonzero(ones)) << SHIFT) - exact_column_sums(P[ones][:, None])[0]
        self.referee.fold(xs, ys)
        self.n += n

    def add_rounds(self, rounds: Sequence) -> None:
        if rounds:
            if self.writer is not None:
                self.writer.rounds(rounds)  # the Round objects as they are, not rebuilt
            self.add(rounds[0].t, [r.x for r in rounds], [r.p for r in rounds], [r.prediction for r in rounds],
                     [r.y for r in rounds], written=True)

    def fields(self) -> dict:
        """The fields the referee's ``finish`` gives, from the totals."""
        return self.referee.folded(self.n)

    def expected(self) -> Fraction:
        return self.whole + Fraction(self.scaled, 1 << SHIFT)


def _takes_rules(adversary: Any) -> bool:
    """Whether the adversary's ``applies_to`` takes the game's ``rules`` (how it declares the rules it plays)."""
    accepted = keywords_of(type(adversary), "applies_to")
    return accepted is None or "rules" in accepted


def learner_rules(H: Setting, rules: Any, learner: Any) -> Rules:
    """The rules of a game on ``H`` with ``learner`` (``rules``, or the textbook's on ``H``'s labels), refused
    when ``H`` or the learner does not support them: the referee's check before round 1, and every search's that
    plays a learner by rules.

    Raises
    ------
    InvalidArgumentError
        Naming ``rules``: not a :class:`~mistakebound.game.rules.Rules`, or labels other than ``H``'s.
    NotApplicableError
        A noise budget on a space; bandit feedback for a learner that does not list it in its ``feedbacks``; a
        randomized learner under deterministic rules, or in a game of more than two labels; an order other than
        the default on a space, or for a learner that does not list it in its ``orders`` or lacks its method
        (a learner of the textbook's game plays the transductive and worst orders untold:
        :mod:`~mistakebound.game.orders`).

    Examples
    --------
    >>> from mistakebound import classes
    >>> from mistakebound.learners import Halving
    >>> H = classes.thresholds(3)
    >>> learner_rules(H, None, Halving(H)).describe()
    '2 labels, full information, realizable, adaptive, deterministic'
    >>> learner_rules(H, Rules(feedback="bandit"), Halving(H))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mistakebound.foundations.errors.NotApplicableError: learner: Halving does not declare bandit feedback ...
    """
    labels = len(H.labels)
    if rules is None:
        _refuse_order(learner, "adaptive")
        return Rules(labels=labels, randomized=is_randomized(learner))
    rules = require_rules(rules)
    if rules.labels != labels:
        raise InvalidArgumentError(f"rules: the game has {rules.labels} labels and H, {H.describe()}, has {labels}; "
                                   f"expected rules with labels={labels}")
    if rules.noise and not H.finite:
        raise NotApplicableError(f"rules: a noise budget is refereed on a finite class; {H.describe()} is a space "
                                 "(play it with realizable=False for any labels)")
    if rules.feedback == "bandit" and "bandit" not in feedbacks_of(learner):
        raise NotApplicableError(
            f"learner: {_describe(learner)} does not declare bandit feedback (its feedbacks are "
            f"{feedbacks_of(learner)}); a learner for bandit feedback lists it (feedbacks = ('full', 'bandit')) and "
            "reads learn_one's feedback.correct, not a label")
    if rules.order != "adaptive" and not H.finite:
        raise NotApplicableError(f"rules: order={rules.order!r} is played on a finite class (its instances are "
                                 f"ordered, chosen or announced); {H.describe()} is a space")
    _refuse_order(learner, rules.order)
    if is_randomized(learner) and not rules.randomized:
        raise NotApplicableError(f"learner: {_describe(learner)} randomizes, and the rules say the learner is "
                                 "deterministic; expected rules with randomized=True")
    if is_randomized(learner) and labels != 2:
        raise NotApplicableError(f"learner: {_describe(learner)} gives a probability of label 1, which plays two "
                                 f"labels; {H.describe()} has {labels}")
    return rules


def _refuse_order(learner: Any, order: str) -> None:
    """Refuse a learner that does not play the game's ``order`` (:func:`~mistakebound.game.orders.order_refusal`)."""
    why = order_refusal("learner", learner, order)
    if why is not None:
        raise NotApplicableError(f"learner: {_describe(learner)} {why}")


def _game_rules(H: Setting, rules: Any, learner: Any, adversary: Any) -> Rules:
    """The rules of a game on ``H`` (:func:`learner_rules`), refused before round 1 when ``H`` or a player does not
    support them."""
    rules = learner_rules(H, rules, learner)
    if rules.order != "adaptive":
        if getattr(adversary, "oblivious", False):
            raise NotApplicableError(f"adversary: {_describe(adversary)} commits its instances before the game, and "
                                     f"under order={rules.order!r} they come from the order; expected an adversary "
                                     "that labels as the game goes")
        why = order_refusal("adversary", adversary, rules.order)
        if why is not None:
            raise NotApplicableError(f"adversary: {_describe(adversary)} {why}")
    if not rules.adaptive and not getattr(adversary, "oblivious", False):
        raise NotApplicableError(f"adversary: {_describe(adversary)} adapts to the game, and the rules say the "
                                 "adversary is oblivious; expected an adversary with oblivious = True")
    return rules


def _play(learner: Any, adversary: Any, H: Any, rounds: Any, seed: Any, realizable: Any, observers: Any,
          keep: str, out: Any, rules: Any = None) -> Transcript:
    """:func:`play` on a finite class or a space, ``out`` None or a text file."""
    totals_only = keep == "totals"
    if not (isinstance(H, Setting) and H.labelled):
        raise InvalidArgumentError(
            f"H: expected the HypothesisClass, Space or OCOSetting of the game, got {type(H).__name__}"
        )
    kept_rules = rules  # what the transcript keeps: the rules given, or None for the textbook's
    rules = _game_rules(H, rules, learner, adversary)
    referee = H.referee(bool(realizable), totals=totals_only, **({"noise": rules.noise} if rules.noise else {}))
    bandit = rules.feedback == "bandit"
    # the labels come from the setting: an int already one of them is read without a call
    labels = {y: y for y in H.labels}
    label_set = tuple(H.labels)
    p_of = {y: float(y) for y in H.labels}  # a deterministic prediction as the probability it stands for
    read_label = H.read_label
    label_words = _label_words(H.labels)
    rounds = require_rounds(rounds)
    seed = _check_seed(seed)
    draw_seq, adversary_seq = np.random.SeedSequence(seed).spawn(2)
    draw_rng = np.random.default_rng(draw_seq)
    _check_players(learner, adversary, rules.order)
    history: list = []  # the engine's own record; the players read it through a History view
    view = History(history)
    state = GameState(
        H=H, rounds=rounds, realizable=bool(realizable),
        rng=np.random.default_rng(adversary_seq), versions=getattr(referee, "vs", None), history=view,
    )
    writer = None if out is None else _RoundWriter(out)
    tally = _Totals(referee, writer) if totals_only else None
    folding = False  # set before round 1: whether rounds are folded into the tally as the game goes
    randomized = is_randomized(learner)
    certificate_of = getattr(adversary, "certificate", None)
    # Rounds played against an oblivious adversary's committed sequence are logged as
    # columns (instances from the referee, p, prediction, y) and become Round objects
    # when read: flush() moves them into ``history`` (or, folding, into the totals)
    # before anyone can look at it.
    log_ps: list = []
    log_predictions: list = []
    log_xs: Any = ()
    log_ys: Any = ()
    log_first = 1  # the number of the round logged first

    def flush() -> None:
        if log_predictions:
            n = len(log_predictions)
            if folding:
                tally.add(log_first, log_xs[:n], log_ps, log_predictions, log_ys[:n])
                view._dropped += n
            else:
                history.extend(RoundLog(log_xs, log_ps, log_predictions, log_ys, log_first).rounds())
            log_ps.clear()
            log_predictions.clear()

    def fold() -> None:
        """Fold every round of ``history`` but the last into the totals (a game that keeps only totals)."""
        done = history[:-1]
        tally.add_rounds(done)
        view._dropped += len(done)
        del history[:-1]

    def transcript(upto: int | None = None) -> Transcript:
        flush()
        if tally is None:
            played = history if upto is None else history[:upto]
            T = Transcript(
                rounds=tuple(played), learner=_describe(learner), adversary=_describe(adversary),
                seed=seed, class_name=H.describe(), realizable=bool(realizable), rules=kept_rules,
                **referee.finish(played),
            )
            if writer is not None:
                writer.rounds(T.rounds[writer.written:])
            return T
        kept = history if upto is None else history[: max(0, upto - view._dropped)]
        tally.add_rounds(kept)
        view._dropped += len(kept)
        history.clear()
        return Transcript.from_totals(
            tally.n, mistakes=tally.mistakes, expected_mistakes=tally.expected(),
            learner=_describe(learner), adversary=_describe(adversary), seed=seed, class_name=H.describe(),
            realizable=bool(realizable), rules=kept_rules, **tally.fields(),
        )

    def fault(player: str, exc: BaseException, t: int) -> MistakeboundError:
        """The error to raise for ``exc``, raised by ``player`` in round ``t``."""
        if isinstance(exc, MistakeboundError) and getattr(exc, "round", None) is not None:
            return exc
        if isinstance(exc, LabelNotShown) and player == "learner":
            return PeekError(f"read {exc}", round=t, player=player, transcript=transcript())
        return PlayerError(f"raised {_safe_repr(exc)}", round=t, player=player, transcript=transcript())

    def reraise(player: str, exc: BaseException, t: int) -> NoReturn:
        """Raise what ``exc``, raised by ``player`` in round ``t``, is to the game (fatal ones as they are)."""
        if is_fatal(exc):
            raise exc
        error = fault(player, exc, t)
        if error is exc:
            raise exc
        raise error from exc

    def call(player: str, func, *args):
        try:
            return func(*args)
        except BaseException as exc:  # SystemExit from a player is its error, not an exit
            reraise(player, exc, state.t)

    info = GameInfo(learner=learner, adversary=adversary, H=H, rounds=rounds, seed=seed, realizable=bool(realizable),
                    rules=kept_rules)
    starts, on_rounds, ends = _hooks((*game_observers.installed(), *_check_observers(observers)))
    try:
        applies = getattr(adversary, "applies_to", None)
        takes_rules = callable(applies) and _takes_rules(adversary)
        if rules.noise or len(label_set) != 2 or rules.order != "adaptive":
            if not takes_rules:  # written for the textbook's game: it may read a version space this game has not
                raise NotApplicableError(
                    f"adversary: {_describe(adversary)} plays the textbook's game (two labels, no noise), picking "
                    f"each instance as it goes; an adversary for {rules.describe()} says so with "
                    "applies_to(H, *, rules)")
        if applies is not None and not call(
                "adversary", lambda: bool(applies(H, rules=rules) if takes_rules else applies(H))):
            raise NotApplicableError(
                f"adversary: {_describe(adversary)} does not apply to {H.describe()}"
            )
        oblivious = bool(getattr(adversary, "oblivious", False))
        committed: Any = None  # keep="rounds": the whole committed list; "totals": an iterator read in blocks
        if oblivious:
            def commit() -> Any:
                sequence = adversary.commit(H, rounds, state.rng, bool(realizable))
                if sequence is None or isinstance(sequence, (str, bytes)) or not hasattr(sequence, "__iter__"):
                    raise IllegalInstanceError(
                        f"commit returned {brief(sequence)}; expected a sequence of (instance, label) pairs",
                        round=1, player="adversary", transcript=transcript(),
                    )
                if totals_only:
                    return iter(sequence)
                return list(itertools.islice(sequence, rounds))  # an endless generator is cut at the horizon

            committed = call("adversary", commit)
        elif callable(getattr(adversary, "start", None)):
            call("adversary", adversary.start, state)
        if referee.needs_certificate and callable(certificate_of):
            call("adversary", lambda: referee.commit(certificate_of(state)))
        if tally is not None:
            # a certificate still to come must be checked against every round, and the
            # adversary may read them all to give it: then every round is kept until the end
            folding = not (referee.needs_certificate and referee.certificate is None and callable(certificate_of))
            if folding:
                view._window = 1

        instances, left = _ordered(rules.order, H, rounds, learner, adversary, state, call, transcript)
        for on_start in starts:
            on_start(info)
        predict = learner.predict_proba_one if randomized else learner.predict_one
        learn_one = learner.learn_one
        round_error, update = referee.round_error, referee.update

        def illegal_prediction(raw: Any, t: int) -> NoReturn:
            """Refuse the learner's prediction ``raw`` in round ``t``."""
            method = "predict_proba_one" if randomized else "predict_one"
            raise IllegalPredictionError(
                f"{method} returned {brief(raw)}; expected {expected_prediction(randomized, H.labels)}",
                round=t, player="learner", transcript=transcript(),
            )

        lean = None
        if oblivious and not bandit and not on_rounds and _LEAN[0] and label_set == (0, 1) \
                and callable(getattr(referee, "narrows", None)) and _trusted(learner, H):
            lean = _lean_loop(learner, referee, randomized, draw_rng, labels, read_label, p_of, log_ps,
                              log_predictions, illegal_prediction, reraise, transcript)
        played = 0  # rounds completed so far
        rest: Any = iter(())  # committed pairs left to the round-by-round checks
        if oblivious:
            block_size = _BLOCK if folding else rounds
            updates = type(referee).update is not Referee.update
            while played < rounds:
                # The next block of the committed game: check its instances and labels in
                # bulk.  Its rounds 1..n_checked have legal instances and 0/1 labels, and
                # ``sure[i]`` marks the labels legal whatever happens before them; the first
                # round past them, if played, goes through the round-by-round checks below,
                # which raise the same error in the same round as without this.
                if totals_only:
                    want = min(block_size, rounds - played)
                    block = call("adversary", lambda: list(itertools.islice(committed, want)))
                else:
                    block, committed = committed, []
                if not block:
                    break
                xs, raw_ys = _pairs(block)
                try:
                    log_xs, shown_xs = referee.instances(xs)
                except BaseException as exc:  # noqa: BLE001 - leave every round to the per-round check, which names it
                    if is_fatal(exc):
                        raise
                    log_xs, shown_xs = [], []
                log_ys = _labels(raw_ys[:len(shown_xs)], labels, read_label)
                n_checked = len(log_ys)
                sure = referee.sure_labels(shown_xs[:n_checked], log_ys)
                if sure is None:
                    sure = [False] * n_checked
                else:
                    sure = sure.tolist() if isinstance(sure, np.ndarray) else [bool(v) for v in sure]
                draw = draw_rng.random
                log_first = first = played + 1
                if lean is not None:
                    lean(first, shown_xs[:n_checked], log_xs, log_ys)
                else:
                    for i, shown, y, sure_y in zip(range(first, first + n_checked), shown_xs, log_ys, sure):
                        try:
                            raw = predict(shown)
                        except BaseException as exc:
                            reraise("learner", exc, i)
                        if randomized:
                            p = _move(as_probability, raw)
                            if p is None:
                                illegal_prediction(raw, i)
                            prediction = int(draw() < p)
                        else:
                            prediction = labels.get(raw) if type(raw) is int else _move(read_label, raw)
                            if prediction is None:
                                illegal_prediction(raw, i)
                            p = p_of[prediction]
                        if not sure_y:
                            problem = round_error(i, log_xs[i - first], y)
                            if problem is not None:
                                raise UnrealizableLabelError(problem, round=i, player="adversary", transcript=transcript())
                        try:
                            learn_one(shown, BanditFeedback(i, prediction, prediction == y, label_set) if bandit else y)
                        except BaseException as exc:
                            reraise("learner", exc, i)
                        if updates:
                            update(log_xs[i - first], y)
                        log_ps.append(p)
                        log_predictions.append(prediction)
                        if on_rounds:
                            done = Round(t=i, x=log_xs[i - first], p=p, prediction=prediction, y=y)
                            for on_round in on_rounds:
                                on_round(info, done)
                played += n_checked
                if n_checked < len(block):
                    rest = iter(block[n_checked:]) if not totals_only else itertools.chain(block[n_checked:], committed)
                    break
                if folding:
                    flush()

        for t in range(played + 1, rounds + 1):
            if oblivious:
                flush()  # a round past the checked ones: its error names the rounds before it
                pair = call("adversary", next, rest, _END)
                if pair is _END:
                    break
                if not isinstance(pair, tuple) or len(pair) != 2:
                    raise IllegalInstanceError(
                        f"committed item {brief(pair)} is not an (instance, label) pair",
                        round=t, player="adversary", transcript=transcript(),
                    )
                x, y_committed = pair
            elif instances is not None:  # the order fixed before round 1
                if t > len(instances):
                    break
                x = instances[t - 1]
            elif left is not None:  # self-directed: the learner picks among the instances not shown yet
                if not left:
                    break
                x = call("learner", learner.choose_instance, tuple(left))
                j = _index_in(H, x)
                position = next((i for i, z in enumerate(left) if j is not None and H.index_of(z) == j), None)
                if position is None:
                    raise IllegalInstanceError(
                        f"choose_instance returned {brief(x)}; expected one of the {len(left)} instances not shown yet",
                        round=t, player="learner", transcript=transcript())
                x = left.pop(position)
            else:
                x = call("adversary", adversary.next_instance, state)
                if x is None:
                    break
            try:
                stored, shown = referee.instance(x)
            except (ValueError, TypeError) as exc:  # the referee's own refusals
                raise IllegalInstanceError(str(exc), round=t, player="adversary", transcript=transcript()) from None
            except BaseException as exc:  # noqa: BLE001 - the instance itself failed (e.g. its __eq__ raised)
                if is_fatal(exc):
                    raise
                raise IllegalInstanceError(
                    f"the instance {brief(x)} could not be looked up: {_safe_repr(exc)}",
                    round=t, player="adversary", transcript=transcript(),
                ) from exc
            if randomized:
                raw = call("learner", predict, shown)
                p = _move(as_probability, raw)
                if p is None:
                    illegal_prediction(raw, t)
                prediction = int(draw_rng.random() < p)
            else:
                raw = call("learner", predict, shown)
                label = labels.get(raw) if type(raw) is int else _move(read_label, raw)
                if label is None:
                    illegal_prediction(raw, t)
                p, prediction = p_of[label], label
            raw_y = y_committed if oblivious else call("adversary", adversary.label, state, shown, p)
            y = labels.get(raw_y) if type(raw_y) is int else _move(read_label, raw_y)
            if y is None:
                raise IllegalLabelError(
                    f"label {brief(raw_y)} for instance {brief(stored)}; expected {label_words}",
                    round=t, player="adversary", transcript=transcript(),
                )
            problem = round_error(t, stored, y)
            if problem is not None:
                raise UnrealizableLabelError(problem, round=t, player="adversary", transcript=transcript())
            call("learner", learn_one, shown, BanditFeedback(t, prediction, prediction == y, label_set) if bandit else y)
            update(stored, y)
            done = Round(t=t, x=stored, p=p, prediction=prediction, y=y)
            history.append(done)
            if folding and len(history) > _BLOCK:
                fold()
            for on_round in on_rounds:
                on_round(info, done)

        if referee.needs_certificate and referee.certificate is None:
            flush()  # the adversary may read the history
            if callable(certificate_of):
                call("adversary", lambda: referee.commit(certificate_of(state)))
            if referee.certificate is None and realizable and len(view):
                raise UnrealizableLabelError(
                    f"a realizable game on {H.describe()} needs the adversary's certificate "
                    "(a method certificate(state) returning the witness), and none was given",
                    round=len(view), player="adversary", transcript=transcript(),
                )
            if not folding:  # a certificate revealed at the end must fit every round
                failed = referee.first_error(history)
                if failed is not None:
                    t, problem = failed
                    raise UnrealizableLabelError(problem, round=t, player="adversary", transcript=transcript(t - 1))
        if tally is not None or not log_predictions:
            final = transcript()
        else:
            logged = RoundLog(log_xs, log_ps, log_predictions, log_ys)  # every round of the game
            final = Transcript.from_log(
                logged, learner=_describe(learner), adversary=_describe(adversary),
                seed=seed, class_name=H.describe(), realizable=bool(realizable), rules=kept_rules,
                **referee.finish(logged),
            )
            if writer is not None:
                writer.rounds(final.rounds)
        for on_end in ends:
            on_end(info, final)
        return final
    except GameInterrupted:
        raise
    except KeyboardInterrupt:
        raise GameInterrupted(transcript()) from None


def _pairs(block: list) -> tuple[list, list]:
    """The instances and labels of the longest prefix of an oblivious adversary's ``block`` made of
    ``(instance, label)`` tuples (whatever follows is left to the round-by-round checks)."""
    if set(map(type, block)) <= {tuple} and set(map(len, block)) <= {2}:  # every item a pair: at C speed
        return [pair[0] for pair in block], [pair[1] for pair in block]
    xs, raw_ys = [], []
    for pair in block:
        if not isinstance(pair, tuple) or len(pair) != 2:
            break
        x, raw_y = pair
        xs.append(x)
        raw_ys.append(raw_y)
    return xs, raw_ys


def _labels(raw_ys: list, labels: dict, read_label: Any) -> list:
    """The labels ``raw_ys`` as the game reads them, up to the first that is not one."""
    if set(map(type, raw_ys)) <= {int}:  # plain ints: one lookup each, at C speed
        ys = list(map(labels.get, raw_ys))
        return ys[: ys.index(None)] if None in ys else ys
    ys = []
    for raw_y in raw_ys:
        y = labels.get(raw_y) if type(raw_y) is int else _move(read_label, raw_y)
        if y is None:
            break
        ys.append(y)
    return ys


#: Whether :func:`play` may take its lean loop (:func:`_lean_loop`); :func:`general_loop` turns it off, so that
#: tests and benchmarks compare the two.
_LEAN = [True]


@contextlib.contextmanager
def general_loop():
    """Within it, :func:`play` plays every round by the general loop (no lean loop): for comparisons.

    Yields
    ------
    None
        While the context is open, the lean loop is off.

    Examples
    --------
    >>> from mistakebound import classes
    >>> from mistakebound.learners import Halving
    >>> from mistakebound.adversaries import ObliviousCoin
    >>> H = classes.random(40, 6, 0.5, 0)
    >>> lean = play(Halving(H), ObliviousCoin(labels="target"), H, rounds=200, seed=3)
    >>> with general_loop():
    ...     general = play(Halving(H), ObliviousCoin(labels="target"), H, rounds=200, seed=3)
    >>> lean == general
    True
    """
    saved = _LEAN[0]
    _LEAN[0] = False
    try:
        yield
    finally:
        _LEAN[0] = saved


def _trusted(learner: Any, H: Any) -> bool:
    """:func:`~mistakebound.game.players.follows_version_space`; a learner whose ``state_key`` raises is not
    (the general loop then meets its methods as they are)."""
    try:
        return follows_version_space(learner, H)
    except BaseException as exc:  # noqa: BLE001
        if is_fatal(exc):
            raise
        return False


def _lean_loop(learner: Any, referee: Any, randomized: bool, draw_rng: Any, labels: dict, read_label: Any,
               p_of: dict, log_ps: list, log_predictions: list, illegal_prediction: Any, reraise: Any,
               transcript: Any) -> Any:
    """The referee's loop over checked rounds of a committed game, for a learner whose state is its version space.

    The learner declares it (:func:`~mistakebound.game.players.follows_version_space`), so its
    prediction on an instance is the same in every round until a round narrows the version space
    (:meth:`~mistakebound.game.version_space.TableReferee.narrows`), and a round that does not
    changes nothing: ``predict_one`` is asked once per instance between two narrowing rounds,
    ``learn_one`` only in those rounds.  Every rule is the general loop's: each label is judged by
    the referee's ``round_error`` (once per instance, label and version space, on which alone it
    depends), every round is recorded (the narrowing ones by ``update``, the others by
    ``agreed``), the engine draws a randomized learner's label every round, and the errors are the
    general loop's (same round, player, message and transcript).  Returns the function that plays
    the rounds ``first, first + 1, ...`` of a block (shown instances, stored instances, labels).
    """
    predict = learner.predict_proba_one if randomized else learner.predict_one
    learn_one, draw = learner.learn_one, draw_rng.random
    round_error, update, narrows, agreed = referee.round_error, referee.update, referee.narrows, referee.agreed
    append_p, append_prediction = log_ps.append, log_predictions.append
    cache: dict = {}  # stored instance -> [p, label or None, per label: does it narrow (None: not judged yet)]
    each = referee.counts is not None  # agreed rounds counted one by one, per instance

    def prediction(t: int, shown: Any) -> list:
        try:
            raw = predict(shown)
        except BaseException as exc:
            reraise("learner", exc, t)
        if randomized:
            p = _move(as_probability, raw)
            if p is None:
                illegal_prediction(raw, t)
            return [p, None, None, None]
        label = labels.get(raw) if type(raw) is int else _move(read_label, raw)
        if label is None:
            illegal_prediction(raw, t)
        return [p_of[label], label, None, None]

    def rounds(first: int, shown_xs: Sequence, stored_xs: Sequence, ys: Sequence) -> None:
        n_agreed = 0  # rounds counted at the end (a referee without counts per instance; an error first
        # leaves its finish() to count the rounds themselves, with the same result)
        for t, shown, x, y in zip(itertools.count(first), shown_xs, stored_xs, ys):
            e = cache.get(x)
            if e is None:
                e = cache[x] = prediction(t, shown)
            narrowing = e[2 + y]
            if narrowing is None:
                problem = round_error(t, x, y)
                if problem is not None:
                    raise UnrealizableLabelError(problem, round=t, player="adversary", transcript=transcript())
                narrowing = e[2 + y] = narrows(x, y)
            if narrowing:
                try:
                    learn_one(shown, y)
                except BaseException as exc:
                    reraise("learner", exc, t)
                update(x, y)
                cache.clear()
            elif each:
                agreed(x, y)
            else:
                n_agreed += 1
            append_p(e[0])
            append_prediction(int(draw() < e[0]) if randomized else e[1])
        if n_agreed:
            referee.agreed_rounds(n_agreed)

    return rounds


def _play_convex(learner: Any, adversary: Any, setting: OCOSetting, rounds: Any, seed: Any, realizable: Any,
                 observers: Any) -> Any:
    """An online convex optimisation game: :func:`~mistakebound.game.oco.play_oco` on the setting."""
    if not realizable:
        raise InvalidArgumentError("realizable: an online convex optimisation game has no labels to realize; "
                                   "leave realizable=True")
    if _check_observers(observers):
        raise InvalidArgumentError("observers: an online convex optimisation game takes no observers")
    return play_oco(learner, adversary, d=setting.d, rounds=rounds, seed=seed, radius=setting.radius)


#: The end of an oblivious adversary's committed sequence.
_END = object()


def _index_in(H: Any, x: Any) -> int | None:
    """The column of ``x`` in the finite class ``H``, None when it is not an instance of it."""
    try:
        return H.index_of(x)
    except BaseException as exc:  # noqa: BLE001 - an instance whose hash or comparison raises is no instance
        if is_fatal(exc):
            raise
        return None


def _ordered(order: str, H: Any, rounds: int, learner: Any, adversary: Any, state: Any, call: Any,
             transcript: Any) -> tuple[list | None, list | None]:
    """Before round 1, the instances of a game whose order is not the adversary's as it goes
    (:mod:`~mistakebound.game.orders`): ``(the fixed sequence, None)``, ``(None, the instances left)`` for the
    self-directed game, ``(None, None)`` for the default order; the sequence checked and told to the other player."""
    if order == "adaptive":
        return None, None
    if order == "self-directed":
        return None, list(H.domain)
    who, other = ("learner", adversary) if order == "best" else ("adversary", learner)
    if order == "best":
        given = call("learner", learner.choose_order, H.domain)
        method = "choose_order"
    else:
        given = call("adversary", adversary.sequence, state)
        method = "sequence"

    def illegal(why: str) -> NoReturn:
        raise IllegalInstanceError(f"{method} returned {brief(given)}; {why}", round=1, player=who,
                                   transcript=transcript())

    if given is None or isinstance(given, (str, bytes)) or not hasattr(given, "__iter__"):
        illegal("expected a sequence of instances")
    sequence = list(itertools.islice(given, rounds + 1 if order == "transductive" else H.n_instances + 1))
    columns = [_index_in(H, x) for x in sequence]
    if None in columns:
        illegal(f"expected instances of {H.describe()}; {brief(sequence[columns.index(None)])} is not one")
    if order == "transductive" and len(sequence) > rounds:
        illegal(f"expected at most {rounds} instances (the game's rounds)")
    if order in ("best", "worst") and sorted(columns) != list(range(H.n_instances)):
        illegal(f"expected every instance of {H.describe()} once, an order of its {H.n_instances} instances")
    sequence = [H.domain[j] for j in columns]
    if order == "best":
        if callable(getattr(other, "announce", None)):
            call("adversary", other.announce, tuple(sequence))
    elif is_told(other, order):  # a learner of the textbook's game plays untold (mistakebound.game.orders)
        call("learner", other.announce, tuple(sequence))
    return sequence, None
