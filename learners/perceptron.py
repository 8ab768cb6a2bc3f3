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
import numbers
from typing import Any

import numpy as np
from attrs import define, field

from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.game.players import Learner
from mistakebound.game.spaces import LinearSpace, signed

__all__ = [
    "Perceptron",
    "margin_bound",
    "hinge_bound",
    "q_hinge_bound",
    "perceptron_margin_bound",
    "perceptron_hinge_bound",
    "perceptron_bound",
]


def _optional_dimension(value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
        raise InvalidArgumentError(f"d: expected None or an integer >= 1, got {value!r}")
    return int(value)


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
    >>> Perceptron.mistake_bound(LinearSpace(3, R=2.0, gamma=0.5))
    16.0
    """

    d: int | None = field(default=None, converter=_optional_dimension)
    _w: np.ndarray | None = field(init=False, default=None, repr=False)
    _n_updates: int = field(init=False, default=0, repr=False)
    # [x, <w, x>] of the last prediction on a read-only vector, reused by learn_one; a
    # list mutated in place, since attribute assignment costs more than the dot product
    _last: list = field(init=False, factory=lambda: [None, 0.0], repr=False)

    bound_source = (
        "Theorem 4 of the mistake-bound lecture notes (seed 001) and seed 004: "
        "M <= (R/gamma)^2 on a sequence separated with margin gamma in a ball of radius R"
    )

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
    def mistake_bound(cls, H: Any) -> float | None:
        """``(R/gamma)^2`` on a :class:`~mistakebound.game.spaces.LinearSpace` with ``R`` and ``gamma > 0``, else None."""
        if isinstance(H, LinearSpace) and H.R is not None and H.gamma:
            return margin_bound(H.R, H.gamma)
        return None


# ---------------------------------------------------------------------- bounds of numbers
def _real(name: str, value: Any, *, positive: bool = False, minimum: float | None = None) -> float:
    ok = isinstance(value, numbers.Real) and not isinstance(value, bool) and math.isfinite(value)
    if ok and positive and not value > 0:
        ok = False
    if ok and minimum is not None and value < minimum:
        ok = False
    if not ok:
        want = "a finite number > 0" if positive else f"a finite number >= {minimum:g}"
        raise InvalidArgumentError(f"{name}: expected {want}, got {value!r}")
    return float(value)


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
    R = _real("R", R, positive=True)
    gamma = _real("gamma", gamma, positive=True)
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
    R = _real("R", R, minimum=0.0)
    u_norm = _real("u_norm", u_norm, minimum=0.0)
    c = _real("mistake_hinge_loss", mistake_hinge_loss, minimum=0.0)
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
    R = _real("R", R, minimum=0.0)
    u_norm = _real("u_norm", u_norm, minimum=0.0)
    L1 = _real("hinge_loss", hinge_loss, minimum=0.0)
    Lq = _real("q_hinge_loss", q_hinge_loss, minimum=0.0)
    q = _real("q", q, minimum=1.0)
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
    q = _real("q", q, minimum=1.0)
    v = _comparator(T, u)
    losses = _hinge_losses(T, v, mistakes_only=False)
    return q_hinge_bound(
        _radius(T), float(np.linalg.norm(v)), math.fsum(losses), math.fsum(losses**q), q
    )
