"""Suite-wide guards: every test runs with asyncio debug on, and fails if it
leaves a task pending, an exception never retrieved, or an unraisable error.

New tests get these checks for free; nothing needs to opt in.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
from collections.abc import AsyncIterator, Iterator

import pytest

# asyncio reads this when each event loop is created, so loops made by
# pytest-asyncio and by asyncio.run() inside tests both run in debug mode.
os.environ.setdefault("PYTHONASYNCIODEBUG", "1")

# Settling a stream may take a few loop turns (a producer task finishing
# after it resolved the result); a task still pending after this many turns
# is a leak.
_SETTLE_TURNS = 20


class _AsyncioErrorRecords(logging.Handler):
    """Collects what asyncio's default exception handler logs.

    "Task was destroyed but it is pending!" and "exception was never
    retrieved" are reported through the ``asyncio`` logger, not as warnings,
    so ``filterwarnings = error`` alone would never see them.
    """

    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


@pytest.fixture(autouse=True)
def _no_asyncio_error_logs() -> Iterator[None]:
    handler = _AsyncioErrorRecords()
    logger = logging.getLogger("asyncio")
    logger.addHandler(handler)
    try:
        yield
        gc.collect()
    finally:
        logger.removeHandler(handler)
    assert not handler.messages, f"asyncio reported errors: {handler.messages}"


@pytest.fixture(autouse=True)
async def _no_pending_tasks() -> AsyncIterator[None]:
    loop = asyncio.get_running_loop()
    assert loop.get_debug(), "asyncio debug mode must be on in tests"
    yield
    current = asyncio.current_task()
    leftover: set[asyncio.Task[object]] = set()
    for _ in range(_SETTLE_TURNS):
        leftover = {task for task in asyncio.all_tasks() if task is not current}
        if not leftover:
            return
        await asyncio.sleep(0)
    for task in leftover:
        task.cancel()
    await asyncio.gather(*leftover, return_exceptions=True)
    pytest.fail(f"test left {len(leftover)} task(s) pending: {sorted(map(repr, leftover))}")
