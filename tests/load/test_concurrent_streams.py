"""1,000 concurrent streams on one model: each gets its own response, in call order.

All calls are started before any is consumed, then consumed at once (a
gather of 1,000 consumers), so production tasks, parked reads and sources
interleave. Memory for a 1,000,000-record fixture is measured by
``make bench`` (benchmarks/scaling.py, peak RSS per source kind), not here:
a timed or memory-bound test would be flaky on a shared machine.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

from course_protocol import (
    CourseModelChunk,
    CourseModelRequest,
    CourseModelResponse,
    CourseModelUsage,
    CourseTextDeltaChunk,
)
from course_provider_fixture import FixtureProviderAdapter
from course_scripted import ScriptedModel, reply_text
from course_stream import AbortController, EventStream
from tests.course_provider_fixture.records import Record, end, fixture, start, text
from tests.requests import request

Stream = EventStream[CourseModelChunk, CourseModelResponse]
CALLS = 1_000
ALL_CALLS_GUARD_SECONDS = 60.0
"""A thousand calls read at once get a longer bound than tests.streams.GUARD_SECONDS."""


def records(index: int) -> list[Record]:
    return [
        start(f"response-{index}"),
        text(f"reply {index}, "),
        text("in order"),
        end(f"response-{index}", usage={"inputTokens": index, "outputTokens": 2}),
    ]


async def interleaving_source(index: int) -> AsyncIterator[object]:
    for record in records(index):
        await asyncio.sleep(0)
        yield record


async def collect(stream: Stream) -> tuple[list[str], CourseModelResponse]:
    deltas = [chunk.delta async for chunk in stream if type(chunk) is CourseTextDeltaChunk]
    return deltas, await stream.result


async def consume_all(streams: list[Stream]) -> list[tuple[list[str], CourseModelResponse]]:
    return await asyncio.wait_for(asyncio.gather(*map(collect, streams)), ALL_CALLS_GUARD_SECONDS)


async def test_a_thousand_concurrent_fixture_streams_each_receive_their_own_response() -> None:
    adapter = FixtureProviderAdapter(
        fixture(*(records(n) if n % 2 else interleaving_source(n) for n in range(CALLS)))
    )
    signal = AbortController().signal

    streams = [adapter.stream(request(f"request-{n}"), signal) for n in range(CALLS)]
    played = await consume_all(streams)

    for n, (deltas, response) in enumerate(played):
        assert deltas == [f"reply {n}, ", "in order"]
        assert (response.id, response.request_id) == (f"response-{n}", f"request-{n}")
        assert response.usage == CourseModelUsage(input_tokens=n, output_tokens=2)
    assert adapter.call_count == CALLS
    adapter.assert_consumed()


async def test_a_thousand_concurrent_scripted_streams_each_receive_their_own_response() -> None:
    usage = CourseModelUsage(input_tokens=1, output_tokens=1)

    def slow_reply(n: int) -> Any:
        plain = reply_text(f"reply {n}", response_id=f"response-{n}", message_id="m", usage=usage)

        async def factory(req: CourseModelRequest, signal: Any) -> AsyncIterator[Any]:
            async for item in plain(req, signal):
                await asyncio.sleep(0)
                yield item

        return factory if n % 2 else plain

    model = ScriptedModel([slow_reply(n) for n in range(CALLS)])
    signal = AbortController().signal

    streams = [model.stream(request(f"request-{n}"), signal) for n in range(CALLS)]
    played = await consume_all(streams)

    for n, (deltas, response) in enumerate(played):
        assert deltas == [f"reply {n}"]
        assert (response.id, response.request_id) == (f"response-{n}", f"request-{n}")
    assert model.requests == tuple(request(f"request-{n}") for n in range(CALLS))
    model.assert_consumed()


async def test_a_thousand_concurrent_streams_on_one_signal_all_fail_with_its_reason() -> None:
    never = asyncio.Event()

    async def held(n: int) -> AsyncIterator[object]:
        yield records(n)[0]
        await never.wait()

    adapter = FixtureProviderAdapter(fixture(*(held(n) for n in range(CALLS))))
    controller = AbortController()
    streams = [adapter.stream(request(f"request-{n}"), controller.signal) for n in range(CALLS)]
    await asyncio.sleep(0)
    reason = RuntimeError("one abort for every call")
    controller.abort(reason)

    outcomes = await asyncio.wait_for(
        asyncio.gather(*(stream.result for stream in streams), return_exceptions=True),
        ALL_CALLS_GUARD_SECONDS,
    )

    assert all(outcome is reason for outcome in outcomes)
    assert adapter.pending_response_count == 0
