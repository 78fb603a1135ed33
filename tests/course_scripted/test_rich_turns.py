"""ScriptedModel scripts the rich values: reasoning, new stop reasons, usage parts, images."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from course_protocol import (
    CourseAssistantMessage,
    CourseImageBlock,
    CourseModelChunk,
    CourseModelRequest,
    CourseModelResponse,
    CourseModelUsage,
    CourseOpaque,
    CourseReasoningBlock,
    CourseReasoningDeltaChunk,
    CourseStopReason,
    CourseTextBlock,
    CourseTextDeltaChunk,
    CourseToolCall,
    CourseToolCallChunk,
    CourseToolResultMessage,
    CourseUserMessage,
    CourseVendorToolBlock,
)
from course_scripted import (
    ScriptedModel,
    ScriptedModelError,
    ScriptedModelErrorCode,
    reply_chunks,
    reply_text,
    reply_tool_call,
)
from course_stream import AbortController, AbortSignal
from tests.requests import request
from tests.streams import settle

USAGE = CourseModelUsage(
    input_tokens=120, output_tokens=40, cache_read_tokens=100, reasoning_tokens=25
)
SIGNATURE = CourseOpaque("anthropic-messages", {"signature": "EqQBCkYIBxgC"})
THINKING = CourseReasoningBlock("The user wants a sum: call add.", opaque=SIGNATURE)
REDACTED = CourseReasoningBlock("", opaque=CourseOpaque("anthropic-messages", {"data": "EmwK"}))


async def play(model: ScriptedModel, call: CourseModelRequest) -> Any:
    return await settle(model.stream(call, AbortController().signal))


async def test_a_tool_call_turn_thinks_first_then_calls() -> None:
    model = ScriptedModel(
        [
            reply_tool_call(
                "call-add-001",
                "add",
                {"left": 20, "right": 22},
                response_id="response-1",
                message_id="message-1",
                usage=USAGE,
                reasoning=THINKING,
            )
        ]
    )

    played = await play(model, request("request-1"))

    call = CourseToolCall("call-add-001", "add", {"left": 20, "right": 22})
    assert played.events == [
        CourseReasoningDeltaChunk("request-1", "The user wants a sum: call add."),
        CourseToolCallChunk("request-1", call),
    ]
    assert played.response.message == CourseAssistantMessage("message-1", (THINKING, call))
    assert played.response.message.content[0] is THINKING
    assert played.response.stop_reason is CourseStopReason.TOOL_CALL
    assert played.response.usage is USAGE


async def test_a_redacted_reasoning_block_streams_nothing_but_stays_in_the_message() -> None:
    model = ScriptedModel(
        [reply_text("42.", response_id="r", message_id="m", usage=USAGE, reasoning=REDACTED)]
    )

    played = await play(model, request("request-1"))

    assert played.events == [CourseTextDeltaChunk("request-1", "42.")]
    assert played.response.message.content == (REDACTED, CourseTextBlock("42."))


@pytest.mark.parametrize(
    "stop_reason",
    [CourseStopReason.LENGTH, CourseStopReason.REFUSAL, CourseStopReason.PAUSE_TURN],
)
async def test_a_text_turn_may_end_with_any_stop_reason_its_message_allows(
    stop_reason: CourseStopReason,
) -> None:
    model = ScriptedModel(
        [
            reply_text(
                "Partial", response_id="r", message_id="m", usage=USAGE, stop_reason=stop_reason
            )
        ]
    )

    played = await play(model, request("request-1"))

    assert played.response.stop_reason is stop_reason
    assert played.events == [CourseTextDeltaChunk("request-1", "Partial")]


def test_a_stop_reason_the_message_contradicts_is_refused_when_scripted() -> None:
    with pytest.raises(ValueError, match=r"^stop_reason: stop reason toolCall requires"):
        reply_text(
            "x",
            response_id="r",
            message_id="m",
            usage=USAGE,
            stop_reason=CourseStopReason.TOOL_CALL,
        )


@pytest.mark.parametrize("reasoning", ["thinking", CourseTextBlock("x"), {"text": "x"}])
def test_reasoning_that_is_not_a_reasoning_block_is_refused_when_scripted(reasoning: Any) -> None:
    with pytest.raises(TypeError, match=r"^reasoning: expected a CourseReasoningBlock or None"):
        reply_text("x", response_id="r", message_id="m", usage=USAGE, reasoning=reasoning)
    with pytest.raises(TypeError, match=r"^reasoning: expected a CourseReasoningBlock or None"):
        reply_tool_call(
            "c", "n", {}, response_id="r", message_id="m", usage=USAGE, reasoning=reasoning
        )


def rich_response(request_id: str, stop_reason: CourseStopReason) -> CourseModelResponse:
    return CourseModelResponse(
        "response-1",
        request_id,
        CourseAssistantMessage(
            "message-1",
            (
                CourseReasoningBlock("Search first."),
                CourseVendorToolBlock("server_tool_use", SIGNATURE),
                CourseTextBlock("Found it.", citations=(SIGNATURE,)),
                CourseToolCall("call-1", "add", {}, opaque=SIGNATURE),
            ),
        ),
        stop_reason,
        USAGE,
    )


async def test_reply_chunks_plays_reasoning_deltas_and_a_rich_response_as_given() -> None:
    chunks: list[CourseModelChunk] = [
        CourseReasoningDeltaChunk("request-1", "Search "),
        CourseReasoningDeltaChunk("request-1", "first."),
        CourseTextDeltaChunk("request-1", "Found it."),
    ]
    response = rich_response("request-1", CourseStopReason.PAUSE_TURN)
    model = ScriptedModel([reply_chunks(chunks, response)])

    played = await play(model, request("request-1"))

    assert played.events == chunks
    assert played.response is response


async def test_a_reasoning_delta_for_another_request_is_a_mismatch() -> None:
    response = rich_response("request-1", CourseStopReason.TOOL_CALL)
    model = ScriptedModel(
        [reply_chunks([CourseReasoningDeltaChunk("request-other", "x")], response)]
    )

    played = await play(model, request("request-1"))

    error = played.failure
    assert isinstance(error, ScriptedModelError)
    assert error.code is ScriptedModelErrorCode.SCRIPT_REQUEST_MISMATCH
    assert played.events == []


async def test_a_generator_factory_may_yield_reasoning_deltas() -> None:
    async def turn(
        call: CourseModelRequest, signal: AbortSignal
    ) -> AsyncIterator[CourseModelChunk | CourseModelResponse]:
        yield CourseReasoningDeltaChunk(call.id, "Search first.")
        yield CourseReasoningDeltaChunk("request-other", "x")

    model = ScriptedModel([turn])

    played = await play(model, request("request-1"))

    assert played.events == [CourseReasoningDeltaChunk("request-1", "Search first.")]
    error = played.failure
    assert isinstance(error, ScriptedModelError)
    assert error.code is ScriptedModelErrorCode.SCRIPT_REQUEST_MISMATCH
    assert "item 1" in error.message


async def test_a_refusal_that_holds_a_tool_call_breaks_the_terminal_rule() -> None:
    response = rich_response("request-1", CourseStopReason.REFUSAL)
    model = ScriptedModel([reply_chunks([], response)])

    played = await play(model, request("request-1"))

    error = played.failure
    assert isinstance(error, ScriptedModelError)
    assert error.code is ScriptedModelErrorCode.SCRIPT_INVALID_RESPONSE
    assert error.message.endswith("stop reason refusal forbids Tool-call blocks, found 1")


async def test_a_request_holding_an_image_is_captured_as_the_immutable_value_it_is() -> None:
    pixels = bytearray(b"\x89PNG\r\n\x1a\n")
    image = CourseImageBlock("image/png", data=pixels)
    result = CourseToolResultMessage("r-1", "call-1", "look", (image,))
    call = CourseModelRequest(
        "request-1",
        (
            CourseUserMessage("u-1", [CourseTextBlock("What is this?"), image]),
            CourseAssistantMessage("a-1", (CourseToolCall("call-1", "look", {}),)),
            result,
        ),
    )
    model = ScriptedModel(
        [reply_text("A PNG.", response_id="r", message_id="m", usage=USAGE)],
        validate_requests=True,
    )

    played = await play(model, call)
    pixels[:] = b"changed"

    assert played.response.request_id == "request-1"
    assert model.requests == (call,)
    assert model.requests[0] is call
    captured = model.requests[0].messages[0].content[1]
    assert isinstance(captured, CourseImageBlock)
    assert captured.data == b"\x89PNG\r\n\x1a\n"
    assert type(captured.data) is bytes
