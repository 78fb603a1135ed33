"""aclose_quietly: a stopped producer closes its source without masking why it stopped."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from course_stream import aclose_quietly


class SourceWhoseCloseFails:
    def __init__(self) -> None:
        self.close_calls = 0

    async def aclose(self) -> None:
        self.close_calls += 1
        raise ValueError("cleanup failed")


class SourceThatLiesThroughGetattr:
    """Has no ``aclose`` of its own; ``__getattr__`` would hand out a trap."""

    def __init__(self) -> None:
        self.getattr_calls = 0

    def __getattr__(self, name: str) -> Any:
        self.getattr_calls += 1
        raise AssertionError(f"{name} looked up through __getattr__")


class SourceWhoseCloseHangs:
    def __init__(self) -> None:
        self.started = False
        self.interrupted = False

    async def aclose(self) -> None:
        self.started = True
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            self.interrupted = True
            raise


async def test_an_exception_raised_by_the_close_is_dropped() -> None:
    source = SourceWhoseCloseFails()

    await aclose_quietly(source)

    assert source.close_calls == 1


async def test_aclose_is_looked_up_on_the_type_never_through_getattr() -> None:
    source = SourceThatLiesThroughGetattr()

    await aclose_quietly(source)

    assert source.getattr_calls == 0


async def test_an_async_generator_is_closed_and_its_finally_runs() -> None:
    finished: list[str] = []

    async def generator() -> Any:
        try:
            yield 1
            yield 2
        finally:
            finished.append("finally")

    source = generator()
    assert await anext(source) == 1

    await aclose_quietly(source)

    assert finished == ["finally"]


async def test_an_interrupted_close_that_would_hang_ends_at_its_first_suspension() -> None:
    source = SourceWhoseCloseHangs()

    with pytest.raises(asyncio.CancelledError):
        await aclose_quietly(source, interrupt=True)

    assert source.started
    assert source.interrupted
    current = asyncio.current_task()
    assert current is not None
    current.uncancel()
