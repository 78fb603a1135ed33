"""Checkpoint 04: a deterministic model double.

Each test proves one acceptance criterion of the checkpoint for
``ScriptedModel``. Run this file alone with
``make checkpoint FILE=tests/checkpoints/test_04_deterministic_model.py``.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator

import pytest

from course_protocol import (
    CourseAssistantMessage,
    CourseMessage,
    CourseModel,
    CourseModelChunk,
    CourseModelRequest,
    CourseModelResponse,
    CourseModelUsage,
    CourseProtocolError,
    CourseStopReason,
    CourseTextBlock,
    CourseTextDeltaChunk,
    CourseToolCall,
    CourseToolCallChunk,
    CourseToolResultMessage,
    CourseUserMessage,
    thaw_json,
)
from course_scripted import (
    ScriptedModel,
    ScriptedModelError,
    ScriptedModelErrorCode,
    ScriptedResponseFactory,
)
from course_stream import AbortController, AbortError, AbortSignal, EventStream
from tests.requests import live_signal, request
from tests.streams import GUARD_SECONDS, failure_of, read_all

Turn = AsyncIterator[CourseModelChunk | CourseModelResponse]
Stream = EventStream[CourseModelChunk, CourseModelResponse]


def usage(input_tokens: int = 3, output_tokens: int = 5) -> CourseModelUsage:
    return CourseModelUsage(input_tokens=input_tokens, output_tokens=output_tokens)


def response_for(request_id: str, text: str, response_id: str) -> CourseModelResponse:
    return CourseModelResponse(
        id=response_id,
        request_id=request_id,
        message=CourseAssistantMessage(
            id=f"message-{response_id}", content=(CourseTextBlock(text=text),)
        ),
        stop_reason=CourseStopReason.STOP,
        usage=usage(),
    )


def text_factory(text: str, response_id: str) -> ScriptedResponseFactory:
    async def factory(request: CourseModelRequest, signal: AbortSignal) -> Turn:
        yield CourseTextDeltaChunk(request_id=request.id, delta=text)
        yield response_for(request.id, text, response_id)

    return factory


async def expect_code(stream: Stream, code: ScriptedModelErrorCode) -> ScriptedModelError:
    error = await failure_of(stream)
    assert isinstance(error, ScriptedModelError)
    assert error.code is code
    return error


def test_scripted_model_satisfies_the_course_model_port() -> None:
    model: CourseModel = ScriptedModel()
    assert callable(model.stream)


async def test_the_request_is_captured_deeply_immutable_before_the_caller_mutates_its_inputs() -> (
    None
):
    arguments: dict[str, object] = {"left": 20, "right": [22, {"unit": "n"}]}
    messages: list[CourseMessage] = [
        CourseUserMessage(id="m-1", content="Add them."),
        CourseAssistantMessage(
            id="m-2",
            content=(CourseToolCall(id="call-1", name="add", arguments=arguments),),
        ),
        CourseToolResultMessage(id="m-3", tool_call_id="call-1", tool_name="add", content="42"),
    ]
    request = CourseModelRequest(id="request-capture", messages=tuple(messages))
    seen: list[CourseModelRequest] = []

    async def factory(request: CourseModelRequest, signal: AbortSignal) -> Turn:
        seen.append(request)
        yield response_for(request.id, "done", "response-capture")

    model = ScriptedModel([factory])
    stream = model.stream(request, live_signal())
    arguments["left"] = 0
    right = arguments["right"]
    assert isinstance(right, list)
    right.append("tampered")
    messages.clear()
    await stream.result

    captured = model.requests[0]
    assert seen == [captured]
    assert seen[0] is captured
    assert len(captured.messages) == 3
    call = captured.messages[1]
    assert isinstance(call, CourseAssistantMessage)
    tool_call = call.content[0]
    assert isinstance(tool_call, CourseToolCall)
    assert thaw_json(tool_call.arguments) == {"left": 20, "right": [22, {"unit": "n"}]}
    with pytest.raises(dataclasses.FrozenInstanceError):
        captured.id = "rewritten"  # type: ignore[misc]
    with pytest.raises(TypeError):
        tool_call.arguments["left"] = 1  # type: ignore[index]
    assert isinstance(captured.messages, tuple)


async def test_requests_is_a_frozen_snapshot_that_later_calls_do_not_change() -> None:
    model = ScriptedModel([text_factory("one", "response-1"), text_factory("two", "response-2")])
    first = request("request-1")
    await model.stream(first, live_signal()).result
    before = model.requests
    second = request("request-2")
    await model.stream(second, live_signal()).result

    assert type(before) is tuple
    assert before == (first,)
    assert model.requests == (first, second)
    assert model.requests is not model.requests
    with pytest.raises(TypeError):
        before[0] = second  # type: ignore[index]


async def test_set_responses_with_a_bad_element_leaves_the_queue_untouched() -> None:
    model = ScriptedModel([text_factory("kept", "response-kept")])

    with pytest.raises(TypeError, match=r"responses\[1\]"):
        model.set_responses([text_factory("new", "response-new"), "not a factory"])  # type: ignore[list-item]

    assert model.pending_response_count == 1
    response = await model.stream(request("request-1"), live_signal()).result
    assert response.id == "response-kept"


async def test_append_response_rejects_a_non_callable_and_leaves_the_queue_untouched() -> None:
    model = ScriptedModel([text_factory("kept", "response-kept")])

    with pytest.raises(TypeError, match="callable"):
        model.append_response(None)  # type: ignore[arg-type]

    assert model.pending_response_count == 1
    response = await model.stream(request("request-1"), live_signal()).result
    assert response.id == "response-kept"


async def test_set_responses_refuses_one_shot_iterators_and_keeps_the_queue() -> None:
    model = ScriptedModel([text_factory("kept", "response-kept")])
    one_shot = iter([text_factory("lost", "response-lost")])

    with pytest.raises(TypeError, match="list or tuple"):
        model.set_responses(one_shot)  # type: ignore[arg-type]

    assert model.pending_response_count == 1


async def test_factories_are_consumed_first_in_first_out() -> None:
    model = ScriptedModel([text_factory("a", "response-a")])
    model.append_response(text_factory("b", "response-b"))
    model.append_response(text_factory("c", "response-c"))

    ids = []
    for index in range(3):
        response = await model.stream(request(f"request-{index}"), live_signal()).result
        ids.append(response.id)
        assert model.pending_response_count == 2 - index

    assert ids == ["response-a", "response-b", "response-c"]
    assert model.call_count == 3


async def test_set_responses_replaces_every_pending_factory() -> None:
    model = ScriptedModel([text_factory("a", "response-a"), text_factory("b", "response-b")])
    model.set_responses((text_factory("c", "response-c"),))

    assert model.pending_response_count == 1
    response = await model.stream(request("request-1"), live_signal()).result
    assert response.id == "response-c"
    await expect_code(
        model.stream(request("request-2"), live_signal()), ScriptedModelErrorCode.SCRIPT_EXHAUSTED
    )


async def test_chunks_reach_the_consumer_in_generator_order_with_the_active_request_id() -> None:
    tool_call = CourseToolCall(id="call-add-001", name="add", arguments={"left": 20, "right": 22})
    scripted_response = CourseModelResponse(
        id="response-tool",
        request_id="request-tool",
        message=CourseAssistantMessage(
            id="message-response-tool",
            content=(CourseTextBlock(text="Adding."), tool_call),
        ),
        stop_reason=CourseStopReason.TOOL_CALL,
        usage=usage(12, 8),
    )
    chunks: list[CourseModelChunk] = [
        CourseTextDeltaChunk(request_id="request-tool", delta="Add"),
        CourseTextDeltaChunk(request_id="request-tool", delta="ing."),
        CourseToolCallChunk(request_id="request-tool", tool_call=tool_call),
    ]

    async def factory(request: CourseModelRequest, signal: AbortSignal) -> Turn:
        for chunk in chunks:
            yield chunk
        yield scripted_response

    model = ScriptedModel([factory])
    stream = model.stream(request("request-tool"), live_signal())

    received = await read_all(stream)
    assert received == chunks
    assert [type(chunk) for chunk in received] == [
        CourseTextDeltaChunk,
        CourseTextDeltaChunk,
        CourseToolCallChunk,
    ]
    assert all(chunk.request_id == "request-tool" for chunk in received)
    assert await stream.result is scripted_response


async def test_the_final_response_is_immutable_correlated_and_keeps_its_usage() -> None:
    model = ScriptedModel([text_factory("Hi.", "response-1")])
    response = await model.stream(request("request-1"), live_signal()).result

    assert response.request_id == "request-1"
    assert response.stop_reason is CourseStopReason.STOP
    assert (response.usage.input_tokens, response.usage.output_tokens) == (3, 5)
    with pytest.raises(dataclasses.FrozenInstanceError):
        response.request_id = "request-2"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        response.usage.input_tokens = -1  # type: ignore[misc]
    assert isinstance(response.message.content, tuple)


def test_usage_counts_cannot_be_negative_so_no_response_carries_them() -> None:
    with pytest.raises(CourseProtocolError):
        CourseModelUsage(input_tokens=-1, output_tokens=0)
    with pytest.raises(CourseProtocolError):
        CourseModelUsage(input_tokens=0, output_tokens=-1)


@pytest.mark.parametrize(
    ("stop_reason", "content"),
    [
        pytest.param(
            CourseStopReason.TOOL_CALL,
            (CourseTextBlock(text="no tool call here"),),
            id="toolCall-without-a-tool-call",
        ),
        pytest.param(
            CourseStopReason.STOP,
            (CourseToolCall(id="call-1", name="add", arguments={}),),
            id="stop-with-a-tool-call",
        ),
    ],
)
async def test_a_response_inconsistent_with_its_stop_reason_is_an_invalid_response(
    stop_reason: CourseStopReason, content: tuple[CourseTextBlock | CourseToolCall, ...]
) -> None:
    async def factory(request: CourseModelRequest, signal: AbortSignal) -> Turn:
        yield CourseModelResponse(
            id="response-bad",
            request_id=request.id,
            message=CourseAssistantMessage(id="message-bad", content=content),
            stop_reason=stop_reason,
            usage=usage(),
        )

    model = ScriptedModel([factory])
    error = await expect_code(
        model.stream(request("request-1"), live_signal()),
        ScriptedModelErrorCode.SCRIPT_INVALID_RESPONSE,
    )
    assert "request-1" in error.message


async def test_a_call_cancelled_before_production_is_counted_captured_and_keeps_its_factory() -> (
    None
):
    model = ScriptedModel([text_factory("kept", "response-kept")])
    controller = AbortController()
    reason = AbortError("cancelled by the test")
    controller.abort(reason)
    cancelled = request("request-cancelled")

    stream = model.stream(cancelled, controller.signal)

    assert await failure_of(stream) is reason
    assert model.call_count == 1
    assert model.requests == (cancelled,)
    assert model.pending_response_count == 1

    retry = model.stream(request("request-retry"), live_signal())
    assert await read_all(retry) == [CourseTextDeltaChunk(request_id="request-retry", delta="kept")]
    assert (await retry.result).id == "response-kept"
    assert model.call_count == 2
    assert model.pending_response_count == 0


async def test_an_abort_before_the_producer_first_runs_also_keeps_the_factory() -> None:
    model = ScriptedModel([text_factory("kept", "response-kept")])
    controller = AbortController()

    stream = model.stream(request("request-1"), controller.signal)
    controller.abort()

    error = await failure_of(stream)
    assert error is controller.signal.reason
    assert isinstance(error, AbortError)
    assert model.pending_response_count == 1


async def test_mid_stream_cancellation_interrupts_a_pending_step_and_runs_the_finally() -> None:
    never = asyncio.Event()
    cleaned_up = asyncio.Event()

    async def factory(request: CourseModelRequest, signal: AbortSignal) -> Turn:
        try:
            yield CourseTextDeltaChunk(request_id=request.id, delta="partial")
            await never.wait()
            yield response_for(request.id, "unreachable", "response-never")
        finally:
            cleaned_up.set()

    model = ScriptedModel([factory])
    controller = AbortController()
    stream = model.stream(request("request-1"), controller.signal)
    events = aiter(stream)
    first = await asyncio.wait_for(anext(events), GUARD_SECONDS)
    assert first == CourseTextDeltaChunk(request_id="request-1", delta="partial")

    controller.abort()

    with pytest.raises(AbortError) as from_iteration:
        await asyncio.wait_for(anext(events), GUARD_SECONDS)
    with pytest.raises(AbortError) as from_result:
        await asyncio.wait_for(stream.result, GUARD_SECONDS)
    assert from_iteration.value is from_result.value is controller.signal.reason
    await asyncio.wait_for(cleaned_up.wait(), GUARD_SECONDS)
    assert model.pending_response_count == 0
    assert model.call_count == 1


async def test_one_response_iterator_never_serves_two_calls_even_across_model_instances() -> None:
    async def shared_turn() -> Turn:
        yield CourseTextDeltaChunk(request_id="request-a", delta="only once")
        yield response_for("request-a", "only once", "response-a")

    shared = shared_turn()

    def factory(request: CourseModelRequest, signal: AbortSignal) -> Turn:
        return shared

    first_model = ScriptedModel([factory])
    second_model = ScriptedModel([factory, factory])
    first = first_model.stream(request("request-a"), live_signal())
    concurrent = second_model.stream(request("request-a"), live_signal())

    assert (await first.result).id == "response-a"
    assert await read_all(first) == [
        CourseTextDeltaChunk(request_id="request-a", delta="only once")
    ]
    await expect_code(concurrent, ScriptedModelErrorCode.SCRIPT_ITERATOR_REUSED)

    sequential = second_model.stream(request("request-a"), live_signal())
    await expect_code(sequential, ScriptedModelErrorCode.SCRIPT_ITERATOR_REUSED)
    assert second_model.pending_response_count == 0


async def test_fails_closed_with_script_exhausted_instead_of_inventing_a_response() -> None:
    model = ScriptedModel()
    request = CourseModelRequest(
        id="request-exhausted",
        messages=(CourseUserMessage(id="message-exhausted", content="One more."),),
    )
    stream = model.stream(request, live_signal())

    error = await expect_code(stream, ScriptedModelErrorCode.SCRIPT_EXHAUSTED)
    assert type(error).__name__ == "ScriptedModelError"
    assert model.call_count == 1
    assert len(model.requests) == 1


@pytest.mark.parametrize("queued", [0, 1, 2])
async def test_one_more_request_than_the_queue_holds_fails_closed(queued: int) -> None:
    model = ScriptedModel([text_factory(f"reply {n}", f"response-{n}") for n in range(queued)])

    for n in range(queued):
        response = await model.stream(request(f"request-{n}"), live_signal()).result
        assert response.id == f"response-{n}"
    await expect_code(
        model.stream(request("request-extra"), live_signal()),
        ScriptedModelErrorCode.SCRIPT_EXHAUSTED,
    )

    assert model.call_count == queued + 1
    assert [request.id for request in model.requests][-1] == "request-extra"


async def test_prepending_a_factory_makes_the_first_call_pass_and_the_second_fail() -> None:
    model = ScriptedModel()
    model.set_responses([text_factory("first", "response-first")])

    first = model.stream(request("request-1"), live_signal())
    assert await read_all(first) == [CourseTextDeltaChunk(request_id="request-1", delta="first")]
    assert (await first.result).id == "response-first"
    await expect_code(
        model.stream(request("request-2"), live_signal()),
        ScriptedModelErrorCode.SCRIPT_EXHAUSTED,
    )
    assert model.call_count == 2
    assert len(model.requests) == 2


async def test_a_factory_exception_reaches_iteration_and_result_as_the_same_object() -> None:
    failure = LookupError("the factory's own failure")

    async def factory(request: CourseModelRequest, signal: AbortSignal) -> Turn:
        yield CourseTextDeltaChunk(request_id=request.id, delta="before")
        raise failure

    model = ScriptedModel([factory])
    stream = model.stream(request("request-1"), live_signal())
    events = aiter(stream)

    assert await anext(events) == CourseTextDeltaChunk(request_id="request-1", delta="before")
    with pytest.raises(LookupError) as from_iteration:
        await anext(events)
    with pytest.raises(LookupError) as from_result:
        await stream.result
    assert from_iteration.value is failure
    assert from_result.value is failure


async def test_a_factory_that_ends_without_a_response_is_an_invalid_response() -> None:
    async def factory(request: CourseModelRequest, signal: AbortSignal) -> Turn:
        yield CourseTextDeltaChunk(request_id=request.id, delta="and then nothing")

    model = ScriptedModel([factory])
    stream = model.stream(request("request-1"), live_signal())
    events = aiter(stream)

    assert await anext(events) == CourseTextDeltaChunk(
        request_id="request-1", delta="and then nothing"
    )
    with pytest.raises(ScriptedModelError) as caught:
        await anext(events)
    assert caught.value.code is ScriptedModelErrorCode.SCRIPT_INVALID_RESPONSE
    with pytest.raises(ScriptedModelError) as from_result:
        await stream.result
    assert from_result.value is caught.value


async def test_anything_yielded_after_the_response_is_an_invalid_response() -> None:
    closed = asyncio.Event()

    async def factory(request: CourseModelRequest, signal: AbortSignal) -> Turn:
        try:
            yield response_for(request.id, "done", "response-1")
            yield CourseTextDeltaChunk(request_id=request.id, delta="too late")
            yield response_for(request.id, "again", "response-2")
        finally:
            closed.set()

    model = ScriptedModel([factory])
    await expect_code(
        model.stream(request("request-1"), live_signal()),
        ScriptedModelErrorCode.SCRIPT_INVALID_RESPONSE,
    )
    await asyncio.wait_for(closed.wait(), GUARD_SECONDS)


async def test_a_chunk_for_another_request_is_a_request_mismatch() -> None:
    async def factory(request: CourseModelRequest, signal: AbortSignal) -> Turn:
        yield CourseTextDeltaChunk(request_id="request-other", delta="misrouted")
        yield response_for(request.id, "misrouted", "response-1")

    model = ScriptedModel([factory])
    stream = model.stream(request("request-1"), live_signal())

    error = await expect_code(stream, ScriptedModelErrorCode.SCRIPT_REQUEST_MISMATCH)
    assert "request-other" in error.message
    assert "request-1" in error.message


async def test_a_response_for_another_request_is_a_request_mismatch() -> None:
    async def factory(request: CourseModelRequest, signal: AbortSignal) -> Turn:
        yield CourseTextDeltaChunk(request_id=request.id, delta="fine")
        yield response_for("request-other", "fine", "response-1")

    model = ScriptedModel([factory])
    stream = model.stream(request("request-1"), live_signal())
    events = aiter(stream)

    assert await anext(events) == CourseTextDeltaChunk(request_id="request-1", delta="fine")
    with pytest.raises(ScriptedModelError) as caught:
        await anext(events)
    assert caught.value.code is ScriptedModelErrorCode.SCRIPT_REQUEST_MISMATCH
    with pytest.raises(ScriptedModelError) as from_result:
        await stream.result
    assert from_result.value is caught.value
