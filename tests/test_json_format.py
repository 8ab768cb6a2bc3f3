"""The pieces every JSON format is built from (mistakebound.foundations.json_format)."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mistakebound.foundations import json_format as jf
from mistakebound.foundations.errors import InvalidArgumentError

numbers = st.one_of(st.none(), st.integers(-(2**80), 2**80), st.floats(), st.sampled_from([-0.0, math.inf, -math.inf]))


def same(a, b) -> bool:
    """Equal with types and float bits (NaN equal to NaN, -0.0 told from 0.0)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return a.hex() == b.hex() if not math.isnan(a) else math.isnan(b)
    return a == b


@settings(max_examples=200, deadline=None)
@given(numbers)
def test_tagged_numbers_round_trip_bit_for_bit_through_text(x):
    text = jf.dumps({"x": jf.encode_tagged_number("x", x)})
    assert same(jf.decode_tagged_number("x", json.loads(text)["x"]), x)


def test_numpy_scalars_are_written_as_python_numbers():
    assert jf.encode_tagged_number("x", np.float64(0.5)) == 0.5
    assert type(jf.encode_tagged_number("x", np.int8(3))) is int
    with pytest.raises(InvalidArgumentError, match="^x: expected None, an int or a float"):
        jf.encode_tagged_number("x", np.bool_(True))


@pytest.mark.parametrize("bad", [{"float": "infinity"}, {"float": "inf", "x": 1}, "inf", [1.0], True])
def test_bad_tagged_numbers_are_refused(bad):
    with pytest.raises(InvalidArgumentError, match="^bound: expected null, a number or"):
        jf.decode_tagged_number("bound", bad)


@pytest.mark.parametrize(
    "check, value",
    [(jf.expect_int, True), (jf.expect_int, 1.0), (jf.expect_number, "1"), (jf.expect_number, math.nan),
     (jf.expect_str, None), (jf.expect_bool, 1)],
)
def test_values_are_checked_by_type_never_coerced(check, value):
    with pytest.raises(InvalidArgumentError, match="^field: "):
        check("field", value)


def test_tuples_are_lists_in_json_and_tuples_in_python():
    encode, decode = jf.tuple_of(jf.expect_int)
    assert decode("v", encode("v", (1, 2))) == (1, 2)
    with pytest.raises(InvalidArgumentError, match=r"^v: expected a tuple"):
        encode("v", [1, 2])
    with pytest.raises(InvalidArgumentError, match=r"^v\[1\]: expected an int"):
        decode("v", [1, "2"])


def test_parse_checks_the_header_first():
    text = jf.dumps({**jf.header("demo"), "a": 1})
    assert jf.parse(text, what="demo", fmt="demo")["a"] == 1
    assert jf.parse(text.encode(), what="demo", fmt="demo")["a"] == 1
    for bad, says in [("{", "^text: malformed demo JSON .*; expected the JSON text of a demo$"),
                      ("[]", "^text: expected a JSON object holding a demo, got list"),
                      ('{"format": "other", "version": 1}', "^format: expected 'demo', got 'other'"),
                      ('{"format": "demo", "version": 1, "x": NaN}', "^text: demo JSON contains NaN"),
                      (b"\xff", "^text: demo JSON is not valid UTF-8"),
                      ("[" * 100_000, "^text: demo JSON is nested too deeply|^text: malformed demo JSON")]:
        with pytest.raises(InvalidArgumentError, match=says):
            jf.parse(bad, what="demo", fmt="demo")


def test_check_keys_names_missing_and_unknown_fields_and_what_was_expected():
    with pytest.raises(InvalidArgumentError, match="^r: missing field\\(s\\) b; expected the fields a, b$"):
        jf.check_keys("r", {"a": 1}, ["a", "b"])
    with pytest.raises(InvalidArgumentError, match="^r: unknown field\\(s\\) c; expected only the fields a$"):
        jf.check_keys("r", {"a": 1, "c": 2}, ["a"])


def test_instances_nest_at_most_the_documented_depth():
    x = 0
    for _ in range(jf.MAX_INSTANCE_DEPTH):
        x = (x,)
    assert jf.decode_instance(json.loads(jf.dumps(jf.encode_instance(x)))) == x
    with pytest.raises(InvalidArgumentError, match="nests tuples more than 100 levels"):
        jf.encode_instance((x,))
