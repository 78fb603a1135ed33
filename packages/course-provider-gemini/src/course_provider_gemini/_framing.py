"""The two framings of a streamed Gemini body, told apart by its first byte: `GeminiDecoder`.

With ``?alt=sse`` (what `GeminiModel` asks for) the body is server-sent
events: ``data: {...}`` frames ended by a blank line (``\\r\\n`` line ends),
no event names, no terminator; an error in the middle of the stream may
come as a bare JSON object with no ``data:`` prefix. Without it, the body is
one JSON array streamed element by element (``[{...}\\n,\\r\\n{...}\\n]``),
whose elements are cut out here by a bounded scanner of JSON strings and
braces (a line reader cannot do it: the elements are pretty-printed).
Either way each chunk object is one event, its JSON text the event's data;
the parser reads them the same way.
"""

from __future__ import annotations

import codecs
import re
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

__all__ = ["GEMINI_FRAMING", "GeminiDecoder"]

_UNDECIDED, _SSE, _ARRAY = range(3)
# Array states: before an element (or the closing bracket), inside one, after one, after "]".
_BEFORE, _INSIDE, _AFTER, _DONE = range(4)
_WHITESPACE: Final = " \t\r\n"
_IN_STRING = re.compile(r'["\\]')
_OUT_OF_STRING = re.compile(r'[{}"]')


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
        "_after_cr",
        "_closed",
        "_depth",
        "_escaped",
        "_event_count",
        "_failure",
        "_in_string",
        "_max_frame_length",
        "_mode",
        "_parts",
        "_pending_length",
        "_state",
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
        self._parts: list[str] = []
        self._pending_length = 0
        self._after_cr = False
        self._state = _BEFORE
        self._depth = 0
        self._in_string = False
        self._escaped = False
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
        if self._mode == _ARRAY and self._state != _DONE:
            self._failure = self._invalid("the body ends inside the JSON array", 0)
            raise self._failure
        if self._mode == _SSE and self._parts:
            frame = "".join(self._parts)
            self._parts = []
            try:
                self._dispatch(frame, events)
            except VendorError as error:
                self._failure = error
                raise
        self._event_count += len(events)
        return events

    def _feed(self, text: str) -> list[SseEvent]:
        events: list[SseEvent] = []
        if self._mode == _UNDECIDED:
            stripped = text.lstrip(_WHITESPACE + "\ufeff")
            if not stripped:
                return events
            self._mode = _ARRAY if stripped[0] == "[" else _SSE
            text = stripped[1:] if self._mode == _ARRAY else stripped
        try:
            if self._mode == _ARRAY:
                self._read_array(text, events)
            else:
                self._read_sse(text, events)
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

    def _too_long(self, events_before: int) -> VendorError:
        return self._invalid(
            f"a frame is longer than {self._max_frame_length} characters", events_before
        )

    def _hold(self, piece: str, events: list[SseEvent]) -> None:
        self._parts.append(piece)
        self._pending_length += len(piece)
        if self._pending_length > self._max_frame_length:
            raise self._too_long(len(events))

    def _take(self, last: str) -> str:
        self._parts.append(last)
        text = "".join(self._parts)
        self._parts = []
        self._pending_length = 0
        return text

    # Server-sent events.

    def _read_sse(self, text: str, events: list[SseEvent]) -> None:
        if self._after_cr and text[:1] == "\n":
            text = text[1:]
        if not text:
            return
        self._after_cr = text[-1] == "\r"
        if "\r" in text:
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        if self._parts and self._parts[-1][-1:] == "\n" and text[0] == "\n":
            # The blank line that ends the pending frame starts this chunk.
            self._dispatch(self._take(""), events)
            text = text[1:]
        cut = text.find("\n\n")
        while cut >= 0:
            frame = self._take(text[:cut]) if self._parts else text[:cut]
            self._dispatch(frame, events)
            text = text[cut + 2 :]
            cut = text.find("\n\n")
        if text:
            self._hold(text, events)

    def _dispatch(self, frame: str, events: list[SseEvent]) -> None:
        frame = frame.strip("\n")
        if not frame:
            return
        if len(frame) > self._max_frame_length:
            raise self._too_long(len(events))
        if frame[0] == "{":
            # A bare JSON object between the frames: the vendor's error, as it sends one.
            events.append(SseEvent("message", frame))
            return
        data: list[str] = []
        for number, line in enumerate(frame.split("\n")):
            if line[:1] == ":":
                continue
            if line[:5] != "data:":
                raise self._invalid(
                    f"line {number} of a frame is neither a data field nor a comment "
                    "(a Gemini stream names no events)",
                    len(events),
                )
            value = line[5:]
            data.append(value[1:] if value[:1] == " " else value)
        if data:
            events.append(SseEvent("message", "\n".join(data)))

    # The JSON array.

    def _read_array(self, text: str, events: list[SseEvent]) -> None:
        at = 0
        end = len(text)
        while at < end:
            state = self._state
            if state == _INSIDE:
                at = self._scan_element(text, at, events)
                continue
            character = text[at]
            at += 1
            if character in _WHITESPACE:
                continue
            if state == _DONE:
                raise self._invalid("something follows the end of the JSON array", len(events))
            if character == "{" and state == _BEFORE:
                self._state = _INSIDE
                self._depth = 1
                self._parts.append("{")
                self._pending_length = 1
            elif character == "," and state == _AFTER:
                self._state = _BEFORE
            elif character == "]" and (state == _AFTER or self._event_count + len(events) == 0):
                self._state = _DONE
            else:
                raise self._invalid(
                    f"{character!r} is out of place in the JSON array "
                    "(its elements are objects separated by ',')",
                    len(events),
                )

    def _scan_element(self, text: str, at: int, events: list[SseEvent]) -> int:
        """Scan the element from ``at``; return where its scan stopped (the end or past '}')."""
        start = at
        end = len(text)
        while at < end:
            if self._escaped:
                self._escaped = False
                at += 1
                continue
            if self._in_string:
                found = _IN_STRING.search(text, at)
                if found is None:
                    at = end
                    break
                at = found.end()
                if found.group() == "\\":
                    self._escaped = True
                else:
                    self._in_string = False
                continue
            found = _OUT_OF_STRING.search(text, at)
            if found is None:
                at = end
                break
            at = found.end()
            mark = found.group()
            if mark == '"':
                self._in_string = True
            elif mark == "{":
                self._depth += 1
            else:
                self._depth -= 1
                if self._depth == 0:
                    if self._pending_length + at - start > self._max_frame_length:
                        raise self._too_long(len(events))
                    events.append(SseEvent("message", self._take(text[start:at])))
                    self._state = _AFTER
                    return at
        self._hold(text[start:at], events)
        return at


def _decoder(vendor: str) -> EventDecoder:
    return GeminiDecoder(vendor=vendor)


GEMINI_FRAMING: Final = EventFraming(
    frozenset({_wire.SSE_MEDIA_TYPE, _wire.JSON_MEDIA_TYPE}), _decoder
)
"""Gemini's bodies: SSE (``alt=sse``) or the streamed JSON array, under either media type."""
