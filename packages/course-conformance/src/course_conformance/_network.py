"""Blocks the network while a model is exercised, and remembers every attempt.

This is the one module of the course packages that imports ``socket``: it
does so only to replace its entry points for the duration of a check (the
no-network import contract names this exception explicitly).
"""

from __future__ import annotations

import socket
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

# Name resolution and every way to get a connected or listening socket;
# urllib, http.client and asyncio's create_connection all go through these.
_BLOCKED_FUNCTIONS = (
    "create_connection",
    "create_server",
    "getaddrinfo",
    "gethostbyname",
    "gethostbyname_ex",
    "gethostbyaddr",
)


class NetworkAccessError(OSError):
    """Raised in place of a network operation while a conformance check runs."""


# Every open block's attempt list. The functions are replaced when the first
# block opens and restored when the last one closes, so blocks that overlap
# without nesting (two checks gathered on one loop) still restore the real
# functions, and an attempt made while several are open is recorded in each.
_open_blocks: list[list[str]] = []
_originals: dict[str, Any] = {}


@contextmanager
def blocked_network() -> Iterator[list[str]]:
    """Make sockets and name resolution raise ``NetworkAccessError`` inside the block.

    Yields the list the attempts are appended to (one line per attempt,
    naming the function and its arguments), so a model that catches the
    error is still caught. The original functions are restored when the
    last open block exits, whatever happens inside, and in whatever order
    overlapping blocks exit.
    """
    attempts: list[str] = []
    if not _open_blocks:
        _install()
    _open_blocks.append(attempts)
    try:
        yield attempts
    finally:
        for index, block in enumerate(_open_blocks):
            if block is attempts:
                del _open_blocks[index]
                break
        if not _open_blocks:
            _restore()


def _record(line: str) -> None:
    for block in _open_blocks:
        block.append(line)


def _install() -> None:
    _originals["socket"] = socket.socket
    for name in _BLOCKED_FUNCTIONS:
        _originals[name] = getattr(socket, name)

    class BlockedSocket(socket.socket):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            _record(_describe("socket.socket", args, kwargs))
            raise NetworkAccessError("socket.socket is blocked during a conformance check")

    def blocker(name: str) -> Callable[..., Any]:
        def blocked(*args: Any, **kwargs: Any) -> Any:
            _record(_describe(f"socket.{name}", args, kwargs))
            raise NetworkAccessError(f"socket.{name} is blocked during a conformance check")

        return blocked

    socket.socket = BlockedSocket  # type: ignore[misc]
    for name in _BLOCKED_FUNCTIONS:
        setattr(socket, name, blocker(name))


def _restore() -> None:
    socket.socket = _originals.pop("socket")  # type: ignore[misc]
    for name in _BLOCKED_FUNCTIONS:
        setattr(socket, name, _originals.pop(name))


def _describe(name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> str:
    parts = [repr(arg) for arg in args] + [f"{key}={value!r}" for key, value in kwargs.items()]
    return f"{name}({', '.join(parts)})"
