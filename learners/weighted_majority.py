"""Weighted majority over experts: the randomized Weighted-Majority and its deterministic ancestor.

Both learners play on :class:`~mistakebound.game.spaces.ExpertAdvice`: an instance is the
advice vector ``x`` in [0, 1]^d and expert ``i`` loses ``|x_i - y|`` when the label is
``y``.  Both keep each expert's cumulative loss ``L_i`` and derive the weights from it
in log form (``log w_i = -eta L_i`` or ``L_i log beta``, shifted by the smallest loss),
so no weight under- or overflows however long the game.

* :class:`WeightedMajority` is the textbook's algorithm (Shalev-Shwartz and Ben-David,
  ch. 21, seed ``000``): ``p_t = <w_t, x_t> / sum(w_t)`` and
  ``w_i <- w_i exp(-eta |x_i - y|)`` with ``eta = sqrt(2 ln d / T)``; its expected
  regret against the best expert is at most ``sqrt(2 T ln d)`` (Theorem 21.11).
* :class:`DeterministicWeightedMajority` is Littlestone and Warmuth's WM: the weighted
  vote of the advice decides the label and the weights of wrong experts are multiplied
  by ``beta``; it makes at most ``(log2 n + m log2(1/beta)) / log2(2/(1+beta))`` mistakes,
  ``m`` the best expert's.

Examples
--------
>>> from mistakebound import play
>>> from mistakebound.game.spaces import ExpertAdvice
>>> from mistakebound.adversaries.expert_adversaries import RandomExpertLosses
>>> S = ExpertAdvice(4)
>>> L = WeightedMajority(4, 50)
>>> T = play(L, RandomExpertLosses(), S, rounds=50, seed=1, realizable=False)
>>> claim = L.bound(S, rounds=50, realizable=False)
>>> claim.measure, round(claim.value, 4), T.regret <= claim.value
('regret', 11.7741, True)
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from attrs import define, field

from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.foundations.validation import check_int, check_real, integer_converter, real_converter
from mistakebound.game.players import Learner
from mistakebound.game.spaces import ExpertAdvice
from mistakebound.learners._setting import describe_setting, horizon_claim, need_rounds, not_applicable
from mistakebound.verification.claims import Bound

__all__ = [
    "WeightedMajority",
    "DeterministicWeightedMajority",
    "weighted_majority_eta",
    "weighted_majority_regret_bound",
    "weighted_majority_rate_regret_bound",
    "deterministic_weighted_majority_bound",
    "advice_vector",
]

#: The theorem behind :class:`WeightedMajority`'s claim.
WM_SOURCE = "Theorem 21.11 (textbook ch. 21, seed 000): expected regret <= sqrt(2 T ln d)"
#: The theorem behind :class:`DeterministicWeightedMajority`'s claim.
DWM_SOURCE = (
    "Littlestone and Warmuth (1994), The Weighted Majority Algorithm, Inf. Comput. 108(2), sect. 2: "
    "M <= (log2 n + m log2(1/beta)) / log2(2/(1+beta)); (m + log2 n)/log2(4/3) for beta = 1/2"
)


def advice_vector(x: Any, d: int) -> np.ndarray:
    """The advice ``x`` as a float vector of length ``d`` in [0, 1], or an InvalidArgumentError."""
    v = np.asarray(x, dtype=float)
    if v.shape != (d,):
        raise InvalidArgumentError(f"x: expected advice of shape ({d},), got shape {v.shape}")
    if not np.all((v >= 0) & (v <= 1)):
        raise InvalidArgumentError(f"x: expected advice in [0, 1]^{d}, got {v.tolist()}")
    return v


def weighted_majority_eta(d: int, T: int) -> float:
    """The textbook's learning rate ``eta = sqrt(2 ln d / T)`` (Weighted-Majority, ch. 21, seed 000).

    ``eta = 0`` for a single expert, who is then followed blindly (its regret is 0).

    Examples
    --------
    >>> round(weighted_majority_eta(2, 100), 6)
    0.117741
    >>> weighted_majority_eta(1, 10)
    0.0
    """
    d = check_int("d", d, 1)
    T = check_int("T", T, 1)
    return math.sqrt(2.0 * math.log(d) / T)


def weighted_majority_regret_bound(d: int, T: int) -> float:
    """``sqrt(2 T ln d)``: Weighted-Majority's expected regret after ``T`` rounds (Theorem 21.11).

    The theorem states it for ``T > 2 ln d``; it holds for every ``T`` (see the notes of
    :class:`WeightedMajority`), vacuously when ``T <= 2 ln d``.  With ``d`` the number of
    hypotheses it is also the bound of Corollary 21.12 for a finite class.

    Examples
    --------
    >>> round(weighted_majority_regret_bound(4, 200), 4)
    23.5482
    >>> weighted_majority_regret_bound(1, 10)
    0.0
    """
    d = check_int("d", d, 1)
    T = check_int("T", T, 0)
    return math.sqrt(2.0 * T * math.log(d))


def weighted_majority_rate_regret_bound(d: int, eta: float, rounds: int) -> float:
    """``ln d / eta + eta n / 2``: the bound the proof of Theorem 21.11 gives for any rate.

    Valid for every ``eta > 0`` and every number ``n = rounds`` of rounds (the proof's
    inequality before ``eta`` is tuned); with ``eta = sqrt(2 ln d / T)`` and ``n = T``
    it equals ``sqrt(2 T ln d)``.  For ``eta = 0`` it is ``0`` if ``d = 1`` and
    infinite otherwise.

    Examples
    --------
    >>> weighted_majority_rate_regret_bound(1, 0.0, 10)
    0.0
    >>> round(weighted_majority_rate_regret_bound(4, weighted_majority_eta(4, 200), 200), 4)
    23.5482
    """
    d = check_int("d", d, 1)
    rounds = check_int("rounds", rounds, 0)
    eta = check_real("eta", eta, minimum=0)
    if eta == 0:
        return 0.0 if d == 1 else math.inf
    return math.log(d) / eta + eta * rounds / 2.0


def deterministic_weighted_majority_bound(n: int, m: float, beta: float = 0.5) -> float:
    """``(log2 n + m log2(1/beta)) / log2(2/(1+beta))``: WM's mistakes when the best expert loses ``m``.

    Littlestone and Warmuth (1994), section 2 (the bound for WM with ``n`` experts of
    initial weight 1).  For ``beta = 1/2`` it is ``(m + log2 n) / log2(4/3)``, about
    ``2.41 (m + log2 n)``.  Note that ``(m + log2 n) / log2(2/(1+beta))``, without the
    factor ``log2(1/beta)`` on ``m``, is right only for ``beta = 1/2``.

    Examples
    --------
    >>> round(deterministic_weighted_majority_bound(4, 3), 4)   # (3 + 2) / log2(4/3)
    12.0471
    >>> round(deterministic_weighted_majority_bound(3, 0), 4)   # log2 3 / log2(4/3)
    3.8188
    """
    n = check_int("n", n, 1)
    m = check_real("m", m, minimum=0)
    beta = check_real("beta", beta, minimum=0, maximum=1, open_minimum=True, open_maximum=True)
    return (math.log2(n) + m * math.log2(1.0 / beta)) / math.log2(2.0 / (1.0 + beta))


def _expert_setting(name: str, d: int, setting: Any) -> str:
    """Why ``setting`` is not expert advice of ``d`` experts (``""`` when it is)."""
    if not isinstance(setting, ExpertAdvice):
        return f"{name} plays on expert advice; the game is on {describe_setting(setting)}"
    if setting.d != d:
        return f"{name} was built for d = {d} experts; the game has {setting.d}"
    return ""


@define
class WeightedMajority(Learner):
    """The randomized Weighted-Majority of the textbook (Theorem 21.11), with horizon ``T``.

    Weights start at 1; in each round the learner predicts label 1 with probability
    ``p_t = sum_i w_i x_i / sum_i w_i`` (the engine draws the label), and after the label
    ``y`` every weight is multiplied by ``exp(-eta |x_i - y|)``, ``eta = sqrt(2 ln d / T)``.
    Since the advice lies between 0 and 1 and ``y`` is 0 or 1,
    ``|p_t - y| = sum_i w_i |x_i - y| / sum_i w_i`` is exactly the textbook's cost
    ``<w^(t), v_t>`` with ``v_t = |x_t - y_t|``, so the transcript's ``regret`` is the
    regret of Theorem 21.11.

    The weights are kept as cumulative losses ``L_i`` and formed as
    ``exp(-eta (L_i - min_j L_j))``: the log-weights shifted by their maximum, which the
    normalisation ignores.

    Parameters
    ----------
    d : int
        Number of experts (the dimension of the advice), at least 1.
    T : int
        The horizon the learning rate is tuned for, at least 1.  The learner keeps
        playing after ``T`` rounds with the same rate; its claim then lapses (see
        :func:`weighted_majority_rate_regret_bound` for what the proof still gives).

    Notes
    -----
    Theorem 21.11 assumes ``T > 2 ln d``: its proof uses ``e^{-a} <= 1 - a + a^2/2`` "for
    ``a`` in (0, 1)", and ``a = eta v <= eta < 1`` exactly when ``T > 2 ln d``.  The
    inequality in fact holds for every ``a >= 0``, so the proof's intermediate bound
    ``ln d / eta + eta n / 2`` holds for every ``eta > 0`` and every number ``n`` of
    rounds, and ``sqrt(2 T ln d)`` holds for every ``T``.  For ``T <= 2 ln d`` it is
    anyway vacuous: the regret never exceeds ``T <= sqrt(2 T ln d)``.

    Examples
    --------
    >>> L = WeightedMajority(2, 8)
    >>> L.predict_proba_one([1.0, 0.0])
    0.5
    >>> L.learn_one([1.0, 0.0], 0)     # expert 0 was wrong
    >>> round(L.predict_proba_one([1.0, 0.0]), 4)   # 1 / (1 + e^eta), eta = sqrt(2 ln 2 / 8)
    0.3974
    >>> round(L.bound(ExpertAdvice(2), rounds=8, realizable=False).value, 4)
    3.3302
    """

    d: int = field(converter=integer_converter("d", 1))
    T: int = field(converter=integer_converter("T", 1))
    _losses: np.ndarray = field(init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        self._losses = np.zeros(self.d)

    @property
    def eta(self) -> float:
        """The learning rate ``sqrt(2 ln d / T)``."""
        return weighted_majority_eta(self.d, self.T)

    @property
    def losses(self) -> np.ndarray:
        """Each expert's cumulative loss so far (a copy)."""
        return self._losses.copy()

    @property
    def weights(self) -> np.ndarray:
        """The normalised weights ``w^(t)`` the next prediction uses (they sum to 1)."""
        w = np.exp(-self.eta * (self._losses - self._losses.min()))
        return w / w.sum()

    def predict_proba_one(self, x: Any) -> float:
        """The probability ``<w^(t), x>`` of predicting label 1."""
        v = advice_vector(x, self.d)
        return float(min(1.0, max(0.0, float(self.weights @ v))))

    def learn_one(self, x: Any, y: int) -> None:
        v = advice_vector(x, self.d)
        self._losses = self._losses + np.abs(v - float(y))

    @classmethod
    def for_setting(cls, setting: Any, *, rounds: int | None = None) -> WeightedMajority:
        """``WeightedMajority(d, rounds)`` for a game on ``ExpertAdvice(d)`` of ``rounds`` rounds.

        Raises
        ------
        NotApplicableError
            If ``setting`` is not :class:`~mistakebound.game.spaces.ExpertAdvice`.
        InvalidArgumentError
            If ``rounds`` (the horizon its rate is tuned for) is missing.

        Examples
        --------
        >>> WeightedMajority.for_setting(ExpertAdvice(3), rounds=10)
        WeightedMajority(d=3, T=10)
        """
        if not isinstance(setting, ExpertAdvice):
            raise not_applicable(cls.__name__, setting, "expert advice (ExpertAdvice(d))")
        if rounds is None:
            raise need_rounds(cls.__name__, rounds)
        return cls(setting.d, check_int("rounds", rounds, 1))

    def bound(self, setting: Any, *, rounds: int | None = None, realizable: bool = True,
              transcript: Any = None) -> Bound:
        """``sqrt(2 T ln d)`` on the expected regret of a game of at most ``T`` rounds (Theorem 21.11).

        The measure is ``"regret"`` in unrealizable games and ``"expected mistakes"`` in
        realizable ones (some expert makes no mistake, so the regret is the expected
        number of mistakes).  The game's length is ``len(transcript)`` when a transcript
        is given, else ``rounds``.

        Returns
        -------
        Bound
            None with the reason on a setting other than ``ExpertAdvice(d)``, when the
            game's length is unknown, or when it exceeds the horizon ``T`` the rate is
            tuned for.

        Examples
        --------
        >>> L = WeightedMajority(4, 200)
        >>> round(L.bound(ExpertAdvice(4), rounds=200, realizable=False).value, 2)
        23.55
        >>> L.bound(ExpertAdvice(4), rounds=300, realizable=False).reason
        'WeightedMajority is tuned for T = 200 rounds; the game has 300: build it with T >= 300 (or wrap it in DoublingTrick)'
        """
        measure = "expected mistakes" if realizable else "regret"
        problem = _expert_setting(type(self).__name__, self.d, setting)
        if problem:
            return Bound.none(problem, measure=measure)
        return horizon_claim(self.T, rounds, transcript, weighted_majority_regret_bound(self.d, self.T),
                              measure, WM_SOURCE, type(self).__name__)


@define
class DeterministicWeightedMajority(Learner):
    """Littlestone and Warmuth's deterministic Weighted Majority (WM), with factor ``beta``.

    Weights start at 1.  The learner predicts 1 iff the weighted average of the advice is
    at least 1/2, i.e. ``sum_i w_i x_i >= sum_i w_i / 2``: with 0/1 advice, iff the experts
    advising 1 carry at least half the weight, so a tie goes to 1 (as Halving's does).
    After the label ``y`` each weight is multiplied by ``beta ** |x_i - y|``: with 0/1
    advice the wrong experts' weights by ``beta``, the others' by 1.

    On a mistake the experts that voted for the wrong label carry at least half the
    weight, so the total weight shrinks by a factor ``(1 + beta) / 2`` at least
    (with fractional advice because ``beta ** a <= 1 - (1 - beta) a`` on [0, 1]); the best
    expert keeps ``beta ** m``.  Hence :func:`deterministic_weighted_majority_bound`.

    The weights are ``beta ** (L_i - min_j L_j)`` from the cumulative losses ``L_i``;
    with 0/1 advice and ``beta = 1/2`` they are exact powers of two, so ties are exact.

    Parameters
    ----------
    d : int
        Number of experts, at least 1.
    beta : float
        The penalty factor, ``0 < beta < 1``; default 1/2.

    Examples
    --------
    >>> L = DeterministicWeightedMajority(3)
    >>> L.predict_one([1.0, 0.0, 0.0])   # weight 1 for label 1 against 2 for label 0
    0
    >>> L.predict_one([1.0, 1.0, 0.0])
    1
    >>> L.learn_one([1.0, 1.0, 0.0], 0)  # experts 0 and 1 halve
    >>> L.weights.tolist()
    [0.5, 0.5, 1.0]
    >>> L.predict_one([1.0, 1.0, 0.0])   # 1 against 1: a tie goes to 1
    1
    >>> round(L.bound(ExpertAdvice(3)).value, 4)   # realizable: log2 3 / log2(4/3)
    3.8188
    """

    d: int = field(converter=integer_converter("d", 1))
    beta: float = field(default=0.5, converter=real_converter("beta", minimum=0, maximum=1, open_minimum=True,
                                                              open_maximum=True))
    _losses: np.ndarray = field(init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        self._losses = np.zeros(self.d)

    @property
    def losses(self) -> np.ndarray:
        """Each expert's cumulative loss so far (a copy)."""
        return self._losses.copy()

    @property
    def weights(self) -> np.ndarray:
        """The weights, scaled so that the heaviest expert weighs 1."""
        return np.power(float(self.beta), self._losses - self._losses.min())

    def predict_one(self, x: Any) -> int:
        v = advice_vector(x, self.d)
        w = self.weights
        return int(2.0 * float(w @ v) >= float(w.sum()))

    def learn_one(self, x: Any, y: int) -> None:
        v = advice_vector(x, self.d)
        self._losses = self._losses + np.abs(v - float(y))

    @classmethod
    def for_setting(cls, setting: Any, *, rounds: int | None = None) -> DeterministicWeightedMajority:
        """``DeterministicWeightedMajority(d)`` (``beta = 1/2``) for a game on ``ExpertAdvice(d)``.

        Raises
        ------
        NotApplicableError
            If ``setting`` is not :class:`~mistakebound.game.spaces.ExpertAdvice`.
        """
        if not isinstance(setting, ExpertAdvice):
            raise not_applicable(cls.__name__, setting, "expert advice (ExpertAdvice(d))")
        return cls(setting.d)

    def bound(self, setting: Any, *, rounds: int | None = None, realizable: bool = True,
              transcript: Any = None) -> Bound:
        """Littlestone and Warmuth's bound on its mistakes, with ``m`` the best expert's loss.

        ``m`` is the transcript's ``best_hypothesis_mistakes`` when the finished game is
        given, and 0 in a realizable game (some expert is never wrong).

        Returns
        -------
        Bound
            On ``"mistakes"``; none with the reason on a setting other than
            ``ExpertAdvice(d)`` or for an unrealizable game without its transcript.

        Examples
        --------
        >>> from mistakebound import play
        >>> from mistakebound.adversaries.expert_adversaries import SplitAdvice
        >>> L, S = DeterministicWeightedMajority(4), ExpertAdvice(4)
        >>> T = play(L, SplitAdvice(), S, rounds=20, seed=0, realizable=False)
        >>> claim = L.bound(S, realizable=False, transcript=T)
        >>> T.best_hypothesis_mistakes, round(claim.value, 4), T.mistakes <= claim.value
        (9.0, 26.5036, True)
        >>> L.bound(S, realizable=False).reason
        "the bound depends on the best expert's loss m: pass the finished game's transcript"
        """
        problem = _expert_setting(type(self).__name__, self.d, setting)
        if problem:
            return Bound.none(problem)
        if transcript is not None:
            m = transcript.best_hypothesis_mistakes
            if m is None:
                return Bound.none("the transcript does not record the best expert's loss m")
            assumptions: tuple = (f"the best expert's loss m = {m:g}",)
        elif realizable:
            m, assumptions = 0, ("realizable (m = 0)",)
        else:
            return Bound.none("the bound depends on the best expert's loss m: pass the finished game's transcript")
        return Bound(deterministic_weighted_majority_bound(self.d, m, self.beta), "mistakes", DWM_SOURCE, assumptions)
