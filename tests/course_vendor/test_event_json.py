"""The vendor-neutral reads of event data: decode strictly, fail with the right code."""

from __future__ import annotations

import pytest
from frozendict import frozendict

from course_http import VendorError, VendorErrorCode
from course_protocol import JSON_MAX_DEPTH
from course_vendor import _event_json, event_object, token_count, tool_arguments

V = "anthropic-messages"


def test_event_object_decodes_a_json_object_into_a_plain_dict() -> None:
    value = event_object('{"type":"ping", "n": 1.5 }', vendor=V, index=3)
    assert value == {"type": "ping", "n": 1.5}
    assert type(value) is dict


@pytest.mark.parametrize(
    "data",
    [
        "",
        "not json",
        '{"a": NaN}',
        '{"a": Infinity}',
        '{"a": -Infinity}',
        '{"a": 1e400}',
        "[1, 2]",
        '"text"',
        "null",
        '{"a": 1',
        "[" * 100_000 + "]" * 100_000,
        '{"n": ' + "9" * 5000 + "}",
    ],
)
def test_event_object_refuses_what_is_not_a_finite_json_object(data: str) -> None:
    with pytest.raises(VendorError) as caught:
        event_object(data, vendor=V, index=7)
    assert caught.value.code is VendorErrorCode.VENDOR_INVALID_EVENT
    assert caught.value.event_index == 7
    assert caught.value.vendor == V
    assert caught.value.message.startswith("event 7: ")


@pytest.mark.parametrize("value", [0, 1, 2**53 - 1])
def test_token_count_accepts_safe_non_negative_integers(value: int) -> None:
    assert token_count(value, vendor=V, index=0, path="usage.input_tokens") == value


@pytest.mark.parametrize(
    "value",
    [-1, 2**53, True, 1.0, None, "3", 10**5000],
    ids=["-1", "2**53", "True", "1.0", "None", "str", "huge"],
)
def test_token_count_refuses_anything_else_naming_the_path(value: object) -> None:
    with pytest.raises(VendorError) as caught:
        token_count(value, vendor=V, index=2, path="usage.output_tokens")
    assert caught.value.code is VendorErrorCode.VENDOR_INVALID_EVENT
    assert "usage.output_tokens" in caught.value.message


def test_tool_arguments_of_empty_text_are_an_empty_object() -> None:
    assert tool_arguments("", vendor=V, index=0, path="arguments") == {}


def test_tool_arguments_are_frozen_deeply() -> None:
    value = tool_arguments('{"a": [1, {"b": null}]}', vendor=V, index=0, path="arguments")
    assert value == frozendict({"a": (1, frozendict({"b": None}))})
    assert type(value) is frozendict
    assert type(value["a"]) is tuple


@pytest.mark.parametrize(
    "text",
    [
        '{"filename": "taxes.txt", "lines": ["Filing',
        "[]",
        "null",
        '"{}"',
        " ",
        '{"x": NaN}',
        "[" * (JSON_MAX_DEPTH + 1) + "]" * (JSON_MAX_DEPTH + 1),
        '{"a":' * (JSON_MAX_DEPTH + 1) + "1" + "}" * (JSON_MAX_DEPTH + 1),
    ],
)
def test_tool_arguments_refuse_cut_off_or_non_object_text(text: str) -> None:
    with pytest.raises(VendorError) as caught:
        tool_arguments(text, vendor=V, index=9, path="content[1].input")
    assert caught.value.code is VendorErrorCode.VENDOR_INVALID_TOOL_ARGUMENTS
    assert caught.value.event_index == 9


def test_tool_arguments_at_the_nesting_limit_are_accepted() -> None:
    depth = JSON_MAX_DEPTH
    text = '{"a":' * (depth - 1) + "{}" + "}" * (depth - 1)
    value = tool_arguments(text, vendor=V, index=0, path="arguments")
    assert "a" in value


@pytest.mark.parametrize(
    "data",
    [
        '{"a":1}',
        ' {"a": 1}',
        '{"a": 1} ',
        "\n\t{}\r\n",
        '{"a": 1} {"b": 2}',
        '{"a": 1}x',
        "{} ]",
        "",
        "   ",
        '{"a": [1, 2.5, -0.0, 1e-7, true, false, null, "\\u00e9\\ud83d\\ude00"]}',
        '{"a": "\\ud800"}',
        '{"a": 1e400}',
        '{"a": NaN}',
        '{"a" 1}',
        '{"a": 1,}',
        '{"a": "unterminated',
        '{"a": {"b": {"c": []}}}',
        '{"a": 1, "a": 2}',
        "[" * 100_000 + "]" * 100_000,
    ],
)
def test_event_object_decodes_and_refuses_exactly_as_the_strict_decoder_does(data: str) -> None:
    # The fast path (the scanner alone) must not change a result or a message.
    try:
        expected: object = _event_json._DECODER.decode(data)
    except (ValueError, RecursionError) as error:
        expected = f"data is not JSON ({error})"
    try:
        got: object = event_object(data, vendor=V, index=0)
    except VendorError as error:
        got = error.message.removeprefix("event 0: ")
    if type(expected) is dict:
        assert got == expected
        assert type(got) is dict
    elif type(expected) is str:
        assert got == expected
    else:
        assert got == f"data must be a JSON object, got {type(expected).__name__}"
