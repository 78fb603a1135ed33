"""The output items of one Responses stream: each item from added to done, and the final content.

Items are keyed by ``output_index`` and must be added in order: a message
(its parts are `_responses_parts`'), a function call (its arguments are
`_responses_calls`'), or a reasoning item, skipped on purpose. Each event
function works on the stream's `OutputItems` and raises `VendorError` with
the first thing wrong; at the terminal event, `check_terminal_output` and
`content` give the parser what the message holds.
"""

from __future__ import annotations

from typing import Any, Final, NoReturn

from course_http import VendorErrorCode
from course_protocol import CourseAssistantContent, CourseModelChunk, CourseTextBlock
from course_protocol.untrusted import shown
from course_provider_openai import _responses_wire as wire
from course_provider_openai._failures import RESPONSES_FAILURES
from course_provider_openai._responses_calls import complete_call
from course_provider_openai._responses_items import (
    CallItem,
    MessageItem,
    OutputItem,
    OutputItems,
    SkippedItem,
)

__all__ = ["check_terminal_output", "content", "item_added", "item_done", "reasoning_event"]

_Code = VendorErrorCode
_KINDS: Final[dict[type[OutputItem], str]] = {
    MessageItem: wire.MESSAGE_TYPE,
    CallItem: wire.FUNCTION_CALL_TYPE,
    SkippedItem: wire.REASONING_TYPE,
}

_fail = RESPONSES_FAILURES.fail
_object_at = RESPONSES_FAILURES.object_at
_text_at = RESPONSES_FAILURES.text_at
_invalid = RESPONSES_FAILURES.invalid


def item_added(items: OutputItems, data: dict[str, Any], index: int) -> None:
    """``response.output_item.added``: a message, a function call, or a skipped item.

    Raises ``VENDOR_EVENT_ORDER`` for an item out of order,
    ``VENDOR_UNSUPPORTED_CONTENT`` for a server-side Tool item,
    ``VENDOR_UNKNOWN_EVENT`` for another item type, ``VENDOR_INVALID_EVENT``
    for a field of the wrong type or a function call whose ``call_id`` an
    earlier call of the response has.
    """
    position = data.get(wire.OUTPUT_INDEX_KEY)
    if position != len(items) or type(position) is not int:
        if type(position) is not int:
            _invalid(index, wire.OUTPUT_INDEX_KEY, "an integer", position)
        expected = len(items)
        _fail(_Code.VENDOR_EVENT_ORDER, index, f"adds output item {position}, not {expected}")
    item = _object_at(data, wire.ITEM_KEY, index)
    kind = item.get(wire.TYPE_KEY)
    item_id = _text_at(item, wire.ID_KEY, index, parent=wire.ITEM_KEY, non_blank=True)
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
        call_id = _text_at(item, wire.CALL_ID_KEY, index, parent=wire.ITEM_KEY, non_blank=True)
        state = CallItem(
            item_id,
            call_id,
            _text_at(item, wire.NAME_KEY, index, parent=wire.ITEM_KEY, non_blank=True),
        )
        items.call_ids.claim(call_id, index, f"{wire.ITEM_KEY}.{wire.CALL_ID_KEY}")
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
        _unsupported_item(kind, index)
    items.append(state)


def _unsupported_item(kind: object, index: int) -> NoReturn:
    path = f"{wire.ITEM_KEY}.{wire.TYPE_KEY}"
    if type(kind) is not str:
        _invalid(index, path, "a string", kind)
    if kind in wire.SERVER_TOOL_ITEM_TYPES:
        _fail(
            _Code.VENDOR_UNSUPPORTED_CONTENT,
            index,
            f"{path} is {kind!r}: the course protocol cannot carry server-side Tool items",
        )
    _fail(_Code.VENDOR_UNKNOWN_EVENT, index, f"{path} {shown(kind)!r} is not one it knows")


def item_done(items: OutputItems, data: dict[str, Any], index: int) -> CourseModelChunk | None:
    """``response.output_item.done``: closes the item; completes a call not yet complete.

    Raises ``VENDOR_INVALID_EVENT`` when the item's id, type, ``call_id``,
    name or arguments changed, ``VENDOR_EVENT_ORDER`` when a part is still
    open, and what `complete_call` raises.
    """
    position = data.get(wire.OUTPUT_INDEX_KEY)
    item = items.current(position, index)
    done = _object_at(data, wire.ITEM_KEY, index)
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
            return complete_call(items, item, done.get(wire.ARGUMENTS_KEY), position, index)
        repeated = done.get(wire.ARGUMENTS_KEY)
        if type(repeated) is not str or repeated != item.arguments:
            _fail(_Code.VENDOR_INVALID_EVENT, index, f"{wire.ARGUMENTS_KEY} changed at the end")
    return None


def reasoning_event(items: OutputItems, data: dict[str, Any], index: int) -> None:
    """An event of a reasoning item: checked for order, then skipped."""
    items.open_item(data, index, SkippedItem)


def check_terminal_output(items: OutputItems, output: object, index: int) -> None:
    """The terminal ``output`` must hold as many function calls as were streamed.

    Raises ``VENDOR_INVALID_EVENT`` when ``output`` is not an array,
    ``VENDOR_INVALID_TERMINAL`` when the counts differ.
    """
    if type(output) is not list:
        _invalid(index, f"{wire.RESPONSE_KEY}.{wire.OUTPUT_KEY}", "an array", output)
    calls = 0
    for item in output:
        if type(item) is dict and item.get(wire.TYPE_KEY) == wire.FUNCTION_CALL_TYPE:
            calls += 1
    if calls != items.calls:
        _fail(
            _Code.VENDOR_INVALID_TERMINAL,
            index,
            f"{wire.RESPONSE_KEY}.{wire.OUTPUT_KEY} holds {calls} function call(s), "
            f"the stream {items.calls}",
        )


def content(items: OutputItems) -> list[CourseAssistantContent]:
    """The final message content in output order: one text block per text part, the calls."""
    blocks: list[CourseAssistantContent] = []
    for item in items:
        if type(item) is MessageItem:
            for part in item.parts:
                text = part.joined()
                if text:
                    blocks.append(CourseTextBlock(text))
        elif type(item) is CallItem and item.call is not None:
            blocks.append(item.call)
    return blocks
