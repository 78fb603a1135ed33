"""How a recorded body ended when its read raised: one rule for every recording transport."""

from __future__ import annotations

import asyncio

import httpx2
import pytest

from course_cassettes._recording_log import ended_by


@pytest.mark.parametrize(
    ("error", "end"),
    [
        (httpx2.DecodingError("bad gzip"), "interrupted"),
        (httpx2.RemoteProtocolError("peer closed connection"), "interrupted"),
        (httpx2.ReadError("connection reset"), "interrupted"),
        (httpx2.ConnectError("refused"), "interrupted"),
        (httpx2.ReadTimeout("silent"), "stalled"),
        (asyncio.CancelledError(), "stalled"),
        (GeneratorExit(), "stalled"),
        (RuntimeError("the reader's own failure"), "stalled"),
    ],
)
def test_a_broken_body_is_interrupted_and_a_silent_or_abandoned_one_stalled(
    error: BaseException, end: str
) -> None:
    assert ended_by(error) == end
