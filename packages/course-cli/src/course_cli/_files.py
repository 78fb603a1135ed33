"""Which paths the command reads: ``replay``'s arguments, and the files ``check`` and
``convert-vcr`` find under a folder."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Sequence
from pathlib import Path

__all__ = [
    "UNREADABLE_CODE",
    "files_under",
    "is_body_file",
    "is_json_file",
    "is_yaml_file",
    "unreadable_reason",
]

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


def is_json_file(path: Path) -> bool:
    """A ``*.json`` file: a course fixture or cassette."""
    return path.suffix == ".json"


def is_body_file(path: Path) -> bool:
    """Any file but a ``*.json`` one: a recorded body (a ``.json`` file beside them is an
    error body or a request)."""
    return not is_json_file(path)


def is_yaml_file(path: Path) -> bool:
    """A ``*.yaml`` or ``*.yml`` file: a VCR.py cassette."""
    return path.suffix in (".yaml", ".yml")


def files_under(paths: Sequence[str], kept: Callable[[Path], bool]) -> list[str]:
    """``paths`` with each folder replaced by the files under it that ``kept`` says are read.

    A folder gives its regular files at any depth, in name order, hidden
    ones (a name starting with ``.``) left out, as ``serve`` reads one: those
    ``kept`` takes (`is_json_file`, `is_body_file`, `is_yaml_file`). A folder
    that holds none stays as it is, so the command reports it. Files named on
    the command line are kept whatever their name.
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
            and kept(entry)
            and entry.is_file()
        ]
        expanded.extend(found or [path])
    return expanded
