"""VendorModel, through the three vendor models: replay, key, transport, event loop, refusals.

Every test runs once per vendor API (`every_wire`): the behaviour lives once,
in ``course_http``, and each vendor model must show it the same way.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest

from course_http import (
    HttpRequest,
    LiveTransport,
    RecordedTransport,
    Timeouts,
    VendorError,
    VendorErrorCode,
    stream_events,
)
from course_http.loopback import LoopbackServer
from course_protocol import (
    JSON_MAX_DEPTH,
    CourseAssistantMessage,
    CourseModelChunk,
    CourseModelRequest,
    CourseModelResponse,
    CourseStopReason,
    CourseTextBlock,
    CourseTextDeltaChunk,
    CourseToolCall,
    CourseToolCallChunk,
    CourseToolSpec,
    CourseUserMessage,
    thaw_json,
)
from course_stream import AbortController, AbortError
from course_vendor import VendorConfigError, VendorConfigErrorCode, load_vendor
from tests.course_vendor.wires import KEY, REQUEST, AnyModel, Wire, every_wire
from tests.streams import GUARD_SECONDS

Code = VendorErrorCode
Config = VendorConfigErrorCode


Outcome = CourseModelResponse | VendorError


async def play(
    model: AnyModel, request: CourseModelRequest = REQUEST
) -> tuple[list[CourseModelChunk], Outcome]:
    """Consume one call: its chunks, then its response or the `VendorError` it failed with."""
    stream = model.stream(request, AbortController().signal)
    chunks: list[CourseModelChunk] = []
    async with asyncio.timeout(GUARD_SECONDS):
        try:
            async for chunk in stream:
                chunks.append(chunk)
            return chunks, await stream.result
        except VendorError as error:
            return chunks, error


def failure(outcome: Outcome) -> VendorError:
    assert isinstance(outcome, VendorError), f"expected a VendorError, got {outcome!r}"
    return outcome


def answer(outcome: Outcome) -> CourseModelResponse:
    assert isinstance(outcome, CourseModelResponse), f"expected a response, got {outcome!r}"
    return outcome


@every_wire
async def test_a_replayed_text_answer_streams_its_chunks_then_its_response(wire: Wire) -> None:
    async with wire.recorded(wire.text_body("The sum ", "is 42."), chunking="bytes") as transport:
        chunks, outcome = await play(wire.model(transport=transport))

    assert chunks == [
        CourseTextDeltaChunk("request-1", "The sum "),
        CourseTextDeltaChunk("request-1", "is 42."),
    ]
    response = answer(outcome)
    assert response.stop_reason is CourseStopReason.STOP
    assert response.request_id == "request-1"
    # What a wire keeps on the block (a Responses message id) is each wire's own test.
    (block,) = response.message.content
    assert type(block) is CourseTextBlock
    assert block.text == "The sum is 42."


@every_wire
async def test_a_replayed_tool_call_keeps_the_providers_call_id(wire: Wire) -> None:
    async with wire.recorded(wire.tool_body(), chunking="random", seed=7) as transport:
        chunks, outcome = await play(wire.model(transport=transport))

    calls = [chunk.tool_call for chunk in chunks if type(chunk) is CourseToolCallChunk]
    assert [(call.name, thaw_json(call.arguments)) for call in calls] == [
        ("add", {"left": 20, "right": 22})
    ]
    assert calls[0].id == wire.tool_call_id
    response = answer(outcome)
    assert response.stop_reason is CourseStopReason.TOOL_CALL
    assert response.message.content[-1] == calls[0]


@every_wire
async def test_each_call_sends_one_request_to_the_vendors_path(wire: Wire) -> None:
    bodies = (wire.text_body("one"), wire.text_body("two"))
    async with wire.recorded(*bodies) as transport:
        model = wire.model(transport=transport)
        first = await play(model)
        second = await play(model)

    assert [first[0], second[0]] == [
        [CourseTextDeltaChunk("request-1", "one")],
        [CourseTextDeltaChunk("request-1", "two")],
    ]
    sent = transport.requests
    assert [(request.method, request.path) for request in sent] == [("POST", wire.path)] * 2
    assert sent[0].headers["accept"] == "text/event-stream"


@every_wire
async def test_an_explicit_key_goes_in_the_vendors_header(wire: Wire) -> None:
    async with (
        asyncio.timeout(GUARD_SECONDS),
        LoopbackServer([wire.served("live")]) as server,
        wire.model(api_key=KEY, base_url=server.base_url) as model,
    ):
        _chunks, outcome = await play(model)

    answer(outcome)
    assert server.requests[0].header(wire.key_header) == wire.key_value(KEY)


@every_wire
async def test_the_environment_key_is_read_at_each_call(
    wire: Wire, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(wire.key_variable, raising=False)
    responses = [wire.served("live"), wire.served("live")]
    async with (
        asyncio.timeout(GUARD_SECONDS),
        LoopbackServer(responses) as server,
        wire.model(base_url=server.base_url) as model,
    ):
        monkeypatch.setenv(wire.key_variable, "sk-first")
        await play(model)
        monkeypatch.setenv(wire.key_variable, "sk-second")
        await play(model)

    assert [request.header(wire.key_header) for request in server.requests] == [
        wire.key_value("sk-first"),
        wire.key_value("sk-second"),
    ]


@every_wire
@pytest.mark.parametrize("value", [None, "", "sk-has space", "sk-line\nbreak", "sk-\u043a\u043b"])
async def test_a_live_call_without_a_usable_key_fails_with_nothing_sent(
    wire: Wire, value: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    if value is None:
        monkeypatch.delenv(wire.key_variable, raising=False)
    else:
        monkeypatch.setenv(wire.key_variable, value)
    async with (
        asyncio.timeout(GUARD_SECONDS),
        LoopbackServer([wire.served("live")]) as server,
        wire.model(base_url=server.base_url) as model,
    ):
        chunks, outcome = await play(model)

    error = failure(outcome)
    assert (error.code, error.vendor, error.status) == (
        Code.VENDOR_MISSING_API_KEY,
        wire.name,
        None,
    )
    assert wire.key_variable in error.message
    assert value is None or not value or value not in error.message
    assert chunks == []
    assert server.requests == ()


@every_wire
async def test_a_replay_needs_no_key_and_never_reads_the_environment(
    wire: Wire, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Read, this value would fail the call: it is not a usable key.
    monkeypatch.setenv(wire.key_variable, "not a usable key")
    async with wire.recorded(wire.text_body("hi")) as transport:
        chunks, outcome = await play(wire.model(transport=transport))

    assert chunks == [CourseTextDeltaChunk("request-1", "hi")]
    answer(outcome)
    assert wire.key_header not in transport.requests[0].headers


@every_wire
async def test_an_explicit_key_is_sent_in_a_replay_but_never_recorded_or_shown(wire: Wire) -> None:
    async with wire.recorded(wire.text_body("hi")) as transport:
        model = wire.model(transport=transport, api_key=KEY)
        await play(model)

    assert wire.key_header not in transport.requests[0].headers
    for shown in (repr(transport.requests), repr(transport), repr(model), str(model)):
        assert KEY not in shown
    assert "api_key: given" in repr(model)


@every_wire
def test_the_repr_names_the_key_variable_and_never_a_key(
    wire: Wire, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(wire.key_variable, KEY)
    model = wire.model(timeouts=Timeouts(read=5.0))

    shown = repr(model)

    assert KEY not in shown
    assert f"read from {wire.key_variable}" in shown
    assert "at each call" in shown
    assert shown.startswith(type(model).__name__ + "(config=")
    assert "LiveTransport(base_url=" in shown


@every_wire
async def test_the_model_creates_a_live_transport_on_its_config_and_closes_it(wire: Wire) -> None:
    timeouts = Timeouts(connect=1.0, read=2.0)
    model = wire.model(api_key=KEY, timeouts=timeouts, base_url="http://127.0.0.1:9")

    transport = model.transport
    assert type(transport) is LiveTransport
    assert transport.base_url.startswith("http://127.0.0.1:9")
    assert transport.timeouts == timeouts
    await model.aclose()
    await model.aclose()

    with pytest.raises(RuntimeError, match="is closed"):
        model.stream(REQUEST, AbortController().signal)
    with pytest.raises(RuntimeError, match="is closed"):
        async for _ in stream_events(
            transport, HttpRequest("/v1/x", {}), vendor=wire.name, describe_error=lambda _: None
        ):
            pass


@every_wire
async def test_a_transport_passed_in_stays_open_when_the_model_closes(wire: Wire) -> None:
    async with wire.recorded(wire.text_body("after")) as transport:
        async with wire.model(transport=transport) as model:
            assert model.transport is transport
        with pytest.raises(RuntimeError, match="is closed"):
            model.stream(REQUEST, AbortController().signal)

        events = [
            event
            async for event in stream_events(
                transport,
                HttpRequest("/v1/x", {}),
                vendor=wire.name,
                describe_error=lambda _: None,
                framing=load_vendor(wire.name).wire.framing,
            )
        ]
    assert len(events) > 1


@every_wire
def test_construction_refuses_a_bad_transport_timeouts_or_config(wire: Wire) -> None:
    with pytest.raises(TypeError, match="transport must be an HttpTransport"):
        wire.model(transport="http://example.invalid")  # type: ignore[arg-type]
    with pytest.raises(VendorConfigError, match=r"Config\.timeouts must be a Timeouts") as bad:
        wire.model(timeouts=5.0)  # type: ignore[arg-type]
    assert bad.value.code is Config.VENDOR_INVALID_CONFIG
    with pytest.raises(VendorConfigError, match="set them on the transport you pass in") as both:
        wire.model(transport=RecordedTransport([]), timeouts=Timeouts())
    assert both.value.code is Config.VENDOR_INVALID_CONFIG
    assert both.value.path.endswith("Config.timeouts")
    with pytest.raises(VendorConfigError, match="credentials"):
        wire.model(base_url="https://user:password@api.example.com")
    model_class: Any = type(wire.model(transport=RecordedTransport([])))
    with pytest.raises(TypeError, match="config must be"):
        model_class({"model": "m"})


@every_wire
def test_a_model_belongs_to_the_event_loop_of_its_first_call(wire: Wire) -> None:
    transport = wire.recorded(wire.text_body("first"), wire.text_body("second"))
    model = wire.model(transport=transport)

    async def call() -> Outcome:
        return (await play(model))[1]

    answer(asyncio.run(call()))
    with pytest.raises(RuntimeError, match="one model per event loop"):
        asyncio.run(call())
    assert len(transport.requests) == 1


@every_wire
async def test_an_empty_transcript_fails_the_stream_with_nothing_sent(wire: Wire) -> None:
    async with wire.recorded(wire.text_body("unused")) as transport:
        chunks, outcome = await play(wire.model(transport=transport), CourseModelRequest("r", ()))

    error = failure(outcome)
    assert (error.code, error.vendor) == (Code.VENDOR_INVALID_REQUEST, wire.name)
    assert chunks == []
    assert transport.requests == ()


@every_wire
async def test_an_unanswered_tool_call_fails_the_stream_with_nothing_sent(wire: Wire) -> None:
    request = CourseModelRequest(
        "r",
        (
            CourseUserMessage("u", "add"),
            CourseAssistantMessage("a", (CourseToolCall("call-1", "add", {}),)),
        ),
    )
    async with wire.recorded(wire.text_body("unused")) as transport:
        _chunks, outcome = await play(wire.model(transport=transport), request)

    error = failure(outcome)
    assert error.code is Code.VENDOR_INVALID_REQUEST
    assert "MISSING_TOOL_RESULT" in error.message
    assert transport.requests == ()


def deep_schema(depth: int) -> dict[str, object]:
    schema: dict[str, object] = {}
    for _ in range(depth - 1):
        schema = {"nested": schema}
    return schema


@every_wire
async def test_a_body_nested_past_the_transports_limit_fails_with_nothing_sent(wire: Wire) -> None:
    tool = CourseToolSpec(
        "deep", "A schema as deep as a course value may be.", deep_schema(JSON_MAX_DEPTH)
    )
    async with wire.recorded(wire.text_body("unused")) as transport:
        _chunks, outcome = await play(wire.model(transport=transport, tools=(tool,)))

    error = failure(outcome)
    assert error.code is Code.VENDOR_INVALID_REQUEST
    assert re.search(r"nests more than", error.message), error.message
    assert transport.requests == ()


@every_wire
async def test_a_pre_aborted_call_fails_with_the_reason_even_when_the_request_is_invalid(
    wire: Wire,
) -> None:
    reason = AbortError("stop before anything")
    controller = AbortController()
    controller.abort(reason)
    async with wire.recorded(wire.text_body("unused")) as transport:
        stream = wire.model(transport=transport).stream(
            CourseModelRequest("r", ()), controller.signal
        )
        with pytest.raises(AbortError) as raised:
            await stream.result

    assert raised.value is reason
    assert transport.requests == ()


@every_wire
async def test_the_argument_check_comes_first_and_counts_nothing(wire: Wire) -> None:
    async with wire.recorded(wire.text_body("unused")) as transport:
        model = wire.model(transport=transport)
        with pytest.raises(TypeError, match="CourseModelRequest"):
            model.stream({"id": "r"}, AbortController().signal)  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="AbortSignal"):
            model.stream(REQUEST, None)  # type: ignore[arg-type]

    assert transport.requests == ()


@every_wire
def test_stream_needs_a_running_event_loop(wire: Wire) -> None:
    with pytest.raises(RuntimeError, match="running event loop"):
        wire.model(transport=RecordedTransport([])).stream(REQUEST, AbortController().signal)
