"""The base URL is spelled as the OpenAI SDK and ``OPENAI_BASE_URL`` spell it, version included.

The endpoint paths are joined under it, so the full URL of a call is what it
always was (``https://api.openai.com/v1/chat/completions``), and a cassette
keeps the full path: one recorded before still replays under the base URL it
was recorded on. That every wire's calls go to its endpoint under a base URL's
path (a compatible vendor's ``/openai/v1``) is tested over every registered
wire in ``tests/course_vendor/test_base_url.py``.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from frozendict import frozendict

from course_cassettes import (
    Cassette,
    CassetteCall,
    CassetteTransport,
    RecordingTransport,
    load_cassette,
)
from course_http import RecordedRequest
from course_http.loopback import LoopbackServer
from course_protocol import freeze_json_object
from course_provider_openai import (
    CHAT_COMPLETIONS_PATH,
    CHAT_WIRE,
    DEFAULT_BASE_URL,
    RESPONSES_PATH,
    OpenAIConfig,
)
from tests.course_cassettes.replays import replay
from tests.course_vendor.wires import KEY, WIRES, Wire
from tests.streams import GUARD_SECONDS

OPENAI_WIRES = [wire for wire in WIRES if wire.base_url == DEFAULT_BASE_URL]
openai_wire = pytest.mark.parametrize("wire", OPENAI_WIRES, ids=[w.name for w in OPENAI_WIRES])


def test_the_default_base_url_is_the_sdks_and_the_full_urls_are_unchanged() -> None:
    base_url = OpenAIConfig("gpt-own").base_url

    assert base_url == DEFAULT_BASE_URL == "https://api.openai.com/v1"
    assert [base_url + path for path in (CHAT_COMPLETIONS_PATH, RESPONSES_PATH)] == [
        "https://api.openai.com/v1/chat/completions",
        "https://api.openai.com/v1/responses",
    ]


@openai_wire
async def test_a_recording_under_the_sdks_base_url_keeps_the_full_path(
    wire: Wire, tmp_path: Path
) -> None:
    path = tmp_path / "answer.json"
    async with (
        asyncio.timeout(GUARD_SECONDS),
        LoopbackServer([wire.served("ok")]) as server,
        RecordingTransport(f"{server.base_url}/v1", path) as recording,
    ):
        played = await replay(wire.model(transport=recording, api_key=KEY))

    assert played.error is None
    [call] = load_cassette(path).unwrap().calls
    assert call.request.path == "/v1" + wire.path


@openai_wire
async def test_a_cassette_recorded_with_the_old_spelling_replays_under_the_same_url(
    wire: Wire,
) -> None:
    # What a call to https://api.openai.com + /v1/chat/completions recorded.
    recorded_path = "/v1/chat/completions" if wire.name == CHAT_WIRE else "/v1/responses"
    async with wire.recorded(wire.text_body("ok")) as probe:
        await replay(wire.model(transport=probe, tools=()))
    body = freeze_json_object(dict(probe.requests[0].body)).unwrap()
    old = Cassette(
        [
            CassetteCall(
                RecordedRequest("POST", recorded_path, body, frozendict()), wire.served("ok")
            )
        ]
    )

    async with CassetteTransport(old, base_url=DEFAULT_BASE_URL) as transport:
        played = await replay(wire.model(transport=transport, tools=()))

    assert played.error is None
    assert "".join(getattr(chunk, "delta", "") for chunk in played.chunks) == "ok"
    assert transport.pending_call_count == 0
