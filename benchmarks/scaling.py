"""Scaling of FixtureProviderAdapter from 10^4 to 10^6 records: time and peak memory.

Each measurement runs in a fresh interpreter (``benchmarks._scaling_child``)
so that its peak RSS belongs to it alone. The array source is built up front
(it is the fixture, held in memory by definition); the async source builds
each record only when asked and yields to the loop every 256 records, so a
consumer that keeps up holds only a bounded window of chunks.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
from dataclasses import dataclass

from benchmarks._children import ROOT, child_environment
from benchmarks._timing import Spread
from benchmarks.report import Row

__all__ = ["ScalingBudget", "run_scaling"]

GROUP = "scaling"
LINEAR_SLACK = 1.3
"""Linear growth: ten times the records may cost at most 13x the time."""
FLAT_BYTES_PER_RECORD = 64.0
"""Flat memory: growth of at most one pointer-sized slot and a small object per record."""


@dataclass(frozen=True)
class ScalingBudget:
    """Record counts (powers of ten, ascending) and rounds per count."""

    exponents: tuple[int, ...]
    rounds: int


def _child(source: str, deltas: int) -> dict[str, float]:
    completed = subprocess.run(
        [
            sys.executable,
            "-m",
            "benchmarks._scaling_child",
            "--source",
            source,
            "--deltas",
            str(deltas),
        ],
        cwd=ROOT,
        env=child_environment(),
        capture_output=True,
        text=True,
        check=False,
    )
    if completed.returncode != 0:
        raise RuntimeError(f"scaling child failed ({source}, {deltas}):\n{completed.stderr}")
    figures: dict[str, float] = json.loads(completed.stdout.strip().splitlines()[-1])
    return figures


def _available() -> str | None:
    try:
        from course_provider_fixture import FixtureProviderAdapter  # noqa: F401
    except ImportError as error:
        return f"course_provider_fixture not built ({error})"
    return None


def run_scaling(budget: ScalingBudget) -> list[Row]:
    """Measure each source at each size and return one row per (source, size)."""
    missing = _available()
    rows: list[Row] = []
    for source in ("array", "async"):
        previous: tuple[int, list[float], float] | None = None
        for exponent in budget.exponents:
            records = 10**exponent
            name = f"{source} source, 10^{exponent} records"
            against = f"{source} source, 10^{exponent - 1}" if previous else "itself"
            if missing is not None:
                rows.append(Row.unavailable(GROUP, name, against, missing))
                continue
            # An odd number of deltas plus the start and end records: 10^k + 1 records.
            runs = [_child(source, records - 1) for _ in range(budget.rounds)]
            seconds = [run["seconds"] for run in runs]
            peak_mib = statistics.median(
                (run["peak_after_kib"] - run["peak_before_kib"]) / 1024 for run in runs
            )
            median = statistics.median(seconds)
            figures = {
                "records": float(records),
                "seconds": median,
                "peak_mib": peak_mib,
                "us_per_record": median / records * 1e6,
            }
            measured = (
                f"{median:.3f} s ({median / records * 1e6:.2f} µs/record), peak +{peak_mib:.1f} MiB"
            )
            if previous is None:
                rows.append(
                    Row(GROUP, name, against, None, measured, status="baseline", figures=figures)
                )
            else:
                previous_records, previous_seconds, previous_peak = previous
                ratio = Spread(
                    median / statistics.median(previous_seconds),
                    min(seconds) / max(previous_seconds),
                    max(seconds) / min(previous_seconds),
                )
                growth = (peak_mib - previous_peak) * 1024 * 1024 / (records - previous_records)
                figures["peak_growth_bytes_per_record"] = growth
                time_ok = ratio.median <= 10 * LINEAR_SLACK
                target = "time <= 13x (linear)"
                if source == "async":
                    target += f"; memory flat (<= {FLAT_BYTES_PER_RECORD:.0f} B/record)"
                    memory_ok = growth <= FLAT_BYTES_PER_RECORD
                else:
                    memory_ok = True
                status = "met" if time_ok and memory_ok else "missed"
                status += f" (+{growth:.0f} B/record)"
                rows.append(Row(GROUP, name, against, ratio, measured, target, status, figures))
            previous = (records, seconds, peak_mib)
    return rows
