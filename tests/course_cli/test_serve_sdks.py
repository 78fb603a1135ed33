"""``course serve`` as a user runs it: the official SDKs replay cassettes, Ctrl-C stops it.

The server runs as ``python -m course_cli serve`` in a subprocess; the
``anthropic`` and ``openai`` SDKs (test-only dependencies) are pointed at the
base URL it prints for each, as printed, and must receive the recorded
answers. Every wait is bounded; the server is always stopped.
"""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path
from typing import Any

import anthropic
import openai
import pytest

from course_cassettes import load_cassette
from course_protocol import thaw_json
from course_vendor import load_vendor
from tests.children import ASYNCIO_DEBUG
from tests.course_cli.serving import SECONDS, ServeChild, serving
from tests.course_cli.test_cassettes import write_wire_cassette, write_wire_cassettes
from tests.course_vendor.wires import WIRES


def _banner(child: ServeChild, lines: int) -> dict[str, str]:
    """The base URL printed on each SDK line (the first line and ``lines`` more), by the
    variable that holds it (one SDK, ``openai``, has two: OpenAI's and Azure's)."""
    first = child.line()
    assert first.startswith("course serve: http://127.0.0.1:"), first
    urls = {}
    for _ in range(lines):
        _, _, rest = child.line().strip().partition(": ")
        url, variable = rest.split()
        urls[variable.strip("()")] = url
    return urls


def _body(path: Path) -> dict[str, Any]:
    body: dict[str, Any] = thaw_json(load_cassette(path).unwrap().calls[0].request.body)  # type: ignore[assignment]
    return body


def test_the_official_sdks_receive_the_recorded_answers_and_ctrl_c_stops_the_server(
    tmp_path: Path,
) -> None:
    paths = write_wire_cassettes(tmp_path / "cassettes")
    # The refused request takes a call as a replay's mismatch does: this copy's, served first.
    chat_wire = next(wire for wire in WIRES if wire.name == "openai-chat")
    write_wire_cassette(tmp_path / "cassettes" / "openai-chat-refused.json", chat_wire)
    messages, chat, responses = (
        _body(paths[name]) for name in ("anthropic-messages", "openai-chat", "openai-responses")
    )
    variables = {load_vendor(name).base_url_variable for name in paths}

    with serving(str(tmp_path / "cassettes"), "--chunk", "random", "--delay", "1") as child:
        urls = _banner(child, len(variables))
        root = urls["ANTHROPIC_BASE_URL"]
        assert set(urls) == variables
        assert (urls["OPENAI_BASE_URL"], urls["AZURE_OPENAI_ENDPOINT"]) == (f"{root}/v1", root), (
            "as each SDK spells it"
        )
        claude = anthropic.Anthropic(
            base_url=root, api_key="sk-ant-test", max_retries=0, timeout=SECONDS
        )
        gpt = openai.OpenAI(
            base_url=urls["OPENAI_BASE_URL"], api_key="sk-test", max_retries=0, timeout=SECONDS
        )
        with claude, gpt:
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
            child.process.send_signal(signal.SIGINT)
            out, err = child.finish()

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
    assert child.process.returncode == 130
    *problems, last = err.splitlines()
    assert last == "course serve: interrupted"
    assert [line.split(": ")[1] for line in problems] == ["HTTP_REQUEST_MISMATCH"]
    assert "Traceback" not in err


def test_a_call_recorded_under_a_base_url_with_a_path_is_served_under_that_path(
    tmp_path: Path,
) -> None:
    chat = next(wire for wire in WIRES if wire.name == "openai-chat")
    path = write_wire_cassette(tmp_path / "groq.json", chat, "https://api.groq.com/openai/v1")
    [recorded] = load_cassette(path).unwrap().calls
    assert recorded.request.path == "/openai/v1/chat/completions"

    with serving(str(path)) as child:
        urls = _banner(child, 1)
        assert list(urls) == ["OPENAI_BASE_URL"]
        assert urls["OPENAI_BASE_URL"].endswith("/openai/v1")
        root = urls["OPENAI_BASE_URL"].removesuffix("/openai/v1")
        right, wrong = (
            openai.OpenAI(base_url=url, api_key="sk-test", max_retries=0, timeout=SECONDS)
            for url in (urls["OPENAI_BASE_URL"], f"{root}/v1")
        )
        with right, wrong:
            try:
                wrong.chat.completions.create(**_body(path))
            except openai.NotFoundError as error:
                missing = error
            with right.chat.completions.create(**_body(path)) as chunks:
                text = "".join(
                    chunk.choices[0].delta.content or "" for chunk in chunks if chunk.choices
                )
        child.process.send_signal(signal.SIGTERM)
        out, err = child.finish()

    assert text == "The sum is 42."
    assert json.loads(missing.response.text)["error"] == {
        "type": "course_cassette_error",
        "code": "HTTP_REQUEST_MISMATCH",
        "message": "no cassette records POST /v1/chat/completions (one records "
        "POST /openai/v1/chat/completions: check the client's base URL)",
    }
    assert out.splitlines() == ["POST /openai/v1/chat/completions: groq.json calls[0]: 200"]
    assert err.splitlines()[-1] == "course serve: terminated"
    assert child.process.returncode == 143


@pytest.mark.skipif(
    not Path("/proc/self/environ").is_file(), reason="reads the server's environment in /proc"
)
def test_the_server_runs_without_asyncio_debug_mode_though_the_suite_has_it(
    tmp_path: Path,
) -> None:
    # Debug mode would write "Executing <Task ...> took 0.13 seconds" into the
    # standard error the other tests compare line by line.
    write_wire_cassettes(tmp_path)

    with serving(str(tmp_path)) as child:
        # Once it printed its banner the server runs its own program, with its own environment.
        assert child.line().startswith("course serve: http://127.0.0.1:")
        environ = Path(f"/proc/{child.process.pid}/environ").read_bytes()
        child.process.send_signal(signal.SIGTERM)
        child.finish()

    names = {entry.partition(b"=")[0].decode() for entry in environ.split(b"\0") if entry}
    assert os.environ[ASYNCIO_DEBUG] == "1"
    assert ASYNCIO_DEBUG not in names
    assert "PATH" in names
