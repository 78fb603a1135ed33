"""The transcript check every vendor call makes before its body is built: can it be sent?"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final, TypeAlias

from course_http import VendorError, VendorErrorCode
from course_protocol import (
    CourseAssistantMessage,
    CourseDocumentBlock,
    CourseImageBlock,
    CourseModelRequest,
    CourseOpaque,
    CourseReasoningBlock,
    CourseTextBlock,
    CourseToolCall,
    CourseToolResultMessage,
    CourseUserMessage,
    CourseVendorToolBlock,
    validate_transcript,
)
from course_vendor._content_support import ContentSupport, MediaRule

__all__ = ["check_sendable", "own_opaque", "plain_blocks", "plain_content", "sent_blocks"]

_PLAIN: Final = ContentSupport()


def check_sendable(
    request: CourseModelRequest, vendor: str, *, content: ContentSupport | None = None
) -> None:
    """Refuse a transcript no vendor API accepts, or this wire cannot send, before it is built.

    `VendorModel.stream` runs it once per call with its wire's
    `ContentSupport`, before the vendor's body conversion, which may then
    rely on what it guarantees. Raises `VendorError`
    ``VENDOR_INVALID_REQUEST`` (``vendor``) when:

    - the transcript is empty (there is nothing to answer) or
      ``validate_transcript`` finds an issue (its code and detail are
      quoted, the message naming ``messages[N]``): every vendor refuses a
      Tool result without its call, or a call left unanswered, with a 400
      that costs a round trip;
    - a block holds a kind of content ``content`` does not send (the
      message names the block, ``messages[2].content[0]``, the kind and the
      wire): a wire never drops what it cannot send;
    - an image or document breaks the wire's `MediaRule` (its media type,
      its size, a URL where the wire takes bytes only);
    - a ``vendorTool`` block was produced by another wire (its opaque names
      it): a tool one vendor ran has no form on another, and leaving it out
      would change what the model is told happened.

    What another wire produced and this one may leave out is not refused:
    a reasoning block is sent back only to the wire its opaque names
    (`sent_blocks` leaves the others out: a model cannot check another's
    reasoning, and the vendors refuse or ignore it), and another wire's
    citations and opaque data on text and Tool calls are not sent
    (`own_opaque`). ``content`` ``None`` sends the plain transcript only.
    """
    support = _PLAIN if content is None else content
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
    for where, kind, block in _content_kinds(request, vendor):
        if kind not in support.kinds:
            raise _refused(where, f"{vendor} does not send {kind} content", vendor)
        if type(block) is CourseVendorToolBlock and block.opaque.wire != vendor:
            raise _refused(
                where,
                f"a {block.kind!r} block of {block.opaque.wire} cannot be sent to {vendor}: "
                "a tool one vendor ran has no form on another",
                vendor,
            )
        if type(block) is CourseImageBlock and support.images is not None:
            _check_media(where, "image", block, support.images, vendor)
        elif type(block) is CourseDocumentBlock and support.documents is not None:
            _check_media(where, "document", block, support.documents, vendor)


def _refused(where: str, rule: str, vendor: str) -> VendorError:
    return VendorError(VendorErrorCode.VENDOR_INVALID_REQUEST, f"{where}: {rule}", vendor=vendor)


def _check_media(
    where: str,
    kind: str,
    block: CourseImageBlock | CourseDocumentBlock,
    rule: MediaRule,
    vendor: str,
) -> None:
    named = "an image" if kind == "image" else "a document"
    if block.media_type not in rule.media_types:
        taken = ", ".join(sorted(rule.media_types))
        raise _refused(
            f"{where}.media_type",
            f"{vendor} does not take {named} of type {block.media_type} (it takes {taken})",
            vendor,
        )
    if block.data is None:
        if not rule.urls:
            raise _refused(
                f"{where}.url", f"{vendor} takes {named} as bytes only, never by URL", vendor
            )
    elif rule.max_bytes is not None and len(block.data) > rule.max_bytes:
        raise _refused(
            f"{where}.data",
            f"holds {len(block.data)} bytes; {vendor} takes {named} of at most "
            f"{rule.max_bytes} bytes",
            vendor,
        )


_Block: TypeAlias = (
    CourseTextBlock
    | CourseToolCall
    | CourseReasoningBlock
    | CourseVendorToolBlock
    | CourseImageBlock
    | CourseDocumentBlock
)


def _content_kinds(request: CourseModelRequest, vendor: str) -> Iterator[tuple[str, str, _Block]]:
    """Where the transcript holds something ``vendor`` sends beyond the plain one, and its kind.

    Another wire's reasoning, citations and opaque data are left out: they
    are not sent (`sent_blocks`, `own_opaque`), so they need no support.
    """
    for index, message in enumerate(request.messages):
        if type(message) is CourseAssistantMessage:
            for position, block in enumerate(message.content):
                where = f"messages[{index}].content[{position}]"
                if type(block) is CourseReasoningBlock:
                    if _is_own(block.opaque, vendor):
                        yield where, "reasoning", block
                elif type(block) is CourseVendorToolBlock:
                    yield where, "vendorTool", block
                elif type(block) is CourseTextBlock:
                    if any(_is_own(citation, vendor) for citation in block.citations):
                        yield f"{where}.citations", "citations", block
                    if _is_own(block.opaque, vendor):
                        yield f"{where}.opaque", "opaque", block
                elif type(block) is CourseToolCall and _is_own(block.opaque, vendor):
                    yield f"{where}.opaque", "opaque", block
        elif not isinstance(message.content, str):
            for position, part in enumerate(message.content):
                yield f"messages[{index}].content[{position}]", _USER_KINDS[type(part)], part


_USER_KINDS: Final[dict[type, str]] = {
    CourseTextBlock: "text",
    CourseImageBlock: "image",
    CourseDocumentBlock: "document",
}


def _is_own(opaque: CourseOpaque | None, vendor: str) -> bool:
    return opaque is not None and opaque.wire == vendor


def own_opaque(opaque: CourseOpaque | None, vendor: str) -> CourseOpaque | None:
    """``opaque`` when the wire ``vendor`` produced it; ``None`` when another did, or none is there.

    The one rule for a vendor's own data on a block sent back: it goes to
    the wire that produced it, and is left out for every other (the block
    itself, its text or its Tool call, is still sent).
    """
    return opaque if _is_own(opaque, vendor) else None


def sent_blocks(message: CourseAssistantMessage, vendor: str) -> tuple[_AssistantBlock, ...]:
    """The blocks of an assistant message the wire ``vendor`` sends back, in order.

    A reasoning block goes back only to the wire its opaque names: one
    another wire produced, or one with no opaque (scripted reasoning), is
    left out (a model cannot check another's reasoning; the vendors refuse
    an unsigned thinking block). Every other block is kept; read each
    block's opaque data with `own_opaque`.
    """
    return tuple(
        block
        for block in message.content
        if type(block) is not CourseReasoningBlock or _is_own(block.opaque, vendor)
    )


_AssistantBlock: TypeAlias = (
    CourseTextBlock | CourseToolCall | CourseReasoningBlock | CourseVendorToolBlock
)


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
    `check_sendable` was not given, or given a `ContentSupport` with those kinds).
    Another wire's reasoning blocks, which `check_sendable` lets pass, are left out.
    """
    blocks: list[CourseTextBlock | CourseToolCall] = []
    for position, block in enumerate(message.content):
        if type(block) is CourseReasoningBlock:
            # check_sendable refused this wire's own: this one is another's, never sent.
            continue
        if type(block) is not CourseTextBlock and type(block) is not CourseToolCall:
            raise ValueError(
                f"assistant message {message.id!r} content[{position}] is a "
                f"{type(block).__name__}; check_sendable refuses it for this wire"
            )
        blocks.append(block)
    return tuple(blocks)
