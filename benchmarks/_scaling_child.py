"""One scaling measurement in a fresh interpreter, so its peak RSS is its own.

``python -m benchmarks._scaling_child --source array|async --deltas N [--repeats R]``
prints one JSON object: the median seconds of ``R`` runs, the resident size
when the first measured run starts (after imports and a small warm-up
pass) and the peak resident size during that run.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import resource
import statistics
import time
from collections.abc import AsyncIterator

from benchmarks._workload import (
    REQUEST_ID,
    fixture_document,
    lazy_records,
    response_records,
    text_deltas,
)
from course_protocol import CourseModelRequest, CourseUserMessage
from course_provider_fixture import FixtureProviderAdapter
from course_stream import AbortController

YIELD_EVERY = 256
"""The async source returns control to the loop this often (see ``lazy_records``)."""


def _status_kib(field: str) -> int | None:
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith(f"{field}:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def _reset_peak() -> int:
    """Start a new peak-RSS window here; return the resident size it starts from (KiB).

    Linux resets ``VmHWM`` when "5" is written to ``/proc/self/clear_refs``.
    ``ru_maxrss`` cannot be used for this: it survives ``exec``, so a child
    started by a parent that once held a 50 MB fixture would report the
    parent's peak. Elsewhere the process-wide ``ru_maxrss`` is the fallback.
    """
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as clear_refs:
            clear_refs.write("5")
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return _status_kib("VmRSS") or 0


def _peak_kib() -> int:
    peak = _status_kib("VmHWM")
    return peak if peak is not None else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


async def _consume(adapter: FixtureProviderAdapter, request: CourseModelRequest) -> int:
    stream = adapter.stream(request, AbortController().signal)
    seen = 0
    async for _chunk in stream:
        seen += 1
    await stream.result
    return seen


async def _measure(source: str, deltas: int) -> tuple[float, int]:
    request = CourseModelRequest(
        id=REQUEST_ID, messages=(CourseUserMessage(id="message-user", content="bench"),)
    )
    records: list[object] | AsyncIterator[object]
    if source == "array":
        records = response_records(text_deltas(deltas))
    else:
        records = lazy_records(deltas, yield_every=YIELD_EVERY)
    started = time.perf_counter()
    adapter = FixtureProviderAdapter(fixture_document([records]))
    del records
    seen = await _consume(adapter, request)
    elapsed = time.perf_counter() - started
    if seen != deltas:
        raise AssertionError(f"consumed {seen} chunks, expected {deltas}")
    return elapsed, seen


def main() -> None:
    """Parse the arguments, warm up, measure once, print the JSON figures."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--source", choices=("array", "async"), required=True)
    parser.add_argument("--deltas", type=int, required=True)
    parser.add_argument("--repeats", type=int, default=1)
    arguments = parser.parse_args()
    asyncio.run(_measure(arguments.source, 999), debug=False)
    gc.collect()
    before = _reset_peak()
    seconds = [asyncio.run(_measure(arguments.source, arguments.deltas), debug=False)[0]]
    after = _peak_kib()
    for _ in range(arguments.repeats - 1):
        gc.collect()
        seconds.append(asyncio.run(_measure(arguments.source, arguments.deltas), debug=False)[0])
    figures = {
        "seconds": statistics.median(seconds),
        "peak_before_kib": before,
        "peak_after_kib": after,
    }
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
