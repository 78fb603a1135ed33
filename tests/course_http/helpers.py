"""Shared pieces of the course_http tests: bodies, an error reader, and the two transport rigs.

A *rig* serves a list of `RecordedResponse` through one of the two
transports: ``recorded`` (a `RecordedTransport`, inside ``blocked_network()``
so any socket would fail the test) or ``live`` (a `LiveTransport` talking
to a `LoopbackServer` on 127.0.0.1). Tests written against a rig run on both.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import aclosing, asynccontextmanager
from dataclasses import dataclass
from typing import Literal

import httpx2

from course_conformance import blocked_network
from course_http import (
    HttpRequest,
    HttpTransport,
    LiveTransport,
    RecordedResponse,
    RecordedTransport,
    SseDecoder,
    SseEvent,
    Timeouts,
    VendorErrorBody,
    stream_events,
)
from course_http.loopback import LoopbackEnd, LoopbackResponse, LoopbackServer
from tests.streams import GUARD_SECONDS

VENDOR = "test-vendor"
KEY = "sk-test-0123456789abcdefSECRET"
SSE = {"content-type": "text/event-stream"}
JSON = {"content-type": "application/json"}

FRAMES = (
    b'event: start\ndata: {"n":0}\n\n'
    b": a comment\n\n"
    b"data: plain\n\n"
    b"event: delta\r\ndata: line one\r\ndata: line two\r\n\r\n"
    b'event: stop\rdata: {"n":3}\r\r'
)
"""A body of four events that uses every line ending and a comment."""

FRAME_EVENTS = [
    SseEvent("start", '{"n":0}'),
    SseEvent("message", "plain"),
    SseEvent("delta", "line one\nline two"),
    SseEvent("stop", '{"n":3}'),
]


def sse_body(count: int) -> bytes:
    """``count`` LF-framed events named ``delta`` whose data is ``{"i":<n>}``."""
    return b"".join(b'event: delta\ndata: {"i":%d}\n\n' % index for index in range(count))


def request(headers: dict[str, str] | None = None) -> HttpRequest:
    """A vendor request carrying `KEY` in ``x-api-key`` (and ``authorization``)."""
    return HttpRequest(
        "/v1/messages?beta=true",
        {"model": "m", "messages": [{"role": "user", "content": "héllo"}], "stream": True},
        headers
        if headers is not None
        else {"x-api-key": KEY, "authorization": f"Bearer {KEY}", "vendor-version": "1"},
    )


def error_json(kind: str, message: str, code: str | None = None) -> bytes:
    """An error body in the test vendor's shape."""
    error: dict[str, object] = {"type": kind, "message": message}
    if code is not None:
        error["code"] = code
    return json.dumps({"error": error}).encode()


def read_error(body: bytes) -> VendorErrorBody | None:
    """The test vendor's `ErrorBodyReader`: ``{"error": {"type", "code", "message"}}``."""
    try:
        document = json.loads(body)
    except ValueError:
        return None
    error = document.get("error") if type(document) is dict else None
    if type(error) is not dict:
        return None

    def text(name: str) -> str | None:
        value = error.get(name)
        return value if type(value) is str else None

    return VendorErrorBody(text("type"), text("code"), text("message"))


class ErrorBodies:
    """An `ErrorBodyReader` that remembers every body it was given."""

    def __init__(self) -> None:
        self.bodies: list[bytes] = []

    def __call__(self, body: bytes) -> VendorErrorBody | None:
        self.bodies.append(body)
        return read_error(body)


class Arrivals(list[SseEvent]):
    """The events of a call as they arrive; ``first`` is set when one has."""

    def __init__(self) -> None:
        super().__init__()
        self.first = asyncio.Event()

    def append(self, event: SseEvent) -> None:
        super().append(event)
        self.first.set()


async def collect(
    transport: HttpTransport,
    call: HttpRequest | None = None,
    *,
    describe_error: Callable[[bytes], VendorErrorBody | None] = read_error,
    into: list[SseEvent] | None = None,
) -> list[SseEvent]:
    """Every event of one call, in order (appended to ``into`` as they come, when given)."""
    events = [] if into is None else into
    async with aclosing(
        stream_events(transport, call or request(), vendor=VENDOR, describe_error=describe_error)
    ) as stream:
        async for event in stream:
            events.append(event)
    return events


Pair = tuple[str, str]
"""An event as (event, data), to compare framings."""


class _Chunks(httpx2.AsyncByteStream):
    def __init__(self, chunks: list[bytes]) -> None:
        self._chunks = chunks

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for chunk in self._chunks:
            yield chunk


def frame_with_decoder(chunks: list[bytes]) -> list[Pair]:
    """(event, data) of every event `SseDecoder` gives for ``chunks``, the body closed."""
    decoder = SseDecoder(vendor=VENDOR)
    events = []
    for chunk in chunks:
        events += decoder.feed_bytes(chunk)
    events += decoder.close()
    return [(event.event, event.data) for event in events]


async def frame_with_event_source(chunks: list[bytes]) -> list[Pair]:
    """(event, data) of every event httpx2's own EventSource gives for ``chunks``.

    Events with empty data are left out: EventSource dispatches a frame that has
    no ``data`` field as one, where WHATWG (and `SseDecoder`) dispatch nothing.
    """
    response = httpx2.Response(
        200,
        headers={"content-type": "text/event-stream"},
        stream=_Chunks(chunks),
        request=httpx2.Request("GET", "http://sse.invalid/"),
    )
    events = [event async for event in httpx2.EventSource(response, max_event_size=None)]
    await response.aclose()
    return [(event.event, event.data) for event in events if event.data != ""]


RigKind = Literal["recorded", "live"]


@dataclass
class Rig:
    """A transport serving scripted responses; ``server`` is the loopback server when live."""

    kind: RigKind
    transport: HttpTransport
    server: LoopbackServer | None

    async def ended(self, index: int) -> LoopbackEnd | None:
        """How exchange ``index`` ended on the server (``None`` for the recorded rig)."""
        if self.server is None:
            return None
        async with asyncio.timeout(GUARD_SECONDS):
            return await self.server.wait_ended(index)


@asynccontextmanager
async def rig(
    kind: RigKind,
    responses: Sequence[RecordedResponse],
    *,
    chunking: Literal["whole", "bytes"] = "whole",
    timeouts: Timeouts | None = None,
) -> AsyncIterator[Rig]:
    """Serve ``responses`` through the ``kind`` transport; everything is closed on exit."""
    if kind == "recorded":
        with blocked_network() as attempts:
            async with RecordedTransport(
                list(responses), chunking=chunking, timeouts=timeouts
            ) as transport:
                yield Rig(kind, transport, None)
        assert attempts == [], f"the recorded transport touched the network: {attempts}"
        return
    served = [LoopbackResponse(response, chunking=chunking) for response in responses]
    async with (
        LoopbackServer(served) as server,
        LiveTransport(server.base_url, timeouts=timeouts) as transport,
    ):
        yield Rig(kind, transport, server)
