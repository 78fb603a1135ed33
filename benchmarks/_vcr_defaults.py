"""What VCR.py records and checks with its default settings, measured, not read from its docs.

Each check records an ``anthropic.Anthropic`` call (or a raw httpx2 call)
through ``vcr.VCR()`` as pytest-recording builds it with an empty
``vcr_config`` (record mode ``once`` to record, ``none``, pytest-recording's
default, to replay), into a temporary folder, against an
``httpx2.MockTransport`` "upstream": nothing leaves the process. The key is
a dummy, and no fact quotes it. The failed-test check runs pytest with
pytest-recording in a child interpreter. The course-cassettes README's
comparison table cites these facts; the cassettes group stores them with
the run (``vcr_defaults`` in ``results.json``) and prints them.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
import tempfile
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx2

from benchmarks._cassettes_measure import KEY
from benchmarks._children import child_environment
from benchmarks._vendor_bodies import vendor_body

__all__ = ["VcrFact", "check_vcr_defaults"]

_ASKED = "Say hello."
_ANSWER = "Hello from a recorded message."
_SECONDS = 120
_Hooks = dict[str, list[Callable[[httpx2.Request], object]]]


@dataclass(frozen=True)
class VcrFact:
    """One default of VCR.py: the table's row (``default``), what was seen, and how."""

    default: str
    seen: str
    how: str


def _message() -> bytes:
    return (
        '{"id":"msg_vcr","type":"message","role":"assistant","model":"claude-bench",'
        f'"content":[{{"type":"text","text":"{_ANSWER}"}}],"stop_reason":"end_turn",'
        '"stop_sequence":null,"usage":{"input_tokens":7,"output_tokens":6}}'
    ).encode()


def _serving(body: bytes, content_type: str) -> httpx2.MockTransport:
    headers = [("content-type", content_type)]
    return httpx2.MockTransport(lambda request: httpx2.Response(200, headers=headers, content=body))


def _refusing(request: httpx2.Request) -> httpx2.Response:
    raise AssertionError(f"VCR.py let {request.url} through on replay")


def _ask(anthropic: Any, client: httpx2.Client, text: str, **options: Any) -> str:
    sdk = anthropic.Anthropic(api_key=KEY, http_client=client, **options)
    message = sdk.messages.create(
        model="claude-bench", max_tokens=64, messages=[{"role": "user", "content": text}]
    )
    return str(message.content[0].text)


def check_vcr_defaults() -> list[VcrFact]:
    """Every fact, in the order of the README's table; empty when a peer is not installed.

    Raises ``AssertionError`` when VCR.py lets a replayed request through to
    the network side, or a check cannot set itself up.
    """
    try:
        anthropic = importlib.import_module("anthropic")
        vcr = importlib.import_module("vcr")
    except ImportError:
        return []
    with tempfile.TemporaryDirectory() as folder:
        workdir = Path(folder)
        cassette = workdir / "answer.yaml"
        recorder = vcr.VCR()
        with (
            recorder.use_cassette(str(cassette), record_mode="once") as recording,
            httpx2.Client(transport=_serving(_message(), "application/json")) as client,
        ):
            _ask(anthropic, client, _ASKED, max_retries=0)
        facts = [_key_fact(cassette, recording.requests[0].headers)]
        facts.extend(_matching_facts(anthropic, recorder, cassette))
        facts.append(_stream_fact(recorder, workdir / "cut.yaml"))
        facts.append(_failed_test_fact(workdir / "failing"))
    return facts


def _key_fact(cassette: Path, headers: dict[str, Any]) -> VcrFact:
    holding = sorted(name for name, value in headers.items() if KEY in str(value))
    in_file = KEY in cassette.read_text(encoding="utf-8")
    seen = (
        f"yes: the {', '.join(holding)} header as sent"
        if in_file and holding
        else ("yes" if in_file else "no")
    )
    return VcrFact(
        "the key in the cassette",
        seen,
        "an SDK call recorded with a dummy key; the key searched for in the YAML file",
    )


def _matching_facts(anthropic: Any, recorder: Any, cassette: Path) -> list[VcrFact]:
    with (
        recorder.use_cassette(str(cassette), record_mode="none"),
        httpx2.Client(transport=httpx2.MockTransport(_refusing)) as client,
    ):
        changed = _ask(anthropic, client, "Say something else entirely.", max_retries=0)
    body = VcrFact(
        "request body matched",
        "no: a changed prompt replayed the recorded answer"
        if changed == _ANSWER
        else f"yes: a changed prompt read {changed!r}",
        "the recorded call replayed with another prompt (record mode none)",
    )
    attempts: list[str] = []

    def count(request: httpx2.Request) -> None:
        attempts.append(str(request.url))

    hooks: _Hooks = {"request": [count]}
    refused = _refused(anthropic, recorder, cassette, hooks, max_retries=0)
    cause = refused.__cause__
    # Where the test can read which request VCR.py refused: in the error it
    # gets, or only in that error's cause (which a test rarely prints).
    where = "nowhere"
    if "other.invalid" in str(refused):
        where = "in the error"
    elif cause is not None and "other.invalid" in str(cause):
        where = "only in VCR.py's message, the error's __cause__"
    body_part = "no for the body (not compared)" if changed == _ANSWER else "the body is compared"
    difference = VcrFact(
        "first difference named",
        f"{body_part}; a refused request (another host) fails the test with "
        f"{type(refused).__name__}({str(refused)!r}), the host named {where}",
        "the SDK's error, and its cause, for a request VCR.py refuses (another host)",
    )
    attempts.clear()
    _refused(anthropic, recorder, cassette, hooks)
    retried = VcrFact(
        "a refusal retried by the SDK",
        f"yes: {len(attempts)} requests for one refused call"
        if len(attempts) > 1
        else "no: exactly one request",
        "requests counted by an httpx2 event hook, the SDK's default retries",
    )
    return [body, difference, retried]


def _refused(
    anthropic: Any,
    recorder: Any,
    cassette: Path,
    hooks: _Hooks,
    **options: Any,
) -> Exception:
    with (
        recorder.use_cassette(str(cassette), record_mode="none"),
        httpx2.Client(transport=httpx2.MockTransport(_refusing), event_hooks=hooks) as client,
    ):
        sdk = anthropic.Anthropic(
            api_key=KEY, http_client=client, base_url="http://other.invalid", **options
        )
        try:
            sdk.messages.create(
                model="claude-bench", max_tokens=64, messages=[{"role": "user", "content": _ASKED}]
            )
        except anthropic.APIError as error:
            refused: Exception = error
            return refused
    raise AssertionError("VCR.py served a request to another host")


def _stream_fact(recorder: Any, cassette: Path) -> VcrFact:
    whole = vendor_body("anthropic-messages", "text", 20).body
    cut = whole[: whole.index(b"event: message_stop")]
    url = "https://api.anthropic.com/v1/messages"
    with (
        recorder.use_cassette(str(cassette), record_mode="once"),
        httpx2.Client(transport=_serving(cut, "text/event-stream")) as client,
    ):
        recorded = client.post(url, json={"stream": True}).content
    with (
        recorder.use_cassette(str(cassette), record_mode="none"),
        httpx2.Client(transport=httpx2.MockTransport(_refusing)) as client,
    ):
        replayed = client.post(url, json={"stream": True}).content
    unchecked = recorded == replayed == cut
    return VcrFact(
        "stream validated",
        "no: a Messages stream cut before message_stop was recorded and replayed as is"
        if unchecked
        else "the cut stream did not come back as recorded",
        "a cut stream recorded, then replayed, through raw httpx2 (no SDK parser involved)",
    )


_FAILING_TEST = """
import httpx2
import pytest


@pytest.mark.vcr
def test_calls_then_fails():
    transport = httpx2.MockTransport(lambda request: httpx2.Response(200, json={"ok": True}))
    with httpx2.Client(transport=transport) as client:
        client.get("https://api.example.invalid/v1/models")
    raise AssertionError("the test fails after its call")
"""


def _failed_test_fact(folder: Path) -> VcrFact:
    folder.mkdir()
    (folder / "test_failing.py").write_text(textwrap.dedent(_FAILING_TEST), encoding="utf-8")
    # Its own rootdir and options: no configuration or worker identity of a caller's pytest.
    (folder / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    environment = {
        name: value
        for name, value in child_environment().items()
        if name != "PYTEST_ADDOPTS" and not name.startswith("PYTEST_XDIST_")
    }
    completed = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--record-mode=once"],
        cwd=folder,
        env=environment,
        capture_output=True,
        text=True,
        timeout=_SECONDS,
        check=False,
    )
    if completed.returncode != 1:
        raise AssertionError(f"the failing test did not fail alone:\n{completed.stdout}")
    kept = sorted(path.name for path in (folder / "cassettes").rglob("*.yaml"))
    return VcrFact(
        "failed test's recording kept",
        f"yes: {', '.join(kept)}" if kept else "no",
        "pytest with pytest-recording (--record-mode=once) on a test that fails after its call",
    )
