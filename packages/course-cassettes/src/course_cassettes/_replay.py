"""Replaying a cassette in-process, call by call, with request matching: `CassetteTransport`."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import final, get_args

import httpx2

from course_cassettes._cassette import Cassette, RequestMatching
from course_cassettes._faults import AppliedFault, ReplayFault
from course_cassettes._matching import request_difference
from course_cassettes._redaction import redacted_request, request_secrets
from course_http import (
    REPLAY_TIMEOUTS,
    Chunking,
    HttpTransport,
    Playback,
    PlaybackExchange,
    RecordedRequest,
    RecordingExhaustedError,
    RequestMismatchError,
    Timeouts,
    playback_of,
    sent_request,
)

__all__ = ["CassetteTransport", "applied_faults"]


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
        if type(cassette) is not Cassette:
            raise TypeError(f"cassette must be a Cassette, not {type(cassette).__name__}")
        if matching is not None and type(matching) is not RequestMatching:
            raise TypeError("matching must be a RequestMatching or None")
        if chunking not in get_args(Chunking):
            raise ValueError(f"chunking must be one of {get_args(Chunking)}")
        if type(seed) is not int:
            raise TypeError("seed must be an int")
        if type(when_exhausted) is not str:
            raise TypeError("when_exhausted must be a str")
        self._cassette = cassette
        self._when_exhausted = when_exhausted
        self._matching = cassette.matching if matching is None else matching
        self._applied = applied_faults(cassette, faults or {})
        self._chunking: Chunking = chunking
        self._random = random.Random(seed)
        self._requests: list[RecordedRequest] = []
        super().__init__(base_url, timeouts=timeouts or REPLAY_TIMEOUTS, trust_env=False)

    @property
    def replays(self) -> bool:
        """Always ``True``: the calls are served in-process and nothing is sent anywhere."""
        return True

    @property
    def cassette(self) -> Cassette:
        """The cassette being replayed."""
        return self._cassette

    @property
    def requests(self) -> tuple[RecordedRequest, ...]:
        """Every request sent so far, in order, as sent (secret headers left out)."""
        return tuple(self._requests)

    @property
    def pending_call_count(self) -> int:
        """How many recorded calls no request has taken yet."""
        return max(0, len(self._cassette.calls) - len(self._requests))

    def assert_consumed(self) -> None:
        """Raise ``AssertionError`` when recorded calls were never played.

        The message names the first unplayed call (``calls[2]``) and how many
        are left: the code under test made fewer calls than were recorded.
        """
        left = self.pending_call_count
        if left:
            first = len(self._cassette.calls) - left
            request = self._cassette.calls[first].request
            raise AssertionError(
                f"{left} recorded call(s) never played, from calls[{first}] "
                f"({request.method} {request.path}): the code made fewer calls than recorded"
            )

    def _exchange(self) -> httpx2.AsyncBaseTransport:
        return PlaybackExchange(self._answer)

    def _answer(self, request: httpx2.Request, content: bytes) -> Playback:
        sent = sent_request(request, content)
        self._requests.append(sent)
        index = len(self._requests) - 1
        if index >= len(self._cassette.calls):
            raise RecordingExhaustedError(index + 1, hint=self._when_exhausted)
        recorded = self._cassette.calls[index]
        masked = redacted_request(
            sent.method,
            sent.path,
            {},
            json.loads(content),
            self._cassette.redaction,
            request_secrets(dict(request.headers.items()), sent.path),
        )
        difference = request_difference(recorded.request, masked, self._matching)
        if difference is not None:
            raise RequestMismatchError(index + 1, index, difference)
        applied = self._applied.get(index, AppliedFault(recorded.response))
        return playback_of(
            applied.response,
            self._chunking,
            self._random,
            pause_at=applied.pause_at,
            pause_seconds=applied.pause_seconds,
        )

    def __repr__(self) -> str:
        return (
            f"CassetteTransport(calls={len(self._cassette.calls)}, played={len(self._requests)}, "
            f"matching={self._matching.on!r}, faults={sorted(self._applied)}, "
            f"chunking={self._chunking!r})"
        )


def applied_faults(cassette: Cassette, faults: object) -> dict[int, AppliedFault]:
    if not isinstance(faults, Mapping):
        raise TypeError(f"faults must be a mapping of call index to ReplayFault, not {faults!r}")
    applied: dict[int, AppliedFault] = {}
    for index, fault in faults.items():
        if type(index) is not int or not 0 <= index < len(cassette.calls):
            held = f"calls 0 to {len(cassette.calls) - 1}" if cassette.calls else "no calls"
            raise ValueError(f"faults[{index!r}]: the cassette holds {held}")
        if type(fault) is not ReplayFault:
            raise TypeError(f"faults[{index}] must be a ReplayFault")
        try:
            applied[index] = fault.apply(cassette.calls[index].response)
        except ValueError as error:
            raise ValueError(f"faults[{index}]: {error}") from None
    return applied
