"""Record cursors: play an array snapshot or an untrusted async source through a parser.

Both settle the stream themselves. An async source is a foreign object, played
through course_stream's one shared loop: its iterator is claimed once, an
abort interrupts whatever step is pending, anything it raises becomes
``PROVIDER_INVALID_FIXTURE``, and it is closed whenever play stops before the
source is exhausted.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from typing import Any, cast

from course_protocol import CourseModelChunk, CourseModelResponse
from course_provider_fixture._errors import FixtureProviderError, FixtureProviderErrorCode
from course_provider_fixture._parser import ResponseParser, freeze_record
from course_stream import AbortSignal, EventStream, forward_source

__all__ = ["RECORDS_PER_TURN", "SourceRecords", "play_records", "play_source"]

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
    signal needs no check: the producer task only runs while it has not aborted.
    For the same reason a batch's chunks reach the stream together, in one
    ``push_many`` before the yield (or before the failure of the record that
    stopped it): nobody could have read them any earlier.
    """
    feed = parser.feed
    count = len(records)
    chunks: list[CourseModelChunk] = []
    add = chunks.append
    try:
        for start in range(0, count, RECORDS_PER_TURN):
            if start:
                stream.push_many(chunks)
                chunks.clear()
                await asyncio.sleep(0)
            for index in range(start, min(start + RECORDS_PER_TURN, count)):
                chunk = feed(records[index], index)
                if chunk is not None:
                    add(chunk)
        response = parser.end(count)
    except FixtureProviderError as error:
        stream.push_many(chunks)
        stream.fail(error)
        return
    stream.push_many(chunks)
    stream.finish(response)


class SourceRecords:
    """How an untrusted async source's records play: the ``SourcePlay`` of `forward_source`.

    Each record is made safe (`freeze_record`) and fed to the parser; the
    source's own failures, whatever they are, become ``PROVIDER_INVALID_FIXTURE``.
    """

    __slots__ = ("_parser",)

    def __init__(self, parser: ResponseParser) -> None:
        self._parser = parser

    def item(self, record: object, index: int, push: Callable[[CourseModelChunk], None]) -> None:
        parser = self._parser
        # freeze_record's test for a flat record (is_flat_record), inlined:
        # this runs once per record read from the source, and most are flat.
        flat = False
        if type(record) is dict:
            flat = True
            for key, value in record.items():
                kind = type(value)
                if type(key) is not str or (
                    kind is not str and kind is not int and kind is not bool and value is not None
                ):
                    flat = False
                    break
        chunk = parser.feed(record if flat else freeze_record(record, parser, index), index)
        if chunk is not None:
            push(chunk)

    def end(self, count: int) -> CourseModelResponse:
        return self._parser.end(count)

    def source_failed(self, error: BaseException, index: int) -> FixtureProviderError:
        parser = self._parser
        failure = FixtureProviderError(
            FixtureProviderErrorCode.PROVIDER_INVALID_FIXTURE,
            f"Async fixture record source failed at {parser.record_path(index)}: "
            f"{type(error).__name__}",
            record_index=index,
            path=parser.record_path(index),
        )
        failure.__cause__ = error
        return failure

    def reused(self) -> FixtureProviderError:
        return FixtureProviderError(
            FixtureProviderErrorCode.PROVIDER_ITERATOR_REUSED,
            f"{self._parser.records_path} handed out an async iterator "
            "that already fed a model call; an iterator plays one response only",
        )


async def play_source(
    stream: _Stream, signal: AbortSignal, parser: ResponseParser, source: object
) -> None:
    """Play an untrusted async iterable of records into ``stream`` and settle it.

    The one shared loop (`forward_source`) does the work: failures of the
    source itself (``__aiter__``, a step, a non-awaitable step, a forged
    ``FixtureProviderError``, any ``BaseException`` other than
    ``KeyboardInterrupt`` and ``SystemExit``, which propagate) become
    ``PROVIDER_INVALID_FIXTURE`` with the original as ``__cause__``; a record
    that is not plain JSON is ``PROVIDER_INVALID_EVENT``; an abort fails the
    stream with ``signal.reason`` at once. The source is closed (``aclose``,
    errors ignored) whenever play stops before it is exhausted, after the
    stream is settled.
    """
    records = SourceRecords(parser)
    try:
        iterator = cast(AsyncIterator[object], aiter(cast(Any, source)))
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as error:
        stream.fail(records.source_failed(error, 0))
        return
    await forward_source(stream, signal, iterator, records, reused=records.reused)
