"""The content parts of a Responses message item: output text and refusals, from added to done.

Parts are keyed by ``content_index`` inside their item and added in order.
Text deltas become course chunks at once and are kept, so the part's
``.done`` text can be checked against them; a refusal part fails the
response with ``VENDOR_REFUSAL``. Each function handles one event type over
the stream's `OutputItems` and raises `VendorError` with the first thing
wrong (the lookups' ``VENDOR_EVENT_ORDER`` and ``VENDOR_INVALID_EVENT``
included).
"""

from __future__ import annotations

from typing import Any, NoReturn

from course_http import VendorErrorCode
from course_protocol import CourseModelChunk, CourseTextDeltaChunk
from course_protocol.untrusted import shown
from course_provider_openai import _responses_wire as wire
from course_provider_openai._failures import RESPONSES_FAILURES
from course_provider_openai._responses_items import MessageItem, OutputItems, Part, SkippedItem

__all__ = [
    "annotation",
    "output_text_delta",
    "output_text_done",
    "part_added",
    "part_done",
    "refusal_delta",
    "refusal_done",
]

_Code = VendorErrorCode
_fail = RESPONSES_FAILURES.fail
_object_at = RESPONSES_FAILURES.object_at
_text_at = RESPONSES_FAILURES.text_at
_invalid = RESPONSES_FAILURES.invalid


def part_added(items: OutputItems, data: dict[str, Any], index: int) -> None:
    """``response.content_part.added``: an output text or refusal part of a message."""
    if type(items.current(data.get(wire.OUTPUT_INDEX_KEY), index)) is SkippedItem:
        items.open_item(data, index, SkippedItem)
        return
    item = items.open_item(data, index, MessageItem)
    position = data.get(wire.CONTENT_INDEX_KEY)
    if position != len(item.parts) or type(position) is not int:
        _fail(_Code.VENDOR_EVENT_ORDER, index, f"adds content part {position!r} out of order")
    kind = _object_at(data, wire.PART_KEY, index).get(wire.TYPE_KEY)
    if kind != wire.OUTPUT_TEXT_TYPE and kind != wire.REFUSAL_TYPE:
        path = f"{wire.PART_KEY}.{wire.TYPE_KEY}"
        if type(kind) is not str:
            _invalid(index, path, "a string", kind)
        _fail(_Code.VENDOR_UNKNOWN_EVENT, index, f"{path} {shown(kind)!r} is not one it knows")
    item.parts.append(Part(is_refusal=kind == wire.REFUSAL_TYPE))


def part_done(items: OutputItems, data: dict[str, Any], index: int) -> None:
    """``response.content_part.done``: closes the part; a refusal part fails."""
    if type(items.current(data.get(wire.OUTPUT_INDEX_KEY), index)) is SkippedItem:
        items.open_item(data, index, SkippedItem)
        return
    part = items.part(data, index)
    if part.is_refusal:
        # A refusal part that closes without its own .done event is still a refusal.
        _refuse(part.joined(), index)
    part.joined()
    part.open = False


def output_text_delta(
    items: OutputItems, data: dict[str, Any], index: int
) -> CourseModelChunk | None:
    """``response.output_text.delta``: one course text chunk, none for empty text."""
    # The dominant event, a text delta for the open text part, takes the short
    # path; anything else, failures included, the checked one below.
    part = items.streaming_part(data)
    if part is not None and not part.is_refusal:
        delta = data.get(wire.DELTA_KEY)
        if type(delta) is str:
            if not delta:
                return None
            part.fragments.append(delta)
            return CourseTextDeltaChunk(items.request_id, delta)
    return _checked_output_text_delta(items, data, index)


def _checked_output_text_delta(
    items: OutputItems, data: dict[str, Any], index: int
) -> CourseModelChunk | None:
    part = items.open_part(data, index, refusal=False)
    if part.text is not None:
        _fail(_Code.VENDOR_EVENT_ORDER, index, f"follows {wire.OUTPUT_TEXT_DONE}")
    delta = _text_at(data, wire.DELTA_KEY, index)
    if not delta:
        return None
    part.fragments.append(delta)
    return CourseTextDeltaChunk(items.request_id, delta)


def output_text_done(items: OutputItems, data: dict[str, Any], index: int) -> None:
    """``response.output_text.done``: its ``text`` must be the deltas joined."""
    part = items.open_part(data, index, refusal=False)
    if part.text is not None:
        _fail(_Code.VENDOR_EVENT_ORDER, index, f"a second {wire.OUTPUT_TEXT_DONE}")
    if not part.close_with(_text_at(data, wire.TEXT_KEY, index)):
        _fail(_Code.VENDOR_INVALID_EVENT, index, f"{wire.TEXT_KEY} is not the deltas joined")


def annotation(items: OutputItems, data: dict[str, Any], index: int) -> None:
    """``response.output_text.annotation.added``: checked for order, then skipped."""
    # Annotations (citations) describe text the chunks already carried:
    # skipped on purpose, the text is kept.
    items.open_item(data, index, MessageItem)


def refusal_delta(items: OutputItems, data: dict[str, Any], index: int) -> None:
    """``response.refusal.delta``: kept for the refusal message."""
    part = items.open_part(data, index, refusal=True)
    part.fragments.append(_text_at(data, wire.DELTA_KEY, index))


def refusal_done(items: OutputItems, data: dict[str, Any], index: int) -> NoReturn:
    """``response.refusal.done``: ``VENDOR_REFUSAL`` with the refusal text."""
    part = items.open_part(data, index, refusal=True)
    refusal = data.get(wire.REFUSAL_KEY)
    _refuse(refusal if type(refusal) is str else part.joined(), index)


def _refuse(refusal: str, index: int) -> NoReturn:
    RESPONSES_FAILURES.refused(refusal, index, wire.REFUSAL_TYPE)
