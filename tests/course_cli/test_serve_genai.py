"""``course serve`` as a user runs it: the google-genai SDK replays a Gemini cassette.

The cassette is the one `GeminiModel` records (the shared wire harness); the
``google-genai`` SDK (a test-only dependency) is pointed at the base URL the
server prints for it, as printed, and must receive the recorded answer
through its sync and async streams, and the server's refusal as its own
error. Every wait is bounded; the server is always stopped.
"""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path
from typing import Any

import pytest
from google import genai
from google.genai import errors, types

from tests.course_cli.serving import SECONDS, serving
from tests.course_cli.test_cassettes import write_wire_cassette
from tests.course_provider_gemini.harness import MODEL, WIRES


def _contents() -> list[types.Content]:
    # The request `GeminiModel` sends for the shared harness's REQUEST.
    return [types.Content(role="user", parts=[types.Part(text="What is 20 + 22?")])]


def _client(base_url: str) -> genai.Client:
    # Recent SDKs call /v1 unless told otherwise; `GeminiModel` records /v1beta.
    options = types.HttpOptions(
        base_url=base_url, api_version="v1beta", timeout=int(SECONDS * 1000)
    )
    return genai.Client(api_key="AIza-test", http_options=options)


def _text(responses: Any) -> str:
    return "".join(response.text or "" for response in responses)


async def _async_text(base_url: str, config: types.GenerateContentConfig) -> str:
    # The async client's connections belong to this loop: it is closed in it.
    async with asyncio.timeout(SECONDS), _client(base_url).aio as client:
        stream = await client.models.generate_content_stream(
            model=MODEL, contents=_contents(), config=config
        )
        return "".join([response.text or "" async for response in stream])


def test_the_google_genai_sdk_replays_a_gemini_cassette_sync_and_async(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The SDK would take a key from the environment before the one it is given.
    for name in ("GOOGLE_API_KEY", "GEMINI_API_KEY", "GOOGLE_GEMINI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    # The refused request takes a call as a replay's mismatch does: "a.json"'s, served first.
    for name in ("a", "sync", "async"):
        write_wire_cassette(tmp_path / "cassettes" / f"{name}.json", WIRES["gemini"])
    config = types.GenerateContentConfig(max_output_tokens=64)

    with serving(str(tmp_path / "cassettes"), "--chunk", "random", "--delay", "1") as child:
        assert child.line().startswith("course serve: http://127.0.0.1:")
        name, _, rest = child.line().strip().partition(": ")
        base_url = rest.split()[0]
        with _client(base_url) as client:
            with pytest.raises(errors.ClientError) as refused:
                _text(
                    client.models.generate_content_stream(
                        model=MODEL,
                        contents=_contents(),
                        config=types.GenerateContentConfig(max_output_tokens=65),
                    )
                )
            sync_text = _text(
                client.models.generate_content_stream(
                    model=MODEL, contents=_contents(), config=config
                )
            )
        async_text = asyncio.run(_async_text(base_url, config))
        child.process.send_signal(signal.SIGINT)
        out, err = child.finish()

    assert name == "google-genai"
    assert [sync_text, async_text] == ["The sum is 42."] * 2
    assert refused.value.code == 400
    assert refused.value.details["error"]["code"] == "HTTP_REQUEST_MISMATCH"
    assert "maxOutputTokens" in refused.value.details["error"]["message"]
    stream = f"POST /v1beta/models/{MODEL}:streamGenerateContent?alt=sse"
    # Two cassettes recording the same call are served in the order of their file names.
    assert out.splitlines() == [
        f"{stream}: async.json calls[0]: 200",
        f"{stream}: sync.json calls[0]: 200",
    ]
    *problems, last = err.splitlines()
    assert last == "course serve: interrupted"
    assert [line.split(": ")[1] for line in problems] == ["HTTP_REQUEST_MISMATCH"]
    assert "Traceback" not in err
