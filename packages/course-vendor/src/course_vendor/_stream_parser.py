"""What every vendor's stream parser shares: its request id, its contract, by-hand feeding.

A vendor parser reads one streamed response. `VendorModel` plays it as a
`VendorPlay` under ``course_stream.forward_source``; a test or a tool drives
it by hand with `feed`. The parts of that shape that no vendor changes live
here once: the vendor writes only what its events mean (`_read`), how its
stream ends without its terminal event (`_missing_terminal`), and sets
``_response`` when the terminal event came.

The contract, the same for every parser:

- `item` and `end` raise `VendorError` with the vendor's codes; **after the
  first error the parser is spent**: a half-applied event leaves the state
  torn, so every later `item`, `feed` or `end` raises that same error object
  again and reads nothing;
- `finished` says that the terminal event was read: `end` returns the
  response from then on;
- `feed` is `item` for a caller without a ``push``: it returns what `item`
  pushed.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import TypeAlias, final

from course_http import SseEvent, VendorError
from course_protocol import CourseModelChunk, CourseModelResponse, check_id

__all__ = ["FeedResult", "OneChunkStreamParser", "StreamParser"]

FeedResult: TypeAlias = CourseModelChunk | tuple[CourseModelChunk, ...] | None
"""What `StreamParser.feed` returns for one event: nothing, its chunk, or its chunks in order."""


class StreamParser(ABC):
    """One streamed response of one vendor API, read one `SseEvent` at a time: a `VendorPlay`.

    A subclass writes `_read` (push the chunks one event makes; set
    ``_response`` when the terminal event came) and `_missing_terminal`
    (the error of a stream that ended without it); `item`, `end`, `feed`,
    `finished` and `source_failed` are the base's, the same for every vendor.
    ``request_id`` is the request the chunks are for, kept as
    ``_request_id``. Raises ``course_protocol.CourseProtocolError`` (a
    ``ValueError``, path ``request_id``) when it is not a non-blank ``str``.
    """

    __slots__ = ("_failure", "_request_id", "_response")

    def __init__(self, request_id: str) -> None:
        check_id(request_id, "request_id")
        self._request_id = request_id
        self._response: CourseModelResponse | None = None
        self._failure: Exception | None = None

    @property
    def finished(self) -> bool:
        """Whether the vendor's terminal event was read: `end` gives the response from now on."""
        return self._response is not None

    @final
    def item(self, event: SseEvent, index: int, push: Callable[[CourseModelChunk], None]) -> None:
        """Advance by event number ``index`` and ``push`` each chunk it makes, in order.

        Raises `VendorError` with the vendor's codes for an event that is
        wrong, and, once the parser has raised anything, that same error
        again without reading ``event``.
        """
        if self._failure is not None:
            raise self._failure
        try:
            self._read(event, index, push)
        except Exception as error:
            # A half-applied event leaves the state torn: nothing may follow.
            self._failure = error
            raise

    @final
    def end(self, event_count: int) -> CourseModelResponse:
        """The terminal response, once the stream ended after ``event_count`` events.

        Raises `VendorError` ``VENDOR_MISSING_TERMINAL`` (``event_index`` =
        ``event_count``) when the vendor's terminal event never came, and the
        error the parser raised before, if it did.
        """
        if self._failure is not None:
            raise self._failure
        if self._response is None:
            self._failure = self._missing_terminal(event_count)
            raise self._failure
        return self._response

    def feed(self, event: SseEvent, index: int) -> FeedResult:
        """`item` for a caller that drives the parser by hand: return what it pushed.

        ``None`` when the event made no chunk, the chunk when it made one, a
        tuple of them in order when it made more. Raises what `item` raises.
        """
        made: list[CourseModelChunk] = []
        self.item(event, index, made.append)
        if not made:
            return None
        return made[0] if len(made) == 1 else tuple(made)

    def source_failed(self, error: BaseException, index: int) -> BaseException:
        """What the stream fails with when the event source raised ``error``: ``error`` itself.

        The source is ``course_http.stream_events``, whose failures are already
        `VendorError` s with their codes; anything else is a programming error
        (a closed transport) and passes through unchanged too.
        """
        return error

    @abstractmethod
    def _read(self, event: SseEvent, index: int, push: Callable[[CourseModelChunk], None]) -> None:
        """Read event number ``index``: ``push`` its chunks; set ``_response`` at the terminal.

        Raises `VendorError` with the vendor's codes for an event that is
        wrong; `item` makes the parser spent on it.
        """

    @abstractmethod
    def _missing_terminal(self, event_count: int) -> VendorError:
        """The ``VENDOR_MISSING_TERMINAL`` of a stream ending after ``event_count`` events.

        Returned, not raised: `end` raises it and keeps it, as every failure.
        """


class OneChunkStreamParser(StreamParser):
    """A `StreamParser` whose every event makes one chunk at most, which `feed` returns."""

    __slots__ = ()

    def feed(self, event: SseEvent, index: int) -> CourseModelChunk | None:
        """Advance by event number ``index``; return the chunk it makes, if any.

        `item` for a caller that drives the parser by hand; raises what `item` raises.
        """
        made: list[CourseModelChunk] = []
        self.item(event, index, made.append)
        return made[0] if made else None
