"""What the mapping refuses of valid Messages API traffic: one case per rule, code and place.

Every body here is on the vendor's grammar (the strict check of a recording
passes it); the mapping fails the call where the course protocol cannot
follow: a stop reason it cannot express, the vendor's own error event, a
stop reason that contradicts the content. Every block the grammar reads is
carried: none is refused.
"""

from __future__ import annotations

import pytest

from course_http import SseEvent, VendorErrorCode
from course_provider_anthropic import MessagesResult
from course_provider_anthropic._blocks import BLOCK_KINDS
from course_provider_anthropic._mapping import CARRIED_KINDS
from tests.course_provider_anthropic.bodies import (
    BLOCKS,
    block_stop,
    error_event,
    event,
    failure,
    json_delta,
    judge,
    message_delta,
    message_start,
    message_stop,
    text_body,
    text_delta,
    text_start,
    tool_start,
)
from tests.course_provider_anthropic.test_grammar_failures import CASES as GRAMMAR_CASES

C = VendorErrorCode
START = message_start()
CLOSED = [START, text_start(0), text_delta(0, "hi"), block_stop(0)]

CASES = [
    # The vendor's own error event: on the grammar, the end of the stream.
    (
        "error-mid-stream",
        [START, text_start(0), text_delta(0, "x"), error_event()],
        C.VENDOR_ERROR_EVENT,
        3,
        1,
    ),
    ("error-before-start", [error_event("api_error", "Internal")], C.VENDOR_ERROR_EVENT, 0, 0),
    # A stop reason the course cannot express.
    ("future-reason", text_body("a", stop_reason="tea_break"), C.VENDOR_INCOMPLETE, 4, 1),
    # Terminal semantics, judged once the body ended (at message_stop).
    (
        "tool-use-without-call",
        text_body("a", stop_reason="tool_use"),
        C.VENDOR_INVALID_TERMINAL,
        5,
        1,
    ),
    (
        "end-turn-with-call",
        [
            START,
            tool_start(0, "toolu_01A", "add"),
            json_delta(0, "{}"),
            block_stop(0),
            message_delta("end_turn"),
            message_stop(),
        ],
        C.VENDOR_INVALID_TERMINAL,
        5,
        1,
    ),
    # The course's one input count: the vendor's three added up.
    (
        "start-cache-overflow",
        [message_start(input_tokens=2**53 - 1, cache_creation_input_tokens=1)],
        C.VENDOR_INVALID_EVENT,
        0,
        0,
    ),
    (
        "delta-cache-overflow",
        [*CLOSED, message_delta("end_turn", 5, cache_read_input_tokens=2**53 - 10)],
        C.VENDOR_INVALID_EVENT,
        4,
        1,
    ),
]


@pytest.mark.parametrize(
    ("events", "code", "event_index", "chunks_before"),
    [pytest.param(events, code, at, before, id=name) for name, events, code, at, before in CASES],
)
def test_each_rule_of_the_port_fails_the_call_at_the_event_with_its_code(
    events: list[SseEvent], code: VendorErrorCode, event_index: int, chunks_before: int
) -> None:
    chunks, error = failure(events)

    assert (error.code, error.event_index) == (code, event_index), error
    assert error.vendor == "anthropic-messages"
    assert error.message.startswith(f"event {event_index}: ")
    assert len(chunks) == chunks_before


@pytest.mark.parametrize("events", [pytest.param(events, id=name) for name, events, *_ in CASES])
def test_each_body_the_mapping_refuses_is_on_the_grammar_up_to_its_end(
    events: list[SseEvent],
) -> None:
    judged = judge(events)

    if not isinstance(judged, MessagesResult):
        assert (judged.code, judged.event_index) == (C.VENDOR_MISSING_TERMINAL, len(events))


def test_the_mapping_carries_every_block_the_grammar_reads() -> None:
    assert CARRIED_KINDS == BLOCK_KINDS
    assert set(BLOCKS) == BLOCK_KINDS


def test_the_error_event_carries_the_vendors_type_and_whole_message() -> None:
    long_message = "Overloaded " * 100
    events = [START, text_start(0), text_delta(0, "partial")]
    events.append(
        event({"type": "error", "error": {"type": "overloaded_error", "message": long_message}})
    )

    chunks, error = failure(events)

    assert len(chunks) == 1
    assert (error.vendor_type, error.vendor_message) == ("overloaded_error", long_message)
    assert len(error.message) < 300
    assert error.status is None


@pytest.mark.parametrize("reason", ["tea_break", "compaction_v2", "x"])
def test_an_inexpressible_stop_reason_names_the_reason(reason: str) -> None:
    _, error = failure(text_body("a", stop_reason=reason))

    assert (error.code, error.vendor_type) == (VendorErrorCode.VENDOR_INCOMPLETE, reason)
    assert "which the course cannot express" in error.message


def test_an_invalid_terminal_names_the_vendors_stop_reason() -> None:
    _, error = failure(text_body("a", stop_reason="tool_use"))

    assert (error.code, error.vendor_type) == (VendorErrorCode.VENDOR_INVALID_TERMINAL, "tool_use")


def test_every_stream_code_has_a_case_in_the_grammar_or_the_mapping() -> None:
    covered = {code for _, _, code, _, _ in (*GRAMMAR_CASES, *CASES)}
    before_the_stream = {
        C.VENDOR_MISSING_API_KEY,
        C.VENDOR_INVALID_REQUEST,
        C.VENDOR_UNKNOWN_WIRE,
        C.VENDOR_PLUGIN_BROKEN,
        C.VENDOR_WIRE_CONFLICT,
        C.VENDOR_WIRE_MISMATCH,
        *(code for code in C if code.value.startswith("HTTP_")),
    }
    # Every block and every documented stop reason of this wire is carried.
    never_raised = {C.VENDOR_UNSUPPORTED_CONTENT, C.VENDOR_REFUSAL}

    assert covered == set(C) - before_the_stream - never_raised
