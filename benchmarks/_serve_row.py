"""The ``course serve`` rows: events per second a real server on 127.0.0.1 delivers to an SDK.

For each API, one cassette holds the same ``text`` body of ``events``
deltas once per pass; a ``course serve`` child process (``python -m
course_cli serve``, any free port, each body written whole) answers them in
order. In each round the API's official SDK reads the body twice, side by
side in an order that alternates: once from the server over loopback, once
from the same bytes in-process (the raw ``create(stream=True)`` rows of
``benchmarks.vendor_peers``). The row's ratio is loopback time over
in-process time, so what the server and the socket add is what is above
1.0x. The server is stopped (SIGINT, then killed) whatever happens, and
every wait is bounded.
"""

from __future__ import annotations

import asyncio
import select
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from frozendict import frozendict

from benchmarks._children import ROOT, child_environment
from benchmarks._gemini_bodies import GEMINI_MODEL
from benchmarks._timing import AsyncRun, Prepare, Spread, per_round_ratios
from benchmarks._vendor_bodies import APIS, Api, VendorBody, vendor_body
from benchmarks.peers import PeerNotInstalledError
from benchmarks.report import Row
from benchmarks.vendor_peers import SDK_RAW
from course_cassettes import Cassette, CassetteCall, RequestMatching, write_cassette
from course_http import RecordedRequest, RecordedResponse
from course_protocol import freeze_json_object

__all__ = ["SERVED", "ServeBudget", "serve_rows"]

GROUP = "vendors"
START_SECONDS = 30.0
"""The longest the server may take to print its base URL."""
PASS_SECONDS = 120.0
"""The longest one SDK pass may take; only a hang reaches it."""
_PATHS: dict[Api, str] = {
    "anthropic-messages": "/v1/messages",
    "openai-chat": "/v1/chat/completions",
    "openai-responses": "/v1/responses",
    "gemini": f"/v1beta/models/{GEMINI_MODEL}:streamGenerateContent?alt=sse",
}
SERVED: frozenset[Api] = frozenset(_PATHS)
"""The wires a ``course serve`` row is measured for: those with an SDK of their own."""
_AGAINST = "same SDK reading the bytes in-process"
_SSE = frozendict({"content-type": "text/event-stream; charset=utf-8"})


@dataclass(frozen=True)
class ServeBudget:
    """How many text deltas each body streams, and the rounds (each one pass per side)."""

    events: int
    rounds: int
    warmup: int


def _cassette(api: Api, body: VendorBody, calls: int) -> Cassette:
    request = RecordedRequest("POST", _PATHS[api], freeze_json_object({}).unwrap(), frozendict())
    response = RecordedResponse(200, _SSE, body.body)
    # Matched by order: the SDK's request body is not what is compared here.
    return Cassette([CassetteCall(request, response)] * calls, matching=RequestMatching("order"))


def _first_line(process: subprocess.Popen[str]) -> str:
    assert process.stdout is not None
    ready, _, _ = select.select([process.stdout], [], [], START_SECONDS)
    if not ready:
        raise RuntimeError(f"course serve printed nothing in {START_SECONDS:.0f} s")
    return process.stdout.readline()


@contextmanager
def _serving(folder: Path) -> Iterator[str]:
    """``course serve FOLDER`` running in a child process; yields its base URL."""
    process = subprocess.Popen(
        [sys.executable, "-m", "course_cli", "serve", str(folder)],
        cwd=ROOT,
        env=child_environment(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        first = _first_line(process)
        if not first.startswith("course serve: http://127.0.0.1:"):
            raise RuntimeError(f"course serve did not start: {first!r}")
        yield first.split()[2]
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
        try:
            process.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.communicate(timeout=10)


async def _timed(run: AsyncRun) -> float:
    started = time.perf_counter()
    async with asyncio.timeout(PASS_SECONDS):
        await run()
    return time.perf_counter() - started


async def _side_by_side(
    loopback: Prepare, in_process: Prepare, rounds: int, warmup: int
) -> tuple[list[float], list[float]]:
    """One pass per side per round, the order alternating; warm-up rounds dropped."""
    over_loopback: list[float] = []
    local: list[float] = []
    for round_index in range(warmup + rounds):
        remote, inside = loopback(), in_process()
        if round_index % 2:
            inside_seconds = await _timed(inside)
            remote_seconds = await _timed(remote)
        else:
            remote_seconds = await _timed(remote)
            inside_seconds = await _timed(inside)
        if round_index >= warmup:
            over_loopback.append(remote_seconds)
            local.append(inside_seconds)
    return over_loopback, local


def _title(api: Api) -> str:
    return f"{api} text: course serve -> official SDK over loopback (events/s)"


def _row(api: Api, body: VendorBody, loopback: list[float], local: list[float]) -> Row:
    remote_rate = body.events / statistics.median(loopback)
    local_rate = body.events / statistics.median(local)
    measured = (
        f"{remote_rate:,.0f} events/s over loopback; {local_rate:,.0f} events/s in-process "
        f"(N={body.deltas:,})"
    )
    figures = {"events_per_second": remote_rate, "in_process_events_per_second": local_rate}
    ratio = Spread.of(per_round_ratios(loopback, local))
    return Row(GROUP, _title(api), _AGAINST, ratio, measured, figures=figures)


def serve_rows(budget: ServeBudget, apis: tuple[Api, ...] = APIS) -> list[Row]:
    """One row per API of ``apis`` that has an SDK of its own (`SERVED`): that SDK reading
    from ``course serve`` against in-process.

    A compatible server's dialect or Azure's has none: its SDK is OpenAI's, whose
    row of the base wire measures the same server, and ``course serve`` judges a
    recording by its path, which tells a dialect from OpenAI's only under the
    dialect's own base path.
    """
    calls = budget.warmup + budget.rounds
    bodies: dict[Api, VendorBody] = {}
    rows: dict[Api, Row] = {}
    served = tuple(api for api in apis if api in SERVED)
    for api in served:
        body = vendor_body(api, "text", budget.events)
        try:
            SDK_RAW[api](body, None)
        except PeerNotInstalledError as error:
            rows[api] = Row.unavailable(GROUP, _title(api), _AGAINST, str(error))
            continue
        bodies[api] = body
    if bodies:
        with tempfile.TemporaryDirectory(prefix="course-serve-bench-") as folder:
            for api, body in bodies.items():
                write_cassette(Path(folder) / f"{api}.json", _cassette(api, body, calls))
            with _serving(Path(folder)) as base_url:
                for api, body in bodies.items():
                    remote, inside = SDK_RAW[api](body, base_url), SDK_RAW[api](body, None)
                    loopback, local = asyncio.run(
                        _side_by_side(remote, inside, budget.rounds, budget.warmup), debug=False
                    )
                    rows[api] = _row(api, body, loopback, local)
    return [rows[api] for api in served]
