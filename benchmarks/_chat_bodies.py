"""Chat Completions stream bodies for the vendors group, in OpenAI's form or a server's dialect.

OpenAI's form repeats the event shapes of the recorded transcripts: a role
chunk, one chunk per delta, the finishing chunk, the usage chunk
(``choices: []``), ``[DONE]``. A compatible server's body is built from
what its `ChatDialect` declares, so that every event takes the dialect's
path through the grammar and the mapping:

- its usage where it sends it (`UsagePlace`): Groq's ``x_groq.usage`` in the
  finishing chunk, beside the finishing choice (Mistral, Together), or on
  every chunk, the counts so far, then the usage chunk (vLLM); OpenAI's
  usage chunk otherwise;
- its first reasoning field on every delta, ``null`` while the answer or a
  Tool call streams (as DeepSeek's reasoning models send it), and
  OpenRouter's ``reasoning_details`` beside it (``[]`` then);
- ``delta.content`` as an array of typed parts where it has them (Mistral);
- Azure's content-filter annotations, as its asynchronous filter streams
  them token by token (its default filter sends the text in buffered chunks
  of many tokens each, fewer events for the same text): the prompt's results
  in a first chunk whose ``id`` is ``""``, then the choice's results and the
  offsets they cover in an annotation of their own after every
  `ANNOTATED_DELTAS` deltas and after the finish.

A ``"reasoning"`` body (a dialect that streams reasoning) sends ``n``
reasoning deltas in its own field, or ``thinking`` parts, then a short
answer. Only OpenAI's body carries OpenAI's own ``service_tier`` and
``obfuscation``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Final, Literal

from course_provider_openai import OPENAI_CHAT, ChatDialect, UsagePlace

__all__ = [
    "ANNOTATED_DELTAS",
    "ANSWER",
    "CALL_ID",
    "OBFUSCATION",
    "chat_events",
    "compact_json",
    "streams_reasoning",
]

ANSWER: Final = "Done."
"""The answer a ``"reasoning"`` body ends with, after its reasoning."""

_CHAT_ID = "chatcmpl-BenchStreamedBody000000001"
CALL_ID = "call_BenchStreamedCall000001"
"""The one Tool call's id in every body (Chat's and Responses')."""
_GROQ_REQUEST_ID = "req_01benchstreamedbody0000001"
OBFUSCATION = "x7Qa2Lm9"
"""OpenAI's ``obfuscation`` padding, on its Chat chunks and Responses deltas."""
_PROMPT_TOKENS = 16
_SAFE = {"filtered": False, "severity": "safe"}
_FILTER_RESULTS = {"hate": _SAFE, "self_harm": _SAFE, "sexual": _SAFE, "violence": _SAFE}
ANNOTATED_DELTAS: Final = 25
"""How many deltas an Azure annotation covers: about 150 characters of text, the span
between the offsets of the asynchronous filter's documented annotation."""
_USAGE_PLACES: Final = (UsagePlace.X_GROQ, UsagePlace.FINISH_CHUNK, UsagePlace.EVERY_CHUNK)
"""The places a body sends its usage in, the first one its dialect declares (else OpenAI's)."""


def streams_reasoning(dialect: ChatDialect) -> bool:
    """Whether ``dialect``'s deltas carry reasoning: a reasoning field, or ``thinking`` parts."""
    return bool(dialect.reasoning_fields) or dialect.content_parts


def compact_json(value: object) -> str:
    """``value`` as the vendors send JSON: compact, no spaces after separators."""
    return json.dumps(value, separators=(",", ":"))


class _Form:
    """How one dialect's chunks are spelled: the fields around each delta, and where usage goes."""

    def __init__(self, dialect: ChatDialect) -> None:
        self.dialect = dialect
        self.openai = dialect is OPENAI_CHAT
        self.usage = next(
            (place for place in _USAGE_PLACES if place in dialect.usage), UsagePlace.LAST_CHUNK
        )
        self.silent: dict[str, object] = {}
        """What every delta says of reasoning while the answer streams: nothing, in its fields."""
        if dialect.reasoning_fields:
            self.silent[dialect.reasoning_fields[0]] = None
        if dialect.reasoning_details:
            self.silent["reasoning_details"] = []

    def content(self, text: str) -> str | list[dict[str, object]]:
        return [{"type": "text", "text": text}] if self.dialect.content_parts else text

    def reasoning(self, text: str) -> dict[str, object]:
        """The delta of one reasoning piece, as the dialect streams it."""
        dialect = self.dialect
        if not dialect.reasoning_fields:
            thinking = [{"type": "thinking", "thinking": [{"type": "text", "text": text}]}]
            return {"content": thinking}
        delta: dict[str, object] = {"content": None, dialect.reasoning_fields[0]: text}
        if dialect.reasoning_details:
            detail = {"type": "reasoning.text", "text": text, "index": 0, "format": None}
            delta["reasoning_details"] = [detail]
        return delta

    def usage_counts(self, completion: int) -> dict[str, object]:
        counts: dict[str, object] = {
            "prompt_tokens": _PROMPT_TOKENS,
            "completion_tokens": completion,
            "total_tokens": _PROMPT_TOKENS + completion,
        }
        if self.openai:
            counts["prompt_tokens_details"] = {"cached_tokens": 0, "audio_tokens": 0}
            counts["completion_tokens_details"] = {"reasoning_tokens": 0, "audio_tokens": 0}
        return counts

    def chunk(
        self,
        choices: list[dict[str, object]],
        sent: int,
        *,
        usage: dict[str, object] | None = None,
        groq: dict[str, object] | None = None,
    ) -> str:
        """One ``chat.completion.chunk``; ``sent`` is the deltas so far (vLLM counts them)."""
        chunk: dict[str, object] = {
            "id": _CHAT_ID,
            "object": "chat.completion.chunk",
            "created": 1766084435,
            "model": "gpt-4o-2024-08-06",
        }
        if self.openai:
            chunk["service_tier"] = "default"
        chunk["system_fingerprint"] = "fp_deacdd5f6f"
        chunk["choices"] = choices
        if usage is None and self.usage is UsagePlace.EVERY_CHUNK:
            usage = self.usage_counts(sent)
        chunk["usage"] = usage
        if groq is not None:
            chunk["x_groq"] = groq
        if self.openai:
            chunk["obfuscation"] = OBFUSCATION
        return compact_json(chunk)

    def choice(self, delta: dict[str, object], finish: str | None = None) -> dict[str, object]:
        entry: dict[str, object] = {
            "index": 0,
            "delta": {**delta, **self._unsaid(delta)} if delta else delta,
            "logprobs": None,
            "finish_reason": finish,
        }
        return entry

    def _unsaid(self, delta: dict[str, object]) -> dict[str, object]:
        return {key: value for key, value in self.silent.items() if key not in delta}


def _annotation(choices: list[dict[str, object]], **fields: object) -> str:
    """An Azure content-filter annotation chunk: an ``id`` of ``""``, no delta."""
    chunk = {"id": "", "object": "", "created": 0, "model": "", **fields, "choices": choices}
    return compact_json(chunk)


def _checked(start: int, end: int) -> str:
    """The annotation of choice 0's text from delta ``start`` to delta ``end``."""
    offsets = {"check_offset": 6 * start, "start_offset": 6 * start, "end_offset": 6 * end}
    entry: dict[str, object] = {
        "index": 0,
        "finish_reason": None,
        "content_filter_results": _FILTER_RESULTS,
        "content_filter_offsets": offsets,
    }
    return _annotation([entry], usage=None)


def _deltas(
    pieces: Iterable[str], shape: Literal["text", "tool", "reasoning"], form: _Form, tool: str
) -> Iterator[dict[str, object]]:
    """The role delta, then each piece's delta (a reasoning body's answer after its pieces)."""
    if shape == "tool":
        function = {"name": tool, "arguments": ""}
        call = {"index": 0, "id": CALL_ID, "type": "function", "function": function}
        yield {"role": "assistant", "content": None, "tool_calls": [call]}
        for piece in pieces:
            yield {"tool_calls": [{"index": 0, "function": {"arguments": piece}}]}
        return
    yield {"role": "assistant", "content": "", "refusal": None}
    if shape == "reasoning":
        for piece in pieces:
            yield form.reasoning(piece)
        yield {"content": form.content(ANSWER)}
        return
    for piece in pieces:
        yield {"content": form.content(piece)}


def chat_events(
    pieces: Iterable[str],
    shape: Literal["text", "tool", "reasoning"],
    n: int,
    tool: str,
    dialect: ChatDialect = OPENAI_CHAT,
) -> Iterator[tuple[str, str]]:
    """The body's unnamed events (``("", data)``, one at a time) in ``dialect``'s form.

    ``n`` is the number of pieces (the usage's completion count).
    """
    form = _Form(dialect)
    if dialect.content_filters:
        prompt = [{"prompt_index": 0, "content_filter_results": _FILTER_RESULTS}]
        yield "", _annotation([], prompt_filter_results=prompt, usage=None)
    sent = 0
    for delta in _deltas(pieces, shape, form, tool):
        yield "", form.chunk([form.choice(delta)], sent)
        sent += 1
        if dialect.content_filters and sent % ANNOTATED_DELTAS == 0:
            yield "", _checked(sent - ANNOTATED_DELTAS, sent)
    finish = "tool_calls" if shape == "tool" else "stop"
    usage = form.usage_counts(n)
    if form.usage is UsagePlace.X_GROQ:
        groq: dict[str, object] = {"id": _GROQ_REQUEST_ID, "usage": usage}
        yield "", form.chunk([form.choice({}, finish)], sent, groq=groq)
    elif form.usage is UsagePlace.FINISH_CHUNK:
        yield "", form.chunk([form.choice({}, finish)], sent, usage=usage)
    else:
        yield "", form.chunk([form.choice({}, finish)], sent)
    if dialect.content_filters:
        yield "", _checked(sent - sent % ANNOTATED_DELTAS, sent)
    if form.usage in (UsagePlace.LAST_CHUNK, UsagePlace.EVERY_CHUNK):
        yield "", form.chunk([], sent, usage=usage)
    yield "", "[DONE]"
