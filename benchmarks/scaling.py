"""Scaling of FixtureProviderAdapter from 10^4 to 10^6 records: time and peak memory.

Each measurement runs in a fresh interpreter (``benchmarks._scaling_child``)
so that its peak RSS belongs to it alone. The array source is built up front
(it is the fixture, held in memory by definition); the async source builds
each record only when asked and yields to the loop every 256 records, so a
consumer that keeps up holds only a bounded window of chunks.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass

from benchmarks._children import child_figures
from benchmarks._timing import Spread
from benchmarks.report import Row

__all__ = ["ScalingBudget", "run_scaling"]

GROUP = "scaling"
LINEAR_SLACK = 1.3
"""Linear growth: ten times the records may cost at most 13x the time."""
FLAT_BYTES_PER_RECORD = 80.0
"""Flat memory for the async source: at most 80 bytes of peak RSS growth per record.

Strictly flat is not possible: the seed has every text delta append one
text block to the final assistant message, so the response holds one
``CourseTextBlock`` (48 bytes with its tuple slot) per delta. Chunks piling
up in the stream instead of reaching the consumer would add a chunk object
and a buffer slot (about 56 bytes) on top of that, well past this limit.
"""


@dataclass(frozen=True)
class ScalingBudget:
    """Record counts (powers of ten, ascending), rounds per count, repeats in a child."""

    exponents: tuple[int, ...]
    rounds: int
    records_per_child: int
    """A child repeats small sizes until it has streamed about this many records."""


def _child(source: str, deltas: int, repeats: int) -> dict[str, float]:
    return child_figures(
        "benchmarks._scaling_child",
        "--source",
        source,
        "--deltas",
        str(deltas),
        "--repeats",
        str(repeats),
    )


def _row(
    source: str,
    exponent: int,
    runs: list[dict[str, float]],
    previous: tuple[int, list[float], float] | None,
    last: bool,
) -> Row:
    records = 10**exponent
    name = f"{source} source, 10^{exponent} records"
    seconds = [run["seconds"] for run in runs]
    median = statistics.median(seconds)
    peak_mib = statistics.median(
        (run["peak_after_kib"] - run["peak_before_kib"]) / 1024 for run in runs
    )
    figures = {
        "records": float(records),
        "seconds": median,
        "peak_mib": peak_mib,
        "us_per_record": median / records * 1e6,
    }
    measured = f"{median:.3f} s ({median / records * 1e6:.2f} µs/record), peak +{peak_mib:.1f} MiB"
    if previous is None:
        return Row(GROUP, name, "itself", None, measured, status="baseline", figures=figures)
    previous_records, previous_seconds, previous_peak = previous
    ratio = Spread(
        median / statistics.median(previous_seconds),
        min(seconds) / max(previous_seconds),
        max(seconds) / min(previous_seconds),
    )
    growth = (peak_mib - previous_peak) * 1024 * 1024 / (records - previous_records)
    figures["peak_growth_bytes_per_record"] = growth
    against = f"{source} source, 10^{exponent - 1}"
    if not last:
        status = f"(+{growth:.0f} B/record)"
        return Row(GROUP, name, against, ratio, measured, status=status, figures=figures)
    met = ratio.median <= 10 * LINEAR_SLACK
    target = f"time <= {10 * LINEAR_SLACK:.0f}x (linear)"
    if source == "async":
        target += f"; memory flat (<= {FLAT_BYTES_PER_RECORD:.0f} B/record)"
        met = met and growth <= FLAT_BYTES_PER_RECORD
    status = f"{'met' if met else 'missed'} (+{growth:.0f} B/record)"
    return Row(GROUP, name, against, ratio, measured, target, status, figures)


def run_scaling(budget: ScalingBudget) -> list[Row]:
    """Measure each source at each size and return one row per (source, size).

    Targets apply to the step between the two largest sizes, where the
    figures are least noisy; the earlier steps are shown for the trend.
    """
    rows: list[Row] = []
    for source in ("array", "async"):
        previous: tuple[int, list[float], float] | None = None
        for exponent in budget.exponents:
            records = 10**exponent
            repeats = max(1, budget.records_per_child // records)
            # An odd number of deltas plus the start and end records: 10^k + 1 records.
            runs = [_child(source, records - 1, repeats) for _ in range(budget.rounds)]
            last = exponent == budget.exponents[-1]
            rows.append(_row(source, exponent, runs, previous, last))
            previous = (records, [run["seconds"] for run in runs], rows[-1].figures["peak_mib"])
    return rows
