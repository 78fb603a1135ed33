"""ChatStreamParser: every rule of the Chat Completions stream, a case per rule and per code."""

from __future__ import annotations

from typing import Any

import pytest

from course_http import SseEvent, VendorError, VendorErrorCode
from course_protocol import (
    JSON_MAX_DEPTH,
    CourseProtocolError,
    CourseStopReason,
    CourseTextBlock,
    CourseTextDeltaChunk,
    CourseToolCall,
    CourseToolCallChunk,
    to_json,
)
from course_provider_openai import ChatStreamParser
from tests.course_provider_openai.bodies import (
    CHAT_ID,
    DONE,
    chat_events,
    chat_text_stream,
    chunk,
    finish,
    text,
    tool_arguments,
    tool_start,
    usage,
)
from tests.course_provider_openai.driving import Replay, replay
from tests.streams import text_deltas

Code = VendorErrorCode
REQUEST = "request-1"


def run(*payloads: object) -> Replay:
    return replay(ChatStreamParser(REQUEST), chat_events(*payloads))


def failed(*payloads: object) -> VendorError:
    outcome = run(*payloads)
    assert outcome.response is None
    assert outcome.error is not None
    assert outcome.error.vendor == "openai-chat"
    assert outcome.error.message.startswith(f"event {outcome.error.event_index}: ")
    return outcome.error


def test_text_deltas_stream_in_order_and_the_response_joins_them() -> None:
    outcome = replay(ChatStreamParser(REQUEST), chat_text_stream("The sum", " is ", "42."))

    assert outcome.error is None
    assert text_deltas(outcome.chunks) == ["The sum", " is ", "42."]
    assert all(chunk.request_id == REQUEST for chunk in outcome.chunks)
    response = outcome.response
    assert response is not None
    assert (response.id, response.request_id) == (CHAT_ID, REQUEST)
    assert response.message.id == f"message-{CHAT_ID}"
    assert response.message.content == (CourseTextBlock("The sum is 42."),)
    assert response.stop_reason is CourseStopReason.STOP
    assert (response.usage.input_tokens, response.usage.output_tokens) == (12, 7)


@pytest.mark.parametrize("empty", ["", None], ids=["empty-string", "null"])
def test_empty_and_null_content_produce_no_chunk(empty: object) -> None:
    outcome = run(text(empty), text("a"), text(empty), finish("stop"), usage(), DONE)

    assert text_deltas(outcome.chunks) == ["a"]
    assert outcome.response is not None


def test_a_stream_with_no_text_at_all_stops_with_an_empty_message() -> None:
    outcome = run(chunk({"role": "assistant", "content": ""}), finish("stop"), usage(), DONE)

    assert outcome.chunks == ()
    assert outcome.response is not None
    assert outcome.response.message.content == ()


def test_usage_absent_and_usage_null_on_other_chunks_mean_the_same() -> None:
    absent = run(text("a"), finish("stop"), usage(3, 4), DONE)
    null = run(
        text("a", usage=None), chunk({}, finish_reason="stop", usage=None), usage(3, 4), DONE
    )

    assert absent.response is not None
    assert null.response is not None
    assert to_json(absent.response) == to_json(null.response)


def test_obfuscation_reasoning_and_other_unknown_fields_are_ignored() -> None:
    outcome = run(
        chunk(
            {"role": "assistant", "content": "", "reasoning": "thinking...", "channel": "x"},
            obfuscation="nYdSaPIbhl",
            service_tier="default",
            x_groq={"id": "req"},
        ),
        chunk({"reasoning": "more thinking", "reasoning_details": [{"type": "t"}]}),
        chunk({"content": "Hi"}, logprobs=None, system_fingerprint="fp"),
        finish("stop"),
        usage(),
        DONE,
    )

    assert text_deltas(outcome.chunks) == ["Hi"]
    assert outcome.response is not None
    assert outcome.response.message.content == (CourseTextBlock("Hi"),)


def test_parallel_tool_calls_are_keyed_by_index_and_emitted_complete_at_the_finish() -> None:
    parser = ChatStreamParser(REQUEST)
    events = chat_events(
        tool_start(0, "call_a", "lookup"),
        tool_arguments(0, '{"pa'),
        tool_start(1, "call_b", "other"),
        tool_arguments(1, '{"x": [1, '),
        tool_arguments(0, 'ss": "mel\\"lon"}'),
        tool_arguments(1, "2]}"),
        finish("tool_calls"),
        usage(),
        DONE,
    )

    produced = [parser.feed(event, index) for index, event in enumerate(events)]

    assert produced[:6] == [None] * 6, "no Tool call is emitted before the finish"
    calls = produced[6]
    assert type(calls) is tuple
    assert all(type(call) is CourseToolCallChunk for call in calls)
    expected = (
        CourseToolCall("call_a", "lookup", {"pass": 'mel"lon'}),
        CourseToolCall("call_b", "other", {"x": [1, 2]}),
    )
    assert tuple(call.tool_call for call in calls) == expected  # type: ignore[union-attr]
    response = parser.end(len(events))
    assert response.stop_reason is CourseStopReason.TOOL_CALL
    assert response.message.content == expected


def test_a_tool_call_in_the_first_chunk_with_the_role_and_no_arguments_means_empty_object() -> None:
    first = chunk(
        {
            "role": "assistant",
            "content": None,
            "refusal": None,
            "tool_calls": [
                {"index": 0, "id": "call_1", "type": "function", "function": {"name": "now"}}
            ],
        }
    )
    outcome = run(first, finish("tool_calls"), usage(), DONE)

    assert outcome.response is not None
    assert outcome.response.message.content == (CourseToolCall("call_1", "now", {}),)


def test_text_then_tool_calls_keep_their_order_and_a_finish_with_text_yields_both() -> None:
    parser = ChatStreamParser(REQUEST)
    events = chat_events(
        text("Calling."),
        tool_start(0, "call_1", "add", '{"a": 1}'),
        chunk({"content": " Now."}, finish_reason="tool_calls"),
        usage(),
        DONE,
    )
    produced = [parser.feed(event, index) for index, event in enumerate(events)]

    assert produced[2] == (
        CourseTextDeltaChunk(REQUEST, " Now."),
        CourseToolCallChunk(REQUEST, CourseToolCall("call_1", "add", {"a": 1})),
    )
    response = parser.end(len(events))
    assert response.message.content == (
        CourseTextBlock("Calling. Now."),
        CourseToolCall("call_1", "add", {"a": 1}),
    )


def test_a_text_delta_in_the_finish_chunk_of_a_text_answer_is_one_chunk() -> None:
    parser = ChatStreamParser(REQUEST)
    events = chat_events(chunk({"content": "Done."}, finish_reason="stop"), usage(), DONE)

    assert parser.feed(events[0], 0) == CourseTextDeltaChunk(REQUEST, "Done.")


def test_a_repeated_finish_with_nothing_new_is_accepted_as_openrouter_sends_it() -> None:
    outcome = run(
        text("a"),
        finish("stop"),
        chunk({"role": "assistant", "content": "", "reasoning": None}, finish_reason="stop"),
        chunk({"content": None}),
        usage(),
        DONE,
    )

    assert outcome.error is None
    assert text_deltas(outcome.chunks) == ["a"]


def test_usage_may_come_before_the_finish() -> None:
    outcome = run(text("a"), usage(1, 2), finish("stop"), DONE)

    assert outcome.response is not None
    assert outcome.response.usage.output_tokens == 2


def test_usage_inside_a_chunk_with_choices_counts_once() -> None:
    outcome = run(
        text("a"),
        chunk({}, finish_reason="stop", usage={"prompt_tokens": 5, "completion_tokens": 6}),
        DONE,
    )

    assert outcome.response is not None
    assert (outcome.response.usage.input_tokens, outcome.response.usage.output_tokens) == (5, 6)


def test_the_parser_is_finished_only_after_done() -> None:
    parser = ChatStreamParser(REQUEST)
    events = chat_text_stream("a")
    for index, event in enumerate(events[:-1]):
        parser.feed(event, index)
        assert not parser.finished
    parser.feed(events[-1], len(events) - 1)
    assert parser.finished


def test_chunks_delivered_before_a_failure_stay_delivered() -> None:
    outcome = run(text("Partial"), text(" answer"), finish("length"), usage(), DONE)

    assert text_deltas(outcome.chunks) == ["Partial", " answer"]
    assert outcome.error is not None
    assert outcome.error.code is Code.VENDOR_INCOMPLETE


def chat_text_stream_payloads() -> list[object]:
    return [text("a"), text("b"), finish("stop"), usage(), DONE]


FAILURES: list[tuple[str, list[object], VendorErrorCode, int]] = [
    ("data-not-json", [text("a"), "not json"], Code.VENDOR_INVALID_EVENT, 1),
    ("data-an-array", ["[1, 2]"], Code.VENDOR_INVALID_EVENT, 0),
    ("data-deeply-nested", ['{"a":' * 100_000 + "1" + "}" * 100_000], Code.VENDOR_INVALID_EVENT, 0),
    ("choices-missing", [{"id": CHAT_ID}], Code.VENDOR_INVALID_EVENT, 0),
    ("choices-an-object", [{"id": CHAT_ID, "choices": {}}], Code.VENDOR_INVALID_EVENT, 0),
    ("choice-not-an-object", [{"id": CHAT_ID, "choices": ["x"]}], Code.VENDOR_INVALID_EVENT, 0),
    (
        "two-choices",
        [{"id": CHAT_ID, "choices": [{"index": 0, "delta": {}}, {"index": 1, "delta": {}}]}],
        Code.VENDOR_UNSUPPORTED_CONTENT,
        0,
    ),
    ("choice-index-1", [text("a"), text("b", choice_index=1)], Code.VENDOR_UNSUPPORTED_CONTENT, 1),
    ("choice-index-text", [text("a", choice_index="0")], Code.VENDOR_INVALID_EVENT, 0),
    ("choice-index-bool", [text("a", choice_index=False)], Code.VENDOR_INVALID_EVENT, 0),
    (
        "choice-index-missing",
        [{"id": CHAT_ID, "choices": [{"delta": {}}]}],
        Code.VENDOR_INVALID_EVENT,
        0,
    ),
    ("delta-missing", [{"id": CHAT_ID, "choices": [{"index": 0}]}], Code.VENDOR_INVALID_EVENT, 0),
    ("content-a-number", [text(42)], Code.VENDOR_INVALID_EVENT, 0),
    ("content-parts", [text([{"type": "text", "text": "a"}])], Code.VENDOR_INVALID_EVENT, 0),
    ("role-user", [chunk({"role": "user"})], Code.VENDOR_INVALID_EVENT, 0),
    ("id-missing", [text("a", chunk_id=None)], Code.VENDOR_INVALID_EVENT, 0),
    ("id-blank", [text("a", chunk_id=" ")], Code.VENDOR_INVALID_EVENT, 0),
    ("id-a-number", [text("a", chunk_id=7)], Code.VENDOR_INVALID_EVENT, 0),
    ("id-changes", [text("a"), text("b", chunk_id="chatcmpl-other")], Code.VENDOR_INVALID_EVENT, 1),
    ("id-vanishes", [text("a"), text("b", chunk_id=None)], Code.VENDOR_INVALID_EVENT, 1),
    ("tool-calls-an-object", [chunk({"tool_calls": {}})], Code.VENDOR_INVALID_EVENT, 0),
    ("tool-fragment-a-string", [chunk({"tool_calls": ["x"]})], Code.VENDOR_INVALID_EVENT, 0),
    (
        "tool-fragment-without-index",
        [chunk({"tool_calls": [{"id": "c", "function": {"name": "f"}}]})],
        Code.VENDOR_INVALID_EVENT,
        0,
    ),
    (
        "tool-fragment-negative-index",
        [chunk({"tool_calls": [{"index": -1, "id": "c", "function": {"name": "f"}}]})],
        Code.VENDOR_INVALID_EVENT,
        0,
    ),
    (
        "tool-fragment-bool-index",
        [chunk({"tool_calls": [{"index": True, "id": "c", "function": {"name": "f"}}]})],
        Code.VENDOR_INVALID_EVENT,
        0,
    ),
    ("tool-fragment-never-started", [tool_arguments(0, "{}")], Code.VENDOR_EVENT_ORDER, 0),
    (
        "tool-fragment-for-another-index",
        [tool_start(0, "c0", "f"), tool_arguments(1, "{}")],
        Code.VENDOR_EVENT_ORDER,
        1,
    ),
    (
        "tool-second-id-for-one-index",
        [tool_start(0, "c0", "f"), tool_start(0, "c1", "f")],
        Code.VENDOR_EVENT_ORDER,
        1,
    ),
    (
        "tool-name-on-a-later-fragment",
        [
            tool_start(0, "c0", "f"),
            chunk({"tool_calls": [{"index": 0, "function": {"name": "g", "arguments": "{}"}}]}),
        ],
        Code.VENDOR_EVENT_ORDER,
        1,
    ),
    (
        "tool-type-custom",
        [
            chunk(
                {
                    "tool_calls": [
                        {"index": 0, "id": "c", "type": "custom", "function": {"name": "f"}}
                    ]
                }
            )
        ],
        Code.VENDOR_UNSUPPORTED_CONTENT,
        0,
    ),
    (
        "tool-start-without-name",
        [chunk({"tool_calls": [{"index": 0, "id": "c", "function": {"arguments": ""}}]})],
        Code.VENDOR_INVALID_EVENT,
        0,
    ),
    (
        "tool-start-without-function",
        [chunk({"tool_calls": [{"index": 0, "id": "c"}]})],
        Code.VENDOR_INVALID_EVENT,
        0,
    ),
    (
        "tool-function-a-string",
        [chunk({"tool_calls": [{"index": 0, "id": "c", "function": "f"}]})],
        Code.VENDOR_INVALID_EVENT,
        0,
    ),
    ("tool-blank-id", [tool_start(0, "  ", "f")], Code.VENDOR_INVALID_EVENT, 0),
    (
        "tool-arguments-a-number",
        [
            tool_start(0, "c", "f"),
            chunk({"tool_calls": [{"index": 0, "function": {"arguments": 1}}]}),
        ],
        Code.VENDOR_INVALID_EVENT,
        1,
    ),
    (
        "tool-arguments-not-json",
        [tool_start(0, "c", "f", '{"a": '), finish("tool_calls")],
        Code.VENDOR_INVALID_TOOL_ARGUMENTS,
        1,
    ),
    (
        "tool-arguments-an-array",
        [tool_start(0, "c", "f", "[1]"), finish("tool_calls")],
        Code.VENDOR_INVALID_TOOL_ARGUMENTS,
        1,
    ),
    (
        "tool-arguments-too-deep",
        [
            tool_start(
                0, "c", "f", '{"a":' * (JSON_MAX_DEPTH + 1) + "1" + "}" * (JSON_MAX_DEPTH + 1)
            ),
            finish("tool_calls"),
        ],
        Code.VENDOR_INVALID_TOOL_ARGUMENTS,
        1,
    ),
    (
        "tool-arguments-nan",
        [tool_start(0, "c", "f", '{"a": NaN}'), finish("tool_calls")],
        Code.VENDOR_INVALID_TOOL_ARGUMENTS,
        1,
    ),
    (
        "finish-stop-with-tool-calls",
        [tool_start(0, "c", "f", "{}"), finish("stop")],
        Code.VENDOR_INVALID_TERMINAL,
        1,
    ),
    (
        "finish-tool-calls-without-calls",
        [text("a"), finish("tool_calls")],
        Code.VENDOR_INVALID_TERMINAL,
        1,
    ),
    ("finish-reason-a-number", [text("a"), finish(5)], Code.VENDOR_INVALID_EVENT, 1),
    (
        "finish-then-other-finish",
        [text("a"), finish("stop"), finish("length")],
        Code.VENDOR_EVENT_ORDER,
        2,
    ),
    ("finish-then-content", [text("a"), finish("stop"), text("b")], Code.VENDOR_EVENT_ORDER, 2),
    (
        "finish-then-tool-call",
        [text("a"), finish("stop"), tool_start(0, "c", "f")],
        Code.VENDOR_EVENT_ORDER,
        2,
    ),
    (
        "finish-then-refusal",
        [text("a"), finish("stop"), chunk({"refusal": "no"})],
        Code.VENDOR_EVENT_ORDER,
        2,
    ),
    ("refusal-a-number", [chunk({"refusal": 3})], Code.VENDOR_INVALID_EVENT, 0),
    ("usage-twice", [text("a"), finish("stop"), usage(), usage()], Code.VENDOR_EVENT_ORDER, 3),
    ("usage-a-list", [text("a"), chunk(None, usage=[1])], Code.VENDOR_INVALID_EVENT, 1),
    (
        "usage-without-prompt-tokens",
        [chunk(None, usage={"completion_tokens": 1})],
        Code.VENDOR_INVALID_EVENT,
        0,
    ),
    ("usage-negative", [usage(-1, 2)], Code.VENDOR_INVALID_EVENT, 0),
    ("usage-bool", [usage(1, True)], Code.VENDOR_INVALID_EVENT, 0),
    ("usage-float", [usage(1.0, 2)], Code.VENDOR_INVALID_EVENT, 0),
    ("usage-past-2-53", [usage(2**53, 2)], Code.VENDOR_INVALID_EVENT, 0),
    ("event-after-done", [*chat_text_stream_payloads(), text("late")], Code.VENDOR_EVENT_ORDER, 5),
    ("done-after-done", [*chat_text_stream_payloads(), DONE], Code.VENDOR_EVENT_ORDER, 5),
    ("done-before-any-finish", [text("a"), usage(), DONE], Code.VENDOR_MISSING_TERMINAL, 2),
    ("done-without-usage", [text("a"), finish("stop"), DONE], Code.VENDOR_MISSING_TERMINAL, 2),
    ("done-alone", [DONE], Code.VENDOR_MISSING_TERMINAL, 0),
    ("ends-without-done", [text("a"), finish("stop"), usage()], Code.VENDOR_MISSING_TERMINAL, 3),
    ("ends-before-finish", [text("a")], Code.VENDOR_MISSING_TERMINAL, 1),
    ("empty-stream", [], Code.VENDOR_MISSING_TERMINAL, 0),
    (
        "error-object-in-chunk",
        [text("a"), text("", error={"message": "boom"})],
        Code.VENDOR_ERROR_EVENT,
        1,
    ),
]


@pytest.mark.parametrize(
    ("payloads", "code", "event_index"),
    [case[1:] for case in FAILURES],
    ids=[case[0] for case in FAILURES],
)
def test_each_broken_stream_fails_with_its_code_at_its_event(
    payloads: list[object], code: VendorErrorCode, event_index: int
) -> None:
    error = failed(*payloads)

    assert error.code is code, error.message
    assert error.event_index == event_index


@pytest.mark.parametrize("reason", ["length", "content_filter", "function_call", "something_new"])
def test_finish_reasons_the_course_cannot_express_fail_closed_with_the_reason(reason: str) -> None:
    error = failed(text("a"), finish(reason), usage(), DONE)

    assert error.code is Code.VENDOR_INCOMPLETE
    assert error.vendor_type == reason
    assert error.event_index == 1


def test_a_tool_call_cut_off_by_length_is_never_emitted() -> None:
    outcome = run(tool_start(0, "c", "write", '{"text": "half'), finish("length"), usage(), DONE)

    assert outcome.chunks == ()
    assert outcome.error is not None
    assert outcome.error.code is Code.VENDOR_INCOMPLETE


def test_a_refusal_fails_at_the_finish_with_the_whole_refusal_text() -> None:
    outcome = run(
        chunk({"role": "assistant", "content": None, "refusal": ""}),
        chunk({"refusal": "I can't"}),
        chunk({"refusal": " help with that."}),
        finish("stop"),
        usage(),
        DONE,
    )

    assert outcome.chunks == ()
    error = outcome.error
    assert error is not None
    assert error.code is Code.VENDOR_REFUSAL
    assert (error.vendor_type, error.vendor_message) == ("refusal", "I can't help with that.")
    assert error.event_index == 3
    assert "I can't help with that." in error.message


def test_an_error_frame_is_a_vendor_error_event_with_the_vendors_fields() -> None:
    error_data = {
        "error": {
            "message": "Tool call validation failed",
            "type": "invalid_request_error",
            "code": "tool_use_failed",
            "status_code": 400,
        }
    }
    events = [*chat_events(text("a")), *chat_events(error_data, event="error")]

    outcome = replay(ChatStreamParser(REQUEST), events)

    error = outcome.error
    assert error is not None
    assert error.code is Code.VENDOR_ERROR_EVENT
    assert (error.vendor_type, error.vendor_code) == ("invalid_request_error", "tool_use_failed")
    assert error.vendor_message == "Tool call validation failed"
    assert error.event_index == 1
    assert text_deltas(outcome.chunks) == ["a"]


@pytest.mark.parametrize(
    ("data", "fields"),
    [
        ("not json at all", (None, None, None)),
        ('{"message": "top level", "code": "x"}', (None, "x", "top level")),
        ('{"error": "just text"}', (None, None, "just text")),
        ('{"error": {"code": 503, "message": "down"}}', (None, "503", "down")),
    ],
    ids=["not-json", "fields-at-the-top", "error-a-string", "numeric-code"],
)
def test_an_error_frame_of_any_shape_is_still_a_vendor_error_event(
    data: str, fields: tuple[object, ...]
) -> None:
    error = failed_events([SseEvent("error", data)])

    assert error.code is Code.VENDOR_ERROR_EVENT
    assert (error.vendor_type, error.vendor_code, error.vendor_message) == fields


def test_an_error_object_beside_choices_carries_a_numeric_code_as_text() -> None:
    error = failed(text("a"), text("", error={"code": 400, "message": "Token limit reached"}))

    assert error.code is Code.VENDOR_ERROR_EVENT
    assert (error.vendor_code, error.vendor_message) == ("400", "Token limit reached")


def test_an_error_frame_message_is_cut_in_the_error_text_but_kept_whole_in_the_field() -> None:
    long = "x" * 10_000
    error = failed_events([SseEvent("error", '{"error": {"message": "' + long + '"}}')])

    assert error.vendor_message == long
    assert len(error.message) < 500


def test_an_unknown_event_name_is_an_unknown_event() -> None:
    error = failed_events([SseEvent("ping", "{}")])

    assert error.code is Code.VENDOR_UNKNOWN_EVENT
    assert error.event_index == 0


def failed_events(events: list[SseEvent]) -> VendorError:
    outcome = replay(ChatStreamParser(REQUEST), events)
    assert outcome.error is not None
    return outcome.error


@pytest.mark.parametrize("request_id", ["", "  ", None, 7])
def test_the_parser_refuses_a_blank_or_non_text_request_id(request_id: Any) -> None:
    with pytest.raises(CourseProtocolError) as caught:
        ChatStreamParser(request_id)
    assert caught.value.path == "request_id"


def test_the_stop_reason_of_tool_calls_is_checked_with_the_shared_terminal_rule() -> None:
    error = failed(text("a"), finish("tool_calls"))

    assert "requires at least one Tool-call block" in error.message
