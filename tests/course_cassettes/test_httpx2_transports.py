"""The official SDKs over the httpx2 cassette transports, in-process, with no network.

Each call is recorded from an ``httpx2.MockTransport`` upstream (the "real
API", bodies of our own in the vendors' shapes) by `Httpx2RecordingTransport`
under the real ``anthropic``, ``openai`` and ``google-genai`` clients, sync and async, then
replayed by `Httpx2CassetteTransport` to fresh clients holding another key.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anthropic
import httpx2
import openai
import pytest
from google import genai
from google.genai import errors, types

from course_cassettes import (
    Httpx2CassetteTransport,
    Httpx2RecordingTransport,
    ReplayFault,
    RequestMatching,
    load_cassette,
)
from course_http import VendorErrorCode
from tests.course_cassettes.sdk_upstream import (
    ANTHROPIC_KEY,
    ANTHROPIC_MESSAGE,
    ANTHROPIC_SSE,
    CHAT_COMPLETION,
    CHAT_SSE,
    GEMINI_KEY,
    GEMINI_RESPONSE,
    GEMINI_SSE,
    MODELS,
    OPENAI_KEY,
    Upstream,
)

ASKED = [{"role": "user", "content": "hi"}]
CHANGED = [{"role": "user", "content": "hello"}]

# One SDK call, sync: (the SDK client's http_client, messages) -> the text it read.
SyncCall = Callable[[httpx2.Client, list[dict[str, str]]], str]
AsyncCall = Callable[[httpx2.AsyncClient, list[dict[str, str]]], Awaitable[str]]


def _claude(http: httpx2.Client, key: str = ANTHROPIC_KEY) -> anthropic.Anthropic:
    return anthropic.Anthropic(api_key=key, http_client=http)


def _gpt(http: httpx2.Client, key: str = OPENAI_KEY) -> openai.OpenAI:
    return openai.OpenAI(api_key=key, http_client=http)


def _claude_stream(http: httpx2.Client, messages: Any, key: str = ANTHROPIC_KEY) -> str:
    with _claude(http, key).messages.stream(
        model="claude-own", max_tokens=10, messages=messages
    ) as stream:
        return "".join(stream.text_stream)


def _claude_plain(http: httpx2.Client, messages: Any, key: str = ANTHROPIC_KEY) -> str:
    message = _claude(http, key).messages.create(
        model="claude-own", max_tokens=10, messages=messages
    )
    block = message.content[0]
    assert block.type == "text"
    return block.text


def _chat_stream(http: httpx2.Client, messages: Any, key: str = OPENAI_KEY) -> str:
    with _gpt(http, key).chat.completions.create(
        model="gpt-own",
        messages=messages,
        stream=True,
        stream_options={"include_usage": True},
    ) as chunks:
        return "".join(chunk.choices[0].delta.content or "" for chunk in chunks if chunk.choices)


def _chat_plain(http: httpx2.Client, messages: Any, key: str = OPENAI_KEY) -> str:
    completion = _gpt(http, key).chat.completions.create(model="gpt-own", messages=messages)
    return completion.choices[0].message.content or ""


def _models(http: httpx2.Client, messages: Any, key: str = OPENAI_KEY) -> str:
    del messages
    return ",".join(model.id for model in _gpt(http, key).models.list())


async def _claude_stream_async(
    http: httpx2.AsyncClient, messages: Any, key: str = ANTHROPIC_KEY
) -> str:
    client = anthropic.AsyncAnthropic(api_key=key, http_client=http)
    async with client.messages.stream(
        model="claude-own", max_tokens=10, messages=messages
    ) as stream:
        return "".join([text async for text in stream.text_stream])


async def _claude_plain_async(
    http: httpx2.AsyncClient, messages: Any, key: str = ANTHROPIC_KEY
) -> str:
    client = anthropic.AsyncAnthropic(api_key=key, http_client=http)
    message = await client.messages.create(model="claude-own", max_tokens=10, messages=messages)
    block = message.content[0]
    assert block.type == "text"
    return block.text


async def _chat_stream_async(http: httpx2.AsyncClient, messages: Any, key: str = OPENAI_KEY) -> str:
    client = openai.AsyncOpenAI(api_key=key, http_client=http)
    chunks = await client.chat.completions.create(
        model="gpt-own", messages=messages, stream=True, stream_options={"include_usage": True}
    )
    async with chunks:
        return "".join(
            [chunk.choices[0].delta.content or "" async for chunk in chunks if chunk.choices]
        )


async def _chat_plain_async(http: httpx2.AsyncClient, messages: Any, key: str = OPENAI_KEY) -> str:
    client = openai.AsyncOpenAI(api_key=key, http_client=http)
    completion = await client.chat.completions.create(model="gpt-own", messages=messages)
    return completion.choices[0].message.content or ""


async def _models_async(http: httpx2.AsyncClient, messages: Any, key: str = OPENAI_KEY) -> str:
    del messages
    client = openai.AsyncOpenAI(api_key=key, http_client=http)
    return ",".join([model.id async for model in client.models.list()])


def _gemini(key: str, **client: Any) -> genai.Client:
    # Recent SDKs call /v1 unless told otherwise; the Gemini vendor is recorded at /v1beta.
    options = types.HttpOptions(api_version="v1beta", **client)
    return genai.Client(api_key=key, http_options=options)


def _contents(messages: Any) -> list[types.Content]:
    return [
        types.Content(role=message["role"], parts=[types.Part(text=message["content"])])
        for message in messages
    ]


def _gemini_stream(http: httpx2.Client, messages: Any, key: str = GEMINI_KEY) -> str:
    stream = _gemini(key, httpx_client=http).models.generate_content_stream(
        model="gemini-own", contents=_contents(messages)
    )
    return "".join(response.text or "" for response in stream)


def _gemini_plain(http: httpx2.Client, messages: Any, key: str = GEMINI_KEY) -> str:
    response = _gemini(key, httpx_client=http).models.generate_content(
        model="gemini-own", contents=_contents(messages)
    )
    return response.text or ""


async def _gemini_stream_async(
    http: httpx2.AsyncClient, messages: Any, key: str = GEMINI_KEY
) -> str:
    client = _gemini(key, httpx_async_client=http).aio
    stream = await client.models.generate_content_stream(
        model="gemini-own", contents=_contents(messages)
    )
    return "".join([response.text or "" async for response in stream])


async def _gemini_plain_async(
    http: httpx2.AsyncClient, messages: Any, key: str = GEMINI_KEY
) -> str:
    client = _gemini(key, httpx_async_client=http).aio
    response = await client.models.generate_content(
        model="gemini-own", contents=_contents(messages)
    )
    return response.text or ""


# name: (sync call, async call, the body the upstream answers, the text read)
CALLS: dict[str, tuple[Any, Any, bytes, str]] = {
    "anthropic-stream": (_claude_stream, _claude_stream_async, ANTHROPIC_SSE, "Hello"),
    "anthropic-plain": (_claude_plain, _claude_plain_async, ANTHROPIC_MESSAGE, "Hello"),
    "openai-stream": (_chat_stream, _chat_stream_async, CHAT_SSE, "Hello"),
    "openai-plain": (_chat_plain, _chat_plain_async, CHAT_COMPLETION, "Hello"),
    "openai-models": (_models, _models_async, MODELS, "gpt-own"),
    "gemini-stream": (_gemini_stream, _gemini_stream_async, GEMINI_SSE, "Hello"),
    "gemini-plain": (_gemini_plain, _gemini_plain_async, GEMINI_RESPONSE, "Hello"),
}
KEYS = {"anthropic": ANTHROPIC_KEY, "openai": OPENAI_KEY, "gemini": GEMINI_KEY}
every_call = pytest.mark.parametrize("name", sorted(CALLS))
both_ways = pytest.mark.parametrize("way", ["sync", "async"])


def run(way: str, name: str, transport: Any, messages: Any = ASKED, **key: str) -> str:
    """One SDK call of ``name`` over ``transport``, sync or async, as the SDK user writes it."""
    sync_call, async_call, _body, _text = CALLS[name]
    if way == "sync":
        with httpx2.Client(transport=transport) as http:
            text: str = sync_call(http, messages, **key)
            return text

    async def main() -> str:
        async with httpx2.AsyncClient(transport=transport) as http:
            text: str = await async_call(http, messages, **key)
            return text

    return asyncio.run(main())


def recorded(tmp_path: Path, way: str, name: str, upstream: Upstream | None = None) -> Path:
    """Record one call of ``name`` into a cassette under ``tmp_path``; its path."""
    path = tmp_path / "cassette.json"
    upstream = upstream or Upstream()
    with Httpx2RecordingTransport(path, inner=upstream.transport) as transport:
        assert run(way, name, transport) == CALLS[name][3]
    return path


def replayer(path: Path, **options: Any) -> Httpx2CassetteTransport:
    return Httpx2CassetteTransport(load_cassette(path).unwrap(), **options)


@every_call
@both_ways
def test_a_recorded_sdk_call_holds_no_key_and_replays_byte_for_byte(
    tmp_path: Path, way: str, name: str
) -> None:
    upstream = Upstream()
    path = recorded(tmp_path, way, name, upstream)
    text = path.read_text(encoding="utf-8")
    sent = upstream.received[0]
    sent_key = next(
        sent.headers[header]
        for header in ("x-api-key", "authorization", "x-goog-api-key")
        if header in sent.headers
    )
    assert sent_key.endswith(KEYS[name.partition("-")[0]]), "the caller's own key reached the API"
    for key in KEYS.values():
        assert key not in text
    assert "x-stainless" not in text
    assert "user-agent" not in text
    call = load_cassette(path).unwrap().calls[0]
    assert call.response.body == CALLS[name][2]
    assert (call.request.method, call.request.path) == (sent.method, sent.url.raw_path.decode())
    if name == "openai-models":
        assert json.loads(text)["calls"][0]["request"]["body"] == {}

    transport = replayer(path)
    assert run(way, name, transport, key="sk-placeholder") == CALLS[name][3]
    transport.assert_consumed()
    assert transport.problems == ()


@pytest.mark.parametrize(
    "name", ["anthropic-stream", "anthropic-plain", "openai-stream", "openai-plain"]
)
@both_ways
def test_a_changed_prompt_is_refused_once_naming_the_first_differing_path(
    tmp_path: Path, way: str, name: str
) -> None:
    transport = replayer(recorded(tmp_path, way, name))
    refused: type[anthropic.BadRequestError | openai.BadRequestError] = (
        anthropic.BadRequestError if name.startswith("anthropic") else openai.BadRequestError
    )
    with pytest.raises(refused) as raised:
        run(way, name, transport, CHANGED)
    problem = (
        "call 1 differs from the recorded calls[0]: "
        'messages[0].content: recorded "hi", sent "hello"'
    )
    # The SDK retries twice by default: the refusal is marked not to be retried.
    assert len(transport.requests) == 1
    assert [(error.code, error.message) for error in transport.problems] == [
        (VendorErrorCode.HTTP_REQUEST_MISMATCH, problem)
    ]
    error = raised.value
    assert isinstance(error, (anthropic.BadRequestError, openai.BadRequestError))
    assert error.status_code == 400
    body = error.body
    assert isinstance(body, dict)
    # The Anthropic SDK keeps the whole body, the OpenAI one what is under "error".
    assert body.get("error", body) == {
        "type": "course_cassette_error",
        "code": "HTTP_REQUEST_MISMATCH",
        "message": problem,
    }


@pytest.mark.parametrize("name", ["gemini-stream", "gemini-plain"])
@both_ways
def test_a_changed_gemini_prompt_reaches_the_google_genai_sdk_as_its_client_error(
    tmp_path: Path, way: str, name: str
) -> None:
    transport = replayer(recorded(tmp_path, way, name))
    with pytest.raises(errors.ClientError) as raised:
        run(way, name, transport, CHANGED)
    problem = (
        "call 1 differs from the recorded calls[0]: "
        'contents[0].parts[0].text: recorded "hi", sent "hello"'
    )
    assert len(transport.requests) == 1
    assert [(error.code, error.message) for error in transport.problems] == [
        (VendorErrorCode.HTTP_REQUEST_MISMATCH, problem)
    ]
    assert raised.value.code == 400
    assert raised.value.details["error"] == {
        "type": "course_cassette_error",
        "code": "HTTP_REQUEST_MISMATCH",
        "message": problem,
    }


def test_a_gemini_call_under_v1_where_the_cassette_holds_v1beta_says_so(tmp_path: Path) -> None:
    transport = replayer(recorded(tmp_path, "sync", "gemini-plain"))
    with httpx2.Client(transport=transport) as http:
        options = types.HttpOptions(api_version="v1", httpx_client=http)
        client = genai.Client(api_key=GEMINI_KEY, http_options=options)
        with pytest.raises(errors.ClientError) as raised:
            client.models.generate_content(model="gemini-own", contents=_contents(ASKED))
    [problem] = transport.problems
    assert problem.code is VendorErrorCode.HTTP_REQUEST_MISMATCH
    assert problem.message.endswith(
        "(the paths differ only in their API version: v1beta recorded, v1 sent; "
        "set the client's API version to v1beta, or record again)"
    )
    assert raised.value.details["error"]["message"] == problem.message


@both_ways
def test_a_call_past_the_recorded_ones_is_refused_once_as_exhausted(
    tmp_path: Path, way: str
) -> None:
    transport = replayer(recorded(tmp_path, way, "openai-plain"), when_exhausted="Record it.")
    assert run(way, "openai-plain", transport) == "Hello"
    with pytest.raises(openai.BadRequestError):
        run(way, "openai-plain", transport)
    assert len(transport.requests) == 2
    assert [(error.code, error.message) for error in transport.problems] == [
        (
            VendorErrorCode.HTTP_RECORDING_EXHAUSTED,
            "call 2 asked for a response; the recording holds 1. Record it.",
        )
    ]


@both_ways
def test_ignored_paths_and_order_matching_serve_a_changed_prompt(tmp_path: Path, way: str) -> None:
    path = recorded(tmp_path, way, "anthropic-stream")
    for matching in (RequestMatching(ignore=["messages[0].content"]), RequestMatching("order")):
        transport = replayer(path, matching=matching)
        assert run(way, "anthropic-stream", transport, CHANGED) == "Hello"
        assert transport.problems == ()


@both_ways
def test_a_retried_status_is_recorded_as_its_own_call_and_replayed_in_order(
    tmp_path: Path, way: str
) -> None:
    upstream = Upstream(statuses=(529,))
    path = recorded(tmp_path, way, "anthropic-plain", upstream)
    calls = load_cassette(path).unwrap().calls
    assert [call.response.status for call in calls] == [529, 200]
    assert calls[0].request == calls[1].request, "the retry count is the SDK's, not kept"
    transport = replayer(path)
    assert run(way, "anthropic-plain", transport) == "Hello"
    transport.assert_consumed()


@both_ways
def test_a_dropped_connection_fault_reaches_the_sdk_mid_stream(tmp_path: Path, way: str) -> None:
    transport = replayer(
        recorded(tmp_path, way, "anthropic-stream"), faults={0: ReplayFault.drop_after(3)}
    )
    with pytest.raises((httpx2.RemoteProtocolError, anthropic.APIConnectionError)):
        run(way, "anthropic-stream", transport)
    assert len(transport.requests) == 1


@both_ways
def test_a_replaced_status_fault_is_retried_by_the_sdk_as_the_vendor_status_would_be(
    tmp_path: Path, way: str
) -> None:
    body = b'{"type":"error","error":{"type":"overloaded_error","message":"busy"}}'
    headers = {"content-type": "application/json", "retry-after-ms": "1"}
    transport = replayer(
        recorded(tmp_path, way, "anthropic-plain"),
        faults={0: ReplayFault.replace(529, body, headers)},
    )
    # The SDK retries a 529: its retry is one call more than the recording holds.
    with pytest.raises(anthropic.BadRequestError):
        run(way, "anthropic-plain", transport)
    assert len(transport.requests) == 2
    assert [error.code for error in transport.problems] == [
        VendorErrorCode.HTTP_RECORDING_EXHAUSTED
    ]


def test_a_key_in_the_query_or_echoed_in_the_body_never_reaches_the_cassette(
    tmp_path: Path,
) -> None:
    key = "AIzaSyD-own-test-key-0123456789abcdef"

    def echo(request: httpx2.Request) -> httpx2.Response:
        return httpx2.Response(200, json={"echo": f"your key {key} is fine"})

    path = tmp_path / "cassette.json"
    recording = Httpx2RecordingTransport(path, inner=httpx2.MockTransport(echo))
    with httpx2.Client(transport=recording) as http:
        answer = http.post(
            f"https://generativelanguage.googleapis.com/v1beta/models/own:generateContent?key={key}",
            json={"contents": [{"parts": [{"text": f"repeat {key}"}]}]},
            headers={"x-goog-api-key": key},
        )
    assert key in answer.text, "the client reads the answer as it came"
    text = path.read_text(encoding="utf-8")
    assert key not in text
    call = load_cassette(path).unwrap().calls[0]
    assert call.request.path == "/v1beta/models/own:generateContent?key=[redacted]"
    assert call.response.body == b'{"echo":"your key [redacted] is fine"}'

    replay = Httpx2CassetteTransport(load_cassette(path).unwrap())
    with httpx2.Client(transport=replay) as http:
        again = http.post(
            f"https://generativelanguage.googleapis.com/v1beta/models/own:generateContent?key={key}",
            json={"contents": [{"parts": [{"text": f"repeat {key}"}]}]},
        )
    assert again.content == call.response.body
    assert replay.problems == ()


def test_a_body_no_cassette_can_hold_is_refused_unsent(tmp_path: Path) -> None:
    upstream = Upstream()
    path = tmp_path / "cassette.json"
    recording = Httpx2RecordingTransport(path, inner=upstream.transport)
    with httpx2.Client(transport=recording) as http:
        answer = http.post("https://api.openai.com/v1/files", content=b"\x00 a file")
    assert upstream.received == []
    assert answer.status_code == 400
    assert answer.headers["x-should-retry"] == "false"
    assert answer.json()["error"]["code"] == "HTTP_RECORDING_INVALID"
    assert [error.code for error in recording.problems] == [VendorErrorCode.HTTP_RECORDING_INVALID]
    assert not path.exists() or load_cassette(path).unwrap().calls == ()


@both_ways
def test_a_stream_the_client_stops_reading_is_recorded_whole_and_complete(
    tmp_path: Path, way: str
) -> None:
    path = tmp_path / "cassette.json"
    recording = Httpx2RecordingTransport(path, inner=Upstream().transport)
    body = {"model": "claude-own", "max_tokens": 1, "messages": ASKED, "stream": True}
    url = "https://api.anthropic.com/v1/messages"
    if way == "sync":
        with httpx2.Client(transport=recording) as http, http.stream("POST", url, json=body):
            pass
    else:

        async def main() -> None:
            async with (
                httpx2.AsyncClient(transport=recording) as http,
                http.stream("POST", url, json=body),
            ):
                pass

        asyncio.run(main())
    calls = load_cassette(path).unwrap().calls
    assert [(call.response.end, call.response.body) for call in calls] == [
        ("complete", ANTHROPIC_SSE)
    ]
    assert recording.recorded == (0,)
