"""A body chunk far longer than one slice: decoded slice by slice, the loop running in between.

A recorded body served whole, or a burst read from a fast socket, arrives
as one chunk of many megabytes. `stream_events` decodes it 64 KiB at a time
and lets the event loop run between two slices, so a consumer keeps up
instead of finding the whole body's events published at once. These tests
pin what must not change (the events, their order, failures and their
indexes, torn characters across a slice edge) and that other tasks do run
while one long chunk is decoded.
"""

from __future__ import annotations

import asyncio

import pytest

from course_http import RecordedResponse, RecordedTransport, SseEvent, VendorError, VendorErrorCode
from course_http._stream import _SLICE_BYTES
from tests.course_http.helpers import SSE, Arrivals, collect, sse_body
from tests.streams import GUARD_SECONDS

# About 22 bytes per event: this body is some ten slices long.
LONG_EVENTS = 30_000


def _transport(body: bytes) -> RecordedTransport:
    return RecordedTransport([RecordedResponse(200, SSE, body)])


async def _ticks_while_reading(body: bytes) -> tuple[list[SseEvent], list[int]]:
    """The events of one call, and how often a second task had run when each arrived."""
    ticks = 0
    done = False

    async def ticker() -> None:
        nonlocal ticks
        while not done:
            ticks += 1
            await asyncio.sleep(0)

    seen: list[int] = []

    class Recording(list[SseEvent]):
        def append(self, event: SseEvent) -> None:
            seen.append(ticks)
            super().append(event)

    events = Recording()
    async with asyncio.timeout(GUARD_SECONDS), _transport(body) as transport:
        running = asyncio.create_task(ticker())
        try:
            await collect(transport, into=events)
        finally:
            done = True
            await running
    return list(events), seen


async def test_a_long_chunk_gives_the_same_events_as_the_same_body_cut_small() -> None:
    body = sse_body(LONG_EVENTS)
    assert len(body) > 8 * _SLICE_BYTES
    async with asyncio.timeout(GUARD_SECONDS), _transport(body) as whole:
        in_one_chunk = await collect(whole)
    cut = RecordedTransport([RecordedResponse(200, SSE, body)], chunking="random", seed=7)
    async with asyncio.timeout(GUARD_SECONDS), cut:
        in_small_chunks = await collect(cut)
    assert in_one_chunk == in_small_chunks
    assert [event.data for event in in_one_chunk[:2]] == ['{"i":0}', '{"i":1}']
    assert len(in_one_chunk) == LONG_EVENTS


async def test_other_tasks_run_between_the_slices_of_one_long_chunk() -> None:
    body = sse_body(LONG_EVENTS)
    events, ticks = await _ticks_while_reading(body)
    assert len(events) == LONG_EVENTS
    slices = -(-len(body) // _SLICE_BYTES)
    # Between the first event and the last, the loop ran once per slice edge.
    assert ticks[-1] - ticks[0] >= slices - 1
    # Within one slice it does not run at all: nothing is paid per event.
    assert ticks[1] == ticks[0]


async def test_a_short_chunk_is_decoded_without_a_step_of_the_loop() -> None:
    events, ticks = await _ticks_while_reading(sse_body(50))
    assert len(events) == 50
    assert ticks[-1] == ticks[0]


@pytest.mark.parametrize("shift", [1, 2, 3])
async def test_a_character_torn_at_a_slice_edge_decodes_whole(shift: int) -> None:
    # The four-byte character starts ``shift`` bytes before the first slice edge.
    prefix = b"data: "
    filler = b"x" * (_SLICE_BYTES - shift - len(prefix))
    body = prefix + filler + "\U0001f600".encode() + b"\n\ndata: after\n\n"
    async with asyncio.timeout(GUARD_SECONDS), _transport(body) as transport:
        events = await collect(transport)
    assert events == [
        SseEvent("message", filler.decode() + "\U0001f600"),
        SseEvent("message", "after"),
    ]


async def test_bad_bytes_in_a_later_slice_fail_after_the_events_before_them() -> None:
    good = sse_body(4_000)
    assert len(good) > _SLICE_BYTES
    body = good + b"data: \xff\n\n" + sse_body(3)
    arrived: list[SseEvent] = []
    async with asyncio.timeout(GUARD_SECONDS), _transport(body) as transport:
        with pytest.raises(VendorError) as raised:
            await collect(transport, into=arrived)
    assert raised.value.code is VendorErrorCode.VENDOR_INVALID_EVENT
    assert raised.value.event_index == 4_000
    assert f"byte {len(good) + len(b'data: ')} (0xff)" in str(raised.value)
    assert len(arrived) == 4_000


async def test_cancelling_between_two_slices_releases_the_call() -> None:
    body = sse_body(LONG_EVENTS)
    events = Arrivals()
    async with asyncio.timeout(GUARD_SECONDS), _transport(body) as transport:
        task = asyncio.create_task(collect(transport, into=events))
        await events.first.wait()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        # Stopped inside the one chunk, after its first slice, before its last.
        assert 0 < len(events) < LONG_EVENTS
        assert transport.pending_response_count == 0
