"""How the mapping ends a response: each finish reason as a course stop reason, or a failure."""

from __future__ import annotations

from typing import NoReturn

from course_http import VendorErrorCode
from course_protocol import CourseStopReason
from course_protocol.untrusted import shown
from course_provider_gemini import _wire
from course_provider_gemini._reads import fail

__all__ = ["course_stop_reason", "refuse_prompt"]


def course_stop_reason(
    reason: str, finish_message: str | None, called: bool, index: int
) -> CourseStopReason:
    """The course stop reason of the finish reason ``reason`` of a candidate.

    ``STOP`` is ``TOOL_CALL`` when the answer made a Tool call (``called``),
    else ``STOP``: the vendor has no reason of its own for a Tool call.
    ``MAX_TOKENS`` is ``LENGTH`` (the answer is what came whole before the
    limit; the grammar drops a call the limit cut while it streamed). An answer the
    vendor withheld (``SAFETY``, ``RECITATION``, ``BLOCKLIST``,
    ``PROHIBITED_CONTENT``, ``SPII``, the ``IMAGE_*`` ones, ``MODEL_ARMOR``,
    ``ESCALATION``) is ``REFUSAL``. Raises `VendorError`
    ``VENDOR_INCOMPLETE`` with ``vendor_type`` = ``reason`` and
    ``vendor_message`` = ``finish_message`` for any other
    (``MALFORMED_FUNCTION_CALL``, whose call never came, ``OTHER``, or one
    not invented yet): fail closed.
    """
    if reason == _wire.STOP:
        return CourseStopReason.TOOL_CALL if called else CourseStopReason.STOP
    stop_reason = _STOP_REASONS.get(reason)
    if stop_reason is None:
        fail(
            VendorErrorCode.VENDOR_INCOMPLETE,
            index,
            f"the response stopped for {shown(reason)!r}, which the course cannot express; "
            "no response is produced",
            vendor_type=reason,
            vendor_message=finish_message,
        )
    return stop_reason


_STOP_REASONS: dict[str, CourseStopReason] = {
    _wire.MAX_TOKENS: CourseStopReason.LENGTH,
    **dict.fromkeys(_wire.REFUSED_REASONS, CourseStopReason.REFUSAL),
}


def refuse_prompt(reason: str, message: str | None, index: int) -> NoReturn:
    """Raise ``VENDOR_REFUSAL`` for a prompt the vendor blocked (``promptFeedback.blockReason``).

    For a body that gave no ``responseId`` or ``promptTokenCount`` to answer
    with. ``vendor_type`` is ``reason`` (``SAFETY``, ``OTHER``, ...),
    ``vendor_message`` the ``blockReasonMessage``, when there is one.
    """
    fail(
        VendorErrorCode.VENDOR_REFUSAL,
        index,
        f"the vendor blocked the prompt (blockReason {shown(reason)!r})",
        vendor_type=reason,
        vendor_message=message,
    )
