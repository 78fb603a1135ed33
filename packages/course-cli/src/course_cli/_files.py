"""Which paths the command can read at all: one answer for ``replay``'s arguments and ``check``."""

from __future__ import annotations

import os
import stat
from collections.abc import Sequence
from pathlib import Path

__all__ = ["UNREADABLE_CODE", "files_under", "unreadable_reason"]

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


def files_under(paths: Sequence[str], *, streams: bool) -> list[str]:
    """``paths`` with each folder replaced by the files ``check`` reads under it, as ``serve`` does.

    A folder gives its regular files at any depth, in name order, hidden
    ones (a name starting with ``.``) left out: its ``*.json`` files (course
    fixtures and cassettes), or, with ``streams``, every file but those
    (recorded bodies: a ``.json`` file beside them is an error body or a
    request). A folder that holds none stays as it is, so ``check``
    reports it. Files named on the command line are kept whatever their name.
    """
    expanded: list[str] = []
    for path in paths:
        root = Path(path)
        if not root.is_dir():
            expanded.append(path)
            continue
        found = [
            str(entry)
            for entry in sorted(root.rglob("*"))
            if not any(part.startswith(".") for part in entry.relative_to(root).parts)
            and (entry.suffix != ".json") is streams
            and entry.is_file()
        ]
        expanded.extend(found or [path])
    return expanded
