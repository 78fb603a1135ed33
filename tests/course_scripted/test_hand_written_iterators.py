"""A factory's hand-written async iterator is closed and claimed like an async generator is."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from course_protocol import (
    CourseAssistantMessage,
    CourseModelRequest,
    CourseModelResponse,
    CourseModelUsage,
    CourseStopReason,
    CourseTextBlock,
    CourseTextDeltaChunk,
)
from course_scripted import ScriptedModel, ScriptedModelError, ScriptedModelErrorCode
from course_stream import AbortController, AbortSignal
from tests.requests import request
from tests.streams import GUARD_SECONDS, settle
from tests.tasks import tasks_left

RESPONSE = CourseModelResponse(
    id="response-1",
    request_id="request-1",
    message=CourseAssistantMessage(id="message-1", content=(CourseTextBlock(text="ok"),)),
    stop_reason=CourseStopReason.STOP,
    usage=CourseModelUsage(input_tokens=1, output_tokens=1),
)
CHUNK = CourseTextDeltaChunk(request_id="request-1", delta="a")


class ClosableSteps:
    """A hand-written async iterator over ``items`` that counts its ``aclose`` calls.

    An item ``"hold"`` parks the step until the test aborts.
    """

    def __init__(self, *items: object) -> None:
        self.items = list(items)
        self.closed = 0
        self.held = asyncio.Event()

    def __aiter__(self) -> ClosableSteps:
        return self

    async def __anext__(self) -> object:
        if not self.items:
            raise StopAsyncIteration
        item = self.items.pop(0)
        if item == "hold":
            self.held.set()
            await asyncio.Event().wait()
        return item

    async def aclose(self) -> None:
        self.closed += 1


class FailingClose(ClosableSteps):
    """Its ``aclose`` raises: the error is dropped, the stream keeps its own failure."""

    async def aclose(self) -> None:
        await super().aclose()
        raise OSError("close broke")


def returning(steps: ClosableSteps) -> Any:
    """A factory that returns ``steps`` itself, every time."""

    def factory(request: CourseModelRequest, signal: AbortSignal) -> ClosableSteps:
        return steps

    return factory


def code_of(error: BaseException) -> ScriptedModelErrorCode:
    assert type(error) is ScriptedModelError
    return error.code


@pytest.mark.parametrize("kind", [ClosableSteps, FailingClose])
async def test_an_iterator_stopped_by_a_bad_item_is_closed_after_the_stream_failed(
    kind: type[ClosableSteps],
) -> None:
    steps = kind(CHUNK, "not a chunk", RESPONSE)

    settled = await settle(
        ScriptedModel([returning(steps)]).stream(request(), AbortController().signal)
    )

    assert settled.events == [CHUNK]
    assert code_of(settled.failure) is ScriptedModelErrorCode.SCRIPT_INVALID_RESPONSE
    assert steps.closed == 1
    assert steps.items == [RESPONSE]


async def test_an_iterator_held_at_a_step_is_closed_when_the_call_is_aborted() -> None:
    steps = ClosableSteps(CHUNK, "hold", RESPONSE)
    controller = AbortController()
    stream = ScriptedModel([returning(steps)]).stream(request(), controller.signal)
    reason = RuntimeError("stop")

    reader = asyncio.ensure_future(settle(stream))
    await asyncio.wait_for(steps.held.wait(), GUARD_SECONDS)
    controller.abort(reason)
    settled = await reader

    assert settled.events == [CHUNK]
    assert settled.failure is reason
    assert steps.closed == 1
    assert await tasks_left() == set()


async def test_an_iterator_played_to_its_end_is_not_closed() -> None:
    steps = ClosableSteps(CHUNK, RESPONSE)

    settled = await settle(
        ScriptedModel([returning(steps)]).stream(request(), AbortController().signal)
    )

    assert settled.response is RESPONSE
    assert steps.closed == 0


async def test_one_hand_written_iterator_returned_twice_serves_only_the_first_call() -> None:
    steps = ClosableSteps(CHUNK, RESPONSE)
    model = ScriptedModel([returning(steps), returning(steps)])

    first = await settle(model.stream(request(), AbortController().signal))
    second = await settle(model.stream(request(), AbortController().signal))

    assert (first.events, first.response) == ([CHUNK], RESPONSE)
    assert second.events == []
    assert code_of(second.failure) is ScriptedModelErrorCode.SCRIPT_ITERATOR_REUSED
    # Refused, so left alone: the call that owns it decides about closing it.
    assert steps.closed == 0
