"""The Gemini API (Generative Language ``streamGenerateContent``) vocabulary, and nothing else.

These spellings belong to the vendor's side of the boundary. They appear in
this package only; the wire-vocabulary import contract for this package fails
when one of them shows up as a string literal in a core course package.
"""

from typing import Final

__all__ = [
    "API_KEY_HEADER",
    "API_KEY_VARIABLE",
    "ARGS",
    "BASE_URL_VARIABLE",
    "BLOCK_REASON",
    "BLOCK_REASON_MESSAGE",
    "CANDIDATES",
    "CANDIDATES_TOKEN_COUNT",
    "CODE",
    "CONTENT",
    "CONTENTS",
    "DEFAULT_BASE_URL",
    "DESCRIPTION",
    "ERROR",
    "FINISH_MESSAGE",
    "FINISH_REASON",
    "FUNCTION_CALL",
    "FUNCTION_DECLARATIONS",
    "FUNCTION_RESPONSE",
    "GENERATION_CONFIG",
    "INDEX",
    "JSON_MEDIA_TYPE",
    "MAX_OUTPUT_TOKENS",
    "MAX_TOKENS",
    "MESSAGE",
    "MODEL",
    "MORE_API_KEY_VARIABLES",
    "NAME",
    "OUTPUT",
    "PARAMETERS_JSON_SCHEMA",
    "PARTIAL_ARGS",
    "PARTS",
    "PART_METADATA",
    "PROMPT_FEEDBACK",
    "PROMPT_TOKEN_COUNT",
    "REFUSED_REASONS",
    "RESPONSE",
    "RESPONSE_ID",
    "ROLE",
    "SSE_MEDIA_TYPE",
    "SSE_QUERY",
    "STATUS",
    "STOP",
    "STREAM_PATH",
    "SYSTEM_INSTRUCTION",
    "TEXT",
    "THOUGHT",
    "THOUGHTS_TOKEN_COUNT",
    "THOUGHT_SIGNATURE",
    "TOOLS",
    "UNSUPPORTED_PARTS",
    "USAGE_METADATA",
    "USER",
    "VENDOR",
    "WILL_CONTINUE",
]

VENDOR: Final = "gemini"
"""The course's name for this wire format (``VendorError.vendor``, ``--wire``)."""

DEFAULT_BASE_URL: Final = "https://generativelanguage.googleapis.com"
BASE_URL_VARIABLE: Final = "GOOGLE_GEMINI_BASE_URL"
"""The variable the google-genai SDK reads its base URL from, spelled as ``DEFAULT_BASE_URL`` is."""
STREAM_PATH: Final = "/v1beta/models/{model}:streamGenerateContent"
"""The endpoint under the base URL; ``{model}`` is the configured model's name."""
SSE_QUERY: Final = "alt=sse"
"""The query that asks for server-sent events instead of one streamed JSON array."""
API_KEY_HEADER: Final = "x-goog-api-key"
API_KEY_VARIABLE: Final = "GOOGLE_API_KEY"
"""The environment variable a model reads its key from first, as the google-genai SDK does."""
MORE_API_KEY_VARIABLES: Final = ("GEMINI_API_KEY",)
"""Read after `API_KEY_VARIABLE` when it is unset or empty, as the SDK does."""
JSON_MEDIA_TYPE: Final = "application/json"
SSE_MEDIA_TYPE: Final = "text/event-stream"

# The request body.
CONTENTS: Final = "contents"
ROLE: Final = "role"
USER: Final = "user"
MODEL: Final = "model"
"""The role of the model's turns, in requests and in streamed candidates."""
PARTS: Final = "parts"
TEXT: Final = "text"
SYSTEM_INSTRUCTION: Final = "systemInstruction"
TOOLS: Final = "tools"
FUNCTION_DECLARATIONS: Final = "functionDeclarations"
NAME: Final = "name"
DESCRIPTION: Final = "description"
PARAMETERS_JSON_SCHEMA: Final = "parametersJsonSchema"
GENERATION_CONFIG: Final = "generationConfig"
MAX_OUTPUT_TOKENS: Final = "maxOutputTokens"
FUNCTION_CALL: Final = "functionCall"
ARGS: Final = "args"
FUNCTION_RESPONSE: Final = "functionResponse"
RESPONSE: Final = "response"
OUTPUT: Final = "output"
"""The key of a Tool's result in a ``functionResponse.response`` object."""
ERROR: Final = "error"
"""The key of a failed Tool's message there, and of an error object in a body or stream."""

# Streamed chunks.
CANDIDATES: Final = "candidates"
CONTENT: Final = "content"
INDEX: Final = "index"
FINISH_REASON: Final = "finishReason"
FINISH_MESSAGE: Final = "finishMessage"
USAGE_METADATA: Final = "usageMetadata"
PROMPT_TOKEN_COUNT: Final = "promptTokenCount"
CANDIDATES_TOKEN_COUNT: Final = "candidatesTokenCount"
THOUGHTS_TOKEN_COUNT: Final = "thoughtsTokenCount"
RESPONSE_ID: Final = "responseId"
PROMPT_FEEDBACK: Final = "promptFeedback"
BLOCK_REASON: Final = "blockReason"
BLOCK_REASON_MESSAGE: Final = "blockReasonMessage"
THOUGHT: Final = "thought"
THOUGHT_SIGNATURE: Final = "thoughtSignature"
PARTIAL_ARGS: Final = "partialArgs"
WILL_CONTINUE: Final = "willContinue"

PART_METADATA: Final = frozenset({THOUGHT, THOUGHT_SIGNATURE, "videoMetadata", "partMetadata"})
"""Keys of a part that say something about its data, never data of their own."""
UNSUPPORTED_PARTS: Final = frozenset(
    {
        "inlineData",
        "fileData",
        FUNCTION_RESPONSE,
        "executableCode",
        "codeExecutionResult",
        "toolCall",
        "toolResponse",
    }
)
"""Part data the course protocol cannot carry: media, and Tools the vendor runs itself."""

# The error object: in an HTTP error body, or in the stream.
CODE: Final = "code"
MESSAGE: Final = "message"
STATUS: Final = "status"

# Finish reasons.
STOP: Final = "STOP"
MAX_TOKENS: Final = "MAX_TOKENS"
REFUSED_REASONS: Final = frozenset(
    {
        "SAFETY",
        "RECITATION",
        "BLOCKLIST",
        "PROHIBITED_CONTENT",
        "SPII",
        "IMAGE_SAFETY",
        "IMAGE_PROHIBITED_CONTENT",
        "IMAGE_RECITATION",
    }
)
"""Finish reasons of an answer the vendor withheld: a refusal, not a cut."""
