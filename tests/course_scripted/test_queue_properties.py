"""Properties of the queue over arbitrary mixes of played, aborted and exhausted calls."""

from __future__ import annotations

import asyncio

from hypothesis import given, settings
from hypothesis import strategies as st

from course_protocol import (
    CourseModelResponse,
    CourseModelUsage,
)
from course_scripted import ScriptedModel, ScriptedModelError, ScriptedModelErrorCode, reply_text
from course_stream import AbortController, AbortError, AbortSignal
from tests.requests import request

USAGE = CourseModelUsage(input_tokens=0, output_tokens=0)


async def run_calls(queued: int, aborted: list[bool]) -> None:
    model = ScriptedModel(
        [
            reply_text(str(n), response_id=f"response-{n}", message_id=f"m-{n}", usage=USAGE)
            for n in range(queued)
        ]
    )
    next_factory = 0
    for index, pre_aborted in enumerate(aborted):
        signal = AbortSignal.aborted_signal() if pre_aborted else AbortController().signal
        stream = model.stream(request(f"request-{index}"), signal)
        outcome: object
        try:
            outcome = await stream.result
        except (AbortError, ScriptedModelError) as error:
            outcome = error
        if pre_aborted:
            assert outcome is signal.reason
        elif next_factory == queued:
            assert isinstance(outcome, ScriptedModelError)
            assert outcome.code is ScriptedModelErrorCode.SCRIPT_EXHAUSTED
        else:
            assert isinstance(outcome, CourseModelResponse)
            assert outcome.id == f"response-{next_factory}"
            assert outcome.request_id == f"request-{index}"
            next_factory += 1
        assert model.pending_response_count == queued - next_factory

    assert model.call_count == len(aborted)
    assert [r.id for r in model.requests] == [f"request-{i}" for i in range(len(aborted))]


@settings(max_examples=60, deadline=None)
@given(queued=st.integers(min_value=0, max_value=5), aborted=st.lists(st.booleans(), max_size=10))
def test_only_calls_that_start_production_consume_factories_in_order(
    queued: int, aborted: list[bool]
) -> None:
    asyncio.run(run_calls(queued, aborted), debug=True)
