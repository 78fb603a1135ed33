"""Both adapters pass the conformance kit over several scripts and fixtures.

Scripts and record sources that yield to the loop between steps make the
abort scenarios land mid-stream; ones that wait forever after a chunk prove
an abort interrupts a pending step. Each case also pins what the complete
scenario produced, so a kit that stopped looking would be noticed.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable

import pytest

from course_conformance import Scenario, assert_conforms, check_scenario
from course_protocol import (
    CourseAssistantMessage,
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
    freeze_json_object,
)
from course_provider_fixture import (
    FixtureProviderAdapter,
    FixtureProviderError,
    FixtureProviderErrorCode,
)
from course_scripted import (
    ScriptedModel,
    ScriptedModelError,
    ScriptedModelErrorCode,
    ScriptedResponseFactory,
    reply_error,
    reply_text,
    reply_tool_call,
)
from course_stream import AbortError, AbortSignal
from tests.course_provider_fixture.records import (
    ROUNDTRIP_FIXTURE,
    end,
    fixture,
    start,
    text,
    tool_call,
    transport_error,
)
from tests.requests import request

REQUEST = request("request-kit-001", "Add 20 and 22.", message_id="message-user-001")
USAGE = CourseModelUsage(input_tokens=12, output_tokens=8)
ABORT_SCENARIOS = (
    Scenario.PRE_ABORTED,
    Scenario.ABORT_BEFORE_FIRST_CHUNK,
    Scenario.ABORT_AFTER_FIRST_CHUNK,
)


def paced_factory() -> ScriptedResponseFactory:
    """Two text deltas and a Tool call, yielding to the loop before each step."""
    call = CourseToolCall(
        id="call-add-001",
        name="add",
        arguments=freeze_json_object({"left": 20, "right": 22}).unwrap(),
    )

    async def turn(
        request: CourseModelRequest, signal: AbortSignal
    ) -> AsyncIterator[CourseModelChunk | CourseModelResponse]:
        for delta in ("Adding ", "now."):
            await asyncio.sleep(0)
            yield CourseTextDeltaChunk(request_id=request.id, delta=delta)
        await asyncio.sleep(0)
        yield CourseToolCallChunk(request_id=request.id, tool_call=call)
        await asyncio.sleep(0)
        yield CourseModelResponse(
            id="response-paced-001",
            request_id=request.id,
            message=CourseAssistantMessage(
                id="message-paced-001",
                content=(CourseTextBlock(text="Adding now."), call),
            ),
            stop_reason=CourseStopReason.TOOL_CALL,
            usage=USAGE,
        )

    return turn


SIGNATURE = CourseOpaque("anthropic-messages", {"signature": "EqQBCkYIBxgC"})
RICH_USAGE = CourseModelUsage(
    input_tokens=120,
    output_tokens=40,
    cache_read_tokens=90,
    cache_write_tokens=20,
    reasoning_tokens=30,
)


def rich_paced_factory() -> ScriptedResponseFactory:
    """Reasoning deltas, a server tool, cited text cut by the output limit; it yields between."""
    message = CourseAssistantMessage(
        id="message-rich-001",
        content=(
            CourseReasoningBlock("Search, then answer.", opaque=SIGNATURE),
            CourseVendorToolBlock("server_tool_use", SIGNATURE),
            CourseVendorToolBlock("web_search_tool_result", SIGNATURE),
            CourseTextBlock("The sum is", citations=(SIGNATURE,)),
        ),
    )

    async def turn(
        request: CourseModelRequest, signal: AbortSignal
    ) -> AsyncIterator[CourseModelChunk | CourseModelResponse]:
        for delta in ("Search, ", "then answer."):
            await asyncio.sleep(0)
            yield CourseReasoningDeltaChunk(request_id=request.id, delta=delta)
        await asyncio.sleep(0)
        yield CourseTextDeltaChunk(request_id=request.id, delta="The sum is")
        await asyncio.sleep(0)
        yield CourseModelResponse(
            id="response-rich-001",
            request_id=request.id,
            message=message,
            stop_reason=CourseStopReason.LENGTH,
            usage=RICH_USAGE,
        )

    return turn


def stalling_factory() -> ScriptedResponseFactory:
    """One text delta, then a step that never completes unless something interrupts it."""

    async def turn(
        request: CourseModelRequest, signal: AbortSignal
    ) -> AsyncIterator[CourseModelChunk | CourseModelResponse]:
        yield CourseTextDeltaChunk(request_id=request.id, delta="Thinking")
        await asyncio.Event().wait()
        raise AssertionError("the stalled step was never interrupted")

    return turn


SCRIPTS: dict[str, Callable[[], list[ScriptedResponseFactory]]] = {
    "text": lambda: [
        reply_text("The sum is 42.", response_id="r-1", message_id="m-1", usage=USAGE)
    ],
    "tool-call": lambda: [
        reply_tool_call(
            "call-add-001",
            "add",
            {"left": 20, "right": 22, "nested": {"items": [1, 2.5, None, True]}},
            response_id="r-1",
            message_id="m-1",
            usage=USAGE,
        )
    ],
    "paced": lambda: [paced_factory()],
    "thinking-tool-call": lambda: [
        reply_tool_call(
            "call-add-001",
            "add",
            {"left": 20, "right": 22},
            response_id="r-1",
            message_id="m-1",
            usage=RICH_USAGE,
            reasoning=CourseReasoningBlock("Add them.", opaque=SIGNATURE),
        )
    ],
    "refusal": lambda: [
        reply_text(
            "I can't help with that.",
            response_id="r-1",
            message_id="m-1",
            usage=USAGE,
            stop_reason=CourseStopReason.REFUSAL,
            reasoning=CourseReasoningBlock("", opaque=SIGNATURE),
        )
    ],
    "rich-paced": lambda: [rich_paced_factory()],
}


@pytest.mark.parametrize("script", sorted(SCRIPTS))
async def test_scripted_model_conforms_on_every_scenario(script: str) -> None:
    report = await assert_conforms(lambda: ScriptedModel(SCRIPTS[script]()), REQUEST)

    complete = report.result_for(Scenario.COMPLETE)
    assert complete.error is None
    assert complete.response is not None
    assert complete.response.request_id == REQUEST.id
    assert complete.chunks
    assert [result.scenario for result in report.results] == list(Scenario)
    for scenario in (Scenario.PRE_ABORTED, Scenario.ABORT_BEFORE_FIRST_CHUNK):
        assert report.result_for(scenario).abort_landed
        assert report.result_for(scenario).response is None


async def test_a_scripted_model_derived_with_with_config_conforms_and_records_its_options() -> None:
    origins: list[ScriptedModel] = []

    def derived() -> ScriptedModel:
        origin = ScriptedModel(SCRIPTS["paced"]())
        origins.append(origin)
        return origin.with_config(temperature=0.2)

    report = await assert_conforms(derived, REQUEST)

    assert [result.scenario for result in report.results] == list(Scenario)
    calls = [call for origin in origins for call in origin.calls]
    assert len(calls) >= len(Scenario)
    assert {call.request.id for call in calls} == {REQUEST.id}
    assert all(call.options == {"temperature": 0.2} for call in calls)


async def test_a_paced_rich_script_is_interrupted_after_its_first_reasoning_delta() -> None:
    report = await assert_conforms(lambda: ScriptedModel([rich_paced_factory()]), REQUEST)

    complete = report.result_for(Scenario.COMPLETE)
    assert complete.response is not None
    assert complete.response.stop_reason is CourseStopReason.LENGTH
    assert complete.response.usage is RICH_USAGE
    aborted = report.result_for(Scenario.ABORT_AFTER_FIRST_CHUNK)
    assert aborted.abort_landed
    assert aborted.chunks == (CourseReasoningDeltaChunk(request_id=REQUEST.id, delta="Search, "),)


async def test_paced_script_is_interrupted_after_its_first_chunk() -> None:
    report = await assert_conforms(lambda: ScriptedModel([paced_factory()]), REQUEST)

    aborted = report.result_for(Scenario.ABORT_AFTER_FIRST_CHUNK)
    assert aborted.abort_landed
    assert aborted.response is None
    assert isinstance(aborted.error, Exception)
    assert [type(chunk) for chunk in aborted.chunks] == [CourseTextDeltaChunk]


async def test_scripted_model_abort_interrupts_a_step_that_would_never_finish() -> None:
    report = await assert_conforms(
        lambda: ScriptedModel([stalling_factory()]), REQUEST, scenarios=ABORT_SCENARIOS
    )

    assert all(result.abort_landed for result in report.results)
    assert report.result_for(Scenario.ABORT_AFTER_FIRST_CHUNK).chunks == (
        CourseTextDeltaChunk(request_id=REQUEST.id, delta="Thinking"),
    )


SLOW_CLEANUP_TURNS = 500


def slow_cleanup_factory(cleaned: list[int]) -> ScriptedResponseFactory:
    """A text delta, then a Tool step whose ``finally`` takes 500 loop turns to clean up."""

    async def turn(
        request: CourseModelRequest, signal: AbortSignal
    ) -> AsyncIterator[CourseModelChunk | CourseModelResponse]:
        yield CourseTextDeltaChunk(request_id=request.id, delta="Calling add")
        try:
            await asyncio.Event().wait()
            yield CourseToolCallChunk(
                request_id=request.id,
                tool_call=CourseToolCall("call-1", "add", freeze_json_object({}).unwrap()),
            )
        finally:
            for _ in range(SLOW_CLEANUP_TURNS):
                await asyncio.sleep(0)
            cleaned.append(SLOW_CLEANUP_TURNS)

    return turn


async def test_a_slow_cleanup_after_the_abort_finishes_within_the_kits_bound() -> None:
    # The stream settles at once; the step's cleanup then runs on in the
    # producer task, for more loop turns than the kit allows the stream to settle.
    cleaned: list[int] = []

    result = await check_scenario(
        lambda: ScriptedModel([slow_cleanup_factory(cleaned)]),
        REQUEST,
        Scenario.ABORT_AFTER_FIRST_CHUNK,
    )

    assert result.abort_landed
    assert isinstance(result.error, AbortError)
    assert result.chunks == (CourseTextDeltaChunk(request_id=REQUEST.id, delta="Calling add"),)
    assert cleaned == [SLOW_CLEANUP_TURNS], "the kit judged after the cleanup had finished"


async def test_scripted_failure_reaches_iteration_and_result_as_one_object() -> None:
    error = RuntimeError("scripted outage")

    report = await assert_conforms(lambda: ScriptedModel([reply_error(error)]), REQUEST)

    assert report.result_for(Scenario.COMPLETE).error is error


async def test_exhausted_scripted_model_conforms_by_failing_closed() -> None:
    report = await assert_conforms(ScriptedModel, REQUEST)

    error = report.result_for(Scenario.COMPLETE).error
    assert isinstance(error, ScriptedModelError)
    assert error.code is ScriptedModelErrorCode.SCRIPT_EXHAUSTED


PACED_USAGE = {"inputTokens": 3, "outputTokens": 4}


async def paced_records() -> AsyncIterator[object]:
    for record in (
        start("response-paced"),
        text("Adding "),
        tool_call("call-1", arguments={"left": 20}),
        end("response-paced", "tool_call", PACED_USAGE),
    ):
        await asyncio.sleep(0)
        yield record


async def stalling_records() -> AsyncIterator[object]:
    yield start("response-stalled")
    yield text("Thinking")
    await asyncio.Event().wait()
    raise AssertionError("the stalled record source was never interrupted")


FIXTURES: dict[str, Callable[[], object]] = {
    "checked-in-roundtrip": lambda: json.loads(ROUNDTRIP_FIXTURE.read_text(encoding="utf-8")),
    "text-snake-case-usage": lambda: fixture(
        [
            start("response-text"),
            text("The sum "),
            text("is 42."),
            end("response-text", "stop", {"input_tokens": 30, "output_tokens": 6}),
        ]
    ),
    "paced-async-source": lambda: fixture(paced_records()),
}


@pytest.mark.parametrize("fixture", sorted(FIXTURES))
async def test_fixture_adapter_conforms_on_every_scenario(fixture: str) -> None:
    def make_model() -> CourseModel:
        return FixtureProviderAdapter(FIXTURES[fixture]())

    report = await assert_conforms(make_model, REQUEST)

    complete = report.result_for(Scenario.COMPLETE)
    assert complete.error is None
    assert complete.response is not None
    assert complete.response.request_id == REQUEST.id
    assert all(chunk.request_id == REQUEST.id for chunk in complete.chunks)


async def test_paced_record_source_is_interrupted_after_its_first_chunk() -> None:
    report = await assert_conforms(
        lambda: FixtureProviderAdapter(fixture(paced_records())), REQUEST
    )

    aborted = report.result_for(Scenario.ABORT_AFTER_FIRST_CHUNK)
    assert aborted.abort_landed
    assert aborted.response is None


async def test_fixture_abort_interrupts_a_record_source_that_would_never_finish() -> None:
    report = await assert_conforms(
        lambda: FixtureProviderAdapter(fixture(stalling_records())),
        REQUEST,
        scenarios=ABORT_SCENARIOS,
    )

    assert all(result.abort_landed for result in report.results)


@pytest.mark.parametrize(
    ("records", "code"),
    [
        (
            [
                start("response-x"),
                transport_error("overloaded", "busy"),
            ],
            FixtureProviderErrorCode.PROVIDER_TRANSPORT_ERROR,
        ),
        (
            [start("response-x"), text("Half an answer")],
            FixtureProviderErrorCode.PROVIDER_MISSING_TERMINAL,
        ),
        (
            [start("response-x"), end("response-x", "tool_call")],
            FixtureProviderErrorCode.PROVIDER_INVALID_TERMINAL,
        ),
    ],
    ids=["transport-error", "missing-terminal", "contradictory-terminal"],
)
async def test_failing_fixtures_conform_by_failing_closed(
    records: list[object], code: FixtureProviderErrorCode
) -> None:
    report = await assert_conforms(lambda: FixtureProviderAdapter(fixture(records)), REQUEST)

    error = report.result_for(Scenario.COMPLETE).error
    assert isinstance(error, FixtureProviderError)
    assert error.code is code
