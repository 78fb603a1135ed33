"""A vendor package written outside the workspace plugs in by being installed.

The package below is built into a wheel in a temporary folder and installed
there (not into the workspace); a child ``course`` with that folder on its
path lists the wire, plays a body through it and refuses an unknown wire
naming every installed one.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.children import child_env

ROOT = Path(__file__).resolve().parents[2]
WIRE = "lines-demo"

PYPROJECT = """\
[project]
name = "course-vendor-lines"
version = "0.0.1"
requires-python = ">=3.11"

[project.entry-points."course.vendors"]
lines-demo = "course_vendor_lines:PLUGIN"

[build-system]
requires = ["uv_build>=0.9,<0.14"]
build-backend = "uv_build"
"""

# A made-up API: each event's data is {"text": ...} or, last, {"end": id}.
MODULE = '''\
"""A vendor of one made-up streaming API, for the registry's tests."""

from collections.abc import Callable, Mapping

from dataclasses import dataclass

from course_http import HttpTransport, SseEvent, VendorErrorBody, VendorErrorCode
from course_protocol import (
    CourseAssistantMessage,
    CourseModelChunk,
    CourseModelRequest,
    CourseModelResponse,
    CourseModelUsage,
    CourseStopReason,
    CourseTextBlock,
    CourseTextDeltaChunk,
)
from course_vendor import (
    EventFailures,
    VendorConfig,
    VendorModel,
    VendorPlay,
    VendorPlugin,
    VendorWire,
    WireEvent,
    WireGrammar,
    WireMapping,
    event_error,
    event_object,
)

NAME = "lines-demo"
FAILURES = EventFailures(NAME)


def describe_error(body: bytes) -> VendorErrorBody:
    return VendorErrorBody()


WIRE = VendorWire(
    vendor=NAME, key_variable="LINES_API_KEY", path="/v0/lines", describe_error=describe_error
)


class LinesGrammar(WireGrammar[str]):
    """The whole language: text events, then one end event; the result is the end's id."""

    __slots__ = ("_end",)

    def __init__(self) -> None:
        super().__init__()
        self._end: str | None = None

    def _read(self, frame: SseEvent, index: int) -> WireEvent | None:
        data = event_object(frame.data, vendor=NAME, index=index)
        if self._terminal:
            FAILURES.fail(VendorErrorCode.VENDOR_EVENT_ORDER, index, "an event after the end")
        if type(data.get("end")) is str:
            self._end = data["end"]
            self._terminal = True
        elif type(data.get("text")) is not str:
            FAILURES.fail(VendorErrorCode.VENDOR_UNKNOWN_EVENT, index, "neither text nor end")
        return data

    def _result(self, frame_count: int) -> str:
        if self._end is None:
            raise event_error(
                VendorErrorCode.VENDOR_MISSING_TERMINAL, "no end event", vendor=NAME,
                index=frame_count,
            )
        return self._end


class LinesMapping(WireMapping[str]):
    __slots__ = ("_text",)

    def __init__(self, request_id: str) -> None:
        super().__init__(LinesGrammar(), request_id)
        self._text: list[str] = []

    def _map(self, event: WireEvent, index: int, push: Callable[[CourseModelChunk], None]) -> None:
        if "text" in event:
            self._text.append(event["text"])
            push(CourseTextDeltaChunk(self._request_id, event["text"]))

    def _respond(self, result: str, event_count: int) -> CourseModelResponse:
        message = CourseAssistantMessage(
            f"message-{result}", (CourseTextBlock("".join(self._text)),)
        )
        usage = CourseModelUsage(0, 0)
        return CourseModelResponse(result, self._request_id, message, CourseStopReason.STOP, usage)


@dataclass(frozen=True, slots=True)
class LinesConfig(VendorConfig):
    base_url: str = "https://lines.invalid"


class LinesModel(VendorModel[LinesConfig]):
    __slots__ = ()

    def __init__(self, *, transport: HttpTransport) -> None:
        super().__init__(LinesConfig("lines-1"), WIRE, api_key=None, transport=transport)

    def _body(self, request: CourseModelRequest) -> Mapping[str, object]:
        return {"question": request.id}

    def _headers(self, api_key: str | None) -> Mapping[str, str]:
        return {}

    def _parser(self, request_id: str) -> VendorPlay:
        return LinesMapping(request_id)


PLUGIN = VendorPlugin(
    wire=WIRE,
    sdk="lines-sdk",
    base_url="https://lines.invalid",
    base_url_variable="LINES_BASE_URL",
    named_events=False,
    replay_model=lambda transport: LinesModel(transport=transport),
    grammar=LinesGrammar,
)
'''

BODY = b'data: {"text": "Hello"}\n\ndata: {"text": ", world"}\n\ndata: {"end": "r-1"}\n\n'


def _uv() -> str:
    # make passes its own uv as UV (.tools/bin/uv on a fresh machine, or the one on PATH).
    found = os.environ.get("UV") or shutil.which("uv") or str(ROOT / ".tools" / "bin" / "uv")
    if not Path(found).is_file():
        pytest.fail("uv is neither on PATH nor in .tools/bin: run the suite through make")
    return found


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder the outside vendor package is installed into, from its own wheel."""
    work = tmp_path_factory.mktemp("outside-vendor")
    source = work / "course-vendor-lines"
    (source / "src" / "course_vendor_lines").mkdir(parents=True)
    (source / "pyproject.toml").write_text(PYPROJECT)
    (source / "README.md").write_text("A made-up vendor.\n")
    (source / "src" / "course_vendor_lines" / "__init__.py").write_text(MODULE)
    wheels = work / "wheels"
    subprocess.run(
        [_uv(), "build", "--wheel", "--quiet", "--out-dir", str(wheels), str(source)],
        check=True,
        timeout=120,
        env=child_env(),
    )
    target = work / "site"
    (wheel,) = wheels.glob("*.whl")
    subprocess.run(
        [
            _uv(),
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--target",
            str(target),
            "--python",
            sys.executable,
            str(wheel),
        ],
        check=True,
        timeout=120,
        env=child_env(),
    )
    return target


def _course(site: Path, *arguments: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    environment = child_env()
    environment["PYTHONPATH"] = os.pathsep.join([str(site), environment.get("PYTHONPATH", "")])
    return subprocess.run(
        [sys.executable, "-m", "course_cli", *arguments],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=cwd,
        env=environment,
    )


def test_an_installed_outside_vendor_plays_its_body_through_course_replay(
    installed: Path, tmp_path: Path
) -> None:
    body = tmp_path / "answer.sse"
    body.write_bytes(BODY)
    done = _course(installed, "replay", "--wire", WIRE, str(body), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert [line.get("delta") for line in lines[:2]] == ["Hello", ", world"]
    assert lines[2]["id"] == "r-1"
    assert lines[2]["message"]["content"] == [{"type": "text", "text": "Hello, world"}]


def test_an_outside_vendors_broken_body_fails_with_its_typed_code(
    installed: Path, tmp_path: Path
) -> None:
    body = tmp_path / "cut.sse"
    body.write_bytes(BODY.rsplit(b"data:", 1)[0])
    done = _course(installed, "check", "--wire", WIRE, str(body), cwd=tmp_path)
    assert done.returncode == 1
    assert "VENDOR_MISSING_TERMINAL" in done.stdout


def test_an_unknown_wire_is_a_usage_error_listing_the_installed_ones(
    installed: Path, tmp_path: Path
) -> None:
    done = _course(installed, "replay", "--wire", "no-such-wire", "x.sse", cwd=tmp_path)
    assert done.returncode == 2
    assert "no-such-wire" in done.stderr
    for name in ("anthropic-messages", "openai-chat", "openai-responses", WIRE):
        assert name in done.stderr


def test_without_the_outside_package_its_wire_is_unknown(tmp_path: Path) -> None:
    done = _course(tmp_path, "replay", "--wire", WIRE, "x.sse", cwd=tmp_path)
    assert done.returncode == 2
    assert WIRE in done.stderr
