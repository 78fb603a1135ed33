"""EventStream.push_many: a batch in one call, all or nothing, in push order, FIFO wake-ups."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from course_stream import (
    AbortController,
    AbortError,
    EventStream,
    EventStreamStateError,
    run_producer,
)
from tests.course_stream.helpers import ProducerError, parked
from tests.streams import GUARD_SECONDS, read_all


class BatchBrokeError(Exception):
    """What a hostile iterable raises while push_many reads it."""


class RaisingAfter:
    """An iterable that yields ``good`` events, then raises ``error`` from its next step."""

    def __init__(self, good: list[str], error: BaseException) -> None:
        self.good = good
        self.error = error
        self.steps = 0

    def __iter__(self) -> Iterator[str]:
        for event in self.good:
            self.steps += 1
            yield event
        self.steps += 1
        raise self.error


async def test_a_batch_is_delivered_in_its_order_between_the_pushes_around_it() -> None:
    stream: EventStream[str, int] = EventStream()
    stream.push("a")
    stream.push_many(("b", "c", "d"))
    stream.push("e")
    stream.push_many(["f"])
    stream.finish(6)

    assert await read_all(stream) == ["a", "b", "c", "d", "e", "f"]
    assert await stream.result == 6


async def test_a_batch_wakes_the_parked_reads_in_the_order_they_were_issued() -> None:
    stream: EventStream[str, int] = EventStream()
    events = aiter(stream)
    reads = [await parked(anext(events)) for _ in range(3)]

    stream.push_many(["a", "b"])
    first_two = await asyncio.wait_for(asyncio.gather(*reads[:2]), GUARD_SECONDS)
    await asyncio.sleep(0)

    assert first_two == ["a", "b"]
    assert not reads[2].done()
    stream.push_many(["c", "d"])
    assert await asyncio.wait_for(reads[2], GUARD_SECONDS) == "c"
    stream.finish(4)
    assert await read_all(events) == ["d"]


async def test_a_batch_pushed_while_a_read_is_parked_serves_it_then_later_reads_in_order() -> None:
    stream: EventStream[str, int] = EventStream()
    events = aiter(stream)
    read = await parked(anext(events))

    stream.push_many(["a", "b", "c"])
    # A read that did not have to wait must not overtake the parked one.
    overtaking = await asyncio.wait_for(anext(events), GUARD_SECONDS)

    assert await asyncio.wait_for(read, GUARD_SECONDS) == "a"
    assert overtaking == "b"
    stream.finish(3)
    assert await read_all(events) == ["c"]


async def test_a_read_woken_by_a_batch_then_cancelled_passes_its_event_to_the_next_read() -> None:
    stream: EventStream[str, int] = EventStream()
    events = aiter(stream)
    doomed = await parked(anext(events))
    survivor = await parked(anext(events))

    stream.push_many(["a"])
    doomed.cancel()
    with pytest.raises(asyncio.CancelledError):
        await doomed

    assert await asyncio.wait_for(survivor, GUARD_SECONDS) == "a"


async def test_an_empty_batch_appends_nothing_and_wakes_nobody() -> None:
    stream: EventStream[str, int] = EventStream()
    events = aiter(stream)
    read = await parked(anext(events))

    stream.push_many([])
    stream.push_many(iter(()))
    await asyncio.sleep(0)

    assert not read.done()
    assert "buffered=0 waiting_reads=1" in repr(stream)
    stream.push("a")
    assert await asyncio.wait_for(read, GUARD_SECONDS) == "a"


async def test_any_iterable_is_accepted_a_generator_too() -> None:
    stream: EventStream[str, int] = EventStream()

    stream.push_many(word.upper() for word in ("a", "b"))
    stream.push_many({"c": 1})
    stream.push_many("de")
    stream.finish(5)

    assert await read_all(stream) == ["A", "B", "c", "d", "e"]


async def test_a_list_is_read_at_the_call_so_changing_it_afterwards_changes_nothing() -> None:
    stream: EventStream[str, int] = EventStream()
    batch = ["a", "b"]

    stream.push_many(batch)
    batch.append("late")
    batch[0] = "changed"
    stream.finish(2)

    assert await read_all(stream) == ["a", "b"]


@pytest.mark.parametrize("good", [0, 2])
async def test_an_iterable_that_raises_midway_publishes_nothing_and_its_error_propagates(
    good: int,
) -> None:
    stream: EventStream[str, int] = EventStream()
    events = aiter(stream)
    read = await parked(anext(events))
    error = BatchBrokeError("broke while read")
    hostile = RaisingAfter(["x", "y"][:good], error)

    with pytest.raises(BatchBrokeError) as raised:
        stream.push_many(hostile)
    await asyncio.sleep(0)

    assert raised.value is error
    assert hostile.steps == good + 1
    assert not read.done()
    assert not stream.done
    # The stream is still open and usable: the next push serves the parked read.
    stream.push_many(["a"])
    assert await asyncio.wait_for(read, GUARD_SECONDS) == "a"


@pytest.mark.parametrize("settled", ["finish", "fail"])
@pytest.mark.parametrize("batch", ["empty list", "list", "generator"])
def test_a_batch_after_the_terminal_raises_already_terminal_before_reading_it(
    settled: str, batch: str
) -> None:
    stream: EventStream[str, int] = EventStream()
    if settled == "finish":
        stream.finish(0)
    else:
        stream.fail(ProducerError())
    read: list[str] = []

    def generator() -> Iterator[str]:
        read.append("started")
        yield "late"

    events = {"empty list": [], "list": ["late"], "generator": generator()}[batch]

    with pytest.raises(EventStreamStateError, match=r"already terminal.*push_many\(\)"):
        stream.push_many(events)

    assert read == []


async def test_an_iterable_that_settles_the_stream_while_read_gets_nothing_of_its_batch_in() -> (
    None
):
    stream: EventStream[str, int] = EventStream()
    stream.push("before")

    def settling() -> Iterator[str]:
        yield "x"
        stream.finish(1)
        yield "y"

    with pytest.raises(EventStreamStateError, match="already terminal"):
        stream.push_many(settling())

    assert await read_all(stream) == ["before"]
    assert await stream.result == 1


async def test_events_an_iterable_pushes_while_it_is_read_come_before_its_batch() -> None:
    stream: EventStream[str, int] = EventStream()

    def pushing() -> Iterator[str]:
        yield "batch 1"
        stream.push("pushed while read")
        yield "batch 2"

    stream.push_many(pushing())
    stream.finish(3)

    assert await read_all(stream) == ["pushed while read", "batch 1", "batch 2"]


async def test_a_batch_after_an_abort_is_refused_and_what_came_before_it_is_delivered_first() -> (
    None
):
    # The abort fails the stream (run_producer's listener does so in abort()):
    # the events already in it are delivered, then the reason; a later batch
    # raises, so none of it is ever delivered.
    controller = AbortController()
    reason = AbortError("stop")
    stream: EventStream[str, int] = EventStream()
    refused: list[BaseException] = []
    release = asyncio.Event()

    async def produce() -> None:
        stream.push_many(["a", "b"])
        controller.abort(reason)
        try:
            stream.push_many(["after"])
        except EventStreamStateError as error:
            refused.append(error)
        await release.wait()

    task = run_producer(stream, controller.signal, produce)
    events = aiter(stream)
    received = [
        await asyncio.wait_for(anext(events), GUARD_SECONDS),
        await asyncio.wait_for(anext(events), GUARD_SECONDS),
    ]
    with pytest.raises(AbortError) as caught:
        await asyncio.wait_for(anext(events), GUARD_SECONDS)
    await asyncio.wait_for(asyncio.wait({task}), GUARD_SECONDS)

    assert received == ["a", "b"]
    assert caught.value is reason
    assert [type(error) for error in refused] == [EventStreamStateError]
