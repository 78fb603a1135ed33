"""Record cursors: play an array snapshot or an untrusted async source through a parser.

Both settle the stream themselves. An async source is a foreign object: its
iterator is claimed once, each step is awaited directly (an abort cancels the
one producer task, which interrupts whatever step is pending), anything it
raises becomes ``PROVIDER_INVALID_FIXTURE``, and it is closed whenever play
stops before the source is exhausted.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from functools import partial
from typing import Any, cast

from course_protocol import CourseModelChunk, CourseModelResponse
from course_provider_fixture._errors import FixtureProviderError, FixtureProviderErrorCode
from course_provider_fixture._parser import ResponseParser, freeze_record
from course_stream import AbortSignal, EventStream, aclose_quietly, claim_iterator_once

_Stream = EventStream[CourseModelChunk, CourseModelResponse]


RECORDS_PER_TURN = 256
"""How many array records play between two yields to the event loop."""


async def play_records(
    stream: _Stream, signal: AbortSignal, parser: ResponseParser, records: tuple[object, ...]
) -> None:
    """Play a frozen array of records into ``stream`` and settle it.

    Records play in batches of `RECORDS_PER_TURN`, with a yield to the loop
    between two batches: a consumer keeps up with a long response (the chunks
    buffered at once stay bounded), and an abort lands between two batches,
    where it cancels the producer like any other pending step. Within a batch
    no foreign code runs (the records are frozen snapshots, and a push only
    schedules the woken read), so nothing can abort the signal there and the
    signal is checked once, before the first record.
    """
    if signal.aborted:
        stream.fail(cast(BaseException, signal.reason))
        return
    push = stream.push
    feed = parser.feed
    count = len(records)
    try:
        for start in range(0, count, RECORDS_PER_TURN):
            if start:
                await asyncio.sleep(0)
            for index in range(start, min(start + RECORDS_PER_TURN, count)):
                chunk = feed(records[index], index)
                if chunk is not None:
                    push(chunk)
        response = parser.end(count)
    except FixtureProviderError as error:
        stream.fail(error)
        return
    stream.finish(response)


_MUST_PROPAGATE = (KeyboardInterrupt, SystemExit)


def _source_failed(
    parser: ResponseParser, index: int, cause: BaseException
) -> FixtureProviderError:
    error = FixtureProviderError(
        FixtureProviderErrorCode.PROVIDER_INVALID_FIXTURE,
        f"Async fixture record source failed at {parser.record_path(index)}: "
        f"{type(cause).__name__}",
        record_index=index,
        path=parser.record_path(index),
    )
    error.__cause__ = cause
    return error


def _being_cancelled() -> bool:
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


async def play_source(
    stream: _Stream, signal: AbortSignal, parser: ResponseParser, source: object
) -> None:
    """Play an untrusted async iterable of records into ``stream`` and settle it.

    Failures of the source itself (``__aiter__``, a step, a non-awaitable
    step, a forged ``FixtureProviderError``, any ``BaseException`` other than
    ``KeyboardInterrupt`` and ``SystemExit``, which propagate) become
    ``PROVIDER_INVALID_FIXTURE`` with the original as ``__cause__``; a record
    that is not plain JSON is ``PROVIDER_INVALID_EVENT``. An abort fails the
    stream with ``signal.reason``. The source is closed (``aclose``, errors
    ignored) whenever play stops before it is exhausted, after the stream is
    settled, so a slow close never delays the consumer. A close that follows
    an abort (or any cancellation of the producer) runs until its first
    suspension and is interrupted there, so a close that never returns
    cannot keep the producer task pending.
    """
    try:
        iterator = cast(AsyncIterator[Any], aiter(cast(Any, source)))
    except _MUST_PROPAGATE:
        raise
    except BaseException as cause:
        stream.fail(_source_failed(parser, 0, cause))
        return
    if not claim_iterator_once(iterator):
        stream.fail(
            FixtureProviderError(
                FixtureProviderErrorCode.PROVIDER_ITERATOR_REUSED,
                f"{parser.records_path} handed out an async iterator "
                "that already fed a model call; an iterator plays one response only",
            )
        )
        return
    # The loop tests this local list per record instead of reading
    # `signal.aborted`: the listener fills it the moment the signal aborts,
    # even when the source's own step aborts it and still returns a record.
    aborted: list[None] = [None] if signal.aborted else []
    mark_aborted = partial(aborted.append, None)
    signal.add_listener(mark_aborted)
    feed = parser.feed
    push = stream.push
    index = 0
    closed = False
    try:
        while True:
            try:
                record = await anext(iterator)
            except StopAsyncIteration:
                break
            except asyncio.CancelledError as cause:
                if _being_cancelled():
                    raise
                raise _source_failed(parser, index, cause) from cause
            except _MUST_PROPAGATE:
                raise
            except BaseException as cause:
                # Whatever an untrusted source raises is its failure, a custom
                # BaseException included; only interpreter exits pass through.
                raise _source_failed(parser, index, cause) from cause
            if aborted:
                stream.fail(cast(BaseException, signal.reason))
                closed = True
                await aclose_quietly(iterator, interrupt=True)
                return
            chunk = feed(freeze_record(record, parser, index), index)
            index += 1
            if chunk is not None:
                push(chunk)
        response = parser.end(index)
    except FixtureProviderError as error:
        stream.fail(error)
        await aclose_quietly(iterator)
        return
    except asyncio.CancelledError:
        if signal.aborted and not stream.done:
            stream.fail(cast(BaseException, signal.reason))
        if not closed:
            await aclose_quietly(iterator, interrupt=True)
        raise
    except BaseException:
        if signal.aborted and not stream.done:
            stream.fail(cast(BaseException, signal.reason))
        await aclose_quietly(iterator)
        raise
    finally:
        signal.remove_listener(mark_aborted)
    stream.finish(response)
