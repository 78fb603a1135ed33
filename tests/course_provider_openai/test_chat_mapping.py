"""ChatMapping: what the course port carries of a Chat stream, what it refuses, the adapter's rule.

The grammar's own rules are `test_chat_grammar_failures`'s; here each body
off the grammar only has to fail the model path the same way. What is
checked here: the chunks pushed and the response built, each kind the port
cannot carry refused where it first appears (``VENDOR_UNSUPPORTED_CONTENT``,
naming the kind and the wire), the finish reason that keeps its code, the
vendor's error, and the usage the request asked for. The kinds the port
carries beyond text and Tool calls (refusals, the output limit, the
content filter, citations, the usage details) are `test_chat_rich`'s.
"""

from __future__ import annotations

from typing import Any

import pytest

from course_http import SseEvent, VendorError, VendorErrorCode
from course_protocol import (
    CourseProtocolError,
    CourseStopReason,
    CourseTextBlock,
    CourseTextDeltaChunk,
    CourseToolCall,
    CourseToolCallChunk,
    to_json,
)
from course_provider_openai import ChatMapping
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
from tests.course_provider_openai.chat_failures import GRAMMAR_FAILURES, frames
from tests.course_provider_openai.chat_grammar import folded
from tests.course_provider_openai.driving import Replay, replay
from tests.streams import text_deltas

Code = VendorErrorCode
REQUEST = "request-1"


def run(*payloads: object) -> Replay:
    return replay(ChatMapping(REQUEST), chat_events(*payloads))


def failed(*payloads: object) -> VendorError:
    outcome = run(*payloads)
    assert outcome.response is None
    assert outcome.error is not None
    assert outcome.error.vendor == "openai-chat"
    assert outcome.error.message.startswith(f"event {outcome.error.event_index}: ")
    return outcome.error


def test_text_deltas_stream_in_order_and_the_response_joins_them() -> None:
    outcome = replay(ChatMapping(REQUEST), chat_text_stream("The sum", " is ", "42."))

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


def test_obfuscation_log_probabilities_moderation_and_unknown_fields_are_left_out() -> None:
    entry = {"token": "Hi", "logprob": -0.1, "bytes": [72, 105], "top_logprobs": []}
    moderated = {"input": {"type": "moderation_results"}, "output": {"type": "moderation_results"}}
    outcome = run(
        chunk(
            {"role": "assistant", "content": "", "reasoning": "thinking...", "channel": "x"},
            obfuscation="nYdSaPIbhl",
            service_tier="default",
            x_groq={"id": "req"},
        ),
        chunk(
            {"reasoning": "more thinking", "reasoning_details": [{"type": "t"}]},
            service_tier="default",
        ),
        chunk({"content": "Hi"}, logprobs={"content": [entry]}, service_tier="default"),
        chunk({}, finish_reason="stop", service_tier="default", moderation=moderated),
        chunk(None, usage=usage()["usage"], service_tier="default"),
        DONE,
    )

    assert text_deltas(outcome.chunks) == ["Hi"]
    assert outcome.response is not None
    assert outcome.response.message.content == (CourseTextBlock("Hi"),)


def test_parallel_tool_calls_are_keyed_by_index_and_emitted_complete_at_the_finish() -> None:
    parser = ChatMapping(REQUEST)
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
    parser = ChatMapping(REQUEST)
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
    parser = ChatMapping(REQUEST)
    events = chat_events(chunk({"content": "Done."}, finish_reason="stop"), usage(), DONE)

    assert parser.feed(events[0], 0) == CourseTextDeltaChunk(REQUEST, "Done.")


def test_chunks_delivered_before_a_failure_stay_delivered() -> None:
    outcome = run(text("Partial"), text(" answer"), finish("function_call"), usage(), DONE)

    assert text_deltas(outcome.chunks) == ["Partial", " answer"]
    assert outcome.error is not None
    assert outcome.error.code is Code.VENDOR_INCOMPLETE


def test_the_mapping_is_finished_from_the_finish_on_as_its_grammar_is() -> None:
    mapping = ChatMapping(REQUEST)
    events = chat_text_stream("a")
    seen = []
    for index, event in enumerate(events):
        mapping.feed(event, index)
        seen.append(mapping.finished)

    assert seen == [False, False, True, True, True]
    assert mapping.grammar.finished


def test_done_is_optional_the_model_answers_without_it() -> None:
    outcome = run(text("a"), finish("stop"), usage())

    assert outcome.response is not None
    assert outcome.response.message.content == (CourseTextBlock("a"),)


def test_a_stream_without_the_usage_it_asked_for_fails_at_its_end_naming_it() -> None:
    error = failed(text("a"), finish("stop"), DONE)

    assert (error.code, error.event_index) == (Code.VENDOR_MISSING_TERMINAL, 3)
    assert error.message == (
        "event 3: the stream ended without usage, which the request asked for "
        "(stream_options.include_usage)"
    )


def second_choice() -> list[object]:
    opening = chunk({"role": "assistant", "content": ""})
    opening["choices"].append({"index": 1, "delta": {"role": "assistant", "content": ""}})
    return [text("a"), opening | {"choices": opening["choices"][1:]}]


def custom_call() -> dict[str, Any]:
    fragment = {"index": 0, "id": "call_c", "type": "custom", "custom": {"name": "grep"}}
    return chunk({"tool_calls": [fragment]})


PORT_CODES = {
    Code.VENDOR_UNSUPPORTED_CONTENT,
    Code.VENDOR_INCOMPLETE,
    Code.VENDOR_REFUSAL,
    Code.VENDOR_INVALID_TERMINAL,
    Code.VENDOR_ERROR_EVENT,
}
UNCARRIED: list[tuple[str, list[object], int, str]] = [
    ("second-choice", second_choice(), 1, "choices[].index 1 is a second choice (n > 1)"),
    (
        "two-choices-in-one-chunk",
        [{**text("a"), "choices": [{"index": 0, "delta": {}}, {"index": 1, "delta": {}}]}],
        0,
        "choices[].index 1 is a second choice (n > 1)",
    ),
    ("audio", [text("a"), chunk({"audio": {"id": "audio_1", "data": "CAAI"}})], 1, "delta.audio"),
    (
        "function-call",
        [chunk({"role": "assistant", "function_call": {"name": "add", "arguments": ""}})],
        0,
        "delta.function_call is the deprecated function call",
    ),
    ("custom-tool-call", [text("a"), custom_call()], 1, "a custom tool's call"),
    ("role-user", [chunk({"role": "user", "content": "a"})], 0, "delta.role 'user'"),
    ("role-tool", [text("a"), chunk({"role": "tool"})], 1, "delta.role 'tool'"),
]


@pytest.mark.parametrize(
    ("payloads", "event_index", "named"),
    [case[1:] for case in UNCARRIED],
    ids=[case[0] for case in UNCARRIED],
)
def test_each_kind_the_port_cannot_carry_is_refused_where_it_first_appears(
    payloads: list[object], event_index: int, named: str
) -> None:
    judged = folded(chat_events(*payloads))
    # The grammar reads past that event: the refusal is the port's alone.
    assert not isinstance(judged, VendorError) or (judged.event_index or 0) > event_index

    error = failed(*payloads)

    assert (error.code, error.event_index) == (Code.VENDOR_UNSUPPORTED_CONTENT, event_index)
    assert named in error.message
    assert error.message.endswith("the course protocol cannot carry it (openai-chat)")


@pytest.mark.parametrize(
    ("payloads", "code", "event_index"),
    [case[1:] for case in GRAMMAR_FAILURES],
    ids=[case[0] for case in GRAMMAR_FAILURES],
)
def test_a_body_off_the_grammar_fails_the_model_as_the_grammar_refuses_it_or_sooner(
    payloads: list[object], code: VendorErrorCode, event_index: int
) -> None:
    outcome = replay(ChatMapping(REQUEST), frames(payloads))

    error = outcome.error
    assert error is not None
    if error.event_index == event_index and error.code is code:
        grammar = folded(frames(payloads))
        assert type(grammar) is VendorError
        assert error.message == grammar.message
    else:
        # The model fails sooner, at an event the grammar let pass, with a code of
        # the port's: what it cannot carry or express, or the vendor's own error.
        assert error.code in PORT_CODES, error
        assert error.event_index is not None
        assert error.event_index < event_index


def test_the_deprecated_function_call_finish_fails_closed_with_the_reason() -> None:
    error = failed(text("a"), finish("function_call"), usage(), DONE)

    assert error.code is Code.VENDOR_INCOMPLETE
    assert error.vendor_type == "function_call"
    assert error.event_index == 1


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

    outcome = replay(ChatMapping(REQUEST), events)

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
    outcome = replay(ChatMapping(REQUEST), events)
    assert outcome.error is not None
    return outcome.error


@pytest.mark.parametrize("request_id", ["", "  ", None, 7])
def test_the_mapping_refuses_a_blank_or_non_text_request_id(request_id: Any) -> None:
    with pytest.raises(CourseProtocolError) as caught:
        ChatMapping(request_id)
    assert caught.value.path == "request_id"


def test_the_stop_reason_of_tool_calls_is_checked_with_the_shared_terminal_rule() -> None:
    error = failed(text("a"), finish("tool_calls"))

    assert "requires at least one Tool-call block" in error.message
