"""A small server-sent-events framer of the tests' own, for recorded and hand-written bodies.

It is independent of ``course_http``'s decoder on purpose: a parser test
then does not rest on the decoder. Lines end with ``\\r\\n``, ``\\n`` or
``\\r``; comment lines (``:``) are skipped; ``event:`` names the frame,
``data:`` lines are joined with ``\\n`` (one leading space removed); a blank
line dispatches a frame that has data. A frame still pending at the end of
the body is dispatched too (some recordings end without the final blank
line).
"""

from __future__ import annotations

import re

from course_http import SseEvent

__all__ = ["frame"]

_LINES = re.compile(r"\r\n|\r|\n")


def frame(body: str) -> list[SseEvent]:
    """The events of an SSE ``body``, in order."""
    events: list[SseEvent] = []
    name = "message"
    data: list[str] = []
    for line in [*_LINES.split(body), ""]:
        if not line:
            if data:
                events.append(SseEvent(name, "\n".join(data)))
            name, data = "message", []
            continue
        if line.startswith(":"):
            continue
        field, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if field == "event":
            name = value
        elif field == "data":
            data.append(value)
    return events
