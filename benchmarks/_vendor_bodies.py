"""Streamed vendor bodies of any length, built in code in the shapes the recordings show.

Each body repeats the event shapes of the real Anthropic Messages, OpenAI
Chat Completions and OpenAI Responses streams (the same fields, the same
framing, compact JSON as the vendors send it); only the text changes. A
``"text"`` body streams ``n`` text deltas; a ``"tool"`` body streams one
Tool call whose JSON arguments arrive in ``n`` fragments; a
``"reasoning"`` body (the wires of `shapes_of` that have one) streams ``n``
reasoning deltas. Gemini's bodies (``benchmarks._gemini_bodies``) stream
``n`` text or thought chunks, and its one Tool call whole, as Gemini sends
calls. Every OpenAI-compatible server's Chat body, and Azure's, is built
from what its ``ChatDialect`` declares (``benchmarks._chat_bodies``);
Azure's Responses stream is OpenAI's. A registered wire that is a dialect
of one of these (``VendorPlugin.dialect_of``) and has no builder of its own
gets its base wire's bodies, so every registered SSE wire has rows.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from benchmarks._chat_bodies import (
    ANSWER,
    CALL_ID,
    OBFUSCATION,
    chat_events,
    compact_json,
    streams_reasoning,
)
from benchmarks._gemini_bodies import gemini_events
from course_provider_openai import (
    AZURE_OPENAI_CHAT,
    AZURE_RESPONSES_WIRE,
    CHAT_DIALECTS,
    OPENAI_CHAT,
    ChatDialect,
)
from course_vendor import load_vendor, vendor_names

__all__ = [
    "APIS",
    "SHAPES",
    "TOOL_NAME",
    "UNMEASURED",
    "Api",
    "Shape",
    "VendorBody",
    "body_form",
    "body_frames",
    "shapes_of",
    "vendor_body",
]

Api = str
"""A vendor wire's name, as the vendor registry (``course_vendor``) knows it."""
Shape = Literal["text", "tool", "reasoning"]
SHAPES: tuple[Shape, ...] = get_args(Shape)[:2]
"""The shapes every wire's bodies come in: ``n`` text deltas, one Tool call in ``n`` fragments."""


def shapes_of(api: Api) -> tuple[Shape, ...]:
    """The shapes ``api``'s bodies come in: `SHAPES`, and ``"reasoning"`` where it has one."""
    return (*SHAPES, "reasoning") if api in _REASONING_APIS else SHAPES


TOOL_NAME = "write_note"
"""The one Tool of every ``"tool"`` body; its arguments are ``{"text": <the words>}``."""

_WORDS = ("lorem", "ipsum", "dolor", "sit", "amet", "consectetur", "adipiscing", "elit")
_MESSAGE_ID = "msg_01BenchStreamedBody00001"
_TOOL_USE_ID = "toolu_01BenchStreamedCall0001"
_RESPONSE_ID = "resp_0bench0000000000000000000000000000000000000000001"
_ITEM_ID = "msg_0bench0000000000000000000000000000000000000000001"
_FUNCTION_ITEM_ID = "fc_0bench0000000000000000000000000000000000000000001"
_REASONING_ID = "rs_0bench0000000000000000000000000000000000000000001"
_ENCRYPTED = "gAAAAABbench" + "x" * 500
_SIGNATURE = "EqQBCkgIARABGAIiQBench" + "0" * 64


@dataclass(frozen=True)
class VendorBody:
    """One complete streamed response body and what a correct reader makes of it.

    ``deltas`` is ``n``; ``events`` the number of server-sent events with a
    JSON (or ``[DONE]``) ``data`` field; ``text`` the whole streamed text (for
    ``"text"``), reasoning (for ``"reasoning"``) or the Tool's complete
    argument text (for ``"tool"``);
    ``expected`` what a reader must end with, made once with the body: the
    text, or the arguments parsed from it. A timed pass compares its result
    with ``expected`` and never parses it again: parsing the argument text
    costs about what the floor's whole pass over a one-event body does (a
    Gemini Tool body is its one call), so a pass that did would be charged
    for the check.
    """

    api: Api
    shape: Shape
    deltas: int
    body: bytes
    events: int
    text: str
    expected: str | dict[str, Any] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # A frozen dataclass sets its derived fields through object.__setattr__.
        expected = self.arguments if self.shape == "tool" else self.text
        object.__setattr__(self, "expected", expected)

    @property
    def arguments(self) -> dict[str, Any]:
        """The Tool call's arguments as a reader must return them, parsed anew (``"tool"``)."""
        value: dict[str, Any] = json.loads(self.text)
        return value


class _Pieces:
    """The ``n`` pieces of a body, made one at a time: words, or a Tool's argument fragments.

    Text is ``n`` words; a Tool's argument object ``{"text": "<words>"}`` is
    cut into ``n`` fragments (the opening, ``n - 2`` words, the closing).
    Nothing is kept, so a lazily built body holds no piece it has sent.
    """

    def __init__(self, n: int, shape: Shape) -> None:
        if n < 3:
            raise ValueError(f"a body needs at least 3 deltas, got {n}")
        self.n = n
        self.shape = shape

    def __len__(self) -> int:
        return self.n

    def __iter__(self) -> Iterator[str]:
        words = range(self.n - 2) if self.shape == "tool" else range(self.n)
        if self.shape == "tool":
            yield '{"text": "'
        for index in words:
            yield f" {_WORDS[index % len(_WORDS)]}"
        if self.shape == "tool":
            yield '"}'

    def joined(self) -> str:
        """Every piece in one string (what the final events of a Responses body repeat)."""
        return "".join(self)


def _anthropic(pieces: _Pieces, shape: Shape) -> Iterator[tuple[str, str]]:
    usage = {
        "input_tokens": 377,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 0,
        "output_tokens": 1,
        "service_tier": "standard",
    }
    message: dict[str, object] = {
        "id": _MESSAGE_ID,
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-20250514",
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": usage,
    }
    yield "message_start", compact_json({"type": "message_start", "message": message})
    if shape == "text":
        block: dict[str, object] = {"type": "text", "text": ""}
        delta_type, key, stop = "text_delta", "text", "end_turn"
    elif shape == "reasoning":
        block = {"type": "thinking", "thinking": "", "signature": ""}
        delta_type, key, stop = "thinking_delta", "thinking", "end_turn"
    else:
        block = {"type": "tool_use", "id": _TOOL_USE_ID, "name": TOOL_NAME, "input": {}}
        delta_type, key, stop = "input_json_delta", "partial_json", "tool_use"
    start = {"type": "content_block_start", "index": 0, "content_block": block}
    yield "content_block_start", compact_json(start)
    yield "ping", '{"type": "ping"}'
    for piece in pieces:
        delta = {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": delta_type, key: piece},
        }
        yield "content_block_delta", compact_json(delta)
    if shape == "reasoning":
        signed = {"type": "signature_delta", "signature": _SIGNATURE}
        yield (
            "content_block_delta",
            compact_json({"type": "content_block_delta", "index": 0, "delta": signed}),
        )
    yield "content_block_stop", compact_json({"type": "content_block_stop", "index": 0})
    end = {
        "type": "message_delta",
        "delta": {"stop_reason": stop, "stop_sequence": None},
        "usage": {"output_tokens": len(pieces)},
    }
    yield "message_delta", compact_json(end)
    yield "message_stop", compact_json({"type": "message_stop"})


def _response(status: str, output: list[object], tokens: int | None) -> dict[str, object]:
    usage = None
    if tokens is not None:
        usage = {
            "input_tokens": 16,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens": tokens,
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": 16 + tokens,
        }
    return {
        "id": _RESPONSE_ID,
        "object": "response",
        "created_at": 1761175204,
        "status": status,
        "background": False,
        "error": None,
        "incomplete_details": None,
        "instructions": None,
        "max_output_tokens": None,
        "model": "gpt-4o-2024-08-06",
        "output": output,
        "parallel_tool_calls": True,
        "previous_response_id": None,
        "store": True,
        "temperature": 1.0,
        "tool_choice": "auto",
        "tools": [],
        "top_p": 1.0,
        "truncation": "disabled",
        "usage": usage,
        "metadata": {},
    }


def _responses(pieces: _Pieces, shape: Shape) -> Iterator[dict[str, object]]:
    yield {"type": "response.created", "response": _response("in_progress", [], None)}
    yield {"type": "response.in_progress", "response": _response("in_progress", [], None)}
    if shape == "reasoning":
        yield from _responses_reasoning(pieces)
        return
    if shape == "text":
        item: dict[str, object] = {
            "id": _ITEM_ID,
            "type": "message",
            "status": "in_progress",
            "content": [],
            "role": "assistant",
        }
        yield {"type": "response.output_item.added", "output_index": 0, "item": item}
        where = {"item_id": _ITEM_ID, "output_index": 0, "content_index": 0}
        part: dict[str, object] = {"type": "output_text", "annotations": [], "logprobs": []}
        yield {"type": "response.content_part.added", **where, "part": {**part, "text": ""}}
        for piece in pieces:
            yield {
                "type": "response.output_text.delta",
                **where,
                "delta": piece,
                "logprobs": [],
                "obfuscation": OBFUSCATION,
            }
        joined = pieces.joined()
        yield {"type": "response.output_text.done", **where, "text": joined, "logprobs": []}
        yield {"type": "response.content_part.done", **where, "part": {**part, "text": joined}}
        done = {**item, "status": "completed", "content": [{**part, "text": joined}]}
    else:
        item = {
            "id": _FUNCTION_ITEM_ID,
            "type": "function_call",
            "status": "in_progress",
            "arguments": "",
            "call_id": CALL_ID,
            "name": TOOL_NAME,
        }
        yield {"type": "response.output_item.added", "output_index": 0, "item": item}
        for piece in pieces:
            yield {
                "type": "response.function_call_arguments.delta",
                "item_id": _FUNCTION_ITEM_ID,
                "output_index": 0,
                "delta": piece,
                "obfuscation": OBFUSCATION,
            }
        joined = pieces.joined()
        yield {
            "type": "response.function_call_arguments.done",
            "item_id": _FUNCTION_ITEM_ID,
            "output_index": 0,
            "arguments": joined,
        }
        done = {**item, "status": "completed", "arguments": joined}
    yield {"type": "response.output_item.done", "output_index": 0, "item": done}
    completed = _response("completed", [done], len(pieces))
    yield {"type": "response.completed", "response": completed}


def _responses_reasoning(pieces: _Pieces) -> Iterator[dict[str, object]]:
    """A reasoning item whose one summary part streams in the pieces, then a short answer."""
    item: dict[str, object] = {"id": _REASONING_ID, "type": "reasoning", "summary": []}
    yield {"type": "response.output_item.added", "output_index": 0, "item": item}
    where = {"item_id": _REASONING_ID, "output_index": 0, "summary_index": 0}
    part = {"type": "summary_text", "text": ""}
    yield {"type": "response.reasoning_summary_part.added", **where, "part": part}
    for piece in pieces:
        yield {
            "type": "response.reasoning_summary_text.delta",
            **where,
            "delta": piece,
            "obfuscation": OBFUSCATION,
        }
    joined = pieces.joined()
    yield {"type": "response.reasoning_summary_text.done", **where, "text": joined}
    whole = {"type": "summary_text", "text": joined}
    yield {"type": "response.reasoning_summary_part.done", **where, "part": whole}
    reasoned = {**item, "summary": [whole], "encrypted_content": _ENCRYPTED}
    yield {"type": "response.output_item.done", "output_index": 0, "item": reasoned}
    message: dict[str, object] = {
        "id": _ITEM_ID,
        "type": "message",
        "status": "in_progress",
        "content": [],
        "role": "assistant",
    }
    yield {"type": "response.output_item.added", "output_index": 1, "item": message}
    at = {"item_id": _ITEM_ID, "output_index": 1, "content_index": 0}
    text: dict[str, object] = {"type": "output_text", "annotations": [], "logprobs": []}
    yield {"type": "response.content_part.added", **at, "part": {**text, "text": ""}}
    yield {"type": "response.output_text.delta", **at, "delta": ANSWER, "logprobs": []}
    yield {"type": "response.output_text.done", **at, "text": ANSWER, "logprobs": []}
    answered = {**text, "text": ANSWER}
    yield {"type": "response.content_part.done", **at, "part": answered}
    done = {**message, "status": "completed", "content": [answered]}
    yield {"type": "response.output_item.done", "output_index": 1, "item": done}
    completed = _response("completed", [reasoned, done], len(pieces))
    yield {"type": "response.completed", "response": completed}


def _named_responses(pieces: _Pieces, shape: Shape) -> Iterator[tuple[str, str]]:
    for number, payload in enumerate(_responses(pieces, shape)):
        kind = payload["type"]
        assert isinstance(kind, str)
        yield kind, compact_json({"type": kind, "sequence_number": number, **payload})


def body_frames(api: Api, shape: Shape, n: int) -> Iterator[str]:
    """The body's frames in order, each ``event:`` (when named) and ``data:`` plus a blank line.

    Lazy: a frame is built only when asked for, so a reader that keeps up
    never has the whole body in memory. Raises ``ValueError`` for ``n`` < 3,
    and for a shape ``api`` has no body of (`shapes_of`).
    """
    if shape not in shapes_of(api):
        raise ValueError(f"{api} has no {shape} body (it has {', '.join(shapes_of(api))})")
    pieces = _Pieces(n, shape)
    for name, data in _BUILDERS[api](pieces, shape):
        yield f"event: {name}\ndata: {data}\n\n" if name else f"data: {data}\n\n"


_Builder = Callable[[_Pieces, Shape], Iterator[tuple[str, str]]]


def _chat_builder(dialect: ChatDialect) -> _Builder:
    return lambda pieces, shape: chat_events(pieces, shape, len(pieces), TOOL_NAME, dialect)


_CHAT_FORMS = (OPENAI_CHAT, *CHAT_DIALECTS, AZURE_OPENAI_CHAT)
_OWN_BUILDERS: dict[Api, _Builder] = {
    "anthropic-messages": _anthropic,
    **{dialect.wire: _chat_builder(dialect) for dialect in _CHAT_FORMS},
    "openai-responses": _named_responses,
    "gemini": lambda pieces, shape: gemini_events(pieces, shape, len(pieces), TOOL_NAME),
}
"""How each wire's bodies are built, from the event shapes of its recorded transcripts."""
_OWN_REASONING: frozenset[Api] = frozenset(
    {"anthropic-messages", "gemini", "openai-responses"}
    | {dialect.wire for dialect in _CHAT_FORMS if streams_reasoning(dialect)}
)
"""The wires whose builder streams reasoning (a ``"reasoning"`` body: ``n`` reasoning deltas)."""


_SAME_BODIES: dict[Api, Api] = {AZURE_RESPONSES_WIRE: "openai-responses"}
"""Wires that stream another wire's bodies unchanged: Azure's Responses stream is OpenAI's."""


def body_form(name: Api) -> Api:
    """The wire whose bodies ``name``'s are: itself, the wire it streams the bodies of
    (`_SAME_BODIES`), or the wire it is a dialect of (``VendorPlugin.dialect_of``)."""
    if name in _OWN_BUILDERS:
        return name
    if name in _SAME_BODIES:
        return _SAME_BODIES[name]
    return load_vendor(name).dialect_of or name


_BASES: dict[Api, Api] = {name: body_form(name) for name in vendor_names()}
_BUILDERS: dict[Api, _Builder] = {
    name: _OWN_BUILDERS[base] for name, base in _BASES.items() if base in _OWN_BUILDERS
}
_REASONING_APIS: frozenset[Api] = frozenset(
    name for name, base in _BASES.items() if base in _OWN_REASONING
)

APIS: tuple[Api, ...] = tuple(name for name in vendor_names() if name in _BUILDERS)
"""The registered vendor wires the vendors group measures, in name order."""

UNMEASURED: tuple[Api, ...] = tuple(name for name in vendor_names() if name not in _BUILDERS)
"""Registered vendor wires with no body builder here: reported as rows that could not run."""


def vendor_body(api: Api, shape: Shape, n: int) -> VendorBody:
    """The whole body for ``api`` with ``n`` text deltas or ``n`` argument fragments."""
    frames = list(body_frames(api, shape, n))
    text = _Pieces(n, shape).joined()
    return VendorBody(api, shape, n, "".join(frames).encode("utf-8"), len(frames), text)
