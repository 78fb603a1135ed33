"""The one strict JSON decoder behind fixture files and cassettes: every refusal has its reason."""

from __future__ import annotations

import math
import sys
from typing import cast

import pytest
from returns.result import Failure, Success

from course_protocol.strict_json import loads_strict_json


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (b"\xff{}", "not valid UTF-8 (invalid UTF-8 at byte 0)"),
        ("{", "not JSON: Expecting property name enclosed in double quotes at line 1 column 2"),
        ('{"a": 1, "a": 2}', 'not strict JSON: duplicate object key "a"'),
        ('{"a": {"b": 1, "b": 1}}', 'not strict JSON: duplicate object key "b"'),
        ("[NaN]", "not strict JSON: NaN is not a JSON number"),
        ("[-Infinity]", "not strict JSON: -Infinity is not a JSON number"),
        ("[1e400]", "not strict JSON: the number 1e400 overflows a float"),
        ("[" * 100_000 + "]" * 100_000, "not usable JSON: nesting is too deep to parse"),
    ],
)
def test_what_json_loads_would_let_slide_is_refused_with_its_reason(
    text: bytes | str, reason: str
) -> None:
    assert loads_strict_json(text) == Failure(reason)


def test_an_integer_too_long_to_convert_is_refused_not_raised() -> None:
    outcome = loads_strict_json("[" + "9" * 5_000 + "]")

    assert isinstance(outcome, Failure)
    assert outcome.failure().startswith("not strict JSON: Exceeds the limit")


def test_overflow_to_infinity_reads_a_number_past_the_largest_float_as_json_parse_does() -> None:
    largest = int(sys.float_info.max)
    first_to_overflow = largest + 2**970  # half an ulp above: rounds up to infinity
    text = (
        f"[1e400, -1E+999, {first_to_overflow}, -{first_to_overflow}, {'9' * 5_000}, "
        f"{first_to_overflow - 1}, {largest}, 1.5, 7]"
    )

    outcome = loads_strict_json(text, overflow_to_infinity=True)

    assert isinstance(outcome, Success), outcome
    values = cast(list[object], outcome.unwrap())
    assert values[:5] == [math.inf, -math.inf, math.inf, -math.inf, math.inf]
    assert values[5:] == [first_to_overflow - 1, largest, 1.5, 7]
    assert [type(value) for value in values[5:]] == [int, int, float, int]
    assert loads_strict_json(text) == Failure("not strict JSON: the number 1e400 overflows a float")


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_overflow_to_infinity_still_refuses_what_is_no_json_number(constant: str) -> None:
    assert loads_strict_json(f"[{constant}]", overflow_to_infinity=True) == Failure(
        f"not strict JSON: {constant} is not a JSON number"
    )


def test_strict_json_comes_back_as_plain_values_in_order() -> None:
    outcome = loads_strict_json('{"b": [1, 2.5, "é", true, null], "a": {}}'.encode())

    assert outcome == Success({"b": [1, 2.5, "é", True, None], "a": {}})
    assert list(outcome.unwrap()) == ["b", "a"]  # type: ignore[call-overload]
