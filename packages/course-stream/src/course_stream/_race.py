"""race_abort: await something unless an AbortSignal aborts first."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable
from typing import TypeVar

from course_stream._abort import AbortSignal

__all__ = ["race_abort"]

T = TypeVar("T")


async def race_abort(awaitable: Awaitable[T], signal: AbortSignal) -> T:
    """Return ``awaitable``'s value, or raise ``signal.reason`` if the signal aborts first.

    On an abort the pending awaitable is cancelled (a coroutine sees
    `asyncio.CancelledError` at its pending await and its ``finally`` blocks run)
    and awaited to the end, then ``signal.reason`` is raised. If the signal is
    already aborted, ``signal.reason`` is raised at once and the awaitable is closed
    (a coroutine) or cancelled (a future) without running. Once the abort has won,
    its reason is raised whatever the cancelled awaitable did on the way out (even
    if it swallowed the cancellation or raised something else); otherwise an
    exception raised by the awaitable propagates as the same object. Cancelling
    the calling task cancels the awaitable too and raises `asyncio.CancelledError`.
    A coroutine is run as one task on the running loop. No polling, no sleeps: one
    abort listener, removed afterwards.
    Raises `TypeError` if ``awaitable`` is not awaitable.
    """
    if not inspect.isawaitable(awaitable):
        # Checked before the abort so a programming error is not masked by an
        # already aborted signal.
        raise TypeError(f"race_abort() takes an awaitable, got {type(awaitable).__name__}")
    if signal.aborted:
        _discard(awaitable)
        signal.throw_if_aborted()
    task = asyncio.ensure_future(awaitable)
    abort_won = False

    def on_abort() -> None:
        nonlocal abort_won
        if not task.done():
            abort_won = True
            task.cancel()

    signal.add_listener(on_abort)
    try:
        value = await task
    except asyncio.CancelledError:
        current = asyncio.current_task()
        if not abort_won or (current is not None and current.cancelling()):
            raise
    except BaseException:
        if not abort_won:
            raise
    else:
        if not abort_won:
            return value
    finally:
        signal.remove_listener(on_abort)
    # Once the abort won, its reason is the outcome, whatever the cancelled awaitable
    # did on the way out. Raised outside the except blocks so the caller's reason
    # object does not get a CancelledError attached as its __context__.
    signal.throw_if_aborted()
    raise AssertionError("unreachable: the abort listener ran, so the signal is aborted")


def _discard(awaitable: object) -> None:
    if inspect.iscoroutine(awaitable):
        awaitable.close()
    elif isinstance(awaitable, asyncio.Future):
        awaitable.cancel()
