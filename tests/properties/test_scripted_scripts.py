"""Arbitrary scripts of ScriptedModel factories against an independent model of the outcome.

A script is a queue of factories (async generators made of steps: chunks,
waits, raised errors, an abort from inside the turn, contract breaches, and
one of several endings; or factories that raise, return no iterator, or hand
out one iterator twice) played by calls that may be pre-aborted, run
concurrently, consume in different orders and abort from the consumer side
after a chosen chunk. For every call the stream settles exactly once,
iteration and result agree on the response or on the same error object, and
the queue count is right afterwards.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator
from typing import Any

from hypothesis import event, given
from hypothesis import strategies as st

import course_scripted._model
from course_protocol import (
    CourseAssistantMessage,
    CourseModelChunk,
    CourseModelRequest,
    CourseModelResponse,
    CourseModelUsage,
    CourseStopReason,
    CourseTextBlock,
    CourseTextDeltaChunk,
    CourseToolCall,
    CourseToolCallChunk,
)
from course_scripted import ScriptedModel, ScriptedModelError, ScriptedModelErrorCode
from course_stream import AbortController, AbortSignal, EventStream
from tests.properties.runner import run_example
from tests.properties.settling import counting_streams
from tests.requests import request

Stream = EventStream[CourseModelChunk, CourseModelResponse]
Code = ScriptedModelErrorCode
USAGE = CourseModelUsage(input_tokens=3, output_tokens=4)


class FactoryError(Exception):
    """Raised by a scripted turn; must reach iteration and result as the same object."""


class AbortReasonError(Exception):
    """The reason a call was aborted with; identity tells which abort won."""


@dataclasses.dataclass
class Chunk:
    kind: str


@dataclasses.dataclass
class Wait:
    kind: str


@dataclasses.dataclass
class Raise:
    error: FactoryError = dataclasses.field(default_factory=lambda: FactoryError("scripted"))


@dataclasses.dataclass
class AbortHere:
    pass


@dataclasses.dataclass
class MismatchedChunk:
    pass


@dataclasses.dataclass
class NotAChunk:
    pass


Step = Chunk | Wait | Raise | AbortHere | MismatchedChunk | NotAChunk
ENDINGS = ("stop", "tool_call", "extra_after", "mismatched", "inconsistent", "none")


@dataclasses.dataclass(frozen=True)
class Expected:
    """What a played factory must produce, derived from the plan alone."""

    chunks: int
    response: bool = False
    error: BaseException | None = None
    code: ScriptedModelErrorCode | None = None
    aborted_from_inside: bool = False


class Call:
    """One model call of the example: its controller, abort reasons and consumer plan."""

    def __init__(self, index: int, pre_aborted: bool, abort_after: int | None, mode: str) -> None:
        self.request = request(f"request-{index}", message_id=f"m-{index}")
        self.controller = AbortController()
        self.inside_reason = AbortReasonError(f"aborted inside call {index}")
        self.consumer_reason = AbortReasonError(f"aborted by the consumer of call {index}")
        self.pre_aborted = pre_aborted
        if pre_aborted:
            self.controller.abort(AbortReasonError(f"call {index} was aborted before it started"))
        self.abort_after = abort_after
        self.mode = mode


class TurnPlan:
    """A factory that plays ``steps`` then ``ending``, recording what it yielded."""

    def __init__(self, steps: list[Step], ending: str) -> None:
        self.steps = steps
        self.ending = ending
        self.calls: dict[str, Call] = {}
        self.yielded: list[object] = []
        self.response: CourseModelResponse | None = None
        self.started = False
        self.finally_ran = False

    def expected(self) -> Expected:
        chunks = 0
        for step in self.steps:
            if isinstance(step, Chunk):
                chunks += 1
            elif isinstance(step, Raise):
                return Expected(chunks, error=step.error)
            elif isinstance(step, AbortHere):
                return Expected(chunks, aborted_from_inside=True)
            elif isinstance(step, MismatchedChunk):
                return Expected(chunks, code=Code.SCRIPT_REQUEST_MISMATCH)
            elif isinstance(step, NotAChunk):
                return Expected(chunks, code=Code.SCRIPT_INVALID_RESPONSE)
        if self.ending in ("stop", "tool_call"):
            return Expected(chunks, response=True)
        if self.ending == "mismatched":
            return Expected(chunks, code=Code.SCRIPT_REQUEST_MISMATCH)
        return Expected(chunks, code=Code.SCRIPT_INVALID_RESPONSE)

    def __call__(self, request: CourseModelRequest, signal: AbortSignal) -> AsyncIterator[object]:
        return self.turn(request)

    async def turn(self, request: CourseModelRequest) -> AsyncIterator[object]:
        self.started = True
        try:
            for step in self.steps:
                if isinstance(step, Chunk):
                    yield self._record(_chunk(step.kind, request.id, len(self.yielded)))
                elif isinstance(step, Wait):
                    await _wait(step.kind)
                elif isinstance(step, Raise):
                    raise step.error
                elif isinstance(step, AbortHere):
                    call = self.calls[request.id]
                    call.controller.abort(call.inside_reason)
                elif isinstance(step, MismatchedChunk):
                    yield _chunk("text", f"not-{request.id}", -1)
                else:
                    yield "not a chunk"
            if self.ending == "none":
                return
            self.response = _response(request.id, self.ending)
            yield self.response
            if self.ending == "extra_after":
                yield _chunk("text", request.id, -1)
        finally:
            self.finally_ran = True

    def _record(self, chunk: CourseModelChunk) -> CourseModelChunk:
        self.yielded.append(chunk)
        return chunk


class RaisesWhenCalled:
    """A factory that raises before returning anything."""

    def __init__(self) -> None:
        self.error = FactoryError("raised by the factory call itself")

    def expected(self) -> Expected:
        return Expected(0, error=self.error)

    def __call__(self, request: CourseModelRequest, signal: AbortSignal) -> object:
        raise self.error


class ReturnsAList:
    """A factory that returns a list, not an async iterator."""

    def expected(self) -> Expected:
        return Expected(0, code=Code.SCRIPT_INVALID_RESPONSE)

    def __call__(self, request: CourseModelRequest, signal: AbortSignal) -> object:
        return []


class HandsOutOneIterator:
    """Queued twice: the first call plays its one iterator, the second is refused."""

    def __init__(self, plan: TurnPlan) -> None:
        self.plan = plan
        self.iterator: AsyncIterator[object] | None = None
        self.played = 0

    def expected(self) -> Expected:
        self.played += 1
        if self.played == 1:
            return self.plan.expected()
        return Expected(0, code=Code.SCRIPT_ITERATOR_REUSED)

    def __call__(self, request: CourseModelRequest, signal: AbortSignal) -> AsyncIterator[object]:
        if self.iterator is None:
            self.iterator = self.plan.turn(request)
        return self.iterator


Factory = TurnPlan | RaisesWhenCalled | ReturnsAList | HandsOutOneIterator


def _chunk(kind: str, request_id: str, n: int) -> CourseModelChunk:
    if kind == "text":
        return CourseTextDeltaChunk(request_id=request_id, delta=f"delta {n}")
    call = CourseToolCall(id=f"call-{n}", name="add", arguments={"n": n})
    return CourseToolCallChunk(request_id=request_id, tool_call=call)


async def _wait(kind: str) -> None:
    if kind == "turn":
        await asyncio.sleep(0)
        return
    future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    asyncio.get_running_loop().call_soon(_resolve, future)
    await future


def _resolve(future: asyncio.Future[None]) -> None:
    # The wait may have been cancelled by an abort before this callback runs.
    if not future.done():
        future.set_result(None)


def _response(request_id: str, ending: str) -> CourseModelResponse:
    tool = CourseToolCall(id="call-final", name="add", arguments={})
    content: tuple[Any, ...] = (CourseTextBlock(text="done"),)
    stop = CourseStopReason.STOP
    if ending == "tool_call":
        content, stop = (tool,), CourseStopReason.TOOL_CALL
    elif ending == "inconsistent":
        content = (tool,)
    return CourseModelResponse(
        id=f"response-{request_id}",
        request_id=f"other-{request_id}" if ending == "mismatched" else request_id,
        message=CourseAssistantMessage(id=f"message-{request_id}", content=content),
        stop_reason=stop,
        usage=USAGE,
    )


steps = st.lists(
    st.one_of(
        st.builds(Chunk, st.sampled_from(["text", "tool"])),
        st.builds(Wait, st.sampled_from(["turn", "future"])),
        st.builds(Raise),
        st.builds(AbortHere),
        st.builds(MismatchedChunk),
        st.builds(NotAChunk),
    ),
    max_size=8,
)
turn_plans = st.builds(TurnPlan, steps, st.sampled_from(ENDINGS))
factories: st.SearchStrategy[Factory] = st.one_of(
    turn_plans,
    turn_plans,
    st.builds(RaisesWhenCalled),
    st.builds(ReturnsAList),
    st.builds(HandsOutOneIterator, turn_plans),
)
call_plans = st.lists(
    st.tuples(
        st.booleans() | st.just(False),
        st.none() | st.integers(min_value=1, max_value=4),
        st.sampled_from(["iterate", "result-then-iterate", "result"]),
    ),
    max_size=8,
)


def _queue(plan: list[Factory]) -> list[Factory]:
    queue: list[Factory] = []
    for factory in plan:
        queue.append(factory)
        if isinstance(factory, HandsOutOneIterator):
            queue.append(factory)
    return queue


async def consume(call: Call, stream: Stream) -> tuple[list[CourseModelChunk], object, object]:
    """Read the stream as ``call.mode`` says; return (chunks, iteration end, result)."""
    if call.mode == "iterate":
        chunks, ended = await iterate(call, stream)
        return chunks, ended, await outcome_of(stream)
    result = await outcome_of(stream)
    if call.mode == "result":
        return [], result, result
    chunks, ended = await iterate(call, stream)
    return chunks, ended, result


async def iterate(call: Call, stream: Stream) -> tuple[list[CourseModelChunk], object]:
    chunks: list[CourseModelChunk] = []
    try:
        async for chunk in stream:
            chunks.append(chunk)
            if len(chunks) == call.abort_after:
                call.controller.abort(call.consumer_reason)
    except Exception as error:
        return chunks, error
    return chunks, None


async def outcome_of(stream: Stream) -> object:
    try:
        return await stream.result
    except Exception as error:
        return error


async def play(plan: list[Factory], calls: list[Call], concurrently: bool) -> None:
    queue = _queue(plan)
    for factory in queue:
        if isinstance(factory, TurnPlan | HandsOutOneIterator):
            turn = factory if isinstance(factory, TurnPlan) else factory.plan
            turn.calls = {call.request.id: call for call in calls}
    model = ScriptedModel(queue)  # type: ignore[arg-type]
    with counting_streams(course_scripted._model) as made:
        if concurrently:
            streams = [model.stream(call.request, call.controller.signal) for call in calls]
            seen = await asyncio.gather(*map(consume, calls, streams))
        else:
            seen = []
            streams = []
            for call in calls:
                streams.append(model.stream(call.request, call.controller.signal))
                seen.append(await consume(call, streams[-1]))
    assert made == streams
    started = 0
    for call, stream, (chunks, ended, result) in zip(calls, streams, seen, strict=True):
        assert stream.done
        assert made[calls.index(call)].terminal_calls == 1
        if call.pre_aborted:
            assert result is call.controller.signal.reason
            assert ended is result
            assert chunks == []
            continue
        if started == len(queue):
            assert type(result) is ScriptedModelError
            assert result.code is Code.SCRIPT_EXHAUSTED
            assert chunks == []
            continue
        factory = queue[started]
        started += 1
        check_call(call, factory, factory.expected(), chunks, ended, result)
    assert model.call_count == len(calls)
    assert model.requests == tuple(call.request for call in calls)
    assert model.pending_response_count == len(queue) - started
    for queued in queue:
        played = queued.plan if isinstance(queued, HandsOutOneIterator) else queued
        if isinstance(played, TurnPlan) and played.started:
            assert played.finally_ran, "a factory's turn was left open"


def check_call(
    call: Call,
    factory: Factory,
    expected: Expected,
    chunks: list[CourseModelChunk],
    ended: object,
    result: object,
) -> None:
    turn = factory.plan if isinstance(factory, HandsOutOneIterator) else factory
    yielded = turn.yielded if isinstance(turn, TurnPlan) else []
    published = yielded[: expected.chunks]
    if expected.code is Code.SCRIPT_ITERATOR_REUSED:
        published = []
    consumer_won = result is call.consumer_reason
    event(f"{call.mode}: " + ("consumer abort" if consumer_won else type(result).__name__))
    if call.mode != "result":
        # Iteration and result agree: the iteration ends cleanly exactly when the
        # result is a response, and otherwise raises that very object.
        assert ended is (None if isinstance(result, CourseModelResponse) else result)
        assert all(a is b for a, b in zip(chunks, published, strict=False))
        if consumer_won:
            assert call.abort_after is not None
            assert call.abort_after <= len(chunks) <= len(published)
            return
        assert len(chunks) == len(published)
    elif consumer_won:
        raise AssertionError("nobody read a chunk, so the consumer cannot have aborted")
    if expected.response:
        assert isinstance(turn, TurnPlan)
        assert result is turn.response
    elif expected.error is not None:
        assert result is expected.error
    elif expected.aborted_from_inside:
        assert result is call.inside_reason
    else:
        assert type(result) is ScriptedModelError
        assert result.code is expected.code


@given(
    plan=st.lists(factories, max_size=6),
    call_plan=call_plans,
    concurrently=st.booleans(),
)
def test_every_scripted_stream_settles_once_and_iteration_agrees_with_result(
    plan: list[Factory],
    call_plan: list[tuple[bool, int | None, str]],
    concurrently: bool,
) -> None:
    calls = [
        Call(index, pre_aborted, abort_after, mode)
        for index, (pre_aborted, abort_after, mode) in enumerate(call_plan)
    ]
    run_example(lambda: play(plan, calls, concurrently))
