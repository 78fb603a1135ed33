"""Reads of one decoded event's fields, and how a read fails: naming the event and the field."""

from __future__ import annotations

from typing import Any, Final, NoReturn

from course_http import VendorErrorCode
from course_protocol import MAX_TOKEN_COUNT, is_blank
from course_provider_anthropic import _wire
from course_vendor import EventFailures, token_count

__all__ = [
    "SHOWN_LENGTH",
    "block_index",
    "fail",
    "fail_invalid",
    "fail_order",
    "input_tokens",
    "object_at",
    "shown",
    "text_at",
]

SHOWN_LENGTH = 200
"""How much of a vendor's string goes into our message; the whole of it is in the error's fields."""


def shown(value: object) -> str:
    """How a bad value is named in a message: a small integer itself, anything else by its kind.

    Untrusted text is never echoed (it could be huge, or forge a line of a log).
    """
    if value is None:
        return "null"
    if type(value) is int and -(10**9) < value < 10**9:
        return repr(value)
    return type(value).__name__


fail: Final = EventFailures(_wire.VENDOR).fail
"""``fail(code, index, message, *, vendor_type=..., ...)``: raise ``code`` about event ``index``."""


def fail_invalid(message: str, index: int) -> NoReturn:
    """Raise ``VENDOR_INVALID_EVENT`` for event ``index``."""
    fail(VendorErrorCode.VENDOR_INVALID_EVENT, index, message)


def fail_order(message: str, index: int) -> NoReturn:
    """Raise ``VENDOR_EVENT_ORDER`` for event ``index``."""
    fail(VendorErrorCode.VENDOR_EVENT_ORDER, index, message)


def object_at(data: dict[str, Any], key: str, path: str, index: int) -> dict[str, Any]:
    """``data[key]`` as a JSON object, or ``VENDOR_INVALID_EVENT`` naming ``path``."""
    value = data.get(key)
    if type(value) is not dict:
        fail_invalid(f"{path} must be an object, got {shown(value)}", index)
    return value


def text_at(data: dict[str, Any], key: str, path: str, index: int, *, non_blank: bool) -> str:
    """``data[key]`` as a ``str`` (non-blank when asked), or ``VENDOR_INVALID_EVENT``."""
    value = data.get(key)
    if type(value) is not str or (non_blank and is_blank(value)):
        wanted = "a non-blank string" if non_blank else "a string"
        got = "blank text" if type(value) is str else shown(value)
        fail_invalid(f"{path} must be {wanted}, got {got}", index)
    return value


def block_index(data: dict[str, Any], index: int) -> int:
    """The event's block ``index``: a non-negative ``int``, or ``VENDOR_INVALID_EVENT``."""
    value = data.get(_wire.INDEX)
    # type() is int, never isinstance: True would find block 1 (True == 1).
    if type(value) is not int or value < 0:
        fail_invalid(f"{_wire.INDEX} must be a non-negative integer, got {shown(value)}", index)
    return value


def input_tokens(usage: dict[str, Any], path: str, index: int) -> int | None:
    """All input tokens of ``usage``: ``input_tokens`` plus both cache counts.

    The vendor counts cached input apart (its total input is the sum of the
    three); the course has one input count, so it gets the total, as an
    OpenAI prompt count includes its cached tokens. ``None`` when
    ``input_tokens`` is absent or null (the cache counts are checked anyway).
    Raises ``VENDOR_INVALID_EVENT`` for a count that is not a token count, or
    a sum past 2**53 - 1.
    """
    total = 0
    for key in (_wire.CACHE_CREATION_INPUT_TOKENS, _wire.CACHE_READ_INPUT_TOKENS):
        cached = usage.get(key)
        if cached is not None:
            total += token_count(cached, vendor=_wire.VENDOR, index=index, path=f"{path}.{key}")
    value = usage.get(_wire.INPUT_TOKENS)
    if value is None:
        return None
    path = f"{path}.{_wire.INPUT_TOKENS}"
    total += token_count(value, vendor=_wire.VENDOR, index=index, path=path)
    if total > MAX_TOKEN_COUNT:
        fail_invalid(f"{path} and the cache counts add up past 2**53 - 1", index)
    return total
