"""A tiny server-sent-events framer for the parser tests, and the replay helpers built on it.

The real decoder belongs to ``course_http``; until it lands, the tests frame
bodies with this one: lines end with ``\\r\\n``, ``\\n`` or ``\\r``; comment
lines (``:``) are skipped; ``event:`` names the frame, ``data:`` lines are
joined with ``\\n`` (one leading space removed); a blank line dispatches a
frame that has data. A frame still pending at the end of the body is
dispatched too (some recordings end without the final blank line).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Protocol

from course_http import SseEvent, VendorError
from course_protocol import CourseModelChunk, CourseModelResponse

__all__ = [
    "Replay",
    "frame",
    "jsonl_events",
    "replay",
    "sse_body",
]

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


def jsonl_events(body: str) -> list[SseEvent]:
    """The events of a JSON Lines recording that kept only the ``data:`` payloads."""
    return [SseEvent("message", line) for line in body.splitlines() if line.strip()]


def sse_body(*payloads: object, event: str | None = None) -> str:
    """An SSE body of one ``data:`` frame per payload (JSON-encoded unless already ``str``)."""
    parts = []
    for payload in payloads:
        data = payload if type(payload) is str else json.dumps(payload, separators=(",", ":"))
        prefix = f"event: {event}\n" if event is not None else ""
        parts.append(f"{prefix}data: {data}\n\n")
    return "".join(parts)


class StreamParser(Protocol):
    """What both OpenAI parsers offer."""

    def feed(
        self, event: SseEvent, index: int
    ) -> CourseModelChunk | tuple[CourseModelChunk, ...] | None: ...

    def end(self, event_count: int) -> CourseModelResponse: ...


@dataclass(frozen=True)
class Replay:
    """What a parser made of a whole stream: the chunks it yielded, then a response or an error."""

    chunks: tuple[CourseModelChunk, ...]
    response: CourseModelResponse | None
    error: VendorError | None


def _flatten(
    produced: CourseModelChunk | tuple[CourseModelChunk, ...] | None,
) -> Iterator[CourseModelChunk]:
    if produced is None:
        return
    if type(produced) is tuple:
        yield from produced
        return
    yield produced  # type: ignore[misc]


def replay(parser: StreamParser, events: Iterable[SseEvent]) -> Replay:
    """Feed every event, then end the stream; stop at the first `VendorError`, as a model does."""
    chunks: list[CourseModelChunk] = []
    count = 0
    try:
        for index, event in enumerate(events):
            chunks.extend(_flatten(parser.feed(event, index)))
            count = index + 1
        response = parser.end(count)
    except VendorError as error:
        return Replay(tuple(chunks), None, error)
    return Replay(tuple(chunks), response, None)
