"""A suite configures the plugin once, in its ``conftest.py``; a marker overrides it per test.

The three fixtures a user's ``conftest.py`` may override, as pytest-recording's
``vcr_config``, ``vcr_cassette_dir`` and ``record_mode``: the default
cassette options, the cassettes' folder, and the record mode. Each project
here is a real ``pytest`` run in a subprocess against a loopback "vendor".
"""

from __future__ import annotations

import json
from pathlib import Path

from course_http.loopback import LoopbackServer
from tests.course_pytest.projects import answer_to, run_pytest, write_project

CONFTEST = """\
from pathlib import Path

import pytest


@pytest.fixture
def course_cassette_config():
    return {"ignore": ["max_tokens"], "redact_fields": ["metadata"]}


@pytest.fixture
def course_cassette_dir(request):
    return Path(request.node.path).parent / "recorded"


@pytest.fixture
def course_record_mode():
    return "once"
"""

TESTS = """\
import os

import pytest

from course_protocol import CourseModelRequest, CourseUserMessage, text_from_assistant
from course_provider_anthropic import AnthropicConfig, AnthropicMessagesModel
from course_stream import AbortController


async def ask(course_cassette, tokens):
    config = AnthropicConfig("claude-test", tokens, base_url=os.environ["ANTHROPIC_BASE_URL"])
    model = course_cassette.model(AnthropicMessagesModel, config)
    request = CourseModelRequest("r-1", [CourseUserMessage("u-1", "What is 20 + 22?")])
    response = await model.stream(request, AbortController().signal).result
    return text_from_assistant(response.message)


@pytest.mark.asyncio
@pytest.mark.course_cassette("suite-defaults")
async def test_suite_defaults(course_cassette):
    assert await ask(course_cassette, int(os.environ.get("TOKENS", "64"))) == "42"


@pytest.mark.asyncio
@pytest.mark.course_cassette("marker-wins", ignore=["model"])
async def test_marker_wins(course_cassette):
    assert await ask(course_cassette, int(os.environ.get("TOKENS", "64"))) == "42"
"""

BAD_CONFTEST = """\
import pytest


@pytest.fixture
def course_cassette_config():
    return {"redact_feilds": ["metadata"]}


@pytest.fixture
def course_record_mode():
    return "sometimes"
"""


async def test_a_conftest_sets_the_folder_the_options_and_the_record_mode_for_a_suite(
    tmp_path: Path,
) -> None:
    write_project(tmp_path, {"tests/conftest.py": CONFTEST, "tests/test_agent.py": TESTS})
    async with LoopbackServer(answer_to) as server:
        env = {"ANTHROPIC_BASE_URL": server.base_url, "ANTHROPIC_API_KEY": "sk-test"}
        # No --course-record-mode: the conftest's "once" records what is missing.
        recorded = await run_pytest(tmp_path, "tests", env=env)
        assert recorded.status == 0, recorded.output
        assert len(server.requests) == 2
        assert (
            "record mode once: 2 cassettes, 0 calls replayed, 2 recorded; "
            "2 streams judged by its wire's grammar"
        ) in recorded.output, recorded.output
        # Replayed with another max_tokens: the suite ignores it, the marked test does not.
        replayed = await run_pytest(tmp_path, "tests", env={**env, "TOKENS": "65"})
        assert len(server.requests) == 2, "once: both cassettes exist, nothing is sent"
    folder = tmp_path / "tests" / "recorded"
    assert sorted(path.name for path in folder.iterdir()) == [
        "marker-wins.json",
        "suite-defaults.json",
    ]
    assert not (tmp_path / "tests" / "cassettes").exists()
    defaults = json.loads((folder / "suite-defaults.json").read_text())
    assert defaults["matching"] == {"on": "request", "ignore": ["max_tokens"]}
    assert defaults["redaction"]["fields"] == ["metadata"]
    marked = json.loads((folder / "marker-wins.json").read_text())
    assert marked["matching"] == {"on": "request", "ignore": ["model"]}
    assert marked["redaction"]["fields"] == ["metadata"], "the marker kept the suite's redaction"
    assert replayed.results("test_suite_defaults") == ("passed",)
    # The refused call took its recorded call but was not replayed: the transport says so.
    assert "record mode once: 2 cassettes, 1 call replayed, 0 recorded" in replayed.output
    assert replayed.results("test_marker_wins") == ("failed",)
    assert "HTTP_REQUEST_MISMATCH" in replayed.message("test_marker_wins")
    assert "max_tokens: recorded 64, sent 65" in replayed.message("test_marker_wins")


async def test_a_bad_suite_configuration_errors_each_test_in_one_line(tmp_path: Path) -> None:
    write_project(tmp_path, {"tests/conftest.py": BAD_CONFTEST, "tests/test_agent.py": TESTS})
    run = await run_pytest(tmp_path, "tests", env={"ANTHROPIC_BASE_URL": "http://127.0.0.1:9"})
    assert run.results("test_suite_defaults") == ("error",)
    message = run.message("test_suite_defaults")
    assert "the course_cassette_config fixture has unknown options ['redact_feilds']" in message
    assert "_plugin.py" not in message, "one line, not the plugin's traceback"
