"""The vendor's stop reasons as the course's, and the failure of one the course cannot express."""

from __future__ import annotations

from typing import NoReturn

from course_http import VendorErrorCode
from course_protocol import CourseStopReason
from course_protocol.untrusted import shown
from course_provider_anthropic import _wire
from course_provider_anthropic._reads import fail

__all__ = ["course_stop_reason"]

_STOP_REASONS = {
    _wire.END_TURN: CourseStopReason.STOP,
    _wire.STOP_SEQUENCE: CourseStopReason.STOP,
    _wire.TOOL_USE: CourseStopReason.TOOL_CALL,
    _wire.MAX_TOKENS: CourseStopReason.LENGTH,
    # The context window is an output limit too: the answer was cut where it filled up.
    _wire.MODEL_CONTEXT_WINDOW_EXCEEDED: CourseStopReason.LENGTH,
    _wire.REFUSAL: CourseStopReason.REFUSAL,
    _wire.PAUSE_TURN: CourseStopReason.PAUSE_TURN,
    # With ``pause_after_compaction`` the vendor stops after its compaction block so the
    # loop can add to the turn; the loop continues it by sending the message back, as
    # after ``pause_turn``.
    _wire.COMPACTION: CourseStopReason.PAUSE_TURN,
}


def course_stop_reason(reason: str, index: int) -> CourseStopReason:
    """The course stop reason for the vendor's ``reason`` (of the ``message_delta`` ``index``).

    ``end_turn`` and ``stop_sequence`` are ``STOP``, ``tool_use`` is
    ``TOOL_CALL``, ``max_tokens`` and ``model_context_window_exceeded`` are
    ``LENGTH``, ``refusal`` is ``REFUSAL``, ``pause_turn`` and
    ``compaction`` are ``PAUSE_TURN``. Raises `VendorError` ``VENDOR_INCOMPLETE`` with
    ``vendor_type`` = ``reason`` for any other one (one not invented yet).
    """
    mapped = _STOP_REASONS.get(reason)
    if mapped is None:
        _refuse_reason(reason, index)
    return mapped


def _refuse_reason(reason: str, index: int) -> NoReturn:
    fail(
        VendorErrorCode.VENDOR_INCOMPLETE,
        index,
        f"the response stopped for {shown(reason)!r}, "
        "which the course cannot express; no response is produced",
        vendor_type=reason,
    )
