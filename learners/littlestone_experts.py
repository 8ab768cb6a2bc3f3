"""The agnostic learner of Theorem 21.10: Weighted-Majority over experts that simulate SOA.

For a class ``H`` and horizon ``T`` the textbook (ch. 21, seed ``000``) defines one
expert ``Expert(i_1 < ... < i_L)`` for every ``L <= Ldim(H)`` and every choice of rounds
``i_1 < ... < i_L`` in ``[T]``.  The expert keeps a version space ``V_t`` (initially
``H``), computes ``y~_t``, the label whose side of ``V_t`` has the larger Ldim, **ties
going to 0** (unlike SOA, whose ties go to 1), predicts ``1 - y~_t`` in its chosen rounds
and ``y~_t`` elsewhere, and moves to the side of ``V_t`` agreeing with its own prediction.
There are ``d = sum_{L <= Ldim} C(T, L)`` experts (equation 21.4); Lemma 21.13 shows that
for every ``h`` in ``H`` and every instance sequence one of them predicts exactly as
``h``, so Weighted-Majority over them has expected regret at most ``sqrt(2 T ln d)``
against the best hypothesis, and ``ln d <= Ldim ln(eT)``.

:class:`LittlestoneExperts` runs that Weighted-Majority exactly, without listing the
experts: experts whose chosen rounds agree before round ``t`` have made the same
predictions so far and hold the same version space, so they are simulated as one group;
groups reaching the same version space with the same number of flips are merged (their
futures are the same set of experts).  A group carries the summed weight of its
members' pasts and the count ``sum_{j <= b} C(T - t + 1, j)`` of their futures, ``b`` the
flips they may still make.

Examples
--------
>>> from mistakebound import classes, play
>>> from mistakebound.adversaries import ObliviousCoin
>>> H = classes.thresholds(7)
>>> L = LittlestoneExperts(H, 20)
>>> L.ldim, L.n_experts    # 1 + 20 + 190 + 1140
(3, 1351)
>>> T = play(L, ObliviousCoin(labels="coin"), H, rounds=20, seed=0, realizable=False)
>>> claim = L.bound(H, rounds=20, realizable=False)
>>> round(claim.value, 4), T.regret <= claim.value
(16.9807, True)
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
from attrs import define, field

from mistakebound.foundations.errors import InvalidArgumentError, NotApplicableError
from mistakebound.foundations.validation import check_instance, check_int, integer_converter
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.game.players import Learner
from mistakebound.learners._setting import describe_setting, horizon_claim, need_rounds, not_applicable, same_table
from mistakebound.learners.experts_from_class import ExpertsFromClass
from mistakebound.learners.weighted_majority import weighted_majority_regret_bound
from mistakebound.theory.littlestone import LdimSearch, littlestone_dimension
from mistakebound.verification.claims import Bound

__all__ = [
    "LittlestoneExperts",
    "number_of_experts",
    "expert_index_sets",
    "expert_predictions",
    "lemma_21_13_indices",
    "theorem_21_10_bound",
    "littlestone_experts_regret_bound",
    "ldim_regret_bound",
    "agnostic_learner",
]

#: The theorem behind the learner's claim.
SOURCE = (
    "Theorem 21.11 with the experts of Theorem 21.10 and Lemma 21.13 (textbook ch. 21, seed 000): "
    "expected regret <= sqrt(2 T ln d), d = sum_{L<=Ldim} C(T, L), <= sqrt(2 Ldim ln(eT) T)"
)


@functools.lru_cache(maxsize=4096)
def _count(n: int, b: int) -> int:
    """Number of subsets of size at most ``b`` of an ``n``-set (0 when ``b < 0``)."""
    if b < 0:
        return 0
    return sum(math.comb(n, j) for j in range(min(b, n) + 1))


def number_of_experts(ldim: int, T: int) -> int:
    """``sum_{L=0}^{Ldim} C(T, L)``: how many experts Theorem 21.10's learner uses (equation 21.4).

    Examples
    --------
    >>> number_of_experts(1, 10), number_of_experts(0, 10), number_of_experts(5, 3)
    (11, 1, 8)
    """
    ldim = check_int("ldim", ldim, 0)
    T = check_int("T", T, 0)
    return _count(T, ldim)


def expert_index_sets(ldim: int, T: int) -> Iterator[tuple[int, ...]]:
    """Every expert's rounds ``(i_1 < ... < i_L)``, 1-based, ``L <= ldim``, shortest first.

    Yields
    ------
    tuple of int
        One expert's rounds.

    Examples
    --------
    >>> list(expert_index_sets(1, 3))
    [(), (1,), (2,), (3,)]
    """
    ldim = check_int("ldim", ldim, 0)
    T = check_int("T", T, 0)
    for L in range(min(ldim, T) + 1):
        yield from itertools.combinations(range(1, T + 1), L)


class _Oracle:
    """``y~``: the side of a version space (over distinct rows) with the larger Ldim, ties to 0."""

    def __init__(self, H: HypothesisClass, search: LdimSearch | None = None):
        self.H = H
        self.search = LdimSearch(H) if search is None else search
        if self.search.H is not H and self.search.H != H:
            raise InvalidArgumentError("search: expected an LdimSearch over the same class H")
        self.memo: dict[int, int] = {}

    def ldim(self, V: int) -> int:
        value = self.memo.get(V)
        if value is None:
            value = self.memo[V] = self.search.ldim(V)
        return value

    def sides(self, V: int, j: int) -> tuple[int, int]:
        """``(V^(0), V^(1))`` on instance column ``j``."""
        ones = V & self.search.columns[j]
        return V ^ ones, ones

    def tilde(self, V: int, j: int) -> int:
        V0, V1 = self.sides(V, j)
        return 1 if self.ldim(V1) > self.ldim(V0) else 0


def _check_indices(indices: Sequence[int]) -> tuple[int, ...]:
    idx = tuple(indices)
    if any(isinstance(i, bool) or not isinstance(i, (int, np.integer)) or i < 1 for i in idx) or any(
        a >= b for a, b in zip(idx, idx[1:])
    ):
        raise InvalidArgumentError(f"indices: expected strictly increasing rounds >= 1, got {idx!r}")
    return tuple(int(i) for i in idx)


def expert_predictions(
    H: HypothesisClass, indices: Sequence[int], xs: Sequence[Any], *, search: LdimSearch | None = None
) -> list[int]:
    """The predictions of ``Expert(i_1, ..., i_L)`` (textbook ch. 21) on the instances ``xs``.

    Parameters
    ----------
    H : HypothesisClass
    indices : sequence of int
        The rounds ``i_1 < ... < i_L`` (1-based) in which the expert predicts against
        ``y~_t``.
    xs : sequence
        The instances ``x_1, ..., x_T`` (from ``H``'s domain).
    search : LdimSearch, optional
        A search over ``H`` to reuse.

    Examples
    --------
    >>> from mistakebound import classes
    >>> H = classes.thresholds(3)          # h_a(x) = 1 iff x < a, a = 1..4
    >>> expert_predictions(H, (), [2, 2, 1])          # ties to 0, then follows its version space
    [0, 0, 0]
    >>> expert_predictions(H, (1,), [2, 2, 1])        # flips in round 1: the thresholds a >= 3
    [1, 1, 1]
    """
    H = check_instance("H", H, HypothesisClass, "a HypothesisClass")
    idx = set(_check_indices(indices))
    oracle = _Oracle(H, search)
    V = oracle.search.full
    out = []
    for t, x in enumerate(xs, start=1):
        j = H.index_of(x)
        y = oracle.tilde(V, j)
        if t in idx:
            y = 1 - y
        out.append(y)
        V = oracle.sides(V, j)[y]
    return out


def lemma_21_13_indices(
    H: HypothesisClass, h: int, xs: Sequence[Any], *, search: LdimSearch | None = None
) -> tuple[int, ...]:
    """The rounds the proof of Lemma 21.13 picks for hypothesis ``h``: where SOA errs on ``(x_t, h(x_t))``.

    The SOA simulated here breaks ties toward 0, like the experts.  The proof needs this:
    the expert's version space follows SOA's only if both decide ties alike.  With the
    SOA of Lemma 21.7 (ties to 1) the construction can fail, e.g. on ``H = {0, 1}``
    (the two constants on one point) with ``h = 0``: that SOA errs in round 1, while
    ``Expert(1)`` predicts 1 there (see the tests).  The lemma itself holds, and so does
    the bound: SOA with either tie rule errs at most ``Ldim(H)`` times (the proof of
    Lemma 21.7 does not use the tie rule), so at most ``Ldim(H)`` rounds are returned.

    Examples
    --------
    >>> from mistakebound import classes
    >>> H = classes.thresholds(3)
    >>> xs = [2, 2, 1, 3]
    >>> h = 2                                     # x < 3
    >>> idx = lemma_21_13_indices(H, h, xs)
    >>> idx, expert_predictions(H, idx, xs) == [H.label(h, x) for x in xs]
    ((1,), True)
    """
    H = check_instance("H", H, HypothesisClass, "a HypothesisClass")
    h = check_int("h", h, 0, H.n_hypotheses - 1)
    oracle = _Oracle(H, search)
    V = oracle.search.full
    rounds = []
    for t, x in enumerate(xs, start=1):
        j = H.index_of(x)
        label = int(H.matrix[h, j])
        if oracle.tilde(V, j) != label:
            rounds.append(t)
        V = oracle.sides(V, j)[label]
    return tuple(rounds)


def theorem_21_10_bound(H: HypothesisClass, T: int) -> float:
    """``sqrt(2 min(ln |H|, Ldim(H) ln(eT)) T)``: the regret bound of Theorem 21.10.

    The theorem asserts that *some* learner attains it: :func:`agnostic_learner`, which
    takes :class:`~mistakebound.learners.experts_from_class.ExpertsFromClass` when
    ``ln |H|`` is the smaller term.  :class:`LittlestoneExperts` alone is bounded by
    ``sqrt(2 T ln d) <= sqrt(2 Ldim ln(eT) T)`` only, which can exceed ``sqrt(2 T ln |H|)``.

    Examples
    --------
    >>> from mistakebound import classes
    >>> round(theorem_21_10_bound(classes.thresholds(7), 20), 4)   # ln 8 < 3 ln(20 e)
    9.1202
    """
    H = check_instance("H", H, HypothesisClass, "a HypothesisClass")
    T = check_int("T", T, 1)
    ldim = littlestone_dimension(H)
    return math.sqrt(2.0 * min(math.log(H.n_hypotheses), ldim * math.log(math.e * T)) * T)


def littlestone_experts_regret_bound(H: HypothesisClass, T: int) -> float:
    """``sqrt(2 T ln d)``, ``d = sum_{L <= Ldim} C(T, L)``: Theorem 21.11 with these experts (Corollary 21.14).

    Examples
    --------
    >>> from mistakebound import classes
    >>> round(littlestone_experts_regret_bound(classes.thresholds(7), 20), 4)   # d = 1351
    16.9807
    """
    H = check_instance("H", H, HypothesisClass, "a HypothesisClass")
    T = check_int("T", T, 1)
    return weighted_majority_regret_bound(number_of_experts(littlestone_dimension(H), T), T)


def ldim_regret_bound(H: HypothesisClass, T: int) -> float:
    """``sqrt(2 Ldim(H) ln(eT) T)``, which :func:`littlestone_experts_regret_bound` never exceeds (``ln d <= Ldim ln(eT)``).

    Examples
    --------
    >>> from mistakebound import classes
    >>> round(ldim_regret_bound(classes.thresholds(7), 20), 4)
    21.8972
    """
    H = check_instance("H", H, HypothesisClass, "a HypothesisClass")
    T = check_int("T", T, 1)
    return math.sqrt(2.0 * littlestone_dimension(H) * math.log(math.e * T) * T)


def agnostic_learner(H: HypothesisClass, T: int, **kwargs: Any) -> Learner:
    """The learner of Theorem 21.10: experts from the class or Littlestone experts, whichever has fewer.

    Returns :class:`ExpertsFromClass` when ``|H|`` is at most the number of Littlestone
    experts and :class:`LittlestoneExperts` (given ``kwargs``) otherwise, so its expected
    regret is at most ``sqrt(2 T ln min(|H|, d)) <= theorem_21_10_bound(H, T)``.

    Examples
    --------
    >>> from mistakebound import classes
    >>> type(agnostic_learner(classes.thresholds(7), 20)).__name__
    'ExpertsFromClass'
    >>> type(agnostic_learner(classes.singletons(64), 3)).__name__   # 1 + 3 experts < 64
    'LittlestoneExperts'
    """
    H = check_instance("H", H, HypothesisClass, "a HypothesisClass")
    T = check_int("T", T, 1)
    if H.n_hypotheses <= number_of_experts(littlestone_dimension(H), T):
        return ExpertsFromClass(H, T)
    return LittlestoneExperts(H, T, **kwargs)


def _logsumexp(values: list[float]) -> float:
    if not values:
        return -math.inf
    top = max(values)
    return top + math.log(math.fsum(math.exp(v - top) for v in values))


@define
class LittlestoneExperts(Learner):
    """Weighted-Majority over the experts ``Expert(i_1 < ... < i_L)`` of Theorem 21.10, run exactly.

    The experts are those of the textbook's proof (see the module docstring), with
    ``eta = sqrt(2 ln d / T)`` for ``d = sum_{L <= Ldim(H)} C(T, L)``; the learner predicts
    label 1 with probability equal to the normalised weight of the experts predicting 1.
    Equal experts are simulated together, so the work per round is proportional to the
    number of distinct (version space, flips so far) pairs, not to ``d``.

    Parameters
    ----------
    H : HypothesisClass
    T : int
        The horizon: the experts' rounds lie in ``[T]``.  After ``T`` rounds no expert
        flips any more and the weights keep updating with the same rate.
    max_groups : int
        Refuse (``InvalidArgumentError``) a class and horizon whose simulation could need
        more groups than this.  The worst case is ``min(d, (Ldim + 1) 2^n)``, ``n`` the
        number of distinct rows of ``H`` (groups are keyed by a version space and a flip
        count, and can never outnumber the experts).  Default 100000.

    Raises
    ------
    InvalidArgumentError
        For a bad argument, or when the worst case exceeds ``max_groups`` (the message
        names the count it would need).

    Notes
    -----
    Regret bound: ``sqrt(2 T ln d)`` (Theorem 21.11 with these ``d`` experts and
    Corollary 21.14), at most ``sqrt(2 Ldim(H) ln(eT) T)``.  Theorem 21.10's
    ``sqrt(2 min(ln |H|, Ldim ln(eT)) T)`` is for the better of this learner and
    :class:`ExpertsFromClass` (see :func:`agnostic_learner`); this learner alone can
    exceed ``sqrt(2 T ln |H|)`` when ``d > |H|``.

    Examples
    --------
    >>> from mistakebound import HypothesisClass
    >>> H = HypothesisClass.from_matrix([[0], [1]])      # the two constants on one point
    >>> L = LittlestoneExperts(H, 3)                     # experts (), (1,), (2,), (3,)
    >>> L.predict_proba_one(0)                           # only Expert(1) predicts 1 in round 1
    0.25
    >>> LittlestoneExperts(H, 10**6, max_groups=1)
    Traceback (most recent call last):
    ...
    mistakebound.foundations.errors.InvalidArgumentError: max_groups: LittlestoneExperts on class(2x1) with T=1000000 could need 8 groups of experts (1000001 experts, Ldim 1); the limit is 1
    """

    H: HypothesisClass = field(validator=lambda self, a, v: check_instance("H", v, HypothesisClass, "a HypothesisClass"))
    T: int = field(converter=integer_converter("T", 1))
    max_groups: int = field(default=100_000, converter=integer_converter("max_groups", 1))
    _oracle: _Oracle = field(init=False, repr=False)
    _ldim: int = field(init=False, repr=False)
    _groups: dict = field(init=False, repr=False)
    _t: int = field(init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        self._oracle = _Oracle(self.H)
        self._ldim = self._oracle.ldim(self._oracle.search.full)
        self._check_size()
        self._reset()

    def _check_size(self) -> None:
        n_distinct = self._oracle.search.n_distinct
        needed = self.n_experts
        if n_distinct < 64:
            needed = min(needed, (self._ldim + 1) << n_distinct)
        if needed > self.max_groups:
            raise InvalidArgumentError(
                f"max_groups: LittlestoneExperts on {self.H.describe()} with T={self.T} could need "
                f"{needed} groups of experts ({self.n_experts} experts, Ldim {self._ldim}); "
                f"the limit is {self.max_groups}"
            )

    def _reset(self) -> None:
        self._groups = {(self._oracle.search.full, 0): 0.0}
        self._t = 1

    def clone(self) -> LittlestoneExperts:
        """A fresh learner sharing this one's Ldim search and memo (the class is immutable)."""
        fresh = LittlestoneExperts.__new__(LittlestoneExperts)
        fresh.H, fresh.T, fresh.max_groups = self.H, self.T, self.max_groups
        fresh._oracle, fresh._ldim = self._oracle, self._ldim
        fresh._reset()
        return fresh

    # ---------------------------------------------------------------- facts
    @property
    def ldim(self) -> int:
        """``Ldim(H)``."""
        return self._ldim

    @property
    def n_experts(self) -> int:
        """``d = sum_{L <= Ldim} C(T, L)``, the number of experts (equation 21.4)."""
        return _count(self.T, self._ldim)

    @property
    def eta(self) -> float:
        """``sqrt(2 ln d / T)``."""
        return math.sqrt(2.0 * math.log(self.n_experts) / self.T)

    @property
    def n_groups(self) -> int:
        """How many groups of experts are simulated now."""
        return len(self._groups)

    # ---------------------------------------------------------------- play
    def _multiplicities(self, k: int) -> tuple[int, int]:
        """How many futures of a group with ``k`` flips keep ``y~`` now, and how many flip."""
        remaining = self.T - self._t + 1
        b = self._ldim - k
        if remaining <= 0:
            return 1, 0
        return _count(remaining - 1, b), _count(remaining - 1, b - 1)

    def predict_proba_one(self, x: Any) -> float:
        """The weight of the experts predicting 1 on ``x``, over the total weight."""
        j = self.H.index_of(x)
        ones: list[float] = []
        total: list[float] = []
        for (V, k), log_a in self._groups.items():
            keep, flip = self._multiplicities(k)
            y = self._oracle.tilde(V, j)
            for count, label in ((keep, y), (flip, 1 - y)):
                if count:
                    w = log_a + math.log(count)
                    total.append(w)
                    if label == 1:
                        ones.append(w)
        if not ones:
            return 0.0
        return float(min(1.0, math.exp(_logsumexp(ones) - _logsumexp(total))))

    def learn_one(self, x: Any, y: int) -> None:
        j = self.H.index_of(x)
        eta = self.eta
        new: dict[tuple[int, int], float] = {}
        for (V, k), log_a in self._groups.items():
            keep, flip = self._multiplicities(k)
            yt = self._oracle.tilde(V, j)
            sides = self._oracle.sides(V, j)
            moves = [(sides[yt], k, yt)]
            if flip:
                moves.append((sides[1 - yt], k + 1, 1 - yt))
            for W, kk, label in moves:
                value = log_a - eta * (label != y)
                key = (W, kk)
                old = new.get(key)
                new[key] = value if old is None else float(np.logaddexp(old, value))
        top = max(new.values())
        self._groups = {key: v - top for key, v in new.items()}
        self._t += 1

    # ---------------------------------------------------------------- claims
    @classmethod
    def for_setting(cls, setting: Any, *, rounds: int | None = None) -> LittlestoneExperts:
        """``LittlestoneExperts(H, rounds)`` for a game of ``rounds`` rounds on the finite class ``H``.

        Raises
        ------
        NotApplicableError
            If ``setting`` is not a :class:`~mistakebound.HypothesisClass`.
        NotApplicableError
            Also when the simulation of its experts would need more than ``max_groups``
            groups for this horizon (the message says how many).
        InvalidArgumentError
            If ``rounds`` (the horizon of its experts) is missing.
        """
        if not isinstance(setting, HypothesisClass):
            raise not_applicable(cls.__name__, setting, "finite classes (its experts simulate SOA on the table)")
        if rounds is None:
            raise need_rounds(cls.__name__, rounds)
        try:
            return cls(setting, check_int("rounds", rounds, 1))
        except InvalidArgumentError as exc:
            if not str(exc).startswith("max_groups"):
                raise
            raise NotApplicableError(f"{cls.__name__} cannot play {rounds} rounds on {setting.describe()}: {exc}") from None

    def bound(self, setting: Any, *, rounds: int | None = None, realizable: bool = True,
              transcript: Any = None) -> Bound:
        """``sqrt(2 T ln d)`` on the expected regret of a game of at most ``T`` rounds (Theorem 21.11, Cor. 21.14).

        ``d = sum_{L <= Ldim(H)} C(T, L)`` is the number of experts.  The measure is
        ``"regret"`` in unrealizable games and ``"expected mistakes"`` in realizable ones.

        Returns
        -------
        Bound
            None with the reason on another setting than the learner's class, when the
            game's length is unknown, or when it exceeds ``T``.

        Examples
        --------
        >>> from mistakebound import classes
        >>> H = classes.thresholds(7)
        >>> round(LittlestoneExperts(H, 20).bound(H, rounds=20, realizable=False).value, 4)
        16.9807
        """
        measure = "expected mistakes" if realizable else "regret"
        if not isinstance(setting, HypothesisClass):
            return Bound.none(f"LittlestoneExperts plays on a finite class; the game is on "
                              f"{describe_setting(setting)}", measure=measure)
        if not same_table(self.H, setting):
            return Bound.none(f"LittlestoneExperts was built for {self.H.describe()}; the game is on "
                              f"{setting.describe()}", measure=measure)
        value = weighted_majority_regret_bound(self.n_experts, self.T)
        return horizon_claim(self.T, rounds, transcript, value, measure, SOURCE, type(self).__name__)
