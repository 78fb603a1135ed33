"""``course serve --record --upstream URL``: a recording proxy on 127.0.0.1 for any client.

Each request is forwarded to the upstream API with the caller's own key,
the answer streams back as it arrives, and the exchange is written,
redacted, into the cassette (``course_cassettes.proxy.RecordingProxy``);
each recorded stream is checked by its vendor's strict parser unless
``--no-strict``. ``course serve CASSETTE`` then replays it.
"""

from __future__ import annotations

import asyncio
import errno
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from course_cli._output import one_line, writer_for

if TYPE_CHECKING:
    from course_cassettes.proxy import ProxiedCall, RecordingProxy
    from course_http.loopback import LoopbackServer

__all__ = ["run_record"]

_TERMINATED = 128 + signal.SIGTERM


def run_record(target: str, upstream: str, port: int, *, strict: bool) -> int:
    """Record to the cassette ``target`` through ``upstream`` until stopped.

    143 after SIGTERM, 2 when the port cannot be bound or the cassette's
    folder cannot be made; Ctrl-C reaches the caller as ``KeyboardInterrupt``
    once the cassette is written and the server stopped.
    """
    # The server and client stacks load here, before the loop runs, as for a replay.
    from course_cassettes.proxy import RecordingProxy
    from course_http.loopback import LoopbackServer
    from course_vendor import recorded_stream_problem

    out = writer_for(sys.stdout)
    err = writer_for(sys.stderr)
    path = Path(target)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        err(f"course serve: error: {path.parent}: cannot be made ({error.strerror})\n")
        return 2
    proxy = RecordingProxy(
        upstream,
        path,
        check=recorded_stream_problem if strict else None,
        report=_reporter(out, err),
    )
    server = LoopbackServer(proxy, port=port)

    def announce(base_url: str) -> None:
        out(
            f"course serve: {base_url} records to {one_line(target)} from "
            f"{one_line(upstream)} (Ctrl-C or SIGTERM stops it)\n"
        )
        _flush()

    try:
        asyncio.run(_recording(server, proxy, announce))
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            err(
                f"course serve: error: port {port} on 127.0.0.1 is already in use; "
                "choose another with --port\n"
            )
        else:
            err(f"course serve: error: cannot listen on 127.0.0.1:{port}: {error.strerror}\n")
        _flush()
        return 2
    _flush()
    err("course serve: terminated\n")
    return _TERMINATED


async def _recording(
    server: LoopbackServer, proxy: RecordingProxy, announce: Callable[[str], None]
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
        # What arrived is written, even when Ctrl-C stopped the server.
        await proxy.aclose()


def _reporter(
    out: Callable[[str], None], err: Callable[[str], None]
) -> Callable[[ProxiedCall], None]:
    def report(call: ProxiedCall) -> None:
        where = f"{call.method} {one_line(call.path)}"
        if call.code is None:
            out(f"{where}: recorded: {call.status}\n")
        else:
            err(f"{where}: {call.code.value}: {one_line(call.problem or '')}\n")
        _flush()

    return report


def _flush() -> None:
    sys.stdout.flush()
    sys.stderr.flush()
