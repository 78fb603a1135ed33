"""EventStream: a single-consumer async queue of events with a separate terminal result.

Over 300 lines on purpose: stream, consumer and result share one private state.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import weakref
from collections import deque
from collections.abc import Awaitable, Generator, Iterable
from typing import Any, Final, Generic, NoReturn, TypeVar

from course_stream._errors import EventStreamStateError

__all__ = ["EventStream", "EventStreamIterator"]

E = TypeVar("E")
R = TypeVar("R")


class _Wake(enum.Enum):
    """Why a parked read was woken."""

    EVENT = enum.auto()
    TERMINAL = enum.auto()
    CLOSED = enum.auto()


class _State(enum.Enum):
    OPEN = "open"
    FINISHED = "finished"
    FAILED = "failed"


# Enum members read through their class cost a slow attribute lookup on every
# access in CPython 3.11; push() and every read run these comparisons, so they
# use module-level names bound once.
_OPEN: Final = _State.OPEN
_FINISHED: Final = _State.FINISHED
_FAILED: Final = _State.FAILED
_EVENT: Final = _Wake.EVENT
_TERMINAL: Final = _Wake.TERMINAL
_CLOSED: Final = _Wake.CLOSED


class EventStream(Generic[E, R]):
    """A single-consumer async queue of events of type ``E`` and one terminal result ``R``.

    Producer side: `push` (or `push_many` for several events at once), then
    exactly one of `finish` or `fail`. Consumer side:
    ``async for event in stream`` and ``await stream.result``.

    The stream needs no event loop until somebody waits on it: it can be created,
    pushed and settled before a loop runs, then consumed inside one. It is bound to
    one loop at a time and is not thread-safe (like the rest of asyncio).

    Python's ``async for`` does not close its iterator on ``break``; to release the
    consumer slot at once, iterate under `contextlib.aclosing`::

        async with contextlib.aclosing(aiter(stream)) as events:
            async for event in events:
                ...

    Otherwise the slot is released when the iterator is garbage-collected.
    """

    # How reads are served: every event goes into the deque in push order. A push
    # while reads are parked reserves an event for the first live one and wakes
    # it; the reserved events are the head of the deque, and a woken read pops the
    # head when it resumes. A read that did not have to wait takes the first event
    # after the reserved ones. So reads receive events in the order they were
    # issued, even when a fresh read runs before a woken one resumes, and a woken
    # read that is cancelled or whose iterator is closed before it resumes passes
    # its reservation to the next parked read instead of losing an event. The
    # terminal is reached once the deque is empty and nothing is reserved.
    __slots__ = (
        "__weakref__",
        "_buffer",
        "_consumer",
        "_error",
        "_failure_delivered",
        "_reserved",
        "_result",
        "_result_waiters",
        "_state",
        "_value",
        "_waiters",
    )

    def __init__(self) -> None:
        self._buffer: deque[E] = deque()
        self._reserved = 0
        self._waiters: deque[asyncio.Future[_Wake]] = deque()
        self._result_waiters: list[asyncio.Future[None]] = []
        self._state: _State = _OPEN
        self._value: R | None = None
        self._error: BaseException | None = None
        self._failure_delivered = False
        self._consumer: weakref.ref[EventStreamIterator[E]] | None = None
        self._result: Final = _EventStreamResult(self)

    def __repr__(self) -> str:
        return (
            f"<EventStream {self._state.value} buffered={len(self._buffer)} "
            f"waiting_reads={len(self._waiters)}>"
        )

    @property
    def done(self) -> bool:
        """True once `finish` or `fail` has been called."""
        return self._state is not _OPEN

    @property
    def result(self) -> Awaitable[R]:
        """The terminal result, as an awaitable that is the same object on every access.

        ``await stream.result`` returns the value given to `finish` or raises the
        exception object given to `fail` (the same object every time). It can be
        awaited any number of times, from any task of the loop. A failure nobody
        awaits is never reported as "exception was never retrieved".
        """
        return self._result

    def push(self, event: E) -> None:
        """Append ``event``; if a read is waiting, the first live one gets it. O(1).

        Raises `EventStreamStateError` ("already terminal") after `finish` or `fail`.
        """
        if self._state is not _OPEN:
            raise self._terminal_error("push")
        self._buffer.append(event)
        if self._waiters:
            self._serve_waiters()

    def push_many(self, events: Iterable[E]) -> None:
        """Append every event of ``events``, in order, as that many `push` calls would.

        One call for a batch known up front: parked reads are woken in the
        order they were issued, the first one with the first event, as many as
        there are events. ``events`` may be any iterable (a generator too); it
        is read completely before anything is appended (a tuple is taken as
        it is, anything else copied into one), so either every event is
        published or none is: if reading it raises, that exception propagates
        and nothing was appended. An empty iterable appends nothing and wakes
        nobody. O(len(events)).

        Raises `EventStreamStateError` ("already terminal") after `finish` or
        `fail`, before ``events`` is read, and also, appending nothing, when
        reading ``events`` settled the stream.
        """
        if self._state is not _OPEN:
            raise self._terminal_error("push_many")
        batch = tuple(events)
        # Reading a foreign iterable may have run anything, settling included.
        if self._state is not _OPEN:
            raise self._terminal_error("push_many")
        self._buffer.extend(batch)
        if self._waiters:
            self._serve_waiters()

    def finish(self, result: R) -> None:
        """Settle the stream successfully with ``result``.

        Buffered events are still delivered; then iteration ends and
        ``await stream.result`` returns ``result``. Raises `EventStreamStateError`
        ("already terminal") if the stream was already settled.
        """
        if self._state is not _OPEN:
            raise self._terminal_error("finish")
        self._state = _FINISHED
        self._value = result
        self._settled()

    def fail(self, error: BaseException) -> None:
        """Settle the stream with the exception instance ``error``.

        Buffered events are still delivered; then the consumer's read raises
        ``error`` (every read waiting at that point raises it) and the iteration
        is exhausted; ``await stream.result`` raises ``error``. Raises
        `EventStreamStateError` ("already terminal") if the stream was already
        settled, and `TypeError` if ``error`` is not a `BaseException` instance.
        """
        if self._state is not _OPEN:
            raise self._terminal_error("fail")
        if not isinstance(error, BaseException):
            raise TypeError(
                f"EventStream.fail() takes a BaseException instance, got {type(error).__name__}"
            )
        self._state = _FAILED
        self._error = error
        self._settled()

    def __aiter__(self) -> EventStreamIterator[E]:
        """Start consuming; there is one consumer at a time.

        Raises `EventStreamStateError` ("single consumer") while another iterator
        of this stream is still open (neither ended, closed nor collected).
        """
        current = self._consumer() if self._consumer is not None else None
        if current is not None and not current._closed:
            raise EventStreamStateError(
                "EventStream has a single consumer: another iterator is still open; "
                "close it with `await iterator.aclose()` or let it end first"
            )
        iterator = EventStreamIterator(self)
        self._consumer = weakref.ref(iterator)
        return iterator

    def _terminal_error(self, call: str) -> EventStreamStateError:
        return EventStreamStateError(
            f"EventStream is already terminal ({self._state.value}); {call}() is not allowed"
        )

    def _settled(self) -> None:
        result_waiters, self._result_waiters = self._result_waiters, []
        for result_waiter in result_waiters:
            if not result_waiter.done():
                result_waiter.set_result(None)
        self._serve_waiters()

    def _serve_waiters(self) -> None:
        """Wake parked reads for unreserved events, or with the terminal once drained."""
        waiters = self._waiters
        while waiters and len(self._buffer) > self._reserved:
            waiter = waiters.popleft()
            if not waiter.done():
                waiter.set_result(_EVENT)
                self._reserved += 1
        if self._state is not _OPEN and not self._buffer and not self._reserved:
            self._wake_all(_TERMINAL)

    def _wake_all(self, wake: _Wake) -> None:
        waiters = self._waiters
        while waiters:
            waiter = waiters.popleft()
            if not waiter.done():
                waiter.set_result(wake)

    def _withdraw(self, waiter: asyncio.Future[_Wake]) -> None:
        """Forget a read whose task was cancelled while it waited or before it resumed."""
        with contextlib.suppress(ValueError):
            self._waiters.remove(waiter)
        if waiter.done() and not waiter.cancelled() and waiter.result() is _EVENT:
            self._reserved -= 1
            self._serve_waiters()

    def _settled_value(self) -> R:
        if self._state is _FAILED:
            assert self._error is not None
            raise self._error
        return self._value  # type: ignore[return-value]


class EventStreamIterator(Generic[E]):
    """The consumer side of one `EventStream`, returned by ``aiter(stream)``.

    Reads are served in FIFO order. The iterator ends when the stream is finished
    and drained, after it raised the stream's failure, or when `aclose` is called;
    any of these releases the stream's consumer slot, as does garbage collection.
    """

    __slots__ = ("__weakref__", "_closed", "_closed_by_caller", "_stream")

    def __init__(self, stream: EventStream[E, Any]) -> None:
        self._stream = stream
        # _closed: no further reads (ended or closed); _closed_by_caller: aclose()
        # was called, so reads woken for an event leave it to the next consumer.
        self._closed = False
        self._closed_by_caller = False

    def __repr__(self) -> str:
        return f"<EventStreamIterator {'closed' if self._closed else 'open'} of {self._stream!r}>"

    def __aiter__(self) -> EventStreamIterator[E]:
        """Return this iterator itself, so it can be used in ``async for``."""
        return self

    async def __anext__(self) -> E:
        """Return the next event, or raise `StopAsyncIteration` or the stream's failure.

        A read that has to wait parks on the running loop; if its task is cancelled
        the read is withdrawn and no event is lost to it.
        """
        stream = self._stream
        # The common case first, with the fewest reads: nothing reserved for woken
        # reads and an event buffered.
        if not stream._reserved and not self._closed:
            buffer = stream._buffer
            if buffer:
                return buffer.popleft()
        if self._closed:
            raise StopAsyncIteration
        buffer, reserved = stream._buffer, stream._reserved
        if len(buffer) > reserved:
            # The first `reserved` events belong to reads already woken for them
            # (`reserved` is not 0 here: that case returned above).
            event = buffer[reserved]
            del buffer[reserved]
            return event
        if stream._state is not _OPEN and not stream._reserved:
            self._end_at_terminal(woken=False)
        waiter: asyncio.Future[_Wake] = asyncio.get_running_loop().create_future()
        stream._waiters.append(waiter)
        try:
            wake = await waiter
        except asyncio.CancelledError:
            stream._withdraw(waiter)
            raise
        if wake is _CLOSED:
            raise StopAsyncIteration
        if wake is _TERMINAL:
            self._end_at_terminal(woken=True)
        stream._reserved -= 1
        if self._was_closed_by_caller():
            stream._serve_waiters()
            raise StopAsyncIteration
        event = stream._buffer.popleft()
        if stream._state is not _OPEN:
            stream._serve_waiters()
        return event

    async def aclose(self) -> None:
        """Stop consuming: pending and later reads end with `StopAsyncIteration`.

        Events not yet read stay in the stream for a later consumer. Idempotent.
        """
        if self._closed_by_caller:
            return
        self._closed_by_caller = True
        if self._closed:
            return
        self._release()
        self._stream._wake_all(_CLOSED)

    def _end_at_terminal(self, *, woken: bool) -> NoReturn:
        # Every read parked when the failure was reached raises it; after that the
        # iteration is exhausted for this and any later consumer.
        stream = self._stream
        self._release()
        if stream._state is _FAILED and (woken or not stream._failure_delivered):
            stream._failure_delivered = True
            assert stream._error is not None
            raise stream._error
        raise StopAsyncIteration

    def _was_closed_by_caller(self) -> bool:
        # A method rather than a re-read of the attribute: aclose() may have run
        # while the read was parked, which static narrowing cannot see.
        return self._closed_by_caller

    def _release(self) -> None:
        self._closed = True
        stream = self._stream
        if stream._consumer is not None and stream._consumer() is self:
            stream._consumer = None


class _EventStreamResult(Generic[R]):
    """The awaitable behind `EventStream.result`: waits without ever holding an exception."""

    __slots__ = ("_stream",)

    def __init__(self, stream: EventStream[Any, R]) -> None:
        self._stream = stream

    def __repr__(self) -> str:
        return f"<EventStream.result of {self._stream!r}>"

    def __await__(self) -> Generator[Any, None, R]:
        stream = self._stream
        if stream._state is _OPEN:
            # The future only wakes this awaiter; the outcome itself is read from the
            # stream, so no future ever carries an exception that could go unretrieved.
            waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            stream._result_waiters.append(waiter)
            try:
                yield from waiter.__await__()
            except asyncio.CancelledError:
                if waiter in stream._result_waiters:
                    stream._result_waiters.remove(waiter)
                raise
        return stream._settled_value()
