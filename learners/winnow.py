"""Winnow for monotone disjunctions: the exponentiated-gradient form and Littlestone's original.

Two multiplicative-update learners over ``{0,1}^n`` whose mistake bounds grow with
``log n`` rather than ``n``:

* :class:`Winnow`, the unnormalised exponentiated-gradient (EG) algorithm of the
  Perceptron/Winnow lecture (seed ``003``, section 5.2), thinking in labels -1/+1;
* :class:`LittlestoneWinnow`, WINNOW1 and WINNOW2 of Littlestone (1988), "Learning
  quickly when irrelevant attributes abound".

Both predict from a weighted count of the variables that are 1 in the instance, update
only on mistakes, accept instances as any 0/1 sequence (tuple or numpy array) and work
on whole numpy vectors per round, so ``n = 1000`` is cheap.

:func:`disjunction_hinge_losses` computes the comparator losses ``f_t(u)`` that enter
the agnostic form of the EG bound.

Examples
--------
>>> from mistakebound import play
>>> from mistakebound.game.spaces import KDisjunctionSpace
>>> from mistakebound.adversaries.disjunction_stream import DisjunctionStream
>>> S = KDisjunctionSpace(1000, 3)
>>> T = play(Winnow(), DisjunctionStream(), S, rounds=300, seed=1)
>>> T.mistakes <= Winnow().bound(S).value == winnow_lecture_bound(1000, 3)
True
>>> T = play(LittlestoneWinnow(), DisjunctionStream(), S, rounds=300, seed=1)
>>> T.mistakes <= LittlestoneWinnow().bound(S).value == winnow2_bound(1000, 3)
True
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable
from typing import Any

import numpy as np
from attrs import define, field
from attrs.validators import in_

from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.foundations.validation import check_flag, check_int, check_real, integer_converter, real_converter
from mistakebound.game.players import Learner
from mistakebound.game.spaces import signed
from mistakebound.learners._setting import disjunction_problem, disjunction_setting, not_applicable
from mistakebound.learners.elimination import binary_vector
from mistakebound.verification.claims import Bound

__all__ = [
    "Winnow",
    "LittlestoneWinnow",
    "disjunction_hinge_losses",
    "winnow_lecture_bound",
    "winnow_proven_bound",
    "winnow1_bound",
    "winnow2_bound",
]

#: The result behind :class:`Winnow`'s claim.
EG_SOURCE = (
    "Perceptron/Winnow lecture (seed 003), section 5.2: M <= (1/(1-2 eta)) [(k+1) ln d / eta + sum_t f_t(u)], "
    "= 8 (k+1) ln d for eta = 1/4 when realizable"
)
#: The results behind :class:`LittlestoneWinnow`'s claims.
WINNOW1_SOURCE = "Littlestone 1988, WINNOW1: M <= alpha k (log_alpha theta + 1) + n/theta"
WINNOW2_SOURCE = (
    "WINNOW2 (Littlestone 1988; the bound proved in LittlestoneWinnow's docstring): "
    "M <= (alpha+1) k (log_alpha theta + 1) + alpha n/((alpha-1) theta)"
)


def _label(y: Any) -> int:
    """The engine's label 0/1, refusing -1/+1 and anything else (no silent sign mix-ups)."""
    if isinstance(y, (bool, np.bool_)) or (isinstance(y, numbers.Integral) and y in (0, 1)):
        return int(y)
    if isinstance(y, numbers.Real) and y in (0.0, 1.0):
        return int(y)
    raise InvalidArgumentError(f"y: expected the engine's label 0 or 1, got {y!r}")


def _eg_eta(eta: Any) -> float:
    """``eta`` if the EG bound holds for it (``0 < eta < 1/2``)."""
    return check_real("eta", eta, minimum=0, maximum=0.5, open_minimum=True, open_maximum=True)


def winnow_lecture_bound(d: int, k: int, eta: float = 0.25, hinge: float = 0.0) -> float:
    """The EG Winnow's mistake bound as the lecture states it (seed 003, section 5.2).

    ``(1/(1 - 2 eta)) [(k + 1) ln d / eta + hinge]``, where ``hinge`` is
    ``sum_t f_t(u)`` over the mistake rounds for a 0/1 comparator ``u`` with ``k``
    ones (0 when realizable: ``8 (k+1) ln d`` for ``eta = 1/4``).  ``log`` is the
    natural logarithm: the bound comes from the relative entropy of the
    exponential update.

    **Finding** (see ``tests/test_winnow.py``): as stated this is not always true.
    The derivation bounds ``1 + (ln d - 1)||u||_1`` by ``(k + 1) ln d``, which needs
    ``ln d >= 1 - ||u||_1``; for ``d = 1`` and the empty target (``u = 0``,
    allowed by "at most k" targets) the stated bound is 0, yet the instance
    ``(1,)`` labelled 0 twice costs 2 mistakes.  :func:`winnow_proven_bound` is what
    the derivation proves.  :meth:`Winnow.bound` states this form (the project's
    choice: the lecture's bound, kept as a claim that can fail).

    Examples
    --------
    >>> winnow_lecture_bound(1000, 3) == 8 * 4 * math.log(1000)
    True
    """
    d = check_int("d", d, 1)
    k = check_int("k", k, 0)
    eta = _eg_eta(eta)
    hinge = check_real("hinge", hinge, minimum=0)
    return ((k + 1) * math.log(d) / eta + hinge) / (1.0 - 2.0 * eta)


def winnow_proven_bound(d: int, k: int, eta: float = 0.25, hinge: float = 0.0) -> float:
    """The bound the lecture's argument proves, for any 0/1 comparator with at most ``k`` ones.

    ``(1/(1 - 2 eta)) [(1 + max(0, k (ln d - 1))) / eta + hinge]``.  The argument:
    on a mistake ``f_t(w_t) >= 1`` and ``z_t = -2 y_t x_t``; with ``eta z_t[i] >= -1``
    (``eta <= 1/2``) and ``e^{-a} <= 1 - a + a^2`` for ``a >= -1`` the unnormalised
    relative entropy gives ``sum_t <w_t - u, z_t> <= D(u||w_1)/eta + eta sum_t
    sum_i w_t[i] z_t[i]^2``, with ``D(u||w_1) = 1 + j (ln d - 1)`` for ``j`` ones
    in ``u``, the largest over ``j <= k`` being ``1 + max(0, k (ln d - 1))``; then
    Lemma 5.1 (``sum_i w_t[i] z_t[i]^2 <= 2 f_t(w_t)``) and convexity give the
    rest.  It equals :func:`winnow_lecture_bound` minus ``8 (ln d + k - 1)`` for
    ``eta = 1/4`` when ``d >= 3`` (so it is never larger there), and exceeds it only
    for ``d = 1`` with any ``k`` and ``d = 2`` with ``k = 0``.

    Examples
    --------
    >>> winnow_proven_bound(1, 0), winnow_lecture_bound(1, 0)
    (8.0, 0.0)
    """
    d = check_int("d", d, 1)
    k = check_int("k", k, 0)
    eta = _eg_eta(eta)
    hinge = check_real("hinge", hinge, minimum=0)
    divergence = 1.0 + max(0.0, k * (math.log(d) - 1.0))
    return (divergence / eta + hinge) / (1.0 - 2.0 * eta)


def _littlestone_parameters(n: Any, k: Any, alpha: Any, theta: Any) -> tuple[int, int, float, float]:
    n = check_int("n", n, 1)
    k = check_int("k", k, 0)
    alpha = check_real("alpha", alpha, minimum=1, open_minimum=True)
    theta = float(n) if theta is None else check_real("theta", theta, minimum=0, open_minimum=True)
    if not theta >= 1 / alpha:
        raise InvalidArgumentError(f"theta: the bound needs theta >= 1/alpha = {1 / alpha:g}, got {theta!r}")
    return n, k, alpha, theta


def winnow1_bound(n: int, k: int, alpha: float = 2.0, theta: float | None = None) -> float:
    """``alpha k (log_alpha theta + 1) + n/theta``: WINNOW1's mistakes on a target of at most ``k`` variables.

    Littlestone 1988's WINNOW1 bound (proof in :class:`LittlestoneWinnow`'s docstring);
    ``theta`` defaults to ``n``, giving ``2k(log2 n + 1) + 1`` for ``alpha = 2``.

    Examples
    --------
    >>> winnow1_bound(8, 1)
    9.0
    """
    n, k, alpha, theta = _littlestone_parameters(n, k, alpha, theta)
    return alpha * k * (math.log(theta) / math.log(alpha) + 1) + n / theta


def winnow2_bound(n: int, k: int, alpha: float = 2.0, theta: float | None = None) -> float:
    """``(alpha + 1) k (log_alpha theta + 1) + alpha n / ((alpha - 1) theta)``: WINNOW2's mistakes.

    Derived in :class:`LittlestoneWinnow`'s docstring (the paper's WINNOW2 statement
    could not be checked); ``theta`` defaults to ``n``, giving ``3k(log2 n + 1) + 2``
    for ``alpha = 2``, Blum's bound for the halving version.

    Examples
    --------
    >>> winnow2_bound(8, 1)
    14.0
    """
    n, k, alpha, theta = _littlestone_parameters(n, k, alpha, theta)
    return (alpha + 1) * k * (math.log(theta) / math.log(alpha) + 1) + alpha * n / ((alpha - 1) * theta)


def _disjunction_learner(cls: type, setting: Any) -> Any:
    nk = disjunction_setting(setting)
    if nk is None:
        raise not_applicable(cls.__name__, setting, "monotone disjunctions (a KDisjunctionSpace, or a finite "
                             "class over 0/1 tuples)")
    return cls(nk[0])


def disjunction_hinge_losses(transcript: Any, target: Iterable[int] | None = None, *, mistakes_only: bool = True) -> tuple[float, ...]:
    """Per round, the lecture's surrogate loss ``f_t(u) = [1 - y_t (2 <u, x_t> - 1)]_+`` of a target.

    ``u`` is the 0/1 indicator of ``target`` (default: the transcript's certified
    ``target``) and ``y_t`` the label as -1/+1.  With ``mistakes_only`` (the lecture's
    convention, seed 003 section 5.2: ``f_t = 0`` off the mistake rounds) rounds without
    a mistake count 0.  A correctly labelled round costs 0; a positive round with no
    target variable on costs 2; a negative round with ``m`` target variables on costs
    ``2m``.

    Raises
    ------
    InvalidArgumentError
        If no target is given and the transcript carries none.

    Examples
    --------
    >>> from mistakebound.game.transcript import Round, Transcript
    >>> rounds = [Round(1, (1, 1, 0), 1.0, 1, 0), Round(2, (0, 0, 1), 0.0, 0, 1), Round(3, (1, 0, 0), 1.0, 1, 1)]
    >>> disjunction_hinge_losses(Transcript(rounds=rounds, target=(0, 1)))
    (4.0, 2.0, 0.0)
    """
    if target is None:
        target = getattr(transcript, "target", None)
        if target is None:
            raise InvalidArgumentError("target: the transcript certifies no target; pass target=")
    idx = sorted({int(i) for i in target})
    out = []
    for r in transcript.rounds:
        if mistakes_only and not r.mistake:
            out.append(0.0)
            continue
        hits = sum(int(r.x[i]) for i in idx)
        out.append(float(max(0, 1 - signed(r.y) * (2 * hits - 1))))
    return tuple(out)


@define
class Winnow(Learner):
    """Unnormalised exponentiated gradient for monotone disjunctions (seed 003, section 5.2).

    With ``d`` variables it keeps weights ``w`` in ``R_+^d``, starting at
    ``w_1 = (1/d, ..., 1/d)``.  It predicts label 1 (the lecture's +1) iff
    ``2 <w, x> - 1 >= 0``.  After a mistake on ``(x, y)``, with ``y`` turned into
    ``s = +1`` (label 1) or ``s = -1`` (label 0) at this learner's edge, each weight
    becomes ``w_i exp(2 eta s x_i)``: the weights of the variables that are on GROW
    after a missed positive and SHRINK after a false positive.  Rounds without a
    mistake change nothing.

    **The sign.**  The lecture writes the gradient of ``f_t(w) = [1 - y(2<w, x> - 1)]_+``
    as ``+2 y x`` and the update as ``w e^{-2 eta y x}``, which would shrink the weights
    on a missed positive; the derivative is ``-2 y x`` and the update here is
    ``w e^{+2 eta y x}`` (the typo listed in the seeds' INDEX).

    **The tie.**  The lecture's 0-1 loss counts ``y(2<w, x> - 1) <= 0`` as an error and
    its gradient case uses ``< 0``, so it fixes no side for ``2<w, x> - 1 = 0``.  This
    learner predicts 1 there, the convention of the Perceptron (predict +1 when the
    score is >= 0) of which the lecture calls Winnow the analogue (the embedding
    ``x -> (2x, -1)``, ``w -> (w, 1)``).  The analysis uses only that every mistake
    has ``y(2<w, x> - 1) <= 0``, i.e. ``f_t(w_t) >= 1``, true with either side.  Ties
    are computed exactly: the weights are stored as ``w_i = e^{2 eta m_i} / d`` with
    integer ``m_i``, so ``2 <w, x> = 1`` is decided in integers whenever every active
    ``m_i`` is 0 (the only way a tie can occur for ``eta = 1/4``, ``e`` being
    transcendental).

    Parameters
    ----------
    n : int, optional
        The number of variables ``d``; inferred from the first instance when None.
    eta : float
        The learning rate (default 1/4, the lecture's choice); any ``eta > 0`` runs, the
        bounds need ``0 < eta < 1/2``.

    Examples
    --------
    >>> L = Winnow(4)
    >>> L.predict_one((1, 1, 0, 0))          # 2 * (2/4) - 1 = 0: a tie, predicted 1
    1
    >>> L.learn_one((1, 1, 0, 0), 0)         # false positive: shrink w_0 and w_1
    >>> L.weights.round(4).tolist()
    [0.1516, 0.1516, 0.25, 0.25]
    >>> L.predict_one((1, 1, 0, 0))
    0
    >>> from mistakebound.game.spaces import KDisjunctionSpace
    >>> round(Winnow().bound(KDisjunctionSpace(1000, 3)).value, 3)
    221.048
    """

    n: int | None = field(default=None, converter=integer_converter("n", 1, optional=True))
    eta: float = field(default=0.25, converter=real_converter("eta", minimum=0, open_minimum=True))
    _m: np.ndarray | None = field(init=False, default=None, repr=False)
    _v: np.ndarray | None = field(init=False, default=None, repr=False)

    def __attrs_post_init__(self) -> None:
        if self.n is not None:
            self._reset(self.n)

    def state_key(self) -> bytes | None:
        """The learner's state for searches: the weight exponents (None while all are 0)."""
        return None if self._m is None or not self._m.any() else self._m.tobytes()

    def _reset(self, d: int) -> None:
        self._m = np.zeros(d, dtype=np.int64)
        self._v = np.ones(d, dtype=float)

    def _bits(self, x: Any) -> np.ndarray:
        if self._m is None:
            v = binary_vector(x)
            self._reset(v.size)
            return v
        return binary_vector(x, self._m.size)

    @property
    def d(self) -> int | None:
        """The number of variables (None before the first instance when not given)."""
        return None if self._m is None else int(self._m.size)

    @property
    def weights(self) -> np.ndarray | None:
        """The lecture's ``w_t``: ``exp(2 eta m_i) / d`` (a fresh array)."""
        return None if self._v is None else self._v / self._v.size

    @property
    def exponents(self) -> np.ndarray | None:
        """The integers ``m_i``: promotions minus demotions of each weight (a fresh array)."""
        return None if self._m is None else self._m.copy()

    def score(self, x: Any) -> float:
        """``2 <w_t, x> - 1``: label 1 is predicted iff it is >= 0."""
        v = self._bits(x)
        return 2.0 * float(self._v[v].sum()) / self._v.size - 1.0

    def _predict(self, v: np.ndarray) -> int:
        d = self._v.size
        m = self._m[v]
        if not np.any(m):  # every active weight is exactly 1/d: decide in integers
            return int(2 * int(v.sum()) >= d)
        return int(2.0 * float(self._v[v].sum()) >= d)

    def predict_one(self, x: Any) -> int:
        return self._predict(self._bits(x))

    def learn_one(self, x: Any, y: Any) -> None:
        v = self._bits(x)
        y = _label(y)
        if self._predict(v) == y:
            return
        self._m[v] += signed(y)  # the -1/+1 of the lecture, at this learner's edge
        self._v[v] = np.exp(2.0 * self.eta * self._m[v])

    @classmethod
    def for_setting(cls, setting: Any, *, rounds: int | None = None) -> Winnow:
        """``Winnow(n)`` (``eta = 1/4``) for a ``KDisjunctionSpace(n, k)`` or a finite class over ``{0,1}^n``.

        Raises
        ------
        NotApplicableError
            On any other setting.

        Examples
        --------
        >>> from mistakebound.game.spaces import KDisjunctionSpace
        >>> Winnow.for_setting(KDisjunctionSpace(100, 2))
        Winnow(n=100, eta=0.25)
        """
        return _disjunction_learner(cls, setting)

    def bound(self, setting: Any, *, rounds: int | None = None, realizable: bool = True,
              transcript: Any = None) -> Bound:
        """The lecture's bound ``(1/(1-2 eta)) [(k+1) ln d / eta + sum_t f_t(u)]`` (seed 003, section 5.2).

        ``d`` and ``k`` are the setting's (``k = n`` on a finite class).  In a realizable
        game the target's loss ``sum_t f_t(u)`` is 0: ``8 (k+1) ln d`` for ``eta = 1/4``.
        In an unrealizable game it is the hinge loss, on the mistake rounds, of the target
        the transcript certifies (:func:`disjunction_hinge_losses`).  This is the
        lecture's form, which fails for ``d = 1`` (see :func:`winnow_lecture_bound`).

        Returns
        -------
        Bound
            On ``"mistakes"``; none with the reason on a setting that is not monotone
            disjunctions, for ``eta`` outside ``(0, 1/2)``, or in an unrealizable game
            without a transcript that certifies a target.

        Examples
        --------
        >>> from mistakebound.game.spaces import KDisjunctionSpace
        >>> Winnow().bound(KDisjunctionSpace(1000, 3), realizable=False).reason
        "in an unrealizable game the bound depends on the target's hinge loss: pass the finished game's transcript"
        >>> Winnow(eta=0.5).bound(KDisjunctionSpace(1000, 3)).reason
        'the EG bound needs 0 < eta < 1/2; this Winnow has eta = 0.5'
        """
        nk, problem = disjunction_problem(type(self).__name__, self.n, setting)
        if nk is None:
            return Bound.none(problem)
        if not 0 < self.eta < 0.5:
            return Bound.none(f"the EG bound needs 0 < eta < 1/2; this Winnow has eta = {self.eta:g}")
        n, k = nk
        if realizable:
            return Bound(winnow_lecture_bound(n, k, self.eta), "mistakes", EG_SOURCE,
                         ("realizable: the target's hinge loss is 0",))
        if transcript is None:
            return Bound.none("in an unrealizable game the bound depends on the target's hinge loss: pass the "
                              "finished game's transcript")
        if getattr(transcript, "target", None) is None:
            return Bound.none("the transcript certifies no target, whose hinge loss the bound needs")
        hinge = math.fsum(disjunction_hinge_losses(transcript))
        return Bound(winnow_lecture_bound(n, k, self.eta, hinge), "mistakes", EG_SOURCE,
                     (f"the transcript's target, hinge loss {hinge:g} on the mistake rounds",))


@define
class LittlestoneWinnow(Learner):
    """Littlestone's WINNOW1 and WINNOW2 (Machine Learning 2:285-318, 1988).

    Weights start at 1.  It predicts 1 iff ``sum_i w_i x_i >= theta`` (``> theta``
    with ``strict=True``).  After a false negative every weight of a variable that is
    on is multiplied by ``alpha`` (promotion).  After a false positive those weights
    are set to 0 (WINNOW1, "elimination") or divided by ``alpha`` (WINNOW2).  No
    update after a correct prediction.

    **Bounds, for a target of at most ``k`` variables** (``alpha > 1``,
    ``theta >= 1/alpha``): WINNOW1 errs at most ``alpha k (log_alpha theta + 1) +
    n/theta`` times, WINNOW2 at most ``(alpha + 1) k (log_alpha theta + 1) + alpha n /
    ((alpha - 1) theta)`` times.  For ``alpha = 2``, ``theta = n`` these read
    ``2k(log2 n + 1) + 1`` and ``3k(log2 n + 1) + 2``.

    *Where they come from.*  The paper's own theorem text was not reachable from this
    project's search tool (only its abstract), so the paper's tie convention
    (``>`` or ``>=``) and its exact WINNOW2 statement could not be checked.  The
    ``alpha = 2``, ``theta = n`` cases, with ties counted as 1, appear in A. Blum's
    lecture notes on Winnow (copies found with the search tool's pages corpus): the
    elimination version errs at most ``1 + 2r(1 + lg n)`` times and the halving version
    at most ``2 + 3r(1 + lg n)`` times for an OR of ``r`` variables.  The general forms
    above are proved here, for both tie conventions.  The first is the form usually
    quoted as Littlestone's WINNOW1 theorem; the form ``1 + 2k(1 + log2 n)`` that the
    issue gives for WINNOW2 is WINNOW1's, and WINNOW2 is only proved to
    ``3k(log2 n + 1) + 2``.

    *Proof.*  In a realizable game a false positive has every target variable off, so
    target weights are never demoted.  A promotion happens when the score is at most
    ``theta`` and some target variable is on, whose weight is then at most ``theta``;
    a weight ``alpha^(p-1) <= theta`` bounds one variable's promotions by
    ``log_alpha theta + 1``, so promotions ``M_p <= k (log_alpha theta + 1)``.  The
    total weight starts at ``n``, grows by ``(alpha - 1) * score <= (alpha - 1) theta``
    per promotion, shrinks by ``score >= theta`` (WINNOW1) or ``(1 - 1/alpha) score >=
    (1 - 1/alpha) theta`` (WINNOW2) per demotion, and never goes below 0.  So demotions
    ``M_d <= n/theta + (alpha - 1) M_p`` (WINNOW1) or ``M_d <= alpha n / ((alpha - 1)
    theta) + alpha M_p`` (WINNOW2), and ``M = M_p + M_d``.

    Parameters
    ----------
    n : int, optional
        The number of variables; inferred from the first instance when None.
    alpha : float
        The promotion (and WINNOW2 demotion) factor, > 1 (default 2).
    theta : float, optional
        The threshold, > 0; None means ``n`` (the default of the issue).
    variant : {"winnow2", "winnow1"}
        Demotion by division (WINNOW2, default) or elimination (WINNOW1).
    strict : bool
        Predict 1 iff the score is ``> theta`` instead of ``>= theta``.

    Examples
    --------
    >>> L = LittlestoneWinnow(4)
    >>> L.predict_one((1, 1, 0, 0))                   # 2 < theta = 4
    0
    >>> L.learn_one((1, 1, 0, 0), 1)                  # promotion
    >>> L.weights.tolist(), L.predict_one((1, 1, 0, 0))
    ([2.0, 2.0, 1.0, 1.0], 1)
    >>> winnow1_bound(1024, 2), winnow2_bound(1024, 2)
    (45.0, 68.0)
    """

    n: int | None = field(default=None, converter=integer_converter("n", 1, optional=True))
    alpha: float = field(default=2.0, converter=real_converter("alpha", minimum=1, open_minimum=True))
    theta: float | None = field(default=None, converter=real_converter("theta", minimum=0, open_minimum=True,
                                                                        optional=True))
    variant: str = field(default="winnow2", validator=in_(("winnow2", "winnow1")))
    strict: bool = field(default=False, converter=lambda v: check_flag("strict", v))
    _w: np.ndarray | None = field(init=False, default=None, repr=False)

    def __attrs_post_init__(self) -> None:
        if self.n is not None:
            self._w = np.ones(self.n, dtype=float)

    def state_key(self) -> bytes | None:
        """The learner's state for searches: the weights (None while all are 1)."""
        return None if self._w is None or bool((self._w == 1).all()) else self._w.tobytes()

    def _bits(self, x: Any) -> np.ndarray:
        if self._w is None:
            v = binary_vector(x)
            self._w = np.ones(v.size, dtype=float)
            return v
        return binary_vector(x, self._w.size)

    @property
    def threshold(self) -> float | None:
        """The threshold in use: ``theta``, or ``n`` when ``theta`` is None (None before ``n`` is known)."""
        if self.theta is not None:
            return float(self.theta)
        return None if self._w is None else float(self._w.size)

    @property
    def weights(self) -> np.ndarray | None:
        """The current weights (a fresh array)."""
        return None if self._w is None else self._w.copy()

    def _predict(self, v: np.ndarray) -> int:
        s = float(self._w[v].sum())
        theta = self.threshold
        return int(s > theta) if self.strict else int(s >= theta)

    def predict_one(self, x: Any) -> int:
        return self._predict(self._bits(x))

    def learn_one(self, x: Any, y: Any) -> None:
        v = self._bits(x)
        y = _label(y)
        if self._predict(v) == y:
            return
        if y == 1:
            self._w[v] *= self.alpha
        elif self.variant == "winnow1":
            self._w[v] = 0.0
        else:
            self._w[v] /= self.alpha

    @classmethod
    def for_setting(cls, setting: Any, *, rounds: int | None = None) -> LittlestoneWinnow:
        """``LittlestoneWinnow(n)`` (WINNOW2, ``alpha = 2``, ``theta = n``) for a disjunction setting.

        Raises
        ------
        NotApplicableError
            On a setting that is neither a ``KDisjunctionSpace`` nor a finite class over
            0/1 tuples.
        """
        return _disjunction_learner(cls, setting)

    def bound(self, setting: Any, *, rounds: int | None = None, realizable: bool = True,
              transcript: Any = None) -> Bound:
        """The bound of this learner's variant and parameters on monotone disjunctions (realizable games).

        :func:`winnow1_bound` or :func:`winnow2_bound` with this learner's ``alpha`` and
        ``theta`` (``n`` when None), ``n`` and ``k`` from the setting (``k = n`` on a
        finite class).

        Returns
        -------
        Bound
            On ``"mistakes"``; none with the reason in an unrealizable game, on a setting
            that is not monotone disjunctions, or when ``theta < 1/alpha``.

        Examples
        --------
        >>> from mistakebound.game.spaces import KDisjunctionSpace
        >>> S = KDisjunctionSpace(1024, 2)
        >>> LittlestoneWinnow().bound(S).value, LittlestoneWinnow(variant="winnow1").bound(S).value
        (68.0, 45.0)
        """
        if not realizable:
            return Bound.none("Littlestone's bounds need a realizable game (the target's weights are never demoted)")
        nk, problem = disjunction_problem(type(self).__name__, self.n, setting)
        if nk is None:
            return Bound.none(problem)
        n, k = nk
        theta = float(n) if self.theta is None else self.theta
        if not theta >= 1 / self.alpha:
            return Bound.none(f"the bound needs theta >= 1/alpha = {1 / self.alpha:g}; this learner has "
                              f"theta = {theta:g}")
        if self.variant == "winnow1":
            return Bound(winnow1_bound(n, k, self.alpha, theta), "mistakes", WINNOW1_SOURCE, ("realizable",))
        return Bound(winnow2_bound(n, k, self.alpha, theta), "mistakes", WINNOW2_SOURCE, ("realizable",))
