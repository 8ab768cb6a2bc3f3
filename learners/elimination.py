"""DisjunctionElimination: learn a monotone disjunction by crossing out variables.

The first example of the mistake-bound lecture notes (seed ``001``, "Example:
Disjunctions"): start from the disjunction of all ``n`` variables and, after a wrong
prediction, delete every variable of the hypothesis that is 1 in the instance.  Also
holds :func:`binary_vector`, the 0/1 conversion shared by the disjunction learners.

Examples
--------
>>> L = DisjunctionElimination()
>>> L.predict_one((0, 1, 1, 0))
1
>>> L.learn_one((0, 1, 1, 0), 0)
>>> L.hypothesis
(0, 3)
>>> L.predict_one((0, 1, 1, 0)), L.predict_one((1, 0, 0, 0))
(0, 1)
"""

from __future__ import annotations

from typing import Any

import numpy as np
from attrs import define, field

from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.foundations.validation import integer_converter
from mistakebound.game.players import Learner
from mistakebound.learners._setting import disjunction_problem, disjunction_setting, not_applicable
from mistakebound.verification.claims import Bound

__all__ = ["DisjunctionElimination", "binary_vector", "disjunction_dimensions"]

#: The result behind the learner's claim.
SOURCE = "Mistake-bound lecture notes (seed 001), 'Example: Disjunctions': M <= n"


def binary_vector(x: Any, n: int | None = None) -> np.ndarray:
    """``x`` (a tuple, list or numpy array of 0/1 entries) as a boolean numpy vector.

    Parameters
    ----------
    x : sequence of 0/1
    n : int, optional
        The expected length; None accepts any length >= 1.

    Raises
    ------
    InvalidArgumentError
        If ``x`` is not a one-dimensional 0/1 vector of length ``n``.

    Examples
    --------
    >>> binary_vector((0, 1, 1)).tolist()
    [False, True, True]
    >>> binary_vector(np.array([1.0, 0.0]), 2).tolist()
    [True, False]
    """
    try:
        v = np.asarray(x)
    except (TypeError, ValueError):
        raise InvalidArgumentError(f"x: expected a 0/1 vector, got {x!r}") from None
    if v.dtype == bool:
        b = v
    else:
        if v.dtype == object or v.ndim != 1 or not np.all((v == 0) | (v == 1)):
            raise InvalidArgumentError(f"x: expected a one-dimensional 0/1 vector, got {x!r}")
        b = v == 1
    if b.ndim != 1 or b.size == 0:
        raise InvalidArgumentError(f"x: expected a non-empty one-dimensional 0/1 vector, got {x!r}")
    if n is not None and b.size != n:
        raise InvalidArgumentError(f"x: expected a 0/1 vector of length n = {n}, got length {b.size}")
    return b


def disjunction_dimensions(H: Any) -> tuple[int, int]:
    """``(n, k)`` of a disjunction setting: a ``KDisjunctionSpace`` or a class over 0/1 tuples.

    For a finite class (such as ``classes.monotone_disjunctions(n)``) ``n`` is the length of
    its instances and ``k = n`` (a target may use every variable).

    Raises
    ------
    InvalidArgumentError
        If ``H`` is neither.

    Examples
    --------
    >>> from mistakebound import classes
    >>> from mistakebound.game.spaces import KDisjunctionSpace
    >>> disjunction_dimensions(KDisjunctionSpace(1000, 3)), disjunction_dimensions(classes.monotone_disjunctions(4))
    ((1000, 3), (4, 4))
    """
    nk = disjunction_setting(H)
    if nk is None:
        raise InvalidArgumentError(
            f"H: expected a KDisjunctionSpace or a class whose instances are 0/1 tuples, got {H!r}"
        )
    return nk


@define
class DisjunctionElimination(Learner):
    """Predicts with the disjunction of the variables not yet eliminated.

    It starts with all ``n`` variables.  On a false positive (prediction 1, label 0)
    every variable of the hypothesis set to 1 in the instance is removed.  The lecture
    notes state the rule for any mistake; on a false negative no variable of the
    hypothesis is 1 in the instance, so the two readings coincide.  In a realizable
    game the target's variables are never removed (a negative instance has them all 0),
    so the hypothesis always contains the target, false negatives never happen, and
    every mistake removes at least one variable: at most ``n`` mistakes (seed ``001``).
    It is conservative (Definition 2 there): it changes only on mistakes.

    Parameters
    ----------
    n : int, optional
        The number of variables; inferred from the first instance when None.

    Examples
    --------
    >>> from mistakebound import classes, play
    >>> from mistakebound.adversaries.basis_vector_forcer import BasisVectorForcer
    >>> H = classes.monotone_disjunctions(5)
    >>> play(DisjunctionElimination(), BasisVectorForcer(), H, rounds=10, seed=0).mistakes
    5
    >>> DisjunctionElimination().bound(H).value
    5
    """

    n: int | None = field(default=None, converter=integer_converter("n", 1, optional=True))
    _active: np.ndarray | None = field(init=False, default=None, repr=False)

    def __attrs_post_init__(self) -> None:
        if self.n is not None:
            self._active = np.ones(self.n, dtype=bool)

    def state_key(self) -> bytes | None:
        """The learner's state for searches: the variables still in (None while all are)."""
        return None if self._active is None or self._active.all() else np.packbits(self._active).tobytes()

    def _bits(self, x: Any) -> np.ndarray:
        if self._active is None:
            v = binary_vector(x)
            self._active = np.ones(v.size, dtype=bool)
            return v
        return binary_vector(x, self._active.size)

    @property
    def hypothesis(self) -> tuple[int, ...] | None:
        """The 0-based indices of the variables still in the disjunction (None before any instance)."""
        if self._active is None:
            return None
        return tuple(int(i) for i in np.flatnonzero(self._active))

    def predict_one(self, x: Any) -> int:
        v = self._bits(x)
        return int(np.any(v & self._active))

    def learn_one(self, x: Any, y: int) -> None:
        v = self._bits(x)
        if int(np.any(v & self._active)) != int(y):
            self._active &= ~v

    @classmethod
    def for_setting(cls, setting: Any, *, rounds: int | None = None) -> DisjunctionElimination:
        """The learner over the setting's ``n`` variables (a ``KDisjunctionSpace`` or a class over 0/1 tuples).

        Raises
        ------
        NotApplicableError
            On any other setting.

        Examples
        --------
        >>> from mistakebound import classes
        >>> DisjunctionElimination.for_setting(classes.monotone_disjunctions(3))
        DisjunctionElimination(n=3)
        """
        nk = disjunction_setting(setting)
        if nk is None:
            raise not_applicable(cls.__name__, setting, "monotone disjunctions (a KDisjunctionSpace, or a finite "
                                 "class over 0/1 tuples)")
        return cls(nk[0])

    def bound(self, setting: Any, *, rounds: int | None = None, realizable: bool = True,
              transcript: Any = None) -> Bound:
        """``n`` mistakes in a realizable game on monotone disjunctions of ``n`` variables (seed 001).

        Returns
        -------
        Bound
            None with the reason in an unrealizable game (one flipped negative label can
            remove a target variable for good), or on a setting that is not monotone
            disjunctions (a finite class is checked row by row).

        Examples
        --------
        >>> from mistakebound import classes
        >>> from mistakebound.game.spaces import KDisjunctionSpace
        >>> DisjunctionElimination().bound(KDisjunctionSpace(1000, 3)).value
        1000
        >>> DisjunctionElimination().bound(classes.parities(2)).reason
        'the bound is for targets that are monotone disjunctions, and in parities(2) hypothesis 3 (x1 xor x2) labels (1, 1) with 0 and (0, 1) with 1: not a monotone disjunction'
        """
        if not realizable:
            return Bound.none("the elimination bound needs a realizable game: one wrong negative label can "
                              "remove a target variable for good")
        nk, problem = disjunction_problem(type(self).__name__, self.n, setting)
        if nk is None:
            return Bound.none(problem)
        return Bound(nk[0], "mistakes", SOURCE, ("realizable", "the target is a monotone disjunction"))
