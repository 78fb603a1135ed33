"""A vendor model's failures before and under the stream, against a real loopback server.

One server per vendor API serves every failure in turn (statuses with the
vendor's own error body, a body that is not SSE, a dropped connection, a
stall); each call must fail with its ``course_http`` code and the vendor's
type, code and message, and the key must show up nowhere: not in an error,
a repr or a log record.
"""

from __future__ import annotations

import asyncio
import logging
import socket
from dataclasses import dataclass

import pytest

from course_http import (
    LiveTransport,
    RecordedResponse,
    Timeouts,
    VendorError,
    VendorErrorCode,
)
from course_http.loopback import LoopbackServer
from course_protocol import CourseModelChunk, CourseTextDeltaChunk
from course_stream import AbortController
from tests.course_vendor.wires import (
    JSON,
    KEY,
    REQUEST,
    AnyModel,
    Wire,
    every_wire,
    read_into,
)
from tests.streams import GUARD_SECONDS

Code = VendorErrorCode


@dataclass(frozen=True)
class Case:
    """One scripted failure and what the call must fail with."""

    name: str
    status: int
    headers: dict[str, str]
    vendor_error: tuple[str, str] | None
    code: VendorErrorCode
    retry_after: float | None = None
    raw_body: bytes | None = None


CASES = (
    Case(
        "unauthorized",
        401,
        JSON,
        ("authentication_error", f"invalid key {KEY}"),
        Code.HTTP_UNAUTHORIZED,
    ),
    Case(
        "bad-request",
        400,
        JSON,
        ("invalid_request_error", "max_tokens: too big"),
        Code.HTTP_REQUEST_REJECTED,
    ),
    Case(
        "not-found",
        404,
        JSON,
        ("not_found_error", "model: no-such-model"),
        Code.HTTP_REQUEST_REJECTED,
    ),
    Case(
        "rate-limited",
        429,
        {**JSON, "retry-after": "7"},
        ("rate_limit_error", "slow down"),
        Code.HTTP_RATE_LIMITED,
        retry_after=7.0,
    ),
    Case("overloaded", 529, JSON, ("overloaded_error", "Overloaded"), Code.HTTP_OVERLOADED),
    Case("server-error", 500, JSON, ("api_error", "Internal server error"), Code.HTTP_SERVER_ERROR),
    Case(
        "bad-gateway",
        502,
        {"content-type": "text/html"},
        None,
        Code.HTTP_SERVER_ERROR,
        raw_body=b"<html><body>502 Bad Gateway</body></html>",
    ),
    Case(
        "not-sse",
        200,
        {"content-type": "text/html"},
        None,
        Code.HTTP_NOT_EVENT_STREAM,
        raw_body=b"<html>a login page</html>",
    ),
)


RETRYABLE = {
    Code.HTTP_RATE_LIMITED,
    Code.HTTP_OVERLOADED,
    Code.HTTP_SERVER_ERROR,
    Code.HTTP_STREAM_INTERRUPTED,
    Code.HTTP_TIMEOUT,
    Code.HTTP_CONNECT_FAILED,
}


def served(wire: Wire, case: Case) -> RecordedResponse:
    if case.raw_body is not None:
        return RecordedResponse(case.status, case.headers, case.raw_body)
    assert case.vendor_error is not None
    return RecordedResponse(case.status, case.headers, wire.error_body(*case.vendor_error))


async def outcome_of(model: AnyModel) -> tuple[list[CourseModelChunk], VendorError]:
    """One call that must fail: the chunks before the failure, and the `VendorError`.

    Iteration and the result must fail with the very same error object.
    """
    stream = model.stream(REQUEST, AbortController().signal)
    chunks: list[CourseModelChunk] = []
    with pytest.raises(VendorError) as from_iteration:
        await read_into(stream, chunks)
    with pytest.raises(VendorError) as from_result:
        await stream.result
    assert from_result.value is from_iteration.value
    return chunks, from_iteration.value


def assert_no_key(error: VendorError) -> None:
    for shown in (str(error), repr(error), error.vendor_message or "", error.vendor_type or ""):
        assert KEY not in shown


@every_wire
async def test_each_failure_before_the_stream_has_its_code_and_the_vendors_words(
    wire: Wire, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    body = wire.text_body("cut", " here", " never")
    events = wire.text_events("cut", " here", " never")
    second = next(index for index, event in enumerate(events) if " here" in event.data)
    # Halfway into the event of the second delta.
    cut = len(wire.framed(events[:second])) + len(wire.framed(events[second : second + 1])) // 2
    responses = [
        *(served(wire, case) for case in CASES),
        RecordedResponse(200, wire.media, body[:cut], end="interrupted"),
        RecordedResponse(200, wire.media, body[:cut], end="stalled"),
    ]
    async with (
        asyncio.timeout(GUARD_SECONDS),
        LoopbackServer(responses) as server,
        wire.model(api_key=KEY, base_url=server.base_url) as model,
        LiveTransport(server.base_url, timeouts=Timeouts(read=0.25)) as impatient,
    ):
        for case in CASES:
            chunks, error = await outcome_of(model)

            assert chunks == [], case.name
            assert (error.code, error.status, error.vendor, error.retry_after) == (
                case.code,
                case.status,
                wire.name,
                case.retry_after,
            ), case.name
            if case.vendor_error is None:
                assert (error.vendor_type, error.vendor_message) == (None, None), case.name
            else:
                kind, message = case.vendor_error
                assert error.vendor_type == kind, case.name
                assert error.vendor_message == message.replace(KEY, "[redacted]"), case.name
                assert kind in error.message
            assert error.retryable is (case.code in RETRYABLE), case.name
            assert_no_key(error)

        chunks, interrupted = await outcome_of(model)
        assert interrupted.code is Code.HTTP_STREAM_INTERRUPTED
        assert chunks == [CourseTextDeltaChunk("request-1", "cut")]
        assert interrupted.retryable

        stalling = wire.model(api_key=KEY, transport=impatient)
        chunks, stalled = await outcome_of(stalling)
        assert stalled.code is Code.HTTP_TIMEOUT
        assert chunks == [CourseTextDeltaChunk("request-1", "cut")]

    assert [request.path for request in server.requests] == [wire.path] * len(responses)
    for record in caplog.records:
        assert KEY not in record.getMessage()
        assert KEY not in repr(record.args)


@every_wire
async def test_a_refused_connection_fails_with_its_code_before_any_chunk(wire: Wire) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    # Nothing listens on the port any more: the connection is refused.
    async with (
        asyncio.timeout(GUARD_SECONDS),
        wire.model(api_key=KEY, base_url=f"http://127.0.0.1:{port}") as model,
    ):
        chunks, error = await outcome_of(model)

    assert chunks == []
    assert (error.code, error.status, error.vendor) == (Code.HTTP_CONNECT_FAILED, None, wire.name)
    assert error.retryable
    assert_no_key(error)
