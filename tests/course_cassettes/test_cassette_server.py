"""CassetteResponder over a loopback server: recorded bytes out, matched requests in."""

from __future__ import annotations

import asyncio
import errno
import json
import socket

import httpx2
import pytest

from course_cassettes import Redaction
from course_cassettes.responder import CassetteResponder, ServedCall
from course_http import REDACTED, RecordedResponse, VendorErrorCode
from course_http.loopback import LoopbackRequest, LoopbackServer
from tests.course_cassettes.cassettes import call, cassette
from tests.course_http.helpers import FRAMES, SSE
from tests.streams import GUARD_SECONDS

ANSWER = RecordedResponse(200, {**SSE, "x-kept": "1"}, FRAMES)
QUESTION = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}


def responder(reports: list[ServedCall], **options: object) -> CassetteResponder:
    first = cassette(
        call(QUESTION, ANSWER),
        call({"model": "m", "n": 2}, RecordedResponse(200, SSE, b"data: 2\n\n")),
    )
    second = cassette(
        call(
            {"other": True, "user": REDACTED},
            RecordedResponse(201, SSE, b"data: other\n\n"),
            path="/v1/chat",
        ),
        redaction=Redaction(fields=["user"]),
    )
    return CassetteResponder(
        [("first.json", first), ("second.json", second)],
        report=reports.append,
        **options,  # type: ignore[arg-type]
    )


@pytest.mark.parametrize("chunking", ["whole", "bytes", "random"])
async def test_a_matching_request_gets_the_recorded_bytes_however_they_are_cut(
    chunking: str,
) -> None:
    reports: list[ServedCall] = []
    async with (
        asyncio.timeout(GUARD_SECONDS),
        LoopbackServer(responder(reports, chunking=chunking)) as server,
        httpx2.AsyncClient(base_url=server.base_url) as client,
    ):
        answer = await client.post("/v1/messages", json=QUESTION)

    assert (answer.status_code, answer.content) == (200, FRAMES)
    assert answer.headers["content-type"] == "text/event-stream"
    assert reports == [ServedCall("POST", "/v1/messages", "first.json", 0, 200)]


async def test_each_cassette_plays_in_order_and_a_request_goes_to_the_one_it_matches() -> None:
    reports: list[ServedCall] = []
    served = responder(reports)
    async with (
        asyncio.timeout(GUARD_SECONDS),
        LoopbackServer(served) as server,
        httpx2.AsyncClient(base_url=server.base_url) as client,
    ):
        other = await client.post("/v1/chat", json={"other": True, "user": "anyone"})
        first = await client.post("/v1/messages", json=QUESTION)
        second = await client.post("/v1/messages", json={"n": 2, "model": "m"})

    assert [other.status_code, first.status_code, second.status_code] == [201, 200, 200]
    assert second.content == b"data: 2\n\n"
    assert [(report.cassette, report.index) for report in reports] == [
        ("second.json", 0),
        ("first.json", 0),
        ("first.json", 1),
    ]
    assert served.pending_call_count == 0


async def test_mismatch_exhaustion_and_unknown_paths_are_errors_sdks_do_not_retry() -> None:
    reports: list[ServedCall] = []
    key = "sk-secret-in-the-query"
    served = responder(reports)
    async with (
        asyncio.timeout(GUARD_SECONDS),
        LoopbackServer(served) as server,
        httpx2.AsyncClient(base_url=server.base_url) as client,
    ):
        changed = await client.post("/v1/messages", json={**QUESTION, "model": "other"})
        broken = await client.post("/v1/messages", content=b"[" * 100_000)
        exhausted = await client.post("/v1/messages", json=QUESTION)
        unknown = await client.post(f"/v1/nothing?key={key}", json={})

    refused = (changed, broken, exhausted, unknown)
    assert [reply.status_code for reply in refused] == [400, 400, 400, 404]
    assert all(reply.headers["x-should-retry"] == "false" for reply in refused)
    assert all(reply.headers["content-type"] == "application/json" for reply in refused)
    error = json.loads(changed.content)["error"]
    assert error == {
        "type": "course_cassette_error",
        "message": 'first.json calls[0]: model: recorded "m", sent "other"',
        "code": VendorErrorCode.HTTP_REQUEST_MISMATCH.value,
    }
    assert json.loads(broken.content)["error"]["message"] == (
        "first.json calls[1]: body: not usable JSON: nesting is too deep to parse "
        "(no cassette can hold this request body)"
    ), "the refused request took calls[0], as a replay's mismatch takes its call"
    assert json.loads(exhausted.content)["error"] == {
        "type": "course_cassette_error",
        "message": "every recorded POST /v1/messages call has been served",
        "code": "HTTP_RECORDING_EXHAUSTED",
    }
    assert json.loads(unknown.content)["error"] == {
        "type": "course_cassette_error",
        "message": "no cassette records POST /v1/nothing?key=[redacted]",
        "code": "HTTP_REQUEST_MISMATCH",
    }
    assert key not in repr(reports)
    assert [report.code for report in reports] == [
        VendorErrorCode.HTTP_REQUEST_MISMATCH,
        VendorErrorCode.HTTP_REQUEST_MISMATCH,
        VendorErrorCode.HTTP_RECORDING_EXHAUSTED,
        VendorErrorCode.HTTP_REQUEST_MISMATCH,
    ]
    assert served.pending_call_count == 1, "second.json's call is left"


def test_a_cassette_left_unplayed_is_named_as_a_replay_names_it() -> None:
    served = responder([])
    served(_posted("/v1/messages", QUESTION))

    with pytest.raises(AssertionError) as left:
        served.assert_consumed()

    assert str(left.value).splitlines() == [
        "first.json: 1 recorded call(s) never played, from calls[1] (POST /v1/messages): "
        "the code made fewer calls than recorded",
        "second.json: 1 recorded call(s) never played, from calls[0] (POST /v1/chat): "
        "the code made fewer calls than recorded",
    ]
    served(_posted("/v1/messages", {"model": "m", "n": 3}))
    served(_posted("/v1/chat", {"other": True, "user": "anyone"}))
    served.assert_consumed()
    assert served.pending_call_count == 0


def _posted(path: str, body: object) -> LoopbackRequest:
    return LoopbackRequest(
        "POST", path, (("content-type", "application/json"),), json.dumps(body).encode()
    )


async def test_a_request_without_a_body_matches_a_recorded_one_held_as_an_empty_object() -> None:
    # The httpx2 transports record a GET (a model listing) with body {}.
    listing = RecordedResponse(200, {"content-type": "application/json"}, b'{"data": []}')
    models = cassette(call({}, listing, path="/v1/models", method="GET"))
    reports: list[ServedCall] = []
    async with (
        asyncio.timeout(GUARD_SECONDS),
        LoopbackServer(
            CassetteResponder([("models.json", models)], report=reports.append)
        ) as server,
        httpx2.AsyncClient(base_url=server.base_url) as client,
    ):
        answer = await client.get("/v1/models")

    assert (answer.status_code, answer.content) == (200, b'{"data": []}')
    assert reports == [ServedCall("GET", "/v1/models", "models.json", 0, 200)]


async def test_a_path_recorded_under_another_prefix_is_named_in_the_404() -> None:
    reports: list[ServedCall] = []
    async with (
        asyncio.timeout(GUARD_SECONDS),
        LoopbackServer(responder(reports)) as server,
        httpx2.AsyncClient(base_url=server.base_url) as client,
    ):
        short = await client.post("/messages", json=QUESTION)
        long = await client.post("/proxy/v1/chat", json={"other": True})

    assert [short.status_code, long.status_code] == [404, 404]
    assert [json.loads(reply.content)["error"]["message"] for reply in (short, long)] == [
        "no cassette records POST /messages (one records POST /v1/messages: "
        "check the client's base URL)",
        "no cassette records POST /proxy/v1/chat (one records POST /v1/chat: "
        "check the client's base URL)",
    ]


async def test_a_path_recorded_under_another_api_version_is_named_in_the_404() -> None:
    recorded = cassette(
        call(QUESTION, ANSWER, path="/v1beta/models/m:streamGenerateContent?alt=sse")
    )
    async with (
        asyncio.timeout(GUARD_SECONDS),
        LoopbackServer(CassetteResponder([("gemini.json", recorded)])) as server,
        httpx2.AsyncClient(base_url=server.base_url) as client,
    ):
        newer = await client.post("/v1/models/m:streamGenerateContent?alt=sse", json=QUESTION)
        other = await client.post("/v2/models/other:streamGenerateContent?alt=sse", json=QUESTION)

    assert [newer.status_code, other.status_code] == [404, 404]
    assert json.loads(newer.content)["error"]["message"] == (
        "no cassette records POST /v1/models/m:streamGenerateContent?alt=sse (one records POST "
        "/v1beta/models/m:streamGenerateContent?alt=sse) (the paths differ only in their API "
        "version: v1beta recorded, v1 sent; set the client's API version to v1beta, or record "
        "again)"
    )
    assert "API version" not in json.loads(other.content)["error"]["message"], "two segments"


async def test_a_recorded_stall_ends_the_served_exchange_at_once() -> None:
    stalled = cassette(call(QUESTION, RecordedResponse(200, SSE, FRAMES, "stalled")))
    async with (
        asyncio.timeout(GUARD_SECONDS),
        LoopbackServer(CassetteResponder([("stalled.json", stalled)])) as server,
        httpx2.AsyncClient(base_url=server.base_url, timeout=600.0) as client,
        client.stream("POST", "/v1/messages", json=QUESTION) as response,
    ):
        received: list[bytes] = []
        with pytest.raises(httpx2.RemoteProtocolError):
            await _read_into(response, received)
    assert b"".join(received) == FRAMES


async def _read_into(response: httpx2.Response, received: list[bytes]) -> None:
    async for chunk in response.aiter_raw():
        received.append(chunk)


async def test_a_mismatch_quoting_a_lone_surrogate_is_the_typed_refusal() -> None:
    # Valid JSON: the escape of half a surrogate pair, which no UTF-8 encoder takes.
    body = json.dumps({**QUESTION, "model": "\ud83d"}).encode()
    assert b'"\\ud83d"' in body
    reports: list[ServedCall] = []
    async with (
        asyncio.timeout(GUARD_SECONDS),
        LoopbackServer(responder(reports)) as server,
        httpx2.AsyncClient(base_url=server.base_url) as client,
    ):
        refused = await client.post(
            "/v1/messages", content=body, headers={"content-type": "application/json"}
        )

    assert (refused.status_code, refused.headers["x-should-retry"]) == (400, "false")
    assert refused.headers["content-type"] == "application/json"
    assert json.loads(refused.content)["error"] == {
        "type": "course_cassette_error",
        "code": "HTTP_REQUEST_MISMATCH",
        "message": 'first.json calls[0]: model: recorded "m", sent "\ud83d"',
    }
    assert [report.code for report in reports] == [VendorErrorCode.HTTP_REQUEST_MISMATCH]


class ReportThatFails:
    """A ``report`` callback that raises on every call, and counts them."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, served: ServedCall) -> None:
        self.calls += 1
        raise BrokenPipeError("the log reader left")


async def test_a_responder_that_fails_answers_a_typed_500_never_a_bare_one() -> None:
    report = ReportThatFails()
    served = CassetteResponder([("first.json", cassette(call(QUESTION, ANSWER)))], report=report)
    async with (
        asyncio.timeout(GUARD_SECONDS),
        LoopbackServer(served) as server,
        httpx2.AsyncClient(base_url=server.base_url) as client,
    ):
        matched = await client.post("/v1/messages", json=QUESTION)
        unknown = await client.post("/v1/nothing", json={})

    for reply in (matched, unknown):
        assert (reply.status_code, reply.headers["x-should-retry"]) == (500, "false")
        assert reply.headers["content-type"] == "application/json"
        assert json.loads(reply.content)["error"] == {
            "type": "course_cassette_error",
            "code": "HTTP_SERVER_ERROR",
            "message": "the cassette responder failed to answer: BrokenPipeError",
        }
    assert report.calls == 4, "each failure is reported too, and that report fails again"


def _listening_port() -> socket.socket:
    busy = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    busy.bind(("127.0.0.1", 0))
    busy.listen()
    return busy


async def test_a_server_binds_the_port_asked_for_and_a_busy_one_is_address_in_use() -> None:
    with _listening_port() as busy:
        port = busy.getsockname()[1]
        with pytest.raises(OSError, match="in use") as caught:
            async with LoopbackServer([], port=port):
                pass
    assert caught.value.errno == errno.EADDRINUSE
    async with asyncio.timeout(GUARD_SECONDS), LoopbackServer([], port=port) as server:
        assert server.base_url == f"http://127.0.0.1:{port}"


@pytest.mark.parametrize("port", [-1, 65536, 1.5, True])
def test_a_port_outside_the_range_is_refused(port: object) -> None:
    with pytest.raises(ValueError, match="port"):
        LoopbackServer([], port=port)  # type: ignore[arg-type]


def test_responder_arguments_are_checked() -> None:
    with pytest.raises(TypeError):
        CassetteResponder([cassette()])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="chunking"):
        CassetteResponder([], chunking="lines")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="delay"):
        CassetteResponder([], delay=-1)
