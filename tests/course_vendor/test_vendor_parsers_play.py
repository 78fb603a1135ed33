"""Each vendor parser is a `SourcePlay` itself: `item` pushes what `feed` returns, in order.

The model plays the parser through ``course_stream.forward_source`` with no
wrapper in between, so `item` must push exactly the chunks `feed` gives (all
of them, for a Chat finish that completes several Tool calls), fail the same
way, and `source_failed` must hand the transport's error back untouched.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from course_http import SseEvent, VendorError, VendorErrorCode
from course_protocol import CourseModelChunk, CourseTextDeltaChunk, CourseToolCallChunk
from course_provider_openai import ChatMapping
from course_vendor import VendorPlay
from tests.course_provider_openai import bodies as openai
from tests.course_vendor.wire import WirePlay
from tests.course_vendor.wires import WIRES, Wire

every_parser = pytest.mark.parametrize(
    ("wire", "make"),
    [(wire, wire.parser) for wire in WIRES],
    ids=[wire.name for wire in WIRES],
)


def flattened(produced: object) -> list[CourseModelChunk]:
    if produced is None:
        return []
    if isinstance(produced, tuple):
        return list(produced)
    return [produced]  # type: ignore[list-item]


def fed(make: Callable[[str], WirePlay], events: list[SseEvent]) -> list[CourseModelChunk]:
    parser = make("request-1")
    chunks: list[CourseModelChunk] = []
    for index, event in enumerate(events):
        chunks.extend(flattened(parser.feed(event, index)))
    parser.end(len(events))
    return chunks


def played(make: Callable[[str], WirePlay], events: list[SseEvent]) -> list[CourseModelChunk]:
    play: VendorPlay = make("request-1")
    chunks: list[CourseModelChunk] = []
    for index, event in enumerate(events):
        play.item(event, index, chunks.append)
    play.end(len(events))
    return chunks


@every_parser
@pytest.mark.parametrize("answer", ["text", "tool"])
def test_item_pushes_exactly_what_feed_returns(
    wire: Wire, make: Callable[[str], WirePlay], answer: str
) -> None:
    events = wire.text_events("a", "b") if answer == "text" else wire.tool_events()

    chunks = played(make, events)

    assert chunks == fed(make, events)
    assert chunks


def test_a_chat_finish_that_completes_two_calls_pushes_the_text_then_both_calls() -> None:
    events = openai.chat_events(
        openai.tool_start(0, "call_a", "add"),
        openai.tool_start(1, "call_b", "add"),
        openai.chunk({"content": "last words"}, finish_reason="tool_calls"),
        openai.usage(),
        openai.DONE,
    )

    chunks = played(ChatMapping, events)

    assert [type(chunk) for chunk in chunks] == [
        CourseTextDeltaChunk,
        CourseToolCallChunk,
        CourseToolCallChunk,
    ]
    assert [chunk.tool_call.id for chunk in chunks if type(chunk) is CourseToolCallChunk] == [
        "call_a",
        "call_b",
    ]


@every_parser
def test_item_fails_like_feed_and_pushes_nothing_for_the_bad_event(
    wire: Wire, make: Callable[[str], WirePlay]
) -> None:
    events = [*wire.text_events("a")[:-1], SseEvent("message", "{not json")]
    parser = make("request-1")
    chunks: list[CourseModelChunk] = []
    for index, event in enumerate(events[:-1]):
        parser.item(event, index, chunks.append)

    with pytest.raises(VendorError) as raised:
        parser.item(events[-1], len(events) - 1, chunks.append)

    assert raised.value.code is VendorErrorCode.VENDOR_INVALID_EVENT
    assert raised.value.event_index == len(events) - 1
    assert chunks == [CourseTextDeltaChunk("request-1", "a")]


@every_parser
def test_source_failed_hands_the_transports_error_back_untouched(
    wire: Wire, make: Callable[[str], WirePlay]
) -> None:
    error = VendorError(VendorErrorCode.HTTP_STREAM_INTERRUPTED, "cut", vendor=wire.name)
    other = RuntimeError("the transport is closed")
    parser = make("request-1")

    assert parser.source_failed(error, 3) is error
    assert parser.source_failed(other, 0) is other
