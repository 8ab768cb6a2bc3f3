"""Many independent Perceptron games at once: one per seed, all weight vectors in one array.

:func:`play_perceptron_batch` plays ``n`` games of the :class:`~mistakebound.learners.
perceptron.Perceptron` against an oblivious stream (for example
:class:`~mistakebound.adversaries.separable_stream.SeparableStream`), one game per seed.
Game ``i`` is exactly the game

    ``play(Perceptron(), stream, space, rounds=rounds, seed=seeds[i], realizable=...)``

of the engine: the stream is committed from the same generator the engine hands the
adversary for that seed (``default_rng(SeedSequence(seed).spawn(2)[1])``), and the
Perceptron's decisions are the engine's bit for bit (see :func:`perceptron_batch`).
Only the rounds are vectorised: per round, one ``(n, d)`` product for every game's
score and one scatter-add for the games that erred.

:func:`perceptron_batch` is the kernel on given arrays: instances ``X`` of shape
``(rounds, n, d)`` and labels ``y`` of shape ``(rounds, n)``.

The Perceptron rule (seed 001, Algorithm 1): ``w_1 = 0``; predict label 1 (``+1``)
iff ``<w, x> >= 0``; on a mistake ``w += s x`` with ``s = 2y - 1`` in {-1, +1}.  On a
margin-separable stream every game errs at most ``(R/gamma)^2`` times
(:func:`~mistakebound.learners.perceptron.margin_bound`: Theorem 4 of seed 001; seed
004).

Examples
--------
>>> from mistakebound.game.spaces import LinearSpace
>>> from mistakebound.adversaries.separable_stream import SeparableStream
>>> S = LinearSpace(5, R=1.0, gamma=0.2)
>>> out = play_perceptron_batch(S, lambda: SeparableStream(5, 0.2), seeds=range(100), rounds=300)
>>> out.mistakes.shape, out.weights.shape, bool((out.mistakes <= (1.0 / 0.2) ** 2).all())
((100,), (100, 5), True)
>>> from mistakebound import play
>>> from mistakebound.learners.perceptron import Perceptron
>>> T = play(Perceptron(), SeparableStream(5, 0.2), S, rounds=300, seed=7)
>>> T.mistakes == int(out.mistakes[7])
True
"""

from __future__ import annotations

import itertools
import numbers
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np
from attrs import frozen

from mistakebound.foundations.errors import InvalidArgumentError, NotApplicableError
from mistakebound.foundations.validation import check_instance, check_int
from mistakebound.game.play import GameState
from mistakebound.game.players import ObliviousAdversary, describe
from mistakebound.game.spaces import LinearSpace

__all__ = ["BatchResult", "perceptron_batch", "play_perceptron_batch"]

_TOL = 1e-9  # the engine's tolerance on ||x|| <= R and on the margin (mistakebound.game.spaces)
_EPS = float(np.finfo(float).eps)


@frozen
class BatchResult:
    """What a batch of Perceptron games returns: one entry per game, in the order of the seeds.

    Attributes
    ----------
    mistakes : numpy.ndarray
        ``(n,)`` int64: the mistakes of each game (the engine's ``Transcript.mistakes``).
    weights : numpy.ndarray
        ``(n, d)`` float64: each game's final weight vector (the learner's ``weights``).
    lengths : numpy.ndarray
        ``(n,)`` int64: the rounds each game lasted (a stream may end before the horizon).
    seeds : tuple of int or None
        The seeds of the games (None for :func:`perceptron_batch` on given arrays).
    """

    mistakes: np.ndarray
    weights: np.ndarray
    lengths: np.ndarray
    seeds: tuple | None = None

    def __len__(self) -> int:
        return int(self.mistakes.shape[0])


# ---------------------------------------------------------------------- validation
def _check_seeds(seeds: Any) -> tuple[int, ...]:
    if isinstance(seeds, (str, bytes)) or not isinstance(seeds, Iterable):
        raise InvalidArgumentError(f"seeds: expected a non-empty sequence of integers >= 0, got {seeds!r}")
    out = []
    for s in seeds:
        if isinstance(s, (bool, np.bool_)) or not isinstance(s, numbers.Integral) or s < 0:
            raise InvalidArgumentError(f"seeds: expected integers >= 0, got {s!r} among them")
        out.append(int(s))
    if not out:
        raise InvalidArgumentError("seeds: expected a non-empty sequence of integers >= 0, got an empty one")
    return tuple(out)


def _stream_for(stream: Any) -> ObliviousAdversary:
    """The adversary of one game: ``stream()`` for a factory, ``stream`` itself otherwise."""
    adversary = stream if getattr(stream, "oblivious", False) and not isinstance(stream, type) else None
    if adversary is None and callable(stream):
        adversary = stream()
    if not getattr(adversary, "oblivious", False) or not callable(getattr(adversary, "commit", None)):
        raise InvalidArgumentError(
            f"stream: expected an oblivious adversary (oblivious = True, with commit) or a function "
            f"of no arguments returning one, got {stream!r}"
        )
    return adversary


# ---------------------------------------------------------------------- the kernel
def perceptron_batch(X: Any, y: Any, *, lengths: Any = None) -> BatchResult:
    """Play ``n`` Perceptron games on given instances: ``X[t, i]`` and ``y[t, i]`` are round ``t+1`` of game ``i``.

    Every game starts from ``w = 0``; in each round every game predicts label 1 iff
    ``<w_i, x> >= 0`` and, on a mistake, adds ``s x`` (``s = 2y - 1``) to its ``w_i``.

    The scores of all games come from one vectorised product, whose rounding may differ
    from ``numpy.dot`` (what :class:`~mistakebound.learners.perceptron.Perceptron`
    computes) by at most ``2 (d+1) u ||w|| ||x||`` (``u`` the unit roundoff).  A game
    whose score is that close to 0 (a tie, say) is rescored with ``numpy.dot`` on its
    own, so every decision, and hence every weight vector (updates add ``+-x``
    exactly), equals the single-game Perceptron's bit for bit.  ``||w||^2`` is
    bounded by the sum of ``||x||^2`` over the mistakes so far (on a mistake
    ``s<w, x> <= 0``, the step of the Perceptron's proof).

    Parameters
    ----------
    X : array_like
        ``(rounds, n, d)`` finite instances.
    y : array_like
        ``(rounds, n)`` labels, 0 or 1 (the engine's labels).
    lengths : array_like, optional
        ``(n,)`` how many rounds each game lasts (default: all ``rounds``); rounds past
        a game's length are ignored.

    Returns
    -------
    BatchResult
        With ``seeds = None``.

    Raises
    ------
    InvalidArgumentError
        For arrays of the wrong shape, non-finite instances, labels other than 0/1, or
        lengths outside ``[0, rounds]``.

    Examples
    --------
    >>> X = np.array([[[1.0, 0.0], [0.0, 1.0]], [[0.0, 1.0], [0.0, 1.0]]])  # 2 rounds, 2 games
    >>> y = np.array([[0, 1], [0, 1]])
    >>> out = perceptron_batch(X, y)
    >>> out.mistakes.tolist(), out.weights.tolist()    # game 0: w = -e1, then a tie on e2 -> 1, wrong
    ([2, 0], [[-1.0, -1.0], [0.0, 0.0]])
    """
    X = np.asarray(X, dtype=float)
    if X.ndim != 3 or X.shape[2] < 1 or X.shape[1] < 1:
        raise InvalidArgumentError(f"X: expected an array of shape (rounds, n_games >= 1, d >= 1), got shape {X.shape}")
    T, n, d = X.shape
    if not np.all(np.isfinite(X)):
        raise InvalidArgumentError("X: expected finite instances, got non-finite entries")
    yy = np.asarray(y)
    if yy.shape != (T, n):
        raise InvalidArgumentError(f"y: expected an array of shape {(T, n)} (rounds, n_games), got shape {yy.shape}")
    if yy.size and not np.isin(yy, (0, 1)).all():
        raise InvalidArgumentError("y: expected the engine's labels 0 or 1, got other values")
    positive = yy.astype(bool)
    if lengths is None:
        length = np.full(n, T, dtype=np.int64)
    else:
        length = np.asarray(lengths)
        if length.shape != (n,) or not np.issubdtype(length.dtype, np.integer) or (length < 0).any() or (length > T).any():
            raise InvalidArgumentError(
                f"lengths: expected {n} integers in [0, {T}], got {lengths!r}"
            )
        length = length.astype(np.int64)
        if (length < T).any():  # a round past the end: x = 0 with label 1 is never a mistake
            past = np.arange(T)[:, None] >= length[None, :]
            X = np.where(past[:, :, None], 0.0, X)
            positive = positive | past

    W = np.zeros((n, d))
    mistakes = np.zeros(n, dtype=np.int64)
    wsq = np.zeros(n)  # sum of ||x||^2 over the mistakes: an upper bound on ||w||^2
    xsq = np.einsum("tnd,tnd->tn", X, X)
    # |fl(score) - <w, x>| <= (d+1) u ||w|| ||x|| for any summation order; twice that
    # separates the batch's rounding from numpy.dot's; 4 (d+2) eps = 8 (d+2) u adds room
    # for the rounding of wsq and of the updates themselves
    c2 = (4.0 * (d + 2) * _EPS) ** 2
    for t in range(T):
        Xt = X[t]
        score = np.einsum("nd,nd->n", W, Xt)
        near = (score * score <= c2 * wsq * xsq[t]) & (wsq > 0)  # w = 0 gives an exact 0 in any order
        if near.any():
            for i in np.flatnonzero(near):
                score[i] = np.dot(W[i], Xt[i])
        wrong = np.flatnonzero((score >= 0.0) != positive[t])
        if wrong.size:
            W[wrong] += np.where(positive[t, wrong], 1.0, -1.0)[:, None] * Xt[wrong]
            wsq[wrong] += xsq[t, wrong]
            mistakes[wrong] += 1
    return BatchResult(mistakes=mistakes, weights=W, lengths=length)


def _label(value: Any) -> int | None:
    """The engine's reading of a label (``mistakebound.game.play``): 0 or 1, bools and 0.0/1.0 included."""
    if isinstance(value, (bool, np.bool_)):
        return int(value)
    if isinstance(value, numbers.Real) and (value == 0 or value == 1):
        return int(value)
    return None


def _stack(pairs: list, d: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """``(len, d)`` instances and ``(len,)`` labels; the first offending round named on a bad pair."""
    n = len(pairs)
    X = np.zeros((n, d))
    y = np.zeros(n, dtype=np.int64)
    if not n:
        return X, y
    fast = all(type(p) is tuple and len(p) == 2 for p in pairs)
    if fast:
        xs, labels = zip(*pairs)
        try:
            X = np.asarray(xs, dtype=float)
            Y = np.asarray(labels)
        except (TypeError, ValueError):
            fast = False
        else:
            fast = (
                X.shape == (n, d) and bool(np.isfinite(X).all())
                and Y.shape == (n,) and Y.dtype.kind in "biuf" and bool(np.isin(Y, (0, 1)).all())
            )
            if fast:
                y = Y.astype(np.int64)
    if not fast:  # find the first bad round for the message
        X = np.zeros((n, d))
        for t, pair in enumerate(pairs):
            where = f"stream: game with seed {seed}, round {t + 1}"
            if not isinstance(pair, tuple) or len(pair) != 2:
                raise InvalidArgumentError(f"{where}: {pair!r} is not an (instance, label) pair")
            x, label = pair
            try:
                v = np.asarray(x, dtype=float)
            except (TypeError, ValueError):
                v = None
            if v is None or v.shape != (d,) or not np.all(np.isfinite(v)):
                raise InvalidArgumentError(f"{where}: expected a finite instance of shape ({d},), got {x!r}")
            if _label(label) is None:
                raise InvalidArgumentError(f"{where}: expected a label 0 or 1, got {label!r}")
            X[t], y[t] = v, _label(label)
    return X, y


# ---------------------------------------------------------------------- games from seeds
def _commit(space: LinearSpace, stream: Any, seed: int, rounds: int, realizable: bool) -> tuple[np.ndarray, np.ndarray]:
    """The instances and labels of one game, committed exactly as ``play`` commits them."""
    adversary = _stream_for(stream)
    applies = getattr(adversary, "applies_to", None)
    if applies is not None and not applies(space):
        raise NotApplicableError(f"stream: {describe(adversary)} does not apply to {space.describe()}")
    rng = np.random.default_rng(np.random.SeedSequence(seed).spawn(2)[1])
    sequence = adversary.commit(space, rounds, rng, realizable)
    if sequence is None or isinstance(sequence, (str, bytes)) or not hasattr(sequence, "__iter__"):
        raise InvalidArgumentError(
            f"stream: commit returned {sequence!r} for the game with seed {seed}; "
            "expected a sequence of (instance, label) pairs"
        )
    pairs = list(itertools.islice(sequence, rounds))  # an endless generator is cut at the horizon
    d = space.d
    X, y = _stack(pairs, d, seed)
    if space.R is not None and len(pairs):
        norms = np.linalg.norm(X, axis=1)
        bad = np.flatnonzero(norms > space.R * (1 + _TOL))
        if bad.size:
            t = int(bad[0])
            raise InvalidArgumentError(
                f"stream: game with seed {seed}, round {t + 1}: instance has norm {norms[t]:.6g} > R = {space.R:g}"
            )
    if realizable and len(pairs):
        _check_certificate(space, adversary, seed, rounds, rng, X, y)
    return X, y


def _check_certificate(space, adversary, seed, rounds, rng, X, y) -> None:
    """The engine's realizability check of a linear game, on all rounds at once."""
    certificate = getattr(adversary, "certificate", None)
    state = GameState(H=space, rounds=rounds, realizable=True, rng=rng)
    u = certificate(state) if callable(certificate) else None
    if u is None:
        raise InvalidArgumentError(
            f"stream: {describe(adversary)} gave no certificate before round 1 (game with seed {seed}); "
            "the batch checks realizability with the comparator given up front: play with realizable=False"
        )
    u = np.asarray(u, dtype=float)
    if u.shape != (space.d,) or not np.all(np.isfinite(u)) or not np.linalg.norm(u) > 0:
        raise InvalidArgumentError(f"stream: certificate of game with seed {seed}: expected a non-zero finite vector of length {space.d}")
    margins = np.where(y == 1, 1.0, -1.0) * (X @ u)
    if space.gamma is not None and space.gamma > 0:
        bad = np.flatnonzero(margins < space.gamma * np.linalg.norm(u) * (1 - _TOL))
    else:
        bad = np.flatnonzero(margins <= 0)
    if bad.size:
        t = int(bad[0])
        raise InvalidArgumentError(
            f"stream: game with seed {seed}, round {t + 1}: label {int(y[t])} is not separated by the "
            f"comparator with the space's margin (y<u, x> = {margins[t]:.6g})"
        )


def play_perceptron_batch(
    space: LinearSpace,
    stream: ObliviousAdversary | Callable[[], ObliviousAdversary],
    *,
    seeds: Iterable[int],
    rounds: int,
    realizable: bool = True,
    max_bytes: int = 256 * 2**20,
) -> BatchResult:
    """Play one Perceptron game per seed against an oblivious stream, all games at once.

    Game ``i`` equals ``play(Perceptron(), stream, space, rounds=rounds,
    seed=seeds[i], realizable=realizable)``: same instances and labels (committed
    from the generator ``play`` gives the adversary for that seed), same mistakes,
    same final weights.

    Parameters
    ----------
    space : LinearSpace
        The game's space; instances must lie in its ball (``||x|| <= R``) and, in
        realizable games, be separated by the stream's certificate with its margin.
    stream : ObliviousAdversary or callable
        The stream (for example ``SeparableStream(d, gamma)``), or a function of no
        arguments returning a fresh one (a class counts as such a function); its
        ``commit`` is called once per seed.
    seeds : sequence of int
        One game per seed (integers >= 0).
    rounds : int
        The horizon (>= 0); a stream that commits fewer pairs ends its game early.
    realizable : bool
        As in ``play``: the stream's ``certificate`` (asked before round 1) must
        separate every round.  A noisy stream needs ``realizable=False``.
    max_bytes : int
        Games are played in blocks whose instances take at most about this many bytes
        (at least one game per block).

    Returns
    -------
    BatchResult
        ``mistakes`` and ``lengths`` of shape ``(n,)``, ``weights`` of shape
        ``(n, d)``, ``seeds``.

    Raises
    ------
    InvalidArgumentError
        For a bad ``space``, ``stream``, ``seeds``, ``rounds`` or ``max_bytes``, or when
        a stream breaks a rule the engine enforces (a pair that is not
        ``(instance, label)``, an instance outside the ball, a label off the certificate
        in a realizable game); the message names the game's seed and the round.
    NotApplicableError
        If the stream does not apply to ``space``.

    Examples
    --------
    >>> from mistakebound.adversaries.separable_stream import SeparableStream
    >>> S = LinearSpace(3, R=2.0, gamma=0.5)
    >>> out = play_perceptron_batch(S, SeparableStream(3, 0.5, R=2.0), seeds=[0, 1, 2], rounds=50)
    >>> bool((out.mistakes <= (2.0 / 0.5) ** 2).all()), out.lengths.tolist(), out.seeds
    (True, [50, 50, 50], (0, 1, 2))
    """
    check_instance("space", space, LinearSpace, "a LinearSpace")
    seeds = _check_seeds(seeds)
    rounds = check_int("rounds", rounds, 0)
    max_bytes = check_int("max_bytes", max_bytes, 1)
    _stream_for(stream)  # refuse a bad stream before any work
    d = space.d
    block = max(1, int(max_bytes) // max(1, rounds * d * 8))
    parts = []
    for start in range(0, len(seeds), block):
        chunk = seeds[start : start + block]
        X = np.zeros((len(chunk), rounds, d))  # games first: each game's stream is one contiguous copy
        y = np.ones((len(chunk), rounds), dtype=np.int64)
        lengths = np.zeros(len(chunk), dtype=np.int64)
        for j, seed in enumerate(chunk):
            Xi, yi = _commit(space, stream, seed, rounds, bool(realizable))
            lengths[j] = len(yi)
            X[j, : len(yi)] = Xi
            y[j, : len(yi)] = yi
        parts.append(perceptron_batch(X.transpose(1, 0, 2), y.T, lengths=lengths))
    return BatchResult(
        mistakes=np.concatenate([p.mistakes for p in parts]),
        weights=np.concatenate([p.weights for p in parts]),
        lengths=np.concatenate([p.lengths for p in parts]),
        seeds=seeds,
    )
