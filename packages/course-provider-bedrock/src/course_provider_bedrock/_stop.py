"""The vendor's stop reasons as the course's, and the failure of the ones it cannot express."""

from __future__ import annotations

from typing import Final

from course_http import VendorErrorCode
from course_protocol import CourseStopReason
from course_protocol.untrusted import shown
from course_provider_bedrock._reads import fail

__all__ = ["STOP_REASONS", "course_stop_reason"]

STOP_REASONS: Final = {
    "end_turn": CourseStopReason.STOP,
    "stop_sequence": CourseStopReason.STOP,
    "tool_use": CourseStopReason.TOOL_CALL,
    "max_tokens": CourseStopReason.LENGTH,
    "guardrail_intervened": CourseStopReason.REFUSAL,
    "content_filtered": CourseStopReason.REFUSAL,
}
"""Every documented stop reason the course expresses: a guardrail or the content filter that
stopped the answer is the course's refusal (the message holds what came before it)."""


def course_stop_reason(reason: str, index: int) -> CourseStopReason:
    """The course stop reason of ``messageStop``'s ``stopReason`` ``reason`` (event ``index``).

    Raises `VendorError` ``VENDOR_INCOMPLETE`` (``vendor_type`` = ``reason``)
    for any other (``malformed_model_output``, ``malformed_tool_use``,
    ``model_context_window_exceeded``, or one not invented yet): the
    response stopped for a reason the course cannot express.
    """
    mapped = STOP_REASONS.get(reason)
    if mapped is None:
        fail(
            VendorErrorCode.VENDOR_INCOMPLETE,
            index,
            f"the response stopped for {shown(reason)!r}, "
            "which the course cannot express; no response is produced",
            vendor_type=reason,
        )
    return mapped
