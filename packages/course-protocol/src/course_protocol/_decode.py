"""The course JSON codec, decoding: course-vocabulary JSON values back to protocol values.

Every ``parse_*`` function returns a ``returns`` ``Result``: the value, or a
``JsonError`` naming the JSON path of the first problem.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar, cast

from frozendict import frozendict
from returns.result import Failure, Result, Success

from course_protocol._errors import CourseProtocolError, JsonError, JsonErrorCode
from course_protocol._json import (
    JSON_MAX_DEPTH,
    JsonObject,
    JsonValue,
    freeze_json,
    key_segment,
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
    CourseStopReason,
    CourseTextDeltaChunk,
    CourseToolCallChunk,
)
from course_protocol.untrusted import type_name

__all__ = [
    "T",
    "parse_chunk",
    "parse_content_block",
    "parse_message",
    "parse_request",
    "parse_response",
    "parse_usage",
]

T = TypeVar("T")


class _Invalid(Exception):  # noqa: N818 (a private signal, caught at the parse boundary)
    def __init__(self, path: str, message: str) -> None:
        super().__init__(path, message)
        self.path = path
        self.message = message


_JSON_NAMES = {
    "request_id": "requestId",
    "tool_call_id": "toolCallId",
    "tool_name": "toolName",
    "is_error": "isError",
    "tool_call": "toolCall",
    "stop_reason": "stopReason",
    "input_tokens": "inputTokens",
    "output_tokens": "outputTokens",
}


def _build(path: str, build: Callable[[], T]) -> T:
    """Run a constructor, reporting its error at the JSON path of the bad field."""
    try:
        return build()
    except CourseProtocolError as error:
        field, separator, rest = error.path.partition(".")
        head, bracket, tail = field.partition("[")
        json_path = f"{path}.{_JSON_NAMES.get(head, head)}{bracket}{tail}{separator}{rest}"
        raise _Invalid(json_path, error.message) from None


def _object(value: JsonValue, path: str, fields: tuple[str, ...]) -> JsonObject:
    if type(value) is not frozendict:
        raise _Invalid(path, f"must be a JSON object, not {type_name(value)}")
    obj = value
    for key in obj:
        if key not in fields:
            raise _Invalid(path + key_segment(key), "is not a field here")
    for field in fields:
        if field not in obj:
            raise _Invalid(path, f"lacks the field {field!r}")
    return obj


def _array(value: JsonValue, path: str) -> tuple[JsonValue, ...]:
    if type(value) is not tuple:
        raise _Invalid(path, f"must be a JSON array, not {type_name(value)}")
    return value


def _discriminant(value: JsonValue, path: str, key: str, allowed: tuple[str, ...]) -> str:
    if type(value) is not frozendict:
        raise _Invalid(path, f"must be a JSON object, not {type_name(value)}")
    tag = value.get(key)
    if type(tag) is not str or tag not in allowed:
        raise _Invalid(f"{path}.{key}", f"must be one of {', '.join(map(repr, allowed))}")
    return tag


def _content(value: JsonValue, path: str) -> CourseAssistantContent:
    tag = _discriminant(value, path, "type", ("text", "toolCall"))
    if tag == "text":
        obj = _object(value, path, ("type", "text"))
        return _build(path, lambda: CourseTextBlock(cast(str, obj["text"])))
    return _tool_call(value, path)


def _tool_call(value: JsonValue, path: str) -> CourseToolCall:
    _discriminant(value, path, "type", ("toolCall",))
    obj = _object(value, path, ("type", "id", "name", "arguments"))
    return _build(
        path,
        lambda: CourseToolCall(
            cast(str, obj["id"]), cast(str, obj["name"]), cast(JsonObject, obj["arguments"])
        ),
    )


def _message(value: JsonValue, path: str) -> CourseMessage:
    role = _discriminant(value, path, "role", ("user", "assistant", "toolResult"))
    if role == "user":
        obj = _object(value, path, ("role", "id", "content"))
        return _build(
            path, lambda: CourseUserMessage(cast(str, obj["id"]), cast(str, obj["content"]))
        )
    if role == "assistant":
        obj = _object(value, path, ("role", "id", "content"))
        blocks = _array(obj["content"], f"{path}.content")
        content = tuple(_content(block, f"{path}.content[{i}]") for i, block in enumerate(blocks))
        return _build(path, lambda: CourseAssistantMessage(cast(str, obj["id"]), content))
    obj = _object(value, path, ("role", "id", "toolCallId", "toolName", "content", "isError"))
    return _build(
        path,
        lambda: CourseToolResultMessage(
            cast(str, obj["id"]),
            cast(str, obj["toolCallId"]),
            cast(str, obj["toolName"]),
            cast(str, obj["content"]),
            cast(bool, obj["isError"]),
        ),
    )


def _request(value: JsonValue, path: str) -> CourseModelRequest:
    obj = _object(value, path, ("id", "messages"))
    items = _array(obj["messages"], f"{path}.messages")
    messages = tuple(_message(item, f"{path}.messages[{i}]") for i, item in enumerate(items))
    return _build(path, lambda: CourseModelRequest(cast(str, obj["id"]), messages))


def _chunk(value: JsonValue, path: str) -> CourseModelChunk:
    tag = _discriminant(value, path, "type", ("textDelta", "toolCall"))
    if tag == "textDelta":
        obj = _object(value, path, ("type", "requestId", "delta"))
        return _build(
            path,
            lambda: CourseTextDeltaChunk(cast(str, obj["requestId"]), cast(str, obj["delta"])),
        )
    obj = _object(value, path, ("type", "requestId", "toolCall"))
    call = _tool_call(obj["toolCall"], f"{path}.toolCall")
    return _build(path, lambda: CourseToolCallChunk(cast(str, obj["requestId"]), call))


def _usage(value: JsonValue, path: str) -> CourseModelUsage:
    obj = _object(value, path, ("inputTokens", "outputTokens"))
    return _build(
        path,
        lambda: CourseModelUsage(cast(int, obj["inputTokens"]), cast(int, obj["outputTokens"])),
    )


def _stop_reason(value: JsonValue, path: str) -> CourseStopReason:
    for reason in CourseStopReason:
        if type(value) is str and value == reason.value:
            return reason
    raise _Invalid(path, "must be 'stop' or 'toolCall'")


def _response(value: JsonValue, path: str) -> CourseModelResponse:
    obj = _object(value, path, ("id", "requestId", "message", "stopReason", "usage"))
    message = _message(obj["message"], f"{path}.message")
    if type(message) is not CourseAssistantMessage:
        raise _Invalid(f"{path}.message.role", "must be 'assistant'")
    stop_reason = _stop_reason(obj["stopReason"], f"{path}.stopReason")
    usage = _usage(obj["usage"], f"{path}.usage")
    return _build(
        path,
        lambda: CourseModelResponse(
            cast(str, obj["id"]), cast(str, obj["requestId"]), message, stop_reason, usage
        ),
    )


# The most containers the course vocabulary wraps around a JSON value: a
# request's messages array, a message, its content array and the Tool-call
# block hold the arguments 4 levels below the document, 5 with the request.
# The arguments themselves are held to JSON_MAX_DEPTH by CourseToolCall, so
# parse_x(to_json(v)) == Success(v) for every value that constructs.
_ENVELOPE_DEPTH = 5


def _parse(value: object, read: Callable[[JsonValue, str], T]) -> Result[T, JsonError]:
    match freeze_json(value, "$", max_depth=JSON_MAX_DEPTH + _ENVELOPE_DEPTH):
        case Success(frozen):
            try:
                return Success(read(frozen, "$"))
            except _Invalid as invalid:
                return Failure(
                    JsonError(JsonErrorCode.NOT_COURSE_JSON, invalid.path, invalid.message)
                )
        case Failure(error):
            return Failure(error)
    raise AssertionError("unreachable")  # pragma: no cover


def parse_content_block(value: object) -> Result[CourseAssistantContent, JsonError]:
    """Read a ``{"type": "text" | "toolCall", ...}`` block; never raises.

    Like every ``parse_*`` function, it first snapshots ``value`` with
    ``freeze_json`` (so hostile containers are read safely), rejects unknown
    and missing fields, and returns ``Failure(JsonError)`` naming the
    JSON path of the first problem, e.g. ``$.content[0].arguments.x``.
    """
    return _parse(value, _content)


def parse_message(value: object) -> Result[CourseMessage, JsonError]:
    """Read a ``{"role": "user" | "assistant" | "toolResult", ...}`` message; never raises."""
    return _parse(value, _message)


def parse_request(value: object) -> Result[CourseModelRequest, JsonError]:
    """Read a ``{"id", "messages"}`` model request; never raises."""
    return _parse(value, _request)


def parse_chunk(value: object) -> Result[CourseModelChunk, JsonError]:
    """Read a ``{"type": "textDelta" | "toolCall", "requestId", ...}`` chunk; never raises."""
    return _parse(value, _chunk)


def parse_usage(value: object) -> Result[CourseModelUsage, JsonError]:
    """Read a ``{"inputTokens", "outputTokens"}`` usage; never raises."""
    return _parse(value, _usage)


def parse_response(value: object) -> Result[CourseModelResponse, JsonError]:
    """Read a ``{"id", "requestId", "message", "stopReason", "usage"}`` response; never raises.

    The stop reason's agreement with the content is not checked (see
    ``terminal_semantics_error``), just as the constructor does not.
    """
    return _parse(value, _response)
