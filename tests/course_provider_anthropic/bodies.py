"""Messages API event bodies of our own, in the shapes the vendor streams, and a player.

Every builder returns one `SseEvent` whose ``event:`` name equals its data's
``type``, as the vendor sends them; `raw` builds anything else. The bodies are
written here, never copied from recordings.
"""

from __future__ import annotations

import json
from typing import Any

from course_http import SseEvent, VendorError
from course_protocol import CourseModelChunk, CourseModelResponse
from course_provider_anthropic import MessagesStreamParser

REQUEST_ID = "request-1"
MESSAGE_ID = "msg_01TestBody"


def event(data: dict[str, Any]) -> SseEvent:
    """An event named after its data's type, the data serialized as the vendor does."""
    return SseEvent(str(data["type"]), json.dumps(data, separators=(",", ":")))


def raw(name: str, data: str) -> SseEvent:
    """An event with any name and any data text, for hostile cases."""
    return SseEvent(name, data)


def message_start(
    message_id: str = MESSAGE_ID, input_tokens: int = 10, **usage: object
) -> SseEvent:
    return event(
        {
            "type": "message_start",
            "message": {
                "id": message_id,
                "type": "message",
                "role": "assistant",
                "model": "claude-test",
                "content": [],
                "stop_reason": None,
                "stop_sequence": None,
                "usage": {"input_tokens": input_tokens, "output_tokens": 1, **usage},
            },
        }
    )


def text_start(index: int, text: str = "") -> SseEvent:
    return event(
        {
            "type": "content_block_start",
            "index": index,
            "content_block": {"type": "text", "text": text},
        }
    )


def tool_start(index: int, call_id: str, name: str) -> SseEvent:
    block = {"type": "tool_use", "id": call_id, "name": name, "input": {}}
    return event({"type": "content_block_start", "index": index, "content_block": block})


def block_start(index: int, block: dict[str, Any]) -> SseEvent:
    return event({"type": "content_block_start", "index": index, "content_block": block})


def text_delta(index: int, text: str) -> SseEvent:
    return delta(index, {"type": "text_delta", "text": text})


def json_delta(index: int, fragment: str) -> SseEvent:
    return delta(index, {"type": "input_json_delta", "partial_json": fragment})


def delta(index: int, payload: dict[str, Any]) -> SseEvent:
    return event({"type": "content_block_delta", "index": index, "delta": payload})


def block_stop(index: int) -> SseEvent:
    return event({"type": "content_block_stop", "index": index})


def message_delta(
    stop_reason: str | None = "end_turn", output_tokens: int = 5, **extra: object
) -> SseEvent:
    usage = {"output_tokens": output_tokens, **extra}
    return event(
        {
            "type": "message_delta",
            "delta": {"stop_reason": stop_reason, "stop_sequence": None},
            "usage": usage,
        }
    )


def message_stop() -> SseEvent:
    return event({"type": "message_stop"})


def ping() -> SseEvent:
    return event({"type": "ping"})


def error_event(kind: str = "overloaded_error", message: str = "Overloaded") -> SseEvent:
    return event({"type": "error", "error": {"type": kind, "message": message}})


def text_body(*pieces: str, stop_reason: str = "end_turn") -> list[SseEvent]:
    """A whole response of one text block streamed in ``pieces``."""
    return [
        message_start(),
        text_start(0),
        *(text_delta(0, piece) for piece in pieces),
        block_stop(0),
        message_delta(stop_reason),
        message_stop(),
    ]


def tool_body(*fragments: str, call_id: str = "toolu_01A", name: str = "add") -> list[SseEvent]:
    """A whole response of text then one Tool call whose arguments arrive in ``fragments``."""
    return [
        message_start(),
        text_start(0),
        text_delta(0, "Adding."),
        block_stop(0),
        tool_start(1, call_id, name),
        *(json_delta(1, fragment) for fragment in fragments),
        block_stop(1),
        message_delta("tool_use"),
        message_stop(),
    ]


def play(
    events: list[SseEvent], request_id: str = REQUEST_ID
) -> tuple[list[CourseModelChunk], CourseModelResponse | VendorError]:
    """Feed ``events`` in order; the chunks made, then the response or the first `VendorError`."""
    parser = MessagesStreamParser(request_id)
    chunks: list[CourseModelChunk] = []
    try:
        for index, item in enumerate(events):
            chunk = parser.feed(item, index)
            if chunk is not None:
                chunks.append(chunk)
        return chunks, parser.end(len(events))
    except VendorError as error:
        return chunks, error


def failure(events: list[SseEvent]) -> tuple[list[CourseModelChunk], VendorError]:
    """Play ``events`` that must fail; the chunks made before the failure, and the error."""
    chunks, outcome = play(events)
    assert isinstance(outcome, VendorError), f"expected a VendorError, got {outcome!r}"
    return chunks, outcome


def success(events: list[SseEvent]) -> tuple[list[CourseModelChunk], CourseModelResponse]:
    """Play ``events`` that must succeed; the chunks and the response."""
    chunks, outcome = play(events)
    assert isinstance(outcome, CourseModelResponse), f"expected a response, got {outcome!r}"
    return chunks, outcome
