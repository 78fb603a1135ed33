"""The output items of one Responses stream while they stream, keyed by ``output_index``.

Plain mutable records, private to the grammar: `TextPart`, a text that
streams in deltas and is repeated whole at its ``.done``; one record per
item family (`MessageState`, `CallState`, `ReasoningState`, `ToolState`);
and `OutputItems`, which finds the open item or part an event names, or
says exactly why there is none.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Protocol, TypeAlias, TypeVar, final

from course_http import VendorErrorCode
from course_protocol import JsonObject
from course_provider_openai import _responses_wire as wire
from course_provider_openai._failures import RESPONSES_FAILURES
from course_provider_openai._responses_result import ResponsesFunctionCall
from course_vendor import TextPieces, ToolCallIds

__all__ = [
    "CallState",
    "ItemState",
    "MessageState",
    "OutputItems",
    "ReasoningState",
    "TextPart",
    "ToolState",
]

_Code = VendorErrorCode
_fail = RESPONSES_FAILURES.fail
_invalid = RESPONSES_FAILURES.invalid


@final
class TextPart:
    """A text that streams in deltas: a message part, a reasoning text, a call's input.

    ``kind`` is the part's type (``output_text``, ``refusal``,
    ``summary_text``, ``reasoning_text``, or the event family of a tool's
    text); ``text`` is the whole text once a ``.done`` event gave it (or the
    part closed), after which no delta may come; ``open`` is false once the
    part itself is done. ``annotations`` and ``logprobs`` are an output
    text's, kept only when some came.
    """

    __slots__ = ("annotations", "fragments", "kind", "logprobs", "open", "text")

    def __init__(self, kind: str, first: str = "") -> None:
        self.kind = kind
        self.fragments = TextPieces()
        self.fragments.append(first)
        self.text: str | None = None
        self.open = True
        self.annotations: list[JsonObject | None] | None = None
        self.logprobs: list[JsonObject] | None = None

    def joined(self) -> str:
        """The text streamed so far, joined once and kept as the part's text."""
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
class MessageState:
    """A ``message`` item: its ``msg_...`` id and its parts, by ``content_index``."""

    __slots__ = ("id", "open", "parts", "phase", "status")

    def __init__(self, item_id: str, status: str | None, phase: str | None) -> None:
        self.id = item_id
        self.parts: list[TextPart] = []
        self.open = True
        self.status = status
        self.phase = phase


@final
class CallState:
    """A ``function_call`` item: ids, name, argument fragments, and the arguments once complete.

    ``arguments_text`` is the whole argument text once it completed (at
    ``.arguments.done`` or the item's ``done``), kept to compare exactly
    with the item's own repetition of it; ``arguments`` what it parses to.
    """

    __slots__ = (
        "arguments",
        "arguments_text",
        "call_id",
        "fragments",
        "id",
        "name",
        "namespace",
        "open",
    )

    def __init__(self, item_id: str, call_id: str, name: str, namespace: str | None) -> None:
        self.id = item_id
        self.call_id = call_id
        self.name = name
        self.namespace = namespace
        self.fragments = TextPieces()
        self.arguments_text: str | None = None
        self.arguments: JsonObject | None = None
        self.open = True

    def frozen(self) -> ResponsesFunctionCall:
        """The call as the result holds it (arguments ``None`` while they are not complete)."""
        text = self.arguments_text
        return ResponsesFunctionCall(
            self.id,
            self.call_id,
            self.name,
            self.fragments.joined() if text is None else text,
            self.arguments,
            self.namespace,
            not self.open,
        )


@final
class ReasoningState:
    """A ``reasoning`` item: its summary parts (``summary_index``) and texts (``content_index``)."""

    __slots__ = ("content", "encrypted_content", "id", "open", "summary")

    def __init__(self, item_id: str, encrypted_content: str | None) -> None:
        self.id = item_id
        self.summary: list[TextPart] = []
        self.content: list[TextPart] = []
        self.encrypted_content = encrypted_content
        self.open = True


@final
class ToolState:
    """Any other item: its kind, id and latest form, and what its own events streamed.

    ``item`` is the item as ``added`` gave it, then as its ``done`` did,
    frozen; ``text`` the
    one text its events stream (custom Tool input, MCP arguments,
    interpreter code), ``None`` until one came; ``commands`` a shell call's
    commands by ``command_index``; ``outputs`` whether each of a shell
    output's command contents is still open; ``settled`` that a final
    phase event (``.completed``, ``.failed``) came; ``partial_images`` how
    many partial images an image generation sent.
    """

    __slots__ = (
        "commands",
        "id",
        "item",
        "kind",
        "open",
        "outputs",
        "partial_images",
        "settled",
        "text",
    )

    def __init__(self, kind: str, item_id: str, item: JsonObject) -> None:
        self.kind = kind
        self.id = item_id
        self.item = item
        self.open = True
        self.text: TextPart | None = None
        self.commands: list[TextPart] = []
        self.outputs: list[bool] = []
        self.settled = False
        self.partial_images = 0


ItemState: TypeAlias = MessageState | CallState | ReasoningState | ToolState
_Item = TypeVar("_Item", MessageState, CallState, ReasoningState, ToolState)


class _Opens(Protocol):
    open: bool


_Entry = TypeVar("_Entry", bound=_Opens)


def open_entry(entries: list[_Entry], position: object, key: str, what: str, index: int) -> _Entry:
    """The entry at ``position`` (an event's ``key``), which must have been added and be open.

    Raises ``VENDOR_INVALID_EVENT`` when ``position`` is not an integer,
    ``VENDOR_EVENT_ORDER`` when no such entry was added or it is done.
    """
    if type(position) is not int or not 0 <= position < len(entries):
        if type(position) is not int:
            _invalid(index, key, "an integer", position)
        _fail(_Code.VENDOR_EVENT_ORDER, index, f"no {what} {position} was added")
    entry = entries[position]
    if not entry.open:
        _fail(_Code.VENDOR_EVENT_ORDER, index, f"{what} {position} is already done")
    return entry


def kind_of(item: ItemState) -> str:
    """The item's ``type`` as the vendor spells it."""
    if type(item) is ToolState:
        return item.kind
    return _FAMILY_KINDS[type(item)]


_FAMILY_KINDS: dict[type[ItemState], str] = {
    MessageState: wire.MESSAGE_TYPE,
    CallState: wire.FUNCTION_CALL_TYPE,
    ReasoningState: "reasoning",
}


@final
class OutputItems:
    """The items of one response in ``output_index`` order, and the lookups events need.

    ``call_ids`` are the ``call_id`` s the function calls took. Each lookup
    raises `VendorError`: ``VENDOR_INVALID_EVENT`` when an index is not an
    integer or an id does not match, ``VENDOR_EVENT_ORDER`` when the item or
    part named was never added, is already done, or is of another kind.
    """

    __slots__ = ("_list", "call_ids")

    def __init__(self) -> None:
        self._list: list[ItemState] = []
        self.call_ids = ToolCallIds(wire.WIRE)

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
        return open_entry(self._list, position, "output_index", "output item", index)

    def open_item(
        self, data: dict[str, Any], index: int, family: type[_Item], *, named: bool = True
    ) -> _Item:
        """The open item of ``family`` an event names by ``output_index`` (and ``item_id``).

        ``named=False`` for the events that carry no ``item_id`` (a shell
        call's command events).
        """
        item = self.current(data.get("output_index"), index)
        if type(item) is not family:
            _fail(
                _Code.VENDOR_EVENT_ORDER,
                index,
                f"{data.get('type')!r} does not belong to output item "
                f"{data.get('output_index')}, a {kind_of(item)!r}",
            )
        if named and data.get("item_id") != item.id:
            _fail(_Code.VENDOR_INVALID_EVENT, index, f"item_id is not {item.id!r}")
        return item

    def open_tool(
        self, data: dict[str, Any], index: int, kind: str, *, named: bool = True
    ) -> ToolState:
        """The open tool item of ``kind`` an event names, as `open_item` finds it."""
        item = self.current(data.get("output_index"), index)
        if type(item) is not ToolState or item.kind != kind:
            _fail(
                _Code.VENDOR_EVENT_ORDER,
                index,
                f"{data.get('type')!r} is for a {kind!r} item, output item "
                f"{data.get('output_index')} is a {kind_of(item)!r}",
            )
        if named and data.get("item_id") != item.id:
            _fail(_Code.VENDOR_INVALID_EVENT, index, f"item_id is not {item.id!r}")
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
