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
    "CLOCKS",
    "AsyncRun",
    "Paired",
    "Prepare",
    "Spread",
    "measure_async_paired",
    "measure_async_side_by_side",
    "measure_sync_side_by_side",
    "per_round_ratios",
]

AsyncRun = Callable[[], Coroutine[Any, Any, int]]
"""One timed pass: consumes a whole workload and returns how many items it saw."""

Prepare = Callable[[], AsyncRun]
"""Untimed set-up for one pass (build the model, the fixture, the chunks)."""

_MAX_REPEATS = 200

CLOCKS: Mapping[str, Callable[[], float]] = {"cpu": time.thread_time, "wall": time.perf_counter}
"""The clocks an in-process pass can be timed with, by name.

``cpu`` (the default) is the CPU time of the measuring thread: the passes
do no I/O, so it is their whole cost, and unlike wall time it does not
count the time another process held the core. Wall time would penalise a
long pass (preempted several times on a busy machine) more than a short
one, so a ratio of a slow row to a fast floor would grow with the load.
``wall`` is kept to compare the two.
"""


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
    clock: str = "cpu",
    collect: bool = True,
) -> dict[str, list[float]]:
    """Time every candidate once per round, interleaved, and return seconds per round.

    ``clock`` names one of `CLOCKS` (``KeyError`` for another name).
    ``collect`` runs the garbage collector before each candidate's passes.

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
    now = CLOCKS[clock]
    names = list(candidates)
    seconds: dict[str, list[float]] = {name: [] for name in names}
    repeats = dict.fromkeys(names, 1)
    for round_index in range(warmup + rounds):
        shift = round_index % len(names)
        for name in names[shift:] + names[:shift]:
            if collect:
                gc.collect()
            passes: list[float] = []
            for _ in range(repeats[name]):
                passes.append(await _timed_pass(name, candidates[name], now, expected_items))
            typical = statistics.median(passes)
            if round_index < warmup:
                repeats[name] = max(1, min(_MAX_REPEATS, math.ceil(min_round_seconds / typical)))
            else:
                seconds[name].append(typical)
    return seconds


@dataclass(frozen=True, slots=True)
class Paired:
    """What `measure_async_paired` measured, round by round."""

    seconds: dict[str, list[float]]
    """Per round, the median pass of every candidate, the baseline included."""
    ratios: dict[str, list[float]]
    """Per round, for every candidate but the baseline: the median of its pass/baseline pairs."""


async def measure_async_paired(
    candidates: Mapping[str, Prepare],
    *,
    baseline: str,
    rounds: int,
    warmup: int,
    expected_items: int,
    min_round_seconds: float = 0.0,
    clock: str = "cpu",
) -> Paired:
    """Time every candidate against ``baseline`` pass by pass, and return seconds and ratios.

    As `measure_async_side_by_side` (rounds, rotation, warm-up, repeats,
    ``clock``, the ``AssertionError``), with one difference: every pass of a
    candidate runs right after a pass of ``baseline``, and the round's ratio
    is the median of those pairs' ratios. The two passes of a pair share the
    machine's load of that moment, so a load that comes and goes within a
    round, which blocks of passes timed seconds apart would each catch
    differently, moves both halves of a pair alike. Raises ``KeyError`` when
    ``baseline`` is not one of ``candidates``.
    """
    now = CLOCKS[clock]
    base = candidates[baseline]
    names = [name for name in candidates if name != baseline]
    seconds: dict[str, list[float]] = {name: [] for name in candidates}
    ratios: dict[str, list[float]] = {name: [] for name in names}
    repeats = dict.fromkeys(names, 1)
    for round_index in range(warmup + rounds):
        shift = round_index % len(names) if names else 0
        base_passes: list[float] = []
        for name in names[shift:] + names[:shift]:
            gc.collect()
            passes: list[float] = []
            pairs: list[float] = []
            for _ in range(repeats[name]):
                before = await _timed_pass(baseline, base, now, expected_items)
                own = await _timed_pass(name, candidates[name], now, expected_items)
                base_passes.append(before)
                passes.append(own)
                pairs.append(own / before)
            typical = statistics.median(passes)
            if round_index < warmup:
                repeats[name] = max(1, min(_MAX_REPEATS, math.ceil(min_round_seconds / typical)))
            else:
                seconds[name].append(typical)
                ratios[name].append(statistics.median(pairs))
        if round_index >= warmup:
            if not base_passes:
                base_passes.append(await _timed_pass(baseline, base, now, expected_items))
            seconds[baseline].append(statistics.median(base_passes))
    return Paired(seconds, ratios)


async def _timed_pass(
    name: str, prepare: Prepare, now: Callable[[], float], expected_items: int
) -> float:
    """One untimed set-up, then one timed pass; raises when the pass skipped items."""
    run = prepare()
    started = now()
    seen = await run()
    elapsed = now() - started
    if seen < expected_items:
        raise AssertionError(f"{name} consumed {seen} items, expected {expected_items}")
    return elapsed


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
