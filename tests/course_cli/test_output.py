"""The output encoders: fixed JSON Lines bytes and problem lines that stay one line."""

from __future__ import annotations

import pytest

from course_cli._output import compact_json, format_problem, json_line, one_line, quoted
from course_cli._problems import Problem


def test_json_lines_are_compact_ascii_and_keep_key_order() -> None:
    assert json_line({"z": 1, "a": [True, None, 1.5], "text": "caf\u00e9 \ud800"}) == (
        '{"z":1,"a":[true,null,1.5],"text":"caf\\u00e9 \\ud800"}'
    )


def test_json_lines_refuse_non_finite_floats() -> None:
    with pytest.raises(ValueError, match="Out of range float"):
        json_line({"x": float("nan")})


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("plain", "plain"),
        ("two\nlines", "two\\nlines"),
        ("cr\rtab\t", "cr\\rtab\\t"),
        ("nul\x00del\x7f", "nul\\x00del\\x7f"),
        ("line\u2028separator", "line\\u2028separator"),
        ("caf\u00e9", "caf\u00e9"),
    ],
)
def test_one_line_escapes_only_what_could_break_a_line(text: str, expected: str) -> None:
    assert one_line(text) == expected


def test_a_problem_line_names_file_response_record_code_and_message() -> None:
    problem = Problem("a.json", 2, 5, "PROVIDER_UNKNOWN_EVENT", "type 'x'\nis unknown")
    assert format_problem(problem) == (
        "a.json: response 2, record 5: PROVIDER_UNKNOWN_EVENT: type 'x'\\nis unknown"
    )


def test_a_problem_line_leaves_out_positions_it_does_not_know() -> None:
    assert format_problem(Problem("a.json", None, None, "CODE", "bad")) == "a.json: CODE: bad"
    assert format_problem(Problem("a.json", 1, None, "CODE", "bad")) == (
        "a.json: response 1: CODE: bad"
    )


def test_trace_text_keeps_unicode_but_escapes_lone_surrogates() -> None:
    assert quoted("caf\u00e9 \ud800") == '"caf\u00e9 \\ud800"'
    assert compact_json({"k": "\udfff"}) == '{"k":"\\udfff"}'


def test_trace_json_shows_a_placeholder_for_an_int_too_long_to_convert() -> None:
    assert compact_json({"left": 10**5000}) == "<too large to print>"
