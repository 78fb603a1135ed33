"""A readable trace of course_stream at work.

An EventStream is produced by one task (through run_producer) and consumed by
another; its terminal result is awaited separately. Then an AbortSignal aborts
a race_abort that is waiting on work that never finishes.

Run it with `make demo` or `uv run python examples/stream_demo.py`.
"""

from __future__ import annotations

import asyncio
import contextlib

from course_stream import AbortController, EventStream, race_abort, run_producer


def trace(actor: str, message: str) -> None:
    print(f"  {actor:<9} {message}")


async def stream_a_sentence() -> None:
    print("EventStream: a producer task pushes words, a consumer reads them")
    stream: EventStream[str, int] = EventStream()
    words = ("The", "sum", "is", "42.")

    async def produce() -> None:
        for word in words:
            trace("producer", f"push {word!r}")
            stream.push(word)
            await asyncio.sleep(0)
        trace("producer", f"finish({len(words)})")
        stream.finish(len(words))

    task = run_producer(stream, AbortController().signal, produce)
    async with contextlib.aclosing(aiter(stream)) as events:
        async for word in events:
            trace("consumer", f"read {word!r}")
    trace("consumer", f"await stream.result -> {await stream.result}")
    await task


async def abort_a_wait() -> None:
    print("AbortSignal: an abort interrupts a race_abort waiting on slow work")
    controller = AbortController()
    started = asyncio.Event()

    async def slow_work() -> str:
        trace("work", "started, waiting for an answer that never comes")
        started.set()
        try:
            await asyncio.get_running_loop().create_future()
        except asyncio.CancelledError:
            trace("work", "cancelled by the abort; cleaning up")
            raise
        return "unreachable"

    racing = asyncio.ensure_future(race_abort(slow_work(), controller.signal))
    await started.wait()
    trace("caller", "controller.abort(TimeoutError('gave up'))")
    controller.abort(TimeoutError("gave up"))
    try:
        await racing
    except TimeoutError as reason:
        same = reason is controller.signal.reason
        trace("caller", f"race_abort raised {reason!r} (the signal's reason object: {same})")


async def main() -> None:
    await stream_a_sentence()
    print()
    await abort_a_wait()


if __name__ == "__main__":
    asyncio.run(main())
