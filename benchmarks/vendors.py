"""The real adapters per event, against the floor, the SSE framings, the SDKs and pydantic-ai.

For each API (Anthropic Messages, OpenAI Chat, OpenAI Responses) and each
shape (``n`` text deltas; one Tool call in ``n`` argument fragments) and each
size ``n``, every candidate reads the same in-memory body, side by side in
interleaved rounds (``benchmarks._timing``). A row is one (API, shape,
candidate): its ratio to the floor at the middle size, the ratios at the
other sizes, its growth from one size to the next, and its targets. Peak
memory of our adapters is measured in fresh interpreters
(``benchmarks._vendors_child``), the body built as it is read.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass

from benchmarks._children import ROOT, child_environment
from benchmarks._serve_row import serve_rows
from benchmarks._timing import Prepare, Spread, measure_async_side_by_side, per_round_ratios
from benchmarks._vendor_bodies import APIS, SHAPES, Api, Shape, vendor_body
from benchmarks._vendor_ours import (
    prepare_decoder_framing,
    prepare_floor,
    prepare_httpx_framing,
    prepare_ours,
)
from benchmarks.peers import PeerNotInstalledError
from benchmarks.report import Row
from benchmarks.vendor_peers import VENDOR_PEERS

__all__ = ["OUR_MODELS", "VendorsBudget", "run_vendors"]

GROUP = "vendors"
FLOOR = "floor: split into events, json.loads each data"
HTTPX_FRAMING = "httpx2.EventSource framing"
DECODER_FRAMING = "course_http.stream_events framing (SseDecoder)"
OUR_MODELS: dict[Api, str] = {
    "anthropic-messages": "ours: AnthropicMessagesModel",
    "openai-chat": "ours: OpenAIChatModel",
    "openai-responses": "ours: OpenAIResponsesModel",
}
FLOOR_LIMIT = 2.0
"""Our adapter may spend at most twice the floor per event."""
HELPER_FACTORS: dict[Api, float] = {
    "anthropic-messages": 5.0,
    "openai-chat": 10.0,
    "openai-responses": 10.0,
}
"""How many times faster than the API's SDK stream helper our adapter must be."""
LINEAR_LIMIT = 11.0
"""Ten times the events may cost at most 11x the time."""
MEMORY_SLACK = 16.0
"""Peak growth per event allowed beyond what the final message holds (allocator, pages)."""


@dataclass(frozen=True)
class VendorsBudget:
    """Sizes (ascending), the sizes peers run at, rounds, and the memory children's sizes."""

    sizes: tuple[int, ...]
    peer_sizes: tuple[int, ...]
    rounds: int
    warmup: int
    min_round_seconds: float
    memory_sizes: tuple[int, ...]
    """Two sizes, or none to skip the memory rows."""


def _power(n: int) -> str:
    exponent = len(str(n)) - 1
    return f"10^{exponent}" if n == 10**exponent else f"{n:,}"


def _helper_name(api: Api) -> str:
    return next(peer.name for peer in VENDOR_PEERS if peer.api == api and "stream()" in peer.name)


@dataclass
class _Measured:
    """One (API, shape) cell: seconds per round for each candidate at each size."""

    seconds: dict[str, dict[int, list[float]]]
    missing: dict[str, str]

    def ratios(self, name: str, n: int) -> Spread | None:
        if n not in self.seconds.get(name, {}):
            return None
        return Spread.of(per_round_ratios(self.seconds[name][n], self.seconds[FLOOR][n]))

    def median(self, name: str, n: int) -> float | None:
        values = self.seconds.get(name, {}).get(n)
        return statistics.median(values) if values else None


def _candidates(
    api: Api, shape: Shape, n: int, budget: VendorsBudget
) -> tuple[dict[str, Prepare], dict[str, str]]:
    body = vendor_body(api, shape, n)
    candidates: dict[str, Prepare] = {
        FLOOR: prepare_floor(body),
        HTTPX_FRAMING: prepare_httpx_framing(body),
        DECODER_FRAMING: prepare_decoder_framing(body),
        OUR_MODELS[api]: prepare_ours(body),
    }
    missing: dict[str, str] = {}
    for peer in VENDOR_PEERS:
        if peer.api != api:
            continue
        try:
            prepared = peer.prepare(body)
        except PeerNotInstalledError as error:
            missing[peer.name] = str(error)
            continue
        if n in budget.peer_sizes:
            candidates[peer.name] = prepared
        else:
            missing[peer.name] = f"peers run at N = {_sizes(budget.peer_sizes)} only"
    return candidates, missing


def _measure(api: Api, shape: Shape, budget: VendorsBudget) -> _Measured:
    measured = _Measured({}, {})
    for n in budget.sizes:
        candidates, missing = _candidates(api, shape, n, budget)
        for name, reason in missing.items():
            measured.missing.setdefault(name, reason)
        seconds = asyncio.run(
            measure_async_side_by_side(
                candidates,
                rounds=budget.rounds,
                warmup=budget.warmup,
                expected_items=n,
                min_round_seconds=budget.min_round_seconds,
            ),
            debug=False,
        )
        for name, values in seconds.items():
            measured.seconds.setdefault(name, {})[n] = values
    return measured


def _growth(measured: _Measured, name: str, sizes: tuple[int, ...]) -> tuple[str, float] | None:
    """The last size step this row has: its label and t(larger)/t(smaller)."""
    have = [n for n in sizes if measured.median(name, n) is not None]
    if len(have) < 2:
        return None
    small, large = have[-2], have[-1]
    ratio = (measured.median(name, large) or 0.0) / (measured.median(name, small) or 1.0)
    return f"t({_power(large)})/t({_power(small)})", ratio


def _our_targets(
    api: Api, measured: _Measured, budget: VendorsBudget, growth: tuple[str, float] | None
) -> tuple[str, bool]:
    name = OUR_MODELS[api]
    words = [f"<= {FLOOR_LIMIT:.0f}x floor at every N"]
    met = all(
        (measured.ratios(name, n) or Spread(0, 0, 0)).median <= FLOOR_LIMIT for n in budget.sizes
    )
    helper = _helper_name(api)
    factor = HELPER_FACTORS[api]
    at = max((n for n in budget.sizes if measured.median(helper, n) is not None), default=None)
    if at is not None:
        limit = (measured.ratios(helper, at) or Spread(0, 0, 0)).median / factor
        words.append(f"<= SDK helper / {factor:.0f} ({limit:.1f}x at {_power(at)})")
        met = met and (measured.ratios(name, at) or Spread(0, 0, 0)).median <= limit
    if growth is not None and growth[0].startswith("t(10^5)"):
        words.append(f"t(10^5)/t(10^4) <= {LINEAR_LIMIT:.0f}x")
        met = met and growth[1] <= LINEAR_LIMIT
    return "; ".join(words), met


def _rows_for(api: Api, shape: Shape, measured: _Measured, budget: VendorsBudget) -> list[Row]:
    middle = budget.sizes[len(budget.sizes) // 2]
    against = f"floor, N={_power(middle)}"
    peers = [peer.name for peer in VENDOR_PEERS if peer.api == api]
    names = [FLOOR, HTTPX_FRAMING, DECODER_FRAMING, OUR_MODELS[api], *peers]
    rows: list[Row] = []
    for name in names:
        title = f"{api} {shape}: {name}"
        if name not in measured.seconds:
            rows.append(Row.unavailable(GROUP, title, against, measured.missing[name]))
            continue
        at = middle if measured.median(name, middle) is not None else max(measured.seconds[name])
        per_event_us = (measured.median(name, at) or 0.0) / at * 1e6
        figures: dict[str, float] = {"us_per_event": per_event_us, "n": float(at)}
        others = []
        for n in budget.sizes:
            ratio = measured.ratios(name, n)
            if ratio is not None:
                figures[f"ratio_{n}"] = ratio.median
                figures[f"us_per_event_{n}"] = (measured.median(name, n) or 0.0) / n * 1e6
                if n != at and name != FLOOR:
                    others.append(f"{ratio.median:.2f}x at {_power(n)}")
        growth = _growth(measured, name, budget.sizes)
        parts = [f"{per_event_us:.2f} µs/event", *others]
        if growth is not None:
            figures["growth"] = growth[1]
            parts.append(f"{growth[0]} {growth[1]:.1f}x")
        measured_text = "; ".join(parts)
        if name == FLOOR:
            rows.append(
                Row(GROUP, title, "itself", None, measured_text, status="baseline", figures=figures)
            )
            continue
        target, status = "", ""
        if name == OUR_MODELS[api]:
            target, met = _our_targets(api, measured, budget, growth)
            status = "met" if met else "missed"
        ratio = measured.ratios(name, at)
        row_against = against if at == middle else f"floor, N={_power(at)}"
        rows.append(Row(GROUP, title, row_against, ratio, measured_text, target, status, figures))
    return rows


def _sizes(sizes: tuple[int, ...]) -> str:
    return ", ".join(_power(n) for n in sizes)


def _child(api: Api, shape: Shape, deltas: int) -> dict[str, float]:
    command = [sys.executable, "-m", "benchmarks._vendors_child", "--api", api, "--shape", shape]
    completed = subprocess.run(
        [*command, "--deltas", str(deltas)],
        cwd=ROOT,
        env=child_environment(),
        capture_output=True,
        text=True,
        check=False,
    )
    if completed.returncode != 0:
        raise RuntimeError(f"vendors child failed ({api} {shape} {deltas}):\n{completed.stderr}")
    figures: dict[str, float] = json.loads(completed.stdout.strip().splitlines()[-1])
    return figures


def _memory_row(api: Api, shape: Shape, sizes: tuple[int, ...]) -> Row:
    small, large = sizes
    title = f"{api} {shape}: {OUR_MODELS[api]}, peak memory, consumer keeping up"
    runs = {n: _child(api, shape, n) for n in sizes}
    peak = {n: (runs[n]["peak_after_kib"] - runs[n]["peak_before_kib"]) * 1024 for n in sizes}
    per_event = (peak[large] - peak[small]) / (large - small)
    held = (runs[large]["held"] - runs[small]["held"]) / (large - small)
    limit = held + MEMORY_SLACK
    figures = {"peak_growth_bytes_per_event": per_event, "held_bytes_per_event": held}
    measured = (
        f"peak +{peak[large] / 2**20:.1f} MiB at {_power(large)}: +{per_event:.0f} B/event; "
        f"the final message holds {held:.1f} B/event"
    )
    target = f"<= held + {MEMORY_SLACK:.0f} B/event ({limit:.0f} B/event)"
    status = "met" if per_event <= limit else "missed"
    against = f"same row at {_power(small)}"
    growth = Spread.of([peak[large] / peak[small]]) if peak[small] > 0 else None
    return Row(GROUP, title, against, growth, measured, target, status, figures)


def run_vendors(
    budget: VendorsBudget, progress: Callable[[str], None] = lambda _: None
) -> list[Row]:
    """Measure every API and shape, then the memory children; return the group's rows."""
    rows: list[Row] = []
    for api in APIS:
        for shape in SHAPES:
            progress(f"vendors: {api} {shape}")
            rows.extend(_rows_for(api, shape, _measure(api, shape, budget), budget))
    if len(budget.memory_sizes) == 2:
        for api in APIS:
            for shape in SHAPES:
                rows.append(_memory_row(api, shape, budget.memory_sizes))
    rows.extend(serve_rows())
    return rows
