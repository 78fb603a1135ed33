"""Reads of one decoded chunk's fields, and how a read fails: naming the event and the field.

Blank means what ``course_protocol.untrusted.is_blank`` says, the one rule of
the workspace, never ``str.strip``.
"""

from __future__ import annotations

from typing import Any, Final

from returns.result import Failure

from course_protocol import JsonObject, freeze_json_object
from course_protocol.untrusted import is_blank
from course_provider_gemini import _wire
from course_vendor import EventFailures, token_count

__all__ = [
    "FAILURES",
    "count_at",
    "fail",
    "fail_invalid",
    "fail_order",
    "frozen_array",
    "frozen_object",
    "invalid",
    "object_at",
    "optional_bool",
    "optional_object",
    "optional_text",
    "text_at",
]

FAILURES: Final = EventFailures(_wire.WIRE)
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


def optional_object(data: dict[str, Any], key: str, index: int, path: str) -> dict[str, Any] | None:
    """``data[key]`` as a JSON object, or ``None`` when absent or null; else invalid."""
    value = data.get(key)
    if value is not None and type(value) is not dict:
        invalid(index, path, "an object", value)
    return value


def optional_text(
    data: dict[str, Any], key: str, index: int, path: str, *, non_blank: bool = False
) -> str | None:
    """``data[key]`` as a ``str`` (not blank, when asked), or ``None`` when absent or null.

    Raises `invalid` (``VENDOR_INVALID_EVENT``) naming ``path`` for another
    type, or for blank text (``is_blank``) where ``non_blank`` forbids it
    (said as ``got blank text``).
    """
    value = data.get(key)
    if value is None:
        return None
    if type(value) is not str:
        invalid(index, path, "a non-blank string" if non_blank else "a string", value)
    if non_blank and is_blank(value):
        fail_invalid(f"{path} must be a non-blank string, got blank text", index)
    return value


def optional_bool(data: dict[str, Any], key: str, index: int, path: str) -> bool:
    """``data[key]`` as a ``bool``, ``False`` when absent or null; else invalid."""
    value = data.get(key)
    if value is None:
        return False
    if type(value) is not bool:
        invalid(index, path, "a boolean", value)
    return value


def count_at(data: dict[str, Any], key: str, index: int, path: str) -> int | None:
    """``data[key]`` as a token count (0 to 2**53 - 1), or ``None`` when absent or null."""
    value = data.get(key)
    if value is None:
        return None
    return token_count(value, vendor=_wire.WIRE, index=index, path=path)


def frozen_object(value: object, index: int, path: str) -> JsonObject:
    """``value`` as a frozen JSON object; else ``VENDOR_INVALID_EVENT`` naming ``path``.

    Refused: anything but a ``dict``, and an object the course's JSON refuses
    (nesting past ``JSON_MAX_DEPTH``), named by the bad value's path.
    """
    if type(value) is not dict:
        invalid(index, path, "an object", value)
    frozen = freeze_json_object(value, path)
    if isinstance(frozen, Failure):
        problem = frozen.failure()
        fail_invalid(f"{problem.path} {problem.message}", index)
    return frozen.unwrap()


def frozen_array(value: object, index: int, path: str) -> tuple[JsonObject, ...]:
    """``value`` as a tuple of frozen JSON objects; invalid unless an array of objects."""
    if type(value) is not list:
        invalid(index, path, "an array", value)
    return tuple(
        frozen_object(item, index, f"{path}[{number}]") for number, item in enumerate(value)
    )
