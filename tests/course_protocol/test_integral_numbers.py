"""One rule for "an integral number", the reference's ``Number.isInteger``, used everywhere.

``integral_number`` is that rule; usage counts (``CourseModelUsage``, the
course codec's ``parse_usage``) are integral numbers from 0 to 2**53 - 1,
kept as the ``int`` they equal.
"""

from __future__ import annotations

import math
from typing import Any, cast

import pytest
from hypothesis import given
from hypothesis import strategies as st
from returns.result import Failure, Success

from course_protocol import (
    MAX_TOKEN_COUNT,
    CourseModelUsage,
    CourseProtocolError,
    JsonErrorCode,
    parse_usage,
)
from course_protocol.untrusted import integral_number, token_count_of


class FloatThatLies(float):
    """A float subclass whose ``is_integer`` says yes to everything."""

    def is_integer(self) -> bool:
        return True


class IntThatLies(int):
    """An int subclass: foreign code, so not a number the boundary reads."""


INTEGRAL = [
    (0, 0),
    (12, 12),
    (12.0, 12),
    (-0.0, 0),
    (1e1, 10),
    (100e-2, 1),
    (-3.0, -3),
    (1e300, int(1e300)),
    (2**200, 2**200),
]
NOT_INTEGRAL = [
    12.5,
    -0.5,
    math.nan,
    math.inf,
    -math.inf,
    True,
    False,
    None,
    "12",
    b"12",
    [12],
    FloatThatLies(12.5),
    IntThatLies(12),
    complex(12, 0),
]


@pytest.mark.parametrize(("value", "expected"), INTEGRAL, ids=repr)
def test_an_int_or_a_float_with_no_fraction_is_the_int_it_equals(
    value: object, expected: int
) -> None:
    found = integral_number(value)

    assert (found, type(found)) == (expected, int)


@pytest.mark.parametrize("value", NOT_INTEGRAL, ids=repr)
def test_anything_else_is_not_an_integral_number(value: object) -> None:
    assert integral_number(value) is None


@pytest.mark.parametrize(
    ("value", "expected"),
    [(0, 0), (-0.0, 0), (12.0, 12), (float(MAX_TOKEN_COUNT), MAX_TOKEN_COUNT)],
    ids=repr,
)
def test_a_token_count_is_an_integral_number_in_range(value: object, expected: int) -> None:
    assert token_count_of(value) == expected


@pytest.mark.parametrize(
    "value", [-1, -1.0, MAX_TOKEN_COUNT + 1, float(MAX_TOKEN_COUNT + 1), 1e300, 0.5, True], ids=repr
)
def test_a_token_count_out_of_range_or_not_integral_is_none(value: object) -> None:
    assert token_count_of(value) is None


@pytest.mark.parametrize(
    ("input_tokens", "output_tokens", "expected"),
    [(12.0, 8, (12, 8)), (1e1, -0.0, (10, 0)), (float(MAX_TOKEN_COUNT), 0, (MAX_TOKEN_COUNT, 0))],
    ids=["float-input", "exponent-and-negative-zero", "largest"],
)
def test_usage_keeps_an_integral_float_count_as_the_int_it_equals(
    input_tokens: Any, output_tokens: Any, expected: tuple[int, int]
) -> None:
    usage = CourseModelUsage(input_tokens, output_tokens)

    assert (usage.input_tokens, usage.output_tokens) == expected
    assert (type(usage.input_tokens), type(usage.output_tokens)) == (int, int)
    assert usage == CourseModelUsage(*expected)


@pytest.mark.parametrize(
    ("value", "fragment"),
    [
        (12.5, "must be an int or an integral float, not a float with a fraction"),
        (math.nan, "not a non-finite float"),
        (math.inf, "not a non-finite float"),
        (True, "not bool"),
        (FloatThatLies(12.0), "not FloatThatLies"),
        (-1.0, "must be between 0 and 2**53 - 1"),
        (float(2**53), "must be between 0 and 2**53 - 1"),
    ],
    ids=repr,
)
def test_usage_refuses_a_count_that_is_not_a_safe_integer(value: object, fragment: str) -> None:
    with pytest.raises(CourseProtocolError) as raised:
        CourseModelUsage(1, cast(int, value))

    assert raised.value.path == "output_tokens"
    assert fragment in raised.value.message


def test_the_codec_decodes_integral_float_counts_as_ints() -> None:
    parsed = parse_usage({"inputTokens": 12.0, "outputTokens": -0.0})

    assert parsed == Success(CourseModelUsage(12, 0))
    usage = parsed.unwrap()
    assert (type(usage.input_tokens), type(usage.output_tokens)) == (int, int)


@pytest.mark.parametrize("value", [12.5, True, "12", None, float(2**53)], ids=repr)
def test_the_codec_refuses_a_count_that_is_not_a_safe_integer(value: object) -> None:
    parsed = parse_usage({"inputTokens": value, "outputTokens": 1})

    assert isinstance(parsed, Failure)
    error = parsed.failure()
    assert (error.code, error.path) == (JsonErrorCode.NOT_COURSE_JSON, "$.inputTokens")


@given(st.integers(min_value=0, max_value=MAX_TOKEN_COUNT))
def test_every_count_is_the_same_count_spelled_as_a_float(count: int) -> None:
    # Every integer up to 2**53 - 1 is exactly a float: both spellings are one count.
    assert CourseModelUsage(float(count), count) == CourseModelUsage(count, count)  # type: ignore[arg-type]


@given(st.floats(allow_nan=False, allow_infinity=False).filter(lambda x: not x.is_integer()))
def test_no_float_with_a_fraction_is_ever_a_count(value: float) -> None:
    assert integral_number(value) is None
    with pytest.raises(CourseProtocolError):
        CourseModelUsage(cast(int, value), 0)
