"""A loop over the Messages API with thinking and Tools, and one continuing a paused turn.

The first answer is a body of our own in the vendor's shape: it replays
into blocks, the loop appends the assistant message and the Tool result,
and the second request, sent by another model instance built from nothing
but the transcript (through the course JSON codec, as another process would
read it), carries the thinking back exactly as it came, before the Tool call
of its turn, as the API requires with Tools.
"""

from __future__ import annotations

import json
from typing import Any

from course_http import RecordedResponse, RecordedTransport
from course_protocol import (
    CourseModelRequest,
    CourseModelResponse,
    CourseOpaque,
    CourseReasoningBlock,
    CourseReasoningDeltaChunk,
    CourseStopReason,
    CourseTextBlock,
    CourseTextDeltaChunk,
    CourseToolCall,
    CourseToolCallChunk,
    CourseToolResultMessage,
    CourseToolSpec,
    CourseUserMessage,
    CourseVendorToolBlock,
    parse_request,
    thaw_json,
    to_json,
)
from course_provider_anthropic import WIRE, AnthropicConfig, AnthropicMessagesModel
from course_vendor import ThinkingBudget
from tests.course_cassettes.replays import Replayed, replay
from tests.course_provider_anthropic.bodies import (
    BLOCKS,
    block_start,
    block_stop,
    delta,
    json_delta,
    message_delta,
    message_start,
    message_stop,
    redacted_start,
    server_tool_start,
    signature_delta,
    text_body,
    text_delta,
    text_start,
    thinking_delta,
    thinking_start,
    tool_start,
)
from tests.course_vendor.wire import sse_bytes
from tests.course_vendor.wires import SSE

ADD = CourseToolSpec("add", "Add two integers.", {"type": "object"})
CONFIG = AnthropicConfig(
    "claude-test", 4096, tools=(ADD,), reasoning=ThinkingBudget(2048), tool_choice="auto"
)
SIGNATURE = "EqQBCkgIARABGAIiQL2" + "x" * 40
ASK = CourseUserMessage("u-1", "What is 20 + 22?")

FIRST_ANSWER = [
    message_start("msg_01First", input_tokens=120, cache_read_input_tokens=100),
    thinking_start(0),
    thinking_delta(0, "The user wants 20 + 22. "),
    thinking_delta(0, "I will call add."),
    signature_delta(0, SIGNATURE),
    block_stop(0),
    redacted_start(1, "RW5jcnlwdGVkIHBhcnQ="),
    block_stop(1),
    text_start(2),
    text_delta(2, "Let me add."),
    block_stop(2),
    tool_start(3, "toolu_01Add", "add"),
    json_delta(3, '{"left": 20, '),
    json_delta(3, '"right": 22}'),
    block_stop(3),
    message_delta("tool_use", 64),
    message_stop(),
]
"""A first answer with thinking, redacted thinking, text and a Tool call, as the API streams it."""


def served(*bodies: list[Any]) -> RecordedTransport:
    return RecordedTransport([RecordedResponse(200, SSE, sse_bytes(body)) for body in bodies])


def body_sent(transport: RecordedTransport) -> dict[str, Any]:
    (request,) = transport.requests
    body = thaw_json(request.body)
    assert isinstance(body, dict)
    # What is sent is JSON: compare what the wire carries.
    return dict(json.loads(json.dumps(body)))


def answered(outcome: Replayed) -> CourseModelResponse:
    assert outcome.error is None, outcome.error
    assert outcome.response is not None
    return outcome.response


async def test_thinking_with_tools_goes_back_exactly_from_another_model_instance() -> None:
    first = answered(
        await replay(
            AnthropicMessagesModel(CONFIG, transport=served(FIRST_ANSWER)),
            CourseModelRequest("request-1", [ASK]),
        )
    )
    call = CourseToolCall("toolu_01Add", "add", {"left": 20, "right": 22})
    assert first.message.content == (
        CourseReasoningBlock(
            "The user wants 20 + 22. I will call add.",
            opaque=CourseOpaque(WIRE, {"type": "thinking", "signature": SIGNATURE}),
        ),
        CourseReasoningBlock(
            "",
            opaque=CourseOpaque(
                WIRE, {"type": "redacted_thinking", "data": "RW5jcnlwdGVkIHBhcnQ="}
            ),
        ),
        CourseTextBlock("Let me add."),
        call,
    )
    assert first.stop_reason is CourseStopReason.TOOL_CALL
    assert (first.usage.input_tokens, first.usage.cache_read_tokens) == (220, 100)
    transcript = CourseModelRequest(
        "request-2",
        [ASK, first.message, CourseToolResultMessage("r-1", "toolu_01Add", "add", "42")],
    )
    # Another process holds only the course JSON of the transcript.
    read_back = parse_request(json.loads(json.dumps(to_json(transcript)))).unwrap()
    transport = served(text_body("20 + 22 = 42."))

    second = answered(await replay(AnthropicMessagesModel(CONFIG, transport=transport), read_back))

    assert body_sent(transport)["messages"] == [
        {"role": "user", "content": [{"type": "text", "text": "What is 20 + 22?"}]},
        {
            "role": "assistant",
            "content": [
                {
                    "type": "thinking",
                    "thinking": "The user wants 20 + 22. I will call add.",
                    "signature": SIGNATURE,
                },
                {"type": "redacted_thinking", "data": "RW5jcnlwdGVkIHBhcnQ="},
                {"type": "text", "text": "Let me add."},
                {
                    "type": "tool_use",
                    "id": "toolu_01Add",
                    "name": "add",
                    "input": {"left": 20, "right": 22},
                },
            ],
        },
        {
            "role": "user",
            "content": [{"type": "tool_result", "tool_use_id": "toolu_01Add", "content": "42"}],
        },
    ]
    assert second.message.content == (CourseTextBlock("20 + 22 = 42."),)


async def test_the_first_answer_streams_its_reasoning_in_order_with_its_text_and_call() -> None:
    outcome = await replay(
        AnthropicMessagesModel(CONFIG, transport=served(FIRST_ANSWER)),
        CourseModelRequest("request-1", [ASK]),
    )

    assert [type(chunk) for chunk in outcome.chunks] == [
        CourseReasoningDeltaChunk,
        CourseReasoningDeltaChunk,
        CourseTextDeltaChunk,
        CourseToolCallChunk,
    ]


async def test_a_paused_turn_is_continued_by_sending_its_server_tool_blocks_back_unchanged() -> (
    None
):
    result = BLOCKS["web_search_tool_result"]
    paused = [
        message_start("msg_01Paused"),
        text_start(0),
        text_delta(0, "Searching."),
        block_stop(0),
        server_tool_start(1, "srvtoolu_01K", caller={"type": "direct"}),
        json_delta(1, '{"query": "pelican diet"}'),
        block_stop(1),
        block_start(2, result),
        block_stop(2),
        message_delta("pause_turn", 30),
        message_stop(),
    ]
    config = AnthropicConfig(
        "claude-test",
        1024,
        server_tools=({"type": "web_search_20250305", "name": "web_search"},),
    )
    first = answered(
        await replay(
            AnthropicMessagesModel(config, transport=served(paused)),
            CourseModelRequest("request-1", [ASK]),
        )
    )
    assert first.stop_reason is CourseStopReason.PAUSE_TURN
    assert [type(block) for block in first.message.content] == [
        CourseTextBlock,
        CourseVendorToolBlock,
        CourseVendorToolBlock,
    ]
    transport = served(text_body("They eat fish."))

    await replay(
        AnthropicMessagesModel(config, transport=transport),
        CourseModelRequest("request-2", [ASK, first.message]),
    )

    body = body_sent(transport)
    assert body["tools"] == [{"type": "web_search_20250305", "name": "web_search"}]
    assert body["messages"][1] == {
        "role": "assistant",
        "content": [
            {"type": "text", "text": "Searching."},
            {
                "type": "server_tool_use",
                "id": "srvtoolu_01K",
                "name": "web_search",
                "input": {"query": "pelican diet"},
                "caller": {"type": "direct"},
            },
            result,
        ],
    }


async def test_a_turn_paused_after_compaction_is_continued_with_its_summary_sent_back() -> None:
    # ``pause_after_compaction``: the response holds only the compaction block and stops
    # with ``compaction``; the loop appends it, may add a turn of its own, and calls again.
    compacted = [
        message_start("msg_01Compacted"),
        block_start(0, {"type": "compaction", "content": None}),
        delta(
            0,
            {"type": "compaction_delta", "content": "Asked 20 + 22.", "encrypted_content": "ZW5j"},
        ),
        block_stop(0),
        message_delta("compaction", 12),
        message_stop(),
    ]
    first = answered(
        await replay(
            AnthropicMessagesModel(CONFIG, transport=served(compacted)),
            CourseModelRequest("request-1", [ASK]),
        )
    )
    summary = {"type": "compaction", "content": "Asked 20 + 22.", "encrypted_content": "ZW5j"}
    assert first.stop_reason is CourseStopReason.PAUSE_TURN
    assert first.message.content == (
        CourseVendorToolBlock("compaction", CourseOpaque(WIRE, summary)),
    )
    transport = served(text_body("42."))

    await replay(
        AnthropicMessagesModel(CONFIG, transport=transport),
        CourseModelRequest(
            "request-2", [ASK, first.message, CourseUserMessage("u-2", "Answer in digits.")]
        ),
    )

    assert body_sent(transport)["messages"][1:] == [
        {"role": "assistant", "content": [summary]},
        {"role": "user", "content": [{"type": "text", "text": "Answer in digits."}]},
    ]
