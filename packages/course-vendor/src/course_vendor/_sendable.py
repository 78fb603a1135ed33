"""The transcript check every vendor call makes before its body is built: can it be sent?"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from course_http import VendorError, VendorErrorCode
from course_protocol import (
    CourseAssistantMessage,
    CourseDocumentBlock,
    CourseImageBlock,
    CourseModelRequest,
    CourseReasoningBlock,
    CourseTextBlock,
    CourseToolCall,
    CourseToolResultMessage,
    CourseUserMessage,
    CourseVendorToolBlock,
    validate_transcript,
)

__all__ = ["CONTENT_KINDS", "check_sendable", "plain_blocks", "plain_content"]

CONTENT_KINDS: Final = frozenset(
    {"text", "image", "document", "reasoning", "vendorTool", "citations", "opaque"}
)
"""What a transcript may hold beyond the plain one, each named as the course JSON names it.

``text``, ``image`` and ``document``: blocks of a user message or a Tool
result (content given as blocks rather than a ``str``); ``reasoning`` and
``vendorTool``: blocks of an assistant message; ``citations``: citations
on an assistant's text; ``opaque``: opaque data on an assistant's text or
Tool call. A wire names the ones it sends in `check_sendable`'s ``sends``.
"""


def check_sendable(
    request: CourseModelRequest, vendor: str, *, sends: frozenset[str] = frozenset()
) -> None:
    """Refuse a transcript no vendor API accepts, or this wire cannot send, before it is built.

    `VendorModel.stream` runs it once per call, before the vendor's body
    conversion, which may then rely on what it guarantees. Raises
    `VendorError` ``VENDOR_INVALID_REQUEST`` (``vendor``) when the transcript
    is empty (there is nothing to answer) or ``validate_transcript`` finds an
    issue (its code and detail are quoted, the message naming
    ``messages[N]``): every vendor refuses a Tool result without its call, or
    a call left unanswered, with a 400 that costs a round trip. Raises it too
    for the first value of a `CONTENT_KINDS` kind that is not in ``sends``
    (the message names the block, ``messages[2].content[0]``, the kind and
    the wire): a wire never drops what it cannot send. ``sends`` names the
    kinds the wire sends (none by default: the plain transcript only).
    Raises ``ValueError`` for a kind in ``sends`` that is not one of
    `CONTENT_KINDS`.
    """
    unknown = sends - CONTENT_KINDS
    if unknown:
        raise ValueError(
            f"sends: {sorted(unknown)} are not content kinds ({sorted(CONTENT_KINDS)})"
        )
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
    for where, kind in _content_kinds(request):
        if kind not in sends:
            raise VendorError(
                VendorErrorCode.VENDOR_INVALID_REQUEST,
                f"{where}: {vendor} does not send {kind} content yet",
                vendor=vendor,
            )


def _content_kinds(request: CourseModelRequest) -> Iterator[tuple[str, str]]:
    """Where the transcript holds something beyond the plain one, and its `CONTENT_KINDS` kind."""
    for index, message in enumerate(request.messages):
        if type(message) is CourseAssistantMessage:
            for position, block in enumerate(message.content):
                where = f"messages[{index}].content[{position}]"
                if type(block) is CourseReasoningBlock:
                    yield where, "reasoning"
                elif type(block) is CourseVendorToolBlock:
                    yield where, "vendorTool"
                elif type(block) is CourseTextBlock:
                    if block.citations:
                        yield f"{where}.citations", "citations"
                    if block.opaque is not None:
                        yield f"{where}.opaque", "opaque"
                elif type(block) is CourseToolCall and block.opaque is not None:
                    yield f"{where}.opaque", "opaque"
        elif not isinstance(message.content, str):
            for position, part in enumerate(message.content):
                yield f"messages[{index}].content[{position}]", _USER_KINDS[type(part)]


_USER_KINDS: Final[dict[type, str]] = {
    CourseTextBlock: "text",
    CourseImageBlock: "image",
    CourseDocumentBlock: "document",
}


def plain_content(message: CourseUserMessage | CourseToolResultMessage) -> str:
    """The text of a user message or Tool result that `check_sendable` accepted with no ``text``.

    For a wire that sends plain text only: once `check_sendable` refused
    content given as blocks, every content is a ``str``. Raises
    ``ValueError`` for content given as blocks (a request `check_sendable`
    was not given, or given with ``text`` in ``sends``).
    """
    content = message.content
    if isinstance(content, str):
        return content
    raise ValueError(
        f"{type(message).__name__} {message.id!r} holds content blocks; "
        "check_sendable refuses them for a wire that sends plain text only"
    )


def plain_blocks(message: CourseAssistantMessage) -> tuple[CourseTextBlock | CourseToolCall, ...]:
    """The text and Tool-call blocks of an assistant message `check_sendable` accepted.

    For a wire that sends neither ``reasoning`` nor ``vendorTool`` blocks:
    once `check_sendable` refused those, the message holds only these two
    kinds. Raises ``ValueError`` for any other block (a request
    `check_sendable` was not given, or given with those kinds in ``sends``).
    """
    blocks: list[CourseTextBlock | CourseToolCall] = []
    for position, block in enumerate(message.content):
        if type(block) is not CourseTextBlock and type(block) is not CourseToolCall:
            raise ValueError(
                f"assistant message {message.id!r} content[{position}] is a "
                f"{type(block).__name__}; check_sendable refuses it for this wire"
            )
        blocks.append(block)
    return tuple(blocks)
