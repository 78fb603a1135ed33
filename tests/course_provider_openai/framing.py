"""Bodies and replays for the OpenAI parser tests: SSE and JSON Lines bodies, replay helpers.

Bodies are framed by `tests.sse_frames.frame`, the suite's own framer.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Protocol

from course_http import SseEvent, VendorError
from course_protocol import CourseModelChunk, CourseModelResponse

__all__ = [
    "Replay",
    "jsonl_events",
    "replay",
    "sse_body",
]


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
