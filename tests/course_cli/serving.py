"""``course serve`` as a user runs it: a child process, its lines read as they come, always stopped.

`serving` starts ``python -m course_cli serve ARGUMENTS`` (or another
command line ending in them) and yields a `ServeChild`; every wait is
bounded, and a child still running at the end of the block is killed.
"""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

from tests.children import child_env
from tests.course_cli.helpers import REPO

SECONDS = 10.0
"""Far longer than any step takes; only a hang ever reaches it."""

SERVE = (sys.executable, "-m", "course_cli", "serve")
"""The command line of ``course serve``, before its arguments."""

SIGINT_IGNORED = ("bash", "-c", 'trap "" INT; exec "$0" "$@"', *SERVE)
"""``course serve`` with SIGINT ignored, as ``(course serve DIR &)`` in a script starts it."""


@dataclass
class ServeChild:
    """A running ``course serve``: the process, and its stdout read line by line."""

    process: subprocess.Popen[bytes]
    sdk_lines: list[str] = field(default_factory=list)
    _unread: bytes = field(default=b"")

    def line(self) -> str:
        """The next line of stdout, without its newline; fails the test after `SECONDS`."""
        # select on the descriptor and a buffer of our own: a file object's
        # buffer would hide lines that select cannot see.
        assert self.process.stdout is not None
        deadline = time.monotonic() + SECONDS
        while b"\n" not in self._unread:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self.process.stdout], [], [], max(0.0, left))
            assert ready, f"course serve printed no line in {SECONDS} s"
            data = os.read(self.process.stdout.fileno(), 65536)
            assert data, "course serve closed its output"
            self._unread += data
        line, _, self._unread = self._unread.partition(b"\n")
        return line.decode()

    def banner(self) -> str:
        """The first line (``course serve: URL ...``); the SDK lines after it go to `sdk_lines`.

        Those lines come in the same write as the first one.
        """
        first = self.line()
        self.sdk_lines = []
        while self._unread.startswith(b"  "):
            self.sdk_lines.append(self.line())
        return first

    def finish(self) -> tuple[str, str]:
        """Wait for the exit (bounded); the rest of stdout and all of stderr."""
        out, err = self.process.communicate(timeout=SECONDS)
        rest, self._unread = self._unread, b""
        return (rest + out).decode(), err.decode()


@contextmanager
def serving(
    *arguments: str, command: Sequence[str] = SERVE, environment: Mapping[str, str] | None = None
) -> Iterator[ServeChild]:
    """``command ARGUMENTS`` running from the repository root; killed if it outlives the block.

    ``environment`` is set over `child_env`'s (a ``PYTHONPATH`` with a made-up package).
    """
    process = subprocess.Popen(
        [*command, *arguments],
        cwd=REPO,
        env=child_env(environment),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        yield ServeChild(process)
    finally:
        if process.poll() is None:
            process.kill()
        process.communicate(timeout=SECONDS)
