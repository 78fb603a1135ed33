"""Content blocks, messages and the model request: the course Message IR."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypeAlias, final

from course_protocol._checks import check_id, check_text, fail, slot_setter, snapshot_sequence
from course_protocol._json import JsonObject, freeze_json_object_or_raise
from course_protocol._untrusted import type_name


@final
@dataclass(frozen=True, slots=True, init=False)
class CourseTextBlock:
    """A block of assistant text.

    Raises ``CourseProtocolError`` (path ``text``) unless ``text`` is a ``str``;
    empty text is allowed.
    """

    text: str

    def __init__(self, text: str) -> None:
        # One block per streamed text delta: a hand-written __init__ that sets the
        # slot through its descriptor costs about half of the generated frozen
        # __init__ plus __post_init__; the helper runs only to raise.
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
        object.__setattr__(self, "id", id)
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "arguments", frozen)


CourseAssistantContent: TypeAlias = CourseTextBlock | CourseToolCall
"""One block of an assistant message: text or a Tool call."""


@final
@dataclass(frozen=True, slots=True)
class CourseUserMessage:
    """What the user said.

    Raises ``CourseProtocolError`` when ``id`` is not a non-blank ``str`` or
    ``content`` is not a ``str``.
    """

    id: str
    content: str

    def __post_init__(self) -> None:
        check_id(self.id, "id")
        check_text(self.content, "content")


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
        object.__setattr__(self, "id", id)
        object.__setattr__(self, "content", blocks)


@final
@dataclass(frozen=True, slots=True)
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

    def __post_init__(self) -> None:
        check_id(self.id, "id")
        check_id(self.tool_call_id, "tool_call_id")
        check_id(self.tool_name, "tool_name")
        check_text(self.content, "content")
        if type(self.is_error) is not bool:
            fail("is_error", f"must be a bool, not {type_name(self.is_error)}")


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
        object.__setattr__(self, "id", id)
        object.__setattr__(self, "messages", items)


def text_from_assistant(message: CourseAssistantMessage) -> str:
    """The assistant's text: every text block of ``message``, joined in order with no separator.

    Tool-call blocks are skipped; a message without text gives ``""``.
    """
    return "".join(block.text for block in message.content if type(block) is CourseTextBlock)
