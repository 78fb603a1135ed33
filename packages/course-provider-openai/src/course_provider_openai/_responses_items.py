"""The output items of one Responses stream, keyed by ``output_index``, and the lookups events need.

`OutputItems` holds every item's record (`_responses_states`) in order and
finds the open item or part an event names, or says exactly why there is
none.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Protocol, TypeVar, final

from course_http import VendorErrorCode
from course_provider_openai._failures import OpenAIFailures
from course_provider_openai._responses_states import (
    CallState,
    ItemState,
    MessageState,
    ReasoningState,
    TextPart,
    ToolState,
    kind_of,
)
from course_vendor import ToolCallIds

__all__ = ["OutputItems", "open_entry"]

_Code = VendorErrorCode
_Item = TypeVar("_Item", MessageState, CallState, ReasoningState, ToolState)


class _Opens(Protocol):
    open: bool


_Entry = TypeVar("_Entry", bound=_Opens)


def open_entry(
    failures: OpenAIFailures,
    entries: list[_Entry],
    position: object,
    key: str,
    what: str,
    index: int,
) -> _Entry:
    """The entry at ``position`` (an event's ``key``), which must have been added and be open.

    Raises through ``failures`` ``VENDOR_INVALID_EVENT`` when ``position`` is not an integer,
    ``VENDOR_EVENT_ORDER`` when no such entry was added or it is done.
    """
    if type(position) is not int or not 0 <= position < len(entries):
        if type(position) is not int:
            failures.invalid(index, key, "an integer", position)
        failures.fail(_Code.VENDOR_EVENT_ORDER, index, f"no {what} {position} was added")
    entry = entries[position]
    if not entry.open:
        failures.fail(_Code.VENDOR_EVENT_ORDER, index, f"{what} {position} is already done")
    return entry


@final
class OutputItems:
    """The items of one response in ``output_index`` order, and the lookups events need.

    ``failures`` raises every failure of the stream (its wire names them);
    ``call_ids`` are the ``call_id`` s the function calls took. Each lookup
    raises `VendorError`: ``VENDOR_INVALID_EVENT`` when an index is not an
    integer or an id does not match, ``VENDOR_EVENT_ORDER`` when the item or
    part named was never added, is already done, or is of another kind.
    """

    __slots__ = ("_list", "call_ids", "failures")

    def __init__(self, failures: OpenAIFailures) -> None:
        self._list: list[ItemState] = []
        self.failures = failures
        self.call_ids = ToolCallIds(failures.vendor)

    def __len__(self) -> int:
        return len(self._list)

    def __iter__(self) -> Iterator[ItemState]:
        return iter(self._list)

    def __getitem__(self, position: int) -> ItemState:
        return self._list[position]

    def append(self, item: ItemState) -> None:
        """Add the next item (its ``output_index`` is the current length)."""
        self._list.append(item)

    def open_positions(self) -> list[int]:
        """The ``output_index`` of every item added and not yet done."""
        return [position for position, item in enumerate(self._list) if item.open]

    def current(self, position: object, index: int) -> ItemState:
        """The open item at ``position`` (an event's ``output_index``)."""
        return open_entry(self.failures, self._list, position, "output_index", "output item", index)

    def open_item(
        self, data: dict[str, Any], index: int, family: type[_Item], *, named: bool = True
    ) -> _Item:
        """The open item of ``family`` an event names by ``output_index`` (and ``item_id``).

        ``named=False`` for the events that carry no ``item_id`` (a shell
        call's command events).
        """
        item = self.current(data.get("output_index"), index)
        if type(item) is not family:
            self.failures.fail(
                _Code.VENDOR_EVENT_ORDER,
                index,
                f"{data.get('type')!r} does not belong to output item "
                f"{data.get('output_index')}, a {kind_of(item)!r}",
            )
        if named and data.get("item_id") != item.id:
            self.failures.fail(_Code.VENDOR_INVALID_EVENT, index, f"item_id is not {item.id!r}")
        return item

    def open_tool(
        self, data: dict[str, Any], index: int, kind: str, *, named: bool = True
    ) -> ToolState:
        """The open tool item of ``kind`` an event names, as `open_item` finds it."""
        item = self.current(data.get("output_index"), index)
        if type(item) is not ToolState or item.kind != kind:
            self.failures.fail(
                _Code.VENDOR_EVENT_ORDER,
                index,
                f"{data.get('type')!r} is for a {kind!r} item, output item "
                f"{data.get('output_index')} is a {kind_of(item)!r}",
            )
        if named and data.get("item_id") != item.id:
            self.failures.fail(_Code.VENDOR_INVALID_EVENT, index, f"item_id is not {item.id!r}")
        return item

    def streaming_part(self, data: dict[str, Any]) -> TextPart | None:
        """The streaming output text part an event names, or ``None`` when anything is off.

        The hot path of text deltas: it raises nothing and formats nothing;
        ``None`` sends the caller to the checked path, which says what is wrong.
        """
        position = data.get("output_index")
        items = self._list
        if type(position) is not int or not 0 <= position < len(items):
            return None
        item = items[position]
        if type(item) is not MessageState or not item.open or data.get("item_id") != item.id:
            return None
        content_index = data.get("content_index")
        parts = item.parts
        if type(content_index) is not int or not 0 <= content_index < len(parts):
            return None
        part = parts[content_index]
        if part.text is not None or part.kind != "output_text":
            return None
        return part

    def streaming_call(self, data: dict[str, Any]) -> CallState | None:
        """The open call an argument delta names, or ``None`` when anything is off."""
        position = data.get("output_index")
        items = self._list
        if type(position) is not int or not 0 <= position < len(items):
            return None
        item = items[position]
        if type(item) is not CallState or not item.open or item.arguments_text is not None:
            return None
        if data.get("item_id") != item.id:
            return None
        return item
