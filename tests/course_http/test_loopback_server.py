"""LoopbackServer: serves what it is told, records what it gets, and always stops, bounded."""

from __future__ import annotations

import asyncio

import httpx2
import pytest

from course_http import LiveTransport, RecordedResponse, SseEvent, VendorError, VendorErrorCode
from course_http.loopback import (
    LoopbackEnd,
    LoopbackRequest,
    LoopbackResponse,
    LoopbackServer,
    in_order,
)
from tests.course_http.helpers import (
    FRAME_EVENTS,
    FRAMES,
    KEY,
    SSE,
    Arrivals,
    collect,
    sse_body,
)
from tests.streams import GUARD_SECONDS


async def test_responses_are_served_in_order_and_requests_recorded_as_received() -> None:
    responses = [RecordedResponse(200, SSE, b"data: %d\n\n" % n) for n in range(2)]
    async with (
        asyncio.timeout(GUARD_SECONDS),
        LoopbackServer(responses) as server,
        httpx2.AsyncClient(base_url=server.base_url) as client,
    ):
        first = await client.post("/one?x=1", content=b"abc", headers={"X-Thing": "A"})
        second = await client.get("/two")
        assert (first.status_code, first.text) == (200, "data: 0\n\n")
        assert second.text == "data: 1\n\n"
        assert first.headers["content-type"] == "text/event-stream"
        assert [await server.wait_ended(index) for index in range(2)] == [LoopbackEnd.COMPLETE] * 2
    one, two = server.requests
    assert (one.method, one.path, one.body, one.header("x-thing")) == (
        "POST",
        "/one?x=1",
        b"abc",
        "A",
    )
    assert (two.method, two.path, two.body) == ("GET", "/two", b"")
    assert ("x-thing", "A") in one.headers
    assert server.requests == (one, two), "still there after the server stopped"


async def test_header_text_goes_out_as_its_latin1_bytes_or_else_as_utf8_never_a_500() -> None:
    # "café" is one byte a character (as a cassette holds header values);
    # "€" is not Latin-1 at all: it goes out as the UTF-8 a server writes.
    served = RecordedResponse(200, {**SSE, "x-latin": "café", "x-euro": "€"}, b"data: 1\n\n")
    async with (
        asyncio.timeout(GUARD_SECONDS),
        LoopbackServer([served]) as server,
        httpx2.AsyncClient(base_url=server.base_url) as client,
    ):
        response = await client.post("/v1/messages", content=b"{}")
    raw = dict(response.headers.raw)
    assert (response.status_code, response.text) == (200, "data: 1\n\n")
    assert (raw[b"x-latin"], raw[b"x-euro"]) == (b"caf\xe9", "€".encode())


async def test_a_request_with_nothing_scripted_gets_a_500_that_says_so() -> None:
    async with (
        asyncio.timeout(GUARD_SECONDS),
        LoopbackServer([]) as server,
        httpx2.AsyncClient(base_url=server.base_url) as client,
    ):
        response = await client.post("/v1/messages", content=b"{}")
    assert response.status_code == 500
    assert "no response is scripted" in response.text


async def test_a_responder_chooses_what_to_serve_from_the_request() -> None:
    def respond(request: LoopbackRequest) -> RecordedResponse:
        return RecordedResponse(200, SSE, b"data: " + request.path.encode() + b"\n\n")

    async with (
        asyncio.timeout(GUARD_SECONDS),
        LoopbackServer(respond) as server,
        LiveTransport(server.base_url) as transport,
    ):
        assert await collect(transport) == [SseEvent("message", "/v1/messages?beta=true")]


@pytest.mark.parametrize(
    "chunking", ["whole", "bytes", (1, 2, 3, 40, 41), tuple(range(1, len(FRAMES), 7))]
)
async def test_any_chunking_and_pauses_deliver_the_same_events(
    chunking: str | tuple[int, ...],
) -> None:
    served = LoopbackResponse(RecordedResponse(200, SSE, FRAMES), chunking=chunking, delay=0.002)  # type: ignore[arg-type]
    async with (
        asyncio.timeout(GUARD_SECONDS),
        LoopbackServer([served]) as server,
        LiveTransport(server.base_url) as transport,
    ):
        assert await collect(transport) == FRAME_EVENTS


def test_cut_points_cut_the_body_exactly_there() -> None:
    response = RecordedResponse(200, SSE, b"abcdefgh")
    assert LoopbackResponse(response, chunking=[2, 5]).chunks() == [b"ab", b"cde", b"fgh"]
    assert LoopbackResponse(response, chunking="bytes").chunks() == [
        bytes([c]) for c in b"abcdefgh"
    ]
    assert LoopbackResponse(response).chunks() == [b"abcdefgh"]
    assert LoopbackResponse(RecordedResponse(200)).chunks() == []


@pytest.mark.parametrize(
    ("arguments", "error"),
    [
        ({"chunking": (0, 3)}, ValueError),
        ({"chunking": (3, 3)}, ValueError),
        ({"chunking": (5, 2)}, ValueError),
        ({"chunking": (8,)}, ValueError),
        ({"chunking": (1.5,)}, TypeError),
        ({"chunking": "lines"}, TypeError),
        ({"delay": -1}, ValueError),
        ({"delay": float("nan")}, ValueError),
        ({"delay": "1"}, ValueError),
    ],
)
def test_a_loopback_response_checks_its_cuts_and_delay(
    arguments: dict[str, object], error: type
) -> None:
    with pytest.raises(error):
        LoopbackResponse(RecordedResponse(200, SSE, b"abcdefgh"), **arguments)  # type: ignore[arg-type]


def test_in_order_refuses_what_it_cannot_serve() -> None:
    with pytest.raises(TypeError, match="list or tuple"):
        in_order(iter([]))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"responses\[0\]"):
        in_order([b"data: x\n\n"])  # type: ignore[list-item]


async def test_stopping_does_not_hang_on_a_stalled_response_and_the_client_sees_the_cut() -> None:
    stalled = RecordedResponse(200, SSE, sse_body(1), end="stalled")
    async with (
        asyncio.timeout(GUARD_SECONDS),
        LoopbackServer([stalled]) as server,
        LiveTransport(server.base_url) as transport,
    ):
        events = Arrivals()
        task = asyncio.create_task(collect(transport, into=events))
        await events.first.wait()
        await server.stop()
        with pytest.raises(VendorError) as caught:
            await task
        assert await server.wait_ended(0) is LoopbackEnd.SERVER_STOPPED
    assert (caught.value.code, caught.value.event_index) == (
        VendorErrorCode.HTTP_STREAM_INTERRUPTED,
        1,
    )


async def test_stopping_closes_idle_keep_alive_connections_of_a_client_still_open() -> None:
    async with (
        asyncio.timeout(GUARD_SECONDS),
        LoopbackServer([RecordedResponse(200, SSE, b"data: a\n\n")] * 2) as server,
        LiveTransport(server.base_url) as transport,
    ):
        assert await collect(transport) == [SseEvent("message", "a")]
        await server.stop()
        with pytest.raises(VendorError) as caught:
            await collect(transport)
    assert caught.value.code in (
        VendorErrorCode.HTTP_CONNECT_FAILED,
        VendorErrorCode.HTTP_STREAM_INTERRUPTED,
    )


async def test_a_server_starts_once_and_has_no_url_before_it_starts() -> None:
    server = LoopbackServer([])
    with pytest.raises(RuntimeError, match="has not started"):
        server.base_url  # noqa: B018
    assert repr(server) == "LoopbackServer(not started, 0 requests)"
    async with asyncio.timeout(GUARD_SECONDS), server:
        assert server.base_url.startswith("http://127.0.0.1:")
        with pytest.raises(RuntimeError, match="starts once"):
            await server.__aenter__()
    await server.stop()


@pytest.mark.parametrize("stop_timeout", [0, -1, float("inf"), "5"])
def test_the_stop_timeout_must_be_positive_and_finite(stop_timeout: object) -> None:
    with pytest.raises(ValueError, match="stop_timeout"):
        LoopbackServer([], stop_timeout=stop_timeout)  # type: ignore[arg-type]


def test_a_received_request_never_shows_a_secret_header() -> None:
    received = LoopbackRequest(
        "POST", "/v1", (("x-api-key", KEY), ("authorization", f"Bearer {KEY}"), ("a", "b")), b"{}"
    )
    assert KEY not in repr(received)
    assert "('a', 'b')" in repr(received)
    assert received.header("X-API-KEY") == KEY
    assert received.header("missing") is None
