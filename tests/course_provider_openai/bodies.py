"""Our own stream bodies in the shapes the OpenAI recordings show, built from small pieces.

Chat Completions: one dict per chunk (``chunk``, ``text``, ``tool_start``, ...),
turned into events by ``chat_events`` (``DONE`` stays the bare terminal
marker). Responses: one dict per event without ``sequence_number``;
``responses_events`` numbers them from ``start`` (a payload that already has
one keeps it) and names each frame after its type, as OpenAI does.
"""

from __future__ import annotations

import json
from typing import Any

from course_http import SseEvent
from course_protocol import CourseOpaque, CourseTextBlock

__all__ = [
    "CALL_ID",
    "CALL_ITEM_ID",
    "CHAT_ID",
    "DONE",
    "MESSAGE_ID",
    "RESPONSE_ID",
    "args_delta",
    "args_done",
    "call_events",
    "call_item",
    "chat_events",
    "chat_text_stream",
    "chunk",
    "completed",
    "created",
    "finish",
    "function_call",
    "in_progress",
    "item_added",
    "item_done",
    "message_item",
    "output_text",
    "part",
    "part_added",
    "part_done",
    "responses_events",
    "responses_text_block",
    "responses_text_stream",
    "text",
    "text_delta",
    "text_done",
    "text_events",
    "text_item",
    "text_part",
    "tool_arguments",
    "tool_start",
    "usage",
]

CHAT_ID = "chatcmpl-own-1"
RESPONSE_ID = "resp_own_1"
MESSAGE_ID = "msg_own_1"
CALL_ITEM_ID = "fc_own_1"
CALL_ID = "call_own_1"
_FIRST_PART = {"item_id": MESSAGE_ID, "output_index": 0, "content_index": 0}
DONE = "[DONE]"
_UNSET: Any = object()


def _data(payload: object) -> str:
    return payload if type(payload) is str else json.dumps(payload, separators=(",", ":"))


def chunk(
    delta: dict[str, Any] | None = None,
    *,
    finish_reason: object = None,
    choice_index: object = 0,
    chunk_id: object = CHAT_ID,
    usage: object = _UNSET,
    logprobs: object = _UNSET,
    **fields: object,
) -> dict[str, Any]:
    """A ``chat.completion.chunk`` with one choice (or none when ``delta`` is ``None``).

    ``logprobs`` goes in the choice; ``fields`` beside ``choices``.
    """
    body: dict[str, Any] = {"id": chunk_id, "object": "chat.completion.chunk", "model": "gpt-own"}
    if delta is None:
        body["choices"] = []
    else:
        choice = {"index": choice_index, "delta": delta, "finish_reason": finish_reason}
        if logprobs is not _UNSET:
            choice["logprobs"] = logprobs
        body["choices"] = [choice]
    if usage is not _UNSET:
        body["usage"] = usage
    body.update(fields)
    return body


def text(content: object, **fields: object) -> dict[str, Any]:
    """A chunk whose delta carries ``content``."""
    return chunk({"content": content}, **fields)


def tool_start(index: int, call_id: str, name: str, arguments: str = "") -> dict[str, Any]:
    """The first fragment of a Tool call: index, id, type, name and (usually empty) arguments."""
    function = {"name": name, "arguments": arguments}
    fragment = {"index": index, "id": call_id, "type": "function", "function": function}
    return chunk({"tool_calls": [fragment]})


def tool_arguments(index: int, arguments: str) -> dict[str, Any]:
    """A later fragment of a Tool call: index and argument text only."""
    return chunk({"tool_calls": [{"index": index, "function": {"arguments": arguments}}]})


def finish(reason: object, choice_index: object = 0) -> dict[str, Any]:
    """The finish chunk: an empty delta and ``finish_reason``."""
    return chunk({}, finish_reason=reason, choice_index=choice_index)


def usage(prompt: object = 12, completion: object = 7, total: object = 19) -> dict[str, Any]:
    """The usage chunk that ``include_usage`` adds: ``choices: []``."""
    counts = {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": total}
    return chunk(None, usage=counts)


def chat_events(*payloads: object, event: str = "message") -> list[SseEvent]:
    """One event per payload, JSON-encoded unless it is already text."""
    return [SseEvent(event, _data(payload)) for payload in payloads]


def chat_text_stream(*deltas: str) -> list[SseEvent]:
    """A complete text answer: role chunk, one chunk per delta, stop, usage, ``[DONE]``."""
    return chat_events(
        chunk({"role": "assistant", "content": ""}),
        *(text(delta) for delta in deltas),
        finish("stop"),
        usage(),
        DONE,
    )


def created(status: str = "in_progress", response_id: str = RESPONSE_ID) -> dict[str, Any]:
    """``response.created`` with an empty output."""
    response = {"id": response_id, "object": "response", "status": status, "output": []}
    return {"type": "response.created", "response": response}


def message_item(item_id: str, **item: object) -> dict[str, Any]:
    """The ``item`` of a message: role assistant, status in progress (override with ``item``)."""
    fields = {"id": item_id, "type": "message", "status": "in_progress", "role": "assistant"}
    return {**fields, "content": [], **item}


def output_text(text: str = "") -> dict[str, Any]:
    """An ``output_text`` part as the API spells it: its text and (no) annotations."""
    return {"type": "output_text", "text": text, "annotations": []}


def text_part(output_index: int, item_id: str, content_index: int = 0) -> dict[str, Any]:
    """The ``item_id``/``output_index``/``content_index`` triple of a text event."""
    return {"item_id": item_id, "output_index": output_index, "content_index": content_index}


def function_call(item_id: str, call_id: str, name: str, arguments: str = "") -> dict[str, Any]:
    """The ``item`` of a function call."""
    return {
        "id": item_id,
        "type": "function_call",
        "status": "in_progress",
        "arguments": arguments,
        "call_id": call_id,
        "name": name,
    }


def completed(
    output: list[dict[str, Any]],
    *,
    input_tokens: object = 16,
    output_tokens: object = 11,
    response_id: str = RESPONSE_ID,
    status: str = "completed",
) -> dict[str, Any]:
    """``response.completed`` with its output and usage."""
    response = {
        "id": response_id,
        "object": "response",
        "status": status,
        "output": output,
        "usage": {
            "input_tokens": input_tokens,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens": output_tokens,
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": 27,
        },
    }
    return {"type": "response.completed", "response": response}


def responses_events(*payloads: dict[str, Any] | str, start: int = 0) -> list[SseEvent]:
    """Number the payloads from ``start``, name each frame after its ``type``."""
    events = []
    for offset, payload in enumerate(payloads):
        if type(payload) is str:
            events.append(SseEvent("message", payload))
            continue
        assert isinstance(payload, dict)
        numbered = {"sequence_number": start + offset, **payload}
        name = payload.get("type")
        events.append(SseEvent(name if type(name) is str else "message", _data(numbered)))
    return events


def responses_text_stream(
    *deltas: str, item_id: str = "msg_own_1", start: int = 0
) -> list[SseEvent]:
    """A complete text answer: created, in progress, one message item with one text part."""
    joined = "".join(deltas)
    where = text_part(0, item_id)
    done_item = message_item(item_id, status="completed", content=[output_text(joined)])
    return responses_events(
        created(),
        {"type": "response.in_progress", "response": {"id": RESPONSE_ID, "status": "in_progress"}},
        {"type": "response.output_item.added", "output_index": 0, "item": message_item(item_id)},
        {"type": "response.content_part.added", **where, "part": output_text()},
        *({"type": "response.output_text.delta", **where, "delta": delta} for delta in deltas),
        {"type": "response.output_text.done", **where, "text": joined},
        {"type": "response.content_part.done", **where, "part": output_text(joined)},
        {"type": "response.output_item.done", "output_index": 0, "item": done_item},
        completed([done_item]),
        start=start,
    )


def responses_text_block(
    text: str,
    item_id: str = MESSAGE_ID,
    *,
    phase: str | None = None,
    refusal: bool = False,
    citations: tuple[CourseOpaque, ...] = (),
) -> CourseTextBlock:
    """The text block the Responses mapping makes of one part of the message ``item_id``."""
    marks: dict[str, object] = {"id": item_id}
    if phase is not None:
        marks["phase"] = phase
    if refusal:
        marks["type"] = "refusal"
    return CourseTextBlock(
        text, citations=citations, opaque=CourseOpaque("openai-responses", marks)
    )


def in_progress(response_id: str = RESPONSE_ID) -> dict[str, Any]:
    """``response.in_progress`` for the response ``response_id``."""
    return {"type": "response.in_progress", "response": {"id": response_id}}


def item_added(output_index: object, item: dict[str, Any]) -> dict[str, Any]:
    """``response.output_item.added`` of ``item`` at ``output_index``."""
    return {"type": "response.output_item.added", "output_index": output_index, "item": item}


def item_done(output_index: int, item: dict[str, Any]) -> dict[str, Any]:
    """``response.output_item.done`` of ``item`` at ``output_index``."""
    return {"type": "response.output_item.done", "output_index": output_index, "item": item}


def part(kind: str = "output_text", text: str = "") -> dict[str, Any]:
    """A message part of ``kind`` (``output_text``, ``refusal``) holding ``text``."""
    return output_text(text) if kind == "output_text" else {"type": kind, kind: text}


def part_added(kind: str = "output_text", **where: object) -> dict[str, Any]:
    """``response.content_part.added`` of an empty part, at ``where`` (the first message part)."""
    return {"type": "response.content_part.added", **(where or _FIRST_PART), "part": part(kind)}


def part_done(text: str = "", kind: str = "output_text", **where: object) -> dict[str, Any]:
    """``response.content_part.done`` of a part holding ``text``, at ``where``."""
    return {
        "type": "response.content_part.done",
        **(where or _FIRST_PART),
        "part": part(kind, text),
    }


def text_delta(delta: object, **where: object) -> dict[str, Any]:
    """``response.output_text.delta`` at ``where`` (the first message part)."""
    return {"type": "response.output_text.delta", **(where or _FIRST_PART), "delta": delta}


def text_done(text: object, **where: object) -> dict[str, Any]:
    """``response.output_text.done`` at ``where`` (the first message part)."""
    return {"type": "response.output_text.done", **(where or _FIRST_PART), "text": text}


def args_delta(delta: object, output_index: int = 0, item_id: str = CALL_ITEM_ID) -> dict[str, Any]:
    """``response.function_call_arguments.delta`` of the call ``item_id``."""
    return {
        "type": "response.function_call_arguments.delta",
        "item_id": item_id,
        "output_index": output_index,
        "delta": delta,
    }


def args_done(
    arguments: object, output_index: int = 0, item_id: str = CALL_ITEM_ID
) -> dict[str, Any]:
    """``response.function_call_arguments.done`` of the call ``item_id``."""
    return {
        "type": "response.function_call_arguments.done",
        "item_id": item_id,
        "output_index": output_index,
        "arguments": arguments,
    }


def call_item(
    item_id: str = CALL_ITEM_ID,
    call_id: str = CALL_ID,
    name: str = "add",
    arguments: str = '{"a": 1}',
) -> dict[str, Any]:
    """A function call as its ``done`` (and the terminal) repeat it."""
    return {**function_call(item_id, call_id, name, arguments), "status": "completed"}


def call_events(
    output_index: int = 0,
    item_id: str = CALL_ITEM_ID,
    call_id: str = CALL_ID,
    name: str = "add",
    fragments: tuple[str, ...] = ('{"a"', ": 1}"),
) -> list[dict[str, Any]]:
    """A whole function call: added, one delta per fragment, its arguments' done, its done."""
    joined = "".join(fragments)
    return [
        item_added(output_index, function_call(item_id, call_id, name)),
        *(args_delta(fragment, output_index, item_id) for fragment in fragments),
        args_done(joined, output_index, item_id),
        item_done(output_index, call_item(item_id, call_id, name, joined)),
    ]


def text_item(*texts: str, item_id: str = MESSAGE_ID) -> dict[str, Any]:
    """A message as its ``done`` (and the terminal) repeat it: one output text per text."""
    return message_item(item_id, status="completed", content=[output_text(t) for t in texts])


def text_events(
    *deltas: str, output_index: int = 0, item_id: str = MESSAGE_ID
) -> list[dict[str, Any]]:
    """A whole message of one output text streamed in ``deltas``, from added to done."""
    where = text_part(output_index, item_id)
    joined = "".join(deltas)
    return [
        item_added(output_index, message_item(item_id)),
        part_added(**where),
        *(text_delta(delta, **where) for delta in deltas),
        text_done(joined, **where),
        part_done(joined, **where),
        item_done(output_index, text_item(joined, item_id=item_id)),
    ]
