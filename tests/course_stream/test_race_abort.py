"""race_abort: the awaitable's outcome, or the signal's reason if the abort comes first."""

from __future__ import annotations

import asyncio
import inspect

import pytest

from course_stream import AbortController, AbortSignal, race_abort
from tests.course_stream.helpers import parked
from tests.streams import GUARD_SECONDS


class AwaitedError(Exception):
    """An error raised by the raced awaitable."""


class Blocker:
    """A coroutine source that parks until released and records what happened to it."""

    def __init__(self) -> None:
        self.started = False
        self.saw_cancellation = False
        self.cleaned_up = False
        self.release: asyncio.Future[str] = asyncio.get_running_loop().create_future()

    async def wait(self) -> str:
        self.started = True
        try:
            return await self.release
        except asyncio.CancelledError:
            self.saw_cancellation = True
            raise
        finally:
            self.cleaned_up = True


async def test_race_abort_returns_the_awaitable_value() -> None:
    signal = AbortController().signal
    value = object()

    async def produce() -> object:
        return value

    assert await race_abort(produce(), signal) is value
    assert signal._listeners == {}


async def test_race_abort_propagates_the_awaitable_failure_as_the_same_object() -> None:
    signal = AbortController().signal
    failure = AwaitedError()

    async def produce() -> None:
        raise failure

    with pytest.raises(AwaitedError) as raised:
        await race_abort(produce(), signal)

    assert raised.value is failure
    assert signal._listeners == {}


async def test_an_abort_cancels_the_pending_awaitable_and_raises_the_reason_object() -> None:
    controller = AbortController()
    blocker = Blocker()
    reason = ValueError("stop")
    racing = await parked(race_abort(blocker.wait(), controller.signal), turns=3)

    controller.abort(reason)
    with pytest.raises(ValueError, match="stop") as raised:
        await asyncio.wait_for(racing, GUARD_SECONDS)

    assert raised.value is reason
    assert blocker.saw_cancellation
    assert blocker.cleaned_up
    assert reason.__context__ is None
    assert controller.signal._listeners == {}


async def test_the_abort_reason_wins_even_if_the_awaitable_swallows_the_cancellation() -> None:
    controller = AbortController()
    release: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    async def stubborn() -> str:
        try:
            await release
        except asyncio.CancelledError:
            return "ignored the abort"
        return "released"

    racing = await parked(race_abort(stubborn(), controller.signal), turns=3)
    controller.abort()

    with pytest.raises(Exception, match="The operation was aborted"):
        await asyncio.wait_for(racing, GUARD_SECONDS)


async def test_the_abort_reason_wins_over_an_error_raised_while_cancelling() -> None:
    controller = AbortController()
    release: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    reason = ValueError("stop")

    async def failing_cleanup() -> None:
        try:
            await release
        finally:
            raise AwaitedError("cleanup broke")

    racing = await parked(race_abort(failing_cleanup(), controller.signal), turns=3)
    controller.abort(reason)

    with pytest.raises(ValueError, match="stop") as raised:
        await asyncio.wait_for(racing, GUARD_SECONDS)
    assert raised.value is reason


async def test_a_pre_aborted_signal_raises_at_once_and_closes_the_coroutine_unrun() -> None:
    reason = ValueError("already")
    signal = AbortSignal.aborted_signal(reason)
    blocker = Blocker()
    coroutine = blocker.wait()

    with pytest.raises(ValueError, match="already") as raised:
        await race_abort(coroutine, signal)

    assert raised.value is reason
    assert not blocker.started
    assert inspect.getcoroutinestate(coroutine) == inspect.CORO_CLOSED


async def test_a_pre_aborted_signal_cancels_a_future_awaitable() -> None:
    future: asyncio.Future[str] = asyncio.get_running_loop().create_future()

    with pytest.raises(Exception, match="The operation was aborted"):
        await race_abort(future, AbortSignal.aborted_signal())

    assert future.cancelled()


async def test_cancelling_the_caller_cancels_the_awaitable_and_is_not_turned_into_the_reason() -> (
    None
):
    controller = AbortController()
    blocker = Blocker()
    racing = await parked(race_abort(blocker.wait(), controller.signal), turns=3)

    racing.cancel()
    with pytest.raises(asyncio.CancelledError):
        await racing

    assert blocker.saw_cancellation
    assert blocker.cleaned_up
    assert controller.signal._listeners == {}


async def test_an_abort_after_completion_changes_nothing() -> None:
    controller = AbortController()

    async def produce() -> str:
        return "done"

    assert await race_abort(produce(), controller.signal) == "done"
    controller.abort()
    assert controller.signal.aborted


async def test_race_abort_accepts_a_future() -> None:
    signal = AbortController().signal
    future: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    asyncio.get_running_loop().call_soon(future.set_result, "value")

    assert await asyncio.wait_for(race_abort(future, signal), GUARD_SECONDS) == "value"


async def test_race_abort_rejects_what_is_not_awaitable() -> None:
    with pytest.raises(TypeError):
        await race_abort("not awaitable", AbortController().signal)  # type: ignore[arg-type]


async def test_race_abort_rejects_what_is_not_awaitable_even_when_already_aborted() -> None:
    with pytest.raises(TypeError, match="awaitable"):
        await race_abort("not awaitable", AbortSignal.aborted_signal())  # type: ignore[arg-type]
