"""One test at a time per cassette, across processes: `CassetteLock`, a lock file beside it.

Two pytest processes (xdist workers, or two runs) that record the same
cassette are serialized, so that it ends as if their tests had run one
after the other. The lock is ``flock`` on ``.<name>.json.lock``: the system
drops it when its process dies, so a killed run never leaves a cassette
locked. Where ``fcntl`` does not exist (Windows) there is no lock.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Final, final

__all__ = ["LOCKING", "CassetteLock"]

LOCKING: Final = sys.platform != "win32"
"""Whether this system has the lock (``fcntl.flock``); without it, acquiring does nothing."""

# How often a waiting process tries again: a lock is held for a whole test.
_POLL_SECONDS = 0.05


@final
class CassetteLock:
    """The lock of the cassette at ``cassette``; held from `acquire` to `release`.

    Not reentrant: a second `CassetteLock` of the same cassette waits, in
    this process too.
    """

    def __init__(self, cassette: Path) -> None:
        self._path = cassette.with_name(f".{cassette.name}.lock")
        self._descriptor: int | None = None

    @property
    def path(self) -> Path:
        """The lock file: ``.<name>.json.lock`` beside the cassette, there while it is held."""
        return self._path

    async def acquire(self, on_wait: Callable[[], None]) -> bool:
        """Wait until no other process holds the cassette, then hold it; ``False`` if no lock.

        Creates the cassette's folder. ``on_wait`` is called once, when
        another holder makes this one wait. Waits for as long as the holder
        holds it (a test being recorded); cancelling the wait leaves nothing
        held. Raises ``OSError`` when the folder or the lock file cannot be
        made, and ``RuntimeError`` when it is held already.
        """
        if self._descriptor is not None:
            raise RuntimeError(f"{self._path} is held already")
        if not LOCKING:
            return False
        self._path.parent.mkdir(parents=True, exist_ok=True)
        told = False
        while True:
            descriptor = _locked(self._path)
            if descriptor is not None:
                self._descriptor = descriptor
                return True
            if not told:
                told = True
                on_wait()
            await asyncio.sleep(_POLL_SECONDS)

    def release(self) -> None:
        """Remove the lock file and let the next process in; does nothing when not held."""
        descriptor, self._descriptor = self._descriptor, None
        if descriptor is None:
            return
        try:
            # Removed while held: a waiter holding the old file sees it gone and opens anew.
            self._path.unlink(missing_ok=True)
        finally:
            os.close(descriptor)


def _locked(path: Path) -> int | None:
    """A descriptor of the lock file at ``path``, locked; ``None`` while another holds it."""
    while True:
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
        try:
            if not _flocked(descriptor):
                os.close(descriptor)
                return None
            held = os.fstat(descriptor)
            current = os.stat(path)
        except FileNotFoundError:
            current = None
        except BaseException:
            os.close(descriptor)
            raise
        if current is not None and (current.st_dev, current.st_ino) == (held.st_dev, held.st_ino):
            return descriptor
        # The holder before removed this file on release: lock the one at the path now.
        os.close(descriptor)


if sys.platform == "win32":

    def _flocked(descriptor: int) -> bool:
        raise NotImplementedError("no flock on Windows")

else:
    import fcntl

    def _flocked(descriptor: int) -> bool:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True
