"""A turn known up front: the async iterator behind the helpers with pre-built items."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import NamedTuple

from course_protocol import CourseModelChunk, CourseModelResponse

__all__ = ["PrebuiltTurn", "TurnItem", "TurnRest", "turn_batch"]

TurnItem = CourseModelChunk | CourseModelResponse


class TurnRest(NamedTuple):
    """What is left of a turn, taken at once: its items, and what is known of them."""

    items: tuple[TurnItem, ...]
    chunks_request_id: str | None
    """The request id every item but the last carries, all of them exact chunk types.

    Known when the turn was made from immutable values, so one comparison with
    the active request's id answers for all of them; ``None`` when nobody
    established it (the items are then checked one by one).
    """


class PrebuiltTurn:
    """An async iterator over items that exist before the turn plays: one item per step.

    It stands for the async generator ``for item in items: yield item``, and
    iterates the same way for anyone who steps it; ScriptedModel's producer
    recognises the exact type and plays what is left of it as one batch
    (`turn_batch`), checking every item all the same. ``aclose`` exhausts it,
    as closing a generator does.
    """

    __slots__ = ("__weakref__", "_chunks_request_id", "_items", "_next")

    def __init__(
        self, items: tuple[TurnItem, ...], *, chunks_request_id: str | None = None
    ) -> None:
        """A turn over ``items``; ``chunks_request_id`` as in `TurnRest`, if the maker knows it."""
        self._items = items
        self._chunks_request_id = chunks_request_id
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

    def take_rest(self) -> TurnRest:
        """The items not yet yielded, in order; the turn is exhausted afterwards.

        What is known of the items holds for the whole turn only, so it is
        kept only when nothing was yielded yet.
        """
        position, self._next = self._next, len(self._items)
        if position == 0:
            return TurnRest(self._items, self._chunks_request_id)
        return TurnRest(self._items[position:], None)


async def turn_batch(turn: PrebuiltTurn) -> AsyncIterator[TurnRest]:
    """A source of one item: the rest of ``turn``, taken at the first step."""
    yield turn.take_rest()
