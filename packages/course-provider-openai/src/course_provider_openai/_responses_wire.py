"""The vocabulary of the OpenAI Responses API (``POST /v1/responses``), and nothing else.

These spellings belong to the untrusted side of the boundary: the wire's
name and path, the request body the adapter sends, and the error object
both OpenAI APIs spell alike. The stream's own keys and types are written
as literals in the grammar's modules, where each is read once (the
import-linter vocabulary contract keeps every spelling inside this package).
"""

from typing import Final

__all__ = [
    "ARGUMENTS_KEY",
    "ASSISTANT_ROLE",
    "CALL_ID_KEY",
    "CONTENT_KEY",
    "DESCRIPTION_KEY",
    "ERROR_CODE_KEY",
    "ERROR_KEY",
    "ERROR_MESSAGE_KEY",
    "ERROR_TYPE_KEY",
    "FUNCTION_CALL_OUTPUT_TYPE",
    "FUNCTION_CALL_TYPE",
    "FUNCTION_TYPE",
    "INPUT_KEY",
    "INSTRUCTIONS_KEY",
    "MAX_OUTPUT_TOKENS_KEY",
    "MESSAGE_TYPE",
    "MODEL_KEY",
    "NAME_KEY",
    "OUTPUT_KEY",
    "PARAMETERS_KEY",
    "PATH",
    "ROLE_KEY",
    "STORE_KEY",
    "STREAM_KEY",
    "STRICT_KEY",
    "TOOLS_KEY",
    "TYPE_KEY",
    "USER_ROLE",
    "WIRE",
]

WIRE: Final = "openai-responses"
"""The wire's name, as the vendor registry and ``--wire`` know it."""
PATH: Final = "/responses"
"""The endpoint under the base URL (``https://api.openai.com/v1``), as the official SDK joins it."""

# Request body.
MODEL_KEY: Final = "model"
INSTRUCTIONS_KEY: Final = "instructions"
INPUT_KEY: Final = "input"
TOOLS_KEY: Final = "tools"
MAX_OUTPUT_TOKENS_KEY: Final = "max_output_tokens"
STORE_KEY: Final = "store"
STREAM_KEY: Final = "stream"

TYPE_KEY: Final = "type"
MESSAGE_TYPE: Final = "message"
ROLE_KEY: Final = "role"
USER_ROLE: Final = "user"
ASSISTANT_ROLE: Final = "assistant"
CONTENT_KEY: Final = "content"
FUNCTION_CALL_TYPE: Final = "function_call"
FUNCTION_CALL_OUTPUT_TYPE: Final = "function_call_output"
CALL_ID_KEY: Final = "call_id"
NAME_KEY: Final = "name"
ARGUMENTS_KEY: Final = "arguments"
OUTPUT_KEY: Final = "output"
FUNCTION_TYPE: Final = "function"
DESCRIPTION_KEY: Final = "description"
PARAMETERS_KEY: Final = "parameters"
STRICT_KEY: Final = "strict"

# The error body, the ``error`` event and ``response.failed``'s ``response.error``.
ERROR_KEY: Final = "error"
ERROR_TYPE_KEY: Final = "type"
ERROR_CODE_KEY: Final = "code"
ERROR_MESSAGE_KEY: Final = "message"
