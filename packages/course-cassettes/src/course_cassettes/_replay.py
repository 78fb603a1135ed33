"""Replaying a cassette in-process, call by call, with request matching: `CassetteTransport`."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import final

import httpx2

from course_cassettes._cassette import Cassette, RequestMatching
from course_cassettes._faults import ReplayFault
from course_cassettes._player import CassettePlayer
from course_cassettes._redaction import redacted_request, request_secrets
from course_http import (
    REPLAY_TIMEOUTS,
    Chunking,
    HttpTransport,
    Playback,
    PlaybackExchange,
    RecordedRequest,
    Timeouts,
    sent_request,
)

__all__ = ["CassetteTransport"]


@final
class CassetteTransport(HttpTransport):
    """Serves a `Cassette`'s calls in order, in-process, checking each request: no socket.

    Each call is masked as the cassette's ``redaction`` says and compared
    with the next recorded request (`RequestMatching`: the cassette's own,
    unless ``matching`` is given). A request that differs fails its call with
    ``HTTP_REQUEST_MISMATCH``, whose message names the first differing path
    and both values; the recorded call counts as played. A call beyond the
    last recorded one fails with ``HTTP_RECORDING_EXHAUSTED``, whose message
    ends with ``when_exhausted`` when it is given (how to record the calls
    past the recorded ones); `assert_consumed` fails when calls were left
    unplayed. Everything above the bytes is the
    live path's (the same client, `stream_events`, parsers), so a recorded
    failure (a status, a body cut short) fails the same way again.

    ``faults`` maps a call's index in the cassette (0-based) to the
    `ReplayFault` to inject into it; ``chunking`` and ``seed`` cut bodies as
    `RecordedTransport` does; ``timeouts`` defaults to `REPLAY_TIMEOUTS` (a
    stalled recorded response or a delay fails after 10 s). Raises
    ``TypeError`` or ``ValueError`` for bad arguments, a fault for a call the
    cassette does not hold, or a fault that cannot apply to its call's body.
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
    ) -> None:
        self._player = CassettePlayer(
            cassette,
            matching=matching,
            faults=faults,
            chunking=chunking,
            seed=seed,
            when_exhausted=when_exhausted,
        )
        super().__init__(base_url, timeouts=timeouts or REPLAY_TIMEOUTS, trust_env=False)

    @property
    def replays(self) -> bool:
        """Always ``True``: the calls are served in-process and nothing is sent anywhere."""
        return True

    @property
    def cassette(self) -> Cassette:
        """The cassette being replayed."""
        return self._player.cassette

    @property
    def requests(self) -> tuple[RecordedRequest, ...]:
        """Every request sent so far, in order, as sent (secret headers left out)."""
        return self._player.requests

    @property
    def pending_call_count(self) -> int:
        """How many recorded calls no request has taken yet."""
        return self._player.pending_call_count

    def assert_consumed(self) -> None:
        """Raise ``AssertionError`` when recorded calls were never played.

        The message names the first unplayed call (``calls[2]``) and how many
        are left: the code under test made fewer calls than were recorded.
        """
        self._player.assert_consumed()

    def _exchange(self) -> httpx2.AsyncBaseTransport:
        return PlaybackExchange(self._answer)

    def _answer(self, request: httpx2.Request, content: bytes) -> Playback:
        sent = sent_request(request, content)
        masked = redacted_request(
            sent.method,
            sent.path,
            {},
            json.loads(content),
            self._player.cassette.redaction,
            request_secrets(dict(request.headers.items()), sent.path),
        )
        _, playback = self._player.play(sent, masked)
        return playback

    def __repr__(self) -> str:
        return f"CassetteTransport({self._player.summary()})"
