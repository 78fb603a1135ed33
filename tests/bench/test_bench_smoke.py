"""The benchmark harness cannot rot: a tiny-budget run, checked for structure, never for speed.

The smoke run is a subprocess, like ``make bench-smoke``; it needs only the
workspace packages, and peers that are not installed show up as ``n/a``
rows. No assertion here looks at how fast anything was.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from returns.result import Success

from benchmarks._children import PYCACHE, ROOT
from benchmarks._serve_row import SERVED
from benchmarks._timing import AsyncRun, Spread, measure_async_side_by_side, per_round_ratios
from benchmarks._vendor_bodies import (
    APIS,
    VendorBody,
    body_frames,
    shapes_of,
    vendor_body,
)
from benchmarks._vendor_ours import prepare_decoder_framing, prepare_floor, prepare_ours
from benchmarks._workload import lazy_records, text_deltas, write_fixture_file
from benchmarks.grammar import FLOOR as GRAMMAR_FLOOR
from benchmarks.grammar import OURS as GRAMMAR_OURS
from benchmarks.grammar import TARGET as GRAMMAR_TARGET
from benchmarks.imports import top_level_import_us
from benchmarks.report import TABLE_HEADER, Row, render_markdown
from benchmarks.vendor_peers import VENDOR_PEERS
from benchmarks.vendors import DECODER_FRAMING, FLOOR, HTTPX_FRAMING, OUR_MODELS
from course_provider_fixture import FixtureProviderAdapter, load_fixture
from tests.children import child_env

GROUPS = {
    "streaming",
    "vendors",
    "grammar",
    "bedrock",
    "cassettes",
    "load",
    "scaling",
    "import",
    "check",
}
OUR_STREAMING_ROWS = {
    "ScriptedModel (pre-built chunks)",
    "ScriptedModel (factory builds each chunk)",
    "FixtureProviderAdapter (array source)",
    "FixtureProviderAdapter (async source)",
}
TARGETED_ROWS = OUR_STREAMING_ROWS - {"ScriptedModel (factory builds each chunk)"}
PEER_STREAMING_ROWS = {
    "pydantic-ai FunctionModel (stream_function)",
    "openai-agents ScriptedModel (pre-built events)",
    "openai-agents ScriptedModel (stream factory)",
    "langchain-core GenericFakeChatModel.astream",
}
OUR_IMPORT_ROWS = {
    "course_stream",
    "course_protocol",
    "course_scripted",
    "course_provider_fixture",
    "course_cli",
}


class SmokeRun:
    """What one ``python -m benchmarks.run --smoke`` left behind."""

    def __init__(self, out: Path) -> None:
        self.completed = subprocess.run(
            [sys.executable, "-m", "benchmarks.run", "--smoke", "--out", str(out)],
            cwd=ROOT,
            env=child_env({"PYTHONPYCACHEPREFIX": str(PYCACHE)}),
            capture_output=True,
            text=True,
            # About a minute on an idle 2-vCPU machine; more than 300 s under a load of five.
            timeout=900,
            check=False,
        )
        self.out = out

    def rows(self) -> list[dict[str, Any]]:
        document = json.loads((self.out / "results.json").read_text(encoding="utf-8"))
        rows: list[dict[str, Any]] = document["rows"]
        return rows

    def row(self, name: str) -> dict[str, Any]:
        matches = [row for row in self.rows() if row["name"] == name]
        assert len(matches) == 1, f"expected one row named {name!r}, found {len(matches)}"
        return matches[0]


@pytest.fixture(scope="module")
def smoke(tmp_path_factory: pytest.TempPathFactory) -> SmokeRun:
    run = SmokeRun(tmp_path_factory.mktemp("bench"))
    assert run.completed.returncode == 0, run.completed.stderr
    return run


def _is_na(row: dict[str, Any]) -> bool:
    status: str = row["status"]
    return status.startswith("n/a:")


def test_smoke_run_covers_every_group(smoke: SmokeRun) -> None:
    assert {row["group"] for row in smoke.rows()} == GROUPS


def test_smoke_run_prints_the_same_table_it_writes(smoke: SmokeRun) -> None:
    table = (smoke.out / "table.md").read_text(encoding="utf-8")
    assert table in smoke.completed.stdout
    lines = table.splitlines()
    assert tuple(lines[:2]) == TABLE_HEADER
    assert len(lines) == len(smoke.rows()) + 2
    assert all(line.startswith("| ") and line.endswith(" |") for line in lines)


def test_every_measured_row_has_a_positive_ratio_inside_its_spread(smoke: SmokeRun) -> None:
    measured = [row for row in smoke.rows() if not _is_na(row) and row["status"] != "baseline"]
    assert measured
    for row in measured:
        ratio = row["ratio"]
        assert ratio is not None, row["name"]
        assert 0 < ratio["low"] <= ratio["median"] <= ratio["high"], row["name"]


def test_each_group_with_measured_rows_has_a_baseline_row(smoke: SmokeRun) -> None:
    for group in GROUPS:
        rows = [row for row in smoke.rows() if row["group"] == group and not _is_na(row)]
        if rows:
            assert any(row["status"] == "baseline" for row in rows), group


def test_our_streaming_rows_always_run_and_say_whether_they_met_their_target(
    smoke: SmokeRun,
) -> None:
    floor = smoke.row("floor: bare async generator of pre-built chunks")
    assert floor["status"] == "baseline"
    assert floor["figures"]["us_per_chunk"] > 0
    for name in OUR_STREAMING_ROWS:
        row = smoke.row(name)
        if row["target"] or name in TARGETED_ROWS:
            assert row["status"] in {"met", "missed"}, (name, row["status"])
        assert row["figures"]["us_per_chunk"] > 0


def test_the_cassettes_group_replays_each_call_kind_and_leaves_vcr_out_of_the_smoke_run(
    smoke: SmokeRun,
) -> None:
    for kind in ("streamed", "plain"):
        floor = smoke.row(f"httpx2.MockTransport, {kind}")
        ours = smoke.row(f"Httpx2CassetteTransport, {kind}")
        vcr = smoke.row(f"VCR.py (pytest-recording defaults), {kind}")
        if _is_na(floor):
            assert floor["status"] == "n/a: anthropic not installed (the peers group)"
            assert ours["status"] == vcr["status"] == floor["status"]
            continue
        assert vcr["status"] == "n/a: peers left out (smoke)"
        assert floor["status"] == "baseline"
        assert ours["status"] in {
            f"<= 1.5x the floor: {floor_half}; faster than VCR.py: n/a (peers left out (smoke))"
            for floor_half in ("met", "missed")
        }
        assert ours["against"] == f"httpx2.MockTransport, {kind}"
    document = json.loads((smoke.out / "results.json").read_text(encoding="utf-8"))
    assert document["context"]["vcr_defaults"] == [], "VCR.py's defaults are a peers-only check"


def test_the_grammar_group_judges_each_wire_beside_its_floor_with_a_target(
    smoke: SmokeRun,
) -> None:
    for api in APIS:
        floor = smoke.row(f"{api}: {GRAMMAR_FLOOR}")
        ours = smoke.row(f"{api}: {GRAMMAR_OURS}")
        assert floor["status"] == "baseline", api
        assert floor["figures"]["events"] > 0, api
        assert ours["against"] == floor["name"], api
        assert ours["target"] == f"<= {GRAMMAR_TARGET:.0f}x the floor", api
        assert ours["status"] in {"met", "missed"}, api
        assert "µs/event" in ours["measured"], api


def test_peer_rows_are_measured_or_say_not_installed(smoke: SmokeRun) -> None:
    for name in PEER_STREAMING_ROWS:
        row = smoke.row(name)
        if _is_na(row):
            assert row["status"].startswith("n/a: not installed"), row["status"]
        else:
            assert row["ratio"]["median"] > 0


def test_scaling_rows_cover_both_sources_and_report_memory(smoke: SmokeRun) -> None:
    scaling = [row for row in smoke.rows() if row["group"] == "scaling"]
    assert {row["name"].split(",")[0] for row in scaling} == {"array source", "async source"}
    for row in scaling:
        assert row["figures"]["seconds"] > 0
        assert row["figures"]["peak_mib"] >= 0
        assert "peak +" in row["measured"]


def test_every_package_has_an_import_row(smoke: SmokeRun) -> None:
    for name in OUR_IMPORT_ROWS:
        assert smoke.row(name)["figures"]["ms"] > 0, name
    assert smoke.row("import asyncio")["status"] == "baseline"


def test_check_row_is_measured_or_says_the_cli_is_not_built(smoke: SmokeRun) -> None:
    check = [row for row in smoke.rows() if row["group"] == "check"]
    assert check
    for row in check:
        if _is_na(row):
            assert row["status"] == "n/a: course-cli not built"
        elif row["status"] != "baseline":
            assert "files/s" in row["measured"]


def test_load_rows_pair_each_file_with_bare_json_loads(smoke: SmokeRun) -> None:
    load = [row["name"] for row in smoke.rows() if row["group"] == "load"]
    assert len(load) % 2 == 0
    assert sum(name.startswith("bare json.loads") for name in load) == len(load) // 2


def test_text_deltas_survive_langchains_whitespace_split_unchanged() -> None:
    deltas = text_deltas(101)
    assert len(deltas) == 101
    assert tuple(re.split(r"(\s)", "".join(deltas))) == deltas


@pytest.mark.parametrize("count", [0, -1, 2, 100])
def test_text_deltas_refuses_counts_that_cannot_end_on_a_word(count: int) -> None:
    with pytest.raises(ValueError, match="odd and positive"):
        text_deltas(count)


def test_generated_fixture_file_loads_strictly_and_snapshots(tmp_path: Path) -> None:
    path = tmp_path / "fixture.json"
    size = write_fixture_file(path, 30_000, deltas_per_response=9)
    assert size == path.stat().st_size >= 30_000
    result = load_fixture(path).bind(FixtureProviderAdapter.from_fixture)
    assert isinstance(result, Success)
    assert result.unwrap().pending_response_count > 1


async def test_lazy_records_are_a_complete_response_that_yields_to_the_loop() -> None:
    records = [record async for record in lazy_records(5, yield_every=2)]
    assert [record["type"] for record in records if isinstance(record, dict)] == [
        "response_start",
        *["text_delta"] * 5,
        "response_end",
    ]


def test_import_time_counts_only_top_level_imports_after_the_marker() -> None:
    stderr = "\n".join(
        [
            "import time: self [us] | cumulative | imported package",
            "import time:       100 |        100 | site",
            "benchmarks-import-marker",
            "import time:        10 |         10 |   frozendict._frozendict",
            "import time:        40 |         50 | frozendict",
            "import time:         5 |          5 | course_stream._abort",
            "import time:        30 |        300 | course_stream",
        ]
    )
    assert top_level_import_us(stderr) == 355


def test_import_time_without_the_marker_is_refused() -> None:
    with pytest.raises(ValueError, match="marker"):
        top_level_import_us("import time:       100 |        100 | site")


def test_spread_keeps_the_median_between_the_extremes() -> None:
    assert Spread.of([3.0, 1.0, 2.0]) == Spread(2.0, 1.0, 3.0)
    with pytest.raises(ValueError, match="no values"):
        Spread.of([])


def test_per_round_ratios_pair_rounds_and_refuse_a_length_mismatch() -> None:
    assert per_round_ratios([2.0, 9.0], [1.0, 3.0]) == [2.0, 3.0]
    with pytest.raises(ValueError, match="rounds"):
        per_round_ratios([1.0], [1.0, 2.0])


def test_an_unavailable_row_renders_its_reason_and_no_ratio() -> None:
    row = Row.unavailable("streaming", "peer", "floor", "not installed (peer)")
    line = render_markdown([row]).splitlines()[-1]
    assert line == "| streaming | peer | n/a |  | floor |  |  | n/a: not installed (peer) |"
    assert not row.available


class CandidateThatSkipsChunks:
    """A streaming candidate that stops after half the chunks: it must not be timed as valid."""

    def __init__(self, total: int) -> None:
        self.total = total

    def __call__(self) -> AsyncRun:
        async def run() -> int:
            return self.total // 2

        return run


async def test_a_candidate_that_skips_chunks_fails_the_measurement() -> None:
    async def full() -> int:
        return 10

    with pytest.raises(AssertionError, match="consumed 5 items, expected 10"):
        await measure_async_side_by_side(
            {"floor": lambda: full, "skipper": CandidateThatSkipsChunks(10)},
            rounds=1,
            warmup=0,
            expected_items=10,
        )


def test_vendors_rows_cover_every_api_shape_and_candidate(smoke: SmokeRun) -> None:
    for api in APIS:
        for shape in shapes_of(api):
            prefix = f"{api} {shape}: "
            floor = smoke.row(prefix + FLOOR)
            assert floor["status"] == "baseline"
            assert floor["figures"]["us_per_event"] > 0
            for name in (HTTPX_FRAMING, DECODER_FRAMING):
                assert smoke.row(prefix + name)["ratio"]["median"] > 0
            ours = smoke.row(prefix + OUR_MODELS[api])
            assert ours["status"] in {"met", "missed"}
            # The smoke budget's sizes: 10 and 100.
            one_event = {vendor_body(api, shape, n).events for n in (10, 100)} == {1}
            judged = "at 10^2 (one event at every N)" if one_event else "at every N"
            # The reasoning rows have no SDK helper to be judged against: nothing follows.
            assert f"{ours['target']};".startswith(f"<= 2x floor {judged};")
            assert "µs/event" in ours["measured"]
            peers = () if shape == "reasoning" else VENDOR_PEERS
            for peer in (peer for peer in peers if peer.api == api):
                row = smoke.row(prefix + peer.name)
                if _is_na(row):
                    assert row["status"].startswith("n/a: not installed"), row["status"]
                else:
                    assert row["ratio"]["median"] > 0
                    assert row["figures"]["us_per_event"] > 0


def test_vendors_memory_rows_compare_peak_growth_with_what_the_message_holds(
    smoke: SmokeRun,
) -> None:
    rows = [row for row in smoke.rows() if "peak memory" in row["name"]]
    assert {row["name"].split(":")[0] for row in rows} == {
        f"{api} {shape}" for api in APIS for shape in shapes_of(api)
    }
    for row in rows:
        assert row["status"] in {"met", "missed"}
        assert row["figures"]["held_bytes_per_event"] > 0
        assert "B/event" in row["measured"]


def test_vendors_serve_rows_measure_course_serve_or_say_the_sdk_is_not_installed(
    smoke: SmokeRun,
) -> None:
    rows = [row for row in smoke.rows() if "course serve" in row["name"]]
    assert [row["name"].split(" text:")[0] for row in rows] == [
        api for api in APIS if api in SERVED
    ]
    for row in rows:
        assert row["against"] == "same SDK reading the bytes in-process"
        if _is_na(row):
            assert row["status"].startswith("n/a: not installed"), row["status"]
        else:
            assert row["ratio"]["median"] > 0
            assert row["figures"]["events_per_second"] > 0
            assert "events/s over loopback" in row["measured"]


API_SHAPES = [(api, shape) for api in APIS for shape in shapes_of(api)]


@pytest.mark.parametrize(("api", "shape"), API_SHAPES)
def test_vendor_bodies_are_framed_json_events_built_lazily(api: str, shape: str) -> None:
    body = vendor_body(api, shape, 7)  # type: ignore[arg-type]
    frames = list(body_frames(api, shape, 7))  # type: ignore[arg-type]
    assert "".join(frames).encode() == body.body
    assert len(frames) == body.events
    for frame in frames:
        assert frame.endswith("\n\n")
        data = frame.rstrip("\n").rpartition("data: ")[2]
        assert data == "[DONE]" or type(json.loads(data)) is dict
    if shape == "tool":
        assert body.arguments == {"text": "".join(f" {word}" for word in body.text[10:-2].split())}


def test_vendor_bodies_refuse_fewer_than_three_deltas() -> None:
    with pytest.raises(ValueError, match="at least 3"):
        vendor_body("openai-chat", "text", 2)


def test_vendor_bodies_come_only_in_their_wires_shapes() -> None:
    with pytest.raises(ValueError, match="openai-chat has no reasoning body"):
        vendor_body("openai-chat", "reasoning", 9)
    assert "reasoning" in shapes_of("openai-responses")


async def test_a_reasoning_body_is_read_as_reasoning_deltas_and_one_reasoning_block() -> None:
    body = vendor_body("openai-responses", "reasoning", 9)
    assert body.expected == " lorem ipsum dolor sit amet consectetur adipiscing elit lorem"
    wrong = VendorBody(body.api, body.shape, body.deltas, body.body, body.events, "other")
    with pytest.raises(AssertionError, match="openai-responses reasoning: saw 9 of 9"):
        await prepare_ours(wrong)()()


@pytest.mark.parametrize(("api", "shape"), API_SHAPES)
async def test_our_rows_read_every_delta_and_the_right_result(api: str, shape: str) -> None:
    body = vendor_body(api, shape, 9)  # type: ignore[arg-type]
    for prepare in (prepare_floor(body), prepare_decoder_framing(body), prepare_ours(body)):
        assert await prepare()() == 9


async def test_our_row_refuses_a_body_whose_result_differs() -> None:
    body = vendor_body("anthropic-messages", "text", 9)
    wrong = VendorBody(body.api, body.shape, body.deltas, body.body, body.events, "other text")
    with pytest.raises(AssertionError, match="saw 9 of 9"):
        await prepare_ours(wrong)()()


async def test_a_floor_pass_that_finds_an_event_missing_fails() -> None:
    body = vendor_body("openai-responses", "text", 9)
    claimed = VendorBody(body.api, body.shape, 10, body.body, body.events + 1, body.text)
    with pytest.raises(AssertionError, match=f"framed {body.events} of {body.events + 1} events"):
        await prepare_floor(claimed)()()
