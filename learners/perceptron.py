"""Perceptron: the online learner of homogeneous halfspaces, and its three mistake bounds.

The learner keeps one weight vector ``w`` (``w_1 = 0``), predicts label 1 (the +1 of
the linear-learning texts) when ``<w, x> >= 0`` and label 0 otherwise, and on a
mistake adds ``y x`` with ``y`` in {-1, +1}.  The engine's labels are 0/1; the
conversion happens at the learner's edge with :func:`mistakebound.game.spaces.signed`.

The bounds, as functions of numbers and as functions of a transcript:

* :func:`margin_bound` / :func:`perceptron_margin_bound`: ``(R/gamma)^2`` for a sequence
  separated with margin ``gamma`` by a unit vector (Theorem 4 of seed 001; seed 004).
* :func:`hinge_bound` / :func:`perceptron_hinge_bound`: for every comparator ``u``,
  ``M <= L + R||u|| sqrt(L) + R^2 ||u||^2`` with ``L`` the hinge loss of ``u`` on the
  mistake rounds only (Theorem 21.16 of seed 000).
* :func:`q_hinge_bound` / :func:`perceptron_bound`: for every ``u`` and ``q >= 1``,
  ``M - L_1 <= a^2/2 + a sqrt(a^2/4 + L_q)`` with ``a = q R ||u||`` and ``L_q`` the
  ``q``-th power of the hinge loss summed over every round (Theorem 2 of seed 002).

Examples
--------
>>> import numpy as np
>>> from mistakebound import play
>>> from mistakebound.game.spaces import LinearSpace
>>> from mistakebound.adversaries.basis_vector_forcer import BasisVectorForcer
>>> S = LinearSpace(6, R=1.0, gamma=0.5)
>>> T = play(Perceptron(), BasisVectorForcer(), S, rounds=10, seed=0)
>>> T.mistakes, perceptron_margin_bound(T)
(4, 4.0)
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from attrs import define, field

from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.foundations.validation import check_real, integer_converter
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.game.players import Learner
from mistakebound.game.spaces import KDisjunctionSpace, LinearSpace, signed
from mistakebound.learners._setting import describe_setting, not_applicable, vector_length
from mistakebound.verification.claims import Bound

__all__ = [
    "Perceptron",
    "margin_bound",
    "hinge_bound",
    "q_hinge_bound",
    "perceptron_margin_bound",
    "perceptron_hinge_bound",
    "perceptron_bound",
]

#: The theorem behind the claim in games with a margin.
MARGIN_SOURCE = (
    "Theorem 4 of the mistake-bound lecture notes (seed 001) and seed 004: "
    "M <= (R/gamma)^2 on a sequence separated with margin gamma in a ball of radius R"
)
#: The theorem behind the claim from a comparator's hinge loss.
HINGE_SOURCE = (
    "Theorem 21.16 (textbook ch. 21, seed 000), in the form its proof gives: "
    "M <= L + R||u|| sqrt(L) + R^2 ||u||^2, L the comparator's hinge loss on the mistake rounds"
)


@define
class Perceptron(Learner):
    """Rosenblatt's Perceptron: predict with the sign of ``<w, x>``, add ``y x`` on a mistake.

    Exactly the algorithm of the mistake-bound lecture notes (seed 001, Algorithm 1):
    ``w_1 = 0``; predict +1 (label 1) when ``<w_t, x_t> >= 0`` and -1 (label 0)
    otherwise; on a mistake ``w_{t+1} = w_t + y_t x_t`` with ``y_t`` in {-1, +1}, else
    ``w_{t+1} = w_t``.  A tie ``<w, x> = 0`` predicts label 1, so it is a mistake, and
    an update, only when the label is 0.  (The textbook, seed 000, updates whenever
    ``y<w, x> <= 0``, which differs from this on a tie with label 1 only; every bound
    below holds for both, since each mistake here has ``y<w, x> <= 0``.)

    Each round costs one dot product and, on a mistake, one vector addition (numpy,
    no Python loop over coordinates); ``learn_one`` reuses the score ``predict_one``
    computed when it is handed the same read-only vector, as the engine does.

    Parameters
    ----------
    d : int, optional
        The dimension.  If omitted it is taken from the first instance.

    Attributes
    ----------
    weights : numpy.ndarray or None
        A copy of the current ``w`` (None before the first instance when ``d`` is not given).
    n_updates : int
        The number of updates so far, that is, the number of mistakes it has made.

    Examples
    --------
    >>> import numpy as np
    >>> p = Perceptron()
    >>> x = np.array([1.0, -2.0])
    >>> p.predict_one(x)          # w = 0, so <w, x> = 0 >= 0: label 1
    1
    >>> p.learn_one(x, 0)         # a mistake on the label 0 (y = -1): w = -x
    >>> p.weights.tolist(), p.predict_one(x)
    ([-1.0, 2.0], 0)
    >>> Perceptron().bound(LinearSpace(3, R=2.0, gamma=0.5)).value
    16.0
    """

    d: int | None = field(default=None, converter=integer_converter("d", 1, optional=True))
    _w: np.ndarray | None = field(init=False, default=None, repr=False)
    _n_updates: int = field(init=False, default=0, repr=False)
    # [x, <w, x>] of the last prediction on a read-only vector, reused by learn_one; a
    # list mutated in place, since attribute assignment costs more than the dot product
    _last: list = field(init=False, factory=lambda: [None, 0.0], repr=False)

    def __attrs_post_init__(self) -> None:
        if self.d is not None:
            self._w = np.zeros(self.d)

    def state_key(self) -> bytes | None:
        """The learner's state for searches: the weights (None while they are zero)."""
        return None if self._w is None or not self._w.any() else self._w.tobytes()

    @property
    def weights(self) -> np.ndarray | None:
        """A copy of the current weight vector."""
        return None if self._w is None else self._w.copy()

    @property
    def n_updates(self) -> int:
        """How many updates (that is, mistakes) it has made."""
        return self._n_updates

    def _check(self, x: Any) -> np.ndarray:
        v = x if isinstance(x, np.ndarray) else np.asarray(x, dtype=float)
        if self._w is None:
            if v.ndim != 1 or v.size == 0:
                raise InvalidArgumentError(f"x: expected a non-empty 1-d vector, got shape {v.shape}")
            self._w = np.zeros(v.shape[0])
        elif v.shape != self._w.shape:
            raise InvalidArgumentError(f"x: expected a vector of length {self._w.shape[0]}, got shape {v.shape}")
        return v

    def _score(self, x: Any) -> tuple[np.ndarray, float]:
        last = self._last
        if x is last[0]:
            return x, last[1]
        v = self._check(x)
        return v, float(self._w.dot(v))

    def predict_one(self, x: Any) -> int:
        """Label 1 when ``<w, x> >= 0``, label 0 otherwise."""
        last = self._last
        if x is last[0]:
            return 1 if last[1] >= 0.0 else 0
        v = self._check(x)
        score = float(self._w.dot(v))
        if v is x and not x.flags.writeable:  # safe to reuse until w changes
            last[0], last[1] = x, score
        return 1 if score >= 0.0 else 0

    def learn_one(self, x: Any, y: int) -> None:
        """On a mistake add ``signed(y) * x`` to ``w``; otherwise leave ``w`` as it is."""
        if y != 0 and y != 1:
            raise InvalidArgumentError(f"y: expected the engine's label 0 or 1, got {y!r}")
        v, score = self._score(x)
        self._last[0] = None
        if (score >= 0.0) == (y == 1):
            return
        if signed(y) > 0:  # the edge: label 1 is y = +1, label 0 is y = -1
            np.add(self._w, v, out=self._w)
        else:
            np.subtract(self._w, v, out=self._w)
        self._n_updates += 1

    @classmethod
    def for_setting(cls, setting: Any, *, rounds: int | None = None) -> Perceptron:
        """A Perceptron of the setting's dimension: ``d`` of a ``LinearSpace``, ``n`` of a
        ``KDisjunctionSpace``, or the length of a finite class's instance vectors.

        Raises
        ------
        NotApplicableError
            On a setting whose instances are not vectors of numbers (or expert advice).

        Examples
        --------
        >>> from mistakebound import classes
        >>> Perceptron.for_setting(LinearSpace(3)), Perceptron.for_setting(classes.monotone_disjunctions(4))
        (Perceptron(d=3), Perceptron(d=4))
        """
        n = vector_length(setting) if isinstance(setting, (LinearSpace, KDisjunctionSpace, HypothesisClass)) else None
        if n is None:
            raise not_applicable(cls.__name__, setting,
                                 "halfspaces, k-disjunction spaces and finite classes whose instances are vectors")
        return cls(n)

    def bound(self, setting: Any, *, rounds: int | None = None, realizable: bool = True,
              transcript: Any = None) -> Bound:
        """The Perceptron's mistake bound for a game on a :class:`~mistakebound.game.spaces.LinearSpace`.

        In order:

        * a realizable game on a space with a radius ``R`` and a margin ``gamma > 0``:
          ``(R/gamma)^2`` (:func:`margin_bound`, Theorem 4 of seed 001), the default;
        * a realizable game whose transcript has a margin (the comparator's smallest
          normalised margin, the space giving none): ``(R/gamma)^2`` of the transcript
          (:func:`perceptron_margin_bound`);
        * a finished game whose transcript carries a comparator ``u`` (the adversary's
          certificate, as certified: no rescaling), realizable or not:
          ``L + R||u|| sqrt(L) + R^2 ||u||^2`` with ``L`` its hinge loss on the mistake
          rounds (:func:`perceptron_hinge_bound`, Theorem 21.16 in its proof's form).

        Returns
        -------
        Bound
            On ``"mistakes"``; none with the reason otherwise (another setting, no margin,
            no transcript in an unrealizable game).

        Examples
        --------
        >>> Perceptron().bound(LinearSpace(4, R=1.0, gamma=0.25)).value
        16.0
        >>> Perceptron().bound(LinearSpace(4, R=1.0)).reason
        "no margin: without gamma > 0 no mistake bound holds (the midpoint adversary forces a mistake every round); give the space a margin, or pass the finished game's transcript"
        >>> Perceptron().bound(LinearSpace(4, R=1.0), realizable=False).reason
        "in an unrealizable game the bound (Theorem 21.16) depends on a comparator's hinge loss: pass the finished game's transcript"
        """
        if self.d is not None:
            n = vector_length(setting)
            if n is not None and n != self.d:
                return Bound.none(f"Perceptron was built for d = {self.d}; the game's vectors have length {n}")
        if not isinstance(setting, LinearSpace):
            return Bound.none(
                f"the Perceptron's bounds need a margin and a radius: play it on a LinearSpace(d, R=..., gamma=...), "
                f"not on {describe_setting(setting)}"
            )
        if realizable and setting.R is not None and setting.gamma:
            return Bound(margin_bound(setting.R, setting.gamma), "mistakes", MARGIN_SOURCE,
                         ("realizable", "||x|| <= R", "margin gamma > 0"))
        if transcript is None:
            if realizable:
                if not setting.gamma:
                    return Bound.none(
                        "no margin: without gamma > 0 no mistake bound holds (the midpoint adversary forces a "
                        "mistake every round); give the space a margin, or pass the finished game's transcript"
                    )
                return Bound.none("(R/gamma)^2 needs the radius R of the instances: give the space a radius, or "
                                  "pass the finished game's transcript")
            return Bound.none("in an unrealizable game the bound (Theorem 21.16) depends on a comparator's hinge "
                              "loss: pass the finished game's transcript")
        if realizable and transcript.gamma is not None and transcript.gamma > 0:
            return Bound(perceptron_margin_bound(transcript), "mistakes", MARGIN_SOURCE,
                         ("realizable", "R and gamma of the transcript"))
        if transcript.comparator is None:
            return Bound.none("the transcript carries no comparator (the adversary certified none), so neither "
                              "the margin nor the hinge-loss bound applies")
        return Bound(perceptron_hinge_bound(transcript), "mistakes", HINGE_SOURCE,
                     ("the comparator u the transcript carries",))


# ---------------------------------------------------------------------- bounds of numbers
def margin_bound(R: float, gamma: float) -> float:
    """``(R/gamma)^2``: the Perceptron's mistake bound on a sequence separated with margin.

    If ``||x_t|| <= R`` and a unit vector ``u`` has ``y_t <u, x_t> >= gamma > 0`` in
    every round, the Perceptron errs at most ``(R/gamma)^2`` times (Theorem 4 of the
    mistake-bound lecture notes, seed 001, with ``D = R``; the same bound in seed 004
    and as the corollary of Theorem 21.16 of seed 000).

    Parameters
    ----------
    R : float
        A bound on the norms of the instances (> 0).
    gamma : float
        The margin (> 0).

    Examples
    --------
    >>> margin_bound(1.0, 0.5), margin_bound(2.0, 0.5)
    (4.0, 16.0)
    """
    R = check_real("R", R, minimum=0, open_minimum=True)
    gamma = check_real("gamma", gamma, minimum=0, open_minimum=True)
    return (R / gamma) ** 2


def hinge_bound(R: float, u_norm: float, mistake_hinge_loss: float) -> float:
    """``L + R||u|| sqrt(L) + R^2 ||u||^2``: Theorem 21.16 of the textbook (seed 000).

    For every comparator ``u``, with ``R = max_t ||x_t||`` and ``L = sum_t f_t(u)``
    where ``f_t(u) = max(0, 1 - y_t <u, x_t>)`` on the rounds where the Perceptron
    errs and ``f_t = 0`` on the others, the Perceptron makes at most this many
    mistakes.

    The statement of Theorem 21.16 in seed 000 prints the square root over
    ``L + R^2 ||u||^2``, i.e. ``L + R||u|| sqrt(L + R^2||u||^2)``; that contradicts the
    claim its own proof rests on (``x - b sqrt(x) - c <= 0`` implies
    ``x <= c + b^2 + b sqrt(c)``, here with ``b = R||u||``, ``c = L``) and is false:
    the basis-vector sequence breaks it (see ``tests/test_perceptron.py``).  This
    function follows the proof (the published form of the theorem).

    Parameters
    ----------
    R : float
        The largest norm of an instance (>= 0).
    u_norm : float
        ``||u||`` (>= 0).
    mistake_hinge_loss : float
        ``L``, the comparator's hinge loss summed over the mistake rounds (>= 0).

    Examples
    --------
    >>> hinge_bound(1.0, 2.0, 0.0)     # separable with margin 1/2: (R ||u||)^2
    4.0
    >>> hinge_bound(1.0, 1.0, 4.0)
    7.0
    """
    R = check_real("R", R, minimum=0)
    u_norm = check_real("u_norm", u_norm, minimum=0)
    c = check_real("mistake_hinge_loss", mistake_hinge_loss, minimum=0)
    b = R * u_norm
    return c + b * math.sqrt(c) + b * b


def q_hinge_bound(R: float, u_norm: float, hinge_loss: float, q_hinge_loss: float, q: float = 1.0) -> float:
    """``L_1 + a^2/2 + a sqrt(a^2/4 + L_q)`` with ``a = q R ||u||``: Theorem 2 of seed 002.

    For every comparator ``u`` and ``q >= 1``, with ``||x_t|| <= R``,
    ``L_1 = sum_t max(1 - y_t<x_t, u>, 0)`` and ``L_q = sum_t max(1 - y_t<x_t, u>, 0)^q``
    (both over every round), the Perceptron's mistakes satisfy
    ``M - L_1 <= q^2 R^2 ||u||^2 / 2 + q R ||u|| sqrt(q^2 R^2 ||u||^2 / 4 + L_q)``
    ("Online Linear Classification", Theorem 2; the loss on the left is the plain
    hinge loss ``l``, the one under the root its ``q``-th power ``l_q``).  This returns
    the right-hand side plus ``L_1``, the bound on ``M``.

    The statement printed in seed 002 has ``q ||u||`` in front of the square root,
    without ``R``; the seed's proof applies its Lemma 4 with ``a = q R ||u||``, which
    gives the factor ``q R ||u||`` used here.  The two agree when ``R = 1``; for
    ``R > 1`` the printed form is false (the basis-vector sequence breaks it, see
    ``tests/test_perceptron.py``) and for ``R < 1`` it is weaker.

    Parameters
    ----------
    R : float
        A bound on the norms of the instances (>= 0).
    u_norm : float
        ``||u||`` (>= 0).
    hinge_loss : float
        ``L_1`` (>= 0).
    q_hinge_loss : float
        ``L_q`` (>= 0).
    q : float
        The power, ``q >= 1``.

    Examples
    --------
    >>> q_hinge_bound(1.0, 2.0, 0.0, 0.0)     # separable with margin 1/2: 2 + 2 * 1
    4.0
    >>> q_hinge_bound(2.0, 0.5, 2.0, 2.0)     # four basis vectors 2 e_i: exactly 4
    4.0
    """
    R = check_real("R", R, minimum=0)
    u_norm = check_real("u_norm", u_norm, minimum=0)
    L1 = check_real("hinge_loss", hinge_loss, minimum=0)
    Lq = check_real("q_hinge_loss", q_hinge_loss, minimum=0)
    q = check_real("q", q, minimum=1)
    a = q * R * u_norm
    return L1 + a * a / 2 + a * math.sqrt(a * a / 4 + Lq)


# ---------------------------------------------------------------------- bounds of a transcript
def _comparator(T: Any, u: Any) -> np.ndarray:
    if u is None:
        if T.comparator is None:
            raise InvalidArgumentError(
                "u: the transcript carries no comparator (a linear game's certificate); pass u"
            )
        u = T.comparator
    v = np.asarray(u, dtype=float).reshape(-1)
    if len(T.rounds) and v.shape[0] != len(T.rounds[0].x):
        raise InvalidArgumentError(f"u: expected a vector of length {len(T.rounds[0].x)}, got {v.shape[0]}")
    if not np.all(np.isfinite(v)):
        raise InvalidArgumentError(f"u: expected finite entries, got {u!r}")
    return v


def _hinge_losses(T: Any, u: np.ndarray, mistakes_only: bool) -> np.ndarray:
    """Per round ``max(0, 1 - y <u, x>)`` (0 on correct rounds with ``mistakes_only``)."""
    if not len(T.rounds):
        return np.zeros(0)
    X = np.asarray(T.xs, dtype=float)
    y = np.array([signed(r.y) for r in T.rounds], dtype=float)
    losses = np.maximum(0.0, 1.0 - y * (X @ u))
    if mistakes_only:
        losses[~np.array([r.mistake for r in T.rounds])] = 0.0
    return losses


def _radius(T: Any) -> float:
    if T.R is not None:
        return float(T.R)
    if not len(T.rounds):
        return 0.0
    return float(np.linalg.norm(np.asarray(T.xs, dtype=float), axis=1).max())


def perceptron_margin_bound(T: Any) -> float:
    """``(R/gamma)^2`` of a realizable linear game (Theorem 4 of seed 001; seed 004).

    ``R`` and ``gamma`` are the transcript's: the space's radius (or the largest norm
    seen) and the space's margin (or the comparator's smallest normalised margin).

    Raises
    ------
    InvalidArgumentError
        If the transcript has no positive margin (not a realizable linear game with
        margin).

    Examples
    --------
    >>> from mistakebound.game.transcript import Transcript
    >>> perceptron_margin_bound(Transcript(rounds=(), R=1.0, gamma=0.25))
    16.0
    """
    if T.gamma is None or not T.gamma > 0:
        raise InvalidArgumentError(
            f"transcript: expected a linear game with margin gamma > 0, got gamma = {T.gamma!r}"
        )
    return margin_bound(_radius(T), T.gamma)


def perceptron_hinge_bound(T: Any, u: Any = None) -> float:
    """Theorem 21.16 of seed 000 on a transcript: ``L + R||u|| sqrt(L) + R^2 ||u||^2``.

    ``L`` is the hinge loss of the comparator on the mistake rounds only
    (``T.comparator_hinge_losses(mistakes_only=True)`` for the transcript's own
    comparator) and ``R`` the transcript's radius; see :func:`hinge_bound`.

    Parameters
    ----------
    T : Transcript
        A game of the Perceptron on a :class:`~mistakebound.game.spaces.LinearSpace`.
    u : array_like, optional
        The comparator; default the one the adversary certified (``T.comparator``).

    Examples
    --------
    >>> from mistakebound import play
    >>> from mistakebound.game.spaces import LinearSpace
    >>> from mistakebound.adversaries.separable_stream import SeparableStream
    >>> S = LinearSpace(3, R=1.0)
    >>> T = play(Perceptron(), SeparableStream(3, 0.2, noise=0.1), S, rounds=100, seed=1, realizable=False)
    >>> T.mistakes <= perceptron_hinge_bound(T, u=[5 * a for a in T.comparator])
    True
    """
    if u is None:
        v = _comparator(T, None)
        L = math.fsum(T.comparator_hinge_losses(mistakes_only=True))
    else:
        v = _comparator(T, u)
        L = math.fsum(_hinge_losses(T, v, mistakes_only=True))
    return hinge_bound(_radius(T), float(np.linalg.norm(v)), L)


def perceptron_bound(T: Any, q: float = 1.0, u: Any = None) -> float:
    """Theorem 2 of seed 002 on a transcript: the ``q``-hinge mistake bound, any ``q >= 1``.

    Returns ``L_1 + a^2/2 + a sqrt(a^2/4 + L_q)`` with ``a = q R ||u||``, the hinge
    loss ``L_1`` and its ``q``-th power ``L_q`` of the comparator summed over every
    round, and ``R`` the transcript's radius; see :func:`q_hinge_bound`.

    Parameters
    ----------
    T : Transcript
        A game of the Perceptron on a :class:`~mistakebound.game.spaces.LinearSpace`.
    q : float
        The power of the hinge loss under the root (``q >= 1``).
    u : array_like, optional
        The comparator; default the one the adversary certified (``T.comparator``).

    Examples
    --------
    >>> from mistakebound import play
    >>> from mistakebound.game.spaces import LinearSpace
    >>> from mistakebound.adversaries.separable_stream import SeparableStream
    >>> S = LinearSpace(3, R=1.0)
    >>> T = play(Perceptron(), SeparableStream(3, 0.2, noise=0.1), S, rounds=100, seed=1, realizable=False)
    >>> u = [5 * a for a in T.comparator]
    >>> T.mistakes <= min(perceptron_bound(T, 1, u), perceptron_bound(T, 2, u))
    True
    """
    q = check_real("q", q, minimum=1)
    v = _comparator(T, u)
    losses = _hinge_losses(T, v, mistakes_only=False)
    return q_hinge_bound(
        _radius(T), float(np.linalg.norm(v)), math.fsum(losses), math.fsum(losses**q), q
    )
