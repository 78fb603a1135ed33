"""An abort at every await point of a long response, for both adapters and every source kind.

Each case holds production at one step (the factory or the record source
awaits a gate that never opens), aborts, and checks that the stream fails
with the abort reason itself (iteration and result, the same object), that
exactly the chunks before that step were delivered, that the factory or the
source was closed (its ``finally`` ran, or its ``aclose`` was awaited), and
that no task is left pending.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

from course_protocol import (
    CourseAssistantMessage,
    CourseModelChunk,
    CourseModelRequest,
    CourseModelResponse,
    CourseModelUsage,
    CourseStopReason,
    CourseTextBlock,
    CourseTextDeltaChunk,
)
from course_provider_fixture import FixtureProviderAdapter
from course_scripted import ScriptedModel
from course_stream import AbortController, AbortSignal, EventStream
from tests.course_provider_fixture.records import Record, end, fixture, start, text
from tests.requests import request
from tests.streams import GUARD_SECONDS, read_until_failure, text_deltas
from tests.tasks import tasks_left

Stream = EventStream[CourseModelChunk, CourseModelResponse]
CHUNKS = 12
REQUEST = request("request-long", message_id="m-1")
RECORDS: list[Record] = [
    start("response-long"),
    *(text(f"part {n} ") for n in range(CHUNKS)),
    end("response-long", usage={"inputTokens": 1, "outputTokens": CHUNKS}),
]
SOURCE_STEPS = len(RECORDS) + 1
"""Every ``__anext__`` of a source: one per record, and the one that ends it."""


class Gate:
    """Where production stops: ``reached`` is set when the held step starts; it never opens."""

    def __init__(self, hold_at: int) -> None:
        self.hold_at = hold_at
        self.reached = asyncio.Event()
        self.closed = False

    async def step(self, index: int) -> None:
        if index == self.hold_at:
            self.reached.set()
            await asyncio.Event().wait()


def scripted_factory(gate: Gate) -> Any:
    async def factory(request: CourseModelRequest, signal: AbortSignal) -> AsyncIterator[object]:
        try:
            for n in range(CHUNKS):
                await gate.step(n)
                yield CourseTextDeltaChunk(request_id=request.id, delta=f"part {n} ")
            await gate.step(CHUNKS)
            yield CourseModelResponse(
                id="response-long",
                request_id=request.id,
                message=CourseAssistantMessage(id="m-out", content=(CourseTextBlock("done"),)),
                stop_reason=CourseStopReason.STOP,
                usage=CourseModelUsage(input_tokens=1, output_tokens=CHUNKS),
            )
            await gate.step(CHUNKS + 1)
        finally:
            gate.closed = True

    return factory


async def generator_source(gate: Gate) -> AsyncIterator[object]:
    try:
        for index, record in enumerate(RECORDS):
            await gate.step(index)
            yield record
        await gate.step(len(RECORDS))
    finally:
        gate.closed = True


class IteratorSource:
    """A hand-written async iterator: closing it means awaiting its ``aclose``."""

    def __init__(self, gate: Gate) -> None:
        self.gate = gate
        self.index = 0

    def __aiter__(self) -> IteratorSource:
        return self

    async def __anext__(self) -> object:
        index = self.index
        self.index += 1
        await self.gate.step(index)
        if index == len(RECORDS):
            raise StopAsyncIteration
        return RECORDS[index]

    async def aclose(self) -> None:
        self.gate.closed = True


async def abort_while_held(
    stream: Stream, gate: Gate, controller: AbortController
) -> tuple[list[CourseModelChunk], BaseException]:
    reader = asyncio.ensure_future(read_until_failure(stream))
    await asyncio.wait_for(gate.reached.wait(), GUARD_SECONDS)
    reason = RuntimeError(f"aborted at step {gate.hold_at}")
    controller.abort(reason)
    chunks, error = await reader
    assert error is reason
    with pytest.raises(RuntimeError) as from_result:
        await asyncio.wait_for(stream.result, GUARD_SECONDS)
    assert from_result.value is reason
    assert await tasks_left() == set()
    assert gate.closed, "the factory or source was not closed"
    return chunks, error


@pytest.mark.parametrize("step", range(CHUNKS + 2))
async def test_an_abort_at_any_step_of_a_scripted_factory_fails_with_the_reason(
    step: int,
) -> None:
    gate = Gate(step)
    controller = AbortController()
    model = ScriptedModel([scripted_factory(gate)])

    chunks, _ = await abort_while_held(model.stream(REQUEST, controller.signal), gate, controller)

    assert text_deltas(chunks) == [f"part {n} " for n in range(min(step, CHUNKS))]
    assert model.pending_response_count == 0


@pytest.mark.parametrize("source", ["async generator", "hand-written iterator"])
@pytest.mark.parametrize("step", range(SOURCE_STEPS))
async def test_an_abort_at_any_step_of_an_async_record_source_fails_with_the_reason(
    step: int, source: str
) -> None:
    gate = Gate(step)
    controller = AbortController()
    records = generator_source(gate) if source == "async generator" else IteratorSource(gate)
    adapter = FixtureProviderAdapter(fixture(records))

    chunks, _ = await abort_while_held(adapter.stream(REQUEST, controller.signal), gate, controller)

    text_records_before = [r for r in RECORDS[:step] if r["type"] == "text_delta"]
    assert text_deltas(chunks) == [r["text"] for r in text_records_before]
    assert adapter.pending_response_count == 0


def _fixture_with_array() -> FixtureProviderAdapter:
    return FixtureProviderAdapter(fixture(RECORDS))


@pytest.mark.parametrize("model_kind", ["scripted", "fixture array", "fixture async source"])
async def test_an_abort_before_production_starts_keeps_the_response_queued(
    model_kind: str,
) -> None:
    gate = Gate(-1)
    model: ScriptedModel | FixtureProviderAdapter
    if model_kind == "scripted":
        model = ScriptedModel([scripted_factory(gate)])
    elif model_kind == "fixture array":
        model = _fixture_with_array()
    else:
        model = FixtureProviderAdapter(fixture(IteratorSource(gate)))
    controller = AbortController()
    stream = model.stream(REQUEST, controller.signal)
    reason = RuntimeError("aborted before the producer ran")
    controller.abort(reason)

    chunks, error = await read_until_failure(stream)

    assert (chunks, error) == ([], reason)
    assert error is reason
    assert await tasks_left() == set()
    assert model.pending_response_count == 1
    assert not gate.closed, "production never started, so there was nothing to close"


@pytest.mark.parametrize("read_before_abort", range(1, CHUNKS + 1))
async def test_a_short_array_plays_in_one_step_so_a_later_abort_changes_nothing(
    read_before_abort: int,
) -> None:
    # An array of up to RECORDS_PER_TURN records has no await point: the whole
    # response is parsed and the stream settled in the producer's first step.
    # An abort after that step is too late by design, wherever the consumer is
    # (tests/course_provider_fixture/test_long_arrays.py covers longer arrays).
    adapter = _fixture_with_array()
    controller = AbortController()
    stream = adapter.stream(REQUEST, controller.signal)
    chunks: list[CourseModelChunk] = []
    iterator = aiter(stream)
    for _ in range(read_before_abort):
        chunks.append(await asyncio.wait_for(anext(iterator), GUARD_SECONDS))
    controller.abort(RuntimeError("too late"))
    chunks.extend([chunk async for chunk in iterator])

    response = await stream.result

    assert text_deltas(chunks) == [f"part {n} " for n in range(CHUNKS)]
    assert response.id == "response-long"
    assert await tasks_left() == set()


@pytest.mark.parametrize("read_before_abort", range(1, CHUNKS + 1))
async def test_a_consumer_abort_after_any_chunk_of_a_turn_that_yields_fails_with_the_reason(
    read_before_abort: int,
) -> None:
    closed = asyncio.Event()

    async def factory(
        request: CourseModelRequest, signal: AbortSignal
    ) -> AsyncIterator[CourseModelChunk | CourseModelResponse]:
        try:
            for n in range(CHUNKS):
                yield CourseTextDeltaChunk(request_id=request.id, delta=f"part {n} ")
                await asyncio.sleep(0)
            await asyncio.Event().wait()
        finally:
            closed.set()

    controller = AbortController()
    stream = ScriptedModel([factory]).stream(REQUEST, controller.signal)
    reason = RuntimeError(f"aborted after {read_before_abort} chunk(s)")
    chunks: list[CourseModelChunk] = []

    async def consume() -> None:
        async for chunk in stream:
            chunks.append(chunk)
            if len(chunks) == read_before_abort:
                controller.abort(reason)

    with pytest.raises(RuntimeError) as caught:
        await asyncio.wait_for(consume(), GUARD_SECONDS)

    assert caught.value is reason
    assert read_before_abort <= len(chunks) <= CHUNKS
    assert text_deltas(chunks) == [f"part {n} " for n in range(len(chunks))]
    assert closed.is_set()
    assert await tasks_left() == set()
