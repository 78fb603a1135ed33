"""Replaying a recorded body through a vendor model, the production path, however it is cut.

`replay_every_cut` serves one body through a `RecordedTransport` to a fresh
model for each way of cutting it (`CUTS`: whole, one byte per chunk for
bodies up to `BYTEWISE_LIMIT`, and three seeded random cut sets), checks that
every cut gives the same outcome, and returns it. Used by the compatibility
tests of the vendor folders over ``../shared``, and by our own bodies.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass

from course_http import (
    Chunking,
    HttpTransport,
    RecordedResponse,
    RecordedTransport,
    VendorError,
)
from course_protocol import CourseModelChunk, CourseModelRequest, CourseModelResponse
from course_stream import AbortController
from tests.course_vendor.wires import REQUEST, SSE, AnyModel
from tests.streams import GUARD_SECONDS

BYTEWISE_LIMIT = 8 * 1024
"""Bodies up to this size are also replayed one byte per chunk; a larger one would cost
seconds, and its three random cut sets (chunks of 1 to 64 bytes) tear it everywhere."""

RANDOM_SEEDS = (1, 2, 3)


@dataclass(frozen=True)
class Replayed:
    """What one replay made: the chunks delivered, then the response or the `VendorError`."""

    chunks: tuple[CourseModelChunk, ...]
    response: CourseModelResponse | None
    error: VendorError | None

    def signature(self) -> tuple[object, ...]:
        """What must not depend on how the body was cut (an error by code, index and message)."""
        error = self.error
        failed = None if error is None else (error.code, error.event_index, error.message)
        return (self.chunks, self.response, failed)


def cuts_for(body: bytes) -> list[tuple[Chunking, int]]:
    """The ways ``body`` is cut: whole, bytewise when small enough, three seeded random sets."""
    cuts: list[tuple[Chunking, int]] = [("whole", 0)]
    if len(body) <= BYTEWISE_LIMIT:
        cuts.append(("bytes", 0))
    cuts.extend(("random", seed) for seed in RANDOM_SEEDS)
    return cuts


def data_only_body(text: str) -> bytes:
    """A JSON Lines recording that kept only each event's data, as the SSE body it came from.

    Each non-blank line becomes one unnamed ``data:`` frame.
    """
    lines = [line for line in text.splitlines() if line.strip()]
    return "".join(f"data: {line}\n\n" for line in lines).encode()


async def replay(model: AnyModel, request: CourseModelRequest = REQUEST) -> Replayed:
    """Play one call of ``model`` to its end; bounded by `GUARD_SECONDS`."""
    stream = model.stream(request, AbortController().signal)
    chunks: list[CourseModelChunk] = []
    async with asyncio.timeout(GUARD_SECONDS):
        try:
            async for chunk in stream:
                chunks.append(chunk)
            response = await stream.result
        except VendorError as error:
            return Replayed(tuple(chunks), None, error)
    return Replayed(tuple(chunks), response, None)


async def replay_every_cut(
    make_model: Callable[[HttpTransport], AnyModel],
    body: bytes,
    *,
    request: CourseModelRequest = REQUEST,
) -> Replayed:
    """Replay ``body`` (a 200 event stream) once per cut of `cuts_for`; the one outcome they share.

    ``make_model`` builds the model over the transport it is given. Fails the
    test when two cuts disagree.
    """
    outcomes: list[tuple[str, Replayed]] = []
    for chunking, seed in cuts_for(body):
        response = RecordedResponse(200, SSE, body)
        async with RecordedTransport([response], chunking=chunking, seed=seed) as transport:
            outcomes.append((f"{chunking}/{seed}", await replay(make_model(transport), request)))
    first_cut, first = outcomes[0]
    for cut, outcome in outcomes[1:]:
        assert outcome.signature() == first.signature(), f"{cut} differs from {first_cut}"
    return first
