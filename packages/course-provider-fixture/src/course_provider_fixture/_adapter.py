"""FixtureProviderAdapter: the CourseModel that replays a fixture's responses in order."""

from __future__ import annotations

from collections import deque
from functools import partial

from returns.result import Failure, Result, Success

from course_protocol import CourseModelChunk, CourseModelRequest, CourseModelResponse
from course_provider_fixture._errors import FixtureProviderError, FixtureProviderErrorCode
from course_provider_fixture._fixture import QueuedResponse, parse_fixture
from course_provider_fixture._parser import ResponseParser
from course_provider_fixture._sources import play_records, play_source
from course_stream import AbortSignal, EventStream, run_producer

_Stream = EventStream[CourseModelChunk, CourseModelResponse]


class FixtureProviderAdapter:
    """A ``CourseModel`` that replays an untrusted provider fixture, one response per call.

    The fixture is validated and snapshotted at construction (see
    :func:`parse_fixture`), so later changes to the caller's objects change
    nothing. Each :meth:`stream` call plays the oldest queued response: its
    records are parsed from unknown into course chunks and one terminal
    response, and anything malformed fails the stream with a
    ``FixtureProviderError`` and a stable code. No network, no clock, no
    invented answer: an empty queue is ``PROVIDER_EXHAUSTED``.

    The constructor raises ``FixtureProviderError``
    (``PROVIDER_INVALID_FIXTURE``) for a bad fixture; :meth:`from_fixture`
    returns it as a ``Failure`` instead.
    """

    __slots__ = ("__weakref__", "_call_count", "_queue")

    def __init__(self, fixture: object) -> None:
        match parse_fixture(fixture):
            case Success(snapshot):
                self._queue: deque[QueuedResponse] = deque(snapshot.responses)
            case Failure(error):
                raise error
        self._call_count = 0

    @classmethod
    def from_fixture(cls, fixture: object) -> Result[FixtureProviderAdapter, FixtureProviderError]:
        """An adapter for ``fixture``, or ``Failure`` with ``PROVIDER_INVALID_FIXTURE``.

        Composes with :func:`load_fixture`:
        ``load_fixture(path).bind(FixtureProviderAdapter.from_fixture)``. Never raises.
        """
        try:
            return Success(cls(fixture))
        except FixtureProviderError as error:
            return Failure(error)

    @property
    def call_count(self) -> int:
        """How many times :meth:`stream` was called, including failed and aborted calls."""
        return self._call_count

    @property
    def pending_response_count(self) -> int:
        """How many responses are still queued (not yet taken by a started call)."""
        return len(self._queue)

    def assert_consumed(self) -> None:
        """Raise ``AssertionError`` when queued responses were never played.

        A fixture that is only partly played usually means the code under test
        asked the model fewer times than the test expected.
        """
        left = len(self._queue)
        if left:
            first = self._queue[0].index
            raise AssertionError(
                f"{left} fixture response(s) never played after {self._call_count} call(s); "
                f"the first unplayed is responses[{first}]"
            )

    def stream(self, request: CourseModelRequest, signal: AbortSignal) -> _Stream:
        """Start one model call that replays the next queued response; return its stream.

        Reads only ``request.id`` and counts the call, then runs production
        as one task on the running loop (``RuntimeError`` when there is no
        running loop). A signal that is already aborted fails the stream with
        ``signal.reason`` and leaves the response queued for a retry; an
        empty queue fails it with ``PROVIDER_EXHAUSTED``. Otherwise the oldest
        response is taken (it is not put back, whatever happens next) and
        its chunks are pushed in record order; the stream finishes with the
        response or fails with the first ``FixtureProviderError``. An abort
        mid-stream interrupts a pending async step, fails the stream with
        ``signal.reason`` and closes the record source.
        """
        request_id = request.id
        self._call_count += 1
        stream: _Stream = EventStream()
        run_producer(stream, signal, partial(self._produce, stream, signal, request_id))
        return stream

    async def _produce(self, stream: _Stream, signal: AbortSignal, request_id: str) -> None:
        if not self._queue:
            stream.fail(
                FixtureProviderError(
                    FixtureProviderErrorCode.PROVIDER_EXHAUSTED,
                    f"No fixture response left for request {request_id!r} "
                    f"(call {self._call_count}); the fixture never invents an answer",
                )
            )
            return
        response = self._queue.popleft()
        parser = ResponseParser(request_id, response.index)
        if response.records is not None:
            await play_records(stream, signal, parser, response.records)
        else:
            await play_source(stream, signal, parser, response.source)
