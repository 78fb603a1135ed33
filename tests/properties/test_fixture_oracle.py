"""Differential oracle: normalized fixture output against a model written from the plan alone.

A `ResponsePlan` is spelled as wire records and played through
FixtureProviderAdapter from every kind of record source. What comes out must
equal what the plan says: one text chunk per delta in order (their text
concatenated is the message's text), Tool-call ids, names and arguments as
given, ``message-<responseId>``, the wire stop reason normalized, and usage
normalized from whichever aliases were used, a count spelled as the float it
equals (``12.0``) coming out as that ``int``. Then one defect is planted in a
valid response and the model predicts the code, the record index and the
chunks delivered before the failure. Numbers are the reference's: an
infinity (its ``JSON.parse`` of ``1e400``) in an unknown field is ignored,
and fails only the record whose count or Tool-call arguments hold it.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from returns.result import Success

import course_provider_fixture._adapter
from course_protocol import (
    CourseModelChunk,
    CourseModelResponse,
    CourseTextBlock,
    CourseTextDeltaChunk,
    CourseToolCall,
    CourseToolCallChunk,
    text_from_assistant,
    thaw_json,
)
from course_provider_fixture import (
    FixtureProviderAdapter,
    FixtureProviderError,
    FixtureProviderErrorCode,
    parse_records,
)
from course_stream import AbortController, EventStream
from tests.course_provider_fixture.records import fixture
from tests.properties.hostile import (
    DictWithTraps,
    HandWrittenSource,
    ListWithTraps,
    TupleWithTraps,
    armed,
    generated_source,
)
from tests.properties.runner import run_example
from tests.properties.settling import counting_streams
from tests.properties.wire import ResponsePlan, TextItem, ToolItem, ids, response_plans
from tests.requests import request
from tests.streams import Settled, settle

Code = FixtureProviderErrorCode
Stream = EventStream[CourseModelChunk, CourseModelResponse]
SOURCE_KINDS = (
    "list",
    "tuple",
    "list with traps",
    "tuple with traps",
    "records with traps",
    "async generator",
    "async generator with loop turns",
    "hand-written iterator without aclose",
)


def expected_chunks(plan: ResponsePlan, request_id: str) -> list[tuple[Any, ...]]:
    """The oracle: one chunk per item, in plan order."""
    return [
        ("textDelta", request_id, item.delta)
        if isinstance(item, TextItem)
        else ("toolCall", request_id, item.call_id, item.name, item.arguments)
        for item in plan.items
    ]


def expected_response(plan: ResponsePlan, request_id: str) -> dict[str, Any]:
    """The oracle: the terminal response the plan describes."""
    return {
        "id": plan.response_id,
        "request_id": request_id,
        "message_id": "message-" + plan.response_id,
        "blocks": [
            ("text", item.delta, (), None)
            if isinstance(item, TextItem)
            else ("toolCall", item.call_id, item.name, item.arguments, None)
            for item in plan.items
        ],
        "text": "".join(item.delta for item in plan.items if isinstance(item, TextItem)),
        "stop_reason": "toolCall" if plan.calls_tools else "stop",
        # The reference's vocabulary has two counts: the others are never sent, never 0.
        "usage": (plan.input_tokens, plan.output_tokens, None, None, None),
        "usage_types": (int, int),
    }


def observed_chunk(chunk: CourseModelChunk) -> tuple[Any, ...]:
    if type(chunk) is CourseTextDeltaChunk:
        return ("textDelta", chunk.request_id, chunk.delta)
    assert type(chunk) is CourseToolCallChunk, "the fixture streams no reasoning"
    call = chunk.tool_call
    assert call.opaque is None
    return ("toolCall", chunk.request_id, call.id, call.name, thaw_json(call.arguments))


def observed_response(response: CourseModelResponse) -> dict[str, Any]:
    blocks: list[tuple[Any, ...]] = []
    for block in response.message.content:
        if type(block) is CourseTextBlock:
            blocks.append(("text", block.text, block.citations, block.opaque))
        else:
            assert type(block) is CourseToolCall, "the fixture holds text and Tool calls only"
            arguments = thaw_json(block.arguments)
            blocks.append(("toolCall", block.id, block.name, arguments, block.opaque))
    return {
        "id": response.id,
        "request_id": response.request_id,
        "message_id": response.message.id,
        "blocks": blocks,
        "text": text_from_assistant(response.message),
        "stop_reason": str(response.stop_reason),
        "usage": (
            response.usage.input_tokens,
            response.usage.output_tokens,
            response.usage.cache_read_tokens,
            response.usage.cache_write_tokens,
            response.usage.reasoning_tokens,
        ),
        "usage_types": (type(response.usage.input_tokens), type(response.usage.output_tokens)),
    }


def as_source(records: list[Any], kind: str) -> object:
    if kind == "list":
        return records
    if kind == "tuple":
        return tuple(records)
    if kind == "list with traps":
        return ListWithTraps(records)
    if kind == "tuple with traps":
        return TupleWithTraps(records)
    if kind == "records with traps":
        return [DictWithTraps(record) if type(record) is dict else record for record in records]
    if kind == "hand-written iterator without aclose":
        return HandWrittenSource(records, "end")
    return generated_source(records, turns=kind.endswith("loop turns"))


Played = Settled[CourseModelChunk, CourseModelResponse]


async def play_one(records_source: object, request_id: str) -> Played:
    with armed():
        adapter = FixtureProviderAdapter(fixture(records_source))
    with counting_streams(course_provider_fixture._adapter) as made, armed():
        played = await settle(
            adapter.stream(request(request_id, message_id="m-1"), AbortController().signal)
        )
    assert [one.terminal_calls for one in made] == [1]
    assert adapter.pending_response_count == 0
    return played


@given(plan=response_plans(), request_id=ids, kind=st.sampled_from(SOURCE_KINDS))
def test_a_valid_response_normalizes_to_what_the_independent_model_predicts(
    plan: ResponsePlan, request_id: str, kind: str
) -> None:
    played = run_example(lambda: play_one(as_source(plan.records(), kind), request_id))

    assert played.iteration_error is None
    assert [observed_chunk(chunk) for chunk in played.events] == expected_chunks(plan, request_id)
    assert isinstance(played.result, CourseModelResponse)
    assert observed_response(played.result) == expected_response(plan, request_id)
    match parse_records(plan.records(), request_id):
        case Success((chunks, response)):
            assert list(chunks) == played.events
            assert response == played.result
        case failure:
            raise AssertionError(f"parse_records disagrees with the stream: {failure}")


@dataclass(frozen=True)
class Defect:
    """A defect planted in a valid response, with the failure the model predicts."""

    records: list[dict[str, Any]]
    code: FixtureProviderErrorCode
    record_index: int
    chunks_before: int
    provider_code: str | None = None


def _chunk_count(plan: ResponsePlan, upto_item: int) -> int:
    return len(plan.items[:upto_item])


def plant(plan: ResponsePlan, defect: str, where: int) -> Defect:
    """Spell ``plan`` with ``defect``; the expected failure comes from the plan, not a parser."""
    records = plan.records()
    end = len(records) - 1
    items = len(plan.items)
    at = 1 + where % (items + 1)  # a position after the start, up to the end record
    if defect == "no end":
        return Defect(records[:-1], Code.PROVIDER_MISSING_TERMINAL, end, items)
    if defect == "record after the end":
        extra: dict[str, Any] = {"type": "text_delta", "text": "late"}
        return Defect([*records, extra], Code.PROVIDER_INVALID_TERMINAL, end + 1, items)
    if defect == "second end":
        return Defect(
            [*records, dict(records[-1])], Code.PROVIDER_DUPLICATE_TERMINAL, end + 1, items
        )
    if defect == "end names another response":
        records[-1]["responseId"] = plan.response_id + "-other"
        return Defect(records, Code.PROVIDER_RESPONSE_MISMATCH, end, items)
    if defect == "stop reason contradicts the Tool calls":
        records[-1]["stopReason"] = "stop" if plan.calls_tools else "tool_call"
        return Defect(records, Code.PROVIDER_INVALID_TERMINAL, end, items)
    if defect == "both aliases of one count":
        usage = records[-1]["usage"]
        usage["inputTokens"] = usage["input_tokens"] = None
        return Defect(records, Code.PROVIDER_INVALID_EVENT, end, items)
    if defect == "a count with a fraction":
        usage = records[-1]["usage"]
        key = "input_tokens" if plan.snake_input else "inputTokens"
        usage[key] = plan.input_tokens + 0.5 if plan.input_tokens < 2**52 else 0.5
        return Defect(records, Code.PROVIDER_INVALID_EVENT, end, items)
    if defect == "an infinite count":
        # What the reference's JSON.parse makes of 1e400: a number, but no count.
        usage = records[-1]["usage"]
        key = "input_tokens" if plan.snake_input else "inputTokens"
        usage[key] = math.inf if where % 2 else -math.inf
        return Defect(records, Code.PROVIDER_INVALID_EVENT, end, items)
    if defect == "an infinite Tool-call argument":
        call = {"type": "tool_call", "id": "call-inf", "name": "add", "arguments": {"x": math.inf}}
        records.insert(at, call)
        return Defect(records, Code.PROVIDER_INVALID_EVENT, at, _chunk_count(plan, at - 1))
    if defect == "text before the start":
        return Defect(
            [{"type": "text_delta", "text": "early"}, *records], Code.PROVIDER_MISSING_START, 0, 0
        )
    if defect == "second start":
        records.insert(at, dict(records[0]))
        return Defect(records, Code.PROVIDER_DUPLICATE_START, at, _chunk_count(plan, at - 1))
    if defect == "unknown record type":
        records.insert(at, {"type": "response_delta"})
        return Defect(records, Code.PROVIDER_UNKNOWN_EVENT, at, _chunk_count(plan, at - 1))
    if defect == "transport error":
        records.insert(at, {"type": "transport_error", "code": "overloaded", "message": "busy"})
        return Defect(
            records,
            Code.PROVIDER_TRANSPORT_ERROR,
            at,
            _chunk_count(plan, at - 1),
            provider_code="overloaded",
        )
    assert defect == "repeated Tool-call id"
    call = {"type": "tool_call", "id": "call-twice", "name": "add", "arguments": {}}
    records[at:at] = [call, dict(call)]
    return Defect(records, Code.PROVIDER_INVALID_EVENT, at + 1, _chunk_count(plan, at - 1) + 1)


DEFECTS = (
    "no end",
    "record after the end",
    "second end",
    "end names another response",
    "stop reason contradicts the Tool calls",
    "both aliases of one count",
    "a count with a fraction",
    "an infinite count",
    "an infinite Tool-call argument",
    "text before the start",
    "second start",
    "unknown record type",
    "transport error",
    "repeated Tool-call id",
)


def _without_id(plan: ResponsePlan, call_id: str) -> Iterator[bool]:
    return (isinstance(item, ToolItem) and item.call_id == call_id for item in plan.items)


@given(
    plan=response_plans(),
    defect=st.sampled_from(DEFECTS),
    where=st.integers(min_value=0, max_value=20),
    kind=st.sampled_from(SOURCE_KINDS),
)
def test_a_planted_defect_fails_with_the_predicted_code_index_and_chunks(
    plan: ResponsePlan, defect: str, where: int, kind: str
) -> None:
    if defect == "repeated Tool-call id" and any(_without_id(plan, "call-twice")):
        return
    planted = plant(plan, defect, where)
    played = run_example(lambda: play_one(as_source(planted.records, kind), "request-1"))

    error = played.result_error
    assert type(error) is FixtureProviderError
    assert played.iteration_error is error
    assert (error.code, error.record_index) == (planted.code, planted.record_index)
    assert error.provider_code == planted.provider_code
    assert len(played.events) == planted.chunks_before
    expected = expected_chunks(plan, "request-1")
    observed = [observed_chunk(chunk) for chunk in played.events]
    if defect == "repeated Tool-call id":
        expected = [*expected[: planted.chunks_before - 1], observed[-1]]
        assert observed[-1][2] == "call-twice"
    assert observed == expected[: planted.chunks_before]
