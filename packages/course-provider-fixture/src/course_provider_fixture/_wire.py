"""The transport vocabulary of provider fixtures, and nothing else.

These spellings belong to the untrusted side of the boundary. They appear in
this package only; the wire-vocabulary import contract fails when one of them
shows up as a string literal anywhere else in the course packages.
"""

from typing import Final

__all__ = [
    "ARGUMENTS_KEY",
    "ASSISTANT_MESSAGE_ID_PREFIX",
    "ASSISTANT_ROLE",
    "ERROR_CODE_KEY",
    "ERROR_MESSAGE_KEY",
    "INPUT_TOKENS_ALIASES",
    "OUTPUT_TOKENS_ALIASES",
    "RECORDS_KEY",
    "REQUEST_KEY",
    "RESPONSES_KEY",
    "RESPONSE_END",
    "RESPONSE_ID_KEY",
    "RESPONSE_START",
    "ROLE_KEY",
    "SCHEMA_VERSION_KEY",
    "STOP_REASON_KEY",
    "SUPPORTED_SCHEMA_VERSION",
    "TEXT_DELTA",
    "TEXT_KEY",
    "TOOL_CALL",
    "TOOL_CALL_ID_KEY",
    "TOOL_NAME_KEY",
    "TRANSPORT_ERROR",
    "TYPE_KEY",
    "USAGE_KEY",
    "WIRE_STOP",
    "WIRE_TOOL_CALL_STOP",
]

SCHEMA_VERSION_KEY: Final = "schemaVersion"
SUPPORTED_SCHEMA_VERSION: Final = 1
RESPONSES_KEY: Final = "responses"
RECORDS_KEY: Final = "records"
REQUEST_KEY: Final = "request"

TYPE_KEY: Final = "type"
RESPONSE_START: Final = "response_start"
TEXT_DELTA: Final = "text_delta"
TOOL_CALL: Final = "tool_call"
RESPONSE_END: Final = "response_end"
TRANSPORT_ERROR: Final = "transport_error"

RESPONSE_ID_KEY: Final = "responseId"
ROLE_KEY: Final = "role"
ASSISTANT_ROLE: Final = "assistant"
TEXT_KEY: Final = "text"
TOOL_CALL_ID_KEY: Final = "id"
TOOL_NAME_KEY: Final = "name"
ARGUMENTS_KEY: Final = "arguments"
STOP_REASON_KEY: Final = "stopReason"
USAGE_KEY: Final = "usage"
ERROR_CODE_KEY: Final = "code"
ERROR_MESSAGE_KEY: Final = "message"

WIRE_STOP: Final = "stop"
WIRE_TOOL_CALL_STOP: Final = TOOL_CALL

INPUT_TOKENS_ALIASES: Final = ("inputTokens", "input_tokens")
OUTPUT_TOKENS_ALIASES: Final = ("outputTokens", "output_tokens")

ASSISTANT_MESSAGE_ID_PREFIX: Final = "message-"
