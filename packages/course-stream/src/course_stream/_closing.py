"""aclose_quietly: close a source that production stopped reading, without masking why."""

from __future__ import annotations

import asyncio
import inspect

__all__ = ["aclose_quietly"]


async def aclose_quietly(iterator: object, *, interrupt: bool = False) -> None:
    """Await ``iterator.aclose()`` if it has one, dropping any ``Exception`` it raises.

    For a producer that stopped reading a source early: the stream is already
    settled with the error that stopped it, and a cleanup failure must never
    replace that error. ``aclose`` is looked up on the type (never through an
    instance ``__getattr__``), so an untrusted iterator runs only its own
    close; an iterator without one is left alone.

    ``interrupt=True`` is for a producer whose task was cancelled (by an
    abort, through `run_producer`): that cancellation was already delivered,
    and nothing would cancel the task again, so a close that never returns
    would keep it pending forever. The current task therefore cancels itself
    first: the close runs its synchronous cleanup (a generator's ``finally``)
    and is interrupted at its first suspension, raising
    `asyncio.CancelledError`.

    Raises only ``BaseException`` subclasses that are not ``Exception``
    (``asyncio.CancelledError``, ``KeyboardInterrupt``, ``SystemExit``).
    """
    if interrupt:
        task = asyncio.current_task()
        if task is not None:
            task.cancel()
    try:
        close = inspect.getattr_static(type(iterator), "aclose", None)
        if close is None:
            return
        binder = getattr(type(close), "__get__", None)
        bound = binder(close, iterator, type(iterator)) if binder is not None else close
        await bound()
    except Exception:
        return
