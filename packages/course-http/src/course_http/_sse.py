"""Server-sent events: the event the vendor parsers receive, and the decoder that frames them.

`SseDecoder` follows the WHATWG event-stream rules with one deliberate
difference (a frame still pending at the end of the body is dispatched), and
works on whole chunks: frames are cut with ``str.split`` and a frame of the
shapes vendors send (``data: ...`` or ``event: ...`` then ``data: ...``) is
read without looking at its lines one by one.

Over 300 lines on purpose: the decoder's fast and general paths are one mechanism.
"""

from __future__ import annotations

import codecs
from typing import final

from course_http._errors import VendorError, VendorErrorCode

__all__ = ["DEFAULT_MAX_FRAME_LENGTH", "SseDecoder", "SseEvent"]

DEFAULT_MAX_FRAME_LENGTH = 16 * 1024 * 1024
"""The longest frame `SseDecoder` accepts by default, in characters (16 Mi)."""


@final
class SseEvent:
    """One dispatched server-sent event: its ``event`` name and its ``data``.

    ``event`` is ``"message"`` when the frame had no ``event:`` line (as the
    WHATWG rules say); ``data`` is the frame's ``data:`` lines joined with
    ``"\\n"``, one leading space of each removed. Both are plain ``str``.
    Immutable by convention (slots, no setters used after construction).
    """

    __slots__ = ("data", "event")

    event: str
    data: str

    def __init__(self, event: str, data: str) -> None:
        self.event = event
        self.data = data

    def __eq__(self, other: object) -> bool:
        if type(other) is not SseEvent:
            return NotImplemented
        return self.event == other.event and self.data == other.data

    def __hash__(self) -> int:
        return hash((self.event, self.data))

    def __repr__(self) -> str:
        return f"SseEvent(event={self.event!r}, data={self.data!r})"


@final
class SseDecoder:
    """Incremental server-sent-events decoder: text (or UTF-8 bytes) in, `SseEvent` out.

    The WHATWG event-stream rules: lines end in ``\\n``, ``\\r\\n`` or ``\\r``,
    and a line end may be torn across two chunks (``\\r`` ending one chunk and
    ``\\n`` starting the next is one line end); a blank line dispatches the
    frame; lines starting with ``:`` are comments; of the fields, ``event``
    and ``data`` are kept, ``id``, ``retry`` and unknown fields are ignored;
    one space after the colon is removed; several ``data`` lines join with
    ``"\\n"``; ``event`` defaults to ``"message"``; a frame without a ``data``
    field dispatches nothing; a byte order mark at the very start is dropped.

    One deliberate difference: `close` dispatches a frame that is still
    pending when the body ends (no final blank line), because real vendor
    recordings end that way (``message_stop`` then end of body); WHATWG would
    drop it.

    Failures are `VendorError` ``VENDOR_INVALID_EVENT`` with ``vendor`` and
    ``event_index`` (the number of events dispatched before it): a frame
    longer than ``max_frame_length`` characters (so a hostile body cannot
    grow memory without limit), bytes that are not UTF-8 (never replaced),
    and a body that ends inside a UTF-8 sequence. Events completed before the
    offending frame are still returned; the failure is then kept in `failure`
    and raised by the next call to `feed`, `feed_bytes` or `close`.
    """

    __slots__ = (
        "_after_cr",
        "_bytes_read",
        "_closed",
        "_event_count",
        "_failure",
        "_max_frame_length",
        "_parts",
        "_pending_ends_line",
        "_pending_length",
        "_started",
        "_utf8",
        "_vendor",
    )

    def __init__(self, *, vendor: str, max_frame_length: int = DEFAULT_MAX_FRAME_LENGTH) -> None:
        """Raise ``ValueError`` when ``max_frame_length`` is not a positive ``int``."""
        if type(max_frame_length) is not int or max_frame_length < 1:
            raise ValueError("max_frame_length must be a positive int")
        self._vendor = vendor
        self._max_frame_length = max_frame_length
        # The text of the frame being read, not yet ended by a blank line.
        self._parts: list[str] = []
        self._pending_length = 0
        self._pending_ends_line = False
        self._after_cr = False
        self._started = False
        self._closed = False
        self._event_count = 0
        self._failure: VendorError | None = None
        self._utf8 = codecs.getincrementaldecoder("utf-8")("strict")
        self._bytes_read = 0

    @property
    def event_count(self) -> int:
        """The number of events this decoder has returned so far."""
        return self._event_count

    @property
    def failure(self) -> VendorError | None:
        """The failure the next call will raise, or ``None`` while the body is well formed."""
        return self._failure

    def feed_bytes(self, data: bytes) -> list[SseEvent]:
        """Decode the next chunk of the body as UTF-8 (a character may be torn) and `feed` it.

        Returns the events the chunk completes. Invalid UTF-8 fails with
        ``VENDOR_INVALID_EVENT`` naming the offset of the first bad byte.
        """
        self._check_usable()
        try:
            text = self._utf8.decode(data)
        except UnicodeDecodeError as error:
            return self._not_utf8(data, error)
        self._bytes_read += len(data)
        return self.feed(text)

    def feed(self, text: str) -> list[SseEvent]:
        """Read the next chunk of the body's text; return the events it completes, in order.

        Raises the kept `failure`, if any; ``RuntimeError`` after `close`.
        """
        self._check_usable()
        if not text:
            return []
        if not self._started:
            self._started = True
            if text[0] == "\ufeff":
                text = text[1:]
                if not text:
                    return []
        if self._after_cr and text[0] == "\n":
            # The second half of a CRLF whose CR ended the previous chunk.
            text = text[1:]
            if not text:
                self._after_cr = False
                return []
        self._after_cr = text[-1] == "\r"
        if "\r" in text:
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        events: list[SseEvent] = []
        try:
            self._read_frames(text, events)
        except VendorError as error:
            self._failure = error
        self._event_count += len(events)
        return events

    def close(self) -> list[SseEvent]:
        """End of body: return the events of the frame still pending, if it has data.

        Raises the kept `failure`, if any, or ``VENDOR_INVALID_EVENT`` when the
        body ends inside a UTF-8 sequence. Calling it again returns ``[]``.
        """
        if self._failure is not None:
            raise self._failure
        if self._closed:
            return []
        self._closed = True
        try:
            self._utf8.decode(b"", True)
        except UnicodeDecodeError:
            self._failure = self._invalid(
                f"the body ends inside a UTF-8 sequence (after byte {self._bytes_read})"
            )
            raise self._failure from None
        if not self._parts:
            return []
        frame = "".join(self._parts)
        self._parts = []
        if frame[-1] == "\n":
            frame = frame[:-1]
        events: list[SseEvent] = []
        self._dispatch(frame, events)
        self._event_count += len(events)
        return events

    def _check_usable(self) -> None:
        if self._failure is not None:
            raise self._failure
        if self._closed:
            raise RuntimeError("SseDecoder.feed after close")

    def _not_utf8(self, data: bytes, error: UnicodeDecodeError) -> list[SseEvent]:
        # The decoder keeps the start of a torn character from the previous
        # chunk; the error's offsets count from there.
        held = self._utf8.getstate()[0]
        combined = held + data
        offset = self._bytes_read - len(held) + error.start
        events = self.feed(combined[: error.start].decode("utf-8"))
        if self._failure is None:
            self._failure = self._invalid(
                f"the body is not UTF-8: byte {offset} (0x{combined[error.start]:02x}) "
                f"is {error.reason}"
            )
        return events

    def _invalid(self, message: str, events_before: int = 0) -> VendorError:
        index = self._event_count + events_before
        return VendorError(
            VendorErrorCode.VENDOR_INVALID_EVENT,
            f"event {index}: {message}",
            vendor=self._vendor,
            event_index=index,
        )

    def _hold(self, text: str, events: list[SseEvent]) -> None:
        self._parts.append(text)
        self._pending_length += len(text)
        self._pending_ends_line = text[-1] == "\n"
        if self._pending_length > self._max_frame_length:
            raise self._too_long(len(events))

    def _too_long(self, events_before: int) -> VendorError:
        return self._invalid(
            f"a frame is longer than {self._max_frame_length} characters", events_before
        )

    def _read_frames(self, text: str, events: list[SseEvent]) -> None:
        if self._parts:
            # The pending frame is joined once, its last piece trimmed or
            # completed first: a frame of megabytes (a Responses body's last
            # events repeat the whole text) is then held twice at most
            # (its pieces and the frame) instead of three times.
            parts = self._parts
            if self._pending_ends_line and text[0] == "\n":
                parts[-1] = parts[-1][:-1]
                rest = 1
            else:
                cut = text.find("\n\n")
                if cut < 0:
                    self._hold(text, events)
                    return
                parts.append(text[:cut])
                rest = cut + 2
            self._parts = []
            self._pending_length = 0
            frame = "".join(parts)
            del parts
            self._dispatch(frame, events)
            del frame
            text = text[rest:]
        # Here ``text`` starts a frame; every "\n\n" in it ends one.
        frames = text.split("\n\n")
        tail = frames.pop()
        too_long = -1
        if len(text) > self._max_frame_length:
            too_long = next(
                (at for at, frame in enumerate(frames) if len(frame) > self._max_frame_length), -1
            )
            if too_long >= 0:
                del frames[too_long:]
        # A frame of the two shapes vendors send is read here, inline.
        append = events.append
        for frame in frames:
            if frame[:6] == "data: ":
                if "\n" not in frame:
                    append(SseEvent("message", frame[6:]))
                    continue
            elif frame[:7] == "event: ":
                head, found, data = frame.partition("\ndata: ")
                if found and "\n" not in data and "\n" not in head:
                    append(SseEvent(head[7:] or "message", data))
                    continue
            event = _frame_event(frame)
            if event is not None:
                append(event)
        if too_long >= 0:
            raise self._too_long(len(events))
        if tail:
            self._hold(tail, events)

    def _dispatch(self, frame: str, events: list[SseEvent]) -> None:
        if len(frame) > self._max_frame_length:
            raise self._too_long(len(events))
        event = _shaped_event(frame) or _frame_event(frame)
        if event is not None:
            events.append(event)


def _shaped_event(frame: str) -> SseEvent | None:
    """The event of a frame of the two shapes vendors send, or ``None`` for any other frame.

    What `SseDecoder._read_frames` reads inline, for a frame pending across
    chunks: its data is cut out of the frame once, where `_frame_event`
    would hold its lines and their join besides.
    """
    if frame[:6] == "data: ":
        if "\n" not in frame:
            return SseEvent("message", frame[6:])
    elif frame[:7] == "event: ":
        head, found, data = frame.partition("\ndata: ")
        if found and "\n" not in data and "\n" not in head:
            return SseEvent(head[7:] or "message", data)
    return None


def _frame_event(frame: str) -> SseEvent | None:
    """The event of one frame's lines, or ``None`` when it has no ``data`` field."""
    name = ""
    data: list[str] = []
    for line in frame.split("\n"):
        if not line or line[0] == ":":
            continue
        field, colon, value = line.partition(":")
        if colon and value[:1] == " ":
            value = value[1:]
        if field == "data":
            data.append(value)
        elif field == "event":
            name = value
        # ``id`` and ``retry`` are parsed and ignored; unknown fields are ignored.
    if not data:
        return None
    return SseEvent(name or "message", "\n".join(data))
