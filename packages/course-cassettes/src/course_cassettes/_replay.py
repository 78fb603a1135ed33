"""Replaying a cassette in-process, call by call, with request matching: `CassetteTransport`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import final

from course_cassettes._cassette import Cassette, RequestMatching
from course_cassettes._faults import ReplayFault
from course_cassettes._httpx2_replay import Httpx2CassetteTransport
from course_cassettes._judging import StreamJudges
from course_http import (
    REPLAY_TIMEOUTS,
    Chunking,
    HttpTransport,
    RecordedRequest,
    Timeouts,
)

__all__ = ["CassetteTransport"]


@final
class CassetteTransport(HttpTransport):
    """Serves a `Cassette`'s calls in order, in-process, checking each request: no socket.

    The course transport over an `Httpx2CassetteTransport` (the one replay
    transport), for a vendor model. Each call is masked as the cassette's
    ``redaction`` says and compared with the next recorded request
    (`RequestMatching`: the cassette's own, unless ``matching`` is given).
    A request that differs fails its call with ``HTTP_REQUEST_MISMATCH``,
    whose message names the first differing path and both values; the
    recorded call counts as played. A call beyond the last recorded one
    fails with ``HTTP_RECORDING_EXHAUSTED``, whose message ends with
    ``when_exhausted`` when it is given (how to record the calls past the
    recorded ones); `assert_consumed` fails when calls were left unplayed.
    Everything above the bytes is the live path's (the same client,
    `stream_events`, parsers), so a recorded failure (a status, a body cut
    short) fails the same way again; a recorded stall fails at once with
    ``HTTP_TIMEOUT``.

    ``faults`` maps a call's index in the cassette (0-based) to the
    `ReplayFault` to inject into it; ``chunking`` and ``seed`` cut bodies as
    `RecordedTransport` does; ``timeouts`` defaults to `REPLAY_TIMEOUTS` (a
    delay longer than its read timeout fails at once). With ``check``
    (`StreamJudges`), each stream is judged by its wire's grammar as it is
    played, as `Httpx2CassetteTransport` judges it: a refused event fails
    the call there with the grammar's `VendorError`. Raises ``TypeError`` or
    ``ValueError`` for bad arguments, a fault for a call the cassette does
    not hold, or a fault that cannot apply to its call's body. What the
    replay found (its problems, the calls it replayed and judged, the
    streams no wire judged) is its `exchange`'s.
    """

    def __init__(
        self,
        cassette: Cassette,
        *,
        matching: RequestMatching | None = None,
        faults: Mapping[int, ReplayFault] | None = None,
        chunking: Chunking = "whole",
        seed: int = 0,
        timeouts: Timeouts | None = None,
        base_url: str = "http://cassette.invalid",
        when_exhausted: str = "",
        check: StreamJudges | None = None,
    ) -> None:
        self._replay = Httpx2CassetteTransport(
            cassette,
            matching=matching,
            faults=faults,
            chunking=chunking,
            seed=seed,
            check=check,
            when_exhausted=when_exhausted,
            refusal="raise",
        )
        super().__init__(base_url, timeouts=timeouts or REPLAY_TIMEOUTS, trust_env=False)

    @property
    def replays(self) -> bool:
        """Always ``True``: the calls are served in-process and nothing is sent anywhere."""
        return True

    @property
    def cassette(self) -> Cassette:
        """The cassette being replayed."""
        return self._replay.cassette

    @property
    def requests(self) -> tuple[RecordedRequest, ...]:
        """Every request sent so far, in order, as sent (secret headers left out)."""
        return self._replay.sent_requests

    @property
    def exchange(self) -> Httpx2CassetteTransport:
        """The replay transport under the client: its `problems`, what it replayed and judged."""
        return self._replay

    @property
    def pending_call_count(self) -> int:
        """How many recorded calls no request has taken yet."""
        return self._replay.pending_call_count

    def assert_consumed(self) -> None:
        """Raise ``AssertionError`` when recorded calls were never played.

        The message names the first unplayed call (``calls[2]``) and how many
        are left: the code under test made fewer calls than were recorded.
        """
        self._replay.assert_consumed()

    def _exchange(self) -> Httpx2CassetteTransport:
        return self._replay

    def __repr__(self) -> str:
        return f"CassetteTransport(replay={self._replay!r}, base_url={self.base_url!r})"
