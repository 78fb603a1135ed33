"""Shared pieces of the cassette tests: small cassettes built by hand, and a recording rig.

`recorded_through_loopback` records the calls a test makes through a
`RecordingTransport` to a `LoopbackServer` (the "real API" of these tests),
so a cassette in these tests is always one a recording really wrote.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from frozendict import frozendict

from course_cassettes import Cassette, CassetteCall, RecordingTransport, Redaction, RequestMatching
from course_http import RecordedRequest, RecordedResponse
from course_http.loopback import LoopbackResponse, LoopbackServer
from course_protocol import freeze_json_object

REAL_LOOKING_KEY = (
    "sk-ant-api03-Zq8vN2xR5tLm1Pw7Yc4Hd9Kf3Bj6Gs0Ua8Ei2Oo5Ty1Rn7Vx4Mb9Qp3Wl6Sz0Dk-g7hAAA"
)
"""A key shaped like a real vendor key (never a real one)."""


def call(
    body: Mapping[str, object],
    response: RecordedResponse,
    *,
    path: str = "/v1/messages",
    method: str = "POST",
    headers: dict[str, str] | None = None,
) -> CassetteCall:
    """A recorded call of ``body`` answered by ``response``."""
    return CassetteCall(
        RecordedRequest(
            method=method,
            path=path,
            body=freeze_json_object(body).unwrap(),
            headers=frozendict(headers or {"content-type": "application/json"}),
        ),
        response,
    )


def cassette(
    *calls: CassetteCall,
    matching: RequestMatching | None = None,
    redaction: Redaction | None = None,
) -> Cassette:
    """A cassette of ``calls``."""
    return Cassette(list(calls), matching=matching, redaction=redaction)


def document(path: Path) -> Any:
    """The JSON document of the cassette file at ``path`` (plain values, untyped for reading)."""
    return json.loads(path.read_text(encoding="utf-8"))


@asynccontextmanager
async def recorded_through_loopback(
    served: Sequence[LoopbackResponse | RecordedResponse],
    path: Path,
    **options: object,
) -> AsyncIterator[tuple[LoopbackServer, RecordingTransport]]:
    """A loopback server serving ``served`` and a transport recording to ``path`` through it.

    ``options`` go to `RecordingTransport`. Both are closed on the way out,
    the transport first (which writes the cassette).
    """
    async with LoopbackServer(list(served)) as server:
        transport = RecordingTransport(server.base_url, path, **options)  # type: ignore[arg-type]
        async with transport:
            yield server, transport
