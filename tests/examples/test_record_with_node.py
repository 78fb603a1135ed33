"""``examples/record_with_node``: the official Anthropic Node SDK records through the proxy.

The script runs as a user runs it (``node record.mjs UPSTREAM CASSETTE``,
``course serve`` started by it in the background), bounded in time; the
"real API" is a loopback server of the test on 127.0.0.1 speaking the
Messages stream. Skipped where ``node`` is missing or the SDK pinned in
``package-lock.json`` is not installed in ``node_modules`` (``make
node-deps``, run by ``make test``, installs it when npm is present).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from course_cassettes import load_cassette
from tests.course_cli.test_serve_record import KEY, WHOLE
from tests.examples.proxy_runs import run_example

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "record_with_node"
SDK = "@anthropic-ai/sdk"


def _pinned(lockfile: Path) -> str | None:
    packages = json.loads(lockfile.read_text(encoding="utf-8"))["packages"]
    version: str | None = packages.get(f"node_modules/{SDK}", {}).get("version")
    return version


def _not_runnable() -> str | None:
    if shutil.which("node") is None:
        return "needs node on PATH"
    pinned = _pinned(EXAMPLE / "package-lock.json")
    # npm writes this lockfile of what it installed last: an install cut short has none.
    installed = EXAMPLE / "node_modules" / ".package-lock.json"
    if not installed.is_file():
        return f"{SDK} {pinned} is not installed: make node-deps (npm ci in {EXAMPLE.name})"
    if _pinned(installed) != pinned:
        return f"{SDK} {_pinned(installed)} is installed, the lock pins {pinned}: make node-deps"
    return None


pytestmark = pytest.mark.skipif(_not_runnable() is not None, reason=str(_not_runnable()))


async def test_the_node_sdk_records_through_the_proxy_and_replays_the_same_text(
    tmp_path: Path,
) -> None:
    cassette = tmp_path / "answer.json"
    run = await run_example("node", str(EXAMPLE / "record.mjs"), cassette=cassette)
    assert run.returncode == 0, run.err.decode()
    assert run.out == b"42\n42\n", "the answer as it came, then the same text replayed"
    assert KEY.encode() not in run.out + run.err
    assert [request.path for request in run.received] == ["/v1/messages"]
    # This SDK sends its key as a bearer token, not as x-api-key: forwarded, never recorded.
    assert [request.header("authorization") for request in run.received] == [f"Bearer {KEY}"]
    text = cassette.read_text(encoding="utf-8")
    assert KEY not in text
    assert "authorization" not in text.lower()
    calls = load_cassette(cassette).unwrap().calls
    assert [call.response.body for call in calls] == [WHOLE]
    assert [(call.request.body["model"], call.request.body["stream"]) for call in calls] == [
        ("claude-sonnet-4-5", True)
    ]
