"""What `validate_transcript` reports: one `TranscriptIssue` per problem, with its code."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum, unique

__all__ = ["TranscriptIssue", "TranscriptIssueCode"]


@unique
class TranscriptIssueCode(StrEnum):
    """What is wrong with a transcript; each code says exactly one thing."""

    INVALID_TRANSCRIPT = "INVALID_TRANSCRIPT"
    """The transcript is not a list or tuple."""
    INVALID_MESSAGE = "INVALID_MESSAGE"
    """An element is not exactly a course message, or one of its fields or blocks is broken."""
    DUPLICATE_TOOL_CALL_ID = "DUPLICATE_TOOL_CALL_ID"
    """A Tool call reuses the id of an earlier Tool call."""
    DUPLICATE_TOOL_RESULT = "DUPLICATE_TOOL_RESULT"
    """A Tool result answers a call that an earlier Tool result already answered."""
    ORPHAN_TOOL_RESULT = "ORPHAN_TOOL_RESULT"
    """A Tool result answers an id that no Tool call in the transcript has."""
    TOOL_RESULT_BEFORE_CALL = "TOOL_RESULT_BEFORE_CALL"
    """A Tool result comes before the Tool call it answers."""
    MISSING_TOOL_RESULT = "MISSING_TOOL_RESULT"
    """A Tool call has no Tool result after it (a trailing, unanswered call included)."""
    TOOL_NAME_MISMATCH = "TOOL_NAME_MISMATCH"
    """A Tool result names a different Tool than the call it answers."""
    EMPTY_TOOL_NAME = "EMPTY_TOOL_NAME"
    """A Tool call or Tool result has an empty, blank or non-str Tool name."""
    INVALID_TOOL_ARGUMENTS = "INVALID_TOOL_ARGUMENTS"
    """A Tool call's arguments are not a deeply frozen JSON object."""


@dataclass(frozen=True, slots=True)
class TranscriptIssue:
    """One problem found by :func:`validate_transcript`.

    ``message_index`` is the index of the message the problem belongs to,
    or ``None`` when it belongs to the transcript as a whole.
    """

    code: TranscriptIssueCode
    message_index: int | None
    detail: str
