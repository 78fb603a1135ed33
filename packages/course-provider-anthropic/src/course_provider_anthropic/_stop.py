"""The vendor's stop reasons: the three the course can express, and the failure of the rest."""

from __future__ import annotations

from typing import Any, NoReturn

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
}


def course_stop_reason(reason: str, delta: dict[str, Any], index: int) -> CourseStopReason:
    """The course stop reason for the vendor's ``reason`` (the ``delta`` of a ``message_delta``).

    ``end_turn`` and ``stop_sequence`` are ``STOP``, ``tool_use`` is
    ``TOOL_CALL``. Raises `VendorError` with ``vendor_type`` = ``reason``
    otherwise: ``VENDOR_REFUSAL`` for ``refusal`` (``vendor_message`` the
    vendor's explanation and ``vendor_code`` its category, when
    ``stop_details`` has them), ``VENDOR_INCOMPLETE`` for any other reason
    (``max_tokens``, ``pause_turn``, ``model_context_window_exceeded``, or one
    not invented yet).
    """
    mapped = _STOP_REASONS.get(reason)
    if mapped is None:
        _refuse_reason(reason, delta, index)
    return mapped


def _refuse_reason(reason: str, delta: dict[str, Any], index: int) -> NoReturn:
    if reason == _wire.REFUSAL:
        details = delta.get(_wire.STOP_DETAILS_KEY)
        explanation = details.get(_wire.EXPLANATION_KEY) if type(details) is dict else None
        category = details.get(_wire.CATEGORY_KEY) if type(details) is dict else None
        fail(
            VendorErrorCode.VENDOR_REFUSAL,
            index,
            f"the model refused to answer ({_wire.STOP_REASON_KEY} {reason!r})",
            vendor_type=reason,
            vendor_code=category if type(category) is str else None,
            vendor_message=explanation if type(explanation) is str else None,
        )
    fail(
        VendorErrorCode.VENDOR_INCOMPLETE,
        index,
        f"the response stopped for {shown(reason)!r}, "
        "which the course cannot express; no response is produced",
        vendor_type=reason,
    )
