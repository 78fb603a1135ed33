"""How the vendors group takes its figures: every candidate of one API and shape, size by size.

At each size of ``sizes`` every candidate runs side by side in interleaved
rounds after warm-up (``benchmarks._timing``); the peers only at
``peer_sizes``. At each size of ``single_pass_sizes`` (the largest, where
one SDK pass takes seconds to minutes) the peers run once each, side by
side with one pass of the floor, unless their last growth already showed
them superlinear: such a pass would take minutes and is estimated instead.
"""

from __future__ import annotations

import asyncio
import math
import statistics
from dataclasses import dataclass, field

from benchmarks._serve_row import ServeBudget
from benchmarks._timing import Prepare, Spread, measure_async_side_by_side, per_round_ratios
from benchmarks._vendor_bodies import APIS, Api, Shape, vendor_body
from benchmarks._vendor_ours import (
    prepare_decoder_framing,
    prepare_floor,
    prepare_httpx_framing,
    prepare_ours,
)
from benchmarks.peers import PeerNotInstalledError
from benchmarks.vendor_peers import VENDOR_PEERS
from course_http import RecordedTransport
from course_vendor import load_vendor

__all__ = [
    "DECODER_FRAMING",
    "FLOOR",
    "HTTPX_FRAMING",
    "OUR_MODELS",
    "SUPERLINEAR",
    "Measured",
    "VendorsBudget",
    "measure",
    "power",
]

FLOOR = "floor: split into events, json.loads each data"
HTTPX_FRAMING = "httpx2.EventSource framing"
DECODER_FRAMING = "course_http.stream_events framing (SseDecoder)"


def _our_model_row(api: Api) -> str:
    """``ours: <the model class the registry replays the wire with>``, and the dialect it reads."""
    plugin = load_vendor(api)
    name = type(plugin.replay_model(RecordedTransport([]))).__name__
    return f"ours: {name} ({api} dialect)" if plugin.dialect_of is not None else f"ours: {name}"


OUR_MODELS: dict[Api, str] = {api: _our_model_row(api) for api in APIS}
"""Each measured wire's row of ours, named by the model class that reads it."""
SUPERLINEAR = 13.0
"""A peer whose time grew more than this for ten times the events is not run once more."""


@dataclass(frozen=True)
class VendorsBudget:
    """Sizes (ascending), where peers run, rounds, and the memory children's two sizes."""

    sizes: tuple[int, ...]
    peer_sizes: tuple[int, ...]
    single_pass_sizes: tuple[int, ...]
    rounds: int
    warmup: int
    min_round_seconds: float
    memory_sizes: tuple[int, ...]
    """Two sizes, or none to skip the memory rows."""
    serve: ServeBudget
    """The ``course serve`` rows' body size and rounds."""
    collect: bool = True
    """Run the garbage collector before each candidate's passes. Off in the smoke budget,
    whose figures are never read: there a full collection per candidate, dozens per wire
    and shape, costs far more than the passes."""


def power(n: int) -> str:
    """``10^k`` for a power of ten, else the number with thousands separators."""
    exponent = len(str(n)) - 1
    return f"10^{exponent}" if n == 10**exponent else f"{n:,}"


@dataclass
class Measured:
    """One (API, shape): each candidate's seconds per round at each size, and the floor's
    seconds in the same rounds; why a candidate never ran; why a size was skipped; the
    growth between the last two sizes of the rows that ran both in the same rounds."""

    seconds: dict[str, dict[int, list[float]]] = field(default_factory=dict)
    floors: dict[str, dict[int, list[float]]] = field(default_factory=dict)
    missing: dict[str, str] = field(default_factory=dict)
    skipped: dict[str, str] = field(default_factory=dict)
    growth: dict[str, tuple[int, int, Spread]] = field(default_factory=dict)
    """Per-round t(larger)/t(smaller) of the rows that ran both sizes in the same rounds."""
    events: dict[int, int] = field(default_factory=dict)
    """The body's event count at each size."""

    def one_event_body(self) -> bool:
        """Whether the body is one event at every size measured (a Gemini Tool call, whole)."""
        return bool(self.events) and set(self.events.values()) == {1}

    def ratios(self, name: str, n: int) -> Spread | None:
        """The per-round ratios to the floor at ``n``, or ``None`` when not measured there."""
        if n not in self.seconds.get(name, {}):
            return None
        return Spread.of(per_round_ratios(self.seconds[name][n], self.floors[name][n]))

    def median(self, name: str, n: int) -> float | None:
        """The median seconds per pass at ``n``, or ``None``."""
        values = self.seconds.get(name, {}).get(n)
        return statistics.median(values) if values else None

    def sizes_of(self, name: str) -> list[int]:
        """The sizes ``name`` was measured at, ascending."""
        return sorted(self.seconds.get(name, {}))

    def keep(self, seconds: dict[str, list[float]], n: int) -> None:
        for name, values in seconds.items():
            self.seconds.setdefault(name, {})[n] = values
            self.floors.setdefault(name, {})[n] = seconds[FLOOR]


def _peers(api: Api, shape: Shape, n: int, measured: Measured) -> dict[str, Prepare]:
    prepared: dict[str, Prepare] = {}
    if shape == "reasoning":
        # The peers read text and Tool bodies; a reasoning row is judged by the floor alone.
        return prepared
    body = vendor_body(api, shape, n)
    for peer in VENDOR_PEERS:
        if peer.api != api:
            continue
        try:
            prepared[peer.name] = peer.prepare(body)
        except PeerNotInstalledError as error:
            measured.missing[peer.name] = str(error)
    return prepared


def _ours(api: Api, shape: Shape, n: int, measured: Measured) -> dict[str, Prepare]:
    body = vendor_body(api, shape, n)
    measured.events[n] = body.events
    return {
        FLOOR: prepare_floor(body),
        HTTPX_FRAMING: prepare_httpx_framing(body),
        DECODER_FRAMING: prepare_decoder_framing(body),
        OUR_MODELS[api]: prepare_ours(body),
    }


def _side_by_side(
    candidates: dict[str, Prepare],
    n: int,
    *,
    rounds: int,
    warmup: int,
    fill: float,
    collect: bool = True,
) -> dict[str, list[float]]:
    return asyncio.run(
        measure_async_side_by_side(
            candidates,
            rounds=rounds,
            warmup=warmup,
            expected_items=n,
            min_round_seconds=fill,
            collect=collect,
        ),
        debug=False,
    )


def _single_pass_peers(api: Api, shape: Shape, n: int, measured: Measured) -> dict[str, Prepare]:
    """The peers worth one pass at ``n``; the others get a reason in ``measured.skipped``."""
    chosen: dict[str, Prepare] = {}
    for name, prepare in _peers(api, shape, n, measured).items():
        sizes = measured.sizes_of(name)
        if len(sizes) >= 2:
            small, large = sizes[-2], sizes[-1]
            last = measured.median(name, large) or 0.0
            growth = last / (measured.median(name, small) or 1.0)
            per_step = growth ** (1 / math.log10(large / small))
            if per_step > SUPERLINEAR:
                estimate = last * per_step ** math.log10(n / large)
                measured.skipped[name] = (
                    f"not run at {power(n)}: {per_step:.0f}x per 10x events, "
                    f"one pass would take about {estimate / 60:.0f} min"
                )
                continue
        chosen[name] = prepare
    return chosen


def measure(api: Api, shape: Shape, budget: VendorsBudget) -> Measured:
    """Every candidate of ``api`` and ``shape`` at every size of ``budget``.

    From the second size on, the previous size's floor, framings and adapter
    run in the same rounds too (named ``<row>@<size>``), so that their growth
    is a per-round ratio like every other figure, not two sessions compared.
    """
    measured = Measured()
    previous: int | None = None
    for n in budget.sizes:
        candidates = _ours(api, shape, n, measured)
        if n in budget.peer_sizes:
            candidates.update(_peers(api, shape, n, measured))
        if previous is not None:
            smaller = _ours(api, shape, previous, measured)
            candidates.update({f"{name}@{previous}": run for name, run in smaller.items()})
        rounds, warmup, fill = budget.rounds, budget.warmup, budget.min_round_seconds
        expected = previous or n
        seconds = _side_by_side(
            candidates, expected, rounds=rounds, warmup=warmup, fill=fill, collect=budget.collect
        )
        if previous is not None:
            for name in smaller:
                growth = per_round_ratios(seconds[name], seconds.pop(f"{name}@{previous}"))
                measured.growth[name] = (previous, n, Spread.of(growth))
        measured.keep(seconds, n)
        previous = n
    for n in budget.single_pass_sizes:
        peers = _single_pass_peers(api, shape, n, measured)
        if peers:
            floor = {FLOOR: prepare_floor(vendor_body(api, shape, n))}
            seconds = _side_by_side(
                {**floor, **peers}, n, rounds=1, warmup=0, fill=0.0, collect=budget.collect
            )
            # The floor's own row keeps its main rounds; this pass only pairs with the peers'.
            for name in peers:
                measured.seconds.setdefault(name, {})[n] = seconds[name]
                measured.floors.setdefault(name, {})[n] = seconds[FLOOR]
    for peer in VENDOR_PEERS:
        if peer.api == api and peer.name not in measured.seconds:
            measured.missing.setdefault(peer.name, "not measured")
    return measured
