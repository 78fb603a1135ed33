"""LiveTransport on real sockets: what goes over the wire, and the failures only a network has."""

from __future__ import annotations

import asyncio
import json
import socket

import pytest

from course_http import (
    HttpRequest,
    LiveTransport,
    RecordedResponse,
    SseEvent,
    Timeouts,
    VendorError,
    VendorErrorCode,
)
from course_http.loopback import LoopbackServer
from tests.course_http.helpers import KEY, SSE, collect
from tests.streams import GUARD_SECONDS


def _unused_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


async def test_the_request_goes_out_as_compact_utf8_json_with_the_vendor_headers() -> None:
    async with (
        asyncio.timeout(GUARD_SECONDS),
        LoopbackServer([RecordedResponse(200, SSE, b"data: ok\n\n")]) as server,
        LiveTransport(server.base_url) as transport,
    ):
        assert await collect(transport) == [SseEvent("message", "ok")]
        [received] = server.requests
    assert (received.method, received.path) == ("POST", "/v1/messages?beta=true")
    assert received.body == (
        '{"model":"m","messages":[{"role":"user","content":"héllo"}],"stream":true}'.encode()
    )
    assert received.json() == json.loads(received.body)
    assert received.header("Content-Type") == "application/json"
    assert received.header("accept") == "text/event-stream"
    assert received.header("vendor-version") == "1"
    assert received.header("x-api-key") == KEY
    assert received.header("authorization") == f"Bearer {KEY}"
    assert received.header("content-length") == str(len(received.body))
    assert KEY not in repr(received)


async def test_a_base_url_with_a_path_prefix_keeps_it() -> None:
    async with (
        asyncio.timeout(GUARD_SECONDS),
        LoopbackServer([RecordedResponse(200, SSE)]) as server,
        LiveTransport(server.base_url + "/proxy/v1") as transport,
    ):
        await collect(transport, HttpRequest("/chat/completions", {}))
        assert server.requests[0].path == "/proxy/v1/chat/completions"


async def test_a_port_nothing_listens_on_is_a_connect_failure() -> None:
    async with (
        asyncio.timeout(GUARD_SECONDS),
        LiveTransport(f"http://127.0.0.1:{_unused_port()}") as transport,
    ):
        with pytest.raises(VendorError) as caught:
            await collect(transport)
    error = caught.value
    assert (error.code, error.status, error.event_index) == (
        VendorErrorCode.HTTP_CONNECT_FAILED,
        None,
        None,
    )
    assert error.message.startswith("could not connect: ")
    assert error.retryable
    assert KEY not in str(error) + repr(error)


async def test_tls_to_a_server_that_speaks_plain_http_is_a_connect_failure() -> None:
    async with (
        asyncio.timeout(GUARD_SECONDS),
        LoopbackServer([]) as server,
        LiveTransport(server.base_url.replace("http://", "https://")) as transport,
    ):
        with pytest.raises(VendorError) as caught:
            await collect(transport)
    assert caught.value.code is VendorErrorCode.HTTP_CONNECT_FAILED


async def test_the_connection_is_kept_alive_between_calls() -> None:
    responses = [RecordedResponse(200, SSE, b"data: %d\n\n" % n) for n in range(3)]
    async with (
        asyncio.timeout(GUARD_SECONDS),
        LoopbackServer(responses) as server,
        LiveTransport(server.base_url) as transport,
    ):
        for number in range(3):
            assert await collect(transport) == [SseEvent("message", str(number))]
        assert len(server.requests) == 3


async def test_a_closed_live_transport_refuses_to_send() -> None:
    transport = LiveTransport("http://127.0.0.1:9")
    await transport.aclose()
    with pytest.raises(RuntimeError, match="LiveTransport is closed"):
        await collect(transport)


@pytest.mark.parametrize(
    "base_url",
    [
        "ftp://example.com",
        "example.com",
        "http://",
        "https://user:secret@example.com",
        "https://example.com/v1?key=abc",
        "https://example.com/#frag",
        "http://exa mple.com",
    ],
)
def test_a_base_url_that_is_not_a_plain_http_url_is_refused(base_url: str) -> None:
    with pytest.raises(ValueError, match="base_url") as caught:
        LiveTransport(base_url)
    assert "secret" not in str(caught.value)


def test_a_live_transport_shows_its_url_and_its_limits() -> None:
    transport = LiveTransport("https://api.example.com", timeouts=Timeouts(read=30.0))
    assert repr(transport) == "LiveTransport(base_url='https://api.example.com')"
    assert transport.base_url == "https://api.example.com"
    assert transport.timeouts == Timeouts(connect=10.0, read=30.0, write=30.0, pool=10.0)
    with pytest.raises(TypeError, match="base_url"):
        LiveTransport(b"https://api.example.com")  # type: ignore[arg-type]
