"""stream_events over both transports: the same events and the same codes, live or recorded.

Every test here runs twice (the ``kind`` fixture): over a `RecordedTransport`
inside ``blocked_network()``, and over a `LiveTransport` talking to a
loopback server on 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import gzip
import pickle
import zlib

import pytest

from course_http import (
    ERROR_BODY_LIMIT,
    RecordedResponse,
    SseEvent,
    Timeouts,
    VendorError,
    VendorErrorCode,
    stream_events,
)
from course_http.loopback import LoopbackEnd
from tests.course_http.helpers import (
    FRAME_EVENTS,
    FRAMES,
    JSON,
    KEY,
    SSE,
    VENDOR,
    Arrivals,
    ErrorBodies,
    RigKind,
    collect,
    error_json,
    read_error,
    request,
    rig,
    sse_body,
)
from tests.streams import GUARD_SECONDS

Code = VendorErrorCode


@pytest.mark.parametrize("chunking", ["whole", "bytes"])
async def test_events_arrive_in_order_whatever_the_chunking(kind: RigKind, chunking: str) -> None:
    async with (
        asyncio.timeout(GUARD_SECONDS),
        rig(kind, [RecordedResponse(200, SSE, FRAMES)], chunking=chunking) as served,  # type: ignore[arg-type]
    ):
        assert await collect(served.transport) == FRAME_EVENTS
        assert await served.ended(0) in (None, LoopbackEnd.COMPLETE)


@pytest.mark.parametrize("chunking", ["whole", "bytes"])
@pytest.mark.parametrize("encoding", ["gzip", "deflate"])
async def test_a_compressed_body_is_decoded_by_the_client(
    kind: RigKind, chunking: str, encoding: str
) -> None:
    compressed = gzip.compress(FRAMES) if encoding == "gzip" else zlib.compress(FRAMES)
    headers = {**SSE, "content-encoding": encoding}
    async with (
        asyncio.timeout(GUARD_SECONDS),
        rig(kind, [RecordedResponse(200, headers, compressed)], chunking=chunking) as served,  # type: ignore[arg-type]
    ):
        assert await collect(served.transport) == FRAME_EVENTS


async def test_an_empty_event_stream_yields_nothing_and_is_no_error(kind: RigKind) -> None:
    async with asyncio.timeout(GUARD_SECONDS), rig(kind, [RecordedResponse(200, SSE)]) as served:
        assert await collect(served.transport) == []


@pytest.mark.parametrize(
    "content_type",
    ["text/event-stream; charset=utf-8", "Text/Event-Stream", "text/event-stream ;q=1"],
)
async def test_the_event_stream_media_type_is_matched_without_its_parameters(
    kind: RigKind, content_type: str
) -> None:
    response = RecordedResponse(200, {"content-type": content_type}, b"data: x\n\n")
    async with asyncio.timeout(GUARD_SECONDS), rig(kind, [response]) as served:
        assert await collect(served.transport) == [SseEvent("message", "x")]


@pytest.mark.parametrize(
    ("status", "code"),
    [
        (400, Code.HTTP_REQUEST_REJECTED),
        (401, Code.HTTP_UNAUTHORIZED),
        (403, Code.HTTP_UNAUTHORIZED),
        (404, Code.HTTP_REQUEST_REJECTED),
        (413, Code.HTTP_REQUEST_REJECTED),
        (429, Code.HTTP_RATE_LIMITED),
        (500, Code.HTTP_SERVER_ERROR),
        (502, Code.HTTP_SERVER_ERROR),
        (503, Code.HTTP_OVERLOADED),
        (529, Code.HTTP_OVERLOADED),
        (302, Code.HTTP_UNEXPECTED_STATUS),
        (307, Code.HTTP_UNEXPECTED_STATUS),
    ],
)
async def test_each_failing_status_has_its_code_with_the_vendor_error_and_retry_after(
    kind: RigKind, status: int, code: VendorErrorCode
) -> None:
    headers = {**JSON, "retry-after": "7", "location": "http://elsewhere.invalid/"}
    body = error_json("some_error", "Something went wrong", code="E42")
    async with (
        asyncio.timeout(GUARD_SECONDS),
        rig(kind, [RecordedResponse(status, headers, body)]) as served,
    ):
        with pytest.raises(VendorError) as caught:
            await collect(served.transport)
        if served.server is not None:
            assert len(served.server.requests) == 1, "a redirect must not be followed"
    error = caught.value
    assert error.code is code
    assert (error.vendor, error.status, error.event_index) == (VENDOR, status, None)
    assert (error.vendor_type, error.vendor_code, error.vendor_message) == (
        "some_error",
        "E42",
        "Something went wrong",
    )
    assert error.retry_after == 7.0
    assert error.message == f"HTTP {status}: some_error: Something went wrong"
    assert error.retryable is (
        code in {Code.HTTP_RATE_LIMITED, Code.HTTP_OVERLOADED, Code.HTTP_SERVER_ERROR}
    )


@pytest.mark.parametrize(
    ("headers", "retry_after"),
    [
        ({"retry-after": "3"}, 3.0),
        ({"retry-after": "0.5"}, 0.5),
        ({"retry-after-ms": "1500", "retry-after": "9"}, 1.5),
        (
            {
                "retry-after": "Wed, 21 Oct 2015 07:28:30 GMT",
                "date": "Wed, 21 Oct 2015 07:28:00 GMT",
            },
            30.0,
        ),
        (
            {
                "retry-after": "Wed, 21 Oct 2015 07:27:00 GMT",
                "date": "Wed, 21 Oct 2015 07:28:00 GMT",
            },
            0.0,
        ),
        ({"retry-after": "soon"}, None),
        ({"retry-after": "-4"}, None),
        ({"retry-after-ms": "nan"}, None),
        ({}, None),
    ],
)
async def test_a_429_says_when_to_retry_from_its_headers(
    kind: RigKind, headers: dict[str, str], retry_after: float | None
) -> None:
    response = RecordedResponse(429, {**JSON, **headers}, error_json("rate_limit_error", "slow"))
    async with asyncio.timeout(GUARD_SECONDS), rig(kind, [response]) as served:
        with pytest.raises(VendorError) as caught:
            await collect(served.transport)
    assert caught.value.code is Code.HTTP_RATE_LIMITED
    assert caught.value.retry_after == retry_after


@pytest.mark.parametrize("body", [b"", b"<html>Bad gateway</html>", b'{"error": "not an object"}'])
async def test_an_error_body_the_adapter_cannot_read_still_gives_the_status(
    kind: RigKind, body: bytes
) -> None:
    async with (
        asyncio.timeout(GUARD_SECONDS),
        rig(kind, [RecordedResponse(502, {"content-type": "text/html"}, body)]) as served,
    ):
        with pytest.raises(VendorError) as caught:
            await collect(served.transport)
    error = caught.value
    assert (error.code, error.status) == (Code.HTTP_SERVER_ERROR, 502)
    assert (error.vendor_type, error.vendor_code, error.vendor_message) == (None, None, None)
    assert error.message == "HTTP 502: no error description the adapter could read in the body"


async def test_the_error_body_is_read_up_to_64_kib_and_no_further(kind: RigKind) -> None:
    bodies = ErrorBodies()
    huge = b"x" * (4 * ERROR_BODY_LIMIT)
    async with (
        asyncio.timeout(GUARD_SECONDS),
        rig(kind, [RecordedResponse(500, JSON, huge)], chunking="whole") as served,
    ):
        with pytest.raises(VendorError) as caught:
            await collect(served.transport, describe_error=bodies)
    assert caught.value.code is Code.HTTP_SERVER_ERROR
    assert bodies.bodies == [b"x" * ERROR_BODY_LIMIT]


@pytest.mark.parametrize(
    "headers", [JSON, {"content-type": "text/plain"}, {}], ids=["json", "text", "untyped"]
)
async def test_a_success_that_is_not_an_event_stream_fails_with_its_status(
    kind: RigKind, headers: dict[str, str]
) -> None:
    body = error_json("overloaded_error", "Overloaded")
    async with (
        asyncio.timeout(GUARD_SECONDS),
        rig(kind, [RecordedResponse(200, headers, body)]) as served,
    ):
        with pytest.raises(VendorError) as caught:
            await collect(served.transport)
    error = caught.value
    assert (error.code, error.status, error.event_index) == (Code.HTTP_NOT_EVENT_STREAM, 200, None)
    assert error.vendor_type == "overloaded_error"
    assert error.message.startswith("HTTP 200: the body is not text/event-stream")


async def test_a_body_cut_mid_stream_fails_after_the_events_that_arrived_whole(
    kind: RigKind,
) -> None:
    body = sse_body(4)
    cuts = range(1, len(body))
    responses = [RecordedResponse(200, SSE, body[:cut], end="interrupted") for cut in cuts]
    async with asyncio.timeout(GUARD_SECONDS), rig(kind, responses) as served:
        for index, cut in enumerate(cuts):
            events: list[SseEvent] = []
            with pytest.raises(VendorError) as caught:
                await collect(served.transport, into=events)
            complete = body[:cut].count(b"\n\n")
            assert caught.value.code is Code.HTTP_STREAM_INTERRUPTED, cut
            assert caught.value.event_index == complete == len(events), cut
            assert events == [SseEvent("delta", f'{{"i":{i}}}') for i in range(complete)]
            assert caught.value.retryable
            assert await served.ended(index) in (None, LoopbackEnd.INTERRUPTED)


async def test_a_stalled_body_fails_with_a_read_timeout_after_the_events_so_far(
    kind: RigKind,
) -> None:
    response = RecordedResponse(200, SSE, sse_body(2), end="stalled")
    async with (
        asyncio.timeout(GUARD_SECONDS),
        rig(kind, [response], timeouts=Timeouts(read=0.2)) as served,
    ):
        events: list[SseEvent] = []
        with pytest.raises(VendorError) as caught:
            await collect(served.transport, into=events)
        assert await served.ended(0) in (None, LoopbackEnd.CLIENT_DISCONNECTED)
    assert (caught.value.code, caught.value.event_index) == (Code.HTTP_TIMEOUT, 2)
    assert len(events) == 2
    assert caught.value.retryable


async def test_cancelling_the_consumer_of_a_stalled_live_stream_releases_the_connection() -> None:
    # Live only: a replay never waits on a stall (test_recorded_transport).
    response = RecordedResponse(200, SSE, sse_body(1), end="stalled")
    async with asyncio.timeout(GUARD_SECONDS), rig("live", [response]) as served:
        events = Arrivals()
        task = asyncio.create_task(collect(served.transport, into=events))
        await events.first.wait()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert await served.ended(0) in (None, LoopbackEnd.CLIENT_DISCONNECTED)
    assert events == [SseEvent("delta", '{"i":0}')]


async def test_closing_the_event_generator_mid_stream_releases_the_connection(
    kind: RigKind,
) -> None:
    response = RecordedResponse(200, SSE, sse_body(3), end="stalled")
    async with asyncio.timeout(GUARD_SECONDS), rig(kind, [response, response]) as served:
        stream = stream_events(
            served.transport, request(), vendor=VENDOR, describe_error=read_error
        )
        assert await anext(stream) == SseEvent("delta", '{"i":0}')
        await stream.aclose()
        with pytest.raises(StopAsyncIteration):
            await anext(stream)
        assert await served.ended(0) in (None, LoopbackEnd.CLIENT_DISCONNECTED)
        # The transport is still usable: the next call gets the next response.
        stream = stream_events(
            served.transport, request(), vendor=VENDOR, describe_error=read_error
        )
        assert await anext(stream) == SseEvent("delta", '{"i":0}')
        await stream.aclose()


async def test_invalid_utf8_fails_after_the_events_before_it_and_never_is_replaced(
    kind: RigKind,
) -> None:
    body = sse_body(2) + b"data: caf\xe9\n\n" + sse_body(1)
    async with (
        asyncio.timeout(GUARD_SECONDS),
        rig(kind, [RecordedResponse(200, SSE, body)], chunking="bytes") as served,
    ):
        events: list[SseEvent] = []
        with pytest.raises(VendorError) as caught:
            await collect(served.transport, into=events)
    assert (caught.value.code, caught.value.event_index) == (Code.VENDOR_INVALID_EVENT, 2)
    assert len(events) == 2
    assert f"byte {len(sse_body(2)) + 9}" in caught.value.message


async def test_a_corrupt_compressed_body_is_an_invalid_event_not_a_crash(kind: RigKind) -> None:
    corrupt = gzip.compress(FRAMES)[:12] + b"\xff" * 40
    headers = {**SSE, "content-encoding": "gzip"}
    async with (
        asyncio.timeout(GUARD_SECONDS),
        rig(kind, [RecordedResponse(200, headers, corrupt)]) as served,
    ):
        with pytest.raises(VendorError) as caught:
            await collect(served.transport)
    assert caught.value.code is Code.VENDOR_INVALID_EVENT
    assert caught.value.event_index == 0


async def test_the_key_never_reaches_an_error_message_or_repr(kind: RigKind) -> None:
    echoing = error_json("authentication_error", f"invalid x-api-key {KEY}", code=KEY)
    responses = [
        RecordedResponse(401, JSON, echoing),
        RecordedResponse(200, SSE, sse_body(1) + b"data: cut", end="interrupted"),
    ]
    async with asyncio.timeout(GUARD_SECONDS), rig(kind, responses) as served:
        errors = []
        for _ in responses:
            with pytest.raises(VendorError) as caught:
                await collect(served.transport)
            errors.append(caught.value)
        shown = repr(served.transport)
        if served.server is not None:
            assert served.server.requests[0].header("x-api-key") == KEY
            shown += repr(served.server.requests) + repr(served.server)
    assert errors[0].code is Code.HTTP_UNAUTHORIZED
    assert errors[0].vendor_message == "invalid x-api-key [redacted]"
    for error in errors:
        text = str(error) + repr(error) + repr(error.__dict__)
        assert KEY not in text
        assert KEY.encode() not in pickle.dumps(error)
    assert KEY not in shown
