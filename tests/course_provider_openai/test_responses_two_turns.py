"""A two-turn loop over the Responses wire: reasoning and vendor tools replayed into blocks, sent
back exactly in the second request, and continued by another model instance from the transcript
alone."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from course_cli import main
from course_http import RecordedRequest, RecordedResponse, RecordedTransport
from course_protocol import (
    CourseModelRequest,
    CourseModelResponse,
    CourseModelUsage,
    CourseOpaque,
    CourseReasoningBlock,
    CourseReasoningDeltaChunk,
    CourseStopReason,
    CourseToolCall,
    CourseToolResultMessage,
    CourseToolSpec,
    CourseUserMessage,
    CourseVendorToolBlock,
    parse_response,
    to_json,
)
from course_provider_openai import OpenAIConfig, OpenAIResponsesModel
from course_vendor import ReasoningEffort
from tests.course_cassettes.replays import Replayed, replay
from tests.course_provider_openai.bodies import (
    call_events,
    call_item,
    completed,
    created,
    item_added,
    item_done,
    message_item,
    part_added,
    part_done,
    responses_events,
    responses_text_block,
    responses_text_stream,
    text_delta,
    text_done,
    text_item,
    text_part,
)
from tests.course_vendor.wire import sse_bytes

WIRE = "openai-responses"
SCHEMA = {"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}}
CONFIG = OpenAIConfig(
    "gpt-own",
    tools=(CourseToolSpec("add", "Add two integers.", SCHEMA, strict=True),),
    hosted_tools=({"type": "web_search"},),
    reasoning=ReasoningEffort.LOW,
)
REASONING_ADDED: dict[str, Any] = {
    "id": "rs_own_1",
    "type": "reasoning",
    "summary": [],
    "encrypted_content": None,
}
SUMMARY_1 = {"type": "summary_text", "text": "Look it up."}
SUMMARY_2 = {"type": "summary_text", "text": "Then add."}
REASONING_DONE = {
    "id": "rs_own_1",
    "type": "reasoning",
    "summary": [SUMMARY_1, SUMMARY_2],
    "encrypted_content": "gAAAA-own-secret",
}
SEARCH_ADDED = {"id": "ws_own_1", "type": "web_search_call", "status": "in_progress"}
SEARCH_DONE = {
    "id": "ws_own_1",
    "type": "web_search_call",
    "status": "completed",
    "action": {"type": "search", "query": "twenty plus twenty-two"},
}


def summary_events(position: int, text: str) -> list[dict[str, Any]]:
    where = {"item_id": "rs_own_1", "output_index": 0, "summary_index": position}
    whole = {"type": "summary_text", "text": text}
    return [
        {"type": "response.reasoning_summary_part.added", **where, "part": {**whole, "text": ""}},
        {"type": "response.reasoning_summary_text.delta", **where, "delta": text[:4]},
        {"type": "response.reasoning_summary_text.delta", **where, "delta": text[4:]},
        {"type": "response.reasoning_summary_text.done", **where, "text": text},
        {"type": "response.reasoning_summary_part.done", **where, "part": whole},
    ]


def first_answer() -> bytes:
    """Reasoning in two summary parts, a web search the vendor ran, then a function call."""
    call = call_item("fc_own_1", "call_own_1", "add", '{"a":20,"b":22}')
    answer = completed([REASONING_DONE, SEARCH_DONE, call], input_tokens=40, output_tokens=30)
    usage = answer["response"]["usage"]
    usage["input_tokens_details"] = {"cached_tokens": 32}
    usage["output_tokens_details"] = {"reasoning_tokens": 12}
    return sse_bytes(
        responses_events(
            created(),
            item_added(0, REASONING_ADDED),
            *summary_events(0, "Look it up."),
            *summary_events(1, "Then add."),
            item_done(0, REASONING_DONE),
            item_added(1, SEARCH_ADDED),
            {
                "type": "response.web_search_call.in_progress",
                "item_id": "ws_own_1",
                "output_index": 1,
            },
            {
                "type": "response.web_search_call.searching",
                "item_id": "ws_own_1",
                "output_index": 1,
            },
            {
                "type": "response.web_search_call.completed",
                "item_id": "ws_own_1",
                "output_index": 1,
            },
            item_done(1, SEARCH_DONE),
            *call_events(2, "fc_own_1", "call_own_1", "add", ('{"a":20,', '"b":22}')),
            answer,
        )
    )


def served(body: bytes) -> RecordedResponse:
    return RecordedResponse(200, {"content-type": "text/event-stream"}, body)


def transport() -> RecordedTransport:
    return RecordedTransport(
        [served(first_answer()), served(sse_bytes(responses_text_stream("42.")))]
    )


USER = CourseUserMessage("u1", "Search, then add 20 and 22.")
EXPECTED_BLOCKS = (
    CourseReasoningBlock(
        "Look it up.\n\nThen add.",
        opaque=CourseOpaque(
            WIRE,
            {
                "type": "reasoning",
                "id": "rs_own_1",
                "summary": [SUMMARY_1, SUMMARY_2],
                "encrypted_content": "gAAAA-own-secret",
            },
        ),
    ),
    CourseVendorToolBlock("web_search_call", CourseOpaque(WIRE, SEARCH_DONE)),
    CourseToolCall(
        "call_own_1", "add", {"a": 20, "b": 22}, opaque=CourseOpaque(WIRE, {"id": "fc_own_1"})
    ),
)
SECOND_INPUT = [
    {"type": "message", "role": "user", "content": "Search, then add 20 and 22."},
    {
        "type": "reasoning",
        "id": "rs_own_1",
        "summary": [
            {"type": "summary_text", "text": "Look it up."},
            {"type": "summary_text", "text": "Then add."},
        ],
        "encrypted_content": "gAAAA-own-secret",
    },
    {
        "id": "ws_own_1",
        "type": "web_search_call",
        "status": "completed",
        "action": {"type": "search", "query": "twenty plus twenty-two"},
    },
    {
        "type": "function_call",
        "id": "fc_own_1",
        "call_id": "call_own_1",
        "name": "add",
        "arguments": '{"a":20,"b":22}',
    },
    {"type": "function_call_output", "call_id": "call_own_1", "output": "42"},
]


def as_json(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


async def first_turn(model: OpenAIResponsesModel) -> tuple[Replayed, CourseModelResponse]:
    played = await replay(model, CourseModelRequest("request-1", (USER,)))
    assert played.error is None, played.error
    assert played.response is not None
    return played, played.response


async def continued_in_a_new_model(
    response: CourseModelResponse,
) -> tuple[Replayed, RecordedRequest]:
    """The second turn, from the first answer's transcript alone, sent by a new model.

    The transcript crosses a process boundary as course JSON, nothing else:
    the user's question, ``response``'s message parsed back, the Tool's result.
    """
    message = parse_response(json.loads(json.dumps(to_json(response)))).unwrap().message
    transcript = (USER, message, CourseToolResultMessage("r1", "call_own_1", "add", "42"))
    fresh = RecordedTransport([served(sse_bytes(responses_text_stream("42.")))])
    other = OpenAIResponsesModel(CONFIG, transport=fresh)
    played = await replay(other, CourseModelRequest("request-2", transcript))
    await other.aclose()
    (sent,) = fresh.requests
    return played, sent


async def test_the_first_answer_replays_into_reasoning_vendor_tool_and_call_blocks() -> None:
    model = OpenAIResponsesModel(CONFIG, transport=transport())

    played, response = await first_turn(model)

    assert response.message.content == EXPECTED_BLOCKS
    assert response.stop_reason is CourseStopReason.TOOL_CALL
    assert response.usage == CourseModelUsage(40, 30, cache_read_tokens=32, reasoning_tokens=12)
    reasoning = [chunk.delta for chunk in played.chunks if type(chunk) is CourseReasoningDeltaChunk]
    assert reasoning == ["Look", " it up.", "\n\n", "Then", " add."]
    assert parse_response(to_json(response)).unwrap() == response, "the codec carries it all"
    await model.aclose()


async def test_the_second_request_sends_the_reasoning_and_the_search_back_exactly() -> None:
    live = transport()
    model = OpenAIResponsesModel(CONFIG, transport=live)
    _, response = await first_turn(model)
    transcript = (USER, response.message, CourseToolResultMessage("r1", "call_own_1", "add", "42"))

    second = await replay(model, CourseModelRequest("request-2", transcript))

    assert second.response is not None
    assert second.response.message.content == (responses_text_block("42."),)
    first_body, second_body = (request.body for request in live.requests)
    assert first_body["include"] == second_body["include"] == ("reasoning.encrypted_content",)
    assert as_json(second_body["input"]) == as_json(SECOND_INPUT)
    await model.aclose()


async def test_a_new_model_instance_continues_from_the_transcript_alone() -> None:
    first = OpenAIResponsesModel(CONFIG, transport=transport())
    _, response = await first_turn(first)
    await first.aclose()
    played, sent = await continued_in_a_new_model(response)

    assert played.response is not None
    assert as_json(sent.body["input"]) == as_json(SECOND_INPUT)


def test_course_replay_prints_the_reasoning_and_the_vendor_tool_in_the_course_vocabulary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    body = tmp_path / "first.sse"
    body.write_bytes(first_answer())

    status = main(["replay", "--wire", WIRE, str(body)])

    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert status == 0
    assert [line["delta"] for line in lines if line.get("type") == "reasoningDelta"] == [
        "Look",
        " it up.",
        "\n\n",
        "Then",
        " add.",
    ]
    content = lines[-1]["message"]["content"]
    assert [block["type"] for block in content] == ["reasoning", "vendorTool", "toolCall"]
    assert content[1]["opaque"] == {"wire": WIRE, "data": SEARCH_DONE}
    assert lines[-1]["usage"] == {
        "inputTokens": 40,
        "outputTokens": 30,
        "cacheReadTokens": 32,
        "reasoningTokens": 12,
    }


async def test_a_messages_phase_goes_back_with_it_from_the_transcript_alone() -> None:
    # The API asks that phase be sent back on every assistant message of the models that
    # set it ("dropping it can degrade performance").
    where = text_part(0, "msg_own_1")
    said = {**text_item("Adding.", item_id="msg_own_1"), "phase": "commentary"}
    call = call_item("fc_own_1", "call_own_1", "add", '{"a":20,"b":22}')
    first_body = responses_events(
        created(),
        item_added(0, message_item("msg_own_1", phase="commentary")),
        part_added(**where),
        text_delta("Adding.", **where),
        text_done("Adding.", **where),
        part_done("Adding.", **where),
        item_done(0, said),
        *call_events(1, "fc_own_1", "call_own_1", "add", ('{"a":20,"b":22}',)),
        completed([said, call]),
    )
    first = OpenAIResponsesModel(
        CONFIG, transport=RecordedTransport([served(sse_bytes(first_body))])
    )
    _, response = await first_turn(first)
    await first.aclose()
    _, sent = await continued_in_a_new_model(response)

    sent_input = sent.body["input"]
    assert type(sent_input) is tuple
    assert as_json(sent_input[1:3]) == as_json(
        [
            {"type": "message", "role": "assistant", "content": "Adding.", "phase": "commentary"},
            {
                "type": "function_call",
                "id": "fc_own_1",
                "call_id": "call_own_1",
                "name": "add",
                "arguments": '{"a":20,"b":22}',
            },
        ]
    )
