"""ConverseStream events of our own, in the shapes the API reference documents, and players.

Every builder returns one `SseEvent` as `ConverseDecoder` names it (the
``:event-type``, or ``exception:`` and the ``:exception-type``) holding the
payload's JSON; `frames.body_of` frames a list of them as the vendor's
binary body. `play` feeds a body to the mapping (the port), `judged` to the
grammar alone. The bodies are written here from the reference.
"""

from __future__ import annotations

import json
from typing import Any

from course_http import SseEvent, VendorError
from course_protocol import CourseModelChunk, CourseModelResponse
from course_provider_bedrock import ConverseGrammar, ConverseMapping, ConverseResult

REQUEST_ID = "request-1"
TOOL_ID = "tooluse_abc123"


def ev(kind: str, payload: dict[str, Any]) -> SseEvent:
    """An event named ``kind`` holding ``payload`` as JSON."""
    return SseEvent(kind, json.dumps(payload))


def start() -> SseEvent:
    return ev("messageStart", {"role": "assistant"})


def text(piece: str, index: int = 0) -> SseEvent:
    return ev("contentBlockDelta", {"contentBlockIndex": index, "delta": {"text": piece}})


def delta(index: int, body: dict[str, Any]) -> SseEvent:
    return ev("contentBlockDelta", {"contentBlockIndex": index, "delta": body})


def reasoning(index: int, **member: str) -> SseEvent:
    return delta(index, {"reasoningContent": member})


def tool_start(index: int = 0, call_id: str = TOOL_ID, name: str = "add") -> SseEvent:
    body = {"toolUse": {"toolUseId": call_id, "name": name}}
    return ev("contentBlockStart", {"contentBlockIndex": index, "start": body})


def tool_input(fragment: str, index: int = 0) -> SseEvent:
    return delta(index, {"toolUse": {"input": fragment}})


def stop_block(index: int = 0) -> SseEvent:
    return ev("contentBlockStop", {"contentBlockIndex": index})


def stop(reason: str = "end_turn", **more: Any) -> SseEvent:
    return ev("messageStop", {"stopReason": reason, **more})


def usage(
    inputs: int = 10,
    outputs: int = 5,
    cache_read: int | None = None,
    cache_write: int | None = None,
) -> dict[str, Any]:
    counts: dict[str, Any] = {
        "inputTokens": inputs,
        "outputTokens": outputs,
        "totalTokens": inputs + outputs + (cache_read or 0) + (cache_write or 0),
    }
    if cache_read is not None:
        counts["cacheReadInputTokens"] = cache_read
    if cache_write is not None:
        counts["cacheWriteInputTokens"] = cache_write
    return counts


def metadata(counts: dict[str, Any] | None = None, **more: Any) -> SseEvent:
    return ev("metadata", {"usage": counts or usage(), "metrics": {"latencyMs": 120}, **more})


def exception(kind: str, message: str, **more: Any) -> SseEvent:
    return ev(f"exception:{kind}", {"message": message, **more})


def text_body(*pieces: str) -> list[SseEvent]:
    """A whole text answer streamed in ``pieces`` (``Hello`` when none)."""
    deltas = [text(piece) for piece in (pieces or ("Hello",))]
    return [start(), *deltas, stop_block(), stop(), metadata()]


def tool_body() -> list[SseEvent]:
    """A whole answer that calls ``add`` with ``{"left": 20, "right": 22}``, after some text."""
    return [
        start(),
        text("Let me add."),
        stop_block(0),
        tool_start(1),
        tool_input('{"left": 20, ', 1),
        tool_input('"right": 22}', 1),
        stop_block(1),
        stop("tool_use"),
        metadata(),
    ]


def reasoning_body() -> list[SseEvent]:
    """Reasoning (text, then its signature), then an answer."""
    return [
        start(),
        reasoning(0, text="Twenty plus "),
        reasoning(0, text="twenty-two."),
        reasoning(0, signature="sig-abc"),
        stop_block(0),
        text("42", 1),
        stop_block(1),
        stop(),
        metadata(),
    ]


def play(events: list[SseEvent]) -> tuple[list[CourseModelChunk], CourseModelResponse]:
    """Feed ``events`` to a fresh mapping; the chunks pushed and the response."""
    mapping = ConverseMapping(REQUEST_ID)
    chunks: list[CourseModelChunk] = []
    for index, item in enumerate(events):
        mapping.item(item, index, chunks.append)
    return chunks, mapping.end(len(events))


def judged(events: list[SseEvent]) -> ConverseResult:
    """Feed ``events`` to a fresh grammar alone; its result."""
    grammar = ConverseGrammar()
    for index, item in enumerate(events):
        grammar.feed(item, index)
    return grammar.end(len(events))


def failure(events: list[SseEvent], *, mapped: bool = False) -> VendorError:
    """The `VendorError` the grammar (or, ``mapped``, the mapping) raises for ``events``."""
    try:
        if mapped:
            play(events)
        else:
            judged(events)
    except VendorError as error:
        return error
    raise AssertionError("the body was accepted")
