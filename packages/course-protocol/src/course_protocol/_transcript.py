"""Whole-transcript checks: how Tool calls and Tool results pair up."""

from __future__ import annotations

from typing import cast

from course_protocol._issues import TranscriptIssue, TranscriptIssueCode
from course_protocol._message_reads import Link, read_message
from course_protocol.untrusted import sequence_snapshot, type_name

__all__ = ["TranscriptIssue", "TranscriptIssueCode", "validate_transcript"]


def _pair(parts: list[list[Link] | Link | None], issues: list[TranscriptIssue]) -> None:
    later_calls = {
        call.call_id: call.message_index
        for part in reversed(parts)
        if isinstance(part, list)
        for call in reversed(part)
    }
    calls: dict[str, Link] = {}
    answered: set[str] = set()
    for part in parts:
        if isinstance(part, list):
            for call in part:
                if call.call_id in calls:
                    detail = (
                        f"Tool call id {call.call_id!r} was already used by message "
                        f"{calls[call.call_id].message_index}"
                    )
                    code = TranscriptIssueCode.DUPLICATE_TOOL_CALL_ID
                    issues.append(TranscriptIssue(code, call.message_index, detail))
                else:
                    calls[call.call_id] = call
            continue
        if part is None:
            continue
        _pair_result(part, calls, answered, later_calls, issues)
    for call in calls.values():
        if call.call_id not in answered:
            detail = f"Tool call {call.call_id!r} has no Tool result after it"
            code = TranscriptIssueCode.MISSING_TOOL_RESULT
            issues.append(TranscriptIssue(code, call.message_index, detail))


def _pair_result(
    result: Link,
    calls: dict[str, Link],
    answered: set[str],
    later_calls: dict[str, int],
    issues: list[TranscriptIssue],
) -> None:
    call_id = result.call_id
    call = calls.get(call_id)
    if call is not None and call_id in answered:
        code = TranscriptIssueCode.DUPLICATE_TOOL_RESULT
        detail = f"Tool call {call_id!r} was already answered"
    elif call is not None:
        answered.add(call_id)
        if result.name is None or call.name is None or result.name == call.name:
            return
        code = TranscriptIssueCode.TOOL_NAME_MISMATCH
        detail = f"Tool result for {call_id!r} names {result.name!r}, its call {call.name!r}"
    elif call_id in later_calls:
        code = TranscriptIssueCode.TOOL_RESULT_BEFORE_CALL
        detail = f"Tool result for {call_id!r} comes before its call in message "
        detail += str(later_calls[call_id])
    else:
        code = TranscriptIssueCode.ORPHAN_TOOL_RESULT
        detail = f"Tool result for {call_id!r} answers no Tool call"
    issues.append(TranscriptIssue(code, result.message_index, detail))


def validate_transcript(messages: object) -> tuple[TranscriptIssue, ...]:
    """Every problem in a transcript, in message order, each with its message index.

    ``messages`` should be a list or tuple of course messages (subclasses of
    list/tuple are read through the base type only). No issues means the
    transcript is ready for the next model call: every Tool call is answered
    by exactly one later Tool result with the same Tool name. An assistant
    message whose Tool calls still await their results therefore counts as
    ``MISSING_TOOL_RESULT``: validate after appending the results. Elements
    that are not exactly a course message type (subclasses included) are
    ``INVALID_MESSAGE`` and take no part in the pairing. So is a message
    built past its constructor with a block it cannot hold (reasoning,
    vendor-tool blocks and Tool calls belong in assistant messages only;
    images, documents and plain text in user content and Tool results) or
    a broken field; a broken opaque payload (not a ``CourseOpaque`` with a
    non-blank wire and a frozen JSON object) is an ``INVALID_MESSAGE`` of
    its own, and its message still takes part in the pairing. Never
    raises, whatever it is given.
    """
    items = sequence_snapshot(messages)
    if items is None:
        detail = f"a transcript is a list or tuple of messages, not {type_name(messages)}"
        return (TranscriptIssue(TranscriptIssueCode.INVALID_TRANSCRIPT, None, detail),)
    issues: list[TranscriptIssue] = []
    parts = [read_message(index, message, issues) for index, message in enumerate(items)]
    _pair(parts, issues)
    # Stable: within one message, issues keep the order they were found in.
    return tuple(sorted(issues, key=lambda issue: cast(int, issue.message_index)))
