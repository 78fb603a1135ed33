"""Driving a parser by hand over a list of events, as a model would: `replay`.

Framing is not done here: the parser tests build `SseEvent`s directly, and
bodies that come as bytes go through the real path (course_http's decoder,
a `RecordedTransport` and the model; see ``tests.course_cassettes.replays``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Protocol

from course_http import SseEvent, VendorError
from course_protocol import CourseModelChunk, CourseModelResponse

__all__ = ["Replay", "StreamParser", "replay"]


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
