"""Content blocks, messages and the model request: the course Message IR."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypeAlias, final

from course_protocol._checks import check_id, check_text, fail, snapshot_sequence
from course_protocol._json import JsonObject, freeze_json_object_or_raise
from course_protocol.slots import slot_setter
from course_protocol.untrusted import type_name

__all__ = [
    "CourseAssistantContent",
    "CourseAssistantMessage",
    "CourseMessage",
    "CourseModelRequest",
    "CourseTextBlock",
    "CourseToolCall",
    "CourseToolResultMessage",
    "CourseUserMessage",
    "is_message_type",
    "text_from_assistant",
]


@final
@dataclass(frozen=True, slots=True, init=False)
class CourseTextBlock:
    """A block of assistant text.

    Raises ``CourseProtocolError`` (path ``text``) unless ``text`` is a ``str``;
    empty text is allowed.
    """

    text: str

    def __init__(self, text: str) -> None:
        if type(text) is not str:
            check_text(text, "text")
        _set_text(self, text)


_set_text = slot_setter(CourseTextBlock, "text")


@final
@dataclass(frozen=True, slots=True, init=False)
class CourseToolCall:
    """A complete Tool call the assistant asks for: an opaque id, a Tool name, JSON arguments.

    ``arguments`` may be any ``dict`` (a ``frozendict`` included) of JSON
    values; it is deep-snapshotted into a fresh ``frozendict`` (see
    ``freeze_json``). Raises ``CourseProtocolError`` when ``id`` or ``name``
    is not a non-blank ``str``, or when ``arguments`` is not a JSON object
    (the path names the bad part, e.g. ``arguments.items[3].x``).
    """

    id: str
    name: str
    arguments: JsonObject

    def __init__(self, id: str, name: str, arguments: Mapping[str, object]) -> None:
        check_id(id, "id")
        check_id(name, "name")
        frozen = freeze_json_object_or_raise(arguments, "arguments")
        _set_call_id(self, id)
        _set_call_name(self, name)
        _set_arguments(self, frozen)


_set_call_id = slot_setter(CourseToolCall, "id")
_set_call_name = slot_setter(CourseToolCall, "name")
_set_arguments = slot_setter(CourseToolCall, "arguments")

CourseAssistantContent: TypeAlias = CourseTextBlock | CourseToolCall
"""One block of an assistant message: text or a Tool call."""


@final
@dataclass(frozen=True, slots=True, init=False)
class CourseUserMessage:
    """What the user said.

    Raises ``CourseProtocolError`` when ``id`` is not a non-blank ``str`` or
    ``content`` is not a ``str``.
    """

    id: str
    content: str

    def __init__(self, id: str, content: str) -> None:
        check_id(id, "id")
        check_text(content, "content")
        _set_user_id(self, id)
        _set_user_content(self, content)


_set_user_id = slot_setter(CourseUserMessage, "id")
_set_user_content = slot_setter(CourseUserMessage, "content")


@final
@dataclass(frozen=True, slots=True, init=False)
class CourseAssistantMessage:
    """What the assistant said: text and Tool-call blocks, in order.

    ``content`` may be given as a list or tuple and is stored as a tuple.
    Each block must be exactly a ``CourseTextBlock`` or ``CourseToolCall``
    (not a subclass, which could carry mutable state). Raises
    ``CourseProtocolError`` on a blank id, a non-sequence ``content``, or a
    bad block (path ``content[i]``).
    """

    id: str
    content: tuple[CourseAssistantContent, ...]

    def __init__(
        self,
        id: str,
        content: tuple[CourseAssistantContent, ...] | list[CourseAssistantContent],
    ) -> None:
        check_id(id, "id")
        blocks = snapshot_sequence(content, "content")
        # A response holds one block per text delta: the passing case is a bare
        # identity loop (no enumerate, no set lookup, which could call a hostile
        # metaclass's __eq__); the index is found only to report a bad block.
        for block in blocks:
            kind = type(block)
            if kind is not CourseTextBlock and kind is not CourseToolCall:
                index = next(i for i, item in enumerate(blocks) if item is block)
                fail(
                    f"content[{index}]",
                    f"must be a CourseTextBlock or CourseToolCall, not {type_name(block)}",
                )
        _set_assistant_id(self, id)
        _set_assistant_content(self, blocks)


_set_assistant_id = slot_setter(CourseAssistantMessage, "id")
_set_assistant_content = slot_setter(CourseAssistantMessage, "content")


@final
@dataclass(frozen=True, slots=True, init=False)
class CourseToolResultMessage:
    """The result of one Tool call, linked to it by ``tool_call_id`` and ``tool_name``.

    Raises ``CourseProtocolError`` when ``id``, ``tool_call_id`` or
    ``tool_name`` is not a non-blank ``str``, ``content`` is not a ``str``,
    or ``is_error`` is not a ``bool``.
    """

    id: str
    tool_call_id: str
    tool_name: str
    content: str
    is_error: bool = False

    def __init__(
        self, id: str, tool_call_id: str, tool_name: str, content: str, is_error: bool = False
    ) -> None:
        check_id(id, "id")
        check_id(tool_call_id, "tool_call_id")
        check_id(tool_name, "tool_name")
        check_text(content, "content")
        if type(is_error) is not bool:
            fail("is_error", f"must be a bool, not {type_name(is_error)}")
        _set_result_id(self, id)
        _set_result_call_id(self, tool_call_id)
        _set_result_tool_name(self, tool_name)
        _set_result_content(self, content)
        _set_result_is_error(self, is_error)


_set_result_id = slot_setter(CourseToolResultMessage, "id")
_set_result_call_id = slot_setter(CourseToolResultMessage, "tool_call_id")
_set_result_tool_name = slot_setter(CourseToolResultMessage, "tool_name")
_set_result_content = slot_setter(CourseToolResultMessage, "content")
_set_result_is_error = slot_setter(CourseToolResultMessage, "is_error")


CourseMessage: TypeAlias = CourseUserMessage | CourseAssistantMessage | CourseToolResultMessage
"""One message of a transcript."""


def is_message_type(kind: type) -> bool:
    """Whether ``kind`` is exactly one of the message types (``is``, never ``==``)."""
    return (
        kind is CourseUserMessage
        or kind is CourseAssistantMessage
        or kind is CourseToolResultMessage
    )


@final
@dataclass(frozen=True, slots=True, init=False)
class CourseModelRequest:
    """One call to a model: a request id and the transcript so far.

    ``messages`` may be given as a list or tuple and is stored as a tuple;
    each element must be exactly one of the three message types. Raises
    ``CourseProtocolError`` on a blank id, a non-sequence ``messages``, or a
    bad element (path ``messages[i]``). It does not check how Tool calls and
    results pair up: that is ``validate_transcript``.
    """

    id: str
    messages: tuple[CourseMessage, ...]

    def __init__(
        self,
        id: str,
        messages: tuple[CourseMessage, ...] | list[CourseMessage],
    ) -> None:
        check_id(id, "id")
        items = snapshot_sequence(messages, "messages")
        for index, message in enumerate(items):
            if not is_message_type(type(message)):
                fail(
                    f"messages[{index}]",
                    "must be a CourseUserMessage, CourseAssistantMessage or "
                    f"CourseToolResultMessage, not {type_name(message)}",
                )
        _set_request_id(self, id)
        _set_request_messages(self, items)


_set_request_id = slot_setter(CourseModelRequest, "id")
_set_request_messages = slot_setter(CourseModelRequest, "messages")


def text_from_assistant(message: CourseAssistantMessage) -> str:
    """The assistant's text: every text block of ``message``, joined in order with no separator.

    Tool-call blocks are skipped; a message without text gives ``""``.
    """
    return "".join(block.text for block in message.content if type(block) is CourseTextBlock)
