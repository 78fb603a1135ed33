"""The course JSON codec, encoding: protocol values to plain JSON values in the course vocabulary.

The spelling is the seeds': camelCase keys, ``role`` on messages (``user``,
``assistant``, ``toolResult``) and ``type`` on blocks (``text``,
``toolCall``) and chunks (``textDelta``, ``toolCall``). The matching
parsers are in ``_decode``.
"""

from __future__ import annotations

from typing import TypeVar, cast

from course_protocol._json import (
    thaw_json,
)
from course_protocol._messages import (
    CourseAssistantContent,
    CourseAssistantMessage,
    CourseMessage,
    CourseModelRequest,
    CourseTextBlock,
    CourseToolCall,
    CourseToolResultMessage,
    CourseUserMessage,
)
from course_protocol._response import (
    CourseModelChunk,
    CourseModelResponse,
    CourseModelUsage,
    CourseTextDeltaChunk,
    CourseToolCallChunk,
)
from course_protocol.untrusted import type_name

__all__ = ["CourseValue", "T", "to_json"]

T = TypeVar("T")

CourseValue = (
    CourseAssistantContent
    | CourseMessage
    | CourseModelRequest
    | CourseModelChunk
    | CourseModelUsage
    | CourseModelResponse
)


def _content_json(block: CourseAssistantContent) -> dict[str, object]:
    if type(block) is CourseTextBlock:
        return {"type": "text", "text": block.text}
    return {
        "type": "toolCall",
        "id": block.id,
        "name": block.name,
        "arguments": thaw_json(block.arguments),
    }


def _message_json(message: CourseMessage) -> dict[str, object]:
    kind = type(message)
    if kind is CourseUserMessage:
        user = cast(CourseUserMessage, message)
        return {"role": "user", "id": user.id, "content": user.content}
    if kind is CourseAssistantMessage:
        assistant = cast(CourseAssistantMessage, message)
        content = [_content_json(block) for block in assistant.content]
        return {"role": "assistant", "id": assistant.id, "content": content}
    result = cast(CourseToolResultMessage, message)
    return {
        "role": "toolResult",
        "id": result.id,
        "toolCallId": result.tool_call_id,
        "toolName": result.tool_name,
        "content": result.content,
        "isError": result.is_error,
    }


def _usage_json(usage: CourseModelUsage) -> dict[str, object]:
    return {"inputTokens": usage.input_tokens, "outputTokens": usage.output_tokens}


def to_json(value: CourseValue) -> object:
    """The course JSON form of a protocol value, as plain ``dict``/``list``/scalar values.

    Ready for ``json.dumps``; the matching ``parse_*`` function reads it
    back to an equal value. Raises ``TypeError`` when ``value`` is not
    exactly one of the protocol value types.
    """
    kind = type(value)
    if kind is CourseTextBlock or kind is CourseToolCall:
        return _content_json(cast(CourseAssistantContent, value))
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
    if kind is CourseToolCallChunk:
        chunk = cast(CourseToolCallChunk, value)
        return {
            "type": "toolCall",
            "requestId": chunk.request_id,
            "toolCall": _content_json(chunk.tool_call),
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
