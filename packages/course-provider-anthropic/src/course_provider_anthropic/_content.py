"""The assistant's blocks both ways: the grammar's blocks as course blocks, and those sent back.

What the Messages API needs back of a block is what the course block's opaque
holds, tagged with this wire: a thinking block's ``signature``, a redacted
thinking block's ``data``, the whole block of a tool the vendor ran (and of a
compaction or a fallback), each citation on a text block. `course_content`
makes the course blocks from a response; `assistant_block` writes one back
in the API's form, which is the form it came in.
"""

from __future__ import annotations

from typing import Any, Final

from course_http import VendorError, VendorErrorCode
from course_protocol import (
    CourseAssistantContent,
    CourseOpaque,
    CourseReasoningBlock,
    CourseTextBlock,
    CourseToolCall,
    CourseVendorToolBlock,
    is_blank,
    thaw_json,
)
from course_provider_anthropic import _wire
from course_provider_anthropic._result import (
    MessagesBlock,
    MessagesCompactionBlock,
    MessagesOpaqueBlock,
    MessagesRedactedThinkingBlock,
    MessagesTextBlock,
    MessagesThinkingBlock,
    MessagesToolUseBlock,
)
from course_vendor import own_opaque

__all__ = ["VENDOR_BLOCK_KINDS", "assistant_block", "course_content"]

VENDOR_BLOCK_KINDS: Final = frozenset(
    {
        "server_tool_use",
        "mcp_tool_use",
        "web_search_tool_result",
        "web_fetch_tool_result",
        "code_execution_tool_result",
        "bash_code_execution_tool_result",
        "text_editor_code_execution_tool_result",
        "tool_search_tool_result",
        "advisor_tool_result",
        "mcp_tool_result",
        "container_upload",
        "compaction",
        "fallback",
    }
)
"""The block types carried as `CourseVendorToolBlock` s: the calls and results of the tools
the vendor runs, a file uploaded to its container, its summary of earlier turns, and the
point where it switched to a fallback model. The API takes each back as it sent it."""


def course_content(
    blocks: tuple[MessagesBlock, ...], calls: dict[int, CourseToolCall]
) -> tuple[CourseAssistantContent, ...]:
    """The course blocks of a response's ``blocks``, in order; ``calls`` its emitted Tool calls.

    A text block with text is a `CourseTextBlock` with its citations; a
    Tool call is the one emitted for its position (a call the output limit
    cut never was); thinking is a `CourseReasoningBlock` whose opaque holds
    the signature, or, cut before its stop (unsigned), its readable text
    alone, which is never sent back; redacted thinking is empty reasoning
    whose opaque holds the data; every block of `VENDOR_BLOCK_KINDS` is a
    `CourseVendorToolBlock` holding the block as the vendor sent it. A
    block cut before its stop that the API could not take back (a
    vendor-tool call without its whole input, redacted thinking) is left out.
    """
    content: list[CourseAssistantContent] = []
    for position, block in enumerate(blocks):
        if type(block) is MessagesTextBlock:
            if block.text:
                citations = tuple(CourseOpaque(_wire.WIRE, cited) for cited in block.citations)
                content.append(CourseTextBlock(block.text, citations=citations))
        elif position in calls:
            content.append(calls[position])
        elif type(block) is MessagesThinkingBlock:
            content.append(_reasoning(block))
        elif block.complete:
            carried = _carried(block)
            if carried is not None:
                content.append(carried)
    return tuple(content)


def _reasoning(block: MessagesThinkingBlock) -> CourseReasoningBlock:
    if not block.complete:
        return CourseReasoningBlock(block.thinking)
    data = {_wire.TYPE_KEY: _wire.THINKING, _wire.SIGNATURE_KEY: block.signature}
    return CourseReasoningBlock(block.thinking, opaque=CourseOpaque(_wire.WIRE, data))


def _carried(block: MessagesBlock) -> CourseReasoningBlock | CourseVendorToolBlock | None:
    """A complete block other than text, thinking and a Tool call, as the course carries it."""
    if type(block) is MessagesRedactedThinkingBlock:
        data = {_wire.TYPE_KEY: _wire.REDACTED_THINKING, _wire.DATA_KEY: block.data}
        return CourseReasoningBlock("", opaque=CourseOpaque(_wire.WIRE, data))
    if type(block) is MessagesOpaqueBlock:
        body: dict[str, Any] = dict(block.body)
    elif type(block) is MessagesToolUseBlock:
        body = {
            _wire.TYPE_KEY: block.kind,
            _wire.ID_KEY: block.id,
            _wire.NAME_KEY: block.name,
            _wire.INPUT_KEY: block.input,
            **block.fields,
        }
    elif type(block) is MessagesCompactionBlock:
        body = {_wire.TYPE_KEY: block.kind, _wire.CONTENT_KEY: block.content}
        if block.encrypted_content is not None:
            body[_wire.ENCRYPTED_CONTENT_KEY] = block.encrypted_content
    else:
        return None
    return CourseVendorToolBlock(block.kind, CourseOpaque(_wire.WIRE, body))


def assistant_block(block: CourseAssistantContent, where: str) -> dict[str, Any] | None:
    """The Messages API block that sends ``block`` (at ``where``) back, or ``None``: nothing sent.

    For a block ``course_vendor.sent_blocks`` kept and ``check_sendable``
    accepted for this wire: text (``None`` when blank, which the API
    refuses) with this wire's citations as they came, a Tool call as
    ``tool_use``, reasoning as the ``thinking`` block its text and opaque
    make (or the ``redacted_thinking`` block its opaque holds), a
    vendor-tool block as the block it holds. Raises `VendorError`
    ``VENDOR_INVALID_REQUEST`` naming ``where.opaque`` when the opaque is
    not what this wire makes: reasoning whose data is not a ``thinking``
    (with a string ``signature``) or ``redacted_thinking`` (with a string
    ``data``) block, a vendor-tool block whose data's ``type`` is not its
    ``kind``.
    """
    if type(block) is CourseTextBlock:
        if is_blank(block.text):
            return None
        sent: dict[str, Any] = {_wire.TYPE_KEY: _wire.TEXT, _wire.TEXT_KEY: block.text}
        citations = [
            thaw_json(cited.data)
            for cited in block.citations
            if own_opaque(cited, _wire.WIRE) is not None
        ]
        if citations:
            sent[_wire.CITATIONS_KEY] = citations
        return sent
    if type(block) is CourseToolCall:
        return {
            _wire.TYPE_KEY: _wire.TOOL_USE,
            _wire.ID_KEY: block.id,
            _wire.NAME_KEY: block.name,
            _wire.INPUT_KEY: thaw_json(block.arguments),
        }
    opaque = block.opaque
    # sent_blocks and check_sendable let through only this wire's reasoning and vendor blocks.
    assert opaque is not None
    held = thaw_json(opaque.data)
    assert isinstance(held, dict)
    kind = held.get(_wire.TYPE_KEY)
    if type(block) is CourseVendorToolBlock:
        if kind != block.kind:
            raise _not_made_here(where, f"its data's type must be its kind {block.kind!r}")
        return held
    if kind == _wire.THINKING and type(held.get(_wire.SIGNATURE_KEY)) is str:
        # The readable text is the course block's own; the opaque holds what the course cannot.
        return {_wire.TYPE_KEY: _wire.THINKING, _wire.THINKING: block.text, **held}
    if kind == _wire.REDACTED_THINKING and type(held.get(_wire.DATA_KEY)) is str:
        return held
    raise _not_made_here(
        where,
        "reasoning's data must be a thinking block with its signature or a "
        "redacted_thinking block with its data",
    )


def _not_made_here(where: str, rule: str) -> VendorError:
    return VendorError(
        VendorErrorCode.VENDOR_INVALID_REQUEST,
        f"{where}.opaque: {rule}, as {_wire.WIRE} makes it",
        vendor=_wire.WIRE,
    )
