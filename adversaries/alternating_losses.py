"""AlternatingLosses: the Follow-the-Leader failure sequence as an oblivious OCO adversary."""

from __future__ import annotations

from typing import Any

import numpy as np
from attrs import define, field

from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.foundations.validation import check_int, check_real, real_converter
from mistakebound.game.oco import LinearLoss, ObliviousOCOAdversary, OCOSetting
from mistakebound.verification.claims import Bound

__all__ = ["AlternatingLosses"]

#: Where its forced regret comes from.
SOURCE = (
    "the Follow-the-Leader failure sequence (seeds/004, Section 3.1): FTL pays B m in every round after the "
    "first while the fixed point 0 pays 0, regret >= (T - 1) B m"
)


@define
class AlternatingLosses(ObliviousOCOAdversary):
    """The regret lecture's sequence that defeats Follow-the-Leader (``seeds/004``, Section 3.1).

    Linear losses along the first coordinate axis ``e_1``:
    ``f_1(w) = first * w_1`` and, for ``t >= 2``, ``f_t(w) = -s m w_1`` for even ``t``
    and ``+s m w_1`` for odd ``t``, with ``m = magnitude`` and ``s`` the sign of
    ``first``.  The defaults ``first = 1/2``, ``magnitude = 1`` are the lecture's
    ``f_1 = theta/2``, then ``-theta, +theta, -theta, ...`` on ``[-1, 1]``.

    The cumulative ``Z_t`` then alternates in sign (it is ``first`` after odd rounds
    and ``first - s m`` after even ones; ``0 < |first| < m`` is required), so FTL, which
    plays ``-B sign(Z_{t-1}) e_1``, always sits at the wrong end: it pays ``0`` in round
    1 (it plays 0) and ``B m`` in every later round, while the fixed point 0 pays 0.
    Hence its regret against the best fixed point of the ball is at least
    ``(T - 1) B m`` (:meth:`forced_regret`) and, exactly, ``(T - 1) B m + B |Z_T|``
    (:meth:`ftl_regret`); ``(T - 1) B m >= (B m / 2) T`` for ``T >= 2``, linear in
    ``T``.  (The lecture says the competitor's loss is at most 0.5; the fixed point 0
    already gets 0, and the best fixed point gets ``-B |Z_T|``.)

    Parameters
    ----------
    first : float
        The slope of ``f_1``, with ``0 < |first| < magnitude``.
    magnitude : float
        The slope ``m`` of the later losses; the losses are ``m``-Lipschitz.

    Examples
    --------
    >>> from mistakebound.game.oco import play_oco
    >>> from mistakebound.learners.gradient import FollowTheLeader
    >>> T = play_oco(FollowTheLeader(1, radius=1.0), AlternatingLosses(), d=1, rounds=6, seed=0, radius=1.0)
    >>> [f.z[0] for f in T.losses]
    [0.5, -1.0, 1.0, -1.0, 1.0, -1.0]
    >>> T.values, T.best_fixed_regret(), AlternatingLosses().forced_regret(6, 1.0)
    ((0.0, 1.0, 1.0, 1.0, 1.0, 1.0), 5.5, 5.0)
    """

    first: float = field(default=0.5, converter=real_converter("first"))
    magnitude: float = field(default=1.0, converter=real_converter("magnitude"))

    def __attrs_post_init__(self) -> None:
        if not 0 < abs(self.first) < self.magnitude:
            raise InvalidArgumentError(
                f"first, magnitude: expected 0 < |first| < magnitude, got first={self.first!r}, "
                f"magnitude={self.magnitude!r}"
            )

    def applies_to(self, setting: Any) -> bool:
        """On the online convex optimisation game (an :class:`~mistakebound.game.oco.OCOSetting`)."""
        return isinstance(setting, OCOSetting)

    def forces(self, setting: Any, *, learner: Any, rounds: int | None = None, realizable: bool = True) -> Bound:
        """``(T - 1) B m`` regret on :class:`~mistakebound.learners.gradient.FollowTheLeader` (:meth:`forced_regret`).

        Returns
        -------
        Bound
            On ``"regret"`` (against the best fixed point of the ball); none with the
            reason for another learner, another setting, or an unknown horizon.

        Examples
        --------
        >>> from mistakebound.learners.gradient import FollowTheLeader
        >>> AlternatingLosses().forces(OCOSetting(1, radius=1.0), learner=FollowTheLeader(1, 1.0), rounds=100).value
        99.0
        """
        from mistakebound.learners.gradient import FollowTheLeader

        if not isinstance(learner, FollowTheLeader):
            return Bound.none(f"its forced regret is proven for FollowTheLeader only, not {type(learner).__name__}",
                              measure="regret")
        if not isinstance(setting, OCOSetting) or setting.radius != learner.radius or setting.d != learner.d:
            return Bound.none(f"it forces its regret on the ball of FollowTheLeader's radius {learner.radius:g} in "
                              f"d = {learner.d}", measure="regret")
        if rounds is None:
            return Bound.none("the forced regret grows with the horizon: give rounds", measure="regret")
        return Bound(self.forced_regret(check_int("rounds", rounds, 0), setting.radius), "regret", SOURCE,
                     ("against the best fixed point of the ball",))

    def slopes(self, rounds: int) -> list[float]:
        """The slopes ``c_t`` of ``f_t(w) = c_t w_1`` for ``t = 1 .. rounds``."""
        s = 1.0 if self.first > 0 else -1.0
        return [self.first if t == 1 else s * self.magnitude * (-1.0) ** (t + 1) for t in range(1, rounds + 1)]

    def commit(self, d, rounds, rng, radius):
        e = np.zeros(d)
        out = []
        for c in self.slopes(rounds):
            e[0] = c
            out.append(LinearLoss(e))
        return out

    def forced_regret(self, T: int, radius: float) -> float:
        """``(T - 1) B m``: the regret FTL must suffer (the lecture's argument, comparator 0).

        FTL pays ``B m`` in each of rounds ``2 .. T`` and the fixed point 0 pays 0, so
        its regret against the ball is at least this (``seeds/004``, Section 3.1).
        """
        T = check_int("T", T, 0)
        radius = check_real("radius", radius, minimum=0)
        return max(T - 1, 0) * radius * self.magnitude

    def ftl_regret(self, T: int, radius: float) -> float:
        """FTL's exact regret against the best fixed point: ``(T - 1) B m + B |Z_T|``.

        ``|Z_T| = |first|`` for odd ``T`` and ``m - |first|`` for even ``T``.
        """
        if T <= 0:
            return 0.0
        Z = abs(self.first) if T % 2 == 1 else self.magnitude - abs(self.first)
        return (T - 1) * radius * self.magnitude + radius * Z
