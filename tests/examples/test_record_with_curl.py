"""``examples/record_with_curl.sh``: curl records through ``course serve --record``, then replays.

The "real API" is a loopback server of the test on 127.0.0.1; the script
runs as a user runs it (bash, curl, ``course serve`` in the background),
bounded in time. Skipped where bash or curl is missing.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from course_cassettes import load_cassette
from tests.course_cli.test_serve_record import KEY, WHOLE
from tests.examples.proxy_runs import run_example

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "examples" / "record_with_curl.sh"

pytestmark = pytest.mark.skipif(
    shutil.which("curl") is None or shutil.which("bash") is None, reason="needs bash and curl"
)


async def test_curl_records_through_the_proxy_and_replays_the_same_bytes(tmp_path: Path) -> None:
    cassette = tmp_path / "answer.json"
    run = await run_example("bash", str(SCRIPT), cassette=cassette)
    assert run.returncode == 0, run.err.decode()
    assert run.out == WHOLE + WHOLE, "the answer as it came, then the same bytes replayed"
    assert [request.header("x-api-key") for request in run.received] == [KEY]
    assert KEY not in cassette.read_text(encoding="utf-8")
    assert [call.response.body for call in load_cassette(cassette).unwrap().calls] == [WHOLE]
