"""The course JSON codec, decoding: course-vocabulary JSON values back to protocol values.

Every ``parse_*`` function returns a ``returns`` ``Result``: the value, or a
``JsonError`` naming the JSON path of the first problem.

Over 300 lines on purpose: one reader of one vocabulary, whose strict
object, array and discriminant reads every value shares.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Callable
from typing import TypeVar, cast

from frozendict import frozendict
from returns.result import Failure, Result, Success

from course_protocol._blocks import (
    CourseAssistantContent,
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
from course_protocol._errors import CourseProtocolError, JsonError, JsonErrorCode
from course_protocol._json import (
    JSON_MAX_DEPTH,
    JsonObject,
    JsonValue,
    freeze_json,
    key_segment,
)
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
from course_protocol._response import CourseModelResponse, CourseModelUsage, CourseStopReason
from course_protocol.untrusted import type_name

__all__ = [
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
    "cache_read_tokens": "cacheReadTokens",
    "cache_write_tokens": "cacheWriteTokens",
    "reasoning_tokens": "reasoningTokens",
    "media_type": "mediaType",
}

_ASSISTANT_BLOCKS = ("text", "toolCall", "reasoning", "vendorTool")
_USER_BLOCKS = ("text", "image", "document")
_EVERY_BLOCK = ("text", "toolCall", "reasoning", "vendorTool", "image", "document")
_STOP_REASONS = tuple(reason.value for reason in CourseStopReason)


def _build(path: str, build: Callable[[], T]) -> T:
    """Run a constructor, reporting its error at the JSON path of the bad field."""
    try:
        return build()
    except CourseProtocolError as error:
        field, separator, rest = error.path.partition(".")
        head, bracket, tail = field.partition("[")
        json_path = f"{path}.{_JSON_NAMES.get(head, head)}{bracket}{tail}{separator}{rest}"
        raise _Invalid(json_path, error.message) from None


def _object(
    value: JsonValue, path: str, fields: tuple[str, ...], optional: tuple[str, ...] = ()
) -> JsonObject:
    """``value`` as an object holding every one of ``fields``, and of ``optional`` only some.

    An optional field is left out when it is empty or absent, so ``null``
    and ``[]`` are refused there: each value has one spelling.
    """
    if type(value) is not frozendict:
        raise _Invalid(path, f"must be a JSON object, not {type_name(value)}")
    obj = value
    for key in obj:
        if key not in fields and key not in optional:
            raise _Invalid(path + key_segment(key), "is not a field here")
    for field in fields:
        if field not in obj:
            raise _Invalid(path, f"lacks the field {field!r}")
    for field in optional:
        if field in obj and (obj[field] is None or obj[field] == ()):
            raise _Invalid(f"{path}.{field}", "is left out when empty or absent, never null or []")
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


def _opaque(value: JsonValue, path: str) -> CourseOpaque:
    obj = _object(value, path, ("wire", "data"))
    return _build(path, lambda: CourseOpaque(cast(str, obj["wire"]), cast(JsonObject, obj["data"])))


def _optional_opaque(obj: JsonObject, path: str) -> CourseOpaque | None:
    if "opaque" not in obj:
        return None
    return _opaque(obj["opaque"], f"{path}.opaque")


def _bytes(value: JsonValue, path: str) -> bytes:
    if type(value) is not str:
        raise _Invalid(path, f"must be a base64 str, not {type_name(value)}")
    try:
        data = base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError):
        raise _Invalid(path, "is not base64 (RFC 4648: standard alphabet, padded)") from None
    # One spelling per value: unused bits set, or other padding, decode the
    # same bytes from another text.
    if base64.b64encode(data).decode("ascii") != value:
        raise _Invalid(path, "is not canonical base64 (RFC 4648: standard alphabet, padded)")
    return data


def _block(value: JsonValue, path: str, allowed: tuple[str, ...]) -> CourseContentBlock:
    tag = _discriminant(value, path, "type", allowed)
    if tag == "text":
        obj = _object(value, path, ("type", "text"), ("citations", "opaque"))
        citations = tuple(
            _opaque(item, f"{path}.citations[{index}]")
            for index, item in enumerate(_array(obj.get("citations", ()), f"{path}.citations"))
        )
        opaque = _optional_opaque(obj, path)
        return _build(
            path,
            lambda: CourseTextBlock(cast(str, obj["text"]), citations=citations, opaque=opaque),
        )
    if tag == "toolCall":
        return _tool_call(value, path)
    if tag == "reasoning":
        obj = _object(value, path, ("type", "text"), ("opaque",))
        opaque = _optional_opaque(obj, path)
        return _build(path, lambda: CourseReasoningBlock(cast(str, obj["text"]), opaque=opaque))
    if tag == "vendorTool":
        obj = _object(value, path, ("type", "kind", "opaque"))
        vendor_opaque = _opaque(obj["opaque"], f"{path}.opaque")
        return _build(path, lambda: CourseVendorToolBlock(cast(str, obj["kind"]), vendor_opaque))
    if tag == "image":
        obj = _object(value, path, ("type", "mediaType"), ("data", "url"))
        data = _bytes(obj["data"], f"{path}.data") if "data" in obj else None
        url = cast("str | None", obj.get("url"))
        return _build(
            path, lambda: CourseImageBlock(cast(str, obj["mediaType"]), data=data, url=url)
        )
    obj = _object(value, path, ("type", "mediaType"), ("data", "url", "title"))
    data = _bytes(obj["data"], f"{path}.data") if "data" in obj else None
    return _build(
        path,
        lambda: CourseDocumentBlock(
            cast(str, obj["mediaType"]),
            data=data,
            url=cast("str | None", obj.get("url")),
            title=cast("str | None", obj.get("title")),
        ),
    )


def _tool_call(value: JsonValue, path: str) -> CourseToolCall:
    _discriminant(value, path, "type", ("toolCall",))
    obj = _object(value, path, ("type", "id", "name", "arguments"), ("opaque",))
    opaque = _optional_opaque(obj, path)
    return _build(
        path,
        lambda: CourseToolCall(
            cast(str, obj["id"]),
            cast(str, obj["name"]),
            cast(JsonObject, obj["arguments"]),
            opaque=opaque,
        ),
    )


def _user_content(value: JsonValue, path: str) -> str | tuple[CourseUserBlock, ...]:
    if type(value) is str:
        return value
    if type(value) is not tuple:
        raise _Invalid(path, f"must be a str or a JSON array of blocks, not {type_name(value)}")
    return tuple(
        cast(CourseUserBlock, _block(block, f"{path}[{index}]", _USER_BLOCKS))
        for index, block in enumerate(value)
    )


def _message(value: JsonValue, path: str) -> CourseMessage:
    role = _discriminant(value, path, "role", ("user", "assistant", "toolResult"))
    if role == "user":
        obj = _object(value, path, ("role", "id", "content"))
        user_content = _user_content(obj["content"], f"{path}.content")
        return _build(path, lambda: CourseUserMessage(cast(str, obj["id"]), user_content))
    if role == "assistant":
        obj = _object(value, path, ("role", "id", "content"))
        blocks = _array(obj["content"], f"{path}.content")
        content = tuple(
            cast(CourseAssistantContent, _block(block, f"{path}.content[{i}]", _ASSISTANT_BLOCKS))
            for i, block in enumerate(blocks)
        )
        return _build(path, lambda: CourseAssistantMessage(cast(str, obj["id"]), content))
    obj = _object(value, path, ("role", "id", "toolCallId", "toolName", "content", "isError"))
    result_content = _user_content(obj["content"], f"{path}.content")
    return _build(
        path,
        lambda: CourseToolResultMessage(
            cast(str, obj["id"]),
            cast(str, obj["toolCallId"]),
            cast(str, obj["toolName"]),
            result_content,
            cast(bool, obj["isError"]),
        ),
    )


def _request(value: JsonValue, path: str) -> CourseModelRequest:
    obj = _object(value, path, ("id", "messages"))
    items = _array(obj["messages"], f"{path}.messages")
    messages = tuple(_message(item, f"{path}.messages[{i}]") for i, item in enumerate(items))
    return _build(path, lambda: CourseModelRequest(cast(str, obj["id"]), messages))


def _chunk(value: JsonValue, path: str) -> CourseModelChunk:
    tag = _discriminant(value, path, "type", ("textDelta", "toolCall", "reasoningDelta"))
    if tag == "toolCall":
        obj = _object(value, path, ("type", "requestId", "toolCall"))
        call = _tool_call(obj["toolCall"], f"{path}.toolCall")
        return _build(path, lambda: CourseToolCallChunk(cast(str, obj["requestId"]), call))
    obj = _object(value, path, ("type", "requestId", "delta"))
    chunk_type = CourseTextDeltaChunk if tag == "textDelta" else CourseReasoningDeltaChunk
    return _build(path, lambda: chunk_type(cast(str, obj["requestId"]), cast(str, obj["delta"])))


def _usage(value: JsonValue, path: str) -> CourseModelUsage:
    obj = _object(
        value,
        path,
        ("inputTokens", "outputTokens"),
        ("cacheReadTokens", "cacheWriteTokens", "reasoningTokens"),
    )
    return _build(
        path,
        lambda: CourseModelUsage(
            cast(int, obj["inputTokens"]),
            cast(int, obj["outputTokens"]),
            cache_read_tokens=cast("int | None", obj.get("cacheReadTokens")),
            cache_write_tokens=cast("int | None", obj.get("cacheWriteTokens")),
            reasoning_tokens=cast("int | None", obj.get("reasoningTokens")),
        ),
    )


def _stop_reason(value: JsonValue, path: str) -> CourseStopReason:
    for reason in CourseStopReason:
        if type(value) is str and value == reason.value:
            return reason
    raise _Invalid(path, f"must be one of {', '.join(map(repr, _STOP_REASONS))}")


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
# request, its messages array, a message, its content array, a text block,
# its citations array and a citation's opaque object hold the citation's
# data 7 levels below the document (a Tool call's arguments sit 5 below).
# The wrapped values themselves are held to JSON_MAX_DEPTH by their
# constructors, so parse_x(to_json(v)) == Success(v) for every value that
# constructs.
_ENVELOPE_DEPTH = 7


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


def parse_content_block(value: object) -> Result[CourseContentBlock, JsonError]:
    """Read a block of any message, ``{"type": "text" | "toolCall" | ...}``; never raises.

    The types are ``text``, ``toolCall``, ``reasoning``, ``vendorTool``,
    ``image`` and ``document``; which of them a message may hold is the
    message's rule (`parse_message`).

    Like every ``parse_*`` function, it first snapshots ``value`` with
    ``freeze_json`` (so hostile containers are read safely), rejects unknown
    and missing fields, and returns ``Failure(JsonError)`` naming the
    JSON path of the first problem, e.g. ``$.content[0].arguments.x``.
    """
    return _parse(value, lambda block, path: _block(block, path, _EVERY_BLOCK))


def parse_message(value: object) -> Result[CourseMessage, JsonError]:
    """Read a ``{"role": "user" | "assistant" | "toolResult", ...}`` message; never raises."""
    return _parse(value, _message)


def parse_request(value: object) -> Result[CourseModelRequest, JsonError]:
    """Read a ``{"id", "messages"}`` model request; never raises."""
    return _parse(value, _request)


def parse_chunk(value: object) -> Result[CourseModelChunk, JsonError]:
    """Read a ``{"type": "textDelta" | "toolCall" | "reasoningDelta", "requestId", ...}`` chunk.

    Never raises.
    """
    return _parse(value, _chunk)


def parse_usage(value: object) -> Result[CourseModelUsage, JsonError]:
    """Read a ``{"inputTokens", "outputTokens", ...}`` usage; never raises.

    ``cacheReadTokens``, ``cacheWriteTokens`` and ``reasoningTokens`` are
    there when the vendor sent them, left out otherwise.
    """
    return _parse(value, _usage)


def parse_response(value: object) -> Result[CourseModelResponse, JsonError]:
    """Read a ``{"id", "requestId", "message", "stopReason", "usage"}`` response; never raises.

    The stop reason's agreement with the content is not checked (see
    ``terminal_semantics_error``), just as the constructor does not.
    """
    return _parse(value, _response)
