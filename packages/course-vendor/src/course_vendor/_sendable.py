"""The transcript check every vendor call makes before its body is built: can it be sent?"""

from __future__ import annotations

from course_http import VendorError, VendorErrorCode
from course_protocol import CourseModelRequest, validate_transcript

__all__ = ["check_sendable"]


def check_sendable(request: CourseModelRequest, vendor: str) -> None:
    """Refuse a transcript no vendor API accepts, before anything is built or sent.

    `VendorModel.stream` runs it once per call, before the vendor's body
    conversion, which may then rely on what it guarantees. Raises
    `VendorError` ``VENDOR_INVALID_REQUEST`` (``vendor``) when the transcript
    is empty (there is nothing to answer) or ``validate_transcript`` finds an
    issue (its code and detail are quoted, the message naming
    ``messages[N]``): every vendor refuses a Tool result without its call, or
    a call left unanswered, with a 400 that costs a round trip.
    """
    if not request.messages:
        raise VendorError(
            VendorErrorCode.VENDOR_INVALID_REQUEST,
            "messages: the transcript is empty; there is nothing to answer",
            vendor=vendor,
        )
    issues = validate_transcript(request.messages)
    if issues:
        issue = issues[0]
        where = "messages" if issue.message_index is None else f"messages[{issue.message_index}]"
        raise VendorError(
            VendorErrorCode.VENDOR_INVALID_REQUEST,
            f"{where}: {issue.code}: {issue.detail}",
            vendor=vendor,
        )
