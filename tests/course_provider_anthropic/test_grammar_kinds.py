"""Every kind the Messages API streams passes the grammar, and its result holds what was sent.

One body of our own per documented kind: each content block type and its
deltas, each citation type, each stop reason, the usage shapes, the optional
parts left out, the in-stream error, a block the output limit cut. Each is
judged by the grammar alone, as a recording's strict check judges it, and the
result's values are asserted.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from course_http import SseEvent
from course_protocol import thaw_json
from course_provider_anthropic import (
    MessagesCompactionBlock,
    MessagesErrorEvent,
    MessagesGrammar,
    MessagesOpaqueBlock,
    MessagesRedactedThinkingBlock,
    MessagesResult,
    MessagesTextBlock,
    MessagesThinkingBlock,
    MessagesToolUseBlock,
    MessagesUsage,
)
from tests.course_provider_anthropic.bodies import (
    BLOCKS,
    CITATIONS,
    MESSAGE_ID,
    block_start,
    block_stop,
    citation_delta,
    delta,
    error_event,
    event,
    frozen,
    json_delta,
    judged,
    message_delta,
    message_start,
    message_stop,
    one_block_body,
    ping,
    server_tool_start,
    signature_delta,
    text_body,
    text_delta,
    text_start,
    thinking_delta,
    thinking_start,
    tool_start,
)

OPAQUE_KINDS = sorted(
    kind
    for kind in BLOCKS
    if kind
    not in {
        "text",
        "tool_use",
        "server_tool_use",
        "mcp_tool_use",
        "thinking",
        "redacted_thinking",
        "compaction",
    }
)
STOP_REASONS = [
    "end_turn",
    "max_tokens",
    "stop_sequence",
    "tool_use",
    "pause_turn",
    "refusal",
    "model_context_window_exceeded",
    "compaction",
]


def ended(*blocks: SseEvent, stop_reason: str = "end_turn") -> list[SseEvent]:
    """``blocks`` (their events) between a start and a stop with ``stop_reason``."""
    return [message_start(), *blocks, message_delta(stop_reason), message_stop()]


def test_text_is_joined_from_its_start_and_its_deltas() -> None:
    result = judged(
        ended(text_start(0, "The "), text_delta(0, "sum "), text_delta(0, ""), block_stop(0))
    )

    assert result.content == (MessagesTextBlock("text", "The sum ", (), True),)
    assert (result.id, result.model, result.stop_reason) == (MESSAGE_ID, "claude-test", "end_turn")


@pytest.mark.parametrize("kind", sorted(CITATIONS))
def test_a_citations_delta_of_each_type_is_kept_on_its_text_block(kind: str) -> None:
    result = judged(
        ended(
            text_start(0),
            text_delta(0, "Grass is green."),
            citation_delta(0, CITATIONS[kind]),
            block_stop(0),
        )
    )

    block = result.content[0]
    assert type(block) is MessagesTextBlock
    assert [thaw_json(citation) for citation in block.citations] == [CITATIONS[kind]]


def test_citations_at_the_start_come_before_those_of_the_deltas() -> None:
    start = {"type": "text", "text": "", "citations": [CITATIONS["page_location"]]}
    result = judged(
        ended(
            block_start(0, start),
            citation_delta(0, CITATIONS["search_result_location"]),
            block_stop(0),
        )
    )

    block = result.content[0]
    assert type(block) is MessagesTextBlock
    assert [citation["type"] for citation in block.citations] == [
        "page_location",
        "search_result_location",
    ]


def test_a_tool_call_parses_its_fragments_once_the_first_one_empty() -> None:
    result = judged(
        ended(
            tool_start(0, "toolu_01A", "get_weather"),
            json_delta(0, ""),
            json_delta(0, '{"locati'),
            json_delta(0, 'on": "Par'),
            json_delta(0, 'is"}'),
            block_stop(0),
            stop_reason="tool_use",
        )
    )

    assert result.content == (
        MessagesToolUseBlock(
            "tool_use",
            "toolu_01A",
            "get_weather",
            frozen({"location": "Paris"}),
            None,
            frozen({}),
            True,
        ),
    )


@pytest.mark.parametrize("fragments", [(), ("",)], ids=["none", "one-empty"])
def test_a_tool_without_parameters_gets_the_empty_object(fragments: tuple[str, ...]) -> None:
    result = judged(
        ended(
            tool_start(0, "toolu_01A", "now"),
            *(json_delta(0, fragment) for fragment in fragments),
            block_stop(0),
            stop_reason="tool_use",
        )
    )

    block = result.content[0]
    assert type(block) is MessagesToolUseBlock
    assert (block.input, block.partial_input, block.complete) == (frozen({}), None, True)


def test_the_fields_of_a_tool_calls_start_such_as_its_caller_are_kept() -> None:
    start = {
        "type": "tool_use",
        "id": "toolu_01A",
        "name": "add",
        "input": {},
        "caller": {"type": "code_execution_20250825", "tool_id": "srvtoolu_9"},
    }
    result = judged(ended(block_start(0, start), json_delta(0, "{}"), block_stop(0)))

    block = result.content[0]
    assert type(block) is MessagesToolUseBlock
    assert thaw_json(block.fields) == {
        "caller": {"type": "code_execution_20250825", "tool_id": "srvtoolu_9"}
    }


def test_a_start_that_holds_the_whole_input_is_the_input_as_the_sdk_reads_it() -> None:
    start = {"type": "tool_use", "id": "toolu_01A", "name": "add", "input": {"a": [1, 2]}}

    result = judged(ended(block_start(0, start), block_stop(0), stop_reason="tool_use"))

    block = result.content[0]
    assert type(block) is MessagesToolUseBlock
    assert thaw_json(block.input) == {"a": [1, 2]}


def test_thinking_is_joined_and_its_signature_kept() -> None:
    result = judged(
        ended(
            thinking_start(0),
            thinking_delta(0, "Let me "),
            thinking_delta(0, ""),
            thinking_delta(0, "add."),
            signature_delta(0, "c2lnbmVk"),
            block_stop(0),
        )
    )

    assert result.content == (MessagesThinkingBlock("thinking", "Let me add.", "c2lnbmVk", True),)


def test_redacted_thinking_keeps_its_opaque_data() -> None:
    result = judged(one_block_body(BLOCKS["redacted_thinking"]))

    assert result.content == (
        MessagesRedactedThinkingBlock("redacted_thinking", "RW5jcnlwdGVkIHRoaW5raW5n", True),
    )


def test_a_server_tool_call_streams_its_input_as_fragments_and_its_result_follows() -> None:
    result = judged(
        ended(
            server_tool_start(0, "srvtoolu_01K", caller={"type": "direct"}),
            json_delta(0, ""),
            json_delta(0, '{"query": "weather'),
            json_delta(0, ' in Paris"}'),
            block_stop(0),
            block_start(1, BLOCKS["web_search_tool_result"]),
            block_stop(1),
            text_start(2),
            text_delta(2, "Sunny."),
            citation_delta(2, CITATIONS["web_search_result_location"]),
            block_stop(2),
        )
    )

    call, found, answer = result.content
    assert call == MessagesToolUseBlock(
        "server_tool_use",
        "srvtoolu_01K",
        "web_search",
        frozen({"query": "weather in Paris"}),
        None,
        frozen({"caller": {"type": "direct"}}),
        True,
    )
    assert type(found) is MessagesOpaqueBlock
    assert thaw_json(found.body) == BLOCKS["web_search_tool_result"]
    assert type(answer) is MessagesTextBlock
    assert answer.text == "Sunny."


def test_an_mcp_call_streams_its_input_and_its_result_follows() -> None:
    result = judged(
        ended(
            block_start(0, BLOCKS["mcp_tool_use"]),
            json_delta(0, '{"message": "hello"}'),
            block_stop(0),
            block_start(1, BLOCKS["mcp_tool_result"]),
            block_stop(1),
        )
    )

    call, answer = result.content
    assert type(call) is MessagesToolUseBlock
    assert (call.kind, call.name, thaw_json(call.input)) == (
        "mcp_tool_use",
        "echo",
        {"message": "hello"},
    )
    assert thaw_json(call.fields) == {"server_name": "echo-server"}
    assert type(answer) is MessagesOpaqueBlock
    assert (answer.kind, thaw_json(answer.body)) == ("mcp_tool_result", BLOCKS["mcp_tool_result"])


@pytest.mark.parametrize("kind", OPAQUE_KINDS)
def test_each_block_of_a_tool_the_vendor_ran_is_kept_whole(kind: str) -> None:
    result = judged(one_block_body(BLOCKS[kind]))

    (block,) = result.content
    assert type(block) is MessagesOpaqueBlock
    assert (block.kind, block.complete) == (kind, True)
    assert thaw_json(block.body) == BLOCKS[kind]


def test_a_web_search_error_is_an_object_where_results_are_an_array() -> None:
    error = {"type": "web_search_tool_result_error", "error_code": "max_uses_exceeded"}
    start = {**BLOCKS["web_search_tool_result"], "content": error}

    result = judged(one_block_body(start))

    block = result.content[0]
    assert type(block) is MessagesOpaqueBlock
    assert thaw_json(block.body["content"]) == error


def test_an_mcp_result_may_be_plain_text() -> None:
    start = {**BLOCKS["mcp_tool_result"], "content": "hello", "is_error": True}

    result = judged(one_block_body(start))

    assert result.content == (MessagesOpaqueBlock("mcp_tool_result", frozen(start), True),)


def test_compaction_takes_its_summary_from_its_delta() -> None:
    result = judged(
        ended(
            block_start(0, BLOCKS["compaction"]),
            delta(0, {"type": "compaction_delta", "content": "We added 20 and 22."}),
            delta(0, {"type": "compaction_delta", "encrypted_content": "b3BhcXVl"}),
            block_stop(0),
        )
    )

    assert result.content == (
        MessagesCompactionBlock("compaction", "We added 20 and 22.", "b3BhcXVl", True),
    )


def test_a_compaction_without_a_delta_keeps_its_starts_null_summary() -> None:
    result = judged(one_block_body({"type": "compaction"}))

    assert result.content == (MessagesCompactionBlock("compaction", None, None, True),)


@pytest.mark.parametrize("reason", [*STOP_REASONS, "a_reason_not_invented_yet"])
def test_each_stop_reason_is_kept_as_the_vendor_spelled_it(reason: str) -> None:
    result = judged(text_body("a", stop_reason=reason))

    assert result.stop_reason == reason


def test_a_stop_sequence_and_stop_details_are_kept() -> None:
    details = {"type": "refusal", "category": "cyber", "explanation": "Not this."}
    events = text_body("a")
    events[-2] = event(
        {
            "type": "message_delta",
            "delta": {
                "stop_reason": "refusal",
                "stop_sequence": None,
                "stop_details": details,
            },
            "usage": {"output_tokens": 2},
        }
    )
    sequence = text_body("def f():")
    sequence[-2] = event(
        {
            "type": "message_delta",
            "delta": {"stop_reason": "stop_sequence", "stop_sequence": "```"},
            "usage": {"output_tokens": 2},
        }
    )

    refused, stopped = judged(events), judged(sequence)

    assert (refused.stop_reason, thaw_json(refused.stop_details)) == ("refusal", details)
    assert (stopped.stop_reason, stopped.stop_sequence, stopped.stop_details) == (
        "stop_sequence",
        "```",
        None,
    )


def test_a_null_stop_reason_changes_nothing_and_the_last_count_wins() -> None:
    events = text_body("a")
    events[-2:-1] = [message_delta(None, 3), message_delta("end_turn", 3), message_delta(None, 8)]

    result = judged(events)

    assert (result.stop_reason, result.usage.output_tokens) == ("end_turn", 8)  # type: ignore[union-attr]


def test_every_usage_count_the_vendor_sends_is_kept_and_merged_as_the_sdk_merges() -> None:
    start = message_start(
        input_tokens=46,
        cache_creation_input_tokens=7,
        cache_read_input_tokens=0,
        cache_creation={"ephemeral_5m_input_tokens": 7, "ephemeral_1h_input_tokens": 0},
        service_tier="standard",
        inference_geo="not_available",
    )
    final = message_delta(
        "end_turn",
        133,
        input_tokens=48,
        cache_read_input_tokens=5,
        server_tool_use={"web_search_requests": 2, "web_fetch_requests": 1},
        output_tokens_details={"thinking_tokens": 90},
        iterations=[{"type": "message", "input_tokens": 48, "output_tokens": 133}],
    )
    events = text_body("a")
    events[0], events[-2] = start, final

    usage = judged(events).usage

    assert usage == MessagesUsage(
        input_tokens=48,
        output_tokens=133,
        cache_creation_input_tokens=7,
        cache_read_input_tokens=5,
        cache_creation=frozen({"ephemeral_5m_input_tokens": 7, "ephemeral_1h_input_tokens": 0}),
        server_tool_use=frozen({"web_search_requests": 2, "web_fetch_requests": 1}),
        output_tokens_details=frozen({"thinking_tokens": 90}),
        service_tier="standard",
        inference_geo="not_available",
        iterations=(frozen({"type": "message", "input_tokens": 48, "output_tokens": 133}),),
    )


def test_counts_never_sent_are_absent_never_zero() -> None:
    start = event(
        {
            "type": "message_start",
            "message": {
                "id": "msg_1",
                "role": "assistant",
                "content": [],
                "usage": {"input_tokens": 3, "cache_read_input_tokens": None},
            },
        }
    )
    events = [start, *text_body("a")[1:]]

    usage = judged(events).usage

    assert usage == MessagesUsage(3, 5, None, None, None, None, None, None, None, None)


def test_a_minimal_body_leaves_every_optional_part_out() -> None:
    events = [
        event(
            {
                "type": "message_start",
                "message": {"id": "msg_1", "role": "assistant", "usage": {"input_tokens": 1}},
            }
        ),
        event(
            {
                "type": "message_delta",
                "delta": {"stop_reason": "end_turn"},
                "usage": {"output_tokens": 1},
            }
        ),
        event({"type": "message_stop"}),
    ]

    result = judged(events)

    assert result == MessagesResult(
        id="msg_1",
        model=None,
        content=(),
        stop_reason="end_turn",
        stop_sequence=None,
        stop_details=None,
        container=None,
        usage=MessagesUsage(1, 1, None, None, None, None, None, None, None, None),
        error=None,
    )


def test_the_container_a_message_delta_names_is_kept() -> None:
    container = {"id": "container_01", "expires_at": "2025-09-10T12:00:00Z"}
    events = text_body("a")
    events[-2] = event(
        {
            "type": "message_delta",
            "delta": {"stop_reason": "end_turn", "container": container},
            "usage": {"output_tokens": 2},
        }
    )

    assert thaw_json(judged(events).container) == container


def test_pings_pass_anywhere_before_the_end_and_change_nothing() -> None:
    body = text_body("a", "b")
    with_pings: list[SseEvent] = []
    for item in body:
        with_pings += [ping(), item]

    assert judged(with_pings) == judged(body)


def test_blocks_may_interleave_and_are_kept_in_index_order() -> None:
    result = judged(
        ended(
            text_start(0),
            tool_start(1, "toolu_01A", "add"),
            json_delta(1, '{"x": '),
            text_delta(0, "first"),
            json_delta(1, "1}"),
            block_stop(1),
            block_stop(0),
            stop_reason="tool_use",
        )
    )

    assert [block.kind for block in result.content] == ["text", "tool_use"]


def test_a_tool_call_cut_by_max_tokens_is_kept_incomplete_with_its_fragments() -> None:
    events = [
        message_start(),
        text_start(0),
        text_delta(0, "Writing."),
        block_stop(0),
        tool_start(1, "toolu_01A", "write"),
        json_delta(1, ""),
        json_delta(1, '{"lines": ["Filing'),
        message_delta("max_tokens", 124),
        message_stop(),
    ]

    result = judged(events)

    assert result.content[1] == MessagesToolUseBlock(
        "tool_use", "toolu_01A", "write", None, '{"lines": ["Filing', frozen({}), False
    )
    assert result.content[0].complete


@pytest.mark.parametrize("reason", ["max_tokens", "model_context_window_exceeded", "refusal"])
def test_each_cut_reason_leaves_the_open_blocks_incomplete(reason: str) -> None:
    events = [
        message_start(),
        thinking_start(0),
        thinking_delta(0, "Hm"),
        text_start(1),
        text_delta(1, "Par"),
        message_delta(reason),
        message_stop(),
    ]

    result = judged(events)

    assert result.content == (
        MessagesThinkingBlock("thinking", "Hm", "", False),
        MessagesTextBlock("text", "Par", (), False),
    )


def test_an_error_event_ends_the_stream_and_the_result_says_it() -> None:
    events = [message_start(), text_start(0), text_delta(0, "part"), error_event()]

    result = judged(events)

    assert result.error == MessagesErrorEvent("overloaded_error", "Overloaded")
    assert result.content == (MessagesTextBlock("text", "part", (), False),)
    assert (result.id, result.stop_reason) == (MESSAGE_ID, None)


def test_an_error_before_message_start_leaves_the_message_unknown() -> None:
    result = judged([ping(), error_event("api_error", "Internal")])

    assert result == MessagesResult(
        None, None, (), None, None, None, None, None, MessagesErrorEvent("api_error", "Internal")
    )


def test_the_grammar_says_when_its_terminal_came_and_exposes_what_it_read() -> None:
    grammar = MessagesGrammar()
    body = [*text_body("a")]
    seen = []
    for index, item in enumerate(body):
        seen.append(grammar.finished)
        grammar.feed(item, index)

    assert seen == [False] * len(body)
    assert grammar.finished
    assert grammar.closed_block == MessagesTextBlock("text", "a", (), True)
    assert grammar.usage == judged(body).usage
    assert grammar.error is None


def test_the_grammar_gives_each_frame_its_event_and_none_for_a_ping() -> None:
    grammar = MessagesGrammar()
    start = message_start()

    assert grammar.feed(ping(), 0) is None
    assert grammar.feed(start, 1) == json.loads(start.data)


def test_the_result_is_deeply_immutable_and_holds_no_frame_it_was_given() -> None:
    grammar = MessagesGrammar()
    citation = {**CITATIONS["char_location"]}
    body = ended(text_start(0), text_delta(0, "x"), citation_delta(0, citation), block_stop(0))
    events: list[Any] = []
    for index, item in enumerate(body):
        events.append(grammar.feed(item, index))
    result = grammar.end(len(body))
    events[3]["delta"]["citation"]["cited_text"] = "changed"

    block = result.content[0]
    assert type(block) is MessagesTextBlock
    assert block.citations[0]["cited_text"] == "The grass is green."
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.stop_reason = "x"  # type: ignore[misc]
    with pytest.raises(TypeError):
        block.citations[0]["cited_text"] = "x"  # type: ignore[index]
    assert type(result.content) is tuple
    assert type(block.citations) is tuple
