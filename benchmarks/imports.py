"""Import time of each package alone, in a fresh interpreter, against the peers' doubles.

Each measurement runs ``python -X importtime -c "<marker>; import <module>"``
and adds up the cumulative times of the top-level imports printed after the
marker: the time to import the module and everything it pulls in, without
the interpreter's own start-up. The floor is ``import asyncio``, which every
package here and every peer needs anyway. Bytecode caches are written to a
shared prefix under the results folder and a warm-up import fills them
first, so no row pays for compiling sources (see ``benchmarks._children``).
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from dataclasses import dataclass

from benchmarks._children import child_environment
from benchmarks._timing import Spread, per_round_ratios
from benchmarks.report import Row

__all__ = ["ImportBudget", "run_imports", "top_level_import_us"]

GROUP = "import"
FLOOR = "asyncio"
OURS = (
    "course_stream",
    "course_protocol",
    "course_scripted",
    "course_provider_fixture",
    "course_cli",
)
PEERS = (
    ("pydantic-ai FunctionModel", "pydantic_ai.models.function"),
    ("openai-agents agents.testing", "agents.testing"),
    ("langchain-core fake chat models", "langchain_core.language_models.fake_chat_models"),
)
_MARKER = "benchmarks-import-marker"


@dataclass(frozen=True)
class ImportBudget:
    """Rounds per module; peers can be skipped to keep a smoke run short."""

    rounds: int
    include_peers: bool


def top_level_import_us(stderr: str) -> int:
    """Sum the cumulative microseconds of the top-level imports printed after the marker.

    Raises ``ValueError`` when the marker is missing (the child did not run
    the import) or when no import line follows it.
    """
    lines = stderr.splitlines()
    if _MARKER not in lines:
        raise ValueError("no import marker in the -X importtime output")
    total, found = 0, False
    for line in lines[lines.index(_MARKER) + 1 :]:
        if not line.startswith("import time:"):
            continue
        _, cumulative, name = line.split("|", 2)
        if name.startswith("  ") or not name.strip():
            continue
        total += int(cumulative.strip())
        found = True
    if not found:
        raise ValueError("no import after the marker")
    return total


def _import_us(module: str) -> int:
    code = f"import sys; sys.stderr.write({_MARKER!r} + '\\n'); sys.stderr.flush(); import {module}"
    completed = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", code],
        env=child_environment(),
        capture_output=True,
        text=True,
        check=False,
    )
    if completed.returncode != 0:
        raise RuntimeError(f"importing {module} failed:\n{completed.stderr[-2000:]}")
    return top_level_import_us(completed.stderr)


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ImportError:
        return False


def run_imports(budget: ImportBudget) -> list[Row]:
    """Measure the floor, our packages and the peers, interleaved round by round."""
    modules: dict[str, str] = {f"import {FLOOR}": FLOOR}
    missing: dict[str, str] = {}
    for module in OURS:
        modules[module] = module
    for label, module in PEERS:
        if not budget.include_peers:
            missing[label] = "skipped in the smoke budget"
        elif not _installed(module):
            missing[label] = f"not installed ({module.split('.')[0]})"
        else:
            modules[label] = module
    for module in modules.values():
        _import_us(module)
    micros: dict[str, list[float]] = {label: [] for label in modules}
    for _ in range(budget.rounds):
        for label, module in modules.items():
            micros[label].append(float(_import_us(module)))
    floor_label = f"import {FLOOR}"
    rows: list[Row] = []
    for label in (floor_label, *OURS, *(label for label, _ in PEERS)):
        if label in missing:
            rows.append(Row.unavailable(GROUP, label, floor_label, missing[label]))
            continue
        milliseconds = Spread.of(micros[label]).median / 1e3
        figures = {"ms": milliseconds}
        measured = f"{milliseconds:.1f} ms"
        if label == floor_label:
            rows.append(
                Row(
                    GROUP,
                    label,
                    "fresh interpreter",
                    None,
                    measured,
                    status="baseline",
                    figures=figures,
                )
            )
            continue
        ratio = Spread.of(per_round_ratios(micros[label], micros[floor_label]))
        rows.append(Row(GROUP, label, floor_label, ratio, measured, figures=figures))
    return rows
