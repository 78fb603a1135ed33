"""RecordingProxy in-process: whatever fails inside it, its client gets a typed answer."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import httpx2
import pytest

from course_cassettes import load_cassette
from course_cassettes.proxy import ProxiedCall, RecordingProxy
from course_http import VendorErrorCode
from course_http.loopback import LoopbackServer
from tests.streams import GUARD_SECONDS


class TransportThatFails(httpx2.AsyncBaseTransport):
    """An upstream transport with a defect: every request raises ``RuntimeError``."""

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        raise RuntimeError("a defect, not a connection problem")


async def test_a_failure_inside_the_proxy_is_a_typed_500_never_a_bare_one_or_a_traceback(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    reports: list[ProxiedCall] = []
    proxy = RecordingProxy(
        "https://api.example.invalid",
        tmp_path / "cassette.json",
        inner=TransportThatFails(),
        report=reports.append,
    )
    caplog.set_level(logging.ERROR)
    async with (
        asyncio.timeout(GUARD_SECONDS),
        LoopbackServer(proxy) as server,
        httpx2.AsyncClient(base_url=server.base_url) as client,
    ):
        answer = await client.post("/v1/messages", json={"q": 1})
    await proxy.aclose()

    problem = "the recording proxy failed to answer: RuntimeError"
    assert (answer.status_code, answer.headers["x-should-retry"]) == (500, "false")
    assert answer.json()["error"] == {
        "type": "course_cassette_error",
        "code": "HTTP_SERVER_ERROR",
        "message": problem,
    }
    assert reports == [
        ProxiedCall("POST", "/v1/messages", None, VendorErrorCode.HTTP_SERVER_ERROR, problem)
    ]
    assert [record.getMessage() for record in caplog.records] == [], "nothing logged as an error"
    assert load_cassette(tmp_path / "cassette.json").unwrap().calls == (), "no answer to record"
