"""BasisVectorForcer: present e_1, e_2, ... and answer against the prediction.

It plays on three kinds of ``H``: a finite class whose domain holds the 0/1 basis
vectors, the halfspaces of :class:`~mistakebound.game.spaces.LinearSpace` (where it shows
that the Perceptron's ``(R/gamma)^2`` is tight), and the monotone k-disjunctions of
:class:`~mistakebound.game.spaces.KDisjunctionSpace`.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from attrs import define

from mistakebound.adversaries._forcing import forced_rounds, measure_for
from mistakebound.adversaries._labels import against, legal_against
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.game.play import GameState
from mistakebound.game.players import Adversary
from mistakebound.game.spaces import KDisjunctionSpace, LinearSpace, signed
from mistakebound.verification.claims import Bound

__all__ = ["BasisVectorForcer", "basis_vectors", "linear_forced_count", "shatters_basis_vectors"]

#: Where its forced counts come from.
CLASS_SOURCE = (
    "the basis-vector lower bound (mistake-bound lecture notes, seed 001): when H realises every labelling of "
    "e_1..e_n (monotone disjunctions do), n mistakes on every deterministic learner"
)
LINEAR_SOURCE = (
    "the basis-vector sequence R e_1..R e_k, k = min(d, floor((R/gamma)^2)): every labelling is separated with "
    "margin gamma, so k mistakes on every deterministic learner (the Perceptron's (R/gamma)^2 of seed 001 is tight)"
)
DISJUNCTION_SOURCE = (
    "the basis vectors e_1..e_k of a KDisjunctionSpace(n, k): every labelling is a disjunction of at most k "
    "variables, so k mistakes on every deterministic learner (seed 001)"
)

#: Relative slack when rounding (R/gamma)^2 down to an integer, well inside the
#: referee's tolerance on margins (1e-9), so a ratio that is an integer up to rounding
#: error counts as that integer.
_SLACK = 1e-10


def basis_vectors(H: HypothesisClass) -> list[tuple[int, ...]] | None:
    """The unit vectors e_1..e_n of a domain of 0/1 tuples of length n, or None if absent."""
    first = H.domain[0] if H.n_instances else None
    if not isinstance(first, tuple) or not first:
        return None
    n = len(first)
    vectors = [tuple(int(i == j) for j in range(n)) for i in range(n)]
    return vectors if all(e in H for e in vectors) else None


def shatters_basis_vectors(H: HypothesisClass) -> bool:
    """Whether ``H`` holds the basis vectors of its domain and realises every labelling of them.

    Examples
    --------
    >>> from mistakebound import classes
    >>> shatters_basis_vectors(classes.monotone_disjunctions(3)), shatters_basis_vectors(classes.projections(3))
    (True, False)
    """
    vectors = basis_vectors(H)
    if vectors is None:
        return False
    n = len(vectors)
    if n > 30 or H.n_hypotheses < 2**n:
        return False
    columns = H.matrix[:, [H.index_of(e) for e in vectors]].astype(np.int64)
    patterns = columns @ (1 << np.arange(n, dtype=np.int64))
    return np.unique(patterns).size == 2**n


def linear_forced_count(H: LinearSpace) -> int:
    """``k = min(d, floor((R/gamma)^2))``: how many basis vectors the forcer presents on ``H``.

    The forcer presents ``R e_1, ..., R e_k`` (``e_i`` itself when ``H`` has no radius,
    read as ``R = 1``); any labels ``y_i`` in {-1, +1} of them are separated by
    ``u = sum_i y_i e_i / sqrt(k)``, a unit vector with ``y_i <u, R e_i> = R/sqrt(k)``,
    which is at least ``gamma`` exactly when ``k <= (R/gamma)^2``.  Without a margin
    (``gamma`` None or 0) ``k = d``.  When ``gamma > R`` no instance of norm at most
    ``R`` has margin ``gamma`` and ``k = 0``.

    Examples
    --------
    >>> linear_forced_count(LinearSpace(10, R=1.0, gamma=0.5))
    4
    >>> linear_forced_count(LinearSpace(3, R=1.0, gamma=0.1)), linear_forced_count(LinearSpace(5))
    (3, 5)
    >>> linear_forced_count(LinearSpace(10, R=2.0, gamma=1 / 3 ** 0.5))
    10
    >>> linear_forced_count(LinearSpace(20, R=2.0, gamma=1 / 3 ** 0.5))
    12
    """
    if not H.gamma:
        return H.d
    scale = 1.0 if H.R is None else H.R
    return min(H.d, math.floor((scale / H.gamma) ** 2 * (1 + _SLACK)))


@define
class BasisVectorForcer(Adversary):
    """Presents the basis vectors e_1, e_2, ... in order, labelling against the prediction.

    **Finite classes.**  It applies to classes whose domain is made of 0/1 tuples of
    one length ``n`` and holds every basis vector.  On monotone disjunctions every
    labeling of the basis vectors is realised (the disjunction of the variables
    labelled 1), so every deterministic learner makes ``n`` mistakes, the lower bound
    matching the elimination algorithm's ``n`` (mistake-bound lecture notes, seed 001).
    On other such classes it answers against the prediction whenever that stays
    realizable and with the only legal label otherwise.

    **Halfspaces** (:class:`~mistakebound.game.spaces.LinearSpace`).  It presents
    ``R e_1, ..., R e_k`` with ``k = min(d, floor((R/gamma)^2))`` (``R = 1`` when the
    space has no radius, ``k = d`` when it has no margin; see
    :func:`linear_forced_count`) and answers against every prediction.  Since the
    labels depend on the predictions, the comparator can only be revealed when the
    game ends: ``u = sum_i y_i e_i / sqrt(m)`` over the ``m`` rounds played (``y_i`` in
    {-1, +1} the labels it gave), a unit vector with margin ``R/sqrt(m) >= gamma`` on
    every round.  Every deterministic learner therefore errs ``k`` times.  On the
    Perceptron each ``e_i`` is orthogonal to every earlier update, so
    ``<w, e_i> = 0``, it predicts +1 and every label is -1; when ``(R/gamma)^2`` is an
    integer at most ``d`` the ``k = (R/gamma)^2`` mistakes meet the Perceptron's bound:
    the bound is tight.

    **Monotone k-disjunctions** (:class:`~mistakebound.game.spaces.KDisjunctionSpace`).  It
    presents the 0/1 vectors ``e_1, ..., e_m`` with ``m = min(n, k) = k`` and answers
    against every prediction; at the end it reveals the target, the set of variables
    it labelled 1 (at most ``k``), which labels every round as it did.  Every
    deterministic learner errs ``k`` times, which Winnow's ``O(k log n)`` matches up to
    the logarithm.

    Examples
    --------
    >>> from mistakebound import classes, play
    >>> from mistakebound.learners import Halving
    >>> H = classes.monotone_disjunctions(4)
    >>> play(Halving(H), BasisVectorForcer(), H, rounds=10, seed=0).mistakes
    4
    >>> from mistakebound.learners.perceptron import Perceptron
    >>> T = play(Perceptron(), BasisVectorForcer(), LinearSpace(8, R=1.0, gamma=0.5), rounds=10, seed=0)
    >>> T.mistakes, T.comparator
    (4, (-0.5, -0.5, -0.5, -0.5, 0.0, 0.0, 0.0, 0.0))
    >>> BasisVectorForcer().forces(LinearSpace(8, R=1.0, gamma=0.5), learner=Perceptron()).value
    4
    """

    def applies_to(self, H: Any) -> bool:
        if isinstance(H, HypothesisClass):
            return basis_vectors(H) is not None
        return isinstance(H, (LinearSpace, KDisjunctionSpace))

    def n_rounds(self, H: Any) -> int:
        """How many basis vectors it presents on ``H`` (at most; the horizon may cut it).

        On a space this is the number of mistakes it forces on every deterministic
        learner: ``min(d, floor((R/gamma)^2))`` on halfspaces, ``k`` on k-disjunctions.

        Examples
        --------
        >>> BasisVectorForcer().n_rounds(KDisjunctionSpace(1000, 3))
        3
        """
        if isinstance(H, LinearSpace):
            return linear_forced_count(H)
        if isinstance(H, KDisjunctionSpace):
            return min(H.n, H.k)
        vectors = basis_vectors(H)
        return 0 if vectors is None else len(vectors)

    def next_instance(self, state: GameState) -> Any:
        H = state.H
        i = state.t - 1
        if isinstance(H, HypothesisClass):
            vectors = basis_vectors(H)
            return vectors[i] if i < len(vectors) else None
        if i >= self.n_rounds(H):
            return None
        if isinstance(H, LinearSpace):
            x = np.zeros(H.d)
            x[i] = 1.0 if H.R is None else H.R
            return x
        x = np.zeros(H.n, dtype=np.uint8)
        x[i] = 1
        return x

    def label(self, state: GameState, x: Any, p: float) -> int:
        if isinstance(state.H, HypothesisClass):
            return legal_against(state, x, p)
        return against(p)

    def forces(self, setting: Any, *, learner: Any, rounds: int | None = None, realizable: bool = True) -> Bound:
        """The basis vectors it presents, each a mistake of every deterministic learner.

        ``n`` on a finite class that realises every labelling of its ``n`` basis vectors
        (``classes.monotone_disjunctions(n)``), ``min(d, floor((R/gamma)^2))`` on a
        ``LinearSpace`` (:func:`linear_forced_count`), ``k`` on a
        ``KDisjunctionSpace(n, k)``; the horizon caps it, and a randomized learner pays
        at least half of it in expectation.

        Returns
        -------
        Bound
            None with the reason, in a realizable game, on a finite class that does not
            shatter its basis vectors (there the legal answers are not all against the
            prediction; in an unrealizable game they are).

        Examples
        --------
        >>> from mistakebound import classes
        >>> from mistakebound.learners import Halving
        >>> H = classes.monotone_disjunctions(5)
        >>> BasisVectorForcer().forces(H, learner=Halving(H), rounds=3).value
        3
        >>> G = classes.projections(3)
        >>> BasisVectorForcer().forces(G, learner=Halving(G)).reason
        'projections(3) does not realise every labelling of its basis vectors: no forced count is proven'
        """
        options = dict(learner=learner, rounds=rounds, realizable=realizable)
        if isinstance(setting, HypothesisClass):
            vectors = basis_vectors(setting)
            if vectors is not None and not realizable:  # every answer is against the prediction
                return forced_rounds(len(vectors), source=CLASS_SOURCE, labels_consistent=False, **options)
            if not shatters_basis_vectors(setting):
                return Bound.none(f"{setting.describe()} does not realise every labelling of its basis vectors: "
                                  "no forced count is proven", measure=measure_for(learner, realizable, True))
            return forced_rounds(len(vectors), source=CLASS_SOURCE, **options)
        if isinstance(setting, LinearSpace):
            return forced_rounds(linear_forced_count(setting), source=LINEAR_SOURCE, **options)
        if isinstance(setting, KDisjunctionSpace):
            return forced_rounds(min(setting.n, setting.k), source=DISJUNCTION_SOURCE, **options)
        return Bound.none("BasisVectorForcer plays on finite classes over 0/1 vectors, LinearSpace and "
                          "KDisjunctionSpace", measure=measure_for(learner, realizable, True))

    def certificate(self, state: GameState) -> Any:
        """The witness of the labels given so far (None before round 1).

        On halfspaces the unit comparator ``sum_i y_i e_i / sqrt(m)``; on
        k-disjunctions the set of variables labelled 1.
        """
        history = state.history
        if isinstance(state.H, KDisjunctionSpace) and self.n_rounds(state.H) == 0:
            return set()  # k = 0: the empty disjunction, the only hypothesis, is the target
        if not history:
            return None
        if isinstance(state.H, LinearSpace):
            m = len(history)
            u = np.zeros(state.H.d)
            u[:m] = [signed(r.y) for r in history]
            return u / math.sqrt(m)
        if isinstance(state.H, KDisjunctionSpace):
            return {i for i, r in enumerate(history) if r.y == 1}
        return None
