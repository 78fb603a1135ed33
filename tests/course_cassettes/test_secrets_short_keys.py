"""A placeholder key too short to be told from text is scrubbed nowhere, so replays match.

A client pointed at a replay (``course serve``, a `CassetteTransport`) is
given a key such as ``"x"``. Scrubbing every ``x`` of the body sent would turn
``max_tokens`` into ``ma[redacted]_tokens`` and fail every replay with
``HTTP_REQUEST_MISMATCH``. A replayed request is masked as a recording of it
would be, by the same function; a value shorter than `SHORTEST_CREDENTIAL` is
no credential in either, and a longer one is still scrubbed when recorded.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from course_cassettes import CassetteTransport, Redaction, load_cassette
from course_cassettes._redaction import redacted_request
from course_cassettes.responder import CassetteResponder, ServedCall
from course_http import REDACTED
from course_http._secrets import (
    SHORTEST_CREDENTIAL,
    request_secrets,
    scrub,
    scrub_shown,
    secret_values,
)
from course_http.loopback import LoopbackServer
from course_protocol import CourseModelRequest, CourseModelResponse, CourseUserMessage
from course_stream import AbortController
from tests.course_cassettes.cassettes import REAL_LOOKING_KEY, recorded_through_loopback
from tests.course_vendor.wires import AnyModel, Wire, every_wire, read_into
from tests.streams import GUARD_SECONDS

SHORT_KEYS = ["x", "sk", "1234567"]
"""Keys shorter than a credential: what users give an SDK pointed at a replay."""

KEYS = [*SHORT_KEYS, "12345678", REAL_LOOKING_KEY, "sk-another-placeholder-key"]

ASKED = CourseModelRequest("request-1", (CourseUserMessage("u-1", "Ask: is 1234567 + x 42?"),))
"""A request whose body holds each short key, whatever the vendor's envelope."""


async def answer_of(model: AnyModel, request: CourseModelRequest = ASKED) -> CourseModelResponse:
    """The response of one call that must succeed (every chunk read first)."""
    stream = model.stream(request, AbortController().signal)
    await read_into(stream, [])
    return await stream.result


async def recorded(wire: Wire, path: Path) -> CourseModelResponse:
    """Record one text answer of ``wire`` with a real-looking key to ``path``; its response."""
    async with (
        asyncio.timeout(GUARD_SECONDS),
        recorded_through_loopback([wire.served("Forty", "-two")], path) as (_server, transport),
    ):
        return await answer_of(wire.model(api_key=REAL_LOOKING_KEY, transport=transport))


@every_wire
async def test_a_cassette_replays_whatever_key_the_client_is_given(
    wire: Wire, tmp_path: Path
) -> None:
    path = tmp_path / "answer.json"
    expected = await recorded(wire, path)
    cassette = load_cassette(path).unwrap()

    for key in KEYS:
        async with (
            asyncio.timeout(GUARD_SECONDS),
            CassetteTransport(cassette) as transport,
            wire.model(api_key=key, transport=transport) as model,
        ):
            assert await answer_of(model) == expected, key
            transport.assert_consumed()


@every_wire
async def test_course_serves_responder_matches_whatever_key_the_client_is_given(
    wire: Wire, tmp_path: Path
) -> None:
    path = tmp_path / "answer.json"
    expected = await recorded(wire, path)
    for key in KEYS:
        reports: list[ServedCall] = []
        responder = CassetteResponder(
            [("answer.json", load_cassette(path).unwrap())], report=reports.append
        )
        async with (
            asyncio.timeout(GUARD_SECONDS),
            LoopbackServer(responder) as server,
            wire.model(api_key=key, base_url=server.base_url) as model,
        ):
            assert await answer_of(model) == expected, key

        assert reports == [ServedCall("POST", wire.path, "answer.json", 0, 200)], key


@every_wire
async def test_a_long_key_in_the_body_is_still_scrubbed_when_recorded_and_matches_again(
    wire: Wire, tmp_path: Path
) -> None:
    path = tmp_path / "echo.json"
    said = CourseModelRequest(
        "request-1", (CourseUserMessage("u-1", f"my key: {REAL_LOOKING_KEY}"),)
    )
    async with (
        asyncio.timeout(GUARD_SECONDS),
        recorded_through_loopback([wire.served("ok")], path) as (_server, transport),
    ):
        expected = await answer_of(wire.model(api_key=REAL_LOOKING_KEY, transport=transport), said)
    data = path.read_text(encoding="utf-8")

    assert REAL_LOOKING_KEY not in data
    assert f"my key: {REDACTED}" in data
    async with (
        asyncio.timeout(GUARD_SECONDS),
        CassetteTransport(load_cassette(path).unwrap()) as replay,
        wire.model(api_key=REAL_LOOKING_KEY, transport=replay) as model,
    ):
        assert await answer_of(model, said) == expected


@pytest.mark.parametrize("key", SHORT_KEYS)
def test_a_short_key_is_no_credential_in_headers_queries_or_text(key: str) -> None:
    for headers in (
        {"x-api-key": key},
        {"authorization": f"Bearer {key}"},
        {"Authorization": f"Basic {key}"},
    ):
        assert secret_values(headers) == (), headers
    assert request_secrets({"x-api-key": key}, f"/v1/x?key={key}") == ()
    assert scrub("max_tokens sk 1234567", [key]) == "max_tokens sk 1234567"
    assert scrub_shown("max_tokens sk 1234567", [key]) == "max_tokens sk 1234567"
    body = {"model": "m", "max_tokens": 64, "text": f"{key} and sk-x"}
    masked = redacted_request(
        "POST", "/v1/x", {}, body, Redaction(), request_secrets({"x-api-key": key}, "/v1/x")
    )
    assert masked.body == body, "what a recording of it would hold"


def test_a_credential_starts_at_the_floor_which_basic_parts_and_cut_pieces_share() -> None:
    floor = "1" * SHORTEST_CREDENTIAL
    assert secret_values({"x-api-key": floor}) == (floor,)
    assert secret_values({"authorization": f"Bearer {floor}"}) == (f"Bearer {floor}", floor)
    # The floor counts the clear form; its base64 forms (whole, unpadded, and
    # the part that reads the same inside a longer base64 text) come with it.
    assert request_secrets({}, f"/v1/x?key={floor}") == (
        "MTExMTExMTE=",
        "MTExMTExMTE",
        floor,
        "MTExMTEx",
    )
    cookie = "session=abc; id=1"
    assert secret_values({"cookie": cookie}) == (cookie,), "no scheme: one credential"
    assert scrub(f"a {floor} b", [floor]) == f"a {REDACTED} b"
    key = REAL_LOOKING_KEY
    cut = SHORTEST_CREDENTIAL - 1
    assert scrub_shown(f"({key[:SHORTEST_CREDENTIAL]}...)", [key]) == f"({REDACTED}...)"
    assert scrub_shown(f"({key[:cut]}...)", [key]) == f"({key[:cut]}...)", "a public prefix"
