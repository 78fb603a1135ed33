"""The OpenAI-compatible servers' dialects of Chat Completions, each declared in one value.

A server that speaks Chat Completions speaks OpenAI's grammar with a few
differences of its own: where its usage arrives, which reasoning fields its
deltas carry, whether ``delta.content`` may be an array of typed parts,
which finish reasons it adds, whether it repeats a finish. `ChatDialect`
declares exactly those, one frozen value per server (`CHAT_DIALECTS`);
`ChatGrammar` and `ChatMapping` read them, and everything a dialect does
not declare is OpenAI's grammar, unchanged. `OPENAI_CHAT` declares nothing:
plain ``openai-chat`` refuses every difference where OpenAI does.

Each value spells the server's base URL and key variable as its own
documentation (or SDK) spells them; README, "OpenAI-compatible servers",
says where each difference is documented. Over 300 lines on purpose: every
server's value sits beside the class that declares it, with its sources.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum, unique
from typing import Final, final

from frozendict import frozendict

from course_provider_openai._chat_wire import WIRE
from course_provider_openai._config import API_KEY_VARIABLE, DEFAULT_BASE_URL
from course_vendor import config_error

__all__ = [
    "AZURE_OPENAI_CHAT",
    "CHAT_DIALECTS",
    "DEEPSEEK",
    "GROQ",
    "MISTRAL",
    "OLLAMA",
    "OPENAI_CHAT",
    "OPENROUTER",
    "TOGETHER",
    "VLLM",
    "XAI",
    "ChatDialect",
    "UsagePlace",
]


_NO_FINISHES: Final[frozendict[str, str | None]] = frozendict()
_DELTA_FIELDS: Final = frozenset(
    {
        "content",
        "role",
        "refusal",
        "tool_calls",
        "function_call",
        "audio",
        "annotations",
        "reasoning_details",
    }
)
"""The delta fields the grammar reads for themselves, which no reasoning field may name."""


@unique
class UsagePlace(StrEnum):
    """Where a server sends a stream's usage (each dialect allows one or more)."""

    LAST_CHUNK = "last_chunk"
    """OpenAI's: a chunk of its own (``choices: []``) after every choice finished."""
    FINISH_CHUNK = "finish_chunk"
    """Top-level ``usage`` beside the ``choices`` of the chunk whose finishes end every choice."""
    EVERY_CHUNK = "every_chunk"
    """Top-level ``usage`` on any chunk, the counts so far; the last one sent counts."""
    X_GROQ = "x_groq"
    """Groq's: ``x_groq.usage`` in the chunk whose finishes end every choice."""


@final
@dataclass(frozen=True, slots=True)
class ChatDialect:
    """One server's Chat Completions: its wire name, where it lives, and its declared differences.

    - ``wire``: the registry's and ``--wire``'s name (``"groq"``), and the
      ``vendor`` of every error its grammar raises;
    - ``base_url``: its default base URL, the version included, as its own
      docs spell it (the ``/chat/completions`` path is joined after it);
    - ``key_variable``: the environment variable its docs keep the key in;
    - ``usage``: the places its usage may arrive (`UsagePlace`);
    - ``reasoning_fields``: the ``delta`` fields whose text is the model's
      reasoning (``reasoning_content``, ``reasoning``), read in this order
      (the first one a delta carries is its reasoning);
    - ``reasoning_details``: whether deltas carry OpenRouter's
      ``reasoning_details`` array (objects typed ``reasoning.text``,
      ``reasoning.summary``, ``reasoning.encrypted``);
    - ``content_parts``: whether ``delta.content`` may be an array of typed
      parts (``text``, and ``thinking`` holding text parts: reasoning);
    - ``finish_reasons``: the finish reasons it sends beyond OpenAI's, each
      with the OpenAI reason it means (``"eos"`` is ``"stop"``), or ``None``
      when none does (the call ended for a reason of the server's own);
    - ``repeated_finish``: whether it may send a finished choice again with
      the same ``finish_reason`` and nothing else to say;
    - ``reasoning_back``: whether the reasoning of an assistant turn with
      Tool calls must be sent back on that message in later requests (in
      its first reasoning field, and OpenRouter's ``reasoning_details``),
      which the server otherwise refuses;
    - ``reasoning_in_tool_turns``: whether every assistant message of a user
      turn with Tool calls (the messages between two user messages) must
      carry the first reasoning field, which the server otherwise refuses;
      one without reasoning of the dialect's own is sent it empty;
    - ``created_varies``: whether each chunk may carry its own ``created``
      (a clock that moves on during the stream, never back) where OpenAI
      repeats the first chunk's;
    - ``reasoning_apart``: whether the usage's
      ``completion_tokens_details.reasoning_tokens`` are counted apart
      from ``completion_tokens`` (their sum is the output) rather than
      inside it;
    - ``content_filters``: Azure's content-filter annotations: chunks whose
      ``id`` is ``""`` (``prompt_filter_results``, or choices without a
      ``delta`` carrying ``content_filter_results`` and
      ``content_filter_offsets``, even after the choice's finish, or ending
      it with ``content_filter``), and ``content_filter_results`` beside any
      choice's delta.

    Raises `course_vendor.VendorConfigError` ``VENDOR_INVALID_CONFIG`` for a
    reasoning field named twice or one of the delta's own (``tool_calls``: a
    delta of them would look plain, its rest unread), and for
    ``reasoning_in_tool_turns`` without ``reasoning_back`` and a reasoning field.
    """

    wire: str
    base_url: str
    key_variable: str
    usage: frozenset[UsagePlace] = frozenset({UsagePlace.LAST_CHUNK})
    reasoning_fields: tuple[str, ...] = ()
    reasoning_details: bool = False
    content_parts: bool = False
    finish_reasons: frozendict[str, str | None] = _NO_FINISHES
    repeated_finish: bool = False
    reasoning_back: bool = False
    reasoning_in_tool_turns: bool = False
    created_varies: bool = False
    reasoning_apart: bool = False
    content_filters: bool = False

    def __post_init__(self) -> None:
        fields = self.reasoning_fields
        if len(set(fields)) != len(fields) or not _DELTA_FIELDS.isdisjoint(fields):
            problem = f"must name each field once and none of the delta's own, got {fields!r}"
            raise config_error("ChatDialect.reasoning_fields", problem)
        if self.reasoning_in_tool_turns and not (self.reasoning_back and fields):
            problem = "needs reasoning_back and a reasoning field to send"
            raise config_error("ChatDialect.reasoning_in_tool_turns", problem)

    def finish_meaning(self, reason: str) -> str | None:
        """The OpenAI finish reason ``reason`` (one the grammar let pass) means, or ``None``."""
        return self.finish_reasons.get(reason, reason)


OPENAI_CHAT: Final = ChatDialect(WIRE, DEFAULT_BASE_URL, API_KEY_VARIABLE)
"""OpenAI's own Chat Completions: no difference declared."""

OPENROUTER: Final = ChatDialect(
    "openrouter",
    "https://openrouter.ai/api/v1",
    "OPENROUTER_API_KEY",
    usage=frozenset({UsagePlace.LAST_CHUNK, UsagePlace.FINISH_CHUNK}),
    reasoning_fields=("reasoning",),
    reasoning_details=True,
    finish_reasons=frozendict(error=None),
    repeated_finish=True,
    reasoning_back=True,
)
"""OpenRouter: ``reasoning`` and ``reasoning_details`` deltas, both sent back on their
assistant message, the ``error`` finish of a failed generation, and a finish it may send
again, the last time with the usage beside it.

Checked against: the docs' "Streaming" page (comments, errors as an ``error`` chunk in a 200
stream), "Usage Accounting" page (usage always in the last SSE message; ``stream_options``
has no effect) and "Reasoning Tokens" page ("Preserving reasoning blocks": pass
``reasoning_details`` back unmodified on the assistant message; models such as Gemini 3
answer 400 to a Tool-call follow-up without them), the ``error`` finish in its SDKs' stream
choice, and recorded streams (the
shared ``compat-openrouter-comments-inchunk-error.sse``; curl recordings whose last chunk
repeats ``finish_reason: "stop"`` with ``usage``)."""

GROQ: Final = ChatDialect(
    "groq",
    "https://api.groq.com/openai/v1",
    "GROQ_API_KEY",
    usage=frozenset({UsagePlace.LAST_CHUNK, UsagePlace.X_GROQ}),
    reasoning_fields=("reasoning",),
)
"""Groq: usage in ``x_groq.usage`` of the finishing chunk (or OpenAI's usage chunk, asked
with ``stream_options``), ``x_groq.error`` ending a stream early, ``reasoning`` deltas
(``reasoning_format: "parsed"``).

Checked against: the ``groq`` Python SDK's ``ChatCompletionChunk`` (``XGroq.usage`` "only
sent in the final chunk", ``XGroq.error``, ``ChoiceDelta.reasoning``, the finish reasons
OpenAI's), and the shared recording ``compat-groq-midstream-error-event.sse``
(``event: error`` after ``reasoning`` deltas)."""

DEEPSEEK: Final = ChatDialect(
    "deepseek",
    "https://api.deepseek.com",
    "DEEPSEEK_API_KEY",
    reasoning_fields=("reasoning_content",),
    finish_reasons=frozendict(insufficient_system_resource=None),
    reasoning_back=True,
    reasoning_in_tool_turns=True,
)
"""DeepSeek: ``reasoning_content`` deltas, sent back on every assistant message of a user
turn with Tool calls (empty where the turn has none of DeepSeek's own: the API answers
400 "Missing `reasoning_content` field" without it), and the
``insufficient_system_resource`` finish.

Checked against: the API docs' "Thinking Mode" guide (thinking is on by default;
``reasoning_content``; between two user messages where the model called Tools, the
assistant messages' reasoning must be passed back in every later request, else 400;
elsewhere it is ignored), its "Create Chat Completion" reference (base URL, the finish
reasons, usage chunk with ``stream_options``), and issue threads of clients that met the 400
with assistant messages of no reasoning and sent it empty instead."""

XAI: Final = ChatDialect(
    "xai",
    "https://api.x.ai/v1",
    "XAI_API_KEY",
    reasoning_fields=("reasoning_content",),
    created_varies=True,
    reasoning_apart=True,
)
"""xAI: ``reasoning_content`` deltas, a ``created`` each chunk stamps anew, and reasoning
tokens counted apart from ``completion_tokens``.

Checked against: xAI's docs (base URL, ``XAI_API_KEY``, ``reasoning_content``) and
recorded streams of ``api.x.ai`` (Charm's ``fantasy`` provider cassettes, 2025): ``created``
moves from one second to the next within a stream, the usage chunk is OpenAI's, and its
``total_tokens`` is prompt + completion + reasoning (213 + 27 + 133 = 373)."""

MISTRAL: Final = ChatDialect(
    "mistral",
    "https://api.mistral.ai/v1",
    "MISTRAL_API_KEY",
    usage=frozenset({UsagePlace.FINISH_CHUNK}),
    content_parts=True,
    finish_reasons=frozendict(error=None),
)
"""Mistral: usage beside the finishing choice, ``delta.content`` as typed parts (``text``,
``thinking`` holding ``text`` and ``reference`` parts), and the ``error`` finish.

Checked against: the ``mistralai`` SDK (``CompletionResponseStreamChoice.finish_reason`` is
``stop``, ``length``, ``error`` or ``tool_calls``: ``model_length`` is the non-streamed
choice's only; ``ThinkChunk.thinking`` holds ``TextChunk`` and ``ReferenceChunk``) and a
recorded ``mistral-large-latest`` stream (usage beside ``finish_reason: "length"``, then
``[DONE]``)."""

TOGETHER: Final = ChatDialect(
    "together",
    "https://api.together.xyz/v1",
    "TOGETHER_API_KEY",
    usage=frozenset({UsagePlace.FINISH_CHUNK, UsagePlace.LAST_CHUNK}),
    reasoning_fields=("reasoning",),
    finish_reasons=frozendict(eos="stop", error=None),
)
"""Together: usage beside the finishing choice (or in a usage chunk), ``reasoning``
deltas, and the ``eos`` and ``error`` finishes.

Checked against: the ``together`` Python SDK (``constants.BASE_URL``, ``TOGETHER_API_KEY``,
``FinishReason``: ``length``, ``stop``, ``eos``, ``tool_calls``, ``error``; ``usage`` on the
chunk) and the docs' "Reasoning" page (the ``reasoning`` delta field)."""

OLLAMA: Final = ChatDialect(
    "ollama",
    "http://localhost:11434/v1",
    "OLLAMA_API_KEY",
    reasoning_fields=("reasoning",),
    created_varies=True,
)
"""Ollama's OpenAI-compatible endpoint: ``reasoning`` deltas from thinking models, and a
``created`` each chunk stamps anew; a local server takes any key (the variable is its
hosted service's).

Checked against: Ollama's "OpenAI compatibility" docs (``/v1`` on port 11434, a key
required by the SDK but ignored) and its ``openai/openai.go`` (``ChunkChoice.Delta`` carries
``reasoning``; ``ToChunk`` stamps each chunk's ``created`` with the time it is made; the
usage chunk of ``stream_options.include_usage`` is OpenAI's)."""

VLLM: Final = ChatDialect(
    "vllm",
    "http://localhost:8000/v1",
    "VLLM_API_KEY",
    usage=frozenset({UsagePlace.LAST_CHUNK, UsagePlace.EVERY_CHUNK}),
    reasoning_fields=("reasoning", "reasoning_content"),
    finish_reasons=frozendict(abort=None, repetition=None),
)
"""vLLM's OpenAI-compatible server: usage on every chunk (``continuous_usage_stats``) or
in the usage chunk, reasoning as ``reasoning`` (``reasoning_content`` in older releases),
and the ``abort`` and ``repetition`` finishes (a generation the engine stopped: the course
protocol has no stop reason for either).

Checked against: vLLM's docs ("OpenAI-Compatible Server": ``--api-key`` or
``VLLM_API_KEY``, port 8000; "Reasoning Outputs": "``reasoning`` used to be called
``reasoning_content``"), vllm-project/vllm#34030 (both fields set on a streamed delta), and
its engine's ``FinishReason`` strings, "part of the external API", which the chat stream
passes on: ``stop``, ``length``, ``abort``, ``repetition`` (a repeated token pattern), and
``error``, which the server always turns into a 500, never a finish."""

AZURE_OPENAI_CHAT: Final = ChatDialect(
    "azure-openai-chat",
    "https://YOUR-RESOURCE-NAME.openai.azure.com/openai/v1",
    "AZURE_OPENAI_API_KEY",
    content_filters=True,
)
"""Azure OpenAI's Chat Completions: its content-filter annotations (the deployment path,
``api-version`` and ``api-key`` are its models' concern, `_azure`).

Checked against: Microsoft Learn "Content streaming" (the asynchronous filter's annotation
chunks, ``id`` ``""``, ``content_filter_offsets``, a ``content_filter`` finish) and
"Content filtering" (``prompt_filter_results`` with ``prompt_index``, the per-category
``content_filter_results``)."""

CHAT_DIALECTS: Final = (OPENROUTER, GROQ, DEEPSEEK, XAI, MISTRAL, TOGETHER, OLLAMA, VLLM)
"""Every compatible server's dialect, each registered as a wire of its own."""
