"""RandomizedLinearClassifier: FTRL with an increasing regulariser on a randomized surrogate loss."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from attrs import define, field
from attrs.validators import in_

from mistakebound.foundations.validation import check_int, integer_converter, real_converter
from mistakebound.game.players import Learner
from mistakebound.game.spaces import LinearSpace
from mistakebound.learners._setting import describe_setting, not_applicable
from mistakebound.verification.claims import Bound

__all__ = ["RandomizedLinearClassifier", "randomized_linear_regret_bound"]

#: The theorem behind the learner's claim.
SOURCE = (
    "Theorem 1 (seeds/002, Online Linear Classification): expected regret <= sqrt(2T) against every "
    "||u|| <= 1/R, FTRL with psi_t = (sqrt(2t)/4)||x||^2; so E[mistakes] <= sqrt(2T) + sum_t (1/2)|<z_t, u> - y_t|"
)

#: Relative slack on ``||z_t|| <= R`` (the referee's tolerance on norms).
_TOL = 1e-9


def randomized_linear_regret_bound(T: int) -> float:
    """``sqrt(2T)``: Theorem 1 of ``seeds/002`` (expected regret against every ``||u|| <= 1/R``).

    Holds for the text's regulariser only for ``R`` in about ``[0.5176, 1.9319]``, and
    for ``regularizer="scaled"`` for every ``R`` (see :class:`RandomizedLinearClassifier`).

    Examples
    --------
    >>> randomized_linear_regret_bound(8)
    4.0
    """
    return math.sqrt(2 * check_int("T", T, 0))


@define
class RandomizedLinearClassifier(Learner):
    """The randomized online linear classifier of "Online Linear Classification" (``seeds/002``, Thm 1).

    The game: instances ``z_t`` with ``||z_t|| <= R`` (play it on
    ``LinearSpace(d, R=R)``), labels ``y_t`` in {-1, +1} (engine label 1 is ``+1``).
    The learner keeps ``x_t`` in the feasible ball ``V = {x : ||x|| <= 1/R}`` and
    predicts ``+1`` with probability ``p_t = (1 + <z_t, x_t>) / 2``
    (:meth:`predict_proba_one`; the engine draws the label).

    **The correspondence with the 0/1 engine.**  With ``q_t = <z_t, x_t>`` in [-1, 1]
    and the engine's label ``b_t = (y_t + 1) / 2``, the expected mistake the engine
    records is ``|p_t - b_t| = |(1 + q_t)/2 - (1 + y_t)/2| = |q_t - y_t| / 2``, exactly
    the surrogate loss ``l_t(x_t) = (1/2)|<z_t, x_t> - y_t|`` of the text.  A comparator
    ``u`` with ``||u|| <= 1/R``, played the same randomized way, errs in expectation
    ``(1/2)|<z_t, u> - y_t|``.  So the expected regret of Theorem 1 is
    ``Transcript.expected_mistakes - sum_t (1/2)|<z_t, u> - y_t|``, exact.

    **FTRL, exactly.**  On ``V``, ``|<z, x>| <= ||z|| ||x|| <= 1``, so the surrogate
    loss is linear there: ``l_t(x) = (1/2)(1 - y_t <z_t, x>)``, with gradient
    ``g_t = -(y_t/2) z_t``.  FTRL with regulariser ``psi_t`` plays
    ``x_t = argmin_{x in V} psi_t(x) + sum_{s<t} l_s(x)``.  With
    ``psi_t(x) = c_t ||x||^2`` and ``theta_t = (1/2) sum_{s<t} y_s z_s`` the objective
    is ``c_t ||x||^2 - <theta_t, x> + const = c_t ||x - theta_t/(2 c_t)||^2 + const``,
    whose minimiser over the ball is the Euclidean projection of ``theta_t/(2 c_t)``:
    ``x_t = theta_t min(1/(2 c_t), 1/(R ||theta_t||))``.  The text's regulariser is
    ``psi_t(x) = (sqrt(2t)/4) ||x||^2``, so ``1/(2 c_t) = sqrt(2)/sqrt(t) = eta_t``, the
    ``eta_t`` the theorem names; ``x_1 = 0`` and ``p_1 = 1/2``.

    **The regulariser's scale (a finding).**  The text's ``psi_t`` does not depend on
    ``R``.  The FTRL bound with increasing regularisers gives
    ``Regret(u) <= c_T ||u||^2 + sum_t ||g_t||^2 / (4 c_t)`` (:meth:`ftrl_regret_bound`),
    which for the text's ``c_t`` and ``||u|| <= 1/R``, ``||z_t|| <= R`` is at most
    ``(sqrt(2T)/4)(R^-2 + R^2)``: below ``sqrt(2T)`` only when
    ``R^2 + R^-2 <= 4`` (about ``0.518 <= R <= 1.932``).  Far from ``R = 1`` the
    theorem as stated fails (``tests/test_randomized_linear.py`` ships sequences with
    ``R = 10`` and ``R = 0.1`` whose regret exceeds ``sqrt(2T)``).  The default
    ``regularizer="text"`` is the text's algorithm; ``regularizer="scaled"`` uses
    ``c_t = R^2 sqrt(2t)/4`` (``eta_t = sqrt(2)/(R^2 sqrt t)``), identical at ``R = 1``,
    for which the FTRL bound is ``<= sqrt(2T)/2 <= sqrt(2T)`` for every ``R``.

    Parameters
    ----------
    d : int
    R : float
        The bound on ``||z_t||``; the feasible ball has radius ``1/R``.
    regularizer : {"text", "scaled"}
        ``"text"``: ``psi_t = (sqrt(2t)/4)||x||^2`` as in ``seeds/002``; ``"scaled"``:
        ``psi_t = (R^2 sqrt(2t)/4)||x||^2``.

    Examples
    --------
    >>> L = RandomizedLinearClassifier(2, R=1.0)
    >>> L.predict_proba_one([1.0, 0.0])
    0.5
    >>> L.learn_one([0.5, 0.0], 1)       # theta_2 = (0.25, 0); x_2 = sqrt(2)/sqrt(2) theta_2
    >>> L.weights.tolist(), L.predict_proba_one([1.0, 0.0])
    ([0.25, 0.0], 0.625)
    >>> round(randomized_linear_regret_bound(50), 12)
    10.0
    """

    d: int = field(converter=integer_converter("d", 1))
    R: float = field(converter=real_converter("R", minimum=0, open_minimum=True))
    regularizer: str = field(default="text", validator=in_(("text", "scaled")))
    _theta: np.ndarray = field(init=False, repr=False)
    _t: int = field(init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        self._theta = np.zeros(self.d)
        self._t = 1

    @property
    def t(self) -> int:
        """The round about to be played (1-based)."""
        return self._t

    def c(self, t: int) -> float:
        """The coefficient ``c_t`` of ``psi_t(x) = c_t ||x||^2``."""
        base = math.sqrt(2 * t) / 4
        return base if self.regularizer == "text" else self.R**2 * base

    def eta(self, t: int) -> float:
        """``eta_t = 1 / (2 c_t)``: ``sqrt(2)/sqrt(t)`` for the text's regulariser."""
        return 1.0 / (2.0 * self.c(t))

    @property
    def weights(self) -> np.ndarray:
        """``x_t``: the FTRL point of the current round (closed form, see the class docstring)."""
        theta = self._theta
        norm = float(np.linalg.norm(theta))
        if norm == 0:
            x = np.zeros(self.d)
        else:
            x = theta * min(self.eta(self._t), 1.0 / (self.R * norm))
        x.setflags(write=False)
        return x

    def predict_proba_one(self, z: Any) -> float:
        q = float(np.dot(np.asarray(z, dtype=float), self.weights))
        return min(1.0, max(0.0, (1.0 + q) / 2.0))  # clip only rounding: |q| <= 1 on the feasible ball

    def learn_one(self, z: Any, y: int) -> None:
        self._theta = self._theta + 0.5 * (2 * int(y) - 1) * np.asarray(z, dtype=float)
        self._t += 1

    @classmethod
    def for_setting(cls, setting: Any, *, rounds: int | None = None) -> RandomizedLinearClassifier:
        """``RandomizedLinearClassifier(d, R)`` with the space's ``d`` and radius (``R = 1`` when it has none).

        Raises
        ------
        NotApplicableError
            If ``setting`` is not a :class:`~mistakebound.game.spaces.LinearSpace`.

        Examples
        --------
        >>> RandomizedLinearClassifier.for_setting(LinearSpace(3, R=2.0))
        RandomizedLinearClassifier(d=3, R=2.0, regularizer='text')
        """
        if not isinstance(setting, LinearSpace):
            raise not_applicable(cls.__name__, setting, "halfspaces (a LinearSpace)")
        return cls(setting.d, R=1.0 if setting.R is None else setting.R)

    def bound(self, setting: Any, *, rounds: int | None = None, realizable: bool = True,
              transcript: Any = None) -> Bound:
        """Theorem 1 as a bound on the expected mistakes: ``sqrt(2T) + sum_t (1/2)|<z_t, u> - y_t|``.

        For every ``||u|| <= 1/R`` the expected regret against ``u`` is at most
        ``sqrt(2T)``, so the expected mistakes are at most ``sqrt(2T)`` plus ``u``'s own
        expected mistakes.  With the finished game's transcript ``T`` is its length and
        ``u`` the best of ``0`` and the transcript's comparator scaled to ``+-1/R`` (the
        comparator's term is linear in that scale); without it, in a realizable game on a
        space with a margin ``gamma``, ``u`` is the separating unit vector over ``R`` and
        each round costs it at most ``(1 - gamma/R)/2``.  This is the theorem as stated,
        which fails for the text's regulariser far from ``R = 1`` (a finding: see the
        class docstring).

        Returns
        -------
        Bound
            On ``"expected mistakes"``; none with the reason on another setting, when the
            instances may be longer than ``R``, or when neither a transcript nor a margin
            and the rounds are given.

        Examples
        --------
        >>> L = RandomizedLinearClassifier(2, R=1.0)
        >>> L.bound(LinearSpace(2, R=1.0, gamma=0.5), rounds=8).value   # sqrt(16) + 8 (1 - 0.5)/2
        6.0
        >>> L.bound(LinearSpace(2), rounds=8).reason
        'Theorem 1 needs ||z_t|| <= R = 1: give the space a radius at most 1'
        """
        measure = "expected mistakes"
        if not isinstance(setting, LinearSpace) or setting.d != self.d:
            return Bound.none(f"{type(self).__name__} plays on LinearSpace(d={self.d}); the game is on "
                              f"{describe_setting(setting)}", measure=measure)
        radius = setting.R if setting.R is not None else getattr(transcript, "R", None)
        if radius is None or radius > self.R * (1 + _TOL):
            return Bound.none(f"Theorem 1 needs ||z_t|| <= R = {self.R:g}: give the space a radius at most "
                              f"{self.R:g}", measure=measure)
        if transcript is not None:
            n = len(transcript)
            best = min(self.comparator_expected_mistakes(transcript, u) for u in self._comparators(transcript))
            return Bound(randomized_linear_regret_bound(n) + best, measure, SOURCE,
                         ("||z_t|| <= R", "u = 0 or the transcript's comparator scaled to norm 1/R"))
        if realizable and setting.gamma and rounds is not None:
            n = check_int("rounds", rounds, 0)
            per_round = max(0.0, 1.0 - setting.gamma / self.R) / 2
            return Bound(randomized_linear_regret_bound(n) + n * per_round, measure, SOURCE,
                         ("||z_t|| <= R", "realizable with margin gamma", "at most T rounds"))
        return Bound.none("the bound needs a comparator's expected mistakes: pass the finished game's transcript "
                          "(or, in a realizable game, a space with a margin and the rounds)", measure=measure)

    def _comparators(self, transcript: Any) -> list[np.ndarray]:
        out = [np.zeros(self.d)]
        comparator = getattr(transcript, "comparator", None)
        if comparator is not None:
            u = np.asarray(comparator, dtype=float).reshape(-1)
            norm = float(np.linalg.norm(u))
            if u.shape == (self.d,) and norm > 0:
                out += [u / (norm * self.R), -u / (norm * self.R)]
        return out

    def ftrl_regret_bound(self, zs: Any, comparator_norm: float) -> float:
        """``c_T ||u||^2 + sum_t ||z_t||^2 / (16 c_t)``: the FTRL bound behind Theorem 1's proof.

        FTRL with increasing regularisers ``psi_t`` (``psi_t`` ``2 c_t``-strongly convex,
        ``min psi_1 = 0``, and ``psi_{T+1} = psi_T`` since ``x_{T+1}`` is never played)
        has ``Regret(u) <= psi_T(u) + sum_t ||g_t||^2 / (2 * 2 c_t)``; here
        ``||g_t|| = ||z_t|| / 2``.  This is the "FTRL regret bound with the chosen
        increasing regulariser" the proof of Theorem 1 (``seeds/002``) invokes, written
        out (the lemma is standard, e.g. Orabona's lecture notes, Corollary 7.9).

        Parameters
        ----------
        zs : sequence of vectors
            The instances ``z_1 .. z_T``.
        comparator_norm : float
            ``||u||``.
        """
        Z = np.asarray(zs, dtype=float).reshape(-1, self.d) if len(zs) else np.zeros((0, self.d))
        T = Z.shape[0]
        if T == 0:
            return 0.0
        sq = (Z * Z).sum(axis=1)
        return math.fsum([self.c(T) * comparator_norm**2, *(sq[t - 1] / (16 * self.c(t)) for t in range(1, T + 1))])

    def comparator_expected_mistakes(self, transcript: Any, u: Any) -> float:
        """``sum_t (1/2)|<z_t, u> - y_t|`` (``y`` in {-1, +1}): the comparator's expected mistakes."""
        u = np.asarray(u, dtype=float)
        return math.fsum(0.5 * abs(float(np.dot(r.x, u)) - (2 * r.y - 1)) for r in transcript.rounds)

    def expected_regret(self, transcript: Any, u: Any) -> float:
        """``sum_t |p_t - y_t| - sum_t (1/2)|<z_t, u> - y_t|`` from a label-game transcript."""
        return transcript.expected_mistakes - self.comparator_expected_mistakes(transcript, u)
