"""The function calls of a Responses stream: argument fragments kept, joined and parsed once.

A ``function_call`` item streams its arguments in
``response.function_call_arguments.delta`` fragments, kept in one list per
item and never parsed on the way; the call is complete, and yielded as a
course Tool-call chunk, at ``.arguments.done`` (or at the item's ``done``
when that event is missing), where the text must equal the fragments
joined. Each function handles one event type over the stream's
`OutputItems` and raises `VendorError` with the first thing wrong.
"""

from __future__ import annotations

from typing import Any

from course_http import VendorErrorCode
from course_protocol import CourseModelChunk, CourseToolCall, CourseToolCallChunk
from course_provider_openai import _responses_wire as wire
from course_provider_openai._failures import RESPONSES_FAILURES
from course_provider_openai._responses_items import CallItem, OutputItems
from course_vendor import TextPieces
from course_vendor import tool_arguments as parse_arguments

__all__ = ["arguments_delta", "arguments_done", "complete_call"]

_Code = VendorErrorCode
_fail = RESPONSES_FAILURES.fail
_text_at = RESPONSES_FAILURES.text_at


def arguments_delta(items: OutputItems, data: dict[str, Any], index: int) -> None:
    """``response.function_call_arguments.delta``: one more fragment, never parsed here."""
    # The short path for the dominant case, as for text deltas.
    item = items.streaming_call(data)
    if item is not None:
        delta = data.get(wire.DELTA_KEY)
        if type(delta) is str:
            if delta:
                item.fragments.append(delta)
            return
    _checked_arguments_delta(items, data, index)


def _checked_arguments_delta(items: OutputItems, data: dict[str, Any], index: int) -> None:
    item = items.open_item(data, index, CallItem)
    if item.call is not None:
        _fail(_Code.VENDOR_EVENT_ORDER, index, f"follows {wire.ARGUMENTS_DONE}")
    delta = _text_at(data, wire.DELTA_KEY, index)
    if delta:
        item.fragments.append(delta)


def arguments_done(items: OutputItems, data: dict[str, Any], index: int) -> CourseModelChunk:
    """``response.function_call_arguments.done``: the complete Tool-call chunk."""
    item = items.open_item(data, index, CallItem)
    if item.call is not None:
        _fail(_Code.VENDOR_EVENT_ORDER, index, f"a second {wire.ARGUMENTS_DONE}")
    position = data.get(wire.OUTPUT_INDEX_KEY)
    return complete_call(items, item, data.get(wire.ARGUMENTS_KEY), position, index)


def complete_call(
    items: OutputItems, item: CallItem, arguments: object, position: object, index: int
) -> CourseModelChunk:
    """Complete ``item`` with the whole ``arguments`` text an event of ``index`` gave.

    Returns its Tool-call chunk and counts it in ``items.calls``. Raises
    `VendorError` ``VENDOR_INVALID_EVENT`` when ``arguments`` is not the
    fragments joined, ``VENDOR_INVALID_TOOL_ARGUMENTS`` when that text is not
    a JSON object.
    """
    # Compared with the fragments in place: the event's string is kept, not a join.
    if type(arguments) is not str or not item.fragments.equals(arguments):
        _fail(
            _Code.VENDOR_INVALID_EVENT,
            index,
            f"{wire.ARGUMENTS_KEY} is not the concatenation of the argument deltas",
        )
    item.fragments = TextPieces()
    # Kept whole: the item's done repeats it, and strict means compared exactly.
    item.arguments = arguments
    where = f"{wire.OUTPUT_KEY}[{position}].{wire.ARGUMENTS_KEY}"
    call = CourseToolCall(
        item.call_id,
        item.name,
        parse_arguments(arguments, vendor=wire.VENDOR, index=index, path=where),
    )
    item.call = call
    items.calls += 1
    return CourseToolCallChunk(items.request_id, call)
