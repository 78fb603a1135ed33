"""The Anthropic Messages API vocabulary, and nothing else.

These spellings belong to the vendor's side of the boundary. They appear in
this package only; the wire-vocabulary import contract for this package fails
when one of them shows up as a string literal in a core course package.
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
    "BUDGET_TOKENS",
    "CACHE_CONTROL",
    "CACHE_CREATION_INPUT_TOKENS",
    "CACHE_READ_INPUT_TOKENS",
    "CATEGORY",
    "CHOICE_ANY",
    "CHOICE_AUTO",
    "CHOICE_NONE",
    "CHOICE_TOOL",
    "CITATION",
    "CITATIONS_DELTA",
    "CONTENT",
    "CONTENT_BLOCK",
    "CONTENT_BLOCK_DELTA",
    "CONTENT_BLOCK_START",
    "CONTENT_BLOCK_STOP",
    "DEFAULT_BASE_URL",
    "DELTA",
    "DESCRIPTION",
    "DISABLE_PARALLEL_TOOL_USE",
    "ENABLED",
    "END_TURN",
    "EPHEMERAL",
    "ERROR",
    "EXPLANATION",
    "ID",
    "INDEX",
    "INPUT",
    "INPUT_JSON_DELTA",
    "INPUT_SCHEMA",
    "INPUT_TOKENS",
    "IS_ERROR",
    "MAX_TOKENS",
    "MESSAGE",
    "MESSAGES",
    "MESSAGES_PATH",
    "MESSAGE_DELTA",
    "MESSAGE_START",
    "MESSAGE_STOP",
    "METADATA",
    "MODEL",
    "MODEL_CONTEXT_WINDOW_EXCEEDED",
    "NAME",
    "OUTPUT_TOKENS",
    "PARTIAL_JSON",
    "PAUSE_TURN",
    "PING",
    "REDACTED_THINKING",
    "REFUSAL",
    "ROLE",
    "SERVER_TOOL_BLOCKS",
    "SIGNATURE",
    "SIGNATURE_DELTA",
    "STOP_DETAILS",
    "STOP_REASON",
    "STOP_SEQUENCE",
    "STOP_SEQUENCES",
    "STREAM",
    "SYSTEM",
    "TEMPERATURE",
    "TEXT",
    "TEXT_DELTA",
    "THINKING",
    "THINKING_DELTA",
    "TOOLS",
    "TOOL_CHOICE",
    "TOOL_RESULT",
    "TOOL_USE",
    "TOOL_USE_ID",
    "TOP_K",
    "TOP_P",
    "TTL",
    "TYPE",
    "USAGE",
    "USER",
    "USER_ID",
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
TYPE: Final = "type"
ID: Final = "id"
NAME: Final = "name"
TEXT: Final = "text"
INDEX: Final = "index"
ROLE: Final = "role"
USER: Final = "user"
ASSISTANT: Final = "assistant"
CONTENT: Final = "content"
MESSAGE: Final = "message"

# The request body.
MODEL: Final = "model"
MAX_TOKENS: Final = "max_tokens"
"""The request's output limit, and the stop reason of a response that reached it."""
SYSTEM: Final = "system"
MESSAGES: Final = "messages"
TOOLS: Final = "tools"
STREAM: Final = "stream"
DESCRIPTION: Final = "description"
INPUT_SCHEMA: Final = "input_schema"
TOOL_RESULT: Final = "tool_result"
TOOL_USE_ID: Final = "tool_use_id"
IS_ERROR: Final = "is_error"

# Stream event types: the SSE ``event:`` name always equals ``data.type``.
MESSAGE_START: Final = "message_start"
CONTENT_BLOCK_START: Final = "content_block_start"
CONTENT_BLOCK_DELTA: Final = "content_block_delta"
CONTENT_BLOCK_STOP: Final = "content_block_stop"
MESSAGE_DELTA: Final = "message_delta"
MESSAGE_STOP: Final = "message_stop"
PING: Final = "ping"
ERROR: Final = "error"
"""The mid-stream error event's type, and the key of its error object."""

# Event fields.
CONTENT_BLOCK: Final = "content_block"
DELTA: Final = "delta"
USAGE: Final = "usage"
INPUT_TOKENS: Final = "input_tokens"
OUTPUT_TOKENS: Final = "output_tokens"
CACHE_CREATION_INPUT_TOKENS: Final = "cache_creation_input_tokens"
CACHE_READ_INPUT_TOKENS: Final = "cache_read_input_tokens"
STOP_REASON: Final = "stop_reason"
STOP_DETAILS: Final = "stop_details"
EXPLANATION: Final = "explanation"
CATEGORY: Final = "category"

# Content block types.
TOOL_USE: Final = "tool_use"
"""The Tool-call block's type, and the stop reason of a response that waits for Tool results."""
INPUT: Final = "input"
THINKING: Final = "thinking"
"""The thinking block's type, and the key of a thinking delta's text."""
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
PARTIAL_JSON: Final = "partial_json"
THINKING_DELTA: Final = "thinking_delta"
SIGNATURE_DELTA: Final = "signature_delta"
SIGNATURE: Final = "signature"
CITATIONS_DELTA: Final = "citations_delta"
CITATION: Final = "citation"

# Stop reasons (``MAX_TOKENS`` and ``TOOL_USE`` above are stop reasons too).
END_TURN: Final = "end_turn"
STOP_SEQUENCE: Final = "stop_sequence"
REFUSAL: Final = "refusal"
PAUSE_TURN: Final = "pause_turn"
MODEL_CONTEXT_WINDOW_EXCEEDED: Final = "model_context_window_exceeded"

# Request options (``THINKING`` above is the request's field too).
TEMPERATURE: Final = "temperature"
TOP_P: Final = "top_p"
TOP_K: Final = "top_k"
STOP_SEQUENCES: Final = "stop_sequences"
TOOL_CHOICE: Final = "tool_choice"
DISABLE_PARALLEL_TOOL_USE: Final = "disable_parallel_tool_use"
CHOICE_AUTO: Final = "auto"
CHOICE_ANY: Final = "any"
CHOICE_NONE: Final = "none"
CHOICE_TOOL: Final = "tool"
METADATA: Final = "metadata"
USER_ID: Final = "user_id"
ENABLED: Final = "enabled"
BUDGET_TOKENS: Final = "budget_tokens"
CACHE_CONTROL: Final = "cache_control"
EPHEMERAL: Final = "ephemeral"
TTL: Final = "ttl"
BETA_HEADER: Final = "anthropic-beta"
"""Beta features, comma-separated in one header."""
