"""Several calls at once, cancelled consumers, and large scripts."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

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
from course_scripted import (
    ScriptedModel,
    ScriptedModelError,
    ScriptedModelErrorCode,
    ScriptedResponseFactory,
)
from course_stream import AbortController, AbortError, AbortSignal, EventStream
from tests.course_scripted.helpers import USAGE, reply
from tests.requests import request
from tests.streams import GUARD_SECONDS

Turn = AsyncIterator[CourseModelChunk | CourseModelResponse]
Stream = EventStream[CourseModelChunk, CourseModelResponse]


def slow_reply(response_id: str, release: asyncio.Event) -> ScriptedResponseFactory:
    """Holds its turn until ``release`` is set, so calls overlap."""

    async def factory(request: CourseModelRequest, signal: AbortSignal) -> Turn:
        await release.wait()
        yield CourseTextDeltaChunk(request_id=request.id, delta=response_id)
        yield CourseModelResponse(
            id=response_id,
            request_id=request.id,
            message=CourseAssistantMessage(
                id=f"m-{response_id}", content=(CourseTextBlock(text=response_id),)
            ),
            stop_reason=CourseStopReason.STOP,
            usage=USAGE,
        )

    return factory


async def test_overlapping_calls_are_served_first_in_first_out_in_call_order() -> None:
    release = asyncio.Event()
    model = ScriptedModel([slow_reply(f"response-{n}", release) for n in range(5)])
    streams = [model.stream(request(f"request-{n}"), AbortController().signal) for n in range(5)]

    release.set()
    responses = await asyncio.wait_for(
        asyncio.gather(*(stream.result for stream in streams)), GUARD_SECONDS
    )

    assert [(r.id, r.request_id) for r in responses] == [
        (f"response-{n}", f"request-{n}") for n in range(5)
    ]
    for n, stream in enumerate(streams):
        assert [chunk async for chunk in stream] == [
            CourseTextDeltaChunk(request_id=f"request-{n}", delta=f"response-{n}")
        ]


async def test_a_pre_aborted_call_among_overlapping_calls_does_not_shift_the_queue() -> None:
    model = ScriptedModel([reply("response-a"), reply("response-b")])
    first = model.stream(request("request-1"), AbortController().signal)
    skipped = model.stream(request("request-2"), AbortSignal.aborted_signal())
    third = model.stream(request("request-3"), AbortController().signal)

    assert (await first.result).id == "response-a"
    with pytest.raises(AbortError):
        await skipped.result
    assert (await third.result).id == "response-b"
    assert model.call_count == 3
    assert [r.id for r in model.requests] == ["request-1", "request-2", "request-3"]


async def test_more_overlapping_calls_than_factories_exhaust_only_the_late_ones() -> None:
    model = ScriptedModel([reply("response-a")])
    streams = [model.stream(request(f"request-{n}"), AbortController().signal) for n in range(3)]

    outcomes = await asyncio.gather(*(s.result for s in streams), return_exceptions=True)

    assert isinstance(outcomes[0], CourseModelResponse)
    for late in outcomes[1:]:
        assert isinstance(late, ScriptedModelError)
        assert late.code is ScriptedModelErrorCode.SCRIPT_EXHAUSTED
    assert outcomes[1] is not outcomes[2]


async def test_aborting_one_call_leaves_the_overlapping_calls_untouched() -> None:
    release = asyncio.Event()
    model = ScriptedModel([slow_reply(f"response-{n}", release) for n in range(3)])
    controllers = [AbortController() for _ in range(3)]
    streams = [
        model.stream(request(f"request-{n}"), controller.signal)
        for n, controller in enumerate(controllers)
    ]
    await asyncio.sleep(0)

    controllers[1].abort()
    release.set()
    outcomes = await asyncio.wait_for(
        asyncio.gather(*(s.result for s in streams), return_exceptions=True), GUARD_SECONDS
    )

    assert isinstance(outcomes[0], CourseModelResponse)
    assert outcomes[1] is controllers[1].signal.reason
    assert isinstance(outcomes[2], CourseModelResponse)
    assert outcomes[2].id == "response-2"


async def test_one_signal_shared_by_many_calls_aborts_every_one_still_running() -> None:
    release = asyncio.Event()
    controller = AbortController()
    model = ScriptedModel([slow_reply(f"response-{n}", release) for n in range(4)])
    streams = [model.stream(request(f"request-{n}"), controller.signal) for n in range(4)]
    await asyncio.sleep(0)

    controller.abort()
    outcomes = await asyncio.wait_for(
        asyncio.gather(*(s.result for s in streams), return_exceptions=True), GUARD_SECONDS
    )

    assert all(outcome is controller.signal.reason for outcome in outcomes)
    assert model.pending_response_count == 0


async def test_cancelling_the_consumer_task_leaves_the_call_to_finish_normally() -> None:
    release = asyncio.Event()
    model = ScriptedModel([slow_reply("response-1", release)])
    stream = model.stream(request("request-1"), AbortController().signal)

    async def consume() -> list[CourseModelChunk]:
        async with contextlib.aclosing(aiter(stream)) as events:
            return [chunk async for chunk in events]

    consumer = asyncio.ensure_future(consume())
    await asyncio.sleep(0)
    consumer.cancel()
    with pytest.raises(asyncio.CancelledError):
        await consumer

    release.set()
    response = await asyncio.wait_for(stream.result, GUARD_SECONDS)
    assert response.id == "response-1"
    assert [chunk async for chunk in stream] == [
        CourseTextDeltaChunk(request_id="request-1", delta="response-1")
    ]


async def test_cancelling_a_task_awaiting_the_result_does_not_cancel_the_call() -> None:
    release = asyncio.Event()
    model = ScriptedModel([slow_reply("response-1", release)])
    stream = model.stream(request("request-1"), AbortController().signal)

    async def wait_for_result() -> CourseModelResponse:
        return await stream.result

    waiter = asyncio.ensure_future(wait_for_result())
    await asyncio.sleep(0)
    waiter.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiter

    release.set()
    assert (await asyncio.wait_for(stream.result, GUARD_SECONDS)).id == "response-1"


async def test_a_long_turn_streams_every_chunk_in_order() -> None:
    count = 20_000

    async def factory(request: CourseModelRequest, signal: AbortSignal) -> Turn:
        for n in range(count):
            yield CourseTextDeltaChunk(request_id=request.id, delta=str(n))
        yield CourseModelResponse(
            id="response-long",
            request_id=request.id,
            message=CourseAssistantMessage(id="m", content=(CourseTextBlock(text="long"),)),
            stop_reason=CourseStopReason.STOP,
            usage=CourseModelUsage(input_tokens=count, output_tokens=count),
        )

    model = ScriptedModel([factory])
    stream = model.stream(request("request-long"), AbortController().signal)

    deltas = [chunk.delta async for chunk in stream if isinstance(chunk, CourseTextDeltaChunk)]
    assert deltas == [str(n) for n in range(count)]
    assert (await stream.result).usage.output_tokens == count


async def test_a_long_script_is_played_in_order() -> None:
    count = 2_000
    model = ScriptedModel([reply(f"response-{n}") for n in range(count)])

    ids = [
        (await model.stream(request(f"request-{n}"), AbortController().signal).result).id
        for n in range(count)
    ]

    assert ids == [f"response-{n}" for n in range(count)]
    model.assert_consumed()
