"""The tasks a test leaves behind once its streams have settled."""

from __future__ import annotations

import asyncio
from typing import Any

__all__ = ["tasks_left"]


async def tasks_left(turns: int = 20) -> set[asyncio.Task[Any]]:
    """The tasks, other than the current one, still pending after ``turns`` loop turns.

    Settling a stream may take a few turns (a producer task finishing after
    it resolved the result), so that many turns are given before a task
    counts as left behind. Returns an empty set as soon as no other task is
    pending: none is left then to start a new one.
    """
    current = asyncio.current_task()
    leftover = _others(current)
    for _ in range(turns):
        if not leftover:
            break
        await asyncio.sleep(0)
        leftover = _others(current)
    return leftover


def _others(current: asyncio.Task[Any] | None) -> set[asyncio.Task[Any]]:
    return {task for task in asyncio.all_tasks() if task is not current}
