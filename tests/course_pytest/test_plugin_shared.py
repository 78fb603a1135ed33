"""One cassette, two pytest processes recording it at once (xdist workers, or two runs).

The first holds the cassette while its test runs; the second waits, says
so, and then records after it, as if the tests had run one after the other.
"""

from __future__ import annotations

import asyncio
from contextlib import AsyncExitStack
from pathlib import Path

from course_http import RecordedResponse
from course_http.loopback import LoopbackRequest, LoopbackServer
from tests.course_pytest.projects import (
    ANTHROPIC,
    RUN_SECONDS,
    Started,
    answer_to,
    finish,
    read_until,
    start_pytest,
    write_project,
)

SHARED_TESTS = """\
import asyncio
import os
from pathlib import Path

import pytest

from course_http import VendorError
from course_protocol import CourseModelRequest, CourseUserMessage, text_from_assistant
from course_provider_anthropic import AnthropicConfig, AnthropicMessagesModel
from course_stream import AbortController

CONFIG = AnthropicConfig("claude-test", 64, base_url=os.environ["ANTHROPIC_BASE_URL"])


async def until_exists(path):
    async with asyncio.timeout(60):
        while not path.exists():
            await asyncio.sleep(0.02)


@pytest.mark.asyncio
@pytest.mark.course_cassette("shared")
async def test_shared(course_cassette):
    model = course_cassette.model(AnthropicMessagesModel, CONFIG)
    questions = os.environ["QUESTIONS"].split(",")
    answers = []
    for question in questions:
        request = CourseModelRequest("r-1", [CourseUserMessage("u-1", question)])
        try:
            response = await model.stream(request, AbortController().signal).result
        except VendorError as error:
            answers.append(error.code)
        else:
            answers.append(text_from_assistant(response.message))
    if "HOLD_UNTIL" in os.environ:
        await until_exists(Path(os.environ["HOLD_UNTIL"]))
    assert answers == [f"you said: {question}" for question in questions]
"""

REFUSED = "sk-refused"


def answer(request: LoopbackRequest) -> RecordedResponse:
    if request.header("x-api-key") == REFUSED:
        return RecordedResponse(
            401,
            {"content-type": "application/json"},
            ANTHROPIC.error_body("authentication_error", "invalid x-api-key"),
        )
    return answer_to(request)


async def test_a_process_extending_a_cassette_another_extends_waits_and_keeps_no_failed_call(
    tmp_path: Path,
) -> None:
    write_project(tmp_path, {"tests/test_shared.py": SHARED_TESTS})
    cassette = tmp_path / "tests" / "cassettes" / "test_shared" / "shared.json"
    go = tmp_path / "go"
    extend = ("--course-record-mode=new_episodes", "tests")
    started: list[Started] = []
    async with AsyncExitStack() as stack:
        server = await stack.enter_async_context(LoopbackServer(answer))
        stack.push_async_callback(_ended, started)
        base = {"ANTHROPIC_BASE_URL": server.base_url, "QUESTIONS": "hello"}
        first = await start_pytest(
            tmp_path,
            "--course-record-mode=once",
            "tests",
            env={**base, "ANTHROPIC_API_KEY": "sk-good"},
        )
        started.append(first)
        assert (await finish(first)).results("test_shared") == ("passed",)
        recorded = cassette.read_bytes()
        # One run adds a call its key is refused, and holds on before failing
        # (holding the cassette once its call reached the server)...
        failing = await start_pytest(
            tmp_path,
            *extend,
            report="failing.xml",
            env={
                **base,
                "QUESTIONS": "hello,again",
                "ANTHROPIC_API_KEY": REFUSED,
                "HOLD_UNTIL": str(go),
            },
        )
        started.append(failing)
        async with asyncio.timeout(RUN_SECONDS):
            await server.wait_ended(1)
        # ... while another, that adds nothing, replays the same cassette.
        replaying = await start_pytest(
            tmp_path, *extend, report="replaying.xml", env={**base, "ANTHROPIC_API_KEY": "sk-good"}
        )
        started.append(replaying)
        told = await read_until(replaying, "course: waiting for")
        go.touch()
        failed = await finish(failing)
        waited = await finish(replaying, read=told)
        keys = [request.header("x-api-key") for request in server.requests]

    assert failed.results("test_shared") == ("failed",), failed.output
    assert "'HTTP_UNAUTHORIZED'" in failed.message("test_shared")
    assert waited.results("test_shared") == ("passed",), waited.output
    assert cassette.read_bytes() == recorded, "the refused call was never kept"
    assert sorted(path.name for path in cassette.parent.iterdir()) == ["shared.json"]
    assert keys == ["sk-good", REFUSED]
    assert f"course: waiting for {cassette}: another process holds it" in waited.output, (
        waited.output
    )


async def _ended(started: list[Started]) -> None:
    """Kill what a failing test left running (a finished run is left as it is)."""
    for run in started:
        if run.process.returncode is None:
            run.process.kill()
            await run.process.wait()
