"""The plugin's prompt-cache check: a test whose calls moved a cached prefix fails, course-first.

One project, the check on for the whole suite in its ``conftest.py``: each
test posts Messages requests through ``course_cassette.client()``; some
cassettes are written here beforehand (replayed), the others recorded from
a loopback "vendor" in the same run (record mode ``once``).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from course_cassettes import Cassette, CassetteCall, write_cassette
from course_http import RecordedResponse
from course_http.loopback import LoopbackRequest, LoopbackServer
from tests.course_pytest.projects import run_pytest, write_project
from tests.course_vendor.prompt_cache import recorded

JSON = {"content-type": "application/json"}

FIRST: dict[str, Any] = {
    "model": "claude-test",
    "max_tokens": 64,
    "system": [{"type": "text", "text": "Be brief.", "cache_control": {"type": "ephemeral"}}],
    "messages": [{"role": "user", "content": "Weather in Paris?"}],
}
GROWN = copy.deepcopy(FIRST)
GROWN["messages"] += [
    {"role": "assistant", "content": "Sunny."},
    {"role": "user", "content": "And tomorrow?"},
]
EDITED = copy.deepcopy(GROWN)
EDITED["system"][0]["text"] = "Be very brief."

CONFTEST = """\
import pytest


@pytest.fixture
def course_cassette_config():
    return {"prompt_cache": True}
"""

TESTS = f"""\
import os

import pytest

FIRST = {FIRST!r}
GROWN = {GROWN!r}
EDITED = {EDITED!r}
URL = os.environ["BASE_URL"] + "/v1/messages"


def post(course_cassette, *bodies):
    client = course_cassette.client()
    for body in bodies:
        assert client.post(URL, json=body).status_code == 200


@pytest.mark.course_cassette("moved")
def test_moved(course_cassette):
    post(course_cassette, FIRST, EDITED)


@pytest.mark.course_cassette("grown")
def test_grown(course_cassette):
    post(course_cassette, FIRST, GROWN)


@pytest.mark.course_cassette("moved", prompt_cache_exempt="the system prompt changes on purpose")
def test_exempt(course_cassette):
    post(course_cassette, FIRST, EDITED)


@pytest.mark.course_cassette("moved", prompt_cache=False)
def test_switched_off(course_cassette):
    post(course_cassette, FIRST, EDITED)


@pytest.mark.course_cassette("recorded-moved")
def test_recorded_moved(course_cassette):
    post(course_cassette, FIRST, EDITED)
"""

MOVED = (
    "HTTP_PROMPT_CACHE_MOVED: call 2 moved the prefix anthropic-messages cached for call 1 "
    'at system[0].text: recorded "Be brief.", then "Be very brief."'
)


def answer(request: LoopbackRequest) -> RecordedResponse:
    del request
    return RecordedResponse(200, JSON, b"{}")


def cassette(path: Path, *bodies: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    calls = [
        CassetteCall(recorded("/v1/messages", body), RecordedResponse(200, JSON, b"{}"))
        for body in bodies
    ]
    write_cassette(path, Cassette(calls))


async def test_a_suite_wide_check_fails_a_moved_prefix_replayed_or_recorded_and_names_exemptions(
    tmp_path: Path,
) -> None:
    write_project(tmp_path, {"conftest.py": CONFTEST, "test_cache.py": TESTS})
    folder = tmp_path / "cassettes" / "test_cache"
    cassette(folder / "moved.json", FIRST, EDITED)
    cassette(folder / "grown.json", FIRST, GROWN)

    async with LoopbackServer(answer) as server:
        run = await run_pytest(
            tmp_path, "--course-record-mode=once", env={"BASE_URL": server.base_url}
        )

    assert run.results("test_grown") == ("passed",)
    assert run.results("test_exempt") == ("passed",)
    assert run.results("test_moved") == ("passed", "error"), run.output
    # The failure's own text (after the report's one-line summary) starts with the course error.
    assert f"\n{MOVED} (" in run.message("test_moved"), run.message("test_moved")
    assert f"{MOVED} ({folder / 'moved.json'})" in run.output
    assert run.results("test_recorded_moved") == ("passed", "error"), run.output
    assert f"{MOVED} ({folder / 'recorded-moved.json'})" in run.output
    assert run.results("test_switched_off") == ("error",), run.output
    assert "cannot leave the suite's prompt-cache check" in run.message("test_switched_off")
    assert (
        "prompt cache not checked (the system prompt changes on purpose): "
        f"{folder / 'moved.json'}" in run.output
    )
    assert "3 cassettes checked for prompt caching" in run.output
    kept = json.loads((folder / "recorded-moved.json").read_text())
    assert len(kept["calls"]) == 2
