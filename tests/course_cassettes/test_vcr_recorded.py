"""Cassettes VCR.py itself records, converted, then replayed by the same SDK through ours.

VCR.py (``vcrpy``, as pytest-recording drives it) patches httpx2's
transports, so it records the official SDKs' calls in-process. Each test
here records one call of ``anthropic``, ``openai`` or ``google-genai``,
streamed or plain, against a loopback server on 127.0.0.1 (the SDK's
base URL), converts the YAML with `convert_vcr_cassette` and the registry's
strict check, and replays the course cassette through
`Httpx2CassetteTransport` with the same SDK: the same answer, no key in the
file. A second rig records one call through both VCR.py and
`Httpx2RecordingTransport` at once: the conversion is the recording.
"""

from __future__ import annotations

import asyncio
import gzip
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anthropic
import httpx2
import openai
import pytest
import vcr  # type: ignore[import-untyped]  # VCR.py ships no type information
from google import genai
from google.genai import types

from course_cassettes import (
    Httpx2CassetteTransport,
    Httpx2RecordingTransport,
    VcrConversion,
    convert_vcr_cassette,
    dumps_cassette,
    load_cassette,
)
from course_http import RecordedResponse
from course_http.loopback import LoopbackRequest, LoopbackServer
from course_vendor import recorded_stream_problem, stream_judge_for
from tests.course_cassettes.sdk_upstream import (
    ANTHROPIC_KEY,
    ANTHROPIC_MESSAGE,
    ANTHROPIC_SSE,
    CHAT_COMPLETION,
    CHAT_SSE,
    GEMINI_KEY,
    GEMINI_RESPONSE,
    GEMINI_SSE,
    OPENAI_KEY,
    Upstream,
)
from tests.course_cassettes.test_httpx2_transports import CALLS, every_call, run
from tests.streams import GUARD_SECONDS

ASKED: Any = [{"role": "user", "content": "hi"}]
KEYS = (ANTHROPIC_KEY, OPENAI_KEY, GEMINI_KEY)
SSE = {"content-type": "text/event-stream; charset=utf-8"}
JSON = {"content-type": "application/json"}

# One SDK call: (its base URL, or None for the SDK's own; its http client, or None
# for the SDK's own) -> the text it read.
SdkCall = Callable[[str | None, httpx2.AsyncClient | None], Awaitable[str]]


def _claude(base_url: str | None, http: httpx2.AsyncClient | None) -> anthropic.AsyncAnthropic:
    return anthropic.AsyncAnthropic(
        api_key=ANTHROPIC_KEY, base_url=base_url, http_client=http, max_retries=0
    )


async def _claude_stream(base_url: str | None, http: httpx2.AsyncClient | None) -> str:
    async with (
        _claude(base_url, http) as client,
        client.messages.stream(model="claude-own", max_tokens=10, messages=ASKED) as stream,
    ):
        return "".join([text async for text in stream.text_stream])


async def _claude_plain(base_url: str | None, http: httpx2.AsyncClient | None) -> str:
    async with _claude(base_url, http) as client:
        message = await client.messages.create(model="claude-own", max_tokens=10, messages=ASKED)
    block = message.content[0]
    assert block.type == "text"
    return block.text


def _gpt(base_url: str | None, http: httpx2.AsyncClient | None) -> openai.AsyncOpenAI:
    root = None if base_url is None else f"{base_url}/v1"
    return openai.AsyncOpenAI(api_key=OPENAI_KEY, base_url=root, http_client=http, max_retries=0)


async def _chat_stream(base_url: str | None, http: httpx2.AsyncClient | None) -> str:
    async with _gpt(base_url, http) as client:
        chunks = await client.chat.completions.create(
            model="gpt-own", messages=ASKED, stream=True, stream_options={"include_usage": True}
        )
        async with chunks:
            return "".join(
                [chunk.choices[0].delta.content or "" async for chunk in chunks if chunk.choices]
            )


async def _chat_plain(base_url: str | None, http: httpx2.AsyncClient | None) -> str:
    async with _gpt(base_url, http) as client:
        completion = await client.chat.completions.create(model="gpt-own", messages=ASKED)
    return completion.choices[0].message.content or ""


def _gemini(base_url: str | None, http: httpx2.AsyncClient | None) -> Any:
    # The Gemini wire is recorded at /v1beta, where recent SDKs would call /v1.
    options = types.HttpOptions(api_version="v1beta", base_url=base_url, httpx_async_client=http)
    return genai.Client(api_key=GEMINI_KEY, http_options=options).aio


async def _gemini_stream(base_url: str | None, http: httpx2.AsyncClient | None) -> str:
    client = _gemini(base_url, http)
    try:
        stream = await client.models.generate_content_stream(model="gemini-own", contents="hi")
        return "".join([response.text or "" async for response in stream])
    finally:
        await client.aclose()


async def _gemini_plain(base_url: str | None, http: httpx2.AsyncClient | None) -> str:
    client = _gemini(base_url, http)
    try:
        response = await client.models.generate_content(model="gemini-own", contents="hi")
        return str(response.text or "")
    finally:
        await client.aclose()


SDK_CALLS: dict[str, SdkCall] = {
    "anthropic-stream": _claude_stream,
    "anthropic-plain": _claude_plain,
    "openai-stream": _chat_stream,
    "openai-plain": _chat_plain,
    "gemini-stream": _gemini_stream,
    "gemini-plain": _gemini_plain,
}


def answer(request: LoopbackRequest) -> RecordedResponse:
    """The loopback API: each vendor's answer for its path, streamed when asked for."""
    path = request.path.partition("?")[0]
    if path.startswith("/v1beta/models/"):
        # Gemini says "stream" in the method of the path, not in the body.
        if path.endswith(":streamGenerateContent"):
            return RecordedResponse(200, SSE, GEMINI_SSE)
        return RecordedResponse(200, JSON, GEMINI_RESPONSE)
    streamed, plain = {
        "/v1/messages": (ANTHROPIC_SSE, ANTHROPIC_MESSAGE),
        "/v1/chat/completions": (CHAT_SSE, CHAT_COMPLETION),
    }[path]
    body = request.json()
    assert isinstance(body, dict)
    return (
        RecordedResponse(200, SSE, streamed)
        if body.get("stream")
        else RecordedResponse(200, JSON, plain)
    )


def gzipped(request: LoopbackRequest) -> RecordedResponse:
    """A plain Messages answer compressed, as a real API sends it to a client asking for gzip."""
    assert "gzip" in (request.header("accept-encoding") or "")
    headers = {**JSON, "content-encoding": "gzip"}
    return RecordedResponse(200, headers, gzip.compress(ANTHROPIC_MESSAGE))


def vcr_cassette(tmp_path: Path) -> Path:
    """Where pytest-recording keeps a test's cassette: ``cassettes/<module>/<test>.yaml``."""
    return tmp_path / "cassettes" / "test_agent" / "test_answer.yaml"


async def recorded_by_vcr(
    path: Path, responder: Callable[[LoopbackRequest], RecordedResponse], call: SdkCall
) -> tuple[str, str]:
    """``call`` recorded by VCR.py into ``path`` against a loopback server; the text it read
    and the server's base URL."""
    async with asyncio.timeout(GUARD_SECONDS), LoopbackServer(responder) as server:
        with vcr.use_cassette(str(path), record_mode="once") as cassette:
            text = await call(server.base_url, None)
        assert cassette.play_count == 0, "recorded, not replayed"
        assert len(server.requests) == 1
        return text, server.base_url


def converted(path: Path) -> VcrConversion:
    result = convert_vcr_cassette(path.read_bytes(), check=recorded_stream_problem)
    return result.unwrap()


async def replayed(conversion: VcrConversion, call: SdkCall) -> tuple[str, Httpx2CassetteTransport]:
    """``call`` made by the SDK (its own base URL) over the converted cassette."""
    transport = Httpx2CassetteTransport(conversion.cassette, check=stream_judge_for)
    async with asyncio.timeout(GUARD_SECONDS), httpx2.AsyncClient(transport=transport) as http:
        return await call(None, http), transport


@pytest.mark.parametrize("name", sorted(SDK_CALLS))
async def test_a_call_vcr_recorded_converts_and_replays_the_same_answer_without_the_key(
    tmp_path: Path, name: str
) -> None:
    path = vcr_cassette(tmp_path)
    text, base_url = await recorded_by_vcr(path, answer, SDK_CALLS[name])
    assert text == "Hello"
    assert any(key in path.read_text(encoding="utf-8") for key in KEYS), "VCR.py keeps the key"

    conversion = converted(path)
    assert (conversion.converted, conversion.refused, conversion.flagged) == ((0,), (), ())
    assert conversion.hosts == (base_url,)
    (dropped,) = conversion.dropped
    assert dropped.index == 0
    assert "(a credential)" in dropped.reason
    written = dumps_cassette(conversion.cassette)
    assert not any(key in written for key in KEYS)
    # The host, as a recording keeps it: a loopback one without its port, which changes.
    (call,) = conversion.cassette.calls
    assert (call.request.host, call.request.wire) == ("127.0.0.1", None)
    assert base_url.removeprefix("http://127.0.0.1:") not in written

    again, transport = await replayed(conversion, SDK_CALLS[name])
    assert again == "Hello"
    transport.assert_consumed()
    assert transport.problems == ()


async def test_a_sync_chat_stream_vcr_recorded_converts_whole_and_replays(tmp_path: Path) -> None:
    # The sync OpenAI client stops reading at [DONE]; VCR.py reads the body whole first.
    def stream(base_url: str | None, http: httpx2.Client | None) -> str:
        root = None if base_url is None else f"{base_url}/v1"
        client = openai.OpenAI(
            api_key=OPENAI_KEY,
            base_url=root,
            http_client=http,
            max_retries=0,
            timeout=GUARD_SECONDS,
        )
        with client.chat.completions.create(
            model="gpt-own", messages=ASKED, stream=True, stream_options={"include_usage": True}
        ) as chunks:
            return "".join(
                chunk.choices[0].delta.content or "" for chunk in chunks if chunk.choices
            )

    path = vcr_cassette(tmp_path)
    async with asyncio.timeout(GUARD_SECONDS), LoopbackServer(answer) as server:
        with vcr.use_cassette(str(path), record_mode="once"):
            assert await asyncio.to_thread(stream, server.base_url, None) == "Hello"
    conversion = converted(path)
    (call,) = conversion.cassette.calls
    assert (call.response.body, call.response.end) == (CHAT_SSE, "complete")
    assert conversion.flagged == ()

    transport = Httpx2CassetteTransport(conversion.cassette, check=stream_judge_for)
    with httpx2.Client(transport=transport) as http:
        assert await asyncio.to_thread(stream, None, http) == "Hello"
    assert transport.problems == ()


async def test_a_gzip_body_vcr_recorded_as_binary_is_kept_decoded_and_replays(
    tmp_path: Path,
) -> None:
    path = vcr_cassette(tmp_path)
    text, _ = await recorded_by_vcr(path, gzipped, _claude_plain)
    assert text == "Hello"
    assert "!!binary" in path.read_text(encoding="utf-8"), "VCR.py kept the compressed bytes"

    conversion = converted(path)
    (call,) = conversion.cassette.calls
    assert call.response.body == ANTHROPIC_MESSAGE
    assert "content-encoding" not in call.response.headers
    assert "content-encoding (the body is kept decoded)" in conversion.dropped[0].reason
    again, transport = await replayed(conversion, _claude_plain)
    assert again == "Hello"
    assert transport.problems == ()


async def test_a_stream_vcr_recorded_cut_short_is_converted_and_flagged(tmp_path: Path) -> None:
    cut = ANTHROPIC_SSE[: ANTHROPIC_SSE.index(b"event: message_stop")]
    path = vcr_cassette(tmp_path)
    text, _ = await recorded_by_vcr(
        path, lambda request: RecordedResponse(200, SSE, cut), _claude_stream
    )
    assert text == "Hello", "the SDK reads it anyway"
    conversion = converted(path)
    assert conversion.cassette.calls[0].response.body == cut
    (flag,) = conversion.flagged
    assert flag.index == 0
    assert flag.code is not None
    assert flag.code.value == "VENDOR_MISSING_TERMINAL"
    assert flag.reason.startswith("calls[0].response.body: ")


@every_call
def test_a_converted_cassette_is_the_one_a_recording_of_the_same_call_writes(
    tmp_path: Path, name: str
) -> None:
    # VCR.py patches httpx2.MockTransport too: under our recording transport, both record.
    # Async: the sync OpenAI client stops reading a stream at [DONE], and a recording keeps
    # what was read (stalled) where VCR.py read the body whole.
    ours = tmp_path / "ours.json"
    theirs = tmp_path / "theirs.yaml"
    with (
        vcr.use_cassette(str(theirs), record_mode="once"),
        Httpx2RecordingTransport(ours, inner=Upstream().transport) as recording,
    ):
        assert run("async", name, recording) == CALLS[name][3]
    conversion = converted(theirs)
    assert conversion.cassette == load_cassette(ours).unwrap()
    assert json.loads(dumps_cassette(conversion.cassette)) == json.loads(ours.read_text())
