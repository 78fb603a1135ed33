"""reply_text, reply_tool_call and reply_error: one-line turns with every id left to the test."""

from __future__ import annotations

import dataclasses

import pytest

from course_protocol import (
    CourseAssistantMessage,
    CourseModelChunk,
    CourseModelResponse,
    CourseModelUsage,
    CourseProtocolError,
    CourseStopReason,
    CourseTextBlock,
    CourseTextDeltaChunk,
    CourseToolCall,
    CourseToolCallChunk,
    thaw_json,
)
from course_scripted import ScriptedModel, reply_error, reply_text, reply_tool_call
from course_stream import AbortController
from tests.requests import request
from tests.streams import settle

USAGE = CourseModelUsage(input_tokens=7, output_tokens=11)


async def play(
    model: ScriptedModel, request_id: str
) -> tuple[list[CourseModelChunk], CourseModelResponse]:
    settled = await settle(model.stream(request(request_id), AbortController().signal))
    return settled.events, settled.response


async def test_reply_text_streams_one_delta_then_a_stop_response_with_the_given_ids() -> None:
    model = ScriptedModel(
        [
            reply_text(
                "The sum is 42.", response_id="response-7", message_id="message-7", usage=USAGE
            )
        ]
    )

    chunks, response = await play(model, "request-7")

    assert chunks == [CourseTextDeltaChunk(request_id="request-7", delta="The sum is 42.")]
    assert response == CourseModelResponse(
        id="response-7",
        request_id="request-7",
        message=CourseAssistantMessage(
            id="message-7", content=(CourseTextBlock(text="The sum is 42."),)
        ),
        stop_reason=CourseStopReason.STOP,
        usage=USAGE,
    )
    assert response.usage is USAGE


async def test_reply_tool_call_keeps_the_provider_call_id_and_stops_for_the_tool() -> None:
    model = ScriptedModel(
        [
            reply_tool_call(
                "call-add-001",
                "add",
                {"left": 20, "right": 22},
                response_id="response-tool-001",
                message_id="message-response-tool-001",
                usage=USAGE,
            )
        ]
    )

    chunks, response = await play(model, "request-1")

    assert len(chunks) == 1
    chunk = chunks[0]
    assert type(chunk) is CourseToolCallChunk
    assert chunk.request_id == "request-1"
    assert chunk.tool_call.id == "call-add-001"
    assert chunk.tool_call.name == "add"
    assert thaw_json(chunk.tool_call.arguments) == {"left": 20, "right": 22}
    assert response.stop_reason is CourseStopReason.TOOL_CALL
    assert response.id == "response-tool-001"
    assert response.message.id == "message-response-tool-001"
    assert response.message.content == (chunk.tool_call,)


async def test_reply_tool_call_snapshots_arguments_when_the_factory_is_made() -> None:
    arguments: dict[str, object] = {"items": [1, 2], "options": {"round": True}}
    factory = reply_tool_call(
        "call-1", "sum", arguments, response_id="response-1", message_id="message-1", usage=USAGE
    )
    arguments["items"] = "tampered"
    arguments.clear()

    chunks, response = await play(ScriptedModel([factory]), "request-1")

    tool_call = response.message.content[0]
    assert isinstance(tool_call, CourseToolCall)
    assert thaw_json(tool_call.arguments) == {"items": [1, 2], "options": {"round": True}}
    assert chunks == [CourseToolCallChunk(request_id="request-1", tool_call=tool_call)]


async def test_one_helper_factory_queued_twice_plays_twice_with_fresh_iterators() -> None:
    factory = reply_text("again", response_id="response-x", message_id="message-x", usage=USAGE)
    model = ScriptedModel([factory, factory])

    first_chunks, first = await play(model, "request-1")
    second_chunks, second = await play(model, "request-2")

    assert (first.request_id, second.request_id) == ("request-1", "request-2")
    assert first_chunks[0].request_id == "request-1"
    assert second_chunks[0].request_id == "request-2"
    assert model.pending_response_count == 0


async def test_reply_error_raises_the_same_object_in_iteration_and_result() -> None:
    failure = ConnectionResetError("scripted provider outage")
    model = ScriptedModel([reply_error(failure)])
    stream = model.stream(request("request-1"), AbortController().signal)

    with pytest.raises(ConnectionResetError) as from_iteration:
        [chunk async for chunk in stream]
    with pytest.raises(ConnectionResetError) as from_result:
        await stream.result

    assert from_iteration.value is failure
    assert from_result.value is failure
    assert model.pending_response_count == 0


@pytest.mark.parametrize("not_an_exception", [KeyboardInterrupt(), ValueError, "boom", None])
def test_reply_error_refuses_anything_but_an_exception_instance(not_an_exception: object) -> None:
    with pytest.raises(TypeError, match="Exception instance"):
        reply_error(not_an_exception)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad_usage", [None, (1, 2), {"input_tokens": 1, "output_tokens": 2}])
def test_helpers_refuse_a_usage_that_is_not_a_course_model_usage(bad_usage: object) -> None:
    with pytest.raises(TypeError, match="usage"):
        reply_text("x", response_id="r", message_id="m", usage=bad_usage)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="usage"):
        reply_tool_call("c", "t", {}, response_id="r", message_id="m", usage=bad_usage)  # type: ignore[arg-type]


def test_helpers_validate_ids_when_the_factory_is_made_not_mid_test() -> None:
    with pytest.raises(CourseProtocolError):
        reply_text("x", response_id="r", message_id="  ", usage=USAGE)
    with pytest.raises(CourseProtocolError):
        reply_tool_call("", "add", {}, response_id="r", message_id="m", usage=USAGE)
    with pytest.raises(CourseProtocolError):
        reply_tool_call(
            "call-1", "add", {"x": float("nan")}, response_id="r", message_id="m", usage=USAGE
        )


async def test_helper_responses_are_frozen() -> None:
    model = ScriptedModel([reply_text("x", response_id="r", message_id="m", usage=USAGE)])
    _, response = await play(model, "request-1")

    with pytest.raises(dataclasses.FrozenInstanceError):
        response.id = "other"  # type: ignore[misc]


def test_helpers_take_every_id_and_usage_as_required_keywords() -> None:
    with pytest.raises(TypeError):
        reply_text("x")  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        reply_text("x", response_id="r", message_id="m")  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        reply_tool_call("c", "t", {}, response_id="r", usage=USAGE)  # type: ignore[call-arg]


@pytest.mark.parametrize("bad_response_id", ["", "   "])
def test_helpers_validate_the_response_id_when_the_factory_is_made(bad_response_id: str) -> None:
    with pytest.raises(CourseProtocolError):
        reply_text("x", response_id=bad_response_id, message_id="m", usage=USAGE)
    with pytest.raises(CourseProtocolError):
        reply_tool_call("c", "t", {}, response_id=bad_response_id, message_id="m", usage=USAGE)
