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


@contextmanager
def blocked_network() -> Iterator[list[str]]:
    """Make sockets and name resolution raise ``NetworkAccessError`` inside the block.

    Yields the list the attempts are appended to (one line per attempt,
    naming the function and its arguments), so a model that catches the
    error is still caught. The original functions are restored on exit,
    whatever happens inside the block.
    """
    attempts: list[str] = []
    original_socket = socket.socket
    originals = {name: getattr(socket, name) for name in _BLOCKED_FUNCTIONS}

    class BlockedSocket(socket.socket):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            attempts.append(_describe("socket.socket", args, kwargs))
            raise NetworkAccessError("socket.socket is blocked during a conformance check")

    def blocker(name: str) -> Callable[..., Any]:
        def blocked(*args: Any, **kwargs: Any) -> Any:
            attempts.append(_describe(f"socket.{name}", args, kwargs))
            raise NetworkAccessError(f"socket.{name} is blocked during a conformance check")

        return blocked

    socket.socket = BlockedSocket  # type: ignore[misc]
    for name in _BLOCKED_FUNCTIONS:
        setattr(socket, name, blocker(name))
    try:
        yield attempts
    finally:
        socket.socket = original_socket  # type: ignore[misc]
        for name, function in originals.items():
            setattr(socket, name, function)


def _describe(name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> str:
    parts = [repr(arg) for arg in args] + [f"{key}={value!r}" for key, value in kwargs.items()]
    return f"{name}({', '.join(parts)})"
