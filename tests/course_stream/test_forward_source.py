"""forward_source: the one loop every adapter plays its source through, tested once here.

Each test drives the loop with a small `SourcePlay` and a hand-made source,
through `run_producer` as the adapters do: item and end verdicts, what the
source raises, the iterator claim, and the abort (which settles the stream in
the ``abort()`` call itself, before any cleanup of the source runs).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from course_stream import (
    AbortController,
    AbortError,
    EventStream,
    EventStreamStateError,
    SourcePlay,
    forward_source,
    run_producer,
)
from tests.streams import GUARD_SECONDS, abort_settles_at_once, settle


class ItemRefusedError(Exception):
    """The play's verdict on an item."""


class SourceBrokeError(Exception):
    """What a source raises of its own accord."""


class TranslatedError(Exception):
    """What the play turns a source failure into."""


class Words:
    """A SourcePlay: strings become events, ``"bad"`` is refused, the result is the count."""

    def __init__(self) -> None:
        self.failures: list[tuple[BaseException, int]] = []

    def item(self, item: str, index: int, push: Callable[[str], None]) -> None:
        if item == "bad":
            raise ItemRefusedError(index)
        if item == "twice":
            push("TWICE")
        if item != "skip":
            push(item.upper())

    def end(self, count: int) -> int:
        if count == 0:
            raise ItemRefusedError("empty")
        return count

    def source_failed(self, error: BaseException, index: int) -> BaseException:
        self.failures.append((error, index))
        translated = TranslatedError(index)
        translated.__cause__ = error
        return translated


def _typed(play: Words) -> SourcePlay[str, str, int]:
    return play


class Source:
    """A hand-written async iterator that records its steps and its close."""

    def __init__(self, *items: object) -> None:
        self.items = list(items)
        self.closed = 0

    def __aiter__(self) -> Source:
        return self

    async def __anext__(self) -> Any:
        await asyncio.sleep(0)
        if not self.items:
            raise StopAsyncIteration
        item = self.items.pop(0)
        if isinstance(item, BaseException):
            raise item
        return item

    async def aclose(self) -> None:
        self.closed += 1


async def play_through(
    source: AsyncIterator[Any], play: Words | None = None, **options: Any
) -> tuple[list[str], BaseException | None, Any]:
    stream: EventStream[str, int] = EventStream()
    words = play or Words()
    run_producer(
        stream,
        AbortController().signal,
        lambda: forward_source(stream, AbortController().signal, source, _typed(words), **options),
    )
    settled = await settle(stream)
    if settled.iteration_error is not None:
        return settled.events, settled.failure, None
    if settled.result_error is not None:
        return settled.events, None, settled.result_error
    return settled.events, None, settled.result


async def test_items_become_events_in_order_and_the_end_becomes_the_result() -> None:
    events, failure, result = await play_through(Source("a", "skip", "twice", "b"))

    assert (events, failure, result) == (["A", "TWICE", "TWICE", "B"], None, 4)


async def test_the_play_refusing_an_item_fails_the_stream_and_closes_the_source() -> None:
    source = Source("a", "bad", "never read")

    events, failure, _ = await play_through(source)

    assert events == ["A"]
    assert isinstance(failure, ItemRefusedError)
    assert failure.args == (1,)
    assert source.closed == 1
    assert source.items == ["never read"]


async def test_the_play_refusing_the_end_fails_the_stream() -> None:
    events, failure, _ = await play_through(Source())

    assert events == []
    assert isinstance(failure, ItemRefusedError)


@pytest.mark.parametrize(
    "raised",
    [
        SourceBrokeError("boom"),
        ItemRefusedError("forged"),
        asyncio.CancelledError(),
        StopIteration(),
    ],
    ids=["own error", "forged verdict", "spontaneous cancellation", "leaked StopIteration"],
)
async def test_whatever_the_source_raises_goes_through_source_failed(raised: BaseException) -> None:
    play = Words()

    events, failure, _ = await play_through(Source("a", raised), play)

    assert events == ["A"]
    assert isinstance(failure, TranslatedError)
    assert failure.args == (1,)
    assert len(play.failures) == 1
    assert play.failures[0][1] == 1


async def test_a_claimed_iterator_fails_a_second_play_with_the_reused_error() -> None:
    source = Source("a")
    reused = ItemRefusedError("reused")
    first = await play_through(source, reused=lambda: reused)
    second = await play_through(source, reused=lambda: reused)

    assert first == (["A"], None, 1)
    assert second == ([], reused, None)
    assert source.closed == 0


class HangingSource(Source):
    """Hands out its items, then waits forever; its cleanup waits until released."""

    def __init__(self, *items: object, swallow: bool = False, on_cancel: object = None) -> None:
        super().__init__(*items)
        self.swallow = swallow
        self.on_cancel = on_cancel
        self.release = asyncio.Event()
        self.reached = asyncio.Event()
        self.cleanup_done = asyncio.Event()

    async def __anext__(self) -> Any:
        if self.items:
            return self.items.pop(0)
        self.reached.set()
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            if isinstance(self.on_cancel, BaseException):
                raise self.on_cancel from None
            if self.on_cancel == "end":
                raise StopAsyncIteration from None
            if not self.swallow:
                raise
        # A source that swallowed the cancellation: it goes on waiting.
        await self.release.wait()
        self.cleanup_done.set()
        raise StopAsyncIteration


@pytest.mark.parametrize(
    "source_kind",
    [
        "cancelled normally",
        "swallows the cancellation",
        "raises when cancelled",
        "ends when cancelled",
    ],
)
async def test_an_abort_settles_the_stream_at_once_whatever_the_source_does_next(
    source_kind: str,
) -> None:
    source = HangingSource(
        "a",
        swallow=source_kind == "swallows the cancellation",
        on_cancel=ConnectionResetError("reset")
        if source_kind == "raises when cancelled"
        else "end"
        if source_kind == "ends when cancelled"
        else None,
    )
    controller = AbortController()
    stream: EventStream[str, int] = EventStream()
    task = run_producer(
        stream,
        controller.signal,
        lambda: forward_source(stream, controller.signal, source, _typed(Words())),
    )
    iterator = aiter(stream)
    try:
        async with asyncio.timeout(GUARD_SECONDS):
            assert await anext(iterator) == "A"
            await source.reached.wait()
            reason = await abort_settles_at_once(controller, stream, iterator)
    finally:
        # Released even when an assertion failed: a source that swallowed the
        # cancellation would otherwise keep the loop from closing, and the
        # suite would hang instead of reporting the failure.
        source.release.set()
    await asyncio.wait({task}, timeout=GUARD_SECONDS)
    assert task.done()
    with pytest.raises(AbortError) as from_result:
        await stream.result
    assert from_result.value is reason


async def test_an_abort_before_the_next_item_is_handed_over_publishes_nothing_more() -> None:
    controller = AbortController()

    async def source() -> AsyncIterator[str]:
        yield "a"
        controller.abort()
        yield "never published"

    stream: EventStream[str, int] = EventStream()
    run_producer(
        stream,
        controller.signal,
        lambda: forward_source(stream, controller.signal, source(), _typed(Words())),
    )
    iterator = aiter(stream)
    async with asyncio.timeout(GUARD_SECONDS):
        assert await anext(iterator) == "A"
        with pytest.raises(AbortError):
            await anext(iterator)


async def test_keyboard_interrupt_from_the_source_fails_the_stream_and_propagates() -> None:
    stream: EventStream[str, int] = EventStream()
    interrupt = KeyboardInterrupt()

    async def produce() -> None:
        await forward_source(stream, AbortController().signal, Source(interrupt), _typed(Words()))

    with pytest.raises(KeyboardInterrupt) as propagated:
        await produce()
    assert propagated.value is interrupt
    assert stream.done


class AbortingWords(Words):
    """A play whose own ``item`` aborts the signal between two pushes, once."""

    def __init__(self, controller: AbortController, reason: BaseException) -> None:
        super().__init__()
        self.controller = controller
        self.reason = reason
        self.pushes_after_abort: list[EventStreamStateError | None] = []

    def item(self, item: str, index: int, push: Callable[[str], None]) -> None:
        if item != "abort here":
            super().item(item, index, push)
            return
        push("BEFORE")
        self.controller.abort(self.reason)
        for event in ("AFTER", "AFTER AGAIN"):
            try:
                push(event)
            except EventStreamStateError as error:
                self.pushes_after_abort.append(error)
            else:
                self.pushes_after_abort.append(None)


@pytest.mark.parametrize("runner", ["run_producer", "forward_source alone"])
@pytest.mark.parametrize("read", ["parked", "not yet reading"])
async def test_an_abort_from_the_plays_own_item_publishes_nothing_it_pushed_afterwards(
    read: str, runner: str
) -> None:
    # Whether a read is parked or not, and whether run_producer's listener or
    # the loop's own one settles the stream in the abort() call, the settled
    # stream refuses every push after the abort: the abort wins.
    controller = AbortController()
    reason = AbortError("from the play")
    play = AbortingWords(controller, reason)
    source = Source("a", "abort here", "never read")
    stream: EventStream[str, int] = EventStream()
    iterator = aiter(stream)

    async def produce() -> None:
        await forward_source(stream, controller.signal, source, _typed(play))

    async with asyncio.timeout(GUARD_SECONDS):
        if runner == "run_producer":
            task = run_producer(stream, controller.signal, produce)
        else:
            task = asyncio.ensure_future(produce())
        if read == "not yet reading":
            await asyncio.wait({task})
        assert await anext(iterator) == "A"
        assert await anext(iterator) == "BEFORE"
        with pytest.raises(AbortError) as caught:
            await anext(iterator)
        await asyncio.wait({task})
    assert caught.value is reason
    assert source.items == ["never read"]
    assert source.closed == 1
    assert [type(error) for error in play.pushes_after_abort] == [EventStreamStateError] * 2
    assert all("already terminal" in str(error) for error in play.pushes_after_abort)


async def test_a_read_parked_while_the_source_steps_is_woken_by_the_next_push() -> None:
    release = asyncio.Event()
    served = asyncio.Event()

    async def source() -> AsyncIterator[str]:
        yield "a"
        await release.wait()
        yield "b"
        # Nothing settles the stream until the parked read got "B": only the
        # push itself can have woken it.
        await served.wait()
        yield "c"

    stream: EventStream[str, int] = EventStream()
    run_producer(
        stream,
        AbortController().signal,
        lambda: forward_source(stream, AbortController().signal, source(), _typed(Words())),
    )
    iterator = aiter(stream)
    async with asyncio.timeout(GUARD_SECONDS):
        assert await anext(iterator) == "A"
        parked = asyncio.ensure_future(anext(iterator))
        await asyncio.sleep(0)
        assert not parked.done()
        release.set()
        assert await parked == "B"
        served.set()
        assert await anext(iterator) == "C"
        with pytest.raises(StopAsyncIteration):
            await anext(iterator)
    assert await stream.result == 3


class RecordingWords(Words):
    """Words whose ``push`` outcomes are kept: None for a push the stream took, else its error."""

    def __init__(self) -> None:
        super().__init__()
        self.pushes: list[EventStreamStateError | None] = []

    def item(self, item: str, index: int, push: Callable[[str], None]) -> None:
        try:
            super().item(item, index, push)
        except EventStreamStateError as error:
            self.pushes.append(error)
            raise
        self.pushes.append(None)


@pytest.mark.parametrize("settled_with", ["finish", "fail"])
async def test_an_item_made_after_someone_else_settled_the_stream_is_refused_not_delivered(
    settled_with: str,
) -> None:
    # Every push goes through the stream's own checks: the loop has no way to
    # put an event into a stream that is already settled, whoever settled it.
    waiting = asyncio.Event()
    settled = asyncio.Event()

    async def source() -> AsyncIterator[str]:
        yield "a"
        waiting.set()
        await settled.wait()
        yield "b"

    stream: EventStream[str, int] = EventStream()
    play = RecordingWords()
    failure = ItemRefusedError("settled by the consumer")
    task = run_producer(
        stream,
        AbortController().signal,
        lambda: forward_source(stream, AbortController().signal, source(), _typed(play)),
    )
    async with asyncio.timeout(GUARD_SECONDS):
        await waiting.wait()
        if settled_with == "finish":
            stream.finish(-1)
        else:
            stream.fail(failure)
        settled.set()
        await asyncio.wait({task})
        outcome = await settle(stream)

    assert outcome.events == ["A"]
    assert play.pushes[0] is None
    assert [type(error) for error in play.pushes[1:]] == [EventStreamStateError]
    if settled_with == "finish":
        assert outcome.result == -1
    else:
        assert outcome.iteration_error is failure
