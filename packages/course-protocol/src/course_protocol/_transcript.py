"""Whole-transcript checks: how Tool calls and Tool results pair up."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum, unique
from typing import cast

from course_protocol._json import is_frozen_json_object
from course_protocol._messages import (
    CourseAssistantMessage,
    CourseTextBlock,
    CourseToolCall,
    CourseToolResultMessage,
    CourseUserMessage,
)
from course_protocol.untrusted import is_blank, sequence_snapshot, type_name

__all__ = ["TranscriptIssue", "TranscriptIssueCode", "validate_transcript"]


@unique
class TranscriptIssueCode(StrEnum):
    """What is wrong with a transcript; each code says exactly one thing."""

    INVALID_TRANSCRIPT = "INVALID_TRANSCRIPT"
    """The transcript is not a list or tuple."""
    INVALID_MESSAGE = "INVALID_MESSAGE"
    """An element is not exactly a course message, or one of its fields is broken."""
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


class _BrokenMessageError(Exception):
    """A field of an exact-type message is unset or of the wrong type."""


@dataclass(frozen=True, slots=True)
class _Link:
    """One end of a Tool call's pairing: a call in an assistant message, or its result."""

    message_index: int
    call_id: str
    name: str | None


def _field(message: object, name: str) -> object:
    # Only exact course types reach here: their attributes are slots, so the
    # one thing a read can do is raise AttributeError for a slot never set.
    try:
        return getattr(message, name)
    except AttributeError:
        raise _BrokenMessageError(f"field {name} is unset") from None


def _str_field(message: object, name: str) -> str:
    value = _field(message, name)
    if type(value) is not str:
        raise _BrokenMessageError(f"field {name} is a {type_name(value)}, not a str")
    return value


def _name_or_none(value: object) -> str | None:
    if type(value) is str and not is_blank(value):
        return value
    return None


def _read_assistant(index: int, message: object, issues: list[TranscriptIssue]) -> list[_Link]:
    _str_field(message, "id")
    content = _field(message, "content")
    if type(content) is not tuple:
        raise _BrokenMessageError(f"field content is a {type_name(content)}, not a tuple")
    calls: list[_Link] = []
    for position, block in enumerate(cast(tuple[object, ...], content)):
        kind = type(block)
        if kind is CourseTextBlock:
            _str_field(block, "text")
            continue
        if kind is not CourseToolCall:
            raise _BrokenMessageError(f"content[{position}] is a {type_name(block)}")
        call_id = _str_field(block, "id")
        name = _name_or_none(_field(block, "name"))
        if name is None:
            detail = f"content[{position}]: Tool call {call_id!r} has no Tool name"
            issues.append(TranscriptIssue(TranscriptIssueCode.EMPTY_TOOL_NAME, index, detail))
        if not is_frozen_json_object(_field(block, "arguments")):
            detail = (
                f"content[{position}]: arguments of Tool call {call_id!r} "
                "are not a frozen JSON object"
            )
            issues.append(
                TranscriptIssue(TranscriptIssueCode.INVALID_TOOL_ARGUMENTS, index, detail)
            )
        calls.append(_Link(index, call_id, name))
    return calls


def _read_result(index: int, message: object, issues: list[TranscriptIssue]) -> _Link:
    _str_field(message, "id")
    call_id = _str_field(message, "tool_call_id")
    _str_field(message, "content")
    is_error = _field(message, "is_error")
    if type(is_error) is not bool:
        raise _BrokenMessageError(f"field is_error is a {type_name(is_error)}, not a bool")
    name = _name_or_none(_field(message, "tool_name"))
    if name is None:
        detail = f"Tool result for {call_id!r} has no Tool name"
        issues.append(TranscriptIssue(TranscriptIssueCode.EMPTY_TOOL_NAME, index, detail))
    return _Link(index, call_id, name)


def _read(index: int, message: object, issues: list[TranscriptIssue]) -> list[_Link] | _Link | None:
    """What one message contributes to the pairing (its calls, or its result); reports problems."""
    kind = type(message)
    found: list[TranscriptIssue] = []
    try:
        if kind is CourseUserMessage:
            _str_field(message, "id")
            _str_field(message, "content")
            return None
        if kind is CourseAssistantMessage:
            calls = _read_assistant(index, message, found)
            issues.extend(found)
            return calls
        if kind is CourseToolResultMessage:
            result = _read_result(index, message, found)
            issues.extend(found)
            return result
        detail = f"not a course message: {type_name(message)}"
    except _BrokenMessageError as broken:
        detail = str(broken)
    issues.append(TranscriptIssue(TranscriptIssueCode.INVALID_MESSAGE, index, detail))
    return None


def _pair(parts: list[list[_Link] | _Link | None], issues: list[TranscriptIssue]) -> None:
    later_calls = {
        call.call_id: call.message_index
        for part in reversed(parts)
        if isinstance(part, list)
        for call in reversed(part)
    }
    calls: dict[str, _Link] = {}
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
    result: _Link,
    calls: dict[str, _Link],
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
    ``INVALID_MESSAGE`` and take no part in the pairing. Never raises,
    whatever it is given.
    """
    items = sequence_snapshot(messages)
    if items is None:
        detail = f"a transcript is a list or tuple of messages, not {type_name(messages)}"
        return (TranscriptIssue(TranscriptIssueCode.INVALID_TRANSCRIPT, None, detail),)
    issues: list[TranscriptIssue] = []
    parts = [_read(index, message, issues) for index, message in enumerate(items)]
    _pair(parts, issues)
    # Stable: within one message, issues keep the order they were found in.
    return tuple(sorted(issues, key=lambda issue: cast(int, issue.message_index)))
