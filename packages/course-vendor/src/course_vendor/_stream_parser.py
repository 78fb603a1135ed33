"""What every vendor's stream parser shares: its request id, the source's failures, by-hand feeding.

A vendor parser reads one streamed response. `VendorModel` plays it as a
`VendorPlay` under ``course_stream.forward_source``; a test or a tool drives
it by hand. The parts of that shape that no vendor changes live here once:
the vendor writes only what its events mean (`item`) and how its stream ends
(`end`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable

from course_http import SseEvent
from course_protocol import CourseModelChunk, CourseModelResponse, check_id

__all__ = ["OneChunkStreamParser", "StreamParser"]


class StreamParser(ABC):
    """One streamed response of one vendor API, read one `SseEvent` at a time: a `VendorPlay`.

    A subclass writes `item` (push the chunks one event makes) and `end`
    (the terminal response); `source_failed` passes the event source's
    errors through. ``request_id`` is the request the chunks are for, kept as
    ``_request_id``. Raises ``course_protocol.CourseProtocolError`` (a
    ``ValueError``, path ``request_id``) when it is not a non-blank ``str``.
    """

    __slots__ = ("_request_id",)

    def __init__(self, request_id: str) -> None:
        check_id(request_id, "request_id")
        self._request_id = request_id

    @abstractmethod
    def item(self, event: SseEvent, index: int, push: Callable[[CourseModelChunk], None]) -> None:
        """Advance by event number ``index`` and ``push`` each chunk it makes, in order.

        Raises `VendorError` with the vendor's codes for an event that is wrong.
        """

    @abstractmethod
    def end(self, event_count: int) -> CourseModelResponse:
        """The terminal response, once the stream ended after ``event_count`` events.

        Raises `VendorError` ``VENDOR_MISSING_TERMINAL`` when the vendor's
        terminal event never came.
        """

    def source_failed(self, error: BaseException, index: int) -> BaseException:
        """What the stream fails with when the event source raised ``error``: ``error`` itself.

        The source is ``course_http.stream_events``, whose failures are already
        `VendorError` s with their codes; anything else is a programming error
        (a closed transport) and passes through unchanged too.
        """
        return error


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
