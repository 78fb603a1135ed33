"""CassetteTransport: call by call, no socket, no key, each request checked against the record."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import aclosing

import pytest

from course_cassettes import Cassette, CassetteTransport, Redaction, RequestMatching
from course_cassettes._redaction import redacted_request
from course_conformance import blocked_network
from course_http import (
    REDACTED,
    HttpRequest,
    RecordedResponse,
    RecordedTransport,
    VendorError,
    VendorErrorCode,
    stream_events,
)
from course_protocol import (
    CourseAssistantMessage,
    CourseModelChunk,
    CourseModelRequest,
    CourseModelResponse,
    CourseToolCall,
    CourseToolResultMessage,
    CourseUserMessage,
)
from course_stream import AbortController, EventStream
from tests.course_cassettes.cassettes import call, cassette
from tests.course_cassettes.replays import replay
from tests.course_http.helpers import SSE, read_error, sse_body
from tests.course_vendor.wires import WIRES, Wire, every_wire
from tests.streams import GUARD_SECONDS

ANTHROPIC = WIRES[0]


@pytest.fixture(autouse=True)
def _no_network() -> Iterator[None]:
    with blocked_network() as attempts:
        yield
    assert attempts == []


def transcript(tool_call_id: str) -> CourseModelRequest:
    return CourseModelRequest(
        "request-2",
        (
            CourseUserMessage("u-1", "What is 20 + 22?"),
            CourseAssistantMessage("a-1", (CourseToolCall(tool_call_id, "add", {"a": 20}),)),
            CourseToolResultMessage("t-1", tool_call_id, "add", "42"),
        ),
    )


async def recording(wire: Wire, request: CourseModelRequest, *bodies: bytes) -> Cassette:
    """A cassette of one call per body, each request as ``wire``'s model sends ``request``."""
    served = [RecordedResponse(200, wire.media, body) for body in bodies]
    async with RecordedTransport(served) as transport:
        model = wire.model(transport=transport)
        for _ in bodies:
            await replay(model, request)
    calls = [
        call(dict(sent.body), response, path=sent.path)
        for sent, response in zip(transport.requests, served, strict=True)
    ]
    return cassette(*calls)


@every_wire
async def test_a_replay_needs_no_key_and_never_reads_the_environment(
    wire: Wire, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(wire.key_variable, raising=False)
    recorded = await recording(wire, transcript("call_1"), wire.text_body("hi"))

    async with CassetteTransport(recorded) as transport:
        model = wire.model(transport=transport)
        replayed = await replay(model, transcript("call_1"))

    assert replayed.response is not None
    assert "none (a recorded transport needs none)" in repr(model)
    assert transport.replays
    assert transport.pending_call_count == 0


async def test_a_changed_request_fails_with_the_first_differing_path_and_both_values() -> None:
    recorded = await recording(ANTHROPIC, transcript("toolu_01A"), ANTHROPIC.text_body("42"))

    async with CassetteTransport(recorded) as transport:
        failed = await replay(ANTHROPIC.model(transport=transport), transcript("toolu_01B"))

    assert failed.error is not None
    assert failed.error.code is VendorErrorCode.HTTP_REQUEST_MISMATCH
    assert failed.error.message == (
        "call 1 differs from the recorded calls[0]: "
        'messages[1].content[0].id: recorded "toolu_01A", sent "toolu_01B"'
    )
    assert not failed.error.retryable
    assert transport.pending_call_count == 0, "the mismatched call counts as played"


@pytest.mark.parametrize(
    ("sent", "line"),
    [
        (HttpRequest("/v1/other", {"n": 1}), 'path: recorded "/v1/messages", sent "/v1/other"'),
        (
            HttpRequest("/v1/messages", {"n": 1}, method="PUT"),
            'method: recorded "POST", sent "PUT"',
        ),
        (HttpRequest("/v1/messages", {"n": 1.0}), "n: recorded 1, sent 1.0"),
        (HttpRequest("/v1/messages", {"n": 1, "x": []}), "x: recorded <missing>, sent []"),
        (HttpRequest("/v1/messages", {}), "n: recorded 1, sent <missing>"),
    ],
    ids=["path", "method", "type", "added", "removed"],
)
async def test_method_path_and_body_are_each_compared(sent: HttpRequest, line: str) -> None:
    recorded = cassette(call({"n": 1}, RecordedResponse(200, SSE, b"data: x\n\n")))

    async with CassetteTransport(recorded) as transport:
        with pytest.raises(VendorError) as caught:
            await events_of(transport, sent)

    assert caught.value.code is VendorErrorCode.HTTP_REQUEST_MISMATCH
    assert caught.value.message == f"call 1 differs from the recorded calls[0]: {line}"


async def test_long_strings_that_differ_late_are_shown_where_they_differ() -> None:
    prompt = "You are a careful assistant. " * 20
    recorded = cassette(call({"system": prompt + "Answer in French."}, RecordedResponse(200, SSE)))
    sent = HttpRequest("/v1/messages", {"system": prompt + "Answer in German."})

    async with CassetteTransport(recorded) as transport:
        with pytest.raises(VendorError) as caught:
            await events_of(transport, sent)

    where = len(prompt) + len("Answer in ")
    before = prompt[-30:] + "Answer in "
    assert caught.value.message == (
        "call 1 differs from the recorded calls[0]: system: strings differ from character "
        f'{where}: recorded "\u2026{before}French.", sent "\u2026{before}German."'
    )


async def test_key_order_does_not_count_and_ignored_paths_are_left_out() -> None:
    body = {"model": "m", "metadata": {"user_id": "u-1"}, "messages": [{"id": "a", "text": "t"}]}
    sent = {"messages": [{"text": "t", "id": "b"}], "metadata": {"user_id": "u-2"}, "model": "m"}
    matching = RequestMatching(ignore=["metadata.user_id", "messages[*].id"])
    recorded = cassette(call(body, RecordedResponse(200, SSE, b"data: x\n\n")), matching=matching)

    async with CassetteTransport(recorded) as transport:
        assert await events_of(transport, HttpRequest("/v1/messages", sent)) == 1
    async with CassetteTransport(recorded, matching=RequestMatching()) as strict:
        with pytest.raises(VendorError, match=r"metadata\.user_id: recorded \"u-1\""):
            await events_of(strict, HttpRequest("/v1/messages", sent))


async def test_order_only_matching_serves_whatever_is_asked() -> None:
    recorded = cassette(
        call({"n": 1}, RecordedResponse(200, SSE, b"data: x\n\n")),
        matching=RequestMatching("order"),
    )

    async with CassetteTransport(recorded) as transport:
        assert await events_of(transport, HttpRequest("/elsewhere", {"other": True})) == 1


async def test_a_request_is_masked_as_the_recording_was_before_it_is_compared() -> None:
    redaction = Redaction(fields=["user_id"], paths=["messages[0].text"])
    recorded_request = redacted_request(
        "POST",
        "/v1/messages?key=abc",
        {},
        {"user_id": "u-1", "messages": [{"text": "a"}]},
        redaction,
        (),
    )
    assert recorded_request.body == {"user_id": REDACTED, "messages": ({"text": REDACTED},)}
    recorded = cassette(
        call(
            dict(recorded_request.body),
            RecordedResponse(200, SSE, b"data: x\n\n"),
            path=recorded_request.path,
        ),
        redaction=redaction,
    )
    sent = HttpRequest("/v1/messages?key=xyz", {"user_id": "u-9", "messages": [{"text": "b"}]})

    async with CassetteTransport(recorded) as transport:
        assert await events_of(transport, sent) == 1
    assert transport.requests[0].body["user_id"] == "u-9", "requests lists what was sent"


async def test_more_calls_than_recorded_is_exhaustion_and_fewer_fails_assert_consumed() -> None:
    recorded = await recording(
        ANTHROPIC, transcript("c"), ANTHROPIC.text_body("1"), ANTHROPIC.text_body("2")
    )

    async with CassetteTransport(recorded) as transport:
        model = ANTHROPIC.model(transport=transport)
        await replay(model, transcript("c"))
        with pytest.raises(AssertionError) as caught:
            transport.assert_consumed()
        assert str(caught.value) == (
            "1 recorded call(s) never played, from calls[1] (POST /v1/messages): "
            "the code made fewer calls than recorded"
        )
        await replay(model, transcript("c"))
        transport.assert_consumed()
        extra = await replay(model, transcript("c"))

    assert extra.error is not None
    assert extra.error.code is VendorErrorCode.HTTP_RECORDING_EXHAUSTED
    assert extra.error.message == "call 3 asked for a response; the recording holds 2"
    assert len(transport.requests) == 3


async def test_exhaustion_says_how_to_record_more_calls_when_told() -> None:
    recorded = await recording(ANTHROPIC, transcript("c"), ANTHROPIC.text_body("1"))
    hint = "Record the calls past the recorded ones with --course-record-mode=new_episodes"

    async with CassetteTransport(recorded, when_exhausted=hint) as transport:
        model = ANTHROPIC.model(transport=transport)
        await replay(model, transcript("c"))
        extra = await replay(model, transcript("c"))

    assert extra.error is not None
    assert extra.error.code is VendorErrorCode.HTTP_RECORDING_EXHAUSTED
    assert extra.error.message == f"call 2 asked for a response; the recording holds 1. {hint}"
    with pytest.raises(TypeError, match="when_exhausted must be a str"):
        CassetteTransport(recorded, when_exhausted=None)  # type: ignore[arg-type]


def test_paths_matching_nothing_are_those_no_recorded_request_body_has() -> None:
    answer = RecordedResponse(200, SSE, b"")
    recorded = cassette(
        call({"messages": [{"content": "hi"}], "metadata": {"user_id": "u-1"}}, answer),
        call({"messages": [{"content": "hi"}, {"content": "again", "id": "m-2"}]}, answer),
    )
    paths = [
        "metadata.user_idd",
        "metadata.user_id",
        "messages[*].id",
        "messages[*].contnet",
        "messages[2]",
        "[0]",
    ]

    assert recorded.paths_matching_nothing(paths) == (
        "metadata.user_idd",
        "messages[*].contnet",
        "messages[2]",
        "[0]",
    )
    assert cassette().paths_matching_nothing(["a"]) == ("a",), "no call holds anything"
    with pytest.raises(ValueError, match="JSON path"):
        recorded.paths_matching_nothing(["messages[0"])
    with pytest.raises(ValueError, match="the same thing twice"):
        recorded.paths_matching_nothing(["a", "a"])


@pytest.mark.parametrize("events_before_abort", range(5))
async def test_an_abort_at_any_point_of_a_replayed_stream_fails_it_with_the_reason(
    events_before_abort: int,
) -> None:
    recorded = await recording(ANTHROPIC, transcript("c"), ANTHROPIC.text_body("a", "b", "c", "d"))
    controller = AbortController()
    reason = RuntimeError("stop now")

    async with asyncio.timeout(GUARD_SECONDS), CassetteTransport(recorded, chunking="bytes") as t:
        stream = ANTHROPIC.model(transport=t).stream(transcript("c"), controller.signal)
        seen: list[CourseModelChunk] = []
        if events_before_abort == 0:
            controller.abort(reason)
        with pytest.raises(RuntimeError) as caught:
            await read_then_abort(stream, events_before_abort, controller, reason, seen)
        assert caught.value is reason
        with pytest.raises(RuntimeError) as result:
            await stream.result
        assert result.value is reason
    assert len(seen) == events_before_abort


async def read_then_abort(
    stream: EventStream[CourseModelChunk, CourseModelResponse],
    count: int,
    controller: AbortController,
    reason: BaseException,
    seen: list[CourseModelChunk],
) -> None:
    """Read ``stream`` into ``seen``, aborting with ``reason`` once ``count`` chunks arrived."""
    async for chunk in stream:
        seen.append(chunk)
        if len(seen) == count:
            controller.abort(reason)


def test_transport_arguments_are_checked() -> None:
    recorded = cassette(call({}, RecordedResponse(200, SSE, sse_body(2))))

    with pytest.raises(TypeError):
        CassetteTransport({"calls": []})  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="chunking"):
        CassetteTransport(recorded, chunking="lines")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="matching"):
        CassetteTransport(recorded, matching="order")  # type: ignore[arg-type]


async def events_of(transport: CassetteTransport, sent: HttpRequest) -> int:
    async with aclosing(
        stream_events(transport, sent, vendor="v", describe_error=read_error)
    ) as events:
        return len([event async for event in events])
