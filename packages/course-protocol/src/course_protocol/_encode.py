"""The course JSON codec, encoding: protocol values to plain JSON values in the course vocabulary.

The spelling is the seeds': camelCase keys, ``role`` on messages (``user``,
``assistant``, ``toolResult``) and ``type`` on blocks (``text``,
``toolCall``, ``reasoning``, ``vendorTool``, ``image``, ``document``) and
chunks (``textDelta``, ``toolCall``, ``reasoningDelta``). A field that is
empty or absent (no citations, no opaque data, a usage count the vendor
did not send) is left out, so each value has one spelling. Bytes are
base64 (RFC 4648, standard alphabet, padded). The matching parsers are in
``_decode``.
"""

from __future__ import annotations

import base64
from typing import cast

from course_protocol._blocks import (
    CourseReasoningBlock,
    CourseTextBlock,
    CourseToolCall,
    CourseVendorToolBlock,
)
from course_protocol._chunks import (
    CourseModelChunk,
    CourseReasoningDeltaChunk,
    CourseTextDeltaChunk,
    CourseToolCallChunk,
)
from course_protocol._json import thaw_json
from course_protocol._media import CourseDocumentBlock, CourseImageBlock
from course_protocol._messages import (
    CourseAssistantMessage,
    CourseContentBlock,
    CourseMessage,
    CourseModelRequest,
    CourseToolResultMessage,
    CourseUserBlock,
    CourseUserMessage,
)
from course_protocol._opaque import CourseOpaque
from course_protocol._response import CourseModelResponse, CourseModelUsage
from course_protocol.untrusted import type_name

__all__ = ["CourseValue", "to_json"]

CourseValue = (
    CourseContentBlock
    | CourseMessage
    | CourseModelRequest
    | CourseModelChunk
    | CourseModelUsage
    | CourseModelResponse
)


def _opaque_json(opaque: CourseOpaque) -> dict[str, object]:
    return {"wire": opaque.wire, "data": thaw_json(opaque.data)}


def _with_opaque(document: dict[str, object], opaque: CourseOpaque | None) -> dict[str, object]:
    if opaque is not None:
        document["opaque"] = _opaque_json(opaque)
    return document


def _source_json(
    document: dict[str, object], data: bytes | None, url: str | None
) -> dict[str, object]:
    if data is not None:
        document["data"] = base64.b64encode(data).decode("ascii")
    else:
        document["url"] = url
    return document


def _block_json(block: CourseContentBlock) -> dict[str, object]:
    kind = type(block)
    if kind is CourseTextBlock:
        text = cast(CourseTextBlock, block)
        document: dict[str, object] = {"type": "text", "text": text.text}
        if text.citations:
            document["citations"] = [_opaque_json(citation) for citation in text.citations]
        return _with_opaque(document, text.opaque)
    if kind is CourseToolCall:
        call = cast(CourseToolCall, block)
        document = {
            "type": "toolCall",
            "id": call.id,
            "name": call.name,
            "arguments": thaw_json(call.arguments),
        }
        return _with_opaque(document, call.opaque)
    if kind is CourseReasoningBlock:
        reasoning = cast(CourseReasoningBlock, block)
        return _with_opaque({"type": "reasoning", "text": reasoning.text}, reasoning.opaque)
    if kind is CourseVendorToolBlock:
        vendor_tool = cast(CourseVendorToolBlock, block)
        return {
            "type": "vendorTool",
            "kind": vendor_tool.kind,
            "opaque": _opaque_json(vendor_tool.opaque),
        }
    if kind is CourseImageBlock:
        image = cast(CourseImageBlock, block)
        return _source_json({"type": "image", "mediaType": image.media_type}, image.data, image.url)
    document_block = cast(CourseDocumentBlock, block)
    document = _source_json(
        {"type": "document", "mediaType": document_block.media_type},
        document_block.data,
        document_block.url,
    )
    if document_block.title is not None:
        document["title"] = document_block.title
    return document


def _user_content_json(content: str | tuple[CourseUserBlock, ...]) -> object:
    if isinstance(content, str):
        return content
    return [_block_json(block) for block in content]


def _message_json(message: CourseMessage) -> dict[str, object]:
    kind = type(message)
    if kind is CourseUserMessage:
        user = cast(CourseUserMessage, message)
        return {"role": "user", "id": user.id, "content": _user_content_json(user.content)}
    if kind is CourseAssistantMessage:
        assistant = cast(CourseAssistantMessage, message)
        content = [_block_json(block) for block in assistant.content]
        return {"role": "assistant", "id": assistant.id, "content": content}
    result = cast(CourseToolResultMessage, message)
    return {
        "role": "toolResult",
        "id": result.id,
        "toolCallId": result.tool_call_id,
        "toolName": result.tool_name,
        "content": _user_content_json(result.content),
        "isError": result.is_error,
    }


def _usage_json(usage: CourseModelUsage) -> dict[str, object]:
    document: dict[str, object] = {
        "inputTokens": usage.input_tokens,
        "outputTokens": usage.output_tokens,
    }
    if usage.cache_read_tokens is not None:
        document["cacheReadTokens"] = usage.cache_read_tokens
    if usage.cache_write_tokens is not None:
        document["cacheWriteTokens"] = usage.cache_write_tokens
    if usage.reasoning_tokens is not None:
        document["reasoningTokens"] = usage.reasoning_tokens
    return document


def _is_block_type(kind: type) -> bool:
    return (
        kind is CourseTextBlock
        or kind is CourseToolCall
        or kind is CourseReasoningBlock
        or kind is CourseVendorToolBlock
        or kind is CourseImageBlock
        or kind is CourseDocumentBlock
    )


def to_json(value: CourseValue) -> object:
    """The course JSON form of a protocol value, as plain ``dict``/``list``/scalar values.

    Ready for ``json.dumps``; the matching ``parse_*`` function reads it
    back to an equal value. Raises ``TypeError`` when ``value`` is not
    exactly one of the protocol value types.
    """
    kind = type(value)
    if _is_block_type(kind):
        return _block_json(cast(CourseContentBlock, value))
    if (
        kind is CourseUserMessage
        or kind is CourseAssistantMessage
        or kind is CourseToolResultMessage
    ):
        return _message_json(cast(CourseMessage, value))
    if kind is CourseModelRequest:
        request = cast(CourseModelRequest, value)
        return {"id": request.id, "messages": [_message_json(m) for m in request.messages]}
    if kind is CourseTextDeltaChunk:
        delta = cast(CourseTextDeltaChunk, value)
        return {"type": "textDelta", "requestId": delta.request_id, "delta": delta.delta}
    if kind is CourseReasoningDeltaChunk:
        reasoning = cast(CourseReasoningDeltaChunk, value)
        return {
            "type": "reasoningDelta",
            "requestId": reasoning.request_id,
            "delta": reasoning.delta,
        }
    if kind is CourseToolCallChunk:
        chunk = cast(CourseToolCallChunk, value)
        return {
            "type": "toolCall",
            "requestId": chunk.request_id,
            "toolCall": _block_json(chunk.tool_call),
        }
    if kind is CourseModelUsage:
        return _usage_json(cast(CourseModelUsage, value))
    if kind is CourseModelResponse:
        response = cast(CourseModelResponse, value)
        return {
            "id": response.id,
            "requestId": response.request_id,
            "message": _message_json(response.message),
            "stopReason": response.stop_reason.value,
            "usage": _usage_json(response.usage),
        }
    raise TypeError(f"to_json takes a course protocol value, not {type_name(value)}")
