"""A user's SDK suite under pytest-xdist (``-n 2``): shared and distinct cassettes at once.

Two workers record and then replay a suite whose tests call the ``anthropic``
SDK over ``course_cassette.client()``: tests of their own cassettes, tests
that share one, and a test that fails after its call. No call is lost, no
file is half written, no failed recording is kept, no scratch or lock file
is left, and the replay run passes offline.
"""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any

from course_cassettes import load_cassette
from course_http.loopback import LoopbackServer
from course_protocol import thaw_json
from tests.course_pytest.projects import RUN_SECONDS, run_pytest, write_project
from tests.course_pytest.test_plugin_sdk import KEY, answer

# Two workers each start pytest and import the SDK: on a busy machine that
# takes longer than one project run's bound.
XDIST_SECONDS = 3 * RUN_SECONDS

XDIST_TESTS = """\
import os

import anthropic
import pytest


def ask(client, question):
    with client.messages.stream(
        model="claude-test",
        max_tokens=64,
        messages=[{"role": "user", "content": [{"type": "text", "text": question}]}],
    ) as stream:
        return "".join(stream.text_stream)


def claude(course_cassette):
    return anthropic.Anthropic(
        api_key=os.environ.get("ANTHROPIC_API_KEY", "sk-placeholder"),
        http_client=course_cassette.client(),
    )


@pytest.mark.parametrize("n", range(2))
def test_own(course_cassette, n):
    client = claude(course_cassette)
    assert ask(client, f"question {n}") == f"you said: question {n}"
    assert ask(client, f"again {n}") == f"you said: again {n}"


@pytest.mark.parametrize("n", range(2))
@pytest.mark.course_cassette("shared")
def test_shared(course_cassette, n):
    assert ask(claude(course_cassette), "20 + 22?") == "42"


@pytest.mark.course_cassette("failing")
def test_failing(course_cassette):
    ask(claude(course_cassette), "a call, then a failure")
    assert False
"""


def _unused_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


async def test_two_workers_record_and_replay_shared_and_distinct_cassettes(
    tmp_path: Path,
) -> None:
    write_project(tmp_path, {"tests/test_suite.py": XDIST_TESTS})
    cassettes = tmp_path / "tests" / "cassettes" / "test_suite"
    async with LoopbackServer(answer) as server:
        recorded = await run_pytest(
            tmp_path,
            "-n",
            "2",
            "--course-record-mode=once",
            "tests",
            env={"ANTHROPIC_BASE_URL": server.base_url, "ANTHROPIC_API_KEY": KEY},
            seconds=XDIST_SECONDS,
        )
        requests = list(server.requests)
    assert "bringing up nodes" in recorded.output, "the suite ran under xdist"
    assert recorded.status == 1, recorded.output
    assert [name for name in recorded.outcomes if recorded.results(name) != ("passed",)] == [
        "test_failing"
    ]
    # Two tests of two calls, the shared cassette recorded once, and the failing call.
    assert len(requests) == 2 * 2 + 1 + 1
    assert sorted(path.name for path in cassettes.iterdir()) == sorted(
        [*(f"test_own-{n}.json" for n in range(2)), "shared.json"]
    ), "no failed recording, no scratch or lock file"
    for n in range(2):
        calls = load_cassette(cassettes / f"test_own-{n}.json").unwrap().calls
        bodies: list[Any] = [thaw_json(call.request.body) for call in calls]
        assert [body["messages"][0]["content"][0]["text"] for body in bodies] == [
            f"question {n}",
            f"again {n}",
        ]
    assert len(load_cassette(cassettes / "shared.json").unwrap().calls) == 1
    for path in cassettes.iterdir():
        assert KEY not in path.read_text(encoding="utf-8")

    offline = {"ANTHROPIC_BASE_URL": f"http://127.0.0.1:{_unused_port()}"}
    replayed = await run_pytest(tmp_path, "-n", "2", "tests", env=offline, seconds=XDIST_SECONDS)
    assert [name for name in replayed.outcomes if replayed.results(name) != ("passed",)] == [
        "test_failing"
    ], replayed.output
    assert "failing.json does not exist" in replayed.message("test_failing")
