"""Online convex optimisation: a learner picks points, an adversary reveals convex losses.

This is the game of the textbook's Section 21.3 and of the regret lecture's
"online convex optimization" (``seeds/000``, ``seeds/004``), played by
:func:`play_oco` beside the label game of :func:`mistakebound.play`.  Round ``t`` goes:
the learner outputs a point ``w_t`` in R^d (inside the ball of radius ``radius`` when
the game is constrained); the adversary reveals a convex loss ``f_t``; the learner
pays ``f_t(w_t)`` and updates with the loss object itself.  The engine checks that
``w_t`` is a finite vector of the right shape inside the feasible set, that the loss
gives a finite value and a finite (sub)gradient of the right shape, and records
everything in an immutable :class:`OCOTranscript`, whose :meth:`~OCOTranscript.regret`
against any comparator ``u`` is the exact sum of ``f_t(w_t) - f_t(u)``.

The conventions are those of :mod:`mistakebound.game.play`: the seed is turned into a numpy
``Generator`` for the adversary; a broken rule or an exception from a player stops the
game with a :class:`~mistakebound.foundations.errors.GameError` naming the round and the player and
carrying the transcript of the rounds completed before it.  An oblivious adversary
(``oblivious = True``) fixes its losses with ``commit(d, rounds, rng, radius)``; an
adaptive one answers ``next_loss(state, w)`` and sees the history and ``w_t``.

Examples
--------
>>> import numpy as np
>>> from attrs import define
>>> @define
... class Origin(OCOLearner):
...     def predict_point(self):
...         return np.zeros(2)
...     def learn_loss(self, loss):
...         pass
>>> losses = [LinearLoss([1.0, 0.0]), LinearLoss([0.0, -2.0])]
>>> T = play_oco(Origin(), FixedLosses(losses), d=2, rounds=2, seed=0, radius=1.0)
>>> T.cumulative_loss, T.best_fixed_point().round(3).tolist()
(0.0, [-0.447, 0.894])
>>> round(T.best_fixed_regret(), 6) == round(float(np.sqrt(5.0)), 6)
True
"""

from __future__ import annotations

import itertools
import math
import numbers
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np
from attrs import define, field, frozen

from mistakebound.foundations.errors import (
    GameInterrupted,
    IllegalInstanceError,
    IllegalPredictionError,
    InvalidArgumentError,
    MistakeboundError,
    NotApplicableError,
    PlayerError,
)
from mistakebound.foundations.text import number_text
from mistakebound.foundations.text_tables import text_table
from mistakebound.foundations.validation import check_int, check_real, integer_converter
from mistakebound.game.rules import require_rounds
from mistakebound.game.players import describe, rebuild
from mistakebound.game.setting import Setting

__all__ = [
    "LinearLoss",
    "HingeLoss",
    "LogisticLoss",
    "OCORound",
    "OCOSetting",
    "OCOTranscript",
    "OCOState",
    "OCOLearner",
    "OCOAdversary",
    "ObliviousOCOAdversary",
    "FixedLosses",
    "RandomLinearLosses",
    "project_to_ball",
    "sigmoid",
    "play_oco",
]

#: Relative tolerance of the feasibility check ``||w|| <= radius``.
FEASIBILITY_TOL = 1e-9


# ---------------------------------------------------------------------- helpers
def _vector_tuple(value: Any, name: str) -> tuple[float, ...]:
    try:
        v = np.asarray(value, dtype=float).reshape(-1)
    except (TypeError, ValueError):
        raise InvalidArgumentError(f"{name}: expected a vector of numbers, got {value!r}") from None
    if v.size == 0 or not np.all(np.isfinite(v)):
        raise InvalidArgumentError(f"{name}: expected a non-empty vector of finite numbers, got {value!r}")
    return tuple(float(a) for a in v)


def _sign_label(value: Any) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real) or value not in (-1, 1):
        raise InvalidArgumentError(f"y: expected a label -1 or +1, got {value!r}")
    return int(value)


def _dot(a: Sequence[float], w: Any) -> float:
    return float(np.dot(np.asarray(a, dtype=float), np.asarray(w, dtype=float)))


def _optional_radius(value: Any) -> float | None:
    return check_real("radius", value, minimum=0.0, open_minimum=True, optional=True)


def project_to_ball(w: Any, radius: float | None) -> np.ndarray:
    """The Euclidean projection of ``w`` onto the closed ball of ``radius`` (identity if None).

    ``argmin_{||v|| <= B} ||v - w||`` is ``w`` itself inside the ball and
    ``B w / ||w||`` outside it.

    Examples
    --------
    >>> project_to_ball([3.0, 4.0], 1.0).tolist()
    [0.6, 0.8]
    >>> project_to_ball([0.3, 0.4], 1.0).tolist()
    [0.3, 0.4]
    """
    v = np.array(w, dtype=float)
    if radius is None:
        return v
    norm = float(np.linalg.norm(v))
    if norm > radius:
        v = v * radius / norm
    return v


# ---------------------------------------------------------------------- losses
@frozen
class LinearLoss:
    """``f(w) = <z, w>``; its gradient is ``z`` everywhere; ``||z||``-Lipschitz.

    Examples
    --------
    >>> f = LinearLoss([1.0, -2.0])
    >>> f.value([3.0, 1.0]), f.gradient([0.0, 0.0]).tolist(), f.d
    (1.0, [1.0, -2.0], 2)
    """

    z: tuple = field(converter=lambda v: _vector_tuple(v, "z"))

    @property
    def d(self) -> int:
        """The dimension."""
        return len(self.z)

    @property
    def lipschitz(self) -> float:
        """``||z||``, the Lipschitz constant over all of R^d."""
        return float(np.linalg.norm(self.z))

    def value(self, w: Any) -> float:
        """``<z, w>``."""
        return _dot(self.z, w)

    def gradient(self, w: Any) -> np.ndarray:
        """``z``."""
        return np.array(self.z, dtype=float)


@frozen
class _LabelledLoss:
    """A loss of a labelled example ``(x, y)``, ``y`` in {-1, +1}: ``||x||``-Lipschitz."""

    x: tuple = field(converter=lambda v: _vector_tuple(v, "x"))
    y: int = field(converter=_sign_label)

    @property
    def d(self) -> int:
        """The dimension."""
        return len(self.x)

    @property
    def lipschitz(self) -> float:
        """``||x||``."""
        return float(np.linalg.norm(self.x))


@frozen
class HingeLoss(_LabelledLoss):
    """``f(w) = max(0, 1 - y <w, x>)`` with ``y`` in {-1, +1}; ``||x||``-Lipschitz.

    The subgradient returned is ``-y x`` where ``1 - y <w, x> > 0`` and ``0`` elsewhere
    (at the kink ``y <w, x> = 1`` both are subgradients; this one picks 0).

    Examples
    --------
    >>> f = HingeLoss([1.0, 0.0], -1)
    >>> f.value([0.5, 3.0]), f.gradient([0.5, 3.0]).tolist()
    (1.5, [1.0, 0.0])
    >>> f.gradient([-1.0, 0.0]).tolist()
    [0.0, 0.0]
    """


    def value(self, w: Any) -> float:
        """``max(0, 1 - y <w, x>)``."""
        return max(0.0, 1.0 - self.y * _dot(self.x, w))

    def gradient(self, w: Any) -> np.ndarray:
        """``-y x`` if ``y <w, x> < 1``, else 0."""
        if 1.0 - self.y * _dot(self.x, w) > 0:
            return -self.y * np.array(self.x, dtype=float)
        return np.zeros(len(self.x))


def sigmoid(m: float) -> float:
    """``1 / (1 + exp(-m))``, computed without overflow."""
    if m >= 0:
        return 1.0 / (1.0 + math.exp(-m))
    e = math.exp(m)
    return e / (1.0 + e)


@frozen
class LogisticLoss(_LabelledLoss):
    """``f(w) = log(1 + exp(-y <w, x>))`` with ``y`` in {-1, +1}; ``||x||``-Lipschitz.

    The gradient is ``-y x sigmoid(-y <w, x>)``, whose norm is below ``||x||``.

    Examples
    --------
    >>> f = LogisticLoss([2.0], 1)
    >>> round(f.value([0.0]), 6), f.gradient([0.0]).tolist()
    (0.693147, [-1.0])
    """


    def value(self, w: Any) -> float:
        """``log(1 + exp(-y <w, x>))`` (stable for large margins)."""
        return float(np.logaddexp(0.0, -self.y * _dot(self.x, w)))

    def gradient(self, w: Any) -> np.ndarray:
        """``-y x sigmoid(-y <w, x>)``."""
        margin = self.y * _dot(self.x, w)
        return -self.y * sigmoid(-margin) * np.array(self.x, dtype=float)


# ---------------------------------------------------------------------- transcript
@frozen
class OCORound:
    """One round of the OCO game: the point ``w``, the loss, its value and (sub)gradient at ``w``."""

    t: int
    w: tuple
    loss: Any
    value: float
    gradient: tuple


@frozen
class OCOTranscript:
    """An immutable record of an OCO game.

    Attributes
    ----------
    rounds : tuple of OCORound
    learner, adversary : str
        Descriptions of the players.
    seed : int or None
        Reproduces the game with :func:`play_oco`.
    d : int
        The dimension.
    radius : float or None
        The radius of the feasible ball (None: unconstrained R^d).
    """

    rounds: tuple = field(converter=tuple)
    learner: str = ""
    adversary: str = ""
    seed: int | None = None
    d: int = 1
    radius: float | None = None

    def __len__(self) -> int:
        return len(self.rounds)

    @property
    def points(self) -> np.ndarray:
        """The learner's points ``w_t``, one row per round."""
        return np.array([r.w for r in self.rounds], dtype=float).reshape(len(self.rounds), self.d)

    @property
    def losses(self) -> tuple:
        """The loss objects ``f_t``."""
        return tuple(r.loss for r in self.rounds)

    @property
    def values(self) -> tuple[float, ...]:
        """The learner's losses ``f_t(w_t)``."""
        return tuple(r.value for r in self.rounds)

    @property
    def gradients(self) -> np.ndarray:
        """The (sub)gradients ``v_t`` of ``f_t`` at ``w_t``, one row per round."""
        return np.array([r.gradient for r in self.rounds], dtype=float).reshape(len(self.rounds), self.d)

    @property
    def sum_squared_gradients(self) -> float:
        """``sum_t ||v_t||^2``, the data-dependent term of Theorem 21.15."""
        return math.fsum(math.fsum(g * g for g in r.gradient) for r in self.rounds)

    @property
    def cumulative_loss(self) -> float:
        """``sum_t f_t(w_t)`` (summed with ``math.fsum``)."""
        return math.fsum(self.values)

    def comparator_loss(self, u: Any) -> float:
        """``sum_t f_t(u)`` for a fixed point ``u``."""
        u = np.asarray(_vector_tuple(u, "u"))
        self._check_dimension(u)
        return math.fsum(r.loss.value(u) for r in self.rounds)

    def regret(self, u: Any) -> float:
        """``sum_t f_t(w_t) - f_t(u)``, every term summed exactly once with ``math.fsum``."""
        u = np.asarray(_vector_tuple(u, "u"))
        self._check_dimension(u)
        terms = [r.value for r in self.rounds] + [-r.loss.value(u) for r in self.rounds]
        return math.fsum(terms)

    def _check_dimension(self, u: np.ndarray) -> None:
        if u.shape != (self.d,):
            raise InvalidArgumentError(f"u: expected a vector of length d = {self.d}, got shape {u.shape}")

    def _linear_sum(self) -> np.ndarray:
        if not all(isinstance(r.loss, LinearLoss) for r in self.rounds):
            raise NotApplicableError(
                "best fixed point: known in closed form only when every loss is a LinearLoss"
            )
        if self.radius is None:
            raise NotApplicableError(
                "best fixed point: linear losses over unconstrained R^d have no minimiser; play with a radius"
            )
        return np.array([math.fsum(col) for col in zip(*(r.loss.z for r in self.rounds))] or np.zeros(self.d))

    def best_fixed_point(self) -> np.ndarray:
        """The fixed point of the ball minimising ``sum_t f_t`` (linear losses over a ball only).

        For ``f_t(w) = <z_t, w>`` over ``||w|| <= B`` it is ``-B Z / ||Z||`` with
        ``Z = sum_t z_t`` (any point when ``Z = 0``; 0 is returned); in one dimension
        this is the endpoint of ``[-B, B]`` opposite to the sign of ``Z``.

        Raises
        ------
        NotApplicableError
            If some loss is not linear, or the game is unconstrained.
        """
        Z = self._linear_sum()
        norm = float(np.linalg.norm(Z))
        if norm == 0:
            return np.zeros(self.d)
        return -self.radius * Z / norm

    def best_fixed_regret(self) -> float:
        """``sum_t f_t(w_t) - min_{||u|| <= B} sum_t f_t(u) = sum_t f_t(w_t) + B ||Z||`` (linear losses).

        Raises
        ------
        NotApplicableError
            If some loss is not linear, or the game is unconstrained.
        """
        Z = self._linear_sum()
        return math.fsum([*self.values, self.radius * float(np.linalg.norm(Z))])

    #: Whether the moves are instances, predictions and labels (as the setting's ``labelled``): no, points and losses.
    labelled: ClassVar[bool] = False
    #: Whether the learner's moves are randomized predictions of labels (never here: points).
    randomized: ClassVar[bool] = False

    def cumulative_curve(self, measure: str = "regret", setting: Any = None) -> np.ndarray:  # noqa: ARG002
        """The regret against the best fixed point over the first ``t`` rounds, ``t = 0, 1, ...``
        (linear losses over a ball; ``setting`` is not needed: the rounds say everything).

        Raises
        ------
        InvalidArgumentError
            If ``measure`` is not ``"regret"``: a game of points and losses has no mistakes.

        Examples
        --------
        >>> T = OCOTranscript(rounds=[OCORound(1, (0.0,), LinearLoss((1.0,)), 0.0, (1.0,))], radius=1.0)
        >>> T.cumulative_curve().tolist()
        [0.0, 1.0]
        """
        if measure != "regret":
            if measure != "mistakes":
                raise InvalidArgumentError(f"measure: expected 'mistakes' or 'regret', got {measure!r}")
            raise InvalidArgumentError("measure: an online convex optimisation game has a regret curve, not mistakes")
        return np.array([0.0] + [
            OCOTranscript(rounds=self.rounds[:t], d=self.d, radius=self.radius).best_fixed_regret()
            for t in range(1, len(self) + 1)
        ])

    def totals_record(self) -> dict:
        """The game's totals as the fields of a record: ``rounds`` and ``regret`` (no mistakes here).

        Examples
        --------
        >>> T = OCOTranscript(rounds=[OCORound(1, (0.0,), LinearLoss((1.0,)), 0.0, (1.0,))], radius=1.0)
        >>> T.totals_record(), OCOTranscript(rounds=[], radius=1.0).totals_record()
        ({'rounds': 1, 'regret': 1.0}, {'rounds': 0, 'regret': 0.0})
        """
        return {"rounds": len(self), "regret": float(self._regret_so_far())}

    def summary(self) -> str:
        """One line with the players and the totals."""
        where = "R^%d" % self.d if self.radius is None else f"ball(d={self.d}, radius={self.radius:g})"
        return f"{self.learner} vs {self.adversary} on {where}: {len(self)} rounds, loss {self.cumulative_loss:g}"

    # ------------------------------------------------------------ its text and records
    # (the same names as a Transcript's: mistakebound.game.transcript.format_transcript and
    # transcript_records read either)
    def _regret_so_far(self) -> float:
        return self.best_fixed_regret() if len(self) else 0.0

    def header(self, rounds: int, setting: Any = None) -> str:
        """The line that opens a game's report: the players, the setting, the seed and the horizon ``rounds``."""
        where = setting.describe() if setting is not None else f"oco(d={self.d})"
        return f"game: {self.learner} vs {self.adversary} on {where}, seed {self.seed}, at most {rounds} rounds"

    def table(self) -> str:
        """The rounds as a table: ``t``, the point ``w`` and its loss.

        Examples
        --------
        >>> T = OCOTranscript(rounds=[OCORound(1, (0.5,), LinearLoss((1.0,)), 0.5, (1.0,))], radius=1.0)
        >>> print(T.table())
        t  w      loss
        -  -----  ----
        1  (0.5)  0.5
        """
        rows = [[str(r.t), "(" + ",".join(number_text(v) for v in r.w) + ")", number_text(r.value)]
                for r in self.rounds]
        return text_table(["t", "w", "loss"], rows)

    def totals_lines(self, setting: Any = None) -> list[str]:
        """The totals, one ``name = value`` line each: rounds, cumulative loss, regret (linear losses over a ball)."""
        return [f"rounds = {len(self)}", f"cumulative loss = {number_text(self.cumulative_loss)}",
                f"regret = {number_text(self._regret_so_far())} (against the best fixed point in hindsight)"]

    def totals_row(self) -> list[str]:
        """The totals as the cells of a table: rounds, mistakes, expected mistakes, regret (no mistakes here: ``-``)."""
        return [str(len(self)), "-", "-", number_text(self._regret_so_far())]

    def round_records(self) -> list[dict]:
        """The JSON Lines object of each round: ``type``, ``t``, the point ``w`` and the loss ``value``."""
        return [{"type": "round", "t": r.t, "w": list(r.w), "value": r.value} for r in self.rounds]

    def summary_record(self) -> dict:
        """The players, the setting, the seed and the totals, as the fields of a JSON summary object."""
        return {"learner": self.learner, "adversary": self.adversary,
                "setting": OCOSetting(self.d, radius=self.radius).describe(), "seed": self.seed,
                "rounds": len(self), "cumulative_loss": self.cumulative_loss, "regret": self._regret_so_far()}


# ---------------------------------------------------------------------- the setting
@frozen
class OCOSetting(Setting):
    """Where an online convex optimisation game is played: R^d, or its ball of radius ``radius``.

    What :func:`play_oco` takes as ``d`` and ``radius``, as one value: the setting the
    registry builds from ``oco:d=1,radius=1`` and OCO learners' ``for_setting`` and
    ``bound`` receive.

    Examples
    --------
    >>> OCOSetting(2, radius=1.0).describe()
    'oco(d=2, radius=1)'
    >>> OCOSetting(3).describe()
    'oco(d=3)'
    """

    d: int = field(converter=integer_converter("d", 1))
    radius: float | None = field(default=None, converter=lambda v: _optional_radius(v))

    # the Setting protocol: points and losses, no labels; the regret is against the best fixed point
    labelled = False
    labels = ()
    hindsight = True

    def describe(self) -> str:
        """``oco(d=2, radius=1)``."""
        radius = "" if self.radius is None else f", radius={self.radius:g}"
        return f"oco(d={self.d}{radius})"


# ---------------------------------------------------------------------- players
@define
class OCOState:
    """What an adaptive OCO adversary may look at.

    Attributes
    ----------
    d : int
    rounds : int
        The horizon.
    radius : float or None
    rng : numpy.random.Generator
        The adversary's own generator (derived from the game's seed).
    history : list of OCORound
        Completed rounds (read them; do not modify).
    """

    d: int
    rounds: int
    radius: float | None
    rng: np.random.Generator = field(repr=False)
    history: list = field(factory=list, repr=False)

    @property
    def t(self) -> int:
        """The number of the round being played (1-based)."""
        return len(self.history) + 1


class OCOLearner:
    """Base class of OCO learners (optional: any object with the two methods can play).

    The ``__init__`` arguments of a subclass are its hyperparameters, kept under their own
    names (an attrs class does this by itself), so :meth:`clone` rebuilds a fresh copy.
    """

    def predict_point(self) -> np.ndarray:  # pragma: no cover - interface
        """The point ``w_t`` of the current round."""
        raise NotImplementedError

    def learn_loss(self, loss: Any) -> None:  # pragma: no cover - interface
        """Update on the revealed loss (an object with ``value(w)`` and ``gradient(w)``)."""
        raise NotImplementedError

    def clone(self) -> OCOLearner:
        """A fresh learner with the same hyperparameters and no learned state (:func:`~mistakebound.game.players.rebuild`)."""
        return rebuild(self)


class OCOAdversary:
    """Base class of adaptive OCO adversaries: ``next_loss(state, w)`` sees the history and ``w_t``."""

    oblivious: ClassVar[bool] = False

    def start(self, state: OCOState) -> None:
        """Called once before round 1."""

    def next_loss(self, state: OCOState, w: np.ndarray) -> Any:  # pragma: no cover - interface
        """The loss of round ``state.t`` given the learner's point ``w``, or None to end the game."""
        raise NotImplementedError


class ObliviousOCOAdversary(OCOAdversary):
    """An OCO adversary that fixes every loss before round 1 and sees nothing."""

    oblivious: ClassVar[bool] = True

    def commit(
        self, d: int, rounds: int, rng: np.random.Generator, radius: float | None
    ) -> Sequence[Any]:  # pragma: no cover - interface
        """The losses ``f_1, f_2, ...`` (at most ``rounds`` are used)."""
        raise NotImplementedError


@define
class FixedLosses(ObliviousOCOAdversary):
    """Replays a given sequence of losses.

    Examples
    --------
    >>> FixedLosses([LinearLoss([1.0])]).commit(1, 5, None, None)
    [LinearLoss(z=(1.0,))]
    """

    losses: tuple = field(converter=tuple)

    def commit(self, d, rounds, rng, radius):
        return list(self.losses)


@define
class RandomLinearLosses(ObliviousOCOAdversary):
    """Linear losses ``<z_t, w>`` with ``z_t`` drawn uniformly from the ball of radius ``scale``.

    The losses are ``scale``-Lipschitz.  Directions are Gaussian and normalised, radii
    are ``scale * U^(1/d)``, all from the game's generator.

    Examples
    --------
    >>> losses = RandomLinearLosses(scale=2.0).commit(3, 4, np.random.default_rng(0), 1.0)
    >>> len(losses), all(f.lipschitz <= 2.0 for f in losses)
    (4, True)
    """

    scale: float = 1.0

    def __attrs_post_init__(self) -> None:
        check_real("scale", self.scale, minimum=0.0, open_minimum=True)

    def commit(self, d, rounds, rng, radius):
        out = []
        for _ in range(rounds):
            g = rng.standard_normal(d)
            norm = float(np.linalg.norm(g))
            direction = g / norm if norm > 0 else np.eye(d)[0]
            out.append(LinearLoss(direction * self.scale * rng.random() ** (1.0 / d)))
        return out


# ---------------------------------------------------------------------- the engine
def _check_players(learner: Any, adversary: Any) -> None:
    missing = [m for m in ("predict_point", "learn_loss") if not callable(getattr(learner, m, None))]
    if missing:
        raise InvalidArgumentError(f"learner: {type(learner).__name__} lacks {', '.join(missing)}")
    needed = ("commit",) if getattr(adversary, "oblivious", False) else ("next_loss",)
    missing = [m for m in needed if not callable(getattr(adversary, m, None))]
    if missing:
        raise InvalidArgumentError(
            f"adversary: {type(adversary).__name__} lacks {', '.join(missing)}; an adaptive OCO adversary "
            "needs next_loss, an oblivious one (oblivious = True) needs commit"
        )


def play_oco(
    learner: Any,
    adversary: Any,
    *,
    d: int,
    rounds: int,
    seed: int | None = None,
    radius: float | None = None,
) -> OCOTranscript:
    """Play one online convex optimisation game and return its transcript.

    Parameters
    ----------
    learner
        An object with ``predict_point()`` (returns ``w_t``) and ``learn_loss(loss)``.
    adversary
        An :class:`OCOAdversary` (``next_loss(state, w)``) or an
        :class:`ObliviousOCOAdversary` (``commit(d, rounds, rng, radius)``).
    d : int
        The dimension.
    rounds : int
        The horizon; the adversary may end the game earlier (None loss, short commit).
    seed : int, optional
        Seeds the adversary's generator; None picks a fresh seed, recorded.
    radius : float, optional
        The feasible set is the closed ball ``||w|| <= radius`` (the interval
        ``[-radius, radius]`` when ``d = 1``); None means unconstrained R^d.

    Returns
    -------
    OCOTranscript

    Raises
    ------
    InvalidArgumentError
        For a bad ``d``, ``rounds``, ``seed``, ``radius`` or a player lacking methods.
    IllegalPredictionError
        If ``w_t`` is not a finite vector of length ``d`` inside the feasible set
        (relative tolerance ``FEASIBILITY_TOL``).
    IllegalInstanceError
        If the adversary's loss lacks ``value``/``gradient``, or they are not finite
        or of the wrong shape at ``w_t``.
    PlayerError
        If a player raises.
    GameInterrupted
        On Ctrl-C, carrying the transcript of the rounds completed before it.
    """
    d = check_int("d", d, 1)
    rounds = require_rounds(rounds)
    radius = _optional_radius(radius)
    seed = check_int("seed", seed, 0, optional=True)
    if seed is None:
        seed = int(np.random.SeedSequence().entropy)
    _check_players(learner, adversary)
    _, adversary_seq = np.random.SeedSequence(seed).spawn(2)  # the label game's split, for symmetry
    state = OCOState(d=d, rounds=rounds, radius=radius, rng=np.random.default_rng(adversary_seq))
    history = state.history

    def transcript() -> OCOTranscript:
        return OCOTranscript(
            rounds=tuple(history), learner=describe(learner), adversary=describe(adversary),
            seed=seed, d=d, radius=radius,
        )

    def call(player: str, func, *args):
        try:
            return func(*args)
        except MistakeboundError as exc:
            if getattr(exc, "round", None) is not None:
                raise
            raise PlayerError(f"raised {exc!r}", round=state.t, player=player, transcript=transcript()) from exc
        except Exception as exc:
            raise PlayerError(f"raised {exc!r}", round=state.t, player=player, transcript=transcript()) from exc

    committed = None
    if getattr(adversary, "oblivious", False):
        sequence = call("adversary", adversary.commit, d, rounds, state.rng, radius)
        if sequence is None or isinstance(sequence, (str, bytes)) or not hasattr(sequence, "__iter__"):
            raise IllegalInstanceError(
                f"commit returned {sequence!r}; expected a sequence of losses",
                round=1, player="adversary", transcript=transcript(),
            )
        committed = call("adversary", lambda: list(itertools.islice(sequence, rounds)))
    elif callable(getattr(adversary, "start", None)):
        call("adversary", adversary.start, state)

    try:
        for t in range(1, rounds + 1):
            if committed is not None and t > len(committed):
                break
            raw = call("learner", learner.predict_point)
            w = _check_point(raw, d, radius, t, transcript)
            if committed is not None:
                loss = committed[t - 1]
            else:
                loss = call("adversary", adversary.next_loss, state, w)
                if loss is None:
                    break
            if not (callable(getattr(loss, "value", None)) and callable(getattr(loss, "gradient", None))):
                raise IllegalInstanceError(
                    f"loss {loss!r} has no value(w) and gradient(w) methods",
                    round=t, player="adversary", transcript=transcript(),
                )
            loss_d = getattr(loss, "d", d)
            if loss_d != d:
                raise IllegalInstanceError(
                    f"loss {loss!r} has dimension {loss_d}; expected d = {d}",
                    round=t, player="adversary", transcript=transcript(),
                )
            value = call("adversary", lambda: loss.value(w))
            grad = call("adversary", lambda: loss.gradient(w))
            value, grad = _check_loss(loss, value, grad, d, t, transcript)
            call("learner", learner.learn_loss, loss)
            history.append(OCORound(t=t, w=tuple(float(a) for a in w), loss=loss, value=value, gradient=grad))
    except GameInterrupted:
        raise
    except KeyboardInterrupt:
        raise GameInterrupted(transcript()) from None
    return transcript()


def _check_point(raw: Any, d: int, radius: float | None, t: int, transcript) -> np.ndarray:
    try:
        w = np.array(raw, dtype=float)
    except (TypeError, ValueError):
        raise IllegalPredictionError(
            f"predict_point returned {raw!r}; expected a vector of {d} numbers",
            round=t, player="learner", transcript=transcript(),
        ) from None
    if w.shape != (d,):
        raise IllegalPredictionError(
            f"predict_point returned shape {w.shape}; expected ({d},)",
            round=t, player="learner", transcript=transcript(),
        )
    if not np.all(np.isfinite(w)):
        raise IllegalPredictionError(
            f"predict_point returned non-finite entries {w.tolist()}",
            round=t, player="learner", transcript=transcript(),
        )
    if radius is not None:
        norm = float(np.linalg.norm(w))
        if norm > radius * (1 + FEASIBILITY_TOL):
            raise IllegalPredictionError(
                f"predict_point returned a point of norm {norm:.9g} outside the feasible ball of radius {radius:g}",
                round=t, player="learner", transcript=transcript(),
            )
    w.setflags(write=False)
    return w


def _check_loss(loss: Any, value: Any, grad: Any, d: int, t: int, transcript) -> tuple[float, tuple]:
    ok = isinstance(value, numbers.Real) and not isinstance(value, bool) and math.isfinite(value)
    if not ok:
        raise IllegalInstanceError(
            f"loss {loss!r} has value {value!r} at w_t; expected a finite number",
            round=t, player="adversary", transcript=transcript(),
        )
    try:
        g = np.asarray(grad, dtype=float)
    except (TypeError, ValueError):
        g = None
    if g is None or g.shape != (d,) or not np.all(np.isfinite(g)):
        raise IllegalInstanceError(
            f"loss {loss!r} has gradient {grad!r} at w_t; expected a finite vector of length {d}",
            round=t, player="adversary", transcript=transcript(),
        )
    return float(value), tuple(float(a) for a in g)
