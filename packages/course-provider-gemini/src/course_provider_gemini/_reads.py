"""Reads of one decoded chunk's fields, and how a read fails: naming the event and the field."""

from __future__ import annotations

from typing import Any, Final

from course_provider_gemini import _wire
from course_vendor import EventFailures, token_count

__all__ = [
    "FAILURES",
    "count_at",
    "fail",
    "fail_invalid",
    "fail_order",
    "invalid",
    "object_at",
    "optional_object",
    "optional_text",
    "text_at",
]

FAILURES: Final = EventFailures(_wire.VENDOR)
"""How this package's events fail, and the kit's field reads bound to this vendor."""

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


def optional_object(data: dict[str, Any], key: str, index: int, path: str) -> dict[str, Any] | None:
    """``data[key]`` as a JSON object, or ``None`` when absent or null; else invalid."""
    value = data.get(key)
    if value is not None and type(value) is not dict:
        invalid(index, path, "an object", value)
    return value


def optional_text(
    data: dict[str, Any], key: str, index: int, path: str, *, non_blank: bool = False
) -> str | None:
    """``data[key]`` as a ``str`` (not blank, when asked), or ``None`` when absent or null."""
    value = data.get(key)
    if value is None:
        return None
    if type(value) is not str or (non_blank and not value.strip()):
        invalid(index, path, "a non-blank string" if non_blank else "a string", value)
    return value


def count_at(data: dict[str, Any], key: str, index: int, path: str) -> int | None:
    """``data[key]`` as a token count, or ``None`` when absent or null; else invalid."""
    value = data.get(key)
    if value is None:
        return None
    return token_count(value, vendor=_wire.VENDOR, index=index, path=path)
