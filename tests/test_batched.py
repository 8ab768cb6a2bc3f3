"""The batched Perceptron: game by game equal to the engine, within (R/gamma)^2, and strict about its input.

Expected values come from the engine itself (``play`` with the single-game Perceptron,
one game per seed), from an exact integer reference Perceptron written here, and from
the margin bound's formula written out again.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mistakebound import play
from mistakebound.adversaries.separable_stream import SeparableStream
from mistakebound.foundations.errors import InvalidArgumentError, NotApplicableError
from mistakebound.learners.batched import perceptron_batch, play_perceptron_batch
from mistakebound.learners.perceptron import Perceptron
from mistakebound.game.players import ObliviousAdversary
from mistakebound.game.spaces import LinearSpace

FAST = settings(max_examples=25, deadline=None)


class Fixed(ObliviousAdversary):
    """Plays a given list of (vector, 0/1 label) pairs, the same in every game, and certifies nothing."""

    def __init__(self, pairs):
        self.pairs = pairs

    def commit(self, H, rounds, rng, realizable):
        return [(np.asarray(x, dtype=float), int(y)) for x, y in self.pairs]


class Shuffled(ObliviousAdversary):
    """A random order, drawn from the game's generator, of a fixed list of pairs."""

    def __init__(self, pairs):
        self.pairs = pairs

    def commit(self, H, rounds, rng, realizable):
        order = rng.permutation(len(self.pairs))
        return [(np.asarray(self.pairs[i][0], dtype=float), int(self.pairs[i][1])) for i in order]


def engine_games(space, make_stream, seeds, rounds, realizable=True):
    """Mistakes, final weights and lengths of each seed's game through ``play``."""
    mistakes, weights, lengths = [], [], []
    for seed in seeds:
        p = Perceptron(space.d)
        T = play(p, make_stream(), space, rounds=rounds, seed=seed, realizable=realizable)
        mistakes.append(T.mistakes)
        weights.append(p.weights)
        lengths.append(len(T))
    return np.array(mistakes), np.array(weights).reshape(len(seeds), space.d), np.array(lengths)


def reference_perceptron(pairs):
    """The Perceptron in exact integer arithmetic with -1/+1 labels: mistakes and final w."""
    d = len(pairs[0][0]) if pairs else 0
    w = [0] * d
    m = 0
    for x, label in pairs:
        s = 1 if label == 1 else -1
        predicted = 1 if sum(a * b for a, b in zip(w, x)) >= 0 else -1
        if predicted != s:
            w = [a + s * b for a, b in zip(w, x)]
            m += 1
    return m, w


# ---------------------------------------------------------------------- equality with the engine
@FAST
@given(
    d=st.integers(1, 12),
    R=st.sampled_from([0.5, 1.0, 3.0]),
    ratio=st.floats(0.05, 1.0),
    n_games=st.integers(1, 6),
    rounds=st.integers(0, 120),
    first_seed=st.integers(0, 2**32),
)
def test_each_game_equals_the_engines_game_with_its_seed(d, R, ratio, n_games, rounds, first_seed):
    gamma = ratio * R
    space = LinearSpace(d, R=R, gamma=gamma)
    seeds = [first_seed + 3 * i for i in range(n_games)]
    out = play_perceptron_batch(space, lambda: SeparableStream(d, gamma, R=R), seeds=seeds, rounds=rounds)
    mistakes, weights, lengths = engine_games(space, lambda: SeparableStream(d, gamma, R=R), seeds, rounds)
    assert out.seeds == tuple(seeds)
    assert out.mistakes.tolist() == mistakes.tolist()
    assert np.array_equal(out.weights, weights)  # bit for bit
    assert out.lengths.tolist() == lengths.tolist() == [rounds] * n_games


@FAST
@given(
    d=st.integers(1, 8),
    ratio=st.floats(0.05, 1.0),
    noise=st.floats(0.0, 0.5),
    n_games=st.integers(1, 5),
    rounds=st.integers(1, 100),
)
def test_noisy_games_equal_the_engines_too(d, ratio, noise, n_games, rounds):
    space = LinearSpace(d, R=1.0)
    stream = SeparableStream(d, ratio, noise=noise)  # one instance for every game: commit is called per seed
    out = play_perceptron_batch(space, stream, seeds=range(n_games), rounds=rounds, realizable=False)
    mistakes, weights, _ = engine_games(space, lambda: SeparableStream(d, ratio, noise=noise), range(n_games), rounds, False)
    assert out.mistakes.tolist() == mistakes.tolist()
    assert np.array_equal(out.weights, weights)


def test_ties_and_cancellation_are_decided_as_the_engine_decides_them():
    """Exact ties (<w, x> = 0 must predict 1) and a score whose float value depends on the summation order."""
    big = 2.0**53
    pairs = [
        ([1.0, 0.0, 0.0, 0.0], 0),  # tie at w = 0: predict 1, wrong, w = -e1
        ([0.0, 1.0, 0.0, 0.0], 0),  # tie again (N > 0 now): predict 1, wrong
        ([0.0, 0.0, 1.0, 0.0], 1),  # tie, label 1: right, no update
        ([big, 1.0, -big, 1.0], 1),  # <w, x> = -big - 1 < 0: wrong, w += x
        ([1.0, 1.0, 1.0, 1.0], 0),  # cancellation: big + (-big) and the small terms
        ([1.0, 0.5, 1.0, 0.25], 1),
        ([0.0, 0.0, 0.0, 0.0], 0),  # the zero vector: score 0 -> 1, wrong, no change to w
    ]
    space = LinearSpace(4)
    seeds = list(range(12))
    out = play_perceptron_batch(space, Shuffled(pairs), seeds=seeds, rounds=len(pairs), realizable=False)
    mistakes, weights, _ = engine_games(space, lambda: Shuffled(pairs), seeds, len(pairs), False)
    assert out.mistakes.tolist() == mistakes.tolist()
    assert np.array_equal(out.weights, weights)
    # the fixed order, against the closed form worked out by hand: mistakes on rounds 1, 2, 4, 5, 6 (score -2), 7
    fixed = play_perceptron_batch(space, Fixed(pairs), seeds=[0], rounds=len(pairs), realizable=False)
    assert fixed.mistakes.tolist() == [6]


@FAST
@given(
    d=st.integers(1, 5),
    n_games=st.integers(1, 6),
    rounds=st.integers(0, 40),
    data=st.data(),
)
def test_kernel_equals_an_exact_integer_perceptron(d, n_games, rounds, data):
    """Small integer instances make ties frequent and every score exact."""
    X = np.array(
        data.draw(st.lists(st.integers(-2, 2), min_size=rounds * n_games * d, max_size=rounds * n_games * d)),
        dtype=float,
    ).reshape(rounds, n_games, d)
    y = np.array(
        data.draw(st.lists(st.integers(0, 1), min_size=rounds * n_games, max_size=rounds * n_games)), dtype=int
    ).reshape(rounds, n_games)
    lengths = np.array(data.draw(st.lists(st.integers(0, rounds), min_size=n_games, max_size=n_games)), dtype=np.int64)
    out = perceptron_batch(X, y, lengths=lengths)
    for i in range(n_games):
        pairs = [(X[t, i].astype(int).tolist(), int(y[t, i])) for t in range(lengths[i])]
        m, w = reference_perceptron(pairs) if pairs else (0, [0] * d)
        assert out.mistakes[i] == m
        assert out.weights[i].tolist() == w
    assert out.lengths.tolist() == lengths.tolist()


def test_a_stream_shorter_than_the_horizon_ends_its_game_early():
    pairs = [([1.0, 0.0], 0), ([0.0, 1.0], 0)]
    out = play_perceptron_batch(LinearSpace(2), Fixed(pairs), seeds=[0, 5], rounds=10, realizable=False)
    T = play(Perceptron(), Fixed(pairs), LinearSpace(2), rounds=10, seed=5, realizable=False)
    assert out.lengths.tolist() == [2, 2] == [len(T)] * 2
    assert out.mistakes.tolist() == [T.mistakes] * 2 == [2, 2]


def test_blocks_of_games_do_not_change_the_results():
    space = LinearSpace(6, R=1.0, gamma=0.1)
    make = lambda: SeparableStream(6, 0.1)  # noqa: E731
    whole = play_perceptron_batch(space, make, seeds=range(9), rounds=40)
    blocks = play_perceptron_batch(space, make, seeds=range(9), rounds=40, max_bytes=2 * 40 * 6 * 8)  # 2 games
    one = play_perceptron_batch(space, make, seeds=range(9), rounds=40, max_bytes=1)
    for other in (blocks, one):
        assert other.mistakes.tolist() == whole.mistakes.tolist()
        assert np.array_equal(other.weights, whole.weights)


# ---------------------------------------------------------------------- the margin bound
@FAST
@given(
    d=st.integers(1, 30),
    R=st.sampled_from([0.5, 1.0, 2.0]),
    ratio=st.floats(0.1, 1.0),
    n_games=st.integers(1, 40),
    rounds=st.integers(1, 300),
    first_seed=st.integers(0, 2**32),
)
def test_every_game_makes_at_most_R_over_gamma_squared_mistakes(d, R, ratio, n_games, rounds, first_seed):
    gamma = ratio * R
    space = LinearSpace(d, R=R, gamma=gamma)
    out = play_perceptron_batch(
        space, lambda: SeparableStream(d, gamma, R=R), seeds=range(first_seed, first_seed + n_games), rounds=rounds
    )
    bound = (R / gamma) ** 2  # Theorem 4 of seed 001
    assert (out.mistakes <= bound * (1 + 1e-9)).all()
    # ||w||^2 <= M R^2 (the upper half of the proof)
    assert (np.einsum("ij,ij->i", out.weights, out.weights) <= out.mistakes * R**2 * (1 + 1e-9)).all()


# ---------------------------------------------------------------------- input validation
def _stream():
    return SeparableStream(3, 0.5)


@pytest.mark.parametrize(
    "kwargs, name",
    [
        ({"space": "halfspaces"}, "space"),
        ({"stream": 3}, "stream"),
        ({"stream": lambda: "not an adversary"}, "stream"),
        ({"seeds": []}, "seeds"),
        ({"seeds": [0, -1]}, "seeds"),
        ({"seeds": [True]}, "seeds"),
        ({"seeds": 5}, "seeds"),
        ({"seeds": [1.5]}, "seeds"),
        ({"rounds": -1}, "rounds"),
        ({"rounds": True}, "rounds"),
        ({"rounds": 2.0}, "rounds"),
        ({"max_bytes": 0}, "max_bytes"),
    ],
)
def test_bad_arguments_are_refused_by_name(kwargs, name):
    args = {"space": LinearSpace(3, R=1.0, gamma=0.5), "stream": _stream, "seeds": [0, 1], "rounds": 5}
    args.update(kwargs)
    space, stream = args.pop("space"), args.pop("stream")
    with pytest.raises(InvalidArgumentError, match=rf"^{name}:"):
        play_perceptron_batch(space, stream, **args)


def test_a_stream_for_another_space_does_not_apply():
    with pytest.raises(NotApplicableError, match="stream"):
        play_perceptron_batch(LinearSpace(4, R=1.0), _stream, seeds=[0], rounds=5)


def test_what_the_engine_refuses_the_batch_refuses_naming_seed_and_round():
    outside = Fixed([([0.5, 0.0], 1), ([3.0, 0.0], 1)])
    with pytest.raises(InvalidArgumentError, match=r"stream: game with seed 4, round 2: .*norm 3 > R = 1"):
        play_perceptron_batch(LinearSpace(2, R=1.0), outside, seeds=[4], rounds=2, realizable=False)
    with pytest.raises(InvalidArgumentError, match=r"stream: .*no certificate"):  # realizable needs a comparator
        play_perceptron_batch(LinearSpace(2), Fixed([([1.0, 0.0], 1)]), seeds=[0], rounds=1)
    with pytest.raises(InvalidArgumentError, match=r"stream: game with seed 0, round 1: .*label"):
        play_perceptron_batch(LinearSpace(2), Fixed([([1.0, 0.0], 2)]), seeds=[0], rounds=1, realizable=False)
    with pytest.raises(InvalidArgumentError, match=r"stream: game with seed 0, round 1: .*shape \(2,\)"):
        play_perceptron_batch(LinearSpace(2), Fixed([([1.0, 0.0, 0.0], 1)]), seeds=[0], rounds=1, realizable=False)
    with pytest.raises(InvalidArgumentError, match=r"^noise:"):  # SeparableStream's own refusal, as in play
        play_perceptron_batch(LinearSpace(2, R=1.0), SeparableStream(2, 0.5, noise=0.5), seeds=[0], rounds=10)


class Liar(ObliviousAdversary):
    """Certifies u = e1 but labels a point on the positive side 0."""

    def commit(self, H, rounds, rng, realizable):
        return [(np.array([1.0, 0.0]), 1), (np.array([0.5, 0.0]), 0)]

    def certificate(self, state):
        return np.array([1.0, 0.0])


def test_a_label_off_the_certificate_is_refused_in_a_realizable_batch():
    with pytest.raises(InvalidArgumentError, match=r"seed 0, round 2: label 0 is not separated"):
        play_perceptron_batch(LinearSpace(2), Liar(), seeds=[0], rounds=2)
    out = play_perceptron_batch(LinearSpace(2), Liar(), seeds=[0], rounds=2, realizable=False)
    assert out.mistakes.tolist() == [1]  # round 1: tie -> 1, right; round 2: <0, x> = 0 -> 1, wrong


@pytest.mark.parametrize(
    "X, y, lengths, name",
    [
        (np.zeros((2, 3)), np.zeros((2, 3)), None, "X"),
        (np.zeros((2, 0, 3)), np.zeros((2, 0)), None, "X"),
        (np.full((1, 1, 2), np.nan), np.zeros((1, 1)), None, "X"),
        (np.zeros((2, 3, 1)), np.zeros((3, 2)), None, "y"),
        (np.zeros((2, 3, 1)), np.full((2, 3), 2), None, "y"),
        (np.zeros((2, 3, 1)), np.zeros((2, 3)), [1, 2], "lengths"),
        (np.zeros((2, 3, 1)), np.zeros((2, 3)), [1, 2, 3], "lengths"),
        (np.zeros((2, 3, 1)), np.zeros((2, 3)), [1.0, 2.0, 0.0], "lengths"),
    ],
)
def test_the_kernel_refuses_bad_arrays_by_name(X, y, lengths, name):
    with pytest.raises(InvalidArgumentError, match=rf"^{name}:"):
        perceptron_batch(X, y, lengths=lengths)


class Endless(ObliviousAdversary):
    """An endless generator of pairs with labels given as bool and float, as the engine accepts."""

    def commit(self, H, rounds, rng, realizable):
        t = 0
        while True:
            t += 1
            yield (rng.standard_normal(3), bool(t % 2)) if t % 3 else (rng.standard_normal(3), 0.0)


def test_an_endless_generator_is_cut_at_the_horizon_and_labels_read_as_the_engine_reads_them():
    space = LinearSpace(3)
    out = play_perceptron_batch(space, Endless, seeds=[1, 2, 3], rounds=30, realizable=False)
    mistakes, weights, lengths = engine_games(space, Endless, [1, 2, 3], 30, False)
    assert out.lengths.tolist() == lengths.tolist() == [30] * 3
    assert out.mistakes.tolist() == mistakes.tolist()
    assert np.array_equal(out.weights, weights)


class Nothing(ObliviousAdversary):
    def commit(self, H, rounds, rng, realizable):
        return None


def test_a_commit_that_returns_no_sequence_is_refused():
    with pytest.raises(InvalidArgumentError, match=r"^stream: commit returned None"):
        play_perceptron_batch(LinearSpace(2), Nothing(), seeds=[0], rounds=3, realizable=False)


@pytest.mark.parametrize(
    "w",
    [
        [-2325030774638.8345, -0.21879166393254573, 2325030774639.053],
        [73230171.47112973, -1170530.8084076832, -72059640.66272205],
    ],
)
def test_a_score_whose_sign_depends_on_the_summation_order_is_decided_by_numpy_dot(w):
    """Round 1 (a tie, label 0) sets w; round 2 scores ones(3), a sum that cancels.

    On the machine these vectors were found on, one vectorised product gives a small
    negative score where ``numpy.dot`` (the engine's Perceptron) gives 0.0, so the
    batch must rescore near-zero scores with ``numpy.dot`` to agree with the engine.
    """
    pairs = [(-np.array(w), 0), (np.ones(3), 0), (np.ones(3), 1)]
    out = play_perceptron_batch(LinearSpace(3), Fixed(pairs), seeds=[0, 1], rounds=3, realizable=False)
    mistakes, weights, _ = engine_games(LinearSpace(3), lambda: Fixed(pairs), [0, 1], 3, False)
    assert out.mistakes.tolist() == mistakes.tolist()
    assert np.array_equal(out.weights, weights)
