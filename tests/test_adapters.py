"""The river and scikit-learn adapters, against the real packages.

The packages are optional extras (``pip install mistakebound[river,sklearn]``).  Without
them this module is skipped as a whole, with the reason shown in pytest's summary
(``-ra``); nothing inside is skipped selectively, so an installed but broken library
fails here.

Expected values come from independent computations in this file: a textbook Perceptron
written out below, direct calls to the libraries on hand-made features, and the closed
forms ``(R/gamma)^2``, ``(R^2 + 1)/gamma^2``, ``floor(log2(N + 1))`` and
``min(d, floor((R/gamma)^2))``.
"""

from __future__ import annotations

import copy
import importlib.util
import math

import numpy as np
import pytest

def _installed(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


_MISSING = [name for name in ("river", "sklearn") if not _installed(name)]
if _MISSING:  # pragma: no cover - depends on the environment
    pytest.skip(
        f"optional packages not installed: {', '.join(_MISSING)} "
        "(pip install 'mistakebound[river,sklearn]' to run the adapter tests)",
        allow_module_level=True,
    )

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from river import linear_model as river_lm  # noqa: E402
from river import naive_bayes, optim, tree  # noqa: E402
from sklearn.linear_model import Perceptron as SkPerceptron  # noqa: E402
from sklearn.linear_model import SGDClassifier  # noqa: E402

from mistakebound import HypothesisClass, play
from mistakebound.game import classes  # noqa: E402
from mistakebound.adversaries import (  # noqa: E402
    BasisVectorForcer,
    BinarySearchThreshold,
    ObliviousCoin,
    OppositeLabel,
    ShatteredTreeWalker,
)
from mistakebound.adversaries.midpoint import MidpointAdversary  # noqa: E402
from mistakebound.adversaries.separable_stream import SeparableStream  # noqa: E402
from mistakebound.foundations.errors import GameError, InvalidArgumentError  # noqa: E402
from mistakebound.learners.adapters import (  # noqa: E402
    OneHot,
    RiverLearner,
    SklearnLearner,
    intercept_margin_bound,
    river_features,
    river_perceptron,
    sklearn_features,
)
from mistakebound.game.players import is_randomized  # noqa: E402
from mistakebound.game.spaces import LinearSpace  # noqa: E402


# ---------------------------------------------------------------------- helpers
def river_homogeneous():
    """river's Perceptron settings with the intercept frozen at 0, written out here."""
    return river_lm.LogisticRegression(
        optimizer=optim.SGD(1), loss=optim.losses.Hinge(threshold=0.0), intercept_lr=0.0
    )


#: name -> (factory of a fresh adapter, fits an intercept?)
PERCEPTRONS = {
    "river Perceptron": (lambda: RiverLearner(river_lm.Perceptron()), True),
    "river homogeneous": (lambda: RiverLearner(river_homogeneous()), False),
    "sklearn Perceptron": (lambda: SklearnLearner(SkPerceptron()), True),
    "sklearn fit_intercept=False": (lambda: SklearnLearner(SkPerceptron(fit_intercept=False)), False),
}

#: Deterministic adapters over other models, for the games on finite classes.
OTHERS = {
    "river LogisticRegression": lambda: RiverLearner(river_lm.LogisticRegression()),
    "river HoeffdingTree": lambda: RiverLearner(tree.HoeffdingTreeClassifier(grace_period=2)),
    "sklearn SGDClassifier": lambda: SklearnLearner(SGDClassifier(random_state=0)),
}

ALL = {**{k: f for k, (f, _) in PERCEPTRONS.items()}, **OTHERS}


def as_river_dict(x):
    if np.isscalar(x):
        return {"x": float(x)}
    return {i: float(a) for i, a in enumerate(x)}


def replay_predictions(learner_factory, T):
    """The predictions a fresh adapter makes on the transcript's rounds, replayed outside the engine."""
    L = learner_factory()
    out = []
    for r in T.rounds:
        out.append(L.predict_one(r.x))
        L.learn_one(r.x, r.y)
    return out


class TextbookPerceptron:
    """w = 0 (and b = 0); predict 1 iff <w, x> + b > 0; if y <w, x> + b <= 0 (y in {-1, +1}), w += y x, b += y."""

    def __init__(self, d, intercept):
        self.w = np.zeros(d)
        self.b = 0.0
        self.intercept = intercept

    def score(self, x):
        return float(self.w @ x) + self.b

    def predict(self, x):
        return int(self.score(x) > 0)

    def learn(self, x, y):
        s = 2 * y - 1
        if s * self.score(x) <= 0:
            self.w += s * np.asarray(x, dtype=float)
            if self.intercept:
                self.b += s


def library_weights(L, d):
    """(w, b) of a wrapped library Perceptron."""
    if isinstance(L, RiverLearner):
        w = L.model_.weights
        return np.array([w.get(i, 0.0) for i in range(d)]), float(L.model_.intercept)
    est = L.estimator_
    if not hasattr(est, "coef_"):
        return np.zeros(d), 0.0
    return est.coef_[0].copy(), float(est.intercept_[0])


# ---------------------------------------------------------------------- features
def test_default_river_features():
    assert river_features(np.array([0.5, 0.0, -2.0])) == {0: 0.5, 1: 0.0, 2: -2.0}
    assert river_features((1, 0, 1)) == {0: 1.0, 1: 0.0, 2: 1.0}
    assert river_features(7) == {"x": 7.0}
    assert river_features(np.float64(2.5)) == {"x": 2.5}
    d = {"a": 1.0}
    out = river_features(d)
    assert out == d and out is not d
    with pytest.raises(InvalidArgumentError, match="features="):
        river_features("spam")
    with pytest.raises(InvalidArgumentError, match="features="):
        river_features(np.zeros((2, 2)))


def test_default_sklearn_features():
    X = sklearn_features(np.array([0.5, -1.0]))
    assert X.shape == (1, 2) and X.tolist() == [[0.5, -1.0]]
    assert sklearn_features(3).tolist() == [[3.0]]
    assert sklearn_features((0, 1, 1)).tolist() == [[0.0, 1.0, 1.0]]
    for bad in ("a", {"a": 1.0}, (1, "b")):
        with pytest.raises(InvalidArgumentError, match="features="):
            sklearn_features(bad)


def test_one_hot():
    enc = OneHot(["u", "v", ("w", 1)])
    assert enc(("w", 1)).tolist() == [0.0, 0.0, 1.0]
    assert enc("u").tolist() == [1.0, 0.0, 0.0]
    with pytest.raises(InvalidArgumentError, match="not in the one-hot domain"):
        enc("z")
    with pytest.raises(InvalidArgumentError, match="twice"):
        OneHot(["a", "a"])
    with pytest.raises(InvalidArgumentError, match="empty"):
        OneHot([])


# ---------------------------------------------------------------------- labels
def test_river_none_prediction_becomes_the_default():
    model = tree.HoeffdingTreeClassifier()
    assert model.predict_one({"x": 1.0}) is None  # river's answer before any label
    assert RiverLearner(model).predict_one(1) == 1
    assert RiverLearner(model, default=0).predict_one(1) == 0


def test_river_perceptron_scores_a_tie_as_label_0():
    """River's Perceptron at w = 0 answers False (max over {False: .5, True: .5}), not None."""
    model = river_lm.Perceptron()
    assert model.predict_one({0: 1.0}) is False
    assert RiverLearner(model, default=1).predict_one((1.0,)) == 0


def test_river_labels_map_both_ways():
    L = RiverLearner(naive_bayes.GaussianNB(), labels=("neg", "pos"))
    L.learn_one(5.0, 1)
    assert L.model_.predict_one({"x": 5.0}) == "pos"  # the model was taught "pos" for label 1
    assert L.predict_one(5.0) == 1
    for x in (-5.0, -4.0, -6.0):
        L.learn_one(x, 0)
    assert L.model_.predict_one({"x": -5.0}) == "neg"
    assert L.predict_one(-5.0) == 0


def test_river_label_outside_the_pair_is_refused():
    L = RiverLearner(naive_bayes.GaussianNB())
    L.model_.learn_one({"x": 1.0}, "surprise")
    with pytest.raises(InvalidArgumentError, match="surprise"):
        L.predict_one(1.0)


def test_sklearn_default_before_the_first_fit_and_class_mapping():
    L = SklearnLearner(SkPerceptron(), classes=(-1, 1), default=0)
    assert L.predict_one((1.0, 2.0)) == 0 and L.n_fitted == 0
    L.learn_one((1.0, 2.0), 1)
    assert L.n_fitted == 1
    assert L.estimator_.classes_.tolist() == [-1, 1]
    assert L.estimator_.predict([[1.0, 2.0]])[0] == 1
    assert L.predict_one((1.0, 2.0)) == 1
    L.learn_one((1.0, 2.0), 0)  # the estimator is told class -1
    raw = L.estimator_.predict([[1.0, 2.0]])[0]
    assert L.predict_one((1.0, 2.0)) == (1 if raw == 1 else 0)


def test_sklearn_classes_in_any_order():
    """classes=(1, 0): the engine's label 0 is the estimator's class 1."""
    L = SklearnLearner(SkPerceptron(fit_intercept=False), classes=(1, 0))
    L.learn_one((1.0,), 1)  # the estimator is taught class 0 on x = 1
    assert L.estimator_.predict([[1.0]])[0] == 0
    assert L.predict_one((1.0,)) == 1


def test_learn_one_refuses_labels_other_than_0_and_1():
    for L in (RiverLearner(river_lm.Perceptron()), SklearnLearner(SkPerceptron())):
        for y in (2, -1, True, "1"):
            with pytest.raises(InvalidArgumentError, match="y: expected"):
                L.learn_one((1.0,), y)


def test_parameters_are_validated():
    with pytest.raises(InvalidArgumentError, match="model"):
        RiverLearner(object())
    with pytest.raises(InvalidArgumentError, match="estimator"):
        SklearnLearner(object())
    with pytest.raises(InvalidArgumentError, match="labels"):
        RiverLearner(river_lm.Perceptron(), labels=(1, 1))
    with pytest.raises(InvalidArgumentError, match="classes"):
        SklearnLearner(SkPerceptron(), classes=(0, 1, 2))
    with pytest.raises(InvalidArgumentError, match="default"):
        RiverLearner(river_lm.Perceptron(), default=2)
    with pytest.raises(InvalidArgumentError, match="features"):
        SklearnLearner(SkPerceptron(), features=3)
    with pytest.raises(InvalidArgumentError, match="predict_proba"):
        SklearnLearner(SkPerceptron(), probabilistic=True)
    with pytest.raises(InvalidArgumentError, match="predict_proba_one"):
        RiverLearner(_NoProba(), probabilistic=True)


class _NoProba:
    def learn_one(self, x, y):
        pass

    def predict_one(self, x):
        return None

    def clone(self):
        return _NoProba()


# ---------------------------------------------------------------------- randomized
def test_deterministic_by_default_probabilistic_on_request():
    assert not is_randomized(RiverLearner(river_lm.Perceptron()))
    assert not hasattr(SklearnLearner(SkPerceptron()), "predict_proba_one")
    assert is_randomized(RiverLearner(river_lm.LogisticRegression(), probabilistic=True))
    assert is_randomized(SklearnLearner(SGDClassifier(loss="log_loss"), probabilistic=True))


def test_river_probability_is_the_models():
    L = RiverLearner(river_lm.LogisticRegression(), probabilistic=True)
    rng = np.random.default_rng(3)
    for _ in range(10):
        x = rng.standard_normal(3)
        w, b = L.model_.weights, L.model_.intercept
        z = sum(w.get(i, 0.0) * x[i] for i in range(3)) + b
        assert L.predict_proba_one(x) == pytest.approx(1 / (1 + math.exp(-z)), abs=1e-12)
        L.learn_one(x, int(rng.integers(2)))


def test_river_probability_before_learning_and_of_one_label_only():
    L = RiverLearner(tree.HoeffdingTreeClassifier(), probabilistic=True, default=0)
    assert L.predict_proba_one(1.0) == 0.0  # an empty dict: the default
    L.learn_one(1.0, 1)
    assert L.model_.predict_proba_one({"x": 1.0}) == {True: 1.0}
    assert L.predict_proba_one(1.0) == 1.0


def test_sklearn_probability_follows_the_class_order():
    for cls in ((0, 1), (1, 0)):
        L = SklearnLearner(SGDClassifier(loss="log_loss", random_state=0), classes=cls, probabilistic=True)
        assert L.predict_proba_one((0.3, 0.4)) == 1.0  # before the first fit: default 1
        rng = np.random.default_rng(0)
        for _ in range(6):
            L.learn_one(rng.standard_normal(2), int(rng.integers(2)))
        x = np.array([0.3, 0.4])
        proba = L.estimator_.predict_proba(x.reshape(1, -1))[0]
        column = list(L.estimator_.classes_).index(cls[1])
        assert L.predict_proba_one(x) == pytest.approx(proba[column])


def test_probabilistic_games_draw_and_replay():
    S = LinearSpace(3, R=1.0, gamma=0.2)
    for make in (
        lambda: RiverLearner(river_lm.LogisticRegression(), probabilistic=True),
        lambda: SklearnLearner(SGDClassifier(loss="log_loss", random_state=0), probabilistic=True),
    ):
        T1 = play(make(), SeparableStream(3, 0.2), S, rounds=30, seed=5)
        T2 = play(make(), SeparableStream(3, 0.2), S, rounds=30, seed=5)
        assert T1 == T2
        assert any(0 < r.p < 1 for r in T1.rounds)
        L = make()
        for r in T1.rounds:  # the engine recorded the model's own probabilities
            x = np.array(r.x)
            assert r.p == pytest.approx(L.predict_proba_one(x), abs=1e-12)
            L.learn_one(x, r.y)


# ---------------------------------------------------------------------- the textbook Perceptron
@pytest.mark.parametrize("name", list(PERCEPTRONS))
def test_library_perceptrons_are_the_textbook_perceptron(name):
    """Weights, intercept and predictions equal the textbook's Perceptron after every round.

    Integer-valued instances make exact ties ``<w, x> = 0`` frequent, where the
    conventions differ: both libraries update when ``y <w, x> <= 0`` and predict
    label 0 on a tie.
    """
    make, intercept = PERCEPTRONS[name]
    rng = np.random.default_rng(11)
    d = 4
    L, ref = make(), TextbookPerceptron(d, intercept)
    ties = 0
    for t in range(120):
        x = rng.integers(-1, 2, size=d).astype(float)
        y = int(rng.integers(2))
        if t > 0 or isinstance(L, RiverLearner):  # sklearn predicts the default before its first fit
            assert L.predict_one(x) == ref.predict(x), (t, x)
        ties += ref.score(x) == 0
        L.learn_one(x, y)
        ref.learn(x, y)
        w, b = library_weights(L, d)
        np.testing.assert_array_equal(w, ref.w)
        assert b == ref.b
    assert ties > 5  # the stream did exercise the tie rule


def test_a_mutated_textbook_perceptron_is_told_apart():
    """The replay above can fail: a reference that predicts 1 on a tie disagrees with river."""
    L, ref = RiverLearner(river_homogeneous()), TextbookPerceptron(2, False)
    x = np.array([1.0, 0.0])
    assert L.predict_one(x) == ref.predict(x) == 0
    assert int(ref.score(x) >= 0) != L.predict_one(x)


# ---------------------------------------------------------------------- games on halfspaces
@given(
    d=st.integers(1, 10),
    R=st.sampled_from([0.5, 1.0, 2.0]),
    ratio=st.sampled_from([1.0, 1.5, 2.0, 3.0, 4.0]),
)
@settings(max_examples=15, deadline=None)
def test_basis_vector_forcer_forces_its_count_on_every_adapter(d, R, ratio):
    gamma = R / ratio
    S = LinearSpace(d, R=R, gamma=gamma)
    k = min(d, math.floor(ratio**2 + 1e-9))  # closed form of the forcer's count
    for name, make in ALL.items():
        T = play(make(), BasisVectorForcer(), S, rounds=k + 5, seed=0)
        assert len(T) == T.mistakes == k, name
        assert [r.prediction for r in T.rounds] == replay_predictions(make, T), name
        if name in PERCEPTRONS:
            fits_intercept = PERCEPTRONS[name][1]
            bound = (R * R + 1) / gamma**2 if fits_intercept else (R / gamma) ** 2
            assert T.mistakes <= bound + 1e-9, name


@pytest.mark.parametrize("name", ["river homogeneous", "sklearn fit_intercept=False"])
def test_homogeneous_library_perceptrons_meet_the_margin_bound_exactly(name):
    """With (R/gamma)^2 = 4 <= d the forcer makes the bound tight: 4 mistakes."""
    make, _ = PERCEPTRONS[name]
    T = play(make(), BasisVectorForcer(), LinearSpace(6, R=1.0, gamma=0.5), rounds=10, seed=0)
    assert T.mistakes == (1.0 / 0.5) ** 2 == 4
    # w . e_i = 0: a tie, label 0, and the forcer answers 1; sklearn's first round is the
    # adapter's default 1 (nothing fitted yet), answered with 0
    first = 1 if name.startswith("sklearn") else 0
    assert [r.prediction for r in T.rounds] == [first, 0, 0, 0]
    assert [r.y for r in T.rounds] == [1 - first, 1, 1, 1]


@given(
    d=st.integers(1, 6),
    gamma=st.sampled_from([0.1, 0.2, 0.3, 0.5]),
    rounds=st.integers(1, 60),
    seed=st.integers(0, 2**16),
)
@settings(max_examples=12, deadline=None)
def test_library_perceptrons_within_their_margin_bounds_on_separable_streams(d, gamma, rounds, seed):
    R = 1.0
    S = LinearSpace(d, R=R, gamma=gamma)
    for name, (make, fits_intercept) in PERCEPTRONS.items():
        T = play(make(), SeparableStream(d, gamma, R=R), S, rounds=rounds, seed=seed)
        assert T.gamma == gamma and len(T) == rounds
        bound = (R * R + 1) / gamma**2 if fits_intercept else (R / gamma) ** 2
        assert T.mistakes <= bound, name


@given(
    d=st.integers(1, 5),
    gamma=st.sampled_from([0.1, 0.25, 0.5]),
    noise=st.sampled_from([0.05, 0.1, 0.2, 0.3]),
    rounds=st.integers(10, 60),
    q=st.sampled_from([1.0, 2.0]),
    seed=st.integers(0, 2**16),
)
@settings(max_examples=10, deadline=None)
def test_library_perceptrons_within_the_q_hinge_bound_on_noisy_streams(d, gamma, noise, rounds, q, seed):
    """Theorem 2 of seed 002, over every round: M <= L_1 + a^2/2 + a sqrt(a^2/4 + L_q), a = q R ||u||.

    The theorem bounds the updates (rounds with ``y <w, x> <= 0``), and every mistake of
    the libraries' Perceptrons is an update.  With an intercept the learner runs on
    ``(x, 1)``: the comparator ``(u, 0)`` has the same hinge losses and the radius is
    ``sqrt(R^2 + 1)``.
    """
    R = 1.0
    S = LinearSpace(d, R=R)
    for name, (make, fits_intercept) in PERCEPTRONS.items():
        T = play(make(), SeparableStream(d, gamma, R=R, noise=noise), S, rounds=rounds, seed=seed, realizable=False)
        u = np.array(T.comparator) / gamma  # margin 1 on the clean rounds
        X, ys = np.array(T.xs), np.array([2 * y - 1 for y in T.ys])
        hinge = np.maximum(0.0, 1.0 - ys * (X @ u))
        radius = math.sqrt(R * R + 1) if fits_intercept else R
        a = q * radius * float(np.linalg.norm(u))
        bound = hinge.sum() + a * a / 2 + a * math.sqrt(a * a / 4 + (hinge**q).sum())
        assert T.mistakes <= bound + 1e-9, name


def test_intercept_margin_bound_closed_form_and_validation():
    assert intercept_margin_bound(1.0, 0.5) == 8.0
    assert intercept_margin_bound(0.0, 2.0) == 0.25
    for R, g in ((-1.0, 0.5), (1.0, 0.0), (math.inf, 1.0), (1.0, True)):
        with pytest.raises(InvalidArgumentError):
            intercept_margin_bound(R, g)


def test_river_perceptron_factory():
    assert isinstance(river_perceptron(), river_lm.Perceptron)
    L = RiverLearner(river_perceptron(fit_intercept=False))
    L.learn_one((1.0, 0.0), 1)
    assert L.model_.intercept == 0.0 and L.model_.weights == {0: 1.0, 1: 0.0}


def test_midpoint_adversary_forces_every_round_without_margin_and_stops_with_one():
    for name, make in ALL.items():
        T = play(make(), MidpointAdversary(), LinearSpace(2), rounds=25, seed=0)
        assert len(T) == T.mistakes == 25, name
    S = LinearSpace(2, R=math.sqrt(2), gamma=0.05)
    for name, (make, fits_intercept) in PERCEPTRONS.items():
        T = play(make(), MidpointAdversary(), S, rounds=200, seed=0)
        bound = (2 + 1) / 0.05**2 if fits_intercept else 2 / 0.05**2
        assert len(T) == T.mistakes < 200 and T.mistakes <= bound, name


# ---------------------------------------------------------------------- games on finite classes
@pytest.mark.parametrize("N", [1, 6, 15, 20])
@pytest.mark.parametrize("name", list(ALL))
def test_adapters_on_thresholds_with_the_zoo(name, N):
    make = ALL[name]
    H = classes.thresholds(N)
    ldim = math.floor(math.log2(N + 1))

    # the most even split leaves at least floor(n/2) and at most ceil(n/2) of n thresholds
    T = play(make(), BinarySearchThreshold(), H, rounds=50, seed=0)
    assert ldim <= T.mistakes == len(T) <= math.ceil(math.log2(N + 1))
    T = play(make(), ShatteredTreeWalker(), H, rounds=50, seed=0)
    assert T.mistakes == len(T) == ldim
    T = play(make(), OppositeLabel(), H, rounds=50, seed=0)
    assert T.mistakes == len(T) <= H.n_hypotheses - 1
    assert len(T.version_space) >= 1
    assert [r.prediction for r in T.rounds] == replay_predictions(make, T)
    T = play(make(), ObliviousCoin(), H, rounds=40, seed=1)
    assert len(T) == 40 and len(T.version_space) >= 1
    assert [r.prediction for r in T.rounds] == replay_predictions(make, T)


def test_river_predictions_match_the_library_called_directly():
    """Every prediction in a game is river's answer on {"x": x}, mapped False/True -> 0/1."""
    H = classes.thresholds(12)
    T = play(RiverLearner(river_lm.Perceptron()), ObliviousCoin(), H, rounds=40, seed=2)
    model = river_lm.Perceptron()
    for r in T.rounds:
        raw = model.predict_one(as_river_dict(r.x))
        assert r.prediction == (1 if raw is None else int(raw is True))
        model.learn_one(as_river_dict(r.x), bool(r.y))


def test_sklearn_predictions_match_the_library_called_directly():
    H = classes.thresholds(12)
    T = play(SklearnLearner(SkPerceptron()), ObliviousCoin(), H, rounds=40, seed=2)
    est = SkPerceptron()
    for t, r in enumerate(T.rounds):
        X = np.array([[float(r.x)]])
        assert r.prediction == (1 if t == 0 else int(est.predict(X)[0]))
        if t == 0:
            est.partial_fit(X, [r.y], classes=[0, 1])
        else:
            est.partial_fit(X, [r.y])


@pytest.mark.parametrize("name", list(ALL))
def test_adapters_on_tuple_instances_with_the_basis_vector_forcer(name):
    H = classes.monotone_disjunctions(4)
    T = play(ALL[name](), BasisVectorForcer(), H, rounds=10, seed=0)
    assert T.mistakes == len(T) == 4  # every labelling of e_1..e_n is a disjunction


def test_non_vector_instances_need_features_and_one_hot_supplies_them():
    M = np.array([[0, 1, 1], [1, 0, 1], [1, 1, 0], [0, 0, 0]])
    H = HypothesisClass.from_matrix(M, domain=["red", "green", "blue"])
    with pytest.raises(GameError, match="features="):
        play(RiverLearner(river_lm.Perceptron()), OppositeLabel(), H, rounds=5, seed=0)
    with pytest.raises(GameError, match="features="):
        play(SklearnLearner(SkPerceptron()), OppositeLabel(), H, rounds=5, seed=0)
    enc = OneHot(H.domain)
    for L in (RiverLearner(river_lm.Perceptron(), features=enc), SklearnLearner(SkPerceptron(), features=enc)):
        T = play(L, OppositeLabel(), H, rounds=10, seed=0)
        assert T.mistakes == len(T) <= H.n_hypotheses - 1 and len(T) >= 1
    river_dicts = RiverLearner(river_lm.Perceptron(), features=lambda x: {x: 1.0})
    T = play(river_dicts, ObliviousCoin(), H, rounds=10, seed=0)
    assert len(T) == 10 and set(river_dicts.model_.weights) <= set(H.domain)


# ---------------------------------------------------------------------- copies and inputs
@pytest.mark.parametrize("name", list(ALL))
def test_clones_are_fresh_and_independent(name):
    L = ALL[name]()
    rng = np.random.default_rng(0)
    xs = [rng.standard_normal(3) for _ in range(15)]
    for i, x in enumerate(xs):
        L.learn_one(x, i % 2)
    before = [L.predict_one(x) for x in xs]
    fresh, twin = L.clone(), ALL[name]()
    assert [fresh.predict_one(x) for x in xs] == [twin.predict_one(x) for x in xs]
    for x in xs:  # train the clone the other way round: the original must not move
        fresh.learn_one(x, 1)
    assert [L.predict_one(x) for x in xs] == before
    snap = L.snapshot()
    for x in xs:
        snap.learn_one(x, 0)
    assert [L.predict_one(x) for x in xs] == before


def test_the_prototype_model_is_never_trained():
    model, est = river_lm.Perceptron(), SkPerceptron()
    R, S = RiverLearner(model), SklearnLearner(est)
    other = RiverLearner(model)
    for L in (R, S, other):
        L.learn_one((1.0, 2.0), 1)
        L.learn_one((2.0, -1.0), 0)
    assert model.weights == {} and model.intercept == 0.0
    assert not hasattr(est, "coef_")
    assert R.model_ is not other.model_ and R.model_ is not model
    assert R.clone().model_.weights == {}
    assert S.clone().n_fitted == 0 and not hasattr(S.clone().estimator_, "coef_")


@pytest.mark.parametrize("name", list(ALL))
def test_inputs_are_not_mutated(name):
    L = ALL[name]()
    x = np.array([0.5, -1.0, 2.0])  # writable on purpose
    original = x.copy()
    t = (1.0, 0.0, 1.0)
    for _ in range(4):
        L.predict_one(x)
        L.learn_one(x, 1)
        L.predict_one(t)
        L.learn_one(t, 0)
    np.testing.assert_array_equal(x, original)
    assert t == (1.0, 0.0, 1.0)


def test_feature_dicts_from_the_user_are_not_mutated():
    shared = {"a": 1.0, "b": -1.0}
    frozen = copy.deepcopy(shared)
    L = RiverLearner(river_lm.Perceptron(), features=lambda x: shared)
    for y in (0, 1, 1, 0):
        L.predict_one("anything")
        L.learn_one("anything", y)
    assert shared == frozen


def test_same_seed_same_transcript():
    S = LinearSpace(4, R=1.0, gamma=0.25)
    for make in ALL.values():
        T1 = play(make(), SeparableStream(4, 0.25), S, rounds=25, seed=9)
        T2 = play(make(), SeparableStream(4, 0.25), S, rounds=25, seed=9)
        assert T1 == T2


# ---------------------------------------------------------------------- the ecosystem table (beyond_finite.md)
def test_ecosystem_benchmark_smoke(capsys):
    """``python -m benchmarks.ecosystem --smoke`` runs; no row breaks its bound; forced counts hold."""
    from benchmarks import ecosystem

    table_rows = ecosystem.rows(smoke=True)
    assert len(table_rows) == len(ecosystem.games(smoke=True)) * len(ecosystem.contenders())
    for r in table_rows:
        assert r.bound is None or r.mistakes <= r.bound, r
        if r.adversary == "basis-vector":  # LinearSpace(6, R=1, gamma=0.5): min(6, 4) forced
            assert r.rounds == r.mistakes == 4
            assert r.bound == (8.0 if "intercept off" not in r.learner and "False" not in r.learner
                               and "mistakebound" not in r.learner else 4.0), r
        if r.bound is None:
            assert r.mistakes == r.rounds == 20, r
    assert ecosystem.main(["--smoke"]) == 0
    out = capsys.readouterr().out
    assert out.count("\n| ") == len(table_rows) + 1 and "VIOLATES" not in out


# ---------------------------------------------------------------------- the claims and for_setting
@given(d=st.integers(1, 8), R=st.sampled_from([0.5, 1.0, 2.0]), ratio=st.sampled_from([1.0, 2.0, 3.0]))
@settings(max_examples=10, deadline=None)
def test_library_perceptrons_claim_their_margin_bound_and_keep_it(d, R, ratio):
    from mistakebound.verification.claims import judge

    gamma = R / ratio
    S = LinearSpace(d, R=R, gamma=gamma)
    for name, (make, fits_intercept) in PERCEPTRONS.items():
        claim = make().bound(S)
        by_hand = (R * R + 1) / gamma**2 if fits_intercept else (R / gamma) ** 2
        assert claim.value == pytest.approx(by_hand) and claim.measure == "mistakes", name
        T = play(make(), BasisVectorForcer(), S, rounds=d + 2, seed=0)
        assert judge(T.mistakes, claim).status == "ok", name


def test_adapters_claim_nothing_for_other_models_or_games():
    S = LinearSpace(3, R=1.0, gamma=0.5)
    for name, make in OTHERS.items():
        claim = make().bound(S)
        assert claim.value is None and "no proven bound" in claim.reason, name
    river, sk = PERCEPTRONS["river Perceptron"][0], PERCEPTRONS["sklearn Perceptron"][0]
    cases = {
        "realizable": river().bound(S, realizable=False),
        "radius R and a margin": sk().bound(LinearSpace(3, R=1.0)),
        "LinearSpace": river().bound(classes.thresholds(3)),
        "features=": RiverLearner(river_lm.Perceptron(), features=lambda x: x).bound(S),
        "probabilistic": RiverLearner(river_lm.Perceptron(), probabilistic=True).bound(S),
        "penalty": SklearnLearner(SkPerceptron(penalty="l2")).bound(S),
        "clips gradients": RiverLearner(river_lm.Perceptron(clip_gradient=0.5)).bound(LinearSpace(3, R=2.0, gamma=1.0)),
    }
    for words, claim in cases.items():
        assert claim.value is None and words in claim.reason, (words, claim.reason)


def test_for_setting_plays_the_libraries_perceptrons_wherever_instances_are_vectors_or_numbers():
    from mistakebound.foundations.errors import NotApplicableError
    from mistakebound.game.oco import OCOSetting
    from mistakebound.game.spaces import ExpertAdvice, KDisjunctionSpace
    from mistakebound.learners.adapters import OneHot

    for cls in (RiverLearner, SklearnLearner):
        for setting in (LinearSpace(3), KDisjunctionSpace(5, 2), ExpertAdvice(3), classes.thresholds(4),
                        classes.monotone_disjunctions(3)):
            L = cls.for_setting(setting)
            assert L.features is None, (cls, setting)
        named = HypothesisClass.from_matrix([[0, 1], [1, 1]], domain=["a", "b"])
        L = cls.for_setting(named)
        assert isinstance(L.features, OneHot) and L.features.domain == ("a", "b")
        assert len(play(L, OppositeLabel(), named, rounds=3, seed=0)) >= 1
        with pytest.raises(NotApplicableError, match=f"{cls.__name__} plays on label games"):
            cls.for_setting(OCOSetting(2, radius=1.0))
    assert type(RiverLearner.for_setting(LinearSpace(2)).model) is river_lm.Perceptron
    assert type(SklearnLearner.for_setting(LinearSpace(2)).estimator) is SkPerceptron
    S = LinearSpace(4, R=1.0, gamma=0.5)
    assert RiverLearner.for_setting(S).bound(S).value == SklearnLearner.for_setting(S).bound(S).value == 8.0
