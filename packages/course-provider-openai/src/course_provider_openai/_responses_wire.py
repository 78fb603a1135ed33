"""The vocabulary of the OpenAI Responses API (``POST /v1/responses``), and nothing else.

These spellings belong to the untrusted side of the boundary: the wire's
name and path, the request body the adapter sends, and the error object
both OpenAI APIs spell alike. The stream's own keys and types are written
as literals in the grammar's modules, where each is read once (the
import-linter vocabulary contract keeps every spelling inside this package).
"""

from typing import Final

__all__ = [
    "ANNOTATIONS_KEY",
    "ARGUMENTS_KEY",
    "ASSISTANT_ROLE",
    "AUTO_DETAIL",
    "CALL_ID_KEY",
    "CONTENT_KEY",
    "DESCRIPTION_KEY",
    "DETAIL_KEY",
    "ENCRYPTED_CONTENT_KEY",
    "ENCRYPTED_REASONING",
    "ERROR_CODE_KEY",
    "ERROR_KEY",
    "ERROR_MESSAGE_KEY",
    "ERROR_TYPE_KEY",
    "FILENAME_KEY",
    "FILE_DATA_KEY",
    "FILE_URL_KEY",
    "FORMAT_KEY",
    "FUNCTION_CALL_OUTPUT_TYPE",
    "FUNCTION_CALL_TYPE",
    "FUNCTION_TYPE",
    "ID_KEY",
    "IMAGE_URL_KEY",
    "INCLUDE_KEY",
    "INPUT_FILE_TYPE",
    "INPUT_IMAGE_TYPE",
    "INPUT_KEY",
    "INPUT_TEXT_TYPE",
    "INSTRUCTIONS_KEY",
    "JSON_SCHEMA_TYPE",
    "MAX_OUTPUT_TOKENS_KEY",
    "MESSAGE_TYPE",
    "MODEL_KEY",
    "NAMESPACE_KEY",
    "NAME_KEY",
    "OUTPUT_KEY",
    "OUTPUT_TEXT_TYPE",
    "PARAMETERS_KEY",
    "PATH",
    "PHASE_KEY",
    "REASONING_TEXT_TYPE",
    "REASONING_TYPE",
    "REFUSAL_KEY",
    "REFUSAL_TYPE",
    "ROLE_KEY",
    "SCHEMA_KEY",
    "STORE_KEY",
    "STREAM_KEY",
    "STRICT_KEY",
    "SUMMARY_KEY",
    "SUMMARY_TEXT_TYPE",
    "TEXT_KEY",
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
ID_KEY: Final = "id"
NAMESPACE_KEY: Final = "namespace"
TEXT_KEY: Final = "text"
INCLUDE_KEY: Final = "include"
ENCRYPTED_REASONING: Final = "reasoning.encrypted_content"
"""What ``include`` asks for so that reasoning can go back with ``store: false``."""

# Reasoning, refusals and citations, read from the stream and sent back.
REASONING_TYPE: Final = "reasoning"
SUMMARY_KEY: Final = "summary"
SUMMARY_TEXT_TYPE: Final = "summary_text"
REASONING_TEXT_TYPE: Final = "reasoning_text"
ENCRYPTED_CONTENT_KEY: Final = "encrypted_content"
REFUSAL_TYPE: Final = "refusal"
REFUSAL_KEY: Final = "refusal"
OUTPUT_TEXT_TYPE: Final = "output_text"
ANNOTATIONS_KEY: Final = "annotations"
PHASE_KEY: Final = "phase"
"""An assistant message's ``commentary`` or ``final_answer`` label, sent back on the message."""

# Content parts of user messages and Tool results.
INPUT_TEXT_TYPE: Final = "input_text"
INPUT_IMAGE_TYPE: Final = "input_image"
IMAGE_URL_KEY: Final = "image_url"
DETAIL_KEY: Final = "detail"
AUTO_DETAIL: Final = "auto"
INPUT_FILE_TYPE: Final = "input_file"
FILE_DATA_KEY: Final = "file_data"
FILE_URL_KEY: Final = "file_url"
FILENAME_KEY: Final = "filename"

# Structured output: ``text.format``.
FORMAT_KEY: Final = "format"
JSON_SCHEMA_TYPE: Final = "json_schema"
SCHEMA_KEY: Final = "schema"

# The error body, the ``error`` event and ``response.failed``'s ``response.error``.
ERROR_KEY: Final = "error"
ERROR_TYPE_KEY: Final = "type"
ERROR_CODE_KEY: Final = "code"
ERROR_MESSAGE_KEY: Final = "message"
