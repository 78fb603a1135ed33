"""Reads of one decoded Responses event's fields; each fails ``VENDOR_INVALID_EVENT`` naming it."""

from __future__ import annotations

from typing import Any

from course_protocol import is_blank
from course_provider_openai._failures import RESPONSES_FAILURES

__all__ = ["name_at", "object_at", "text_at"]

_invalid = RESPONSES_FAILURES.invalid


def object_at(data: dict[str, Any], key: str, index: int) -> dict[str, Any]:
    """``data[key]`` as a JSON object; raises ``VENDOR_INVALID_EVENT`` naming ``key`` otherwise."""
    value = data.get(key)
    if type(value) is not dict:
        _invalid(index, key, "an object", value)
    return value


def name_at(data: dict[str, Any], key: str, path: str, index: int) -> str:
    """``data[key]`` as a non-blank ``str`` (an id or a name); else ``VENDOR_INVALID_EVENT``."""
    value = data.get(key)
    if type(value) is not str or is_blank(value):
        _invalid(index, f"{path}.{key}", "a non-blank string", value)
    return value


def text_at(data: dict[str, Any], key: str, index: int) -> str:
    """``data[key]`` as a ``str``, empty allowed; raises ``VENDOR_INVALID_EVENT`` otherwise."""
    value = data.get(key)
    if type(value) is not str:
        _invalid(index, key, "a string", value)
    return value
