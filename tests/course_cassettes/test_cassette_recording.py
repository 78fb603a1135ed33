"""RecordingTransport: real calls (to a loopback server) written to a cassette as they were.

A recorded call replays to the same outcome: the same chunks and response,
or the same typed failure (code, status, event index, vendor fields).
"""

from __future__ import annotations

import asyncio
import base64
import gzip
import json
import socket
from contextlib import aclosing
from pathlib import Path

import pytest

from course_cassettes import (
    CassetteCall,
    CassetteTransport,
    RecordingTransport,
    Redaction,
    load_cassette,
)
from course_http import (
    REDACTED,
    HttpRequest,
    RecordedResponse,
    SseEvent,
    Timeouts,
    VendorError,
    VendorErrorCode,
    stream_events,
)
from course_http.loopback import LoopbackResponse
from course_protocol import (
    CourseModelRequest,
    CourseTextDeltaChunk,
    CourseUserMessage,
    thaw_json,
)
from tests.course_cassettes.cassettes import REAL_LOOKING_KEY, document, recorded_through_loopback
from tests.course_cassettes.replays import Replayed, replay
from tests.course_http.helpers import SSE, read_error, sse_body
from tests.course_vendor.wires import WIRES, Wire, every_wire
from tests.streams import GUARD_SECONDS

JSON = {"content-type": "application/json"}
ANTHROPIC = WIRES[0]


def _unused_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


async def record_one(
    served: RecordedResponse, path: Path, *, timeouts: Timeouts | None = None
) -> tuple[Replayed, CassetteCall]:
    """One Anthropic call recorded into ``path`` through the loopback server: outcome, call."""
    async with (
        asyncio.timeout(GUARD_SECONDS),
        recorded_through_loopback([served], path, timeouts=timeouts) as (_server, transport),
    ):
        live = await replay(ANTHROPIC.model(transport=transport, api_key=REAL_LOOKING_KEY))
    [written] = load_cassette(path).unwrap().calls
    return live, written


def outcome(replayed: Replayed) -> tuple[object, ...]:
    """What a replay must reproduce: chunks, response, and the failure's typed fields."""
    error = replayed.error
    failed = None
    if error is not None:
        failed = (
            error.code,
            error.status,
            error.event_index,
            error.vendor_type,
            error.vendor_message,
            error.retry_after,
        )
    return (replayed.chunks, replayed.response, failed)


@every_wire
async def test_a_recorded_answer_replays_to_the_same_chunks_and_response(
    wire: Wire, tmp_path: Path
) -> None:
    path = tmp_path / "answer.json"
    async with (
        asyncio.timeout(GUARD_SECONDS),
        recorded_through_loopback(
            [
                wire.served("The sum ", "is 42."),
                RecordedResponse(200, wire.media, wire.tool_body()),
            ],
            path,
        ) as (server, transport),
    ):
        model = wire.model(transport=transport, api_key=REAL_LOOKING_KEY)
        live = [await replay(model), await replay(model)]
    cassette = load_cassette(path).unwrap()
    received = server.requests

    assert [call.request.path for call in cassette.calls] == [wire.path] * 2
    assert [thaw_json(call.request.body) for call in cassette.calls] == [
        request.json() for request in received
    ]
    assert [call.response.body for call in cassette.calls] == [
        wire.text_body("The sum ", "is 42."),
        wire.tool_body(),
    ]
    async with CassetteTransport(cassette, chunking="bytes") as replaying:
        model = wire.model(transport=replaying)
        again = [await replay(model), await replay(model)]
        replaying.assert_consumed()
    assert [outcome(item) for item in again] == [outcome(item) for item in live]
    assert live[1].response is not None
    assert live[1].error is None


@pytest.mark.parametrize(
    ("served", "timeouts", "code"),
    [
        (
            RecordedResponse(
                429, {**JSON, "retry-after": "2"}, ANTHROPIC.error_body("rate_limit_error", "Slow")
            ),
            None,
            VendorErrorCode.HTTP_RATE_LIMITED,
        ),
        (
            RecordedResponse(529, JSON, ANTHROPIC.error_body("overloaded_error", "Overloaded")),
            None,
            VendorErrorCode.HTTP_OVERLOADED,
        ),
        (RecordedResponse(200, JSON, b'{"ok": true}'), None, VendorErrorCode.HTTP_NOT_EVENT_STREAM),
        (
            RecordedResponse(200, SSE, ANTHROPIC.text_body("a", "b")[:-40], "interrupted"),
            None,
            VendorErrorCode.HTTP_STREAM_INTERRUPTED,
        ),
        (
            RecordedResponse(200, SSE, ANTHROPIC.text_body("a", "b")[:-40], "stalled"),
            Timeouts(read=0.2),
            VendorErrorCode.HTTP_TIMEOUT,
        ),
        (
            RecordedResponse(200, SSE, ANTHROPIC.text_body("a", "b")[:-40]),
            None,
            VendorErrorCode.VENDOR_MISSING_TERMINAL,
        ),
    ],
    ids=["429", "529", "not-sse", "dropped", "stalled", "cut-short"],
)
async def test_a_failed_call_is_recorded_as_it_was_and_replays_to_the_same_typed_failure(
    served: RecordedResponse,
    timeouts: Timeouts | None,
    code: VendorErrorCode,
    tmp_path: Path,
) -> None:
    path = tmp_path / "failure.json"
    live, recorded = await record_one(served, path, timeouts=timeouts)

    assert live.error is not None
    assert live.error.code is code
    assert recorded.response.status == served.status
    assert recorded.response.body == served.body
    expected_end = {"interrupted": "interrupted", "stalled": "stalled"}.get(served.end, "complete")
    assert recorded.response.end == expected_end
    async with CassetteTransport(load_cassette(path).unwrap(), timeouts=timeouts) as replaying:
        again = await replay(ANTHROPIC.model(transport=replaying))
    assert outcome(again) == outcome(live)


async def test_no_byte_of_the_key_nor_of_its_base64_reaches_the_cassette(tmp_path: Path) -> None:
    key = REAL_LOOKING_KEY
    echoed = json.dumps({"error": {"type": "auth", "message": f"bad key {key}"}}).encode()
    served = [
        RecordedResponse(200, {**SSE, "x-echo": key, "set-cookie": f"k={key}"}, b"data: ok\n\n"),
        RecordedResponse(401, {**JSON, "x-echo": f"Bearer {key}"}, echoed),
    ]
    path = tmp_path / "secret.json"
    headers = {"x-api-key": key, "authorization": f"Bearer {key}", "cookie": f"k={key}"}
    async with (
        asyncio.timeout(GUARD_SECONDS),
        recorded_through_loopback(
            served,
            path,
            keep_headers=["x-echo"],
            redaction=Redaction(fields=["user"]),
        ) as (server, transport),
    ):
        for target in (f"/v1/x?alt=sse&key={key}", "/v1/x"):
            call = HttpRequest(target, {"user": "someone", "echo": key}, headers)
            with pytest.raises(VendorError) if target == "/v1/x" else _no_error():
                async with aclosing(
                    stream_events(transport, call, vendor="v", describe_error=read_error)
                ) as events:
                    assert [event async for event in events] == [SseEvent("message", "ok")]
        assert server.requests[0].header("x-api-key") == key, "the key was sent"
    data = path.read_bytes()

    for secret in (key, base64.b64encode(key.encode()).decode(), key[10:40]):
        assert secret.encode() not in data
    calls = document(path)["calls"]
    assert calls[0]["request"]["path"] == f"/v1/x?alt=sse&key={REDACTED}"
    assert calls[0]["request"]["body"] == {"user": REDACTED, "echo": REDACTED}
    assert calls[0]["response"]["headers"]["x-echo"] == REDACTED
    assert "set-cookie" not in calls[0]["response"]["headers"]
    assert calls[1]["response"]["headers"]["x-echo"] == REDACTED
    assert "x-api-key" not in calls[0]["request"]["headers"]


class _no_error:  # noqa: N801 (reads as a context manager in the test above)
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


async def test_only_allow_listed_headers_are_kept_and_a_secret_one_cannot_be_asked_for(
    tmp_path: Path,
) -> None:
    with pytest.raises(ValueError, match="never written to a cassette"):
        RecordingTransport("http://127.0.0.1:9", tmp_path / "x.json", keep_headers=["X-Api-Key"])
    for signed in ("X-Amz-Date", "x-amz-content-sha256"):
        with pytest.raises(ValueError, match="changes with every signed call"):
            RecordingTransport("http://127.0.0.1:9", tmp_path / "x.json", keep_headers=[signed])
    served = RecordedResponse(200, {**SSE, "request-id": "req_1", "retry-after": "1"}, b"")
    path = tmp_path / "headers.json"
    async with (
        asyncio.timeout(GUARD_SECONDS),
        recorded_through_loopback([served], path) as (server, transport),
    ):
        await replay(ANTHROPIC.model(transport=transport, api_key=REAL_LOOKING_KEY))
        sent = server.requests[0]
    [written] = document(path)["calls"]

    assert sent.header("accept-encoding") == "identity"
    assert sent.header("user-agent") is not None
    assert written["request"]["headers"] == {
        "accept": "text/event-stream",
        "anthropic-version": "2023-06-01",
        "content-type": "application/json",
    }
    assert written["response"]["headers"] == {
        "content-type": "text/event-stream",
        "retry-after": "1",
    }


async def test_a_gzip_body_sent_anyway_is_recorded_decoded_and_replays_the_same(
    tmp_path: Path,
) -> None:
    body = ANTHROPIC.text_body("zip")
    served = RecordedResponse(200, {**SSE, "content-encoding": "gzip"}, gzip.compress(body))
    path = tmp_path / "gzip.json"
    live, written = await record_one(served, path)

    assert written.response.headers == SSE
    assert written.response.body == body
    async with CassetteTransport(load_cassette(path).unwrap()) as replaying:
        assert outcome(await replay(ANTHROPIC.model(transport=replaying))) == outcome(live)
    assert live.response is not None


async def test_a_body_that_does_not_decode_fails_live_and_is_recorded_as_cut_there(
    tmp_path: Path,
) -> None:
    served = RecordedResponse(200, {**SSE, "content-encoding": "gzip"}, b"not gzip at all")
    live, written = await record_one(served, tmp_path / "bad-gzip.json")

    assert live.error is not None
    assert live.error.code is VendorErrorCode.VENDOR_INVALID_EVENT
    assert (dict(written.response.headers), written.response.body) == (SSE, b"")
    assert written.response.end == "interrupted"


async def test_each_call_is_written_when_it_ends_and_a_stopped_read_is_recorded_whole(
    tmp_path: Path,
) -> None:
    path = tmp_path / "calls.json"
    served: list[RecordedResponse | LoopbackResponse] = [
        RecordedResponse(200, SSE, sse_body(2)),
        LoopbackResponse(RecordedResponse(200, SSE, sse_body(5)), chunking="bytes"),
    ]
    call = HttpRequest("/v1/x", {"n": 1}, {"x-api-key": REAL_LOOKING_KEY})
    async with (
        asyncio.timeout(GUARD_SECONDS),
        recorded_through_loopback(served, path) as (_server, transport),
    ):
        async with aclosing(
            stream_events(transport, call, vendor="v", describe_error=read_error)
        ) as events:
            assert len([event async for event in events]) == 2
        assert len(load_cassette(path).unwrap().calls) == 1, "written as soon as the call ended"
        async with aclosing(
            stream_events(transport, call, vendor="v", describe_error=read_error)
        ) as events:
            async for _event in events:
                break
    calls = load_cassette(path).unwrap().calls

    # The client stopped after one event: the rest was read anyway, so the
    # cassette holds the stream the vendor sent, not what the client read.
    assert [recorded.response.end for recorded in calls] == ["complete", "complete"]
    assert calls[1].response.body == sse_body(5)


async def test_a_call_that_got_no_response_is_not_recorded(tmp_path: Path) -> None:
    path = tmp_path / "refused.json"
    async with (
        asyncio.timeout(GUARD_SECONDS),
        RecordingTransport(f"http://127.0.0.1:{_unused_port()}", path) as transport,
    ):
        failed = await replay(ANTHROPIC.model(transport=transport, api_key=REAL_LOOKING_KEY))

    assert failed.error is not None
    assert failed.error.code is VendorErrorCode.HTTP_CONNECT_FAILED
    assert load_cassette(path).unwrap().calls == ()


async def test_replay_first_serves_what_matches_then_records_the_new_calls(tmp_path: Path) -> None:
    path = tmp_path / "episodes.json"
    first = CourseModelRequest("r-1", (CourseUserMessage("u-1", "first"),))
    second = CourseModelRequest("r-2", (CourseUserMessage("u-2", "second"),))
    changed = CourseModelRequest("r-2", (CourseUserMessage("u-2", "changed"),))
    async with (
        asyncio.timeout(GUARD_SECONDS),
        recorded_through_loopback([ANTHROPIC.served("one"), ANTHROPIC.served("two")], path) as (
            _server,
            transport,
        ),
    ):
        model = ANTHROPIC.model(transport=transport, api_key=REAL_LOOKING_KEY)
        await replay(model, first)
        await replay(model, second)
    recorded = load_cassette(path).unwrap()
    unchanged_text = path.read_text()

    async with (
        asyncio.timeout(GUARD_SECONDS),
        recorded_through_loopback([], path, replay_first=recorded) as (server, transport),
    ):
        model = ANTHROPIC.model(transport=transport, api_key=REAL_LOOKING_KEY)
        assert (await replay(model, first)).response is not None
        assert server.requests == ()
    assert path.read_text() == unchanged_text, "nothing new: the file is left as it was"

    async with (
        asyncio.timeout(GUARD_SECONDS),
        recorded_through_loopback([ANTHROPIC.served("new")], path, replay_first=recorded) as (
            server,
            transport,
        ),
    ):
        model = ANTHROPIC.model(transport=transport, api_key=REAL_LOOKING_KEY)
        await replay(model, first)
        new = await replay(model, changed)
        assert len(server.requests) == 1
    episodes = load_cassette(path).unwrap()

    assert new.response is not None
    assert new.chunks == (CourseTextDeltaChunk("r-2", "new"),)
    assert episodes.calls[0] == recorded.calls[0]
    assert [thaw_json(call.request.body)["messages"] for call in episodes.calls] == [  # type: ignore[index]
        [{"role": "user", "content": [{"type": "text", "text": text}]}]
        for text in ("first", "changed")
    ]
