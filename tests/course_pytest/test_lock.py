"""CassetteLock: one holder of a cassette at a time, the next one told it waits."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from course_pytest._lock import LOCKING, CassetteLock
from tests.streams import GUARD_SECONDS

pytestmark = pytest.mark.skipif(not LOCKING, reason="no flock on this system")


def never_waits() -> None:
    raise AssertionError("nothing held the cassette: no wait")


async def test_a_second_holder_waits_is_told_once_and_holds_when_the_first_releases(
    tmp_path: Path,
) -> None:
    cassette = tmp_path / "cassettes" / "test_x" / "shared.json"
    first, second = CassetteLock(cassette), CassetteLock(cassette)
    waits: list[str] = []
    waiting = asyncio.Event()

    def on_wait() -> None:
        waits.append("waiting")
        waiting.set()

    async with asyncio.timeout(GUARD_SECONDS):
        assert await first.acquire(never_waits)
        assert first.path == cassette.with_name(".shared.json.lock")
        assert first.path.exists()
        acquiring = asyncio.create_task(second.acquire(on_wait))
        await waiting.wait()
        assert not acquiring.done()
        first.release()
        assert await acquiring

    assert waits == ["waiting"]
    assert second.path.exists(), "held by the second, after the first removed its file"
    second.release()
    assert list(cassette.parent.iterdir()) == []
    second.release()


async def test_a_lock_file_left_by_a_killed_holder_holds_nothing(tmp_path: Path) -> None:
    cassette = tmp_path / "shared.json"
    lock = CassetteLock(cassette)
    lock.path.write_text("")

    async with asyncio.timeout(GUARD_SECONDS):
        assert await lock.acquire(never_waits)
        with pytest.raises(RuntimeError, match="held already"):
            await lock.acquire(never_waits)
    lock.release()

    assert not lock.path.exists()


async def test_a_cancelled_wait_holds_nothing(tmp_path: Path) -> None:
    cassette = tmp_path / "shared.json"
    holder, waiter = CassetteLock(cassette), CassetteLock(cassette)
    waiting = asyncio.Event()

    async with asyncio.timeout(GUARD_SECONDS):
        await holder.acquire(never_waits)
        acquiring = asyncio.create_task(waiter.acquire(waiting.set))
        await waiting.wait()
        acquiring.cancel()
        with pytest.raises(asyncio.CancelledError):
            await acquiring
        holder.release()
        after = CassetteLock(cassette)
        assert await after.acquire(never_waits), "nobody holds it"
    after.release()
