"""The one played body under every replay, for sync and async httpx2 clients alike.

`PlaybackExchange` answers each request with a `Playback`; `PlayedBody` plays
it: each chunk fed to the judge before the client reads it (a problem is
raised instead of that chunk), the judge's end asked at a complete end, a
recorded stall or a pause past the read timeout failing at once, and a body
closed early leaving the judge the rest of what was recorded.
"""

from __future__ import annotations

import asyncio

import httpx2
import pytest

from course_http import (
    Playback,
    PlaybackExchange,
    ResponseEnd,
    VendorError,
    VendorErrorCode,
)
from tests.course_http.helpers import SSE
from tests.streams import GUARD_SECONDS

CHUNKS = (b"one,", b"two,", b"three,", b"four")
URL = "http://played.invalid/v1/x"


class JudgeThatRefuses:
    """A `BodyJudge` that keeps what it was fed and refuses the chunk ``refused`` (or the end)."""

    def __init__(self, refused: bytes | None = None, *, at_end: bool = False) -> None:
        self.fed: list[bytes] = []
        self.closed = 0
        self._refused = refused
        self._at_end = at_end
        self._problem: VendorError | None = None

    @property
    def finished(self) -> bool:
        return False

    def feed_bytes(self, chunk: bytes) -> VendorError | None:
        self.fed.append(chunk)
        if self._problem is None and chunk == self._refused:
            self._problem = VendorError(
                VendorErrorCode.VENDOR_EVENT_ORDER, f"refused {chunk!r}", vendor="judge"
            )
        return self._problem

    def close(self) -> VendorError | None:
        self.closed += 1
        if self._problem is None and self._at_end:
            self._problem = VendorError(
                VendorErrorCode.VENDOR_MISSING_TERMINAL, "no end", vendor="judge"
            )
        return self._problem


def _exchange(played: Playback) -> PlaybackExchange:
    return PlaybackExchange(lambda request, content: played)


def _read(way: str, played: Playback, read: float | None, into: list[bytes]) -> None:
    """Read the whole body of ``played`` with a client of ``way``, chunk by chunk, into ``into``."""
    timeout = httpx2.Timeout(10.0, read=read)
    if way == "sync":
        with (
            httpx2.Client(transport=_exchange(played), timeout=timeout) as client,
            client.stream("GET", URL) as response,
        ):
            into.extend(response.iter_raw())
        return

    async def main() -> None:
        async with (
            asyncio.timeout(GUARD_SECONDS),
            httpx2.AsyncClient(transport=_exchange(played), timeout=timeout) as client,
            client.stream("GET", URL) as response,
        ):
            async for chunk in response.aiter_raw():
                into.append(chunk)

    asyncio.run(main())


def _stop_after_first(way: str, played: Playback) -> bytes:
    """Read one chunk of ``played`` and close the response; that chunk."""
    if way == "sync":
        with (
            httpx2.Client(transport=_exchange(played)) as client,
            client.stream("GET", URL) as response,
        ):
            return next(response.iter_raw())

    async def main() -> bytes:
        async with (
            httpx2.AsyncClient(transport=_exchange(played)) as client,
            client.stream("GET", URL) as response,
        ):
            return await anext(response.aiter_raw())

    return asyncio.run(main())


both_ways = pytest.mark.parametrize("way", ["sync", "async"])


@both_ways
def test_a_refused_chunk_is_never_read_the_judges_error_is_raised_instead(way: str) -> None:
    judge = JudgeThatRefuses(b"three,")
    read: list[bytes] = []
    with pytest.raises(VendorError) as raised:
        _read(way, Playback(200, SSE, CHUNKS, "complete", judge=judge), None, read)
    assert raised.value.code is VendorErrorCode.VENDOR_EVENT_ORDER
    assert read == [b"one,", b"two,"]
    assert judge.fed == [b"one,", b"two,", b"three,"], "judged before the client got it"
    assert judge.closed == 0


@both_ways
def test_a_complete_body_is_judged_to_its_end_and_the_end_can_fail_the_read(way: str) -> None:
    passing = JudgeThatRefuses()
    read: list[bytes] = []
    _read(way, Playback(200, SSE, CHUNKS, "complete", judge=passing), None, read)
    assert (read, passing.fed, passing.closed) == (list(CHUNKS), list(CHUNKS), 1)

    refusing = JudgeThatRefuses(at_end=True)
    read = []
    with pytest.raises(VendorError) as raised:
        _read(way, Playback(200, SSE, CHUNKS, "complete", judge=refusing), None, read)
    assert raised.value.code is VendorErrorCode.VENDOR_MISSING_TERMINAL
    assert read == list(CHUNKS), "every chunk came before the end was judged"


@both_ways
@pytest.mark.parametrize("read_timeout", [None, 600.0])
@pytest.mark.parametrize(
    ("end", "raised"),
    [("stalled", httpx2.ReadTimeout), ("interrupted", httpx2.RemoteProtocolError)],
)
def test_a_recorded_end_that_is_not_complete_fails_at_once_judged_only_to_its_cut(
    way: str, read_timeout: float | None, end: ResponseEnd, raised: type[Exception]
) -> None:
    # A stall waited for would outlast the test's guard (600 s, or forever).
    judge = JudgeThatRefuses(at_end=True)
    read: list[bytes] = []
    with pytest.raises(raised):
        _read(way, Playback(200, SSE, CHUNKS, end, judge=judge), read_timeout, read)
    assert read == list(CHUNKS)
    assert judge.fed == list(CHUNKS)
    assert judge.closed == 0, "a cut recording's missing end is how it was recorded"


@both_ways
def test_a_pause_longer_than_the_read_timeout_fails_at_once(way: str) -> None:
    played = Playback(200, SSE, CHUNKS, "complete", pause_before=2, pause_seconds=3600.0)
    read: list[bytes] = []
    with pytest.raises(httpx2.ReadTimeout):
        _read(way, played, 600.0, read)
    assert read == [b"one,", b"two,"]


@both_ways
def test_a_pause_within_the_read_timeout_is_played(way: str) -> None:
    played = Playback(200, SSE, CHUNKS, "complete", pause_before=4, pause_seconds=0.001)
    read: list[bytes] = []
    _read(way, played, 1.0, read)
    assert read == list(CHUNKS)


@both_ways
@pytest.mark.parametrize(("end", "closed"), [("complete", 1), ("stalled", 0)])
def test_a_body_closed_early_leaves_the_judge_the_rest_of_the_recording(
    way: str, end: ResponseEnd, closed: int
) -> None:
    judge = JudgeThatRefuses()
    first = _stop_after_first(way, Playback(200, SSE, CHUNKS, end, judge=judge))
    assert first == b"one,"
    assert judge.fed == list(CHUNKS), "judged: what was recorded, not what was read"
    assert judge.closed == closed


@both_ways
def test_a_problem_in_the_rest_of_a_body_closed_early_is_the_judges_not_the_clients(
    way: str,
) -> None:
    judge = JudgeThatRefuses(b"four")
    assert _stop_after_first(way, Playback(200, SSE, CHUNKS, "complete", judge=judge)) == b"one,"
    assert judge.fed == list(CHUNKS)
    assert judge.closed == 0, "spent at its problem"


def test_reading_a_played_body_again_goes_on_from_where_it_was() -> None:
    with (
        httpx2.Client(transport=_exchange(Playback(200, SSE, CHUNKS, "complete"))) as client,
        client.stream("GET", URL) as response,
    ):
        stream = response.stream
        assert isinstance(stream, httpx2.SyncByteStream)
        first = iter(stream)
        assert next(first) == b"one,"
        assert list(stream) == [b"two,", b"three,", b"four"]
