"""A cassette's calls played in order: what every replay shares, `CassettePlayer`.

`Httpx2CassetteTransport` (and so `CassetteTransport`, our adapters'
transport) and ``course serve``'s `CassetteResponder` differ in how a request
reaches them and how a refusal is told; the call count, the comparison with
the next recorded request, the faults, the cut of the recorded body and the
strict check of each played stream are one mechanism, here.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping
from typing import get_args

from course_cassettes._cassette import Cassette, CassetteCall, RequestMatching
from course_cassettes._faults import AppliedFault, ReplayFault
from course_cassettes._judging import Judging, StreamJudges
from course_cassettes._matching import request_difference
from course_http import (
    Chunking,
    Playback,
    RecordedRequest,
    RecordedResponse,
    RecordingExhaustedError,
    RequestMismatchError,
    VendorError,
    playback_of,
)

__all__ = ["CassettePlayer", "applied_faults"]


class CassettePlayer:
    """Plays ``cassette``'s calls in order: counts each request, compares it, cuts the answer.

    ``matching`` overrides the cassette's own rule; ``faults`` maps a call's
    index (0-based) to the `ReplayFault` injected into it; ``chunking`` and
    ``seed`` cut the recorded bodies; ``when_exhausted`` ends the message of
    a call past the last recorded one. With ``check`` (`StreamJudges`),
    each call played with no fault carries the judge of its stream (unless
    the cassette says ``strict: false``), and what the judges find is kept
    here (`problems`, `judged`, `unchecked`). Raises ``TypeError`` or
    ``ValueError`` for a bad argument, a fault for a call the cassette does
    not hold, or a fault that cannot apply to its call's body. Not
    thread-safe: a transport that may be called from threads holds a lock
    (what it keeps of the judges' findings is safe to read from any thread).
    """

    __slots__ = (
        "_applied",
        "_cassette",
        "_chunking",
        "_judging",
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
        check: StreamJudges | None = None,
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
        self._judging = Judging(check, strict=cassette.strict)
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
    def next_call(self) -> CassetteCall | None:
        """The recorded call the next request is compared with, ``None`` past the last one."""
        calls = self._cassette.calls
        return calls[len(self._requests)] if len(self._requests) < len(calls) else None

    @property
    def problems(self) -> tuple[VendorError, ...]:
        """Every refusal (`refused`) and strict-check failure so far, in order."""
        return self._judging.problems

    @property
    def judged(self) -> tuple[int, ...]:
        """The index of each recorded call whose stream its wire's grammar judged, in order."""
        return self._judging.judged

    @property
    def unchecked(self) -> tuple[tuple[int, str], ...]:
        """The index and path of each played call whose 2xx event stream no installed wire judged.

        Empty without ``check``; with ``strict: false``, every 2xx event stream played.
        """
        return self._judging.unchecked

    def problem_of(self, index: int) -> VendorError | None:
        """The strict-check failure of the stream of call ``index``, ``None`` while it has none."""
        return self._judging.problem_of(index)

    def refused(self, problem: VendorError) -> None:
        """Keep ``problem``, a request refused, with the judges' findings."""
        self._judging.refused(problem)

    @property
    def pending_call_count(self) -> int:
        """How many recorded calls no request has taken yet."""
        return max(0, len(self._cassette.calls) - len(self._requests))

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

    def difference(self, masked: RecordedRequest) -> str | None:
        """How ``masked`` differs from the next recorded request (the first differing path).

        ``None`` when it matches; counts nothing. Raises `RecordingExhaustedError`
        past the last recorded call.
        """
        recorded = self.next_call
        if recorded is None:
            raise RecordingExhaustedError(len(self._requests) + 1, hint=self._when_exhausted)
        return request_difference(recorded.request, masked, self._matching)

    def play(self, kept: RecordedRequest, masked: RecordedRequest) -> tuple[int, Playback]:
        """Count ``kept`` and answer it: its index and the recorded response, cut and faulted.

        ``masked`` is the request as a cassette would hold it, compared with
        the next recorded one. Raises `RecordingExhaustedError` past the last
        recorded call and `RequestMismatchError` (naming the first differing
        path) for a request that differs; the call is counted either way. A
        call played with no fault carries its stream's judge (`Playback.judge`)
        when ``check`` gives one.
        """
        index = self.count(kept)
        if index >= len(self._cassette.calls):
            raise RecordingExhaustedError(index + 1, hint=self._when_exhausted)
        recorded = self._cassette.calls[index]
        difference = request_difference(recorded.request, masked, self._matching)
        if difference is not None:
            raise RequestMismatchError(index + 1, index, difference)
        self._served.append(index)
        faulted = self._applied.get(index)
        if faulted is not None:
            return index, playback_of(
                faulted.response,
                self._chunking,
                self._random,
                pause_at=faulted.pause_at,
                pause_seconds=faulted.pause_seconds,
            )
        response = recorded.response
        played = playback_of(response, self._chunking, self._random)
        judge = self._judging.judge(index, recorded.request, response.status, response.headers)
        return index, played if judge is None else dataclasses.replace(played, judge=judge)

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
