"""The events of a ``reasoning`` item: its summary parts and its reasoning texts.

A summary part is added empty by ``response.reasoning_summary_part.added``
(``summary_index``, in order), streams in
``response.reasoning_summary_text.delta``, is repeated whole by
``.summary_text.done`` and by the part's ``done``. A reasoning text is a
``reasoning_text`` content part (`_responses_parts` adds and closes it)
streaming in ``response.reasoning_text.delta`` and repeated by its
``.done``. Each function handles one event type over the stream's
`OutputItems` and raises `VendorError` with the first thing wrong.
"""

from __future__ import annotations

from typing import Any

from course_http import VendorErrorCode
from course_provider_openai._responses_items import OutputItems, open_entry
from course_provider_openai._responses_parts import close_part, stream_delta, stream_done
from course_provider_openai._responses_states import ReasoningState, TextPart

__all__ = [
    "reasoning_text_delta",
    "reasoning_text_done",
    "summary_part_added",
    "summary_part_done",
    "summary_text_delta",
    "summary_text_done",
]

_Code = VendorErrorCode


def summary_part_added(items: OutputItems, data: dict[str, Any], index: int) -> None:
    """``response.reasoning_summary_part.added``: the next summary part, empty."""
    item = items.open_item(data, index, ReasoningState)
    position = data.get("summary_index")
    if position != len(item.summary) or type(position) is not int:
        if type(position) is not int:
            items.failures.invalid(index, "summary_index", "an integer", position)
        items.failures.fail(
            _Code.VENDOR_EVENT_ORDER,
            index,
            f"adds summary part {position}, not {len(item.summary)}",
        )
    part = items.failures.object_at(data, "part", index)
    if part.get("type") != "summary_text":
        items.failures.fail(_Code.VENDOR_INVALID_EVENT, index, "part.type is not 'summary_text'")
    if items.failures.text_at(part, "text", index, parent="part"):
        items.failures.fail(
            _Code.VENDOR_INVALID_EVENT, index, "part.text is not empty: its text streams in deltas"
        )
    item.summary.append(TextPart("summary_text"))


def _summary(items: OutputItems, data: dict[str, Any], index: int) -> TextPart:
    item = items.open_item(data, index, ReasoningState)
    return open_entry(
        items.failures,
        item.summary,
        data.get("summary_index"),
        "summary_index",
        "summary part",
        index,
    )


def summary_part_done(items: OutputItems, data: dict[str, Any], index: int) -> None:
    """``response.reasoning_summary_part.done``: the part repeats its whole text and closes."""
    part = _summary(items, data, index)
    status = data.get("status")
    if status is not None and type(status) is not str:
        items.failures.invalid(index, "status", "a string", status)
    close_part(items.failures, part, items.failures.object_at(data, "part", index), index, "part")


def summary_text_delta(items: OutputItems, data: dict[str, Any], index: int) -> None:
    """``response.reasoning_summary_text.delta``: more summary text."""
    stream_delta(
        items.failures,
        _summary(items, data, index),
        data,
        index,
        "response.reasoning_summary_text.done",
    )


def summary_text_done(items: OutputItems, data: dict[str, Any], index: int) -> None:
    """``response.reasoning_summary_text.done``: its ``text`` must be the deltas joined."""
    stream_done(items.failures, _summary(items, data, index), data, "text", index)


def _reasoning_text(items: OutputItems, data: dict[str, Any], index: int) -> TextPart:
    item = items.open_item(data, index, ReasoningState)
    return open_entry(
        items.failures,
        item.content,
        data.get("content_index"),
        "content_index",
        "content part",
        index,
    )


def reasoning_text_delta(items: OutputItems, data: dict[str, Any], index: int) -> None:
    """``response.reasoning_text.delta``: more reasoning text."""
    stream_delta(
        items.failures,
        _reasoning_text(items, data, index),
        data,
        index,
        "response.reasoning_text.done",
    )


def reasoning_text_done(items: OutputItems, data: dict[str, Any], index: int) -> None:
    """``response.reasoning_text.done``: its ``text`` must be the deltas joined."""
    stream_done(items.failures, _reasoning_text(items, data, index), data, "text", index)
