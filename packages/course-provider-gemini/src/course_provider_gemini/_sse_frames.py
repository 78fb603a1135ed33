"""Server-sent events as Gemini sends them (``?alt=sse``), cut into events: `SseFrames`.

``data: {...}`` frames ended by a blank line (``\\r\\n`` line ends), no
event names, no terminator; an error in the middle of the stream may come
as a bare JSON object with no ``data:`` prefix.
"""

from __future__ import annotations

from typing import final

from course_http import SseEvent
from course_provider_gemini._pending import Fail, PendingText

__all__ = ["SseFrames"]


@final
class SseFrames:
    """The SSE side of `GeminiDecoder`: text in, one ``"message"`` event per frame out.

    Lines end in ``\\n``, ``\\r\\n`` or ``\\r`` (torn across chunks or not);
    a blank line ends a frame; a frame is ``data:`` lines (one space after
    the colon removed, several joined with ``"\\n"``) and ``:`` comments, or
    a bare JSON object (a frame starting with ``{``). Raises what ``fail``
    makes for a frame longer than the limit or a line that is another
    field (``event:``, ``id:``: Gemini sends none).
    """

    __slots__ = ("_after_cr", "_pending")

    def __init__(self, max_frame_length: int) -> None:
        self._pending = PendingText(max_frame_length)
        self._after_cr = False

    def read(self, text: str, events: list[SseEvent], fail: Fail) -> None:
        """Append to ``events`` the frames ``text`` completes; hold the rest."""
        if self._after_cr and text[:1] == "\n":
            text = text[1:]
        if not text:
            return
        self._after_cr = text[-1] == "\r"
        if "\r" in text:
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        pending = self._pending
        if pending.ends_with_newline() and text[0] == "\n":
            # The blank line that ends the pending frame starts this chunk.
            self._dispatch(pending.take(""), events, fail)
            text = text[1:]
        cut = text.find("\n\n")
        if cut >= 0 and pending:
            self._dispatch(pending.take(text[:cut]), events, fail)
            text = text[cut + 2 :]
            cut = text.find("\n\n")
        # Nothing is pending now: each frame lies whole in this text, and
        # every "\n\n" ends one (as the find above would find them, in order).
        frames = text.split("\n\n") if cut >= 0 else [text]
        tail = frames.pop()
        limit = pending.limit
        append = events.append
        for frame in frames:
            # One data line within the limit, as Gemini sends every chunk:
            # what _dispatch makes of it, without its call.
            if frame[:6] == "data: " and "\n" not in frame and len(frame) <= limit:
                append(SseEvent("message", frame[6:]))
            else:
                self._dispatch(frame, events, fail)
        if tail:
            pending.hold(tail, fail, len(events))

    def finish(self, events: list[SseEvent], fail: Fail) -> None:
        """End of body: dispatch the frame still pending, if any."""
        if self._pending:
            self._dispatch(self._pending.take(""), events, fail)

    def _dispatch(self, frame: str, events: list[SseEvent], fail: Fail) -> None:
        frame = frame.strip("\n")
        if not frame:
            return
        if len(frame) > self._pending.limit:
            raise self._pending.too_long(fail, len(events))
        if frame[:6] == "data: " and "\n" not in frame:
            # One data line, as Gemini sends every chunk: the loop below, without its lists.
            events.append(SseEvent("message", frame[6:]))
            return
        if frame[0] == "{":
            # A bare JSON object between the frames: the vendor's error, as it sends one.
            events.append(SseEvent("message", frame))
            return
        data: list[str] = []
        for number, line in enumerate(frame.split("\n")):
            if line[:1] == ":":
                continue
            if line[:5] != "data:":
                raise fail(
                    f"line {number} of a frame is neither a data field nor a comment "
                    "(a Gemini stream names no events)",
                    len(events),
                )
            value = line[5:]
            data.append(value[1:] if value[:1] == " " else value)
        if data:
            events.append(SseEvent("message", "\n".join(data)))
