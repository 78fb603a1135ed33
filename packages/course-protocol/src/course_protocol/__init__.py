"""The trusted, deeply immutable course model protocol and the CourseModel port.

Every value is immutable by construction: frozen slotted dataclasses,
tuples, and ``frozendict`` JSON objects. Constructors validate their fields
and deep-snapshot what they are given, raising ``CourseProtocolError``
with the path of the bad value.
"""

import inspect as _inspect

from course_protocol._blocks import (
    CourseAssistantContent,
    CourseReasoningBlock,
    CourseTextBlock,
    CourseToolCall,
    CourseVendorToolBlock,
)
from course_protocol._checks import check_id
from course_protocol._chunks import (
    CourseModelChunk,
    CourseReasoningDeltaChunk,
    CourseTextDeltaChunk,
    CourseToolCallChunk,
)
from course_protocol._decode import (
    parse_chunk,
    parse_content_block,
    parse_message,
    parse_request,
    parse_response,
    parse_usage,
)
from course_protocol._difference import JsonDifference, first_json_difference
from course_protocol._encode import CourseValue, to_json
from course_protocol._errors import (
    CourseError,
    CourseProtocolError,
    CourseProtocolErrorCode,
    JsonError,
    JsonErrorCode,
)
from course_protocol._json import (
    JSON_MAX_DEPTH,
    JSON_MAX_SHARED_VISITS,
    JsonObject,
    JsonValue,
    freeze_json,
    freeze_json_object,
    frozen_json_error,
    snapshot_json,
    thaw_json,
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
    text_from_assistant,
)
from course_protocol._opaque import CourseOpaque
from course_protocol._port import CourseModel
from course_protocol._response import (
    CourseModelResponse,
    CourseModelUsage,
    CourseStopReason,
    terminal_semantics_error,
)
from course_protocol._response_format import CourseResponseFormat
from course_protocol._tools import CourseToolSpec
from course_protocol._transcript import TranscriptIssue, TranscriptIssueCode, validate_transcript
from course_protocol.untrusted import MAX_TOKEN_COUNT, is_blank

__all__ = [
    "JSON_MAX_DEPTH",
    "JSON_MAX_SHARED_VISITS",
    "MAX_TOKEN_COUNT",
    "CourseAssistantContent",
    "CourseAssistantMessage",
    "CourseContentBlock",
    "CourseDocumentBlock",
    "CourseError",
    "CourseImageBlock",
    "CourseMessage",
    "CourseModel",
    "CourseModelChunk",
    "CourseModelRequest",
    "CourseModelResponse",
    "CourseModelUsage",
    "CourseOpaque",
    "CourseProtocolError",
    "CourseProtocolErrorCode",
    "CourseReasoningBlock",
    "CourseReasoningDeltaChunk",
    "CourseResponseFormat",
    "CourseStopReason",
    "CourseTextBlock",
    "CourseTextDeltaChunk",
    "CourseToolCall",
    "CourseToolCallChunk",
    "CourseToolResultMessage",
    "CourseToolSpec",
    "CourseUserBlock",
    "CourseUserMessage",
    "CourseValue",
    "CourseVendorToolBlock",
    "JsonDifference",
    "JsonError",
    "JsonErrorCode",
    "JsonObject",
    "JsonValue",
    "TranscriptIssue",
    "TranscriptIssueCode",
    "check_id",
    "first_json_difference",
    "freeze_json",
    "freeze_json_object",
    "frozen_json_error",
    "is_blank",
    "parse_chunk",
    "parse_content_block",
    "parse_message",
    "parse_request",
    "parse_response",
    "parse_usage",
    "snapshot_json",
    "terminal_semantics_error",
    "text_from_assistant",
    "thaw_json",
    "to_json",
    "validate_transcript",
]

# Exported names carry this public module: tracebacks and reprs never show a private one.
for _name in __all__:
    if isinstance(_value := globals()[_name], type) or _inspect.isfunction(_value):
        _value.__module__ = __name__
del _name, _value
