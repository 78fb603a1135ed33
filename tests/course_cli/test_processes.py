"""The command as a user runs it: ``python -m course_cli`` and the ``course`` entry point."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.children import child_env
from tests.course_cli.helpers import GOLDEN, REPO, ROUNDTRIP, TRACE

_TIMEOUT = 60


def test_python_dash_m_runs_the_demo_without_warnings() -> None:
    done = subprocess.run(
        [sys.executable, "-W", "error", "-m", "course_cli", "demo"],
        capture_output=True,
        cwd=REPO,
        env=child_env(),
        timeout=_TIMEOUT,
        check=False,
    )
    assert done.stderr == b""
    assert done.returncode == 0
    header, trace = done.stdout.decode("utf-8").split("\n", 1)
    assert header.startswith("model     fixture ")
    assert trace == TRACE


def test_the_course_entry_point_replays_byte_for_byte_like_the_golden_file(
    tmp_path: Path,
) -> None:
    course = Path(sys.executable).parent / "course"
    assert course.is_file(), f"the course entry point is not installed at {course}"
    done = subprocess.run(
        [str(course), "replay", str(ROUNDTRIP)],
        capture_output=True,
        cwd=tmp_path,
        env=child_env(),
        timeout=_TIMEOUT,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, b"")
    assert done.stdout == (GOLDEN / "replay-roundtrip.jsonl").read_bytes()


def _check_in_a_locale(
    tmp_path: Path, name: bytes, encoding: str
) -> subprocess.CompletedProcess[bytes]:
    path = os.path.join(os.fsencode(tmp_path), name)
    with open(path, "wb") as file:
        file.write(
            b'{"schemaVersion": 1, "responses": [{"records": ['
            b'{"type": "transport_error", "code": "x", "message": "lone \\ud800 caf\\u00e9"}'
            b"]}]}"
        )
    return subprocess.run(
        [sys.executable, "-m", "course_cli", "check", path],
        capture_output=True,
        cwd=REPO,
        timeout=_TIMEOUT,
        check=False,
        env=child_env({"PYTHONIOENCODING": f"{encoding}:strict"}),
    )


@pytest.mark.parametrize("encoding", ["utf-8", "ascii", "latin-1"])
def test_check_prints_a_lone_surrogate_and_a_non_utf8_file_name_in_any_locale(
    tmp_path: Path, encoding: str
) -> None:
    done = _check_in_a_locale(tmp_path, b"bad-\xff.json", encoding)

    assert done.returncode == 1, done.stderr
    assert b"Traceback" not in done.stderr
    problem, summary = done.stdout.decode(encoding).splitlines()
    assert "bad-\\udcff.json: response 0, record 0: PROVIDER_TRANSPORT_ERROR: " in problem
    assert "lone \\ud800 caf" in problem
    assert summary == "checked 1 file, 1 response: 1 problem in 1 file"


def test_importing_the_cli_leaves_the_server_stack_unloaded() -> None:
    # Only `course serve` needs uvicorn and starlette; every other command starts without them.
    probe = "import sys, course_cli; print(sorted({'uvicorn', 'starlette'} & set(sys.modules)))"
    completed = subprocess.run(
        [sys.executable, "-c", probe],
        env=child_env(),
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )

    assert completed.stdout == "[]\n"


# What a command that plays no vendor must leave unloaded: every vendor
# package, the kit, the cassettes, the HTTP stack and the server stack.
HEAVY_MODULES = (
    "httpx2",
    "httpcore2",
    "course_http",
    "course_vendor",
    "course_cassettes",
    "course_provider_anthropic",
    "course_provider_openai",
    "uvicorn",
    "starlette",
)
_PROBE = """\
import contextlib, io, sys
import course_cli
with contextlib.redirect_stdout(io.StringIO()):
    try:
        status = course_cli.main(sys.argv[1:])
    except SystemExit as stop:
        status = stop.code
loaded = sorted(name for name in sys.modules if name.split(".")[0] in {heavy})
print(status, loaded)
"""


@pytest.mark.parametrize(
    "arguments",
    [
        ["--help"],
        ["demo"],
        ["demo", "--model", "scripted"],
        ["check", str(ROUNDTRIP)],
        ["replay", str(ROUNDTRIP)],
        ["check", "--help"],
    ],
    ids=" ".join,
)
def test_a_command_that_plays_no_vendor_imports_no_vendor_and_no_http_stack(
    arguments: list[str],
) -> None:
    probe = _PROBE.format(heavy=set(HEAVY_MODULES))
    completed = subprocess.run(
        [sys.executable, "-c", probe, *arguments],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
        env=child_env(),
    )

    assert completed.stdout.splitlines()[-1] == "0 []"


def test_a_vendor_wire_loads_its_package_only_when_used(tmp_path: Path) -> None:
    body = tmp_path / "empty.sse"
    body.write_bytes(b"")
    probe = _PROBE.format(heavy=set(HEAVY_MODULES))
    completed = subprocess.run(
        [sys.executable, "-c", probe, "check", "--wire", "openai-chat", str(body)],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
        env=child_env(),
    )

    status, loaded = completed.stdout.splitlines()[-1].split(" ", 1)
    assert status == "1"  # an empty body has no terminal event
    assert "course_provider_openai" in loaded
    assert "course_provider_anthropic" not in loaded
    assert "uvicorn" not in loaded


def test_the_cli_spells_the_kit_s_entry_point_group_and_the_cassette_key_as_they_do() -> None:
    from course_cassettes import CASSETTE_VERSION_KEY
    from course_cli import _cassettes, _wires
    from course_vendor import VENDOR_ENTRY_POINT_GROUP

    assert _wires.VENDOR_ENTRY_POINT_GROUP == VENDOR_ENTRY_POINT_GROUP
    assert _cassettes.CASSETTE_VERSION_KEY == CASSETTE_VERSION_KEY
