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
    "FUNCTION_KEY",
    "FUNCTION_TYPE",
    "ID_KEY",
    "INCLUDE_USAGE_KEY",
    "MAX_COMPLETION_TOKENS_KEY",
    "MESSAGES_KEY",
    "MODEL_KEY",
    "NAME_KEY",
    "PARAMETERS_KEY",
    "PATH",
    "ROLE_KEY",
    "STREAM_KEY",
    "STREAM_OPTIONS_KEY",
    "SYSTEM_ROLE",
    "TOOLS_KEY",
    "TOOL_CALLS_KEY",
    "TOOL_CALL_ID_KEY",
    "TOOL_ROLE",
    "TYPE_KEY",
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

# Streamed chunks: the grammar spells its keys as literals; these name the terminal frame.
DONE_DATA: Final = "[DONE]"
"""The data of the terminal frame: not JSON."""

# The error body (and the in-stream error objects).
ERROR_KEY: Final = "error"
ERROR_TYPE_KEY: Final = "type"
ERROR_CODE_KEY: Final = "code"
ERROR_MESSAGE_KEY: Final = "message"
