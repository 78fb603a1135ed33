"""Record once, replay forever: any script recorded through FixtureRecorder replays
through FixtureProviderAdapter as the same normalized chunks and responses, call by call.
"""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

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
    JsonObject,
    freeze_json_object,
    is_blank,
)
from course_provider_fixture import (
    FixtureProviderAdapter,
    FixtureProviderError,
    FixtureProviderErrorCode,
    FixtureRecorder,
    load_fixture,
)
from course_scripted import ScriptedModel, ScriptedResponseFactory, reply_error
from course_stream import AbortController, AbortSignal
from tests.requests import request
from tests.streams import settle

ids = st.text(min_size=1, max_size=12).filter(lambda text: not is_blank(text))
json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**53), max_value=2**53)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=10)
)
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=12,
)
arguments = st.dictionaries(st.text(max_size=6), json_values, max_size=4).map(
    lambda value: freeze_json_object(value).unwrap()
)


@dataclass(frozen=True)
class Turn:
    """One scripted call: chunk parts in order, then a response, or an error instead."""

    parts: tuple[str | tuple[str, str, JsonObject], ...]
    response_id: str
    usage: CourseModelUsage
    error: str | None


@st.composite
def turns(draw: st.DrawFn) -> Turn:
    call_ids = draw(st.lists(ids, unique=True, max_size=3))
    calls = [(call_id, draw(ids), draw(arguments)) for call_id in call_ids]
    texts = draw(st.lists(st.text(max_size=8), max_size=4))
    parts: list[str | tuple[str, str, JsonObject]] = [*texts, *calls]
    order = draw(st.permutations(range(len(parts))))
    return Turn(
        parts=tuple(parts[index] for index in order),
        response_id=draw(ids),
        usage=CourseModelUsage(
            input_tokens=draw(st.integers(0, 2**53 - 1)),
            output_tokens=draw(st.integers(0, 2**53 - 1)),
        ),
        error=draw(st.none() | st.text(max_size=10)),
    )


def factory_for(turn: Turn) -> ScriptedResponseFactory:
    if turn.error is not None:
        return reply_error(RuntimeError(turn.error))

    async def play(
        request: CourseModelRequest, signal: AbortSignal
    ) -> AsyncIterator[CourseModelChunk | CourseModelResponse]:
        content: list[CourseTextBlock | CourseToolCall] = []
        for part in turn.parts:
            if isinstance(part, str):
                content.append(CourseTextBlock(text=part))
                yield CourseTextDeltaChunk(request_id=request.id, delta=part)
            else:
                call = CourseToolCall(id=part[0], name=part[1], arguments=part[2])
                content.append(call)
                yield CourseToolCallChunk(request_id=request.id, tool_call=call)
        has_calls = any(isinstance(block, CourseToolCall) for block in content)
        yield CourseModelResponse(
            id=turn.response_id,
            request_id=request.id,
            # The wire carries no message id: replay names it message-<response id>.
            message=CourseAssistantMessage(
                id=f"message-{turn.response_id}", content=tuple(content)
            ),
            stop_reason=CourseStopReason.TOOL_CALL if has_calls else CourseStopReason.STOP,
            usage=turn.usage,
        )

    return play


Outcome = tuple[list[CourseModelChunk], CourseModelResponse | BaseException]


async def call_all(
    model: ScriptedModel | FixtureRecorder | FixtureProviderAdapter, n: int
) -> list[Outcome]:
    outcomes: list[Outcome] = []
    for index in range(n):
        stream = model.stream(request(f"request-{index}", message_id="u"), AbortController().signal)
        settled = await settle(stream)
        outcomes.append((settled.events, settled.outcome))
    return outcomes


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(script=st.lists(turns(), max_size=4), extra_calls=st.integers(0, 1))
def test_recorded_scripts_replay_as_identical_chunks_and_responses(
    script: list[Turn], extra_calls: int
) -> None:
    calls = len(script) + extra_calls  # an extra call records the exhausted script too

    async def record_and_replay() -> tuple[list[Outcome], list[Outcome]]:
        recorder = FixtureRecorder(ScriptedModel([factory_for(turn) for turn in script]))
        recorded = await call_all(recorder, calls)
        with tempfile.TemporaryDirectory() as directory:
            path = Path(directory) / "recorded.json"
            recorder.write(path)
            replayed = await call_all(FixtureProviderAdapter(load_fixture(path).unwrap()), calls)
        return recorded, replayed

    recorded, replayed = asyncio.run(record_and_replay(), debug=True)

    assert len(replayed) == len(recorded) == calls
    for (recorded_chunks, recorded_outcome), (replayed_chunks, replayed_outcome) in zip(
        recorded, replayed, strict=True
    ):
        assert replayed_chunks == recorded_chunks
        if isinstance(recorded_outcome, CourseModelResponse):
            assert replayed_outcome == recorded_outcome
        else:
            assert isinstance(replayed_outcome, FixtureProviderError)
            assert replayed_outcome.code is FixtureProviderErrorCode.PROVIDER_TRANSPORT_ERROR
            assert replayed_outcome.provider_code == str(
                getattr(recorded_outcome, "code", type(recorded_outcome).__qualname__)
            )
