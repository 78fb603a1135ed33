"""The httpx2 transports against a hostile caller or upstream: typed answers, exact bytes.

A request body a cassette cannot hold is refused with the typed 400 no SDK
retries, in a recording and in a replay, sync and async; header bytes
outside ASCII go through a recording and its replay as they came.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import anthropic
import httpx2
import pytest

from course_cassettes import (
    Cassette,
    Httpx2CassetteTransport,
    Httpx2RecordingTransport,
    load_cassette,
)
from course_protocol import JSON_MAX_DEPTH
from tests.course_cassettes.sdk_upstream import ANTHROPIC_KEY, ANTHROPIC_MESSAGE, Upstream

ASKED = [{"role": "user", "content": "hi"}]
URL = "https://api.anthropic.com/v1/messages"
UNHELD = " (no cassette can hold this request body)"


def _nested(levels: int) -> object:
    value: object = []
    for _ in range(levels - 1):
        value = [value]
    return value


# The body past the limit: the object and JSON_MAX_DEPTH arrays in it.
TOO_DEEP_PATH = "body.a" + "[0]" * (JSON_MAX_DEPTH - 1)

HOSTILE_BODIES: dict[str, tuple[bytes, str]] = {
    "NaN": (b'{"temperature": NaN}', "body: not strict JSON: NaN is not a JSON number"),
    "Infinity": (b'{"top_p": Infinity}', "body: not strict JSON: Infinity is not a JSON number"),
    "-Infinity": (b'{"a": -Infinity}', "body: not strict JSON: -Infinity is not a JSON number"),
    "1e400": (b'{"a": 1e400}', "body: not strict JSON: the number 1e400 overflows a float"),
    "a key twice": (b'{"a": 1, "a": 2}', 'body: not strict JSON: duplicate object key "a"'),
    "past the nesting limit": (
        json.dumps({"a": _nested(JSON_MAX_DEPTH)}).encode(),
        f"{TOO_DEEP_PATH}: nests more than JSON_MAX_DEPTH ({JSON_MAX_DEPTH}) containers",
    ),
    "too deep to parse": (b"[" * 100_000, "body: not usable JSON: nesting is too deep to parse"),
    "not UTF-8": (b'{"a": "\xff"}', "body: not valid UTF-8 (invalid UTF-8 at byte 7)"),
    "not an object": (b"[1, 2]", "body: must be a JSON object, not list"),
}

both_ways = pytest.mark.parametrize("way", ["sync", "async"])
both_sides = pytest.mark.parametrize("side", ["record", "replay"])


def _transport(side: str, tmp_path: Path, upstream: Upstream) -> Any:
    if side == "record":
        return Httpx2RecordingTransport(tmp_path / "cassette.json", inner=upstream.transport)
    return Httpx2CassetteTransport(Cassette())


def _posted(way: str, transport: Any, bodies: list[bytes]) -> list[httpx2.Response]:
    """Each body posted raw by an httpx2 client, sync or async; the answers, read."""
    if way == "sync":
        with httpx2.Client(transport=transport) as http:
            return [http.post(URL, content=body) for body in bodies]

    async def main() -> list[httpx2.Response]:
        async with httpx2.AsyncClient(transport=transport) as http:
            return [await http.post(URL, content=body) for body in bodies]

    return asyncio.run(main())


@both_ways
@both_sides
def test_a_body_no_cassette_can_hold_is_a_typed_400_naming_the_path_of_the_bad_value(
    tmp_path: Path, way: str, side: str
) -> None:
    upstream = Upstream()
    transport = _transport(side, tmp_path, upstream)
    bodies = [body for body, _ in HOSTILE_BODIES.values()]

    answers = _posted(way, transport, bodies)

    code = "HTTP_RECORDING_INVALID" if side == "record" else "HTTP_REQUEST_MISMATCH"
    for number, (name, answer) in enumerate(zip(HOSTILE_BODIES, answers, strict=True), 1):
        reason = HOSTILE_BODIES[name][1] + UNHELD
        message = reason if side == "record" else f"call {number}: {reason}"
        assert (answer.status_code, answer.headers["x-should-retry"]) == (400, "false"), name
        assert answer.json()["error"] == {
            "type": "course_cassette_error",
            "code": code,
            "message": message,
        }, name
    assert [problem.code.value for problem in transport.problems] == [code] * len(bodies)
    assert upstream.received == [], "nothing was sent on"


def _deep_claude_call(way: str, transport: Any) -> None:
    """One Messages call of the official SDK whose ``extra_body`` nests past the limit."""
    options: Any = {
        "model": "claude-own",
        "max_tokens": 64,
        "messages": ASKED,
        "extra_body": {"metadata_tree": _nested(JSON_MAX_DEPTH)},
    }
    if way == "sync":
        with httpx2.Client(transport=transport) as http:
            anthropic.Anthropic(api_key=ANTHROPIC_KEY, http_client=http).messages.create(**options)
        return

    async def main() -> None:
        async with httpx2.AsyncClient(transport=transport) as http:
            client = anthropic.AsyncAnthropic(api_key=ANTHROPIC_KEY, http_client=http)
            await client.messages.create(**options)

    asyncio.run(main())


@both_ways
@both_sides
def test_the_sdk_gets_its_bad_request_error_after_one_request_not_a_connection_error(
    tmp_path: Path, way: str, side: str
) -> None:
    upstream = Upstream()
    transport = _transport(side, tmp_path, upstream)

    with pytest.raises(anthropic.BadRequestError) as refused:
        _deep_claude_call(way, transport)

    code = "HTTP_RECORDING_INVALID" if side == "record" else "HTTP_REQUEST_MISMATCH"
    assert refused.value.status_code == 400
    error: Any = refused.value.body
    assert error["error"]["code"] == code
    assert "body.metadata_tree[0]" in error["error"]["message"]
    assert [problem.code.value for problem in transport.problems] == [code], "never retried"
    assert upstream.received == []


def _with_header_bytes(request: httpx2.Request) -> httpx2.Response:
    # Raw bytes, as a server sends them: UTF-8 here, which is not Latin-1 text.
    headers = [(b"content-type", "application/json; note=€".encode())]
    return httpx2.Response(200, headers=headers, content=ANTHROPIC_MESSAGE)


@both_ways
def test_header_bytes_outside_ascii_are_recorded_and_replayed_as_they_came(
    tmp_path: Path, way: str
) -> None:
    path = tmp_path / "cassette.json"
    body = json.dumps({"model": "claude-own", "max_tokens": 1, "messages": ASKED}).encode()
    with Httpx2RecordingTransport(path, inner=httpx2.MockTransport(_with_header_bytes)) as record:
        [live] = _posted(way, record, [body])
    replay = Httpx2CassetteTransport(load_cassette(path).unwrap())
    [again] = _posted(way, replay, [body])

    sent = "application/json; note=€".encode()
    assert live.headers.raw[0] == again.headers.raw[0] == (b"content-type", sent)
    assert again.content == live.content == ANTHROPIC_MESSAGE
    recorded = load_cassette(path).unwrap().calls[0].response.headers["content-type"]
    assert recorded == sent.decode("latin-1"), "one character per byte, as the format holds it"
    assert (record.problems, replay.problems) == ((), ())
