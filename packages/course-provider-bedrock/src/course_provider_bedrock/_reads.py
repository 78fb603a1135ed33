"""Reads of one decoded event's fields, and how a read fails: naming the event and the field."""

from __future__ import annotations

from typing import Any, Final

from course_provider_bedrock._wire import WIRE
from course_vendor import EventFailures, token_count

__all__ = [
    "FAILURES",
    "block_index",
    "count_at",
    "fail",
    "fail_invalid",
    "fail_order",
    "frozen",
    "invalid",
    "object_at",
    "text_at",
]

FAILURES: Final = EventFailures(WIRE)
"""How this package's events fail, and the kit's field reads bound to this wire."""

fail: Final = FAILURES.fail
"""``fail(code, index, message, *, vendor_type=..., ...)``: raise ``code`` about event ``index``."""

invalid: Final = FAILURES.invalid
"""``invalid(index, path, expected, value)``: raise ``VENDOR_INVALID_EVENT`` for a bad field."""

object_at: Final = FAILURES.object_at
"""``object_at(data, key, index, *, parent="")``: ``data[key]`` as a JSON object."""

text_at: Final = FAILURES.text_at
"""``text_at(data, key, index, *, parent="", non_blank=False)``: ``data[key]`` as a ``str``."""

fail_invalid: Final = FAILURES.fail_invalid
"""``fail_invalid(message, index)``: raise ``VENDOR_INVALID_EVENT`` about event ``index``."""

fail_order: Final = FAILURES.fail_order
"""``fail_order(message, index)``: raise ``VENDOR_EVENT_ORDER`` about event ``index``."""

frozen: Final = FAILURES.frozen_object
"""``frozen(value, index, path)``: the decoded object ``value`` at ``path``, frozen."""


def block_index(data: dict[str, Any], index: int) -> int:
    """The event's ``contentBlockIndex``: a non-negative ``int``, or ``VENDOR_INVALID_EVENT``."""
    value = data.get("contentBlockIndex")
    # type() is int, never isinstance: True would find block 1 (True == 1).
    if type(value) is not int or value < 0:
        invalid(index, "contentBlockIndex", "a non-negative integer", value)
    return value


def count_at(data: dict[str, Any], key: str, index: int, *, parent: str) -> int | None:
    """``data[key]`` as a count (an ``int`` from 0 to 2**53 - 1), ``None`` when absent.

    Raises ``VENDOR_INVALID_EVENT`` naming ``parent.key`` for anything else (null included).
    """
    if key not in data:
        return None
    return token_count(data[key], vendor=WIRE, index=index, path=f"{parent}.{key}")
