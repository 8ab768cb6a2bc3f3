"""SeparableStream: random points separated with a margin by a random unit vector, optionally noisy."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from attrs import define, field

from mistakebound.foundations.errors import InvalidArgumentError, NotApplicableError
from mistakebound.foundations.validation import integer_converter, real_converter
from mistakebound.game.players import ObliviousAdversary
from mistakebound.game.spaces import LinearSpace

__all__ = ["SeparableStream"]


@define
class SeparableStream(ObliviousAdversary):
    """An oblivious stream of points in R^d separated with margin ``gamma`` by a random unit ``u``.

    Before round 1 it draws, from the adversary's generator, a uniformly random unit
    vector ``u`` and then each point by construction: a label ``s`` in {-1, +1} by a
    fair coin, a distance ``a`` uniform in ``[gamma, R]`` from the hyperplane ``u^perp``,
    and a component ``r v`` orthogonal to ``u`` (``v`` a uniformly random unit vector of
    ``u^perp``, ``r`` uniform in ``[0, sqrt(R^2 - a^2)]``); the point is
    ``x = s a u + r v``, so ``||x|| <= R`` and ``|<u, x>| = a >= gamma``, and its label
    is ``sign(<u, x>) = s`` (label 1 for +1, 0 for -1).  Then exactly
    ``round(noise * rounds)`` labels, at positions drawn without replacement, are
    flipped.  A stream with flipped labels is not realizable: play it with
    ``realizable=False`` (``commit`` refuses otherwise).

    ``certificate`` returns ``u`` in every game, so the transcript carries the
    comparator and its hinge loss; for the margin-1 scale of the hinge-loss bounds
    use ``u / gamma`` (hinge loss 0 on every clean round).

    Parameters
    ----------
    d : int
        The dimension.
    gamma : float
        The margin, ``0 < gamma <= R``.
    R : float
        The radius of the ball the points lie in.
    noise : float
        The fraction of labels flipped, in ``[0, 1]``.

    Attributes
    ----------
    comparator : numpy.ndarray or None
        The unit vector ``u`` of the last committed stream.

    Examples
    --------
    >>> from mistakebound import play
    >>> from mistakebound.learners.perceptron import Perceptron
    >>> S = LinearSpace(4, R=1.0, gamma=0.25)
    >>> T = play(Perceptron(), SeparableStream(4, 0.25), S, rounds=200, seed=0)
    >>> len(T), T.mistakes <= (1.0 / 0.25) ** 2, T.gamma
    (200, True, 0.25)
    >>> T = play(Perceptron(), SeparableStream(4, 0.25, noise=0.1), LinearSpace(4, R=1.0), rounds=200,
    ...          seed=0, realizable=False)
    >>> sum(int(y != (np.dot(x, T.comparator) > 0)) for x, y in zip(T.xs, T.ys))  # flipped labels
    20
    """

    d: int = field(converter=integer_converter("d", 1))
    gamma: float = field(converter=real_converter("gamma", minimum=0, open_minimum=True))
    R: float = field(default=1.0, converter=real_converter("R", minimum=0, open_minimum=True))
    noise: float = field(default=0.0, converter=real_converter("noise", minimum=0, maximum=1))
    comparator: np.ndarray | None = field(init=False, default=None, repr=False)

    def __attrs_post_init__(self) -> None:
        if self.gamma > self.R:
            raise InvalidArgumentError(f"gamma: expected a margin at most R = {self.R:g}, got {self.gamma!r}")

    @classmethod
    def for_setting(cls, setting: Any, *, rounds: int | None = None) -> SeparableStream:
        """A stream for a ``LinearSpace(d, R, gamma)``: the space's ``d``, ``R`` (1 if none) and ``gamma``.

        A space without a margin gets the stream's margin ``R / 10`` (any positive margin
        separates strictly, which is all such a space asks).

        Raises
        ------
        NotApplicableError
            If ``setting`` is not a ``LinearSpace``, or its margin exceeds its radius (no
            point of norm at most ``R`` has a larger margin).

        Examples
        --------
        >>> SeparableStream.for_setting(LinearSpace(3, R=2.0, gamma=0.5))
        SeparableStream(d=3, gamma=0.5, R=2.0, noise=0.0)
        >>> SeparableStream.for_setting(LinearSpace(3)).gamma
        0.1
        """
        if not isinstance(setting, LinearSpace):
            raise NotApplicableError(f"SeparableStream plays on halfspaces (a LinearSpace); got {setting!r}")
        R = 1.0 if setting.R is None else setting.R
        gamma = setting.gamma if setting.gamma else R / 10
        if gamma > R:
            raise NotApplicableError(f"SeparableStream: no point of norm at most R = {R:g} has margin "
                                     f"gamma = {gamma:g} > R, on {setting.describe()}")
        return cls(setting.d, gamma, R=R)

    def applies_to(self, H: Any) -> bool:
        """On a LinearSpace of dimension ``d`` whose radius admits ``R`` and whose margin is at most ``gamma``."""
        return (
            isinstance(H, LinearSpace)
            and H.d == self.d
            and (H.R is None or H.R >= self.R)
            and (H.gamma is None or H.gamma <= self.gamma)
        )

    def commit(self, H: Any, rounds: int, rng: np.random.Generator, realizable: bool) -> list[tuple[np.ndarray, int]]:
        flips = int(math.floor(self.noise * rounds + 0.5))
        if realizable and flips:
            raise InvalidArgumentError(
                f"noise: {self.noise:g} flips {flips} labels, so the stream is not realizable; "
                "play it with realizable=False"
            )
        d = self.d
        u = rng.standard_normal(d)
        while not np.linalg.norm(u) > 0:  # probability 0, but never divide by 0
            u = rng.standard_normal(d)
        u /= np.linalg.norm(u)
        self.comparator = u
        signs = rng.choice([-1.0, 1.0], size=rounds)
        a = rng.uniform(self.gamma, self.R, size=rounds)
        X = (signs * a)[:, None] * u[None, :]
        if d > 1:
            V = rng.standard_normal((rounds, d))
            V -= np.outer(V @ u, u)  # project onto the hyperplane u^perp
            norms = np.linalg.norm(V, axis=1)
            norms[norms == 0] = 1.0
            r = rng.uniform(0.0, 1.0, size=rounds) * np.sqrt(np.maximum(self.R**2 - a**2, 0.0))
            X += (r / norms)[:, None] * V
        labels = (signs > 0).astype(int)
        if flips:
            labels[rng.choice(rounds, size=flips, replace=False)] ^= 1
        return list(zip(X, labels.tolist()))  # rows of X with Python int labels

    def certificate(self, state: Any) -> np.ndarray | None:
        """The unit comparator ``u`` of the committed stream."""
        return None if self.comparator is None else self.comparator.copy()
