"""Server-sent events as the vendor parsers receive them."""

from __future__ import annotations

from typing import final

__all__ = ["SseEvent"]


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
