"""Fault injection on replay: each fault fails a call exactly as the live path does.

Every fault is played twice: injected into a replayed cassette, and served
for real by a loopback server to a `LiveTransport` (the same bytes, the same
pause, the same dropped connection). Both must give the same chunks and the
same typed failure.
"""

from __future__ import annotations

import asyncio
import gzip

import pytest

from course_cassettes import AppliedFault, CassetteTransport, ReplayFault, RequestMatching
from course_cassettes._faults import event_end_offsets
from course_http import LiveTransport, RecordedResponse, Timeouts, VendorErrorCode
from course_http.loopback import LoopbackResponse, LoopbackServer
from tests.course_cassettes.cassettes import call, cassette
from tests.course_cassettes.replays import Replayed, replay
from tests.course_cassettes.test_cassette_recording import outcome
from tests.course_http.helpers import FRAMES, SSE
from tests.course_vendor.wires import REQUEST, WIRES
from tests.streams import GUARD_SECONDS

ANTHROPIC = WIRES[0]
BODY = ANTHROPIC.text_body("The ", "sum ", "is ", "42.")
EVENTS = len(event_end_offsets(BODY))
# The recorded request is a stand-in: these tests are about the response.
_ORDER = RequestMatching("order")


def loopback_response(applied: AppliedFault) -> LoopbackResponse:
    """How a loopback server plays ``applied``: the same bytes, paused at the same offset."""
    response = applied.response
    if applied.pause_at is None:
        return LoopbackResponse(response)
    if applied.pause_at == 0:
        return LoopbackResponse(response, first_delay=applied.pause_seconds)
    return LoopbackResponse(response, chunking=(applied.pause_at,), delay=applied.pause_seconds)


async def both_ways(fault: ReplayFault, timeouts: Timeouts | None) -> tuple[Replayed, Replayed]:
    recorded = cassette(call({}, RecordedResponse(200, SSE, BODY)))
    async with (
        asyncio.timeout(GUARD_SECONDS),
        CassetteTransport(recorded, faults={0: fault}, timeouts=timeouts, matching=_ORDER) as t,
    ):
        replayed = await replay(ANTHROPIC.model(transport=t), REQUEST)
    served = loopback_response(fault.apply(recorded.calls[0].response))
    async with (
        asyncio.timeout(GUARD_SECONDS),
        LoopbackServer([served]) as server,
        LiveTransport(server.base_url, timeouts=timeouts) as live_transport,
    ):
        live = await replay(ANTHROPIC.model(transport=live_transport, api_key="sk-x"), REQUEST)
    return replayed, live


@pytest.mark.parametrize(
    ("fault", "timeouts", "code", "event_index"),
    [
        (ReplayFault.cut_after(3), None, VendorErrorCode.VENDOR_MISSING_TERMINAL, 3),
        (ReplayFault.cut_after(0), None, VendorErrorCode.VENDOR_MISSING_TERMINAL, 0),
        (ReplayFault.drop_after(3), None, VendorErrorCode.HTTP_STREAM_INTERRUPTED, 3),
        (ReplayFault.drop_after(0), None, VendorErrorCode.HTTP_STREAM_INTERRUPTED, 0),
        (
            ReplayFault.delay(30, after_events=4),
            Timeouts(read=0.1),
            VendorErrorCode.HTTP_TIMEOUT,
            4,
        ),
        (ReplayFault.delay(30), Timeouts(read=0.1), VendorErrorCode.HTTP_TIMEOUT, 0),
        (
            ReplayFault.replace(
                529, ANTHROPIC.error_body("overloaded_error", "Overloaded"), {"x-should": "no"}
            ),
            None,
            VendorErrorCode.HTTP_OVERLOADED,
            None,
        ),
        (
            ReplayFault.replace(429, ANTHROPIC.error_body("rate_limit_error", "Slow down")),
            None,
            VendorErrorCode.HTTP_RATE_LIMITED,
            None,
        ),
    ],
    ids=["cut-3", "cut-0", "drop-3", "drop-0", "delay-4", "delay-0", "replace-529", "replace-429"],
)
async def test_a_fault_fails_the_replay_as_the_same_fault_fails_a_live_call(
    fault: ReplayFault,
    timeouts: Timeouts | None,
    code: VendorErrorCode,
    event_index: int | None,
) -> None:
    replayed, live = await both_ways(fault, timeouts)

    assert replayed.error is not None
    assert (replayed.error.code, replayed.error.event_index) == (code, event_index)
    assert outcome(replayed) == outcome(live)


async def test_a_short_delay_only_slows_the_answer_down() -> None:
    replayed, live = await both_ways(ReplayFault.delay(0.01, after_events=2), Timeouts(read=5))

    assert replayed.response is not None
    assert outcome(replayed) == outcome(live)


async def test_a_fault_applies_to_its_own_call_only() -> None:
    recorded = cassette(*(call({}, RecordedResponse(200, SSE, BODY)) for _ in range(3)))
    faults = {1: ReplayFault.drop_after(2)}

    async with CassetteTransport(recorded, faults=faults, matching=_ORDER) as transport:
        model = ANTHROPIC.model(transport=transport)
        results = [await replay(model, REQUEST) for _ in range(3)]

    assert [result.error.code if result.error else None for result in results] == [
        None,
        VendorErrorCode.HTTP_STREAM_INTERRUPTED,
        None,
    ]


def test_events_are_counted_as_the_decoder_counts_them() -> None:
    offsets = event_end_offsets(FRAMES)

    assert len(offsets) == 4
    assert offsets[-1] == len(FRAMES)
    assert FRAMES[: offsets[0]] == b'event: start\ndata: {"n":0}\n\n'
    assert event_end_offsets(b"data: a\n\ndata: \xff\n\ndata: c\n\n") == [9]
    assert event_end_offsets(b"data: pending") == [13]


@pytest.mark.parametrize(
    ("faults", "message"),
    [
        ({1: ReplayFault.cut_after(1)}, r"faults\[1\]: the cassette holds calls 0 to 0"),
        ({-1: ReplayFault.cut_after(1)}, r"faults\[-1\]"),
        ({0: ReplayFault.cut_after(EVENTS + 1)}, rf"after {EVENTS + 1} events, but the body has"),
    ],
)
def test_a_fault_that_cannot_apply_is_refused_when_the_transport_is_built(
    faults: dict[int, ReplayFault], message: str
) -> None:
    recorded = cassette(call({}, RecordedResponse(200, SSE, BODY)))

    with pytest.raises(ValueError, match=message):
        CassetteTransport(recorded, faults=faults)


def test_a_fault_for_a_cassette_without_calls_says_it_holds_none() -> None:
    with pytest.raises(ValueError, match=r"^faults\[0\]: the cassette holds no calls$"):
        CassetteTransport(cassette(), faults={0: ReplayFault.cut_after(1)})


def test_faults_that_count_events_refuse_an_encoded_body_and_bad_values() -> None:
    encoded = RecordedResponse(200, {**SSE, "content-encoding": "gzip"}, gzip.compress(BODY))

    with pytest.raises(ValueError, match="content-encoded"):
        ReplayFault.drop_after(2).apply(encoded)
    assert ReplayFault.drop_after(0).apply(encoded).response.body == b""
    with pytest.raises(ValueError, match="events"):
        ReplayFault.cut_after(-1)
    with pytest.raises(ValueError, match="seconds"):
        ReplayFault.delay(float("inf"))
    with pytest.raises(ValueError, match="replace fault"):
        ReplayFault("replace")
    with pytest.raises(TypeError, match="ReplayFault"):
        CassetteTransport(
            cassette(call({}, RecordedResponse(200, SSE, BODY))),
            faults={0: "drop"},  # type: ignore[dict-item]
        )
