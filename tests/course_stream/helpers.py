"""What the course_stream tests share: a producer's error, parking a task, counting tasks."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine, Iterator
from contextlib import contextmanager
from typing import Any


class ProducerError(Exception):
    """The failure a test's producer raises, or settles a stream with."""


async def parked(coroutine: Coroutine[Any, Any, Any], turns: int = 1) -> asyncio.Task[Any]:
    """Start ``coroutine`` as a task, give it ``turns`` loop turns, and assert it is still waiting.

    Returns the task, suspended at an await point the test then acts on.
    """
    task = asyncio.ensure_future(coroutine)
    for _ in range(turns):
        await asyncio.sleep(0)
    assert not task.done()
    return task


@contextmanager
def tasks_created() -> Iterator[list[asyncio.Task[Any]]]:
    """Yield a list that collects every task created on the running loop inside the block."""
    loop = asyncio.get_running_loop()
    created: list[asyncio.Task[Any]] = []
    previous = loop.get_task_factory()

    def counting_factory(
        loop: asyncio.AbstractEventLoop, coro: Any, /, **kwargs: Any
    ) -> asyncio.Task[Any]:
        task: asyncio.Task[Any] = asyncio.Task(coro, loop=loop, **kwargs)
        created.append(task)
        return task

    loop.set_task_factory(counting_factory)
    try:
        yield created
    finally:
        loop.set_task_factory(previous)
