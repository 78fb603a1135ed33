"""Per-chunk streaming cost: our adapters and the peers' doubles against a bare async generator.

Every candidate streams the same ``N`` text deltas, consumes every chunk
with ``async for`` and, where the double has one, awaits the terminal
result. The floor is a bare async generator that yields the same pre-built
frozen chunk objects: what iterating ``N`` objects costs before any double
does any work.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass

from benchmarks._timing import (
    AsyncRun,
    Prepare,
    Spread,
    measure_async_paired,
)
from benchmarks._workload import (
    REQUEST_ID,
    RESPONSE_ID,
    fixture_document,
    response_records,
    text_deltas,
)
from benchmarks.peers import PEERS, PeerNotInstalledError
from benchmarks.report import Row
from course_protocol import (
    CourseAssistantMessage,
    CourseModelChunk,
    CourseModelRequest,
    CourseModelResponse,
    CourseModelUsage,
    CourseStopReason,
    CourseTextBlock,
    CourseTextDeltaChunk,
    CourseUserMessage,
)
from course_provider_fixture import FixtureProviderAdapter
from course_scripted import ScriptedModel, ScriptedResponseFactory, reply_chunks
from course_stream import AbortController, AbortSignal

__all__ = ["OURS", "StreamingBudget", "build_candidates", "run_streaming"]

GROUP = "streaming"
FLOOR = "floor: bare async generator of pre-built chunks"
SCRIPTED_PREBUILT = "ScriptedModel (pre-built chunks)"
SCRIPTED_BUILDING = "ScriptedModel (factory builds each chunk)"
FIXTURE_ARRAY = "FixtureProviderAdapter (array source)"
FIXTURE_ASYNC = "FixtureProviderAdapter (async source)"
OURS = (SCRIPTED_PREBUILT, SCRIPTED_BUILDING, FIXTURE_ARRAY, FIXTURE_ASYNC)
PYDANTIC_AI = PEERS[0].name
OPENAI_PREBUILT = PEERS[1].name
LANGCHAIN = PEERS[3].name
OPENAI_PREBUILT_NOMINAL = 5.0
"""The OpenAI Agents pre-built ratio the target assumes when that peer is not installed."""
FAR_BELOW = 10.0
""""Far below" a peer means at most a tenth of its ratio to the floor."""


@dataclass(frozen=True)
class StreamingBudget:
    """How many deltas each pass streams (odd), how many rounds are timed, and on which clock."""

    chunks: int
    rounds: int
    warmup: int
    min_round_seconds: float
    clock: str = "cpu"


def _request() -> CourseModelRequest:
    return CourseModelRequest(
        id=REQUEST_ID, messages=(CourseUserMessage(id="message-user", content="bench"),)
    )


def _response(deltas: tuple[str, ...]) -> CourseModelResponse:
    return CourseModelResponse(
        id=RESPONSE_ID,
        request_id=REQUEST_ID,
        message=CourseAssistantMessage(
            id=f"message-{RESPONSE_ID}",
            content=tuple(CourseTextBlock(text=delta) for delta in deltas),
        ),
        stop_reason=CourseStopReason.STOP,
        usage=CourseModelUsage(input_tokens=1, output_tokens=len(deltas)),
    )


def _prepare_floor(deltas: tuple[str, ...]) -> Prepare:
    chunks = tuple(CourseTextDeltaChunk(request_id=REQUEST_ID, delta=delta) for delta in deltas)

    def prepare() -> AsyncRun:
        async def source() -> AsyncIterator[CourseTextDeltaChunk]:
            for chunk in chunks:
                yield chunk

        async def run() -> int:
            seen = 0
            async for _chunk in source():
                seen += 1
            return seen

        return run

    return prepare


def _scripted_factory(deltas: tuple[str, ...], *, build_chunks: bool) -> ScriptedResponseFactory:
    response = _response(deltas)
    if not build_chunks:
        # Pre-built chunks handed over as data, as the OpenAI Agents double's
        # `ModelStep.stream(events)` takes its pre-built events.
        chunks = tuple(CourseTextDeltaChunk(request_id=REQUEST_ID, delta=delta) for delta in deltas)
        return reply_chunks(chunks, response)

    async def building(
        active: CourseModelRequest, _signal: AbortSignal
    ) -> AsyncIterator[CourseModelChunk | CourseModelResponse]:
        for delta in deltas:
            yield CourseTextDeltaChunk(request_id=active.id, delta=delta)
        yield response

    return building


def _prepare_scripted(deltas: tuple[str, ...], *, build_chunks: bool) -> Prepare:
    request = _request()
    factory = _scripted_factory(deltas, build_chunks=build_chunks)

    def prepare() -> AsyncRun:
        model = ScriptedModel([factory])

        async def run() -> int:
            stream = model.stream(request, AbortController().signal)
            seen = 0
            async for _chunk in stream:
                seen += 1
            await stream.result
            return seen

        return run

    return prepare


def _prepare_fixture(deltas: tuple[str, ...], *, async_source: bool) -> Prepare:
    request = _request()
    records = response_records(deltas)

    async def source() -> AsyncIterator[object]:
        for record in records:
            yield record

    def prepare() -> AsyncRun:
        adapter = FixtureProviderAdapter(fixture_document([source() if async_source else records]))

        async def run() -> int:
            stream = adapter.stream(request, AbortController().signal)
            seen = 0
            async for _chunk in stream:
                seen += 1
            await stream.result
            return seen

        return run

    return prepare


def build_candidates(deltas: tuple[str, ...]) -> tuple[dict[str, Prepare], dict[str, str]]:
    """Every streaming candidate that can run here, and why the others cannot.

    The floor and our four rows always run; a peer that is not installed
    is reported with its ``n/a`` reason instead.
    """
    candidates: dict[str, Prepare] = {
        FLOOR: _prepare_floor(deltas),
        SCRIPTED_PREBUILT: _prepare_scripted(deltas, build_chunks=False),
        SCRIPTED_BUILDING: _prepare_scripted(deltas, build_chunks=True),
        FIXTURE_ARRAY: _prepare_fixture(deltas, async_source=False),
        FIXTURE_ASYNC: _prepare_fixture(deltas, async_source=True),
    }
    missing: dict[str, str] = {}
    for peer in PEERS:
        try:
            candidates[peer.name] = peer.prepare(deltas)
        except PeerNotInstalledError as error:
            missing[peer.name] = str(error)
    return candidates, missing


def _target(name: str, ratios: dict[str, Spread]) -> tuple[str, bool | None]:
    """The row's target in words, and whether this run met it (None: no target)."""
    limits: list[tuple[str, float]] = []
    if name == SCRIPTED_PREBUILT:
        if OPENAI_PREBUILT in ratios:
            limits.append(("openai-agents pre-built", ratios[OPENAI_PREBUILT].median))
        else:
            limits.append(("openai-agents pre-built, nominal", OPENAI_PREBUILT_NOMINAL))
    elif name == FIXTURE_ARRAY:
        limits.append(("", 15.0))
    elif name == FIXTURE_ASYNC:
        limits.append(("", 20.0))
    if name in OURS:
        for peer in (PYDANTIC_AI, LANGCHAIN):
            if peer in ratios:
                label = f"{peer.split()[0]} / {FAR_BELOW:.0f}"
                limits.append((label, ratios[peer].median / FAR_BELOW))
    if name not in ratios or not limits:
        return "", None
    words = "; ".join(
        f"<= {label} ({limit:.1f}x)" if label else f"<= {limit:.0f}x" for label, limit in limits
    )
    return words, all(ratios[name].median <= limit for _, limit in limits)


def run_streaming(budget: StreamingBudget) -> list[Row]:
    """Measure every candidate side by side and return the streaming rows, floor first."""
    deltas = text_deltas(budget.chunks)
    candidates, missing = build_candidates(deltas)
    paired = asyncio.run(
        measure_async_paired(
            candidates,
            baseline=FLOOR,
            rounds=budget.rounds,
            warmup=budget.warmup,
            expected_items=len(deltas),
            min_round_seconds=budget.min_round_seconds,
            clock=budget.clock,
        ),
        debug=False,
    )
    seconds = paired.seconds
    ratios = {name: Spread.of(values) for name, values in paired.ratios.items()}
    against = f"floor, N={len(deltas):,}"
    rows: list[Row] = []
    for name in (FLOOR, *OURS, *(peer.name for peer in PEERS)):
        if name in missing:
            rows.append(Row.unavailable(GROUP, name, against, missing[name]))
            continue
        per_chunk_us = Spread.of(seconds[name]).median / len(deltas) * 1e6
        measured = f"{per_chunk_us:.2f} µs/chunk"
        figures = {"us_per_chunk": per_chunk_us, "chunks": float(len(deltas))}
        if name == FLOOR:
            base = Row(GROUP, name, "itself", None, measured, status="baseline", figures=figures)
            rows.append(base)
            continue
        target, met = _target(name, ratios)
        status = "" if met is None else ("met" if met else "missed")
        rows.append(Row(GROUP, name, against, ratios[name], measured, target, status, figures))
    return rows
