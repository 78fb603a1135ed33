"""EventStream's single consumer slot: who may read, and when the slot is released."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import weakref

import pytest

from course_stream import EventStream, EventStreamIterator, EventStreamStateError
from tests.course_stream.helpers import parked
from tests.streams import GUARD_SECONDS, read_all


def open_stream(*events: str) -> EventStream[str, int]:
    stream: EventStream[str, int] = EventStream()
    for event in events:
        stream.push(event)
    return stream


def test_a_second_concurrent_consumer_raises_single_consumer() -> None:
    stream = open_stream("a")
    first = aiter(stream)

    with pytest.raises(EventStreamStateError, match="single consumer"):
        aiter(stream)

    assert isinstance(first, EventStreamIterator)


async def test_a_second_consumer_is_refused_even_while_the_first_waits() -> None:
    stream = open_stream()
    first = aiter(stream)
    read = await parked(anext(first))

    with pytest.raises(EventStreamStateError, match="single consumer"):
        aiter(stream)

    stream.push("a")
    assert await read == "a"


async def test_the_slot_is_released_when_the_iterator_ends() -> None:
    stream = open_stream("a")
    stream.finish(1)
    first = aiter(stream)
    assert await read_all(first) == ["a"]

    assert await read_all(aiter(stream)) == []


async def test_aclose_releases_the_slot_and_the_next_consumer_continues_with_unread_events() -> (
    None
):
    stream = open_stream("a", "b", "c")
    first = aiter(stream)
    assert await anext(first) == "a"

    await first.aclose()
    stream.finish(3)

    assert await read_all(aiter(stream)) == ["b", "c"]


async def test_a_closed_iterator_ends_every_later_read_and_closing_twice_is_harmless() -> None:
    stream = open_stream("a")
    events = aiter(stream)
    await events.aclose()
    await events.aclose()

    with pytest.raises(StopAsyncIteration):
        await anext(events)
    stream.finish(1)
    assert await read_all(aiter(stream)) == ["a"]


async def test_a_garbage_collected_iterator_releases_the_slot() -> None:
    stream = open_stream("a", "b", "c")
    async for event in stream:
        assert event == "a"
        break
    # `async for` does not close its iterator on break; only collection frees it.
    gc.collect()
    stream.finish(3)

    assert await read_all(aiter(stream)) == ["b", "c"]


async def test_an_iterator_referenced_elsewhere_keeps_the_slot_after_break() -> None:
    stream = open_stream("a", "b")
    kept = aiter(stream)
    async for _event in kept:
        break

    with pytest.raises(EventStreamStateError, match="single consumer"):
        aiter(stream)

    del kept
    gc.collect()
    stream.finish(2)
    assert await read_all(aiter(stream)) == ["b"]


async def test_aclosing_releases_the_slot_right_after_break() -> None:
    stream = open_stream("a", "b", "c")
    async with contextlib.aclosing(aiter(stream)) as events:
        async for event in events:
            assert event == "a"
            break
    stream.finish(3)

    assert await read_all(aiter(stream)) == ["b", "c"]


async def test_reads_pending_when_the_iterator_is_closed_end_with_stop_async_iteration() -> None:
    stream = open_stream()
    events = aiter(stream)
    reads = [await parked(anext(events)) for _ in range(2)]

    await events.aclose()
    outcomes = await asyncio.wait_for(asyncio.gather(*reads, return_exceptions=True), GUARD_SECONDS)
    stream.push("a")
    stream.finish(1)

    assert [type(outcome) for outcome in outcomes] == [StopAsyncIteration] * 2
    assert await read_all(aiter(stream)) == ["a"]


async def test_an_event_handed_to_a_read_closed_before_it_resumed_stays_for_the_next_consumer() -> (
    None
):
    stream = open_stream()
    events = aiter(stream)
    read = await parked(anext(events))

    stream.push("a")
    await events.aclose()
    stream.push("b")
    stream.finish(2)

    with pytest.raises(StopAsyncIteration):
        await read
    assert await read_all(aiter(stream)) == ["a", "b"]


async def test_the_iterator_is_its_own_async_iterator() -> None:
    stream = open_stream("a")
    stream.finish(1)
    events = aiter(stream)

    assert aiter(events) is events
    assert await read_all(events) == ["a"]


async def test_a_consumer_after_a_failed_stream_was_read_to_the_failure_sees_an_empty_stream() -> (
    None
):
    stream = open_stream("a")
    failure = RuntimeError("broken")
    stream.fail(failure)
    with pytest.raises(RuntimeError) as raised:
        await read_all(aiter(stream))
    assert raised.value is failure

    assert await read_all(aiter(stream)) == []


async def test_a_consumer_that_closed_before_the_failure_leaves_it_for_the_next_consumer() -> None:
    stream = open_stream("a")
    failure = RuntimeError("broken")
    first = aiter(stream)
    assert await anext(first) == "a"
    await first.aclose()
    stream.fail(failure)

    with pytest.raises(RuntimeError) as raised:
        await read_all(aiter(stream))
    assert raised.value is failure


def test_the_stream_does_not_keep_its_iterator_alive() -> None:
    stream = open_stream()
    events = aiter(stream)
    watcher = weakref.ref(events)

    del events
    gc.collect()

    assert watcher() is None


async def test_a_read_ending_at_the_terminal_does_not_take_the_event_of_an_earlier_read() -> None:
    stream = open_stream()
    events = aiter(stream)
    first = await parked(anext(events))
    second = asyncio.ensure_future(anext(events))

    stream.push("a")
    stream.finish(1)
    outcomes = await asyncio.wait_for(
        asyncio.gather(first, second, return_exceptions=True), GUARD_SECONDS
    )

    assert outcomes[0] == "a"
    assert type(outcomes[1]) is StopAsyncIteration


async def test_closing_an_ended_iterator_leaves_the_next_consumers_reads_alone() -> None:
    stream = open_stream("a")
    first = aiter(stream)
    assert await anext(first) == "a"
    await first.aclose()
    second = aiter(stream)
    read = await parked(anext(second))

    await first.aclose()
    stream.push("b")

    assert await asyncio.wait_for(read, GUARD_SECONDS) == "b"


async def test_a_read_woken_then_closed_passes_its_event_to_the_next_consumers_waiting_read() -> (
    None
):
    stream = open_stream()
    first = aiter(stream)
    woken = await parked(anext(first))
    stream.push("a")
    await first.aclose()
    second = aiter(stream)
    # Scheduled while "a" is still reserved for `woken`, so it has to wait.
    waiting = asyncio.ensure_future(anext(second))

    outcomes = await asyncio.wait_for(
        asyncio.gather(woken, waiting, return_exceptions=True), GUARD_SECONDS
    )

    assert type(outcomes[0]) is StopAsyncIteration
    assert outcomes[1] == "a"
