"""The cassettes group: our cassette replay, VCR.py and the floor, from one fresh interpreter.

`run_cassettes` runs ``benchmarks._cassettes_child`` (see
``benchmarks._cassettes_measure`` for what a pass is) and returns its
rows; with peers, it also hands back what VCR.py's defaults were seen to
record and check (``benchmarks._vcr_defaults``), measured in the same child.
"""

from __future__ import annotations

from benchmarks._cassettes_measure import CassettesBudget
from benchmarks._children import child_json
from benchmarks._vcr_defaults import VcrFact
from benchmarks.report import Row

__all__ = ["CassettesBudget", "VcrFact", "run_cassettes"]


def run_cassettes(budget: CassettesBudget, facts: list[VcrFact] | None = None) -> list[Row]:
    """The group's rows, measured in a child interpreter; VCR.py's defaults appended to ``facts``.

    Raises ``RuntimeError`` with the child's standard error when it fails.
    """
    arguments = ["--rounds", str(budget.rounds), "--warmup", str(budget.warmup)]
    if budget.include_peers:
        arguments.append("--peers")
    document = child_json("benchmarks._cassettes_child", *arguments)
    assert isinstance(document, dict)
    if facts is not None:
        facts.extend(VcrFact(**fact) for fact in document["vcr_defaults"])
    return [Row.from_json(row) for row in document["rows"]]
