"""The two framings of a streamed Gemini body, told apart by its first byte: `GeminiDecoder`.

With ``?alt=sse`` (what `GeminiModel` asks for) the body is server-sent
events (`SseFrames`); without it, one JSON array streamed element by
element (`ArrayElements`). This module decodes the bytes, decides which
framing a body has and keeps the failure; either way each chunk object is
one event, its JSON text the event's data, and the parser reads them the
same way.
"""

from __future__ import annotations

import codecs
from typing import Final, final

from course_http import (
    DEFAULT_MAX_FRAME_LENGTH,
    EventDecoder,
    EventFraming,
    SseEvent,
    VendorError,
    VendorErrorCode,
)
from course_provider_gemini import _wire
from course_provider_gemini._array_elements import WHITESPACE, ArrayElements
from course_provider_gemini._sse_frames import SseFrames

__all__ = ["GEMINI_FRAMING", "GeminiDecoder"]

_UNDECIDED, _SSE, _ARRAY = range(3)


@final
class GeminiDecoder:
    """Incremental decoder of one Gemini body (SSE or a JSON array) into `SseEvent` s.

    A ``course_http.EventDecoder``. The framing is the body's: a body whose
    first character other than whitespace (and a byte order mark) is ``[``
    is a JSON array, any other is server-sent events. Each event is named
    ``"message"`` and holds one chunk's JSON text, unchecked (the parser
    decodes it).

    Server-sent events: lines end in ``\\n``, ``\\r\\n`` or ``\\r`` (torn
    across chunks or not); a blank line ends a frame; a frame is ``data:``
    lines (one space after the colon removed, several joined with
    ``"\\n"``) and ``:`` comments, or a bare JSON object (a frame starting
    with ``{``, the vendor's error object); a frame still pending at the end
    of the body is dispatched. The array: ``[``, objects separated by
    ``,``, ``]``, whitespace anywhere between them.

    Failures are `VendorError` ``VENDOR_INVALID_EVENT`` (``event_index``
    the number of events before it): a frame or element longer than
    ``max_frame_length`` characters, bytes that are not UTF-8, an SSE line
    that is another field (``event:``, ``id:``: Gemini sends none), an array
    element that is not an object or a separator out of place, anything but
    whitespace after the array, and a body that ends inside a UTF-8
    sequence or inside the array. Events before the failure are returned;
    the failure is kept in `failure` and raised by the next call.
    """

    __slots__ = (
        "_array",
        "_closed",
        "_event_count",
        "_failure",
        "_max_frame_length",
        "_mode",
        "_sse",
        "_utf8",
        "_vendor",
    )

    def __init__(self, *, vendor: str, max_frame_length: int = DEFAULT_MAX_FRAME_LENGTH) -> None:
        """Raise ``ValueError`` when ``max_frame_length`` is not a positive ``int``."""
        if type(max_frame_length) is not int or max_frame_length < 1:
            raise ValueError("max_frame_length must be a positive int")
        self._vendor = vendor
        self._max_frame_length = max_frame_length
        self._utf8 = codecs.getincrementaldecoder("utf-8")("strict")
        self._mode = _UNDECIDED
        self._sse = SseFrames(max_frame_length)
        self._array = ArrayElements(max_frame_length)
        self._event_count = 0
        self._failure: VendorError | None = None
        self._closed = False

    @property
    def event_count(self) -> int:
        """The number of events this decoder has returned so far."""
        return self._event_count

    @property
    def failure(self) -> VendorError | None:
        """The failure the next call will raise, or ``None`` while the body is well formed."""
        return self._failure

    def feed_bytes(self, data: bytes) -> list[SseEvent]:
        """The events the next chunk of the body completes, in order (see the class)."""
        if self._failure is not None:
            raise self._failure
        if self._closed:
            raise RuntimeError("GeminiDecoder.feed_bytes after close")
        try:
            text = self._utf8.decode(data)
        except UnicodeDecodeError as error:
            self._failure = self._invalid(f"the body is not UTF-8 ({error.reason})", 0)
            return []
        return self._feed(text)

    def close(self) -> list[SseEvent]:
        """End of body: the events still pending. Raises the kept failure, or the body's."""
        if self._failure is not None:
            raise self._failure
        if self._closed:
            return []
        self._closed = True
        events: list[SseEvent] = []
        try:
            self._utf8.decode(b"", True)
        except UnicodeDecodeError:
            self._failure = self._invalid("the body ends inside a UTF-8 sequence", 0)
            raise self._failure from None
        if self._mode == _ARRAY and not self._array.done:
            self._failure = self._invalid("the body ends inside the JSON array", 0)
            raise self._failure
        if self._mode == _SSE:
            try:
                self._sse.finish(events, self._invalid)
            except VendorError as error:
                self._failure = error
                raise
        self._event_count += len(events)
        return events

    def _feed(self, text: str) -> list[SseEvent]:
        events: list[SseEvent] = []
        if self._mode == _UNDECIDED:
            stripped = text.lstrip(WHITESPACE + "\ufeff")
            if not stripped:
                return events
            self._mode = _ARRAY if stripped[0] == "[" else _SSE
            text = stripped[1:] if self._mode == _ARRAY else stripped
        try:
            if self._mode == _ARRAY:
                self._array.read(text, events, self._invalid)
            else:
                self._sse.read(text, events, self._invalid)
        except VendorError as error:
            self._failure = error
        self._event_count += len(events)
        return events

    def _invalid(self, message: str, events_before: int) -> VendorError:
        index = self._event_count + events_before
        return VendorError(
            VendorErrorCode.VENDOR_INVALID_EVENT,
            f"event {index}: {message}",
            vendor=self._vendor,
            event_index=index,
        )


def _decoder(vendor: str) -> EventDecoder:
    return GeminiDecoder(vendor=vendor)


GEMINI_FRAMING: Final = EventFraming(
    frozenset({_wire.SSE_MEDIA_TYPE, _wire.JSON_MEDIA_TYPE}), _decoder
)
"""Gemini's bodies: SSE (``alt=sse``) or the streamed JSON array, under either media type."""
