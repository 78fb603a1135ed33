"""The Anthropic Messages API vocabulary, and nothing else.

These spellings belong to the vendor's side of the boundary. They appear in
this package only; the wire-vocabulary import contract for this package fails
when one of them shows up as a string literal in a core course package.

Spelled as in every vendor's wire module: a JSON key's constant ends in
``_KEY``; a value (a type, a role, an event, a stop reason) is named for
itself. A word that is both (``text``) has one constant for each use.

Here are the names the request, the error bodies and the stop reasons share.
The stream's grammar (`_grammar`, `_blocks`, `_usage`) and its mapping spell
the many event, block, delta and field names they read as literals, as the
vendor's reference does: a grammar reads best beside the language it judges.
"""

from typing import Final

__all__ = [
    "API_KEY_HEADER",
    "API_KEY_VARIABLE",
    "API_VERSION",
    "API_VERSION_HEADER",
    "ASSISTANT",
    "BASE64",
    "BASE_URL_VARIABLE",
    "BETA_HEADER",
    "BUDGET_TOKENS_KEY",
    "CACHE_CONTROL_KEY",
    "CATEGORY_KEY",
    "CHOICE_ANY",
    "CHOICE_AUTO",
    "CHOICE_NONE",
    "CHOICE_TOOL",
    "CITATIONS_KEY",
    "COMPACTION",
    "CONTENT_KEY",
    "DATA_KEY",
    "DEFAULT_BASE_URL",
    "DESCRIPTION_KEY",
    "DISABLE_PARALLEL_TOOL_USE_KEY",
    "DOCUMENT",
    "ENABLED",
    "ENCRYPTED_CONTENT_KEY",
    "END_TURN",
    "EPHEMERAL",
    "ERROR",
    "ERROR_KEY",
    "EXPLANATION_KEY",
    "FORMAT_KEY",
    "ID_KEY",
    "IMAGE",
    "INDEX_KEY",
    "INPUT_KEY",
    "INPUT_SCHEMA_KEY",
    "IS_ERROR_KEY",
    "JSON_SCHEMA",
    "MAX_TOKENS",
    "MAX_TOKENS_KEY",
    "MEDIA_TYPE_KEY",
    "MESSAGES_KEY",
    "MESSAGES_PATH",
    "MESSAGE_KEY",
    "METADATA_KEY",
    "MODEL_CONTEXT_WINDOW_EXCEEDED",
    "MODEL_KEY",
    "NAME_KEY",
    "OUTPUT_CONFIG_KEY",
    "PAUSE_TURN",
    "PLAIN_TEXT_MEDIA_TYPE",
    "REDACTED_THINKING",
    "REFUSAL",
    "ROLE_KEY",
    "SCHEMA_KEY",
    "SIGNATURE_KEY",
    "SOURCE_KEY",
    "STOP_DETAILS_KEY",
    "STOP_REASON_KEY",
    "STOP_SEQUENCE",
    "STOP_SEQUENCES_KEY",
    "STREAM_KEY",
    "STRICT_KEY",
    "SYSTEM_KEY",
    "TEMPERATURE_KEY",
    "TEXT",
    "TEXT_KEY",
    "THINKING",
    "THINKING_KEY",
    "TITLE_KEY",
    "TOOLS_KEY",
    "TOOL_CHOICE_KEY",
    "TOOL_RESULT",
    "TOOL_USE",
    "TOOL_USE_ID_KEY",
    "TOP_K_KEY",
    "TOP_P_KEY",
    "TTL_KEY",
    "TYPE_KEY",
    "URL",
    "URL_KEY",
    "USER",
    "USER_ID_KEY",
    "WIRE",
]

WIRE: Final = "anthropic-messages"
"""The course's name for this wire format (``VendorError.vendor``, ``--wire``)."""

DEFAULT_BASE_URL: Final = "https://api.anthropic.com"
BASE_URL_VARIABLE: Final = "ANTHROPIC_BASE_URL"
"""The variable the official SDK reads its base URL from, spelled as ``DEFAULT_BASE_URL`` is."""
MESSAGES_PATH: Final = "/v1/messages"
API_KEY_HEADER: Final = "x-api-key"
API_KEY_VARIABLE: Final = "ANTHROPIC_API_KEY"
"""The environment variable a model reads its key from when none is given (as the SDK does)."""
API_VERSION_HEADER: Final = "anthropic-version"
API_VERSION: Final = "2023-06-01"

# Keys shared by events, blocks and the request body.
TYPE_KEY: Final = "type"
ID_KEY: Final = "id"
NAME_KEY: Final = "name"
TEXT_KEY: Final = "text"
TEXT: Final = "text"
"""The text block's type (its text is under `TEXT_KEY`)."""
INDEX_KEY: Final = "index"
ROLE_KEY: Final = "role"
USER: Final = "user"
ASSISTANT: Final = "assistant"
CONTENT_KEY: Final = "content"
MESSAGE_KEY: Final = "message"

# The request body.
MODEL_KEY: Final = "model"
MAX_TOKENS_KEY: Final = "max_tokens"
SYSTEM_KEY: Final = "system"
MESSAGES_KEY: Final = "messages"
TOOLS_KEY: Final = "tools"
STREAM_KEY: Final = "stream"
DESCRIPTION_KEY: Final = "description"
INPUT_SCHEMA_KEY: Final = "input_schema"
TOOL_RESULT: Final = "tool_result"
TOOL_USE_ID_KEY: Final = "tool_use_id"
IS_ERROR_KEY: Final = "is_error"

# The error body, and the stream's error event.
ERROR: Final = "error"
"""The error body's type (its error object is under `ERROR_KEY`)."""
ERROR_KEY: Final = "error"

# The fields of a stop.
STOP_REASON_KEY: Final = "stop_reason"
STOP_DETAILS_KEY: Final = "stop_details"
EXPLANATION_KEY: Final = "explanation"
CATEGORY_KEY: Final = "category"

# Content block types, in the request.
TOOL_USE: Final = "tool_use"
"""The Tool-call block's type, and the stop reason of a response that waits for Tool results."""
INPUT_KEY: Final = "input"
THINKING_KEY: Final = "thinking"
"""The key of the request's thinking configuration."""
THINKING: Final = "thinking"
"""The thinking block's type (its text is under a key of the same spelling)."""
SIGNATURE_KEY: Final = "signature"
REDACTED_THINKING: Final = "redacted_thinking"
DATA_KEY: Final = "data"
ENCRYPTED_CONTENT_KEY: Final = "encrypted_content"
CITATIONS_KEY: Final = "citations"
IMAGE: Final = "image"
DOCUMENT: Final = "document"
SOURCE_KEY: Final = "source"
BASE64: Final = "base64"
URL: Final = "url"
"""The source type of a block the vendor fetches (its address is under `URL_KEY`)."""
URL_KEY: Final = "url"
MEDIA_TYPE_KEY: Final = "media_type"
TITLE_KEY: Final = "title"
PLAIN_TEXT_MEDIA_TYPE: Final = "text/plain"
"""The media type of a document sent as text (a ``text`` source), not as base64 bytes."""

# Stop reasons (``TOOL_USE`` above is one too).
END_TURN: Final = "end_turn"
STOP_SEQUENCE: Final = "stop_sequence"
REFUSAL: Final = "refusal"
MAX_TOKENS: Final = "max_tokens"
MODEL_CONTEXT_WINDOW_EXCEEDED: Final = "model_context_window_exceeded"
PAUSE_TURN: Final = "pause_turn"
COMPACTION: Final = "compaction"
"""The response paused after a compaction block (``pause_after_compaction``)."""

# Request options (``THINKING_KEY`` above is one too).
TEMPERATURE_KEY: Final = "temperature"
TOP_P_KEY: Final = "top_p"
TOP_K_KEY: Final = "top_k"
STOP_SEQUENCES_KEY: Final = "stop_sequences"
TOOL_CHOICE_KEY: Final = "tool_choice"
DISABLE_PARALLEL_TOOL_USE_KEY: Final = "disable_parallel_tool_use"
CHOICE_AUTO: Final = "auto"
CHOICE_ANY: Final = "any"
CHOICE_NONE: Final = "none"
CHOICE_TOOL: Final = "tool"
METADATA_KEY: Final = "metadata"
USER_ID_KEY: Final = "user_id"
ENABLED: Final = "enabled"
BUDGET_TOKENS_KEY: Final = "budget_tokens"
CACHE_CONTROL_KEY: Final = "cache_control"
STRICT_KEY: Final = "strict"
OUTPUT_CONFIG_KEY: Final = "output_config"
FORMAT_KEY: Final = "format"
JSON_SCHEMA: Final = "json_schema"
SCHEMA_KEY: Final = "schema"
EPHEMERAL: Final = "ephemeral"
TTL_KEY: Final = "ttl"
BETA_HEADER: Final = "anthropic-beta"
"""Beta features, comma-separated in one header."""
