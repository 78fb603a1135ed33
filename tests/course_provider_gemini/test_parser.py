"""GeminiStreamParser on bodies of our own: what each chunk becomes, and every way it fails."""

from __future__ import annotations

import json
from typing import Any

import pytest

from course_http import VendorError, VendorErrorCode
from course_protocol import (
    CourseModelResponse,
    CourseStopReason,
    CourseTextBlock,
    CourseTextDeltaChunk,
    CourseToolCall,
    CourseToolCallChunk,
    thaw_json,
)
from course_provider_gemini import GeminiStreamParser, course_call_id
from tests.course_provider_gemini.bodies import (
    REQUEST_ID,
    RESPONSE_ID,
    call,
    chunk,
    error_object,
    event,
    play,
    raw,
    text,
    thought,
    usage,
)

C = VendorErrorCode


def failed(events: list[Any]) -> VendorError:
    _, outcome = play(events)
    assert isinstance(outcome, VendorError), outcome
    assert outcome.vendor == "gemini"
    return outcome


def answered(events: list[Any]) -> tuple[list[Any], CourseModelResponse]:
    chunks, outcome = play(events)
    assert isinstance(outcome, CourseModelResponse), outcome
    return chunks, outcome


def test_text_parts_are_text_deltas_and_one_text_block() -> None:
    chunks, response = answered(
        [chunk(text("The sum ")), chunk(text("is 42."), finish="STOP", counts=usage(12, 7))]
    )

    assert chunks == [
        CourseTextDeltaChunk(REQUEST_ID, "The sum "),
        CourseTextDeltaChunk(REQUEST_ID, "is 42."),
    ]
    assert response.message.content == (CourseTextBlock("The sum is 42."),)
    assert (response.id, response.request_id) == (RESPONSE_ID, REQUEST_ID)
    assert response.stop_reason is CourseStopReason.STOP
    assert (response.usage.input_tokens, response.usage.output_tokens) == (12, 7)


def test_thoughts_are_skipped_and_their_tokens_count_as_output() -> None:
    chunks, response = answered(
        [
            chunk(thought("**Thinking**"), counts=usage(5, None, 30)),
            chunk(text("Yes."), finish="STOP", counts=usage(5, 2, 30)),
        ]
    )

    assert chunks == [CourseTextDeltaChunk(REQUEST_ID, "Yes.")]
    assert response.message.content == (CourseTextBlock("Yes."),)
    assert response.usage.output_tokens == 32


def test_the_last_usage_counts() -> None:
    _, response = answered(
        [chunk(text("a"), counts=usage(100, 50, 9)), chunk(finish="STOP", counts=usage(3, 4))]
    )

    assert (response.usage.input_tokens, response.usage.output_tokens) == (3, 4)


def test_each_whole_function_call_is_one_tool_call_with_a_derived_id() -> None:
    parser = GeminiStreamParser(REQUEST_ID)
    events = [
        chunk(text("Looking. ")),
        chunk(
            call("lookup", {"q": "a"}, thoughtSignature="sig-1"),
            call("lookup", {"q": "b"}),
            finish="STOP",
        ),
    ]
    made = [parser.feed(item, index) for index, item in enumerate(events)]
    response = parser.end(len(events))

    first, second = (course_call_id(RESPONSE_ID, n) for n in (0, 1))
    assert (first, second) == (f"{RESPONSE_ID}-call-0", f"{RESPONSE_ID}-call-1")
    assert made[1] == (
        CourseToolCallChunk(REQUEST_ID, CourseToolCall(first, "lookup", {"q": "a"})),
        CourseToolCallChunk(REQUEST_ID, CourseToolCall(second, "lookup", {"q": "b"})),
    )
    assert response.stop_reason is CourseStopReason.TOOL_CALL
    assert [type(block) for block in response.message.content] == [
        CourseTextBlock,
        CourseToolCall,
        CourseToolCall,
    ]
    assert parser.signatures == {first: "sig-1"}


def test_a_call_without_args_has_empty_arguments() -> None:
    _, response = answered([chunk(call("now"), finish="STOP")])

    [only] = response.message.content
    assert type(only) is CourseToolCall
    assert thaw_json(only.arguments) == {}


def test_a_chunk_with_no_candidates_only_updates_usage() -> None:
    usage_only = event({"usageMetadata": usage(8, 1), "responseId": RESPONSE_ID})
    _, response = answered([chunk(text("x")), usage_only, chunk(finish="STOP", counts=usage(8, 2))])

    assert response.usage.output_tokens == 2


@pytest.mark.parametrize(
    ("reason", "code"),
    [
        ("MAX_TOKENS", C.VENDOR_INCOMPLETE),
        ("MALFORMED_FUNCTION_CALL", C.VENDOR_INCOMPLETE),
        ("OTHER", C.VENDOR_INCOMPLETE),
        ("FAKE_ENUM", C.VENDOR_INCOMPLETE),
        ("SAFETY", C.VENDOR_REFUSAL),
        ("RECITATION", C.VENDOR_REFUSAL),
        ("PROHIBITED_CONTENT", C.VENDOR_REFUSAL),
    ],
)
def test_every_finish_reason_but_stop_fails_naming_the_vendors_reason(
    reason: str, code: VendorErrorCode
) -> None:
    error = failed([chunk(text("cut")), chunk(finish=reason, finishMessage=f"stopped: {reason}")])

    assert (error.code, error.vendor_type, error.event_index) == (code, reason, 1)
    assert error.vendor_message == f"stopped: {reason}"


def test_a_blocked_prompt_is_a_refusal_naming_the_block_reason() -> None:
    feedback = {"blockReason": "PROHIBITED_CONTENT", "blockReasonMessage": "no"}
    error = failed([event({"promptFeedback": feedback})])

    assert (error.code, error.vendor_type, error.vendor_message) == (
        C.VENDOR_REFUSAL,
        "PROHIBITED_CONTENT",
        "no",
    )


def test_an_error_object_mid_stream_is_an_error_event() -> None:
    error_text = error_object("CANCELLED", "The operation was cancelled.")
    error = failed([chunk(text("First ")), raw(error_text)])

    assert (error.code, error.event_index, error.vendor_type, error.vendor_message) == (
        C.VENDOR_ERROR_EVENT,
        1,
        "CANCELLED",
        "The operation was cancelled.",
    )


def test_a_stream_without_a_finish_reason_is_missing_its_terminal() -> None:
    chunks, outcome = play([chunk(text("a")), chunk(text("b"))])

    assert len(chunks) == 2
    assert isinstance(outcome, VendorError)
    assert (outcome.code, outcome.event_index) == (C.VENDOR_MISSING_TERMINAL, 2)


def test_nothing_may_follow_the_finishing_chunk() -> None:
    error = failed([chunk(text("a"), finish="STOP"), chunk(text("more"))])

    assert (error.code, error.event_index) == (C.VENDOR_EVENT_ORDER, 1)


@pytest.mark.parametrize(
    ("events", "code", "index"),
    [
        ([raw("[1]")], C.VENDOR_INVALID_EVENT, 0),
        ([raw('{"candidates": {"0": {}}}')], C.VENDOR_INVALID_EVENT, 0),
        ([raw(json.dumps({"candidates": [{}, {}]}))], C.VENDOR_UNSUPPORTED_CONTENT, 0),
        ([raw(json.dumps({"candidates": [{"index": 1}]}))], C.VENDOR_INVALID_EVENT, 0),
        ([raw(json.dumps({"candidates": [{"index": True}]}))], C.VENDOR_INVALID_EVENT, 0),
        ([raw(json.dumps({"candidates": ["text"]}))], C.VENDOR_INVALID_EVENT, 0),
        ([chunk({"inlineData": {"data": "AA=="}})], C.VENDOR_UNSUPPORTED_CONTENT, 0),
        ([chunk({"executableCode": {"code": "1"}})], C.VENDOR_UNSUPPORTED_CONTENT, 0),
        ([chunk({"hologram": {}})], C.VENDOR_UNKNOWN_EVENT, 0),
        ([chunk({"text": "a", "functionCall": {"name": "f"}})], C.VENDOR_INVALID_EVENT, 0),
        ([chunk({"text": 3})], C.VENDOR_INVALID_EVENT, 0),
        ([chunk({"text": "a", "thought": "yes"})], C.VENDOR_INVALID_EVENT, 0),
        ([chunk({"text": "a", "thoughtSignature": 1})], C.VENDOR_INVALID_EVENT, 0),
        ([chunk(call("f", [1, 2]))], C.VENDOR_INVALID_TOOL_ARGUMENTS, 0),
        ([chunk(call("f", "{}"))], C.VENDOR_INVALID_TOOL_ARGUMENTS, 0),
        ([chunk(call(""))], C.VENDOR_INVALID_EVENT, 0),
        ([chunk({"functionCall": {"name": "f", "id": "x"}})], C.VENDOR_UNKNOWN_EVENT, 0),
        (
            [chunk({"functionCall": {"name": "f", "willContinue": True}})],
            C.VENDOR_UNSUPPORTED_CONTENT,
            0,
        ),
        ([chunk({"functionCall": {"partialArgs": []}})], C.VENDOR_UNSUPPORTED_CONTENT, 0),
        ([chunk(call("f"), response_id=None)], C.VENDOR_INVALID_EVENT, 0),
        ([chunk(text("a"), finish="STOP", response_id=None)], C.VENDOR_INVALID_EVENT, 0),
        ([chunk(text("a")), chunk(finish="STOP", response_id="other")], C.VENDOR_INVALID_EVENT, 1),
        ([chunk(finish="STOP", counts={"candidatesTokenCount": 1})], C.VENDOR_INVALID_EVENT, 0),
        ([chunk(text("a"), counts={"promptTokenCount": -1})], C.VENDOR_INVALID_EVENT, 0),
        ([chunk(text("a"), counts={"promptTokenCount": True})], C.VENDOR_INVALID_EVENT, 0),
        ([chunk(text("a"), counts={"promptTokenCount": 2**53})], C.VENDOR_INVALID_EVENT, 0),
        (
            [
                chunk(
                    finish="STOP",
                    counts={
                        "promptTokenCount": 1,
                        "candidatesTokenCount": 2**53 - 1,
                        "thoughtsTokenCount": 1,
                    },
                )
            ],
            C.VENDOR_INVALID_EVENT,
            0,
        ),
        ([chunk(text("a"), finish="")], C.VENDOR_INVALID_EVENT, 0),
        ([raw(json.dumps({"error": {"code": 500}}))], C.VENDOR_INVALID_EVENT, 0),
        ([raw(json.dumps({"promptFeedback": []}))], C.VENDOR_INVALID_EVENT, 0),
        (
            [raw(json.dumps({"candidates": [{"content": {"role": "user"}}]}))],
            C.VENDOR_INVALID_EVENT,
            0,
        ),
        (
            [raw(json.dumps({"candidates": [{"content": {"parts": {"0": {}}}}]}))],
            C.VENDOR_INVALID_EVENT,
            0,
        ),
        ([raw("{}", name="message_start")], C.VENDOR_INVALID_EVENT, 0),
    ],
)
def test_a_malformed_chunk_fails_with_its_code_at_its_event(
    events: list[Any], code: VendorErrorCode, index: int
) -> None:
    error = failed(events)

    assert (error.code, error.event_index) == (code, index)
    assert error.message.startswith(f"event {index}: ")


def test_deeply_nested_arguments_are_refused_as_tool_arguments() -> None:
    deep: Any = {}
    for _ in range(200):
        deep = {"a": deep}

    error = failed([chunk(call("f", deep), finish="STOP")])

    assert error.code is C.VENDOR_INVALID_TOOL_ARGUMENTS
