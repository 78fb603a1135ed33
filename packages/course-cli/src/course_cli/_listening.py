"""How ``course serve`` runs a loopback server: until SIGTERM or Ctrl-C, with one exit status.

Replaying and recording differ in what the server answers and what it says
once it listens; binding the port, the signal, the errors and the exit
status are the same, and live here once.
"""

from __future__ import annotations

import asyncio
import errno
import signal
import sys
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from course_http.loopback import LoopbackServer

__all__ = ["TERMINATED", "flush", "listen_until_stopped"]

TERMINATED = 128 + signal.SIGTERM
"""The exit status after SIGTERM, as a shell reports a process the signal ended."""


def listen_until_stopped(
    server: LoopbackServer,
    port: int,
    announce: Callable[[str], None],
    err: Callable[[str], None],
    *,
    closing: Callable[[], Awaitable[None]] | None = None,
) -> int:
    """Run ``server`` on ``port`` until SIGTERM (143) or Ctrl-C; 2 when the port cannot be bound.

    ``announce`` gets the base URL once the server listens; ``closing``, if
    given, runs after the server stopped, however it stopped. Ctrl-C reaches
    the caller as ``KeyboardInterrupt`` (``asyncio.run`` cancels the wait),
    after ``closing``.
    """
    try:
        asyncio.run(_until_terminated(server, announce, closing))
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            err(
                f"course serve: error: port {port} on 127.0.0.1 is already in use; "
                "choose another with --port\n"
            )
        else:
            err(f"course serve: error: cannot listen on 127.0.0.1:{port}: {error.strerror}\n")
        flush()
        return 2
    flush()
    err("course serve: terminated\n")
    return TERMINATED


async def _until_terminated(
    server: LoopbackServer,
    announce: Callable[[str], None],
    closing: Callable[[], Awaitable[None]] | None,
) -> None:
    loop = asyncio.get_running_loop()
    terminated = asyncio.Event()
    loop.add_signal_handler(signal.SIGTERM, terminated.set)
    try:
        async with server:
            announce(server.base_url)
            await terminated.wait()
    finally:
        loop.remove_signal_handler(signal.SIGTERM)
        if closing is not None:
            await closing()


def flush() -> None:
    """Flush both standard streams: a line is seen when it is said, even through a pipe."""
    sys.stdout.flush()
    sys.stderr.flush()
