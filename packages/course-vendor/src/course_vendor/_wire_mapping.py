"""WireMapping: the port half of a wire, its grammar's validated events as course values.

A model plays one streamed response as a `VendorPlay` under
``course_stream.forward_source``; the mapping is that play. Each frame goes
to the wire's grammar first (`WireGrammar.feed`), so nothing off the vendor's
grammar ever reaches the mapping; the mapping then pushes the course chunks
the event makes, and at the end turns the grammar's result into the
`CourseModelResponse`. Only the mapping refuses what the course protocol
cannot carry (``VENDOR_UNSUPPORTED_CONTENT``, naming the kind and the wire),
and only there live the adapter's own rules (usage it asked for must come).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Generic, TypeAlias, TypeVar, final

from course_http import SseEvent
from course_protocol import CourseModelChunk, CourseModelResponse, check_id
from course_vendor._grammar import WireEvent, WireGrammar

__all__ = ["FeedResult", "WireMapping"]

FeedResult: TypeAlias = CourseModelChunk | tuple[CourseModelChunk, ...] | None
"""What `WireMapping.feed` returns for one event: nothing, its chunk, or its chunks in order."""

R = TypeVar("R")


class WireMapping(ABC, Generic[R]):
    """One streamed response of one wire, as course chunks and one response: a `VendorPlay`.

    ``grammar`` is a fresh `WireGrammar` of the wire, ``request_id`` the
    request the chunks are for (kept as ``_request_id``). A subclass writes
    `_map` (push the chunks one validated event makes) and `_respond` (the
    response for the grammar's result); `item`, `end`, `feed`, `finished`
    and `source_failed` are the base's, the same for every wire:

    - `item` and `end` raise `course_http.VendorError`: the grammar's, for a
      frame off the vendor's grammar, or the mapping's, for an event the
      port cannot carry;
    - **after the first error the mapping is spent**: every later call
      raises that same error object again and reads nothing;
    - `end` returns the same response object every time once it succeeded.

    Raises ``course_protocol.CourseProtocolError`` (a ``ValueError``, path
    ``request_id``) when ``request_id`` is not a non-blank ``str``.
    """

    __slots__ = ("_failure", "_grammar", "_request_id", "_response")

    def __init__(self, grammar: WireGrammar[R], request_id: str) -> None:
        check_id(request_id, "request_id")
        self._grammar = grammar
        self._request_id = request_id
        self._response: CourseModelResponse | None = None
        self._failure: Exception | None = None

    @property
    def grammar(self) -> WireGrammar[R]:
        """The wire's grammar this mapping reads through (its `WireGrammar.failure`, its result)."""
        return self._grammar

    @property
    def finished(self) -> bool:
        """Whether the wire's terminal event was read."""
        return self._grammar.finished

    @final
    def item(self, event: SseEvent, index: int, push: Callable[[CourseModelChunk], None]) -> None:
        """Judge frame number ``index`` with the grammar, then ``push`` each chunk it makes.

        Raises `course_http.VendorError` for a frame off the grammar or an
        event the port cannot carry, and, once the mapping has raised
        anything, that same error again without reading ``event``.
        """
        if self._failure is not None:
            raise self._failure
        try:
            validated = self._grammar.feed(event, index)
            if validated is not None:
                self._map(validated, index, push)
        except Exception as error:
            self._failure = error
            raise

    @final
    def end(self, event_count: int) -> CourseModelResponse:
        """The terminal response, once the body ended after ``event_count`` frames.

        Raises what the grammar's `WireGrammar.end` raises
        (``VENDOR_MISSING_TERMINAL`` first of all), what `_respond` raises,
        and the error the mapping raised before, if it did.
        """
        if self._failure is not None:
            raise self._failure
        if self._response is None:
            try:
                self._response = self._respond(self._grammar.end(event_count), event_count)
            except Exception as error:
                self._failure = error
                raise
        return self._response

    def feed(self, event: SseEvent, index: int) -> FeedResult:
        """`item` for a caller that drives the mapping by hand: return what it pushed.

        ``None`` when the frame made no chunk, the chunk when it made one, a
        tuple of them in order when it made more. Raises what `item` raises.
        """
        made: list[CourseModelChunk] = []
        self.item(event, index, made.append)
        if not made:
            return None
        return made[0] if len(made) == 1 else tuple(made)

    def source_failed(self, error: BaseException, index: int) -> BaseException:
        """What the stream fails with when the frame source raised ``error``: ``error`` itself.

        The source is ``course_http.stream_events``, whose failures are already
        `course_http.VendorError` s with their codes.
        """
        return error

    @abstractmethod
    def _map(self, event: WireEvent, index: int, push: Callable[[CourseModelChunk], None]) -> None:
        """Push the course chunks the validated ``event`` (frame ``index``) makes, in order.

        Raises `course_http.VendorError` ``VENDOR_UNSUPPORTED_CONTENT`` (naming
        the kind and the wire) for an event the course protocol cannot carry.
        """

    @abstractmethod
    def _respond(self, result: R, event_count: int) -> CourseModelResponse:
        """The course response for the grammar's ``result`` of a body of ``event_count`` frames.

        Raises `course_http.VendorError` for a result the course cannot
        express (a stop reason, content it cannot carry, usage the adapter
        asked for and did not get).
        """
