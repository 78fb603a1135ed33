"""``python -m benchmarks.run [--smoke] [--out DIR] [--only GROUPS] [--wires WIRES] [--profile]``.

Runs every group of the side-by-side table, prints it as markdown, and
writes ``results.json``, ``table.md`` and ``scaling.png`` to ``--out``
(``benchmarks/results/`` by default, git-ignored). ``--smoke`` swaps the
full budget for a tiny one that checks the harness still works in seconds.
``--wires`` keeps the vendors and grammar groups (and ``--profile``'s vendor reports) to
some of the registered vendor wires it has bodies for, e.g. ``gemini``.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import importlib.metadata
import os
import platform
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from benchmarks._serve_row import ServeBudget
from benchmarks._timing import AsyncRun
from benchmarks._vendor_bodies import APIS, Api, shapes_of, vendor_body
from benchmarks._vendor_ours import prepare_ours
from benchmarks._workload import text_deltas
from benchmarks.bedrock import BedrockBudget, run_bedrock
from benchmarks.cassettes import CassettesBudget, VcrFact, run_cassettes
from benchmarks.check_cli import CheckBudget, run_check
from benchmarks.grammar import GrammarBudget, run_grammar
from benchmarks.imports import ImportBudget, run_imports
from benchmarks.loading import LoadingBudget, run_loading
from benchmarks.report import Row, render_markdown, write_json, write_scaling_chart
from benchmarks.scaling import ScalingBudget, run_scaling
from benchmarks.streaming import OURS, StreamingBudget, build_candidates, run_streaming
from benchmarks.vendors import VendorsBudget, run_vendors

__all__ = ["FULL", "GROUPS", "SMOKE", "Budget", "Options", "main", "parse_options"]

DEFAULT_OUT = Path(__file__).resolve().parent / "results"
GROUPS = (
    "streaming",
    "vendors",
    "grammar",
    "bedrock",
    "cassettes",
    "load",
    "scaling",
    "import",
    "check",
)
PEER_DISTRIBUTIONS = (
    "pydantic-ai-slim",
    "openai-agents",
    "langchain-core",
    "anthropic",
    "openai",
    "vcrpy",
    "pytest-recording",
    "matplotlib",
    "pyinstrument",
)


@dataclass(frozen=True)
class Budget:
    """Everything that decides how long a run takes."""

    streaming: StreamingBudget
    vendors: VendorsBudget
    grammar: GrammarBudget
    bedrock: BedrockBudget
    cassettes: CassettesBudget
    loading: LoadingBudget
    scaling: ScalingBudget
    imports: ImportBudget
    check: CheckBudget


FULL = Budget(
    streaming=StreamingBudget(chunks=5_001, rounds=9, warmup=2, min_round_seconds=0.05),
    vendors=VendorsBudget(
        sizes=(10**3, 10**4, 10**5),
        peer_sizes=(10**3, 10**4),
        single_pass_sizes=(10**5,),
        rounds=5,
        warmup=1,
        min_round_seconds=0.05,
        memory_sizes=(10**4, 10**5),
        serve=ServeBudget(events=10**4, rounds=5, warmup=1),
    ),
    grammar=GrammarBudget(deltas=10**4, rounds=7, warmup=1),
    bedrock=BedrockBudget(deltas=10**4, rounds=9, warmup=2),
    cassettes=CassettesBudget(rounds=15, warmup=3, include_peers=True),
    loading=LoadingBudget(sizes=(("1 MB", 1_000_000), ("50 MB", 50_000_000)), rounds=3, warmup=1),
    scaling=ScalingBudget(exponents=(4, 5, 6), rounds=3, records_per_child=300_000),
    imports=ImportBudget(rounds=5, include_peers=True),
    check=CheckBudget(files=500, rounds=5, warmup=1),
)
SMOKE = Budget(
    streaming=StreamingBudget(chunks=101, rounds=3, warmup=1, min_round_seconds=0.001),
    vendors=VendorsBudget(
        sizes=(10, 100),
        peer_sizes=(10,),
        single_pass_sizes=(100,),
        rounds=2,
        warmup=1,
        min_round_seconds=0.001,
        memory_sizes=(1_000, 10_000),
        serve=ServeBudget(events=100, rounds=2, warmup=1),
        collect=False,
    ),
    grammar=GrammarBudget(deltas=100, rounds=2, warmup=1),
    bedrock=BedrockBudget(deltas=100, rounds=2, warmup=1),
    cassettes=CassettesBudget(rounds=2, warmup=1, include_peers=False),
    loading=LoadingBudget(sizes=(("20 kB", 20_000),), rounds=2, warmup=1),
    scaling=ScalingBudget(exponents=(2, 3), rounds=1, records_per_child=0),
    imports=ImportBudget(rounds=1, include_peers=False),
    check=CheckBudget(files=10, rounds=2, warmup=0),
)


def _context(
    budget: Budget, smoke: bool, wires: tuple[Api, ...], vcr_defaults: list[VcrFact]
) -> dict[str, object]:
    versions: dict[str, str] = {}
    for distribution in PEER_DISTRIBUTIONS:
        try:
            versions[distribution] = importlib.metadata.version(distribution)
        except importlib.metadata.PackageNotFoundError:
            versions[distribution] = "not installed"
    return {
        "smoke": smoke,
        "python": sys.version.split()[0],
        "implementation": platform.python_implementation(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "budget": asdict(budget),
        "wires": list(wires),
        "versions": versions,
        "vcr_defaults": [asdict(fact) for fact in vcr_defaults],
    }


@dataclass(frozen=True)
class Options:
    """What one command line asks for: the budget, where results go, which groups and wires."""

    smoke: bool
    out: Path
    groups: tuple[str, ...]
    """In `GROUPS` order, whatever order the command line named them in."""
    wires: tuple[Api, ...]
    """The vendor wires the vendors group measures, in the order of ``APIS``."""
    profile: bool
    wall_clock: bool
    """Time the streaming rows on the wall clock instead of the thread's CPU time."""


def _names(value: str, known: tuple[str, ...]) -> tuple[tuple[str, ...], list[str]]:
    """The names of comma-separated ``value`` found in ``known`` (in its order), and the rest."""
    named = {name.strip() for name in value.split(",") if name.strip()}
    return tuple(name for name in known if name in named), sorted(named - set(known))


def parse_options(argv: Sequence[str] | None = None) -> Options:
    """The options of ``argv`` (``sys.argv[1:]`` by default).

    Exits with status 2 and a usage message (argparse's ``parser.error``) for
    an unknown group or wire, or a ``--wires`` that names none.
    """
    parser = argparse.ArgumentParser(prog="python -m benchmarks.run", description=__doc__)
    parser.add_argument("--smoke", action="store_true", help="tiny budget: seconds, not minutes")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="where results go")
    parser.add_argument(
        "--only", default=",".join(GROUPS), help=f"comma-separated groups out of {','.join(GROUPS)}"
    )
    parser.add_argument(
        "--wires",
        default=",".join(APIS),
        help=f"comma-separated vendor wires the vendors group measures, out of {','.join(APIS)}",
    )
    parser.add_argument("--profile", action="store_true", help="also profile our streaming rows")
    parser.add_argument(
        "--wall-clock",
        action="store_true",
        help="time the streaming rows on the wall clock instead of the thread's CPU time",
    )
    arguments = parser.parse_args(argv)
    groups, unknown = _names(arguments.only, GROUPS)
    if unknown:
        parser.error(f"unknown group(s): {', '.join(unknown)}")
    wires, unknown = _names(arguments.wires, APIS)
    if unknown:
        parser.error(f"unknown wire(s): {', '.join(unknown)} (known: {', '.join(APIS)})")
    if not wires:
        parser.error("--wires names no wire")
    return Options(
        arguments.smoke, arguments.out, groups, wires, arguments.profile, arguments.wall_clock
    )


def _profile(out: Path, chunks: int, vendor_deltas: int, wires: tuple[Api, ...]) -> list[str]:
    """Profile our streaming rows and our vendor adapters with pyinstrument; return the paths."""
    try:
        profiler_class = importlib.import_module("pyinstrument").Profiler
    except ImportError:
        return ["n/a: pyinstrument not installed (the benchmarks member's peers group)"]
    candidates, _ = build_candidates(text_deltas(chunks))
    runs: dict[str, AsyncRun] = {name: candidates[name]() for name in OURS if name in candidates}
    for api in wires:
        for shape in shapes_of(api):
            runs[f"vendors {api} {shape}"] = prepare_ours(vendor_body(api, shape, vendor_deltas))()
    written = []
    for name, run in runs.items():
        profiler = profiler_class(interval=0.0001, async_mode="disabled")
        profiler.start()
        asyncio.run(run(), debug=False)
        profiler.stop()
        path = out / f"profile-{re.sub(r'[^a-z]+', '-', name.lower()).strip('-')}.txt"
        path.write_text(
            profiler.output_text(unicode=True, color=False, show_all=False), encoding="utf-8"
        )
        written.append(str(path))
    return written


def main(argv: Sequence[str] | None = None) -> int:
    """Run the selected groups, print the table, write the files; return the exit status."""
    options = parse_options(argv)
    budget = SMOKE if options.smoke else FULL
    if options.wall_clock:
        budget = replace(budget, streaming=replace(budget.streaming, clock="wall"))
    out = options.out
    out.mkdir(parents=True, exist_ok=True)
    vcr_defaults: list[VcrFact] = []
    steps: dict[str, Callable[[], list[Row]]] = {
        "streaming": lambda: run_streaming(budget.streaming),
        "vendors": lambda: run_vendors(budget.vendors, options.wires),
        "grammar": lambda: run_grammar(budget.grammar, options.wires),
        "bedrock": lambda: run_bedrock(budget.bedrock),
        "cassettes": lambda: run_cassettes(budget.cassettes, vcr_defaults),
        "load": lambda: run_loading(budget.loading, out),
        "scaling": lambda: run_scaling(budget.scaling),
        "import": lambda: run_imports(budget.imports),
        "check": lambda: run_check(budget.check, out),
    }
    rows: list[Row] = []
    for group in options.groups:
        print(f"measuring {group} ...", file=sys.stderr, flush=True)
        rows.extend(steps[group]())
    table = render_markdown(rows)
    (out / "table.md").write_text(table, encoding="utf-8")
    context = _context(budget, options.smoke, options.wires, vcr_defaults)
    write_json(rows, out / "results.json", context=context)
    notes = [
        f"json: {out / 'results.json'}",
        f"chart: {write_scaling_chart(rows, out / 'scaling.png')}",
    ]
    notes.extend(f"VCR.py default, {fact.default}: {fact.seen}" for fact in vcr_defaults)
    if options.profile:
        notes.extend(f"profile: {path}" for path in _profile(out, 50_001, 10**5, options.wires))
    print(table)
    for note in notes:
        print(note)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
