"""Factories that break their contract: every one fails closed, settles, and leaks nothing."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterator
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
    CourseToolCall,
    CourseToolCallChunk,
)
from course_scripted import ScriptedModel, ScriptedModelError, ScriptedModelErrorCode
from course_stream import AbortController, AbortError, AbortSignal, EventStream
from tests.requests import request
from tests.streams import (
    GUARD_SECONDS,
    abort_settles_at_once,
    failure_of,
    read_all,
    read_until_failure,
)
from tests.tasks import tasks_left

Turn = AsyncIterator[CourseModelChunk | CourseModelResponse]
Stream = EventStream[CourseModelChunk, CourseModelResponse]

INVALID = ScriptedModelErrorCode.SCRIPT_INVALID_RESPONSE


def text_response(request_id: str, response_id: str = "response-1") -> CourseModelResponse:
    return CourseModelResponse(
        id=response_id,
        request_id=request_id,
        message=CourseAssistantMessage(id="message-out", content=(CourseTextBlock(text="ok"),)),
        stop_reason=CourseStopReason.STOP,
        usage=CourseModelUsage(input_tokens=1, output_tokens=1),
    )


def delta(request_id: str, text: str) -> CourseTextDeltaChunk:
    return CourseTextDeltaChunk(request_id=request_id, delta=text)


def start(factory: object, controller: AbortController | None = None) -> Stream:
    signal = (controller or AbortController()).signal
    return ScriptedModel([factory]).stream(request(), signal)  # type: ignore[list-item]


async def code_of(stream: Stream) -> ScriptedModelErrorCode:
    error = await failure_of(stream)
    assert type(error) is ScriptedModelError
    return error.code


class TextDeltaSubclass(CourseTextDeltaChunk):  # type: ignore[misc]
    """Looks like a text delta to isinstance, but is not the protocol's own type."""

    __slots__ = ()


class AsyncIteratorWithoutAclose:
    """A hand-written async iterator: valid, but has nothing to close."""

    def __init__(self, items: list[object]) -> None:
        self._items = iter(items)

    def __aiter__(self) -> AsyncIteratorWithoutAclose:
        return self

    async def __anext__(self) -> object:
        try:
            return next(self._items)
        except StopIteration:
            raise StopAsyncIteration from None


class Gate:
    """Records how far a factory got and lets a test hold it at one await."""

    def __init__(self) -> None:
        self.reached = asyncio.Event()
        self.never = asyncio.Event()
        self.finally_ran = asyncio.Event()

    async def hold(self) -> None:
        self.reached.set()
        await self.never.wait()


async def test_a_plain_function_returning_a_list_is_an_invalid_response() -> None:
    def factory(request: CourseModelRequest, signal: AbortSignal) -> list[object]:
        return [text_response(request.id)]

    assert await code_of(start(factory)) is INVALID


async def test_a_sync_generator_factory_is_an_invalid_response() -> None:
    def factory(request: CourseModelRequest, signal: AbortSignal) -> Iterator[object]:
        yield text_response(request.id)

    assert await code_of(start(factory)) is INVALID


async def test_an_async_def_that_returns_instead_of_yielding_is_refused_without_warnings() -> None:
    async def factory(request: CourseModelRequest, signal: AbortSignal) -> CourseModelResponse:
        return text_response(request.id)

    stream = start(factory)

    error = await failure_of(stream)
    assert isinstance(error, ScriptedModelError)
    assert error.code is INVALID
    assert "coroutine" in error.message


@pytest.mark.parametrize("returned", [None, 42, "text", object()])
async def test_a_factory_returning_a_non_iterator_is_an_invalid_response(returned: object) -> None:
    def factory(request: CourseModelRequest, signal: AbortSignal) -> object:
        return returned

    assert await code_of(start(factory)) is INVALID


async def test_a_factory_raising_synchronously_fails_with_that_same_object() -> None:
    failure = RuntimeError("raised before returning an iterator")

    def factory(request: CourseModelRequest, signal: AbortSignal) -> Turn:
        raise failure

    assert await failure_of(start(factory)) is failure


async def test_a_hand_written_async_iterator_without_aclose_is_played() -> None:
    def factory(request: CourseModelRequest, signal: AbortSignal) -> AsyncIteratorWithoutAclose:
        return AsyncIteratorWithoutAclose([delta(request.id, "a"), text_response(request.id)])

    stream = start(factory)
    assert [chunk async for chunk in stream] == [delta("request-1", "a")]
    assert (await stream.result).id == "response-1"


class StepsThatAreNotAwaitable:
    """A hand-written async iterator whose ``__anext__`` hands back plain values."""

    def __init__(self, items: list[object]) -> None:
        self._items = iter(items)

    def __aiter__(self) -> StepsThatAreNotAwaitable:
        return self

    def __anext__(self) -> object:
        return next(self._items, "past the end")


class AnextThatIsNotCallable:
    """Has an ``__anext__`` attribute, but it cannot be called."""

    __anext__ = 42


async def test_an_iterator_whose_next_step_is_not_awaitable_is_an_invalid_response() -> None:
    def factory(request: CourseModelRequest, signal: AbortSignal) -> StepsThatAreNotAwaitable:
        return StepsThatAreNotAwaitable([delta(request.id, "a")])

    error = await failure_of(start(factory))

    assert type(error) is ScriptedModelError
    assert error.code is INVALID
    assert "not an awaitable" in error.message


async def test_a_step_after_the_response_that_is_not_awaitable_is_an_invalid_response() -> None:
    class ResponseThenPlainValue(AsyncIteratorWithoutAclose):
        """Serves the response through an awaitable step, then a plain value."""

        def __init__(self, response: CourseModelResponse) -> None:
            super().__init__([response])
            self._served = False

        def __anext__(self) -> Any:
            if self._served:
                return "not awaitable"
            self._served = True
            return super().__anext__()

    def plain_after_response(request: CourseModelRequest, signal: AbortSignal) -> object:
        return ResponseThenPlainValue(text_response(request.id))

    error = await failure_of(start(plain_after_response))

    assert type(error) is ScriptedModelError
    assert error.code is INVALID
    assert "not an awaitable" in error.message


async def test_an_iterator_with_an_anext_that_cannot_be_called_is_an_invalid_response() -> None:
    def factory(request: CourseModelRequest, signal: AbortSignal) -> AnextThatIsNotCallable:
        return AnextThatIsNotCallable()

    assert await code_of(start(factory)) is INVALID


async def test_a_hand_written_iterator_without_aclose_still_fails_closed() -> None:
    def factory(request: CourseModelRequest, signal: AbortSignal) -> AsyncIteratorWithoutAclose:
        return AsyncIteratorWithoutAclose(["not a chunk"])

    assert await code_of(start(factory)) is INVALID


@pytest.mark.parametrize(
    "yielded",
    [
        pytest.param("a bare string", id="str"),
        pytest.param(None, id="None"),
        pytest.param({"type": "textDelta", "requestId": "request-1", "delta": "x"}, id="dict"),
        pytest.param(CourseTextBlock(text="a block, not a chunk"), id="block"),
        pytest.param(
            CourseAssistantMessage(id="m", content=(CourseTextBlock(text="x"),)), id="message"
        ),
    ],
)
async def test_yielding_something_that_is_not_a_chunk_or_response_is_an_invalid_response(
    yielded: object,
) -> None:
    closed = asyncio.Event()

    async def factory(request: CourseModelRequest, signal: AbortSignal) -> AsyncIterator[object]:
        try:
            yield yielded
            yield text_response(request.id)
        finally:
            closed.set()

    stream = start(factory)
    error = await failure_of(stream)

    assert isinstance(error, ScriptedModelError)
    assert error.code is INVALID
    assert type(yielded).__qualname__ in error.message
    await asyncio.wait_for(closed.wait(), GUARD_SECONDS)


async def test_a_subclass_of_a_chunk_type_is_an_invalid_response() -> None:
    async def factory(request: CourseModelRequest, signal: AbortSignal) -> Turn:
        yield TextDeltaSubclass(request_id=request.id, delta="impostor")
        yield text_response(request.id)

    stream = start(factory)

    assert await code_of(stream) is INVALID


async def test_chunks_before_a_bad_item_are_delivered_in_order_then_the_failure() -> None:
    async def factory(request: CourseModelRequest, signal: AbortSignal) -> AsyncIterator[object]:
        yield delta(request.id, "one")
        yield delta(request.id, "two")
        yield 3

    received, error = await read_until_failure(start(factory))

    assert received == [delta("request-1", "one"), delta("request-1", "two")]
    assert isinstance(error, ScriptedModelError)
    assert error.code is INVALID
    assert "item 2" in error.message


async def test_a_tool_call_chunk_for_another_request_is_a_request_mismatch() -> None:
    tool_call = CourseToolCall(id="call-1", name="add", arguments={})

    async def factory(request: CourseModelRequest, signal: AbortSignal) -> Turn:
        yield CourseToolCallChunk(request_id="request-elsewhere", tool_call=tool_call)

    assert await code_of(start(factory)) is ScriptedModelErrorCode.SCRIPT_REQUEST_MISMATCH


async def test_a_response_must_be_the_exact_protocol_type() -> None:
    class ResponseSubclass(CourseModelResponse):  # type: ignore[misc]
        __slots__ = ()

    async def factory(request: CourseModelRequest, signal: AbortSignal) -> Turn:
        base = text_response(request.id)
        yield ResponseSubclass(
            id=base.id,
            request_id=base.request_id,
            message=base.message,
            stop_reason=base.stop_reason,
            usage=base.usage,
        )

    assert await code_of(start(factory)) is INVALID


async def test_an_error_raised_while_closing_never_replaces_the_primary_error() -> None:
    attempts: list[str] = []

    async def factory(request: CourseModelRequest, signal: AbortSignal) -> Turn:
        try:
            yield delta("request-wrong", "misrouted")
        finally:
            attempts.append("finally")
            raise OSError("cleanup exploded")

    error = await failure_of(start(factory))

    assert isinstance(error, ScriptedModelError)
    assert error.code is ScriptedModelErrorCode.SCRIPT_REQUEST_MISMATCH
    assert attempts == ["finally"]


async def test_an_error_raised_while_closing_after_an_abort_keeps_the_abort_reason() -> None:
    controller = AbortController()
    gate = Gate()

    async def factory(request: CourseModelRequest, signal: AbortSignal) -> Turn:
        try:
            yield delta(request.id, "x")
            with contextlib.suppress(asyncio.CancelledError):
                await gate.hold()
            yield delta(request.id, "ignores the abort")
        finally:
            gate.finally_ran.set()
            raise OSError("cleanup exploded")

    stream = start(factory, controller)
    await asyncio.wait_for(gate.reached.wait(), GUARD_SECONDS)
    controller.abort()

    assert await failure_of(stream) is controller.signal.reason
    assert gate.finally_ran.is_set()


async def test_a_factory_that_swallows_the_cancellation_still_fails_with_the_reason() -> None:
    controller = AbortController()
    gate = Gate()
    published: list[str] = []

    async def factory(request: CourseModelRequest, signal: AbortSignal) -> Turn:
        try:
            try:
                await gate.hold()
            except asyncio.CancelledError:
                published.append("swallowed")
            yield delta(request.id, "after the abort")
            yield text_response(request.id)
        finally:
            gate.finally_ran.set()

    stream = start(factory, controller)
    await asyncio.wait_for(gate.reached.wait(), GUARD_SECONDS)
    reason = AbortError("stop now")
    controller.abort(reason)

    received, error = await read_until_failure(stream)
    assert error is reason
    assert received == []
    # The stream fails at the abort itself; the factory's reaction comes after.
    await asyncio.wait_for(gate.finally_ran.wait(), GUARD_SECONDS)
    assert published == ["swallowed"]


async def test_a_factory_that_aborts_its_own_signal_does_not_publish_the_next_chunk() -> None:
    controller = AbortController()

    async def factory(request: CourseModelRequest, signal: AbortSignal) -> Turn:
        yield delta(request.id, "published")
        controller.abort()
        yield delta(request.id, "never published")
        yield text_response(request.id)

    stream = start(factory, controller)
    received, error = await read_until_failure(stream)

    assert received == [delta("request-1", "published")]
    assert error is controller.signal.reason
    with pytest.raises(AbortError):
        await stream.result


async def test_a_response_is_not_accepted_when_the_signal_aborts_as_it_is_yielded() -> None:
    controller = AbortController()

    async def factory(request: CourseModelRequest, signal: AbortSignal) -> Turn:
        response = text_response(request.id)
        controller.abort()
        yield response

    assert await failure_of(start(factory, controller)) is controller.signal.reason


async def test_an_abort_seen_at_the_response_closes_the_factory_instead_of_resuming_it() -> None:
    controller = AbortController()
    steps: list[str] = []

    async def factory(request: CourseModelRequest, signal: AbortSignal) -> Turn:
        try:
            controller.abort()
            yield text_response(request.id)
            steps.append("resumed after the response")
        finally:
            steps.append("finally")

    assert await failure_of(start(factory, controller)) is controller.signal.reason
    assert steps == ["finally"]


async def test_a_response_is_not_accepted_when_the_signal_aborts_as_the_factory_ends() -> None:
    controller = AbortController()

    async def factory(request: CourseModelRequest, signal: AbortSignal) -> Turn:
        yield text_response(request.id)
        controller.abort()

    assert await failure_of(start(factory, controller)) is controller.signal.reason


@pytest.mark.parametrize(
    "where", ["before-first-chunk", "between-chunks", "after-response", "after-last-chunk"]
)
async def test_an_abort_interrupts_the_factory_at_every_await_point(where: str) -> None:
    controller = AbortController()
    gate = Gate()

    async def factory(request: CourseModelRequest, signal: AbortSignal) -> Turn:
        try:
            if where == "before-first-chunk":
                await gate.hold()
            yield delta(request.id, "one")
            if where == "between-chunks":
                await gate.hold()
            yield delta(request.id, "two")
            if where == "after-last-chunk":
                await gate.hold()
            yield text_response(request.id)
            if where == "after-response":
                await gate.hold()
        finally:
            gate.finally_ran.set()

    stream = start(factory, controller)
    await asyncio.wait_for(gate.reached.wait(), GUARD_SECONDS)
    controller.abort()

    assert await failure_of(stream) is controller.signal.reason
    assert gate.finally_ran.is_set()


async def test_a_factory_hanging_forever_is_released_by_the_abort_alone() -> None:
    controller = AbortController()
    gate = Gate()

    async def factory(request: CourseModelRequest, signal: AbortSignal) -> Turn:
        try:
            await gate.hold()
            yield text_response(request.id)
        finally:
            gate.finally_ran.set()

    stream = start(factory, controller)
    consumer = asyncio.ensure_future(read_all(stream))
    await asyncio.wait_for(gate.reached.wait(), GUARD_SECONDS)
    assert not consumer.done()

    timeout = TimeoutError("deadline chosen by the test")
    controller.abort(timeout)

    with pytest.raises(TimeoutError) as caught:
        await asyncio.wait_for(consumer, GUARD_SECONDS)
    assert caught.value is timeout
    assert gate.finally_ran.is_set()


async def test_an_abort_during_cleanup_does_not_replace_the_settled_failure() -> None:
    controller = AbortController()
    gate = Gate()

    async def factory(request: CourseModelRequest, signal: AbortSignal) -> AsyncIterator[object]:
        try:
            yield "not a chunk"
        finally:
            await gate.hold()

    stream = start(factory, controller)
    await asyncio.wait_for(gate.reached.wait(), GUARD_SECONDS)
    settled = await failure_of(stream)
    assert isinstance(settled, ScriptedModelError)
    assert settled.code is INVALID

    controller.abort()
    with pytest.raises(ScriptedModelError) as after_abort:
        await asyncio.wait_for(stream.result, GUARD_SECONDS)
    assert after_abort.value is settled


async def test_one_async_generator_returned_by_two_factories_serves_only_the_first_call() -> None:
    steps: list[str] = []

    async def shared_turn() -> Turn:
        steps.append("started")
        yield delta("request-1", "first call only")
        steps.append("resumed")
        yield text_response("request-1")

    shared = shared_turn()

    def first_factory(request: CourseModelRequest, signal: AbortSignal) -> Turn:
        return shared

    def second_factory(request: CourseModelRequest, signal: AbortSignal) -> Turn:
        return shared

    model = ScriptedModel([first_factory, second_factory])
    first = model.stream(request("request-1"), AbortController().signal)
    second = model.stream(request("request-1"), AbortController().signal)

    assert await code_of(second) is ScriptedModelErrorCode.SCRIPT_ITERATOR_REUSED
    assert [chunk async for chunk in first] == [delta("request-1", "first call only")]
    assert (await first.result).id == "response-1"
    assert steps == ["started", "resumed"]


async def test_a_reused_iterator_is_not_closed_by_the_call_that_refused_it() -> None:
    gate = Gate()

    async def shared_turn() -> Turn:
        await gate.hold()
        yield text_response("request-1")

    shared = shared_turn()

    def factory(request: CourseModelRequest, signal: AbortSignal) -> Turn:
        return shared

    owner = AbortController()
    model = ScriptedModel([factory, factory])
    first = model.stream(request("request-1"), owner.signal)
    await asyncio.wait_for(gate.reached.wait(), GUARD_SECONDS)
    second = model.stream(request("request-1"), AbortController().signal)

    assert await code_of(second) is ScriptedModelErrorCode.SCRIPT_ITERATOR_REUSED
    assert not first.done
    gate.never.set()
    assert (await asyncio.wait_for(first.result, GUARD_SECONDS)).id == "response-1"


async def test_a_factory_receives_the_captured_request_and_the_callers_signal() -> None:
    controller = AbortController()
    seen: list[Any] = []

    async def factory(request: CourseModelRequest, signal: AbortSignal) -> Turn:
        seen.extend([request, signal])
        yield text_response(request.id)

    model = ScriptedModel([factory])
    await model.stream(request(), controller.signal).result

    assert seen[0] is model.requests[0]
    assert seen[1] is controller.signal


async def test_an_abort_never_leaves_the_producer_waiting_on_a_cleanup_that_hangs() -> None:
    # The factory swallows the abort's one cancellation and yields again; the
    # close that follows must then be interrupted, or its finally would keep
    # the producer task pending forever.
    cleanup_started = asyncio.Event()

    async def factory(
        request: CourseModelRequest, signal: AbortSignal
    ) -> AsyncIterator[CourseModelChunk | CourseModelResponse]:
        yield CourseTextDeltaChunk(request_id=request.id, delta="one")
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.Event().wait()
        try:
            yield CourseTextDeltaChunk(request_id=request.id, delta="two")
        finally:
            cleanup_started.set()
            await asyncio.Event().wait()

    controller = AbortController()
    reason = RuntimeError("stop now")
    stream = ScriptedModel([factory]).stream(_REQUEST_FOR_HANGING_CLEANUP, controller.signal)
    events = aiter(stream)
    assert await anext(events) == CourseTextDeltaChunk(request_id="r-hang", delta="one")

    controller.abort(reason)

    with pytest.raises(RuntimeError) as caught:
        await asyncio.wait_for(stream.result, GUARD_SECONDS)
    assert caught.value is reason
    await asyncio.wait_for(cleanup_started.wait(), GUARD_SECONDS)
    assert await tasks_left(10) == set()


_REQUEST_FOR_HANGING_CLEANUP = request("r-hang", message_id="u-1")


async def test_an_abort_settles_the_stream_without_waiting_for_a_factory_cleanup_that_awaits() -> (
    None
):
    controller = AbortController()
    held = asyncio.Event()
    release = asyncio.Event()
    cleanup_done = asyncio.Event()

    async def factory(request: CourseModelRequest, signal: AbortSignal) -> Turn:
        try:
            yield delta(request.id, "first")
            held.set()
            await asyncio.Event().wait()
            yield text_response(request.id)
        finally:
            await release.wait()  # a cleanup that takes as long as it likes
            cleanup_done.set()

    stream = start(factory, controller)
    iterator = aiter(stream)
    try:
        async with asyncio.timeout(GUARD_SECONDS):
            assert await anext(iterator) == delta("request-1", "first")
            await held.wait()
            await abort_settles_at_once(controller, stream, iterator)
            assert not cleanup_done.is_set()
    finally:
        # Released even when an assertion failed: the cleanup must not outlive the test.
        release.set()
    await asyncio.wait_for(cleanup_done.wait(), GUARD_SECONDS)


@pytest.mark.parametrize("late_id", ["request-1", "request-other"], ids=["same id", "other id"])
async def test_a_chunk_after_the_response_is_out_of_place_whatever_its_request_id(
    late_id: str,
) -> None:
    # Once the response came, no chunk is for the open request any more: even
    # one with another request's id is reported as out of place, not misrouted.
    async def factory(active: CourseModelRequest, _signal: AbortSignal) -> Turn:
        yield delta(active.id, "early")
        yield text_response(active.id)
        yield delta(late_id, "late")

    stream = start(factory)
    events, error = await read_until_failure(stream)

    assert [event.delta for event in events] == ["early"]  # type: ignore[union-attr]
    assert type(error) is ScriptedModelError
    assert error.code is INVALID
    assert "after its CourseModelResponse (item 2)" in error.message
