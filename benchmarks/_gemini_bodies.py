"""Gemini stream bodies for the vendors group, in the shape of a ``?alt=sse`` answer.

Each chunk is a whole ``GenerateContentResponse`` (one candidate, cumulative
``usageMetadata``, ``modelVersion``, ``responseId``), serialized as the API
sends it (spaces after separators), one ``data:`` frame each, no event names
and no terminator. A ``"text"`` body is ``n`` chunks of one text part, the
last one carrying ``finishReason``. Gemini never streams a call's arguments
in fragments: it sends each ``functionCall`` whole. So a ``"tool"`` body is
the same call the other vendors stream in ``n`` fragments (the same argument
object, ``{"text": <the words>}``) arriving as Gemini sends it: whole, in one
chunk that also finishes the answer. Its figures are per body, as every
row's are; its event count is 1 whatever ``n``. A ``"reasoning"`` body is
``n`` chunks of one thought part (``thought: true``), the last one carrying
the run's ``thoughtSignature`` and ``finishReason``, with the thinking
counted in ``thoughtsTokenCount``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Literal

__all__ = ["GEMINI_MODEL", "gemini_events"]

GEMINI_MODEL = "gemini-2.5-flash"
_RESPONSE_ID = "bench-gemini-response-000001"
_PROMPT_TOKENS = 16
_SIGNATURE = "YmVuY2gtdGhvdWdodC1zaWduYXR1cmU="


def _chunk(part: dict[str, object], output: int, finish: bool, *, thinking: bool = False) -> str:
    candidate: dict[str, object] = {"content": {"parts": [part], "role": "model"}, "index": 0}
    if finish:
        candidate["finishReason"] = "STOP"
    usage = {
        "promptTokenCount": _PROMPT_TOKENS,
        "thoughtsTokenCount" if thinking else "candidatesTokenCount": output,
        "totalTokenCount": _PROMPT_TOKENS + output,
    }
    chunk = {
        "candidates": [candidate],
        "usageMetadata": usage,
        "modelVersion": GEMINI_MODEL,
        "responseId": _RESPONSE_ID,
    }
    return json.dumps(chunk)


def gemini_events(
    pieces: Iterable[str], shape: Literal["text", "tool", "reasoning"], n: int, tool: str
) -> Iterator[tuple[str, str]]:
    """The body's unnamed events: ``("", data)`` per chunk, built one at a time for text."""
    if shape == "tool":
        arguments = json.loads("".join(pieces))
        yield "", _chunk({"functionCall": {"name": tool, "args": arguments}}, n, True)
        return
    if shape == "reasoning":
        for index, piece in enumerate(pieces, start=1):
            part: dict[str, object] = {"text": piece, "thought": True}
            if index == n:
                part["thoughtSignature"] = _SIGNATURE
            yield "", _chunk(part, index, index == n, thinking=True)
        return
    for index, piece in enumerate(pieces, start=1):
        yield "", _chunk({"text": piece}, index, index == n)
