"""``course serve --record --upstream URL``: a recording proxy on 127.0.0.1 for any client.

Each request is forwarded to the upstream API with the caller's own key,
the answer streams back as it arrives, and the exchange is written,
redacted, into the cassette (``course_cassettes.proxy.RecordingProxy``);
each recorded stream is judged by its wire's grammar as it passes unless
``--no-strict`` (which the cassette then says). Once it listens, it prints
each SDK's base URL, as a replay does. ``course serve CASSETTE`` then
replays it.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from course_cli._listening import flush, listen_until_stopped
from course_cli._output import one_line, writer_for
from course_cli._sdks import sdk_banner_lines, upstream_sdk_base_urls
from course_cli._wires import registry_problem_lines

if TYPE_CHECKING:
    from course_cassettes.proxy import ProxiedCall

__all__ = ["run_record"]


def run_record(
    target: str, upstream: str, port: int, *, strict: bool, wire: str | None = None
) -> int:
    """Record to the cassette ``target`` through ``upstream`` until stopped.

    143 after SIGTERM, 2 when the port cannot be bound or the cassette's
    folder cannot be made; Ctrl-C reaches the caller as ``KeyboardInterrupt``
    once the cassette is written and the server stopped. ``wire`` (``--wire``)
    is kept as the wire of every call recorded.
    """
    # The server and client stacks load here, before the loop runs, as for a replay.
    from course_cassettes.proxy import RecordingProxy
    from course_http.loopback import LoopbackServer
    from course_vendor import stream_judge_for

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
        check=stream_judge_for,
        strict=strict,
        report=_reporter(out, err),
        wire=wire,
    )
    server = LoopbackServer(proxy, port=port)
    if strict:
        # Every plug-in loads here, before the loop runs; one that cannot is
        # named once, and the other wires still judge what they claim.
        err("".join(registry_problem_lines("serve")))
    # Found before the loop runs too: finding them loads the vendors' plug-ins.
    sdks = upstream_sdk_base_urls(upstream)

    def announce(base_url: str) -> None:
        out(
            f"course serve: {base_url} records to {one_line(target)} from "
            f"{one_line(upstream)} (Ctrl-C or SIGTERM stops it)\n"
            + sdk_banner_lines(base_url, sdks)
        )
        flush()

    # What arrived is written, even when Ctrl-C stopped the server.
    return listen_until_stopped(server, port, announce, err, closing=proxy.aclose)


def _reporter(
    out: Callable[[str], None], err: Callable[[str], None]
) -> Callable[[ProxiedCall], None]:
    def report(call: ProxiedCall) -> None:
        where = f"{call.method} {one_line(call.path)}"
        if call.code is None:
            out(f"{where}: recorded: {call.status}\n")
        else:
            err(f"{where}: {call.code.value}: {one_line(call.problem or '')}\n")
        flush()

    return report
