"""The state of the output items of one Responses stream, keyed by ``output_index``.

Plain mutable records, private to the parser: what was announced by
``response.output_item.added``, what streamed since, and whether it is done;
and `OutputItems`, the whole state the output events work on, which finds
the open item or part an event names, or says exactly why there is none.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Protocol, TypeAlias, TypeVar, final

from course_http import VendorErrorCode
from course_protocol import CourseToolCall
from course_provider_openai import _responses_wire as wire
from course_provider_openai._failures import RESPONSES_FAILURES
from course_vendor import TextPieces, ToolCallIds

__all__ = ["CallItem", "MessageItem", "OutputItem", "OutputItems", "Part", "SkippedItem"]

_Code = VendorErrorCode


_fail = RESPONSES_FAILURES.fail
_invalid = RESPONSES_FAILURES.invalid


@final
class Part:
    """One content part of a message item: output text or a refusal, and its deltas."""

    __slots__ = ("fragments", "is_refusal", "open", "text")

    def __init__(self, *, is_refusal: bool) -> None:
        self.is_refusal = is_refusal
        self.fragments = TextPieces()
        self.text: str | None = None
        """The whole text once its ``.done`` event (or the part's) closed it."""
        self.open = True

    def joined(self) -> str:
        """The text streamed so far, joined once and kept."""
        if self.text is None:
            self.text = self.fragments.joined()
            self.fragments = TextPieces()
        return self.text

    def close_with(self, text: str) -> bool:
        """Keep ``text`` as the part's text when it is the deltas joined; whether it was.

        The deltas are compared in place and dropped, so the text is held
        once (the event's string), not joined a second time.
        """
        if not self.fragments.equals(text):
            return False
        self.text = text
        self.fragments = TextPieces()
        return True


@final
class MessageItem:
    """A ``message`` item: its ``msg_...`` id and its content parts, by ``content_index``."""

    __slots__ = ("id", "open", "parts")

    def __init__(self, item_id: str) -> None:
        self.id = item_id
        self.parts: list[Part] = []
        self.open = True


@final
class CallItem:
    """A ``function_call`` item: ids, name, argument fragments, and the call once complete.

    ``id`` is the ``fc_...`` item id the deltas name; ``call_id`` the one a
    Tool result echoes, which becomes the course Tool-call id.
    """

    __slots__ = ("arguments", "call", "call_id", "fragments", "id", "name", "open")

    def __init__(self, item_id: str, call_id: str, name: str) -> None:
        self.id = item_id
        self.call_id = call_id
        self.name = name
        self.fragments = TextPieces()
        self.arguments: str | None = None
        """The whole argument text, once ``.done`` said it is complete.

        The item's own ``done`` repeats the text; it is compared with this
        one exactly (a length and a hash would pass a different text, however
        rarely), at the cost of holding a long call's text beside its
        parsed arguments until the response ends.
        """
        self.call: CourseToolCall | None = None
        self.open = True


@final
class SkippedItem:
    """An item the course IR does not carry and the adapter skips on purpose (``reasoning``)."""

    __slots__ = ("id", "open")

    def __init__(self, item_id: str) -> None:
        self.id = item_id
        self.open = True


OutputItem: TypeAlias = MessageItem | CallItem | SkippedItem
_Item = TypeVar("_Item", MessageItem, CallItem, SkippedItem)


class _Opens(Protocol):
    open: bool


_Entry = TypeVar("_Entry", bound=_Opens)


def _open_entry(entries: list[_Entry], position: object, key: str, what: str, index: int) -> _Entry:
    """The entry at ``position`` (an event's ``key``), which must have been added and be open."""
    if type(position) is not int or not 0 <= position < len(entries):
        if type(position) is not int:
            _invalid(index, key, "an integer", position)
        _fail(_Code.VENDOR_EVENT_ORDER, index, f"no {what} {position} was added")
    entry = entries[position]
    if not entry.open:
        _fail(_Code.VENDOR_EVENT_ORDER, index, f"{what} {position} is already done")
    return entry


@final
class OutputItems:
    """The items of one response in ``output_index`` order, and the lookups events need.

    ``request_id`` is the request the chunks are for; ``calls`` counts the
    function calls completed (and yielded as chunks) so far; ``call_ids``
    are the ``call_id`` s the function calls took. Each lookup
    raises `VendorError`: ``VENDOR_INVALID_EVENT`` when an index is not an
    integer or an id does not match, ``VENDOR_EVENT_ORDER`` when the item or
    part named was never added, is already done, or is of another kind.
    """

    __slots__ = ("_list", "call_ids", "calls", "request_id")

    def __init__(self, request_id: str) -> None:
        self.request_id = request_id
        self._list: list[OutputItem] = []
        self.calls = 0
        self.call_ids = ToolCallIds(wire.VENDOR)

    def __len__(self) -> int:
        return len(self._list)

    def __iter__(self) -> Iterator[OutputItem]:
        return iter(self._list)

    def append(self, item: OutputItem) -> None:
        """Add the next item (its ``output_index`` is the current length)."""
        self._list.append(item)

    def open_positions(self) -> list[int]:
        """The ``output_index`` of every item added and not yet done."""
        return [position for position, item in enumerate(self._list) if item.open]

    def current(self, position: object, index: int) -> OutputItem:
        """The open item at ``position`` (an event's ``output_index``)."""
        return _open_entry(self._list, position, wire.OUTPUT_INDEX_KEY, "output item", index)

    def open_item(self, data: dict[str, Any], index: int, kind: type[_Item]) -> _Item:
        """The open item of type ``kind`` an event names by ``output_index`` and ``item_id``."""
        item = self.current(data.get(wire.OUTPUT_INDEX_KEY), index)
        if type(item) is not kind:
            _fail(
                _Code.VENDOR_EVENT_ORDER,
                index,
                f"{data.get(wire.TYPE_KEY)!r} is for a {kind.__name__}, "
                f"output item {data.get(wire.OUTPUT_INDEX_KEY)} is a {type(item).__name__}",
            )
        if data.get(wire.ITEM_ID_KEY) != item.id:
            _fail(_Code.VENDOR_INVALID_EVENT, index, f"{wire.ITEM_ID_KEY} is not {item.id!r}")
        return item

    def part(self, data: dict[str, Any], index: int) -> Part:
        """The open part of a message item an event names by ``content_index``."""
        item = self.open_item(data, index, MessageItem)
        position = data.get(wire.CONTENT_INDEX_KEY)
        return _open_entry(item.parts, position, wire.CONTENT_INDEX_KEY, "content part", index)

    def open_part(self, data: dict[str, Any], index: int, *, refusal: bool) -> Part:
        """Like :meth:`part`, and the part must be a refusal part exactly when ``refusal``."""
        part = self.part(data, index)
        if part.is_refusal is not refusal:
            kind = wire.REFUSAL_TYPE if part.is_refusal else wire.OUTPUT_TEXT_TYPE
            _fail(_Code.VENDOR_EVENT_ORDER, index, f"{data.get(wire.TYPE_KEY)!r} in a {kind} part")
        return part

    def streaming_part(self, data: dict[str, Any]) -> Part | None:
        """The open, still streaming part an event names, or ``None`` when anything is off.

        The hot path of text deltas: it raises nothing and formats nothing;
        ``None`` sends the caller to the checked path, which says what is wrong.
        """
        position = data.get(wire.OUTPUT_INDEX_KEY)
        items = self._list
        if type(position) is not int or not 0 <= position < len(items):
            return None
        item = items[position]
        if type(item) is not MessageItem or not item.open or data.get(wire.ITEM_ID_KEY) != item.id:
            return None
        content_index = data.get(wire.CONTENT_INDEX_KEY)
        parts = item.parts
        if type(content_index) is not int or not 0 <= content_index < len(parts):
            return None
        part = parts[content_index]
        if not part.open or part.text is not None:
            return None
        return part

    def streaming_call(self, data: dict[str, Any]) -> CallItem | None:
        """The open call an argument delta names, or ``None`` when anything is off."""
        position = data.get(wire.OUTPUT_INDEX_KEY)
        items = self._list
        if type(position) is not int or not 0 <= position < len(items):
            return None
        item = items[position]
        if type(item) is not CallItem or not item.open or item.call is not None:
            return None
        if data.get(wire.ITEM_ID_KEY) != item.id:
            return None
        return item
