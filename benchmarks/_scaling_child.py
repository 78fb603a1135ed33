"""One scaling measurement in a fresh interpreter, so its peak RSS is its own.

``python -m benchmarks._scaling_child --source array|async --deltas N``
prints one JSON object: seconds, and the peak RSS before and after the run
(after a small warm-up pass, so imports and first-call costs are not
counted as growth).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
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


def _peak_kib() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


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
    arguments = parser.parse_args()
    asyncio.run(_measure(arguments.source, 999), debug=False)
    before = _peak_kib()
    seconds, _ = asyncio.run(_measure(arguments.source, arguments.deltas), debug=False)
    after = _peak_kib()
    print(json.dumps({"seconds": seconds, "peak_before_kib": before, "peak_after_kib": after}))


if __name__ == "__main__":
    main()
