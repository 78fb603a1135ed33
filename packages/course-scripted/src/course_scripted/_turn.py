"""A turn known up front: the async iterator behind the helpers with pre-built items."""

from __future__ import annotations

from collections.abc import AsyncIterator

from course_protocol import CourseModelChunk, CourseModelResponse

__all__ = ["PrebuiltTurn", "TurnItem", "turn_batch"]

TurnItem = CourseModelChunk | CourseModelResponse


class PrebuiltTurn:
    """An async iterator over items that exist before the turn plays: one item per step.

    It stands for the async generator ``for item in items: yield item``, and
    iterates the same way for anyone who steps it; ScriptedModel's producer
    recognises the exact type and plays what is left of it as one batch
    (`turn_batch`), checking every item all the same. ``aclose`` exhausts it,
    as closing a generator does.
    """

    __slots__ = ("__weakref__", "_items", "_next")

    def __init__(self, items: tuple[TurnItem, ...]) -> None:
        self._items = items
        self._next = 0

    def __repr__(self) -> str:
        return f"<PrebuiltTurn {self._next} of {len(self._items)} item(s) yielded>"

    def __aiter__(self) -> PrebuiltTurn:
        return self

    async def __anext__(self) -> TurnItem:
        position = self._next
        if position >= len(self._items):
            raise StopAsyncIteration
        self._next = position + 1
        return self._items[position]

    async def aclose(self) -> None:
        self._next = len(self._items)

    def take_rest(self) -> tuple[TurnItem, ...]:
        """The items not yet yielded, in order; the turn is exhausted afterwards."""
        position, self._next = self._next, len(self._items)
        return self._items if position == 0 else self._items[position:]


async def turn_batch(turn: PrebuiltTurn) -> AsyncIterator[tuple[TurnItem, ...]]:
    """A source of one item: the rest of ``turn``, taken at the first step."""
    yield turn.take_rest()
