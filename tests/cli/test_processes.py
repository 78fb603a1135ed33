"""The command as a user runs it: ``python -m course_cli`` and the ``course`` entry point."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.cli.helpers import GOLDEN, REPO, ROUNDTRIP
from tests.cli.test_demo import TRACE

_TIMEOUT = 60


def test_python_dash_m_runs_the_demo_without_warnings() -> None:
    done = subprocess.run(
        [sys.executable, "-W", "error", "-m", "course_cli", "demo"],
        capture_output=True,
        cwd=REPO,
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
        timeout=_TIMEOUT,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, b"")
    assert done.stdout == (GOLDEN / "replay-roundtrip.jsonl").read_bytes()
