"""RecordedTransport: what it saw sent, its chunkings, exhaustion and cancellation, no socket."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from contextlib import aclosing

import pytest
from frozendict import frozendict

from course_cassettes import Cassette, CassetteTransport
from course_conformance import blocked_network
from course_http import (
    REPLAY_TIMEOUTS,
    HttpRequest,
    LiveTransport,
    RecordedRequest,
    RecordedResponse,
    RecordedTransport,
    SseEvent,
    Timeouts,
    VendorError,
    VendorErrorCode,
    stream_events,
)
from course_http._recorded import cut_body
from tests.course_http.helpers import (
    FRAME_EVENTS,
    FRAMES,
    KEY,
    SSE,
    VENDOR,
    collect,
    read_error,
    request,
    sse_body,
)
from tests.streams import GUARD_SECONDS


@pytest.fixture(autouse=True)
def _no_network() -> Iterator[None]:
    with blocked_network() as attempts:
        yield
    assert attempts == []


async def test_requests_lists_what_was_sent_without_the_secret_headers() -> None:
    async with (
        asyncio.timeout(GUARD_SECONDS),
        RecordedTransport([RecordedResponse(200, SSE)]) as transport,
    ):
        await collect(transport)
        [sent] = transport.requests
    assert type(sent) is RecordedRequest
    assert (sent.method, sent.path) == ("POST", "/v1/messages?beta=true")
    assert sent.body == {
        "model": "m",
        "messages": ({"role": "user", "content": "héllo"},),
        "stream": True,
    }
    assert type(sent.body) is frozendict
    assert sent.headers["content-type"] == "application/json"
    assert sent.headers["accept"] == "text/event-stream"
    assert sent.headers["vendor-version"] == "1"
    assert "x-api-key" not in sent.headers
    assert "authorization" not in sent.headers
    assert KEY not in repr(transport.requests)


async def test_a_header_value_outside_ascii_is_played_as_its_bytes() -> None:
    # Latin-1 text, as a cassette may hold it: httpx2 alone would take ASCII only.
    served = RecordedResponse(200, {**SSE, "x-note": "café"}, FRAMES)
    async with asyncio.timeout(GUARD_SECONDS), RecordedTransport([served]) as transport:
        assert await collect(transport) == FRAME_EVENTS


async def test_a_call_beyond_the_recording_fails_with_the_exhaustion_code_and_is_listed() -> None:
    async with (
        asyncio.timeout(GUARD_SECONDS),
        RecordedTransport([RecordedResponse(200, SSE, sse_body(1))]) as transport,
    ):
        assert transport.pending_response_count == 1
        assert len(await collect(transport)) == 1
        assert transport.pending_response_count == 0
        with pytest.raises(VendorError) as caught:
            await collect(transport)
        assert len(transport.requests) == 2
        assert transport.pending_response_count == 0
    error = caught.value
    assert (error.code, error.vendor, error.status) == (
        VendorErrorCode.HTTP_RECORDING_EXHAUSTED,
        VENDOR,
        None,
    )
    assert error.message == "call 2 asked for a response; the recording holds 1"
    assert not error.retryable


@pytest.mark.parametrize("status", [101, 199])
async def test_an_informational_final_status_is_unexpected(status: int) -> None:
    async with (
        asyncio.timeout(GUARD_SECONDS),
        RecordedTransport([RecordedResponse(status)]) as transport,
    ):
        with pytest.raises(VendorError) as caught:
            await collect(transport)
    assert (caught.value.code, caught.value.status) == (
        VendorErrorCode.HTTP_UNEXPECTED_STATUS,
        status,
    )


@pytest.mark.parametrize("seed", range(5))
async def test_random_chunking_gives_the_same_events_for_any_seed(seed: int) -> None:
    body = FRAMES * 20
    async with (
        asyncio.timeout(GUARD_SECONDS),
        RecordedTransport(
            [RecordedResponse(200, SSE, body)], chunking="random", seed=seed
        ) as transport,
    ):
        assert await collect(transport) == FRAME_EVENTS * 20


def test_random_cuts_are_seeded_and_short_and_lose_no_byte() -> None:
    body = bytes(range(256)) * 8
    first = cut_body(body, "random", random.Random(3))
    assert first == cut_body(body, "random", random.Random(3))
    assert first != cut_body(body, "random", random.Random(4))
    assert b"".join(first) == body
    assert all(1 <= len(chunk) <= 64 for chunk in first)
    assert cut_body(body, "bytes", random.Random(0)) == [bytes([byte]) for byte in body]
    assert cut_body(body, "whole", random.Random(0)) == [body]
    assert cut_body(b"", "random", random.Random(0)) == []


@pytest.mark.parametrize("read", [None, 600.0, 0.001])
async def test_a_stall_fails_at_once_as_the_read_timeout_whatever_it_is(read: float | None) -> None:
    response = RecordedResponse(200, SSE, sse_body(1), end="stalled")
    # The guard is far below the live default: a replay that waited for it would fail here.
    async with (
        asyncio.timeout(GUARD_SECONDS),
        RecordedTransport([response], timeouts=Timeouts(read=read)) as transport,
    ):
        events: list[SseEvent] = []
        with pytest.raises(VendorError) as caught:
            await collect(transport, into=events)
    assert (caught.value.code, caught.value.event_index) == (VendorErrorCode.HTTP_TIMEOUT, 1)
    assert len(events) == 1


async def test_cancelling_at_every_await_point_leaves_nothing_behind_and_the_transport_usable() -> (
    None
):
    body = sse_body(6)
    turns = 0
    outcomes = []
    while True:
        responses = [RecordedResponse(200, SSE, body), RecordedResponse(200, SSE, body)]
        async with (
            asyncio.timeout(GUARD_SECONDS),
            RecordedTransport(responses, chunking="bytes") as transport,
        ):
            events: list[SseEvent] = []
            task = asyncio.create_task(collect(transport, into=events))
            for _ in range(turns):
                await asyncio.sleep(0)
            finished = task.done()
            task.cancel()
            try:
                await task
            except asyncio.CancelledError:
                outcomes.append(len(events))
            else:
                assert finished
            assert await collect(transport) == await _events_of(body)
        if finished:
            break
        turns += 1
    # Cancelled before the first event and after each but the last (which
    # comes with the last byte, after which the call ends without waiting).
    assert outcomes == sorted(outcomes)
    assert set(outcomes) == set(range(6))


async def _events_of(body: bytes) -> list[SseEvent]:
    async with RecordedTransport([RecordedResponse(200, SSE, body)]) as transport:
        return await collect(transport)


async def test_an_early_stop_under_aclosing_closes_the_response() -> None:
    async with (
        asyncio.timeout(GUARD_SECONDS),
        RecordedTransport([RecordedResponse(200, SSE, sse_body(5))], chunking="bytes") as transport,
    ):
        stream = stream_events(transport, request(), vendor=VENDOR, describe_error=read_error)
        async with aclosing(stream):
            async for event in stream:
                assert event == SseEvent("delta", '{"i":0}')
                break
        with pytest.raises(StopAsyncIteration):
            await anext(stream)


async def test_a_closed_transport_refuses_to_send() -> None:
    transport = RecordedTransport([RecordedResponse(200, SSE)])
    await transport.aclose()
    await transport.aclose()
    with pytest.raises(RuntimeError, match="RecordedTransport is closed"):
        await collect(transport)
    assert transport.requests == ()


async def test_a_lone_surrogate_in_the_body_is_sent_escaped_as_the_same_json() -> None:
    call = HttpRequest("/v1/x", {"text": "a\ud800b", "é": 1})
    async with (
        asyncio.timeout(GUARD_SECONDS),
        RecordedTransport([RecordedResponse(200, SSE)]) as transport,
    ):
        await collect(transport, call)
        [sent] = transport.requests
    assert sent.body == {"text": "a\ud800b", "é": 1}


async def test_stream_events_refuses_arguments_of_the_wrong_type() -> None:
    async with RecordedTransport([RecordedResponse(500, {}, b"{}")]) as transport:
        with pytest.raises(TypeError, match="transport must be an HttpTransport"):
            await anext(
                stream_events(object(), request(), vendor=VENDOR, describe_error=read_error)  # type: ignore[arg-type]
            )
        with pytest.raises(TypeError, match="request must be an HttpRequest"):
            await anext(
                stream_events(transport, {"path": "/x"}, vendor=VENDOR, describe_error=read_error)  # type: ignore[arg-type]
            )
        with pytest.raises(TypeError, match="describe_error must return a VendorErrorBody"):
            await anext(
                stream_events(transport, request(), vendor=VENDOR, describe_error=lambda b: {})  # type: ignore[arg-type,return-value]
            )


def test_construction_checks_every_argument() -> None:
    ok = RecordedResponse(200)
    with pytest.raises(TypeError, match="list or tuple"):
        RecordedTransport(iter([ok]))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"responses\[1\]"):
        RecordedTransport([ok, {"status": 200}])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="chunking"):
        RecordedTransport([ok], chunking="lines")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="seed"):
        RecordedTransport([ok], seed="1")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="base_url"):
        RecordedTransport([ok], base_url="ftp://recorded.invalid")
    with pytest.raises(TypeError, match="timeouts"):
        RecordedTransport([ok], timeouts=5.0)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("arguments", "error"),
    [
        ((True,), ValueError),
        ((99,), ValueError),
        ((1000,), ValueError),
        ((200, {"a": 1}), TypeError),
        ((200, [("a", "b")]), TypeError),
        ((200, {}, "text"), TypeError),
        ((200, {}, b"", "cut"), ValueError),
    ],
)
def test_a_recorded_response_checks_its_fields(arguments: tuple[object, ...], error: type) -> None:
    with pytest.raises(error):
        RecordedResponse(*arguments)  # type: ignore[arg-type]


def test_a_recorded_response_is_immutable_with_lower_case_header_names() -> None:
    body = bytearray(b"data: x\n\n")
    response = RecordedResponse(200, {"Content-Type": "text/event-stream"}, body)
    body[0:4] = b"xxxx"
    assert response.body == b"data: x\n\n"
    assert response.headers == {"content-type": "text/event-stream"}
    assert response.end == "complete"
    with pytest.raises(AttributeError):
        response.status = 500  # type: ignore[misc]


def test_the_repr_says_what_is_recorded_and_played() -> None:
    transport = RecordedTransport([RecordedResponse(200)] * 3, chunking="bytes")
    assert repr(transport) == (
        "RecordedTransport(responses=3, played=0, chunking='bytes', "
        "base_url='http://recorded.invalid')"
    )


async def test_replaying_transports_wait_ten_seconds_at_most_unless_told_otherwise() -> None:
    # A stalled recording replayed with the live 600 s read limit would hold a
    # test run for ten minutes; replays default to REPLAY_TIMEOUTS instead.
    given = Timeouts(read=0.5)
    async with (
        RecordedTransport([]) as recorded,
        CassetteTransport(Cassette()) as cassette,
        RecordedTransport([], timeouts=given) as told,
        LiveTransport("http://127.0.0.1:9") as live,
    ):
        assert recorded.timeouts is REPLAY_TIMEOUTS
        assert cassette.timeouts is REPLAY_TIMEOUTS
        assert told.timeouts is given
        assert live.timeouts == Timeouts()
    assert Timeouts(read=10.0) == REPLAY_TIMEOUTS
