"""Both halves under hostile and huge input: linear work, bounded nesting, typed failures only.

The grammar judges every body alone, the mapping plays it; where the grammar
refuses a frame, the mapping fails there too (or earlier, at content the
port cannot carry), never later and never with another kind of error.
"""

from __future__ import annotations

import json
from itertools import pairwise
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from course_http import SseEvent, VendorError, VendorErrorCode
from course_protocol import (
    CourseModelResponse,
    CourseOpaque,
    CourseReasoningBlock,
    CourseReasoningDeltaChunk,
    CourseTextBlock,
    CourseTextDeltaChunk,
    CourseToolCall,
    CourseToolCallChunk,
    JsonObject,
    terminal_semantics_error,
)
from course_provider_anthropic import WIRE, MessagesResult
from course_vendor import tool_arguments
from tests.course_protocol.strategies import ids, json_objects, plain_json
from tests.course_provider_anthropic.bodies import (
    BLOCKS,
    CITATIONS,
    REQUEST_ID,
    block_start,
    block_stop,
    citation_delta,
    delta,
    event,
    json_delta,
    judge,
    message_delta,
    message_start,
    message_stop,
    ping,
    play,
    raw,
    server_tool_start,
    success,
    text_body,
    text_delta,
    text_start,
    tool_body,
    tool_start,
)
from tests.course_provider_anthropic.test_grammar_failures import GRAMMAR_CODES

HUGE = 100_000
STREAM_CODES = frozenset(
    code
    for code in VendorErrorCode
    if code.value.startswith("VENDOR_")
    and code not in (VendorErrorCode.VENDOR_MISSING_API_KEY, VendorErrorCode.VENDOR_INVALID_REQUEST)
)


class CountingArguments:
    """Stands in for ``tool_arguments``: counts calls and the characters parsed."""

    def __init__(self) -> None:
        self.calls = 0
        self.characters = 0

    def __call__(self, text: str, **where: Any) -> JsonObject:
        self.calls += 1
        self.characters += len(text)
        return tool_arguments(text, **where)


def test_a_hundred_thousand_text_deltas_make_as_many_chunks_and_one_block() -> None:
    chunks, response = success(text_body(*(f"{n % 10}" for n in range(HUGE))))

    assert len(chunks) == HUGE
    assert response.message.content == (CourseTextBlock("".join(f"{n % 10}" for n in range(HUGE))),)


def test_a_hundred_thousand_argument_fragments_are_parsed_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    text = json.dumps({"values": list(range(HUGE // 4))})
    step = max(1, len(text) // HUGE)
    fragments = [text[at : at + step] for at in range(0, len(text), step)]
    counting = CountingArguments()
    monkeypatch.setattr("course_provider_anthropic._blocks.tool_arguments", counting)

    chunks, response = success(tool_body(*fragments))

    assert len(fragments) >= HUGE
    assert (counting.calls, counting.characters) == (1, len(text))
    call = response.message.content[-1]
    assert type(call) is CourseToolCall
    assert call.arguments["values"] == tuple(range(HUGE // 4))
    assert type(chunks[-1]) is CourseToolCallChunk


def test_one_huge_text_delta_is_one_chunk() -> None:
    text = "x" * 5_000_000

    chunks, response = success(text_body(text))

    assert [chunk.delta for chunk in chunks] == [text]  # type: ignore[union-attr]
    assert response.message.content == (CourseTextBlock(text),)


@pytest.mark.parametrize("where", ["ping", "start-usage", "delta"])
def test_data_nested_past_the_decoder_limit_is_an_invalid_event(where: str) -> None:
    deep = "[" * HUGE + "]" * HUGE
    events = text_body("a")
    if where == "ping":
        events.insert(1, raw("ping", '{"type":"ping","x":' + deep + "}"))
    elif where == "start-usage":
        events[0] = raw("message_start", events[0].data[:-1] + ',"deep":' + deep + "}")
    else:
        events[3] = raw("content_block_delta", events[3].data[:-1] + ',"deep":' + deep + "}")

    _, outcome = play(events)

    assert isinstance(outcome, VendorError)
    assert outcome.code is VendorErrorCode.VENDOR_INVALID_EVENT
    assert outcome.event_index in (0, 1, 3)


def test_arguments_nested_past_the_protocol_limit_are_invalid_tool_arguments() -> None:
    deep = '{"a":' * 70 + "1" + "}" * 70

    _, outcome = play(tool_body(deep))

    assert isinstance(outcome, VendorError)
    assert outcome.code is VendorErrorCode.VENDOR_INVALID_TOOL_ARGUMENTS


def test_a_duplicated_body_fails_at_the_second_message_start() -> None:
    body = text_body("a")

    chunks, outcome = play(body[:-1] + body)

    assert isinstance(outcome, VendorError)
    assert (outcome.code, outcome.event_index) == (VendorErrorCode.VENDOR_EVENT_ORDER, 5)
    assert len(chunks) == 1


def test_events_in_reverse_order_fail_at_the_first() -> None:
    _, outcome = play(list(reversed(tool_body('{"a": 1}'))))

    assert isinstance(outcome, VendorError)
    assert (outcome.code, outcome.event_index) == (VendorErrorCode.VENDOR_EVENT_ORDER, 0)


def test_a_body_missing_any_event_but_a_delta_is_a_typed_failure() -> None:
    body = tool_body('{"a": 1}')
    deltas = [at for at, item in enumerate(body) if item.event == "content_block_delta"]
    failed: list[int] = []
    for missing in range(len(body)):
        _, outcome = play(body[:missing] + body[missing + 1 :])
        if isinstance(outcome, VendorError):
            assert outcome.code in STREAM_CODES
            failed.append(missing)

    # Without a delta the body is still well formed: it says less.
    assert failed == [at for at in range(len(body)) if at not in deltas]
    assert len(deltas) == 2


def _base_bodies() -> list[list[SseEvent]]:
    thinking = {"type": "thinking", "thinking": "", "signature": ""}
    return [
        tool_body("", '{"a": ', "[1, 2]}"),
        [
            ping(),
            message_start(cache_read_input_tokens=3),
            block_start(0, thinking),
            delta(0, {"type": "thinking_delta", "thinking": "hm"}),
            delta(0, {"type": "signature_delta", "signature": "c2ln"}),
            block_stop(0),
            text_start(1),
            text_delta(1, "x"),
            delta(1, {"type": "citations_delta", "citation": CITATIONS["page_location"]}),
            block_stop(1),
            message_delta("end_turn", 4, input_tokens=5),
            message_stop(),
        ],
        [
            message_start(server_tool_use={"web_search_requests": 1}),
            server_tool_start(0, "srvtoolu_1"),
            json_delta(0, '{"query": "weather"}'),
            block_stop(0),
            block_start(1, BLOCKS["web_search_tool_result"]),
            block_stop(1),
            block_start(2, BLOCKS["compaction"]),
            delta(2, {"type": "compaction_delta", "content": "Summary."}),
            block_stop(2),
            text_start(3),
            text_delta(3, "Sunny."),
            citation_delta(3, CITATIONS["web_search_result_location"]),
            block_stop(3),
            message_delta("pause_turn", 9),
            message_stop(),
        ],
    ]


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix] if prefix else []
    if type(value) is dict:
        for key, item in value.items():
            found += _paths(item, (*prefix, key))
    elif type(value) is list:
        for position, item in enumerate(value):
            found += _paths(item, (*prefix, position))
    return found


def _replace(value: Any, path: tuple[Any, ...], new: object) -> Any:
    if not path:
        return new
    copy: Any = dict(value) if type(value) is dict else list(value)
    copy[path[0]] = _replace(value[path[0]], path[1:], new)
    return copy


def _check(events: list[SseEvent]) -> None:
    judged = judge(events)
    chunks, outcome = play(events)
    if isinstance(judged, VendorError):
        assert judged.code in GRAMMAR_CODES
        assert judged.vendor == "anthropic-messages"
        assert isinstance(outcome, VendorError)
        assert type(outcome.event_index) is int
        assert type(judged.event_index) is int
        assert outcome.event_index <= judged.event_index
        if outcome.event_index == judged.event_index:
            assert outcome.code is judged.code
        return
    assert type(judged) is MessagesResult
    if isinstance(outcome, VendorError):
        assert outcome.code in STREAM_CODES
        assert outcome.vendor == "anthropic-messages"
        return
    assert type(outcome) is CourseModelResponse
    assert terminal_semantics_error(outcome.stop_reason, outcome.message) is None
    calls = [chunk.tool_call for chunk in chunks if type(chunk) is CourseToolCallChunk]
    assert calls == [block for block in outcome.message.content if type(block) is CourseToolCall]


@given(data=st.data(), replacement=plain_json)
def test_any_field_replaced_by_any_json_gives_a_response_or_a_typed_failure(
    data: st.DataObject, replacement: object
) -> None:
    body = data.draw(st.sampled_from(_base_bodies()))
    position = data.draw(st.integers(0, len(body) - 1))
    document = json.loads(body[position].data)
    path = data.draw(st.sampled_from(_paths(document)))
    hostile = list(body)
    hostile[position] = SseEvent(
        body[position].event, json.dumps(_replace(document, path, replacement))
    )

    _check(hostile)


_EVENT_POOL = [
    message_start(),
    text_start(0),
    text_start(1),
    tool_start(0, "toolu_1", "f"),
    tool_start(1, "toolu_2", "g"),
    text_delta(0, "a"),
    text_delta(1, "b"),
    json_delta(0, "{}"),
    json_delta(1, '{"k": 1}'),
    json_delta(1, "{"),
    block_stop(0),
    block_stop(1),
    message_delta("end_turn"),
    message_delta("tool_use"),
    message_delta(None),
    message_stop(),
    ping(),
    event({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}),
    block_start(0, {"type": "thinking", "thinking": "", "signature": ""}),
    server_tool_start(0, "srvtoolu_1"),
    citation_delta(0, CITATIONS["char_location"]),
    message_delta("max_tokens"),
    raw("ping", "nope"),
]


@given(st.lists(st.sampled_from(_EVENT_POOL), max_size=14))
def test_any_sequence_of_events_gives_a_response_or_a_typed_failure(events: list[SseEvent]) -> None:
    _check(events)


@st.composite
def planned_bodies(draw: st.DrawFn) -> tuple[list[SseEvent], list[Any], list[Any]]:
    """A random well-formed body, with the chunks and the content it must give."""
    events = [message_start()]
    chunks: list[Any] = []
    content: list[Any] = []
    call_ids = draw(st.lists(ids, unique=True, max_size=3))
    kinds = draw(
        st.permutations(
            ["tool"] * len(call_ids)
            + draw(st.lists(st.sampled_from(["text", "thinking"]), max_size=3))
        )
    )
    pending_ids = list(call_ids)
    for position, kind in enumerate(kinds):
        if draw(st.booleans()):
            events.append(ping())
        if kind == "text":
            pieces = draw(st.lists(st.text(max_size=6), max_size=4))
            events.append(text_start(position))
            events += [text_delta(position, piece) for piece in pieces]
            chunks += [CourseTextDeltaChunk(REQUEST_ID, piece) for piece in pieces]
            if "".join(pieces):
                content.append(CourseTextBlock("".join(pieces)))
        elif kind == "thinking":
            events.append(
                block_start(position, {"type": "thinking", "thinking": "", "signature": ""})
            )
            thought = draw(st.lists(st.text(max_size=6), max_size=3))
            events += [
                delta(position, {"type": "thinking_delta", "thinking": piece}) for piece in thought
            ]
            events.append(delta(position, {"type": "signature_delta", "signature": "c2ln"}))
            chunks += [CourseReasoningDeltaChunk(REQUEST_ID, piece) for piece in thought]
            signed = {"type": "thinking", "signature": "c2ln"}
            content.append(
                CourseReasoningBlock("".join(thought), opaque=CourseOpaque(WIRE, signed))
            )
        else:
            call_id = pending_ids.pop()
            name = draw(ids)
            arguments = draw(json_objects)
            text = json.dumps(_thawed(arguments))
            cuts = sorted(draw(st.lists(st.integers(0, len(text)), max_size=5)))
            bounds = [0, *cuts, len(text)]
            events.append(tool_start(position, call_id, name))
            events += [json_delta(position, text[a:b]) for a, b in pairwise(bounds)]
            call = CourseToolCall(call_id, name, arguments)
            chunks.append(CourseToolCallChunk(REQUEST_ID, call))
            content.append(call)
        events.append(block_stop(position))
    events.append(message_delta("tool_use" if call_ids else "end_turn", 7))
    if draw(st.booleans()):
        events.append(ping())
    events.append(message_stop())
    return events, chunks, content


def _thawed(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _thawed(item) for key, item in value.items()}
    if isinstance(value, tuple):
        return [_thawed(item) for item in value]
    return value


@given(planned_bodies())
def test_every_well_formed_body_gives_exactly_its_planned_chunks_and_content(
    planned: tuple[list[SseEvent], list[Any], list[Any]],
) -> None:
    events, expected_chunks, expected_content = planned

    chunks, response = success(events)

    assert chunks == expected_chunks
    assert list(response.message.content) == expected_content
    assert (response.usage.input_tokens, response.usage.output_tokens) == (10, 7)
