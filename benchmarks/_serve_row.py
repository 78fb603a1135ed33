"""The ``course serve`` rows of the vendors group: labelled "not built" until the command exists.

Issue 18 asks for events per second that ``course serve`` delivers to the
official SDK over loopback, against the same SDK reading the bytes
in-process. Until ``course_cli`` has a ``serve`` command the rows say so;
once it has one they say it is built but not yet measured, so the table
shows that the harness is the missing piece.
"""

from __future__ import annotations

import contextlib
import io

from benchmarks._vendor_bodies import APIS
from benchmarks.report import Row
from course_cli import main

__all__ = ["serve_built", "serve_rows"]

GROUP = "vendors"


def serve_built() -> bool:
    """Whether ``course serve --help`` is a command ``course_cli.main`` knows (exit status 0)."""
    output = io.StringIO()
    try:
        with contextlib.redirect_stdout(output), contextlib.redirect_stderr(output):
            status = main(["serve", "--help"])
    except SystemExit as exit_:
        status = exit_.code if isinstance(exit_.code, int) else 1
    return status in (0, None)


def serve_rows() -> list[Row]:
    """One row per API: ``course serve`` to the official SDK over loopback."""
    reason = (
        "course serve is built; its loopback measurement is not wired into the harness yet"
        if serve_built()
        else "course serve not built"
    )
    return [
        Row.unavailable(
            GROUP,
            f"{api} text: course serve -> official SDK over loopback (events/s)",
            "same SDK reading the bytes in-process",
            reason,
        )
        for api in APIS
    ]
