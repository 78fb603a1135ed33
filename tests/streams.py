"""Reading a stream to its end under the suite's guard timeout, as the tests of every folder do.

An `EventStream` is consumed two ways, by iteration and by awaiting its
``result``; a stream that fails must fail both with the very same error
object. `settle` reads both and returns what each gave without judging it;
`Settled.failure`, `Settled.response`, `read_until_failure` and `failure_of`
assert what a test expects on top. Every read here is bounded by
`GUARD_SECONDS`, so a stream that never settles fails its test instead of
hanging the suite. `text_deltas` picks the text out of a model's chunks.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterable, AsyncIterator, Iterable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import pytest

from course_protocol import CourseTextDeltaChunk
from course_stream import AbortController, AbortError, EventStream

__all__ = [
    "GUARD_SECONDS",
    "Settled",
    "abort_settles_at_once",
    "failure_of",
    "read_all",
    "read_until_failure",
    "settle",
    "text_deltas",
]

E = TypeVar("E")
R = TypeVar("R")
X = TypeVar("X", bound=BaseException)

GUARD_SECONDS = 60.0
"""Far longer than any test's wait takes; only a hang (a bug) ever reaches it.

Even on a busy 2-vCPU machine, where a test may get a third of a CPU and a
wait of one second takes several (a 10 s bound was reached there).
"""


@dataclass(frozen=True)
class Settled(Generic[E, R]):
    """What a stream delivered: its events, then how iteration ended and what ``result`` gave.

    ``iteration_error`` is None when iteration ended normally; ``result`` is
    None when awaiting it raised ``result_error``.
    """

    events: list[E]
    iteration_error: BaseException | None
    result: R | None
    result_error: BaseException | None

    @property
    def failure(self) -> BaseException:
        """The one error object both iteration and ``result`` raised.

        Raises AssertionError when iteration ended normally or ``result``
        raised something else (or nothing).
        """
        assert self.iteration_error is not None, f"the stream did not fail: {self.result!r}"
        assert self.result_error is self.iteration_error, (
            f"iteration failed with {self.iteration_error!r}, the result with {self.result_error!r}"
        )
        return self.iteration_error

    def failure_as(self, kind: type[X]) -> X:
        """`failure`, asserted to be an instance of ``kind``."""
        failure = self.failure
        assert isinstance(failure, kind), f"expected a {kind.__name__}, got {failure!r}"
        return failure

    @property
    def response(self) -> R:
        """The result of a stream that succeeded with a value (not None).

        Raises AssertionError when iteration or ``result`` raised.
        """
        assert self.iteration_error is None, f"iteration failed with {self.iteration_error!r}"
        assert self.result_error is None, f"the result failed with {self.result_error!r}"
        assert self.result is not None
        return self.result

    @property
    def outcome(self) -> R | BaseException:
        """The error iteration raised, else the one ``result`` raised, else the result.

        What a caller that reads the events, then awaits the result, ends
        up with; no agreement between the two reads is asserted.
        """
        if self.iteration_error is not None:
            return self.iteration_error
        if self.result_error is not None:
            return self.result_error
        return self.response


async def settle(stream: EventStream[E, R]) -> Settled[E, R]:
    """Iterate ``stream`` to its end, then await its ``result``; return what each gave.

    Any error of either read (a `BaseException` too: a cancellation that
    reaches the consumer is an outcome some tests expect) is recorded, not
    raised. Raises TimeoutError when the two reads take more than
    `GUARD_SECONDS` together. The reads run in a task of their own, the one
    ``asyncio.wait_for`` makes (on Python 3.11), so the producer is given the
    loop turns that starting and ending that task take.
    """

    async def read() -> Settled[E, R]:
        reader = asyncio.current_task()
        events: list[E] = []
        iteration_error: BaseException | None = None
        result: R | None = None
        result_error: BaseException | None = None
        try:
            async for event in stream:
                events.append(event)
        except BaseException as error:
            if reader is not None and reader.cancelling():
                raise  # the guard's own cancellation: wait_for reports it as a timeout
            iteration_error = error
        try:
            result = await stream.result
        except BaseException as error:
            if reader is not None and reader.cancelling():
                raise
            result_error = error
        return Settled(events, iteration_error, result, result_error)

    return await asyncio.wait_for(read(), GUARD_SECONDS)


async def read_until_failure(stream: AsyncIterable[E]) -> tuple[list[E], Exception]:
    """The events iteration delivered before it failed, and the error it failed with.

    Fails the test when iteration ends normally; raises TimeoutError after
    `GUARD_SECONDS`. Only an `Exception` is caught: a cancellation propagates.
    """
    received: list[E] = []
    async with asyncio.timeout(GUARD_SECONDS):
        try:
            async for event in stream:
                received.append(event)
        except Exception as error:
            return received, error
    pytest.fail(f"iteration ended without an error after {received!r}")


async def failure_of(stream: EventStream[Any, Any]) -> Exception:
    """The failure both consumption paths raise, asserted to be one and the same object.

    Fails the test when iteration ends normally or ``result`` resolves.
    """
    _, from_iteration = await read_until_failure(stream)
    try:
        response = await asyncio.wait_for(stream.result, GUARD_SECONDS)
    except Exception as error:
        from_result = error
    else:
        pytest.fail(f"result resolved to {response!r} after iteration failed")
    assert from_result is from_iteration
    return from_iteration


async def read_all(events: AsyncIterable[E]) -> list[E]:
    """Every event, in order, of an iteration that must end normally within `GUARD_SECONDS`.

    Raises what iteration raised, or TimeoutError. The events are read by
    the one task ``asyncio.wait_for`` makes for them (on Python 3.11), which
    a test that counts the tasks of a block sees.
    """

    async def read() -> list[E]:
        return [event async for event in events]

    return await asyncio.wait_for(read(), GUARD_SECONDS)


def text_deltas(chunks: Iterable[object]) -> list[str]:
    """The ``delta`` of every `CourseTextDeltaChunk` among ``chunks``, in order."""
    return [chunk.delta for chunk in chunks if type(chunk) is CourseTextDeltaChunk]


async def abort_settles_at_once(
    controller: AbortController, stream: EventStream[Any, Any], events: AsyncIterator[Any]
) -> AbortError:
    """Abort mid-stream with a fresh reason; the stream is settled by then, the next read raises it.

    Asserts that ``stream`` is done as soon as ``controller.abort`` returns
    (before any cleanup of the producer's source runs) and that the next read
    of ``events``, the stream's iterator, raises that very reason object,
    which is returned.
    """
    reason = AbortError("stop")

    controller.abort(reason)

    assert stream.done
    with pytest.raises(AbortError) as caught:
        await anext(events)
    assert caught.value is reason
    return reason
