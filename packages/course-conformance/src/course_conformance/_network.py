"""Blocks the network while a model is exercised, and remembers every attempt.

An audit hook (``sys.addaudithook``), not patched module attributes: CPython
raises the ``socket.*`` audit events from inside the socket module's C code,
so a model that took ``from socket import socket`` or ``create_connection``
before the check, or that reaches a socket through any library, is still
seen. The hook is installed once per process (audit hooks cannot be removed)
and does nothing unless a block is open.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from course_conformance._invariants import Invariant
from course_protocol import CourseError

__all__ = ["NetworkAccessError", "blocked_network"]

# Every way a socket reaches another host: name resolution, connecting,
# binding a listener, and datagrams sent without a connection.
_BLOCKED_EVENTS = frozenset(
    {
        "socket.connect",
        "socket.bind",
        "socket.sendto",
        "socket.sendmsg",
        "socket.getaddrinfo",
        "socket.getnameinfo",
        "socket.gethostbyname",
        "socket.gethostbyaddr",
    }
)


class NetworkAccessError(CourseError, OSError):
    """Raised in place of a network operation while a conformance check runs.

    Its ``code`` is ``Invariant.NO_NETWORK``; it is an ``OSError`` too, so a
    library under the model handles it as the connection failure it stands for.
    """

    def __init__(self, message: str) -> None:
        super().__init__(Invariant.NO_NETWORK, message)

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.message,))


# Every open block's attempt list, so blocks that overlap without nesting (two
# checks gathered on one loop) each record an attempt made while they are open.
_open_blocks: list[list[str]] = []
_hook_installed = False


@contextmanager
def blocked_network() -> Iterator[list[str]]:
    """Make socket connections and name lookups raise ``NetworkAccessError`` inside the block.

    Yields the list the attempts are appended to (one line per attempt,
    naming the audit event and its arguments), so a model that catches the
    error is still caught. Covers sockets created or imported before the
    block; blocks in any thread while open (the audit hook is process-wide).
    Nothing is patched, so nothing needs restoring: leaving the last open
    block, in whatever order overlapping blocks exit, lets sockets work again.
    """
    _install_hook_once()
    attempts: list[str] = []
    _open_blocks.append(attempts)
    try:
        yield attempts
    finally:
        for index, block in enumerate(_open_blocks):
            if block is attempts:
                del _open_blocks[index]
                break


def _install_hook_once() -> None:
    global _hook_installed
    if not _hook_installed:
        sys.addaudithook(_audit)
        _hook_installed = True


def _audit(event: str, arguments: tuple[Any, ...]) -> None:
    # Runs for every audit event of the process; the common case returns at once.
    if not _open_blocks or event not in _BLOCKED_EVENTS:
        return
    line = _describe(event, arguments)
    for block in _open_blocks:
        block.append(line)
    raise NetworkAccessError(f"{event} is blocked during a conformance check")


def _describe(event: str, arguments: tuple[Any, ...]) -> str:
    # The first argument of the connect/bind/send events is the socket object;
    # its address arguments are what identify the attempt.
    shown = (
        arguments[1:] if event in ("socket.connect", "socket.bind", "socket.sendto") else arguments
    )
    parts = []
    for argument in shown:
        try:
            parts.append(repr(argument))
        except Exception:
            parts.append(f"<{type(argument).__name__}>")
    return f"{event}({', '.join(parts)})"
