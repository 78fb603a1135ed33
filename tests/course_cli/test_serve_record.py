"""``course serve --record --upstream URL``: a recording proxy, then ``course serve`` replays.

The upstream is a loopback server of the test on 127.0.0.1 (the "real API");
``course serve`` runs as a child process; the official ``anthropic`` SDK and
a raw httpx2 client talk to it from a thread, so that the test's event loop
keeps answering as the upstream. Every wait is bounded.
"""

from __future__ import annotations

import asyncio
import json
import signal
from pathlib import Path
from typing import Any

import anthropic
import httpx2

from course_cassettes import load_cassette
from course_http import RecordedResponse
from course_http.loopback import LoopbackRequest, LoopbackResponse, LoopbackServer
from tests.course_cli.serving import SECONDS, serving
from tests.course_pytest.projects import ANTHROPIC, SSE

KEY = "sk-ant-api03-own-proxy-key-Hd9Kf3Bj6Gs0Ua8Ei2Oo5Ty1Rn7Vx4Mb9"
QUESTION: Any = [{"role": "user", "content": [{"type": "text", "text": "What is 20 + 22?"}]}]
WHOLE = ANTHROPIC.text_body("4", "2")
FIRST_EVENTS = WHOLE[: WHOLE.index(b"event: content_block_stop")]


def upstream_answer(request: LoopbackRequest) -> LoopbackResponse | RecordedResponse:
    body: Any = request.json()
    text = body["messages"][-1]["content"][0]["text"]
    if text == "stall":
        # The first events, then nothing: only a proxy relaying as it arrives passes them on.
        return RecordedResponse(200, SSE, FIRST_EVENTS, "stalled")
    if text == "cut":
        return RecordedResponse(200, SSE, WHOLE[: WHOLE.index(b"event: message_stop")])
    return LoopbackResponse(RecordedResponse(200, SSE, WHOLE), chunking="bytes")


def _ask(base_url: str, key: str) -> str:
    client = anthropic.Anthropic(base_url=base_url, api_key=key, max_retries=0, timeout=SECONDS)
    with (
        client,
        client.messages.stream(model="claude-test", max_tokens=64, messages=QUESTION) as stream,
    ):
        return "".join(stream.text_stream)


def _first_event_then_leave(base_url: str) -> bytes:
    body = {
        "model": "m",
        "max_tokens": 1,
        "stream": True,
        "messages": [{"role": "user", "content": [{"type": "text", "text": "stall"}]}],
    }
    with (
        httpx2.Client(timeout=SECONDS) as http,
        http.stream(
            "POST", f"{base_url}/v1/messages", json=body, headers={"x-api-key": KEY}
        ) as response,
    ):
        seen = b""
        for chunk in response.iter_bytes():
            seen += chunk
            if b"text_delta" in seen:
                return seen
    raise AssertionError("the stream ended before its first text")


def _base_url(banner: str) -> str:
    assert banner.startswith("course serve: http://127.0.0.1:"), banner
    return banner.split()[2]


async def test_the_proxy_forwards_with_the_callers_key_records_redacted_and_serve_replays(
    tmp_path: Path,
) -> None:
    cassette = tmp_path / "cassettes" / "answer.json"
    async with LoopbackServer(upstream_answer) as upstream:
        with serving(str(cassette), "--record", "--upstream", upstream.base_url) as child:
            banner = child.banner()
            assert f"records to {cassette} from {upstream.base_url}" in banner
            root = _base_url(banner)
            # The upstream is no vendor's host: every installed SDK is named, as a replay names it.
            assert f"  anthropic: {root} (ANTHROPIC_BASE_URL)" in child.sdk_lines
            assert f"  openai: {root}/v1 (OPENAI_BASE_URL)" in child.sdk_lines
            text = await asyncio.to_thread(_ask, _base_url(banner), KEY)
            report = await asyncio.to_thread(child.line)
            child.process.send_signal(signal.SIGTERM)
            _out, err = await asyncio.to_thread(child.finish)
        received = list(upstream.requests)
    assert text == "42"
    assert report == "POST /v1/messages: recorded: 200"
    assert err == "course serve: terminated\n"
    assert [
        request.header("x-api-key") or request.header("authorization") for request in received
    ] in (
        [KEY],
        [f"Bearer {KEY}"],
    ), "the caller's own key reached the API"
    assert KEY not in cassette.read_text(encoding="utf-8")
    calls = load_cassette(cassette).unwrap().calls
    assert [call.response.body for call in calls] == [WHOLE]
    assert "x-stainless-lang" not in calls[0].request.headers

    with serving(str(cassette)) as child:
        replayed = await asyncio.to_thread(_ask, _base_url(child.banner()), "sk-placeholder")
        child.process.send_signal(signal.SIGTERM)
        await asyncio.to_thread(child.finish)
    assert replayed == "42"


async def test_the_proxy_relays_a_stream_as_it_arrives_and_records_it_as_it_ended(
    tmp_path: Path,
) -> None:
    cassette = tmp_path / "stalled.json"
    async with LoopbackServer(upstream_answer) as upstream:
        with serving(str(cassette), "--record", "--upstream", upstream.base_url) as child:
            seen = await asyncio.to_thread(_first_event_then_leave, _base_url(child.banner()))
            assert await asyncio.to_thread(child.line) == "POST /v1/messages: recorded: 200"
            child.process.send_signal(signal.SIGTERM)
            await asyncio.to_thread(child.finish)
    assert seen.startswith(b"event: message_start")
    call = load_cassette(cassette).unwrap().calls[0]
    assert call.response.end == "stalled"
    assert FIRST_EVENTS.startswith(call.response.body)


async def test_a_stream_the_parser_refuses_is_cut_for_the_client_and_named_on_stderr(
    tmp_path: Path,
) -> None:
    cassette = tmp_path / "cut.json"
    body = {
        "model": "m",
        "max_tokens": 1,
        "stream": True,
        "messages": [{"role": "user", "content": [{"type": "text", "text": "cut"}]}],
    }

    def post(base_url: str) -> str:
        with httpx2.Client(timeout=SECONDS) as http:
            try:
                http.post(f"{base_url}/v1/messages", json=body, headers={"x-api-key": KEY})
            except httpx2.RemoteProtocolError:
                return "cut"
            return "whole"

    async with LoopbackServer(upstream_answer) as upstream:
        with serving(str(cassette), "--record", "--upstream", upstream.base_url) as child:
            got = await asyncio.to_thread(post, _base_url(child.banner()))
            child.process.send_signal(signal.SIGTERM)
            _out, err = await asyncio.to_thread(child.finish)
    assert got == "cut"
    assert err.startswith(
        "POST /v1/messages: VENDOR_MISSING_TERMINAL: calls[0].response.body: "
        "judged on anthropic-messages: "
    ), err
    assert len(load_cassette(cassette).unwrap().calls) == 1, "recorded as it came"


async def test_an_upstream_that_cannot_be_reached_is_a_typed_502(tmp_path: Path) -> None:
    async with LoopbackServer(upstream_answer) as gone:
        dead = gone.base_url
    with serving(str(tmp_path / "none.json"), "--record", "--upstream", dead) as child:
        base_url = _base_url(child.banner())
        response = await asyncio.to_thread(
            httpx2.post, f"{base_url}/v1/messages", json={"a": 1}, timeout=SECONDS
        )
        child.process.send_signal(signal.SIGTERM)
        _out, err = child.finish()
    assert response.status_code == 502
    assert response.headers["x-should-retry"] == "false"
    assert json.loads(response.content)["error"]["code"] == "HTTP_CONNECT_FAILED"
    assert "POST /v1/messages: HTTP_CONNECT_FAILED: the upstream could not be reached" in err


def _post_raw(url: str, body: bytes, headers: dict[bytes, bytes] | None = None) -> httpx2.Response:
    with httpx2.Client(timeout=SECONDS) as http:
        return http.post(url, content=body, headers={b"x-api-key": KEY.encode(), **(headers or {})})


async def test_a_body_no_cassette_can_hold_is_a_typed_400_sent_nowhere_and_named_on_stderr(
    tmp_path: Path,
) -> None:
    cassette = tmp_path / "refused.json"
    deep = b'{"a": ' + b"[" * 64 + b"]" * 64 + b"}"
    async with LoopbackServer(upstream_answer) as upstream:
        with serving(str(cassette), "--record", "--upstream", upstream.base_url) as child:
            url = _base_url(child.banner()) + "/v1/messages"
            answers = [
                await asyncio.to_thread(_post_raw, url, body)
                for body in (b'{"temperature": NaN}', b'{"a": 1e400}', deep)
            ]
            child.process.send_signal(signal.SIGTERM)
            _out, err = await asyncio.to_thread(child.finish)
        received = list(upstream.requests)

    assert [(answer.status_code, answer.headers["x-should-retry"]) for answer in answers] == [
        (400, "false")
    ] * 3
    assert [answer.json()["error"]["code"] for answer in answers] == ["HTTP_RECORDING_INVALID"] * 3
    held = "(no cassette can hold this request body)"
    assert err.splitlines() == [
        f"POST /v1/messages: HTTP_RECORDING_INVALID: body: not strict JSON: NaN is not a JSON "
        f"number {held}",
        f"POST /v1/messages: HTTP_RECORDING_INVALID: body: not strict JSON: the number 1e400 "
        f"overflows a float {held}",
        "POST /v1/messages: HTTP_RECORDING_INVALID: body.a" + "[0]" * 63 + ": nests more than "
        f"JSON_MAX_DEPTH (64) containers {held}",
        "course serve: terminated",
    ], "one line each, no traceback"
    assert received == [], "nothing reached the API"
    assert not cassette.exists() or load_cassette(cassette).unwrap().calls == ()


EURO = "€".encode()


def upstream_with_header_bytes(request: LoopbackRequest) -> RecordedResponse:
    # Text of one character per byte goes out as those bytes: here, UTF-8's.
    note = EURO.decode("latin-1")
    return RecordedResponse(200, {"content-type": f"application/json; note={note}"}, b"{}")


async def test_header_bytes_outside_ascii_pass_both_ways_as_they_came_and_replay_so(
    tmp_path: Path,
) -> None:
    cassette = tmp_path / "headers.json"
    beta = {b"anthropic-beta": b"caf\xe9"}
    async with LoopbackServer(upstream_with_header_bytes) as upstream:
        with serving(str(cassette), "--record", "--upstream", upstream.base_url) as child:
            url = _base_url(child.banner()) + "/v1/messages"
            live = await asyncio.to_thread(_post_raw, url, b'{"q": 1}', beta)
            report = await asyncio.to_thread(child.line)
            child.process.send_signal(signal.SIGTERM)
            _out, err = await asyncio.to_thread(child.finish)
        [received] = upstream.requests
    with serving(str(cassette)) as child:
        url = _base_url(child.banner()) + "/v1/messages"
        replayed = await asyncio.to_thread(_post_raw, url, b'{"q": 1}', beta)
        child.process.send_signal(signal.SIGTERM)
        _out, replay_err = await asyncio.to_thread(child.finish)

    sent = b"application/json; note=" + EURO
    assert (live.status_code, dict(live.headers.raw)[b"content-type"]) == (200, sent)
    assert (replayed.status_code, dict(replayed.headers.raw)[b"content-type"]) == (200, sent)
    assert received.header("anthropic-beta") == "caf\xe9", "the byte the client sent"
    assert report == "POST /v1/messages: recorded: 200"
    assert (err, replay_err) == ("course serve: terminated\n", "course serve: terminated\n")
    [call] = load_cassette(cassette).unwrap().calls
    assert call.request.headers["anthropic-beta"] == "caf\xe9"
