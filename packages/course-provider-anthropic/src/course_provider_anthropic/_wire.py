"""The Anthropic Messages API vocabulary, and nothing else.

These spellings belong to the vendor's side of the boundary. They appear in
this package only; the wire-vocabulary import contract for this package fails
when one of them shows up as a string literal in a core course package.

Spelled as in every vendor's wire module: a JSON key's constant ends in
``_KEY``; a value (a type, a role, an event, a stop reason) is named for
itself. A word that is both (``text``) has one constant for each use.
"""

from typing import Final

__all__ = [
    "API_KEY_HEADER",
    "API_KEY_VARIABLE",
    "API_VERSION",
    "API_VERSION_HEADER",
    "ASSISTANT",
    "BASE_URL_VARIABLE",
    "BETA_HEADER",
    "BUDGET_TOKENS_KEY",
    "CACHE_CONTROL_KEY",
    "CACHE_CREATION_INPUT_TOKENS_KEY",
    "CACHE_READ_INPUT_TOKENS_KEY",
    "CATEGORY_KEY",
    "CHOICE_ANY",
    "CHOICE_AUTO",
    "CHOICE_NONE",
    "CHOICE_TOOL",
    "CITATIONS_DELTA",
    "CITATION_KEY",
    "CONTENT_BLOCK_DELTA",
    "CONTENT_BLOCK_KEY",
    "CONTENT_BLOCK_START",
    "CONTENT_BLOCK_STOP",
    "CONTENT_KEY",
    "DEFAULT_BASE_URL",
    "DELTA_KEY",
    "DESCRIPTION_KEY",
    "DISABLE_PARALLEL_TOOL_USE_KEY",
    "ENABLED",
    "END_TURN",
    "EPHEMERAL",
    "ERROR",
    "ERROR_KEY",
    "EXPLANATION_KEY",
    "ID_KEY",
    "INDEX_KEY",
    "INPUT_JSON_DELTA",
    "INPUT_KEY",
    "INPUT_SCHEMA_KEY",
    "INPUT_TOKENS_KEY",
    "IS_ERROR_KEY",
    "MAX_TOKENS",
    "MAX_TOKENS_KEY",
    "MESSAGES_KEY",
    "MESSAGES_PATH",
    "MESSAGE_DELTA",
    "MESSAGE_KEY",
    "MESSAGE_START",
    "MESSAGE_STOP",
    "METADATA_KEY",
    "MODEL_CONTEXT_WINDOW_EXCEEDED",
    "MODEL_KEY",
    "NAME_KEY",
    "OUTPUT_TOKENS_KEY",
    "PARTIAL_JSON_KEY",
    "PAUSE_TURN",
    "PING",
    "REDACTED_THINKING",
    "REFUSAL",
    "ROLE_KEY",
    "SERVER_TOOL_BLOCKS",
    "SIGNATURE_DELTA",
    "SIGNATURE_KEY",
    "STOP_DETAILS_KEY",
    "STOP_REASON_KEY",
    "STOP_SEQUENCE",
    "STOP_SEQUENCES_KEY",
    "STREAM_KEY",
    "SYSTEM_KEY",
    "TEMPERATURE_KEY",
    "TEXT",
    "TEXT_DELTA",
    "TEXT_KEY",
    "THINKING",
    "THINKING_DELTA",
    "THINKING_KEY",
    "TOOLS_KEY",
    "TOOL_CHOICE_KEY",
    "TOOL_RESULT",
    "TOOL_USE",
    "TOOL_USE_ID_KEY",
    "TOP_K_KEY",
    "TOP_P_KEY",
    "TTL_KEY",
    "TYPE_KEY",
    "USAGE_KEY",
    "USER",
    "USER_ID_KEY",
    "VENDOR",
]

VENDOR: Final = "anthropic-messages"
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

# Stream event types: the SSE ``event:`` name always equals ``data.type``.
MESSAGE_START: Final = "message_start"
CONTENT_BLOCK_START: Final = "content_block_start"
CONTENT_BLOCK_DELTA: Final = "content_block_delta"
CONTENT_BLOCK_STOP: Final = "content_block_stop"
MESSAGE_DELTA: Final = "message_delta"
MESSAGE_STOP: Final = "message_stop"
PING: Final = "ping"
ERROR: Final = "error"
"""The mid-stream error event's type (its error object is under `ERROR_KEY`)."""
ERROR_KEY: Final = "error"

# Event fields.
CONTENT_BLOCK_KEY: Final = "content_block"
DELTA_KEY: Final = "delta"
USAGE_KEY: Final = "usage"
INPUT_TOKENS_KEY: Final = "input_tokens"
OUTPUT_TOKENS_KEY: Final = "output_tokens"
CACHE_CREATION_INPUT_TOKENS_KEY: Final = "cache_creation_input_tokens"
CACHE_READ_INPUT_TOKENS_KEY: Final = "cache_read_input_tokens"
STOP_REASON_KEY: Final = "stop_reason"
STOP_DETAILS_KEY: Final = "stop_details"
EXPLANATION_KEY: Final = "explanation"
CATEGORY_KEY: Final = "category"

# Content block types.
TOOL_USE: Final = "tool_use"
"""The Tool-call block's type, and the stop reason of a response that waits for Tool results."""
INPUT_KEY: Final = "input"
THINKING: Final = "thinking"
"""The thinking block's type."""
THINKING_KEY: Final = "thinking"
"""The key of a thinking delta's text, and of the request's thinking configuration."""
REDACTED_THINKING: Final = "redacted_thinking"
SERVER_TOOL_BLOCKS: Final = frozenset(
    {
        "server_tool_use",
        "web_search_tool_result",
        "web_fetch_tool_result",
        "code_execution_tool_result",
        "bash_code_execution_tool_result",
        "text_editor_code_execution_tool_result",
        "tool_search_tool_result",
        "container_upload",
        "mcp_tool_use",
        "mcp_tool_result",
    }
)
"""Blocks of Tools the vendor runs itself (web search, code execution, MCP): their results."""

# Delta types and their payload keys.
TEXT_DELTA: Final = "text_delta"
INPUT_JSON_DELTA: Final = "input_json_delta"
PARTIAL_JSON_KEY: Final = "partial_json"
THINKING_DELTA: Final = "thinking_delta"
SIGNATURE_DELTA: Final = "signature_delta"
SIGNATURE_KEY: Final = "signature"
CITATIONS_DELTA: Final = "citations_delta"
CITATION_KEY: Final = "citation"

# Stop reasons (``TOOL_USE`` above is one too).
MAX_TOKENS: Final = "max_tokens"
END_TURN: Final = "end_turn"
STOP_SEQUENCE: Final = "stop_sequence"
REFUSAL: Final = "refusal"
PAUSE_TURN: Final = "pause_turn"
MODEL_CONTEXT_WINDOW_EXCEEDED: Final = "model_context_window_exceeded"

# Request options (``THINKING`` above is the request's field too).
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
EPHEMERAL: Final = "ephemeral"
TTL_KEY: Final = "ttl"
BETA_HEADER: Final = "anthropic-beta"
"""Beta features, comma-separated in one header."""
