"""EventStream: producer calls, terminal rules, ordering, waiting reads and the result."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Callable
from typing import Any

import pytest

from course_stream import EventStream, EventStreamStateError
from tests.course_stream.helpers import ProducerError, parked, tasks_created
from tests.streams import GUARD_SECONDS, read_all


class LoopErrorRecorder:
    """An event loop exception handler that keeps every context it is given."""

    def __init__(self) -> None:
        self.contexts: list[dict[str, Any]] = []

    def __call__(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        self.contexts.append(context)


async def test_events_pushed_before_finish_are_delivered_in_push_order_then_iteration_ends() -> (
    None
):
    stream: EventStream[str, int] = EventStream()
    for event in ("a", "b", "c"):
        stream.push(event)
    stream.finish(3)

    assert await read_all(stream) == ["a", "b", "c"]
    assert await stream.result == 3


async def test_events_pushed_before_fail_are_delivered_before_the_same_failure_object() -> None:
    stream: EventStream[str, int] = EventStream()
    failure = ProducerError("producer broke")
    stream.push("a")
    stream.push("b")
    stream.fail(failure)
    events = aiter(stream)

    assert [await anext(events), await anext(events)] == ["a", "b"]
    with pytest.raises(ProducerError) as raised:
        await anext(events)
    assert raised.value is failure


async def test_after_raising_the_failure_once_the_iteration_is_exhausted() -> None:
    stream: EventStream[str, int] = EventStream()
    stream.fail(ProducerError())
    events = aiter(stream)

    with pytest.raises(ProducerError):
        await anext(events)
    with pytest.raises(StopAsyncIteration):
        await anext(events)
    assert await read_all(stream) == []


@pytest.mark.parametrize("settle", ["finish", "fail"])
@pytest.mark.parametrize("call", ["push", "push_many", "finish", "fail"])
def test_every_producer_call_after_the_terminal_raises_already_terminal(
    settle: str, call: str
) -> None:
    stream: EventStream[str, int] = EventStream()
    if settle == "finish":
        stream.finish(1)
    else:
        stream.fail(ProducerError())
    calls: dict[str, Callable[[], None]] = {
        "push": lambda: stream.push("late"),
        "push_many": lambda: stream.push_many(["late", "later"]),
        "finish": lambda: stream.finish(2),
        "fail": lambda: stream.fail(ProducerError()),
    }

    with pytest.raises(EventStreamStateError, match="already terminal") as raised:
        calls[call]()

    assert isinstance(raised.value, RuntimeError)


async def test_a_rejected_late_call_leaves_the_first_terminal_in_place() -> None:
    stream: EventStream[str, int] = EventStream()
    stream.push("a")
    stream.finish(1)

    with pytest.raises(EventStreamStateError):
        stream.fail(ProducerError())
    with pytest.raises(EventStreamStateError):
        stream.push("b")

    assert await read_all(stream) == ["a"]
    assert await stream.result == 1


@pytest.mark.parametrize("not_an_exception", ["boom", None, 42, ProducerError], ids=repr)
def test_fail_requires_a_base_exception_instance(not_an_exception: Any) -> None:
    stream: EventStream[str, int] = EventStream()

    with pytest.raises(TypeError, match="BaseException instance"):
        stream.fail(not_an_exception)

    assert not stream.done


def test_fail_accepts_a_base_exception_that_is_not_an_exception() -> None:
    stream: EventStream[str, int] = EventStream()
    stream.fail(KeyboardInterrupt())

    assert stream.done


def test_done_turns_true_only_at_the_terminal_call() -> None:
    stream: EventStream[str, int] = EventStream()
    assert not stream.done
    stream.push("a")
    assert not stream.done
    stream.finish(1)
    assert stream.done


def test_result_is_the_same_object_on_every_access() -> None:
    stream: EventStream[str, int] = EventStream()
    first = stream.result
    stream.finish(1)

    assert stream.result is first


async def test_result_resolves_to_the_finish_value_for_every_waiting_task() -> None:
    stream: EventStream[str, object] = EventStream()
    value = object()

    async def wait() -> object:
        return await stream.result

    waiting = [await parked(wait()) for _ in range(3)]
    stream.finish(value)
    results = await asyncio.wait_for(asyncio.gather(*waiting), GUARD_SECONDS)

    assert all(result is value for result in results)
    assert await stream.result is value
    assert await stream.result is value


async def test_result_raises_the_same_failure_object_for_every_await_and_task() -> None:
    stream: EventStream[str, int] = EventStream()
    failure = ProducerError()

    async def wait() -> int:
        return await stream.result

    waiting = [await parked(wait()) for _ in range(3)]
    stream.fail(failure)
    outcomes = await asyncio.wait_for(
        asyncio.gather(*waiting, return_exceptions=True), GUARD_SECONDS
    )

    assert all(outcome is failure for outcome in outcomes)
    for _ in range(2):
        with pytest.raises(ProducerError) as raised:
            await stream.result
        assert raised.value is failure


async def test_result_can_be_awaited_through_asyncio_helpers() -> None:
    stream: EventStream[str, int] = EventStream()
    waiting = asyncio.ensure_future(stream.result)
    await asyncio.sleep(0)
    stream.finish(7)

    assert await asyncio.wait_for(waiting, GUARD_SECONDS) == 7
    assert await asyncio.wait_for(stream.result, GUARD_SECONDS) == 7


async def test_a_failed_result_nobody_awaits_is_never_reported_as_unretrieved() -> None:
    recorder = LoopErrorRecorder()
    loop = asyncio.get_running_loop()
    previous = loop.get_exception_handler()
    loop.set_exception_handler(recorder)
    try:
        settled_early: EventStream[str, int] = EventStream()
        settled_early.fail(ProducerError("nobody looks"))
        woken: EventStream[str, int] = EventStream()
        reader = await parked(anext(aiter(woken)))
        result_waiter = await parked(_await(woken.result))
        result_waiter.cancel()
        await asyncio.gather(result_waiter, return_exceptions=True)
        woken.fail(ProducerError("nobody looks either"))
        await asyncio.gather(reader, return_exceptions=True)
        del settled_early, woken, reader, result_waiter
        gc.collect()
        await asyncio.sleep(0)
    finally:
        loop.set_exception_handler(previous)

    assert recorder.contexts == []


async def _await(awaitable: Any) -> Any:
    return await awaitable


def test_a_stream_created_pushed_and_settled_before_any_loop_runs_is_consumed_in_one() -> None:
    stream: EventStream[str, int] = EventStream()
    stream.push("a")
    stream.push("b")
    stream.fail(ProducerError())
    unread: EventStream[str, int] = EventStream()
    unread.push("x")
    unread.finish(1)

    async def consume() -> tuple[list[str], BaseException, list[str], int]:
        seen: list[str] = []
        try:
            async for event in stream:
                seen.append(event)
        except ProducerError as failure:
            caught: BaseException = failure
        return seen, caught, await read_all(unread), await unread.result

    loop = asyncio.new_event_loop()
    try:
        seen, caught, unread_events, unread_result = loop.run_until_complete(consume())
    finally:
        loop.close()

    assert seen == ["a", "b"]
    assert isinstance(caught, ProducerError)
    assert (unread_events, unread_result) == (["x"], 1)


async def test_several_pending_reads_are_served_in_fifo_order() -> None:
    stream: EventStream[str, int] = EventStream()
    events = aiter(stream)
    reads = [await parked(anext(events)) for _ in range(3)]

    for event in ("a", "b", "c"):
        stream.push(event)
    results = await asyncio.wait_for(asyncio.gather(*reads), GUARD_SECONDS)

    assert results == ["a", "b", "c"]


async def test_finish_ends_every_pending_read() -> None:
    stream: EventStream[str, int] = EventStream()
    events = aiter(stream)
    reads = [await parked(anext(events)) for _ in range(3)]

    stream.finish(1)
    outcomes = await asyncio.wait_for(asyncio.gather(*reads, return_exceptions=True), GUARD_SECONDS)

    assert [type(outcome) for outcome in outcomes] == [StopAsyncIteration] * 3


async def test_fail_raises_the_failure_in_every_pending_read_then_the_iteration_is_exhausted() -> (
    None
):
    stream: EventStream[str, int] = EventStream()
    failure = ProducerError()
    events = aiter(stream)
    reads = [await parked(anext(events)) for _ in range(3)]

    stream.fail(failure)
    outcomes = await asyncio.wait_for(asyncio.gather(*reads, return_exceptions=True), GUARD_SECONDS)

    assert all(outcome is failure for outcome in outcomes)
    with pytest.raises(StopAsyncIteration):
        await anext(events)


async def test_a_cancelled_read_is_withdrawn_so_the_next_push_reaches_a_live_read() -> None:
    stream: EventStream[str, int] = EventStream()
    events = aiter(stream)
    dead = await parked(anext(events))
    dead.cancel()
    with pytest.raises(asyncio.CancelledError):
        await dead

    stream.push("a")

    assert await asyncio.wait_for(anext(events), GUARD_SECONDS) == "a"


async def test_a_cancelled_read_between_live_reads_does_not_take_an_event() -> None:
    stream: EventStream[str, int] = EventStream()
    events = aiter(stream)
    first = await parked(anext(events))
    dead = await parked(anext(events))
    last = await parked(anext(events))
    dead.cancel()
    await asyncio.gather(dead, return_exceptions=True)

    stream.push("a")
    stream.push("b")

    assert list(await asyncio.wait_for(asyncio.gather(first, last), GUARD_SECONDS)) == ["a", "b"]


async def test_a_read_cancelled_after_its_event_was_handed_over_gives_the_event_back() -> None:
    stream: EventStream[str, int] = EventStream()
    events = aiter(stream)
    read = await parked(anext(events))

    stream.push("a")
    read.cancel()
    with pytest.raises(asyncio.CancelledError):
        await read
    stream.push("b")
    stream.finish(2)

    assert await read_all(events) == ["a", "b"]


async def test_a_task_cancelled_while_awaiting_the_result_leaves_the_stream_consistent() -> None:
    stream: EventStream[str, int] = EventStream()
    waiters = [await parked(_await(stream.result)) for _ in range(100)]
    for waiter in waiters:
        waiter.cancel()
    await asyncio.gather(*waiters, return_exceptions=True)

    # Withdrawn waits must not pile up on a stream that stays open for long.
    assert stream._result_waiters == []
    stream.push("a")
    stream.finish(1)
    assert await read_all(stream) == ["a"]
    assert await stream.result == 1


async def test_a_hundred_thousand_events_arrive_complete_and_in_order() -> None:
    stream: EventStream[int, int] = EventStream()
    count = 100_000
    for number in range(count):
        stream.push(number)
    stream.finish(count)

    assert await read_all(stream) == list(range(count))


async def test_alternating_push_and_read_creates_no_task_per_event() -> None:
    stream: EventStream[int, int] = EventStream()

    async def produce() -> None:
        for number in range(1_000):
            stream.push(number)
            await asyncio.sleep(0)
        stream.finish(1_000)

    with tasks_created() as created:
        producer = asyncio.ensure_future(produce())
        received = await read_all(stream)
        await producer

    assert received == list(range(1_000))
    # The producer task and read_all()'s wait_for task; nothing per event.
    assert len(created) == 2


async def test_a_read_after_the_terminal_waits_for_the_event_a_withdrawn_read_gives_back() -> None:
    stream: EventStream[str, int] = EventStream()
    events = aiter(stream)
    withdrawn = await parked(anext(events))
    stream.push("a")
    withdrawn.cancel()
    stream.finish(1)
    # Issued before the withdrawn read resumes: it must not end the iteration
    # while "a" is still on its way back.
    late = asyncio.ensure_future(anext(events))

    outcomes = await asyncio.gather(withdrawn, late, return_exceptions=True)

    assert type(outcomes[0]) is asyncio.CancelledError
    assert outcomes[1] == "a"
    assert await read_all(events) == []


async def test_a_read_that_did_not_wait_leaves_the_event_reserved_for_an_earlier_read() -> None:
    stream: EventStream[str, int] = EventStream()
    events = aiter(stream)
    earlier = await parked(anext(events))
    # Scheduled before the pushes wake `earlier`, so it runs first.
    later = asyncio.ensure_future(anext(events))

    stream.push("a")
    stream.push("b")

    assert list(await asyncio.wait_for(asyncio.gather(earlier, later), GUARD_SECONDS)) == [
        "a",
        "b",
    ]


async def test_a_read_woken_then_cancelled_passes_its_event_to_the_next_waiting_read() -> None:
    stream: EventStream[str, int] = EventStream()
    events = aiter(stream)
    woken = await parked(anext(events))
    waiting = await parked(anext(events))

    stream.push("a")
    woken.cancel()
    with pytest.raises(asyncio.CancelledError):
        await woken

    assert await asyncio.wait_for(waiting, GUARD_SECONDS) == "a"
