"""The one reading of numbers written as text (:mod:`mistakebound.foundations.numerals`)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.foundations.numerals import integer_text, integral_value, real_text, too_long


@pytest.mark.parametrize("text, value", [("0", 0), (" 7 ", 7), ("+4", 4), ("1_0", 10), ("-3", -3)])
def test_an_integer_is_read_as_int_reads_it(text, value):
    assert integer_text(text, name="n") == value


@pytest.mark.parametrize("text", ["9" * 5000, "-" + "9" * 5000, "1" + "0" * 4299, " " + "7" * 10**5])
def test_a_number_longer_than_int_reads_is_out_of_range_not_a_non_integer(text):
    with pytest.raises(InvalidArgumentError, match=r"^--max-nodes: expected an integer from 1 to 2\*\*63 - 1, got a "
                                                   r"number of [0-9,]+ digits \('[-0-9]+'\.\.\.\)$") as info:
        integer_text(text, name="--max-nodes", minimum=1, maximum=2**63 - 1)
    assert len(str(info.value)) < 200


@pytest.mark.parametrize("text", ["1.5", "1e3", "nan", "x", "", "0x10", "\x00", "1\ud800", "a" * 10**5])
def test_what_is_not_an_integer_is_refused_naming_the_value(text):
    with pytest.raises(InvalidArgumentError, match=r"^n: expected an integer >= 0, got ") as info:
        integer_text(text, name="n", minimum=0)
    assert len(str(info.value)) < 200


@pytest.mark.parametrize("text", ["1e308", "1e400", "inf", "nan", "-1", "0.5", "101", "9" * 5000, "1e-400"])
def test_a_real_outside_its_range_is_refused(text):
    with pytest.raises(InvalidArgumentError, match=r"^--width: expected a width in inches from 1 to 100, got "):
        real_text(text, name="--width", minimum=1.0, maximum=100.0, what="a width in inches")


def test_a_real_above_its_minimum():
    assert real_text("1e-300", name="t", minimum=0.0, above=True) == 1e-300
    with pytest.raises(InvalidArgumentError, match=r"^t: expected a number > 0, got '1e-400'$"):
        real_text("1e-400", name="t", minimum=0.0, above=True)  # rounds to 0


@pytest.mark.parametrize("text, value", [
    ("1", 1), ("0", 0), ("-0", 0), ("1.0", 1), ("1e0", 1), ("100e-2", 1), ("0.1e1", 1), ("+1", 1),
    ("1.000000000000000000e+00", 1), ("0e-999999999999999999999", 0), ("0e999999999999999999999", 0),
    ("0." + "0" * 500, 0), ("255", 255), (".1e1", 1),
])
def test_the_exact_value_of_a_numeral(text, value):
    assert integral_value(text, 0, 255) == value


@pytest.mark.parametrize("text", [
    "1.0000000000000001", "256", "-1", "1e-999999999999999999999", "1e999999999999999999999", "0.5", "1e",
    ".", "", "x", "1e+", "٣", "1 ", "nan", "0x1", "1" + "0" * 10**4 + "e-9997",
])
def test_what_is_not_an_integer_in_range(text):
    assert integral_value(text, 0, 255) is None


@given(st.fractions(min_value=-300, max_value=300, max_denominator=7), st.integers(-30, 30))
def test_integral_value_agrees_with_exact_arithmetic(f, e):
    # a numeral of the value f * 10**e (when f has a finite decimal expansion), compared with Fraction
    num, den = f.numerator, f.denominator
    if any(den % p == 0 for p in (3, 7)):
        return  # no finite decimal expansion
    text = f"{num * 10**6 // den}e{e - 6}"  # den divides 10**6: exact
    exact = Fraction(num, den) * Fraction(10) ** e
    expected = int(exact) if exact.denominator == 1 and -1000 <= exact <= 1000 else None
    assert integral_value(text, -1000, 1000) == expected


def test_a_long_json_number_is_named_as_such():
    import json

    with pytest.raises(ValueError) as info:
        json.loads("[" + "9" * 5000 + "]")
    assert str(too_long("text: the class JSON", info.value)).startswith("text: the class JSON holds a number of more")
    assert too_long("x", ValueError("something else")) is None
