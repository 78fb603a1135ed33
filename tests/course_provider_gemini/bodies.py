"""Gemini stream chunks of our own, in the shapes the vendor streams, and players.

Every builder returns one unnamed `SseEvent` holding one chunk's JSON, as
the vendor sends them under ``alt=sse``; `raw` builds anything else. `play`
feeds a body to the mapping (the port), `judged` to the grammar alone. The
bodies are written here, never copied from recordings.
"""

from __future__ import annotations

import json
from typing import Any

from course_http import SseEvent, VendorError
from course_protocol import CourseModelChunk, CourseModelResponse
from course_provider_gemini import GeminiGrammar, GeminiMapping, GeminiResult

REQUEST_ID = "request-1"
RESPONSE_ID = "resp-test-01"


def event(data: dict[str, Any]) -> SseEvent:
    """An unnamed event holding ``data`` serialized as the vendor does (spaces after colons)."""
    return SseEvent("message", json.dumps(data))


def raw(data: str, name: str = "message") -> SseEvent:
    """An event with any data text (and any name), for hostile cases."""
    return SseEvent(name, data)


def usage(
    prompt: int = 10, candidates: int | None = 5, thoughts: int | None = None
) -> dict[str, Any]:
    counts: dict[str, Any] = {"promptTokenCount": prompt}
    if candidates is not None:
        counts["candidatesTokenCount"] = candidates
    if thoughts is not None:
        counts["thoughtsTokenCount"] = thoughts
    counts["totalTokenCount"] = prompt + (candidates or 0) + (thoughts or 0)
    return counts


def chunk(
    *parts: dict[str, Any],
    finish: str | None = None,
    response_id: str | None = RESPONSE_ID,
    counts: dict[str, Any] | None = None,
    **candidate: Any,
) -> SseEvent:
    """One chunk of one candidate with ``parts``, ``finish`` as its finish reason, if any."""
    body: dict[str, Any] = {"content": {"parts": list(parts), "role": "model"}, "index": 0}
    if finish is not None:
        body["finishReason"] = finish
    body.update(candidate)
    data: dict[str, Any] = {"candidates": [body], "usageMetadata": counts or usage()}
    data["modelVersion"] = "gemini-test"
    if response_id is not None:
        data["responseId"] = response_id
    return event(data)


def text(value: str, **metadata: Any) -> dict[str, Any]:
    return {"text": value, **metadata}


def thought(value: str) -> dict[str, Any]:
    return {"text": value, "thought": True}


def call(name: str, args: Any = None, **metadata: Any) -> dict[str, Any]:
    function: dict[str, Any] = {"name": name}
    if args is not None:
        function["args"] = args
    return {"functionCall": function, **metadata}


def text_body(*deltas: str, prompt: int = 10) -> list[SseEvent]:
    """A whole text answer: one chunk per delta, then an empty chunk that finishes it.

    The last chunk is the one Gemini 3 ends with: an empty text part, the
    finish reason and the final usage.
    """
    events = [
        chunk(text(piece), counts=usage(prompt, index + 1)) for index, piece in enumerate(deltas)
    ]
    events.append(chunk(text(""), finish="STOP", counts=usage(prompt, len(deltas))))
    return events


def tool_body() -> list[SseEvent]:
    """A whole answer calling ``add`` with ``{"left": 20, "right": 22}``."""
    return [
        chunk(text("Adding. ")),
        chunk(
            call("add", {"left": 20, "right": 22}, thoughtSignature="c2lnbmF0dXJl"),
            finish="STOP",
            finishMessage="Model generated function call(s).",
            counts=usage(10, 9, 4),
        ),
    ]


def error_object(status: str = "CANCELLED", message: str = "The operation was cancelled.") -> str:
    return json.dumps({"error": {"code": 499, "message": message, "status": status}})


def streamed_call(
    name: str, *fragments: list[dict[str, Any]], **start: Any
) -> list[dict[str, Any]]:
    """The parts of one call whose arguments stream (Vertex): a start, continuations, an end.

    Each of ``fragments`` is the ``partialArgs`` of one continuation part;
    ``start`` adds fields to the starting part's ``functionCall`` (``id``).
    """
    parts: list[dict[str, Any]] = [{"functionCall": {"name": name, "willContinue": True, **start}}]
    parts.extend(
        {"functionCall": {"partialArgs": fragment, "willContinue": True}} for fragment in fragments
    )
    parts.append({"functionCall": {}})
    return parts


def sse(events: list[SseEvent]) -> bytes:
    """``events`` framed as the vendor frames them under ``alt=sse``: CRLF line ends."""
    return "".join(f"data: {item.data}\r\n\r\n" for item in events).encode()


def json_array(events: list[SseEvent]) -> bytes:
    """``events`` as the streamed JSON array the vendor sends without ``alt=sse``."""
    return ("[" + "\n,\r\n".join(item.data for item in events) + "\n]").encode()


def judged(events: list[SseEvent]) -> GeminiResult | VendorError:
    """Feed every event to a fresh grammar, then end it: the result, or the first error."""
    grammar = GeminiGrammar()
    try:
        for index, item in enumerate(events):
            grammar.feed(item, index)
        return grammar.end(len(events))
    except VendorError as error:
        return error


def play(
    events: list[SseEvent], request_id: str = REQUEST_ID
) -> tuple[list[CourseModelChunk], CourseModelResponse | VendorError]:
    """Feed every event to a fresh mapping, then end it: the chunks, then the response or error."""
    parser = GeminiMapping(request_id)
    chunks: list[CourseModelChunk] = []
    try:
        for index, item in enumerate(events):
            made = parser.feed(item, index)
            if made is None:
                continue
            chunks.extend(made if isinstance(made, tuple) else (made,))
        return chunks, parser.end(len(events))
    except VendorError as error:
        return chunks, error
