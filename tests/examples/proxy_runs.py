"""One run of a recording-proxy example: a loopback "real API", the script, its output, bounded."""

from __future__ import annotations

import asyncio
import sys
from dataclasses import dataclass
from pathlib import Path

from course_http.loopback import LoopbackRequest, LoopbackServer
from tests.children import child_env
from tests.course_cli.test_serve_record import KEY, upstream_answer

RUN_SECONDS = 120


@dataclass(frozen=True)
class ProxyRun:
    """What one run of an example showed: its status and output, and what the upstream received."""

    returncode: int | None
    out: bytes
    err: bytes
    received: list[LoopbackRequest]


async def run_example(*command: str, cassette: Path) -> ProxyRun:
    """Run ``command UPSTREAM CASSETTE`` as a user would, with the test key in the environment.

    The upstream is a loopback server of the test answering the Messages
    stream; ``course serve`` is the workspace's. Killed after `RUN_SECONDS`
    (the timeout then propagates).
    """
    async with LoopbackServer(upstream_answer) as upstream:
        process = await asyncio.create_subprocess_exec(
            *command,
            upstream.base_url,
            str(cassette),
            cwd=cassette.parent,
            env=child_env({"ANTHROPIC_API_KEY": KEY, "COURSE": f"{sys.executable} -m course_cli"}),
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        try:
            async with asyncio.timeout(RUN_SECONDS):
                out, err = await process.communicate()
        finally:
            if process.returncode is None:
                process.kill()
                await process.wait()
        return ProxyRun(process.returncode, out, err, list(upstream.requests))
