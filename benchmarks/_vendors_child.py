"""Peak-memory measurements of our adapter in a fresh interpreter, the consumer keeping up.

``python -m benchmarks._vendors_child --api API --shape SHAPE --deltas N [N ...]``
prints one JSON object holding, for each ``N`` (as a string), the bytes the
measured call allocated at its peak beyond what was allocated when it
started, and the bytes its final message holds. The sizes are measured one
after another in the same interpreter, after one warm-up call, each from a
collected heap: one interpreter per wire and shape, not per size, keeps the
smoke run's start-up cost down as the wires grow. The body is built before
the measurement starts, as a server holds what it sends, so that building it
is not counted against the reader (a Responses body's last events repeat the
whole text several times over); it is then served in chunks of 16 KiB, one
chunk per event-loop step, as a socket delivers them, and every chunk is
consumed and dropped as it arrives.

The peak is ``tracemalloc``'s, not the resident size the scaling children
read (``VmHWM``): building the body leaves freed memory in the process that
the reader then reuses without the resident size growing, which would hide
exactly what this child is for.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import sys
import tracemalloc
from collections.abc import Iterator
from typing import get_args

from benchmarks._inprocess import InProcessTransport
from benchmarks._vendor_bodies import APIS, Api, Shape, body_frames
from benchmarks._vendor_ours import bench_request, our_model
from course_http import HttpTransport, Timeouts
from course_protocol import (
    CourseModelResponse,
    CourseReasoningBlock,
    CourseTextBlock,
    CourseToolCall,
)
from course_stream import AbortController

CHUNK_BYTES = 16 * 1024


def _chunks(body: bytes) -> Iterator[bytes]:
    for start in range(0, len(body), CHUNK_BYTES):
        yield body[start : start + CHUNK_BYTES]


class _ChunkedTransport(HttpTransport):
    """An in-process transport whose every answer is ``body``, 16 KiB per loop step."""

    def __init__(self, body: bytes) -> None:
        self._body = body
        super().__init__("http://in-process.invalid", timeouts=Timeouts(), trust_env=False)

    @property
    def replays(self) -> bool:
        """It serves recorded bytes in-process: a model over it needs no key."""
        return True

    def _exchange(self) -> InProcessTransport:
        return InProcessTransport(lambda: _chunks(self._body))


def _body(api: Api, shape: Shape, deltas: int) -> bytes:
    return "".join(body_frames(api, shape, deltas)).encode("utf-8")


def _held_bytes(response: CourseModelResponse) -> int:
    """What the final message must hold: its text and reasoning, or its Tool arguments as JSON."""
    total = 0
    for block in response.message.content:
        if type(block) is CourseTextBlock or type(block) is CourseReasoningBlock:
            total += sys.getsizeof(block.text)
        elif type(block) is CourseToolCall:
            total += len(json.dumps(dict(block.arguments)))
    return total


async def _call(api: Api, body: bytes) -> int:
    """One call, every chunk consumed; the bytes its final message holds.

    Not the response itself: on CPython 3.11 ``asyncio.run`` restores the
    SIGINT handler on the way out, and the enum lookup behind that formats
    the old handler, which names the main task and so its result, in full
    (``reprlib`` truncates only after ``repr``). Returned, a response of
    10^5 deltas would put a repr of its whole text into the measured peak.
    """
    transport = _ChunkedTransport(body)
    model = our_model(api, transport)
    stream = model.stream(bench_request(), AbortController().signal)
    async for _chunk in stream:
        pass
    response = await stream.result
    await transport.aclose()
    return _held_bytes(response)


def _measured(api: Api, shape: Shape, deltas: int) -> dict[str, int]:
    body = _body(api, shape, deltas)
    gc.collect()
    tracemalloc.start()
    before, _ = tracemalloc.get_traced_memory()
    held = asyncio.run(_call(api, body), debug=False)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return {"peak_bytes": peak - before, "held": held}


def main() -> None:
    """Parse the arguments, warm up, measure one call per size, print the JSON figures."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--api", choices=APIS, required=True)
    parser.add_argument("--shape", choices=get_args(Shape), required=True)
    parser.add_argument("--deltas", type=int, nargs="+", required=True)
    arguments = parser.parse_args()
    api, shape = arguments.api, arguments.shape
    asyncio.run(_call(api, _body(api, shape, 1_000)), debug=False)
    figures = {str(n): _measured(api, shape, n) for n in arguments.deltas}
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
