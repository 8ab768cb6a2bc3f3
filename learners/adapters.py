"""Learners from the ecosystem: river classifiers and scikit-learn ``partial_fit`` estimators.

Two adapters turn an online classifier of another library into a learner of the
game, so that the engine, the adversaries and the bounds of this package apply to it
unchanged:

* :class:`RiverLearner` wraps a river classifier (``learn_one`` / ``predict_one`` on
  dicts of features, river >= 0.21);
* :class:`SklearnLearner` wraps a scikit-learn classifier that has ``partial_fit``
  (``Perceptron``, ``SGDClassifier``, ``PassiveAggressiveClassifier``, the naive
  Bayes models, ...).

Both do the same three jobs at the edge between the game and the library.

**Instances.**  The game hands a learner what the class or space holds: a read-only
numpy vector on a :class:`~mistakebound.game.spaces.LinearSpace`, a 0/1 tuple on
disjunction-like classes, a number on thresholds.  By default vectors (arrays, tuples,
lists) become river's ``{i: x_i}`` or scikit-learn's one-row matrix, and numbers become
``{"x": x}`` or ``[[x]]``.  Any other instance needs ``features=``, a callable from the
instance to a dict (river only), a vector or a number; :class:`OneHot` is such a
callable for any finite domain.  The instance itself is never modified.

**Labels.**  The engine's labels are 0 and 1; ``labels=`` (river) or ``classes=``
(scikit-learn) names the library's label for each, in that order.  A library that
answers ``None`` (river before it has seen a label) or has not been fitted yet
(scikit-learn before the first ``partial_fit``) gets the adapter's ``default`` label,
1 unless set, which is the house convention for a tie.

**Copies.**  The model passed in is a prototype and is never trained: the adapter
learns on a fresh copy (river's ``model.clone()``, ``sklearn.base.clone``), so
``adapter.clone()`` is a fresh learner and two adapters built on one model are
independent.

Deterministic by default.  With ``probabilistic=True`` an adapter offers
``predict_proba_one`` (the library's probability of the label for 1) and the engine
draws the label.  It is off by default because the probabilities of linear models in
both libraries are a sigmoid of the score, not the algorithm's own prediction: drawing
from river's ``Perceptron.predict_proba_one`` turns the Perceptron into a different,
randomized learner for which the ``(R/gamma)^2`` bound says nothing.

**The libraries' Perceptrons.**  river's ``linear_model.Perceptron`` and scikit-learn's
``linear_model.Perceptron`` are the textbook Perceptron (``tests/test_adapters.py``
replays them against an independent implementation): weights start at 0, the update is
``w <- w + y x`` with ``y`` in {-1, +1} whenever ``y <w, x> <= 0`` (so also on a correct
prediction with score exactly 0, as in the textbook's Perceptron, seed 000), and the
prediction is label 1 only when ``<w, x> > 0`` (a tie predicts 0, unlike
:class:`~mistakebound.learners.perceptron.Perceptron`, which predicts 1).  Both add an
intercept learned with the same step 1, which is the Perceptron on ``(x, 1)``: on a
sequence separated with margin ``gamma`` in a ball of radius ``R`` its bound is
``(R^2 + 1) / gamma^2`` (:func:`intercept_margin_bound`) rather than ``(R/gamma)^2``.
scikit-learn's ``Perceptron(fit_intercept=False)`` and river's :func:`river_perceptron`
with ``fit_intercept=False`` are the homogeneous Perceptron of the theorem.

Examples
--------
>>> from river import linear_model
>>> from sklearn.linear_model import Perceptron as SkPerceptron
>>> from mistakebound import play
>>> from mistakebound.game.spaces import LinearSpace
>>> from mistakebound.adversaries.basis_vector_forcer import BasisVectorForcer
>>> S = LinearSpace(8, R=1.0, gamma=0.5)
>>> play(RiverLearner(linear_model.Perceptron()), BasisVectorForcer(), S, rounds=20, seed=0).mistakes
4
>>> play(SklearnLearner(SkPerceptron(fit_intercept=False)), BasisVectorForcer(), S, rounds=20, seed=0).mistakes
4
"""

from __future__ import annotations

import importlib.util
import math
import numbers
import re
from collections.abc import Callable, Hashable, Iterable
from typing import Any

import numpy as np
from attrs import define, field, frozen

from mistakebound.foundations.errors import InvalidArgumentError, NotApplicableError
from mistakebound.foundations.validation import check_flag, check_int, check_real
from mistakebound.game.hypothesis_class import HypothesisClass, require_binary
from mistakebound.game.players import Learner
from mistakebound.game.spaces import ExpertAdvice, KDisjunctionSpace, LinearSpace
from mistakebound.learners._setting import describe_setting, not_applicable
from mistakebound.learners.perceptron import margin_bound
from mistakebound.verification.claims import Bound

__all__ = [
    "RiverLearner",
    "SklearnLearner",
    "OneHot",
    "river_features",
    "sklearn_features",
    "river_perceptron",
    "intercept_margin_bound",
]

#: The theorem behind the claim for the libraries' Perceptrons.
PERCEPTRON_SOURCE = (
    "Theorem 4 of the mistake-bound lecture notes (seed 001) on the embedded points (x, 1): "
    "M <= (R^2 + 1)/gamma^2 with the intercept, (R/gamma)^2 without"
)


# ---------------------------------------------------------------------- features
@frozen
class OneHot:
    """Encodes the instances of a finite domain as one-hot vectors (a ``features=`` callable).

    Parameters
    ----------
    domain : iterable of hashable
        The instances, in the order of the coordinates (e.g. ``H.domain``).

    Raises
    ------
    InvalidArgumentError
        On an empty domain or one with repeated instances; calling it on an instance
        outside the domain raises too.

    Examples
    --------
    >>> enc = OneHot(["a", "b", "c"])
    >>> enc("b").tolist()
    [0.0, 1.0, 0.0]
    >>> river_features(enc("c"))
    {0: 0.0, 1: 0.0, 2: 1.0}
    """

    domain: tuple = field(converter=tuple)
    _index: dict = field(init=False, repr=False, eq=False)

    def __attrs_post_init__(self) -> None:
        if not self.domain:
            raise InvalidArgumentError("domain: expected at least one instance, got an empty domain")
        index = {}
        for i, x in enumerate(self.domain):
            if not isinstance(x, Hashable):
                raise InvalidArgumentError(f"domain: expected hashable instances, got {x!r}")
            if x in index:
                raise InvalidArgumentError(f"domain: instance {x!r} appears twice (positions {index[x]} and {i})")
            index[x] = i
        object.__setattr__(self, "_index", index)

    def __call__(self, x: Any) -> np.ndarray:
        try:
            i = self._index[x]
        except (KeyError, TypeError):
            raise InvalidArgumentError(f"x: instance {x!r} is not in the one-hot domain of {len(self.domain)} instances") from None
        v = np.zeros(len(self.domain))
        v[i] = 1.0
        return v


def _is_number(x: Any) -> bool:
    return isinstance(x, (numbers.Real, np.bool_)) and not isinstance(x, np.ndarray)


def _vector(x: Any) -> np.ndarray | None:
    """``x`` as a 1-d float vector, or None when it is not a vector of numbers."""
    if isinstance(x, np.ndarray) or (isinstance(x, (tuple, list)) and all(_is_number(a) for a in x)):
        try:
            v = np.asarray(x, dtype=float)
        except (TypeError, ValueError):
            return None
        return v if v.ndim == 1 else None
    return None


def _no_encoding(x: Any, library: str, accepted: str) -> InvalidArgumentError:
    return InvalidArgumentError(
        f"x: cannot turn the instance {x!r} into {library} features; expected {accepted}. "
        "Pass features=, a callable from an instance to one of those "
        "(mistakebound.learners.adapters.OneHot(H.domain) encodes any finite domain)"
    )


def river_features(x: Any) -> dict:
    """The default encoding of an instance as river features.

    A vector (numpy array, tuple or list of numbers) becomes ``{i: x_i}`` (every
    coordinate, zeros included), a number ``{"x": x}``, and a dict is copied.  The
    input is never modified.

    Raises
    ------
    InvalidArgumentError
        For anything else (use ``features=``, e.g. :class:`OneHot`).

    Examples
    --------
    >>> import numpy as np
    >>> river_features(np.array([0.5, 0.0])), river_features((1, 0)), river_features(3)
    ({0: 0.5, 1: 0.0}, {0: 1.0, 1: 0.0}, {'x': 3.0})
    """
    if isinstance(x, dict):
        return dict(x)
    if _is_number(x):
        return {"x": float(x)}
    v = _vector(x)
    if v is None:
        raise _no_encoding(x, "river", "a dict, a vector of numbers or a number")
    return {i: float(a) for i, a in enumerate(v)}


def sklearn_features(x: Any) -> np.ndarray:
    """The default encoding of an instance as a one-row scikit-learn matrix.

    A vector (numpy array, tuple or list of numbers) becomes a ``(1, d)`` float matrix,
    a number ``[[x]]``; the input is copied, never modified.

    Raises
    ------
    InvalidArgumentError
        For anything else, dicts included (use ``features=``, e.g. :class:`OneHot`).

    Examples
    --------
    >>> sklearn_features((1, 0)).tolist(), sklearn_features(2.5).tolist()
    ([[1.0, 0.0]], [[2.5]])
    """
    if _is_number(x):
        return np.array([[float(x)]])
    v = _vector(x)
    if v is None:
        raise _no_encoding(x, "scikit-learn", "a vector of numbers or a number")
    return np.array(v, dtype=float).reshape(1, -1)


# ---------------------------------------------------------------------- validation
def _check_default(value: Any) -> int:
    return check_int("default", value, 0, 1)


def _check_pair(name: str) -> Callable[[Any], tuple]:
    def convert(value: Any) -> tuple:
        try:
            pair = tuple(value)
        except TypeError:
            raise InvalidArgumentError(f"{name}: expected a pair (label for 0, label for 1), got {value!r}") from None
        if len(pair) != 2 or not all(isinstance(a, Hashable) for a in pair) or pair[0] == pair[1]:
            raise InvalidArgumentError(
                f"{name}: expected two distinct hashable labels (the library's label for 0, then for 1), got {value!r}"
            )
        return pair

    return convert


def _check_features(value: Any) -> Callable | None:
    if value is not None and not callable(value):
        raise InvalidArgumentError(f"features: expected None or a callable from an instance to features, got {value!r}")
    return value


def _check_flag(name: str) -> Callable[[Any], bool]:
    return lambda value: check_flag(name, value)


def _one_line(model: Any) -> str:
    """river's multi-line repr of an estimator on one line: ``Perceptron(l2=0.1, ...)``."""
    text = "\n".join(line.strip() for line in repr(model).splitlines())
    return text.replace(" (\n", "(").replace("\n)", ")").replace(" ()", "()").replace("\n", ", ")


def _label_of(raw: Any, pair: tuple, default: int, what: str) -> int:
    """The engine's label for the library's label ``raw`` (``default`` for None)."""
    if raw is None:
        return default
    if isinstance(raw, np.ndarray) and raw.shape == ():
        raw = raw.item()
    if raw == pair[1]:
        return 1
    if raw == pair[0]:
        return 0
    raise InvalidArgumentError(f"{what}: the model predicted {raw!r}, which is neither of its labels {pair!r} for 0 and 1")


# ---------------------------------------------------------------------- river
@define
class RiverLearner(Learner):
    """A river classifier as a learner of the game.

    Each round the instance is encoded as a dict of features (``features``, default
    :func:`river_features`), the model's ``predict_one`` answer is mapped to 0/1 through
    ``labels`` (``None``, river's answer before it has learned anything, becomes
    ``default``), and ``learn_one(features, labels[y])`` trains it.  The model passed in
    is a prototype: the adapter trains ``model.clone()`` and never touches ``model``.

    Parameters
    ----------
    model : river classifier
        Anything with river's ``learn_one``, ``predict_one`` and ``clone``.
    features : callable, optional
        Instance -> dict of features, vector or number (then encoded by
        :func:`river_features`).  Needed for instances that are neither vectors nor
        numbers; :class:`OneHot` encodes any finite domain.
    labels : pair
        The model's labels for the engine's 0 and 1; default ``(False, True)``, river's
        convention for binary classifiers (``0``/``1`` compare equal to them).
    default : {0, 1}
        The label predicted when the model answers ``None``; 1, the house tie rule.
    probabilistic : bool
        If true, offer ``predict_proba_one`` (the model's probability of ``labels[1]``,
        normalised over the two labels; ``default`` when it gives neither) and the engine
        draws the label.  The model must have ``predict_proba_one``.  Off by default
        (see the module docstring: for linear models the probability is a sigmoid of the
        score, not the algorithm's prediction).

    Attributes
    ----------
    model_ : river classifier
        The copy being trained (read it; do not train it).

    Raises
    ------
    InvalidArgumentError
        If ``model`` lacks the methods, or a parameter is malformed; in a game, when the
        model predicts a label outside ``labels`` or an instance cannot be encoded.

    Examples
    --------
    >>> from river import linear_model
    >>> model = linear_model.Perceptron()
    >>> L = RiverLearner(model)
    >>> L.predict_one((1.0, 0.0))    # river scores 0 as a tie between False and True: label 0
    0
    >>> L.learn_one((1.0, 0.0), 1)   # a mistake: w = (1, 0), intercept 1
    >>> L.predict_one((1.0, 0.0)), L.model_.weights, model.weights
    (1, {0: 1.0, 1: 0.0}, {})
    >>> L.clone().model_.weights     # a fresh copy of the untouched prototype
    {}
    >>> from river import tree
    >>> RiverLearner(tree.HoeffdingTreeClassifier()).predict_one(3)   # None before learning
    1
    """

    model: Any = field(repr=_one_line)
    features: Callable | None = field(default=None, converter=_check_features)
    labels: tuple = field(default=(False, True), converter=_check_pair("labels"))
    default: int = field(default=1, converter=_check_default)
    probabilistic: bool = field(default=False, converter=_check_flag("probabilistic"))
    _model: Any = field(init=False, default=None, repr=False)

    def __attrs_post_init__(self) -> None:
        missing = [m for m in ("learn_one", "predict_one", "clone") if not callable(getattr(self.model, m, None))]
        if missing:
            raise InvalidArgumentError(
                f"model: expected a river classifier with learn_one, predict_one and clone, "
                f"got {type(self.model).__name__} lacking {', '.join(missing)}"
            )
        if self.probabilistic and not callable(getattr(self.model, "predict_proba_one", None)):
            raise InvalidArgumentError(
                f"probabilistic: True needs a model with predict_proba_one; {type(self.model).__name__} has none"
            )
        self._model = self.model.clone()

    @property
    def model_(self) -> Any:
        """The model being trained (a clone of ``model``)."""
        return self._model

    def _encode(self, x: Any) -> dict:
        return river_features(self.features(x) if self.features is not None else x)

    def predict_one(self, x: Any) -> int:
        """The model's prediction as 0/1 (``default`` when it answers None)."""
        return _label_of(self._model.predict_one(self._encode(x)), self.labels, self.default, "predict_one")

    def _predict_proba_one(self, x: Any) -> float:
        proba = self._model.predict_proba_one(self._encode(x)) or {}
        p0, p1 = (float(proba.get(a, 0.0)) for a in self.labels)
        total = p0 + p1
        if not (math.isfinite(total) and total > 0):
            return float(self.default)
        return min(1.0, max(0.0, p1 / total))

    @property
    def predict_proba_one(self) -> Callable[[Any], float]:
        """With ``probabilistic=True``: the model's probability of label 1; absent otherwise."""
        if not self.probabilistic:
            raise AttributeError("predict_proba_one: this RiverLearner is deterministic (probabilistic=False)")
        return self._predict_proba_one

    def learn_one(self, x: Any, y: int) -> None:
        """Train the model on ``(features(x), labels[y])``."""
        if isinstance(y, bool) or y not in (0, 1):
            raise InvalidArgumentError(f"y: expected the engine's label 0 or 1, got {y!r}")
        self._model.learn_one(self._encode(x), self.labels[int(y)])

    @classmethod
    def for_setting(cls, setting: Any, *, rounds: int | None = None) -> RiverLearner:
        """river's ``linear_model.Perceptron`` behind the adapter, for a label game on ``setting``.

        It plays wherever instances are vectors or numbers (halfspaces, k-disjunctions,
        expert advice, finite classes over numbers or numeric tuples); on a finite class
        with other instances they are one-hot encoded (:class:`OneHot` of the domain).

        Raises
        ------
        NotApplicableError
            On a setting that is not a label game (an OCO game), or when river is not
            installed.

        Examples
        --------
        >>> type(RiverLearner.for_setting(LinearSpace(2)).model).__name__
        'Perceptron'
        """
        features = _default_features(cls.__name__, setting)
        try:
            from river import linear_model
        except ImportError:
            raise NotApplicableError(f"{cls.__name__} needs river: pip install 'mistakebound[river]'") from None
        return cls(linear_model.Perceptron(), features=features)

    def bound(self, setting: Any, *, rounds: int | None = None, realizable: bool = True,
              transcript: Any = None) -> Bound:
        """``(R^2 + 1)/gamma^2`` for river's Perceptron (it learns an intercept), ``(R/gamma)^2`` without one.

        The claim needs river's ``linear_model.Perceptron``, or the homogeneous form of
        :func:`river_perceptron` (``fit_intercept=False``), with the textbook settings
        (no penalty, zero initial weights, gradient clipping no tighter than ``R``),
        the default encoding (``features`` None), deterministic predictions, and a
        realizable game on a ``LinearSpace`` with a radius and a margin.  With the
        intercept it is the Perceptron on the embedded points ``(x, 1)``
        (:func:`intercept_margin_bound`).  Any other model: none.

        Examples
        --------
        >>> from river import linear_model
        >>> S = LinearSpace(8, R=1.0, gamma=0.5)
        >>> RiverLearner(linear_model.Perceptron()).bound(S).value
        8.0
        >>> RiverLearner(river_perceptron(fit_intercept=False)).bound(S).value
        4.0
        >>> RiverLearner(linear_model.LogisticRegression()).bound(S).reason
        'no proven bound for this river model: only the Perceptron (hinge loss at 0, plain SGD, no penalty, zero initial weights) has one'
        """
        fits_intercept, problem = _river_perceptron(self.model)
        if fits_intercept is None:
            return Bound.none(problem)
        problem = _perceptron_game_problem(self.features, self.probabilistic, setting, realizable)
        if problem:
            return Bound.none(problem)
        if self.model.clip_gradient < max(setting.R, 1.0):
            return Bound.none(f"river's Perceptron clips gradients at {self.model.clip_gradient:g} < R = "
                              f"{setting.R:g}: its updates are not the Perceptron's")
        if fits_intercept:
            value = intercept_margin_bound(setting.R, setting.gamma)
        else:
            value = margin_bound(setting.R, setting.gamma)
        return Bound(value, "mistakes", PERCEPTRON_SOURCE, ("realizable", "||x|| <= R", "margin gamma > 0"))


# ---------------------------------------------------------------------- scikit-learn
@define
class SklearnLearner(Learner):
    """A scikit-learn classifier with ``partial_fit`` as a learner of the game.

    Each round the instance becomes a one-row matrix (``features``, default
    :func:`sklearn_features`); before the first ``partial_fit`` the adapter predicts
    ``default``, afterwards the estimator's ``predict`` mapped to 0/1 through
    ``classes``.  ``learn_one`` calls ``partial_fit`` on every round (whether or not
    the prediction was a mistake; the estimator decides what to do with it), passing
    ``classes`` on the first call.  The estimator passed in is a prototype: the adapter
    trains ``sklearn.base.clone(estimator)``, so the estimator is never fitted and
    ``clone()`` gives a fresh learner.

    Parameters
    ----------
    estimator : scikit-learn classifier
        An unfitted or fitted estimator with ``partial_fit`` and ``predict``; only its
        parameters are used.
    classes : pair
        The estimator's classes for the engine's labels 0 and 1, in that order;
        default ``(0, 1)``.
    features : callable, optional
        Instance -> vector or number; :class:`OneHot` encodes any finite domain.
    default : {0, 1}
        The label predicted before the first ``partial_fit``; 1, the house tie rule.
    probabilistic : bool
        If true, offer ``predict_proba_one`` (the estimator's ``predict_proba`` of
        ``classes[1]``; ``default`` before the first fit) and the engine draws the
        label.  The estimator must have ``predict_proba`` (e.g.
        ``SGDClassifier(loss="log_loss")``).  Off by default: deterministic ``predict``.

    Attributes
    ----------
    estimator_ : scikit-learn classifier
        The copy being trained (read it; do not train it).
    n_fitted : int
        How many ``partial_fit`` calls it has made.

    Raises
    ------
    InvalidArgumentError
        If the estimator lacks ``partial_fit`` / ``predict`` (or ``predict_proba`` with
        ``probabilistic=True``) or a parameter is malformed; in a game, when an instance
        cannot be encoded or the estimator predicts a class outside ``classes``.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import Perceptron
    >>> est = Perceptron(fit_intercept=False)
    >>> L = SklearnLearner(est)
    >>> x = np.array([1.0, -2.0])
    >>> L.predict_one(x)              # not fitted yet: the default label
    1
    >>> L.learn_one(x, 0)             # y <w, x> = 0 <= 0: an update, w = -x
    >>> L.estimator_.coef_.tolist(), L.predict_one(x), hasattr(est, "coef_")
    ([[-1.0, 2.0]], 0, False)
    >>> SklearnLearner(Perceptron(), classes=(-1, 1)).clone().n_fitted
    0
    """

    estimator: Any = field()
    classes: tuple = field(default=(0, 1), converter=_check_pair("classes"))
    features: Callable | None = field(default=None, converter=_check_features)
    default: int = field(default=1, converter=_check_default)
    probabilistic: bool = field(default=False, converter=_check_flag("probabilistic"))
    _estimator: Any = field(init=False, default=None, repr=False)
    _n_fitted: int = field(init=False, default=0, repr=False)

    def __attrs_post_init__(self) -> None:
        needed = ("partial_fit", "predict", "get_params")
        missing = [m for m in needed if not callable(getattr(self.estimator, m, None))]
        if missing:
            raise InvalidArgumentError(
                f"estimator: expected a scikit-learn classifier with partial_fit and predict, "
                f"got {type(self.estimator).__name__} lacking {', '.join(missing)}"
            )
        if self.probabilistic and not hasattr(self.estimator, "predict_proba"):
            raise InvalidArgumentError(
                f"probabilistic: True needs an estimator with predict_proba; {self.estimator!r} has none"
            )
        try:
            from sklearn.base import clone
        except ImportError as exc:
            raise ModuleNotFoundError(
                "SklearnLearner needs scikit-learn: pip install 'mistakebound[sklearn]'", name="sklearn"
            ) from exc
        self._estimator = clone(self.estimator)

    @property
    def estimator_(self) -> Any:
        """The estimator being trained (a clone of ``estimator``)."""
        return self._estimator

    @property
    def n_fitted(self) -> int:
        """How many ``partial_fit`` calls it has made."""
        return self._n_fitted

    def _encode(self, x: Any) -> np.ndarray:
        return sklearn_features(self.features(x) if self.features is not None else x)

    def predict_one(self, x: Any) -> int:
        """The estimator's ``predict`` as 0/1 (``default`` before the first ``partial_fit``)."""
        if not self._n_fitted:
            return self.default
        raw = self._estimator.predict(self._encode(x))[0]
        return _label_of(raw, self.classes, self.default, "predict")

    def _predict_proba_one(self, x: Any) -> float:
        if not self._n_fitted:
            return float(self.default)
        proba = self._estimator.predict_proba(self._encode(x))[0]
        where = np.flatnonzero(np.asarray(self._estimator.classes_) == self.classes[1])
        p = float(proba[where[0]]) if where.size else 0.0
        return min(1.0, max(0.0, p))

    @property
    def predict_proba_one(self) -> Callable[[Any], float]:
        """With ``probabilistic=True``: the estimator's probability of label 1; absent otherwise."""
        if not self.probabilistic:
            raise AttributeError("predict_proba_one: this SklearnLearner is deterministic (probabilistic=False)")
        return self._predict_proba_one

    def learn_one(self, x: Any, y: int) -> None:
        """``partial_fit`` on the one example ``(features(x), classes[y])`` (``classes`` on the first call)."""
        if isinstance(y, bool) or y not in (0, 1):
            raise InvalidArgumentError(f"y: expected the engine's label 0 or 1, got {y!r}")
        X = self._encode(x)
        target = [self.classes[int(y)]]
        if self._n_fitted:
            self._estimator.partial_fit(X, target)
        else:
            self._estimator.partial_fit(X, target, classes=np.array(self.classes))
        self._n_fitted += 1

    @classmethod
    def for_setting(cls, setting: Any, *, rounds: int | None = None) -> SklearnLearner:
        """scikit-learn's ``linear_model.Perceptron()`` behind the adapter, for a label game on ``setting``.

        It plays where :meth:`RiverLearner.for_setting` does (one-hot encoding a finite
        class whose instances are not numbers or numeric tuples).

        Raises
        ------
        NotApplicableError
            On a setting that is not a label game, or when scikit-learn is not installed.

        Examples
        --------
        >>> SklearnLearner.for_setting(LinearSpace(2)).estimator
        Perceptron()
        """
        features = _default_features(cls.__name__, setting)
        try:
            from sklearn.linear_model import Perceptron
        except ImportError:
            raise NotApplicableError(f"{cls.__name__} needs scikit-learn: pip install 'mistakebound[sklearn]'") from None
        return cls(Perceptron(), features=features)

    def bound(self, setting: Any, *, rounds: int | None = None, realizable: bool = True,
              transcript: Any = None) -> Bound:
        """scikit-learn's Perceptron: ``(R^2 + 1)/gamma^2``, or ``(R/gamma)^2`` with ``fit_intercept=False``.

        The claim needs ``sklearn.linear_model.Perceptron`` without a penalty or class
        weights (any ``eta0 > 0``: from zero weights the step only scales them), the
        default encoding, deterministic predictions, and a realizable game on a
        ``LinearSpace`` with a radius and a margin.  Before its first ``partial_fit`` the
        adapter answers ``default``, and that first call always updates (its weights are
        0), so every mistake is an update and the Perceptron's bound on updates applies.

        Examples
        --------
        >>> from sklearn.linear_model import Perceptron, SGDClassifier
        >>> S = LinearSpace(8, R=1.0, gamma=0.5)
        >>> SklearnLearner(Perceptron()).bound(S).value, SklearnLearner(Perceptron(fit_intercept=False)).bound(S).value
        (8.0, 4.0)
        >>> SklearnLearner(SGDClassifier()).bound(S).reason
        'no proven bound for an arbitrary scikit-learn estimator: mistakebound knows one for linear_model.Perceptron only'
        """
        problem = _sklearn_perceptron_problem(self.estimator)
        if problem:
            return Bound.none(problem)
        problem = _perceptron_game_problem(self.features, self.probabilistic, setting, realizable)
        if problem:
            return Bound.none(problem)
        if self.estimator.get_params()["fit_intercept"]:
            value = intercept_margin_bound(setting.R, setting.gamma)
        else:
            value = margin_bound(setting.R, setting.gamma)
        return Bound(value, "mistakes", PERCEPTRON_SOURCE, ("realizable", "||x|| <= R", "margin gamma > 0"))


# ---------------------------------------------------------------------- claims and defaults
def _default_features(name: str, setting: Any) -> Callable | None:
    """``features=`` for a game on ``setting``: None for numbers and numeric vectors, OneHot for other domains."""
    if isinstance(setting, (LinearSpace, KDisjunctionSpace, ExpertAdvice)):
        return None
    if isinstance(setting, HypothesisClass):
        require_binary(setting, what=f"{name}, a Perceptron of two labels,")
        if all(_is_number(x) or _vector(x) is not None for x in setting.domain):
            return None
        return OneHot(setting.domain)
    raise not_applicable(name, setting, "label games: halfspaces, k-disjunctions, expert advice and finite classes")


def _rate(value: Any) -> float | None:
    """A constant learning rate as a number (a number, or river's ``Constant`` scheduler), else None."""
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        return float(value)
    inner = getattr(value, "learning_rate", None)
    if type(value).__name__ == "Constant" and isinstance(inner, numbers.Real):
        return float(inner)
    return None


def _river_perceptron(model: Any) -> tuple[bool | None, str]:
    """``(fits_intercept, "")`` when ``model`` is a river Perceptron of the textbook, else ``(None, why)``.

    river's ``linear_model.Perceptron`` (with its intercept), or the homogeneous form
    of :func:`river_perceptron` (``LogisticRegression`` with plain SGD at a constant
    rate, the hinge loss at threshold 0 and an intercept rate of 0); both with no
    penalty and zero initial weights.
    """
    try:
        from river import linear_model, optim
    except ImportError:
        return None, "river is not installed"
    if not isinstance(model, linear_model.LogisticRegression):
        return None, "no proven bound for an arbitrary river model: mistakebound knows one for its Perceptrons only"
    textbook = (
        type(model.optimizer) is optim.SGD
        and (_rate(getattr(model.optimizer, "lr", None)) or 0) > 0
        and type(model.loss) is optim.losses.Hinge and model.loss.threshold == 0
        and model.l2 == 0 and getattr(model, "l1", 0) == 0
        and isinstance(model.initializer, optim.initializers.Zeros) and model.intercept_init == 0
    )
    if not textbook:
        return None, ("no proven bound for this river model: only the Perceptron (hinge loss at 0, plain SGD, "
                      "no penalty, zero initial weights) has one")
    weights, intercept = _rate(model.optimizer.lr), _rate(model.intercept_lr)
    if type(model) is linear_model.Perceptron and intercept == weights:
        return True, ""
    if intercept == 0:
        return False, ""
    return None, "river's Perceptron with an intercept learned at another rate than the weights has no stated bound"


def _sklearn_perceptron_problem(estimator: Any) -> str:
    """Why ``estimator`` is not scikit-learn's textbook Perceptron (``""`` when it is)."""
    try:
        from sklearn.linear_model import Perceptron
    except ImportError:
        return "scikit-learn is not installed"
    if type(estimator) is not Perceptron:
        return ("no proven bound for an arbitrary scikit-learn estimator: mistakebound knows one for "
                "linear_model.Perceptron only")
    params = estimator.get_params()
    if params["penalty"] is not None or params["class_weight"] is not None:
        return "scikit-learn's Perceptron with a penalty or class weights is not the textbook Perceptron"
    return ""


def _perceptron_game_problem(features: Any, probabilistic: bool, setting: Any, realizable: bool) -> str:
    """Why the Perceptron's margin bound does not apply to this adapter's game (``""`` when it does)."""
    if features is not None:
        return "the margin bound is about the instances themselves; features= re-encodes them"
    if probabilistic:
        return "probabilistic=True draws from a sigmoid of the score: a different, randomized learner"
    if not isinstance(setting, LinearSpace):
        return f"the Perceptron's bound needs a LinearSpace with a radius and a margin, not {describe_setting(setting)}"
    if not realizable:
        return "the margin bound needs a realizable game"
    if setting.R is None or not setting.gamma:
        return "the margin bound needs the space's radius R and a margin gamma > 0"
    return ""


# ---------------------------------------------------------------------- helpers and bounds
def river_perceptron(fit_intercept: bool = True) -> Any:
    """river's Perceptron, with its intercept (river's class) or without (the homogeneous one).

    river's ``linear_model.Perceptron`` has no switch for its intercept; without it, it
    is ``LogisticRegression`` with river's Perceptron settings (step 1, the hinge loss
    with threshold 0, zero initial weights) and an intercept step of 0, which is the
    Perceptron of Theorem 4 of the mistake-bound lecture notes (seed 001).  Needs river.

    Examples
    --------
    >>> type(river_perceptron()).__name__, type(river_perceptron(fit_intercept=False)).__name__
    ('Perceptron', 'LogisticRegression')
    """
    try:
        from river import linear_model, optim
    except ImportError as exc:
        raise ModuleNotFoundError("river_perceptron needs river: pip install 'mistakebound[river]'", name="river") from exc
    if fit_intercept:
        return linear_model.Perceptron()
    return linear_model.LogisticRegression(
        optimizer=optim.SGD(1), loss=optim.losses.Hinge(threshold=0.0), intercept_lr=0.0,
        initializer=optim.initializers.Zeros(),
    )


def intercept_margin_bound(R: float, gamma: float) -> float:
    """``(R^2 + 1) / gamma^2``: the Perceptron's bound when it also learns an intercept.

    A Perceptron with an intercept updated by the same step as the weights (river's and
    scikit-learn's, the intercept starting at 0) is the Perceptron on the embedded
    points ``(x, 1)`` (the embedding of seed 001, section on linear thresholds).  If a
    unit vector ``u`` separates the ``x_t`` with margin ``gamma`` and ``||x_t|| <= R``,
    the unit vector ``(u, 0)`` separates the ``(x_t, 1)`` with the same margin and
    ``||(x_t, 1)||^2 <= R^2 + 1``, so Theorem 4 of seed 001 (the ``(D/gamma)^2`` bound,
    with ``D^2 = R^2 + 1``) gives at most ``(R^2 + 1) / gamma^2`` updates, and a
    mistake is always an update.  With ``fit_intercept=False`` the bound is
    ``(R/gamma)^2`` (:func:`mistakebound.learners.perceptron.margin_bound`).

    Parameters
    ----------
    R : float
        A bound on the norms of the instances (>= 0).
    gamma : float
        The margin of a unit comparator (> 0).

    Raises
    ------
    InvalidArgumentError
        For a negative or non-finite ``R`` or a non-positive ``gamma``.

    Examples
    --------
    >>> intercept_margin_bound(1.0, 0.5), intercept_margin_bound(3.0, 1.0)
    (8.0, 10.0)
    """
    R = check_real("R", R, minimum=0)
    gamma = check_real("gamma", gamma, minimum=0, open_minimum=True)
    return (R**2 + 1.0) / gamma**2


# ---------------------------------------------------------------------- optional packages
def _installed(package: str) -> bool:
    try:
        return importlib.util.find_spec(package) is not None
    except (ImportError, ValueError):
        return False


def _skip_examples_without(package: str, objects: Iterable[Any]) -> None:
    """Mark the Examples of ``objects`` ``+SKIP`` when ``package`` is not installed.

    The adapters' examples run the real libraries; without them (they are optional
    extras) the doctests are skipped rather than failed, visibly in the source.
    """
    if _installed(package):
        return
    for obj in objects:
        doc = getattr(obj, "__doc__", None)
        if doc:
            obj.__doc__ = re.sub(r"^(\s*>>> .*)$", r"\1  # doctest: +SKIP", doc, flags=re.MULTILINE)


_skip_examples_without("river", [RiverLearner, river_perceptron])
_skip_examples_without("sklearn", [SklearnLearner])
if not (_installed("river") and _installed("sklearn")):
    __doc__ = re.sub(r"^(\s*>>> .*)$", r"\1  # doctest: +SKIP", __doc__, flags=re.MULTILINE)
