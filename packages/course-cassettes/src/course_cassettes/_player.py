"""A cassette's calls played in order: what both replaying transports share, `CassettePlayer`.

`CassetteTransport` (our adapters' transport) and `Httpx2CassetteTransport`
(the SDKs') differ in how a request reaches them and how a refusal is told;
the call count, the comparison with the next recorded request, the faults
and the cut of the recorded body are one mechanism, here.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import get_args

from course_cassettes._cassette import Cassette, RequestMatching
from course_cassettes._faults import AppliedFault, ReplayFault
from course_cassettes._matching import request_difference
from course_http import (
    Chunking,
    Playback,
    RecordedRequest,
    RecordedResponse,
    RecordingExhaustedError,
    RequestMismatchError,
    playback_of,
)

__all__ = ["CassettePlayer", "applied_faults"]


class CassettePlayer:
    """Plays ``cassette``'s calls in order: counts each request, compares it, cuts the answer.

    ``matching`` overrides the cassette's own rule; ``faults`` maps a call's
    index (0-based) to the `ReplayFault` injected into it; ``chunking`` and
    ``seed`` cut the recorded bodies; ``when_exhausted`` ends the message of
    a call past the last recorded one. Raises ``TypeError`` or
    ``ValueError`` for a bad argument, a fault for a call the cassette does
    not hold, or a fault that cannot apply to its call's body. Not
    thread-safe: a transport that may be called from threads holds a lock.
    """

    __slots__ = (
        "_applied",
        "_cassette",
        "_chunking",
        "_matching",
        "_random",
        "_requests",
        "_served",
        "_when_exhausted",
    )

    def __init__(
        self,
        cassette: Cassette,
        *,
        matching: RequestMatching | None,
        faults: Mapping[int, ReplayFault] | None,
        chunking: Chunking,
        seed: int,
        when_exhausted: str,
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
        self._matching = cassette.matching if matching is None else matching
        self._applied = applied_faults(cassette, faults or {})
        self._chunking: Chunking = chunking
        self._random = random.Random(seed)
        self._when_exhausted = when_exhausted
        self._requests: list[RecordedRequest] = []
        self._served: list[int] = []

    @property
    def cassette(self) -> Cassette:
        """The cassette being played."""
        return self._cassette

    @property
    def requests(self) -> tuple[RecordedRequest, ...]:
        """Every request counted so far, in order, as its transport keeps it."""
        return tuple(self._requests)

    @property
    def served(self) -> tuple[int, ...]:
        """The index of each recorded call a request was answered with, in order."""
        return tuple(self._served)

    @property
    def pending_call_count(self) -> int:
        """How many recorded calls no request has taken yet."""
        return max(0, len(self._cassette.calls) - len(self._requests))

    def faulted(self, index: int) -> bool:
        """Whether call ``index`` is played with a fault injected."""
        return index in self._applied

    def assert_consumed(self) -> None:
        """Raise ``AssertionError`` naming the first call never played, and how many are left."""
        left = self.pending_call_count
        if left:
            first = len(self._cassette.calls) - left
            request = self._cassette.calls[first].request
            raise AssertionError(
                f"{left} recorded call(s) never played, from calls[{first}] "
                f"({request.method} {request.path}): the code made fewer calls than recorded"
            )

    def count(self, kept: RecordedRequest) -> int:
        """Count a request that is answered without being compared; return its index."""
        self._requests.append(kept)
        return len(self._requests) - 1

    def play(self, kept: RecordedRequest, masked: RecordedRequest) -> tuple[int, Playback]:
        """Count ``kept`` and answer it: its index and the recorded response, cut and faulted.

        ``masked`` is the request as a cassette would hold it, compared with
        the next recorded one. Raises `RecordingExhaustedError` past the last
        recorded call and `RequestMismatchError` (naming the first differing
        path) for a request that differs; the call is counted either way.
        """
        index = self.count(kept)
        if index >= len(self._cassette.calls):
            raise RecordingExhaustedError(index + 1, hint=self._when_exhausted)
        recorded = self._cassette.calls[index]
        difference = request_difference(recorded.request, masked, self._matching)
        if difference is not None:
            raise RequestMismatchError(index + 1, index, difference)
        applied = self._applied.get(index, AppliedFault(recorded.response))
        self._served.append(index)
        return index, playback_of(
            applied.response,
            self._chunking,
            self._random,
            pause_at=applied.pause_at,
            pause_seconds=applied.pause_seconds,
        )

    def whole(self, response: RecordedResponse) -> Playback:
        """``response`` played whole and at once (a refusal, which no chunking cuts)."""
        return playback_of(response, "whole", self._random)

    def summary(self) -> str:
        """How far the play is, for a repr: calls, played, matching, faults, chunking."""
        return (
            f"calls={len(self._cassette.calls)}, played={len(self._requests)}, "
            f"matching={self._matching.on!r}, faults={sorted(self._applied)}, "
            f"chunking={self._chunking!r}"
        )

    def __repr__(self) -> str:
        return f"CassettePlayer({self.summary()})"


def applied_faults(cassette: Cassette, faults: object) -> dict[int, AppliedFault]:
    """Each fault applied to its call's recorded response; raises for a fault that cannot apply."""
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
