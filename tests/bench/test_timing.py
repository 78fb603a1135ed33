"""How the streaming rows are timed: CPU time, and each pass paired with a baseline pass."""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable

import pytest

from benchmarks import _timing
from benchmarks._timing import CLOCKS, AsyncRun, measure_async_paired, measure_async_side_by_side


class LoadedMachine:
    """A fake clock whose passes cost their work times a load that changes at every pass."""

    def __init__(self, loads: list[float]) -> None:
        self.now = 0.0
        self.loads = loads
        self.passes: list[str] = []

    def clock(self) -> float:
        return self.now

    def candidate(self, name: str, work: float) -> Callable[[], AsyncRun]:
        def prepare() -> AsyncRun:
            async def run() -> int:
                load = self.loads[len(self.passes) % len(self.loads)]
                self.passes.append(name)
                self.now += work * load
                return 1

            return run

        return prepare


@pytest.fixture
def machine(monkeypatch: pytest.MonkeyPatch) -> LoadedMachine:
    # Two passes at one load, then two at another: a pair shares its load,
    # two blocks of passes timed apart do not.
    loaded = LoadedMachine([1.0, 1.0, 5.0, 5.0, 1.0, 1.0, 2.0, 2.0])
    monkeypatch.setitem(_timing.CLOCKS, "fake", loaded.clock)
    return loaded


async def test_each_candidate_pass_runs_right_after_a_baseline_pass(machine: LoadedMachine) -> None:
    await measure_async_paired(
        {"floor": machine.candidate("floor", 1.0), "ours": machine.candidate("ours", 3.0)},
        baseline="floor",
        rounds=2,
        warmup=0,
        expected_items=1,
        clock="fake",
    )

    assert machine.passes == ["floor", "ours", "floor", "ours"]


async def test_a_pair_shares_its_load_so_the_ratio_is_the_work_ratio(
    machine: LoadedMachine,
) -> None:
    paired = await measure_async_paired(
        {
            "floor": machine.candidate("floor", 1.0),
            "ours": machine.candidate("ours", 3.0),
            "peer": machine.candidate("peer", 4.0),
        },
        baseline="floor",
        rounds=4,
        warmup=0,
        expected_items=1,
        clock="fake",
    )

    assert paired.ratios == {"ours": [3.0] * 4, "peer": [4.0] * 4}
    assert set(paired.seconds) == {"floor", "ours", "peer"}
    assert all(len(values) == 4 for values in paired.seconds.values())


async def test_unpaired_blocks_catch_the_load_differently(
    machine: LoadedMachine, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The contrast the pairing exists for: the same work, timed in separate
    # blocks under a load that changes at every pass, gives ratios that move.
    monkeypatch.setattr(machine, "loads", [1.0, 5.0, 1.0, 2.0])
    seconds = await measure_async_side_by_side(
        {"floor": machine.candidate("floor", 1.0), "ours": machine.candidate("ours", 3.0)},
        rounds=4,
        warmup=0,
        expected_items=1,
        clock="fake",
    )

    ratios = [ours / floor for ours, floor in zip(seconds["ours"], seconds["floor"], strict=True)]
    assert statistics.pstdev(ratios) > 0


async def test_a_paired_candidate_that_skips_items_fails_the_measurement() -> None:
    async def full() -> int:
        return 10

    async def half() -> int:
        return 5

    with pytest.raises(AssertionError, match="skipper consumed 5 items, expected 10"):
        await measure_async_paired(
            {"floor": lambda: full, "skipper": lambda: half},
            baseline="floor",
            rounds=1,
            warmup=0,
            expected_items=10,
        )


async def test_an_unknown_baseline_or_clock_is_refused() -> None:
    async def full() -> int:
        return 1

    with pytest.raises(KeyError):
        await measure_async_paired(
            {"floor": lambda: full}, baseline="nothing", rounds=1, warmup=0, expected_items=1
        )
    with pytest.raises(KeyError):
        await measure_async_paired(
            {"floor": lambda: full},
            baseline="floor",
            rounds=1,
            warmup=0,
            expected_items=1,
            clock="sundial",
        )


def test_the_default_clock_is_the_threads_cpu_time() -> None:
    assert CLOCKS["cpu"] is time.thread_time
    assert CLOCKS["wall"] is time.perf_counter


@pytest.mark.parametrize(("collect", "collections"), [(True, 2 * 3), (False, 0)])
async def test_the_collector_runs_before_each_candidate_only_when_asked(
    monkeypatch: pytest.MonkeyPatch, collect: bool, collections: int
) -> None:
    ran: list[int] = []

    def counted() -> int:
        ran.append(1)
        return 0

    monkeypatch.setattr(gc, "collect", counted)

    def prepare() -> AsyncRun:
        async def run() -> int:
            return 1

        return run

    seconds = await measure_async_side_by_side(
        {"a": prepare, "b": prepare},
        rounds=2,
        warmup=1,
        expected_items=1,
        collect=collect,
    )

    assert len(ran) == collections
    assert {name: len(figures) for name, figures in seconds.items()} == {"a": 2, "b": 2}
