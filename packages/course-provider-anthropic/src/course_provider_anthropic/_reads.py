"""Reads of one decoded event's fields, and how a read fails: naming the event and the field."""

from __future__ import annotations

from typing import Any, Final

from course_protocol import MAX_TOKEN_COUNT
from course_protocol.untrusted import ABSENT
from course_provider_anthropic import _wire
from course_vendor import EventFailures, token_count

__all__ = [
    "FAILURES",
    "block_index",
    "fail",
    "fail_invalid",
    "fail_order",
    "input_tokens",
    "invalid",
    "object_at",
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


def block_index(data: dict[str, Any], index: int) -> int:
    """The event's block ``index``: a non-negative ``int``, or ``VENDOR_INVALID_EVENT``."""
    value = data.get(_wire.INDEX_KEY, ABSENT)
    # type() is int, never isinstance: True would find block 1 (True == 1).
    if type(value) is not int or value < 0:
        invalid(index, _wire.INDEX_KEY, "a non-negative integer", value)
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
    for key in (_wire.CACHE_CREATION_INPUT_TOKENS_KEY, _wire.CACHE_READ_INPUT_TOKENS_KEY):
        cached = usage.get(key)
        if cached is not None:
            total += token_count(cached, vendor=_wire.VENDOR, index=index, path=f"{path}.{key}")
    value = usage.get(_wire.INPUT_TOKENS_KEY)
    if value is None:
        return None
    path = f"{path}.{_wire.INPUT_TOKENS_KEY}"
    total += token_count(value, vendor=_wire.VENDOR, index=index, path=path)
    if total > MAX_TOKEN_COUNT:
        fail_invalid(f"{path} and the cache counts add up past 2**53 - 1", index)
    return total
