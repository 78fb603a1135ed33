"""Cassette files: strict reading (`load_cassette`), stable writing (`write_cassette`).

A cassette file is UTF-8 JSON, indented by two spaces, keys in the format's
order, non-ASCII characters as they are, one newline at the end: the same
cassette is always the same bytes, so a re-recording shows only what changed.
"""

from __future__ import annotations

import errno
import json
import os
import secrets
import stat
from pathlib import Path
from typing import Final

from returns.result import Failure, Result, Success

from course_cassettes._cassette import Cassette
from course_cassettes._cassette_json import cassette_to_json, parse_cassette, recording_invalid
from course_http import VendorError
from course_protocol.strict_json import loads_strict_json

__all__ = [
    "MAX_CASSETTE_BYTES",
    "dumps_cassette",
    "load_cassette",
    "loads_cassette",
    "read_cassette_file",
    "write_cassette",
]

MAX_CASSETTE_BYTES: Final = 64 * 1024 * 1024
"""The largest cassette file read (64 MiB): a bound on the memory one file may take.

Far above what a test's calls record (a long streamed answer is tens of
kilobytes; a request holding images, a few megabytes); a recording that
grows past it cannot be read back: split the test, or keep the large
inputs out of the recorded calls."""

# Opened without waiting: a named pipe with no writer would block the open
# itself, before anything could tell it from a file. No controlling
# terminal either, whatever device the path names.
_READ_FLAGS: Final = (
    os.O_RDONLY
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_NOCTTY", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_BINARY", 0)
)
_READ_SIZE: Final = 1024 * 1024


def _invalid(message: str) -> Failure[VendorError]:
    return Failure(recording_invalid(message))


def loads_cassette(text: bytes | str) -> Result[Cassette, VendorError]:
    """The `Cassette` held by the JSON ``text`` (bytes must be UTF-8).

    Strict JSON: duplicate keys, ``NaN``/``Infinity``, overflowing numbers,
    nesting too deep to parse and invalid UTF-8 fail, as does anything
    `parse_cassette` refuses. Returns ``Failure`` with
    ``HTTP_RECORDING_INVALID``; never raises.
    """
    return loads_strict_json(text).alt(recording_invalid).bind(parse_cassette)


def load_cassette(path: str | os.PathLike[str]) -> Result[Cassette, VendorError]:
    """The `Cassette` in the file at ``path``.

    Returns ``Failure`` with ``HTTP_RECORDING_INVALID`` when the file cannot
    be read (`read_cassette_file`: the message says why and names the file)
    or is not a valid cassette (see `loads_cassette`; the message names the
    file, then the problem's path). Never raises, and never waits on a
    file that does not end: only a regular file of at most
    `MAX_CASSETTE_BYTES` is read.
    """
    name = _file_name(path)[0]
    return read_cassette_file(path).bind(
        lambda data: loads_cassette(data).alt(
            lambda error: VendorError(error.code, f"{name}: {error.message}", vendor=error.vendor)
        )
    )


def read_cassette_file(path: str | os.PathLike[str]) -> Result[bytes, VendorError]:
    """The bytes of the cassette file at ``path``, as `load_cassette` reads them.

    Only a regular file (a link to one is followed) of at most
    `MAX_CASSETTE_BYTES` bytes is read: a named pipe, a device (a link to
    ``/dev/zero``), a socket or a folder is refused at once, as is a larger
    file, so a file that never ends can neither hang the read nor fill the
    memory. The file is opened without waiting (a pipe with no writer does
    not block) and judged by what was opened, so a file swapped between a
    check and the read cannot slip past. Returns ``Failure`` with
    ``HTTP_RECORDING_INVALID``, its message naming the file and why it
    cannot be read (a ``path`` no file can have, one holding a NUL
    character or a lone surrogate or not a path at all, is one such).
    Never raises.
    """
    name, unusable = _file_name(path)
    if unusable is not None:
        return _invalid(f"{name}: cannot be read: {unusable}")
    try:
        descriptor = os.open(name, _READ_FLAGS)
    except OSError as error:
        return _invalid(f"{name}: cannot be read: {error.strerror or error}")
    try:
        data = _bounded_read(descriptor)
    except OSError as error:
        return _invalid(f"{name}: cannot be read: {error.strerror or error}")
    finally:
        os.close(descriptor)
    if isinstance(data, str):
        return _invalid(f"{name}: cannot be read: {data}")
    return Success(data)


def _bounded_read(descriptor: int) -> bytes | str:
    """What the open ``descriptor`` holds, or why it is not read (not a regular file, too large)."""
    status = os.fstat(descriptor)
    kind = _not_regular(status.st_mode)
    if kind is not None:
        return f"is not a regular file ({kind})"
    too_large = f"is larger than MAX_CASSETTE_BYTES ({MAX_CASSETTE_BYTES} bytes)"
    if status.st_size > MAX_CASSETTE_BYTES:
        return too_large
    parts: list[bytes] = []
    # At most one byte past the bound: a file still growing stops there.
    left = MAX_CASSETTE_BYTES + 1
    while left > 0 and (part := os.read(descriptor, min(left, _READ_SIZE))):
        parts.append(part)
        left -= len(part)
    if left <= 0:
        return too_large
    return b"".join(parts)


def _not_regular(mode: int) -> str | None:
    """What a file of ``mode`` is when it is not a regular file; ``None`` when it is."""
    if stat.S_ISREG(mode):
        return None
    kinds = (
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISFIFO, "a named pipe"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    )
    return next((kind for test, kind in kinds if test(mode)), "not a file")


def _file_name(path: str | os.PathLike[str]) -> tuple[str, str | None]:
    """``path`` as a str to show, and why no file can be there (``None``: it may be)."""
    # The os functions raise ValueError (not OSError) for these, and a lone
    # surrogate only when the name is encoded; both entry points say "cannot
    # be read/written" instead, as for any other path with no file.
    try:
        name = os.fsdecode(path)
    except TypeError:
        return "<not a path>", f"a path is a str or os.PathLike, not {type(path).__name__}"
    shown = name if name.isprintable() else ascii(name)
    if "\0" in name:
        return shown, "the path holds a NUL character"
    try:
        os.fsencode(name)
    except UnicodeEncodeError:
        return shown, "the path cannot be encoded for the file system"
    return name, None


def dumps_cassette(cassette: Cassette) -> str:
    """``cassette`` as the text of its file (ending with one newline)."""
    document = cassette_to_json(cassette)
    try:
        text = json.dumps(document, indent=2, ensure_ascii=False, allow_nan=False)
        text.encode("utf-8")
    except UnicodeEncodeError:
        # A lone surrogate in a request body cannot be UTF-8: escape it, as
        # the request itself was sent.
        text = json.dumps(document, indent=2, ensure_ascii=True, allow_nan=False)
    return text + "\n"


def write_cassette(path: str | os.PathLike[str], cassette: Cassette) -> None:
    """Write ``cassette`` to ``path`` at once: the file is the old one or the new one, never half.

    Creates the missing parent folders. A new file gets the permissions any
    new file gets (``0o666`` less the process's umask); a file rewritten
    keeps its own. Raises ``OSError`` when the file cannot be written
    (``errno.EINVAL`` for a ``path`` no file can have: one holding a NUL
    character or a lone surrogate, or not a path at all).
    """
    name, unusable = _file_name(path)
    if unusable is not None:
        raise OSError(errno.EINVAL, f"cannot be written: {unusable}", name)
    target = Path(name)
    target.parent.mkdir(parents=True, exist_ok=True)
    data = dumps_cassette(cassette).encode("utf-8")
    try:
        kept_mode: int | None = stat.S_IMODE(target.stat().st_mode)
    except FileNotFoundError:
        kept_mode = None
    descriptor, temporary = _create_temporary(target)
    try:
        with os.fdopen(descriptor, "wb") as file:
            file.write(data)
        if kept_mode is not None:
            os.chmod(temporary, kept_mode)
        os.replace(temporary, target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def _create_temporary(target: Path) -> tuple[int, Path]:
    # Not tempfile.mkstemp: it creates the file 0o600 whatever the umask, and
    # a cassette is meant to be committed and shared like any file the user
    # writes. os.open lets the umask decide, as open() would.
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    while True:
        temporary = target.with_name(f".{target.name}.{secrets.token_hex(8)}.tmp")
        try:
            return os.open(temporary, flags, 0o666), temporary
        except FileExistsError:
            continue
