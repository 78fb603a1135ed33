"""Where a recording is written until its test passed, and what becomes of it: `scratch_path`."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

__all__ = ["keep_recording", "remove_left_recordings", "scratch_path"]

_SCRATCH_SUFFIX = ".recording"


def scratch_path(path: Path) -> Path:
    """A new scratch file beside the cassette at ``path``: ``.<name>.<process>-<random>.recording``.

    Unique to this process and call: another one recording the same
    cassette (an xdist worker, another run) never writes over it.
    """
    return path.with_name(f".{path.name}.{os.getpid()}-{secrets.token_hex(4)}{_SCRATCH_SUFFIX}")


def keep_recording(scratch: Path, path: Path, *, passed: bool) -> None:
    """Make the recording at ``scratch`` the cassette at ``path`` when ``passed``; else drop it.

    Raises ``OSError`` when the file cannot be moved or removed.
    """
    # Nothing written (new_episodes that made no new call): the cassette stays.
    if passed and scratch.exists():
        os.replace(scratch, path)
    scratch.unlink(missing_ok=True)


def remove_left_recordings(path: Path) -> None:
    """Remove the scratch recordings of the cassette at ``path`` that killed runs left.

    Only while holding its `CassetteLock`: every process recording it then
    waits, so every scratch file there is a dead one's.
    """
    prefix = f".{path.name}."
    try:
        names = [entry.name for entry in os.scandir(path.parent)]
    except FileNotFoundError:
        return
    for name in names:
        if name.startswith(prefix) and name.endswith(_SCRATCH_SUFFIX):
            path.with_name(name).unlink(missing_ok=True)
