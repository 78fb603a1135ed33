"""No byte of a credential reaches a cassette, however it was sent or echoed back.

Each test records real calls through a loopback server with a real-looking key
and reads the file's bytes: the key must not be in them in any form a reader
could turn back into the key.
"""

from __future__ import annotations

import asyncio
import base64
import gzip
import json
import zlib
from contextlib import aclosing
from pathlib import Path

import pytest

from course_cassettes._redaction import redacted_response
from course_http import (
    REDACTED,
    HttpRequest,
    LiveTransport,
    RecordedResponse,
    RecordedTransport,
    SseEvent,
    VendorError,
    stream_events,
)
from course_http._secrets import secret_values
from course_http.loopback import LoopbackServer
from tests.course_cassettes.cassettes import REAL_LOOKING_KEY, document, recorded_through_loopback
from tests.course_http.helpers import SSE, read_error
from tests.streams import GUARD_SECONDS

KEY = REAL_LOOKING_KEY
JSON = {"content-type": "application/json"}
OK = RecordedResponse(200, SSE, b"data: ok\n\n")


def echoing(status: int = 401) -> RecordedResponse:
    """A vendor error that repeats the key it was sent, as some APIs' messages do."""
    return RecordedResponse(status, JSON, json.dumps({"error": {"message": f"bad {KEY}"}}).encode())


async def recorded_bytes(
    tmp_path: Path, served: RecordedResponse, target: str, headers: dict[str, str]
) -> bytes:
    """The bytes of the cassette one call of ``target`` with ``headers`` records."""
    path = tmp_path / "secret.json"
    async with (
        asyncio.timeout(GUARD_SECONDS),
        recorded_through_loopback([served], path) as (server, transport),
    ):
        call = HttpRequest(target, {"q": 1}, headers)
        try:
            async with aclosing(
                stream_events(transport, call, vendor="v", describe_error=read_error)
            ) as events:
                async for _event in events:
                    pass
        except VendorError:
            pass
        [sent] = server.requests
        assert (sent.path, *map(sent.header, headers)) == (target, *headers.values()), "as given"
    return path.read_bytes()


async def test_a_query_key_whose_name_is_percent_encoded_is_masked(tmp_path: Path) -> None:
    data = await recorded_bytes(tmp_path, OK, f"/v1/x?api%5Fkey={KEY}&Key={KEY}&alt=sse", {})

    assert KEY.encode() not in data
    assert document(tmp_path / "secret.json")["calls"][0]["request"]["path"] == (
        f"/v1/x?api%5Fkey={REDACTED}&Key={REDACTED}&alt=sse"
    )


async def test_a_key_sent_only_in_the_query_is_scrubbed_where_the_vendor_echoes_it(
    tmp_path: Path,
) -> None:
    escaped = KEY.replace("-", "%2D")
    data = await recorded_bytes(tmp_path, echoing(400), f"/v1/x?key={escaped}", {})

    assert KEY.encode() not in data
    assert escaped.encode() not in data
    [written] = document(tmp_path / "secret.json")["calls"]
    assert written["response"]["body"] == [f'{{"error": {{"message": "bad {REDACTED}"}}}}']


async def test_a_key_sent_by_basic_auth_is_scrubbed_in_clear_as_well_as_in_base64(
    tmp_path: Path,
) -> None:
    for user, password in (("user", KEY), (KEY, "")):
        token = base64.b64encode(f"{user}:{password}".encode()).decode()
        data = await recorded_bytes(
            tmp_path, echoing(), "/v1/x", {"authorization": f"Basic {token}"}
        )

        assert KEY.encode() not in data
        assert token.encode() not in data
        [written] = document(tmp_path / "secret.json")["calls"]
        assert written["response"]["body"] == [f'{{"error": {{"message": "bad {REDACTED}"}}}}']


def _base64_echoes(key: str) -> list[str]:
    """What a server may echo of ``key`` in base64: alone, and inside longer encoded texts."""
    raw = key.encode()
    return [
        base64.b64encode(raw).decode(),
        base64.urlsafe_b64encode(raw).decode().rstrip("="),
        base64.b64encode(b"Bearer " + raw).decode(),
        base64.b64encode(b"user:" + raw).decode(),
        base64.urlsafe_b64encode(b"[" + raw + b"]").decode(),
    ]


def _base64_windows(key: str) -> set[bytes]:
    """Every 8 characters base64 writes for ``key``'s bytes alone, wherever the key sits."""
    windows: set[bytes] = set()
    for encode in (base64.b64encode, base64.urlsafe_b64encode):
        for before in range(3):
            # The groups shared with the neighbours (one at each end) are not the key's alone.
            inner = encode(b"\0" * before + key.encode())[4:-4]
            windows.update(inner[start : start + 8] for start in range(len(inner) - 7))
    return windows


@pytest.mark.parametrize(
    ("target", "headers"),
    [
        ("/v1/x", {"x-api-key": KEY}),
        ("/v1/x", {"authorization": f"Bearer {KEY}"}),
        (f"/v1/x?key={KEY}", {}),
    ],
    ids=["x-api-key", "bearer", "query"],
)
async def test_a_key_echoed_in_base64_alone_or_inside_a_longer_text_is_scrubbed(
    tmp_path: Path, target: str, headers: dict[str, str]
) -> None:
    echoes = _base64_echoes(KEY)
    body = json.dumps({"error": {"message": "seen: " + " ".join(echoes)}}).encode()
    data = await recorded_bytes(tmp_path, RecordedResponse(401, JSON, body), target, headers)

    assert [echo for echo in echoes if echo.encode() in data] == []
    assert [window for window in _base64_windows(KEY) if window in data] == []
    [written] = document(tmp_path / "secret.json")["calls"]
    assert written["response"]["body"][0].count(REDACTED) == len(echoes)


def test_the_credentials_of_basic_auth_are_its_token_its_pair_and_its_long_parts() -> None:
    token = base64.b64encode(b"user:p@ssw0rd-long").decode()
    dummy = base64.b64encode(f"{KEY}:X".encode()).decode()

    assert secret_values({"Authorization": f"basic {token}"}) == (
        f"basic {token}",
        token,
        "user:p@ssw0rd-long",
        "p@ssw0rd-long",
    )
    parts = secret_values({"authorization": f"Basic {dummy}"})
    assert KEY in parts, "the key as the user name, as APIs with a dummy password take it"
    assert "X" not in parts, "a short part would scrub every X of every body"
    assert secret_values({"authorization": "Basic not*base64"}) == (
        "Basic not*base64",
        "not*base64",
    )


@pytest.mark.parametrize("encoding", ["gzip", "deflate"])
async def test_a_key_echoed_in_a_compressed_body_is_scrubbed_from_the_body_written_decoded(
    encoding: str, tmp_path: Path
) -> None:
    plain = echoing().body
    packed = gzip.compress(plain) if encoding == "gzip" else zlib.compress(plain)
    served = RecordedResponse(401, {**JSON, "content-encoding": encoding}, packed)
    data = await recorded_bytes(tmp_path, served, "/v1/x", {"x-api-key": KEY})
    [written] = document(tmp_path / "secret.json")["calls"]

    assert written["response"]["headers"] == JSON
    assert written["response"]["body"] == [f'{{"error": {{"message": "bad {REDACTED}"}}}}']
    assert KEY.encode() not in data


@pytest.mark.parametrize("kept", [8, 40, len(KEY) - 1])
async def test_a_body_cut_inside_an_echoed_key_keeps_no_piece_of_it(
    kept: int, tmp_path: Path
) -> None:
    cut = b'data: {"echo": "' + KEY[:kept].encode()
    served = RecordedResponse(200, SSE, cut, "interrupted")
    data = await recorded_bytes(tmp_path, served, "/v1/x", {"authorization": f"Bearer {KEY}"})
    [written] = document(tmp_path / "secret.json")["calls"]

    assert KEY[:kept].encode() not in data
    assert written["response"]["body"] == [f'data: {{"echo": "{REDACTED}']
    assert written["response"]["end"] == "interrupted"


def test_a_body_that_only_ends_like_the_start_of_a_key_keeps_a_short_ending() -> None:
    body = b"status: sk-an"
    response = redacted_response(200, SSE, body, "interrupted", (KEY,))

    assert response.body == body, "seven characters of a key's public prefix are no secret"


async def test_no_repr_of_a_request_shows_a_key_sent_in_the_query() -> None:
    target = f"/v1/x?alt=sse&key={KEY}"
    async with (
        asyncio.timeout(GUARD_SECONDS),
        LoopbackServer([OK]) as server,
        LiveTransport(server.base_url) as live,
        RecordedTransport([OK]) as recorded,
    ):
        for transport in (live, recorded):
            async with aclosing(
                stream_events(
                    transport, HttpRequest(target, {}), vendor="v", describe_error=read_error
                )
            ) as events:
                assert [event async for event in events] == [SseEvent("message", "ok")]
        shown = [
            repr(HttpRequest(target, {})),
            repr(server.requests[0]),
            repr(recorded.requests[0]),
        ]

    assert [KEY in text for text in shown] == [False, False, False], shown
    assert all(f"key={REDACTED}" in text for text in shown)
    assert server.requests[0].path == recorded.requests[0].path == target, "the values are as sent"
