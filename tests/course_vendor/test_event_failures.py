"""EventFailures: every event failure of a vendor names the vendor, the event and the code."""

from __future__ import annotations

from collections.abc import Callable
from typing import NoReturn

import pytest
from frozendict import frozendict

from course_http import VendorError, VendorErrorCode
from course_vendor import (
    EventFailures,
    event_object,
    is_token_count,
    token_count,
    tool_arguments,
    usage_counts,
)

FAILURES = EventFailures("acme")


class IntSubclass(int):
    """An ``int`` subclass: never a decoded count, whatever it holds."""


class _Dict(dict[str, object]):
    """A ``dict`` subclass: never a decoded object, whatever it holds."""


def _deep(levels: int) -> object:
    value: object = "x"
    for _ in range(levels):
        value = [value]
    return value


def raised(failing: Callable[[], NoReturn]) -> VendorError:
    with pytest.raises(VendorError) as caught:
        failing()
    return caught.value


@pytest.mark.parametrize(
    ("failing", "code", "message"),
    [
        (
            lambda: FAILURES.fail_invalid("delta.text must be a string", 4),
            VendorErrorCode.VENDOR_INVALID_EVENT,
            "event 4: delta.text must be a string",
        ),
        (
            lambda: FAILURES.fail_order("a delta before its block started", 2),
            VendorErrorCode.VENDOR_EVENT_ORDER,
            "event 2: a delta before its block started",
        ),
        (
            lambda: FAILURES.invalid(7, "usage.output_tokens", "an integer", "12"),
            VendorErrorCode.VENDOR_INVALID_EVENT,
            "event 7: usage.output_tokens must be an integer, got a string",
        ),
    ],
)
def test_each_failure_names_its_code_the_vendor_and_the_event(
    failing: Callable[[], NoReturn], code: VendorErrorCode, message: str
) -> None:
    error = raised(failing)

    assert (error.code, error.vendor, error.message) == (code, "acme", message)
    assert error.event_index == int(message.split()[1].rstrip(":"))
    assert (error.vendor_type, error.vendor_code, error.vendor_message) == (None, None, None)


@pytest.mark.parametrize(
    ("data", "got"),
    [
        ({}, "missing"),
        ({"message": None}, "null"),
        ({"message": []}, "an array"),
        ({"message": "m"}, "a string"),
    ],
)
def test_an_object_read_says_an_absent_key_is_missing_and_a_null_one_null(
    data: dict[str, object], got: str
) -> None:
    error = raised(lambda: FAILURES.object_at(data, "message", 3))  # type: ignore[arg-type,return-value]

    assert error.message == f"event 3: message must be an object, got {got}"


@pytest.mark.parametrize(
    ("data", "non_blank", "got"),
    [
        ({}, False, "missing"),
        ({"id": None}, False, "null"),
        ({"id": 12}, False, "12"),
        ({"id": ""}, True, "an empty string"),
        ({"id": " \u3000"}, True, "a blank string"),
        ({"id": {"text": "x"}}, True, "an object"),
    ],
)
def test_a_text_read_names_what_it_got_in_jsons_words(
    data: dict[str, object], non_blank: bool, got: str
) -> None:
    error = raised(
        lambda: FAILURES.text_at(data, "id", 2, parent="message", non_blank=non_blank)  # type: ignore[arg-type,return-value]
    )

    expected = "a non-blank string" if non_blank else "a string"
    assert error.message == f"event 2: message.id must be {expected}, got {got}"


def test_an_empty_text_is_a_text_where_blank_is_allowed() -> None:
    assert FAILURES.text_at({"id": ""}, "id", 0) == ""
    assert FAILURES.text_at({"id": "\x1c"}, "id", 0, non_blank=True) == "\x1c"


@pytest.mark.parametrize(
    ("usage", "got"),
    [
        ({"input_tokens": 1}, "missing"),
        ({"input_tokens": 1, "output_tokens": None}, "null"),
        ({"input_tokens": 1, "output_tokens": "3"}, "a string"),
        ({"input_tokens": 1, "output_tokens": 2**53}, "9007199254740992"),
    ],
)
def test_a_usage_count_that_is_absent_is_said_missing_not_null(
    usage: dict[str, object], got: str
) -> None:
    with pytest.raises(VendorError) as caught:
        usage_counts(usage, "input_tokens", "output_tokens", vendor="acme", index=5, path="usage")

    assert caught.value.message == (
        f"event 5: usage.output_tokens must be an integer from 0 to 2**53 - 1, got {got}"
    )


@pytest.mark.parametrize(
    ("reading", "message"),
    [
        (
            lambda: event_object("[1, 2]", vendor="acme", index=1),
            "event 1: data must be a JSON object, got an array",
        ),
        (
            lambda: event_object("null", vendor="acme", index=1),
            "event 1: data must be a JSON object, got null",
        ),
        (
            lambda: tool_arguments('"x"', vendor="acme", index=4, path="delta.arguments"),
            "event 4: delta.arguments must be a JSON object, got a string",
        ),
    ],
)
def test_event_data_that_is_not_an_object_is_named_in_jsons_words(
    reading: Callable[[], object], message: str
) -> None:
    with pytest.raises(VendorError) as caught:
        reading()

    assert caught.value.message == message


def test_a_frozen_object_is_a_fresh_deep_snapshot_of_the_decoded_object() -> None:
    decoded = {"type": "x", "nested": {"items": [1, "two", None]}}

    frozen = FAILURES.frozen_object(decoded, 3, "delta.block")
    decoded["nested"]["items"].append(4)  # type: ignore[index]

    assert frozen == frozendict(type="x", nested=frozendict(items=(1, "two", None)))
    assert type(frozen) is frozendict
    assert type(frozen["nested"]) is frozendict


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (["x"], "event 3: delta.block must be an object, got an array"),
        (None, "event 3: delta.block must be an object, got null"),
        (_Dict(a=1), "event 3: delta.block must be an object, got a value of type _Dict"),
        ({"a": float("nan")}, "event 3: delta.block.a is not a finite number"),
        ({"a": _deep(200)}, "event 3: delta.block.a" + "[0]" * 63 + " nests more than"),
    ],
)
def test_a_value_that_is_not_a_frozen_json_object_is_refused_at_its_path(
    value: object, message: str
) -> None:
    with pytest.raises(VendorError) as caught:
        FAILURES.frozen_object(value, 3, "delta.block")
    error = caught.value

    assert (error.code, error.vendor, error.event_index) == (
        VendorErrorCode.VENDOR_INVALID_EVENT,
        "acme",
        3,
    )
    assert error.message.startswith(message)


@pytest.mark.parametrize(
    "value", [0, 7, 2**53 - 1, -1, 2**53, True, False, 7.0, "7", None, [7], IntSubclass(7)]
)
def test_is_token_count_is_exactly_what_token_count_takes(value: object) -> None:
    try:
        token_count(value, vendor="acme", index=0, path="usage.x")
    except VendorError:
        taken = False
    else:
        taken = True

    assert is_token_count(value) is taken
    assert taken is (value in (0, 7, 2**53 - 1) and type(value) is int)
