"""Lossless JSON of transcripts (game.transcript_json) and classes (game.class_files), and atomic writes.

The file formats of classes (.npy, .csv, and .json as a file) are tested in
tests/test_class_files.py, the check report's JSON in tests/test_report_json.py and
the shared JSON pieces in tests/test_json_format.py.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import textwrap

import attrs
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mistakebound import HypothesisClass, play
from mistakebound.game import classes
from mistakebound.foundations.errors import InvalidArgumentError, InvalidClassError
from mistakebound.foundations.files import write_atomically
from mistakebound.game.class_files import class_from_json, class_to_json, load_class
from mistakebound.game.transcript_json import transcript_from_json, transcript_to_json
from mistakebound.game.transcript import Round, Transcript
from tests.strategies import hypothesis_classes


# ------------------------------------------------------------------ strict equality
def strict(v):
    """A key equal only for values of the same types and float bits (-0.0 != 0.0, 1 != 1.0 != True)."""
    if isinstance(v, tuple):
        return ("tuple", tuple(strict(a) for a in v))
    if isinstance(v, float):
        return ("float", v.hex())
    if isinstance(v, Round):
        return ("Round", tuple(strict(getattr(v, a.name)) for a in attrs.fields(Round)))
    if isinstance(v, Transcript):
        return ("Transcript", tuple((a.name, strict(getattr(v, a.name))) for a in attrs.fields(Transcript)))
    return (type(v).__name__, v)


def strict_class(H):
    return (strict(H.domain), H.names, H.name, H.matrix.dtype.str, H.matrix.shape, H.matrix.tobytes())


# ------------------------------------------------------------------------ strategies
finite_floats = st.floats(allow_nan=False, allow_infinity=False)
scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.integers(-(2**80), 2**80), finite_floats,
    st.just(-0.0), st.just(0.0), st.text(max_size=6),
)
instances = st.recursive(scalars, lambda kids: st.lists(kids, max_size=3).map(tuple), max_leaves=8)
probabilities = st.one_of(st.floats(0, 1), st.sampled_from([0.0, 1.0, -0.0, 0.1, 1 / 3, 5e-324]))


@st.composite
def rounds_(draw):
    t = draw(st.integers(1, 10**6))
    y = draw(st.integers(0, 1))
    p = draw(probabilities)
    return Round(t=t, x=draw(instances), p=p, prediction=draw(st.integers(0, 1)), y=y)


def opt(s):
    return st.none() | s


transcripts = st.builds(
    Transcript,
    rounds=st.lists(rounds_(), max_size=8).map(tuple),
    learner=st.text(max_size=10),
    adversary=st.text(max_size=10),
    seed=opt(st.integers(0, 2**128)),
    class_name=opt(st.text(max_size=10)),
    realizable=st.booleans(),
    version_space=opt(st.lists(st.integers(0, 10**9), max_size=5).map(tuple)),
    best_hypothesis_mistakes=opt(st.integers(0, 100) | st.floats(0, 100)),
    R=opt(st.floats(0, 1e300)),
    gamma=opt(finite_floats),
    comparator=opt(st.lists(finite_floats, max_size=5).map(tuple)),
    target=opt(st.lists(st.integers(0, 1000), max_size=4).map(tuple)),
)


@st.composite
def named_classes(draw):
    H = draw(hypothesis_classes(max_rows=6, max_cols=5))
    domain = draw(st.lists(instances, min_size=H.n_instances, max_size=H.n_instances, unique=True))
    names = draw(opt(st.lists(st.text(max_size=4), min_size=H.n_hypotheses, max_size=H.n_hypotheses)))
    return HypothesisClass.from_matrix(H.matrix, domain, names, name=draw(opt(st.text(max_size=8))))


# ------------------------------------------------------------------- property tests
@settings(max_examples=150, deadline=None)
@given(transcripts)
def test_generated_transcripts_round_trip_exactly(T):
    text = transcript_to_json(T)
    back = transcript_from_json(text)
    assert back == T
    assert strict(back) == strict(T)
    assert transcript_to_json(T) == text  # byte-identical when called twice
    assert transcript_to_json(back) == text


@settings(max_examples=100, deadline=None)
@given(instances)
def test_instances_keep_their_types(x):
    T = Transcript(rounds=(Round(t=1, x=x, p=0.5, prediction=0, y=1),))
    assert strict(transcript_from_json(transcript_to_json(T)).rounds[0].x) == strict(x)


@settings(max_examples=80, deadline=None)
@given(hypothesis_classes())
def test_generated_classes_round_trip(H):
    text = class_to_json(H)
    back = class_from_json(text)
    assert back == H and strict_class(back) == strict_class(H)
    assert class_to_json(H) == text and class_to_json(back) == text


@settings(max_examples=80, deadline=None)
@given(named_classes())
def test_classes_with_domains_names_and_name_round_trip(H):
    back = class_from_json(class_to_json(H))
    assert strict_class(back) == strict_class(H)


def test_examples_that_pin_the_encoding():
    # independent of the code: the tuple tag, exact float repr, negative zero, big ints
    T = Transcript(rounds=(Round(t=1, x=((1, "a"), None, -0.0), p=0.1, prediction=1, y=0),), seed=2**70)
    data = json.loads(transcript_to_json(T))
    assert data["rounds"][0]["x"] == {"tuple": [{"tuple": [1, "a"]}, None, -0.0]}
    assert math.copysign(1, data["rounds"][0]["x"]["tuple"][2]) == -1
    assert data["seed"] == 1180591620717411303424
    back = transcript_from_json(transcript_to_json(T))
    assert back.rounds[0].p == 0.1 and back.rounds[0].p.hex() == (0.1).hex()
    assert type(back.rounds[0].x) is tuple and type(back.rounds[0].x[0]) is tuple


def test_every_transcript_field_is_serialised():
    """A field added to Transcript without a serialiser would be lost: this fails first."""
    from mistakebound.game.rules import Rules

    T = Transcript(rounds=(), rules=Rules(labels=3, feedback="bandit", noise=1))
    assert set(json.loads(transcript_to_json(T))) == {a.name for a in attrs.fields(Transcript)} | {"format", "version"}
    assert transcript_from_json(transcript_to_json(T)).rules == T.rules
    # a transcript of the textbook's game (rules None) is written as before this field existed, and read back
    text = transcript_to_json(Transcript(rounds=()))
    assert "rules" not in json.loads(text) and transcript_from_json(text).rules is None


# ---------------------------------------------------------------------- real games
def _finite_games():
    from mistakebound.adversaries.oblivious_coin import ObliviousCoin
    from mistakebound.learners.halving import Halving
    from mistakebound.learners.soa import SOA

    for H in (classes.thresholds(12), classes.monotone_disjunctions(3), classes.intervals(5)):
        for L in (Halving, SOA):
            for realizable in (True, False):
                yield play(L(H), ObliviousCoin(), H, rounds=25, seed=11, realizable=realizable)


def _space_games():
    from mistakebound.adversaries.disjunction_stream import DisjunctionStream
    from mistakebound.adversaries.expert_adversaries import RandomExpertLosses
    from mistakebound.adversaries.separable_stream import SeparableStream
    from mistakebound.learners.elimination import DisjunctionElimination
    from mistakebound.learners.perceptron import Perceptron
    from mistakebound.learners.weighted_majority import WeightedMajority
    from mistakebound.game.spaces import ExpertAdvice, KDisjunctionSpace, LinearSpace

    yield play(Perceptron(), SeparableStream(4, 0.25), LinearSpace(4, R=1.0, gamma=0.25), rounds=60, seed=0)
    yield play(Perceptron(), SeparableStream(3, 0.2, noise=0.1), LinearSpace(3), rounds=60, seed=4, realizable=False)
    yield play(DisjunctionElimination(), DisjunctionStream(), KDisjunctionSpace(20, 2), rounds=30, seed=0)
    yield play(WeightedMajority(4, 40), RandomExpertLosses(), ExpertAdvice(4), rounds=40, seed=1, realizable=False)


def test_transcripts_of_real_games_round_trip():
    games = list(_finite_games()) + list(_space_games())
    for T in games:
        text = transcript_to_json(T)
        back = transcript_from_json(text)
        assert back == T and strict(back) == strict(T)
        assert transcript_to_json(back) == text
        assert (back.mistakes, back.expected_mistakes, back.regret) == (T.mistakes, T.expected_mistakes, T.regret)
    linear = games[-4]
    assert linear.comparator is not None and type(linear.rounds[0].x) is tuple
    assert any(0 < r.p < 1 for r in games[-1].rounds)  # a randomized learner's probabilities
    assert games[-2].target is not None


_SCRIPT = textwrap.dedent(
    """
    import sys
    from mistakebound import play
    from mistakebound.game import classes
    from mistakebound.adversaries.oblivious_coin import ObliviousCoin
    from mistakebound.adversaries.expert_adversaries import RandomExpertLosses
    from mistakebound.learners.soa import SOA
    from mistakebound.learners.weighted_majority import WeightedMajority
    from mistakebound.game.transcript_json import transcript_to_json
    from mistakebound.game.spaces import ExpertAdvice
    H = classes.intervals(6)
    sys.stdout.write(transcript_to_json(play(SOA(H), ObliviousCoin(), H, rounds=30, seed=123, realizable=False)))
    sys.stdout.write(transcript_to_json(play(WeightedMajority(3, 30), RandomExpertLosses(), ExpertAdvice(3),
                                             rounds=30, seed=123, realizable=False)))
    """
)


def test_same_seed_in_two_processes_gives_identical_bytes():
    outs = []
    for hashseed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=hashseed)
        outs.append(subprocess.run([sys.executable, "-c", _SCRIPT], capture_output=True, check=True, env=env).stdout)
    assert outs[0] == outs[1] and len(outs[0]) > 1000


# ------------------------------------------------------------------- atomic writes
def test_write_atomically_text_and_bytes(tmp_path):
    p = tmp_path / "out.json"
    assert write_atomically(p, "héllo").read_bytes() == "héllo".encode()
    write_atomically(p, b"\x00\x01")
    assert p.read_bytes() == b"\x00\x01"
    assert [q.name for q in tmp_path.iterdir()] == ["out.json"]


def test_failed_replace_keeps_old_file_and_leaves_no_temp(tmp_path, monkeypatch):
    p = tmp_path / "result.json"
    p.write_text("old")

    def broken_replace(src, dst):
        raise OSError("disk vanished")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError, match="disk vanished"):
        write_atomically(p, "new content")
    monkeypatch.undo()
    assert p.read_text() == "old"
    assert [q.name for q in tmp_path.iterdir()] == ["result.json"]


def test_writer_raising_midway_keeps_old_file(tmp_path):
    p = tmp_path / "result.txt"
    p.write_text("old")

    def half_then_fail(tmp):
        with open(tmp, "w") as fh:
            fh.write("half")
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        write_atomically(p, half_then_fail)
    assert p.read_text() == "old"
    assert [q.name for q in tmp_path.iterdir()] == ["result.txt"]


def test_write_atomically_refusals(tmp_path):
    with pytest.raises(InvalidArgumentError, match="does not exist"):
        write_atomically(tmp_path / "nope" / "a.json", "x")
    with pytest.raises(InvalidArgumentError, match="data"):
        write_atomically(tmp_path / "a.json", 3)


# ------------------------------------------------------------------------- refusals
class Point:
    def __hash__(self):
        return 1


@pytest.mark.parametrize(
    "x, shown",
    [(Point(), "Point"), (frozenset({1}), "frozenset"), ((1, (2, b"b")), "bytes"), (np.int64(3), "int64"),
     (1 + 2j, "complex")],
)
def test_unserialisable_instances_are_refused(x, shown):
    T = Transcript(rounds=(Round(t=1, x=x, p=0.0, prediction=0, y=0),))
    with pytest.raises(InvalidArgumentError, match=rf"rounds\[0\]\.x.*cannot serialise instance .* of type .*{shown}"):
        transcript_to_json(T)
    H = HypothesisClass.from_matrix([[0]], domain=[x]) if not isinstance(x, np.generic) else None
    if H is not None:
        with pytest.raises(InvalidArgumentError, match=r"domain\[0\].*cannot serialise instance"):
            class_to_json(H)


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
@pytest.mark.parametrize("field", ["p", "x", "gamma", "comparator"])
def test_non_finite_floats_are_refused_naming_the_field(bad, field):
    r = {"t": 1, "x": 0, "p": 0.5, "prediction": 0, "y": 0}
    extra = {}
    if field in ("p", "x"):
        r[field] = bad if field == "p" else (1, bad)
    else:
        extra[field] = (0.5, bad) if field == "comparator" else bad
    T = Transcript(rounds=(Round(**r),), **extra)
    with pytest.raises(InvalidArgumentError, match=rf"{field}.*non-finite float"):
        transcript_to_json(T)


def test_non_finite_in_json_text_is_refused():
    good = json.loads(transcript_to_json(Transcript(rounds=(Round(1, 0, 0.5, 0, 0),))))
    text = json.dumps(good).replace('"p": 0.5', '"p": NaN')
    assert "NaN" in text
    with pytest.raises(InvalidArgumentError, match="NaN"):
        transcript_from_json(text)


def test_wrong_types_in_transcript_fields_are_refused():
    for kwargs, where in [
        ({"seed": 1.5}, "seed"), ({"learner": 3}, "learner"), ({"version_space": [1]}, "version_space"),
        ({"realizable": 1}, "realizable"),
    ]:
        with pytest.raises(InvalidArgumentError, match=where):
            transcript_to_json(Transcript(rounds=(), **kwargs))
    with pytest.raises(InvalidArgumentError, match=r"rounds\[0\]\.t"):
        transcript_to_json(Transcript(rounds=(Round(t=1.0, x=0, p=0.5, prediction=0, y=0),)))
    with pytest.raises(InvalidArgumentError, match="expected a Transcript"):
        transcript_to_json("not a transcript")


def _good_transcript():
    return json.loads(transcript_to_json(Transcript(rounds=(Round(1, (0, 1), 0.5, 0, 1),), seed=3)))


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda d: d.pop("seed"), "missing field.*seed"),
        (lambda d: d.update(extra=1), "unknown field.*extra"),
        (lambda d: d.update(format="other"), "format"),
        (lambda d: d.update(version=99), "version"),
        (lambda d: d["rounds"][0].pop("p"), r"rounds\[0\].*missing.*p"),
        (lambda d: d["rounds"][0].update(y="1"), r"rounds\[0\]\.y.*int"),
        (lambda d: d["rounds"][0].update(x=[0, 1]), r"rounds\[0\]\.x"),
        (lambda d: d["rounds"][0].update(x={"tupel": [0]}), r"rounds\[0\]\.x"),
        (lambda d: d.update(rounds={}), "rounds"),
        (lambda d: d.update(comparator=[0.5, "a"]), r"comparator\[1\]"),
        (lambda d: d.update(seed=True), "seed"),
    ],
)
def test_malformed_transcript_json_is_refused(mutate, message):
    data = _good_transcript()
    transcript_from_json(json.dumps(data))  # the unmutated form loads
    mutate(data)
    with pytest.raises(InvalidArgumentError, match=message):
        transcript_from_json(json.dumps(data))


@pytest.mark.parametrize("text", ["", "{", "[1, 2]", "null", '{"format": "mistakebound.transcript"', b"\xff\xfe", 42])
def test_garbage_text_is_refused(text):
    with pytest.raises(InvalidArgumentError):
        transcript_from_json(text)
    with pytest.raises(InvalidArgumentError):
        class_from_json(text)


@pytest.mark.parametrize(
    "mutate, error, message",
    [
        (lambda d: d.update(matrix=[[0, 2]]), InvalidClassError, "0 or 1"),
        (lambda d: d.update(matrix=[[0]]), InvalidClassError, "row 1 has 1 entries"),
        (lambda d: d.update(matrix=[]), InvalidClassError, "at least one"),
        (lambda d: d.update(matrix=[[0, True]]), InvalidClassError, "0 or 1"),
        (lambda d: d.update(matrix=[[0, 1], [1, 2]]), InvalidClassError, r"row 2, column 2 holds 2"),
        (lambda d: d.update(domain=[0, {"tuple": [1]}, {"tuple": [1]}]), InvalidClassError, r"domain\[2\].*twice.*domain\[1\]"),
        (lambda d: d.update(domain=[0, 0]), InvalidClassError, "twice"),
        (lambda d: d.update(names=["a"]), InvalidClassError, "names"),
        (lambda d: d.update(names="ab"), InvalidArgumentError, "names"),
        (lambda d: d.pop("domain"), InvalidArgumentError, "missing.*domain"),
    ],
)
def test_malformed_class_json_is_refused(mutate, error, message):
    data = json.loads(class_to_json(HypothesisClass.from_matrix([[0, 1], [1, 1]])))
    mutate(data)
    with pytest.raises(error, match=message):
        class_from_json(json.dumps(data))


def test_pickled_npy_is_refused(tmp_path):
    p = tmp_path / "evil.npy"
    np.save(p, np.array([[0, 1], [1, None]], dtype=object), allow_pickle=True)
    with pytest.raises(InvalidArgumentError, match="pickled object array.*pickles are refused"):
        load_class(p)
