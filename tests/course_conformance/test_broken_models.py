"""Every invariant check of the kit can fail: one deliberately broken model each.

Each broken model is correct except for the one promise it breaks, so the
kit must name exactly that invariant, in the scenario where it breaks, and
carry the offending value.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import signal
import socket
from collections.abc import Awaitable, Callable
from socket import socket as early_socket
from typing import Any

import pytest

from course_conformance import (
    ConformanceError,
    Invariant,
    Scenario,
    assert_conforms,
    check_scenario,
)
from course_protocol import (
    CourseAssistantMessage,
    CourseImageBlock,
    CourseModel,
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
    CourseVendorToolBlock,
    JsonObject,
    freeze_json_object,
)
from course_stream import AbortError, AbortSignal, EventStream, run_producer
from tests.course_protocol.hostile import tampered
from tests.requests import request

REQUEST = request("request-kit-001", "Add 20 and 22.", message_id="message-user-001")
ModelStream = EventStream[CourseModelChunk, CourseModelResponse]


def freeze(value: dict[str, object]) -> JsonObject:
    return freeze_json_object(value).unwrap()


def text_response(request_id: str = REQUEST.id) -> CourseModelResponse:
    return CourseModelResponse(
        id="response-001",
        request_id=request_id,
        message=CourseAssistantMessage(id="message-001", content=(CourseTextBlock(text="42"),)),
        stop_reason=CourseStopReason.STOP,
        usage=CourseModelUsage(input_tokens=1, output_tokens=1),
    )


def tool_call_response(call: CourseToolCall, request_id: str = REQUEST.id) -> CourseModelResponse:
    return CourseModelResponse(
        id="response-001",
        request_id=request_id,
        message=CourseAssistantMessage(id="message-001", content=(call,)),
        stop_reason=CourseStopReason.TOOL_CALL,
        usage=CourseModelUsage(input_tokens=1, output_tokens=1),
    )


def text_chunk(request_id: str = REQUEST.id) -> CourseTextDeltaChunk:
    return CourseTextDeltaChunk(request_id=request_id, delta="42")


class WellBehavedModel:
    """A correct model: subclasses override one step to break one promise."""

    def stream(self, request: CourseModelRequest, signal: AbortSignal) -> ModelStream:
        stream: ModelStream = EventStream()

        async def produce() -> None:
            await self.produce(stream, request)

        run_producer(stream, signal, produce)
        return stream

    async def produce(self, stream: ModelStream, request: CourseModelRequest) -> None:
        # The stream is typed loosely here so broken subclasses can emit what they like.
        loose: EventStream[Any, Any] = stream
        loose.push(self.chunk(request))
        await asyncio.sleep(0)
        loose.finish(self.response(request))

    def chunk(self, request: CourseModelRequest) -> object:
        return text_chunk(request.id)

    def response(self, request: CourseModelRequest) -> object:
        return text_response(request.id)


class ModelThatDialsOut(WellBehavedModel):
    async def produce(self, stream: ModelStream, request: CourseModelRequest) -> None:
        # Swallowing the failure must not hide the attempt.
        with contextlib.suppress(OSError):
            socket.create_connection(("model.invalid", 443))
        await super().produce(stream, request)


class ModelThatConnectsWithAnEarlyReference(WellBehavedModel):
    """Connects to a real loopback listener through a ``socket`` class imported before the check."""

    address: tuple[str, int] = ("127.0.0.1", 9)

    async def produce(self, stream: ModelStream, request: CourseModelRequest) -> None:
        with early_socket() as connection, contextlib.suppress(OSError):
            connection.connect(self.address)
        await super().produce(stream, request)


class ModelThatRaisesFromStream:
    def stream(self, request: CourseModelRequest, signal: AbortSignal) -> ModelStream:
        raise ValueError("not today")


class ModelThatReturnsAList:
    def stream(self, request: CourseModelRequest, signal: AbortSignal) -> Any:
        return [text_chunk()]


class ModelThatNeverSettles:
    def stream(self, request: CourseModelRequest, signal: AbortSignal) -> ModelStream:
        stream: ModelStream = EventStream()
        stream.push(text_chunk())
        return stream


class ModelThatSettlesTwice:
    """Finishes, then tries again from a task nobody awaits."""

    def stream(self, request: CourseModelRequest, signal: AbortSignal) -> ModelStream:
        stream: ModelStream = EventStream()

        async def produce() -> None:
            stream.finish(text_response())
            stream.finish(text_response())

        asyncio.get_running_loop().create_task(produce())
        return stream


class ModelThatMislabelsChunks(WellBehavedModel):
    def chunk(self, request: CourseModelRequest) -> object:
        return text_chunk("request-someone-else")


class StreamWithDetachedResult(EventStream[CourseModelChunk, CourseModelResponse]):
    """Iteration fails, but ``result`` reads another, successful stream."""

    __slots__ = ("_other",)

    def __init__(self) -> None:
        super().__init__()
        self._other: ModelStream = EventStream()
        self._other.finish(text_response())

    @property
    def result(self) -> Awaitable[CourseModelResponse]:
        return self._other.result


class ModelWhoseResultDisagrees:
    def stream(self, request: CourseModelRequest, signal: AbortSignal) -> ModelStream:
        stream = StreamWithDetachedResult()
        stream.fail(RuntimeError("iteration saw a failure"))
        return stream


class ModelThatFailsWithTwoErrors:
    """Iteration and result fail, but with different exception objects."""

    def stream(self, request: CourseModelRequest, signal: AbortSignal) -> ModelStream:
        stream = StreamWithDetachedResult()
        stream._other = EventStream()
        stream._other.fail(RuntimeError("result saw another failure"))
        stream.fail(RuntimeError("iteration saw a failure"))
        return stream


class ModelThatIgnoresTheSignal:
    """Produces on a plain task, never looking at the signal."""

    def stream(self, request: CourseModelRequest, signal: AbortSignal) -> ModelStream:
        stream: ModelStream = EventStream()

        async def produce() -> None:
            stream.push(text_chunk())
            for _ in range(3):
                await asyncio.sleep(0)
            stream.finish(text_response())

        task = asyncio.get_running_loop().create_task(produce())
        _keep.add(task)
        task.add_done_callback(_keep.discard)
        return stream


_keep: set[asyncio.Task[None]] = set()


class ModelThatRewordsTheAbort(WellBehavedModel):
    """Aborts, but with its own error instead of the signal's reason."""

    def stream(self, request: CourseModelRequest, signal: AbortSignal) -> ModelStream:
        stream: ModelStream = EventStream()
        if signal.aborted:
            stream.fail(AbortError("aborted, in my own words"))
            return stream

        def reword() -> None:
            if not stream.done:
                stream.fail(AbortError("aborted, in my own words"))

        signal.add_listener(reword)
        stream.push(text_chunk())
        return stream


class ModelThatStallsPastTheAbort:
    """Acknowledges nothing after the first chunk until the test releases it."""

    def __init__(self, release: asyncio.Event) -> None:
        self.release = release

    def stream(self, request: CourseModelRequest, signal: AbortSignal) -> ModelStream:
        stream: ModelStream = EventStream()

        async def produce() -> None:
            stream.push(text_chunk())
            await self.release.wait()
            stream.fail(signal.reason or RuntimeError("released"))

        task = asyncio.get_running_loop().create_task(produce())
        _keep.add(task)
        task.add_done_callback(_keep.discard)
        return stream


class ModelThatAnswersAnotherRequest(WellBehavedModel):
    def response(self, request: CourseModelRequest) -> object:
        return text_response("request-someone-else")


class ModelThatStopsForToolsWithoutCalls(WellBehavedModel):
    def response(self, request: CourseModelRequest) -> object:
        return CourseModelResponse(
            id="response-001",
            request_id=request.id,
            message=CourseAssistantMessage(id="message-001", content=(CourseTextBlock(text="."),)),
            stop_reason=CourseStopReason.TOOL_CALL,
            usage=CourseModelUsage(input_tokens=1, output_tokens=1),
        )


class ModelThatThawsArguments(WellBehavedModel):
    """Emits a Tool call whose arguments were swapped for a plain, mutable dict."""

    def chunk(self, request: CourseModelRequest) -> object:
        call = CourseToolCall(id="call-1", name="add", arguments=freeze({"left": 20}))
        object.__setattr__(call, "arguments", {"left": 20})
        return CourseToolCallChunk(request_id=request.id, tool_call=call)


class ModelThatEmitsPlainDicts(WellBehavedModel):
    def chunk(self, request: CourseModelRequest) -> object:
        return {"requestId": request.id, "delta": "42"}


class ModelWithListContent(WellBehavedModel):
    def response(self, request: CourseModelRequest) -> object:
        response = text_response(request.id)
        object.__setattr__(response.message, "content", [CourseTextBlock(text="42")])
        return response


class ModelWithNestedListArguments(WellBehavedModel):
    def response(self, request: CourseModelRequest) -> object:
        call = CourseToolCall(id="call-1", name="add", arguments=freeze({"items": [1, 2]}))
        assert isinstance(call.arguments["items"], tuple)
        mapping_type: Any = type(call.arguments)
        object.__setattr__(call, "arguments", mapping_type(items=[1, 2]))
        return CourseModelResponse(
            id="response-001",
            request_id=request.id,
            message=CourseAssistantMessage(id="message-001", content=(call,)),
            stop_reason=CourseStopReason.TOOL_CALL,
            usage=CourseModelUsage(input_tokens=1, output_tokens=1),
        )


class ModelWithCyclicArguments(WellBehavedModel):
    """Emits a Tool call whose frozen arguments were made to hold themselves."""

    def chunk(self, request: CourseModelRequest) -> object:
        call = CourseToolCall(id="call-1", name="add", arguments=freeze({"left": 20}))
        # frozendict is a dict subclass at run time; its stubs hide that.
        write_through_dict: Any = dict.__setitem__
        write_through_dict(call.arguments, "again", (call.arguments,))
        return CourseToolCallChunk(request_id=request.id, tool_call=call)


class ModelThatLeavesATaskBehind(WellBehavedModel):
    def __init__(self, release: asyncio.Event) -> None:
        self.release = release

    async def produce(self, stream: ModelStream, request: CourseModelRequest) -> None:
        task = asyncio.get_running_loop().create_task(self.release.wait())
        _keep_waits.add(task)
        await super().produce(stream, request)


_keep_waits: set[asyncio.Task[bool]] = set()


class ModelWhoseTaskStartsAnotherWhileFinishing(WellBehavedModel):
    """Leaves a task behind that takes loop turns, then hands over to a second one that does too."""

    turns = 300

    def __init__(self, finished: list[str]) -> None:
        self.finished = finished

    async def produce(self, stream: ModelStream, request: CourseModelRequest) -> None:
        _keep_cleanups.add(asyncio.get_running_loop().create_task(self.first()))
        await super().produce(stream, request)

    async def first(self) -> None:
        for _ in range(self.turns):
            await asyncio.sleep(0)
        _keep_cleanups.add(asyncio.get_running_loop().create_task(self.second()))
        self.finished.append("first")

    async def second(self) -> None:
        for _ in range(self.turns):
            await asyncio.sleep(0)
        self.finished.append("second")


_keep_cleanups: set[asyncio.Task[None]] = set()


class ModelThatDropsAFailedFuture(WellBehavedModel):
    async def produce(self, stream: ModelStream, request: CourseModelRequest) -> None:
        future = asyncio.get_running_loop().create_future()
        future.set_exception(RuntimeError("nobody looks at me"))
        del future
        await super().produce(stream, request)


async def violation(
    make_model: Callable[[], CourseModel], scenario: Scenario = Scenario.COMPLETE, **options: Any
) -> ConformanceError:
    with pytest.raises(ConformanceError) as caught:
        await check_scenario(make_model, REQUEST, scenario, **options)
    return caught.value


async def test_the_well_behaved_model_passes_so_each_break_below_is_the_only_one() -> None:
    report = await assert_conforms(WellBehavedModel, REQUEST)

    assert report.result_for(Scenario.COMPLETE).response == text_response()


async def test_a_model_that_dials_out_breaks_no_network_even_if_it_swallows_the_error() -> None:
    error = await violation(ModelThatDialsOut)

    assert error.invariant is Invariant.NO_NETWORK
    assert error.value == ("socket.getaddrinfo('model.invalid', 443, 0, 1, 0)",)
    assert socket.create_connection.__module__ == "socket"


async def test_a_connection_through_a_socket_class_imported_early_breaks_no_network() -> None:
    with socket.create_server(("127.0.0.1", 0)) as listener:
        address = listener.getsockname()

        class ToTheListener(ModelThatConnectsWithAnEarlyReference):
            pass

        ToTheListener.address = address
        error = await violation(ToTheListener)

    assert error.invariant is Invariant.NO_NETWORK
    assert error.value == (f"socket.connect({address!r})",)


@pytest.mark.parametrize(
    ("model", "value_type"),
    [(ModelThatRaisesFromStream, ValueError), (ModelThatReturnsAList, list)],
)
async def test_a_stream_call_that_raises_or_returns_no_stream_breaks_returns_stream(
    model: Callable[[], CourseModel], value_type: type
) -> None:
    error = await violation(model)

    assert error.invariant is Invariant.RETURNS_STREAM
    assert type(error.value) is value_type


async def test_a_stream_that_never_settles_breaks_settles_once_at_the_guard() -> None:
    error = await violation(ModelThatNeverSettles, settle_timeout=0.01)

    assert error.invariant is Invariant.SETTLES_ONCE
    assert isinstance(error.value, EventStream)
    assert "1 chunk(s) arrived" in error.detail


async def test_a_second_terminal_attempt_breaks_settles_once() -> None:
    error = await violation(ModelThatSettlesTwice)

    assert error.invariant is Invariant.SETTLES_ONCE
    assert "already terminal" in str(error.value)


async def test_a_chunk_for_another_request_breaks_chunk_request_id() -> None:
    error = await violation(ModelThatMislabelsChunks)

    assert error.invariant is Invariant.CHUNK_REQUEST_ID
    assert error.value == text_chunk("request-someone-else")
    assert "'request-someone-else'" in str(error)


@pytest.mark.parametrize("model", [ModelWhoseResultDisagrees, ModelThatFailsWithTwoErrors])
async def test_iteration_and_result_that_disagree_break_iteration_matches_result(
    model: Callable[[], CourseModel],
) -> None:
    error = await violation(model)

    assert error.invariant is Invariant.ITERATION_MATCHES_RESULT


async def test_ignoring_a_pre_aborted_signal_breaks_pre_abort_rejects() -> None:
    error = await violation(ModelThatIgnoresTheSignal, Scenario.PRE_ABORTED)

    assert error.invariant is Invariant.PRE_ABORT_REJECTS
    assert error.scenario is Scenario.PRE_ABORTED
    assert error.value == text_response()


@pytest.mark.parametrize(
    "scenario", [Scenario.ABORT_BEFORE_FIRST_CHUNK, Scenario.ABORT_AFTER_FIRST_CHUNK]
)
async def test_ignoring_an_abort_breaks_abort_rejects(scenario: Scenario) -> None:
    error = await violation(ModelThatIgnoresTheSignal, scenario)

    assert error.invariant is Invariant.ABORT_REJECTS
    assert error.scenario is scenario
    assert "succeeded although it was aborted" in error.detail


@pytest.mark.parametrize(
    ("scenario", "invariant"),
    [
        (Scenario.PRE_ABORTED, Invariant.PRE_ABORT_REJECTS),
        (Scenario.ABORT_BEFORE_FIRST_CHUNK, Invariant.ABORT_REJECTS),
        (Scenario.ABORT_AFTER_FIRST_CHUNK, Invariant.ABORT_REJECTS),
    ],
)
async def test_failing_with_another_error_than_the_reason_breaks_the_abort_invariants(
    scenario: Scenario, invariant: Invariant
) -> None:
    error = await violation(ModelThatRewordsTheAbort, scenario)

    assert error.invariant is invariant
    assert str(error.value) == "aborted, in my own words"


async def test_settling_late_after_an_abort_breaks_abort_rejects() -> None:
    release = asyncio.Event()

    error = await violation(
        lambda: ModelThatStallsPastTheAbort(release), Scenario.ABORT_AFTER_FIRST_CHUNK
    )

    assert error.invariant is Invariant.ABORT_REJECTS
    assert "still not settled" in error.detail
    release.set()


async def test_a_response_to_another_request_breaks_response_correlated() -> None:
    error = await violation(ModelThatAnswersAnotherRequest)

    assert error.invariant is Invariant.RESPONSE_CORRELATED
    assert error.value == text_response("request-someone-else")


async def test_a_tool_call_stop_without_tool_calls_breaks_terminal_consistent() -> None:
    error = await violation(ModelThatStopsForToolsWithoutCalls)

    assert error.invariant is Invariant.TERMINAL_CONSISTENT
    assert isinstance(error.value, CourseModelResponse)


@pytest.mark.parametrize(
    ("model", "path"),
    [
        (ModelThatThawsArguments, "chunks[0].tool_call.arguments"),
        (ModelThatEmitsPlainDicts, "chunks[0]"),
        (ModelWithListContent, "response.message.content"),
        (ModelWithNestedListArguments, "response.message.content[0].arguments.items"),
    ],
)
async def test_mutable_or_foreign_outputs_break_deeply_immutable(
    model: Callable[[], CourseModel], path: str
) -> None:
    error = await violation(model)

    assert error.invariant is Invariant.DEEPLY_IMMUTABLE
    assert error.detail.startswith(f"{path} is a ")


async def test_arguments_that_hold_themselves_break_deeply_immutable_instead_of_hanging() -> None:
    # The walk is synchronous, so only an alarm (not asyncio) can end it on a regression.
    def give_up(signum: int, frame: object) -> None:
        raise TimeoutError("the immutability walk did not end")

    previous = signal.signal(signal.SIGALRM, give_up)
    signal.setitimer(signal.ITIMER_REAL, 10)
    try:
        error = await violation(ModelWithCyclicArguments)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)

    assert error.invariant is Invariant.DEEPLY_IMMUTABLE
    assert error.detail.startswith("chunks[0].tool_call.arguments.again[0] ")
    assert "cycle" in error.detail


async def test_a_json_value_shared_by_two_keys_is_not_mistaken_for_a_cycle() -> None:
    shared = freeze({"x": 1})
    arguments = freeze({"a": shared, "b": ()})
    write_through_dict: Any = dict.__setitem__
    write_through_dict(arguments, "a", (shared, shared, ()))
    call = CourseToolCall(id="call-1", name="add", arguments=freeze({}))
    object.__setattr__(call, "arguments", arguments)

    class ModelWithSharedArguments(WellBehavedModel):
        def chunk(self, request: CourseModelRequest) -> object:
            return CourseToolCallChunk(request_id=request.id, tool_call=call)

        def response(self, request: CourseModelRequest) -> object:
            return tool_call_response(call, request.id)

    result = await check_scenario(ModelWithSharedArguments, REQUEST, Scenario.COMPLETE)

    assert len(result.chunks) == 1


async def test_a_task_that_never_finishes_breaks_no_pending_tasks_once_the_bound_passed() -> None:
    release = asyncio.Event()

    error = await violation(lambda: ModelThatLeavesATaskBehind(release))

    assert error.invariant is Invariant.NO_PENDING_TASKS
    assert error.detail.endswith("still pending 2 s after the stream settled")
    assert isinstance(error.value, tuple)
    assert [type(task) for task in error.value] == [asyncio.Task]
    assert not any(task.done() for task in error.value), "the kit never cancels them"
    release.set()
    await asyncio.gather(*_keep_waits)
    _keep_waits.clear()


async def test_the_cleanup_bound_is_the_callers_to_choose() -> None:
    release = asyncio.Event()

    error = await violation(lambda: ModelThatLeavesATaskBehind(release), cleanup_timeout=0.05)

    assert error.invariant is Invariant.NO_PENDING_TASKS
    assert error.detail.endswith("still pending 0.05 s after the stream settled")
    release.set()
    await asyncio.gather(*_keep_waits)
    _keep_waits.clear()


@pytest.mark.parametrize("scenario", [Scenario.COMPLETE, Scenario.ABORT_AFTER_FIRST_CHUNK])
async def test_tasks_that_take_loop_turns_to_finish_are_waited_for_even_when_they_hand_over(
    scenario: Scenario,
) -> None:
    finished: list[str] = []

    await check_scenario(
        lambda: ModelWhoseTaskStartsAnotherWhileFinishing(finished), REQUEST, scenario
    )

    assert finished == ["first", "second"], "judged only after both had finished"
    _keep_cleanups.clear()


async def test_an_exception_never_retrieved_breaks_no_asyncio_errors() -> None:
    error = await violation(ModelThatDropsAFailedFuture)

    assert error.invariant is Invariant.NO_ASYNCIO_ERRORS
    assert str(error.value) == "nobody looks at me"
    gc.collect()


SIGNATURE = CourseOpaque("anthropic-messages", {"signature": "c2ln"})


def answer(
    *blocks: Any, stop_reason: CourseStopReason = CourseStopReason.STOP
) -> Callable[[str], CourseModelResponse]:
    """A response maker for `Scripted`: the message holds ``blocks``."""

    def make(request_id: str) -> CourseModelResponse:
        return CourseModelResponse(
            id="response-001",
            request_id=request_id,
            message=CourseAssistantMessage(id="message-001", content=blocks),
            stop_reason=stop_reason,
            usage=CourseModelUsage(input_tokens=1, output_tokens=1),
        )

    return make


class Scripted(WellBehavedModel):
    """Streams the given chunks (made for the request's id), then the given response."""

    def __init__(self, chunks: Callable[[str], list[object]], response: Callable[[str], Any]):
        self.chunks = chunks
        self.answer = response

    async def produce(self, stream: ModelStream, request: CourseModelRequest) -> None:
        loose: EventStream[Any, Any] = stream
        for chunk in self.chunks(request.id):
            loose.push(chunk)
            await asyncio.sleep(0)
        loose.finish(self.answer(request.id))


def thinking_then_call(request_id: str) -> list[object]:
    return [
        CourseReasoningDeltaChunk(request_id, "Add "),
        CourseReasoningDeltaChunk(request_id, "them."),
        CourseTextDeltaChunk(request_id, "Adding."),
        CourseToolCallChunk(request_id, CourseToolCall("call-1", "add", {}, opaque=SIGNATURE)),
    ]


THINKING_ANSWER = answer(
    CourseReasoningBlock("Add them.", opaque=SIGNATURE),
    CourseVendorToolBlock("server_tool_use", SIGNATURE),
    CourseTextBlock("Adding.", citations=(SIGNATURE,)),
    CourseToolCall("call-1", "add", {}, opaque=SIGNATURE),
    stop_reason=CourseStopReason.TOOL_CALL,
)


async def test_a_model_that_thinks_cites_and_calls_with_opaque_data_conforms() -> None:
    report = await assert_conforms(lambda: Scripted(thinking_then_call, THINKING_ANSWER), REQUEST)

    complete = report.result_for(Scenario.COMPLETE)
    assert complete.chunks == tuple(thinking_then_call(REQUEST.id))
    assert complete.response == THINKING_ANSWER(REQUEST.id)


def mislaid(request_id: str) -> list[object]:
    return [CourseReasoningDeltaChunk("request-someone-else", "Hmm")]


async def test_a_reasoning_delta_for_another_request_breaks_chunk_request_id() -> None:
    error = await violation(lambda: Scripted(mislaid, answer(CourseReasoningBlock("Hmm"))))

    assert error.invariant is Invariant.CHUNK_REQUEST_ID
    assert error.value == CourseReasoningDeltaChunk("request-someone-else", "Hmm")


def nothing(request_id: str) -> list[object]:
    return []


@pytest.mark.parametrize(
    ("chunks", "response", "detail"),
    [
        (
            lambda rid: [CourseTextDeltaChunk(rid, "42")],
            answer(CourseTextBlock("43")),
            "the text deltas joined ('42') are not the message's text ('43')",
        ),
        (
            lambda rid: [CourseReasoningDeltaChunk(rid, "Hmm"), CourseTextDeltaChunk(rid, "42")],
            answer(CourseTextBlock("42")),
            "the reasoning deltas joined ('Hmm') are not the text of the message's reasoning "
            "blocks ('')",
        ),
        (
            nothing,
            answer(CourseReasoningBlock("Thought, never streamed.")),
            "the reasoning deltas joined ('') are not the text of the message's reasoning "
            "blocks ('Thought, never streamed.')",
        ),
        (
            lambda rid: [CourseToolCallChunk(rid, CourseToolCall("call-1", "add", {}))],
            answer(
                CourseToolCall("call-1", "add", {}, opaque=SIGNATURE),
                stop_reason=CourseStopReason.TOOL_CALL,
            ),
            "the 1 Tool-call chunk(s) are not the message's 1 Tool-call block(s), in order",
        ),
        (
            nothing,
            answer(CourseToolCall("call-1", "add", {}), stop_reason=CourseStopReason.TOOL_CALL),
            "the 0 Tool-call chunk(s) are not the message's 1 Tool-call block(s), in order",
        ),
    ],
    ids=[
        "other-text",
        "reasoning-not-kept",
        "reasoning-not-streamed",
        "call-without-its-opaque",
        "call-never-streamed",
    ],
)
async def test_a_stream_that_tells_another_message_breaks_stream_matches_message(
    chunks: Callable[[str], list[object]], response: Callable[[str], Any], detail: str
) -> None:
    error = await violation(lambda: Scripted(chunks, response))

    assert error.invariant is Invariant.STREAM_MATCHES_MESSAGE
    assert error.detail == detail


async def test_a_refusal_that_asks_for_a_tool_breaks_terminal_consistent() -> None:
    refusal = answer(CourseToolCall("call-1", "add", {}), stop_reason=CourseStopReason.REFUSAL)
    calls = [CourseToolCall("call-1", "add", {})]

    error = await violation(
        lambda: Scripted(lambda rid: [CourseToolCallChunk(rid, calls[0])], refusal)
    )

    assert error.invariant is Invariant.TERMINAL_CONSISTENT
    assert error.detail == "stop reason refusal forbids Tool-call blocks, found 1"


def usage_answer(**counts: object) -> Callable[[str], CourseModelResponse]:
    def make(request_id: str) -> CourseModelResponse:
        response = text_response(request_id)
        tampered(response.usage, **counts)
        return response

    return make


@pytest.mark.parametrize(
    ("counts", "detail"),
    [
        ({"cache_read_tokens": 2}, "response.usage.cache_read_tokens the cached input (2) exceeds"),
        ({"reasoning_tokens": 5}, "response.usage.reasoning_tokens (5) exceeds output_tokens (1)"),
        ({"input_tokens": -1}, "response.usage.input_tokens must be between 0 and 2**53 - 1"),
        ({"cache_write_tokens": 2**53}, "response.usage.cache_write_tokens must be between"),
    ],
    ids=["cache-over-input", "reasoning-over-output", "negative", "too-big"],
)
async def test_usage_counts_out_of_range_break_usage_in_range(
    counts: dict[str, object], detail: str
) -> None:
    error = await violation(lambda: Scripted(lambda rid: [text_chunk(rid)], usage_answer(**counts)))

    assert error.invariant is Invariant.USAGE_IN_RANGE
    assert error.detail.startswith(detail)
    assert isinstance(error.value, CourseModelUsage)


def reasoning_chunk(request_id: str) -> list[object]:
    return [tampered(CourseReasoningDeltaChunk(request_id, "x"), delta=["mutable"])]


@pytest.mark.parametrize(
    ("chunks", "response", "path"),
    [
        (reasoning_chunk, answer(), "chunks[0].delta"),
        (
            nothing,
            answer(tampered(CourseReasoningBlock(""), opaque={"wire": "w", "data": {}})),
            "response.message.content[0].opaque",
        ),
        (
            nothing,
            answer(tampered(CourseReasoningBlock(""), opaque=tampered(
                CourseOpaque("w", {}), data={"signature": "mutable dict"}))),
            "response.message.content[0].opaque.data",
        ),
        (
            nothing,
            answer(tampered(CourseVendorToolBlock("k", SIGNATURE), kind=b"k")),
            "response.message.content[0].kind",
        ),
        (
            nothing,
            answer(tampered(CourseTextBlock(""), citations=[SIGNATURE])),
            "response.message.content[0].citations",
        ),
        (
            nothing,
            answer(tampered(CourseTextBlock(""), citations=(SIGNATURE, {"url": "x"}))),
            "response.message.content[0].citations[1]",
        ),
        (
            nothing,
            answer(tampered(CourseTextBlock(""), opaque=tampered(
                CourseOpaque("w", {}), wire=None))),
            "response.message.content[0].opaque.wire",
        ),
        (
            nothing,
            usage_answer(reasoning_tokens=0.0),
            "response.usage.reasoning_tokens",
        ),
    ],
    ids=[
        "reasoning-delta-list",
        "opaque-dict",
        "opaque-mutable-data",
        "vendor-kind-bytes",
        "citations-list",
        "citation-dict",
        "opaque-wire-none",
        "usage-part-float",
    ],
)  # fmt: skip
async def test_mutable_or_foreign_rich_outputs_break_deeply_immutable(
    chunks: Callable[[str], list[object]], response: Callable[[str], Any], path: str
) -> None:
    error = await violation(lambda: Scripted(chunks, response))

    assert error.invariant is Invariant.DEEPLY_IMMUTABLE
    assert error.detail.startswith(f"{path} ")


async def test_an_image_in_an_answer_breaks_deeply_immutable_as_no_assistant_block() -> None:
    image = CourseImageBlock("image/png", data=b"\x89PNG")
    response = answer()

    def with_image(request_id: str) -> CourseModelResponse:
        made = response(request_id)
        tampered(made.message, content=(image,))
        return made

    error = await violation(lambda: Scripted(nothing, with_image))

    assert error.invariant is Invariant.DEEPLY_IMMUTABLE
    assert error.detail == (
        "response.message.content[0] is a CourseImageBlock, not an assistant block"
    )
