"""Helpers for the ``course`` command tests: paths, fixture files, running ``main`` in-process."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest

from course_cli import main
from tests.course_provider_fixture.records import (
    REPO_ROOT,
    ROUNDTRIP_FIXTURE,
    end,
    fixture,
    start,
    text,
)

REPO = REPO_ROOT
ROUNDTRIP = ROUNDTRIP_FIXTURE
INVALID = REPO / "fixtures" / "invalid"
GOLDEN = Path(__file__).resolve().parent / "golden"

START = start()
TEXT = text("ok")
END = end(usage={"inputTokens": 1, "outputTokens": 2})

TRACE = """\
user      user-001: What is 20 + 22?

call 1    request-001 messages=1 transcript=valid
chunk     toolCall id=call-add-001 name=add arguments={"left":20,"right":22}
response  response-tool-001 message=message-response-tool-001 stopReason=toolCall \
inputTokens=12 outputTokens=8
tool      add ran locally: 20 + 22 = 42
result    tool-result-001 toolCallId=call-add-001 toolName=add isError=false content="42"

call 2    request-002 messages=3 transcript=valid
chunk     textDelta delta="The sum is 42."
response  response-text-002 message=message-response-text-002 stopReason=stop \
inputTokens=20 outputTokens=6

answer    The sum is 42.
done      2 model calls, inputTokens=32 outputTokens=14
"""
"""The trace ``run_demo`` reports for the checked-in round trip, line by line."""


def write_fixture(path: Path, *responses: list[object]) -> Path:
    """Write a fixture of one response per argument (its records) to ``path``; return ``path``."""
    path.write_text(json.dumps(fixture(*responses)), encoding="utf-8")
    return path


@dataclass(frozen=True)
class Run:
    """What one in-process ``course`` run printed and returned."""

    status: int
    out: str
    err: str


class CourseRunner:
    """Calls ``main(argv)`` and captures exactly what that one call wrote."""

    def __init__(self, capsys: pytest.CaptureFixture[str]) -> None:
        self._capsys = capsys

    def __call__(self, *argv: str | Path) -> Run:
        self._capsys.readouterr()
        status = main([str(arg) for arg in argv])
        captured = self._capsys.readouterr()
        return Run(status=status, out=captured.out, err=captured.err)
