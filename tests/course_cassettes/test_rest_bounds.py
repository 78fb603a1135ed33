"""A body its client stopped reading is read on within bounds: a silent upstream cannot hold it.

A sync client that closes a stream early (the sync OpenAI client at
``[DONE]``) leaves the recording's tee to read the rest of the upstream
body; a read blocked on a silent socket waits for the socket, not for the
tee, so the time bound shuts the socket down under it. The loopback server
stalls for real (a socket kept open and silent); the bound is set small,
and every wait here is a bounded wait on an event.
"""

from __future__ import annotations

import asyncio
import math
import threading
from pathlib import Path

import httpx2
import pytest

from course_cassettes import (
    REST_LIMIT_BYTES,
    REST_LIMIT_SECONDS,
    Httpx2RecordingTransport,
    load_cassette,
)
from course_http import RecordedResponse
from course_http.loopback import LoopbackEnd, LoopbackResponse, LoopbackServer, in_order
from tests.course_cassettes.sdk_upstream import ANTHROPIC_SSE
from tests.course_cassettes.test_stream_judges import block_order
from tests.streams import GUARD_SECONDS

SSE = {"content-type": "text/event-stream"}
FIRST = ANTHROPIC_SSE[: ANTHROPIC_SSE.index(b"event: content_block_delta")]
"""The start of the answer: the upstream says this much, then nothing more."""


def _leave_after_the_first_chunk(
    recording: Httpx2RecordingTransport, url: str, left: threading.Event, read: list[bytes]
) -> None:
    """A sync client with a ten-minute read timeout that reads one chunk and closes the stream."""
    with (
        httpx2.Client(transport=recording, timeout=600.0) as http,
        http.stream("POST", url, json={}) as response,
    ):
        read.append(next(response.iter_bytes()))
    left.set()


@pytest.mark.parametrize(
    ("body", "end"),
    [(FIRST, "stalled"), (ANTHROPIC_SSE, "complete")],
    ids=["cut-short", "terminal-came"],
)
async def test_a_sync_read_on_a_silent_upstream_is_cut_at_the_bound_not_the_read_timeout(
    tmp_path: Path, body: bytes, end: str
) -> None:
    path = tmp_path / "cassette.json"
    silent = LoopbackResponse(RecordedResponse(200, SSE, body, "stalled"))
    recording = Httpx2RecordingTransport(path, check=block_order, rest_limit_seconds=0.05)
    left = threading.Event()
    read: list[bytes] = []
    async with asyncio.timeout(GUARD_SECONDS), LoopbackServer(in_order([silent])) as server:
        client = threading.Thread(
            target=_leave_after_the_first_chunk,
            args=(recording, f"{server.base_url}/v1/messages", left, read),
        )
        client.start()
        try:
            assert await asyncio.to_thread(left.wait, GUARD_SECONDS), (
                "closing the stream waited on the silent socket past the bound"
            )
            assert await server.wait_ended(0) is LoopbackEnd.CLIENT_DISCONNECTED
        finally:
            # A bound that failed leaves the read waiting until the server stops: then it ends.
            await server.stop()
            await asyncio.to_thread(client.join, GUARD_SECONDS)

    assert not any(thread.name == "course-read-cut" for thread in threading.enumerate())
    assert read == [body]
    [call] = load_cassette(path).unwrap().calls
    assert (call.response.end, call.response.body) == (end, body)
    assert recording.problems == ()


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("rest_limit_bytes", 0),
        ("rest_limit_bytes", True),
        ("rest_limit_bytes", 1.5),
        ("rest_limit_bytes", "16"),
        ("rest_limit_seconds", 0),
        ("rest_limit_seconds", -1.0),
        ("rest_limit_seconds", math.nan),
        ("rest_limit_seconds", math.inf),
        ("rest_limit_seconds", True),
        ("rest_limit_seconds", "10"),
    ],
)
def test_a_bound_that_is_not_a_positive_finite_number_is_refused(
    tmp_path: Path, option: str, value: object
) -> None:
    with pytest.raises(ValueError, match=option):
        Httpx2RecordingTransport(tmp_path / "c.json", **{option: value})  # type: ignore[arg-type]


def test_the_documented_bounds_are_the_defaults() -> None:
    assert (REST_LIMIT_BYTES, REST_LIMIT_SECONDS) == (16 * 1024 * 1024, 10.0)
