"""Data frames without glue: ``Transcript.to_pandas()``, a sweep's records, and pandas kept optional."""

from __future__ import annotations

import math
import sys

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings

from mistakebound import Transcript, play
from mistakebound.adversaries import ObliviousCoin, ShatteredTreeWalker
from mistakebound.foundations.dataframes import PandasDependencyError, frame
from mistakebound.foundations.errors import InvalidArgumentError, MistakeboundError
from mistakebound.game import classes
from mistakebound.game.transcript import RoundLog
from mistakebound.interfaces.sweep import read_frame, sweep
from mistakebound.interfaces.sweep.results import read_records, records_frame
from mistakebound.learners import SOA, Halving, OptimalRandomizedLearner
from tests.test_transcript import rounds_lists

COLUMNS = ["t", "x", "p", "prediction", "y", "mistake", "expected_mistake"]


def _assert_frame_is_the_transcript(df: pd.DataFrame, T: Transcript) -> None:
    R = T.rounds
    assert list(df.columns) == COLUMNS and len(df) == len(T)
    assert df["t"].tolist() == [r.t for r in R]
    assert df["x"].tolist() == [r.x for r in R]
    assert df["p"].tolist() == [r.p for r in R]
    assert df["prediction"].tolist() == [r.prediction for r in R]
    assert df["y"].tolist() == [r.y for r in R]
    assert df["mistake"].tolist() == [r.mistake for r in R]
    assert df["expected_mistake"].tolist() == [r.expected_mistake for r in R]
    if len(T):
        assert {c: str(df[c].dtype) for c in ("t", "p", "prediction", "y", "mistake", "expected_mistake")} == {
            "t": "int64", "p": "float64", "prediction": "int64", "y": "int64", "mistake": "bool",
            "expected_mistake": "float64"}
        assert int(df["mistake"].sum()) == T.mistakes


@pytest.mark.parametrize("make, adversary, H", [
    (Halving, ObliviousCoin(), classes.thresholds(15)),
    (SOA, ShatteredTreeWalker(), classes.monotone_disjunctions(3)),  # instances are tuples
    (OptimalRandomizedLearner, ShatteredTreeWalker(), classes.thresholds(7)),  # p strictly between 0 and 1
])
def test_to_pandas_has_one_row_per_round(make, adversary, H):
    T = play(make(H), adversary, H, rounds=30, seed=2)
    df = T.to_pandas()
    _assert_frame_is_the_transcript(df, T)
    assert math.isclose(df["expected_mistake"].sum(), T.expected_mistakes)


def test_to_pandas_keeps_vector_instances_whole():
    H = classes.monotone_disjunctions(3)
    T = play(SOA(H), ShatteredTreeWalker(), H, rounds=10, seed=0)
    df = T.to_pandas()
    assert str(df["x"].dtype) == "object" and all(isinstance(x, tuple) and len(x) == 3 for x in df["x"])


def test_to_pandas_of_a_transcript_built_from_its_log():
    log = RoundLog(["a", "b", "c"], [1.0, 0.25, 0.0], [1, 0, 0], [0, 0, 1])
    T = Transcript.from_log(log)
    _assert_frame_is_the_transcript(T.to_pandas(), Transcript(rounds=log.rounds()))


@settings(max_examples=60, deadline=None)
@given(rounds_lists())
def test_to_pandas_of_any_transcript(rounds):
    T = Transcript(rounds=rounds)
    _assert_frame_is_the_transcript(T.to_pandas(), T)


def test_to_pandas_of_a_totals_only_game_says_where_the_rounds_went():
    T = Transcript.from_totals(10, mistakes=1, expected_mistakes=1)
    with pytest.raises(InvalidArgumentError, match="kept only the totals of its 10 rounds"):
        T.to_pandas()


# ------------------------------------------------------------------------ pandas missing
@pytest.fixture
def no_pandas(monkeypatch):
    """``import pandas`` raises ImportError, as on an install without it."""
    for name in list(sys.modules):
        if name == "pandas" or name.startswith("pandas."):
            monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "pandas", None)


@pytest.mark.parametrize("call", [
    lambda: Transcript.from_totals(3, mistakes=0, expected_mistakes=0).to_pandas(),  # named before the refusal
    lambda: play(Halving(classes.thresholds(3)), ObliviousCoin(), classes.thresholds(3), rounds=3).to_pandas(),
    lambda: sweep({"grid": [{"kind": "search", "search": "ldim", "classes": ["thresholds"], "sizes": [3]}]}).to_pandas(),
    lambda: records_frame([{"id": "a"}]),
])
def test_without_pandas_the_error_names_the_extra(no_pandas, call):
    with pytest.raises(PandasDependencyError, match=r"needs pandas.*pip install 'mistakebound\[pandas\]'") as info:
        call()
    assert isinstance(info.value, MistakeboundError) and isinstance(info.value, ImportError)
    assert isinstance(info.value.__cause__, ImportError)


def test_the_package_imports_without_pandas(no_pandas):
    H = classes.thresholds(3)
    T = play(Halving(H), ObliviousCoin(), H, rounds=3, seed=0)
    assert T._repr_html_().startswith("<div") and H._repr_html_().startswith("<div")


# ------------------------------------------------------------------------ sweeps
CONFIG = {"grid": [
    {"kind": "game", "learners": ["Halving", "SOA"], "adversaries": ["OppositeLabel"], "classes": ["thresholds"],
     "sizes": [3, 7], "horizons": [20]},
    {"kind": "search", "search": "ldim", "classes": ["thresholds"], "sizes": [3, 7]},
]}


def _same(a, b) -> bool:
    missing_a = a is None or a is pd.NA or (isinstance(a, float) and math.isnan(a))
    missing_b = b is None or b is pd.NA or (isinstance(b, float) and math.isnan(b))
    return missing_a and missing_b if (missing_a or missing_b) else a == b


@pytest.fixture(scope="module")
def swept(tmp_path_factory):
    out = tmp_path_factory.mktemp("sweep") / "r.csv"
    return sweep(CONFIG, out=out, executor="inprocess"), out


def test_sweep_result_to_pandas_is_its_records(swept):
    result, _ = swept
    df = result.to_pandas()
    assert list(df.columns) == list(result.records[0])
    assert len(df) == len(result.records) == 6
    for i, record in enumerate(result.records):
        for key, value in record.items():
            assert _same(df[key].iloc[i] if not pd.isna(df[key].iloc[i]) else None, value), (i, key)
    assert set(df["kind"]) == {"game", "search"}
    assert str(df["mistakes"].dtype) in ("int64", "Int64") and str(df["seconds"].dtype) == "float64"


def test_the_results_file_reads_into_pandas_as_the_records(swept):
    result, out = swept
    assert read_frame(out).equals(records_frame(read_records(out)))
    assert read_frame(out).equals(result.to_pandas())
    plain = pd.read_csv(out)  # no glue: the file is a CSV pandas reads as it is
    assert list(plain.columns) == list(result.records[0])
    for key in ("size", "mistakes", "bound", "ratio", "lower", "upper", "seconds"):
        assert all(_same(a, b) for a, b in zip(plain[key].tolist(), [r[key] for r in result.records])), key
    assert plain["verdict"].tolist() == [r["verdict"] for r in result.records]


def test_records_frame_takes_the_columns_the_records_have():
    """A column another version of the sweep adds comes along, after the others, typed from its values."""
    records = [{"id": "0123", "mistakes": 2, "new_column": 0.5}, {"id": "abcd", "mistakes": None, "other": True}]
    df = records_frame(records)
    assert list(df.columns) == ["id", "mistakes", "new_column", "other"]
    assert df["id"].tolist() == ["0123", "abcd"]  # an id of digits stays text
    assert str(df["mistakes"].dtype) == "Int64" and df["mistakes"].iloc[0] == 2 and pd.isna(df["mistakes"].iloc[1])
    assert str(df["new_column"].dtype) == "float64" and str(df["other"].dtype) == "boolean"


def test_records_frame_types_an_empty_column_as_its_field_reads():
    df = records_frame([{"id": "a", "note": None, "exact": None, "lower": None}])
    assert [str(df[c].dtype) for c in ("note", "exact", "lower")] == ["object", "boolean", "float64"]
    assert list(records_frame([]).columns)[:3] == ["id", "kind", "search"]


@pytest.mark.parametrize("values, dtype", [
    ([1, 2], "int64"), ([1, None], "Int64"), ([True, False], "bool"), ([True, None], "boolean"),
    ([1, 2.5], "float64"), ([None, 2.5], "float64"), ([2**64, 1], "object"), ([(0, 1), (1, 0)], "object"),
    ([None, None], "object"),
])
def test_frame_types_each_column_from_its_values(values, dtype):
    df = frame({"c": values})
    assert str(df["c"].dtype) == dtype
    assert [None if pd.isna(v) else v for v in df["c"].tolist()] == values


def test_numpy_booleans_make_a_flag_column_missing_values_included():
    from mistakebound.foundations.dataframes import frame

    df = frame({"flag": [np.bool_(True), None, False]})
    assert str(df["flag"].dtype) == "boolean" and df["flag"].tolist()[0] is True
    assert str(frame({"flag": [np.bool_(False), np.bool_(True)]})["flag"].dtype) == "bool"
