"""The JSON codec on the rich values: one spelling each, strict reads, the seeds' JSON intact."""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from typing import Any

import pytest
from returns.result import Failure, Result, Success

from course_protocol import (
    JSON_MAX_DEPTH,
    CourseAssistantMessage,
    CourseDocumentBlock,
    CourseImageBlock,
    CourseModelRequest,
    CourseModelUsage,
    CourseOpaque,
    CourseReasoningBlock,
    CourseReasoningDeltaChunk,
    CourseStopReason,
    CourseTextBlock,
    CourseToolCall,
    CourseToolResultMessage,
    CourseUserMessage,
    CourseVendorToolBlock,
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
from tests.course_protocol import samples
from tests.course_protocol.hostile import DictThatCountsReads, ListThatCountsReads
from tests.nesting import nested_dicts

SIGNATURE = CourseOpaque("anthropic-messages", {"signature": "c2ln"})
PNG = b"\x89PNG\r\n\x1a\n"
PNG_BASE64 = "iVBORw0KGgo="


def failure_of(result: Result[Any, JsonError]) -> JsonError:
    assert isinstance(result, Failure), result
    error = result.failure()
    assert type(error) is JsonError
    return error


@pytest.mark.parametrize(
    ("value", "spelled"),
    [
        (CourseTextBlock("x"), {"type": "text", "text": "x"}),
        (
            CourseTextBlock("x", citations=(SIGNATURE,), opaque=CourseOpaque("gemini", {})),
            {
                "type": "text",
                "text": "x",
                "citations": [{"wire": "anthropic-messages", "data": {"signature": "c2ln"}}],
                "opaque": {"wire": "gemini", "data": {}},
            },
        ),
        (
            CourseToolCall("c", "add", {"left": [1]}, opaque=SIGNATURE),
            {
                "type": "toolCall",
                "id": "c",
                "name": "add",
                "arguments": {"left": [1]},
                "opaque": {"wire": "anthropic-messages", "data": {"signature": "c2ln"}},
            },
        ),
        (CourseReasoningBlock("think"), {"type": "reasoning", "text": "think"}),
        (
            CourseReasoningBlock("", opaque=SIGNATURE),
            {
                "type": "reasoning",
                "text": "",
                "opaque": {"wire": "anthropic-messages", "data": {"signature": "c2ln"}},
            },
        ),
        (
            CourseVendorToolBlock("server_tool_use", CourseOpaque("anthropic-messages", {"id": 1})),
            {
                "type": "vendorTool",
                "kind": "server_tool_use",
                "opaque": {"wire": "anthropic-messages", "data": {"id": 1}},
            },
        ),
        (
            CourseImageBlock("image/png", data=PNG),
            {"type": "image", "mediaType": "image/png", "data": PNG_BASE64},
        ),
        (
            CourseImageBlock("image/png", url="https://a.example/x.png"),
            {"type": "image", "mediaType": "image/png", "url": "https://a.example/x.png"},
        ),
        (
            CourseDocumentBlock("application/pdf", data=b"%PDF", title="Report"),
            {
                "type": "document",
                "mediaType": "application/pdf",
                "data": "JVBERg==",
                "title": "Report",
            },
        ),
        (
            CourseDocumentBlock("text/plain", url="http://a.example/r.txt"),
            {"type": "document", "mediaType": "text/plain", "url": "http://a.example/r.txt"},
        ),
        (
            CourseUserMessage(
                "u", (CourseTextBlock("Look:"), CourseImageBlock("image/gif", data=b"G"))
            ),
            {
                "role": "user",
                "id": "u",
                "content": [
                    {"type": "text", "text": "Look:"},
                    {"type": "image", "mediaType": "image/gif", "data": "Rw=="},
                ],
            },
        ),
        (
            CourseToolResultMessage("r", "c", "look", (CourseTextBlock("seen"),)),
            {
                "role": "toolResult",
                "id": "r",
                "toolCallId": "c",
                "toolName": "look",
                "content": [{"type": "text", "text": "seen"}],
                "isError": False,
            },
        ),
        (
            CourseReasoningDeltaChunk("request-1", "Hmm"),
            {"type": "reasoningDelta", "requestId": "request-1", "delta": "Hmm"},
        ),
        (
            CourseModelUsage(10, 5, cache_read_tokens=4, reasoning_tokens=0),
            {"inputTokens": 10, "outputTokens": 5, "cacheReadTokens": 4, "reasoningTokens": 0},
        ),
        (
            CourseModelUsage(10, 5, cache_write_tokens=10),
            {"inputTokens": 10, "outputTokens": 5, "cacheWriteTokens": 10},
        ),
    ],
    ids=lambda value: "" if isinstance(value, dict) else type(value).__name__,
)  # fmt: skip
def test_each_rich_value_is_spelled_in_the_course_vocabulary_and_reads_back(
    value: Any, spelled: dict[str, object]
) -> None:
    assert to_json(value) == spelled
    assert parser_for(value)(json.loads(json.dumps(spelled))) == Success(value)


def parser_for(value: object) -> Callable[[object], Result[Any, JsonError]]:
    if isinstance(value, CourseUserMessage | CourseToolResultMessage):
        return parse_message
    if isinstance(value, CourseReasoningDeltaChunk):
        return parse_chunk
    if isinstance(value, CourseModelUsage):
        return parse_usage
    return parse_content_block


@pytest.mark.parametrize("stop_reason", list(CourseStopReason))
def test_every_stop_reason_round_trips_by_its_value(stop_reason: CourseStopReason) -> None:
    response = samples.rich_response()
    document = to_json(response)
    assert isinstance(document, dict)
    document["stopReason"] = stop_reason.value

    parsed = parse_response(document)

    assert isinstance(parsed, Success)
    assert parsed.unwrap().stop_reason is stop_reason


def test_the_seeds_json_still_reads_as_it_did() -> None:
    seeds = {
        "id": "request-001",
        "messages": [
            {"role": "user", "id": "u-1", "content": "What is 20 + 22?"},
            {
                "role": "assistant",
                "id": "a-1",
                "content": [{"type": "toolCall", "id": "c", "name": "add", "arguments": {}}],
            },
            {
                "role": "toolResult",
                "id": "r-1",
                "toolCallId": "c",
                "toolName": "add",
                "content": "42",
                "isError": False,
            },
        ],
    }

    parsed = parse_request(seeds).unwrap()

    assert parsed.messages[0] == CourseUserMessage("u-1", "What is 20 + 22?")
    assert to_json(parsed) == seeds
    assert parse_usage({"inputTokens": 1, "outputTokens": 2}) == Success(CourseModelUsage(1, 2))


def request_with(block: dict[str, object], role: str = "user") -> dict[str, object]:
    message: dict[str, object] = {"role": role, "id": "m", "content": [block]}
    if role == "toolResult":
        message.update(toolCallId="c", toolName="n", isError=False)
    return {"id": "r", "messages": [message]}


_IMAGE: dict[str, object] = {"type": "image", "mediaType": "image/png", "data": PNG_BASE64}

_BAD_DOCUMENTS: list[tuple[str, dict[str, object], str, str]] = [
    ("reasoning-in-user-content", request_with({"type": "reasoning", "text": "x"}),
     "$.messages[0].content[0].type", "must be one of 'text', 'image', 'document'"),
    ("tool-call-in-a-tool-result", request_with(
     {"type": "toolCall", "id": "c", "name": "n", "arguments": {}}, "toolResult"),
     "$.messages[0].content[0].type", "must be one of 'text', 'image', 'document'"),
    ("image-in-assistant-content", request_with(_IMAGE, "assistant"),
     "$.messages[0].content[0].type", "must be one of 'text', 'toolCall', 'reasoning', "
     "'vendorTool'"),
    ("unknown-block-type", request_with({"type": "audio", "data": "AA=="}),
     "$.messages[0].content[0].type", "must be one of"),
    ("cited-text-in-user-content", request_with({"type": "text", "text": "x", "citations": [
     {"wire": "w", "data": {}}]}), "$.messages[0].content[0].citations",
     "only an answer has citations"),
    ("empty-user-blocks", {"id": "r", "messages": [{"role": "user", "id": "u", "content": []}]},
     "$.messages[0].content", "must hold at least one block"),
    ("user-content-object", {"id": "r", "messages": [{"role": "user", "id": "u", "content": {}}]},
     "$.messages[0].content", "must be a str or a JSON array of blocks, not frozendict"),
    ("base64-bad-character", request_with({**_IMAGE, "data": "iVBO*w0KGgo="}),
     "$.messages[0].content[0].data", "is not base64"),
    ("base64-bad-padding", request_with({**_IMAGE, "data": "iVBORw0KGgo"}),
     "$.messages[0].content[0].data", "is not base64"),
    ("base64-url-alphabet", request_with({**_IMAGE, "data": "-_8="}),
     "$.messages[0].content[0].data", "is not base64"),
    ("base64-non-canonical", request_with({**_IMAGE, "data": "QR=="}),
     "$.messages[0].content[0].data", "is not canonical base64"),
    ("base64-with-newline", request_with({**_IMAGE, "data": "iVBO\nRw0KGgo="}),
     "$.messages[0].content[0].data", "is not base64"),
    ("base64-empty", request_with({**_IMAGE, "data": ""}),
     "$.messages[0].content[0].data", "must not be empty"),
    ("base64-not-a-str", request_with({**_IMAGE, "data": [137, 80]}),
     "$.messages[0].content[0].data", "must be a base64 str, not tuple"),
    ("image-both-sources", request_with({**_IMAGE, "url": "https://a.b"}),
     "$.messages[0].content[0].url", "give exactly one of data"),
    ("image-media-type", request_with({**_IMAGE, "mediaType": "Image/PNG"}),
     "$.messages[0].content[0].mediaType", "lower-case"),
    ("image-unknown-field", request_with({**_IMAGE, "detail": "high"}),
     "$.messages[0].content[0].detail", "is not a field here"),
    ("document-null-title", request_with({"type": "document", "mediaType": "text/plain",
     "data": "eA==", "title": None}), "$.messages[0].content[0].title",
     "is left out when empty or absent"),
    ("opaque-without-wire", {"id": "r", "messages": [{"role": "assistant", "id": "a", "content": [
     {"type": "reasoning", "text": "", "opaque": {"data": {}}}]}]},
     "$.messages[0].content[0].opaque", "lacks the field 'wire'"),
    ("opaque-data-array", {"id": "r", "messages": [{"role": "assistant", "id": "a", "content": [
     {"type": "vendorTool", "kind": "k", "opaque": {"wire": "w", "data": [1]}}]}]},
     "$.messages[0].content[0].opaque.data", "must be a JSON object, not tuple"),
    ("opaque-blank-wire", {"id": "r", "messages": [{"role": "assistant", "id": "a", "content": [
     {"type": "toolCall", "id": "c", "name": "n", "arguments": {}, "opaque": {"wire": "",
     "data": {}}}]}]}, "$.messages[0].content[0].opaque.wire", "empty"),
    ("vendor-tool-without-opaque", {"id": "r", "messages": [{"role": "assistant", "id": "a",
     "content": [{"type": "vendorTool", "kind": "k"}]}]}, "$.messages[0].content[0]",
     "lacks the field 'opaque'"),
    ("empty-citations", {"id": "r", "messages": [{"role": "assistant", "id": "a", "content": [
     {"type": "text", "text": "x", "citations": []}]}]},
     "$.messages[0].content[0].citations", "never null or []"),
    ("citations-object", {"id": "r", "messages": [{"role": "assistant", "id": "a", "content": [
     {"type": "text", "text": "x", "citations": {"wire": "w", "data": {}}}]}]},
     "$.messages[0].content[0].citations", "must be a JSON array, not frozendict"),
    ("null-opaque", {"id": "r", "messages": [{"role": "assistant", "id": "a", "content": [
     {"type": "reasoning", "text": "x", "opaque": None}]}]},
     "$.messages[0].content[0].opaque", "never null or []"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("document", "path", "fragment"),
    [case[1:] for case in _BAD_DOCUMENTS],
    ids=[case[0] for case in _BAD_DOCUMENTS],
)
def test_bad_rich_documents_fail_at_their_json_path(
    document: dict[str, object], path: str, fragment: str
) -> None:
    error = failure_of(parse_request(document))

    assert error.code is JsonErrorCode.NOT_COURSE_JSON
    assert error.path == path
    assert fragment in error.message


@pytest.mark.parametrize(
    ("usage", "path", "fragment"),
    [
        ({"inputTokens": 1, "outputTokens": 1, "cacheReadTokens": None}, "$.cacheReadTokens",
         "never null"),
        ({"inputTokens": 1, "outputTokens": 1, "reasoningTokens": 2}, "$.reasoningTokens",
         "exceeds output_tokens"),
        ({"inputTokens": 1, "outputTokens": 1, "cacheWriteTokens": 1.5}, "$.cacheWriteTokens",
         "fraction"),
        ({"inputTokens": 1, "outputTokens": 1, "cachedTokens": 1}, "$.cachedTokens",
         "is not a field here"),
    ],
)  # fmt: skip
def test_bad_usage_parts_fail_at_their_camel_case_path(
    usage: dict[str, object], path: str, fragment: str
) -> None:
    error = failure_of(parse_usage(usage))

    assert error.path == path
    assert fragment in error.message


def test_a_reasoning_delta_needs_its_request_id() -> None:
    error = failure_of(parse_chunk({"type": "reasoningDelta", "requestId": " ", "delta": "x"}))

    assert error.path == "$.requestId"


def test_hostile_containers_around_rich_blocks_are_read_through_their_base_types() -> None:
    opaque = DictThatCountsReads(wire="w", data=DictThatCountsReads(signature="s"))
    block = DictThatCountsReads(type="reasoning", text="", opaque=opaque)
    content = ListThatCountsReads([block])
    message = DictThatCountsReads(role="assistant", id="a", content=content)

    parsed = parse_message(message)

    assert parsed == Success(
        CourseAssistantMessage(
            "a", (CourseReasoningBlock("", opaque=CourseOpaque("w", {"signature": "s"})),)
        )
    )
    assert message.calls == content.calls == block.calls == opaque.calls == []


def test_megabytes_of_image_data_round_trip_through_base64() -> None:
    data = bytes(range(256)) * 32_768  # 8 MiB
    image = CourseImageBlock("image/png", data=data)
    request = CourseModelRequest("r", (CourseUserMessage("u", (image,)),))

    document = to_json(request)
    text = json.dumps(document)

    assert len(text) > len(data) * 4 // 3
    parsed = parse_request(json.loads(text)).unwrap()
    first = parsed.messages[0].content[0]
    assert isinstance(first, CourseImageBlock)
    assert first.data == data
    assert base64.b64decode(document["messages"][0]["content"][0]["data"]) == data  # type: ignore[index]


def deep_citation_request(depth: int) -> dict[str, object]:
    citation = {"wire": "w", "data": nested_dicts(depth)}
    block = {"type": "text", "text": "x", "citations": [citation]}
    return {"id": "r", "messages": [{"role": "assistant", "id": "a", "content": [block]}]}


def test_a_citation_nested_to_the_json_limit_round_trips_inside_a_request() -> None:
    document = deep_citation_request(JSON_MAX_DEPTH)

    parsed = parse_request(document).unwrap()

    assert to_json(parsed) == document
    assert parse_request(json.loads(json.dumps(document))) == Success(parsed)


def test_a_citation_one_level_past_the_limit_is_refused_at_its_data() -> None:
    error = failure_of(parse_request(deep_citation_request(JSON_MAX_DEPTH + 1)))

    assert error.path.startswith("$.messages[0].content[0].citations[0].data")
