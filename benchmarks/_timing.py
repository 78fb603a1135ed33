"""Rounds, warm-up, median and spread: how every figure in the table is measured."""

from __future__ import annotations

import gc
import math
import statistics
import time
from collections.abc import Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = [
    "AsyncRun",
    "Prepare",
    "Spread",
    "measure_async_side_by_side",
    "measure_sync_side_by_side",
    "per_round_ratios",
]

AsyncRun = Callable[[], Coroutine[Any, Any, int]]
"""One timed pass: consumes a whole workload and returns how many items it saw."""

Prepare = Callable[[], AsyncRun]
"""Untimed set-up for one pass (build the model, the fixture, the chunks)."""

_MAX_REPEATS = 200


@dataclass(frozen=True, slots=True)
class Spread:
    """The median of a set of per-round values and the lowest and highest of them."""

    median: float
    low: float
    high: float

    @classmethod
    def of(cls, values: Sequence[float]) -> Spread:
        """Summarise ``values``; raises ``ValueError`` when there are none."""
        if not values:
            raise ValueError("no values to summarise")
        return cls(statistics.median(values), min(values), max(values))


async def measure_async_side_by_side(
    candidates: Mapping[str, Prepare],
    *,
    rounds: int,
    warmup: int,
    expected_items: int,
    min_round_seconds: float = 0.0,
) -> dict[str, list[float]]:
    """Time every candidate once per round, interleaved, and return seconds per round.

    Interleaving puts each round's candidates under the same machine load, so
    their per-round ratios are fair even when the machine is noisy. The order
    rotates every round so that no candidate always runs first. Warm-up
    rounds run the same code and are discarded; they also decide how many
    passes a fast candidate repeats per round (enough to fill
    ``min_round_seconds``), and a round keeps the median of its passes, so a
    sub-millisecond pass is not at the mercy of one scheduler hiccup.
    Raises ``AssertionError`` when a candidate consumes fewer than
    ``expected_items`` items: a pass that skipped chunks would measure
    nothing.
    """
    names = list(candidates)
    seconds: dict[str, list[float]] = {name: [] for name in names}
    repeats = dict.fromkeys(names, 1)
    for round_index in range(warmup + rounds):
        shift = round_index % len(names)
        for name in names[shift:] + names[:shift]:
            gc.collect()
            passes: list[float] = []
            for _ in range(repeats[name]):
                run = candidates[name]()
                started = time.perf_counter()
                seen = await run()
                passes.append(time.perf_counter() - started)
                if seen < expected_items:
                    raise AssertionError(f"{name} consumed {seen} items, expected {expected_items}")
            typical = statistics.median(passes)
            if round_index < warmup:
                repeats[name] = max(1, min(_MAX_REPEATS, math.ceil(min_round_seconds / typical)))
            else:
                seconds[name].append(typical)
    return seconds


def measure_sync_side_by_side(
    candidates: Mapping[str, Callable[[], Callable[[], object]]],
    *,
    rounds: int,
    warmup: int,
) -> dict[str, list[float]]:
    """The synchronous counterpart of :func:`measure_async_side_by_side`.

    Each candidate is an untimed set-up that returns the timed callable.
    The timed callable's return value is kept alive until the clock stops,
    so freeing a large result is not counted against the next candidate.
    """
    names = list(candidates)
    seconds: dict[str, list[float]] = {name: [] for name in names}
    for round_index in range(warmup + rounds):
        shift = round_index % len(names)
        for name in names[shift:] + names[:shift]:
            run = candidates[name]()
            gc.collect()
            started = time.perf_counter()
            result = run()
            elapsed = time.perf_counter() - started
            del result
            if round_index >= warmup:
                seconds[name].append(elapsed)
    return seconds


def per_round_ratios(values: Sequence[float], baseline: Sequence[float]) -> list[float]:
    """Divide each round's value by the same round's baseline."""
    if len(values) != len(baseline):
        raise ValueError(f"{len(values)} rounds against {len(baseline)} baseline rounds")
    return [value / base for value, base in zip(values, baseline, strict=True)]
