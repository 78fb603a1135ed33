"""``course serve`` as a user runs it: the official SDKs replay cassettes, Ctrl-C stops it.

The server runs as ``python -m course_cli serve`` in a subprocess; the
``anthropic`` and ``openai`` SDKs (test-only dependencies) are pointed at its
base URL with no other change and must receive the recorded answers. Every
wait is bounded; the server is always stopped.
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import anthropic
import openai
import pytest

from course_http import load_cassette
from course_protocol import thaw_json
from tests.children import ASYNCIO_DEBUG, child_env
from tests.course_cli.helpers import REPO
from tests.course_cli.test_cassettes import write_wire_cassettes
from tests.streams import GUARD_SECONDS

SECONDS = GUARD_SECONDS
"""Far longer than any step takes, start-up included; only a hang ever reaches it."""


def _first_line(stream: Any) -> str:
    # Only the first line is waited for; the rest is read once the server stopped.
    ready, _, _ = select.select([stream], [], [], SECONDS)
    assert ready, "the server printed nothing in time"
    line: str = stream.readline()
    return line


@contextmanager
def serving(*arguments: str) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """``course serve ARGUMENTS`` running, with its base URL; killed if it outlives the block."""
    process = subprocess.Popen(
        [sys.executable, "-m", "course_cli", "serve", *arguments],
        cwd=REPO,
        env=child_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        first = _first_line(process.stdout)
        assert first.startswith("course serve: http://127.0.0.1:"), first
        yield process, first.split()[2]
    finally:
        if process.poll() is None:
            process.kill()
        process.communicate(timeout=SECONDS)


def _body(path: Path) -> dict[str, Any]:
    body: dict[str, Any] = thaw_json(load_cassette(path).unwrap().calls[0].request.body)  # type: ignore[assignment]
    return body


def test_the_official_sdks_receive_the_recorded_answers_and_ctrl_c_stops_the_server(
    tmp_path: Path,
) -> None:
    paths = write_wire_cassettes(tmp_path / "cassettes")
    messages, chat, responses = (_body(path) for path in paths.values())

    with (
        serving(str(tmp_path / "cassettes"), "--chunk", "random", "--delay", "1") as (
            process,
            base_url,
        ),
        anthropic.Anthropic(
            base_url=base_url, api_key="sk-ant-test", max_retries=0, timeout=SECONDS
        ) as claude,
        openai.OpenAI(
            base_url=f"{base_url}/v1", api_key="sk-test", max_retries=0, timeout=SECONDS
        ) as gpt,
    ):
        with claude.messages.stream(
            **{key: value for key, value in messages.items() if key != "stream"}
        ) as stream:
            claude_text = "".join(stream.text_stream)
        try:
            gpt.chat.completions.create(**{**chat, "model": "another-model"})
        except openai.BadRequestError as error:
            refused = error
        with gpt.chat.completions.create(**chat) as chunks:
            chat_text = "".join(
                chunk.choices[0].delta.content or "" for chunk in chunks if chunk.choices
            )
        with gpt.responses.create(**responses) as events:
            responses_text = "".join(
                event.delta for event in events if event.type == "response.output_text.delta"
            )
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=SECONDS)

    assert [claude_text, chat_text, responses_text] == ["The sum is 42."] * 3
    assert refused.status_code == 400
    refusal = json.loads(refused.response.text)["error"]
    assert refusal["code"] == "HTTP_REQUEST_MISMATCH"
    assert 'model: recorded "gpt-test", sent "another-model"' in refusal["message"]
    assert [line.split(": ")[1] for line in out.splitlines()] == [
        "anthropic-messages.json calls[0]",
        "openai-chat.json calls[0]",
        "openai-responses.json calls[0]",
    ]
    assert process.returncode == 130
    *problems, last = err.splitlines()
    assert last == "course serve: interrupted"
    assert [line.split(": ")[1] for line in problems] == ["HTTP_REQUEST_MISMATCH"]
    assert "Traceback" not in err


@pytest.mark.skipif(
    not Path("/proc/self/environ").is_file(), reason="reads the server's environment in /proc"
)
def test_the_server_runs_without_asyncio_debug_mode_though_the_suite_has_it(
    tmp_path: Path,
) -> None:
    # Debug mode would write "Executing <Task ...> took 0.13 seconds" into the
    # standard error the other tests compare line by line.
    write_wire_cassettes(tmp_path)

    with serving(str(tmp_path)) as (process, _):
        environ = Path(f"/proc/{process.pid}/environ").read_bytes()

    names = {entry.partition(b"=")[0].decode() for entry in environ.split(b"\0") if entry}
    assert os.environ[ASYNCIO_DEBUG] == "1"
    assert ASYNCIO_DEBUG not in names
    assert "PATH" in names
