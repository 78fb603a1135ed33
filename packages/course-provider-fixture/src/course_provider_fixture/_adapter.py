"""FixtureProviderAdapter: the CourseModel that replays a fixture's responses in order."""

from __future__ import annotations

from functools import partial

from returns.result import Failure, Result, Success

from course_protocol import (
    CourseModelChunk,
    CourseModelRequest,
    CourseModelResponse,
    first_json_difference,
    to_json,
)
from course_protocol.calls import CallQueue, QueuedDouble, check_stream_call
from course_protocol.untrusted import type_name
from course_provider_fixture._errors import FixtureProviderError, FixtureProviderErrorCode
from course_provider_fixture._fixture import QueuedResponse, parse_fixture
from course_provider_fixture._parser import ResponseParser
from course_provider_fixture._sources import play_records, play_source
from course_stream import AbortSignal, EventStream, run_producer

__all__ = ["FixtureProviderAdapter"]

_Stream = EventStream[CourseModelChunk, CourseModelResponse]


class FixtureProviderAdapter(QueuedDouble[QueuedResponse]):
    """A ``CourseModel`` that replays an untrusted provider fixture, one response per call.

    The fixture is validated and snapshotted at construction (see
    :meth:`from_fixture` for the rules), so later changes to the caller's
    objects change nothing. Each :meth:`stream` call plays the oldest queued response: its
    records are parsed from unknown into course chunks and one terminal
    response, and anything malformed fails the stream with a
    ``FixtureProviderError`` and a stable code. No network, no clock, no
    invented answer: an empty queue is ``PROVIDER_EXHAUSTED``.

    The constructor raises ``FixtureProviderError``
    (``PROVIDER_INVALID_FIXTURE``) for a bad fixture; :meth:`from_fixture`
    returns it as a ``Failure`` instead.
    """

    __slots__ = ("__weakref__", "_match_requests")

    def __init__(
        self, fixture: object, *, validate_requests: bool = False, match_requests: bool = False
    ) -> None:
        """An adapter for ``fixture`` (see :meth:`from_fixture` for the rules).

        ``validate_requests=True`` runs ``validate_transcript`` on every
        request before anything is played: a request whose transcript has
        issues fails with ``PROVIDER_INVALID_REQUEST``, listing each issue
        with its message index. ``match_requests=True`` compares every
        request (its course JSON) with the one ``FixtureRecorder`` recorded
        beside the response (the ``request`` key of the response entry,
        which every response must then hold): a request that differs fails
        with ``PROVIDER_REQUEST_MISMATCH``, naming the first differing path
        and both values. Either way the refused call is counted and
        captured and the response stays queued.

        Raises ``FixtureProviderError`` (``PROVIDER_INVALID_FIXTURE``) for a
        bad fixture, ``TypeError`` when a flag is not a ``bool``.
        """
        if type(match_requests) is not bool:
            raise TypeError(f"match_requests: expected a bool, got {type_name(match_requests)}")
        self._match_requests = match_requests
        match parse_fixture(fixture, with_requests=match_requests):
            case Success(snapshot):
                self._calls: CallQueue[QueuedResponse] = CallQueue(
                    snapshot.responses, "fixture", validate_requests=validate_requests
                )
            case Failure(error):
                raise error

    @classmethod
    def from_fixture(
        cls, fixture: object, *, validate_requests: bool = False, match_requests: bool = False
    ) -> Result[FixtureProviderAdapter, FixtureProviderError]:
        """An adapter for ``fixture``, or ``Failure`` with ``PROVIDER_INVALID_FIXTURE``.

        ``fixture`` must be an object whose ``schemaVersion`` is the number
        ``1`` (the int, or a float equal to it such as ``1.0``; not ``True``)
        and whose ``responses`` is an array of objects, each
        with ``records``: an array (snapshotted deeply, now) or an async
        iterable (its ``__aiter__`` is looked up now and called when the
        response is played). Unknown keys are ignored. The failure names the
        path of the first bad value (``record_index`` set when one array
        record is at fault). Composes with :func:`load_fixture`:
        ``load_fixture(path).bind(FixtureProviderAdapter.from_fixture)``. Raises
        only ``TypeError``, when a flag is not a ``bool``.
        """
        try:
            return Success(
                cls(fixture, validate_requests=validate_requests, match_requests=match_requests)
            )
        except FixtureProviderError as error:
            return Failure(error)

    def assert_consumed(self) -> None:
        """Raise ``AssertionError`` when queued responses were never played.

        A fixture that is only partly played usually means the code under test
        asked the model fewer times than the test expected; the message names
        the first unplayed response (``responses[1]``).
        """
        self._calls.assert_consumed(lambda queued: f"responses[{queued.index}]")

    def stream(self, request: CourseModelRequest, signal: AbortSignal) -> _Stream:
        """Start one model call that replays the next queued response; return its stream.

        Checks the arguments, captures ``request`` and counts the call
        (``TypeError`` when ``request`` is not exactly a
        ``CourseModelRequest`` or ``signal`` is not an ``AbortSignal``,
        ``RuntimeError`` when no event loop is running; nothing is counted
        then). Only ``request.id`` is read to play. Production runs as one
        task on the running loop: a signal that is already aborted fails the
        stream with ``signal.reason`` and leaves the response queued for a
        retry; an empty queue fails it with ``PROVIDER_EXHAUSTED``. Otherwise
        the oldest response is taken (it is not put back, whatever happens
        next) and its chunks are pushed in record order; the stream finishes
        with the response or fails with the first ``FixtureProviderError``.
        An abort mid-stream fails the stream with ``signal.reason`` at once,
        interrupts a pending async step and closes the record source.
        """
        check_stream_call("FixtureProviderAdapter", request, signal)
        call_number = self._calls.accept(request)
        stream: _Stream = EventStream()
        run_producer(stream, signal, partial(self._produce, stream, signal, request, call_number))
        return stream

    async def _produce(
        self, stream: _Stream, signal: AbortSignal, request: CourseModelRequest, call_number: int
    ) -> None:
        problem = self._calls.request_problem(request)
        if problem is not None:
            stream.fail(
                FixtureProviderError(FixtureProviderErrorCode.PROVIDER_INVALID_REQUEST, problem)
            )
            return
        calls = self._calls
        response = calls.peek() if self._match_requests else calls.take()
        if response is not None and self._match_requests:
            difference = first_json_difference(response.request, to_json(request))
            if difference is not None:
                stream.fail(
                    FixtureProviderError(
                        FixtureProviderErrorCode.PROVIDER_REQUEST_MISMATCH,
                        f"request {request.id!r} does not match the one recorded with "
                        f"responses[{response.index}]: {difference}",
                        path=f"responses[{response.index}].request",
                    )
                )
                return
            calls.take()
        if response is None:
            stream.fail(
                FixtureProviderError(
                    FixtureProviderErrorCode.PROVIDER_EXHAUSTED,
                    self._calls.exhausted_message(call_number, request),
                )
            )
            return
        parser = ResponseParser(request.id, response.index)
        if response.records is not None:
            await play_records(stream, signal, parser, response.records)
        else:
            await play_source(stream, signal, parser, response.source)
