"""The strict check of one recorded body by its wire's grammar alone, per event, against the floor.

What the cassette transports and ``course check`` run on every recorded
stream: ``course_vendor.judge_body`` (the wire's framing and its grammar,
a synchronous fold; no model, no client, no event loop). The floor is the
least a reader of the same bytes does: the SSE decoder the project frames
every stream with (``course_http.SseDecoder``) and ``json.loads`` of each
``data``. One body per wire (``benchmarks._vendor_bodies``' text body of
``deltas`` deltas, the shapes of the recorded transcripts), both sides
timed in the same rounds; the target is at most `TARGET` times the floor.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from returns.result import Success

from benchmarks._timing import Spread, measure_sync_side_by_side, per_round_ratios
from benchmarks._vendor_bodies import Api, VendorBody, vendor_body
from benchmarks.report import Row
from course_http import SseDecoder
from course_vendor import judge_body, load_vendor

__all__ = ["FLOOR", "OURS", "TARGET", "GrammarBudget", "run_grammar"]

GROUP = "grammar"
FLOOR = "floor: SseDecoder framing, json.loads each data"
OURS = "course_vendor.judge_body (the grammar alone)"
TARGET = 3.0
"""The strict check may spend at most three times the floor per event."""


@dataclass(frozen=True)
class GrammarBudget:
    """How many deltas the body of each wire streams, and how many rounds are timed."""

    deltas: int
    rounds: int
    warmup: int


def _floor(body: VendorBody) -> Callable[[], object]:
    def run() -> int:
        decoder = SseDecoder(vendor=body.api)
        events = 0
        for event in [*decoder.feed_bytes(body.body), *decoder.close()]:
            if event.data != "[DONE]":
                json.loads(event.data)
            events += 1
        if events != body.events:
            raise AssertionError(f"{body.api}: the floor framed {events} of {body.events} events")
        return events

    return run


def _ours(body: VendorBody) -> Callable[[], object]:
    plugin = load_vendor(body.api)

    def run() -> object:
        judged = judge_body(plugin, body.body)
        if not isinstance(judged, Success):
            raise AssertionError(f"{body.api}: the grammar refused the bench body: {judged}")
        return judged

    return run


def _rows(api: Api, budget: GrammarBudget) -> list[Row]:
    body = vendor_body(api, "text", budget.deltas)
    floor, ours = f"{api}: {FLOOR}", f"{api}: {OURS}"
    if load_vendor(api).grammar is None:
        reason = "the installed wire has no grammar"
        return [Row.unavailable(GROUP, ours, floor, reason)]
    seconds = measure_sync_side_by_side(
        {floor: lambda: _floor(body), ours: lambda: _ours(body)},
        rounds=budget.rounds,
        warmup=budget.warmup,
    )
    base = Spread.of(seconds[floor]).median / body.events
    mine = Spread.of(seconds[ours]).median / body.events
    ratio = Spread.of(per_round_ratios(seconds[ours], seconds[floor]))
    return [
        Row(
            GROUP,
            floor,
            "itself",
            None,
            f"{base * 1e6:.2f} µs/event ({body.events} events)",
            status="baseline",
            figures={"us_per_event": base * 1e6, "events": float(body.events)},
        ),
        Row(
            GROUP,
            ours,
            floor,
            ratio,
            f"{mine * 1e6:.2f} µs/event",
            target=f"<= {TARGET:.0f}x the floor",
            status="met" if ratio.median <= TARGET else "missed",
            figures={"us_per_event": mine * 1e6},
        ),
    ]


def run_grammar(budget: GrammarBudget, apis: tuple[Api, ...]) -> list[Row]:
    """The floor's row and ours for each wire of ``apis``, each wire's pair side by side.

    Raises ``AssertionError`` when the floor frames fewer events than the
    body holds or the grammar refuses the body (a pass that skipped work).
    """
    rows: list[Row] = []
    for api in apis:
        rows.extend(_rows(api, budget))
    return rows
