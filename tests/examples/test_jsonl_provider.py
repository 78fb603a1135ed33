"""The guide's worked example: a JSON-lines provider adapter, checked by the conformance kit."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterable, AsyncIterator, Callable, Sequence
from pathlib import Path

import pytest

from course_conformance import Scenario, assert_conforms
from course_protocol import (
    CourseModelChunk,
    CourseModelRequest,
    CourseModelResponse,
    CourseStopReason,
    CourseToolCall,
)
from course_provider_fixture import FixtureProviderAdapter, FixtureRecorder, load_fixture
from course_stream import AbortController
from examples.jsonl_provider import (
    JsonlProviderAdapter,
    JsonlProviderError,
    JsonlProviderErrorCode,
    Transport,
)
from tests.requests import request
from tests.streams import settle

REQUEST = request("request-jsonl-001", "Add 20 and 22.", message_id="message-user-001")
TOOL_TURN: list[dict[str, object]] = [
    {"kind": "begin", "turn": "t-1"},
    {"kind": "say", "text": "Adding."},
    {"kind": "invoke", "call": "c-opaque-7", "tool": "add", "input": {"left": 20, "right": 22}},
    {"kind": "finish", "turn": "t-1", "why": "tool", "tokens": {"in": 12, "out": 8}},
]
TEXT_TURN: list[dict[str, object]] = [
    {"kind": "begin", "turn": "t-2"},
    {"kind": "say", "text": "The sum "},
    {"kind": "say", "text": "is 42."},
    {"kind": "finish", "turn": "t-2", "why": "done", "tokens": {"in": 30, "out": 6}},
]


def transport_of(lines: Sequence[object], *, paced: bool = False) -> Transport:
    """A fake transport: each turn replays ``lines`` as JSON text (or as given, if not a dict)."""

    async def open_turn(request: CourseModelRequest) -> AsyncIterator[object]:
        for line in lines:
            if paced:
                await asyncio.sleep(0)
            yield json.dumps(line) if isinstance(line, dict) else line

    return open_turn


def stalling_transport(request: CourseModelRequest) -> AsyncIterator[object]:
    async def lines() -> AsyncIterator[object]:
        yield json.dumps(TOOL_TURN[0])
        yield json.dumps(TOOL_TURN[1])
        await asyncio.Event().wait()
        raise AssertionError("the abort should have interrupted the read")

    return lines()


class TransportThatBreaks:
    """Yields a begin line, then raises the way a dropped connection would."""

    def __init__(self) -> None:
        self.closed = False

    def __call__(self, request: CourseModelRequest) -> AsyncIterator[object]:
        return self.lines()

    async def lines(self) -> AsyncIterator[object]:
        try:
            yield json.dumps(TOOL_TURN[0])
            raise ConnectionResetError("peer went away")
        finally:
            self.closed = True


async def play(
    model: JsonlProviderAdapter | FixtureProviderAdapter | FixtureRecorder,
) -> tuple[list[CourseModelChunk], CourseModelResponse | BaseException]:
    settled = await settle(model.stream(REQUEST, AbortController().signal))
    return settled.events, settled.outcome


@pytest.mark.parametrize(
    "make_transport",
    [
        lambda: transport_of(TOOL_TURN),
        lambda: transport_of(TEXT_TURN),
        lambda: transport_of(TOOL_TURN, paced=True),
        lambda: transport_of([*TOOL_TURN[:2], {"kind": "oops", "code": "overloaded"}]),
        lambda: transport_of(["{not json"]),
    ],
    ids=["tool-turn", "text-turn", "paced", "provider-error", "garbage"],
)
async def test_the_example_adapter_passes_the_conformance_kit(
    make_transport: Callable[[], Transport],
) -> None:
    report = await assert_conforms(lambda: JsonlProviderAdapter(make_transport()), REQUEST)

    complete = report.result_for(Scenario.COMPLETE)
    assert (complete.response is None) == (complete.error is not None)


async def test_an_abort_interrupts_a_read_that_would_never_finish() -> None:
    report = await assert_conforms(
        lambda: JsonlProviderAdapter(stalling_transport),
        REQUEST,
        scenarios=[Scenario.ABORT_AFTER_FIRST_CHUNK],
    )

    assert report.results[0].abort_landed


async def test_a_tool_turn_normalizes_once_and_keeps_the_providers_call_id() -> None:
    chunks, response = await play(JsonlProviderAdapter(transport_of(TOOL_TURN)))

    assert isinstance(response, CourseModelResponse)
    assert response.id == "t-1"
    assert response.message.id == "message-t-1"
    assert response.stop_reason is CourseStopReason.TOOL_CALL
    assert (response.usage.input_tokens, response.usage.output_tokens) == (12, 8)
    call = response.message.content[1]
    assert isinstance(call, CourseToolCall)
    assert call.id == "c-opaque-7"
    assert [type(chunk).__name__ for chunk in chunks] == [
        "CourseTextDeltaChunk",
        "CourseToolCallChunk",
    ]


@pytest.mark.parametrize(
    ("lines", "code", "line"),
    [
        (["[1, 2]"], JsonlProviderErrorCode.JSONL_INVALID_LINE, 0),
        (
            ['{"kind": "begin", "turn": "t", "x": NaN}'],
            JsonlProviderErrorCode.JSONL_INVALID_LINE,
            0,
        ),
        ([{"kind": "teleport"}], JsonlProviderErrorCode.JSONL_UNKNOWN_KIND, 0),
        ([{"kind": "say", "text": "early"}], JsonlProviderErrorCode.JSONL_OUT_OF_ORDER, 0),
        ([TOOL_TURN[0], TOOL_TURN[0]], JsonlProviderErrorCode.JSONL_OUT_OF_ORDER, 1),
        ([*TOOL_TURN, TEXT_TURN[1]], JsonlProviderErrorCode.JSONL_OUT_OF_ORDER, 4),
        (
            [TOOL_TURN[0], {**TOOL_TURN[3], "turn": "t-other", "why": "done"}],
            JsonlProviderErrorCode.JSONL_TURN_MISMATCH,
            1,
        ),
        (
            [TOOL_TURN[0], TOOL_TURN[1], TOOL_TURN[3]],
            JsonlProviderErrorCode.JSONL_INVALID_TERMINAL,
            2,
        ),
        (
            [TOOL_TURN[0], TOOL_TURN[2], {**TOOL_TURN[3], "why": "done"}],
            JsonlProviderErrorCode.JSONL_INVALID_TERMINAL,
            2,
        ),
        (
            [TOOL_TURN[0], {**TOOL_TURN[2], "input": [20, 22]}],
            JsonlProviderErrorCode.JSONL_INVALID_LINE,
            1,
        ),
        (
            [TOOL_TURN[0], {**TOOL_TURN[3], "tokens": {"in": True, "out": 1}}],
            JsonlProviderErrorCode.JSONL_INVALID_LINE,
            1,
        ),
        (TOOL_TURN[:3], JsonlProviderErrorCode.JSONL_MISSING_FINISH, None),
        ([b"{}"], JsonlProviderErrorCode.JSONL_INVALID_LINE, 0),
    ],
    ids=[
        "not-an-object",
        "nan",
        "unknown-kind",
        "before-begin",
        "second-begin",
        "after-finish",
        "turn-mismatch",
        "tool-stop-without-calls",
        "plain-stop-with-calls",
        "arguments-not-an-object",
        "bool-token-count",
        "missing-finish",
        "bytes-line",
    ],
)
async def test_untrusted_lines_fail_closed_with_a_stable_code(
    lines: list[object], code: JsonlProviderErrorCode, line: int | None
) -> None:
    _, outcome = await play(JsonlProviderAdapter(transport_of(lines)))

    assert isinstance(outcome, JsonlProviderError)
    assert (outcome.code, outcome.line) == (code, line)


async def test_a_transport_failure_is_translated_once_and_the_source_is_closed() -> None:
    transport = TransportThatBreaks()

    _, outcome = await play(JsonlProviderAdapter(transport))

    assert isinstance(outcome, JsonlProviderError)
    assert outcome.code is JsonlProviderErrorCode.JSONL_TRANSPORT_FAILED
    assert isinstance(outcome.__cause__, ConnectionResetError)
    assert transport.closed


async def test_a_provider_error_keeps_the_providers_code() -> None:
    _, outcome = await play(
        JsonlProviderAdapter(
            transport_of([{"kind": "oops", "code": "overloaded", "detail": "busy"}])
        )
    )

    assert isinstance(outcome, JsonlProviderError)
    assert outcome.code is JsonlProviderErrorCode.JSONL_PROVIDER_ERROR
    assert outcome.provider_code == "overloaded"


async def test_a_recorded_session_replays_identically_through_the_fixture_adapter(
    tmp_path: Path,
) -> None:
    turns: list[list[object]] = [[*TOOL_TURN], [*TEXT_TURN], [{"kind": "oops", "code": "x"}]]

    def next_turn(request: CourseModelRequest) -> AsyncIterable[object]:
        return transport_of(turns.pop(0))(request)

    recorder = FixtureRecorder(JsonlProviderAdapter(next_turn))
    recorded = [await play(recorder) for _ in range(3)]
    recorder.write(tmp_path / "jsonl-session.json")

    replay = FixtureProviderAdapter(load_fixture(tmp_path / "jsonl-session.json").unwrap())
    replayed = [await play(replay) for _ in range(3)]

    for (recorded_chunks, recorded_outcome), (replayed_chunks, replayed_outcome) in zip(
        recorded[:2], replayed[:2], strict=True
    ):
        assert replayed_chunks == recorded_chunks
        assert replayed_outcome == recorded_outcome
    assert getattr(replayed[2][1], "provider_code", None) == "x"
    replay.assert_consumed()
