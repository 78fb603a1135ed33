"""collect: read a whole stream, its events and its result, in one await."""

from __future__ import annotations

from contextlib import aclosing
from typing import Any, TypeVar

from course_stream._event_stream import EventStream

__all__ = ["collect"]

E = TypeVar("E")
R = TypeVar("R")


async def collect(stream: EventStream[E, R]) -> tuple[list[E], R]:
    """Read ``stream`` to its end: every event in push order, then its result.

    ``events, result = await collect(stream)``.

    Fails as the stream fails: the exception object the stream was failed
    with is raised (the same object iteration and ``stream.result`` raise),
    and the events read before it are lost with the return value; read the
    stream yourself to keep them. Holds the stream's one consumer slot while
    it reads and releases it however it ends (cancellation included). Raises
    `EventStreamStateError` if another consumer is still reading ``stream``,
    and `TypeError` if ``stream`` is not an `EventStream`.
    """
    if not isinstance(stream, EventStream):
        raise TypeError(f"collect() takes an EventStream, got {type(stream).__name__}")
    events: list[E] = []
    iterator: Any = stream.__aiter__()
    async with aclosing(iterator):
        async for event in iterator:
            events.append(event)
    return events, await stream.result
