"""Hostile streams: cut short, torn mid-frame, or mutated anywhere; never a wrong response.

A connection that drops is a stream that ends early; a torn frame is data
that stops mid-JSON. Mutations replace, delete or retype one value
anywhere inside one event. Whatever happens, each parser either fails with
a `VendorError` that names the event, or gives a response that agrees
with the chunks it streamed; it never raises anything else.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from course_http import SseEvent, VendorError, VendorErrorCode
from course_protocol import (
    CourseTextDeltaChunk,
    CourseToolCall,
    CourseToolCallChunk,
    terminal_semantics_error,
    text_from_assistant,
)
from course_provider_openai import ChatMapping, ChatResult, ResponsesMapping
from tests.course_protocol import strategies
from tests.course_provider_openai.bodies import (
    DONE,
    chat_events,
    chat_text_stream,
    completed,
    created,
    finish,
    function_call,
    message_item,
    output_text,
    responses_events,
    responses_text_stream,
    text,
    tool_arguments,
    tool_start,
    usage,
)
from tests.course_provider_openai.chat_grammar import folded
from tests.course_provider_openai.driving import Replay, StreamParser, replay

Code = VendorErrorCode


def chat_tools() -> list[SseEvent]:
    return chat_events(
        text("Calling."),
        tool_start(0, "call_a", "add", '{"a":'),
        tool_start(1, "call_b", "now"),
        tool_arguments(0, " 1}"),
        finish("tool_calls"),
        usage(),
        DONE,
    )


def responses_mixed() -> list[SseEvent]:
    reasoning = {"id": "rs_1", "type": "reasoning", "summary": []}
    where = {"item_id": "msg_1", "output_index": 1, "content_index": 0}
    call = function_call("fc_1", "call_1", "add")
    done_call = {**call, "arguments": '{"a": 1}', "status": "completed"}
    done_message = message_item("msg_1", status="completed", content=[output_text("Adding.")])
    return responses_events(
        created(),
        {"type": "response.output_item.added", "output_index": 0, "item": reasoning},
        {"type": "response.output_item.done", "output_index": 0, "item": reasoning},
        {"type": "response.output_item.added", "output_index": 1, "item": message_item("msg_1")},
        {"type": "response.content_part.added", **where, "part": output_text()},
        {"type": "response.output_text.delta", **where, "delta": "Adding."},
        {"type": "response.output_text.done", **where, "text": "Adding."},
        {"type": "response.content_part.done", **where, "part": output_text("Adding.")},
        {"type": "response.output_item.done", "output_index": 1, "item": done_message},
        {"type": "response.output_item.added", "output_index": 2, "item": call},
        {
            "type": "response.function_call_arguments.delta",
            "item_id": "fc_1",
            "output_index": 2,
            "delta": '{"a": 1}',
        },
        {
            "type": "response.function_call_arguments.done",
            "item_id": "fc_1",
            "output_index": 2,
            "arguments": '{"a": 1}',
        },
        {"type": "response.output_item.done", "output_index": 2, "item": done_call},
        completed([reasoning, done_message, done_call]),
    )


STREAMS: dict[str, tuple[Callable[[str], StreamParser], Callable[[], list[SseEvent]]]] = {
    "chat-text": (ChatMapping, lambda: chat_text_stream("The sum", " is 42.")),
    "chat-tools": (ChatMapping, chat_tools),
    "responses-text": (ResponsesMapping, lambda: responses_text_stream("4", "2")),
    "responses-mixed": (ResponsesMapping, responses_mixed),
}


def check_outcome(outcome: Replay, events: list[SseEvent]) -> None:
    """A failure names an event; a response agrees with what was streamed."""
    if outcome.error is not None:
        error = outcome.error
        assert error.event_index is not None
        assert 0 <= error.event_index <= len(events)
        assert error.message.startswith(f"event {error.event_index}: ")
        return
    response = outcome.response
    assert response is not None
    assert terminal_semantics_error(response.stop_reason, response.message) is None
    streamed = "".join(c.delta for c in outcome.chunks if type(c) is CourseTextDeltaChunk)
    assert text_from_assistant(response.message) == streamed
    calls = [c.tool_call for c in outcome.chunks if type(c) is CourseToolCallChunk]
    assert calls == [block for block in response.message.content if type(block) is CourseToolCall]


@pytest.mark.parametrize("name", sorted(STREAMS))
def test_every_stream_cut_short_fails_as_missing_terminal_and_only_the_whole_one_answers(
    name: str,
) -> None:
    parser_type, build = STREAMS[name]
    events = build()
    # Chat's closing [DONE] is optional: the body is whole without it.
    whole = len(events) - 1 if events[-1].data == DONE else len(events)
    for length in range(whole, len(events) + 1):
        assert replay(parser_type("request-1"), events[:length]).response is not None

    for length in range(whole):
        outcome = replay(parser_type("request-1"), events[:length])
        assert outcome.response is None
        assert outcome.error is not None
        assert outcome.error.code is Code.VENDOR_MISSING_TERMINAL, (length, outcome.error)
        assert outcome.error.event_index == length


@pytest.mark.parametrize("name", sorted(STREAMS))
def test_an_event_torn_in_the_middle_of_its_data_is_an_invalid_event(name: str) -> None:
    parser_type, build = STREAMS[name]
    events = build()

    for position, event in enumerate(events):
        torn = [*events[:position], SseEvent(event.event, event.data[: len(event.data) // 2])]
        outcome = replay(parser_type("request-1"), [*torn, *events[position + 1 :]])
        assert outcome.error is not None
        assert (outcome.error.code, outcome.error.event_index) == (
            Code.VENDOR_INVALID_EVENT,
            position,
        ), outcome.error


def nodes(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value inside a decoded payload, the root excluded."""
    found: list[tuple[Any, ...]] = []
    children = (
        value.items() if type(value) is dict else enumerate(value) if type(value) is list else ()
    )
    for key, child in children:
        found.append((*path, key))
        found.extend(nodes(child, (*path, key)))
    return found


@st.composite
def mutated_streams(draw: st.DrawFn) -> tuple[str, list[SseEvent]]:
    name = draw(st.sampled_from(sorted(STREAMS)))
    events = STREAMS[name][1]()
    position = draw(st.integers(min_value=0, max_value=len(events) - 1))
    event = events[position]
    if event.data == DONE:
        replacement = draw(st.sampled_from(["[DONE] ", "[done]", "", "null", "{}"]))
        return name, [
            *events[:position],
            SseEvent(event.event, replacement),
            *events[position + 1 :],
        ]
    payload = json.loads(event.data)
    path = draw(st.sampled_from(nodes(payload)))
    parent = payload
    for key in path[:-1]:
        parent = parent[key]
    if draw(st.booleans()):
        del parent[path[-1]]
    else:
        parent[path[-1]] = draw(strategies.plain_json)
    mutated = SseEvent(event.event, json.dumps(payload))
    return name, [*events[:position], mutated, *events[position + 1 :]]


@given(mutated_streams())
def test_a_stream_with_one_value_mutated_fails_typed_or_answers_consistently(
    case: tuple[str, list[SseEvent]],
) -> None:
    name, events = case
    outcome = replay(STREAMS[name][0]("request-1"), events)

    check_outcome(outcome, events)


@given(st.lists(strategies.plain_json, max_size=6), st.sampled_from(sorted(STREAMS)))
def test_arbitrary_json_events_after_a_valid_start_never_raise_anything_but_vendor_errors(
    payloads: list[object], name: str
) -> None:
    parser_type, build = STREAMS[name]
    start = build()[:2]
    events = [*start, *(SseEvent("message", json.dumps(payload)) for payload in payloads)]

    check_outcome(replay(parser_type("request-1"), events), events)


@given(mutated_streams().filter(lambda case: case[0].startswith("chat-")))
def test_the_chat_grammar_refuses_what_the_mapping_refuses_at_the_same_event_or_later(
    case: tuple[str, list[SseEvent]],
) -> None:
    _name, events = case
    mapped = replay(ChatMapping("request-1"), events)
    judged = folded(events)

    if isinstance(judged, VendorError):
        assert judged.event_index is not None
        assert 0 <= judged.event_index <= len(events)
        assert judged.message.startswith(f"event {judged.event_index}: ")
        # The mapping reads each frame through the grammar: it fails there, or sooner.
        assert mapped.error is not None
        assert mapped.error.event_index is not None
        assert mapped.error.event_index <= judged.event_index
    else:
        assert type(judged) is ChatResult
        assert mapped.error is not None or mapped.response is not None
