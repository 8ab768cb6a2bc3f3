"""Round and Transcript: per-round mistakes, totals, regret and immutability."""

from __future__ import annotations

import math
from fractions import Fraction

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mistakebound import Round, Transcript
from mistakebound.foundations.errors import InvalidArgumentError

SETTINGS = settings(max_examples=200, deadline=None)


@st.composite
def rounds_lists(draw, *, max_size: int = 30):
    """Round tuples whose predictions were drawn from their p (p = 0 -> 0, p = 1 -> 1)."""
    n = draw(st.integers(0, max_size))
    out = []
    for t in range(1, n + 1):
        p = draw(
            st.one_of(
                st.sampled_from([0.0, 1.0, 0.5, 0.1, 0.3, 0.7]),
                st.integers(0, 64).map(lambda k: k / 64),
                st.floats(0, 1),
            )
        )
        prediction = 0 if p == 0 else 1 if p == 1 else draw(st.integers(0, 1))
        y = draw(st.integers(0, 1))
        out.append(Round(t=t, x=draw(st.integers(0, 5)), p=p, prediction=prediction, y=y))
    return tuple(out)


def exact_expected(rounds) -> Fraction:
    """sum_t |p_t - y_t| in exact arithmetic over the stored floats p_t."""
    return sum((abs(Fraction(r.p) - r.y) for r in rounds), Fraction(0))


# ------------------------------------------------------------------------------ Round
@pytest.mark.parametrize(
    "p, prediction, y, mistake, expected",
    [
        (0.0, 0, 0, False, 0.0),
        (0.0, 0, 1, True, 1.0),
        (1.0, 1, 1, False, 0.0),
        (1.0, 1, 0, True, 1.0),
        (0.25, 0, 1, True, 0.75),
        (0.25, 1, 1, False, 0.75),
        (0.25, 0, 0, False, 0.25),
        (0.25, 1, 0, True, 0.25),
        (0.5, 1, 0, True, 0.5),
    ],
)
def test_round_mistake_and_expected_mistake(p, prediction, y, mistake, expected):
    r = Round(t=1, x="a", p=p, prediction=prediction, y=y)
    assert r.mistake is mistake
    assert r.expected_mistake == expected


def test_round_mistake_is_about_the_drawn_prediction_not_p():
    # p = 0.9 but the coin came up 0: the learner erred though it "leaned" right
    r = Round(t=3, x=0, p=0.9, prediction=0, y=1)
    assert r.mistake
    assert r.expected_mistake == pytest.approx(0.1)


def test_round_is_frozen():
    r = Round(t=1, x=0, p=0.5, prediction=1, y=0)
    for name in ("t", "x", "p", "prediction", "y"):
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            setattr(r, name, 1)
    with pytest.raises(AttributeError):
        r.mistake = False
    assert (r.t, r.x, r.p, r.prediction, r.y) == (1, 0, 0.5, 1, 0)


def test_round_equality_and_hash():
    a = Round(t=1, x=(0, 1), p=0.5, prediction=1, y=0)
    b = Round(t=1, x=(0, 1), p=0.5, prediction=1, y=0)
    assert a == b and hash(a) == hash(b)
    assert a != Round(t=1, x=(0, 1), p=0.5, prediction=0, y=0)
    assert a != Round(t=2, x=(0, 1), p=0.5, prediction=1, y=0)


# ------------------------------------------------------------------------- Transcript
@SETTINGS
@given(rounds_lists(), st.one_of(st.none(), st.integers(0, 30)))
def test_transcript_totals(rounds, best):
    T = Transcript(rounds=rounds, learner="L", adversary="A", seed=7, best_hypothesis_mistakes=best)
    assert len(T) == len(rounds)
    assert T.mistakes == sum(r.prediction != r.y for r in rounds)
    assert isinstance(T.mistakes, int)
    exact = exact_expected(rounds)
    assert T.expected_mistakes == pytest.approx(float(exact), rel=1e-15, abs=1e-15)
    if all((r.p * 64).is_integer() for r in rounds):  # |p - y| is exact in floating point
        assert T.expected_mistakes == float(exact)
    assert T.xs == tuple(r.x for r in rounds)
    assert T.ys == tuple(r.y for r in rounds)
    if best is None:
        assert T.regret is None
    else:
        assert T.regret == T.expected_mistakes - best
    # deterministic rounds (p in {0, 1}): expected mistakes are the mistakes
    if all(r.p in (0.0, 1.0) for r in rounds):
        assert T.expected_mistakes == T.mistakes


def test_expected_mistakes_is_exact_not_a_float_running_sum():
    # ten rounds of p = 0.1, y = 0: the float running sum is 0.9999999999999999
    rounds = [Round(t=t, x=0, p=0.1, prediction=0, y=0) for t in range(1, 11)]
    assert sum(r.expected_mistake for r in rounds) != 1.0
    assert Transcript(rounds=rounds).expected_mistakes == 1.0


def test_expected_mistakes_is_exact_when_labels_are_one():
    """sum |p_t - y_t| exact over the stored p_t, also when y_t = 1.

    |0.3 - 1| in floating point is 0.7 = (1 - 0.3) - 2**-54 (a tie rounded to even),
    and p2 = 0.3 - 2**-54.  Exactly, (1 - 0.3) + p2 = 1 - 2**-54, whose nearest float
    (ties to even) is 1.0; summing the already-rounded |p_t - y_t| gives 1 - 2**-53.
    """
    p2 = math.nextafter(0.3, 0.0)
    rounds = [Round(t=1, x=0, p=0.3, prediction=0, y=1), Round(t=2, x=0, p=p2, prediction=0, y=0)]
    exact = (1 - Fraction(0.3)) + Fraction(p2)
    assert exact == 1 - Fraction(1, 2**54)
    assert float(exact) == 1.0
    assert Transcript(rounds=rounds).expected_mistakes == float(exact)


def test_transcript_defaults_and_regret_without_class():
    r = Round(t=1, x=0, p=0.25, prediction=0, y=1)
    T = Transcript(rounds=[r], learner="L", adversary="A", seed=0)
    assert isinstance(T.rounds, tuple)
    assert (T.mistakes, T.expected_mistakes) == (1, 0.75)
    assert T.best_hypothesis_mistakes is None and T.regret is None
    assert T.class_name is None and T.version_space is None and T.realizable is True
    T2 = Transcript(rounds=[r], best_hypothesis_mistakes=0)
    assert T2.regret == 0.75
    T3 = Transcript(rounds=[r], best_hypothesis_mistakes=1)
    assert T3.regret == -0.25  # the learner may beat the best hypothesis in expectation


def test_empty_transcript():
    T = Transcript(rounds=(), best_hypothesis_mistakes=0)
    assert len(T) == 0
    assert (T.mistakes, T.expected_mistakes, T.regret) == (0, 0.0, 0.0)
    assert T.xs == () and T.ys == ()


def test_transcript_is_frozen():
    r = Round(t=1, x=0, p=1.0, prediction=1, y=0)
    T = Transcript(rounds=[r], learner="L", adversary="A", seed=1, best_hypothesis_mistakes=0, version_space=(0,))
    for name in (
        "rounds", "learner", "adversary", "seed", "class_name", "realizable", "version_space",
        "best_hypothesis_mistakes",
    ):
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            setattr(T, name, None)
    for name in ("mistakes", "expected_mistakes", "regret"):
        with pytest.raises(AttributeError):
            setattr(T, name, 0)
    with pytest.raises(TypeError):
        T.rounds[0] = r  # a tuple, not a list
    assert T.mistakes == 1 and T.regret == 1.0


def test_transcript_rounds_list_is_copied_to_a_tuple():
    r = Round(t=1, x=0, p=1.0, prediction=1, y=0)
    rounds = [r]
    T = Transcript(rounds=rounds)
    rounds.append(r)
    assert len(T) == 1


def test_transcript_equality():
    r = Round(t=1, x=0, p=0.5, prediction=1, y=0)
    a = Transcript(rounds=[r], learner="L", adversary="A", seed=3)
    assert a == Transcript(rounds=(r,), learner="L", adversary="A", seed=3)
    assert a != Transcript(rounds=(r,), learner="L", adversary="A", seed=4)
    assert hash(a) == hash(Transcript(rounds=(r,), learner="L", adversary="A", seed=3))


def test_summary_mentions_totals():
    r = Round(t=1, x=0, p=0.25, prediction=0, y=1)
    s = Transcript(rounds=[r], learner="L", adversary="A", best_hypothesis_mistakes=0).summary()
    assert "L vs A" in s and "1 rounds" in s and "1 mistakes" in s and "0.75" in s


@given(st.lists(st.tuples(st.sampled_from([0.0, 1.0, 0.5, 0.25, 1 / 3, 0.1, 0.9]), st.integers(0, 1), st.integers(0, 1)),
                max_size=30))
def test_totals_read_off_the_log_equal_the_totals_of_the_built_rounds(rows):
    from mistakebound.game.transcript import RoundLog

    ps = [p for p, _, _ in rows]
    preds = [int(p == 1.0) if p in (0.0, 1.0) else d for p, d, _ in rows]
    ys = [y for _, _, y in rows]
    log = RoundLog(list(range(len(rows))), ps, preds, ys)
    lazy = Transcript.from_log(log)
    built = Transcript(rounds=log.rounds())
    assert lazy.mistakes == built.mistakes == sum(a != b for a, b in zip(preds, ys))
    exact = sum((Fraction(p) if y == 0 else 1 - Fraction(p) for p, y in zip(ps, ys)), Fraction(0))
    assert lazy.expected_mistakes == built.expected_mistakes == float(exact)


# ------------------------------------------------------------- history, totals, records
def test_history_is_a_read_only_view_of_the_engine_s_list():
    from mistakebound.game.transcript import History

    rounds = [Round(1, 0, 1.0, 1, 0), Round(2, 1, 0.0, 0, 0)]
    h = History(rounds)
    assert len(h) == 2 and h[-1] is rounds[-1] and h[:] == tuple(rounds) and type(h[:1]) is tuple
    assert h == rounds and h == tuple(rounds) and h != rounds[:1] and list(h) == rounds
    for mutate in ("append", "clear", "extend", "pop", "insert", "remove", "__setitem__", "__delitem__"):
        assert not hasattr(h, mutate), mutate
    rounds.append(Round(3, 2, 1.0, 1, 1))  # the engine's list: the view follows it
    assert len(h) == 3 and h[2].t == 3
    with pytest.raises(IndexError):
        h[3]


def test_a_history_keeping_the_last_round_refuses_earlier_ones_by_number():
    from mistakebound.foundations.errors import InvalidArgumentError
    from mistakebound.game.transcript import History

    h = History([Round(5, 0, 1.0, 1, 0), Round(6, 1, 1.0, 1, 0)])
    h._dropped, h._window = 4, 1  # what a game played with keep="totals" does
    assert len(h) == 6 and h[-1].t == h[5].t == 6 and h[5:] == (h[5],)
    for read in (lambda: h[4], lambda: h[0], lambda: h[-2], lambda: h[3:], lambda: list(h)):
        with pytest.raises(InvalidArgumentError, match="keep='totals'"):
            read()


def test_a_transcript_of_totals_has_a_length_and_totals_but_no_rounds():
    from mistakebound.foundations.errors import InvalidArgumentError
    from mistakebound.game.transcript import RoundsNotKept

    T = Transcript.from_totals(3, mistakes=2, expected_mistakes=Fraction(5, 4), best_hypothesis_mistakes=1,
                               learner="L", adversary="A", seed=4)
    assert (len(T), T.mistakes, T.expected_mistakes, T.regret, T.rounds_kept) == (3, 2, 1.25, 0.25, False)
    assert isinstance(T.rounds, RoundsNotKept) and "3 rounds" in repr(T) and hash(T) == hash(attrs.evolve(T))
    assert T == Transcript.from_totals(3, mistakes=2, expected_mistakes=Fraction(5, 4), best_hypothesis_mistakes=1,
                                       learner="L", adversary="A", seed=4)
    assert T != Transcript(rounds=(), learner="L", adversary="A", seed=4)
    for read in (lambda: T.rounds[0], lambda: T.xs, lambda: T.ys, lambda: list(T.rounds)):
        with pytest.raises(InvalidArgumentError, match="kept only the totals of its 3 rounds"):
            read()
    assert Transcript(rounds=[Round(1, 0, 1.0, 1, 0)]).rounds_kept
    assert list(Transcript.from_totals(0, mistakes=0, expected_mistakes=0).rounds) == []


def test_round_records_are_plain_json():
    import json

    import numpy as np

    from mistakebound.game.transcript import json_value, round_record

    r = Round(t=2, x=(np.int64(1), np.float64(0.5), float("inf")), p=np.float64(0.25), prediction=0, y=1)
    record = round_record(r)
    assert record == {"type": "round", "t": 2, "x": [1, 0.5, "inf"], "p": 0.25, "prediction": 0, "y": 1,
                      "mistake": True}
    assert json.loads(json.dumps(record)) == record
    assert json_value(np.arange(3)) == [0, 1, 2] and json_value({1}) == [1] and json_value("a") == "a"


# ------------------------------------------------------------------ the table (issue 16)
def _cell_starts(header: str) -> list[int]:
    return [header.index(name) for name in ("t", "x", "p", "prediction", "y", "mistake")]


def _cells(line: str, starts: list[int]) -> list[str]:
    """The cells of a rendered row, cut at the header's offsets; each must be preceded by two spaces."""
    for k in starts[1:]:
        assert line[k - 2:k] == "  ", (line, k)
    return [line[a:b].strip() for a, b in zip(starts, starts[1:] + [len(line) + 1])]


instances = st.one_of(
    st.text(st.characters(codec="ascii", categories=("L", "N", "P", "S")), min_size=1, max_size=12),
    st.integers(-10**6, 10**6),
    st.tuples(st.integers(0, 1), st.integers(0, 1), st.integers(0, 1)),
)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(instances, st.sampled_from([0.0, 1.0, 0.25, 0.125]), st.integers(0, 1), st.integers(0, 1)),
                min_size=1, max_size=15),
       st.integers(1, 200))
def test_every_row_of_the_table_has_its_columns_at_the_same_offsets(played, first_t):
    from mistakebound.game.transcript import format_rounds

    rounds = [Round(first_t + i, x, p, prediction, y) for i, (x, p, prediction, y) in enumerate(played)]
    header, rule, *lines = format_rounds(rounds).splitlines()
    starts = _cell_starts(header)
    assert [len(dashes) for dashes in rule.split("  ")] == [b - a - 2 for a, b in zip(starts, starts[1:])] + \
        [len("mistake")]
    assert len(lines) == len(rounds)
    for line, r in zip(lines, rounds):
        x = "(" + ",".join(map(str, r.x)) + ")" if isinstance(r.x, tuple) else str(r.x)
        assert _cells(line, starts) == [str(r.t), x, f"{r.p:g}", str(r.prediction), str(r.y),
                                        "yes" if r.mistake else "no"]


def test_text_that_would_break_a_row_is_shown_escaped():
    from mistakebound.game.transcript import format_rounds

    rounds = [Round(1, "two\nlines", 1.0, 1, 1), Round(2, "tab\there", 0.0, 0, 1), Round(3, "ls\u2028\x85", 0.0, 0, 1)]
    header, _, *lines = format_rounds(rounds).splitlines()
    starts = _cell_starts(header)
    assert len(lines) == 3
    assert [_cells(line, starts)[1] for line in lines] == ["two\\nlines", "tab\\there", "ls\\u2028\\x85"]


def test_the_counterexample_of_a_check_aligns_string_instances():
    # issue 16: the check's transcript printed x with repr and no padding, so string instances
    # of different lengths shifted every column after them
    from mistakebound import HypothesisClass
    from mistakebound.learners import Halving
    from mistakebound.verification.checks import BoundViolation, check_learner

    H = HypothesisClass.from_matrix([[0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 1, 1]],
                                    domain=["a", "a much longer instance", "mid"])
    with pytest.raises(BoundViolation) as info:
        check_learner(Halving, bound=0, classes=H, max_examples=5)
    text = str(info.value).splitlines()
    at = text.index("transcript:") + 1
    header = text[at]
    starts = _cell_starts(header)
    rows = [line for line in text[at + 2:] if line.startswith("  ") and line.strip()[:1].isdigit()]
    assert len(rows) == len(info.value.transcript) >= 1
    for line, r in zip(rows, info.value.transcript.rounds):
        assert _cells(line, starts)[:2] == [str(r.t), r.x]

@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.one_of(st.floats(0, 1), st.floats(0, 1e-300), st.sampled_from([0.1, 0.3, 0.7])),
                          st.integers(0, 1)), max_size=40))
def test_expected_mistakes_is_the_exact_sum_rounded_once(pairs):
    """Any stored p_t (tiny, huge exponent gaps, ties): the nearest float to sum |p_t - y_t| over the rationals."""
    rounds = [Round(t=t, x=0, p=p, prediction=int(p > 0.5), y=y) for t, (p, y) in enumerate(pairs, start=1)]
    assert Transcript(rounds=rounds).expected_mistakes == float(exact_expected(rounds))


def test_expected_mistakes_of_fractions_stays_exact():
    rounds = [Round(t=1, x=0, p=Fraction(1, 3), prediction=0, y=1), Round(t=2, x=0, p=Fraction(1, 3), prediction=0, y=0)]
    assert Transcript(rounds=rounds).expected_mistakes == 1.0


# ------------------------------------------------------------ curves and totals records
CURVES = settings(max_examples=60, deadline=None)


@st.composite
def _class_games(draw):
    """A class, and rounds on its instances with any predictions and labels (a game's record)."""
    from tests.strategies import hypothesis_classes

    H = draw(hypothesis_classes(max_cols=5))
    rounds = draw(rounds_lists(max_size=20))
    if H.n_instances == 0:
        return H, ()
    return H, tuple(attrs.evolve(r, x=H.domain[r.x % H.n_instances]) for r in rounds)


@CURVES
@given(_class_games())
def test_the_cumulative_curves_are_the_prefix_sums_the_rounds_give(game):
    H, rounds = game
    T = Transcript(rounds=rounds)
    mistakes, regret = T.cumulative_curve(), T.cumulative_curve("regret", H)
    assert len(mistakes) == len(regret) == len(rounds) + 1
    for t in range(len(rounds) + 1):
        prefix = rounds[:t]
        own = exact_expected(prefix)
        best = min(sum(H.label(i, r.x) != r.y for r in prefix) for i in range(H.n_hypotheses))
        assert mistakes[t] == pytest.approx(float(own), abs=1e-9)
        assert regret[t] == pytest.approx(float(own) - best, abs=1e-9)


@CURVES
@given(st.lists(st.tuples(st.lists(st.sampled_from([0.0, 0.25, 1.0]), min_size=3, max_size=3), st.integers(0, 1)),
                max_size=15))
def test_the_regret_curve_over_expert_advice_is_against_the_best_expert_of_each_prefix(moves):
    from mistakebound.game.spaces import ExpertAdvice

    rounds = [Round(t, tuple(x), 0.5, 1, y) for t, (x, y) in enumerate(moves, 1)]
    curve = Transcript(rounds=rounds).cumulative_curve("regret", ExpertAdvice(3))
    for t in range(len(rounds) + 1):
        best = min(sum(abs(r.x[i] - r.y) for r in rounds[:t]) for i in range(3))
        assert curve[t] == pytest.approx(0.5 * t - best)


def test_a_regret_curve_needs_a_setting_with_hindsight():
    from mistakebound.game.spaces import LinearSpace

    T = Transcript(rounds=[Round(1, (1.0, 0.0), 1.0, 1, 0)])
    for setting, shown in ((None, "None"), (LinearSpace(2), "halfspaces"), ("thresholds:3", "'thresholds:3'")):
        with pytest.raises(InvalidArgumentError, match=f"H: the regret curve needs .* got {shown}"):
            T.cumulative_curve("regret", setting)
    with pytest.raises(InvalidArgumentError, match="measure: expected 'mistakes' or 'regret', got 'loss'"):
        T.cumulative_curve("loss")


@CURVES
@given(rounds_lists(), st.one_of(st.none(), st.integers(0, 5)))
def test_the_totals_record_is_the_transcripts_totals(rounds, best):
    T = Transcript(rounds=rounds, best_hypothesis_mistakes=best)
    record = T.totals_record()
    assert record == {"rounds": len(rounds), "mistakes": sum(r.prediction != r.y for r in rounds),
                      "expected_mistakes": T.expected_mistakes, "regret": T.regret}
    assert record["expected_mistakes"] == float(exact_expected(rounds))
    assert T.randomized == any(r.p not in (0.0, 1.0) for r in rounds) and T.labelled
