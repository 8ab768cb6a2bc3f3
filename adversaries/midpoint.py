"""MidpointAdversary: thresholds on the line, the midpoint of the interval in doubt every round.

The figure of the Perceptron/Winnow lecture (seed 003, figure 5.2): on the real line
every deterministic learner can be made to err in every round of a realizable game,
so no mistake bound exists without a margin; with a margin the adversary must stop.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from attrs import define, field

from mistakebound.adversaries._forcing import forced_rounds, measure_for
from mistakebound.adversaries._labels import against
from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.foundations.validation import check_real, real_converter
from mistakebound.game.play import GameState
from mistakebound.game.players import Adversary
from mistakebound.game.spaces import LinearSpace, embed_bias
from mistakebound.verification.claims import Bound

__all__ = ["MidpointAdversary", "feasible", "threshold_for", "guaranteed_rounds"]

#: Where its forced count comes from.
SOURCE = (
    "the midpoint adversary on the line (Perceptron/Winnow lecture, seed 003, figure 5.2): a mistake of every "
    "deterministic learner in each round it plays, and it plays at least guaranteed_rounds(gamma) rounds"
)

#: The referee's relative tolerance on norms (the same as in :mod:`mistakebound.game.spaces`).
_TOL = 1e-9
#: Absolute slack (per unit of |a| + |b| + 1) a half-interval must keep beyond the margin,
#: so that rounding in the certificate never costs a round its margin.
_SLACK = 1e-12


def _slack(a: float, b: float) -> float:
    return _SLACK * (1.0 + abs(a) + abs(b))


def feasible(a: float, b: float, gamma: float | None) -> bool:
    """Whether some threshold separates "every 0-point <= a" from "every 1-point >= b" with margin ``gamma``.

    The threshold ``theta`` is the comparator ``u = (1, -theta)`` on the embedded points
    ``z = (x, 1)``; its normalised margin on ``(x, y)`` is
    ``y (x - theta) / sqrt(1 + theta^2)``.  Without a margin (``gamma`` None or 0) the
    test is that a float lies strictly between ``a`` and ``b``.  For ``0 < gamma < 1``
    it is ``a + gamma sqrt(a^2 + 1 - gamma^2) <= b - gamma sqrt(b^2 + 1 - gamma^2)``
    (exact; see :class:`MidpointAdversary`), here with a relative slack of ``1e-12`` kept
    for rounding.  For ``gamma >= 1`` it answers False (conservatively).

    Examples
    --------
    >>> feasible(-1.0, 1.0, 0.5), feasible(-0.1, 0.1, 0.5), feasible(0.0, 1e-300, None)
    (True, False, True)
    """
    if not gamma:
        return bool(np.nextafter(a, math.inf) < b)
    if gamma >= 1:
        return False
    g2 = 1.0 - gamma * gamma
    gap = (b - gamma * math.sqrt(b * b + g2)) - (a + gamma * math.sqrt(a * a + g2))
    return gap >= _slack(a, b)


def threshold_for(a: float, b: float, gamma: float | None) -> float:
    """The threshold the adversary reveals for the interval ``(a, b)``.

    Without a margin the midpoint (or the float next to ``a`` when the midpoint rounds
    onto an end).  With a margin ``0 < gamma < 1``, the middle of ``[theta_a, theta_b]``
    where ``theta_a = (a + gamma sqrt(a^2 + 1 - gamma^2)) / (1 - gamma^2)`` is the least
    threshold with margin ``gamma`` from ``a`` and
    ``theta_b = (b - gamma sqrt(b^2 + 1 - gamma^2)) / (1 - gamma^2)`` the greatest with
    margin ``gamma`` from ``b``.

    Examples
    --------
    >>> threshold_for(0.0, 1.0, None), threshold_for(-1.0, 1.0, 0.5)
    (0.5, 0.0)
    """
    if not gamma:
        theta = (a + b) / 2
        return theta if a < theta < b else float(np.nextafter(a, b))
    g2 = 1.0 - gamma * gamma
    theta_a = (a + gamma * math.sqrt(a * a + g2)) / g2
    theta_b = (b - gamma * math.sqrt(b * b + g2)) / g2
    return (theta_a + theta_b) / 2


def guaranteed_rounds(gamma: float | None, lo: float = -1.0, hi: float = 1.0) -> int:
    """A lower bound on the rounds (all mistakes) the adversary plays with margin ``gamma``.

    In round ``t`` the interval in doubt has width ``W / 2^(t-1)`` with ``W = hi - lo``
    and ends in ``[lo, hi]``, so each half has width ``W / 2^t`` and, with
    ``M = max(lo^2, hi^2)``, its test of :func:`feasible` passes whenever
    ``W / 2^t >= 2 gamma sqrt(M + 1 - gamma^2) + 1e-12 (1 + 2 sqrt(M))``.  The bound is
    the largest such ``t`` (0 if none), whatever the learner predicts, for
    ``0 < gamma < 1``; 0 for ``gamma >= 1``.  It grows like ``log2(1/gamma)``, far below
    ``(R/gamma)^2``.

    Without a margin (``gamma`` None or 0) only floating point stops it.  With ``u`` the
    spacing of the floats near ``max(|lo|, |hi|)``, a rounded midpoint is within ``u/2``
    of the true one, so the width ``w_t`` of round ``t`` is at least
    ``W / 2^(t-1) - u``, and round ``t`` is played when ``w_t >= 5u`` (each half then
    has a float inside): the bound is the largest ``t`` with ``W / 2^(t-1) >= 6u``,
    about 51 on ``(-1, 1)``.

    Examples
    --------
    >>> guaranteed_rounds(0.1), guaranteed_rounds(0.01), guaranteed_rounds(0.9)
    (2, 6, 0)
    >>> guaranteed_rounds(None), guaranteed_rounds(1.5)
    (51, 0)
    """
    gamma = check_real("gamma", gamma, minimum=0, optional=True)
    W = hi - lo
    if not gamma:
        u = math.ulp(max(abs(lo), abs(hi)))
        t = 0
        while W / 2.0**t >= 6 * u:
            t += 1
        return t
    if gamma >= 1:
        return 0
    M = max(lo * lo, hi * hi)
    c = 2 * gamma * math.sqrt(M + 1 - gamma * gamma) + _SLACK * (1 + 2 * math.sqrt(M))
    t = 0
    while W / 2 ** (t + 1) >= c:
        t += 1
    return t


@define
class MidpointAdversary(Adversary):
    """On the line, presents the midpoint of the thresholds still in doubt and answers against the prediction.

    Instances are reals ``x`` embedded as ``z = (x, 1)`` (:func:`~mistakebound.game.spaces.embed_bias`),
    so it plays on ``LinearSpace(2)``; the hypotheses are thresholds ``theta``, label 1
    for ``x > theta`` and 0 for ``x < theta``, that is the comparator
    ``u = (1, -theta)`` with ``<u, z> = x - theta``.  It keeps an interval ``(a, b)``,
    initially ``(lo, hi)``, with every point labelled 0 at most ``a`` and every point
    labelled 1 at least ``b``.  Each round it presents ``m = (a + b) / 2``, answers the
    label opposite to the learner's (likelier) prediction, and narrows the interval
    to ``(a, m)`` (label 1) or ``(m, b)`` (label 0).  When the game ends it reveals
    ``u = (1, -theta)`` with ``theta`` from :func:`threshold_for`.

    **How the margin is measured.**  ``LinearSpace(2, gamma=gamma)`` asks of the
    comparator ``y <u, z> >= gamma ||u||`` on every round, i.e. a normalised margin
    ``y (x - theta) / sqrt(1 + theta^2) >= gamma``: the Euclidean distance from the
    embedded point ``(x, 1)`` to the line through the origin normal to ``u``, not the
    distance ``|x - theta|`` on the line (larger by ``sqrt(1 + theta^2)``).

    **Stopping rule.**  Before presenting ``m`` it checks that both halves ``(a, m)``
    and ``(m, b)`` pass :func:`feasible`; if either fails it ends the game.  Without a
    margin the game ends only when floating point runs out (about 50 rounds on
    ``(-1, 1)``): every deterministic learner errs in every round, so no mistake bound
    holds (Ldim of thresholds on the reals is infinite).  With a margin it stops
    after about ``log2(1/gamma)`` rounds (at least :func:`guaranteed_rounds`).

    *Why every round stays certifiable.*  Let ``0 < gamma < 1`` and
    ``s(theta) = sqrt(1 + theta^2)``.  The function ``f(theta) = theta - gamma s(theta)``
    has derivative ``1 - gamma theta / s(theta) >= 1 - gamma > 0`` and runs from
    ``-inf`` to ``+inf``, so ``{theta : theta - a >= gamma s(theta)}`` is ``[theta_a, inf)``
    with ``theta_a`` its root, the larger root of
    ``(1 - gamma^2) theta^2 - 2 a theta + a^2 - gamma^2 = 0``, which is
    ``(a + gamma sqrt(a^2 + 1 - gamma^2)) / (1 - gamma^2)``; likewise
    ``g(theta) = theta + gamma s(theta)`` is increasing and
    ``{theta : b - theta >= gamma s(theta)} = (-inf, theta_b]`` with
    ``theta_b = (b - gamma sqrt(b^2 + 1 - gamma^2)) / (1 - gamma^2)``.  A threshold
    with margin ``gamma`` from both ends exists iff ``theta_a <= theta_b``, which is
    the inequality :func:`feasible` tests.  Invariant: after every round, every
    0-point is ``<= a``, every 1-point is ``>= b``, and ``(a, b)`` is feasible.  It
    holds after round 1 and is kept, because the adversary presents ``m`` only when
    both ``(a, m)`` and ``(m, b)`` are feasible, so whichever label it gives, the new
    interval is feasible and the new point is its end.  For ``theta`` in
    ``[theta_a, theta_b]`` a 0-point ``x <= a`` has ``theta - x >= theta - a >= gamma s(theta)``
    and a 1-point ``x >= b`` has ``x - theta >= b - theta >= gamma s(theta)``, so the
    revealed ``u = (1, -theta)`` certifies every round (with ``1e-12`` to spare against
    rounding).  Without a margin the same argument needs only ``a < theta < b``, and
    ``<u, z> = x - theta`` is computed with the right sign in floating point.  For
    ``gamma >= 1`` it presents nothing.

    Parameters
    ----------
    lo, hi : float
        The initial interval of thresholds (``lo < hi``); every instance lies inside
        it, so the space's radius must be at least ``sqrt(1 + max(lo^2, hi^2))``.

    Examples
    --------
    >>> from mistakebound import play
    >>> from mistakebound.learners.perceptron import Perceptron
    >>> T = play(Perceptron(), MidpointAdversary(), LinearSpace(2), rounds=30, seed=0)
    >>> T.mistakes, [x for x, _ in T.xs[:3]]
    (30, [0.0, 0.5, 0.25])
    >>> S = LinearSpace(2, R=2 ** 0.5, gamma=0.05)
    >>> T = play(Perceptron(), MidpointAdversary(), S, rounds=100, seed=0)
    >>> len(T) == T.mistakes >= guaranteed_rounds(0.05), T.mistakes <= (S.R / S.gamma) ** 2
    (True, True)
    """

    lo: float = field(default=-1.0, converter=real_converter("lo"))
    hi: float = field(default=1.0, converter=real_converter("hi"))
    _a: float = field(init=False, default=0.0, repr=False)
    _b: float = field(init=False, default=0.0, repr=False)
    _m: float | None = field(init=False, default=None, repr=False)

    def __attrs_post_init__(self) -> None:
        if not self.lo < self.hi:
            raise InvalidArgumentError(f"hi: expected a number > lo = {self.lo:g}, got {self.hi!r}")
        self._a, self._b = self.lo, self.hi

    @property
    def radius(self) -> float:
        """``sqrt(1 + max(lo^2, hi^2))``: a bound on the norm of every embedded instance."""
        return math.sqrt(1.0 + max(self.lo**2, self.hi**2))

    @property
    def interval(self) -> tuple[float, float]:
        """The interval ``(a, b)`` of thresholds still in doubt."""
        return self._a, self._b

    def applies_to(self, H: Any) -> bool:
        """On ``LinearSpace(2)`` whose radius (if any) holds every embedded instance."""
        return isinstance(H, LinearSpace) and H.d == 2 and (H.R is None or self.radius <= H.R * (1 + _TOL))

    def start(self, state: GameState) -> None:
        self._a, self._b, self._m = self.lo, self.hi, None

    def next_instance(self, state: GameState) -> Any:
        gamma = state.H.gamma
        a, b = self._a, self._b
        m = (a + b) / 2
        if not (a < m < b and feasible(a, m, gamma) and feasible(m, b, gamma)):
            return None
        self._m = m
        return embed_bias([m])

    def label(self, state: GameState, x: Any, p: float) -> int:
        y = against(p)
        if y == 1:
            self._b = self._m
        else:
            self._a = self._m
        return y

    def forces(self, setting: Any, *, learner: Any, rounds: int | None = None, realizable: bool = True) -> Bound:
        """:func:`guaranteed_rounds` mistakes on every deterministic learner (half, in expectation, on a randomized one).

        With a margin ``0 < gamma < 1`` it plays at least ``guaranteed_rounds(gamma)``
        rounds; without one, until floating point runs out (at least
        ``guaranteed_rounds(None)``, capped by the horizon): no mistake bound holds there.

        Returns
        -------
        Bound
            None with the reason on a setting it does not apply to.

        Examples
        --------
        >>> from mistakebound.learners.perceptron import Perceptron
        >>> MidpointAdversary().forces(LinearSpace(2), learner=Perceptron(), rounds=40).value
        40
        >>> MidpointAdversary().forces(LinearSpace(2, R=2 ** 0.5, gamma=0.01), learner=Perceptron()).value
        6
        """
        if not self.applies_to(setting):
            return Bound.none(f"MidpointAdversary plays on LinearSpace(2) with a radius of at least "
                              f"{self.radius:g} (or none)", measure=measure_for(learner, realizable, True))
        count = guaranteed_rounds(setting.gamma, self.lo, self.hi)
        return forced_rounds(count, learner=learner, rounds=rounds, realizable=realizable, source=SOURCE,
                             assumptions=(f"margin gamma = {setting.gamma or 0:g}",))

    def certificate(self, state: GameState) -> np.ndarray | None:
        """``u = (1, -theta)`` for the final interval (None before round 1)."""
        if not state.history:
            return None
        return np.array([1.0, -threshold_for(self._a, self._b, state.H.gamma)])
