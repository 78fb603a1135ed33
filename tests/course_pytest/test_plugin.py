"""The plugin in a user's project: record modes, the cassette fixture, the double fixtures.

One project, run a few times (each run a real ``pytest`` in a subprocess):
recording against a loopback server, replaying with the network unreachable,
extending, recording again. The project's tests are written for these runs.
"""

from __future__ import annotations

import importlib.metadata
import json
import re
import socket
from pathlib import Path

import pytest

from course_cassettes import load_cassette
from course_http.loopback import LoopbackServer
from tests.course_pytest.projects import Run, answer_to, run_pytest, write_project

REPO = Path(__file__).resolve().parents[2]
README = REPO / "packages" / "course-pytest" / "README.md"

AGENT_TESTS = """\
import os

import pytest

from course_cassettes import ReplayFault
from course_http import VendorError
from course_protocol import CourseModelRequest, CourseUserMessage, text_from_assistant
from course_provider_anthropic import AnthropicConfig, AnthropicMessagesModel
from course_stream import AbortController

CONFIG = AnthropicConfig("claude-test", 64, base_url=os.environ["ANTHROPIC_BASE_URL"])


async def ask(model, question):
    request = CourseModelRequest("r-1", [CourseUserMessage("u-1", question)])
    response = await model.stream(request, AbortController().signal).result
    return text_from_assistant(response.message)


@pytest.mark.asyncio
@pytest.mark.course_cassette("answer")
async def test_answer(course_cassette):
    model = course_cassette.model(AnthropicMessagesModel, CONFIG)
    assert await ask(model, os.environ.get("QUESTION", "hello")) == "you said: hello"


@pytest.mark.asyncio
@pytest.mark.course_cassette("answer")
async def test_changed_question(course_cassette):
    model = course_cassette.model(AnthropicMessagesModel, CONFIG)
    await ask(model, "hullo")


@pytest.mark.asyncio
async def test_named_after_the_test(course_cassette):
    model = course_cassette.model(AnthropicMessagesModel, CONFIG)
    for turn in range(int(os.environ.get("TURNS", "1"))):
        assert await ask(model, f"turn {turn}") == f"you said: turn {turn}"


@pytest.mark.asyncio
@pytest.mark.course_cassette("answer")
async def test_fewer_calls_than_recorded(course_cassette):
    course_cassette.model(AnthropicMessagesModel, CONFIG)


@pytest.mark.asyncio
@pytest.mark.course_allow_unplayed
@pytest.mark.course_cassette("answer")
async def test_fewer_calls_allowed(course_cassette):
    course_cassette.model(AnthropicMessagesModel, CONFIG)


@pytest.mark.asyncio
@pytest.mark.course_cassette("answer", faults={0: ReplayFault.drop_after(2)})
async def test_fault(course_cassette):
    model = course_cassette.model(AnthropicMessagesModel, CONFIG)
    with pytest.raises(VendorError) as caught:
        await ask(model, "hello")
    assert (caught.value.code, caught.value.event_index) == ("HTTP_STREAM_INTERRUPTED", 2)


@pytest.mark.asyncio
@pytest.mark.course_cassette("never-recorded")
async def test_missing(course_cassette):
    course_cassette.model(AnthropicMessagesModel, CONFIG)


@pytest.mark.asyncio
@pytest.mark.course_cassette("answer")
async def test_more_calls_than_recorded(course_cassette):
    model = course_cassette.model(AnthropicMessagesModel, CONFIG)
    await ask(model, "hello")
    await ask(model, "hello")
"""

DOUBLE_TESTS = """\
import pytest

from course_protocol import CourseModelRequest, CourseModelUsage, CourseUserMessage
from course_protocol import CourseAssistantMessage, CourseToolCall
from course_scripted import ScriptedModel, ScriptedModelError, reply_text
from course_stream import AbortController

REQUEST = CourseModelRequest("r-1", [CourseUserMessage("u-1", "hi")])
REPLY = reply_text("hello", response_id="x", message_id="m", usage=CourseModelUsage(1, 1))


def test_scripted_model_is_empty_and_validates(scripted_model):
    assert type(scripted_model) is ScriptedModel
    assert scripted_model.pending_response_count == 0


@pytest.mark.asyncio
async def test_scripted_played(scripted_model):
    scripted_model.set_responses([REPLY])
    await scripted_model.stream(REQUEST, AbortController().signal).result


def test_scripted_unplayed(scripted_model):
    scripted_model.set_responses([REPLY])


def test_scripted_derived_unplayed(scripted_model):
    scripted_model.with_config(temperature=0.2).set_responses([REPLY, REPLY])


@pytest.mark.course_allow_unplayed
def test_scripted_unplayed_allowed(scripted_model):
    scripted_model.set_responses([REPLY])


def test_scripted_failing_test_is_reported_once(scripted_model):
    scripted_model.set_responses([REPLY])
    assert False, "the test itself fails"


@pytest.mark.asyncio
async def test_scripted_refuses_a_bad_transcript(scripted_model):
    scripted_model.set_responses([REPLY])
    call = CourseToolCall("c-1", "add", {})
    bad = CourseModelRequest("r-2", [CourseAssistantMessage("a-1", [call])])
    with pytest.raises(ScriptedModelError) as caught:
        await scripted_model.stream(bad, AbortController().signal).result
    assert caught.value.code == "SCRIPT_INVALID_REQUEST"
    await scripted_model.stream(REQUEST, AbortController().signal).result


@pytest.mark.asyncio
async def test_fixture_played(fixture_provider):
    model = fixture_provider("fixtures/one.json")
    await model.stream(REQUEST, AbortController().signal).result


def test_fixture_unplayed(fixture_provider):
    fixture_provider("fixtures/one.json")
"""

FIXTURE = {
    "schemaVersion": 1,
    "responses": [
        {
            "records": [
                {"type": "response_start", "responseId": "one", "role": "assistant"},
                {"type": "text_delta", "text": "hi"},
                {
                    "type": "response_end",
                    "responseId": "one",
                    "stopReason": "stop",
                    "usage": {"inputTokens": 1, "outputTokens": 1},
                },
            ]
        }
    ],
}

DEAD = "http://127.0.0.1:{port}"


def _unused_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def readme_example() -> str:
    """The first python block of the plugin's README: a test module, as a user copies it."""
    text = README.read_text(encoding="utf-8")
    return text.split("```python\n", 1)[1].split("```\n", 1)[0]


def _project(root: Path) -> None:
    write_project(
        root,
        {
            "tests/test_agent.py": AGENT_TESTS,
            "tests/test_doubles.py": DOUBLE_TESTS,
            "tests/fixtures/one.json": json.dumps(FIXTURE),
            "tests/readme/test_agent.py": readme_example(),
        },
    )


async def _recording_run(root: Path, *arguments: str, **env: str) -> tuple[Run, int]:
    async with LoopbackServer(answer_to) as server:
        run = await run_pytest(
            root,
            *arguments,
            env={"ANTHROPIC_BASE_URL": server.base_url, "ANTHROPIC_API_KEY": "sk-test", **env},
        )
        return run, len(server.requests)


async def test_the_plugin_records_once_replays_offline_extends_and_records_again(
    tmp_path: Path,
) -> None:
    _project(tmp_path)
    cassettes = tmp_path / "tests" / "cassettes" / "test_agent"
    offline = {"ANTHROPIC_BASE_URL": DEAD.format(port=_unused_port())}

    recorded, calls = await _recording_run(
        tmp_path,
        "--course-record-mode=once",
        "tests/test_agent.py::test_answer",
        "tests/test_agent.py::test_named_after_the_test",
        "tests/readme",
    )
    assert recorded.status == 0, recorded.output
    assert calls == 3
    readme_cassette = tmp_path / "tests/readme/cassettes/test_agent/adds-two-numbers.json"
    assert load_cassette(readme_cassette).unwrap().calls[0].response.status == 200
    assert sorted(path.name for path in cassettes.iterdir()) == [
        "answer.json",
        "test_named_after_the_test.json",
    ]
    answer = load_cassette(cassettes / "answer.json").unwrap()
    assert [call.response.status for call in answer.calls] == [200]

    replayed = await run_pytest(tmp_path, "tests", env=offline)
    _check_the_doubles(replayed)
    assert replayed.results("test_the_model_answers_the_sum") == ("passed",)
    assert replayed.results("test_answer") == ("passed",)
    assert replayed.results("test_named_after_the_test") == ("passed",)
    assert replayed.results("test_fault") == ("passed",)
    assert replayed.results("test_fewer_calls_allowed") == ("passed",)
    assert replayed.results("test_fewer_calls_than_recorded") == ("passed", "error")
    unplayed = replayed.message("test_fewer_calls_than_recorded")
    assert (
        "tests/cassettes/test_agent/answer.json: 1 recorded call(s) never played, from calls[0] "
        "(POST /v1/messages): the code made fewer calls than recorded"
    ) in unplayed, unplayed
    assert "_cassette.py" not in unplayed, "a short message, without the plugin's traceback"
    [line] = failure_section(replayed.output, "test_fewer_calls_than_recorded")
    assert line.endswith("the code made fewer calls than recorded"), line
    assert line.count("never played") == 1, line
    assert "During handling" not in replayed.output, "printed once, not chained to itself"
    assert replayed.results("test_missing") == ("failed",)
    missing = replayed.message("test_missing")
    assert "tests/cassettes/test_agent/never-recorded.json does not exist" in missing
    assert "record mode 'none' replays only" in missing
    assert "pytest --course-record-mode=once tests/test_agent.py::test_missing" in missing, missing
    assert replayed.results("test_more_calls_than_recorded") == ("failed",)
    assert (
        "HTTP_RECORDING_EXHAUSTED: call 2 asked for a response; the recording holds 1. "
        "To record the calls past the recorded ones against the real API (its key in the "
        "environment): pytest --course-record-mode=new_episodes "
        "tests/test_agent.py::test_more_calls_than_recorded"
    ) in replayed.message("test_more_calls_than_recorded")

    assert replayed.results("test_changed_question") == ("failed",)
    assert (
        "HTTP_REQUEST_MISMATCH: call 1 differs from the recorded calls[0]: "
        'messages[0].content[0].text: recorded "hello", sent "hullo"'
    ) in replayed.message("test_changed_question")

    named = cassettes / "test_named_after_the_test.json"
    extended, calls = await _recording_run(
        tmp_path,
        "--course-record-mode=new_episodes",
        "tests/test_agent.py::test_named_after_the_test",
        TURNS="3",
    )
    assert extended.status == 0, extended.output
    assert calls == 2, "the recorded first turn was replayed, the two new ones recorded"
    assert len(load_cassette(named).unwrap().calls) == 3

    before = (cassettes / "answer.json").read_text()
    again, calls = await _recording_run(
        tmp_path, "--course-record-mode=all", "tests/test_agent.py::test_answer"
    )
    assert again.status == 0, again.output
    assert calls == 1
    assert (cassettes / "answer.json").read_text() == before, "the same call records the same file"


def failure_section(output: str, test: str) -> list[str]:
    """The lines pytest prints under ``test``'s failure or teardown header (not included)."""
    lines = output.splitlines()
    header = re.compile(rf"^_+ (ERROR at teardown of )?{re.escape(test)} _+$")
    starts = [index for index, line in enumerate(lines) if header.match(line)]
    assert len(starts) == 1, f"{test}: {len(starts)} section(s) in\n{output}"
    section = []
    for line in lines[starts[0] + 1 :]:
        if line.startswith(("____", "====")):
            break
        section.append(line)
    return section


def _check_the_doubles(run: Run) -> None:
    """The double fixtures validate requests and check consumption at teardown."""
    assert run.results("test_scripted_model_is_empty_and_validates") == ("passed",)
    assert run.results("test_scripted_played") == ("passed",)
    assert run.results("test_scripted_unplayed") == ("passed", "error")
    assert failure_section(run.output, "test_scripted_unplayed") == [
        "1 scripted response(s) never played after 0 call(s)"
    ], "one line, as the cassette's: no traceback of the plugin"
    assert run.results("test_scripted_derived_unplayed") == ("passed", "error")
    assert failure_section(run.output, "test_scripted_derived_unplayed") == [
        "2 scripted response(s) never played after 0 call(s)"
    ], "a model derived with with_config shares the fixture's script"
    assert run.results("test_scripted_unplayed_allowed") == ("passed",)
    assert run.results("test_scripted_failing_test_is_reported_once") == ("failed",)
    assert run.results("test_scripted_refuses_a_bad_transcript") == ("passed",)
    assert run.results("test_fixture_played") == ("passed",)
    assert run.results("test_fixture_unplayed") == ("passed", "error")
    assert failure_section(run.output, "test_fixture_unplayed") == [
        "fixtures/one.json: 1 fixture response(s) never played after 0 call(s); "
        "the first unplayed is responses[0]"
    ]
    assert "During handling" not in run.output


def test_the_plugin_is_installed_by_its_entry_point_and_this_suite_runs_without_it(
    pytestconfig: pytest.Config,
) -> None:
    [entry] = [
        entry
        for entry in importlib.metadata.entry_points(group="pytest11")
        if entry.value.startswith("course_pytest")
    ]

    assert (entry.name, entry.value) == ("course", "course_pytest._plugin")
    assert not pytestconfig.pluginmanager.has_plugin("course")
    assert pytestconfig.pluginmanager.is_blocked("course")
