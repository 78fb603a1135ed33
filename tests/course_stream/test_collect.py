"""collect: a stream's events and result in one await, failing as the stream fails."""

from __future__ import annotations

import asyncio

import pytest

from course_stream import EventStream, EventStreamStateError, collect


async def test_collect_returns_every_event_in_push_order_and_the_result() -> None:
    stream: EventStream[str, int] = EventStream()
    stream.push("a")
    stream.push("b")

    async def finish_later() -> None:
        await asyncio.sleep(0)
        stream.push("c")
        stream.finish(3)

    finisher = asyncio.create_task(finish_later())
    events, result = await collect(stream)
    await finisher

    assert (events, result) == (["a", "b", "c"], 3)


async def test_collect_raises_the_stream_failure_itself() -> None:
    stream: EventStream[str, int] = EventStream()
    stream.push("a")
    failure = ValueError("broken")
    stream.fail(failure)

    with pytest.raises(ValueError, match="broken") as caught:
        await collect(stream)

    assert caught.value is failure


async def test_collect_releases_the_consumer_slot_when_cancelled() -> None:
    stream: EventStream[str, int] = EventStream()
    reading = asyncio.create_task(collect(stream))
    await asyncio.sleep(0)
    reading.cancel()
    with pytest.raises(asyncio.CancelledError):
        await reading

    stream.push("later")
    stream.finish(1)
    assert await collect(stream) == (["later"], 1)


async def test_collect_refuses_a_second_consumer_and_anything_but_a_stream() -> None:
    stream: EventStream[str, int] = EventStream()
    first = aiter(stream)
    with pytest.raises(EventStreamStateError, match="single consumer"):
        await collect(stream)
    await first.aclose()
    with pytest.raises(TypeError, match="EventStream"):
        await collect([1, 2])  # type: ignore[arg-type]
