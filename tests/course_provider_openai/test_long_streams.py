"""10^5 argument fragments and 10^5 text deltas: kept as fragments, joined and parsed once.

The official SDK helpers re-parse the whole argument buffer on every
fragment, which makes long Tool calls quadratic. These tests count the
parses instead of timing them (speed belongs to the benchmarks).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from course_http import SseEvent
from course_protocol import (
    CourseOpaque,
    CourseTextBlock,
    CourseTextDeltaChunk,
    CourseToolCall,
    JsonObject,
)
from course_provider_openai import (
    ChatMapping,
    ResponsesMapping,
    _chat_tool_calls,
    _responses_calls,
)
from course_vendor import tool_arguments
from tests.course_provider_openai.bodies import (
    DONE,
    RESPONSE_ID,
    chat_events,
    completed,
    created,
    finish,
    function_call,
    output_text,
    responses_events,
    responses_text_block,
    tool_start,
    usage,
)
from tests.course_provider_openai.bodies import (
    tool_arguments as chat_fragment,
)
from tests.course_provider_openai.driving import replay

FRAGMENTS = 100_000
PIECE = "ab"


class CountingParse:
    """``tool_arguments`` that records the length of every text it parses."""

    def __init__(self) -> None:
        self.lengths: list[int] = []

    def __call__(self, text: str, **where: Any) -> JsonObject:
        self.lengths.append(len(text))
        return tool_arguments(text, **where)


def argument_pieces() -> list[str]:
    return ['{"text": "', *([PIECE] * FRAGMENTS), '"}']


@pytest.fixture
def counting(monkeypatch: pytest.MonkeyPatch) -> Callable[[object], CountingParse]:
    def install(module: object) -> CountingParse:
        parse = CountingParse()
        monkeypatch.setattr(module, "parse_arguments", parse)
        return parse

    return install


def test_chat_parses_a_call_of_100_000_fragments_once(
    counting: Callable[[object], CountingParse],
) -> None:
    parse = counting(_chat_tool_calls)
    pieces = argument_pieces()
    events = chat_events(
        tool_start(0, "call_long", "write"),
        *(chat_fragment(0, piece) for piece in pieces),
        finish("tool_calls"),
        usage(),
        DONE,
    )

    outcome = replay(ChatMapping("request-1"), events)

    assert outcome.error is None
    assert parse.lengths == [len("".join(pieces))]
    expected = CourseToolCall("call_long", "write", {"text": PIECE * FRAGMENTS})
    assert outcome.response is not None
    assert outcome.response.message.content == (expected,)


def _whole_call_events(pieces: list[str], *, repeated: object) -> list[SseEvent]:
    """A Responses stream of one call in ``pieces``, its item's done repeating ``repeated``."""
    joined = "".join(pieces)
    where = {"item_id": "fc_long", "output_index": 0}
    item = function_call("fc_long", "call_long", "write")
    return responses_events(
        created(),
        {"type": "response.output_item.added", "output_index": 0, "item": item},
        *(
            {"type": "response.function_call_arguments.delta", **where, "delta": piece}
            for piece in pieces
        ),
        {"type": "response.function_call_arguments.done", **where, "arguments": joined},
        {
            "type": "response.output_item.done",
            "output_index": 0,
            "item": {**item, "arguments": repeated},
        },
        completed([{**item, "arguments": joined}]),
    )


def test_responses_parses_a_call_of_100_000_fragments_once(
    counting: Callable[[object], CountingParse],
) -> None:
    parse = counting(_responses_calls)
    pieces = argument_pieces()
    joined = "".join(pieces)
    events = _whole_call_events(pieces, repeated=joined)

    outcome = replay(ResponsesMapping("request-1"), events)

    assert outcome.error is None
    assert parse.lengths == [len(joined)]
    assert outcome.response is not None
    assert outcome.response.id == RESPONSE_ID
    assert outcome.response.message.content == (
        CourseToolCall(
            "call_long",
            "write",
            {"text": PIECE * FRAGMENTS},
            opaque=CourseOpaque("openai-responses", {"id": "fc_long"}),
        ),
    )


def test_chat_streams_100_000_text_deltas_as_chunks_and_one_text_block() -> None:
    events = chat_events(
        *(
            {"id": "chatcmpl-long", "choices": [{"index": 0, "delta": {"content": PIECE}}]}
            for _ in range(FRAGMENTS)
        ),
        {"id": "chatcmpl-long", "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
        {
            "id": "chatcmpl-long",
            "choices": [],
            "usage": {
                "prompt_tokens": 1,
                "completion_tokens": FRAGMENTS,
                "total_tokens": 1 + FRAGMENTS,
            },
        },
        DONE,
    )

    outcome = replay(ChatMapping("request-1"), events)

    assert len(outcome.chunks) == FRAGMENTS
    assert all(type(chunk) is CourseTextDeltaChunk for chunk in outcome.chunks)
    assert outcome.response is not None
    assert outcome.response.message.content == (CourseTextBlock(PIECE * FRAGMENTS),)


def _text_message_opening(deltas: int, done_text: str) -> list[dict[str, object]]:
    """A Responses message item opened, ``deltas`` times `PIECE`, then its text's ``.done``."""
    where = {"item_id": "msg_long", "output_index": 0, "content_index": 0}
    message = {"id": "msg_long", "type": "message", "role": "assistant", "content": []}
    return [
        {"type": "response.output_item.added", "output_index": 0, "item": message},
        {"type": "response.content_part.added", **where, "part": output_text()},
        *({"type": "response.output_text.delta", **where, "delta": PIECE} for _ in range(deltas)),
        {"type": "response.output_text.done", **where, "text": done_text},
    ]


def test_responses_streams_100_000_text_deltas_as_chunks_and_one_text_block() -> None:
    where = {"item_id": "msg_long", "output_index": 0, "content_index": 0}
    text = output_text(PIECE * FRAGMENTS)
    message = {
        "id": "msg_long",
        "type": "message",
        "role": "assistant",
        "status": "completed",
        "content": [text],
    }
    events = responses_events(
        created(),
        *_text_message_opening(FRAGMENTS, PIECE * FRAGMENTS),
        {"type": "response.content_part.done", **where, "part": text},
        {"type": "response.output_item.done", "output_index": 0, "item": message},
        completed([message]),
    )

    outcome = replay(ResponsesMapping("request-1"), events)

    assert len(outcome.chunks) == FRAGMENTS
    assert outcome.response is not None
    assert outcome.response.message.content == (
        responses_text_block(PIECE * FRAGMENTS, "msg_long"),
    )


def _mangled(text: str, how: str) -> str:
    """``text`` with one character changed, dropped or added, far from either end."""
    middle = len(text) // 2 + 7
    if how == "changed":
        return text[:middle] + ("#" if text[middle] != "#" else "%") + text[middle + 1 :]
    if how == "dropped":
        return text[:middle] + text[middle + 1 :]
    return text + text[-1]


# The .done events are compared with the kept pieces in place (TextPieces.equals),
# not with their join: any difference must still be found, wherever it is.
@pytest.mark.parametrize("how", ["changed", "dropped", "added"])
def test_a_long_text_whose_done_text_differs_from_its_deltas_fails(how: str) -> None:
    events = responses_events(
        created(), *_text_message_opening(2_000, _mangled(PIECE * 2_000, how))
    )

    outcome = replay(ResponsesMapping("request-1"), events)

    assert outcome.error is not None
    assert outcome.error.code == "VENDOR_INVALID_EVENT"
    assert outcome.error.event_index == 2_003
    assert "text is not the deltas joined" in outcome.error.message


@pytest.mark.parametrize("how", ["changed", "dropped", "added"])
def test_long_arguments_whose_done_text_differs_from_the_fragments_fail(how: str) -> None:
    pieces = [*argument_pieces()[:2_000], '"}']
    where = {"item_id": "fc_long", "output_index": 0}
    item = function_call("fc_long", "call_long", "write")
    events = responses_events(
        created(),
        {"type": "response.output_item.added", "output_index": 0, "item": item},
        *(
            {"type": "response.function_call_arguments.delta", **where, "delta": piece}
            for piece in pieces
        ),
        {
            "type": "response.function_call_arguments.done",
            **where,
            "arguments": _mangled("".join(pieces), how),
        },
    )

    outcome = replay(ResponsesMapping("request-1"), events)

    assert outcome.error is not None
    assert outcome.error.code == "VENDOR_INVALID_EVENT"
    assert outcome.error.event_index == 2 + len(pieces)
    assert "is not the concatenation of the argument deltas" in outcome.error.message


# The item's done is compared exactly with the kept .done text: a difference
# anywhere, or another type, must still be found.
@pytest.mark.parametrize("how", ["changed", "dropped", "added", "same", "not a string"])
def test_long_arguments_the_item_done_repeats_differently_fail(how: str) -> None:
    pieces = [*argument_pieces()[:2_000], '"}']
    joined = "".join(pieces)
    repeated: object = {
        "same": joined,
        "not a string": {"text": PIECE * 2_000},
    }.get(how) or _mangled(joined, how)
    events = _whole_call_events(pieces, repeated=repeated)

    outcome = replay(ResponsesMapping("request-1"), events)

    if how == "same":
        assert outcome.error is None
        assert outcome.response is not None
        return
    assert outcome.error is not None
    assert outcome.error.code == "VENDOR_INVALID_EVENT"
    assert outcome.error.event_index == 3 + len(pieces)
    expected = (
        "item.arguments must be a string"
        if how == "not a string"
        else "item arguments are not the call's arguments"
    )
    assert expected in outcome.error.message
