"""The course JSON codec: the seeds' camelCase vocabulary out, Results back in."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from returns.result import Failure, Result, Success

from course_protocol import (
    JSON_MAX_DEPTH,
    CourseAssistantMessage,
    CourseModelRequest,
    CourseModelResponse,
    CourseModelUsage,
    CourseProtocolError,
    CourseStopReason,
    CourseTextBlock,
    CourseTextDeltaChunk,
    CourseToolCall,
    CourseToolCallChunk,
    CourseToolResultMessage,
    CourseUserMessage,
    CourseValue,
    JsonError,
    JsonErrorCode,
    parse_chunk,
    parse_content_block,
    parse_message,
    parse_request,
    parse_response,
    parse_usage,
    to_json,
)
from tests.course_protocol import samples, strategies
from tests.course_protocol.hostile import DictThatCountsReads, ListThatCountsReads
from tests.nesting import nested_dicts


class TextBlockSubclass(CourseTextBlock):  # type: ignore[misc]
    """Not exactly a protocol type, so it has no course JSON form."""


def only_plain_json(value: object) -> bool:
    if type(value) is dict:
        return all(type(k) is str and only_plain_json(v) for k, v in value.items())
    if type(value) is list:
        return all(only_plain_json(item) for item in value)
    return type(value) in (str, int, float, bool) or value is None


def round_trip_tool_call_response() -> CourseModelResponse:
    call = CourseToolCall("call-add-001", "add", {"left": 20, "right": 22})
    return CourseModelResponse(
        "response-tool-001",
        "request-001",
        CourseAssistantMessage("message-response-tool-001", (call,)),
        CourseStopReason.TOOL_CALL,
        CourseModelUsage(12, 8),
    )


def test_a_tool_call_response_is_spelled_as_the_seeds_spell_it() -> None:
    assert to_json(round_trip_tool_call_response()) == {
        "id": "response-tool-001",
        "requestId": "request-001",
        "message": {
            "role": "assistant",
            "id": "message-response-tool-001",
            "content": [
                {
                    "type": "toolCall",
                    "id": "call-add-001",
                    "name": "add",
                    "arguments": {"left": 20, "right": 22},
                }
            ],
        },
        "stopReason": "toolCall",
        "usage": {"inputTokens": 12, "outputTokens": 8},
    }


def test_chunks_carry_their_type_and_request_id() -> None:
    call = CourseToolCall("call-1", "add", {})
    assert to_json(CourseTextDeltaChunk("request-1", "The sum")) == {
        "type": "textDelta",
        "requestId": "request-1",
        "delta": "The sum",
    }
    assert to_json(CourseToolCallChunk("request-1", call)) == {
        "type": "toolCall",
        "requestId": "request-1",
        "toolCall": {"type": "toolCall", "id": "call-1", "name": "add", "arguments": {}},
    }


def test_messages_carry_their_role() -> None:
    assert to_json(CourseUserMessage("u-1", "hi")) == {"role": "user", "id": "u-1", "content": "hi"}
    assert to_json(CourseAssistantMessage("a-1", (CourseTextBlock("x"),))) == {
        "role": "assistant",
        "id": "a-1",
        "content": [{"type": "text", "text": "x"}],
    }
    assert to_json(CourseToolResultMessage("r-1", "call-1", "add", "42")) == {
        "role": "toolResult",
        "id": "r-1",
        "toolCallId": "call-1",
        "toolName": "add",
        "content": "42",
        "isError": False,
    }


def test_a_request_holds_its_messages_in_order() -> None:
    document = to_json(samples.request())
    assert isinstance(document, dict)
    assert document["id"] == "request-1"
    assert [message["role"] for message in document["messages"]] == [
        "user",
        "assistant",
        "toolResult",
    ]


@pytest.mark.parametrize("value", samples.every_value(), ids=samples.EVERY_VALUE_ID)
def test_to_json_gives_fresh_plain_dicts_and_lists_only(value: CourseValue) -> None:
    document = to_json(value)
    assert only_plain_json(document)
    assert json.loads(json.dumps(document)) == document
    assert to_json(value) is not document


@pytest.mark.parametrize(
    "value",
    [TextBlockSubclass("x"), {"type": "text", "text": "x"}, CourseStopReason.STOP, None],
    ids=lambda value: type(value).__name__,
)
def test_to_json_rejects_anything_but_exact_protocol_values(value: object) -> None:
    with pytest.raises(TypeError, match="to_json takes a course protocol value"):
        to_json(value)  # type: ignore[arg-type]


def failure_of(result: Result[Any, JsonError]) -> JsonError:
    assert isinstance(result, Failure), result
    error = result.failure()
    assert type(error) is JsonError
    return error


def response_json(**changes: object) -> dict[str, Any]:
    document = to_json(round_trip_tool_call_response())
    assert isinstance(document, dict)
    document.update(changes)
    return document


def test_a_missing_field_is_named_at_its_object() -> None:
    document = response_json()
    del document["usage"]
    assert failure_of(parse_response(document)) == JsonError(
        JsonErrorCode.NOT_COURSE_JSON, "$", "lacks the field 'usage'"
    )


def test_an_unknown_field_is_rejected_at_its_own_path() -> None:
    document = response_json()
    document["message"]["content"][0]["extra key"] = 1
    error = failure_of(parse_response(document))
    assert error.path == '$.message.content[0]["extra key"]'
    assert error.message == "is not a field here"


_STOP_REASONS = "must be one of 'stop', 'toolCall', 'length', 'refusal', 'pauseTurn'"


@pytest.mark.parametrize(
    ("change", "path", "fragment"),
    [
        ({"stopReason": "tool_call"}, "$.stopReason", _STOP_REASONS),
        ({"stopReason": None}, "$.stopReason", _STOP_REASONS),
        ({"stopReason": "max_tokens"}, "$.stopReason", _STOP_REASONS),
        ({"usage": {"inputTokens": True, "outputTokens": 1}}, "$.usage.inputTokens", "bool"),
        ({"usage": {"inputTokens": 1, "outputTokens": 1.5}}, "$.usage.outputTokens", "fraction"),
        ({"usage": {"inputTokens": -1, "outputTokens": 1}}, "$.usage.inputTokens", "between"),
        ({"usage": [1, 1]}, "$.usage", "must be a JSON object, not tuple"),
        ({"requestId": " "}, "$.requestId", "empty"),
        ({"id": 7}, "$.id", "must be a str, not int"),
        ({"message": {"role": "user", "id": "u", "content": "x"}}, "$.message.role", "assistant"),
        ({"message": {"role": "robot"}}, "$.message.role", "must be one of"),
        ({"message": {"role": "assistant", "id": "m", "content": {}}}, "$.message.content",
         "must be a JSON array"),
        ({"message": {"role": "assistant", "id": "m", "content": [{"type": "image"}]}},
         "$.message.content[0].type", "must be one of 'text', 'toolCall'"),
        ({"message": {"role": "assistant", "id": "m", "content": [
            {"type": "toolCall", "id": "c", "name": "", "arguments": {}}]}},
         "$.message.content[0].name", "empty"),
        ({"message": {"role": "assistant", "id": "m", "content": [
            {"type": "toolCall", "id": "c", "name": "n", "arguments": [1]}]}},
         "$.message.content[0].arguments", "must be a JSON object, not tuple"),
        ({"message": {"role": "assistant", "id": "m", "content": [
            {"type": "toolCall", "id": "c", "name": "n", "arguments": {"x": [math.inf]}}]}},
         "$.message.content[0].arguments.x[0]", "finite"),
    ],
)  # fmt: skip
def test_bad_fields_fail_with_their_json_path(
    change: dict[str, object], path: str, fragment: str
) -> None:
    error = failure_of(parse_response(response_json(**change)))
    assert error.path == path
    assert fragment in error.message


def test_a_tool_result_needs_a_bool_is_error_at_its_camel_case_path() -> None:
    document = to_json(CourseToolResultMessage("r", "c", "add", "42"))
    assert isinstance(document, dict)
    document["isError"] = "no"
    assert failure_of(parse_message(document)) == JsonError(
        JsonErrorCode.NOT_COURSE_JSON, "$.isError", "must be a bool, not str"
    )
    document["isError"] = True
    document["toolCallId"] = ""
    assert failure_of(parse_message(document)).path == "$.toolCallId"


def test_a_tool_call_chunk_needs_a_tool_call_block() -> None:
    document = {"type": "toolCall", "requestId": "r", "toolCall": {"type": "text", "text": "x"}}
    assert failure_of(parse_chunk(document)) == JsonError(
        JsonErrorCode.NOT_COURSE_JSON, "$.toolCall.type", "must be one of 'toolCall'"
    )


def test_a_request_reports_the_index_of_a_bad_message() -> None:
    document = {"id": "r", "messages": [{"role": "user", "id": "u", "content": "x"}, "hi"]}
    assert failure_of(parse_request(document)).path == "$.messages[1]"


def test_input_that_is_not_json_fails_with_the_freeze_path() -> None:
    looping: dict[str, object] = {"id": "r"}
    looping["messages"] = [looping]
    error = failure_of(parse_request(looping))
    assert error.path == "$.messages[0]"
    assert "cycle" in error.message
    assert failure_of(parse_usage(object())).message == "has unsupported type object"
    assert failure_of(parse_usage(None)).message == "must be a JSON object, not NoneType"


def test_hostile_containers_are_read_through_their_base_types() -> None:
    message = DictThatCountsReads(role="user", id="u", content="x")
    messages = ListThatCountsReads([message])
    document = DictThatCountsReads(id="r", messages=messages)
    assert parse_request(document) == Success(
        CourseModelRequest("r", (CourseUserMessage("u", "x"),))
    )
    assert document.calls == messages.calls == message.calls == []


_ROUND_TRIPS: list[tuple[st.SearchStrategy[Any], Callable[[object], Result[Any, Any]]]] = [
    (strategies.content_blocks, parse_content_block),
    (strategies.messages, parse_message),
    (strategies.requests, parse_request),
    (strategies.chunks, parse_chunk),
    (strategies.usages, parse_usage),
    (strategies.responses, parse_response),
    (strategies.rich_content_blocks, parse_content_block),
    (strategies.rich_messages, parse_message),
    (strategies.rich_requests, parse_request),
    (strategies.rich_chunks, parse_chunk),
    (strategies.rich_usages(), parse_usage),
    (strategies.rich_responses, parse_response),
]


@pytest.mark.parametrize(
    ("strategy", "parse"),
    _ROUND_TRIPS,
    ids=[f"{parse.__name__}-{kind}" for kind in ("seeds", "rich") for _, parse in _ROUND_TRIPS[:6]],
)
def test_parsing_what_to_json_wrote_gives_back_an_equal_value(
    strategy: st.SearchStrategy[CourseValue], parse: Callable[[object], Result[Any, Any]]
) -> None:
    @settings(max_examples=100, deadline=None)
    @given(strategy)
    def round_trip(value: CourseValue) -> None:
        document = to_json(value)
        assert parse(document) == Success(value)
        assert parse(json.loads(json.dumps(document))) == Success(value)

    round_trip()


def deepest_values(depth: int) -> list[CourseValue]:
    call = CourseToolCall("call-1", "deep", nested_dicts(depth))
    assistant = CourseAssistantMessage("m-1", (call,))
    return [
        call,
        CourseToolCallChunk("r-1", call),
        assistant,
        CourseModelRequest("r-1", (CourseUserMessage("u-1", "Hi"), assistant)),
        CourseModelResponse(
            "resp-1", "r-1", assistant, CourseStopReason.TOOL_CALL, CourseModelUsage(1, 2)
        ),
    ]


PARSERS: dict[type, Callable[[object], Result[Any, JsonError]]] = {
    CourseToolCall: parse_content_block,
    CourseToolCallChunk: parse_chunk,
    CourseAssistantMessage: parse_message,
    CourseModelRequest: parse_request,
    CourseModelResponse: parse_response,
}


@pytest.mark.parametrize("value", deepest_values(JSON_MAX_DEPTH), ids=lambda v: type(v).__name__)
def test_values_whose_arguments_nest_to_the_limit_round_trip_through_json(
    value: CourseValue,
) -> None:
    assert PARSERS[type(value)](to_json(value)) == Success(value)
    assert PARSERS[type(value)](json.loads(json.dumps(to_json(value)))) == Success(value)


def test_arguments_one_level_past_the_limit_are_refused_inside_any_envelope() -> None:
    with pytest.raises(CourseProtocolError):
        CourseToolCall("call-1", "deep", nested_dicts(JSON_MAX_DEPTH + 1))
    envelope = to_json(CourseToolCallChunk("r-1", CourseToolCall("c", "n", {})))
    assert isinstance(envelope, dict)
    envelope["toolCall"]["arguments"] = nested_dicts(JSON_MAX_DEPTH + 1)

    parsed = parse_chunk(envelope)

    assert isinstance(parsed, Failure)
    assert parsed.failure().path.startswith("$.toolCall.arguments")
