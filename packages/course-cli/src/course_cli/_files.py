"""Which paths the command can read at all: one answer for ``replay``'s arguments and ``check``."""

from __future__ import annotations

import os
import stat

__all__ = ["UNREADABLE_CODE", "unreadable_reason"]

UNREADABLE_CODE = "FILE_UNREADABLE"
"""The code of a ``check`` problem line for a path that could not be read at all."""


def unreadable_reason(path: str) -> str | None:
    """Why ``path`` cannot be read as a fixture file, or ``None`` when it can."""
    try:
        status = os.stat(path)
    except FileNotFoundError:
        return "no such file"
    except OSError as error:
        return f"cannot be read ({error.strerror or error})"
    if stat.S_ISDIR(status.st_mode):
        return "is a directory, not a fixture file"
    if not stat.S_ISREG(status.st_mode):
        return "is not a regular file"
    try:
        descriptor = os.open(path, os.O_RDONLY)
    except OSError as error:
        return f"cannot be read ({error.strerror or error})"
    os.close(descriptor)
    return None
