"""``course serve``'s responder judges each stream it plays, as the cassette transports judge it.

The one `CassettePlayer` under the responder carries each played stream's
judge (the registry's, ``course_vendor.stream_judge_for``): an event the
grammar refuses is never sent, the exchange ends there, and the problem is
reported with the cassette and the call, once.
"""

from __future__ import annotations

import asyncio
from functools import partial

import httpx2
import pytest
from frozendict import frozendict

from course_cassettes import Cassette, CassetteCall, Httpx2CassetteTransport
from course_cassettes.responder import CassetteResponder, ServedCall
from course_http import RecordedRequest, RecordedResponse, VendorError, VendorErrorCode
from course_http.loopback import LoopbackEnd, LoopbackServer
from course_vendor import stream_judge_for
from tests.course_cassettes.sdk_upstream import ANTHROPIC_SSE
from tests.course_cassettes.test_httpx2_transports import run
from tests.course_cassettes.test_stream_judges import BAD_INDEX, STRAY_DELTA, _messages_call
from tests.course_vendor.test_call_wire import MISTRAL_BODY
from tests.course_vendor.wire import SSE
from tests.streams import GUARD_SECONDS


def _request_body() -> dict[str, object]:
    recorded = _messages_call(ANTHROPIC_SSE).request.body
    return {key: recorded[key] for key in recorded}


async def _collect(response: httpx2.Response, received: list[bytes]) -> None:
    async for chunk in response.aiter_raw():
        received.append(chunk)


async def _read_until_cut(served: CassetteResponder) -> bytes:
    """What a client streaming the recorded request received before the server cut the body."""
    received: list[bytes] = []
    async with (
        asyncio.timeout(GUARD_SECONDS),
        LoopbackServer(served) as server,
        httpx2.AsyncClient(base_url=server.base_url) as client,
        client.stream("POST", "/v1/messages", json=_request_body()) as response,
    ):
        with pytest.raises(httpx2.RemoteProtocolError):
            await _collect(response, received)
        assert await server.wait_ended(0) is LoopbackEnd.INTERRUPTED
    return b"".join(received)


@pytest.mark.parametrize("chunking", ["whole", "bytes"])
async def test_a_refused_event_is_never_sent_and_is_reported_with_its_code(chunking: str) -> None:
    reports: list[ServedCall] = []
    served = CassetteResponder(
        [("bad.json", Cassette([_messages_call(BAD_INDEX)]))],
        chunking=chunking,  # type: ignore[arg-type]
        check=stream_judge_for,
        report=reports.append,
    )
    sent = await _read_until_cut(served)

    before = BAD_INDEX[: BAD_INDEX.index(STRAY_DELTA)]
    if chunking == "whole":
        assert sent == b"", "one chunk holds the refused event: nothing of it is sent"
    else:
        assert sent.startswith(before)
        assert STRAY_DELTA not in sent, "the refused event never reaches the client whole"
    [problem] = served.problems
    assert problem.code is VendorErrorCode.VENDOR_EVENT_ORDER
    assert problem.message.startswith("bad.json calls[0].response.body: judged on ")
    assert reports == [
        ServedCall("POST", "/v1/messages", "bad.json", 0, 200),
        ServedCall(
            "POST",
            "/v1/messages",
            "bad.json",
            0,
            200,
            VendorErrorCode.VENDOR_EVENT_ORDER,
            problem.message,
        ),
    ]


async def test_the_responder_judges_as_the_replay_transport_judges_the_same_cassette() -> None:
    cassette = Cassette([_messages_call(BAD_INDEX)])
    transport = Httpx2CassetteTransport(cassette, check=stream_judge_for)
    with pytest.raises(VendorError) as raised:
        run("sync", "anthropic-stream", transport)
    assert transport.problems == (raised.value,)
    in_process = raised.value

    served = CassetteResponder([("c.json", cassette)], check=stream_judge_for)
    assert await _read_until_cut(served) == b"", "the whole body is one chunk: nothing sent"

    [over_http] = served.problems
    assert (over_http.code, over_http.message) == (
        in_process.code,
        f"c.json {in_process.message}",
    )


async def test_a_stream_left_early_is_judged_to_its_end_and_reported() -> None:
    reports: list[ServedCall] = []
    served = CassetteResponder(
        [("bad.json", Cassette([_messages_call(BAD_INDEX)]))],
        chunking="bytes",
        # The client leaves during the first pause, which is cut short, never waited out.
        delay=GUARD_SECONDS,
        check=stream_judge_for,
        report=reports.append,
    )
    async with (
        asyncio.timeout(GUARD_SECONDS),
        LoopbackServer(served) as server,
        httpx2.AsyncClient(base_url=server.base_url) as client,
    ):
        async with client.stream("POST", "/v1/messages", json=_request_body()) as response:
            async for _ in response.aiter_raw():
                break
        assert await server.wait_ended(0) is LoopbackEnd.CLIENT_DISCONNECTED

    assert [report.code for report in reports] == [None, VendorErrorCode.VENDOR_EVENT_ORDER]


@pytest.mark.parametrize(
    ("name", "cassette", "body"),
    [
        ("lenient.json", Cassette([_messages_call(BAD_INDEX)], strict=False), BAD_INDEX),
        ("good.json", Cassette([_messages_call(ANTHROPIC_SSE)]), ANTHROPIC_SSE),
    ],
    ids=["strict-false-unjudged", "good-stream"],
)
async def test_a_good_stream_and_one_of_a_cassette_not_strict_are_served_whole_once(
    name: str, cassette: Cassette, body: bytes
) -> None:
    reports: list[ServedCall] = []
    served = CassetteResponder(
        [(name, cassette)], chunking="bytes", check=stream_judge_for, report=reports.append
    )
    async with (
        asyncio.timeout(GUARD_SECONDS),
        LoopbackServer(served) as server,
        httpx2.AsyncClient(base_url=server.base_url) as client,
    ):
        answer = await client.post("/v1/messages", json=_request_body())

    assert (answer.status_code, answer.content) == (200, body)
    assert served.problems == ()
    assert reports == [ServedCall("POST", "/v1/messages", name, 0, 200)]


@pytest.mark.parametrize(
    ("recorded", "asked", "code"),
    [
        ("mistral", None, None),
        (None, "mistral", None),
        (None, None, VendorErrorCode.VENDOR_INVALID_EVENT),
        ("mistral", "groq", VendorErrorCode.VENDOR_WIRE_MISMATCH),
    ],
)
async def test_each_served_call_is_judged_by_its_recorded_wire_or_the_one_asked_for(
    recorded: str | None, asked: str | None, code: VendorErrorCode | None
) -> None:
    sent = RecordedRequest(
        "POST", "/v1/chat/completions", frozendict({"model": "m"}), frozendict(), wire=recorded
    )
    call = CassetteCall(sent, RecordedResponse(200, SSE, MISTRAL_BODY))
    served = CassetteResponder(
        [("mixed.json", Cassette([call]))],
        check=stream_judge_for if asked is None else partial(stream_judge_for, wire=asked),
    )
    async with (
        asyncio.timeout(GUARD_SECONDS),
        LoopbackServer(served) as server,
        httpx2.AsyncClient(base_url=server.base_url) as client,
        client.stream("POST", "/v1/chat/completions", json={"model": "m"}) as response,
    ):
        received: list[bytes] = []
        if code is None:
            await _collect(response, received)
        else:
            with pytest.raises(httpx2.RemoteProtocolError):
                await _collect(response, received)

    assert [problem.code for problem in served.problems] == ([] if code is None else [code])
    assert (b"".join(received) == MISTRAL_BODY) is (code is None)
