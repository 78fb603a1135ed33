"""Aborting a vendor model's call, end to end: at once, with the response closed, no task left.

An abort before the status arrives, in the middle of the body, and after a
consumer that stopped early; the live cases run against a loopback server,
which says whether the connection was released. Every test runs once per
vendor API.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from contextlib import aclosing

import pytest

from course_http import RecordedResponse, SseEvent
from course_http.loopback import LoopbackEnd, LoopbackResponse, LoopbackServer
from course_protocol import CourseModelChunk, CourseModelResponse, CourseTextDeltaChunk
from course_stream import AbortController, AbortError, EventStream
from tests.course_vendor.wires import (
    KEY,
    REQUEST,
    StallingTransport,
    Wire,
    every_wire,
)
from tests.streams import GUARD_SECONDS

DELTAS = ("first", " second", " third", " fourth")


def first_delta(events: list[SseEvent]) -> int:
    """The index of the event carrying the first delta."""
    return next(index for index, event in enumerate(events) if '"first"' in event.data)


def through_first_delta(wire: Wire) -> bytes:
    """The text answer's events up to the one carrying the first delta: a body cut mid-answer."""
    events = wire.text_events(*DELTAS)
    return wire.framed(events[: first_delta(events) + 1])


def event_cuts(wire: Wire, events: list[SseEvent]) -> tuple[int, ...]:
    """Byte offsets cutting ``events`` (framed as ``wire`` frames them) into one write per
    event, except that everything up to the first delta goes out in the first write."""
    offsets, at = [], 0
    start = first_delta(events)
    for index, event in enumerate(events[:-1]):
        at += len(wire.framed([event]))
        if index >= start:
            offsets.append(at)
    return tuple(offsets)


SETTLE_TURNS = 20
"""Loop turns the producer of an aborted call may take to finish its cleanup."""


async def settle_tasks() -> None:
    """Fail unless every task but the current one finishes within `SETTLE_TURNS` loop turns."""
    current = asyncio.current_task()
    for _ in range(SETTLE_TURNS):
        if all(task is current for task in asyncio.all_tasks()):
            return
        await asyncio.sleep(0)
    pytest.fail(f"tasks still pending: {asyncio.all_tasks() - {current}}")


async def consume(
    stream: EventStream[CourseModelChunk, CourseModelResponse],
    chunks: list[CourseModelChunk],
    on_chunk: Callable[[], None] = lambda: None,
) -> CourseModelResponse | BaseException:
    """Read ``stream`` into ``chunks`` (calling ``on_chunk`` after each); its result or error."""
    try:
        async for chunk in stream:
            chunks.append(chunk)
            on_chunk()
        return await stream.result
    except Exception as error:
        return error


@every_wire
async def test_an_abort_while_waiting_for_the_status_fails_at_once_and_lets_go(wire: Wire) -> None:
    reason = AbortError("the user left")
    controller = AbortController()
    async with StallingTransport() as transport:
        stream = wire.model(transport=transport, api_key=KEY).stream(REQUEST, controller.signal)
        async with asyncio.timeout(GUARD_SECONDS):
            await transport.exchange.arrived.wait()

        controller.abort(reason)

        assert stream.done
        with pytest.raises(AbortError) as from_result:
            await stream.result
        with pytest.raises(AbortError) as from_iteration:
            async for _ in stream:
                pass
        await settle_tasks()
    assert from_result.value is reason
    assert from_iteration.value is reason
    assert transport.exchange.cancelled


@every_wire
async def test_an_abort_mid_stream_fails_at_once_and_releases_the_connection(wire: Wire) -> None:
    reason = AbortError("enough")
    controller = AbortController()
    stalled = RecordedResponse(200, wire.media, through_first_delta(wire), end="stalled")
    async with (
        asyncio.timeout(GUARD_SECONDS),
        LoopbackServer([stalled]) as server,
        wire.model(api_key=KEY, base_url=server.base_url) as model,
    ):
        stream = model.stream(REQUEST, controller.signal)
        chunks: list[CourseModelChunk] = []
        done_at_abort: list[bool] = []

        def abort() -> None:
            controller.abort(reason)
            done_at_abort.append(stream.done)

        outcome = await consume(stream, chunks, abort)

        assert outcome is reason
        assert done_at_abort == [True]
        assert chunks == [CourseTextDeltaChunk("request-1", "first")]
        assert await server.wait_ended(0) is LoopbackEnd.CLIENT_DISCONNECTED
        await settle_tasks()


@every_wire
async def test_a_consumer_that_stops_early_and_aborts_releases_the_connection(wire: Wire) -> None:
    reason = AbortError("stopped reading")
    controller = AbortController()
    events = wire.text_events(*DELTAS)
    # One event per write, paced: the answer takes far longer than the test.
    paced = LoopbackResponse(
        RecordedResponse(200, wire.media, wire.framed(events)),
        chunking=event_cuts(wire, events),
        delay=2.0,
    )
    async with (
        asyncio.timeout(GUARD_SECONDS),
        LoopbackServer([paced]) as server,
        wire.model(api_key=KEY, base_url=server.base_url) as model,
    ):
        stream = model.stream(REQUEST, controller.signal)
        async with aclosing(aiter(stream)) as chunks:
            async for _chunk in chunks:
                break
        controller.abort(reason)

        with pytest.raises(AbortError) as raised:
            await stream.result
        assert raised.value is reason
        assert await server.wait_ended(0) is LoopbackEnd.CLIENT_DISCONNECTED
        await settle_tasks()


@every_wire
async def test_a_consumer_that_stops_early_without_aborting_leaves_the_call_to_finish(
    wire: Wire,
) -> None:
    events = wire.text_events(*DELTAS)
    paced = LoopbackResponse(
        RecordedResponse(200, wire.media, wire.framed(events)), chunking=event_cuts(wire, events)
    )
    async with (
        asyncio.timeout(GUARD_SECONDS),
        LoopbackServer([paced]) as server,
        wire.model(api_key=KEY, base_url=server.base_url) as model,
    ):
        stream = model.stream(REQUEST, AbortController().signal)
        async with aclosing(aiter(stream)) as chunks:
            first = await anext(chunks)

        response = await stream.result
        rest = [chunk async for chunk in stream]

        assert first == CourseTextDeltaChunk("request-1", "first")
        assert rest == [CourseTextDeltaChunk("request-1", delta) for delta in DELTAS[1:]]
        assert type(response) is CourseModelResponse
        assert await server.wait_ended(0) is LoopbackEnd.COMPLETE


@every_wire
async def test_an_abort_at_every_await_point_fails_with_the_reason_or_comes_too_late(
    wire: Wire,
) -> None:
    body = wire.text_body(*DELTAS)
    turns = 0
    outcomes: list[str] = []
    while True:
        reason = AbortError(f"abort after {turns} turns")
        controller = AbortController()
        async with wire.recorded(body, chunking="random", seed=3) as transport:
            stream = wire.model(transport=transport).stream(REQUEST, controller.signal)
            for _ in range(turns):
                await asyncio.sleep(0)
            settled_first = stream.done
            controller.abort(reason)
            assert stream.done
            chunks: list[CourseModelChunk] = []
            outcome = await consume(stream, chunks)
            if settled_first:
                assert type(outcome) is CourseModelResponse
                outcomes.append("finished")
            else:
                assert outcome is reason
                outcomes.append("aborted")
            deltas = [chunk.delta for chunk in chunks if type(chunk) is CourseTextDeltaChunk]
            assert deltas == list(DELTAS[: len(chunks)])
            await settle_tasks()
        if settled_first:
            break
        turns += 1
    assert outcomes[-1] == "finished"
    assert outcomes[:-1] == ["aborted"] * (len(outcomes) - 1)
    assert len(outcomes) > 3
