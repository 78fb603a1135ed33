"""The transport vocabulary of provider fixtures, and nothing else.

These spellings belong to the untrusted side of the boundary. They appear in
this package only; the wire-vocabulary import contract fails when one of them
shows up as a string literal anywhere else in the course packages.
"""

from typing import Final

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
