"""Every recorded Messages API file of ../shared passes the grammar and replays to a tested outcome.

Each streamed body is judged by the wire's grammar alone (`judge_body`, the
strict check of a recording: all of them are valid vendor traffic), and
goes through `AnthropicMessagesModel` over a `RecordedTransport`
(the HTTP client, course_http's SSE decoder, the parser, the shared producer
loop), whole and re-chunked (per byte for small bodies, at seeded random
cuts for all), and every cut must give the same outcome. The recordings are
other projects' data: read in place, never copied. This module keeps only
short field values of them (ids, counts, Tool names); the full course JSON
of each response is checked against an independent, lenient reading of the
same file. Skipped when ``../shared`` is absent.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from course_conformance import Scenario, assert_conforms
from course_http import (
    HttpTransport,
    RecordedResponse,
    RecordedTransport,
    SseDecoder,
    SseEvent,
    VendorErrorBody,
    VendorErrorCode,
)
from course_protocol import (
    CourseAssistantMessage,
    CourseMessage,
    CourseModelRequest,
    CourseReasoningBlock,
    CourseReasoningDeltaChunk,
    CourseTextBlock,
    CourseTextDeltaChunk,
    CourseToolCall,
    CourseToolCallChunk,
    CourseToolResultMessage,
    CourseToolSpec,
    CourseUserMessage,
    thaw_json,
    to_json,
)
from course_provider_anthropic import (
    MESSAGES_PLUGIN,
    WIRE,
    AnthropicConfig,
    AnthropicMessagesModel,
    MessagesGrammar,
    MessagesResult,
    MessagesToolUseBlock,
    describe_error,
    messages_request_body,
)
from course_vendor import judge_body
from tests.course_cassettes.replays import replay_every_cut
from tests.course_cli.helpers import CourseRunner
from tests.course_provider_anthropic.bodies import REQUEST_ID, frozen
from tests.course_vendor.wires import REQUEST

RECORDINGS = (
    Path(__file__).resolve().parents[2]
    / ".."
    / "shared"
    / "provider-transcripts"
    / "anthropic-messages"
)
pytestmark = pytest.mark.skipif(
    not RECORDINGS.is_dir(),
    reason=f"the shared recordings are not beside the checkout ({RECORDINGS})",
)

C = VendorErrorCode
# name -> (stop reason, input tokens, output tokens, text chunks, Tool calls as (name, arguments))
# The output limit is a response too: the partial message, a cut Tool call left out.
RESPONSES: dict[str, tuple[str, int, int, int, list[tuple[str, dict[str, Any]]]]] = {
    "text-pings-interleaved.sse": ("stop", 17, 15, 2, []),
    "stop-sequence.sse": ("stop", 16, 28, 4, []),
    "thinking-then-text.sse": ("stop", 46, 133, 2, []),
    "tool-result-followup-text.sse": ("stop", 602, 52, 15, []),
    "tool-use-single-with-text.sse": (
        "toolCall",
        377,
        65,
        2,
        [("get_weather", {"location": "Paris"})],
    ),
    "parallel-tool-use-no-args.sse": (
        "toolCall",
        542,
        62,
        0,
        [("pelican_name_generator", {}), ("pelican_name_generator", {})],
    ),
    "parallel-tool-use-with-text.sse": (
        "toolCall",
        416,
        109,
        4,
        [
            ("secret_retrieval_tool", {"password": "mellon"}),
            ("secret_retrieval_tool", {"password": "radiance"}),
        ],
    ),
    "max-tokens-text.sse": ("length", 15, 50, 7, []),
    "max-tokens-mid-tool-json.sse": ("length", 450, 124, 5, []),
}
ERROR_BODIES = {"error-http-401-authentication.json": ("authentication_error", "invalid x-api-key")}
REQUESTS = sorted(
    f"{stem}.request.json"
    for stem in (
        "error-http-401-authentication",
        "max-tokens-text",
        "parallel-tool-use-no-args",
        "parallel-tool-use-with-text",
        "stop-sequence",
        "text-pings-interleaved",
        "thinking-then-text",
        "tool-result-followup-text",
    )
)


def recorded_events(path: Path) -> list[SseEvent]:
    """The events of a recorded body, framed by course_http's decoder, for the lenient oracle."""
    decoder = SseDecoder(vendor=WIRE)
    return [*decoder.feed_bytes(path.read_bytes()), *decoder.close()]


def replaying(transport: HttpTransport) -> AnthropicMessagesModel:
    """The model a loop would use, over the recorded body (the configuration is not sent)."""
    return AnthropicMessagesModel(AnthropicConfig("claude-recorded", 1024), transport=transport)


def lenient_course_json(events: list[SseEvent]) -> dict[str, Any]:
    """What the response must be, read the simplest way: no checks, just concatenation."""
    payloads = [json.loads(item.data) for item in events]
    start = next(data["message"] for data in payloads if data["type"] == "message_start")
    blocks: dict[int, dict[str, Any]] = {}
    pieces: dict[int, list[str]] = {}
    stopped: set[int] = set()
    stop_reason, usage = "", {}
    for data in payloads:
        if data["type"] == "content_block_start":
            blocks[data["index"]] = dict(data["content_block"])
            pieces[data["index"]] = [blocks[data["index"]].get("thinking", "")]
        elif data["type"] == "content_block_delta":
            payload = data["delta"]
            if payload["type"] == "signature_delta":
                blocks[data["index"]]["signature"] = payload["signature"]
                continue
            pieces[data["index"]].append(
                payload.get("text", payload.get("partial_json", payload.get("thinking", "")))
            )
        elif data["type"] == "content_block_stop":
            stopped.add(data["index"])
        elif data["type"] == "message_delta":
            stop_reason, usage = data["delta"]["stop_reason"], data["usage"]
    content: list[dict[str, Any]] = []
    for index in sorted(blocks):
        joined = "".join(pieces[index])
        if blocks[index]["type"] == "text" and joined:
            content.append({"type": "text", "text": joined})
        elif blocks[index]["type"] == "thinking":
            signature = blocks[index]["signature"]
            opaque = {"wire": WIRE, "data": {"type": "thinking", "signature": signature}}
            content.append({"type": "reasoning", "text": joined, "opaque": opaque})
        elif blocks[index]["type"] == "tool_use" and index in stopped:
            block = blocks[index]
            arguments = json.loads(joined) if joined else {}
            content.append(
                {
                    "type": "toolCall",
                    "id": block["id"],
                    "name": block["name"],
                    "arguments": arguments,
                }
            )
    input_usage = usage if "input_tokens" in usage else start["usage"]
    input_tokens = sum(
        input_usage.get(key) or 0
        for key in ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")
    )
    counts = {"inputTokens": input_tokens, "outputTokens": usage["output_tokens"]}
    for key, name in (
        ("cache_read_input_tokens", "cacheReadTokens"),
        ("cache_creation_input_tokens", "cacheWriteTokens"),
    ):
        if input_usage.get(key) is not None:
            counts[name] = input_usage[key]
    return {
        "id": start["id"],
        "requestId": REQUEST_ID,
        "message": {"role": "assistant", "id": start["id"], "content": content},
        "stopReason": {"tool_use": "toolCall", "max_tokens": "length"}.get(stop_reason, "stop"),
        "usage": counts,
    }


STOP_REASONS = {
    "text-pings-interleaved.sse": "end_turn",
    "stop-sequence.sse": "stop_sequence",
    "thinking-then-text.sse": "end_turn",
    "tool-result-followup-text.sse": "end_turn",
    "tool-use-single-with-text.sse": "tool_use",
    "parallel-tool-use-no-args.sse": "tool_use",
    "parallel-tool-use-with-text.sse": "tool_use",
    "max-tokens-text.sse": "max_tokens",
    "max-tokens-mid-tool-json.sse": "max_tokens",
}
"""Every streamed recording, and the stop reason its grammar's result holds."""


def judged_recording(name: str) -> MessagesResult:
    """The grammar's result of the recorded body ``name``, judged whole."""
    verdict = judge_body(MESSAGES_PLUGIN, (RECORDINGS / name).read_bytes())
    result = verdict.unwrap()
    assert type(result) is MessagesResult
    return result


@pytest.mark.parametrize("name", sorted(STOP_REASONS))
def test_every_recorded_body_passes_the_grammar_and_feeding_its_frames_agrees(name: str) -> None:
    grammar = MessagesGrammar()
    events = recorded_events(RECORDINGS / name)
    for index, item in enumerate(events):
        grammar.feed(item, index)

    result = judged_recording(name)

    assert grammar.end(len(events)) == result
    assert result.id is not None
    assert result.id.startswith("msg_")
    assert result.error is None
    assert result.stop_reason == STOP_REASONS[name]


def test_the_grammar_keeps_the_tool_call_max_tokens_cut_as_an_incomplete_block() -> None:
    result = judged_recording("max-tokens-mid-tool-json.sse")

    cut = result.content[-1]
    assert type(cut) is MessagesToolUseBlock
    assert (cut.kind, cut.name, cut.input, cut.complete) == ("tool_use", "make_file", None, False)
    assert cut.partial_input is not None
    assert cut.partial_input.startswith('{"filename": "taxes.txt", "lines_of_text": [')
    assert result.stop_reason == "max_tokens"
    assert all(block.complete for block in result.content[:-1])


def test_the_grammar_keeps_the_recorded_thinking_and_its_signature() -> None:
    result = judged_recording("thinking-then-text.sse")

    thinking, text = result.content
    assert thinking.kind == "thinking"
    assert thinking.thinking.startswith("The user wants two names")  # type: ignore[union-attr]
    assert thinking.signature.startswith("EuYDCmMIDBgCKkC05")  # type: ignore[union-attr]
    assert text.kind == "text"
    usage = result.usage
    assert usage is not None
    assert (usage.input_tokens, usage.output_tokens, usage.inference_geo) == (
        46,
        133,
        "not_available",
    )
    assert usage.cache_creation == frozen(
        {"ephemeral_5m_input_tokens": 0, "ephemeral_1h_input_tokens": 0}
    )


def test_every_recorded_file_has_a_tested_outcome() -> None:
    tested = {*RESPONSES, *ERROR_BODIES, *REQUESTS}
    assert set(STOP_REASONS) == set(RESPONSES)

    assert sorted(path.name for path in RECORDINGS.iterdir()) == sorted(tested)


@pytest.mark.parametrize("name", sorted(RESPONSES))
async def test_a_recorded_response_replays_to_its_course_json_however_it_is_cut(
    name: str,
) -> None:
    stop_reason, input_tokens, output_tokens, text_chunks, calls = RESPONSES[name]

    outcome = await replay_every_cut(replaying, (RECORDINGS / name).read_bytes())

    assert outcome.error is None, outcome.error
    assert outcome.response is not None
    course = to_json(outcome.response)
    assert course == lenient_course_json(recorded_events(RECORDINGS / name))
    assert course["stopReason"] == stop_reason
    assert (course["usage"]["inputTokens"], course["usage"]["outputTokens"]) == (
        input_tokens,
        output_tokens,
    )
    chunks = outcome.chunks
    tool_chunks = [chunk for chunk in chunks if type(chunk) is CourseToolCallChunk]
    assert sum(type(chunk) is CourseTextDeltaChunk for chunk in chunks) == text_chunks
    reasoning = [
        block for block in outcome.response.message.content if type(block) is CourseReasoningBlock
    ]
    assert "".join(
        chunk.delta for chunk in chunks if type(chunk) is CourseReasoningDeltaChunk
    ) == "".join(block.text for block in reasoning)
    assert [
        (chunk.tool_call.name, thaw_json(chunk.tool_call.arguments)) for chunk in tool_chunks
    ] == calls
    assert all(chunk.tool_call.id.startswith("toolu_") for chunk in tool_chunks)
    assert outcome.response.id.startswith("msg_")


@pytest.mark.parametrize("name", sorted(RESPONSES))
async def test_the_model_conforms_on_a_recorded_response(name: str) -> None:
    body = (RECORDINGS / name).read_bytes()

    def model() -> AnthropicMessagesModel:
        served = RecordedResponse(200, {"content-type": "text/event-stream"}, body)
        return replaying(RecordedTransport([served], chunking="random", seed=5))

    report = await assert_conforms(model, REQUEST)

    assert report.result_for(Scenario.COMPLETE).response is not None


@pytest.mark.parametrize("name", sorted(ERROR_BODIES))
def test_a_recorded_error_body_is_read_into_its_type_and_message(name: str) -> None:
    assert describe_error((RECORDINGS / name).read_bytes()) == VendorErrorBody(
        ERROR_BODIES[name][0], None, ERROR_BODIES[name][1]
    )


def course_request(recorded: dict[str, Any]) -> CourseModelRequest:
    """The course transcript a loop would hold for a recorded request."""
    messages: list[CourseMessage] = []
    names: dict[str, str] = {}
    for position, turn in enumerate(recorded["messages"]):
        content = turn["content"]
        blocks: list[dict[str, Any]] = (
            [{"type": "text", "text": content}] if type(content) is str else content
        )
        if turn["role"] == "assistant":
            parts: list[CourseTextBlock | CourseToolCall] = []
            for block in blocks:
                if block["type"] == "text":
                    parts.append(CourseTextBlock(block["text"]))
                else:
                    names[block["id"]] = block["name"]
                    parts.append(CourseToolCall(block["id"], block["name"], block["input"]))
            messages.append(CourseAssistantMessage(f"a-{position}", tuple(parts)))
            continue
        for offset, block in enumerate(blocks):
            message_id = f"u-{position}-{offset}"
            if block["type"] == "text":
                messages.append(CourseUserMessage(message_id, block["text"]))
            else:
                call_id = block["tool_use_id"]
                result = CourseToolResultMessage(
                    message_id,
                    call_id,
                    names[call_id],
                    block["content"],
                    block.get("is_error", False),
                )
                messages.append(result)
    return CourseModelRequest("request-1", messages)


def course_config(recorded: dict[str, Any]) -> AnthropicConfig:
    system = recorded.get("system")
    if isinstance(system, list):
        system = "".join(block["text"] for block in system)
    tools = tuple(
        CourseToolSpec(tool["name"], tool["description"], tool["input_schema"])
        for tool in recorded.get("tools", [])
    )
    return AnthropicConfig(recorded["model"], recorded["max_tokens"], system, tools)


def normalized(body: dict[str, Any]) -> dict[str, Any]:
    """The parts of a body this adapter sends, in one spelling.

    String content is the shorthand of one text block, a list of system text
    blocks means their text; cache_control, temperature, stop sequences and
    thinking settings are options this adapter does not send.
    """
    keep = {"type", "text", "id", "name", "input", "tool_use_id", "content", "is_error"}
    messages = [
        {
            "role": turn["role"],
            "content": [
                {key: value for key, value in block.items() if key in keep}
                for block in (
                    [{"type": "text", "text": turn["content"]}]
                    if type(turn["content"]) is str
                    else turn["content"]
                )
            ],
        }
        for turn in body["messages"]
    ]
    system = body.get("system")
    if isinstance(system, list):
        system = "".join(block["text"] for block in system)
    tools = [
        {key: tool[key] for key in ("name", "description", "input_schema")}
        for tool in body.get("tools", [])
    ]
    return {
        "model": body["model"],
        "max_tokens": body["max_tokens"],
        "system": system,
        "messages": messages,
        "tools": tools,
        "stream": body["stream"],
    }


@pytest.mark.parametrize("name", REQUESTS)
def test_a_recorded_request_is_what_this_adapter_sends_for_the_same_transcript(name: str) -> None:
    recorded = json.loads((RECORDINGS / name).read_text(encoding="utf-8"))

    body = messages_request_body(course_request(recorded), course_config(recorded))

    assert normalized(body) == normalized(recorded)


async def test_the_recorded_thinking_replays_into_a_reasoning_block_that_goes_back_signed() -> None:
    outcome = await replay_every_cut(
        replaying, (RECORDINGS / "thinking-then-text.sse").read_bytes()
    )

    assert outcome.response is not None
    reasoning, answer = outcome.response.message.content
    assert type(reasoning) is CourseReasoningBlock
    assert reasoning.text.startswith("The user wants two names for a pet pelican")
    assert reasoning.opaque is not None
    assert reasoning.opaque.wire == "anthropic-messages"
    assert reasoning.opaque.data["type"] == "thinking"
    assert str(reasoning.opaque.data["signature"]).startswith("EuYDCmMIDBgCKkC05")
    assert type(answer) is CourseTextBlock
    assert outcome.response.usage.cache_read_tokens == 0
    assert outcome.response.usage.cache_write_tokens == 0
    follow_up = CourseModelRequest(
        "request-2",
        [
            CourseUserMessage("u-1", "Two names for a pet pelican, briefly."),
            outcome.response.message,
            CourseUserMessage("u-2", "One more."),
        ],
    )
    body = messages_request_body(follow_up, AnthropicConfig("claude-recorded", 1024))
    assert body["messages"][1]["content"][0] == {
        "type": "thinking",
        "thinking": reasoning.text,
        "signature": reasoning.opaque.data["signature"],
    }


def test_course_replay_prints_the_recorded_thinking_in_the_course_vocabulary(
    capsys: pytest.CaptureFixture[str],
) -> None:
    runner = CourseRunner(capsys)

    run = runner("replay", "--wire", WIRE, RECORDINGS / "thinking-then-text.sse")

    assert (run.status, run.err) == (0, "")
    values = [json.loads(line) for line in run.out.splitlines()]
    kinds = [value.get("type") for value in values[:-1]]
    assert kinds == ["reasoningDelta"] * 6 + ["textDelta"] * 2
    reasoning = values[-1]["message"]["content"][0]
    assert reasoning["type"] == "reasoning"
    assert reasoning["text"] == "".join(value["delta"] for value in values[:6])
    assert reasoning["opaque"]["wire"] == WIRE
    assert reasoning["opaque"]["data"]["signature"].startswith("EuYDCmMIDBgCKkC05")
    assert values[-1]["usage"] == {
        "inputTokens": 46,
        "outputTokens": 133,
        "cacheReadTokens": 0,
        "cacheWriteTokens": 0,
    }
