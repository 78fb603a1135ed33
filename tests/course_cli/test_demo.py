"""``course demo``: the Tool round trip through the port, identical for both models."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from course_cli import DemoStoppedError, run_demo
from course_cli._models import DEMO_FIXTURE
from course_protocol import (
    CourseAssistantMessage,
    CourseModel,
    CourseModelChunk,
    CourseModelRequest,
    CourseModelResponse,
    CourseModelUsage,
    CourseReasoningBlock,
    CourseStopReason,
    CourseToolCall,
    CourseToolCallChunk,
    CourseToolResultMessage,
)
from course_scripted import (
    ScriptedModel,
    ScriptedModelErrorCode,
    ScriptedResponseFactory,
    reply_error,
    reply_text,
    reply_tool_call,
)
from course_stream import AbortSignal
from tests.course_cli.helpers import ROUNDTRIP, TRACE, CourseRunner
from tests.streams import GUARD_SECONDS

USAGE = CourseModelUsage(input_tokens=1, output_tokens=1)


def test_the_default_demo_replays_the_checked_in_fixture(course: CourseRunner) -> None:
    run = course("demo")
    assert (run.status, run.err) == (0, "")
    header, trace = run.out.split("\n", 1)
    assert header == f"model     fixture (FixtureProviderAdapter replaying {DEMO_FIXTURE})"
    assert trace == TRACE


def test_the_scripted_model_gives_the_same_trace_as_the_fixture(course: CourseRunner) -> None:
    fixture = course("demo", "--model", "fixture")
    scripted = course("demo", "--model", "scripted")
    assert scripted.status == 0
    assert scripted.out.splitlines()[0] == (
        "model     scripted (ScriptedModel playing the demo script)"
    )
    assert scripted.out.split("\n", 1)[1] == fixture.out.split("\n", 1)[1] == TRACE


def test_the_packaged_demo_fixture_is_the_checked_in_fixture_byte_for_byte() -> None:
    import course_cli

    packaged = Path(course_cli.__file__).parent / DEMO_FIXTURE
    assert packaged.read_bytes() == ROUNDTRIP.read_bytes()


async def _trace(model: CourseModel, *, max_turns: int = 8) -> tuple[str, BaseException | None]:
    lines: list[str] = []
    try:
        await asyncio.wait_for(
            run_demo(model, lines.append, max_turns=max_turns), timeout=GUARD_SECONDS
        )
    except DemoStoppedError as error:
        return "".join(lines), error
    return "".join(lines), None


def _tool_turn(
    call_id: str, arguments: dict[str, object], name: str = "add"
) -> ScriptedResponseFactory:
    return reply_tool_call(
        call_id,
        name,
        arguments,
        response_id=f"response-{call_id}",
        message_id=f"message-{call_id}",
        usage=USAGE,
    )


FINAL = reply_text("Done.", response_id="response-final", message_id="message-final", usage=USAGE)


@pytest.mark.parametrize(
    ("arguments", "reason"),
    [
        ({"left": "20", "right": 22}, "arguments.left must be an int or a finite float, not str"),
        ({"left": 20, "right": True}, "arguments.right must be an int or a finite float, not bool"),
        (
            {"left": 20, "right": None},
            "arguments.right must be an int or a finite float, not NoneType",
        ),
        ({"left": [20], "right": 22}, "arguments.left must be an int or a finite float, not tuple"),
        ({"left": 20}, "arguments.right is missing: add takes exactly left and right"),
        ({}, "arguments.left is missing: add takes exactly left and right"),
        (
            {"left": 1, "right": 2, "carry": 0},
            "arguments.carry is not a parameter: add takes exactly left and right",
        ),
        ({"left": 1e308, "right": 1e308}, "the sum is not a finite number"),
        ({"left": 10**4400, "right": 1}, "the sum has too many digits to print"),
        ({"left": 10**400, "right": 0.5}, "the sum is too large for a float"),
        ({"left": -0.5, "right": -(10**400)}, "the sum is too large for a float"),
    ],
)
async def test_bad_tool_arguments_become_an_error_result_not_a_crash(
    arguments: dict[str, object], reason: str
) -> None:
    model = ScriptedModel([_tool_turn("call-1", arguments), FINAL])
    trace, stopped = await _trace(model)
    assert stopped is None
    assert f"tool      add refused: {reason}\n" in trace
    assert 'isError=true content="' + reason + '"' in trace
    [_, _, result] = model.requests[1].messages
    assert result == CourseToolResultMessage(
        id="tool-result-001",
        tool_call_id="call-1",
        tool_name="add",
        content=reason,
        is_error=True,
    )
    assert trace.endswith(
        "answer    Done.\ndone      2 model calls, inputTokens=2 outputTokens=2\n"
    )


async def test_an_unknown_tool_is_refused_with_an_error_result() -> None:
    model = ScriptedModel([_tool_turn("call-9", {"x": 1}, name="multiply"), FINAL])
    _, stopped = await _trace(model)
    assert stopped is None
    result = model.requests[1].messages[-1]
    assert isinstance(result, CourseToolResultMessage)
    assert (result.tool_call_id, result.tool_name, result.is_error) == ("call-9", "multiply", True)
    assert result.content == "unknown Tool \"multiply\": this demo runs only 'add'"


@pytest.mark.parametrize(
    ("left", "right", "content"),
    [(0.1, 0.2, "0.30000000000000004"), (-5, 2.5, "-2.5"), (2**60, 2**60, str(2**61))],
)
async def test_add_sums_ints_and_finite_floats(left: object, right: object, content: str) -> None:
    model = ScriptedModel([_tool_turn("call-1", {"left": left, "right": right}), FINAL])
    _, stopped = await _trace(model)
    assert stopped is None
    result = model.requests[1].messages[-1]
    assert isinstance(result, CourseToolResultMessage)
    assert (result.content, result.is_error) == (content, False)


async def test_a_model_that_keeps_asking_for_tools_is_stopped_at_the_turn_limit() -> None:
    model = ScriptedModel([_tool_turn(f"call-{n}", {"left": n, "right": 1}) for n in range(10)])
    trace, stopped = await _trace(model, max_turns=3)
    assert isinstance(stopped, DemoStoppedError)
    assert stopped.message == (
        "stopped after 3 model calls: the model still asks for Tools "
        "(raise --max-turns to allow more)"
    )
    assert model.call_count == 3
    assert trace.count("\ncall ") == 3
    assert "answer" not in trace


async def test_the_transcript_is_validated_before_each_model_call() -> None:
    model = ScriptedModel(
        [
            _tool_turn("call-same", {"left": 1, "right": 2}),
            reply_tool_call(
                "call-same",
                "add",
                {"left": 3, "right": 4},
                response_id="response-again",
                message_id="message-again",
                usage=USAGE,
            ),
            FINAL,
        ]
    )
    trace, stopped = await _trace(model)
    assert isinstance(stopped, DemoStoppedError)
    assert stopped.message.startswith(
        "transcript invalid before model call 3: DUPLICATE_TOOL_CALL_ID"
    )
    assert model.call_count == 2
    assert model.pending_response_count == 1
    assert "call 3" not in trace


async def test_a_failed_model_call_stops_the_loop_with_its_code() -> None:
    model = ScriptedModel([_tool_turn("call-1", {"left": 1, "right": 2})])
    trace, stopped = await _trace(model)
    assert isinstance(stopped, DemoStoppedError)
    assert stopped.message.startswith("model call 2 (request-002) failed: SCRIPT_EXHAUSTED: ")
    assert getattr(stopped.__cause__, "code", None) is ScriptedModelErrorCode.SCRIPT_EXHAUSTED
    assert trace.endswith('content="3"\n\ncall 2    request-002 messages=3 transcript=valid\n')


async def test_an_exception_without_a_code_is_reported_with_its_type() -> None:
    failure = LookupError("backend gone")
    model = ScriptedModel([reply_error(failure)])
    _, stopped = await _trace(model)
    assert isinstance(stopped, DemoStoppedError)
    assert stopped.message == "model call 1 (request-001) failed: LookupError: backend gone"
    assert stopped.__cause__ is failure


async def test_every_tool_call_of_one_response_gets_its_own_linked_result_in_order() -> None:
    first = CourseToolCall(id="call-a", name="add", arguments={"left": 1, "right": 2})
    second = CourseToolCall(id="call-b", name="add", arguments={"left": "x", "right": 2})

    async def two_calls(
        request: CourseModelRequest, signal: AbortSignal
    ) -> AsyncIterator[CourseModelChunk | CourseModelResponse]:
        yield CourseToolCallChunk(request_id=request.id, tool_call=first)
        yield CourseToolCallChunk(request_id=request.id, tool_call=second)
        yield CourseModelResponse(
            id="response-two",
            request_id=request.id,
            message=CourseAssistantMessage(id="message-two", content=(first, second)),
            stop_reason=CourseStopReason.TOOL_CALL,
            usage=USAGE,
        )

    model = ScriptedModel([two_calls, FINAL])
    _, stopped = await _trace(model)
    assert stopped is None
    results = model.requests[1].messages[2:]
    assert all(type(result) is CourseToolResultMessage for result in results)
    assert [
        (r.id, r.tool_call_id, r.is_error)
        for r in results
        if isinstance(r, CourseToolResultMessage)
    ] == [
        ("tool-result-001", "call-a", False),
        ("tool-result-002", "call-b", True),
    ]


class FactoryThatHangsUntilAborted:
    """A scripted turn that never yields; records that its cleanup ran and why."""

    def __init__(self) -> None:
        self.started = asyncio.Event()
        self.closed = False
        self.aborted_when_closed: bool | None = None

    def __call__(
        self, request: CourseModelRequest, signal: AbortSignal
    ) -> AsyncIterator[CourseModelChunk | CourseModelResponse]:
        return self._turn(signal)

    async def _turn(
        self, signal: AbortSignal
    ) -> AsyncIterator[CourseModelChunk | CourseModelResponse]:
        try:
            self.started.set()
            await asyncio.Event().wait()
            yield  # type: ignore[misc]
        finally:
            self.closed = True
            self.aborted_when_closed = signal.aborted


async def test_cancelling_the_demo_aborts_the_pending_model_call() -> None:
    factory = FactoryThatHangsUntilAborted()
    model = ScriptedModel([factory])
    lines: list[str] = []
    demo = asyncio.ensure_future(run_demo(model, lines.append))
    await asyncio.wait_for(factory.started.wait(), timeout=GUARD_SECONDS)
    demo.cancel()
    with pytest.raises(asyncio.CancelledError):
        await asyncio.wait_for(demo, timeout=GUARD_SECONDS)
    for _ in range(10):
        if factory.closed:
            break
        await asyncio.sleep(0)
    assert factory.closed
    assert factory.aborted_when_closed is True


def test_main_reports_a_stopped_demo_on_stderr_with_status_1(
    course: CourseRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    import course_cli._cli as cli

    def broken_model(name: str) -> tuple[ScriptedModel, str]:
        return ScriptedModel([reply_error(LookupError("backend gone"))]), "broken"

    monkeypatch.setattr(cli, "build_demo_model", broken_model)
    run = course("demo")
    assert run.status == 1
    assert run.out.splitlines() == [
        "model     broken",
        "user      user-001: What is 20 + 22?",
        "",
        "call 1    request-001 messages=1 transcript=valid",
    ]
    assert run.err == "course demo: model call 1 (request-001) failed: LookupError: backend gone\n"


def test_main_reports_unplayed_responses_after_the_answer(
    course: CourseRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    import course_cli._cli as cli

    def model_with_leftovers(name: str) -> tuple[ScriptedModel, str]:
        return ScriptedModel([FINAL, FINAL]), "leftovers"

    monkeypatch.setattr(cli, "build_demo_model", model_with_leftovers)
    run = course("demo")
    assert run.status == 1
    assert "answer    Done.\n" in run.out
    assert run.err.startswith("course demo: ")
    assert "never played" in run.err or "unplayed" in run.err
    assert run.err.count("\n") == 1


def test_the_demo_runs_over_the_users_own_fixture(course: CourseRunner, tmp_path: Path) -> None:
    mine = tmp_path / "mine.json"
    document = json.loads(ROUNDTRIP.read_text(encoding="utf-8"))
    document["responses"][1]["records"][1]["text"] = "Forty-two."
    mine.write_text(json.dumps(document), encoding="utf-8")

    run = course("demo", "--fixture", mine)

    assert (run.status, run.err) == (0, "")
    assert run.out.startswith(f"model     fixture (FixtureProviderAdapter replaying {mine})\n")
    assert "answer    Forty-two.\n" in run.out


def test_a_broken_fixture_for_the_demo_is_reported_with_its_code(
    course: CourseRunner, tmp_path: Path
) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{"schemaVersion": 2, "responses": []}', encoding="utf-8")

    run = course("demo", "--fixture", broken)

    assert (run.status, run.out) == (1, "")
    assert (
        run.err
        == f"course demo: {broken}: PROVIDER_INVALID_FIXTURE: schemaVersion must be 1, got 2\n"
    )


def test_demo_fixture_is_a_usage_error_when_missing_or_with_the_scripted_model(
    course: CourseRunner, tmp_path: Path
) -> None:
    missing = course("demo", "--fixture", tmp_path / "gone.json")
    scripted = course("demo", "--model", "scripted", "--fixture", ROUNDTRIP)

    assert (missing.status, missing.out) == (2, "")
    assert "gone.json: no such file" in missing.err
    assert (scripted.status, scripted.out) == (2, "")
    assert "--fixture replays a fixture: it goes with --model fixture" in scripted.err


async def test_a_model_that_thinks_shows_its_reasoning_deltas_in_the_trace() -> None:
    thinking = CourseReasoningBlock("Use add.")
    model = ScriptedModel(
        [
            reply_tool_call(
                "call-a",
                "add",
                {"left": 20, "right": 22},
                response_id="r-1",
                message_id="m-1",
                usage=USAGE,
                reasoning=thinking,
            ),
            FINAL,
        ]
    )

    trace, stopped = await _trace(model)

    assert stopped is None
    assert 'reasoningDelta delta="Use add."' in trace
    assert trace.index("reasoningDelta") < trace.index("toolCall id=call-a")
    assert model.requests[1].messages[1].content[0] is thinking
