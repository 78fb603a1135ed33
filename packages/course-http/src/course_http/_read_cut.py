"""A sync read that waits on a silent socket, ended at a deadline: `ReadCut`.

A sync httpx2 read blocked on a socket waits for the socket (up to the
read timeout the request started with), not for whoever wants it done
sooner: shutting the socket down ends that wait at once.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from typing import final

import httpx2

__all__ = ["ReadCut"]


@final
class ReadCut:
    """Shuts ``response``'s socket down once ``seconds`` pass, unless `disarm` comes first.

    A read of the response's body still waiting then fails at once (the
    connection closed under it); `fired` says whether the cut came. Only
    an HTTP/1 response's own socket is cut, found through httpcore's
    ``network_stream`` extension (the default httpx2 transports give it):
    an HTTP/2 connection carries other exchanges, and a response with no
    socket (an ``httpx2.MockTransport``'s) is never cut. The deadline runs
    on a timer thread, gone once `disarm` returns. Raises nothing.
    """

    __slots__ = ("_armed", "_lock", "_socket", "_timer", "fired")

    def __init__(self, response: httpx2.Response, seconds: float) -> None:
        self.fired = False
        self._lock = threading.Lock()
        self._armed = True
        self._socket = _socket_of(response)
        self._timer: threading.Timer | None = None
        if self._socket is not None:
            self._timer = threading.Timer(seconds, self._cut)
            self._timer.name = "course-read-cut"
            self._timer.daemon = True
            self._timer.start()

    def _cut(self) -> None:
        with self._lock:
            if not self._armed or self._socket is None:
                return
            self.fired = True
            # The plain socket's shutdown, under a TLS one too: it wakes the
            # blocked read without touching the TLS object the read is in.
            with contextlib.suppress(OSError):
                socket.socket.shutdown(self._socket, socket.SHUT_RDWR)

    def disarm(self) -> None:
        """No cut from now on; the timer's thread is gone when this returns."""
        with self._lock:
            self._armed = False
        if self._timer is not None:
            self._timer.cancel()
            self._timer.join()


def _socket_of(response: httpx2.Response) -> socket.socket | None:
    if response.extensions.get("http_version") not in (b"HTTP/1.1", b"HTTP/1.0"):
        return None
    get_extra_info = getattr(response.extensions.get("network_stream"), "get_extra_info", None)
    if get_extra_info is None:
        return None
    found = get_extra_info("socket")
    return found if isinstance(found, socket.socket) else None
