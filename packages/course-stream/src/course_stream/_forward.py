"""forward_source: the one abort-aware loop that plays an async source into a stream.

Every adapter produces the same way: read an untrusted async source item by
item, turn each item into at most one event, turn the end of the source into
the result, and stop cleanly on the first failure or abort. Only what to do
with one item and with the end differs; that is the `SourcePlay` an adapter
fills in, and everything else lives here, once.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from functools import partial
from typing import Protocol, TypeVar

from course_stream._abort import AbortSignal
from course_stream._closing import aclose_quietly
from course_stream._event_stream import EventStream
from course_stream._ownership import claim_iterator_once

__all__ = ["SourcePlay", "forward_source"]

T = TypeVar("T")
E = TypeVar("E")
R = TypeVar("R")
T_contra = TypeVar("T_contra", contravariant=True)
E_co = TypeVar("E_co", covariant=True)
R_co = TypeVar("R_co", covariant=True)

_MUST_PROPAGATE = (KeyboardInterrupt, SystemExit)


class SourcePlay(Protocol[T_contra, E_co, R_co]):
    """What an adapter supplies to `forward_source`: its verdict on each item and on the end.

    ``item`` and ``end`` raise the adapter's own error to fail the stream with
    it; ``source_failed`` translates whatever the source itself raised.
    """

    def item(self, item: T_contra, index: int, push: Callable[[E_co], None]) -> None:
        """Handle item ``index`` (zero-based): ``push`` the events it makes (any number).

        ``push`` is the stream's own `EventStream.push`; a play that has
        several events at once may hand them to the stream's
        `EventStream.push_many` instead, in one call. Once the signal has
        aborted, the stream is settled and both raise `EventStreamStateError`.
        Raises the adapter's own error to fail the stream with it; ``item``
        never settles the stream itself.
        """
        ...

    def end(self, count: int) -> R_co:
        """The result once the source ended after ``count`` items; raises to fail the stream."""
        ...

    def source_failed(self, error: BaseException, index: int) -> BaseException:
        """The error to fail the stream with when the source raised ``error`` at item ``index``."""
        ...


class _Verdict:
    """Carries an exception raised by the adapter's own ``item`` or ``end`` out of the read loop."""

    __slots__ = ("error",)

    def __init__(self, error: BaseException) -> None:
        self.error = error


async def forward_source(
    stream: EventStream[E, R],
    signal: AbortSignal,
    source: AsyncIterator[T],
    play: SourcePlay[T, E, R],
    *,
    reused: Callable[[], BaseException] | None = None,
) -> None:
    """Play ``source`` into ``stream`` through ``play`` and settle it; meant for `run_producer`.

    - ``reused`` given: the iterator is claimed with `claim_iterator_once`; one
      that already fed another call fails the stream with ``reused()`` and is
      left alone (it belongs to the call that claimed it first).
    - Each item goes to ``play.item`` with the stream's ``push``, so one item
      may make any number of events. The signal is checked before each item
      is handed over and after the play returns, so nothing is read after an
      abort; nothing is published after it either, since the abort settles
      the stream. ``signal`` is the one `run_producer` was given.
    - The source ends: ``play.end(count)`` settles the stream with its result.
    - ``play.item`` or ``play.end`` raises: the stream fails with that exception.
    - The source raises (a step, ``StopIteration`` leaking, a spontaneous
      `asyncio.CancelledError`): the stream fails with
      ``play.source_failed(error, index)``; ``KeyboardInterrupt`` and
      ``SystemExit`` fail it as they are and propagate.
    - The signal aborts: the stream fails with ``signal.reason`` at once, in
      the ``abort()`` call (`run_producer` does the same; events pushed before
      the abort are still delivered first, as for any `EventStream.fail`), and
      a push after it raises `EventStreamStateError` in the play; nothing the
      source or the play does afterwards changes that.

    Whenever play stops before the source is exhausted, the stream is settled
    first and the source closed second (`aclose_quietly`: its errors are
    dropped; after an abort or a cancellation the close is interrupted at its
    first suspension, so a close that never returns cannot keep the task
    pending). Raises only what must propagate: the task's own cancellation,
    ``KeyboardInterrupt``, ``SystemExit``.
    """
    if reused is not None and not claim_iterator_once(source):
        _settle_failed(stream, reused())
        return
    # Read per item instead of `signal.aborted`: the listener fills it the moment
    # the signal aborts, even when the source's own step aborts it and returns.
    aborted: list[bool] = []
    if signal.aborted:
        _abort(aborted, stream, signal)
    on_abort = partial(_abort, aborted, stream, signal)
    signal.add_listener(on_abort)
    handle = play.item
    push = stream.push
    index = 0
    verdict: _Verdict | None = None
    try:
        # `async for` steps an async generator through its C slot; the adapter's
        # own verdict is caught inside the body so it is never taken for the source's.
        async for item in source:
            if aborted:
                break
            try:
                handle(item, index, push)
            except BaseException as error:
                verdict = _Verdict(error)
                break
            if aborted:
                break
            index += 1
            # Not kept while the source makes the next item: an item (a
            # vendor's last event repeating the whole text) may be megabytes.
            del item
        else:
            if not aborted:
                verdict = _finish(stream, play, index)
                if verdict is None:
                    return
    except BaseException as error:
        cancelled = isinstance(error, asyncio.CancelledError) and _being_cancelled()
        if not aborted and not cancelled:
            propagate = isinstance(error, _MUST_PROPAGATE)
            _settle_failed(stream, error if propagate else play.source_failed(error, index))
        await aclose_quietly(source, interrupt=cancelled or bool(aborted))
        if cancelled or isinstance(error, _MUST_PROPAGATE):
            raise
        return
    finally:
        signal.remove_listener(on_abort)
    if not aborted and verdict is not None:
        _settle_failed(stream, verdict.error)
    await aclose_quietly(source, interrupt=bool(aborted))
    if verdict is not None and isinstance(verdict.error, _MUST_PROPAGATE):
        raise verdict.error


def _abort(aborted: list[bool], stream: EventStream[E, R], signal: AbortSignal) -> None:
    # Settling here, in the abort() call, is what keeps anything pushed after
    # the abort unpublished: the stream refuses it (run_producer's own listener,
    # registered first, has usually done so already).
    aborted.append(True)
    _settle_failed(stream, signal.abort_reason())


def _finish(stream: EventStream[E, R], play: SourcePlay[T, E, R], count: int) -> _Verdict | None:
    try:
        result = play.end(count)
    except BaseException as error:
        return _Verdict(error)
    if not stream.done:
        stream.finish(result)
    return None


def _being_cancelled() -> bool:
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


def _settle_failed(stream: EventStream[E, R], error: BaseException) -> None:
    if not stream.done:
        stream.fail(error)
