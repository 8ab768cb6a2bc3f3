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
>>> R.best_fixed_regret() <= ogd.bound(OCOSetting(1, radius=1.0), transcript=R).value <= lipschitz_regret_bound(1.0, 1.0, T)
True
>>> F = play_oco(FollowTheLeader(1, radius=1.0), AlternatingLosses(), d=1, rounds=T, seed=0, radius=1.0)
>>> F.values[:4], F.best_fixed_regret()
((0.0, 1.0, 1.0, 1.0), 99.5)
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from attrs import define, field

from mistakebound.foundations.errors import NotApplicableError
from mistakebound.foundations.validation import check_int, check_real, integer_converter, real_converter
from mistakebound.game.oco import LinearLoss, OCOLearner, OCOSetting, project_to_ball, sigmoid
from mistakebound.game.players import Learner
from mistakebound.game.spaces import LinearSpace
from mistakebound.learners._setting import describe_setting, need_rounds, not_applicable, vector_length
from mistakebound.verification.claims import Bound

__all__ = [
    "OnlineGradientDescent",
    "FollowTheLeader",
    "OnlineLogisticRegression",
    "ogd_regret_bound",
    "ogd_unit_rate_regret_bound",
    "lipschitz_regret_bound",
    "transcript_log_losses",
    "comparator_log_losses",
    "log_loss_regret",
    "log_loss_gradient_norms_squared",
]

#: The theorem behind :class:`OnlineGradientDescent`'s claim.
OGD_SOURCE = (
    "Theorem 21.15 (textbook ch. 21, seeds/000): Regret(w*) <= ||w*||^2/(2 eta) + (eta/2) sum ||v_t||^2 "
    "for every w* of the ball, <= B^2/(2 eta) + (eta/2) sum ||v_t||^2"
)
#: The theorem behind :class:`OnlineLogisticRegression`'s claim.
LOGISTIC_SOURCE = (
    "Theorem 21.15 (seeds/000) for OGD on the log loss (seeds/004 Sec. 2.1), and |p - y| <= -ln(1 - |p - y|): "
    "E[mistakes] <= sum_t logloss_t(u) + ||u||^2/(2 eta) + (eta/2) sum_t ||x_t||^2 (p_t - y_t)^2"
)

_positive_real = {"minimum": 0, "open_minimum": True}


def _read_only(v: np.ndarray) -> np.ndarray:
    out = np.array(v, dtype=float, copy=True)
    out.setflags(write=False)
    return out


def ogd_regret_bound(*, eta: float, comparator_norm: float, sum_squared_gradients: float) -> float:
    """``||w*||^2 / (2 eta) + (eta / 2) sum_t ||v_t||^2``: Theorem 21.15 (``seeds/000``).

    Holds for Online Gradient Descent from ``w_1 = 0`` (projected or not), for every
    ``w*`` in the feasible set, the ``v_t`` being the subgradients the algorithm used
    (``OCOTranscript.sum_squared_gradients``; on the log loss,
    :func:`log_loss_gradient_norms_squared`).

    Examples
    --------
    >>> ogd_regret_bound(eta=0.5, comparator_norm=1.0, sum_squared_gradients=4.0)
    2.0
    """
    eta = check_real("eta", eta, **_positive_real)
    comparator_norm = check_real("comparator_norm", comparator_norm, minimum=0)
    sum_squared_gradients = check_real("sum_squared_gradients", sum_squared_gradients, minimum=0)
    return comparator_norm**2 / (2 * eta) + eta / 2 * sum_squared_gradients


def ogd_unit_rate_regret_bound(comparator_norm: float, rho: float, T: int) -> float:
    """``(||w*||^2 + rho^2) sqrt(T) / 2``: OGD with ``eta = 1/sqrt(T)`` and ``rho``-Lipschitz losses (Theorem 21.15).

    Examples
    --------
    >>> ogd_unit_rate_regret_bound(1.0, 1.0, 16)
    4.0
    """
    comparator_norm = check_real("comparator_norm", comparator_norm, minimum=0)
    rho = check_real("rho", rho, minimum=0)
    T = check_int("T", T, 0)
    return (comparator_norm**2 + rho**2) * math.sqrt(T) / 2


def lipschitz_regret_bound(radius: float, rho: float, T: int) -> float:
    """``B rho sqrt(T)``: OGD with ``eta = B/(rho sqrt T)`` on a ``B``-bounded set, ``rho``-Lipschitz losses.

    Theorem 21.15 (``seeds/000``); the same ``R L sqrt(T)`` in ``seeds/004``
    (projected gradient, Section 3.2).  On the log loss, which is ``||x||``-Lipschitz,
    ``rho = R`` for instances of norm at most ``R``.

    Examples
    --------
    >>> lipschitz_regret_bound(2.0, 0.5, 100)
    10.0
    """
    radius = check_real("radius", radius, minimum=0)
    rho = check_real("rho", rho, minimum=0)
    T = check_int("T", T, 0)
    return radius * rho * math.sqrt(T)


def _oco_problem(name: str, d: int, radius: float | None, setting: Any) -> str:
    """Why the learner's regret bound does not apply to a game on ``setting`` (``""`` when it does)."""
    if not isinstance(setting, OCOSetting):
        return f"{name} plays the online convex optimisation game (an OCOSetting); got {describe_setting(setting)}"
    if setting.d != d:
        return f"{name} was built for d = {d}; the game has d = {setting.d}"
    if setting.radius != radius:
        return (f"{name} was built for the ball of radius {radius}; the game's feasible set has radius "
                f"{setting.radius}")
    return ""


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
    (:func:`ogd_regret_bound`); with ``rho``-Lipschitz losses and ``eta = 1/sqrt(T)``,
    ``<= (||w*||^2 + rho^2) sqrt(T) / 2`` (:func:`ogd_unit_rate_regret_bound`); on the
    ball of radius ``B`` with ``eta = B/(rho sqrt T)`` (:meth:`tuned`), the regret
    against the whole ball is ``<= B rho sqrt(T)`` (:func:`lipschitz_regret_bound`).
    :meth:`bound` states the first, with ``||w*|| <= B``, from the game's transcript.
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

    d: int = field(converter=integer_converter("d", 1))
    eta: float = field(converter=real_converter("eta", **_positive_real))
    radius: float | None = field(default=None, converter=real_converter("radius", optional=True, **_positive_real))
    _w: np.ndarray = field(init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        self._w = np.zeros(self.d)

    @classmethod
    def tuned(cls, d: int, *, radius: float, rho: float, T: int) -> OnlineGradientDescent:
        """OGD on the ball of ``radius`` ``B`` with the step ``eta = B / (rho sqrt(T))`` of Theorem 21.15."""
        return cls(d, eta=cls.tuned_eta(radius, rho, T), radius=radius)

    @staticmethod
    def tuned_eta(radius: float, rho: float, T: int) -> float:
        """``B / (rho sqrt(T))`` (Theorem 21.15, ``seeds/000``; ``R/(L sqrt T)`` in ``seeds/004``)."""
        return check_real("radius", radius, **_positive_real) / (
            check_real("rho", rho, **_positive_real) * math.sqrt(check_real("T", T, **_positive_real))
        )

    @property
    def weights(self) -> np.ndarray:
        """The current point ``w_t`` (read-only copy)."""
        return _read_only(self._w)

    def predict_point(self) -> np.ndarray:
        return _read_only(self._w)

    def learn_loss(self, loss: Any) -> None:
        v = np.asarray(loss.gradient(_read_only(self._w)), dtype=float)
        self._w = project_to_ball(self._w - self.eta * v, self.radius)

    @classmethod
    def for_setting(cls, setting: Any, *, rounds: int | None = None) -> OnlineGradientDescent:
        """OGD tuned for a game of ``rounds`` rounds on ``setting``, for 1-Lipschitz losses.

        On a ball of radius ``B``: :meth:`tuned` with ``rho = 1``, ``eta = B / sqrt(T)``;
        on unconstrained R^d: ``eta = 1 / sqrt(T)``.  (The step is tuned for losses of
        Lipschitz constant 1; :meth:`bound` reads the gradients from the transcript, so
        its claim holds whatever the losses.)

        Raises
        ------
        NotApplicableError
            If ``setting`` is not an :class:`~mistakebound.game.oco.OCOSetting`.
        InvalidArgumentError
            If ``rounds`` is missing.

        Examples
        --------
        >>> OnlineGradientDescent.for_setting(OCOSetting(2, radius=3.0), rounds=9)
        OnlineGradientDescent(d=2, eta=1.0, radius=3.0)
        """
        if not isinstance(setting, OCOSetting):
            raise not_applicable(cls.__name__, setting, "the online convex optimisation game (an OCOSetting)")
        if rounds is None:
            raise need_rounds(cls.__name__, rounds)
        T = check_int("rounds", rounds, 1)
        if setting.radius is None:
            return cls(setting.d, eta=1 / math.sqrt(T))
        return cls.tuned(setting.d, radius=setting.radius, rho=1.0, T=T)

    def bound(self, setting: Any, *, rounds: int | None = None, realizable: bool = True,
              transcript: Any = None) -> Bound:
        """``B^2 / (2 eta) + (eta/2) sum_t ||v_t||^2`` on the regret against every point of the ball (Thm 21.15).

        ``B`` is the radius of the feasible ball (the learner's and the game's) and the
        ``v_t`` the subgradients of the finished game (``transcript.sum_squared_gradients``);
        with ``rho``-Lipschitz losses and the tuned step it is at most ``B rho sqrt(T)``.

        Returns
        -------
        Bound
            On ``"regret"``; none with the reason without the transcript, on an
            unconstrained game (the regret against the best point is unbounded there),
            or when the setting is not the learner's.

        Examples
        --------
        >>> from mistakebound.game.oco import FixedLosses, play_oco
        >>> ogd = OnlineGradientDescent(1, eta=0.5, radius=1.0)
        >>> T = play_oco(ogd, FixedLosses([LinearLoss([1.0])] * 4), d=1, rounds=4, seed=0, radius=1.0)
        >>> ogd.bound(OCOSetting(1, radius=1.0), transcript=T).value     # 1/(2 * 0.5) + 0.25 * 4
        2.0
        >>> ogd.bound(OCOSetting(1, radius=1.0)).reason
        "Theorem 21.15's bound depends on the game's gradients: pass the finished game's transcript"
        """
        problem = _oco_problem(type(self).__name__, self.d, self.radius, setting)
        if problem:
            return Bound.none(problem, measure="regret")
        if self.radius is None:
            return Bound.none("on unconstrained R^d the regret against the best point is unbounded; Theorem 21.15 "
                              "bounds the regret against each point u (ogd_regret_bound): play on a ball",
                              measure="regret")
        if transcript is None:
            return Bound.none("Theorem 21.15's bound depends on the game's gradients: pass the finished game's "
                              "transcript", measure="regret")
        value = ogd_regret_bound(eta=self.eta, comparator_norm=self.radius,
                                 sum_squared_gradients=transcript.sum_squared_gradients)
        return Bound(value, "regret", OGD_SOURCE, ("every comparator in the ball of radius B", "w_1 = 0"))


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

    d: int = field(converter=integer_converter("d", 1))
    radius: float = field(converter=real_converter("radius", **_positive_real))
    _Z: np.ndarray = field(init=False, repr=False)

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

    @classmethod
    def for_setting(cls, setting: Any, *, rounds: int | None = None) -> FollowTheLeader:
        """``FollowTheLeader(d, radius)`` for a game on the ball of an :class:`~mistakebound.game.oco.OCOSetting`.

        Raises
        ------
        NotApplicableError
            If ``setting`` is not an ``OCOSetting`` with a radius (over unconstrained R^d
            the leader of linear losses does not exist).
        """
        if not isinstance(setting, OCOSetting):
            raise not_applicable(cls.__name__, setting, "the online convex optimisation game (an OCOSetting)")
        if setting.radius is None:
            raise NotApplicableError(f"{cls.__name__} needs a bounded feasible set: over unconstrained R^d the "
                                     f"leader of linear losses does not exist; got {setting.describe()}")
        return cls(setting.d, setting.radius)

    def bound(self, setting: Any, *, rounds: int | None = None, realizable: bool = True,
              transcript: Any = None) -> Bound:
        """None: Follow-the-Leader has no sublinear regret bound (seeds/004, Section 3.1).

        Examples
        --------
        >>> FollowTheLeader(1, radius=1.0).bound(OCOSetting(1, radius=1.0)).reason
        'Follow-the-Leader has no sublinear regret bound: the alternating losses (AlternatingLosses) force regret >= (T - 1) B (seeds/004, Section 3.1)'
        """
        return Bound.none("Follow-the-Leader has no sublinear regret bound: the alternating losses "
                          "(AlternatingLosses) force regret >= (T - 1) B (seeds/004, Section 3.1)", measure="regret")


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
    ||v_t||^2`` with ``||v_t|| = ||x_t|| |p_t - y_t|`` (:func:`ogd_regret_bound`), and
    ``<= B R sqrt(T)`` with ``eta = B/(R sqrt T)`` when ``||x_t|| <= R``
    (:func:`lipschitz_regret_bound`).  Both are checked on transcripts with
    :func:`log_loss_regret` and :func:`log_loss_gradient_norms_squared`, which read
    only ``p_t``, ``x_t`` and ``y_t``.  The log-loss regret is not a measure of the
    label game; :meth:`bound` turns it into a bound on the expected mistakes.

    Examples
    --------
    >>> L = OnlineLogisticRegression(2, eta=1.0)
    >>> L.predict_proba_one([1.0, 0.0])
    0.5
    >>> L.learn_one([1.0, 0.0], 1)
    >>> L.weights.tolist()
    [0.5, 0.0]
    """

    d: int = field(converter=integer_converter("d", 1))
    eta: float = field(converter=real_converter("eta", **_positive_real))
    radius: float | None = field(default=None, converter=real_converter("radius", optional=True, **_positive_real))
    _w: np.ndarray = field(init=False, repr=False)

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

    @classmethod
    def for_setting(cls, setting: Any, *, rounds: int | None = None) -> OnlineLogisticRegression:
        """:meth:`tuned` for a game of ``rounds`` rounds on a ``LinearSpace``: ball of radius 1, ``R`` of the space.

        ``eta = 1 / (R sqrt(T))`` with ``R`` the space's radius (1 when it has none).

        Raises
        ------
        NotApplicableError
            If ``setting`` is not a :class:`~mistakebound.game.spaces.LinearSpace`.
        InvalidArgumentError
            If ``rounds`` is missing.

        Examples
        --------
        >>> OnlineLogisticRegression.for_setting(LinearSpace(2, R=2.0), rounds=4)
        OnlineLogisticRegression(d=2, eta=0.25, radius=1.0)
        """
        if not isinstance(setting, LinearSpace):
            raise not_applicable(cls.__name__, setting, "halfspaces (a LinearSpace)")
        if rounds is None:
            raise need_rounds(cls.__name__, rounds)
        R = 1.0 if setting.R is None else setting.R
        return cls.tuned(setting.d, radius=1.0, R=R, T=check_int("rounds", rounds, 1))

    def bound(self, setting: Any, *, rounds: int | None = None, realizable: bool = True,
              transcript: Any = None) -> Bound:
        """A bound on its expected mistakes from Theorem 21.15 on the log loss, read off the finished game.

        A mistake's probability is at most the log loss: ``|p - y| <= -ln(1 - |p - y|)``;
        and the log-loss regret against any ``u`` of the feasible ball is at most
        ``||u||^2/(2 eta) + (eta/2) sum_t ||v_t||^2`` (Theorem 21.15, the ``v_t`` from
        :func:`log_loss_gradient_norms_squared`).  So the expected mistakes are at most
        ``sum_t logloss_t(u) + ||u||^2/(2 eta) + (eta/2) sum_t ||v_t||^2`` for every such
        ``u``; the bound takes the best ``u`` along the transcript's comparator (scaled
        within the ball; ``u = 0`` when it carries none), the minimum over a fixed grid
        of scales.  It holds in realizable and unrealizable games alike.

        Returns
        -------
        Bound
            On ``"expected mistakes"``; none with the reason without the transcript or
            on a setting whose instances are not vectors of length ``d``.

        Examples
        --------
        >>> from mistakebound.game.transcript import Round, Transcript
        >>> L = OnlineLogisticRegression(1, eta=1.0)
        >>> T = Transcript(rounds=(Round(t=1, x=(1.0,), p=0.5, prediction=1, y=0),))
        >>> round(L.bound(LinearSpace(1), transcript=T).value, 6)   # u = 0: ln 2 + (1/2) (1/4)
        0.818147
        """
        if vector_length(setting) != self.d:
            return Bound.none(f"{type(self).__name__} plays on vectors of length d = {self.d}; the game is on "
                              f"{describe_setting(setting)}", measure="expected mistakes")
        if transcript is None:
            return Bound.none("the bound depends on the game (its gradients and a comparator's log loss): pass the "
                              "finished game's transcript", measure="expected mistakes")
        sq = math.fsum(log_loss_gradient_norms_squared(transcript))
        best = math.inf
        for u in _comparators(transcript, self.d, self.radius):
            value = math.fsum(comparator_log_losses(transcript, u)) + ogd_regret_bound(
                eta=self.eta, comparator_norm=float(np.linalg.norm(u)), sum_squared_gradients=sq)
            best = min(best, value)
        return Bound(best, "expected mistakes", LOGISTIC_SOURCE,
                     ("u along the transcript's comparator, within the ball of radius B",))


def _comparators(transcript: Any, d: int, radius: float | None) -> list[np.ndarray]:
    """``u = 0`` and the transcript's comparator direction scaled by a fixed grid of norms (at most ``radius``)."""
    out = [np.zeros(d)]
    comparator = getattr(transcript, "comparator", None)
    if comparator is None:
        return out
    u = np.asarray(comparator, dtype=float).reshape(-1)
    norm = float(np.linalg.norm(u))
    if u.shape != (d,) or not norm > 0:
        return out
    top = 64.0 if radius is None else radius
    out.extend(u / norm * top * 2.0 ** (-j / 4) for j in range(0, 61))
    return out


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
