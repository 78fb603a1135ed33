"""FixtureRecorder passes streams through unchanged and records what it saw."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from course_conformance import Scenario, assert_conforms
from course_protocol import (
    JSON_MAX_DEPTH,
    CourseModelChunk,
    CourseModelRequest,
    CourseModelResponse,
    CourseModelUsage,
    CourseOpaque,
    CourseReasoningBlock,
    CourseStopReason,
    CourseTextDeltaChunk,
    to_json,
)
from course_provider_fixture import (
    FixtureProviderAdapter,
    FixtureProviderError,
    FixtureProviderErrorCode,
    FixtureRecorder,
    load_fixture,
)
from course_scripted import (
    ScriptedModel,
    ScriptedModelError,
    ScriptedResponseFactory,
    reply_error,
    reply_text,
    reply_tool_call,
)
from course_stream import AbortController, AbortError, AbortSignal, EventStream
from tests.course_provider_fixture.records import ROUNDTRIP_FIXTURE
from tests.nesting import nested_dicts
from tests.requests import request
from tests.streams import settle

REQUEST = request("request-rec-001", "Add 20 and 22.", message_id="message-user-001")
USAGE = CourseModelUsage(input_tokens=12, output_tokens=8)
ModelStream = EventStream[CourseModelChunk, CourseModelResponse]
REQUEST_JSON = to_json(REQUEST)


async def play(
    model: FixtureRecorder | FixtureProviderAdapter, signal: AbortSignal | None = None
) -> tuple[list[CourseModelChunk], CourseModelResponse | BaseException]:
    settled = await settle(model.stream(REQUEST, signal or AbortController().signal))
    if settled.iteration_error is not None:
        return settled.events, settled.failure
    return settled.events, settled.response


def tool_then_text() -> list[ScriptedResponseFactory]:
    return [
        reply_tool_call(
            "call-add-001",
            "add",
            {"left": 20, "right": 22},
            response_id="response-tool-001",
            message_id="message-response-tool-001",
            usage=USAGE,
        ),
        reply_text(
            "The sum is 42.",
            response_id="response-text-002",
            message_id="message-response-text-002",
            usage=CourseModelUsage(input_tokens=20, output_tokens=6),
        ),
    ]


class StreamSpy:
    """A CourseModel that hands out one prepared stream and remembers it."""

    def __init__(self, stream: ModelStream) -> None:
        self.stream_given = stream

    def stream(self, request: CourseModelRequest, signal: AbortSignal) -> ModelStream:
        return self.stream_given


class ModelWithoutStream:
    pass


class ModelThatRefusesToStream:
    def stream(self, request: CourseModelRequest, signal: AbortSignal) -> ModelStream:
        raise ValueError("bad request")


async def test_chunks_and_response_pass_through_as_the_same_objects() -> None:
    inner: ModelStream = EventStream()
    chunk = CourseTextDeltaChunk(request_id=REQUEST.id, delta="Hi")
    model = ScriptedModel(tool_then_text())
    response = (await play(FixtureRecorder(model)))[1]
    assert isinstance(response, CourseModelResponse)
    inner.push(chunk)
    inner.finish(response)

    chunks, outcome = await play(FixtureRecorder(StreamSpy(inner)))

    assert chunks[0] is chunk
    assert outcome is response


async def test_a_failure_passes_through_as_the_same_object_and_is_recorded() -> None:
    error = RuntimeError("provider went away")
    recorder = FixtureRecorder(ScriptedModel([reply_error(error)]))

    chunks, outcome = await play(recorder)

    assert chunks == []
    assert outcome is error
    assert recorder.fixture()["responses"] == [
        {
            "request": REQUEST_JSON,
            "records": [
                {"type": "transport_error", "code": "RuntimeError", "message": "provider went away"}
            ],
        }
    ]


async def test_a_course_error_is_recorded_with_its_stable_code() -> None:
    recorder = FixtureRecorder(ScriptedModel())

    _, outcome = await play(recorder)

    assert isinstance(outcome, ScriptedModelError)
    records = recorder.fixture()["responses"]
    assert records == [
        {
            "request": REQUEST_JSON,
            "records": [
                {"type": "transport_error", "code": "SCRIPT_EXHAUSTED", "message": str(outcome)}
            ],
        }
    ]


async def test_the_checked_in_roundtrip_is_recorded_in_call_order_with_camel_case_usage() -> None:
    recorder = FixtureRecorder(ScriptedModel(tool_then_text()))

    await play(recorder)
    await play(recorder)

    original = json.loads(ROUNDTRIP_FIXTURE.read_text(encoding="utf-8"))
    del original["expected"]
    recorded = recorder.fixture()
    assert [response.pop("request") for response in recorded["responses"]] == [  # type: ignore[attr-defined]
        REQUEST_JSON,
        REQUEST_JSON,
    ]
    assert recorded == original


async def test_write_uses_stable_key_order_two_space_indent_and_a_trailing_newline(
    tmp_path: Path,
) -> None:
    recorder = FixtureRecorder(
        ScriptedModel(
            [reply_text("Grüße", response_id="r-1", message_id="message-r-1", usage=USAGE)]
        )
    )
    await play(recorder)

    recorder.write(tmp_path / "recorded.json")

    assert (tmp_path / "recorded.json").read_text(encoding="utf-8") == (
        "{\n"
        '  "schemaVersion": 1,\n'
        '  "responses": [\n'
        "    {\n"
        '      "request": {\n'
        '        "id": "request-rec-001",\n'
        '        "messages": [\n'
        "          {\n"
        '            "role": "user",\n'
        '            "id": "message-user-001",\n'
        '            "content": "Add 20 and 22."\n'
        "          }\n"
        "        ]\n"
        "      },\n"
        '      "records": [\n'
        "        {\n"
        '          "type": "response_start",\n'
        '          "responseId": "r-1",\n'
        '          "role": "assistant"\n'
        "        },\n"
        "        {\n"
        '          "type": "text_delta",\n'
        '          "text": "Grüße"\n'
        "        },\n"
        "        {\n"
        '          "type": "response_end",\n'
        '          "responseId": "r-1",\n'
        '          "stopReason": "stop",\n'
        '          "usage": {\n'
        '            "inputTokens": 12,\n'
        '            "outputTokens": 8\n'
        "          }\n"
        "        }\n"
        "      ]\n"
        "    }\n"
        "  ]\n"
        "}\n"
    )


async def test_a_lone_surrogate_is_written_escaped_and_reads_back_exactly(tmp_path: Path) -> None:
    text = "half \ud800 a pair"
    recorder = FixtureRecorder(
        ScriptedModel([reply_text(text, response_id="r-1", message_id="message-r-1", usage=USAGE)])
    )
    original_chunks, _ = await play(recorder)

    recorder.write(tmp_path / "recorded.json")
    replayed_chunks, _ = await play(
        FixtureProviderAdapter(load_fixture(tmp_path / "recorded.json").unwrap())
    )

    assert replayed_chunks == original_chunks
    assert "\\ud800" in (tmp_path / "recorded.json").read_text(encoding="ascii")


async def test_a_mid_stream_abort_is_recorded_after_the_chunks_seen() -> None:
    gate = asyncio.Event()

    async def turn(
        request: CourseModelRequest, signal: AbortSignal
    ) -> AsyncIterator[CourseModelChunk | CourseModelResponse]:
        yield CourseTextDeltaChunk(request_id=request.id, delta="Thinking")
        await gate.wait()
        raise AssertionError("the abort should have interrupted this step")

    recorder = FixtureRecorder(ScriptedModel([turn]))
    controller = AbortController()
    stream = recorder.stream(REQUEST, controller.signal)
    iterator = aiter(stream)
    first = await anext(iterator)
    reason = AbortError("The operation was aborted")
    controller.abort(reason)

    with pytest.raises(AbortError) as caught:
        await anext(iterator)

    assert first == CourseTextDeltaChunk(request_id=REQUEST.id, delta="Thinking")
    assert caught.value is reason
    assert recorder.fixture()["responses"] == [
        {
            "request": REQUEST_JSON,
            "records": [
                {"type": "response_start", "responseId": "recorded-call-1", "role": "assistant"},
                {"type": "text_delta", "text": "Thinking"},
                {
                    "type": "transport_error",
                    "code": FixtureRecorder.ABORTED_CODE,
                    "message": "The operation was aborted",
                },
            ],
        }
    ]


async def test_a_pre_aborted_call_reaches_the_model_but_is_not_recorded() -> None:
    model = ScriptedModel(tool_then_text())
    recorder = FixtureRecorder(model)
    signal = AbortSignal.aborted_signal()

    chunks, outcome = await play(recorder, signal)

    assert chunks == []
    assert outcome is signal.reason
    assert model.call_count == 1
    assert model.pending_response_count == 2
    assert recorder.fixture()["responses"] == []


async def test_fixture_refuses_while_a_call_is_still_streaming() -> None:
    inner: ModelStream = EventStream()
    recorder = FixtureRecorder(StreamSpy(inner))
    stream = recorder.stream(REQUEST, AbortController().signal)

    with pytest.raises(RuntimeError, match=r"call\(s\) \[1\] have not settled"):
        recorder.fixture()

    inner.fail(RuntimeError("closed"))
    with pytest.raises(RuntimeError, match="closed"):
        await stream.result
    assert len(recorder.fixture()["responses"]) == 1  # type: ignore[arg-type]


async def test_fixture_returns_a_fresh_document_every_time() -> None:
    recorder = FixtureRecorder(ScriptedModel(tool_then_text()[:1]))
    await play(recorder)

    first = recorder.fixture()
    first["responses"][0]["records"].clear()  # type: ignore[index]

    assert len(recorder.fixture()["responses"][0]["records"]) == 3  # type: ignore[index]


async def test_a_replayed_transport_error_is_re_recorded_with_its_provider_code() -> None:
    fixture = {
        "schemaVersion": 1,
        "responses": [
            {
                "request": REQUEST_JSON,
                "records": [{"type": "transport_error", "code": "overloaded", "message": "busy"}],
            }
        ],
    }
    recorder = FixtureRecorder(FixtureProviderAdapter(fixture))

    _, outcome = await play(recorder)

    assert isinstance(outcome, FixtureProviderError)
    [record] = recorder.fixture()["responses"][0]["records"]  # type: ignore[index]
    assert record["code"] == "overloaded"
    replayed = (await play(FixtureProviderAdapter(recorder.fixture())))[1]
    assert isinstance(replayed, FixtureProviderError)
    assert replayed.code is FixtureProviderErrorCode.PROVIDER_TRANSPORT_ERROR
    assert replayed.provider_code == "overloaded"


async def test_a_model_whose_stream_raises_propagates_and_records_nothing() -> None:
    recorder = FixtureRecorder(ModelThatRefusesToStream())

    with pytest.raises(ValueError, match="bad request"):
        recorder.stream(REQUEST, AbortController().signal)

    assert recorder.fixture()["responses"] == []


def test_wrapping_something_that_cannot_stream_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="ModelWithoutStream"):
        FixtureRecorder(ModelWithoutStream())  # type: ignore[arg-type]


async def test_the_recorder_itself_conforms_to_the_port() -> None:
    report = await assert_conforms(
        lambda: FixtureRecorder(ScriptedModel(tool_then_text())), REQUEST
    )

    assert report.result_for(Scenario.COMPLETE).response is not None


async def test_a_tool_call_nested_to_the_protocol_limit_records_and_replays(
    tmp_path: Path,
) -> None:
    arguments = nested_dicts(JSON_MAX_DEPTH)
    recorder = FixtureRecorder(
        ScriptedModel(
            [
                reply_tool_call(
                    "call-1",
                    "deep",
                    arguments,
                    response_id="r-1",
                    message_id="message-r-1",
                    usage=USAGE,
                )
            ]
        )
    )
    recorded_chunks, recorded = await play(recorder)
    recorder.write(tmp_path / "deep.json")

    for fixture in (recorder.fixture(), load_fixture(tmp_path / "deep.json").unwrap()):
        replayed_chunks, replayed = await play(FixtureProviderAdapter(fixture))
        assert replayed_chunks == recorded_chunks
        assert replayed == recorded


@pytest.mark.parametrize("message", ["", "   ", "\u3000\n"], ids=["empty", "spaces", "blank"])
async def test_a_failure_with_a_blank_message_is_recorded_as_a_record_that_replays(
    message: str,
) -> None:
    recorder = FixtureRecorder(ScriptedModel([reply_error(RuntimeError(message))]))
    await play(recorder)

    records = recorder.fixture()["responses"]
    assert records == [
        {
            "request": REQUEST_JSON,
            "records": [
                {"type": "transport_error", "code": "RuntimeError", "message": "RuntimeError"}
            ],
        }
    ]
    _, replayed = await play(FixtureProviderAdapter(recorder.fixture()))
    assert isinstance(replayed, FixtureProviderError)
    assert replayed.code is FixtureProviderErrorCode.PROVIDER_TRANSPORT_ERROR
    assert replayed.provider_code == "RuntimeError"


THINKING = CourseReasoningBlock("Add them.", opaque=CourseOpaque("anthropic-messages", {"s": "x"}))
_UNRECORDABLE: dict[str, tuple[ScriptedResponseFactory, str]] = {
    "reasoning-delta": (
        reply_tool_call(
            "c", "add", {}, response_id="r", message_id="m", usage=USAGE, reasoning=THINKING
        ),
        "the recorded model streamed a CourseReasoningDeltaChunk; a schema-1 fixture holds",
    ),
    "redacted-reasoning-block": (
        reply_text(
            "42",
            response_id="r",
            message_id="m",
            usage=USAGE,
            reasoning=CourseReasoningBlock("", opaque=THINKING.opaque),
        ),
        "the recorded model answered with a CourseReasoningBlock (message.content[0])",
    ),
    "length": (
        reply_text(
            "Partial",
            response_id="r",
            message_id="m",
            usage=USAGE,
            stop_reason=CourseStopReason.LENGTH,
        ),
        "the recorded model answered with the stop reason length",
    ),
    "usage-parts": (
        reply_text(
            "42",
            response_id="r",
            message_id="m",
            usage=CourseModelUsage(input_tokens=12, output_tokens=8, cache_read_tokens=10),
        ),
        "the recorded model answered with cached or reasoning token counts",
    ),
}


@pytest.mark.parametrize("script", list(_UNRECORDABLE))
async def test_what_a_schema_1_fixture_cannot_hold_fails_the_call_instead_of_vanishing(
    script: str,
) -> None:
    factory, message = _UNRECORDABLE[script]
    recorder = FixtureRecorder(ScriptedModel([factory]))

    _, outcome = await play(recorder)

    assert isinstance(outcome, ValueError)
    assert str(outcome).startswith(message)
    records = recorder.fixture()["responses"][0]["records"]  # type: ignore[index]
    assert records[-1] == {
        "type": "transport_error",
        "code": "ValueError",
        "message": str(outcome),
    }
    replayed = await play(FixtureProviderAdapter(recorder.fixture()))
    assert isinstance(replayed[1], FixtureProviderError)
    assert replayed[1].code is FixtureProviderErrorCode.PROVIDER_TRANSPORT_ERROR
