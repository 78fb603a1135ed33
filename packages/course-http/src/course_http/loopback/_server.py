"""Running a loopback server: uvicorn on 127.0.0.1, a free port, inside the caller's event loop."""

from __future__ import annotations

import asyncio
import logging
import math
import socket
from collections.abc import Sequence
from types import TracebackType
from typing import Self, final

import uvicorn

# What uvicorn would import when a server starts, imported with this module
# instead: a start inside a running event loop then imports nothing.
from uvicorn.lifespan.off import LifespanOff
from uvicorn.protocols.http.h11_impl import H11Protocol

from course_http._log_masking import mask_query_credentials
from course_http._recorded import RecordedResponse
from course_http.loopback._app import LoopbackApp
from course_http.loopback._script import (
    LoopbackEnd,
    LoopbackRequest,
    LoopbackResponse,
    Responder,
    in_order,
)

__all__ = ["LoopbackServer"]

# What uvicorn logs when an application returns before its response is
# complete: here that is always on purpose (a fault, a stall ended by stop).
_DELIBERATE_CLOSE = "ASGI callable returned without completing response."


# uvicorn's access log shows each request's target, query included: a key
# sent there (``?key=``, as clients of some vendors send it) is masked.
mask_query_credentials("uvicorn.access")


class _DeliberateCloses(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return record.msg != _DELIBERATE_CLOSE


@final
class LoopbackServer:
    """A real HTTP server on 127.0.0.1 for tests of the live path, run in the caller's event loop.

    ``async with LoopbackServer(responses) as server:`` binds a free port
    (`base_url`), serves ``responses`` one per request in order (or asks a
    `Responder` callable what to serve), and records what it receives
    (`requests`, and `wait_ended` to learn how each exchange ended). A
    request with nothing scripted gets a 500 that says so.

    Leaving the block stops it within ``stop_timeout`` seconds, whatever its
    clients do: stalled and paused responses end with their connection
    closed, idle keep-alive connections are closed, and no task, socket or
    warning is left behind. ``port`` 0 (the default) takes a free port;
    another is bound as given (``OSError`` with ``errno.EADDRINUSE`` when
    something listens there). Raises ``ValueError`` for a ``stop_timeout``
    that is not a positive finite number or a ``port`` outside 0 to 65535;
    ``OSError`` if the port cannot be bound.
    """

    def __init__(
        self,
        responses: Sequence[LoopbackResponse | RecordedResponse] | Responder,
        *,
        stop_timeout: float = 5.0,
        port: int = 0,
    ) -> None:
        if type(stop_timeout) not in (int, float) or not (
            math.isfinite(stop_timeout) and stop_timeout > 0
        ):
            raise ValueError("stop_timeout must be a positive finite number of seconds")
        if type(port) is not int or not 0 <= port <= 65535:
            raise ValueError("port must be an int from 0 (any free port) to 65535")
        self._port = port
        responder = responses if callable(responses) else in_order(responses)
        self._app = LoopbackApp(responder)
        self._stop_timeout = float(stop_timeout)
        self._socket: socket.socket | None = None
        self._server: uvicorn.Server | None = None
        self._filter = _DeliberateCloses()
        self._base_url: str | None = None

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:<port>``; raises ``RuntimeError`` before the server has started."""
        if self._base_url is None:
            raise RuntimeError("the loopback server has not started")
        return self._base_url

    @property
    def requests(self) -> tuple[LoopbackRequest, ...]:
        """Every request received so far, in order of arrival (kept after the server stops)."""
        return self._app.requests

    async def wait_ended(self, index: int) -> LoopbackEnd:
        """Wait until request ``index`` (0-based) has arrived and its exchange has ended.

        Returns how it ended (`LoopbackEnd`). Unbounded by itself: wrap it in
        ``asyncio.timeout``.
        """
        return await self._app.wait_ended(index)

    async def __aenter__(self) -> Self:
        if self._server is not None:
            raise RuntimeError("a LoopbackServer starts once")
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            # A port left in TIME_WAIT by the last run is free to use again;
            # one something listens on still fails to bind.
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            listener.bind(("127.0.0.1", self._port))
            port = listener.getsockname()[1]
            config = uvicorn.Config(
                self._app,
                host="127.0.0.1",
                port=port,
                http=H11Protocol,
                ws="none",
                lifespan="off",
                interface="asgi3",
                log_config=None,
                proxy_headers=False,
                server_header=False,
                date_header=False,
                timeout_graceful_shutdown=max(1, math.ceil(self._stop_timeout / 2)),
            )
            config.load()
            server = uvicorn.Server(config)
            server.lifespan = LifespanOff(config)
            logging.getLogger("uvicorn.error").addFilter(self._filter)
            await server.startup(sockets=[listener])
        except BaseException:
            logging.getLogger("uvicorn.error").removeFilter(self._filter)
            listener.close()
            raise
        self._socket = listener
        self._server = server
        self._base_url = f"http://127.0.0.1:{port}"
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.stop()

    async def stop(self) -> None:
        """Stop serving and close every connection; calling it again does nothing."""
        server, listener = self._server, self._socket
        if server is None or listener is None:
            return
        self._socket = None
        self._app.stop()
        try:
            async with asyncio.timeout(self._stop_timeout):
                await server.shutdown(sockets=[listener])
        finally:
            listener.close()
            logging.getLogger("uvicorn.error").removeFilter(self._filter)

    def __repr__(self) -> str:
        where = self._base_url or "not started"
        return f"LoopbackServer({where}, {len(self.requests)} requests)"
