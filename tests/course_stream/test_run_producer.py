"""run_producer: one task per stream, raced once against the abort signal."""

from __future__ import annotations

import asyncio
import gc
import weakref

import pytest

from course_stream import (
    AbortController,
    AbortSignal,
    EventStream,
    EventStreamStateError,
    run_producer,
)
from tests.course_stream.helpers import ProducerError, tasks_created
from tests.streams import GUARD_SECONDS, settle


async def turns(count: int = 3) -> None:
    for _ in range(count):
        await asyncio.sleep(0)


async def test_a_producer_pushes_and_finishes_through_its_task() -> None:
    stream: EventStream[str, int] = EventStream()

    async def produce() -> None:
        stream.push("a")
        await asyncio.sleep(0)
        stream.push("b")
        stream.finish(2)

    task = run_producer(stream, AbortController().signal, produce)
    settled = await settle(stream)

    assert (settled.events, settled.iteration_error, settled.result_error) == (
        ["a", "b"],
        None,
        None,
    )
    assert await stream.result == 2
    await task
    assert task.exception() is None


async def test_a_pre_aborted_signal_fails_the_stream_without_calling_produce() -> None:
    reason = ValueError("already aborted")
    stream: EventStream[str, int] = EventStream()
    calls: list[str] = []

    async def produce() -> None:
        calls.append("called")

    task = run_producer(stream, AbortSignal.aborted_signal(reason), produce)

    assert stream.done
    settled = await settle(stream)
    assert settled.iteration_error is reason
    assert settled.result_error is reason
    await task
    assert task.exception() is None
    assert calls == []


async def test_an_abort_mid_await_interrupts_produce_and_fails_the_stream_with_the_reason() -> None:
    controller = AbortController()
    reason = ValueError("stop")
    stream: EventStream[str, int] = EventStream()
    cleanup: list[str] = []
    never: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    async def produce() -> None:
        stream.push("a")
        try:
            await never
        except asyncio.CancelledError:
            cleanup.append("saw cancellation")
            raise
        finally:
            cleanup.append("finally ran")

    task = run_producer(stream, controller.signal, produce)
    await turns()
    controller.abort(reason)
    settled = await settle(stream)

    assert settled.events == ["a"]
    assert settled.iteration_error is reason
    assert settled.result_error is reason
    assert cleanup == ["saw cancellation", "finally ran"]
    await task
    assert task.exception() is None
    assert not task.cancelled()
    assert controller.signal._listeners == {}


async def test_an_abort_before_the_task_first_runs_fails_the_stream_without_calling_produce() -> (
    None
):
    controller = AbortController()
    reason = ValueError("stop at once")
    stream: EventStream[str, int] = EventStream()
    calls: list[str] = []

    async def produce() -> None:
        calls.append("called")

    task = run_producer(stream, controller.signal, produce)
    controller.abort(reason)
    settled = await settle(stream)

    assert settled.iteration_error is reason
    assert settled.result_error is reason
    assert calls == []
    await asyncio.gather(task, return_exceptions=True)
    assert controller.signal._listeners == {}


async def test_an_exception_from_produce_reaches_iteration_and_result_as_the_same_object() -> None:
    stream: EventStream[str, int] = EventStream()
    failure = ProducerError("factory broke")

    async def produce() -> None:
        stream.push("a")
        await asyncio.sleep(0)
        raise failure

    task = run_producer(stream, AbortController().signal, produce)
    settled = await settle(stream)

    assert settled.events == ["a"]
    assert settled.iteration_error is failure
    assert settled.result_error is failure
    await task
    assert task.exception() is None


async def test_produce_returning_without_settling_fails_the_stream_with_a_state_error() -> None:
    stream: EventStream[str, int] = EventStream()

    async def produce() -> None:
        stream.push("a")

    run_producer(stream, AbortController().signal, produce)
    settled = await settle(stream)

    assert settled.events == ["a"]
    assert isinstance(settled.iteration_error, EventStreamStateError)
    assert settled.result_error is settled.iteration_error
    assert "without settling" in str(settled.iteration_error)


async def test_a_long_lived_signal_used_for_a_thousand_streams_keeps_no_listeners() -> None:
    controller = AbortController()
    tasks = []
    for number in range(1_000):
        stream: EventStream[int, int] = EventStream()

        async def produce(stream: EventStream[int, int] = stream, number: int = number) -> None:
            await asyncio.sleep(0)
            stream.finish(number)

        tasks.append(run_producer(stream, controller.signal, produce))
    await asyncio.wait_for(asyncio.gather(*tasks), GUARD_SECONDS)

    assert controller.signal._listeners == {}


async def test_run_producer_registers_exactly_one_listener_while_production_runs() -> None:
    controller = AbortController()
    stream: EventStream[int, int] = EventStream()
    release: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    async def produce() -> None:
        for number in range(100):
            stream.push(number)
            await asyncio.sleep(0)
        await release
        stream.finish(100)

    task = run_producer(stream, controller.signal, produce)
    await turns(50)
    assert len(controller.signal._listeners) == 1

    release.set_result(None)
    await asyncio.wait_for(task, GUARD_SECONDS)
    assert controller.signal._listeners == {}


def test_run_producer_without_a_running_loop_raises_and_leaves_the_stream_alone() -> None:
    stream: EventStream[str, int] = EventStream()
    calls: list[str] = []

    async def produce() -> None:
        calls.append("called")

    with pytest.raises(RuntimeError, match="running event loop"):
        run_producer(stream, AbortController().signal, produce)
    with pytest.raises(RuntimeError, match="running event loop"):
        run_producer(stream, AbortSignal.aborted_signal(), produce)

    assert not stream.done
    assert calls == []


async def test_an_abort_after_produce_settled_the_stream_changes_nothing() -> None:
    controller = AbortController()
    stream: EventStream[str, int] = EventStream()
    cleanup_blocked: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    cleanup: list[str] = []

    async def produce() -> None:
        stream.push("a")
        stream.finish(1)
        try:
            await cleanup_blocked
        finally:
            cleanup.append("cleanup interrupted")

    task = run_producer(stream, controller.signal, produce)
    await turns()
    controller.abort()
    settled = await settle(stream)

    assert (settled.events, settled.iteration_error, settled.result_error) == (["a"], None, None)
    assert await stream.result == 1
    await task
    assert task.exception() is None
    assert cleanup == ["cleanup interrupted"]


async def test_the_abort_reason_wins_over_an_error_produce_raises_while_cancelled() -> None:
    controller = AbortController()
    reason = ValueError("stop")
    stream: EventStream[str, int] = EventStream()
    never: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    async def produce() -> None:
        try:
            await never
        finally:
            raise ProducerError("cleanup broke")

    run_producer(stream, controller.signal, produce)
    await turns()
    controller.abort(reason)
    settled = await settle(stream)

    assert settled.iteration_error is reason
    assert settled.result_error is reason


async def test_produce_swallowing_the_abort_and_returning_still_fails_with_the_reason() -> None:
    controller = AbortController()
    reason = ValueError("stop")
    stream: EventStream[str, int] = EventStream()
    never: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    async def produce() -> None:
        try:
            await never
        except asyncio.CancelledError:
            return

    run_producer(stream, controller.signal, produce)
    await turns()
    controller.abort(reason)
    settled = await settle(stream)

    assert settled.iteration_error is reason


async def test_a_task_cancelled_by_someone_else_fails_the_stream_with_the_cancellation() -> None:
    controller = AbortController()
    stream: EventStream[str, int] = EventStream()
    never: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    async def produce() -> None:
        await never

    task = run_producer(stream, controller.signal, produce)
    await turns()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    result = await asyncio.gather(stream.result, return_exceptions=True)

    assert isinstance(result[0], asyncio.CancelledError)
    assert controller.signal._listeners == {}


async def test_the_running_task_is_kept_alive_while_nothing_else_references_it() -> None:
    stream: EventStream[str, int] = EventStream()

    async def produce() -> None:
        # A future only this coroutine references, and a signal nobody keeps: without
        # the runner's own strong reference the waiting task would be collectable.
        await asyncio.get_running_loop().create_future()

    watcher = weakref.ref(run_producer(stream, AbortController().signal, produce))
    await turns()
    gc.collect()
    task = watcher()
    assert task is not None

    task.cancel()
    settled = await settle(stream)
    assert isinstance(settled.iteration_error, asyncio.CancelledError)


async def test_production_of_many_events_creates_exactly_one_task() -> None:
    stream: EventStream[int, int] = EventStream()

    async def produce() -> None:
        for number in range(1_000):
            stream.push(number)
            await asyncio.sleep(0)
        stream.finish(1_000)

    with tasks_created() as created:
        task = run_producer(stream, AbortController().signal, produce)
        events = [event async for event in stream]
        await task

    assert events == list(range(1_000))
    assert created == [task]
