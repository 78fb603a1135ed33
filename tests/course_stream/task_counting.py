"""Counts the tasks a block of code creates on the running loop."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


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
