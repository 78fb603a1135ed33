"""run_producer: the one way a stream's production runs as a task, raced against an abort."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from course_stream._abort import AbortSignal
from course_stream._errors import EventStreamStateError
from course_stream._event_stream import EventStream

__all__ = ["run_producer"]

Produce = Callable[[], Awaitable[object]]

# The event loop holds tasks only weakly; production must not be collected mid-way.
_running: set[asyncio.Task[None]] = set()


def run_producer(
    stream: EventStream[Any, Any], signal: AbortSignal, produce: Produce
) -> asyncio.Task[None]:
    """Run ``produce()`` as one task that settles ``stream``, interrupted by ``signal``.

    ``produce`` is a zero-argument async callable that pushes events and settles the
    stream; cleaning up its own sources (``aclose``, ``finally``) is its job.

    - No running loop: raises `RuntimeError`, before touching the stream.
    - ``signal`` already aborted: fails the stream with ``signal.reason`` (the same
      object) without calling ``produce``; the returned task completes with no work.
    - Otherwise starts one task and registers one abort listener. When the signal
      aborts, the listener fails a stream that is still open with ``signal.reason``
      at once, in the ``abort()`` call itself, and then cancels the task, so the
      abort interrupts whatever await is pending: once per stream, never a task or
      future per step. The consumer never waits for ``produce`` to clean up (a
      ``finally`` that awaits, a source that ignores the cancellation): the abort
      wins over anything ``produce`` does afterwards, and ``produce`` must test
      ``stream.done`` before settling. When the task ends, a stream ``produce``
      left unsettled is failed with: the exception ``produce`` raised (the same
      object); `EventStreamStateError` if it returned without settling; the
      `asyncio.CancelledError` if the task was cancelled by someone else (the task
      then ends cancelled). A stream that is already settled is never touched again.
    - The listener is removed when the task ends, and the task is strongly
      referenced until then. The task itself never ends with an exception nobody
      retrieves: failures go to the stream.
    """
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        raise RuntimeError(
            "run_producer() needs a running event loop: start the stream from async code"
        ) from None
    if signal.aborted:
        if not stream.done:
            stream.fail(signal.abort_reason())
        task = loop.create_task(_nothing())
    else:
        run = _ProducerRun(stream, signal, produce)
        task = loop.create_task(run.drive())
        run.task = task
        signal.add_listener(run.on_abort)
        task.add_done_callback(run.on_done)
    _running.add(task)
    task.add_done_callback(_running.discard)
    return task


async def _nothing() -> None:
    return None


class _ProducerRun:
    """One production: the task, its abort listener, and how its end settles the stream."""

    __slots__ = ("abort_requested", "produce", "signal", "stream", "task")

    def __init__(
        self, stream: EventStream[Any, Any], signal: AbortSignal, produce: Produce
    ) -> None:
        self.stream = stream
        self.signal = signal
        self.produce = produce
        self.task: asyncio.Task[None] | None = None
        self.abort_requested = False

    def on_abort(self) -> None:
        task = self.task
        if task is not None and not task.done():
            self.abort_requested = True
            if not self.stream.done:
                self.stream.fail(self.signal.abort_reason())
            task.cancel()

    async def drive(self) -> None:
        try:
            await self.produce()
        except asyncio.CancelledError as error:
            if not self.abort_requested:
                self.settle(error)
                raise
            task = asyncio.current_task()
            if task is not None:
                task.uncancel()
        except (KeyboardInterrupt, SystemExit) as error:
            self.settle(error)
            raise
        except BaseException as error:
            self.settle(error)
        else:
            self.settle(
                EventStreamStateError(
                    "produce() returned without settling its EventStream "
                    "(call finish() or fail() before returning)"
                )
            )
        finally:
            self.signal.remove_listener(self.on_abort)

    def on_done(self, task: asyncio.Task[None]) -> None:
        # drive() settles the stream itself; this only matters when the task was
        # cancelled before its first step, so drive() never ran at all.
        self.signal.remove_listener(self.on_abort)
        if not self.stream.done:
            self.settle(asyncio.CancelledError())

    def settle(self, error: BaseException) -> None:
        if not self.stream.done:
            self.stream.fail(error)
