"""The output items of one Responses stream: the state machine of everything inside ``output``.

Items are keyed by ``output_index`` and must be added in order; content
parts of a message by ``content_index``, likewise. Text deltas become course
chunks at once; function-call argument fragments are kept in one list per
item and joined and parsed once, when the arguments (or the item) are done.
Each public method handles one event type and raises `VendorError` with
the first thing wrong.
"""

from __future__ import annotations

from typing import Any, Final, NoReturn, final

from course_http import VendorErrorCode
from course_http import tool_arguments as parse_arguments
from course_protocol import (
    CourseAssistantContent,
    CourseModelChunk,
    CourseTextBlock,
    CourseTextDeltaChunk,
    CourseToolCall,
    CourseToolCallChunk,
    is_blank,
)
from course_provider_openai import _responses_wire as wire
from course_provider_openai._failures import RESPONSES_FAILURES
from course_provider_openai._responses_items import (
    CallItem,
    MessageItem,
    OutputItem,
    OutputItems,
    Part,
    SkippedItem,
)

__all__ = ["ResponseOutput"]

_Code = VendorErrorCode
_VENDOR: Final = wire.VENDOR
_KINDS: Final[dict[type[OutputItem], str]] = {
    MessageItem: wire.MESSAGE_TYPE,
    CallItem: wire.FUNCTION_CALL_TYPE,
    SkippedItem: wire.REASONING_TYPE,
}


_fail = RESPONSES_FAILURES.fail
_invalid = RESPONSES_FAILURES.invalid


def _object(data: dict[str, Any], key: str, index: int) -> dict[str, Any]:
    value = data.get(key)
    if type(value) is not dict:
        _invalid(index, key, "an object", value)
    return value


def _name(data: dict[str, Any], key: str, path: str, index: int) -> str:
    value = data.get(key)
    if type(value) is not str or is_blank(value):
        _invalid(index, f"{path}.{key}", "a non-blank string", value)
    return value


def _text(data: dict[str, Any], key: str, index: int) -> str:
    value = data.get(key)
    if type(value) is not str:
        _invalid(index, key, "a string", value)
    return value


@final
class ResponseOutput:
    """The items of one response so far, the chunks they yield, and the final content."""

    __slots__ = ("_items", "_request_id", "calls")

    def __init__(self, request_id: str) -> None:
        self._request_id = request_id
        self._items = OutputItems()
        self.calls = 0
        """How many function calls completed (and were yielded as chunks)."""

    def open_positions(self) -> list[int]:
        """The ``output_index`` of every item added and not yet done."""
        return self._items.open_positions()

    def item_added(self, data: dict[str, Any], index: int) -> None:
        """``response.output_item.added``: a message, a function call, or a skipped item."""
        position = data.get(wire.OUTPUT_INDEX_KEY)
        if position != len(self._items) or type(position) is not int:
            if type(position) is not int:
                _invalid(index, wire.OUTPUT_INDEX_KEY, "an integer", position)
            expected = len(self._items)
            _fail(_Code.VENDOR_EVENT_ORDER, index, f"adds output item {position}, not {expected}")
        item = _object(data, wire.ITEM_KEY, index)
        kind = item.get(wire.TYPE_KEY)
        item_id = _name(item, wire.ID_KEY, wire.ITEM_KEY, index)
        state: OutputItem
        if kind == wire.MESSAGE_TYPE:
            if item.get(wire.ROLE_KEY) != wire.ASSISTANT_ROLE:
                _invalid(
                    index,
                    f"{wire.ITEM_KEY}.{wire.ROLE_KEY}",
                    "'assistant'",
                    item.get(wire.ROLE_KEY),
                )
            state = MessageItem(item_id)
        elif kind == wire.FUNCTION_CALL_TYPE:
            call_id = _name(item, wire.CALL_ID_KEY, wire.ITEM_KEY, index)
            state = CallItem(item_id, call_id, _name(item, wire.NAME_KEY, wire.ITEM_KEY, index))
            arguments = item.get(wire.ARGUMENTS_KEY, "")
            if type(arguments) is not str:
                _invalid(index, f"{wire.ITEM_KEY}.{wire.ARGUMENTS_KEY}", "a string", arguments)
            if arguments:
                state.fragments.append(arguments)
        elif kind == wire.REASONING_TYPE:
            # Reasoning carries no user-visible text, and with store=false it cannot be
            # sent back: skipped on purpose, its events checked for order only.
            state = SkippedItem(item_id)
        else:
            self._unsupported_item(kind, index)
        self._items.append(state)

    def _unsupported_item(self, kind: object, index: int) -> NoReturn:
        path = f"{wire.ITEM_KEY}.{wire.TYPE_KEY}"
        if type(kind) is not str:
            _invalid(index, path, "a string", kind)
        if kind in wire.SERVER_TOOL_ITEM_TYPES:
            _fail(
                _Code.VENDOR_UNSUPPORTED_CONTENT,
                index,
                f"{path} is {kind!r}: the course protocol cannot carry server-side Tool items",
            )
        _fail(_Code.VENDOR_UNKNOWN_EVENT, index, f"{path} {kind[:64]!r} is not one it knows")

    def item_done(self, data: dict[str, Any], index: int) -> CourseModelChunk | None:
        """``response.output_item.done``: closes the item; completes a call not yet complete."""
        position = data.get(wire.OUTPUT_INDEX_KEY)
        item = self._items.current(position, index)
        done = _object(data, wire.ITEM_KEY, index)
        if done.get(wire.ID_KEY) != item.id or done.get(wire.TYPE_KEY) != _KINDS[type(item)]:
            _fail(
                _Code.VENDOR_INVALID_EVENT,
                index,
                f"{wire.ITEM_KEY}.{wire.ID_KEY} or {wire.ITEM_KEY}.{wire.TYPE_KEY} changed",
            )
        item.open = False
        if type(item) is MessageItem:
            if any(part.open for part in item.parts):
                _fail(_Code.VENDOR_EVENT_ORDER, index, f"output item {position} has an open part")
            return None
        if type(item) is CallItem:
            if done.get(wire.CALL_ID_KEY) != item.call_id or done.get(wire.NAME_KEY) != item.name:
                _fail(_Code.VENDOR_INVALID_EVENT, index, "the call_id or name of the call changed")
            if item.call is None:
                return self._complete_call(item, done.get(wire.ARGUMENTS_KEY), position, index)
            if done.get(wire.ARGUMENTS_KEY) != item.arguments:
                _fail(_Code.VENDOR_INVALID_EVENT, index, f"{wire.ARGUMENTS_KEY} changed at the end")
        return None

    def _complete_call(
        self, item: CallItem, arguments: object, position: object, index: int
    ) -> CourseModelChunk:
        text = "".join(item.fragments)
        item.fragments = []
        if arguments != text or type(arguments) is not str:
            _fail(
                _Code.VENDOR_INVALID_EVENT,
                index,
                f"{wire.ARGUMENTS_KEY} is not the concatenation of the argument deltas",
            )
        item.arguments = text
        where = f"{wire.OUTPUT_KEY}[{position}].{wire.ARGUMENTS_KEY}"
        call = CourseToolCall(
            item.call_id,
            item.name,
            parse_arguments(text, vendor=_VENDOR, index=index, path=where),
        )
        item.call = call
        self.calls += 1
        return CourseToolCallChunk(self._request_id, call)

    def part_added(self, data: dict[str, Any], index: int) -> None:
        """``response.content_part.added``: an output text or refusal part of a message."""
        if type(self._items.current(data.get(wire.OUTPUT_INDEX_KEY), index)) is SkippedItem:
            self._items.open_item(data, index, SkippedItem)
            return
        item = self._items.open_item(data, index, MessageItem)
        position = data.get(wire.CONTENT_INDEX_KEY)
        if position != len(item.parts) or type(position) is not int:
            _fail(_Code.VENDOR_EVENT_ORDER, index, f"adds content part {position!r} out of order")
        kind = _object(data, wire.PART_KEY, index).get(wire.TYPE_KEY)
        if kind != wire.OUTPUT_TEXT_TYPE and kind != wire.REFUSAL_TYPE:
            path = f"{wire.PART_KEY}.{wire.TYPE_KEY}"
            if type(kind) is not str:
                _invalid(index, path, "a string", kind)
            _fail(_Code.VENDOR_UNKNOWN_EVENT, index, f"{path} {kind[:64]!r} is not one it knows")
        item.parts.append(Part(is_refusal=kind == wire.REFUSAL_TYPE))

    def part_done(self, data: dict[str, Any], index: int) -> None:
        """``response.content_part.done``: closes the part; a refusal part fails."""
        if type(self._items.current(data.get(wire.OUTPUT_INDEX_KEY), index)) is SkippedItem:
            self._items.open_item(data, index, SkippedItem)
            return
        part = self._items.part(data, index)
        if part.is_refusal:
            # A refusal part that closes without its own .done event is still a refusal.
            self._refuse(part.joined(), index)
        part.joined()
        part.open = False

    def text_delta(self, data: dict[str, Any], index: int) -> CourseModelChunk | None:
        """``response.output_text.delta``: one course text chunk, none for empty text."""
        # The dominant event, a text delta for the open text part, takes the short
        # path; anything else, failures included, the checked one below.
        part = self._items.streaming_part(data)
        if part is not None and not part.is_refusal:
            delta = data.get(wire.DELTA_KEY)
            if type(delta) is str:
                if not delta:
                    return None
                part.fragments.append(delta)
                return CourseTextDeltaChunk(self._request_id, delta)
        return self._checked_text_delta(data, index)

    def _checked_text_delta(self, data: dict[str, Any], index: int) -> CourseModelChunk | None:
        part = self._items.open_part(data, index, refusal=False)
        if part.text is not None:
            _fail(_Code.VENDOR_EVENT_ORDER, index, f"follows {wire.OUTPUT_TEXT_DONE}")
        delta = _text(data, wire.DELTA_KEY, index)
        if not delta:
            return None
        part.fragments.append(delta)
        return CourseTextDeltaChunk(self._request_id, delta)

    def text_done(self, data: dict[str, Any], index: int) -> None:
        """``response.output_text.done``: its ``text`` must be the deltas joined."""
        part = self._items.open_part(data, index, refusal=False)
        if part.text is not None:
            _fail(_Code.VENDOR_EVENT_ORDER, index, f"a second {wire.OUTPUT_TEXT_DONE}")
        if _text(data, wire.TEXT_KEY, index) != part.joined():
            _fail(_Code.VENDOR_INVALID_EVENT, index, f"{wire.TEXT_KEY} is not the deltas joined")

    def annotation(self, data: dict[str, Any], index: int) -> None:
        """``response.output_text.annotation.added``: checked for order, then skipped."""
        # Annotations (citations) describe text the chunks already carried:
        # skipped on purpose, the text is kept.
        self._items.open_item(data, index, MessageItem)

    def refusal_delta(self, data: dict[str, Any], index: int) -> None:
        """``response.refusal.delta``: kept for the refusal message."""
        part = self._items.open_part(data, index, refusal=True)
        part.fragments.append(_text(data, wire.DELTA_KEY, index))

    def refusal_done(self, data: dict[str, Any], index: int) -> NoReturn:
        """``response.refusal.done``: ``VENDOR_REFUSAL`` with the refusal text."""
        part = self._items.open_part(data, index, refusal=True)
        refusal = data.get(wire.REFUSAL_KEY)
        self._refuse(refusal if type(refusal) is str else part.joined(), index)

    def _refuse(self, refusal: str, index: int) -> NoReturn:
        RESPONSES_FAILURES.refused(refusal, index, wire.REFUSAL_TYPE)

    def arguments_delta(self, data: dict[str, Any], index: int) -> None:
        """``response.function_call_arguments.delta``: one more fragment, never parsed here."""
        # The short path for the dominant case, as for text deltas.
        item = self._items.streaming_call(data)
        if item is not None:
            delta = data.get(wire.DELTA_KEY)
            if type(delta) is str:
                if delta:
                    item.fragments.append(delta)
                return
        self._checked_arguments_delta(data, index)

    def _checked_arguments_delta(self, data: dict[str, Any], index: int) -> None:
        item = self._items.open_item(data, index, CallItem)
        if item.call is not None:
            _fail(_Code.VENDOR_EVENT_ORDER, index, f"follows {wire.ARGUMENTS_DONE}")
        delta = _text(data, wire.DELTA_KEY, index)
        if delta:
            item.fragments.append(delta)

    def arguments_done(self, data: dict[str, Any], index: int) -> CourseModelChunk:
        """``response.function_call_arguments.done``: the complete Tool-call chunk."""
        item = self._items.open_item(data, index, CallItem)
        if item.call is not None:
            _fail(_Code.VENDOR_EVENT_ORDER, index, f"a second {wire.ARGUMENTS_DONE}")
        position = data.get(wire.OUTPUT_INDEX_KEY)
        return self._complete_call(item, data.get(wire.ARGUMENTS_KEY), position, index)

    def reasoning_event(self, data: dict[str, Any], index: int) -> None:
        """An event of a reasoning item: checked for order, then skipped."""
        self._items.open_item(data, index, SkippedItem)

    def check_terminal_output(self, output: object, index: int) -> None:
        """The terminal ``output`` must hold as many function calls as were streamed."""
        if type(output) is not list:
            _invalid(index, f"{wire.RESPONSE_KEY}.{wire.OUTPUT_KEY}", "an array", output)
        calls = 0
        for item in output:
            if type(item) is dict and item.get(wire.TYPE_KEY) == wire.FUNCTION_CALL_TYPE:
                calls += 1
        if calls != self.calls:
            _fail(
                _Code.VENDOR_INVALID_TERMINAL,
                index,
                f"{wire.RESPONSE_KEY}.{wire.OUTPUT_KEY} holds {calls} function call(s), "
                f"the stream {self.calls}",
            )

    def content(self) -> list[CourseAssistantContent]:
        """The final message content in output order: one text block per text part, the calls."""
        content: list[CourseAssistantContent] = []
        for item in self._items:
            if type(item) is MessageItem:
                for part in item.parts:
                    text = part.joined()
                    if text:
                        content.append(CourseTextBlock(text))
            elif type(item) is CallItem and item.call is not None:
                content.append(item.call)
        return content
