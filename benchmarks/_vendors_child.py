"""One peak-memory measurement of our adapter in a fresh interpreter, the consumer keeping up.

``python -m benchmarks._vendors_child --api API --shape text|tool --deltas N``
prints one JSON object: the resident size when the measured call starts,
the peak resident size during it (``VmHWM`` after a reset, as the scaling
children do) and the bytes the final message holds. The body is never in
memory whole: its frames are built as the transport asks for them, cut into
chunks of about 16 KiB, one chunk per event-loop step, as a socket delivers
them; every chunk is consumed and dropped as it arrives.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import sys
from collections.abc import Iterator

from benchmarks._inprocess import InProcessTransport
from benchmarks._scaling_child import _peak_kib, _reset_peak
from benchmarks._vendor_bodies import APIS, SHAPES, Api, Shape, body_frames
from benchmarks._vendor_ours import bench_request, our_model
from course_http import HttpTransport, Timeouts
from course_protocol import CourseModelResponse, CourseTextBlock, CourseToolCall
from course_stream import AbortController

CHUNK_BYTES = 16 * 1024


def _chunks(api: Api, shape: Shape, deltas: int) -> Iterator[bytes]:
    pending: list[bytes] = []
    size = 0
    for frame in body_frames(api, shape, deltas):
        data = frame.encode("utf-8")
        pending.append(data)
        size += len(data)
        if size >= CHUNK_BYTES:
            yield b"".join(pending)
            pending, size = [], 0
    if pending:
        yield b"".join(pending)


class _LazyTransport(HttpTransport):
    """An in-process transport whose every answer is the lazily built body."""

    def __init__(self, api: Api, shape: Shape, deltas: int) -> None:
        self._lazy = (api, shape, deltas)
        super().__init__("http://in-process.invalid", timeouts=Timeouts(), trust_env=False)

    def _exchange(self) -> InProcessTransport:
        return InProcessTransport(lambda: _chunks(*self._lazy))


def _held_bytes(response: CourseModelResponse) -> int:
    """What the final message must hold: its text, or its Tool arguments as JSON text."""
    total = 0
    for block in response.message.content:
        if type(block) is CourseTextBlock:
            total += sys.getsizeof(block.text)
        elif type(block) is CourseToolCall:
            total += len(json.dumps(dict(block.arguments)))
    return total


async def _call(api: Api, shape: Shape, deltas: int) -> CourseModelResponse:
    transport = _LazyTransport(api, shape, deltas)
    model = our_model(api, transport, api_key="bench-key-not-secret")
    stream = model.stream(bench_request(), AbortController().signal)
    async for _chunk in stream:
        pass
    response = await stream.result
    await transport.aclose()
    return response


def main() -> None:
    """Parse the arguments, warm up, measure one call, print the JSON figures."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--api", choices=APIS, required=True)
    parser.add_argument("--shape", choices=SHAPES, required=True)
    parser.add_argument("--deltas", type=int, required=True)
    arguments = parser.parse_args()
    asyncio.run(_call(arguments.api, arguments.shape, 1_000), debug=False)
    gc.collect()
    before = _reset_peak()
    response = asyncio.run(_call(arguments.api, arguments.shape, arguments.deltas), debug=False)
    after = _peak_kib()
    figures = {"peak_before_kib": before, "peak_after_kib": after, "held": _held_bytes(response)}
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
