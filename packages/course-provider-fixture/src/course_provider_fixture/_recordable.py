"""What a schema-1 fixture can hold of a response: the reference's vocabulary, and nothing else."""

from __future__ import annotations

from typing import Final

from course_protocol import (
    CourseModelResponse,
    CourseStopReason,
    CourseTextBlock,
    CourseToolCall,
)
from course_provider_fixture import _wire

__all__ = ["SCHEMA_HOLDS", "WIRE_STOP_REASONS", "check_recordable"]

WIRE_STOP_REASONS: Final = {
    CourseStopReason.STOP: _wire.WIRE_STOP,
    CourseStopReason.TOOL_CALL: _wire.WIRE_TOOL_CALL_STOP,
}
"""The course stop reasons a fixture records, and the wire stop reason each is recorded as."""

SCHEMA_HOLDS: Final = (
    "a schema-1 fixture holds text deltas, whole Tool calls, the stop reasons stop and "
    "toolCall and two usage counts, the reference's vocabulary, and nothing else"
)


def check_recordable(response: CourseModelResponse) -> None:
    """Raise ``ValueError`` for a response a schema-1 fixture cannot replay as it was.

    The message is rebuilt from the chunks on replay, so its text and Tool
    calls need no record of their own; anything else would be dropped in
    silence, so it is refused instead.
    """
    what = _unrecordable(response)
    if what is not None:
        raise ValueError(f"the recorded model answered with {what}; {SCHEMA_HOLDS}")


def _unrecordable(response: CourseModelResponse) -> str | None:
    if response.stop_reason not in WIRE_STOP_REASONS:
        return f"the stop reason {response.stop_reason.value}"
    usage = response.usage
    parts = (usage.cache_read_tokens, usage.cache_write_tokens, usage.reasoning_tokens)
    if any(count is not None for count in parts):
        return "cached or reasoning token counts"
    for position, block in enumerate(response.message.content):
        where = f"message.content[{position}]"
        if type(block) is CourseTextBlock:
            if block.citations or block.opaque is not None:
                return f"citations or opaque data on text ({where})"
        elif type(block) is not CourseToolCall:
            return f"a {type(block).__qualname__} ({where})"
        elif block.opaque is not None:
            return f"opaque data on a Tool call ({where})"
    return None
