"""The vocabulary of the OpenAI Responses API (``POST /v1/responses``), and nothing else.

These spellings belong to the untrusted side of the boundary: the request
body the adapter sends and the events it streams back. They appear in this
package only.
"""

from typing import Final

__all__ = [
    "ARGUMENTS_DELTA",
    "ARGUMENTS_DONE",
    "ARGUMENTS_KEY",
    "ASSISTANT_ROLE",
    "CALL_ID_KEY",
    "CONTENT_INDEX_KEY",
    "CONTENT_KEY",
    "CONTENT_PART_ADDED",
    "CONTENT_PART_DONE",
    "DELTA_KEY",
    "DESCRIPTION_KEY",
    "ERROR_CODE_KEY",
    "ERROR_EVENT",
    "ERROR_KEY",
    "ERROR_MESSAGE_KEY",
    "ERROR_TYPE_KEY",
    "FUNCTION_CALL_OUTPUT_TYPE",
    "FUNCTION_CALL_TYPE",
    "FUNCTION_TYPE",
    "ID_KEY",
    "INCOMPLETE_DETAILS_KEY",
    "INPUT_KEY",
    "INPUT_TOKENS_KEY",
    "INSTRUCTIONS_KEY",
    "ITEM_ID_KEY",
    "ITEM_KEY",
    "MAX_OUTPUT_TOKENS_KEY",
    "MESSAGE_TYPE",
    "MODEL_KEY",
    "NAME_KEY",
    "OUTPUT_INDEX_KEY",
    "OUTPUT_ITEM_ADDED",
    "OUTPUT_ITEM_DONE",
    "OUTPUT_KEY",
    "OUTPUT_TEXT_ANNOTATION_ADDED",
    "OUTPUT_TEXT_DELTA",
    "OUTPUT_TEXT_DONE",
    "OUTPUT_TEXT_TYPE",
    "OUTPUT_TOKENS_KEY",
    "PARAMETERS_KEY",
    "PART_KEY",
    "PATH",
    "REASONING_EVENTS",
    "REASONING_TYPE",
    "REASON_KEY",
    "REFUSAL_DELTA",
    "REFUSAL_DONE",
    "REFUSAL_KEY",
    "REFUSAL_TYPE",
    "RESPONSE_COMPLETED",
    "RESPONSE_CREATED",
    "RESPONSE_FAILED",
    "RESPONSE_INCOMPLETE",
    "RESPONSE_IN_PROGRESS",
    "RESPONSE_KEY",
    "RESPONSE_QUEUED",
    "ROLE_KEY",
    "SEQUENCE_NUMBER_KEY",
    "SERVER_TOOL_ITEM_TYPES",
    "STATUS_COMPLETED",
    "STATUS_INCOMPLETE",
    "STATUS_IN_PROGRESS",
    "STATUS_KEY",
    "STATUS_QUEUED",
    "STORE_KEY",
    "STREAM_KEY",
    "STRICT_KEY",
    "TEXT_KEY",
    "TOOLS_KEY",
    "TYPE_KEY",
    "UNNAMED_EVENT",
    "USAGE_KEY",
    "USER_ROLE",
    "VENDOR",
]

VENDOR: Final = "openai-responses"
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

# Event types.
RESPONSE_CREATED: Final = "response.created"
RESPONSE_QUEUED: Final = "response.queued"
RESPONSE_IN_PROGRESS: Final = "response.in_progress"
RESPONSE_COMPLETED: Final = "response.completed"
RESPONSE_INCOMPLETE: Final = "response.incomplete"
RESPONSE_FAILED: Final = "response.failed"
ERROR_EVENT: Final = "error"
UNNAMED_EVENT: Final = "message"
"""The name SSE gives a frame that has no ``event:`` line."""
OUTPUT_ITEM_ADDED: Final = "response.output_item.added"
OUTPUT_ITEM_DONE: Final = "response.output_item.done"
CONTENT_PART_ADDED: Final = "response.content_part.added"
CONTENT_PART_DONE: Final = "response.content_part.done"
OUTPUT_TEXT_DELTA: Final = "response.output_text.delta"
OUTPUT_TEXT_DONE: Final = "response.output_text.done"
OUTPUT_TEXT_ANNOTATION_ADDED: Final = "response.output_text.annotation.added"
REFUSAL_DELTA: Final = "response.refusal.delta"
REFUSAL_DONE: Final = "response.refusal.done"
ARGUMENTS_DELTA: Final = "response.function_call_arguments.delta"
ARGUMENTS_DONE: Final = "response.function_call_arguments.done"
REASONING_EVENTS: Final = (
    "response.reasoning_summary_part.added",
    "response.reasoning_summary_part.done",
    "response.reasoning_summary_text.delta",
    "response.reasoning_summary_text.done",
    "response.reasoning_text.delta",
    "response.reasoning_text.done",
)
"""Events that belong to a ``reasoning`` item, which the adapter skips on purpose."""

# Event fields.
SEQUENCE_NUMBER_KEY: Final = "sequence_number"
RESPONSE_KEY: Final = "response"
ID_KEY: Final = "id"
STATUS_KEY: Final = "status"
OUTPUT_INDEX_KEY: Final = "output_index"
CONTENT_INDEX_KEY: Final = "content_index"
ITEM_KEY: Final = "item"
ITEM_ID_KEY: Final = "item_id"
PART_KEY: Final = "part"
DELTA_KEY: Final = "delta"
TEXT_KEY: Final = "text"
REFUSAL_KEY: Final = "refusal"
USAGE_KEY: Final = "usage"
INPUT_TOKENS_KEY: Final = "input_tokens"
OUTPUT_TOKENS_KEY: Final = "output_tokens"
INCOMPLETE_DETAILS_KEY: Final = "incomplete_details"
REASON_KEY: Final = "reason"

STATUS_IN_PROGRESS: Final = "in_progress"
STATUS_QUEUED: Final = "queued"
STATUS_COMPLETED: Final = "completed"
STATUS_INCOMPLETE: Final = "incomplete"

# Output item and content part kinds.
REASONING_TYPE: Final = "reasoning"
OUTPUT_TEXT_TYPE: Final = "output_text"
REFUSAL_TYPE: Final = "refusal"
SERVER_TOOL_ITEM_TYPES: Final = frozenset(
    {
        "web_search_call",
        "file_search_call",
        "code_interpreter_call",
        "computer_call",
        "image_generation_call",
        "local_shell_call",
        "shell_call",
        "apply_patch_call",
        "mcp_call",
        "mcp_list_tools",
        "mcp_approval_request",
        "custom_tool_call",
    }
)
"""Output items the vendor runs or asks for itself, or whose input is not JSON arguments:
the course IR cannot carry them."""

# The error body, the ``error`` event and ``response.failed``'s ``response.error``.
ERROR_KEY: Final = "error"
ERROR_TYPE_KEY: Final = "type"
ERROR_CODE_KEY: Final = "code"
ERROR_MESSAGE_KEY: Final = "message"
