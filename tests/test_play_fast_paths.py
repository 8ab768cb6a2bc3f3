"""The engine's fast paths give exactly what the round-by-round rules give.

Against an oblivious adversary :func:`mistakebound.play` checks the committed
sequence in bulk (:meth:`Referee.instances`, :meth:`Referee.sure_labels`) and records the
rounds as columns (:class:`~mistakebound.game.transcript.RoundLog`), built into
:class:`~mistakebound.game.transcript.Round` objects when the transcript is read.  The oracle
here is the same sequence replayed by an *adaptive* adversary, which the engine plays
round by round with no bulk check: transcripts (serialised, byte for byte) and errors
(type, round, player, message, transcript) must be identical.  Version spaces that share
their arrays (the referee's and the learner's) are checked against brute force.
"""

from __future__ import annotations

import pickle

import attrs
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mistakebound.game.version_space as vs_module
from mistakebound import HypothesisClass, play
from mistakebound.game import classes
from mistakebound.adversaries import ObliviousCoin, SeparableStream
from mistakebound.foundations.errors import GameError
from mistakebound.learners import Consistent, Halving, Perceptron
from mistakebound.game.players import Adversary, ObliviousAdversary
from mistakebound.game.transcript_json import transcript_to_json
from mistakebound.game.spaces import _TOL, LinearSpace
from mistakebound.game.transcript import Round, RoundLog, Transcript
from mistakebound.game.version_space import VersionSpace
from tests.strategies import hypothesis_classes

SETTINGS = settings(max_examples=60, deadline=None)


# ------------------------------------------------------------------------ players
class Corrupted(ObliviousAdversary):
    """Commits ``base``'s sequence with one item broken: a label 2, a flipped label, a foreign instance."""

    def __init__(self, base, at, kind):
        self.base, self.at, self.kind = base, at, kind

    def commit(self, H, rounds, rng, realizable):
        pairs = list(self.base.commit(H, rounds, rng, realizable))
        if self.kind is not None and self.at < len(pairs):
            x, y = pairs[self.at]
            if self.kind == "label":
                pairs[self.at] = (x, 2)
            elif self.kind == "flip":
                pairs[self.at] = (x, 1 - y)
            elif isinstance(H, HypothesisClass):
                pairs[self.at] = ("not in the domain", y)
            else:
                pairs[self.at] = (np.full(np.shape(x), 5.0), y)  # norm above R
        return pairs

    def certificate(self, state):
        get = getattr(self.base, "certificate", None)
        return None if get is None else get(state)


class Replay(Adversary):
    """The oracle: an adaptive adversary playing ``oblivious``'s committed sequence round by round."""

    def __init__(self, oblivious):
        self.source = oblivious

    def start(self, state):
        self.pairs = list(self.source.commit(state.H, state.rounds, state.rng, state.realizable))

    def next_instance(self, state):
        return self.pairs[state.t - 1][0] if state.t <= len(self.pairs) else None

    def label(self, state, x, p):
        return self.pairs[state.t - 1][1]

    def certificate(self, state):
        return self.source.certificate(state)


class VoteLearner:
    """A randomized learner over a finite class: p = the share of the version space voting 1."""

    def __init__(self, H):
        self.H, self.V = H, VersionSpace(H)

    def predict_proba_one(self, x):
        return self.V.count(self.H.index_of(x), 1) / self.V.size if self.V.size else 0.5

    def learn_one(self, x, y):
        self.V.restrict(self.H.index_of(x), y)


def _outcome(make_learner, adversary, H, **kwargs):
    """The transcript as JSON, or the error's type, round, player, message and transcript."""
    try:
        T = play(make_learner(), adversary, H, **kwargs)
    except GameError as exc:
        T = attrs.evolve(exc.transcript, adversary="")  # the two adversaries' names differ
        return (type(exc).__name__, exc.round, exc.player, str(exc), transcript_to_json(T))
    assert T == Transcript(**{a.name: getattr(T, a.name) for a in attrs.fields(Transcript)})
    return transcript_to_json(attrs.evolve(T, adversary=""))


def _both(make_learner, oblivious, H, **kwargs):
    fast = _outcome(make_learner, oblivious, H, **kwargs)
    slow = _outcome(make_learner, Replay(oblivious), H, **kwargs)
    return fast, slow


KINDS = st.sampled_from([None, "label", "flip", "instance"])


# ------------------------------------------------------------------------ games
@SETTINGS
@given(hypothesis_classes(max_rows=30, max_cols=6, min_cols=1), st.integers(0, 40), st.integers(0, 2**32 - 1),
       st.booleans(), st.integers(0, 30), KINDS, st.sampled_from(["halving", "consistent", "vote"]))
def test_finite_class_games_match_round_by_round_play(H, rounds, seed, realizable, at, kind, learner):
    make = {"halving": lambda: Halving(H), "consistent": lambda: Consistent(H), "vote": lambda: VoteLearner(H)}[learner]
    fast, slow = _both(make, Corrupted(ObliviousCoin(), at, kind), H, rounds=rounds, seed=seed, realizable=realizable)
    assert fast == slow


@SETTINGS
@given(st.integers(1, 12), st.sampled_from([None, 0.05, 0.3]), st.integers(0, 60), st.integers(0, 2**32 - 1),
       st.integers(0, 60), KINDS, st.sampled_from([0.0, 0.2]))
def test_linear_games_match_round_by_round_play(d, gamma, rounds, seed, at, kind, noise):
    S = LinearSpace(d, R=1.0, gamma=gamma)
    stream = SeparableStream(d, gamma or 0.05, noise=noise)
    realizable = noise == 0.0
    fast, slow = _both(Perceptron, Corrupted(stream, at, kind), S, rounds=rounds, seed=seed, realizable=realizable)
    assert fast == slow


def test_a_large_class_game_matches_round_by_round_play():
    H = classes.random(70_000, 12, 0.5, seed=3)  # the numpy forms, then row indices
    for seed in range(3):
        for kind in (None, "flip"):
            fast, slow = _both(lambda: Halving(H), Corrupted(ObliviousCoin(), 5, kind), H, rounds=40, seed=seed)
            assert fast == slow


def test_a_learner_error_in_a_logged_round_names_the_round_and_carries_the_rounds_before_it():
    calls = []

    class Counting(Perceptron):
        def predict_one(self, x):
            calls.append(x)
            if len(calls) == 5:
                raise RuntimeError("boom")
            return super().predict_one(x)

    S = LinearSpace(3, R=1.0, gamma=0.1)
    with pytest.raises(GameError) as info:
        play(Counting(), SeparableStream(3, 0.1), S, rounds=20, seed=0)
    assert (info.value.round, info.value.player) == (5, "learner")
    assert [r.t for r in info.value.transcript.rounds] == [1, 2, 3, 4]
    assert [r.x for r in info.value.transcript.rounds] == [tuple(x.tolist()) for x in calls[:4]]


# ------------------------------------------------------------------------ bulk checks of a linear space
def _per_item_prefix(S, xs):
    n = 0
    for x in xs:
        try:
            S.instance(x)
        except Exception:  # noqa: BLE001
            break
        n += 1
    return n


@pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")
@SETTINGS
@given(st.integers(1, 6), st.lists(st.tuples(st.integers(-3, 3), st.sampled_from(["ok", "nan", "inf", "big"])),
                                   min_size=0, max_size=12), st.integers(0, 2**32 - 1), st.sampled_from([1.0, None]))
def test_bulk_instances_accept_exactly_what_instance_accepts(d, plan, seed, R):
    # rows on the radius give or take a few ulps of the tolerance, and non-finite ones
    rng = np.random.default_rng(seed)
    S = LinearSpace(d, R=R)
    xs = []
    for ulps, kind in plan:
        scale = 1.0 * (1 + _TOL)
        for _ in range(abs(ulps)):
            scale = np.nextafter(scale, np.inf if ulps > 0 else 0.0)
        v = rng.standard_normal(d)
        v = v / np.linalg.norm(v) * scale
        if kind == "nan":
            v[0] = np.nan
        elif kind == "inf":
            v[-1] = np.inf
        elif kind == "big":
            v = v * 1e200
        xs.append(v)
    stored, shown = S.referee(True).instances(xs)
    n = _per_item_prefix(S, xs)
    assert len(stored) == len(shown) == n
    for i in range(n):
        s, v = S.instance(xs[i])
        assert stored[i] == s and stored[:n][i] == s
        assert np.array_equal(shown[i], v) and not shown[i].flags.writeable


@SETTINGS
@given(st.integers(1, 8), st.sampled_from([None, 0.0, 0.1, 0.5]), st.integers(0, 2**32 - 1), st.integers(-4, 4))
def test_sure_labels_never_vouch_for_a_label_round_error_refuses(d, gamma, seed, ulps):
    # points whose margin sits on the referee's threshold, give or take a few ulps
    rng = np.random.default_rng(seed)
    S = LinearSpace(d, R=10.0, gamma=gamma)
    referee = S.referee(True)
    u = rng.standard_normal(d)
    referee.commit(u)
    need = 0.0 if not gamma else gamma * float(np.linalg.norm(u)) * (1 - _TOL)
    xs, ys = [], []
    for _ in range(40):
        side = int(rng.integers(0, 2))
        target = need
        for _ in range(abs(ulps)):
            target = np.nextafter(target, np.inf if ulps > 0 else -np.inf)
        x = (2 * side - 1) * target * u / float(np.dot(u, u))
        if d > 1:  # plus a component orthogonal to u
            w = rng.standard_normal(d)
            x = x + 0.5 * (w - np.dot(w, u) / np.dot(u, u) * u)
        xs.append(x)
        ys.append(side)
    stored, shown = referee.instances(xs)
    sure = referee.sure_labels(shown, ys[: len(shown)])
    for i in range(len(shown)):
        if sure[i]:
            assert referee.round_error(i + 1, stored[i], ys[i]) is None


# ------------------------------------------------------------------------ transcripts built when read
def test_a_transcript_from_a_log_equals_the_eager_one_and_serialises_the_same():
    rounds = (Round(1, "a", 1.0, 1, 0), Round(2, "b", 0.25, 0, 0), Round(3, "a", 0.0, 0, 1))
    fields = {"learner": "L", "adversary": "A", "seed": 9, "version_space": (1,), "best_hypothesis_mistakes": 0}
    eager = Transcript(rounds=rounds, **fields)

    def lazy():
        return Transcript.from_log(RoundLog(["a", "b", "a"], [1.0, 0.25, 0.0], [1, 0, 0], [0, 0, 1]), **fields)

    T = lazy()
    assert len(T) == 3 and object.__getattribute__(T, "_log") is not None  # len does not build the rounds
    assert T == eager and hash(T) == hash(eager) and repr(T) == repr(eager)
    assert T.rounds == rounds and T.mistakes == eager.mistakes
    assert transcript_to_json(lazy()) == transcript_to_json(eager)
    assert pickle.loads(pickle.dumps(lazy())) == eager
    assert attrs.evolve(lazy(), learner="M").rounds == rounds
    with pytest.raises(AttributeError):
        T.no_such_field


def test_round_log_indexing_matches_its_rounds():
    log = RoundLog(list("abcd"), [0.5, 1.0, 0.0, 0.25], [1, 1, 0, 0], [0, 1, 1, 0], first_t=4)
    rounds = log.rounds()
    assert [r.t for r in rounds] == [4, 5, 6, 7]
    assert list(log) == list(rounds) and log[-1] == rounds[-1] and log[1:3] == rounds[1:3]
    with pytest.raises(IndexError):
        log[4]


def test_a_game_transcript_is_the_same_whether_read_before_or_after_pickling():
    S = LinearSpace(5, R=1.0, gamma=0.2)
    T1 = play(Perceptron(), SeparableStream(5, 0.2), S, rounds=50, seed=4)
    T2 = play(Perceptron(), SeparableStream(5, 0.2), S, rounds=50, seed=4)
    assert pickle.loads(pickle.dumps(T1)) == T2
    assert all(isinstance(r.x, tuple) and all(type(a) is float for a in r.x) for r in T2.rounds)


# ------------------------------------------------------------------------ version spaces sharing arrays
@settings(max_examples=40, deadline=None)
@given(hypothesis_classes(max_rows=200, max_cols=5, min_cols=1), st.data())
def test_version_spaces_sharing_arrays_stay_exact(H, data):
    old = vs_module.SPARSE_MIN_HYPOTHESES, vs_module.SPARSE_RATIO
    vs_module.SPARSE_MIN_HYPOTHESES, vs_module.SPARSE_RATIO = 1, data.draw(st.sampled_from([1, 4, 10**9]))
    try:
        spaces = [VersionSpace(H) for _ in range(3)]  # they start on the same array
        truth = [np.ones(H.n_hypotheses, dtype=bool) for _ in spaces]
        for _ in range(data.draw(st.integers(0, 12))):
            k = data.draw(st.integers(0, 2))
            j = data.draw(st.integers(0, H.n_instances - 1))
            y = data.draw(st.integers(0, 1))
            if data.draw(st.booleans()):
                assert spaces[k].count(j, y) == int((truth[k] & (H.matrix[:, j] == y)).sum())
            if data.draw(st.booleans()):
                spaces.append(spaces[k].copy())
                truth.append(truth[k].copy())
            truth[k] &= H.matrix[:, j] == y
            assert spaces[k].restrict(j, y) == bool(truth[k].any())
            for V, keep in zip(spaces, truth):
                assert V.size == int(keep.sum())
                assert V.rows().tolist() == np.flatnonzero(keep).tolist()
                assert V.count(j, 1) == int((keep & (H.matrix[:, j] == 1)).sum())
    finally:
        vs_module.SPARSE_MIN_HYPOTHESES, vs_module.SPARSE_RATIO = old


# ------------------------------------------------- the lean loop against the general one
from mistakebound.game.play import general_loop  # noqa: E402
from mistakebound.game.players import follows_version_space  # noqa: E402
from mistakebound.game.version_space import TableReferee  # noqa: E402
from mistakebound.learners import SOA, OptimalRandomizedLearner  # noqa: E402
from mistakebound.learners.version_space import VersionSpaceLearner  # noqa: E402


class Contrarian(Halving):
    """A subclass that changes how Halving predicts: the declaration does not cover it (the general loop plays it)."""

    def predict_one(self, x):
        return 1 - super().predict_one(x)


class Faulty(Halving):
    """Halving that fails on its class's instance ``at`` once fewer than ``below`` hypotheses survive, as ``how``
    says: raising in ``predict_one``, an illegal prediction, or raising in a ``learn_one`` that would narrow its
    version space.  A function of its version space, as its declaration says."""

    def __init__(self, H, at=0, how=None, below=1):
        super().__init__(H)
        self.at, self.how, self.below = at, how, below

    def _fails(self, x):
        return self.H.index_of(x) == self.at % max(1, self.H.n_instances) and self.size < self.below

    def predict_one(self, x):
        if self.how == "raise" and self._fails(x):
            raise RuntimeError("boom")
        if self.how == "illegal" and self._fails(x):
            return 7
        return super().predict_one(x)

    def learn_one(self, x, y):
        if self.how == "learn" and self.count(x, 1 - y) and self.H.index_of(x) == self.at % self.H.n_instances:
            raise ValueError("cannot learn")
        super().learn_one(x, y)


Faulty.version_space_policy = Halving.version_space_policy  # a declaration of its own: it is trusted


class SharedVote(VersionSpaceLearner):
    """A randomized learner declaring that its state is its version space: p = the share voting 1."""

    def predict_proba_one(self, x):
        return self.count(x, 1) / self.size if self.size else 0.5

    def version_space_policy(self, H):
        cols = H.column_masks
        return lambda V, j: (V & cols[j]).bit_count() / V.bit_count() if V else 0.5


LEAN_LEARNERS = {
    "halving": Halving, "consistent": Consistent, "soa": SOA, "randomized": OptimalRandomizedLearner,
    "shared_vote": SharedVote,
    "vote": VoteLearner, "contrarian": Contrarian,
    "raises": lambda H: Faulty(H, 1, "raise", H.n_hypotheses), "illegal": lambda H: Faulty(H, 0, "illegal", 3),
    "learn": lambda H: Faulty(H, 1, "learn"),
}


def _serialised(T):
    """A transcript byte for byte: its JSON, or every field of one that kept only its totals (and its length)."""
    if T.rounds_kept:
        return transcript_to_json(T)
    return repr(([(a.name, getattr(T, a.name)) for a in attrs.fields(Transcript) if a.name != "rounds"], len(T)))


def _lean_and_general(make, adversary, H, **kwargs):
    """(outcome, rounds written, the learner's state) of one game played by the lean loop and by the general one."""
    import io

    def run():
        L = make()
        out = io.StringIO()
        try:
            outcome = _serialised(play(L, adversary, H, out=out, **kwargs))
        except GameError as exc:
            outcome = (type(exc).__name__, exc.round, exc.player, str(exc), _serialised(exc.transcript))
        state = L.state_key() if callable(getattr(L, "state_key", None)) else None
        return outcome, out.getvalue(), state

    lean = run()
    with general_loop():
        general = run()
    return lean, general


@SETTINGS
@given(hypothesis_classes(max_rows=30, max_cols=6, min_cols=1), st.integers(0, 60), st.integers(0, 2**32 - 1),
       st.booleans(), st.integers(0, 40), KINDS, st.sampled_from(sorted(LEAN_LEARNERS)),
       st.sampled_from(["rounds", "totals"]), st.sampled_from([None, "target", "coin"]))
def test_the_lean_loop_gives_the_general_loops_transcripts_errors_files_and_learner(
        H, rounds, seed, realizable, at, kind, learner, keep, labels):
    make = LEAN_LEARNERS[learner]
    adversary = Corrupted(ObliviousCoin(labels=labels), at, kind)
    lean, general = _lean_and_general(lambda: make(H), adversary, H, rounds=rounds, seed=seed,
                                      realizable=realizable, keep=keep)
    assert lean == general


def test_the_lean_loop_over_many_blocks_of_a_game_that_keeps_only_totals():
    H = classes.random(300, 10, 0.5, seed=1)
    for learner in (Halving, Consistent):
        for realizable, labels in ((True, "target"), (False, "coin")):
            lean, general = _lean_and_general(lambda: learner(H), ObliviousCoin(labels=labels), H, rounds=10_000,
                                              seed=2, realizable=realizable, keep="totals")
            assert lean == general


def test_a_large_class_lean_game_matches_the_general_loop():
    H = classes.random(70_000, 12, 0.5, seed=3)  # the numpy forms, then row indices
    for seed in range(2):
        for kind in (None, "flip"):
            lean, general = _lean_and_general(lambda: Consistent(H), Corrupted(ObliviousCoin(), 30, kind), H,
                                              rounds=200, seed=seed)
            assert lean == general


def test_the_lean_loop_asks_once_per_instance_between_narrowing_rounds():
    """What makes it lean (the declaration's consequence): predict_one once per instance and version space,
    learn_one only on rounds that narrow the version space."""
    calls = {"predict": 0, "learn": 0}

    class Counted(Halving):
        def predict_one(self, x):
            calls["predict"] += 1
            return super().predict_one(x)

        def learn_one(self, x, y):
            calls["learn"] += 1
            super().learn_one(x, y)

    Counted.version_space_policy = Halving.version_space_policy
    H = classes.random(200, 8, 0.5, seed=0)
    T = play(Counted(H), ObliviousCoin(labels="target"), H, rounds=5000, seed=1)
    narrowing = len({(r.x, r.y) for r in T.rounds})  # a realizable game narrows on a pair's first round at most
    assert calls["learn"] <= narrowing and calls["predict"] <= H.n_instances * (narrowing + 1) < 5000
    with general_loop():
        calls.update(predict=0, learn=0)
        assert play(Counted(H), ObliviousCoin(labels="target"), H, rounds=5000, seed=1) == T
        assert calls == {"predict": 5000, "learn": 5000}


def test_who_the_referee_trusts():
    H = classes.thresholds(5)
    assert follows_version_space(Halving(H), H) and follows_version_space(Consistent(H), H)
    assert follows_version_space(SharedVote(H), H)  # randomized: the engine still draws every round
    assert not follows_version_space(Contrarian(H), H)  # changed predict_one: not covered
    assert not follows_version_space(Halving(H), classes.thresholds(5).restrict([0, 1]))  # another class
    trained = Halving(H)
    trained.learn_one(2, 1)
    assert not follows_version_space(trained, H)  # it has learned: its version space is not the referee's
    assert not follows_version_space(VoteLearner(H), H) and not follows_version_space(Perceptron(), H)


@SETTINGS
@given(hypothesis_classes(max_rows=6, max_cols=5, min_cols=1),
       st.lists(st.one_of(st.integers(-2, 8), st.just("x"), st.just([1]), st.just(np.int64(2))), max_size=10))
def test_bulk_instances_of_a_finite_class_accept_exactly_what_instance_accepts(H, xs):
    r = TableReferee(H, realizable=True)
    stored, shown = r.instances(xs)
    expected = []
    for x in xs:
        try:
            expected.append(r.instance(x)[0])
        except ValueError:
            break
    assert stored == shown == expected and all(a is b for a, b in zip(stored, expected))
