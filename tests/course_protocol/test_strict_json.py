"""The one strict JSON decoder behind fixture files and cassettes: every refusal has its reason."""

from __future__ import annotations

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


def test_strict_json_comes_back_as_plain_values_in_order() -> None:
    outcome = loads_strict_json('{"b": [1, 2.5, "é", true, null], "a": {}}'.encode())

    assert outcome == Success({"b": [1, 2.5, "é", True, None], "a": {}})
    assert list(outcome.unwrap()) == ["b", "a"]  # type: ignore[call-overload]
