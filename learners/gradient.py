"""Gradient learners: Online Gradient Descent, Follow-the-Leader, online logistic regression.

:class:`OnlineGradientDescent` and :class:`FollowTheLeader` play the online convex
optimisation game of :func:`mistakebound.game.oco.play_oco`;
:class:`OnlineLogisticRegression` is OGD on the log loss, playing the label game of
:func:`mistakebound.play` on a :class:`~mistakebound.game.spaces.LinearSpace` as a
randomized learner (the engine draws its label).

Examples
--------
>>> from mistakebound.game.oco import play_oco
>>> from mistakebound.adversaries.alternating_losses import AlternatingLosses
>>> T = 100
>>> ogd = OnlineGradientDescent.tuned(1, radius=1.0, rho=1.0, T=T)
>>> R = play_oco(ogd, AlternatingLosses(), d=1, rounds=T, seed=0, radius=1.0)
>>> R.best_fixed_regret() <= OnlineGradientDescent.lipschitz_regret_bound(1.0, 1.0, T)
True
>>> F = play_oco(FollowTheLeader(1, radius=1.0), AlternatingLosses(), d=1, rounds=T, seed=0, radius=1.0)
>>> F.values[:4], F.best_fixed_regret()
((0.0, 1.0, 1.0, 1.0), 99.5)
"""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np
from attrs import define, field

from mistakebound.foundations.errors import InvalidArgumentError, NotApplicableError
from mistakebound.game.oco import LinearLoss, OCOLearner, project_to_ball, sigmoid
from mistakebound.game.players import Learner

__all__ = [
    "OnlineGradientDescent",
    "FollowTheLeader",
    "OnlineLogisticRegression",
    "transcript_log_losses",
    "comparator_log_losses",
    "log_loss_regret",
    "log_loss_gradient_norms_squared",
]


def _dimension(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
        raise InvalidArgumentError(f"d: expected an integer >= 1, got {value!r}")
    return int(value)


def _positive(name: str, value: Any) -> float:
    ok = isinstance(value, numbers.Real) and not isinstance(value, bool) and math.isfinite(value) and value > 0
    if not ok:
        raise InvalidArgumentError(f"{name}: expected a finite number > 0, got {value!r}")
    return float(value)


def _optional_positive(name: str, value: Any) -> float | None:
    return None if value is None else _positive(name, value)


def _read_only(v: np.ndarray) -> np.ndarray:
    out = np.array(v, dtype=float, copy=True)
    out.setflags(write=False)
    return out


def _theorem_21_15(eta: float, comparator_norm: float, sum_squared_gradients: float) -> float:
    eta = _positive("eta", eta)
    if comparator_norm < 0 or sum_squared_gradients < 0:
        raise InvalidArgumentError(
            f"comparator_norm, sum_squared_gradients: expected numbers >= 0, got {comparator_norm!r}, "
            f"{sum_squared_gradients!r}"
        )
    return comparator_norm**2 / (2 * eta) + eta / 2 * sum_squared_gradients


# ---------------------------------------------------------------------- OGD
@define
class OnlineGradientDescent(OCOLearner):
    """Online Gradient Descent with projection onto the ball of radius ``radius``.

    Exactly the textbook's algorithm (``seeds/000``, Section 21.3): ``w_1 = 0``; after
    the loss ``f_t`` it takes a subgradient ``v_t`` of ``f_t`` at ``w_t`` (the loss
    object's ``gradient(w_t)``), steps ``w_{t+1/2} = w_t - eta v_t`` and projects,
    ``w_{t+1} = argmin_{||w|| <= B} ||w - w_{t+1/2}||``; without a radius the
    projection is the identity.  The regret lecture's projected gradient
    (``seeds/004``) is the same algorithm with a constant step.

    Parameters
    ----------
    d : int
        The dimension.
    eta : float
        The step size, ``> 0``.
    radius : float, optional
        The radius ``B`` of the feasible ball; None for unconstrained R^d.

    Notes
    -----
    Bounds (Theorem 21.15, ``seeds/000``), for every ``w*`` in the feasible set:
    ``Regret(w*) <= ||w*||^2 / (2 eta) + (eta/2) sum_t ||v_t||^2``
    (:meth:`regret_bound`); with ``rho``-Lipschitz losses and ``eta = 1/sqrt(T)``,
    ``<= (||w*||^2 + rho^2) sqrt(T) / 2`` (:meth:`unit_rate_regret_bound`); on the
    ball of radius ``B`` with ``eta = B/(rho sqrt T)`` (:meth:`tuned`), the regret
    against the whole ball is ``<= B rho sqrt(T)`` (:meth:`lipschitz_regret_bound`).
    The regret lecture (``seeds/004``, Theorem of Section 3.2) states the same
    ``R L sqrt(T)`` with ``eta = R/(L sqrt T)``; its proof uses
    ``||theta_1 - theta*|| <= R``, true here because ``w_1 = 0``.

    Examples
    --------
    >>> from mistakebound.game.oco import FixedLosses, LinearLoss, play_oco
    >>> ogd = OnlineGradientDescent(2, eta=0.5, radius=1.0)
    >>> T = play_oco(ogd, FixedLosses([LinearLoss([4.0, 0.0])] * 2), d=2, rounds=2, seed=0, radius=1.0)
    >>> T.points.tolist()
    [[0.0, 0.0], [-1.0, 0.0]]
    """

    d: int = field(converter=_dimension)
    eta: float = field(converter=lambda v: _positive("eta", v))
    radius: float | None = field(default=None, converter=lambda v: _optional_positive("radius", v))
    _w: np.ndarray = field(init=False, repr=False)

    bound_source = (
        "Theorem 21.15 (textbook ch. 21, seeds/000): Regret(w*) <= ||w*||^2/(2 eta) + (eta/2) sum ||v_t||^2; "
        "B rho sqrt(T) with eta = B/(rho sqrt T)"
    )

    def __attrs_post_init__(self) -> None:
        self._w = np.zeros(self.d)

    @classmethod
    def tuned(cls, d: int, *, radius: float, rho: float, T: int) -> OnlineGradientDescent:
        """OGD on the ball of ``radius`` ``B`` with the step ``eta = B / (rho sqrt(T))`` of Theorem 21.15."""
        return cls(d, eta=cls.tuned_eta(radius, rho, T), radius=radius)

    @staticmethod
    def tuned_eta(radius: float, rho: float, T: int) -> float:
        """``B / (rho sqrt(T))`` (Theorem 21.15, ``seeds/000``; ``R/(L sqrt T)`` in ``seeds/004``)."""
        return _positive("radius", radius) / (_positive("rho", rho) * math.sqrt(_positive("T", T)))

    @property
    def weights(self) -> np.ndarray:
        """The current point ``w_t`` (read-only copy)."""
        return _read_only(self._w)

    def predict_point(self) -> np.ndarray:
        return _read_only(self._w)

    def learn_loss(self, loss: Any) -> None:
        v = np.asarray(loss.gradient(_read_only(self._w)), dtype=float)
        self._w = project_to_ball(self._w - self.eta * v, self.radius)

    @staticmethod
    def regret_bound(*, eta: float, comparator_norm: float, sum_squared_gradients: float) -> float:
        """``||w*||^2 / (2 eta) + (eta / 2) sum_t ||v_t||^2``: Theorem 21.15 (``seeds/000``).

        Holds for every ``w*`` in the feasible set, with ``w_1 = 0``; the ``v_t`` are the
        subgradients the algorithm used (``OCOTranscript.sum_squared_gradients``).

        Examples
        --------
        >>> OnlineGradientDescent.regret_bound(eta=0.5, comparator_norm=1.0, sum_squared_gradients=4.0)
        2.0
        """
        return _theorem_21_15(eta, comparator_norm, sum_squared_gradients)

    @staticmethod
    def unit_rate_regret_bound(comparator_norm: float, rho: float, T: int) -> float:
        """``(||w*||^2 + rho^2) sqrt(T) / 2`` for ``eta = 1/sqrt(T)``: Theorem 21.15 (``seeds/000``)."""
        return (comparator_norm**2 + rho**2) * math.sqrt(T) / 2

    @staticmethod
    def lipschitz_regret_bound(radius: float, rho: float, T: int) -> float:
        """``B rho sqrt(T)`` with ``eta = B/(rho sqrt T)`` on a ``B``-bounded set, ``rho``-Lipschitz losses.

        Theorem 21.15 (``seeds/000``); the same ``R L sqrt(T)`` in ``seeds/004``
        (projected gradient, Section 3.2).

        Examples
        --------
        >>> OnlineGradientDescent.lipschitz_regret_bound(2.0, 0.5, 100)
        10.0
        """
        return radius * rho * math.sqrt(T)


# ---------------------------------------------------------------------- FTL
@define
class FollowTheLeader(OCOLearner):
    """Follow-the-Leader for linear losses over the ball (interval when ``d = 1``) of ``radius``.

    ``w_t = argmin_{||w|| <= B} sum_{s < t} <z_s, w>`` (``seeds/004``, Section 3.1: ERM
    on the losses so far).  For ``Z = sum_{s<t} z_s != 0`` the minimiser is unique,
    ``-B Z / ||Z||``.  Tie rule: when ``Z = 0`` every point of the ball minimises (in
    particular in round 1) and FTL plays ``0``, the lecture's ``theta_1 = 0``.

    FTL has no sublinear regret bound: the lecture's sequence
    (:class:`~mistakebound.adversaries.alternating_losses.AlternatingLosses`) makes it
    pay ``B`` in every round after the first, regret ``>= (T - 1) B``.

    Parameters
    ----------
    d : int
    radius : float
        The radius ``B`` of the feasible ball.

    Raises
    ------
    NotApplicableError
        From :meth:`learn_loss`, for a loss that is not a :class:`~mistakebound.game.oco.LinearLoss`.

    Examples
    --------
    >>> ftl = FollowTheLeader(1, radius=1.0)
    >>> ftl.predict_point().tolist()
    [0.0]
    >>> ftl.learn_loss(LinearLoss([0.5]))
    >>> ftl.predict_point().tolist()
    [-1.0]
    """

    d: int = field(converter=_dimension)
    radius: float = field(converter=lambda v: _positive("radius", v))
    _Z: np.ndarray = field(init=False, repr=False)

    bound_source = "seeds/004 Section 3.1: no sublinear bound; the alternating sequence forces regret >= (T-1) B"

    def __attrs_post_init__(self) -> None:
        self._Z = np.zeros(self.d)

    def predict_point(self) -> np.ndarray:
        norm = float(np.linalg.norm(self._Z))
        if norm == 0:
            return _read_only(np.zeros(self.d))
        return _read_only(-self.radius * self._Z / norm)

    def learn_loss(self, loss: Any) -> None:
        if not isinstance(loss, LinearLoss):
            raise NotApplicableError(
                f"loss: FollowTheLeader plays linear losses only (LinearLoss), got {type(loss).__name__}"
            )
        self._Z = self._Z + np.asarray(loss.z, dtype=float)


# ---------------------------------------------------------------------- logistic regression
@define
class OnlineLogisticRegression(Learner):
    """Online logistic regression: OGD on the log loss, as a randomized learner of the label game.

    The logistic online model of the regret lecture (``seeds/004``, Section 2.1):
    with weights ``w_t`` it predicts label 1 (``+1``) with probability
    ``sigmoid(<w_t, x_t>)`` (:meth:`predict_proba_one`; the engine draws the label, so
    the expected mistakes ``sum |p_t - y_t|`` are exact) and pays the log loss
    ``-log P(y_t | x_t, w_t) = log(1 + exp(-y_t <w_t, x_t>))`` (``y`` in {-1, +1}).
    :meth:`learn_one` is one step of Online Gradient Descent (``seeds/000``, Section
    21.3) on that loss, from ``w_1 = 0``, projected onto the ball of ``radius``:
    ``w_{t+1} = Proj(w_t + eta y_t x_t sigmoid(-y_t <w_t, x_t>))``.

    Parameters
    ----------
    d : int
    eta : float
        The step size, ``> 0``.
    radius : float, optional
        The radius ``B`` of the ball the weights stay in; None for no projection.

    Notes
    -----
    The log loss is ``||x||``-Lipschitz in ``w`` (its gradient is
    ``-y x sigmoid(-y<w, x>)``), so Theorem 21.15 (``seeds/000``) gives, for every
    ``u`` in the feasible ball, log-loss regret ``<= ||u||^2/(2 eta) + (eta/2) sum_t
    ||v_t||^2`` with ``||v_t|| = ||x_t|| |p_t - y_t|`` (:meth:`regret_bound`), and
    ``<= B R sqrt(T)`` with ``eta = B/(R sqrt T)`` when ``||x_t|| <= R``
    (:meth:`lipschitz_regret_bound`).  Both are checked on transcripts with
    :func:`log_loss_regret` and :func:`log_loss_gradient_norms_squared`, which read
    only ``p_t``, ``x_t`` and ``y_t``.

    Examples
    --------
    >>> L = OnlineLogisticRegression(2, eta=1.0)
    >>> L.predict_proba_one([1.0, 0.0])
    0.5
    >>> L.learn_one([1.0, 0.0], 1)
    >>> L.weights.tolist()
    [0.5, 0.0]
    """

    d: int = field(converter=_dimension)
    eta: float = field(converter=lambda v: _positive("eta", v))
    radius: float | None = field(default=None, converter=lambda v: _optional_positive("radius", v))
    _w: np.ndarray = field(init=False, repr=False)

    bound_source = (
        "Theorem 21.15 (seeds/000) on the log loss (seeds/004 Sec. 2.1): regret <= ||u||^2/(2 eta) + "
        "(eta/2) sum ||x_t||^2 (p_t - y_t)^2 <= B R sqrt(T) with eta = B/(R sqrt T)"
    )

    def __attrs_post_init__(self) -> None:
        self._w = np.zeros(self.d)

    @classmethod
    def tuned(cls, d: int, *, radius: float, R: float, T: int) -> OnlineLogisticRegression:
        """The learner on the ball of ``radius`` with ``eta = B / (R sqrt(T))`` (Theorem 21.15)."""
        return cls(d, eta=OnlineGradientDescent.tuned_eta(radius, R, T), radius=radius)

    @property
    def weights(self) -> np.ndarray:
        """The current weights ``w_t`` (read-only copy)."""
        return _read_only(self._w)

    def predict_proba_one(self, x: Any) -> float:
        return sigmoid(float(np.dot(self._w, np.asarray(x, dtype=float))))

    def learn_one(self, x: Any, y: int) -> None:
        xv = np.asarray(x, dtype=float)
        s = 2 * int(y) - 1
        grad = -s * sigmoid(-s * float(np.dot(self._w, xv))) * xv
        self._w = project_to_ball(self._w - self.eta * grad, self.radius)

    @staticmethod
    def regret_bound(*, eta: float, comparator_norm: float, sum_squared_gradients: float) -> float:
        """``||u||^2 / (2 eta) + (eta/2) sum_t ||v_t||^2`` on the log loss: Theorem 21.15 (``seeds/000``)."""
        return _theorem_21_15(eta, comparator_norm, sum_squared_gradients)

    @staticmethod
    def lipschitz_regret_bound(radius: float, R: float, T: int) -> float:
        """``B R sqrt(T)``: Theorem 21.15 with ``rho = R`` (the log loss is ``||x||``-Lipschitz)."""
        return radius * R * math.sqrt(T)


def _xs_ps_ys(transcript: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rounds = transcript.rounds
    X = np.array([r.x for r in rounds], dtype=float).reshape(len(rounds), -1)
    p = np.array([r.p for r in rounds], dtype=float)
    y = np.array([r.y for r in rounds], dtype=float)
    return X, p, y


def transcript_log_losses(transcript: Any) -> tuple[float, ...]:
    """The learner's log losses ``-log P(y_t)`` read from a label-game transcript's ``p_t``.

    For a learner predicting ``p_t = sigmoid(<w_t, x_t>)`` this is
    ``log(1 + exp(-y_t <w_t, x_t>))``; ``-log p_t`` if ``y_t = 1``, ``-log(1 - p_t)``
    otherwise.  The transcript keeps the float ``p_t`` only, so when ``p_t`` is within
    a few ulps of the wrong label's end the value carries an absolute error of about
    ``1e-16 / min(p_t, 1 - p_t)``.

    Examples
    --------
    >>> from mistakebound.game.transcript import Round, Transcript
    >>> T = Transcript(rounds=(Round(t=1, x=(1.0,), p=0.5, prediction=1, y=0),))
    >>> [round(v, 6) for v in transcript_log_losses(T)]
    [0.693147]
    """
    out = []
    for r in transcript.rounds:
        q = r.p if r.y == 1 else 1.0 - r.p  # the probability given to the true label
        # a p_t rounded to exactly the wrong end leaves nothing to recover: -log(0) = inf
        out.append(math.inf if q <= 0.0 else -math.log(r.p) if r.y == 1 else -math.log1p(-r.p))
    return tuple(out)


def comparator_log_losses(transcript: Any, u: Any) -> tuple[float, ...]:
    """``log(1 + exp(-y_t <u, x_t>))`` per round of a label-game transcript (``y`` in {-1, +1})."""
    X, _, y = _xs_ps_ys(transcript)
    margins = (2 * y - 1) * (X @ np.asarray(u, dtype=float)) if len(y) else np.zeros(0)
    return tuple(float(v) for v in np.logaddexp(0.0, -margins))


def log_loss_regret(transcript: Any, u: Any) -> float:
    """``sum_t logloss_t(w_t) - logloss_t(u)`` from a label-game transcript (``math.fsum``).

    Examples
    --------
    >>> from mistakebound.game.transcript import Round, Transcript
    >>> T = Transcript(rounds=(Round(t=1, x=(1.0,), p=0.5, prediction=1, y=1),))
    >>> log_loss_regret(T, [0.0])
    0.0
    """
    return math.fsum([*transcript_log_losses(transcript), *(-v for v in comparator_log_losses(transcript, u))])


def log_loss_gradient_norms_squared(transcript: Any) -> tuple[float, ...]:
    """``||v_t||^2 = ||x_t||^2 (p_t - y_t)^2``, the squared norms of the log-loss gradients at ``w_t``.

    The gradient of ``log(1 + exp(-s <w, x>))`` is ``-s x sigmoid(-s <w, x>)`` and
    ``sigmoid(-s <w_t, x_t>) = 1 - P(y_t) = |p_t - y_t|``.
    """
    X, p, y = _xs_ps_ys(transcript)
    return tuple(float(v) for v in (X * X).sum(axis=1) * (p - y) ** 2)
