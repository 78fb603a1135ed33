"""What one message of a transcript holds, read again past its constructor.

A message built with ``object.__new__`` and ``object.__setattr__`` skips
every constructor check, so each field and block is read again here, by
exact type: a broken one is an ``INVALID_MESSAGE`` issue, never an exception.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from course_protocol._blocks import (
    CourseReasoningBlock,
    CourseTextBlock,
    CourseToolCall,
    CourseVendorToolBlock,
    is_assistant_block_type,
)
from course_protocol._issues import TranscriptIssue, TranscriptIssueCode
from course_protocol._json import frozen_json_error, is_frozen_json_object
from course_protocol._media import CourseDocumentBlock, CourseImageBlock
from course_protocol._messages import (
    CourseAssistantMessage,
    CourseToolResultMessage,
    CourseUserMessage,
)
from course_protocol._opaque import CourseOpaque
from course_protocol.untrusted import is_blank, type_name

__all__ = ["Link", "read_message"]


class _BrokenMessageError(Exception):
    """A field of an exact-type message is unset or of the wrong type."""


@dataclass(frozen=True, slots=True)
class Link:
    """One end of a Tool call's pairing: a call in an assistant message, or its result."""

    message_index: int
    call_id: str
    name: str | None


def _field(owner: object, name: str, within: str = "") -> object:
    """Field ``name`` of a message, or of its block at ``within`` (``content[2]``)."""
    # Only exact course types reach here: their attributes are slots, so the
    # one thing a read can do is raise AttributeError for a slot never set.
    try:
        return getattr(owner, name)
    except AttributeError:
        raise _BrokenMessageError(f"{_named(name, within)} is unset") from None


def _str_field(owner: object, name: str, within: str = "") -> str:
    value = _field(owner, name, within)
    if type(value) is not str:
        raise _BrokenMessageError(f"{_named(name, within)} is a {type_name(value)}, not a str")
    return value


def _named(name: str, within: str) -> str:
    return f"{within}.{name}" if within else f"field {name}"


def _name_or_none(value: object) -> str | None:
    if type(value) is str and not is_blank(value):
        return value
    return None


def _opaque_problem(value: object, path: str) -> str | None:
    """Why ``value`` is not a well-formed ``CourseOpaque``, or None when it is one."""
    if type(value) is not CourseOpaque:
        return f"{path} is a {type_name(value)}, not a CourseOpaque"
    wire = _field(value, "wire")
    if type(wire) is not str or is_blank(wire):
        return f"{path}.wire is not a non-blank str"
    error = frozen_json_error(_field(value, "data"), f"{path}.data")
    if error is not None:
        return f"{error.path} {error.message}"
    return None


class _Opaques:
    """The opaque payloads of one message: each one that is broken is an issue of its own.

    A broken payload does not break the pairing: the message's Tool calls
    still count, so one bad signature is one issue, not a cascade of orphans.
    """

    __slots__ = ("_index", "_issues")

    def __init__(self, index: int, issues: list[TranscriptIssue]) -> None:
        self._index = index
        self._issues = issues

    def check(self, value: object, path: str, *, optional: bool = True) -> None:
        if optional and value is None:
            return
        problem = _opaque_problem(value, path)
        if problem is not None:
            code = TranscriptIssueCode.INVALID_MESSAGE
            self._issues.append(TranscriptIssue(code, self._index, problem))


def _read_text(block: object, path: str, opaques: _Opaques | None) -> None:
    """A text block; ``opaques`` is None where text carries no citations or opaque data."""
    _str_field(block, "text", path)
    citations = _field(block, "citations", path)
    opaque = _field(block, "opaque", path)
    if type(citations) is not tuple:
        raise _BrokenMessageError(f"{path}.citations is a {type_name(citations)}, not a tuple")
    if opaques is None:
        if citations or opaque is not None:
            raise _BrokenMessageError(
                f"{path} carries citations or opaque data, which only an answer has"
            )
        return
    for number, citation in enumerate(cast(tuple[object, ...], citations)):
        opaques.check(citation, f"{path}.citations[{number}]", optional=False)
    opaques.check(opaque, f"{path}.opaque")


def _read_media(block: object, path: str) -> None:
    _str_field(block, "media_type", path)
    data = _field(block, "data", path)
    url = _field(block, "url", path)
    if (data is None) == (url is None):
        raise _BrokenMessageError(
            f"{path} has both data and url"
            if data is not None
            else f"{path} has neither data nor url"
        )
    if data is not None and type(data) is not bytes:
        raise _BrokenMessageError(f"{path}.data is a {type_name(data)}, not bytes")
    if url is not None and type(url) is not str:
        raise _BrokenMessageError(f"{path}.url is a {type_name(url)}, not a str")
    if type(block) is CourseDocumentBlock:
        title = _field(block, "title", path)
        if title is not None and type(title) is not str:
            raise _BrokenMessageError(f"{path}.title is a {type_name(title)}, not a str")


def _read_user_content(message: object) -> None:
    """The content of a user message or a Tool result: a ``str``, or user blocks."""
    content = _field(message, "content")
    if type(content) is str:
        return
    if type(content) is not tuple or not content:
        raise _BrokenMessageError(
            f"field content is a {type_name(content)}, not a str or a tuple of blocks"
        )
    for position, block in enumerate(cast(tuple[object, ...], content)):
        path = f"content[{position}]"
        kind = type(block)
        if kind is CourseTextBlock:
            _read_text(block, path, None)
        elif kind is CourseImageBlock or kind is CourseDocumentBlock:
            _read_media(block, path)
        elif is_assistant_block_type(kind):
            raise _BrokenMessageError(
                f"{path} is a {type_name(block)}, which only an assistant message holds"
            )
        else:
            raise _BrokenMessageError(f"{path} is a {type_name(block)}")


def _read_assistant(index: int, message: object, issues: list[TranscriptIssue]) -> list[Link]:
    _str_field(message, "id")
    content = _field(message, "content")
    if type(content) is not tuple:
        raise _BrokenMessageError(f"field content is a {type_name(content)}, not a tuple")
    opaques = _Opaques(index, issues)
    calls: list[Link] = []
    for position, block in enumerate(cast(tuple[object, ...], content)):
        path = f"content[{position}]"
        kind = type(block)
        if kind is CourseTextBlock:
            _read_text(block, path, opaques)
            continue
        if kind is CourseReasoningBlock:
            _str_field(block, "text", path)
            opaques.check(_field(block, "opaque", path), f"{path}.opaque")
            continue
        if kind is CourseVendorToolBlock:
            if _name_or_none(_field(block, "kind", path)) is None:
                raise _BrokenMessageError(f"{path}.kind is not a non-blank str")
            opaques.check(_field(block, "opaque", path), f"{path}.opaque", optional=False)
            continue
        if kind is CourseImageBlock or kind is CourseDocumentBlock:
            raise _BrokenMessageError(
                f"{path} is a {type_name(block)}, which only user content and Tool results hold"
            )
        if kind is not CourseToolCall:
            raise _BrokenMessageError(f"{path} is a {type_name(block)}")
        call_id = _str_field(block, "id", path)
        name = _name_or_none(_field(block, "name", path))
        if name is None:
            detail = f"{path}: Tool call {call_id!r} has no Tool name"
            issues.append(TranscriptIssue(TranscriptIssueCode.EMPTY_TOOL_NAME, index, detail))
        if not is_frozen_json_object(_field(block, "arguments", path)):
            detail = f"{path}: arguments of Tool call {call_id!r} are not a frozen JSON object"
            issues.append(
                TranscriptIssue(TranscriptIssueCode.INVALID_TOOL_ARGUMENTS, index, detail)
            )
        opaques.check(_field(block, "opaque", path), f"{path}.opaque")
        calls.append(Link(index, call_id, name))
    return calls


def _read_result(index: int, message: object, issues: list[TranscriptIssue]) -> Link:
    _str_field(message, "id")
    call_id = _str_field(message, "tool_call_id")
    _read_user_content(message)
    is_error = _field(message, "is_error")
    if type(is_error) is not bool:
        raise _BrokenMessageError(f"field is_error is a {type_name(is_error)}, not a bool")
    name = _name_or_none(_field(message, "tool_name"))
    if name is None:
        detail = f"Tool result for {call_id!r} has no Tool name"
        issues.append(TranscriptIssue(TranscriptIssueCode.EMPTY_TOOL_NAME, index, detail))
    return Link(index, call_id, name)


def read_message(
    index: int, message: object, issues: list[TranscriptIssue]
) -> list[Link] | Link | None:
    """What one message contributes to the pairing (its calls, or its result); reports problems."""
    kind = type(message)
    found: list[TranscriptIssue] = []
    try:
        if kind is CourseUserMessage:
            _str_field(message, "id")
            _read_user_content(message)
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
