"""What the mapping makes of a Messages API stream it carries: chunks, content, stop, usage, ids."""

from __future__ import annotations

import pytest

from course_http import SseEvent, VendorError, VendorErrorCode
from course_protocol import (
    CourseModelChunk,
    CourseModelUsage,
    CourseOpaque,
    CourseReasoningBlock,
    CourseReasoningDeltaChunk,
    CourseStopReason,
    CourseTextBlock,
    CourseTextDeltaChunk,
    CourseToolCall,
    CourseToolCallChunk,
    CourseVendorToolBlock,
    text_from_assistant,
    to_json,
)
from course_provider_anthropic import MessagesMapping
from course_provider_anthropic._content import VENDOR_BLOCK_KINDS
from tests.course_provider_anthropic.bodies import (
    BLOCKS,
    CITATIONS,
    MESSAGE_ID,
    REQUEST_ID,
    block_start,
    block_stop,
    delta,
    event,
    failure,
    json_delta,
    message_delta,
    message_start,
    message_stop,
    one_block_body,
    ping,
    raw,
    server_tool_start,
    signature_delta,
    success,
    text_body,
    text_delta,
    text_start,
    thinking_delta,
    thinking_start,
    tool_body,
    tool_start,
)


def test_text_deltas_become_one_chunk_each_and_one_joined_text_block() -> None:
    chunks, response = success(text_body("The sum ", "is ", "42."))

    assert chunks == [
        CourseTextDeltaChunk(REQUEST_ID, "The sum "),
        CourseTextDeltaChunk(REQUEST_ID, "is "),
        CourseTextDeltaChunk(REQUEST_ID, "42."),
    ]
    assert to_json(response) == {
        "id": MESSAGE_ID,
        "requestId": REQUEST_ID,
        "message": {
            "role": "assistant",
            "id": MESSAGE_ID,
            "content": [{"type": "text", "text": "The sum is 42."}],
        },
        "stopReason": "stop",
        "usage": {"inputTokens": 10, "outputTokens": 5},
    }


def test_stop_sequence_is_a_course_stop() -> None:
    _, response = success(text_body("def f():", stop_reason="stop_sequence"))

    assert response.stop_reason is CourseStopReason.STOP


def test_an_empty_text_delta_is_still_one_chunk() -> None:
    chunks, response = success(text_body("", "a", ""))

    assert [chunk.delta for chunk in chunks if type(chunk) is CourseTextDeltaChunk] == ["", "a", ""]
    assert response.message.content == (CourseTextBlock("a"),)


def test_a_text_block_without_text_is_left_out_of_the_message() -> None:
    events = [
        message_start(),
        text_start(0),
        block_stop(0),
        tool_start(1, "toolu_01A", "now"),
        block_stop(1),
        message_delta("tool_use"),
        message_stop(),
    ]

    chunks, response = success(events)

    assert response.message.content == (CourseToolCall("toolu_01A", "now", {}),)
    assert [type(chunk) for chunk in chunks] == [CourseToolCallChunk]


def test_a_non_empty_initial_text_is_the_blocks_first_chunk() -> None:
    events = [
        message_start(),
        text_start(0, "Hello"),
        text_delta(0, ", world"),
        block_stop(0),
        message_delta(),
        message_stop(),
    ]

    chunks, response = success(events)

    assert [chunk.delta for chunk in chunks if type(chunk) is CourseTextDeltaChunk] == [
        "Hello",
        ", world",
    ]
    assert response.message.content == (CourseTextBlock("Hello, world"),)


def test_tool_arguments_split_anywhere_are_parsed_once_at_the_blocks_stop() -> None:
    chunks, response = success(tool_body("", '{"loca', 'tion": "P', "ar", 'is\\u00e9"}'))

    call = CourseToolCall("toolu_01A", "add", {"location": "Parisé"})
    assert chunks == [
        CourseTextDeltaChunk(REQUEST_ID, "Adding."),
        CourseToolCallChunk(REQUEST_ID, call),
    ]
    assert response.message.content == (CourseTextBlock("Adding."), call)
    assert response.stop_reason is CourseStopReason.TOOL_CALL


def test_the_emitted_tool_call_is_the_one_in_the_final_message() -> None:
    chunks, response = success(tool_body('{"a": [1, {"b": null}]}'))

    tool_chunk = chunks[-1]
    assert type(tool_chunk) is CourseToolCallChunk
    assert response.message.content[-1] is tool_chunk.tool_call


@pytest.mark.parametrize(
    "fragments", [(), ("",), ("", ""), (" ",)], ids=["none", "one", "two", "space"]
)
def test_a_tool_without_arguments_gets_an_empty_object(fragments: tuple[str, ...]) -> None:
    events = [
        message_start(),
        tool_start(0, "toolu_01A", "now"),
        *(json_delta(0, fragment) for fragment in fragments),
        block_stop(0),
        message_delta("tool_use"),
        message_stop(),
    ]

    if fragments == (" ",):
        # Whitespace is not the empty concatenation: it is invalid JSON text.
        assert failure(events)[1].code is VendorErrorCode.VENDOR_INVALID_TOOL_ARGUMENTS
        return
    chunks, _ = success(events)
    assert chunks == [CourseToolCallChunk(REQUEST_ID, CourseToolCall("toolu_01A", "now", {}))]


def test_parallel_tool_calls_keep_their_vendor_ids_and_their_order() -> None:
    events = [
        message_start(),
        text_start(0),
        text_delta(0, "Both."),
        block_stop(0),
        tool_start(1, "toolu_01A", "lookup"),
        json_delta(1, '{"key": "a"}'),
        block_stop(1),
        tool_start(2, "toolu_01B", "lookup"),
        json_delta(2, '{"key": "b"}'),
        block_stop(2),
        message_delta("tool_use", 40),
        message_stop(),
    ]

    _, response = success(events)

    assert [(block.id, block.arguments) for block in response.message.content[1:]] == [  # type: ignore[union-attr]
        ("toolu_01A", {"key": "a"}),
        ("toolu_01B", {"key": "b"}),
    ]


def test_interleaved_blocks_are_keyed_by_index_and_kept_in_index_order() -> None:
    events = [
        message_start(),
        text_start(0),
        tool_start(1, "toolu_01A", "add"),
        json_delta(1, '{"x": '),
        text_delta(0, "first"),
        json_delta(1, "1}"),
        block_stop(1),
        text_delta(0, " text"),
        block_stop(0),
        message_delta("tool_use"),
        message_stop(),
    ]

    chunks, response = success(events)

    call = CourseToolCall("toolu_01A", "add", {"x": 1})
    assert chunks == [
        CourseTextDeltaChunk(REQUEST_ID, "first"),
        CourseToolCallChunk(REQUEST_ID, call),
        CourseTextDeltaChunk(REQUEST_ID, " text"),
    ]
    assert response.message.content == (CourseTextBlock("first text"), call)


def test_pings_are_ignored_anywhere_before_the_end_even_before_message_start() -> None:
    body = text_body("a", "b")
    with_pings: list[SseEvent] = []
    for item in body:
        with_pings += [ping(), item]

    plain_chunks, plain = success(body)
    chunks, response = success(with_pings)

    assert (chunks, response) == (plain_chunks, plain)


def test_a_ping_padded_like_the_vendor_pads_is_still_a_ping() -> None:
    events = [raw("ping", '{"type": "ping"}'), *text_body("a")]
    events[1] = raw("message_start", events[1].data[:-1] + "        }")

    _, response = success(events)

    assert response.id == MESSAGE_ID


SIGNED = CourseOpaque("anthropic-messages", {"type": "thinking", "signature": "c2lnbmVk"})


def test_thinking_streams_as_reasoning_chunks_in_order_with_the_text() -> None:
    thinking = {"type": "thinking", "thinking": "First, ", "signature": ""}
    events = [
        message_start(),
        block_start(0, thinking),
        delta(0, {"type": "thinking_delta", "thinking": "let me add."}),
        delta(0, {"type": "thinking_delta", "thinking": ""}),
        delta(0, {"type": "signature_delta", "signature": "c2lnbmVk"}),
        block_stop(0),
        block_start(1, {"type": "redacted_thinking", "data": "b3BhcXVl"}),
        block_stop(1),
        text_start(2),
        text_delta(2, "42"),
        block_stop(2),
        message_delta("end_turn", 30),
        message_stop(),
    ]

    chunks, response = success(events)

    assert chunks == [
        CourseReasoningDeltaChunk(REQUEST_ID, "First, "),
        CourseReasoningDeltaChunk(REQUEST_ID, "let me add."),
        CourseReasoningDeltaChunk(REQUEST_ID, ""),
        CourseTextDeltaChunk(REQUEST_ID, "42"),
    ]
    redacted = CourseOpaque("anthropic-messages", {"type": "redacted_thinking", "data": "b3BhcXVl"})
    assert response.message.content == (
        CourseReasoningBlock("First, let me add.", opaque=SIGNED),
        CourseReasoningBlock("", opaque=redacted),
        CourseTextBlock("42"),
    )
    assert text_from_assistant(response.message) == "42"
    assert response.usage.output_tokens == 30


def test_thinking_the_output_limit_cut_keeps_its_text_and_no_signature() -> None:
    events = [
        message_start(),
        thinking_start(0),
        thinking_delta(0, "Half a tho"),
        signature_delta(0, "c2lnbmVk"),
        message_delta("max_tokens", 9),
        message_stop(),
    ]

    chunks, response = success(events)

    assert chunks == [CourseReasoningDeltaChunk(REQUEST_ID, "Half a tho")]
    assert response.message.content == (CourseReasoningBlock("Half a tho"),)
    assert response.stop_reason is CourseStopReason.LENGTH


def test_citations_on_text_are_kept_as_this_wires_opaque_data_in_order() -> None:
    first, second = CITATIONS["char_location"], CITATIONS["web_search_result_location"]
    events = [
        message_start(),
        block_start(0, {"type": "text", "text": "", "citations": [first]}),
        text_delta(0, "cited"),
        delta(0, {"type": "citations_delta", "citation": second}),
        block_stop(0),
        message_delta(),
        message_stop(),
    ]

    chunks, response = success(events)

    assert chunks == [CourseTextDeltaChunk(REQUEST_ID, "cited")]
    (block,) = response.message.content
    assert block == CourseTextBlock(
        "cited",
        citations=(
            CourseOpaque("anthropic-messages", first),
            CourseOpaque("anthropic-messages", second),
        ),
    )


@pytest.mark.parametrize("kind", sorted(VENDOR_BLOCK_KINDS - {"compaction"}))
def test_each_block_of_the_vendors_own_is_carried_as_the_vendor_sent_it(kind: str) -> None:
    chunks, response = success(one_block_body(BLOCKS[kind]))

    assert chunks == []
    assert response.message.content == (
        CourseVendorToolBlock(kind, CourseOpaque("anthropic-messages", BLOCKS[kind])),
    )


def test_a_server_tool_call_and_its_result_are_carried_whole_between_the_text() -> None:
    result = BLOCKS["web_search_tool_result"]
    events = [
        message_start(),
        text_start(0),
        text_delta(0, "Searching."),
        block_stop(0),
        server_tool_start(1, "srvtoolu_01", caller={"type": "direct"}),
        json_delta(1, '{"query": '),
        json_delta(1, '"pelicans"}'),
        block_stop(1),
        block_start(2, result),
        block_stop(2),
        text_start(3),
        text_delta(3, "Found."),
        block_stop(3),
        message_delta(),
        message_stop(),
    ]

    chunks, response = success(events)

    call = {
        "type": "server_tool_use",
        "id": "srvtoolu_01",
        "name": "web_search",
        "input": {"query": "pelicans"},
        "caller": {"type": "direct"},
    }
    assert [type(chunk) for chunk in chunks] == [CourseTextDeltaChunk, CourseTextDeltaChunk]
    assert response.message.content == (
        CourseTextBlock("Searching."),
        CourseVendorToolBlock("server_tool_use", CourseOpaque("anthropic-messages", call)),
        CourseVendorToolBlock("web_search_tool_result", CourseOpaque("anthropic-messages", result)),
        CourseTextBlock("Found."),
    )
    assert response.stop_reason is CourseStopReason.STOP


def test_a_server_tool_call_the_output_limit_cut_is_left_out() -> None:
    events = [
        message_start(),
        server_tool_start(0, "srvtoolu_01"),
        json_delta(0, '{"query": "pel'),
        message_delta("max_tokens"),
        message_stop(),
    ]

    _, response = success(events)

    assert response.message.content == ()
    assert response.stop_reason is CourseStopReason.LENGTH


def test_a_compaction_is_carried_with_its_summary_and_its_encrypted_state() -> None:
    events = [
        message_start(),
        block_start(0, {"type": "compaction", "content": None}),
        delta(
            0,
            {"type": "compaction_delta", "content": "Earlier: 2 + 2.", "encrypted_content": "ZW5j"},
        ),
        block_stop(0),
        message_delta(),
        message_stop(),
    ]

    _, response = success(events)

    held = {"type": "compaction", "content": "Earlier: 2 + 2.", "encrypted_content": "ZW5j"}
    assert response.message.content == (
        CourseVendorToolBlock("compaction", CourseOpaque("anthropic-messages", held)),
    )


@pytest.mark.parametrize(
    ("reason", "stop"),
    [
        ("max_tokens", CourseStopReason.LENGTH),
        ("model_context_window_exceeded", CourseStopReason.LENGTH),
        ("refusal", CourseStopReason.REFUSAL),
        ("pause_turn", CourseStopReason.PAUSE_TURN),
        ("compaction", CourseStopReason.PAUSE_TURN),
    ],
)
def test_each_stop_beyond_stop_and_tool_call_keeps_the_partial_message(
    reason: str, stop: CourseStopReason
) -> None:
    chunks, response = success(text_body("I ", "was", stop_reason=reason))

    assert [chunk.delta for chunk in chunks] == ["I ", "was"]  # type: ignore[union-attr]
    assert response.message.content == (CourseTextBlock("I was"),)
    assert response.stop_reason is stop


def test_a_refusals_stop_details_are_left_out_of_the_message() -> None:
    # The port has no place for metadata about a stop, and a block holding it would go
    # back to the API with the turn (the README's "What a refusal drops").
    events = text_body("I ", "was")
    events[-2] = event(
        {
            "type": "message_delta",
            "delta": {
                "stop_reason": "refusal",
                "stop_details": {"type": "refusal", "category": "cyber", "explanation": "No."},
            },
            "usage": {"output_tokens": 2},
        }
    )

    _, response = success(events)

    assert response.stop_reason is CourseStopReason.REFUSAL
    assert response.message.content == (CourseTextBlock("I was"),)


def test_cache_counts_are_reported_apart_and_none_when_never_sent() -> None:
    events = text_body("a")
    events[0] = message_start(input_tokens=7, cache_read_input_tokens=20)

    _, response = success(events)

    assert response.usage == CourseModelUsage(27, 5, cache_read_tokens=20)
    assert response.usage.cache_write_tokens is None
    assert response.usage.reasoning_tokens is None


def test_cache_counts_are_added_to_the_input_count() -> None:
    events = text_body("a")
    events[0] = message_start(
        input_tokens=7, cache_creation_input_tokens=100, cache_read_input_tokens=20
    )

    _, response = success(events)

    assert response.usage.input_tokens == 127


def test_null_cache_counts_count_as_zero() -> None:
    events = text_body("a")
    events[0] = message_start(
        input_tokens=7, cache_creation_input_tokens=None, cache_read_input_tokens=None
    )

    _, response = success(events)

    assert response.usage.input_tokens == 7


def test_an_input_count_repeated_in_message_delta_replaces_the_starts() -> None:
    events = text_body("a")
    events[-2] = message_delta("end_turn", 9, input_tokens=11, cache_read_input_tokens=2)

    _, response = success(events)

    assert (response.usage.input_tokens, response.usage.output_tokens) == (13, 9)


def test_several_message_deltas_take_the_last_reason_and_count() -> None:
    events = text_body("a")
    events[-2:-1] = [message_delta(None, 3), message_delta("end_turn", 3), message_delta(None, 8)]

    _, response = success(events)

    assert (response.stop_reason, response.usage.output_tokens) == (CourseStopReason.STOP, 8)


def test_unknown_fields_are_ignored_everywhere() -> None:
    events = [
        event(
            {
                "type": "message_start",
                "message": {
                    "id": "msg_1",
                    "role": "assistant",
                    "content": [],
                    "usage": {"input_tokens": 1, "service_tier": "standard"},
                    "stop_details": None,
                    "__proto__": {"polluted": True},
                },
                "constructor": 1,
            }
        ),
        event(
            {
                "type": "content_block_start",
                "index": 0,
                "content_block": {
                    "type": "tool_use",
                    "id": "toolu_1",
                    "name": "f",
                    "input": {},
                    "caller": {"type": "direct"},
                },
            }
        ),
        event({"type": "content_block_stop", "index": 0, "extra": [1]}),
        event(
            {
                "type": "message_delta",
                "delta": {"stop_reason": "tool_use", "stop_sequence": None, "stop_details": None},
                "usage": {"output_tokens": 2, "server_tool_use": None},
            }
        ),
        event({"type": "message_stop", "amazon-bedrock-invocationMetrics": {}}),
    ]

    _, response = success(events)

    assert response.message.content == (CourseToolCall("toolu_1", "f", {}),)


def test_a_tool_call_cut_by_max_tokens_is_never_emitted() -> None:
    events = [
        message_start(),
        text_start(0),
        text_delta(0, "Writing the file."),
        block_stop(0),
        tool_start(1, "toolu_01A", "write"),
        json_delta(1, '{"name": "taxes.txt", "lines": ["Filing'),
        message_delta("max_tokens", 124),
        message_stop(),
    ]

    chunks, response = success(events)

    assert chunks == [CourseTextDeltaChunk(REQUEST_ID, "Writing the file.")]
    assert response.message.content == (CourseTextBlock("Writing the file."),)
    assert response.stop_reason is CourseStopReason.LENGTH


def test_the_request_id_of_every_chunk_and_the_response_is_the_mappings() -> None:
    mapping = MessagesMapping("req-42")
    events = tool_body('{"n": 1}')
    chunks: list[CourseModelChunk] = []
    for index, item in enumerate(events):
        mapping.item(item, index, chunks.append)
    response = mapping.end(len(events))

    assert {chunk.request_id for chunk in chunks} == {"req-42"}
    assert response.request_id == "req-42"


def test_end_returns_the_same_response_every_time() -> None:
    mapping = MessagesMapping(REQUEST_ID)
    events = text_body("a")
    for index, item in enumerate(events):
        mapping.feed(item, index)

    assert mapping.end(len(events)) is mapping.end(len(events))


@pytest.mark.parametrize("request_id", ["", "  ", None, 3])
def test_the_mapping_needs_a_non_blank_request_id(request_id: object) -> None:
    with pytest.raises(ValueError, match="request_id"):
        MessagesMapping(request_id)  # type: ignore[arg-type]


def test_after_a_failure_every_call_raises_the_same_error_again() -> None:
    mapping = MessagesMapping(REQUEST_ID)
    body = text_body("a")
    mapping.feed(body[0], 0)
    mapping.feed(body[1], 1)
    with pytest.raises(VendorError) as first:
        mapping.feed(delta(0, {"type": "text_delta", "text": 3}), 2)

    for index, item in enumerate(body[2:], start=3):
        with pytest.raises(VendorError) as again:
            mapping.feed(item, index)
        assert again.value is first.value
    with pytest.raises(VendorError) as at_the_end:
        mapping.end(len(body) + 1)
    assert at_the_end.value is first.value
    assert first.value.code is VendorErrorCode.VENDOR_INVALID_EVENT


def test_an_event_after_the_response_turns_the_result_into_that_failure() -> None:
    mapping = MessagesMapping(REQUEST_ID)
    body = text_body("a")
    for index, item in enumerate(body):
        mapping.feed(item, index)
    with pytest.raises(VendorError) as late:
        mapping.feed(ping(), len(body))

    with pytest.raises(VendorError) as at_the_end:
        mapping.end(len(body) + 1)
    assert at_the_end.value is late.value
    assert late.value.code is VendorErrorCode.VENDOR_EVENT_ORDER


def test_a_missing_terminal_stays_the_outcome() -> None:
    mapping = MessagesMapping(REQUEST_ID)
    with pytest.raises(VendorError) as first:
        mapping.end(0)
    with pytest.raises(VendorError) as again:
        mapping.feed(message_start(), 0)

    assert again.value is first.value
    assert first.value.code is VendorErrorCode.VENDOR_MISSING_TERMINAL
