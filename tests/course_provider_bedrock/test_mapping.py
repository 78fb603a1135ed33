"""ConverseMapping: the grammar's events through the port, and what the port refuses."""

from __future__ import annotations

import pytest

from course_http import SseEvent, VendorErrorCode
from course_protocol import (
    CourseModelUsage,
    CourseOpaque,
    CourseReasoningBlock,
    CourseReasoningDeltaChunk,
    CourseStopReason,
    CourseTextBlock,
    CourseTextDeltaChunk,
    CourseToolCall,
    CourseToolCallChunk,
)
from tests.course_provider_bedrock.bodies import (
    REQUEST_ID,
    TOOL_ID,
    delta,
    ev,
    exception,
    failure,
    metadata,
    play,
    reasoning,
    reasoning_body,
    start,
    stop,
    stop_block,
    text,
    text_body,
    tool_body,
    tool_input,
    tool_start,
    usage,
)

C = VendorErrorCode
S = CourseStopReason


def test_text_is_one_chunk_per_delta_and_one_block() -> None:
    chunks, response = play(text_body("Hel", "lo"))

    assert chunks == [
        CourseTextDeltaChunk(REQUEST_ID, "Hel"),
        CourseTextDeltaChunk(REQUEST_ID, "lo"),
    ]
    assert response.message.content == (CourseTextBlock("Hello"),)
    assert (response.id, response.request_id) == (f"bedrock-{REQUEST_ID}", REQUEST_ID)
    assert response.stop_reason is S.STOP
    assert response.usage == CourseModelUsage(10, 5)


def test_a_tool_call_is_one_chunk_once_its_block_stopped() -> None:
    chunks, response = play(tool_body())

    call = CourseToolCall(TOOL_ID, "add", {"left": 20, "right": 22})
    assert chunks == [
        CourseTextDeltaChunk(REQUEST_ID, "Let me add."),
        CourseToolCallChunk(REQUEST_ID, call),
    ]
    assert response.message.content == (CourseTextBlock("Let me add."), call)
    assert response.stop_reason is S.TOOL_CALL


def test_reasoning_streams_as_reasoning_and_keeps_what_the_vendor_needs_back() -> None:
    chunks, response = play(reasoning_body())

    assert chunks == [
        CourseReasoningDeltaChunk(REQUEST_ID, "Twenty plus "),
        CourseReasoningDeltaChunk(REQUEST_ID, "twenty-two."),
        CourseTextDeltaChunk(REQUEST_ID, "42"),
    ]
    assert response.message.content == (
        CourseReasoningBlock(
            "Twenty plus twenty-two.",
            opaque=CourseOpaque("bedrock-converse", {"signature": "sig-abc"}),
        ),
        CourseTextBlock("42"),
    )
    redacted = [start(), reasoning(0, redactedContent="AAEC"), stop_block(0), text("x", 1)]
    _, answer = play([*redacted, stop_block(1), stop(), metadata()])
    assert answer.message.content[0] == CourseReasoningBlock(
        "", opaque=CourseOpaque("bedrock-converse", {"redactedContent": "AAEC"})
    )


def test_the_course_input_count_adds_the_cached_input() -> None:
    events = text_body()
    events[-1] = metadata(usage(10, 5, cache_read=30, cache_write=7))

    _, response = play(events)

    assert response.usage == CourseModelUsage(47, 5, cache_read_tokens=30, cache_write_tokens=7)


@pytest.mark.parametrize(
    ("reason", "expected"),
    [
        ("end_turn", S.STOP),
        ("stop_sequence", S.STOP),
        ("max_tokens", S.LENGTH),
        ("guardrail_intervened", S.REFUSAL),
        ("content_filtered", S.REFUSAL),
    ],
)
def test_each_stop_reason_the_course_expresses(reason: str, expected: S) -> None:
    events = text_body()
    events[-2] = stop(reason)

    assert play(events)[1].stop_reason is expected


@pytest.mark.parametrize(
    "reason",
    ["malformed_model_output", "malformed_tool_use", "model_context_window_exceeded", "new"],
)
def test_a_stop_reason_the_course_cannot_express_fails_at_message_stop(reason: str) -> None:
    events = text_body()
    events[-2] = stop(reason)

    error = failure(events, mapped=True)

    assert (error.code, error.event_index, error.vendor_type) == (C.VENDOR_INCOMPLETE, 3, reason)


def test_a_length_stop_leaves_out_the_call_it_cut() -> None:
    events = [
        start(),
        text("a"),
        stop_block(0),
        tool_start(1),
        tool_input("{", 1),
        stop("max_tokens"),
        metadata(),
    ]

    chunks, response = play(events)

    assert response.message.content == (CourseTextBlock("a"),)
    assert response.stop_reason is S.LENGTH
    assert not any(type(chunk) is CourseToolCallChunk for chunk in chunks)


def test_tool_use_without_a_call_contradicts_its_content() -> None:
    events = text_body()
    events[-2] = stop("tool_use")

    error = failure(events, mapped=True)

    assert (error.code, error.vendor_type) == (C.VENDOR_INVALID_TERMINAL, "tool_use")


@pytest.mark.parametrize(
    ("event", "kind"),
    [
        (delta(0, {"citation": {"title": "t"}}), "citation"),
        (
            ev(
                "contentBlockStart",
                {"contentBlockIndex": 0, "start": {"toolResult": {"toolUseId": "t"}}},
            ),
            "toolResult",
        ),
        (
            ev(
                "contentBlockStart", {"contentBlockIndex": 0, "start": {"image": {"format": "png"}}}
            ),
            "image",
        ),
    ],
)
def test_content_the_port_cannot_carry_is_refused_where_it_starts(
    event: SseEvent, kind: str
) -> None:
    error = failure([start(), event], mapped=True)

    assert (error.code, error.event_index, error.vendor_type) == (
        C.VENDOR_UNSUPPORTED_CONTENT,
        1,
        kind,
    )
    assert "bedrock-converse" in error.message


def test_an_exception_fails_the_call_with_the_vendors_words() -> None:
    events = [
        start(),
        text("a"),
        exception("modelStreamErrorException", "model broke", originalStatusCode=503),
    ]

    error = failure(events, mapped=True)

    assert (error.code, error.event_index) == (C.VENDOR_ERROR_EVENT, 2)
    assert (error.vendor_type, error.vendor_code, error.vendor_message) == (
        "modelStreamErrorException",
        "503",
        "model broke",
    )


def test_a_stream_without_metadata_has_no_usage_for_the_course() -> None:
    error = failure([start(), text("a"), stop_block(0), stop()], mapped=True)

    assert (error.code, error.event_index) == (C.VENDOR_MISSING_TERMINAL, 4)
    assert "without metadata" in error.message
