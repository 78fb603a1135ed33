"""Run one Hypothesis example in an event loop of its own, and prove it left nothing behind.

pytest-asyncio cannot drive ``@given`` on an ``async def`` test, so property
tests are synchronous and call :func:`run_example` once per example. The
suite's guards check a whole test; this checks each example, so a failing
example is the one that leaked, and Hypothesis can shrink it.
"""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from tests.streams import GUARD_SECONDS
from tests.tasks import tasks_left

__all__ = [
    "ExampleHungError",
    "ExampleLeakedError",
    "run_example",
]

T = TypeVar("T")


class ExampleHungError(AssertionError):
    """The example did not finish within `GUARD_SECONDS`."""


class ExampleLeakedError(AssertionError):
    """The example left a task pending or made its loop report an error."""


def run_example(main: Callable[[], Awaitable[T]], *, timeout: float = GUARD_SECONDS) -> T:
    """Run ``main()`` in a new debug-mode event loop and return its value.

    Raises what ``main`` raised; `ExampleHungError` when it is still running
    after ``timeout`` seconds; `ExampleLeakedError` when a task is still
    pending a few loop turns after it returned, or when the loop reported an
    error (an exception never retrieved, a task destroyed while pending),
    including reports made by the garbage collection after the loop closed.
    """
    reports: list[str] = []

    def record(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        reports.append(f"{context.get('message')}: {context.get('exception')!r}")

    async def guarded() -> T:
        asyncio.get_running_loop().set_exception_handler(record)
        deadline = asyncio.timeout(timeout)
        try:
            async with deadline:
                value = await main()
        except TimeoutError:
            if deadline.expired():
                raise ExampleHungError(f"the example was still running after {timeout} s") from None
            raise
        await _no_task_left()
        return value

    # Only what this example made is collected: everything older (Hypothesis's
    # own growing state included) is frozen out of the collection, which
    # keeps the cost per example flat over thousands of examples.
    gc.freeze()
    try:
        value = asyncio.run(guarded(), debug=True)
        gc.collect()
    finally:
        gc.unfreeze()
    if reports:
        raise ExampleLeakedError(f"the event loop reported errors: {reports}")
    return value


async def _no_task_left() -> None:
    leftover = await tasks_left()
    if not leftover:
        return
    for task in leftover:
        task.cancel()
    await asyncio.gather(*leftover, return_exceptions=True)
    raise ExampleLeakedError(
        f"the example left {len(leftover)} task(s) pending: {sorted(map(repr, leftover))}"
    )
