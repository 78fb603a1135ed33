"""How the mapping ends a response: the finish reasons the course can express, the refusals."""

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
    Raises `VendorError` with ``vendor_type`` = ``reason`` and
    ``vendor_message`` = ``finish_message`` otherwise (fail closed):
    ``VENDOR_REFUSAL`` for an answer the vendor withheld (``SAFETY``,
    ``RECITATION``, ``BLOCKLIST``, ``PROHIBITED_CONTENT``, ``SPII`` and the
    ``IMAGE_*`` ones), ``VENDOR_INCOMPLETE`` for any other (``MAX_TOKENS``,
    ``MALFORMED_FUNCTION_CALL``, ``OTHER``, or one not invented yet).
    """
    if reason != _wire.STOP:
        _refuse(reason, finish_message, index)
    return CourseStopReason.TOOL_CALL if called else CourseStopReason.STOP


def _refuse(reason: str, finish_message: str | None, index: int) -> NoReturn:
    quoted = shown(reason)
    if reason in _wire.REFUSED_REASONS:
        fail(
            VendorErrorCode.VENDOR_REFUSAL,
            index,
            f"the vendor withheld the answer (finishReason {quoted!r})",
            vendor_type=reason,
            vendor_message=finish_message,
        )
    fail(
        VendorErrorCode.VENDOR_INCOMPLETE,
        index,
        f"the response stopped for {quoted!r}, which the course cannot express; "
        "no response is produced",
        vendor_type=reason,
        vendor_message=finish_message,
    )


def refuse_prompt(reason: str, message: str | None, index: int) -> NoReturn:
    """Raise ``VENDOR_REFUSAL`` for a prompt the vendor blocked (``promptFeedback.blockReason``).

    ``vendor_type`` is ``reason`` (``SAFETY``, ``OTHER``, ...), ``vendor_message``
    the ``blockReasonMessage``, when there is one.
    """
    fail(
        VendorErrorCode.VENDOR_REFUSAL,
        index,
        f"the vendor blocked the prompt (blockReason {shown(reason)!r})",
        vendor_type=reason,
        vendor_message=message,
    )
