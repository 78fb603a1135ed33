"""The Gemini API (Generative Language ``streamGenerateContent``) vocabulary, and nothing else.

These spellings belong to the vendor's side of the boundary. They appear in
this package only; the wire-vocabulary import contract for this package fails
when one of them shows up as a string literal in a core course package.
Inside the package, the grammar and the mapping write a streamed chunk's
keys as literals (``"candidates"``, ``"finishReason"``), where they read
better than a constant each.

Spelled as in every vendor's wire module: a JSON key's constant ends in
``_KEY``; a value (a role, a finish reason, a mode) is named for itself. A
word that is both has one constant for each use.
"""

from typing import Final

__all__ = [
    "ALLOWED_FUNCTION_NAMES_KEY",
    "API_KEY_HEADER",
    "API_KEY_VARIABLE",
    "ARGS_KEY",
    "BASE_URL_VARIABLE",
    "BUILT_IN_TOOLS",
    "CITATION_KEYS",
    "CONTENTS_KEY",
    "DATA_KEY",
    "DEFAULT_BASE_URL",
    "DESCRIPTION_KEY",
    "ERROR_KEY",
    "FILE_DATA_KEY",
    "FILE_URI_KEY",
    "FUNCTION_CALLING_CONFIG_KEY",
    "FUNCTION_CALL_KEY",
    "FUNCTION_DECLARATIONS_KEY",
    "FUNCTION_RESPONSE_KEY",
    "GENERATION_CONFIG_KEY",
    "ID_KEY",
    "INLINE_DATA_KEY",
    "JSON_MEDIA_TYPE",
    "MAX_OUTPUT_TOKENS_KEY",
    "MAX_TOKENS",
    "MIME_TYPE_KEY",
    "MODEL",
    "MODE_ANY",
    "MODE_AUTO",
    "MODE_KEY",
    "MODE_NONE",
    "MORE_API_KEY_VARIABLES",
    "NAME_KEY",
    "OUTPUT_KEY",
    "PARAMETERS_JSON_SCHEMA_KEY",
    "PARTS_KEY",
    "PROTO_SPELLINGS",
    "REFUSED_REASONS",
    "RESPONSE_JSON_SCHEMA_KEY",
    "RESPONSE_KEY",
    "RESPONSE_MIME_TYPE_KEY",
    "ROLE_KEY",
    "SEED_KEY",
    "SSE_MEDIA_TYPE",
    "SSE_QUERY",
    "STOP",
    "STOP_SEQUENCES_KEY",
    "STREAM_PATH",
    "SYSTEM_INSTRUCTION_KEY",
    "TEMPERATURE_KEY",
    "TEXT_KEY",
    "THINKING_BUDGET_KEY",
    "THINKING_CONFIG_KEY",
    "THINKING_LEVELS",
    "THINKING_LEVEL_KEY",
    "THOUGHT_KEY",
    "THOUGHT_SIGNATURE_KEY",
    "TOOLS_KEY",
    "TOOL_CONFIG_KEY",
    "TOP_K_KEY",
    "TOP_P_KEY",
    "USER",
    "VENDOR_TOOL_KINDS",
    "WIRE",
]

WIRE: Final = "gemini"
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
CONTENTS_KEY: Final = "contents"
ROLE_KEY: Final = "role"
USER: Final = "user"
MODEL: Final = "model"
"""The role of the model's turns, in requests and in streamed candidates."""
PARTS_KEY: Final = "parts"
TEXT_KEY: Final = "text"
SYSTEM_INSTRUCTION_KEY: Final = "systemInstruction"
TOOLS_KEY: Final = "tools"
FUNCTION_DECLARATIONS_KEY: Final = "functionDeclarations"
NAME_KEY: Final = "name"
DESCRIPTION_KEY: Final = "description"
PARAMETERS_JSON_SCHEMA_KEY: Final = "parametersJsonSchema"
GENERATION_CONFIG_KEY: Final = "generationConfig"
MAX_OUTPUT_TOKENS_KEY: Final = "maxOutputTokens"
TEMPERATURE_KEY: Final = "temperature"
TOP_P_KEY: Final = "topP"
TOP_K_KEY: Final = "topK"
SEED_KEY: Final = "seed"
STOP_SEQUENCES_KEY: Final = "stopSequences"
THINKING_CONFIG_KEY: Final = "thinkingConfig"
THINKING_BUDGET_KEY: Final = "thinkingBudget"
THINKING_LEVEL_KEY: Final = "thinkingLevel"
TOOL_CONFIG_KEY: Final = "toolConfig"
PROTO_SPELLINGS: Final = ("system_instruction", "tool_config", "generation_config")
"""The protobuf field names of the body keys the adapter writes that differ from their JSON
names: the API's JSON mapping reads both spellings of a field."""
FUNCTION_CALLING_CONFIG_KEY: Final = "functionCallingConfig"
MODE_KEY: Final = "mode"
ALLOWED_FUNCTION_NAMES_KEY: Final = "allowedFunctionNames"
MODE_AUTO: Final = "AUTO"
MODE_NONE: Final = "NONE"
MODE_ANY: Final = "ANY"
"""The ``functionCallingConfig.mode`` values: the model may, must not, or must call a function."""
THINKING_LEVELS: Final = ("minimal", "low", "medium", "high")
"""The ``thinkingConfig.thinkingLevel`` values of the Gemini 3 models, least thinking first."""
FUNCTION_CALL_KEY: Final = "functionCall"
ARGS_KEY: Final = "args"
FUNCTION_RESPONSE_KEY: Final = "functionResponse"
RESPONSE_KEY: Final = "response"
THOUGHT_SIGNATURE_KEY: Final = "thoughtSignature"
THOUGHT_KEY: Final = "thought"
ID_KEY: Final = "id"
INLINE_DATA_KEY: Final = "inlineData"
FILE_DATA_KEY: Final = "fileData"
MIME_TYPE_KEY: Final = "mimeType"
DATA_KEY: Final = "data"
FILE_URI_KEY: Final = "fileUri"
RESPONSE_MIME_TYPE_KEY: Final = "responseMimeType"
RESPONSE_JSON_SCHEMA_KEY: Final = "responseJsonSchema"
"""Structured output: ``responseMimeType`` ``application/json`` with a JSON Schema, which the
API reads as given (``responseSchema`` takes its own OpenAPI subset instead)."""
VENDOR_TOOL_KINDS: Final = ("executableCode", "codeExecutionResult", "toolCall", "toolResponse")
"""The part kinds of a tool the vendor runs: a call or a result, sent back as received."""
CITATION_KEYS: Final = ("citationMetadata", "groundingMetadata", "urlContextMetadata")
"""The candidate fields that say where its text came from."""
BUILT_IN_TOOLS: Final = ("codeExecution", "googleSearch", "urlContext")
"""The tools the vendor runs that a request declares, each an entry of ``tools`` of its own."""
OUTPUT_KEY: Final = "output"
"""The key of a Tool's result in a ``functionResponse.response`` object."""
ERROR_KEY: Final = "error"
"""The key of a failed Tool's message there, and of an error object in a body or stream."""

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
        "MODEL_ARMOR",
        "ESCALATION",
    }
)
"""Finish reasons of an answer the vendor withheld: a refusal, not a cut."""
