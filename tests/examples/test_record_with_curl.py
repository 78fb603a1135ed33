"""``examples/record_with_curl.sh``: curl records through ``course serve --record``, then replays.

The "real API" is a loopback server of the test on 127.0.0.1; the script
runs as a user runs it (bash, curl, ``course serve`` in the background),
bounded in time. Skipped where bash or curl is missing.
"""

from __future__ import annotations

import asyncio
import shutil
import sys
from pathlib import Path

import pytest

from course_cassettes import load_cassette
from course_http.loopback import LoopbackServer
from tests.children import child_env
from tests.course_cli.test_serve_record import KEY, WHOLE, upstream_answer

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "examples" / "record_with_curl.sh"

pytestmark = pytest.mark.skipif(
    shutil.which("curl") is None or shutil.which("bash") is None, reason="needs bash and curl"
)


async def test_curl_records_through_the_proxy_and_replays_the_same_bytes(tmp_path: Path) -> None:
    cassette = tmp_path / "answer.json"
    async with LoopbackServer(upstream_answer) as upstream:
        process = await asyncio.create_subprocess_exec(
            "bash",
            str(SCRIPT),
            upstream.base_url,
            str(cassette),
            cwd=tmp_path,
            env=child_env({"ANTHROPIC_API_KEY": KEY, "COURSE": f"{sys.executable} -m course_cli"}),
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        try:
            async with asyncio.timeout(120):
                out, err = await process.communicate()
        finally:
            if process.returncode is None:
                process.kill()
                await process.wait()
        received = list(upstream.requests)
    assert process.returncode == 0, err.decode()
    assert out == WHOLE + WHOLE, "the answer as it came, then the same bytes replayed"
    assert [request.header("x-api-key") for request in received] == [KEY]
    assert KEY not in cassette.read_text(encoding="utf-8")
    assert [call.response.body for call in load_cassette(cassette).unwrap().calls] == [WHOLE]
