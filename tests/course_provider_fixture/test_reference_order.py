"""The reference course's order of checks: each record is judged by the first rule that applies.

One table, a row per rule of the fixture README's list and per pair of rules
that compete for one record, each played both as an array fixture and as an
async record source: code, record index and path must be the reference's.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from course_provider_fixture import (
    FixtureProviderAdapter,
    FixtureProviderError,
    FixtureProviderErrorCode,
)
from course_stream import AbortController
from tests.course_provider_fixture.records import (
    Record,
    end,
    fixture,
    start,
    text,
    tool_call,
    transport_error,
)
from tests.requests import request
from tests.streams import failure_of, settle

Code = FixtureProviderErrorCode
REQUEST = request("q-1", "Hi", message_id="u-1")

# (rule, records, code, record index, path of the bad value below the record)
RULES: list[tuple[str, list[object], Code, int, str]] = [
    ("1: not an object", [start(), "text"], Code.PROVIDER_INVALID_EVENT, 1, ""),
    ("1: null", [None], Code.PROVIDER_INVALID_EVENT, 0, ""),
    ("1: an array", [start(), ["type", "text_delta"]], Code.PROVIDER_INVALID_EVENT, 1, ""),
    (
        "1 over 3: a non-object after the end",
        [start(), end(), 7],
        Code.PROVIDER_INVALID_EVENT,
        2,
        "",
    ),
    ("2: no type", [start(), {"text": "x"}], Code.PROVIDER_INVALID_EVENT, 1, ".type"),
    ("2: a type that is not a string", [{"type": 1}], Code.PROVIDER_INVALID_EVENT, 0, ".type"),
    ("2: a blank type", [start(), {"type": " \u3000"}], Code.PROVIDER_INVALID_EVENT, 1, ".type"),
    ("2: an empty type", [{"type": ""}], Code.PROVIDER_INVALID_EVENT, 0, ".type"),
    (
        "2 over 3: a blank type after the end",
        [start(), end(), {"type": "\ufeff"}],
        Code.PROVIDER_INVALID_EVENT,
        2,
        ".type",
    ),
    (
        "2 over 7: no type before the start",
        [{"text": "x"}],
        Code.PROVIDER_INVALID_EVENT,
        0,
        ".type",
    ),
    ("3: a second end", [start(), end(), end()], Code.PROVIDER_DUPLICATE_TERMINAL, 2, ""),
    (
        "3: a malformed second end",
        [start(), end(), {"type": "response_end"}],
        Code.PROVIDER_DUPLICATE_TERMINAL,
        2,
        "",
    ),
    ("3: text after the end", [start(), end(), text()], Code.PROVIDER_INVALID_TERMINAL, 2, ""),
    ("3: a start after the end", [start(), end(), start()], Code.PROVIDER_INVALID_TERMINAL, 2, ""),
    (
        "3: an unknown type after the end",
        [start(), end(), {"type": "?"}],
        Code.PROVIDER_INVALID_TERMINAL,
        2,
        "",
    ),
    (
        "3 over 5: a transport error after the end",
        [start(), end(), transport_error()],
        Code.PROVIDER_INVALID_TERMINAL,
        2,
        "",
    ),
    ("4: a second start", [start(), text(), start("r-2")], Code.PROVIDER_DUPLICATE_START, 2, ""),
    (
        "4: a duplicate start with a bad role",
        [start(), start(role="user")],
        Code.PROVIDER_DUPLICATE_START,
        1,
        "",
    ),
    (
        "4: a duplicate start without an id",
        [start(), {"type": "response_start"}],
        Code.PROVIDER_DUPLICATE_START,
        1,
        "",
    ),
    ("4: a blank response id", [start("\u2028")], Code.PROVIDER_INVALID_EVENT, 0, ".responseId"),
    (
        "4: a role that is not assistant",
        [start(role="user")],
        Code.PROVIDER_INVALID_EVENT,
        0,
        ".role",
    ),
    (
        "4: a role that is not a string",
        [start(role=["assistant"])],
        Code.PROVIDER_INVALID_EVENT,
        0,
        ".role",
    ),
    (
        "4: an id checked before the role",
        [start("", role="user")],
        Code.PROVIDER_INVALID_EVENT,
        0,
        ".responseId",
    ),
    (
        "5: a transport error before the start",
        [transport_error()],
        Code.PROVIDER_TRANSPORT_ERROR,
        0,
        "",
    ),
    (
        "5: a transport error mid-response",
        [start(), text(), transport_error()],
        Code.PROVIDER_TRANSPORT_ERROR,
        2,
        "",
    ),
    ("5: a blank code", [transport_error(code="\t")], Code.PROVIDER_INVALID_EVENT, 0, ".code"),
    (
        "5: an empty message",
        [transport_error(message="")],
        Code.PROVIDER_INVALID_EVENT,
        0,
        ".message",
    ),
    (
        "5: a whitespace-only message",
        [transport_error(message=" \n ")],
        Code.PROVIDER_INVALID_EVENT,
        0,
        ".message",
    ),
    (
        "5: a message that is not a string",
        [transport_error(message=3)],
        Code.PROVIDER_INVALID_EVENT,
        0,
        ".message",
    ),
    (
        "6: an unknown type before the start",
        [{"type": "thinking_delta"}],
        Code.PROVIDER_UNKNOWN_EVENT,
        0,
        ".type",
    ),
    (
        "6: an unknown type mid-response",
        [start(), {"type": "textDelta"}],
        Code.PROVIDER_UNKNOWN_EVENT,
        1,
        ".type",
    ),
    (
        "6: a padded known type is unknown",
        [start(), {"type": " text_delta"}],
        Code.PROVIDER_UNKNOWN_EVENT,
        1,
        ".type",
    ),
    ("7: text before the start", [text()], Code.PROVIDER_MISSING_START, 0, ""),
    ("7 over 8: bad text before the start", [text(5)], Code.PROVIDER_MISSING_START, 0, ""),
    (
        "7 over 9: a bad Tool call before the start",
        [tool_call("")],
        Code.PROVIDER_MISSING_START,
        0,
        "",
    ),
    ("7 over 10: a bad end before the start", [end(None)], Code.PROVIDER_MISSING_START, 0, ""),
    (
        "8: text that is not a string",
        [start(), text(None)],
        Code.PROVIDER_INVALID_EVENT,
        1,
        ".text",
    ),
    (
        "8: text under the old field name",
        [start(), {"type": "text_delta", "delta": "x"}],
        Code.PROVIDER_INVALID_EVENT,
        1,
        ".text",
    ),
    (
        "9: a blank Tool-call id",
        [start(), tool_call("\u205f")],
        Code.PROVIDER_INVALID_EVENT,
        1,
        ".id",
    ),
    (
        "9: a blank Tool name",
        [start(), tool_call(name=" ")],
        Code.PROVIDER_INVALID_EVENT,
        1,
        ".name",
    ),
    (
        "9: array arguments",
        [start(), tool_call(arguments=[1])],
        Code.PROVIDER_INVALID_EVENT,
        1,
        ".arguments",
    ),
    (
        "9: null arguments",
        [start(), {"type": "tool_call", "id": "c", "name": "n", "arguments": None}],
        Code.PROVIDER_INVALID_EVENT,
        1,
        ".arguments",
    ),
    (
        "9: a repeated id",
        [start(), tool_call("c"), tool_call("c")],
        Code.PROVIDER_INVALID_EVENT,
        2,
        ".id",
    ),
    (
        "9: a repeated id with a blank name",
        [start(), tool_call("c"), tool_call("c", name="")],
        Code.PROVIDER_INVALID_EVENT,
        2,
        ".name",
    ),
    (
        "9: a repeated id with bad arguments",
        [start(), tool_call("c"), tool_call("c", arguments="{}")],
        Code.PROVIDER_INVALID_EVENT,
        2,
        ".arguments",
    ),
    ("10: a blank end id", [start(), end("")], Code.PROVIDER_INVALID_EVENT, 1, ".responseId"),
    (
        "10: a mismatched end id",
        [start(), end("r-2")],
        Code.PROVIDER_RESPONSE_MISMATCH,
        1,
        ".responseId",
    ),
    (
        "10: a mismatched id with a bad usage",
        [start(), end("r-2", usage="none")],
        Code.PROVIDER_RESPONSE_MISMATCH,
        1,
        ".responseId",
    ),
    (
        "10: a mismatched id with a bad stop reason",
        [start(), end("r-2", stop_reason="toolCall")],
        Code.PROVIDER_RESPONSE_MISMATCH,
        1,
        ".responseId",
    ),
    (
        "10: the course spelling of the stop reason",
        [start(), end(stop_reason="toolCall")],
        Code.PROVIDER_INVALID_EVENT,
        1,
        ".stopReason",
    ),
    (
        "10: the stop reason before the usage",
        [start(), end(stop_reason=None, usage=[])],
        Code.PROVIDER_INVALID_EVENT,
        1,
        ".stopReason",
    ),
    (
        "10: usage that is not an object",
        [start(), end(usage=[3, 5])],
        Code.PROVIDER_INVALID_EVENT,
        1,
        ".usage",
    ),
    (
        "10: both aliases of one count",
        [start(), end(usage={"inputTokens": 1, "input_tokens": None, "outputTokens": 1})],
        Code.PROVIDER_INVALID_EVENT,
        1,
        ".usage",
    ),
    (
        "10: a negative count",
        [start(), end(usage={"inputTokens": -1, "outputTokens": 1})],
        Code.PROVIDER_INVALID_EVENT,
        1,
        ".usage.inputTokens",
    ),
    (
        "10: a count past 2**53 - 1",
        [start(), end(usage={"input_tokens": 1, "output_tokens": 2**53})],
        Code.PROVIDER_INVALID_EVENT,
        1,
        ".usage.output_tokens",
    ),
    (
        "10: a count with a fraction",
        [start(), end(usage={"inputTokens": 1.5, "outputTokens": 1})],
        Code.PROVIDER_INVALID_EVENT,
        1,
        ".usage.inputTokens",
    ),
    (
        "10: usage before the terminal semantics",
        [start(), tool_call(), end(usage={"inputTokens": -1, "outputTokens": 1})],
        Code.PROVIDER_INVALID_EVENT,
        2,
        ".usage.inputTokens",
    ),
    (
        "10: stop with a Tool call",
        [start(), tool_call(), end()],
        Code.PROVIDER_INVALID_TERMINAL,
        2,
        "",
    ),
    (
        "10: a Tool-call stop without one",
        [start(), text(), end(stop_reason="tool_call")],
        Code.PROVIDER_INVALID_TERMINAL,
        2,
        "",
    ),
    ("11: no end", [start(), text(), tool_call()], Code.PROVIDER_MISSING_TERMINAL, 3, ""),
    ("11: no records at all", [], Code.PROVIDER_MISSING_TERMINAL, 0, ""),
]


async def _records(records: list[object]) -> AsyncIterator[object]:
    for record in records:
        await asyncio.sleep(0)
        yield record


async def _play(records: object) -> FixtureProviderError:
    stream = FixtureProviderAdapter(fixture(records)).stream(REQUEST, AbortController().signal)
    error = await failure_of(stream)
    assert isinstance(error, FixtureProviderError)
    return error


@pytest.mark.parametrize("source", ["array", "async source"])
@pytest.mark.parametrize(
    ("records", "code", "record_index", "path"),
    [pytest.param(*row[1:], id=row[0]) for row in RULES],
)
async def test_each_record_is_judged_by_the_first_rule_that_applies(
    records: list[object], code: Code, record_index: int, path: str, source: str
) -> None:
    error = await _play(list(records) if source == "array" else _records(records))

    assert error.code is code
    assert error.record_index == record_index
    records_path = "responses[0].records"
    expected_path = (
        records_path
        if code is Code.PROVIDER_MISSING_TERMINAL
        else (f"{records_path}[{record_index}]{path}")
    )
    assert error.path == expected_path


def test_every_rule_of_the_reference_list_has_a_row() -> None:
    numbers = {int(row[0].split(":")[0].split(" ")[0]) for row in RULES}
    assert numbers == set(range(1, 12))


async def test_a_transport_error_carries_its_code_as_the_provider_code() -> None:
    error = await _play([transport_error(code="overloaded", message="try later")])

    assert error.provider_code == "overloaded"
    assert "try later" in error.message


@pytest.mark.parametrize(
    "character",
    ["\u001c", "\u001d", "\u001e", "\u001f", "\u0085", "\u180e", "\u200b"],
    ids=["U+001C", "U+001D", "U+001E", "U+001F", "U+0085", "U+180E", "U+200B"],
)
async def test_characters_python_strips_but_ecmascript_keeps_make_a_non_blank_id(
    character: str,
) -> None:
    records: list[Record] = [start(character), text(), end(character)]
    settled = await settle(
        FixtureProviderAdapter(fixture(records)).stream(REQUEST, AbortController().signal)
    )
    chunks, response = settled.events, settled.response

    assert len(chunks) == 1
    assert response.id == character


async def test_an_unknown_type_names_the_known_ones() -> None:
    error = await _play([{"type": "thinking"}])

    for known in ("response_start", "text_delta", "tool_call", "response_end", "transport_error"):
        assert known in error.message


async def test_a_missing_field_points_to_the_fixture_format() -> None:
    error = await _play([{"type": "response_start", "responseId": "r-1"}])

    assert error.code is Code.PROVIDER_INVALID_EVENT
    assert error.message.startswith("responses[0].records[0].role must be 'assistant', got missing")
    assert error.message.endswith("under 'Fixture format' in the course-provider-fixture README")
