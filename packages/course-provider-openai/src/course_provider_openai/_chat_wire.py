"""The vocabulary of OpenAI Chat Completions (``POST /v1/chat/completions``), and nothing else.

These spellings belong to the untrusted side of the boundary: the request
body the adapter sends and the chunks it streams back. They appear in this
package only; the stream's grammar (`_chat_grammar` and its parts) writes
the chunk's keys as literals, which read better there than constants. The
error-body names at the end are the ones both OpenAI APIs send
(``{"error": {"message", "type", "param", "code"}}``).
"""

from typing import Final

__all__ = [
    "ARGUMENTS_KEY",
    "ASSISTANT_ROLE",
    "CONTENT_KEY",
    "DESCRIPTION_KEY",
    "DONE_DATA",
    "ERROR_CODE_KEY",
    "ERROR_KEY",
    "ERROR_MESSAGE_KEY",
    "ERROR_TYPE_KEY",
    "FILENAME_KEY",
    "FILE_DATA_KEY",
    "FILE_KEY",
    "FILE_TYPE",
    "FUNCTION_KEY",
    "FUNCTION_TYPE",
    "ID_KEY",
    "IMAGE_URL_KEY",
    "IMAGE_URL_TYPE",
    "INCLUDE_USAGE_KEY",
    "JSON_SCHEMA_KEY",
    "JSON_SCHEMA_TYPE",
    "MAX_COMPLETION_TOKENS_KEY",
    "MESSAGES_KEY",
    "MODEL_KEY",
    "NAME_KEY",
    "PARAMETERS_KEY",
    "PATH",
    "RESPONSE_FORMAT_KEY",
    "ROLE_KEY",
    "SCHEMA_KEY",
    "STREAM_KEY",
    "STREAM_OPTIONS_KEY",
    "STRICT_KEY",
    "SYSTEM_ROLE",
    "TEXT_KEY",
    "TEXT_TYPE",
    "TOOLS_KEY",
    "TOOL_CALLS_KEY",
    "TOOL_CALL_ID_KEY",
    "TOOL_ROLE",
    "TYPE_KEY",
    "URL_KEY",
    "USER_ROLE",
    "WIRE",
]

WIRE: Final = "openai-chat"
"""The wire's name, as ``--wire`` and the vendor registry take it."""
PATH: Final = "/chat/completions"
"""The endpoint under the base URL (``https://api.openai.com/v1``), as the official SDK joins it."""

# Request body.
MODEL_KEY: Final = "model"
MESSAGES_KEY: Final = "messages"
TOOLS_KEY: Final = "tools"
MAX_COMPLETION_TOKENS_KEY: Final = "max_completion_tokens"
STREAM_KEY: Final = "stream"
STREAM_OPTIONS_KEY: Final = "stream_options"
INCLUDE_USAGE_KEY: Final = "include_usage"

ROLE_KEY: Final = "role"
CONTENT_KEY: Final = "content"
SYSTEM_ROLE: Final = "system"
USER_ROLE: Final = "user"
ASSISTANT_ROLE: Final = "assistant"
TOOL_ROLE: Final = "tool"
TOOL_CALL_ID_KEY: Final = "tool_call_id"
TOOL_CALLS_KEY: Final = "tool_calls"
ID_KEY: Final = "id"

TYPE_KEY: Final = "type"
FUNCTION_TYPE: Final = "function"
FUNCTION_KEY: Final = "function"
NAME_KEY: Final = "name"
DESCRIPTION_KEY: Final = "description"
PARAMETERS_KEY: Final = "parameters"
ARGUMENTS_KEY: Final = "arguments"
STRICT_KEY: Final = "strict"

# Structured output: response_format {"type": "json_schema", "json_schema": {...}}.
RESPONSE_FORMAT_KEY: Final = "response_format"
JSON_SCHEMA_TYPE: Final = "json_schema"
JSON_SCHEMA_KEY: Final = "json_schema"
SCHEMA_KEY: Final = "schema"

# Content parts of a user message (a Tool message takes text parts only).
TEXT_TYPE: Final = "text"
TEXT_KEY: Final = "text"
IMAGE_URL_TYPE: Final = "image_url"
IMAGE_URL_KEY: Final = "image_url"
URL_KEY: Final = "url"
FILE_TYPE: Final = "file"
FILE_KEY: Final = "file"
FILE_DATA_KEY: Final = "file_data"
FILENAME_KEY: Final = "filename"

# Streamed chunks: the grammar spells its keys as literals; these name the terminal frame.
DONE_DATA: Final = "[DONE]"
"""The data of the terminal frame: not JSON."""

# The error body (and the in-stream error objects).
ERROR_KEY: Final = "error"
ERROR_TYPE_KEY: Final = "type"
ERROR_CODE_KEY: Final = "code"
ERROR_MESSAGE_KEY: Final = "message"
