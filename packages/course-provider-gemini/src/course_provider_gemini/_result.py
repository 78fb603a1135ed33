"""What one streamed Gemini response said: `GeminiResult`, the grammar's deeply immutable result.

Every value is a frozen, slotted dataclass, a tuple, a ``str``/``int``/
``float``/``bool`` or frozen JSON (``course_protocol.JsonObject``), so a
result can be shared, hashed and compared. A field the vendor did not send
is ``None`` (or an empty tuple for a list of values), never a made-up zero.
Nothing here is a course value: the mapping (`GeminiMapping`) makes those.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias, final

from course_protocol import JsonObject

__all__ = [
    "GeminiCandidate",
    "GeminiContent",
    "GeminiFunctionCall",
    "GeminiModalityCount",
    "GeminiOpaquePart",
    "GeminiPromptFeedback",
    "GeminiResult",
    "GeminiStreamError",
    "GeminiText",
    "GeminiUsage",
]


@final
@dataclass(frozen=True, slots=True)
class GeminiText:
    """Consecutive ``text`` parts of one kind, joined: answer text, or thought text (``thought``).

    ``signature`` is the ``thoughtSignature`` of the part that closed the run
    (a part carrying one ends its run), or ``None``. A run may be empty text
    when it holds only a signature (Gemini 3 ends an answer with one on an
    empty part).
    """

    text: str
    thought: bool
    signature: str | None


@final
@dataclass(frozen=True, slots=True)
class GeminiFunctionCall:
    """A whole function call: ``name``, ``arguments`` (a frozen JSON object), the vendor's ``id``.

    ``id`` is ``None`` when the vendor gave none (before Gemini 3);
    ``signature`` the ``thoughtSignature`` of its part; ``streamed`` says
    its arguments came as Vertex's ``partialArgs`` over several parts.
    """

    name: str
    arguments: JsonObject
    id: str | None
    signature: str | None
    streamed: bool


@final
@dataclass(frozen=True, slots=True)
class GeminiOpaquePart:
    """A part of a kind the grammar checks only the envelope of: media, code, a server tool.

    ``kind`` is the part's data key (``inlineData``, ``fileData``,
    ``functionResponse``, ``executableCode``, ``codeExecutionResult``,
    ``toolCall``, ``toolResponse``), ``data`` its value as frozen JSON,
    ``thought`` and ``signature`` the part's ``thought`` flag and
    ``thoughtSignature``.
    """

    kind: str
    data: JsonObject
    thought: bool
    signature: str | None


GeminiContent: TypeAlias = GeminiText | GeminiFunctionCall | GeminiOpaquePart
"""One entry of a candidate's content, in the order the stream gave it."""


@final
@dataclass(frozen=True, slots=True)
class GeminiCandidate:
    """One candidate answer: its ``index``, its content, why it finished.

    ``parts`` holds the content in order (text runs joined). ``finish_reason``
    is spelled as the vendor spelled it (``STOP``, ``MAX_TOKENS``, or one
    not invented yet); ``finish_message``, ``token_count``,
    ``avg_logprobs`` and ``continuation_token`` (with ``CONTINUATION``, the
    opaque token that continues the answer) the last values sent. The
    metadata fields hold every
    value the chunks sent for them, in order, one per chunk that carried one
    (``safety_ratings`` each chunk's array; the others each chunk's object):
    a stream sends them in pieces, and which piece is whole is the vendor's
    to say, not the grammar's.
    """

    index: int
    parts: tuple[GeminiContent, ...]
    finish_reason: str | None
    finish_message: str | None
    token_count: int | None
    avg_logprobs: float | None
    continuation_token: str | None
    safety_ratings: tuple[tuple[JsonObject, ...], ...]
    citation_metadata: tuple[JsonObject, ...]
    grounding_metadata: tuple[JsonObject, ...]
    url_context_metadata: tuple[JsonObject, ...]
    logprobs_result: tuple[JsonObject, ...]


@final
@dataclass(frozen=True, slots=True)
class GeminiModalityCount:
    """One entry of a ``*TokensDetails`` list: a ``modality`` and its ``token_count``."""

    modality: str | None
    token_count: int | None


@final
@dataclass(frozen=True, slots=True)
class GeminiUsage:
    """The last ``usageMetadata`` of the stream (it is cumulative): every count it held.

    A count the vendor left out is ``None``; a details list it left out is
    ``None`` (an empty list sent is an empty tuple).
    """

    prompt_token_count: int | None
    candidates_token_count: int | None
    total_token_count: int | None
    thoughts_token_count: int | None
    cached_content_token_count: int | None
    tool_use_prompt_token_count: int | None
    prompt_tokens_details: tuple[GeminiModalityCount, ...] | None
    candidates_tokens_details: tuple[GeminiModalityCount, ...] | None
    cache_tokens_details: tuple[GeminiModalityCount, ...] | None
    tool_use_prompt_tokens_details: tuple[GeminiModalityCount, ...] | None
    traffic_type: str | None


@final
@dataclass(frozen=True, slots=True)
class GeminiPromptFeedback:
    """A ``promptFeedback``: why the prompt was blocked, if it was, and its safety ratings."""

    block_reason: str | None
    block_reason_message: str | None
    safety_ratings: tuple[JsonObject, ...]


@final
@dataclass(frozen=True, slots=True)
class GeminiStreamError:
    """The vendor's error object that ended the stream: ``{"error": {...}}``.

    ``code`` is its HTTP-like code, ``status`` its canonical status
    (``CANCELLED``), ``message`` its text, ``reason`` the reason of its
    ``google.rpc.ErrorInfo`` detail (``API_KEY_INVALID``), ``details`` every
    detail as frozen JSON.
    """

    code: int | None
    status: str | None
    message: str
    reason: str | None
    details: tuple[JsonObject, ...]


@final
@dataclass(frozen=True, slots=True)
class GeminiResult:
    """What one streamed ``GenerateContentResponse`` said, once the body ended.

    ``response_id``, ``model_version`` and ``create_time`` as sent (each the
    same on every chunk that had it), or ``None``; ``candidates`` in index
    order; ``prompt_feedback`` and ``model_status`` the last sent; ``usage``
    the last ``usageMetadata``; ``error`` the error object that ended the
    stream, if one did.
    """

    response_id: str | None
    model_version: str | None
    create_time: str | None
    candidates: tuple[GeminiCandidate, ...]
    prompt_feedback: GeminiPromptFeedback | None
    usage: GeminiUsage | None
    model_status: JsonObject | None
    error: GeminiStreamError | None
