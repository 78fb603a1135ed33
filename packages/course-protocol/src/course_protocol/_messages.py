"""Messages and the model request: the course Message IR (its blocks: ``_blocks``, ``_media``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias, cast, final

from course_protocol._blocks import (
    CourseAssistantContent,
    CourseReasoningBlock,
    CourseTextBlock,
    CourseToolCall,
    CourseVendorToolBlock,
)
from course_protocol._checks import check_flag, check_id, fail, snapshot_sequence
from course_protocol._media import CourseDocumentBlock, CourseImageBlock
from course_protocol.slots import slot_setter
from course_protocol.untrusted import sequence_snapshot, type_name

__all__ = [
    "CourseAssistantMessage",
    "CourseContentBlock",
    "CourseMessage",
    "CourseModelRequest",
    "CourseToolResultMessage",
    "CourseUserBlock",
    "CourseUserMessage",
    "is_message_type",
    "text_from_assistant",
]

CourseUserBlock: TypeAlias = CourseTextBlock | CourseImageBlock | CourseDocumentBlock
"""One block of what a user says or a Tool returns: text, an image or a document.

Text here carries no citations and no opaque data: those are the vendor's, on its answers.
"""

CourseContentBlock: TypeAlias = CourseAssistantContent | CourseImageBlock | CourseDocumentBlock
"""Any block of any message: an assistant's, or one a user or a Tool result gives."""


def _checked_user_content(value: object, path: str) -> str | tuple[CourseUserBlock, ...]:
    """A ``str``, or a list or tuple of at least one `CourseUserBlock`, kept as a tuple."""
    if type(value) is str:
        return value
    blocks = sequence_snapshot(value)
    if blocks is None:
        fail(path, f"must be a str or a list or tuple of blocks, not {type_name(value)}")
    if not blocks:
        fail(path, 'must hold at least one block (no content is the text "")')
    for index, block in enumerate(blocks):
        kind = type(block)
        if kind is CourseTextBlock:
            text = cast(CourseTextBlock, block)
            if text.citations:
                fail(f"{path}[{index}].citations", "must be empty: only an answer has citations")
            if text.opaque is not None:
                fail(f"{path}[{index}].opaque", "must be None: only an answer has opaque data")
        elif kind is not CourseImageBlock and kind is not CourseDocumentBlock:
            fail(
                f"{path}[{index}]",
                "must be a CourseTextBlock, CourseImageBlock or CourseDocumentBlock, "
                f"not {type_name(block)}",
            )
    return cast("tuple[CourseUserBlock, ...]", blocks)


@final
@dataclass(frozen=True, slots=True, init=False)
class CourseUserMessage:
    """What the user said: text, or blocks of text, images and documents.

    ``content`` is a ``str`` (the plain form, valid everywhere), or a list
    or tuple of at least one `CourseUserBlock`, stored as a tuple; a text
    block there carries no citations and no opaque data.

    Raises ``CourseProtocolError`` when ``id`` is not a non-blank ``str``,
    or ``content`` is neither a ``str`` nor a non-empty list or tuple of
    exact block types (path ``content[i]`` for a bad block).
    """

    id: str
    content: str | tuple[CourseUserBlock, ...]

    def __init__(
        self, id: str, content: str | tuple[CourseUserBlock, ...] | list[CourseUserBlock]
    ) -> None:
        check_id(id, "id")
        checked = _checked_user_content(content, "content")
        _set_user_id(self, id)
        _set_user_content(self, checked)


_set_user_id = slot_setter(CourseUserMessage, "id")
_set_user_content = slot_setter(CourseUserMessage, "content")


@final
@dataclass(frozen=True, slots=True, init=False)
class CourseAssistantMessage:
    """What the assistant said: text, Tool-call, reasoning and vendor-tool blocks, in order.

    ``content`` may be given as a list or tuple and is stored as a tuple.
    Each block must be exactly a ``CourseTextBlock``, ``CourseToolCall``,
    ``CourseReasoningBlock`` or ``CourseVendorToolBlock`` (not a subclass,
    which could carry mutable state). Raises ``CourseProtocolError`` on a
    blank id, a non-sequence ``content``, or a bad block (path
    ``content[i]``).
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
            if (
                kind is not CourseTextBlock
                and kind is not CourseToolCall
                and kind is not CourseReasoningBlock
                and kind is not CourseVendorToolBlock
            ):
                index = next(i for i, item in enumerate(blocks) if item is block)
                fail(
                    f"content[{index}]",
                    "must be a CourseTextBlock, CourseToolCall, CourseReasoningBlock or "
                    f"CourseVendorToolBlock, not {type_name(block)}",
                )
        _set_assistant_id(self, id)
        _set_assistant_content(self, blocks)


_set_assistant_id = slot_setter(CourseAssistantMessage, "id")
_set_assistant_content = slot_setter(CourseAssistantMessage, "content")


@final
@dataclass(frozen=True, slots=True, init=False)
class CourseToolResultMessage:
    """The result of one Tool call, linked to it by ``tool_call_id`` and ``tool_name``.

    ``content`` is a ``str``, or a list or tuple of at least one
    `CourseUserBlock` (text, images, documents), stored as a tuple, as in
    `CourseUserMessage`. Raises ``CourseProtocolError`` when ``id``,
    ``tool_call_id`` or ``tool_name`` is not a non-blank ``str``,
    ``content`` is neither a ``str`` nor a non-empty list or tuple of exact
    block types, or ``is_error`` is not a ``bool``.
    """

    id: str
    tool_call_id: str
    tool_name: str
    content: str | tuple[CourseUserBlock, ...]
    is_error: bool = False

    def __init__(
        self,
        id: str,
        tool_call_id: str,
        tool_name: str,
        content: str | tuple[CourseUserBlock, ...] | list[CourseUserBlock],
        is_error: bool = False,
    ) -> None:
        check_id(id, "id")
        check_id(tool_call_id, "tool_call_id")
        check_id(tool_name, "tool_name")
        checked = _checked_user_content(content, "content")
        check_flag(is_error, "is_error")
        _set_result_id(self, id)
        _set_result_call_id(self, tool_call_id)
        _set_result_tool_name(self, tool_name)
        _set_result_content(self, checked)
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
    """The assistant's answer text: every text block of ``message``, joined in order, no separator.

    Only text blocks are answer text: Tool calls, tools the vendor ran and
    reasoning are skipped (reasoning is how the model got there, not what
    it answered, even when it is readable). A message without text gives ``""``.
    """
    return "".join(block.text for block in message.content if type(block) is CourseTextBlock)
