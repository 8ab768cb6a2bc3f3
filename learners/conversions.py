"""From online to batch: the online-to-batch conversion and mistake-bound => PAC.

Two ways of turning a learner of the mistake-bound game into a batch (PAC) learner on
iid examples labelled by a target of a finite class:

* :func:`online_to_batch` (textbook Exercise 21.5, ``seeds/000``; ``seeds/003``
  Section 5.3, "option 2"): run the learner once over an iid sample of size ``T``,
  keep its hypothesis before every round, and output one of them picked uniformly.
  Its expected risk (over the sample and the pick) is ``E[mistakes] / T <= M / T``.
  :func:`exact_online_to_batch` computes that expectation exactly by enumerating every
  sample on a tiny domain.
* :func:`pac_from_mistake_bound` (Theorem 1 of the mistake-bound notes, ``seeds/001``):
  run a conservative learner on the example stream and return the first hypothesis
  that survives ``m = ceil(ln(M/delta) / eps)`` consecutive examples
  (:func:`survival_length`); with probability at least ``1 - delta`` its error is at
  most ``eps``, after at most ``M m`` examples (:func:`mistake_bound_to_pac`).

Examples
--------
>>> from mistakebound import classes
>>> from mistakebound.learners import Halving
>>> H = classes.thresholds(3)
>>> D = [0.5, 0.25, 0.25]
>>> sample = iid_sample(H, target=2, distribution=D, T=8, seed=0)
>>> result = online_to_batch(lambda: Halving(H), sample, H=H, target=2, distribution=D)
>>> len(result.hypotheses), result.expected_risk <= 1.0
(8, True)
>>> mistake_bound_to_pac(2, eps=0.1, delta=0.05)
74
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np
from attrs import field, frozen

from mistakebound.foundations.errors import InvalidArgumentError, NotApplicableError
from mistakebound.foundations.validation import check_int, check_real
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.game.players import is_randomized, snapshot_of

__all__ = [
    "iid_sample",
    "OnlineToBatch",
    "online_to_batch",
    "ExactOnlineToBatch",
    "exact_online_to_batch",
    "survival_length",
    "mistake_bound_to_pac",
    "PACResult",
    "pac_from_mistake_bound",
]


# ---------------------------------------------------------------------- helpers
def _distribution(H: HypothesisClass, distribution: Any) -> np.ndarray:
    """The distribution as probabilities aligned with ``H.domain`` (validated)."""
    if isinstance(distribution, dict):
        unknown = [x for x in distribution if x not in H]
        if unknown:
            raise InvalidArgumentError(f"distribution: instances {unknown!r} are not in the domain of {H.describe()}")
        probs = np.array([float(distribution.get(x, 0.0)) for x in H.domain])
    else:
        try:
            probs = np.asarray(distribution, dtype=float).reshape(-1)
        except (TypeError, ValueError):
            raise InvalidArgumentError(f"distribution: expected probabilities, got {distribution!r}") from None
        if probs.shape != (H.n_instances,):
            raise InvalidArgumentError(
                f"distribution: expected {H.n_instances} probabilities (one per instance), got shape {probs.shape}"
            )
    if not np.all(np.isfinite(probs)) or np.any(probs < 0) or abs(math.fsum(probs) - 1.0) > 1e-9:
        raise InvalidArgumentError(f"distribution: expected non-negative probabilities summing to 1, got {probs.tolist()}")
    return probs


def _target_row(H: HypothesisClass, target: Any) -> np.ndarray:
    target = check_int("target", target, 0, H.n_hypotheses - 1)
    return np.asarray(H.matrix[target], dtype=int)




def _prediction(learner: Any, x: Any) -> float:
    """The probability of label 1 (0 or 1 for a deterministic learner)."""
    if is_randomized(learner):
        return float(learner.predict_proba_one(x))
    return float(learner.predict_one(x))


def _risk(learner: Any, H: HypothesisClass, labels: np.ndarray, probs: np.ndarray) -> float:
    """``sum_x D(x) |h(x) - target(x)|``, exact for a deterministic ``h``, expected for a randomized one."""
    return math.fsum(p * abs(_prediction(learner, x) - y) for x, y, p in zip(H.domain, labels, probs) if p > 0)


# ---------------------------------------------------------------------- online to batch
def iid_sample(H: HypothesisClass, *, target: int, distribution: Any, T: int, seed: int) -> list[tuple[Any, int]]:
    """``T`` iid examples ``(x, target(x))`` with ``x ~ distribution`` over ``H.domain``.

    Parameters
    ----------
    H : HypothesisClass
    target : int
        Row of ``H`` that labels the examples.
    distribution : sequence of float or dict
        Probabilities aligned with ``H.domain``, or ``{instance: probability}``.
    T : int
    seed : int
        Seeds ``numpy.random.default_rng``.

    Examples
    --------
    >>> from mistakebound import classes
    >>> iid_sample(classes.thresholds(3), target=0, distribution={2: 1.0}, T=2, seed=1)
    [(2, 0), (2, 0)]
    """
    probs = _distribution(H, distribution)
    labels = _target_row(H, target)
    T = check_int("T", T, 0)
    idx = np.random.default_rng(seed).choice(H.n_instances, size=T, p=probs)
    return [(H.domain[i], int(labels[i])) for i in idx]


@frozen
class OnlineToBatch:
    """The hypotheses of one online pass over a sample and their exact risks.

    Attributes
    ----------
    hypotheses : tuple
        ``h_1 .. h_T``: snapshots of the learner before each round (call their
        ``predict_one``/``predict_proba_one``; do not train them).
    risks : tuple of float
        ``L_D(h_t) = sum_x D(x) |h_t(x) - target(x)|`` (expected over the learner's
        coin for a randomized learner).
    mistakes : float
        The learner's (expected, for a randomized learner) mistakes on the sample.
    """

    hypotheses: tuple = field(converter=tuple)
    risks: tuple = field(converter=tuple)
    mistakes: float

    @property
    def expected_risk(self) -> float:
        """The risk of the uniform pick, ``(1/T) sum_t L_D(h_t)`` (0 for an empty sample)."""
        return math.fsum(self.risks) / len(self.risks) if self.risks else 0.0

    def pick(self, seed: int) -> Any:
        """One hypothesis chosen uniformly at random (the conversion's output)."""
        if not self.hypotheses:
            raise InvalidArgumentError("pick: the sample was empty; there is no hypothesis to pick")
        return self.hypotheses[int(np.random.default_rng(seed).integers(len(self.hypotheses)))]


def online_to_batch(
    make_learner: Callable[[], Any],
    sample: Iterable[tuple[Any, int]],
    *,
    H: HypothesisClass,
    target: int,
    distribution: Any,
) -> OnlineToBatch:
    """Run a fresh learner over ``sample``, keeping its hypothesis before each round.

    Textbook Exercise 21.5 (``seeds/000``) and ``seeds/003`` Section 5.3 (option 2): if
    ``r`` is uniform on ``[T]`` then ``E[L_D(h_r)] <= M / T`` for a learner with mistake
    bound ``M``, the expectation over the iid sample and ``r``.  (The reason: ``x_t`` is
    independent of ``h_t``, so ``E[L_D(h_t)] = P[h_t(x_t) != y_t]`` and summing over
    ``t`` gives ``E[mistakes] / T``.  ``seeds/003`` drops this ``1/T`` on its last line.)

    Parameters
    ----------
    make_learner : callable
        Returns a fresh learner (``predict_one`` or ``predict_proba_one``, ``learn_one``).
    sample : iterable of (x, y)
        The examples, e.g. from :func:`iid_sample`.
    H, target, distribution
        The class, the labelling row and the distribution the risks are computed under.

    Returns
    -------
    OnlineToBatch
    """
    probs = _distribution(H, distribution)
    labels = _target_row(H, target)
    learner = make_learner()
    hypotheses, risks, mistakes = [], [], []
    for x, y in sample:
        h = snapshot_of(learner)
        hypotheses.append(h)
        risks.append(_risk(h, H, labels, probs))
        mistakes.append(abs(_prediction(learner, x) - int(y)))
        learner.learn_one(x, int(y))
    return OnlineToBatch(hypotheses=hypotheses, risks=risks, mistakes=math.fsum(mistakes))


@frozen
class ExactOnlineToBatch:
    """Exact expectations over every sample of size ``T``: the pick's risk and the mistakes."""

    T: int
    expected_risk: float
    expected_mistakes: float


def exact_online_to_batch(
    make_learner: Callable[[], Any], H: HypothesisClass, *, target: int, distribution: Any, T: int
) -> ExactOnlineToBatch:
    """``E_S E_r[L_D(h_r)]`` and ``E_S[mistakes]`` exactly, by enumerating every sample.

    A depth-first walk over all ``|supp D|^T`` samples, weighting each prefix by its
    probability; meant for tiny domains and horizons.  Exercise 21.5 (``seeds/000``)
    says ``expected_risk <= M / T``; the argument gives equality with
    ``expected_mistakes / T``.

    Examples
    --------
    >>> from mistakebound import classes
    >>> from mistakebound.learners import Halving
    >>> H = classes.singletons(3)
    >>> r = exact_online_to_batch(lambda: Halving(H), H, target=1, distribution=[0.5, 0.3, 0.2], T=3)
    >>> r.expected_risk <= Halving(H).bound(H).value / 3
    True
    """
    probs = _distribution(H, distribution)
    labels = _target_row(H, target)
    T = check_int("T", T, 1)
    support = [(x, int(y), p) for x, y, p in zip(H.domain, labels, probs) if p > 0]
    risk_terms: list[float] = []
    mistake_terms: list[float] = []

    def walk(learner: Any, weight: float, depth: int) -> None:
        if depth == T:
            return
        risk_terms.append(weight * _risk(learner, H, labels, probs))
        for x, y, p in support:
            mistake_terms.append(weight * p * abs(_prediction(learner, x) - y))
            child = snapshot_of(learner)
            child.learn_one(x, y)
            walk(child, weight * p, depth + 1)

    walk(make_learner(), 1.0, 0)
    return ExactOnlineToBatch(
        T=int(T), expected_risk=math.fsum(risk_terms) / T, expected_mistakes=math.fsum(mistake_terms)
    )


# ---------------------------------------------------------------------- mistake bound => PAC
def _check_pac_parameters(M: Any, eps: Any, delta: Any) -> tuple[int, float, float]:
    M = check_real("M", M, minimum=0)
    M = math.floor(M + 1e-9)  # mistakes are whole: a bound like log2|H| = 2.58 means at most 2
    eps = check_real("eps", eps, minimum=0, maximum=1, open_minimum=True, open_maximum=True)
    delta = check_real("delta", delta, minimum=0, maximum=1, open_minimum=True, open_maximum=True)
    return int(M), float(eps), float(delta)


def survival_length(M: int, eps: float, delta: float) -> int:
    """``m = ceil(ln(M / delta) / eps)``: how many consecutive examples a hypothesis must survive.

    Theorem 1 of ``seeds/001``: a hypothesis with error ``> eps`` survives ``m`` iid
    examples with probability ``(1 - eps)^m <= exp(-eps m) <= delta / M``, and at most
    ``M`` hypotheses of a conservative learner can be wrong anywhere (the one after
    ``M`` mistakes is the target's twin), so the union bound gives ``delta``.  The
    text's ``log`` is the natural one, as this step needs.  0 when ``M = 0``.

    Examples
    --------
    >>> survival_length(4, eps=0.5, delta=0.5)
    5
    """
    M, eps, delta = _check_pac_parameters(M, eps, delta)
    if M == 0:
        return 0
    return max(1, math.ceil(math.log(M / delta) / eps))


def mistake_bound_to_pac(M: int, eps: float, delta: float) -> int:
    """``M * ceil(ln(M/delta)/eps)``, the examples :func:`pac_from_mistake_bound` needs at most.

    Theorem 1 of ``seeds/001``: ``(M / eps) ln(M / delta)`` examples (rounded up per
    hypothesis).  Each of the at most ``M`` hypotheses that get replaced errs within
    its first ``m`` examples, and the procedure stops at the ``M``-th mistake or when a
    hypothesis survives ``m`` examples, so it uses at most ``M m``.

    Examples
    --------
    >>> mistake_bound_to_pac(10, eps=0.1, delta=0.01)
    700
    >>> mistake_bound_to_pac(0, eps=0.1, delta=0.01)
    0
    """
    M, eps, delta = _check_pac_parameters(M, eps, delta)
    return M * survival_length(M, eps, delta) if M else 0


@frozen
class PACResult:
    """What :func:`pac_from_mistake_bound` returns.

    Attributes
    ----------
    hypothesis
        A snapshot of the learner (use its ``predict_one``).
    examples : int
        Examples drawn from the stream.
    mistakes : int
        Mistakes (= updates) of the conservative run.
    reason : str
        ``"survived"`` (lasted ``m`` consecutive examples) or ``"mistake bound reached"``.
    """

    hypothesis: Any
    examples: int
    mistakes: int
    reason: str


def pac_from_mistake_bound(
    learner: Any,
    sample_stream: Iterable[tuple[Any, int]],
    M: int,
    eps: float,
    delta: float,
    *,
    stop_at_mistake_bound: bool = True,
) -> PACResult:
    """The mistake-bound => PAC conversion of Theorem 1 (``seeds/001``).

    The learner is run *conservatively* (Lemma 1 of ``seeds/001``): ``learn_one`` is
    called only on the examples it mispredicts, so it behaves as if only those had
    arrived and keeps its mistake bound ``M``.  The first hypothesis that survives
    ``m = survival_length(M, eps, delta)`` consecutive examples is returned; with
    probability ``>= 1 - delta`` its error is ``<= eps``.  With
    ``stop_at_mistake_bound`` (default) the run also stops at the ``M``-th mistake:
    after ``M`` mistakes a learner with mistake bound ``M`` can err on no sequence
    labelled by the target, so its hypothesis agrees with the target everywhere; this
    keeps the count within ``M m`` (:func:`mistake_bound_to_pac`).  Without it the
    text's procedure may need ``(M + 1) m`` examples.

    Parameters
    ----------
    learner
        A deterministic learner (``predict_one``, ``learn_one``) with mistake bound ``M``
        on the target's class; it is trained in place.
    sample_stream : iterable of (x, y)
        Examples drawn iid, labelled by the target (e.g. a generator).
    M : int or float
        The learner's mistake bound; a fractional bound is rounded down (mistakes
        are whole numbers).
    eps, delta : float
        In (0, 1).

    Raises
    ------
    NotApplicableError
        For a randomized learner (the theorem is about deterministic hypotheses).
    InvalidArgumentError
        For bad ``M``, ``eps``, ``delta``, or a stream that ends first.

    Examples
    --------
    >>> from mistakebound import classes
    >>> from mistakebound.learners import Halving
    >>> H = classes.thresholds(7)
    >>> stream = iid_sample(H, target=3, distribution=[1 / 7] * 7, T=500, seed=0)
    >>> res = pac_from_mistake_bound(Halving(H), stream, M=3, eps=0.2, delta=0.1)
    >>> res.examples <= mistake_bound_to_pac(3, 0.2, 0.1), res.mistakes <= 3
    (True, True)
    """
    M, eps, delta = _check_pac_parameters(M, eps, delta)
    if is_randomized(learner) or not callable(getattr(learner, "predict_one", None)):
        raise NotApplicableError(
            f"learner: {type(learner).__name__} is not a deterministic learner with predict_one"
        )
    m = survival_length(M, eps, delta)
    if M == 0:
        return PACResult(hypothesis=snapshot_of(learner), examples=0, mistakes=0, reason="mistake bound reached")
    used = streak = mistakes = 0
    for x, y in sample_stream:
        used += 1
        if learner.predict_one(x) != y:
            mistakes += 1
            learner.learn_one(x, y)
            streak = 0
            if stop_at_mistake_bound and mistakes >= M:
                return PACResult(snapshot_of(learner), used, mistakes, "mistake bound reached")
        else:
            streak += 1
            if streak >= m:
                return PACResult(snapshot_of(learner), used, mistakes, "survived")
    raise InvalidArgumentError(
        f"sample_stream: ended after {used} examples, before a hypothesis survived m = {m} in a row"
    )
