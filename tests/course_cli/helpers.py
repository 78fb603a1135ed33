"""Helpers for the ``course`` command tests: paths, and running ``main`` in-process."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from course_cli import main

REPO = Path(__file__).resolve().parents[2]
ROUNDTRIP = REPO / "fixtures" / "provider-tool-roundtrip.json"
INVALID = REPO / "fixtures" / "invalid"
GOLDEN = Path(__file__).resolve().parent / "golden"


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
