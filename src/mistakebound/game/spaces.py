"""Instance spaces played without a table: R^d with a margin, k-disjunctions, expert advice.

A finite :class:`~mistakebound.HypothesisClass` lets the engine track the version space
exactly.  The spaces here are too large for that, so realizability is certified instead:
the adversary names a witness (a comparator ``u`` for halfspaces, a target set of
variables for disjunctions), either before round 1 or when the game ends, and the
engine checks every round against it.  Each space turns what the adversary presents
into a stored, hashable form for the transcript (a tuple) and a read-only numpy vector
for the learner.

Labels stay 0/1 in the engine; for halfspaces label 1 is the side ``<u, x> > 0`` and
label 0 the side ``<u, x> < 0`` (the +1/-1 of the linear-learning texts).

Examples
--------
>>> import numpy as np
>>> S = LinearSpace(2, R=1.0, gamma=0.5)
>>> stored, shown = S.instance([0.6, 0.0])
>>> stored, shown.tolist()
((0.6, 0.0), [0.6, 0.0])
>>> referee = S.referee(realizable=True)
>>> referee.commit([1.0, 0.0])
>>> referee.round_error(1, stored, 1) is None, referee.round_error(1, stored, 0)
(True, 'label 0 puts x on the wrong side of the comparator: y<u, x> = -0.6 < gamma ||u|| = 0.5')
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np
from attrs import field, frozen

from mistakebound.foundations.validation import check_int, check_real
from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.foundations.exact_sums import SHIFT, exact_column_sums
from mistakebound.game.setting import Referee, Setting

__all__ = ["Space", "Referee", "LinearSpace", "KDisjunctionSpace", "ExpertAdvice", "SPACES", "signed", "embed_bias"]

_TOL = 1e-9


def signed(y: int) -> int:
    """The engine's label 0/1 as the -1/+1 of the linear-learning texts.

    Examples
    --------
    >>> signed(0), signed(1)
    (-1, 1)
    """
    return 2 * int(y) - 1


def embed_bias(x: Any) -> np.ndarray:
    """``x -> (x, 1)``: a halfspace with a bias becomes a homogeneous one in one more dimension.

    Examples
    --------
    >>> embed_bias([2.0, 3.0]).tolist()
    [2.0, 3.0, 1.0]
    """
    v = np.asarray(x, dtype=float).reshape(-1)
    return np.concatenate([v, [1.0]])


def _optional_positive(name: str, value: Any, *, allow_zero: bool = False) -> float | None:
    return check_real(name, value, minimum=0.0, open_minimum=not allow_zero, optional=True)


def _vector(x: Any, d: int, what: str) -> np.ndarray:
    try:
        v = np.asarray(x, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{what} {x!r} is not a vector of numbers") from None
    if v.shape != (d,):
        raise ValueError(f"{what} has shape {v.shape}; expected ({d},)")
    if not np.all(np.isfinite(v)):
        raise ValueError(f"{what} has non-finite entries")
    return v


def _frozen_view(v: np.ndarray) -> np.ndarray:
    out = np.array(v, copy=True)
    out.setflags(write=False)
    return out


class Space(Setting):
    """Base class of the spaces: a :class:`~mistakebound.game.setting.Setting` whose instances are vectors
    and whose realizability the adversary certifies."""

    def describe(self) -> str:  # pragma: no cover - interface
        raise NotImplementedError

    def instance(self, x: Any) -> tuple[Any, Any]:  # pragma: no cover - interface
        """``(stored, shown)`` forms of ``x``; raises ValueError with a reason if illegal."""
        raise NotImplementedError

    def referee(self, realizable: bool, *, totals: bool = False) -> Referee:  # pragma: no cover - interface
        raise NotImplementedError


# ---------------------------------------------------------------------- halfspaces
@frozen
class LinearSpace(Space):
    """Homogeneous halfspaces over R^d, played with an optional radius and margin.

    Parameters
    ----------
    d : int
        The dimension.
    R : float, optional
        Every instance must satisfy ``||x|| <= R``.
    gamma : float, optional
        In realizable games the comparator ``u`` must separate with margin:
        ``y <u, x> >= gamma ||u||`` (with ``y`` in {-1, +1}).  Without ``gamma`` it must
        separate strictly: ``y <u, x> > 0``.

    Notes
    -----
    The adversary certifies realizability with a method ``certificate(state)`` that
    returns the comparator ``u``: before round 1 (checked every round) or, if it
    returns None then, when the game ends (all rounds checked then).  The transcript
    carries ``R`` (the given radius, or the largest norm seen), ``gamma`` (the given
    margin, or the smallest normalised margin of the comparator), and the comparator.
    """

    d: int = field(converter=lambda v: check_int("d", v, 1))
    R: float | None = field(default=None, converter=lambda v: _optional_positive("R", v))
    gamma: float | None = field(default=None, converter=lambda v: _optional_positive("gamma", v, allow_zero=True))

    def describe(self) -> str:
        parts = [f"d={self.d}"]
        if self.R is not None:
            parts.append(f"R={self.R:g}")
        if self.gamma is not None:
            parts.append(f"gamma={self.gamma:g}")
        return f"halfspaces({', '.join(parts)})"

    def instance(self, x: Any) -> tuple[tuple, np.ndarray]:
        v = _vector(x, self.d, "instance")
        if self.R is not None:
            norm = float(np.linalg.norm(v))
            if norm > self.R * (1 + _TOL):
                raise ValueError(f"instance has norm {norm:.6g} > R = {self.R:g}")
        return tuple(float(a) for a in v), _frozen_view(v)

    def referee(self, realizable: bool, *, totals: bool = False) -> _LinearReferee:
        return _LinearReferee(self, realizable)


class _TupleRows(Sequence):
    """The rows of a read-only 2-D float array as tuples of floats (the stored form), built when read."""

    __slots__ = ("_X",)

    def __init__(self, X: np.ndarray):
        self._X = X

    def __len__(self) -> int:
        return len(self._X)

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return list(map(tuple, self._X[i].tolist()))
        return tuple(self._X[i].tolist())


class _LinearReferee(Referee):
    needs_certificate = True

    def __init__(self, space: LinearSpace, realizable: bool):
        super().__init__(realizable, space)
        self._need: float | None = None  # gamma ||u||, once u is known
        self._X: np.ndarray | None = None  # the instances checked in bulk, read-only
        self._max_norm = 0.0  # folded: the largest norm (without R) and the smallest margin (without gamma)
        self._min_margin: float | None = None

    def instances(self, xs: Sequence) -> tuple[list, list]:
        # One (n, d) array for the whole sequence; a row is suspect when it is not
        # finite or its norm, computed in bulk, comes within 1e-10 (relative; far above
        # the rounding of either norm) of the radius: suspects are decided by instance(),
        # exactly as in a round, and the others pass instance()'s checks for certain.
        d = self.space.d
        try:
            X = np.array(xs, dtype=float)
        except Exception:  # noqa: BLE001 - ragged, non-numeric: checked one by one
            return super().instances(xs)
        if X.shape != (len(xs), d):
            return super().instances(xs)
        suspect = ~np.isfinite(X).all(axis=1)
        R = self.space.R
        if R is not None:
            with np.errstate(over="ignore", invalid="ignore"):
                suspect |= ~(np.linalg.norm(X, axis=1) <= R * (1 + _TOL) * (1 - 1e-10))
        n = len(xs)
        for i in np.flatnonzero(suspect).tolist():
            try:
                self.space.instance(xs[i])
            except Exception:  # noqa: BLE001 - raised again, in its round, by instance()
                n = i
                break
        X = X[:n]
        X.setflags(write=False)
        self._X = X
        return _TupleRows(X), list(X)

    def commit(self, certificate: Any) -> None:
        if certificate is None:
            return
        try:
            u = _vector(certificate, self.space.d, "comparator")
        except ValueError as exc:
            raise InvalidArgumentError(f"certificate: {exc}") from None
        if not np.linalg.norm(u) > 0:  # also refuses vectors whose norm underflows to 0
            raise InvalidArgumentError("certificate: the comparator u must be non-zero")
        gamma = self.space.gamma
        self._need = gamma * float(np.linalg.norm(u)) if gamma is not None and gamma > 0 else None
        self.certificate = u

    def _sure(self, X: np.ndarray, ys: Sequence[int]) -> np.ndarray | None:
        """Rows whose margin, computed in bulk, clears the test of round_error beyond any rounding."""
        u = self.certificate
        if not self.realizable or u is None or not len(ys):
            return None
        with np.errstate(over="ignore", invalid="ignore"):
            margins = (2.0 * np.asarray(ys, dtype=float) - 1.0) * (X @ u)
            # |fl(<u, x>) - <u, x>| <= d eps ||u|| ||x|| (1 + o(1)) for either summation
            # order, so two evaluations differ by less than this bound
            slack = 4 * (self.space.d + 2) * np.finfo(float).eps * float(np.linalg.norm(u)) * np.linalg.norm(X, axis=1)
            if self._need is not None:
                return margins - slack >= self._need * (1 - _TOL)
            return margins - slack > 0

    def sure_labels(self, shown: Sequence, ys: Sequence[int]) -> np.ndarray | None:
        if self._X is None or len(shown) > len(self._X):
            return None
        return self._sure(self._X[: len(shown)], ys)

    def round_error(self, t: int, x: Any, y: int) -> str | None:
        if not self.realizable or self.certificate is None:
            return None
        u = self.certificate
        margin = signed(y) * float(np.dot(u, x))
        if self._need is not None:
            need = self._need
            if margin < need * (1 - _TOL):
                return (
                    f"label {y} puts x on the wrong side of the comparator: "
                    f"y<u, x> = {margin:.6g} < gamma ||u|| = {need:.6g}"
                )
        elif margin <= 0:
            return f"label {y} is not separated by the comparator: y<u, x> = {margin:.6g} <= 0"
        return None

    def first_error(self, rounds: Sequence) -> tuple[int, str] | None:
        if not self.realizable or self.certificate is None or not len(rounds):
            return None
        sure = self._sure(self._rounds_matrix(rounds), [r.y for r in rounds])
        for i in np.flatnonzero(~sure).tolist():
            r = rounds[i]
            problem = self.round_error(r.t, r.x, r.y)
            if problem is not None:
                return r.t, problem
        return None

    def _rounds_matrix(self, rounds: Sequence) -> np.ndarray:
        """The instances of ``rounds`` as an (n, d) array (the bulk-checked one when it is theirs)."""
        n = len(rounds)
        if self._X is not None and n <= len(self._X):
            return self._X[:n]  # an oblivious game's rounds are the prefix of what it committed
        return np.array([r.x for r in rounds], dtype=float).reshape(n, self.space.d)

    def finish(self, rounds: Sequence) -> dict:
        X = self._rounds_matrix(rounds)
        R = self.space.R
        if R is None:
            R = float(np.linalg.norm(X, axis=1).max()) if len(rounds) else 0.0
        out: dict = {"R": R, "gamma": self.space.gamma}
        u = self.certificate
        if u is not None:
            out["comparator"] = tuple(float(a) for a in u)
            if out["gamma"] is None and len(rounds):
                ys = np.array([signed(r.y) for r in rounds], dtype=float)
                out["gamma"] = float((ys * (X @ u)).min() / np.linalg.norm(u))
        return out

    def fold(self, xs: Sequence, ys: Sequence[int]) -> None:
        n = len(ys)
        X = np.array(list(xs), dtype=float).reshape(n, self.space.d)
        if self.space.R is None:
            self._max_norm = max(self._max_norm, float(np.linalg.norm(X, axis=1).max()))
        u = self.certificate
        if u is not None and self.space.gamma is None:
            margin = float((np.where(np.asarray(ys) == 1, 1.0, -1.0) * (X @ u)).min())
            self._min_margin = margin if self._min_margin is None else min(self._min_margin, margin)

    def folded(self, n: int) -> dict:
        R = self.space.R
        out: dict = {"R": R if R is not None else self._max_norm, "gamma": self.space.gamma}
        u = self.certificate
        if u is not None:
            out["comparator"] = tuple(float(a) for a in u)
            if out["gamma"] is None and n:
                out["gamma"] = float(self._min_margin / np.linalg.norm(u))
        return out


# ---------------------------------------------------------------------- disjunctions
@frozen
class KDisjunctionSpace(Space):
    """Monotone disjunctions of at most ``k`` of ``n`` variables, over {0,1}^n, with no table.

    Instances are 0/1 vectors of length ``n``; a hypothesis is a set ``S`` of at most
    ``k`` variables (0-based) and labels ``x`` with ``OR_{i in S} x_i``.  In realizable
    games the adversary certifies with ``certificate(state)`` returning the target set.

    Examples
    --------
    >>> S = KDisjunctionSpace(1000, 2)
    >>> S.describe()
    'k_disjunctions(n=1000, k=2)'
    >>> r = S.referee(realizable=True)
    >>> r.commit({3, 17})
    >>> x, _ = S.instance(np.eye(1000, dtype=int)[17])
    >>> r.round_error(1, x, 1) is None, r.round_error(1, x, 0) is None
    (True, False)
    """

    n: int = field(converter=lambda v: check_int("n", v, 1))
    k: int = field(converter=lambda v: check_int("k", v, 0))

    def __attrs_post_init__(self) -> None:
        if self.k > self.n:
            raise InvalidArgumentError(f"k: expected at most n = {self.n} variables, got {self.k}")

    def describe(self) -> str:
        return f"k_disjunctions(n={self.n}, k={self.k})"

    def instance(self, x: Any) -> tuple[tuple, np.ndarray]:
        try:
            v = np.asarray(x)
        except (TypeError, ValueError):
            raise ValueError(f"instance {x!r} is not a 0/1 vector") from None
        if v.shape != (self.n,) or v.dtype == object or not np.all((v == 0) | (v == 1)):
            raise ValueError(f"instance must be a 0/1 vector of length {self.n}")
        b = v.astype(np.uint8)
        return tuple(int(a) for a in b), _frozen_view(b)

    def referee(self, realizable: bool, *, totals: bool = False) -> _DisjunctionReferee:
        return _DisjunctionReferee(self, realizable)

    def label(self, target: Sequence[int], x: Any) -> int:
        """The label the disjunction of ``target`` gives to ``x``."""
        return int(any(x[i] for i in target))


class _DisjunctionReferee(Referee):
    needs_certificate = True

    def __init__(self, space: KDisjunctionSpace, realizable: bool):
        super().__init__(realizable, space)
        self._wrong = 0  # folded: the target's mistakes

    def commit(self, certificate: Any) -> None:
        if certificate is None:
            return
        try:
            target = sorted({int(i) for i in certificate})
        except (TypeError, ValueError):
            raise InvalidArgumentError(f"certificate: expected a set of variable indices, got {certificate!r}") from None
        if len(target) > self.space.k or any(not 0 <= i < self.space.n for i in target):
            raise InvalidArgumentError(
                f"certificate: expected at most k = {self.space.k} indices in [0, {self.space.n - 1}], got {target}"
            )
        self.certificate = tuple(target)

    def round_error(self, t: int, x: Any, y: int) -> str | None:
        if not self.realizable or self.certificate is None:
            return None
        truth = self.space.label(self.certificate, x)
        if truth != y:
            return f"label {y} contradicts the target disjunction {list(self.certificate)}, which gives {truth}"
        return None

    def finish(self, rounds: Sequence) -> dict:
        if self.certificate is None:
            return {}
        wrong = sum(self.space.label(self.certificate, r.x) != r.y for r in rounds)
        return {"target": self.certificate, "best_hypothesis_mistakes": wrong}

    def fold(self, xs: Sequence, ys: Sequence[int]) -> None:
        target = self.certificate
        if target is not None:
            label = self.space.label
            self._wrong += sum(label(target, x) != y for x, y in zip(xs, ys))

    def folded(self, n: int) -> dict:
        if self.certificate is None:
            return {}
        return {"target": self.certificate, "best_hypothesis_mistakes": self._wrong}


# ---------------------------------------------------------------------- experts
@frozen
class ExpertAdvice(Space):
    """Prediction with expert advice: each instance is the advice of ``d`` experts.

    An instance is a vector in [0, 1]^d (expert ``i`` predicts label 1 with weight
    ``x_i``); the loss of expert ``i`` in a round with label ``y`` is ``|x_i - y|``.
    Any cost vector ``v`` in [0, 1]^d is the advice ``x = v`` with label 0, so this is
    also the textbook's expert game with arbitrary costs.  The transcript's
    ``best_hypothesis_mistakes`` is the loss of the best expert in hindsight, so its
    ``regret`` is the regret of the experts setting.  A realizable game requires some
    expert with zero loss so far.

    Examples
    --------
    >>> S = ExpertAdvice(3)
    >>> S.instance([1, 0, 0.5])[0]
    (1.0, 0.0, 0.5)
    """

    d: int = field(converter=lambda v: check_int("d", v, 1))

    hindsight = True  # the best expert's loss over any rounds (the Setting protocol)

    def describe(self) -> str:
        return f"experts(d={self.d})"

    def instance(self, x: Any) -> tuple[tuple, np.ndarray]:
        v = _vector(x, self.d, "advice")
        if np.any(v < 0) or np.any(v > 1):
            raise ValueError("advice must lie in [0, 1]^d")
        return tuple(float(a) for a in v), _frozen_view(v)

    def hindsight_curve(self, xs: Sequence, ys: Sequence[int]) -> np.ndarray:
        """The smallest loss of an expert over the first ``t`` rounds, ``t = 0, ..., len(ys)``
        (the :class:`~mistakebound.game.setting.Setting` protocol).

        Examples
        --------
        >>> ExpertAdvice(2).hindsight_curve([(1.0, 0.5), (1.0, 0.0)], [0, 0]).tolist()
        [0.0, 0.5, 0.5]
        """
        losses = np.zeros(self.d)
        best = [0.0]
        for x, y in zip(xs, ys):
            losses += np.abs(np.asarray(x, dtype=float) - y)
            best.append(float(losses.min()))
        return np.asarray(best)

    def referee(self, realizable: bool, *, totals: bool = False) -> _ExpertReferee:
        return _ExpertReferee(self, realizable)


class _ExpertReferee(Referee):
    def __init__(self, space: ExpertAdvice, realizable: bool):
        super().__init__(realizable, space)
        self.losses = np.zeros(space.d)
        self._folded: list[int] | None = None  # folded: each expert's loss, exact, times 2**SHIFT

    def round_error(self, t: int, x: Any, y: int) -> str | None:
        if self.realizable and not np.any((self.losses + np.abs(np.asarray(x) - y)) == 0):
            return f"label {y}: no expert has been right in every round so far"
        return None

    def update(self, x: Any, y: int) -> None:
        self.losses += np.abs(np.asarray(x) - y)

    def finish(self, rounds: Sequence) -> dict:
        if not rounds:
            return {"best_hypothesis_mistakes": 0.0}
        X = np.array([r.x for r in rounds], dtype=float)
        y = np.array([r.y for r in rounds], dtype=float)[:, None]
        return {"best_hypothesis_mistakes": float(min(math.fsum(c) for c in np.abs(X - y).T))}

    def fold(self, xs: Sequence, ys: Sequence[int]) -> None:
        X = np.array(list(xs), dtype=float).reshape(len(ys), self.space.d)
        sums = exact_column_sums(np.abs(X - np.asarray(ys, dtype=float)[:, None]))
        self._folded = sums if self._folded is None else [a + b for a, b in zip(self._folded, sums)]

    def folded(self, n: int) -> dict:
        if not n:
            return {"best_hypothesis_mistakes": 0.0}
        return {"best_hypothesis_mistakes": float(min(Fraction(v, 1 << SHIFT) for v in self._folded))}


#: The spaces by the name their ``describe()`` prints (and the command line takes, as
#: ``halfspaces:d=16,R=1,gamma=0.25``, see :mod:`mistakebound.game.registry`).
SPACES: dict[str, type] = {
    "halfspaces": LinearSpace,
    "k_disjunctions": KDisjunctionSpace,
    "experts": ExpertAdvice,
}
