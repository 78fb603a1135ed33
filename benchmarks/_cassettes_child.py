"""The cassettes group measured in a fresh interpreter: ``python -m benchmarks._cassettes_child``.

``--rounds N --warmup N [--peers]`` prints one JSON object as its last
line: ``rows`` (each as `benchmarks.report.write_json` writes a row) and
``vcr_defaults`` (what VCR.py records and checks with its default settings,
measured by `benchmarks._vcr_defaults`; empty without ``--peers``). A fresh
interpreter, so that the floor, ours and VCR.py share one process and one
machine load whatever the harness imported or measured before.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict

from benchmarks._cassettes_measure import CassettesBudget, measure_cassettes
from benchmarks._vcr_defaults import check_vcr_defaults


def main() -> None:
    """Parse the arguments, measure the group, print the JSON document."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, required=True)
    parser.add_argument("--warmup", type=int, required=True)
    parser.add_argument("--peers", action="store_true")
    arguments = parser.parse_args()
    budget = CassettesBudget(arguments.rounds, arguments.warmup, arguments.peers)
    rows = measure_cassettes(budget)
    facts = check_vcr_defaults() if budget.include_peers else []
    document = {"rows": [asdict(row) for row in rows], "vcr_defaults": [asdict(f) for f in facts]}
    print(json.dumps(document))


if __name__ == "__main__":
    main()
