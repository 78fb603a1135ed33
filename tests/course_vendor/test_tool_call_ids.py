"""One Tool-call id for one call: every vendor parser refuses a second call with it, in the stream.

Two calls of one answer with one id make a transcript whose next request
fails ``DUPLICATE_TOOL_CALL_ID``: a Tool result could not say which call it
answers. Each parser refuses the repeat as ``VENDOR_INVALID_EVENT`` at the
event that makes it, through the one ``course_vendor.ToolCallIds``. Ids are
compared exactly, as the transcript check compares them: ids that differ
only by whitespace are two ids, and both calls come through.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from course_http import SseEvent, VendorError, VendorErrorCode
from course_protocol import (
    CourseModelResponse,
    CourseToolCall,
    CourseToolCallChunk,
    CourseToolResultMessage,
    CourseUserMessage,
    validate_transcript,
)
from course_protocol.untrusted import shown
from course_provider_anthropic import WIRE as ANTHROPIC_WIRE
from course_provider_anthropic import MessagesMapping
from course_provider_openai import (
    CHAT_WIRE,
    RESPONSES_WIRE,
    ChatMapping,
    ResponsesMapping,
)
from course_stream import AbortController
from tests.course_provider_anthropic import bodies as anthropic
from tests.course_provider_openai import bodies as openai
from tests.course_vendor.wires import REQUEST, WIRES, Wire, read_into, sse_bytes

Parser = MessagesMapping | ChatMapping | ResponsesMapping
TwoCalls = Callable[[str, str], tuple[list[SseEvent], int]]
"""The events of an answer that calls ``add`` under a first and a second id, and the
index of the event that gives the second call its id."""


def anthropic_two_calls(first: str, second: str) -> tuple[list[SseEvent], int]:
    return [
        anthropic.message_start(),
        anthropic.tool_start(0, first, "add"),
        anthropic.json_delta(0, "{}"),
        anthropic.block_stop(0),
        anthropic.tool_start(1, second, "add"),
        anthropic.json_delta(1, "{}"),
        anthropic.block_stop(1),
        anthropic.message_delta("tool_use"),
        anthropic.message_stop(),
    ], 4


def chat_two_calls(first: str, second: str) -> tuple[list[SseEvent], int]:
    return openai.chat_events(
        openai.chunk({"role": "assistant", "content": None}),
        openai.tool_start(0, first, "add"),
        openai.tool_arguments(0, "{}"),
        openai.tool_start(1, second, "add"),
        openai.tool_arguments(1, "{}"),
        openai.finish("tool_calls"),
        openai.usage(),
        openai.DONE,
    ), 3


def _responses_call(position: int, item_id: str, call_id: str) -> list[dict[str, object]]:
    where = {"item_id": item_id, "output_index": position}
    done = openai.function_call(item_id, call_id, "add", "{}") | {"status": "completed"}
    return [
        {
            "type": "response.output_item.added",
            "output_index": position,
            "item": openai.function_call(item_id, call_id, "add"),
        },
        {"type": "response.function_call_arguments.delta", **where, "delta": "{}"},
        {"type": "response.function_call_arguments.done", **where, "arguments": "{}"},
        {"type": "response.output_item.done", "output_index": position, "item": done},
    ]


def responses_two_calls(first: str, second: str) -> tuple[list[SseEvent], int]:
    output = [
        openai.function_call("fc_1", first, "add", "{}"),
        openai.function_call("fc_2", second, "add", "{}"),
    ]
    return openai.responses_events(
        openai.created(),
        *_responses_call(0, "fc_1", first),
        *_responses_call(1, "fc_2", second),
        openai.completed(output),
    ), 5


CASES: dict[str, tuple[Callable[[str], Parser], TwoCalls]] = {
    ANTHROPIC_WIRE: (MessagesMapping, anthropic_two_calls),
    CHAT_WIRE: (ChatMapping, chat_two_calls),
    RESPONSES_WIRE: (ResponsesMapping, responses_two_calls),
}
"""The wires whose vendor gives each call its id (a wire that makes its ids up has no case)."""
GIVEN_IDS = [wire for wire in WIRES if wire.name in CASES]
every_parser = pytest.mark.parametrize(
    ("vendor", "make", "two_calls"),
    [(name, *case) for name, case in CASES.items()],
    ids=list(CASES),
)


def play(make: Callable[[str], Parser], events: list[SseEvent]) -> CourseModelResponse:
    parser = make(REQUEST.id)
    for index, event in enumerate(events):
        parser.item(event, index, lambda chunk: None)
    return parser.end(len(events))


@every_parser
@pytest.mark.parametrize(
    "call_id", ["call_1", "call 1", "\u00e9" * 100], ids=["plain", "inner-space", "long"]
)
def test_a_second_call_with_the_id_of_the_first_fails_at_the_event_that_repeats_it(
    vendor: str, make: Callable[[str], Parser], two_calls: TwoCalls, call_id: str
) -> None:
    events, repeat = two_calls(call_id, call_id)

    with pytest.raises(VendorError) as raised:
        play(make, events)

    error = raised.value
    assert (error.code, error.vendor, error.event_index) == (
        VendorErrorCode.VENDOR_INVALID_EVENT,
        vendor,
        repeat,
    )
    assert error.message.startswith(f"event {repeat}: ")
    assert repr(shown(call_id)) in error.message
    assert "earlier Tool call" in error.message


@every_parser
@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("call_1", "call_1 "),
        ("call_1", " call_1"),
        ("call_1", "call_1\u00a0"),
        ("call_1", "call_1\n"),
        ("call_1", "CALL_1"),
        ("call_1", "call_2"),
    ],
    ids=["trailing-space", "leading-space", "trailing-nbsp", "trailing-newline", "case", "other"],
)
def test_ids_that_differ_in_any_character_are_two_calls_the_next_request_can_answer(
    vendor: str, make: Callable[[str], Parser], two_calls: TwoCalls, first: str, second: str
) -> None:
    events, _ = two_calls(first, second)

    response = play(make, events)

    # What a wire keeps with a call for itself (its opaque) is not the call's identity.
    calls = [block for block in response.message.content if type(block) is CourseToolCall]
    assert [(call.id, call.name) for call in calls] == [(first, "add"), (second, "add")]
    assert [len(call.arguments) for call in calls] == [0, 0]
    assert len(response.message.content) == 2
    transcript = (
        CourseUserMessage("u-1", "Add twice."),
        response.message,
        CourseToolResultMessage("r-1", first, "add", "0"),
        CourseToolResultMessage("r-2", second, "add", "0"),
    )
    assert validate_transcript(transcript) == ()


def test_the_same_id_in_two_fragments_of_one_chat_event_fails_at_that_event() -> None:
    fragments = [
        {"index": 0, "id": "call_1", "type": "function", "function": {"name": "add"}},
        {"index": 1, "id": "call_1", "type": "function", "function": {"name": "add"}},
    ]
    events = openai.chat_events(openai.text("Adding."), openai.chunk({"tool_calls": fragments}))

    with pytest.raises(VendorError) as raised:
        play(ChatMapping, events)

    assert raised.value.code is VendorErrorCode.VENDOR_INVALID_EVENT
    assert raised.value.event_index == 1
    assert "choices[0].delta.tool_calls[1].id" in raised.value.message


def test_a_responses_call_id_repeated_under_another_item_id_names_the_call_id() -> None:
    events, repeat = responses_two_calls("call_1", "call_1")

    with pytest.raises(VendorError) as raised:
        play(ResponsesMapping, events)

    assert raised.value.event_index == repeat
    assert "item.call_id 'call_1'" in raised.value.message


@pytest.mark.parametrize("wire", GIVEN_IDS, ids=[wire.name for wire in GIVEN_IDS])
async def test_the_model_call_fails_in_the_stream_before_any_duplicate_call_is_delivered(
    wire: Wire,
) -> None:
    events, repeat = CASES[wire.name][1]("call_1", "call_1")
    async with wire.model(transport=wire.recorded(sse_bytes(events))) as model:
        stream = model.stream(REQUEST, AbortController().signal)
        chunks: list[object] = []
        with pytest.raises(VendorError) as raised:
            await asyncio.wait_for(read_into(stream, chunks), 5)  # type: ignore[arg-type]

    assert raised.value.code is VendorErrorCode.VENDOR_INVALID_EVENT
    assert raised.value.event_index == repeat
    delivered = [chunk.tool_call.id for chunk in chunks if isinstance(chunk, CourseToolCallChunk)]
    assert delivered.count("call_1") <= 1
    with pytest.raises(VendorError) as settled:
        await stream.result
    assert settled.value is raised.value
