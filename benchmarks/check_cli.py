"""``course check`` on many small fixture files: files per second, against bare ``json.loads``.

The command runs in-process through ``course_cli``'s ``main(argv)`` so the
figure is about checking, not about interpreter start-up.
"""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from benchmarks._timing import Spread, measure_sync_side_by_side, per_round_ratios
from benchmarks._workload import fixture_document, response_records, text_deltas
from benchmarks.report import Row
from course_cli import main

__all__ = ["CheckBudget", "run_check"]

GROUP = "check"
BASELINE = "bare json.loads"


@dataclass(frozen=True)
class CheckBudget:
    """How many small files to check and how many rounds are timed."""

    files: int
    rounds: int
    warmup: int


def _write_files(workdir: Path, count: int) -> list[Path]:
    folder = workdir / "check-fixtures"
    folder.mkdir(parents=True, exist_ok=True)
    deltas = text_deltas(9)
    paths = []
    for index in range(count):
        path = folder / f"fixture-{index:04d}.json"
        if not path.exists():
            first = response_records(deltas, f"response-{index:04d}-a")
            second = response_records(deltas, f"response-{index:04d}-b")
            path.write_text(
                json.dumps(fixture_document([first, second]), indent=2), encoding="utf-8"
            )
        paths.append(path)
    return paths


def _check_runner(main: Callable[[list[str]], object], paths: list[Path]) -> Callable[[], object]:
    argv = ["check", *map(str, paths)]

    def check() -> object:
        output = io.StringIO()
        try:
            with contextlib.redirect_stdout(output), contextlib.redirect_stderr(output):
                status = main(argv)
        except SystemExit as exit_:
            status = exit_.code
        if status not in (0, None):
            raise AssertionError(
                f"course check failed on valid fixtures: {output.getvalue()[:500]}"
            )
        return status

    return check


def run_check(budget: CheckBudget, workdir: Path) -> list[Row]:
    """Check the files with ``course check`` and load them with ``json.loads``, side by side."""
    name = f"course check, {budget.files} small files"
    against = f"{BASELINE}, same files"
    paths = _write_files(workdir, budget.files)
    check = _check_runner(main, paths)
    check()

    def baseline() -> object:
        return [json.loads(path.read_bytes()) for path in paths]

    seconds = measure_sync_side_by_side(
        {BASELINE: lambda: baseline, name: lambda: check},
        rounds=budget.rounds,
        warmup=budget.warmup,
    )
    base = Spread.of(seconds[BASELINE]).median
    mine = Spread.of(seconds[name]).median
    return [
        Row(
            GROUP,
            f"{BASELINE}, {budget.files} small files",
            "same files",
            None,
            f"{budget.files / base:,.0f} files/s",
            status="baseline",
            figures={"files_per_second": budget.files / base},
        ),
        Row(
            GROUP,
            name,
            against,
            Spread.of(per_round_ratios(seconds[name], seconds[BASELINE])),
            f"{budget.files / mine:,.0f} files/s",
            figures={"files_per_second": budget.files / mine},
        ),
    ]
