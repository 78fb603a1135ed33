"""Every SDK call judged as its bytes pass, at record and replay, before the SDK reads a bad event.

The official SDKs over the httpx2 cassette transports, sync and async. The
transports take `StreamJudges`: a judge per call, fed each chunk before the
client gets it. `BLOCK_ORDER` is a judge of this test's own (Anthropic's
block order alone, on the kit's `StreamJudge`), so the mechanism is tested
whatever grammars are installed; the registry's judges
(``course_vendor.stream_judge_for``) are tested where the installed wire has
its grammar.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Any

import httpx2
import openai
import pytest
from frozendict import frozendict

from course_cassettes import (
    Cassette,
    CassetteCall,
    CassetteTransport,
    Httpx2CassetteTransport,
    Httpx2RecordingTransport,
    RecordingTransport,
    RequestMatching,
    load_cassette,
)
from course_http import (
    RecordedRequest,
    RecordedResponse,
    SseEvent,
    VendorError,
    VendorErrorCode,
)
from course_http.loopback import LoopbackServer
from course_protocol import freeze_json_object
from course_vendor import (
    StreamJudge,
    VendorPlugin,
    VendorWire,
    WireEvent,
    WireGrammar,
    event_object,
    stream_judge_for,
)
from tests.course_cassettes.replays import replay
from tests.course_cassettes.sdk_upstream import ANTHROPIC_KEY, ANTHROPIC_SSE, OPENAI_KEY, Upstream
from tests.course_cassettes.test_httpx2_transports import ASKED, both_ways, run
from tests.course_vendor.wires import WIRES
from tests.streams import GUARD_SECONDS

Code = VendorErrorCode
SSE = {"content-type": "text/event-stream; charset=utf-8"}
WIRE = "block-order"


def _order_error(index: int, message: str) -> VendorError:
    return VendorError(Code.VENDOR_EVENT_ORDER, f"event {index}: {message}", vendor=WIRE)


class BlockOrder(WireGrammar[None]):
    """Anthropic's block order alone: a delta or a stop names a block that started."""

    __slots__ = ("_started",)

    def __init__(self) -> None:
        super().__init__()
        self._started: set[object] = set()

    def _read(self, frame: SseEvent, index: int) -> WireEvent | None:
        data = event_object(frame.data, vendor=WIRE, index=index)
        kind, block = data.get("type"), data.get("index")
        if kind == "content_block_start":
            self._started.add(block)
        elif kind in ("content_block_delta", "content_block_stop") and block not in self._started:
            raise _order_error(index, f"{kind} for block {block}, which never started")
        elif kind == "message_stop":
            self._terminal = True
        return data

    def _result(self, frame_count: int) -> None:
        if not self._terminal:
            raise VendorError(
                Code.VENDOR_MISSING_TERMINAL, f"event {frame_count}: no message_stop", vendor=WIRE
            )


BLOCK_ORDER_PLUGIN = VendorPlugin(
    wire=VendorWire(
        vendor=WIRE, key_variable="UNUSED_KEY", path="/v1/messages", describe_error=lambda _: None
    ),
    sdk="anthropic",
    base_url="https://api.anthropic.com",
    base_url_variable="ANTHROPIC_BASE_URL",
    named_events=True,
    replay_model=lambda transport: pytest.fail("a judge never builds a model"),
    grammar=BlockOrder,
)


def block_order(
    request: RecordedRequest, status: int, headers: Mapping[str, str]
) -> StreamJudge | None:
    """This test's `StreamJudges`: every 2xx stream of the Messages path, by `BlockOrder`."""
    streamed = headers.get("content-type", "").startswith("text/event-stream")
    if request.path.startswith("/v1/messages") and 200 <= status < 300 and streamed:
        return StreamJudge(BLOCK_ORDER_PLUGIN)
    return None


def _frame(name: str, data: dict[str, Any]) -> bytes:
    return f"event: {name}\ndata: {json.dumps(data)}\n\n".encode()


STRAY_DELTA = _frame(
    "content_block_delta",
    {"type": "content_block_delta", "index": 1, "delta": {"type": "text_delta", "text": "!"}},
)
BAD_INDEX = ANTHROPIC_SSE.replace(
    b"event: content_block_stop", STRAY_DELTA + b"event: content_block_stop", 1
)
"""The good answer with a delta for block 1, which never started: the SDK's IndexError."""


def _messages_call(body: bytes, end: str = "complete") -> CassetteCall:
    request = {"max_tokens": 10, "messages": ASKED, "model": "claude-own", "stream": True}
    return CassetteCall(
        RecordedRequest("POST", "/v1/messages", freeze_json_object(request).unwrap(), frozendict()),
        RecordedResponse(200, SSE, body, end),  # type: ignore[arg-type]
    )


def test_the_sdk_alone_crashes_on_a_delta_for_a_block_that_never_started() -> None:
    # What the judge saves a user from: the SDK's own crash, far from the cause.
    replay = Httpx2CassetteTransport(Cassette([_messages_call(BAD_INDEX)]))
    with pytest.raises(IndexError):
        run("sync", "anthropic-stream", replay)


@both_ways
@pytest.mark.parametrize("chunking", ["whole", "bytes"])
def test_a_bad_block_index_fails_with_the_course_code_before_the_sdk_reads_it(
    way: str, chunking: Any
) -> None:
    cassette = Cassette([_messages_call(BAD_INDEX)])
    replay = Httpx2CassetteTransport(cassette, check=block_order, chunking=chunking)
    with pytest.raises(VendorError) as raised:
        run(way, "anthropic-stream", replay)
    assert raised.value.code is Code.VENDOR_EVENT_ORDER
    assert raised.value.message == (
        "calls[0].response.body: event 4: content_block_delta for block 1, which never started"
    )
    assert replay.problems == (raised.value,)
    assert replay.judged == (0,)
    assert replay.replayed == (0,)


@both_ways
def test_the_registry_judges_a_bad_block_index_before_the_sdk_reads_it(way: str) -> None:
    replay = Httpx2CassetteTransport(Cassette([_messages_call(BAD_INDEX)]), check=stream_judge_for)
    with pytest.raises(VendorError) as raised:
        run(way, "anthropic-stream", replay)
    assert raised.value.code is Code.VENDOR_EVENT_ORDER
    assert raised.value.message.startswith("calls[0].response.body: judged on anthropic-messages")


@both_ways
def test_a_recording_refuses_a_bad_event_at_the_event_and_still_keeps_the_whole_stream(
    tmp_path: Path, way: str
) -> None:
    path = tmp_path / "cassette.json"
    recording = Httpx2RecordingTransport(
        path, inner=Upstream(anthropic_sse=BAD_INDEX).transport, check=block_order
    )
    with recording, pytest.raises(VendorError) as raised:
        run(way, "anthropic-stream", recording)
    assert raised.value.code is Code.VENDOR_EVENT_ORDER
    assert recording.problems == (raised.value,)
    [call] = load_cassette(path).unwrap().calls
    assert (call.response.end, call.response.body) == ("complete", BAD_INDEX), "as it came"

    again = Httpx2CassetteTransport(load_cassette(path).unwrap(), check=block_order)
    with pytest.raises(VendorError) as replayed:
        run(way, "anthropic-stream", again)
    assert (replayed.value.code, replayed.value.message) == (
        Code.VENDOR_EVENT_ORDER,
        raised.value.message,
    )


CHAT_WITHOUT_USAGE = (
    b"".join(
        b"data: " + json.dumps(chunk).encode() + b"\n\n"
        for chunk in (
            {
                "id": "chatcmpl-own-1",
                "object": "chat.completion.chunk",
                "created": 1,
                "model": "gpt-own",
                "choices": [
                    {
                        "index": 0,
                        "delta": {"role": "assistant", "content": "Hel"},
                        "finish_reason": None,
                    }
                ],
            },
            {
                "id": "chatcmpl-own-1",
                "object": "chat.completion.chunk",
                "created": 1,
                "model": "gpt-own",
                "choices": [{"index": 0, "delta": {"content": "lo"}, "finish_reason": "stop"}],
            },
        )
    )
    + b"data: [DONE]\n\n"
)
"""A Chat stream as the API sends it unless asked for usage: no usage chunk, then ``[DONE]``."""


ASKED_ANY: Any = ASKED


def _chat(http: httpx2.Client) -> str:
    client = openai.OpenAI(api_key=OPENAI_KEY, http_client=http, max_retries=0)
    with client.chat.completions.create(model="gpt-own", messages=ASKED_ANY, stream=True) as chunks:
        return "".join(chunk.choices[0].delta.content or "" for chunk in chunks if chunk.choices)


async def _chat_async(http: httpx2.AsyncClient) -> str:
    client = openai.AsyncOpenAI(api_key=OPENAI_KEY, http_client=http, max_retries=0)
    chunks = await client.chat.completions.create(model="gpt-own", messages=ASKED_ANY, stream=True)
    async with chunks:
        return "".join(
            [chunk.choices[0].delta.content or "" async for chunk in chunks if chunk.choices]
        )


def _ask_chat(way: str, transport: Any) -> str:
    if way == "sync":
        with httpx2.Client(transport=transport) as http:
            return _chat(http)

    async def main() -> str:
        async with asyncio.timeout(GUARD_SECONDS), httpx2.AsyncClient(transport=transport) as http:
            return await _chat_async(http)

    return asyncio.run(main())


@both_ways
@pytest.mark.parametrize("judged", [False, True])
def test_a_chat_stream_without_usage_records_complete_and_replays(
    tmp_path: Path, way: str, judged: bool
) -> None:
    check = stream_judge_for if judged else None
    path = tmp_path / "cassette.json"
    upstream = Upstream(chat_sse=CHAT_WITHOUT_USAGE)
    # The sync client stops reading at [DONE]: the recording reads the rest itself.
    with Httpx2RecordingTransport(path, inner=upstream.transport, check=check) as recording:
        assert _ask_chat(way, recording) == "Hello"
    assert recording.problems == ()
    [call] = load_cassette(path).unwrap().calls
    assert (call.response.end, call.response.body) == ("complete", CHAT_WITHOUT_USAGE)

    replay = Httpx2CassetteTransport(load_cassette(path).unwrap(), check=check)
    assert _ask_chat(way, replay) == "Hello"
    assert replay.problems == ()
    assert replay.judged == ((0,) if judged else ())


@both_ways
@pytest.mark.parametrize(
    ("end", "failure"),
    [("stalled", openai.APITimeoutError), ("interrupted", openai.APIConnectionError)],
)
def test_a_recording_cut_short_fails_typed_at_once_under_the_default_timeout(
    way: str, end: str, failure: type[Exception]
) -> None:
    # No [DONE], then a server that went silent (or dropped the connection);
    # the SDK's default read timeout is ten minutes, the test's guard one.
    cut = CHAT_WITHOUT_USAGE[: CHAT_WITHOUT_USAGE.index(b"data: [DONE]")]
    request = {"messages": ASKED, "model": "gpt-own", "stream": True}
    cassette = Cassette(
        [
            CassetteCall(
                RecordedRequest(
                    "POST",
                    "/v1/chat/completions",
                    freeze_json_object(request).unwrap(),
                    frozendict(),
                ),
                RecordedResponse(200, SSE, cut, end),  # type: ignore[arg-type]
            )
        ]
    )
    replay = Httpx2CassetteTransport(cassette)
    with pytest.raises(failure):
        _ask_chat(way, replay)


def test_what_each_transport_judged_replayed_recorded_and_left_unchecked(tmp_path: Path) -> None:
    def api(request: httpx2.Request) -> httpx2.Response:
        if request.url.path == "/v1/messages":
            return httpx2.Response(200, content=ANTHROPIC_SSE, headers=SSE)
        if request.url.path == "/v1/json":
            return httpx2.Response(200, json={"ok": True})
        if request.url.path == "/v1/error":
            return httpx2.Response(500, content=b"data: x\n\n", headers=SSE)
        return httpx2.Response(200, content=b"data: x\n\n", headers=SSE)

    path = tmp_path / "cassette.json"
    recording = Httpx2RecordingTransport(path, inner=httpx2.MockTransport(api), check=block_order)
    with httpx2.Client(transport=recording, base_url="https://api.example.com") as http:
        for target in ("/v1/messages", "/v1/json", "/v1/unknown?key=abcdefgh12345678", "/v1/error"):
            http.post(target, json={"q": 1}).read()
    assert recording.recorded == (0, 1, 2, 3)
    assert recording.replayed == ()
    assert recording.judged == (0,)
    assert recording.unchecked == ((2, "/v1/unknown?key=[redacted]"),), "only a 2xx event stream"

    replay = Httpx2CassetteTransport(load_cassette(path).unwrap(), check=block_order)
    with httpx2.Client(transport=replay, base_url="https://api.example.com") as http:
        for target in ("/v1/messages", "/v1/json", "/v1/unknown?key=abcdefgh12345678", "/v1/error"):
            http.post(target, json={"q": 1}).read()
    assert (replay.replayed, replay.judged) == ((0, 1, 2, 3), (0,))
    assert replay.unchecked == ((2, "/v1/unknown?key=[redacted]"),)

    extending = Httpx2RecordingTransport(
        tmp_path / "more.json",
        inner=httpx2.MockTransport(api),
        replay_first=load_cassette(path).unwrap(),
        check=block_order,
    )
    with httpx2.Client(transport=extending, base_url="https://api.example.com") as http:
        for target in ("/v1/messages", "/v1/json", "/v1/messages"):
            http.post(target, json={"q": 1}).read()
    assert (extending.replayed, extending.recorded, extending.judged) == ((0, 1), (2,), (0, 2))


def test_without_a_check_nothing_is_judged_and_nothing_is_unchecked(tmp_path: Path) -> None:
    replay = Httpx2CassetteTransport(Cassette([_messages_call(BAD_INDEX)]))
    with pytest.raises(IndexError):
        run("sync", "anthropic-stream", replay)
    assert (replay.judged, replay.unchecked, replay.problems) == ((), (), ())


@both_ways
def test_strict_false_is_written_into_the_cassette_and_no_replay_judges_it(
    tmp_path: Path, way: str
) -> None:
    path = tmp_path / "cassette.json"
    with Httpx2RecordingTransport(
        path, inner=Upstream().transport, check=block_order, strict=False
    ) as recording:
        assert run(way, "anthropic-stream", recording) == "Hello"
    assert recording.judged == ()
    assert recording.unchecked == ((0, "/v1/messages"),), "named unchecked, never silently"
    assert json.loads(path.read_text(encoding="utf-8"))["strict"] is False
    unjudged = load_cassette(path).unwrap()
    assert unjudged.strict is False

    # The same cassette holding a bad stream: with the check, it is still not judged.
    bad = Cassette([_messages_call(BAD_INDEX)], strict=False)
    replay = Httpx2CassetteTransport(bad, check=block_order)
    with pytest.raises(IndexError):
        run(way, "anthropic-stream", replay)
    assert (replay.judged, replay.problems) == ((), ())
    assert replay.unchecked == ((0, "/v1/messages"),)

    # Extending a cassette that is not strict keeps it so, whatever the extension says.
    extended = tmp_path / "extended.json"
    with Httpx2RecordingTransport(
        extended, inner=Upstream().transport, replay_first=unjudged, check=block_order
    ) as extending:
        assert run(way, "anthropic-stream", extending) == "Hello"
        assert run(way, "anthropic-stream", extending) == "Hello"
    assert load_cassette(extended).unwrap().strict is False


async def _stalled_after(first: bytes) -> AsyncIterator[bytes]:
    yield first
    await asyncio.Event().wait()


async def test_a_stream_the_client_left_is_read_on_no_longer_than_the_bound(
    tmp_path: Path,
) -> None:
    first = ANTHROPIC_SSE[: ANTHROPIC_SSE.index(b"event: content_block_delta")]

    def api(request: httpx2.Request) -> httpx2.Response:
        return httpx2.Response(200, content=_stalled_after(first), headers=SSE)

    path = tmp_path / "cassette.json"
    recording = Httpx2RecordingTransport(
        path, inner=httpx2.MockTransport(api), rest_limit_seconds=0.01
    )
    async with (
        asyncio.timeout(GUARD_SECONDS),
        httpx2.AsyncClient(transport=recording) as http,
        http.stream("POST", "https://api.anthropic.com/v1/messages", json={}) as response,
    ):
        assert await anext(response.aiter_bytes()) == first
    [call] = load_cassette(path).unwrap().calls
    assert (call.response.end, call.response.body) == ("stalled", first)


@pytest.mark.parametrize(("terminal", "end"), [(False, "stalled"), (True, "complete")])
def test_a_stream_past_the_byte_bound_is_stalled_unless_its_terminal_event_came(
    tmp_path: Path, terminal: bool, end: str
) -> None:
    body = (
        ANTHROPIC_SSE if terminal else ANTHROPIC_SSE[: ANTHROPIC_SSE.index(b"event: message_stop")]
    )
    padding = b": keep-alive\n\n" * 4

    def api(request: httpx2.Request) -> httpx2.Response:
        return httpx2.Response(200, content=iter([body, padding, padding]), headers=SSE)

    path = tmp_path / "cassette.json"
    recording = Httpx2RecordingTransport(
        path, inner=httpx2.MockTransport(api), check=block_order, rest_limit_bytes=1
    )
    with (
        httpx2.Client(transport=recording) as http,
        http.stream("POST", "https://api.anthropic.com/v1/messages", json={}) as response,
    ):
        assert next(response.iter_bytes()) == body
    [call] = load_cassette(path).unwrap().calls
    assert (call.response.end, call.response.body) == (end, body + padding)


async def test_a_course_model_over_a_cassette_transport_fails_at_the_judged_event() -> None:
    anthropic_wire = next(wire for wire in WIRES if wire.name == "anthropic-messages")
    body = anthropic_wire.text_body("four", "ty-two")
    stray = body.replace(
        b"event: content_block_stop", STRAY_DELTA + b"event: content_block_stop", 1
    )
    cassette = Cassette([_messages_call(stray)], matching=RequestMatching("order"))
    async with CassetteTransport(cassette, check=block_order) as transport:
        replayed = await replay(anthropic_wire.model(transport=transport))
    assert replayed.error is not None
    assert replayed.error.code is Code.VENDOR_EVENT_ORDER
    assert replayed.error.message.startswith("calls[0].response.body: event ")
    assert transport.exchange.problems == (replayed.error,)
    assert transport.exchange.judged == (0,)


async def test_a_course_recording_writes_strict_false_and_judges_nothing(tmp_path: Path) -> None:
    anthropic_wire = next(wire for wire in WIRES if wire.name == "anthropic-messages")
    path = tmp_path / "cassette.json"
    answer = RecordedResponse(200, SSE, anthropic_wire.text_body("hi"))
    async with (
        asyncio.timeout(GUARD_SECONDS),
        LoopbackServer([answer]) as server,
        RecordingTransport(
            server.base_url, path, check=block_order, strict=False, trust_env=False
        ) as transport,
    ):
        recorded = await replay(anthropic_wire.model(transport=transport, api_key=ANTHROPIC_KEY))
    assert recorded.error is None
    assert transport.exchange.recorded == (0,)
    assert transport.exchange.judged == ()
    assert load_cassette(path).unwrap().strict is False
