"""reply_chunks: a turn known up front plays as one batch, checked like the generator it is."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from typing import Any

import pytest

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
from course_scripted import (
    ScriptedModel,
    ScriptedModelError,
    ScriptedModelErrorCode,
    ScriptedResponseFactory,
    reply_chunks,
)
from course_scripted._turn import PrebuiltTurn
from course_stream import AbortController, AbortSignal
from tests.requests import request
from tests.streams import GUARD_SECONDS, read_all, settle
from tests.tasks import tasks_left

USAGE = CourseModelUsage(input_tokens=3, output_tokens=2)
CALL = CourseToolCall(id="call-1", name="add", arguments={"left": 1})


def delta(text: str, request_id: str = "request-1") -> CourseTextDeltaChunk:
    return CourseTextDeltaChunk(request_id=request_id, delta=text)


def answer(
    request_id: str = "request-1",
    *,
    stop_reason: CourseStopReason = CourseStopReason.STOP,
    content: tuple[Any, ...] = (CourseTextBlock(text="Hello"),),
) -> CourseModelResponse:
    return CourseModelResponse(
        id="response-1",
        request_id=request_id,
        message=CourseAssistantMessage(id="message-1", content=content),
        stop_reason=stop_reason,
        usage=USAGE,
    )


CHUNKS = (delta("Hel"), delta("lo"))
RESPONSE = answer()


def generator_of(items: Sequence[object]) -> ScriptedResponseFactory:
    """The async generator factory that yields ``items``: what a batch must play like."""

    async def turn(
        request: CourseModelRequest, signal: AbortSignal
    ) -> AsyncIterator[CourseModelChunk | CourseModelResponse]:
        for item in items:
            yield item  # type: ignore[misc]

    return turn


def batch_of(items: Sequence[object]) -> ScriptedResponseFactory:
    """A factory returning the turn type reply_chunks uses, over any items at all."""

    def turn(request: CourseModelRequest, signal: AbortSignal) -> PrebuiltTurn:
        return PrebuiltTurn(tuple(items))  # type: ignore[arg-type]

    return turn


async def outcome(factory: ScriptedResponseFactory) -> tuple[list[Any], Any]:
    """What one call delivers: its events, then the response or (code, message) of its failure."""
    settled = await settle(ScriptedModel([factory]).stream(request(), AbortController().signal))
    if settled.iteration_error is None:
        return settled.events, settled.response
    error = settled.failure
    assert type(error) is ScriptedModelError
    return settled.events, (error.code, str(error))


async def test_reply_chunks_streams_the_given_chunks_in_order_then_the_response_itself() -> None:
    settled = await settle(
        ScriptedModel([reply_chunks(CHUNKS, RESPONSE)]).stream(request(), AbortController().signal)
    )

    assert [chunk.delta for chunk in settled.events] == ["Hel", "lo"]  # type: ignore[union-attr]
    assert all(got is given for got, given in zip(settled.events, CHUNKS, strict=True))
    assert settled.response is RESPONSE


async def test_reply_chunks_plays_the_same_objects_on_every_call() -> None:
    factory = reply_chunks(
        [CHUNKS[0], CourseToolCallChunk("request-1", CALL)],
        answer(stop_reason=CourseStopReason.TOOL_CALL, content=(CALL,)),
    )
    model = ScriptedModel([factory, factory])

    first = await settle(model.stream(request(), AbortController().signal))
    second = await settle(model.stream(request(), AbortController().signal))

    assert first.events == second.events
    assert all(a is b for a, b in zip(first.events, second.events, strict=True))
    assert first.response is second.response
    assert model.pending_response_count == 0


SCRIPTS: dict[str, tuple[list[CourseModelChunk], CourseModelResponse]] = {
    "well formed": (list(CHUNKS), RESPONSE),
    "no chunks": ([], RESPONSE),
    "a chunk for another request": ([delta("a"), delta("b", "request-9"), delta("c")], RESPONSE),
    "the first chunk for another request": ([delta("a", "request-9")], RESPONSE),
    "every chunk for one other request": (
        [delta("a", "request-9"), delta("b", "request-9")],
        RESPONSE,
    ),
    "a Tool-call chunk for another request": (
        [delta("a"), CourseToolCallChunk("request-9", CALL)],
        RESPONSE,
    ),
    "the response for another request": (list(CHUNKS), answer("request-9")),
    "a response that disagrees with its stop reason": (
        list(CHUNKS),
        answer(stop_reason=CourseStopReason.TOOL_CALL),
    ),
}


@pytest.mark.parametrize("script", list(SCRIPTS))
async def test_reply_chunks_delivers_and_fails_exactly_as_the_generator_yielding_them(
    script: str,
) -> None:
    chunks, response = SCRIPTS[script]

    batch = await outcome(reply_chunks(chunks, response))

    assert batch == await outcome(generator_of([*chunks, response]))
    if script != "well formed" and script != "no chunks":
        assert isinstance(batch[1], tuple)


ODD = delta("odd", "request-9")
BATCHES: dict[str, list[object]] = {
    "a chunk after the response": [delta("a"), RESPONSE, delta("b")],
    "the same response object twice": [delta("a"), RESPONSE, RESPONSE],
    "two responses": [RESPONSE, answer()],
    "something that is no chunk": [delta("a"), {"delta": "b"}, RESPONSE],
    "no response at the end": [delta("a"), delta("b")],
    "nothing at all": [],
    "the same bad chunk object twice": [delta("a"), ODD, delta("b"), ODD, RESPONSE],
    "a good chunk object again after a bad one": [CHUNKS[0], ODD, CHUNKS[0], RESPONSE],
}


@pytest.mark.parametrize("items", list(BATCHES))
async def test_a_batch_that_breaks_the_contract_fails_as_the_generator_yielding_it_does(
    items: str,
) -> None:
    batch = await outcome(batch_of(BATCHES[items]))

    assert batch == await outcome(generator_of(BATCHES[items]))
    assert isinstance(batch[1], tuple)
    assert batch[1][0] in {
        ScriptedModelErrorCode.SCRIPT_INVALID_RESPONSE,
        ScriptedModelErrorCode.SCRIPT_REQUEST_MISMATCH,
    }


@pytest.mark.parametrize(
    ("chunks", "known"),
    [
        (list(CHUNKS), "request-1"),
        ([delta("a", "request-9"), delta("b", "request-9")], "request-9"),
        ([delta("a"), delta("b", "request-9")], None),
        ([], None),
    ],
)
def test_a_turn_knows_the_one_request_id_its_chunks_carry_only_while_untouched(
    chunks: list[CourseModelChunk], known: str | None
) -> None:
    factory = reply_chunks(chunks, RESPONSE)
    untouched = factory(request(), AbortController().signal)
    stepped = factory(request(), AbortController().signal)

    async def step() -> object:
        return await anext(stepped)

    asyncio.run(step())

    assert untouched.take_rest() == ((*chunks, RESPONSE), known)  # type: ignore[attr-defined]
    assert stepped.take_rest() == ((*chunks, RESPONSE)[1:], None)  # type: ignore[attr-defined]


def test_reply_chunks_snapshots_the_list_when_the_factory_is_made() -> None:
    chunks = list(CHUNKS)
    factory = reply_chunks(chunks, RESPONSE)
    chunks.append(delta("late"))
    chunks[0] = delta("changed")

    async def items() -> list[object]:
        return [item async for item in factory(request(), AbortController().signal)]

    assert asyncio.run(items()) == [*CHUNKS, RESPONSE]


class TextDeltaSubclass(CourseTextDeltaChunk):  # type: ignore[misc]
    """Looks like a text delta to isinstance, but is not the protocol's own type."""

    __slots__ = ()


@pytest.mark.parametrize(
    ("chunks", "response", "message"),
    [
        (iter(CHUNKS), RESPONSE, "chunks: expected a list or tuple of chunks, got tuple_iterator"),
        (CHUNKS[0], RESPONSE, "chunks: expected a list or tuple of chunks, got"),
        ([CHUNKS[0], RESPONSE], RESPONSE, "chunks[1]: expected a CourseTextDeltaChunk, "),
        ([TextDeltaSubclass("request-1", "x")], RESPONSE, "chunks[0]: expected"),
        (
            [None],
            RESPONSE,
            "chunks[0]: expected a CourseTextDeltaChunk, CourseToolCallChunk or "
            "CourseReasoningDeltaChunk, got NoneType",
        ),
        (CHUNKS, CHUNKS[0], "response: expected a CourseModelResponse, got CourseTextDelta"),
        (CHUNKS, None, "response: expected a CourseModelResponse, got NoneType"),
    ],
)
def test_reply_chunks_refuses_bad_values_when_the_factory_is_made(
    chunks: Any, response: Any, message: str
) -> None:
    with pytest.raises(TypeError) as raised:
        reply_chunks(chunks, response)

    assert str(raised.value).startswith(message)


async def test_the_turn_steps_like_the_generator_it_stands_for_and_closing_exhausts_it() -> None:
    factory = reply_chunks(CHUNKS, RESPONSE)
    signal = AbortController().signal

    whole = [item async for item in factory(request(), signal)]
    closed = factory(request(), signal)
    first = await anext(closed)
    await closed.aclose()  # type: ignore[attr-defined]

    assert whole == [*CHUNKS, RESPONSE]
    assert first is CHUNKS[0]
    assert [item async for item in closed] == []


async def test_only_what_is_left_of_a_turn_stepped_before_it_was_returned_is_played() -> None:
    turn = reply_chunks(CHUNKS, RESPONSE)(request(), AbortController().signal)
    assert await anext(turn) is CHUNKS[0]

    events, response = await outcome(lambda request, signal: turn)

    assert events == [CHUNKS[1]]
    assert response is RESPONSE


async def test_a_turn_returned_by_two_factories_serves_only_the_first_call() -> None:
    turn = reply_chunks(CHUNKS, RESPONSE)(request(), AbortController().signal)
    model = ScriptedModel([lambda request, signal: turn, lambda request, signal: turn])

    first = await settle(model.stream(request(), AbortController().signal))
    second = await settle(model.stream(request(), AbortController().signal))

    assert first.events == list(CHUNKS)
    assert first.response is RESPONSE
    assert second.events == []
    failure = second.failure
    assert type(failure) is ScriptedModelError
    assert failure.code is ScriptedModelErrorCode.SCRIPT_ITERATOR_REUSED


async def test_a_factory_that_aborts_the_signal_as_it_returns_the_turn_publishes_nothing() -> None:
    controller = AbortController()
    reason = RuntimeError("aborted by the factory")
    base = reply_chunks(CHUNKS, RESPONSE)

    def factory(request: CourseModelRequest, signal: AbortSignal) -> Any:
        turn = base(request, signal)
        controller.abort(reason)
        return turn

    model = ScriptedModel([factory])
    settled = await settle(model.stream(request(), controller.signal))

    assert settled.events == []
    assert settled.failure is reason
    assert await tasks_left() == set()


async def test_an_abort_after_the_turn_played_in_its_one_step_changes_nothing() -> None:
    # Like a short fixture array: the batch is published and the stream
    # settled in the producer's first step, so a later abort is too late.
    controller = AbortController()
    stream = ScriptedModel([reply_chunks(CHUNKS, RESPONSE)]).stream(request(), controller.signal)
    iterator = aiter(stream)
    first = await asyncio.wait_for(anext(iterator), GUARD_SECONDS)

    controller.abort(RuntimeError("too late"))

    assert [first, *await read_all(iterator)] == list(CHUNKS)
    assert await asyncio.wait_for(stream.result, GUARD_SECONDS) is RESPONSE
    assert await tasks_left() == set()


async def test_an_abort_before_the_turn_plays_fails_with_the_reason_and_keeps_it_queued() -> None:
    controller = AbortController()
    model = ScriptedModel([reply_chunks(CHUNKS, RESPONSE)])
    stream = model.stream(request(), controller.signal)
    reason = RuntimeError("aborted before the producer ran")
    controller.abort(reason)

    settled = await settle(stream)

    assert settled.events == []
    assert settled.failure is reason
    assert model.pending_response_count == 1
