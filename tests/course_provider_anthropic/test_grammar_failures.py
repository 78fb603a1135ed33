"""Every way a body falls off the Messages API grammar: one case per rule, with its code and place.

Each case fails in the grammar alone (the strict check of a recording) and,
the same error at the same event, through the mapping (the model's path),
after the chunks made before it.
"""

from __future__ import annotations

import pytest

from course_http import SseEvent, VendorErrorCode
from tests.course_provider_anthropic.bodies import (
    CITATIONS,
    block_start,
    block_stop,
    delta,
    error_event,
    event,
    failure,
    json_delta,
    message_delta,
    message_start,
    message_stop,
    ping,
    raw,
    refused,
    result_start,
    server_tool_start,
    signature_delta,
    text_delta,
    text_start,
    thinking_start,
    tool_start,
)

C = VendorErrorCode
GRAMMAR_CODES = {
    C.VENDOR_INVALID_EVENT,
    C.VENDOR_UNKNOWN_EVENT,
    C.VENDOR_EVENT_ORDER,
    C.VENDOR_INVALID_TOOL_ARGUMENTS,
    C.VENDOR_MISSING_TERMINAL,
}
"""Every code the grammar raises; the mapping's own are in test_mapping_failures."""
START = message_start()
TEXT_OPEN = [START, text_start(0)]
TOOL_OPEN = [START, tool_start(0, "toolu_01A", "add")]
CLOSED = [START, text_start(0), text_delta(0, "hi"), block_stop(0)]
DONE = [*CLOSED, message_delta(), message_stop()]


def start_with(**message: object) -> SseEvent:
    body = {"id": "msg_1", "role": "assistant", "content": [], "usage": {"input_tokens": 1}}
    return event({"type": "message_start", "message": {**body, **message}})


def start_usage(**usage: object) -> SseEvent:
    return start_with(usage=usage)


def stop_reason_delta(reason: object, **details: object) -> SseEvent:
    body = {"stop_reason": reason, **details}
    return event({"type": "message_delta", "delta": body, "usage": {"output_tokens": 3}})


def usage_delta(**usage: object) -> SseEvent:
    return event({"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": usage})


def start_of(index: object, block: object) -> SseEvent:
    return event({"type": "content_block_start", "index": index, "content_block": block})


def stop_of(index: object) -> SseEvent:
    return event({"type": "content_block_stop", "index": index})


CASES = [
    # Data and names.
    ("data-not-json", [raw("ping", "not json")], C.VENDOR_INVALID_EVENT, 0, 0),
    ("data-an-array", [raw("ping", '["ping"]')], C.VENDOR_INVALID_EVENT, 0, 0),
    ("data-with-nan", [raw("ping", '{"type":"ping","x":NaN}')], C.VENDOR_INVALID_EVENT, 0, 0),
    ("data-empty", [raw("ping", "")], C.VENDOR_INVALID_EVENT, 0, 0),
    ("type-missing", [raw("ping", "{}")], C.VENDOR_INVALID_EVENT, 0, 0),
    ("type-not-a-string", [raw("ping", '{"type":7}')], C.VENDOR_INVALID_EVENT, 0, 0),
    ("type-an-object", [raw("ping", '{"type":{"a":1}}')], C.VENDOR_INVALID_EVENT, 0, 0),
    ("name-differs", [raw("ping", '{"type":"message_stop"}')], C.VENDOR_INVALID_EVENT, 0, 0),
    ("name-missing", [raw("message", '{"type":"ping"}')], C.VENDOR_INVALID_EVENT, 0, 0),
    ("name-case", [raw("Ping", '{"type":"ping"}')], C.VENDOR_INVALID_EVENT, 0, 0),
    ("unknown-event", [START, raw("x_new", '{"type":"x_new"}')], C.VENDOR_UNKNOWN_EVENT, 1, 0),
    ("unknown-first", [raw("x_new", '{"type":"x_new"}')], C.VENDOR_UNKNOWN_EVENT, 0, 0),
    # message_start.
    ("start-twice", [START, START], C.VENDOR_EVENT_ORDER, 1, 0),
    ("start-message-missing", [event({"type": "message_start"})], C.VENDOR_INVALID_EVENT, 0, 0),
    ("start-id-missing", [start_with(id=None)], C.VENDOR_INVALID_EVENT, 0, 0),
    ("start-id-blank", [start_with(id=" \t")], C.VENDOR_INVALID_EVENT, 0, 0),
    ("start-id-number", [start_with(id=12)], C.VENDOR_INVALID_EVENT, 0, 0),
    ("start-role-user", [start_with(role="user")], C.VENDOR_INVALID_EVENT, 0, 0),
    ("start-role-missing", [start_with(role=None)], C.VENDOR_INVALID_EVENT, 0, 0),
    ("start-content-kept", [start_with(content=[{"type": "text"}])], C.VENDOR_INVALID_EVENT, 0, 0),
    ("start-content-null", [start_with(content=None)], C.VENDOR_INVALID_EVENT, 0, 0),
    ("start-usage-missing", [start_with(usage=None)], C.VENDOR_INVALID_EVENT, 0, 0),
    ("start-input-missing", [start_usage(output_tokens=1)], C.VENDOR_INVALID_EVENT, 0, 0),
    ("start-input-negative", [start_usage(input_tokens=-1)], C.VENDOR_INVALID_EVENT, 0, 0),
    ("start-input-bool", [start_usage(input_tokens=True)], C.VENDOR_INVALID_EVENT, 0, 0),
    ("start-input-float", [start_usage(input_tokens=1.0)], C.VENDOR_INVALID_EVENT, 0, 0),
    ("start-input-huge", [start_usage(input_tokens=2**53)], C.VENDOR_INVALID_EVENT, 0, 0),
    (
        "start-cache-string",
        [start_usage(input_tokens=1, cache_read_input_tokens="3")],
        C.VENDOR_INVALID_EVENT,
        0,
        0,
    ),
    (
        "start-output-placeholder-bad",
        [start_usage(input_tokens=1, output_tokens="1")],
        C.VENDOR_INVALID_EVENT,
        0,
        0,
    ),
    # Before message_start: only ping and error are in place.
    ("block-start-first", [text_start(0)], C.VENDOR_EVENT_ORDER, 0, 0),
    ("block-delta-first", [ping(), text_delta(0, "x")], C.VENDOR_EVENT_ORDER, 1, 0),
    ("block-stop-first", [block_stop(0)], C.VENDOR_EVENT_ORDER, 0, 0),
    ("message-delta-first", [message_delta()], C.VENDOR_EVENT_ORDER, 0, 0),
    ("message-stop-first", [message_stop()], C.VENDOR_EVENT_ORDER, 0, 0),
    # content_block_start.
    ("block-index-gap", [START, text_start(1)], C.VENDOR_EVENT_ORDER, 1, 0),
    ("block-started-twice-open", [*TEXT_OPEN, text_start(0)], C.VENDOR_EVENT_ORDER, 2, 0),
    ("block-started-again-later", [*CLOSED, text_start(0)], C.VENDOR_EVENT_ORDER, 4, 1),
    (
        "block-index-missing",
        [START, start_of(None, {"type": "text", "text": ""})],
        C.VENDOR_INVALID_EVENT,
        1,
        0,
    ),
    (
        "block-index-negative",
        [START, start_of(-1, {"type": "text", "text": ""})],
        C.VENDOR_INVALID_EVENT,
        1,
        0,
    ),
    (
        "block-index-bool",
        [START, start_of(False, {"type": "text", "text": ""})],
        C.VENDOR_INVALID_EVENT,
        1,
        0,
    ),
    (
        "block-index-float",
        [START, start_of(0.0, {"type": "text", "text": ""})],
        C.VENDOR_INVALID_EVENT,
        1,
        0,
    ),
    (
        "block-index-string",
        [START, start_of("0", {"type": "text", "text": ""})],
        C.VENDOR_INVALID_EVENT,
        1,
        0,
    ),
    ("block-missing", [START, start_of(0, None)], C.VENDOR_INVALID_EVENT, 1, 0),
    ("block-type-missing", [START, start_of(0, {"text": ""})], C.VENDOR_INVALID_EVENT, 1, 0),
    ("block-unknown-type", [START, start_of(0, {"type": "image"})], C.VENDOR_UNKNOWN_EVENT, 1, 0),
    (
        "text-start-text-null",
        [START, start_of(0, {"type": "text", "text": None})],
        C.VENDOR_INVALID_EVENT,
        1,
        0,
    ),
    (
        "text-start-text-missing",
        [START, start_of(0, {"type": "text"})],
        C.VENDOR_INVALID_EVENT,
        1,
        0,
    ),
    (
        "tool-id-blank",
        [START, block_start(0, {"type": "tool_use", "id": " ", "name": "add", "input": {}})],
        C.VENDOR_INVALID_EVENT,
        1,
        0,
    ),
    (
        "tool-name-missing",
        [START, block_start(0, {"type": "tool_use", "id": "toolu_1", "input": {}})],
        C.VENDOR_INVALID_EVENT,
        1,
        0,
    ),
    (
        "tool-input-given-then-a-fragment",
        [
            START,
            block_start(0, {"type": "tool_use", "id": "t", "name": "a", "input": {"x": 1}}),
            json_delta(0, '{"x": 2}'),
        ],
        C.VENDOR_INVALID_EVENT,
        2,
        0,
    ),
    (
        "tool-input-null",
        [START, block_start(0, {"type": "tool_use", "id": "t", "name": "a", "input": None})],
        C.VENDOR_INVALID_EVENT,
        1,
        0,
    ),
    (
        "tool-input-missing",
        [START, block_start(0, {"type": "tool_use", "id": "t", "name": "a"})],
        C.VENDOR_INVALID_EVENT,
        1,
        0,
    ),
    (
        "tool-id-repeated",
        [*TOOL_OPEN, block_stop(0), tool_start(1, "toolu_01A", "add")],
        C.VENDOR_INVALID_EVENT,
        3,
        1,
    ),
    (
        "block-after-message-delta",
        [*CLOSED, message_delta(), text_start(1)],
        C.VENDOR_EVENT_ORDER,
        5,
        1,
    ),
    # content_block_delta.
    ("delta-never-started", [*TEXT_OPEN, text_delta(1, "x")], C.VENDOR_EVENT_ORDER, 2, 0),
    ("delta-after-stop", [*CLOSED, text_delta(0, "x")], C.VENDOR_EVENT_ORDER, 4, 1),
    (
        "delta-index-bool",
        [*CLOSED, text_start(1), delta(True, {"type": "text_delta", "text": "x"})],
        C.VENDOR_INVALID_EVENT,
        5,
        1,
    ),
    (
        "delta-missing",
        [*TEXT_OPEN, event({"type": "content_block_delta", "index": 0})],
        C.VENDOR_INVALID_EVENT,
        2,
        0,
    ),
    ("delta-type-missing", [*TEXT_OPEN, delta(0, {"text": "x"})], C.VENDOR_INVALID_EVENT, 2, 0),
    (
        "delta-text-null",
        [*TEXT_OPEN, delta(0, {"type": "text_delta", "text": None})],
        C.VENDOR_INVALID_EVENT,
        2,
        0,
    ),
    (
        "delta-text-number",
        [*TEXT_OPEN, delta(0, {"type": "text_delta", "text": 1})],
        C.VENDOR_INVALID_EVENT,
        2,
        0,
    ),
    ("delta-json-in-text", [*TEXT_OPEN, json_delta(0, "{}")], C.VENDOR_INVALID_EVENT, 2, 0),
    (
        "delta-thinking-in-text",
        [*TEXT_OPEN, delta(0, {"type": "thinking_delta", "thinking": "x"})],
        C.VENDOR_INVALID_EVENT,
        2,
        0,
    ),
    ("delta-text-in-tool", [*TOOL_OPEN, text_delta(0, "x")], C.VENDOR_INVALID_EVENT, 2, 0),
    (
        "delta-citation-in-tool",
        [*TOOL_OPEN, delta(0, {"type": "citations_delta", "citation": {}})],
        C.VENDOR_INVALID_EVENT,
        2,
        0,
    ),
    (
        "delta-partial-json-null",
        [*TOOL_OPEN, delta(0, {"type": "input_json_delta", "partial_json": None})],
        C.VENDOR_INVALID_EVENT,
        2,
        0,
    ),
    (
        "delta-unknown-type",
        [*TEXT_OPEN, delta(0, {"type": "audio_delta", "audio": "x"})],
        C.VENDOR_UNKNOWN_EVENT,
        2,
        0,
    ),
    (
        "citation-not-an-object",
        [*TEXT_OPEN, delta(0, {"type": "citations_delta", "citation": "x"})],
        C.VENDOR_INVALID_EVENT,
        2,
        0,
    ),
    (
        "thinking-delta-not-text",
        [
            START,
            block_start(0, {"type": "thinking", "thinking": "", "signature": ""}),
            delta(0, {"type": "thinking_delta", "thinking": 3}),
        ],
        C.VENDOR_INVALID_EVENT,
        2,
        0,
    ),
    (
        "signature-not-text",
        [
            START,
            block_start(0, {"type": "thinking", "thinking": "", "signature": ""}),
            delta(0, {"type": "signature_delta"}),
        ],
        C.VENDOR_INVALID_EVENT,
        2,
        0,
    ),
    (
        "any-delta-in-redacted-thinking",
        [
            START,
            block_start(0, {"type": "redacted_thinking", "data": "x"}),
            delta(0, {"type": "thinking_delta", "thinking": "x"}),
        ],
        C.VENDOR_INVALID_EVENT,
        2,
        0,
    ),
    # content_block_stop.
    ("stop-never-started", [*CLOSED, block_stop(1)], C.VENDOR_EVENT_ORDER, 4, 1),
    ("stop-twice", [*CLOSED, block_stop(0)], C.VENDOR_EVENT_ORDER, 4, 1),
    ("stop-index-missing", [*TEXT_OPEN, stop_of(None)], C.VENDOR_INVALID_EVENT, 2, 0),
    ("stop-index-huge", [*TEXT_OPEN, stop_of(10**30)], C.VENDOR_EVENT_ORDER, 2, 0),
    # message_delta and message_stop.
    (
        "message-delta-while-open",
        [*TEXT_OPEN, text_delta(0, "x"), message_delta()],
        C.VENDOR_EVENT_ORDER,
        3,
        1,
    ),
    (
        "message-delta-delta-missing",
        [*CLOSED, event({"type": "message_delta", "usage": {"output_tokens": 1}})],
        C.VENDOR_INVALID_EVENT,
        4,
        1,
    ),
    ("stop-reason-number", [*CLOSED, stop_reason_delta(3)], C.VENDOR_INVALID_EVENT, 4, 1),
    ("stop-reason-blank", [*CLOSED, stop_reason_delta("")], C.VENDOR_INVALID_EVENT, 4, 1),
    (
        "message-delta-usage-missing",
        [*CLOSED, event({"type": "message_delta", "delta": {"stop_reason": "end_turn"}})],
        C.VENDOR_INVALID_EVENT,
        4,
        1,
    ),
    ("output-missing", [*CLOSED, usage_delta(input_tokens=3)], C.VENDOR_INVALID_EVENT, 4, 1),
    ("output-null", [*CLOSED, usage_delta(output_tokens=None)], C.VENDOR_INVALID_EVENT, 4, 1),
    (
        "output-goes-down",
        [*CLOSED, message_delta(None, 9), message_delta("end_turn", 8)],
        C.VENDOR_INVALID_EVENT,
        5,
        1,
    ),
    (
        "input-repeat-bad",
        [*CLOSED, usage_delta(output_tokens=1, input_tokens="3")],
        C.VENDOR_INVALID_EVENT,
        4,
        1,
    ),
    ("message-stop-before-delta", [*CLOSED, message_stop()], C.VENDOR_EVENT_ORDER, 4, 1),
    (
        "no-stop-reason-ever",
        [*CLOSED, message_delta(None), message_stop()],
        C.VENDOR_INVALID_EVENT,
        5,
        1,
    ),
    # Nothing after message_stop.
    ("ping-after-stop", [*DONE, ping()], C.VENDOR_EVENT_ORDER, 6, 1),
    ("stop-after-stop", [*DONE, message_stop()], C.VENDOR_EVENT_ORDER, 6, 1),
    ("delta-after-stop-event", [*DONE, text_delta(0, "x")], C.VENDOR_EVENT_ORDER, 6, 1),
    ("error-after-stop", [*DONE, error_event()], C.VENDOR_EVENT_ORDER, 6, 1),
    ("unknown-after-stop", [*DONE, raw("x_new", '{"type":"x_new"}')], C.VENDOR_EVENT_ORDER, 6, 1),
    ("garbage-after-stop", [*DONE, raw("ping", "{")], C.VENDOR_INVALID_EVENT, 6, 1),
    # The vendor's own error event.
    ("error-after-error", [error_event(), error_event()], C.VENDOR_EVENT_ORDER, 1, 0),
    ("stop-after-error", [START, error_event(), message_stop()], C.VENDOR_EVENT_ORDER, 2, 0),
    (
        "error-not-an-object",
        [event({"type": "error", "error": "Overloaded"})],
        C.VENDOR_INVALID_EVENT,
        0,
        0,
    ),
    (
        "error-type-blank",
        [event({"type": "error", "error": {"type": "", "message": "m"}})],
        C.VENDOR_INVALID_EVENT,
        0,
        0,
    ),
    (
        "error-message-missing",
        [event({"type": "error", "error": {"type": "api_error"}})],
        C.VENDOR_INVALID_EVENT,
        0,
        0,
    ),
    # Tool arguments.
    (
        "arguments-cut",
        [*TOOL_OPEN, json_delta(0, '{"a":'), block_stop(0)],
        C.VENDOR_INVALID_TOOL_ARGUMENTS,
        3,
        0,
    ),
    (
        "arguments-an-array",
        [*TOOL_OPEN, json_delta(0, "[1]"), block_stop(0)],
        C.VENDOR_INVALID_TOOL_ARGUMENTS,
        3,
        0,
    ),
    (
        "arguments-null",
        [*TOOL_OPEN, json_delta(0, "null"), block_stop(0)],
        C.VENDOR_INVALID_TOOL_ARGUMENTS,
        3,
        0,
    ),
    (
        "arguments-nan",
        [*TOOL_OPEN, json_delta(0, '{"a":NaN}'), block_stop(0)],
        C.VENDOR_INVALID_TOOL_ARGUMENTS,
        3,
        0,
    ),
    (
        "arguments-too-deep",
        [*TOOL_OPEN, json_delta(0, '{"a":' + "[" * 80 + "]" * 80 + "}"), block_stop(0)],
        C.VENDOR_INVALID_TOOL_ARGUMENTS,
        3,
        0,
    ),
    # message_start: the other fields.
    ("start-type-other", [start_with(type="completion")], C.VENDOR_INVALID_EVENT, 0, 0),
    ("start-stop-reason-set", [start_with(stop_reason="end_turn")], C.VENDOR_INVALID_EVENT, 0, 0),
    ("start-model-number", [start_with(model=4)], C.VENDOR_INVALID_EVENT, 0, 0),
    (
        "start-usage-tier-number",
        [start_usage(input_tokens=1, service_tier=1)],
        C.VENDOR_INVALID_EVENT,
        0,
        0,
    ),
    (
        "start-cache-creation-not-counts",
        [start_usage(input_tokens=1, cache_creation={"ephemeral_5m_input_tokens": "3"})],
        C.VENDOR_INVALID_EVENT,
        0,
        0,
    ),
    (
        "start-server-tool-use-an-array",
        [start_usage(input_tokens=1, server_tool_use=[1])],
        C.VENDOR_INVALID_EVENT,
        0,
        0,
    ),
    (
        "start-output-details-negative",
        [start_usage(input_tokens=1, output_tokens_details={"thinking_tokens": -1})],
        C.VENDOR_INVALID_EVENT,
        0,
        0,
    ),
    (
        "start-iterations-not-objects",
        [start_usage(input_tokens=1, iterations=[3])],
        C.VENDOR_INVALID_EVENT,
        0,
        0,
    ),
    # The blocks of Tools the vendor runs, and the others with a checked envelope.
    (
        "server-tool-id-blank",
        [START, server_tool_start(0, " ")],
        C.VENDOR_INVALID_EVENT,
        1,
        0,
    ),
    (
        "server-tool-input-an-array",
        [START, server_tool_start(0, "srvtoolu_1", input=[])],
        C.VENDOR_INVALID_EVENT,
        1,
        0,
    ),
    (
        "server-tool-id-repeated",
        [START, tool_start(0, "same", "add"), block_stop(0), server_tool_start(1, "same")],
        C.VENDOR_INVALID_EVENT,
        3,
        1,
    ),
    (
        "caller-without-type",
        [START, server_tool_start(0, "srvtoolu_1", caller={})],
        C.VENDOR_INVALID_EVENT,
        1,
        0,
    ),
    (
        "caller-a-string",
        [
            START,
            block_start(
                0, {"type": "tool_use", "id": "t", "name": "a", "input": {}, "caller": "direct"}
            ),
        ],
        C.VENDOR_INVALID_EVENT,
        1,
        0,
    ),
    (
        "mcp-server-name-missing",
        [START, block_start(0, {"type": "mcp_tool_use", "id": "m", "name": "n", "input": {}})],
        C.VENDOR_INVALID_EVENT,
        1,
        0,
    ),
    (
        "result-tool-use-id-missing",
        [START, block_start(0, {"type": "web_fetch_tool_result", "content": {}})],
        C.VENDOR_INVALID_EVENT,
        1,
        0,
    ),
    (
        "result-content-missing",
        [START, block_start(0, {"type": "code_execution_tool_result", "tool_use_id": "s"})],
        C.VENDOR_INVALID_EVENT,
        1,
        0,
    ),
    (
        "web-search-content-a-string",
        [START, result_start(0, "web_search_tool_result", "s", "results")],
        C.VENDOR_INVALID_EVENT,
        1,
        0,
    ),
    (
        "mcp-result-is-error-missing",
        [START, result_start(0, "mcp_tool_result", "m", "ok")],
        C.VENDOR_INVALID_EVENT,
        1,
        0,
    ),
    (
        "mcp-result-content-an-object",
        [START, result_start(0, "mcp_tool_result", "m", {}, is_error=False)],
        C.VENDOR_INVALID_EVENT,
        1,
        0,
    ),
    (
        "container-upload-file-id-blank",
        [START, block_start(0, {"type": "container_upload", "file_id": ""})],
        C.VENDOR_INVALID_EVENT,
        1,
        0,
    ),
    (
        "fallback-to-missing",
        [START, block_start(0, {"type": "fallback", "from": {"model": "claude-a"}})],
        C.VENDOR_INVALID_EVENT,
        1,
        0,
    ),
    (
        "redacted-data-missing",
        [START, block_start(0, {"type": "redacted_thinking"})],
        C.VENDOR_INVALID_EVENT,
        1,
        0,
    ),
    (
        "thinking-signature-missing",
        [START, block_start(0, {"type": "thinking", "thinking": ""})],
        C.VENDOR_INVALID_EVENT,
        1,
        0,
    ),
    (
        "compaction-content-a-number",
        [START, block_start(0, {"type": "compaction", "content": 3})],
        C.VENDOR_INVALID_EVENT,
        1,
        0,
    ),
    (
        "compaction-delta-content-a-number",
        [
            START,
            block_start(0, {"type": "compaction"}),
            delta(0, {"type": "compaction_delta", "content": 3}),
        ],
        C.VENDOR_INVALID_EVENT,
        2,
        0,
    ),
    (
        "compaction-delta-in-text",
        [*TEXT_OPEN, delta(0, {"type": "compaction_delta", "content": "x"})],
        C.VENDOR_INVALID_EVENT,
        2,
        0,
    ),
    ("signature-in-text", [*TEXT_OPEN, signature_delta(0, "c2ln")], C.VENDOR_INVALID_EVENT, 2, 0),
    (
        "json-in-server-result",
        [START, result_start(0, "web_search_tool_result", "s", []), json_delta(0, "{}")],
        C.VENDOR_INVALID_EVENT,
        2,
        0,
    ),
    (
        "text-in-thinking",
        [START, thinking_start(0), text_delta(0, "x")],
        C.VENDOR_INVALID_EVENT,
        2,
        0,
    ),
    # Citations.
    (
        "citation-unknown-type",
        [*TEXT_OPEN, delta(0, {"type": "citations_delta", "citation": {"type": "line_location"}})],
        C.VENDOR_UNKNOWN_EVENT,
        2,
        0,
    ),
    (
        "citation-type-missing",
        [*TEXT_OPEN, delta(0, {"type": "citations_delta", "citation": {"cited_text": "x"}})],
        C.VENDOR_INVALID_EVENT,
        2,
        0,
    ),
    (
        "citation-index-missing",
        [
            *TEXT_OPEN,
            delta(
                0,
                {
                    "type": "citations_delta",
                    "citation": {**CITATIONS["char_location"], "end_char_index": None},
                },
            ),
        ],
        C.VENDOR_INVALID_EVENT,
        2,
        0,
    ),
    (
        "citation-url-missing",
        [
            *TEXT_OPEN,
            delta(
                0,
                {
                    "type": "citations_delta",
                    "citation": {
                        key: value
                        for key, value in CITATIONS["web_search_result_location"].items()
                        if key != "url"
                    },
                },
            ),
        ],
        C.VENDOR_INVALID_EVENT,
        2,
        0,
    ),
    (
        "citation-title-a-number",
        [
            *TEXT_OPEN,
            delta(
                0,
                {
                    "type": "citations_delta",
                    "citation": {**CITATIONS["search_result_location"], "title": 7},
                },
            ),
        ],
        C.VENDOR_INVALID_EVENT,
        2,
        0,
    ),
    (
        "start-citations-an-object",
        [START, block_start(0, {"type": "text", "text": "", "citations": {}})],
        C.VENDOR_INVALID_EVENT,
        1,
        0,
    ),
    (
        "start-citation-not-an-object",
        [START, block_start(0, {"type": "text", "text": "", "citations": ["x"]})],
        C.VENDOR_INVALID_EVENT,
        1,
        0,
    ),
    # message_delta: the other fields, and the blocks a stop cuts.
    (
        "stop-sequence-a-number",
        [
            *CLOSED,
            event(
                {
                    "type": "message_delta",
                    "delta": {"stop_reason": "stop_sequence", "stop_sequence": 1},
                    "usage": {"output_tokens": 1},
                }
            ),
        ],
        C.VENDOR_INVALID_EVENT,
        4,
        1,
    ),
    (
        "stop-details-type-blank",
        [*CLOSED, stop_reason_delta("refusal", stop_details={"type": " "})],
        C.VENDOR_INVALID_EVENT,
        4,
        1,
    ),
    (
        "stop-details-explanation-a-number",
        [*CLOSED, stop_reason_delta("refusal", stop_details={"type": "refusal", "explanation": 1})],
        C.VENDOR_INVALID_EVENT,
        4,
        1,
    ),
    (
        "container-a-string",
        [*CLOSED, stop_reason_delta("end_turn", container="c")],
        C.VENDOR_INVALID_EVENT,
        4,
        1,
    ),
    (
        "open-block-at-end-turn",
        [*TEXT_OPEN, text_delta(0, "x"), message_delta("end_turn")],
        C.VENDOR_EVENT_ORDER,
        3,
        1,
    ),
    (
        "open-block-at-pause-turn",
        [*TEXT_OPEN, text_delta(0, "x"), message_delta("pause_turn")],
        C.VENDOR_EVENT_ORDER,
        3,
        1,
    ),
    (
        "stop-of-a-block-max-tokens-cut",
        [*TEXT_OPEN, text_delta(0, "x"), message_delta("max_tokens"), block_stop(0)],
        C.VENDOR_EVENT_ORDER,
        4,
        1,
    ),
    # The end of the stream.
    ("nothing-at-all", [], C.VENDOR_MISSING_TERMINAL, 0, 0),
    (
        "cut-after-text",
        [*TEXT_OPEN, text_delta(0, "a"), text_delta(0, "b")],
        C.VENDOR_MISSING_TERMINAL,
        4,
        2,
    ),
    ("cut-after-message-delta", [*CLOSED, message_delta()], C.VENDOR_MISSING_TERMINAL, 5, 1),
    ("only-pings", [ping(), ping()], C.VENDOR_MISSING_TERMINAL, 2, 0),
    (
        "cut-inside-tool-call",
        [*TOOL_OPEN, json_delta(0, '{"a": 1}')],
        C.VENDOR_MISSING_TERMINAL,
        3,
        0,
    ),
]


@pytest.mark.parametrize(
    ("events", "code", "event_index", "chunks_before"),
    [pytest.param(events, code, at, before, id=name) for name, events, code, at, before in CASES],
)
def test_each_rule_fails_in_the_grammar_with_its_code_at_the_offending_event(
    events: list[SseEvent], code: VendorErrorCode, event_index: int, chunks_before: int
) -> None:
    error = refused(events)

    assert (error.code, error.event_index) == (code, event_index), error
    assert error.vendor == "anthropic-messages"
    assert error.message.startswith(f"event {event_index}: ") or code is C.VENDOR_MISSING_TERMINAL


MAPPING_FAILS_FIRST = {
    "error-after-error": C.VENDOR_ERROR_EVENT,
    "stop-after-error": C.VENDOR_ERROR_EVENT,
}
"""The cases whose body, before the event off the grammar, holds what the port refuses."""


@pytest.mark.parametrize(
    ("events", "code", "event_index", "chunks_before"),
    [
        pytest.param(events, code, at, before, id=name)
        for name, events, code, at, before in CASES
        if name not in MAPPING_FAILS_FIRST
    ],
)
def test_the_mapping_fails_with_the_grammars_error_after_the_chunks_made_before_it(
    events: list[SseEvent], code: VendorErrorCode, event_index: int, chunks_before: int
) -> None:
    chunks, error = failure(events)

    assert (error.code, error.event_index) == (code, event_index), error
    assert error.message == refused(events).message
    assert len(chunks) == chunks_before


@pytest.mark.parametrize(
    ("events", "event_index", "mapping_code"),
    [
        pytest.param(events, at, MAPPING_FAILS_FIRST[name], id=name)
        for name, events, _, at, _ in CASES
        if name in MAPPING_FAILS_FIRST
    ],
)
def test_the_mapping_refuses_what_it_cannot_carry_before_the_grammar_fails(
    events: list[SseEvent], event_index: int, mapping_code: VendorErrorCode
) -> None:
    _, error = failure(events)

    assert error.code is mapping_code
    assert error.event_index == event_index - 1


def test_the_grammar_cases_cover_every_grammar_code() -> None:
    covered = {code for _, _, code, _, _ in CASES}

    assert covered == GRAMMAR_CODES
