"""The plugin under the official SDKs: ``course_cassette.client()`` recorded once, replayed.

Each project's tests call the real ``anthropic`` SDK over the httpx2 client
the fixture hands out (sync and async); recording goes through the network
transport to a loopback "vendor" on 127.0.0.1, replaying goes nowhere (the
base URL then points at a port nothing listens on).
"""

from __future__ import annotations

import json
import socket
from pathlib import Path
from typing import Any

from course_cassettes import load_cassette
from course_http import RecordedResponse
from course_http.loopback import LoopbackRequest, LoopbackServer
from tests.course_pytest.projects import ANTHROPIC, SSE, Run, answer_to, run_pytest, write_project

README = Path(__file__).resolve().parents[2] / "README.md"
KEY = "sk-ant-api03-own-test-key-Zq8vN2xR5tLm1Pw7Yc4Hd9Kf3Bj6Gs0Ua8Ei2Oo5"

SDK_TESTS = """\
import os

import anthropic
import pytest


def ask(question):
    return [{"role": "user", "content": [{"type": "text", "text": question}]}]


def claude(http):
    return anthropic.Anthropic(
        base_url=os.environ["ANTHROPIC_BASE_URL"],
        api_key=os.environ.get("ANTHROPIC_API_KEY", "sk-placeholder"),
        http_client=http,
    )


@pytest.mark.course_cassette("sum")
def test_sum(course_cassette):
    client = claude(course_cassette.client())
    with client.messages.stream(
        model="claude-test", max_tokens=64, messages=ask(os.environ.get("Q", "20 + 22?"))
    ) as stream:
        assert "".join(stream.text_stream) == "42"


@pytest.mark.course_cassette("sum")
def test_sum_swallowed(course_cassette):
    client = claude(course_cassette.client())
    try:
        client.messages.create(model="claude-test", max_tokens=64, messages=ask("1 + 1?"))
    except anthropic.BadRequestError:
        pass  # an agent loop that carries on after an error


@pytest.mark.asyncio
@pytest.mark.course_cassette("echo")
async def test_echo_async(course_cassette):
    client = anthropic.AsyncAnthropic(
        base_url=os.environ["ANTHROPIC_BASE_URL"],
        api_key=os.environ.get("ANTHROPIC_API_KEY", "sk-placeholder"),
        http_client=course_cassette.async_client(),
    )
    message = await client.messages.create(model="claude-test", max_tokens=64, messages=ask("hi"))
    assert message.content[0].text == "plain: hi"


@pytest.mark.course_cassette("failing")
def test_failing(course_cassette):
    client = claude(course_cassette.client())
    with client.messages.stream(model="claude-test", max_tokens=64, messages=ask("hi")) as stream:
        "".join(stream.text_stream)
    assert False, "the test fails after its call"


@pytest.mark.course_cassette("cut")
def test_cut_stream(course_cassette):
    client = claude(course_cassette.client())
    with client.messages.stream(model="claude-test", max_tokens=64, messages=ask("cut")) as stream:
        "".join(stream.text_stream)


@pytest.mark.course_cassette("cut-unchecked", strict=False)
def test_cut_stream_unchecked(course_cassette):
    client = claude(course_cassette.client())
    with client.messages.stream(model="claude-test", max_tokens=64, messages=ask("cut")) as stream:
        "".join(stream.text_stream)
"""


def answer(request: LoopbackRequest) -> RecordedResponse:
    """A streamed answer; "cut" without its terminal event; a plain one when not streamed."""
    body: Any = request.json()
    content = body["messages"][-1]["content"]
    question = content if isinstance(content, str) else content[0]["text"]
    if not body.get("stream"):
        message = {
            "id": "msg_own",
            "type": "message",
            "role": "assistant",
            "model": "claude-test",
            "content": [{"type": "text", "text": f"plain: {question}"}],
            "stop_reason": "end_turn",
            "stop_sequence": None,
            "usage": {"input_tokens": 3, "output_tokens": 2},
        }
        return RecordedResponse(
            200, {"content-type": "application/json"}, json.dumps(message).encode()
        )
    if question == "cut":
        whole = ANTHROPIC.text_body("cut")
        return RecordedResponse(200, SSE, whole[: whole.index(b"event: message_stop")])
    return answer_to(request)


def _unused_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


async def _recorded(root: Path, *arguments: str) -> tuple[Run, list[LoopbackRequest]]:
    async with LoopbackServer(answer) as server:
        run = await run_pytest(
            root,
            "--course-record-mode=once",
            *arguments,
            env={"ANTHROPIC_BASE_URL": server.base_url, "ANTHROPIC_API_KEY": KEY},
        )
        return run, list(server.requests)


async def test_an_sdk_call_is_recorded_once_without_its_key_then_replayed_offline(
    tmp_path: Path,
) -> None:
    write_project(tmp_path, {"tests/test_sdk.py": SDK_TESTS})
    cassettes = tmp_path / "tests" / "cassettes" / "test_sdk"

    recorded, requests = await _recorded(
        tmp_path, "tests/test_sdk.py::test_sum", "tests/test_sdk.py::test_echo_async"
    )
    assert recorded.status == 0, recorded.output
    # The caller's own key reached the API (as this SDK sends it).
    assert [
        request.header("x-api-key") or request.header("authorization") for request in requests
    ] == [f"Bearer {KEY}"] * 2
    assert sorted(path.name for path in cassettes.iterdir()) == ["echo.json", "sum.json"]
    for path in cassettes.iterdir():
        assert KEY not in path.read_text(encoding="utf-8")
    assert load_cassette(cassettes / "sum.json").unwrap().calls[0].response.body == (
        ANTHROPIC.text_body("42")
    )

    offline = {"ANTHROPIC_BASE_URL": f"http://127.0.0.1:{_unused_port()}"}
    replayed = await run_pytest(
        tmp_path, "tests/test_sdk.py::test_sum", "tests/test_sdk.py::test_echo_async", env=offline
    )
    assert replayed.status == 0, replayed.output
    assert replayed.results("test_sum") == ("passed",)
    assert replayed.results("test_echo_async") == ("passed",)

    changed = await run_pytest(
        tmp_path, "tests/test_sdk.py::test_sum", env={**offline, "Q": "20 + 23?"}
    )
    assert changed.results("test_sum") == ("failed",)
    message = changed.message("test_sum")
    # Course-first: the course code and message, then what the SDK raised.
    headline = (
        "HTTP_REQUEST_MISMATCH: call 1 differs from the recorded calls[0]: "
        'messages[0].content[0].text: recorded "20 + 22?", sent "20 + 23?"'
    )
    assert message.lstrip().startswith(headline), message
    assert "BadRequestError" in message, message
    assert f"FAILED tests/test_sdk.py::test_sum - {headline[:40]}" in changed.output, changed.output

    # The SDK's error is caught by the code under test: the teardown still fails it.
    swallowed = await run_pytest(tmp_path, "tests/test_sdk.py::test_sum_swallowed", env=offline)
    assert swallowed.results("test_sum_swallowed") == ("passed", "error")
    assert (
        "HTTP_REQUEST_MISMATCH: call 1 differs from the recorded calls[0]: "
        "stream: recorded true, sent <missing>"
    ) in swallowed.message("test_sum_swallowed")
    assert "ERROR tests/test_sdk.py::test_sum_swallowed - HTTP_REQUEST_MISMATCH" in (
        swallowed.output
    ), swallowed.output


async def test_a_failed_tests_recording_and_a_stream_the_parser_refuses_are_not_kept(
    tmp_path: Path,
) -> None:
    write_project(tmp_path, {"tests/test_sdk.py": SDK_TESTS})
    cassettes = tmp_path / "tests" / "cassettes" / "test_sdk"

    run, requests = await _recorded(
        tmp_path,
        "tests/test_sdk.py::test_failing",
        "tests/test_sdk.py::test_cut_stream",
        "tests/test_sdk.py::test_cut_stream_unchecked",
    )
    assert len(requests) == 3
    assert run.results("test_failing") == ("failed",)
    assert run.results("test_cut_stream") == ("failed",)
    cut = run.message("test_cut_stream")
    assert "VendorError" in cut, cut
    assert cut.lstrip().startswith("VENDOR_MISSING_TERMINAL: "), cut
    assert "calls[0].response.body: judged on anthropic-messages" in cut, cut
    assert run.results("test_cut_stream_unchecked") == ("passed",)
    assert sorted(path.name for path in cassettes.iterdir()) == ["cut-unchecked.json"], (
        "no failed recording, no scratch file"
    )
    unchecked = load_cassette(cassettes / "cut-unchecked.json").unwrap()
    assert unchecked.strict is False, "strict=False is written into the cassette"

    # Replayed, the cassette's own strict: false holds, whatever the marker says.
    (tmp_path / "tests" / "test_sdk.py").write_text(
        SDK_TESTS.replace('"cut-unchecked", strict=False', '"cut-unchecked"'), encoding="utf-8"
    )
    offline = {"ANTHROPIC_BASE_URL": f"http://127.0.0.1:{_unused_port()}"}
    replayed = await run_pytest(
        tmp_path, "tests/test_sdk.py::test_cut_stream_unchecked", env=offline
    )
    assert replayed.results("test_cut_stream_unchecked") == ("passed",), replayed.output


def root_readme_example() -> str:
    """The first python block of the repository's README: an SDK test, as a user copies it."""
    text = README.read_text(encoding="utf-8")
    return text.split("```python\n", 1)[1].split("```\n", 1)[0]


async def test_the_readme_sdk_test_records_once_and_replays_offline(tmp_path: Path) -> None:
    write_project(tmp_path, {"tests/test_readme.py": root_readme_example()})
    recorded, requests = await _recorded(tmp_path, "tests")
    assert recorded.status == 0, recorded.output
    assert len(requests) == 1
    cassette = tmp_path / "tests" / "cassettes" / "test_readme" / "sum.json"
    assert KEY not in cassette.read_text(encoding="utf-8")

    offline = {"ANTHROPIC_BASE_URL": f"http://127.0.0.1:{_unused_port()}"}
    replayed = await run_pytest(tmp_path, "tests", env=offline)
    assert replayed.status == 0, replayed.output
    assert replayed.results("test_the_model_adds") == ("passed",)
