"""Fixture load and snapshot (``load_fixture`` + ``from_fixture``) against bare ``json.loads``.

Both sides start from the same file on disk: the baseline reads its bytes
and parses them with ``json.loads``; ours loads it strictly (duplicate keys,
``NaN``, invalid UTF-8 rejected) and snapshots every record into frozen
values, ready to stream.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from returns.result import Success

from benchmarks._timing import Spread, measure_sync_side_by_side, per_round_ratios
from benchmarks._workload import write_fixture_file
from benchmarks.report import Row
from course_provider_fixture import FixtureProviderAdapter, load_fixture

__all__ = ["LoadingBudget", "run_loading"]

GROUP = "load"
BASELINE = "bare json.loads"


@dataclass(frozen=True)
class LoadingBudget:
    """File sizes to load (label, bytes) and how many rounds are timed."""

    sizes: tuple[tuple[str, int], ...]
    rounds: int
    warmup: int


def _fixture_file(workdir: Path, label: str, size: int) -> tuple[Path, int]:
    path = workdir / f"load-{label.replace(' ', '')}.json"
    if path.exists() and path.stat().st_size >= size:
        return path, path.stat().st_size
    return path, write_fixture_file(path, size)


def _ours(path: Path) -> Callable[[], object]:
    def load() -> object:
        return load_fixture(path).bind(FixtureProviderAdapter.from_fixture)

    return load


def _baseline(path: Path) -> Callable[[], Callable[[], object]]:
    def load() -> object:
        return json.loads(path.read_bytes())

    return _constant(load)


def _constant(run: Callable[[], object]) -> Callable[[], Callable[[], object]]:
    return lambda: run


def _check_loaded(result: object, path: Path) -> None:
    if not isinstance(result, Success):
        raise AssertionError(f"load_fixture + from_fixture rejected {path}: {result}")


def run_loading(budget: LoadingBudget, workdir: Path) -> list[Row]:
    """Load each fixture size both ways, side by side, and return one baseline and one row each."""
    rows: list[Row] = []
    for label, size in budget.sizes:
        path, actual = _fixture_file(workdir, label, size)
        megabytes = actual / 1e6
        name = f"load_fixture + from_fixture, {label}"
        against = f"{BASELINE}, {label}"
        ours = _ours(path)
        _check_loaded(ours(), path)

        seconds = measure_sync_side_by_side(
            {BASELINE: _baseline(path), name: _constant(ours)},
            rounds=budget.rounds,
            warmup=budget.warmup,
        )
        base = Spread.of(seconds[BASELINE]).median
        rows.append(
            Row(
                GROUP,
                f"{BASELINE}, {label}",
                f"{megabytes:.1f} MB file",
                None,
                f"{base * 1e3:.1f} ms ({megabytes / base:.0f} MB/s)",
                status="baseline",
                figures={"seconds": base, "bytes": float(actual)},
            )
        )
        mine = Spread.of(seconds[name]).median
        rows.append(
            Row(
                GROUP,
                name,
                against,
                Spread.of(per_round_ratios(seconds[name], seconds[BASELINE])),
                f"{mine * 1e3:.1f} ms ({megabytes / mine:.0f} MB/s)",
                figures={"seconds": mine, "bytes": float(actual)},
            )
        )
    return rows
