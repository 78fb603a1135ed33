"""The course blocks and usage of one Responses result: what each item is in the message.

`ResponsesMapping` builds its response with these: a message's parts as
text blocks (annotations as citations; the opaque holds the message's id
and phase, and marks a refusal),
a reasoning item as a reasoning block holding the input item that gives
it back, a function call's item id as its opaque, the usage counts with
their cached and reasoning parts.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from course_http import VendorErrorCode
from course_protocol import (
    CourseAssistantContent,
    CourseModelUsage,
    CourseOpaque,
    CourseProtocolError,
    CourseReasoningBlock,
    CourseTextBlock,
)
from course_provider_openai import _responses_wire as wire
from course_provider_openai._failures import OpenAIFailures
from course_provider_openai._responses_result import (
    ResponsesFunctionCall,
    ResponsesMessage,
    ResponsesOutputText,
    ResponsesReasoning,
    ResponsesRefusal,
    ResponsesUsage,
)

__all__ = [
    "REASONING_SEPARATOR",
    "call_opaque",
    "course_usage",
    "message_blocks",
    "reasoning_block",
    "reasoning_item",
    "tagged",
]

REASONING_SEPARATOR: Final = "\n\n"
"""Between two summary parts (or reasoning texts) of one reasoning item, in its block and deltas."""


def tagged(data: Mapping[str, object]) -> CourseOpaque:
    """``data`` tagged with this wire: ``CourseOpaque("openai-responses", data)``."""
    return CourseOpaque(wire.WIRE, data)


def reasoning_item(reasoning: ResponsesReasoning) -> dict[str, object]:
    """The input item that gives ``reasoning`` back: its id, summary, texts and encrypted form.

    As the API reads a ``reasoning`` input item (``summary`` always, even
    empty; ``content`` when the model streamed reasoning texts;
    ``encrypted_content`` when it was sent).
    """
    item: dict[str, object] = {
        wire.TYPE_KEY: wire.REASONING_TYPE,
        wire.ID_KEY: reasoning.id,
        wire.SUMMARY_KEY: [
            {wire.TYPE_KEY: wire.SUMMARY_TEXT_TYPE, wire.TEXT_KEY: text}
            for text in reasoning.summary
        ],
    }
    if reasoning.content:
        item[wire.CONTENT_KEY] = [
            {wire.TYPE_KEY: wire.REASONING_TEXT_TYPE, wire.TEXT_KEY: text}
            for text in reasoning.content
        ]
    if reasoning.encrypted_content is not None:
        item[wire.ENCRYPTED_CONTENT_KEY] = reasoning.encrypted_content
    return item


def call_opaque(call: ResponsesFunctionCall) -> CourseOpaque:
    # The item id ties the call to the reasoning before it when both go back.
    data: dict[str, object] = {wire.ID_KEY: call.id}
    if call.namespace is not None:
        data[wire.NAMESPACE_KEY] = call.namespace
    return tagged(data)


def message_blocks(item: ResponsesMessage, blocks: list[CourseAssistantContent]) -> bool:
    """Add the message's parts to ``blocks``; whether one of them is a refusal.

    Each block's opaque is ``{"id": <the msg_ item id>, "phase": ...}``
    (``phase`` only when the item had one), with ``"type": "refusal"`` on
    a refusal part: the request groups the blocks back into their message
    and sends its phase, as the API asks for the models that set one.
    """
    marks: dict[str, object] = {wire.ID_KEY: item.id}
    if item.phase is not None:
        marks[wire.PHASE_KEY] = item.phase
    text_opaque = tagged(marks)
    refusal_opaque: CourseOpaque | None = None
    refused = False
    for part in item.parts:
        if type(part) is ResponsesOutputText:
            citations = tuple(tagged(note) for note in part.annotations if note is not None)
            if part.text or citations:
                blocks.append(CourseTextBlock(part.text, citations=citations, opaque=text_opaque))
        elif type(part) is ResponsesRefusal:
            refused = True
            if refusal_opaque is None:
                refusal_opaque = tagged({**marks, wire.TYPE_KEY: wire.REFUSAL_TYPE})
            blocks.append(CourseTextBlock(part.refusal, opaque=refusal_opaque))
    return refused


def reasoning_block(item: ResponsesReasoning) -> CourseReasoningBlock:
    """The item's parts joined by `REASONING_SEPARATOR`; its input item when it was done."""
    text = REASONING_SEPARATOR.join((*item.summary, *item.content))
    # An item the limit cut has no encrypted form yet: its text streamed, it cannot go back.
    opaque = tagged(reasoning_item(item)) if item.done else None
    return CourseReasoningBlock(text, opaque=opaque)


def course_usage(
    failures: OpenAIFailures, usage: ResponsesUsage, event_count: int
) -> CourseModelUsage:
    """The course usage of ``usage``; ``VENDOR_INVALID_TERMINAL`` for a part above its whole."""
    try:
        return CourseModelUsage(
            usage.input_tokens,
            usage.output_tokens,
            cache_read_tokens=usage.cached_tokens,
            cache_write_tokens=usage.cache_write_tokens,
            reasoning_tokens=usage.reasoning_tokens,
        )
    except CourseProtocolError as error:
        # A part larger than its whole: OpenAI's counts include their parts.
        failures.fail(
            VendorErrorCode.VENDOR_INVALID_TERMINAL,
            event_count - 1,
            f"usage: {error.path} {error.message}",
        )
