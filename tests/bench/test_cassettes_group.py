"""The cassettes group: VCR.py measured whatever ran before, our two-part target, VCR.py's defaults.

The full group runs once (one round, no warm-up) in a subprocess that
imports ``httpx`` first, as the harness has after its other groups; it
needs the peers group (``make sync-bench``) and skips without it. No
assertion looks at how fast anything was.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import re
import subprocess
import sys
from dataclasses import asdict
from typing import Any

import pytest

from benchmarks._cassettes_measure import KEY, our_status
from benchmarks._children import PYCACHE, ROOT
from benchmarks._timing import Spread
from benchmarks.report import Row
from tests.children import child_env

README = ROOT / "packages" / "course-cassettes" / "README.md"
PEERS = ("anthropic", "vcr", "pytest_recording", "httpx")
KINDS = ("streamed", "plain")
VCR = "VCR.py (pytest-recording defaults)"
# The harness's other groups import httpx (pydantic-ai, openai-agents) before this one runs.
SCRIPT = """
import json
from dataclasses import asdict

import httpx

from benchmarks.cassettes import CassettesBudget, run_cassettes

facts = []
rows = run_cassettes(CassettesBudget(rounds=1, warmup=0, include_peers=True), facts)
print(json.dumps({"rows": [asdict(row) for row in rows], "facts": [asdict(f) for f in facts]}))
"""
FACTS = [
    ("the key in the cassette", "yes: the authorization header as sent"),
    ("request body matched", "no: a changed prompt replayed the recorded answer"),
    (
        "first difference named",
        "no for the body (not compared); a refused request (another host) fails the test with "
        "APIConnectionError('Connection error.'), the host named only in VCR.py's message, "
        "the error's __cause__",
    ),
    ("a refusal retried by the SDK", "yes: 3 requests for one refused call"),
    (
        "stream validated",
        "no: a Messages stream cut before message_stop was recorded and replayed as is",
    ),
    ("failed test's recording kept", "yes: test_calls_then_fails.yaml"),
]


class GroupRun:
    """What one run of the whole group, after ``import httpx``, printed."""

    def __init__(self) -> None:
        self.completed = subprocess.run(
            [sys.executable, "-c", SCRIPT],
            cwd=ROOT,
            env=child_env({"PYTHONPYCACHEPREFIX": str(PYCACHE)}),
            capture_output=True,
            text=True,
            # Half a minute on an idle 2-vCPU machine (the SDK's retries sleep).
            timeout=900,
            check=False,
        )
        assert self.completed.returncode == 0, self.completed.stderr
        document = json.loads(self.completed.stdout.strip().splitlines()[-1])
        self.rows: dict[str, dict[str, Any]] = {row["name"]: row for row in document["rows"]}
        self.facts: list[dict[str, str]] = document["facts"]


@pytest.fixture(scope="module")
def group() -> GroupRun:
    missing = [name for name in PEERS if importlib.util.find_spec(name) is None]
    if missing:
        pytest.skip(f"needs the peers group (make sync-bench): {', '.join(missing)} missing")
    return GroupRun()


def test_vcr_rows_are_measured_after_httpx_was_imported(group: GroupRun) -> None:
    for kind in KINDS:
        row = group.rows[f"{VCR}, {kind}"]
        assert row["status"] == "", row["status"]
        assert row["against"] == f"httpx2.MockTransport, {kind}"
        assert row["ratio"]["median"] > 0
        assert row["figures"]["seconds"] > 0


def test_our_rows_say_met_or_missed_for_both_halves_of_the_target(group: GroupRun) -> None:
    both = re.compile(r"<= 1\.5x the floor: (met|missed); faster than VCR\.py: (met|missed)")
    for kind in KINDS:
        row = group.rows[f"Httpx2CassetteTransport, {kind}"]
        assert both.fullmatch(row["status"]), row["status"]
        assert row["target"] == "<= 1.5x the floor and faster than VCR.py"
        assert row["figures"]["ratio_to_vcr"] > 0
        assert "x VCR.py (" in row["measured"]


def test_vcr_defaults_are_measured_in_the_readme_tables_order(group: GroupRun) -> None:
    assert [(fact["default"], fact["seen"]) for fact in group.facts] == FACTS
    assert KEY not in group.completed.stdout + group.completed.stderr


def _readme_vcr_column() -> dict[str, str]:
    """The comparison table's VCR.py cells by row label, backticks left out."""
    text = README.read_text(encoding="utf-8")
    table = text[text.index("| by default |") :].split("\n\n", 1)[0]
    cells = [line.strip("|").split(" | ") for line in table.splitlines()[2:]]
    return {row[0].strip(): row[-1].strip().replace("`", "") for row in cells}


def test_the_readme_quotes_each_measured_vcr_default_and_says_which_are_not(
    group: GroupRun,
) -> None:
    column = _readme_vcr_column()
    assert {fact["default"]: column[fact["default"]] for fact in group.facts} == {
        fact["default"]: f"{fact['seen']} (measured)" for fact in group.facts
    }
    versions = ", ".join(
        f"{label} {importlib.metadata.version(name)}"
        for label, name in (
            ("VCR.py", "vcrpy"),
            ("pytest-recording", "pytest-recording"),
            ("anthropic", "anthropic"),
        )
    )
    assert versions in " ".join(README.read_text(encoding="utf-8").split())
    unmeasured = set(column) - {fact["default"] for fact in group.facts}
    assert unmeasured == {"xdist-safe"}
    assert column["xdist-safe"].startswith("not measured: ")


@pytest.mark.parametrize(
    ("to_floor", "to_vcr", "status"),
    [
        (1.4, 0.9, "<= 1.5x the floor: met; faster than VCR.py: met"),
        (1.6, 0.5, "<= 1.5x the floor: missed; faster than VCR.py: met"),
        (1.2, 1.1, "<= 1.5x the floor: met; faster than VCR.py: missed"),
        (1.5, 1.0, "<= 1.5x the floor: met; faster than VCR.py: missed"),
        (2.0, 3.0, "<= 1.5x the floor: missed; faster than VCR.py: missed"),
    ],
)
def test_our_status_judges_each_half_on_its_own(
    to_floor: float, to_vcr: float, status: str
) -> None:
    assert our_status(to_floor, to_vcr, None) == status


def test_our_status_without_vcr_says_why_that_half_is_not_judged() -> None:
    assert our_status(1.0, None, "peers left out (smoke)") == (
        "<= 1.5x the floor: met; faster than VCR.py: n/a (peers left out (smoke))"
    )


@pytest.mark.parametrize("ratio", [None, Spread(1.2, 0.5, 3.0)])
def test_a_row_written_as_json_reads_back_the_same(ratio: Spread | None) -> None:
    row = Row("g", "name", "floor", ratio, "1 ms", "<= 2x", "met", {"seconds": 0.5})
    assert Row.from_json(json.loads(json.dumps(asdict(row)))) == row


def test_a_row_missing_a_field_is_refused() -> None:
    document = asdict(Row("g", "name", "floor", None, "1 ms"))
    del document["status"]
    with pytest.raises(KeyError, match="status"):
        Row.from_json(document)
