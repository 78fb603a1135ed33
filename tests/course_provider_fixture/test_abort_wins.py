"""An abort wins over whatever an async record source does once it is cancelled.

The stream fails with the signal's reason in the ``abort()`` call itself, so
neither a cleanup that takes its time nor the source's reaction to the
cancellation (raising, ending, swallowing it) can change the outcome.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from course_provider_fixture import FixtureProviderAdapter
from course_stream import AbortController, AbortError
from tests.course_provider_fixture.records import fixture, start, text
from tests.requests import request
from tests.streams import GUARD_SECONDS, abort_settles_at_once


class SourceThatHangs:
    """Gives a start and a text record, then hangs; reacts to cancellation as told."""

    def __init__(self, reaction: str) -> None:
        self.reaction = reaction
        self.records: list[object] = [start(), text("first")]
        self.reached = asyncio.Event()
        self.release = asyncio.Event()
        self.cleanup_done = asyncio.Event()

    def __aiter__(self) -> SourceThatHangs:
        return self

    async def __anext__(self) -> Any:
        if self.records:
            return self.records.pop(0)
        self.reached.set()
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            if self.reaction == "raises ConnectionResetError":
                raise ConnectionResetError("peer reset") from None
            if self.reaction == "ends":
                raise StopAsyncIteration from None
            if self.reaction == "cleans up slowly":
                await self.release.wait()
                self.cleanup_done.set()
                raise
            # "swallows the cancellation": waits on, until the test releases it.
        await self.release.wait()
        self.cleanup_done.set()
        raise StopAsyncIteration


@pytest.mark.parametrize(
    "reaction",
    ["cleans up slowly", "raises ConnectionResetError", "ends", "swallows the cancellation"],
)
async def test_an_abort_fails_the_call_with_the_reason_whatever_the_source_does(
    reaction: str,
) -> None:
    source = SourceThatHangs(reaction)
    adapter = FixtureProviderAdapter(fixture(source))
    controller = AbortController()
    stream = adapter.stream(request("q-1", "Hi", message_id="u-1"), controller.signal)
    iterator = aiter(stream)
    try:
        async with asyncio.timeout(GUARD_SECONDS):
            first = await anext(iterator)
            assert first.delta == "first"  # type: ignore[union-attr]
            await source.reached.wait()
            reason = await abort_settles_at_once(controller, stream, iterator)
            with pytest.raises(AbortError) as from_result:
                await stream.result
            assert from_result.value is reason
    finally:
        # Released even when an assertion failed, so a source that swallowed
        # the cancellation cannot keep the loop from closing (a hang, not a failure).
        source.release.set()
    async with asyncio.timeout(GUARD_SECONDS):
        if reaction in ("cleans up slowly", "swallows the cancellation"):
            await source.cleanup_done.wait()
        for _ in range(5):
            await asyncio.sleep(0)
