"""The one table: rows, their markdown and JSON forms, and the scaling chart."""

from __future__ import annotations

import importlib
import json
import os
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from benchmarks._timing import Spread

__all__ = [
    "Row",
    "render_markdown",
    "write_json",
    "write_scaling_chart",
]

TABLE_HEADER = (
    "| group | row | ratio | spread | against | measured | target | status |",
    "| --- | --- | ---: | --- | --- | --- | --- | --- |",
)


@dataclass(frozen=True)
class Row:
    """One line of the table.

    ``ratio`` is the median of per-round ratios to ``against`` (``None`` for
    a baseline row or a row that could not run: ``status`` then says why,
    starting with ``n/a:`` for the latter). ``figures`` keeps the raw
    numbers for the JSON file.
    """

    group: str
    name: str
    against: str
    ratio: Spread | None
    measured: str
    target: str = ""
    status: str = ""
    figures: dict[str, float] = field(default_factory=dict)

    @classmethod
    def unavailable(cls, group: str, name: str, against: str, reason: str) -> Row:
        """A row that could not be measured; ``reason`` follows ``n/a:``."""
        return cls(group, name, against, None, "", status=f"n/a: {reason}")

    @classmethod
    def from_json(cls, document: dict[str, Any]) -> Row:
        """The row ``dataclasses.asdict`` made ``document`` of (as `write_json` writes it).

        Raises ``KeyError`` or ``TypeError`` when ``document`` is not such a row.
        """
        ratio = document["ratio"]
        return cls(
            document["group"],
            document["name"],
            document["against"],
            None if ratio is None else Spread(ratio["median"], ratio["low"], ratio["high"]),
            document["measured"],
            target=document["target"],
            status=document["status"],
            figures=dict(document["figures"]),
        )

    @property
    def available(self) -> bool:
        """False when the row could not be measured at all."""
        return not self.status.startswith("n/a:")


def _format_ratio(value: float) -> str:
    if value >= 100:
        return f"{value:,.0f}x"
    if value >= 10:
        return f"{value:.1f}x"
    return f"{value:.2f}x"


def render_markdown(rows: Sequence[Row]) -> str:
    """The table as GitHub markdown, one line per row, in the given order."""
    lines = list(TABLE_HEADER)
    for row in rows:
        if row.ratio is None:
            ratio = "1.00x" if row.available and row.status == "baseline" else "n/a"
            spread = ""
        else:
            ratio = _format_ratio(row.ratio.median)
            spread = f"{_format_ratio(row.ratio.low)} .. {_format_ratio(row.ratio.high)}"
        cells = (row.group, row.name, ratio, spread, row.against, row.measured, row.target)
        lines.append("| " + " | ".join((*cells, row.status)) + " |")
    return "\n".join(lines) + "\n"


def write_json(rows: Sequence[Row], path: Path, *, context: dict[str, object]) -> None:
    """Write the rows and the run's context (budget, versions) as one JSON document."""
    document = {"context": context, "rows": [asdict(row) for row in rows]}
    path.write_text(json.dumps(document, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def write_scaling_chart(rows: Sequence[Row], path: Path) -> str:
    """Draw time and peak memory against record count for the scaling rows.

    Returns a short note for the console: where the chart went, or
    ``n/a: ...`` when matplotlib is not installed or there is nothing to draw.
    """
    series: dict[str, list[tuple[float, float, float]]] = {}
    for row in rows:
        if row.group != "scaling" or not row.available:
            continue
        source = row.name.split(",")[0]
        point = (row.figures["records"], row.figures["seconds"], row.figures["peak_mib"])
        series.setdefault(source, []).append(point)
    if not series:
        return "n/a: no scaling rows"
    os.environ.setdefault("MPLBACKEND", "Agg")
    try:
        importlib.import_module("matplotlib").use("Agg")
        pyplot = importlib.import_module("matplotlib.pyplot")
    except ImportError:
        return "n/a: matplotlib not installed (the benchmarks member's peers group)"
    figure, (time_axes, memory_axes) = pyplot.subplots(1, 2, figsize=(10, 4))
    for source, points in sorted(series.items()):
        points.sort()
        records = [point[0] for point in points]
        time_axes.plot(records, [point[1] for point in points], marker="o", label=source)
        memory_axes.plot(records, [point[2] for point in points], marker="o", label=source)
    for axes, label in ((time_axes, "seconds"), (memory_axes, "peak RSS growth (MiB)")):
        axes.set_xscale("log")
        axes.set_xlabel("records")
        axes.set_ylabel(label)
        axes.grid(visible=True, which="both", alpha=0.3)
        axes.legend()
    time_axes.set_yscale("log")
    figure.suptitle("FixtureProviderAdapter scaling (median of rounds)")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    pyplot.close(figure)
    return str(path)
