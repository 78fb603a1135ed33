"""Serving cassettes over HTTP: `CassetteResponder`, what ``course serve`` runs.

Each request is routed to the cassette whose next call recorded its method
and path; that cassette is played by the one `CassettePlayer` every replay
uses (matching, call order, the strict check of each stream), its bytes by
``course_http``'s one played body. What no recorded call answers gets an
error the client cannot mistake for the vendor's, marked
``x-should-retry: false``, whose JSON body names the course code:
``HTTP_REQUEST_MISMATCH`` (a 400, or a 404 for a method and path no cassette
records), ``HTTP_RECORDING_EXHAUSTED`` (a 400), or ``HTTP_SERVER_ERROR`` (a
500: the responder itself failed).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import math
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import final, get_args

from frozendict import frozendict
from returns.result import Failure

from course_cassettes._cassette import Cassette
from course_cassettes._httpx2_calls import json_body
from course_cassettes._judging import StreamJudges
from course_cassettes._matching import version_hint
from course_cassettes._player import CassettePlayer
from course_cassettes._redaction import redacted_request, request_secrets
from course_cassettes._refusal import refusal
from course_http import (
    Chunking,
    Playback,
    PlayedBody,
    RecordedRequest,
    VendorError,
    VendorErrorCode,
    masked_path,
    scrub,
)
from course_http.loopback import LoopbackRequest, LoopbackResponse, LoopbackStream

__all__ = ["CassetteResponder", "ServedCall"]


@final
@dataclass(frozen=True, slots=True)
class ServedCall:
    """What a `CassetteResponder` did with one request.

    ``path`` is masked as a cassette keeps it (no key in a query, no
    credential). ``cassette`` and ``index`` name the recorded call that answered it
    (``None`` when none did); ``status`` is the status sent; ``code`` and
    ``problem`` say why no recorded call answered (``HTTP_REQUEST_MISMATCH``,
    ``HTTP_RECORDING_EXHAUSTED`` or ``HTTP_SERVER_ERROR``), ``None`` when one did.
    A call whose stream the grammar refused is told again once its body
    ended, with the grammar's ``VENDOR_*`` code and the problem
    (``answers.json calls[0].response.body: ...``).
    """

    method: str
    path: str
    cassette: str | None
    index: int | None
    status: int
    code: VendorErrorCode | None = None
    problem: str | None = None


@final
class CassetteResponder:
    """A loopback `Responder` answering from cassettes, with request matching.

    ``cassettes`` are ``(name, cassette)`` pairs (the name is what reports
    say). Each recorded call is taken once, by the request that matched it
    or by one that differed from it (refused), as a replay takes it; bodies
    are cut as ``chunking`` says (``"random"``: seeded by ``seed``),
    ``delay`` seconds between chunks. With ``check`` (`StreamJudges`), an
    event the grammar refuses is not sent (the connection closes there) and
    the problem is kept in `problems`. ``report`` gets a `ServedCall` for
    every request (and one more for a refused stream). Whatever goes wrong
    while answering (``report`` raising included) is answered with a typed
    500 ``HTTP_SERVER_ERROR`` naming the exception's type, never a bare 500.
    Raises ``TypeError`` or ``ValueError`` for bad arguments.
    """

    def __init__(
        self,
        cassettes: Sequence[tuple[str, Cassette]],
        *,
        chunking: Chunking = "whole",
        delay: float = 0.0,
        seed: int = 0,
        check: StreamJudges | None = None,
        report: Callable[[ServedCall], object] | None = None,
    ) -> None:
        if not isinstance(cassettes, (list, tuple)):
            raise TypeError("cassettes must be a list or tuple of (name, Cassette) pairs")
        for entry in cassettes:
            if not (isinstance(entry, tuple) and len(entry) == 2 and type(entry[1]) is Cassette):
                raise TypeError("cassettes must be a list or tuple of (name, Cassette) pairs")
        if chunking not in get_args(Chunking):
            raise ValueError(f"chunking must be one of {get_args(Chunking)}")
        if type(delay) not in (int, float) or not (math.isfinite(delay) and delay >= 0):
            raise ValueError("delay must be a finite number of seconds, 0 or more")
        self._players = [
            (
                str(name),
                CassettePlayer(
                    cassette,
                    matching=None,
                    faults=None,
                    chunking=chunking,
                    seed=seed,
                    when_exhausted="",
                    check=check,
                ),
            )
            for name, cassette in cassettes
        ]
        self._delay = float(delay)
        self._report = report

    @property
    def pending_call_count(self) -> int:
        """How many recorded calls no request has taken yet, over every cassette."""
        return sum(player.pending_call_count for _, player in self._players)

    @property
    def problems(self) -> tuple[VendorError, ...]:
        """Every strict-check failure so far, cassette by cassette, each naming its cassette."""
        return tuple(
            problem.with_message(f"{name} {problem.message}")
            for name, player in self._players
            for problem in player.problems
        )

    def assert_consumed(self) -> None:
        """Raise ``AssertionError`` naming each cassette whose recorded calls were not all taken.

        One line a cassette: its name, then what a replay's teardown says
        (how many calls are left, and the first of them).
        """
        left: list[str] = []
        for name, player in self._players:
            try:
                player.assert_consumed()
            except AssertionError as unplayed:
                left.append(f"{name}: {unplayed}")
        if left:
            raise AssertionError("\n".join(left))

    def __call__(self, request: LoopbackRequest) -> LoopbackResponse | LoopbackStream:
        secrets = request_secrets(dict(request.headers), request.path)
        # What a report shows, and what routes: the path as a cassette keeps it.
        path = masked_path(scrub(request.path, secrets))
        try:
            return self._answer(request, path, secrets)
        except Exception as error:
            # A defect (or a report that raises) still reaches the client typed.
            return self._failed(request.method, path, error)

    def _answer(
        self, request: LoopbackRequest, path: str, secrets: tuple[str, ...]
    ) -> LoopbackResponse | LoopbackStream:
        candidates = [
            (name, player)
            for name, player in self._players
            if (call := player.next_call) is not None
            and call.request.method == request.method
            and call.request.path == path
        ]
        if candidates:
            return self._routed(request, path, secrets, candidates)
        if any(
            call.request.method == request.method and call.request.path == path
            for _, player in self._players
            for call in player.cassette.calls
        ):
            return self._refuse(
                request.method,
                path,
                400,
                VendorErrorCode.HTTP_RECORDING_EXHAUSTED,
                f"every recorded {request.method} {path} call has been served",
            )
        return self._refuse(
            request.method,
            path,
            404,
            VendorErrorCode.HTTP_REQUEST_MISMATCH,
            f"no cassette records {request.method} {path}{self._nearest(request.method, path)}",
        )

    def _routed(
        self,
        request: LoopbackRequest,
        path: str,
        secrets: tuple[str, ...],
        candidates: list[tuple[str, CassettePlayer]],
    ) -> LoopbackResponse | LoopbackStream:
        """Play the first candidate whose next call ``request`` matches; else refuse it
        as the first candidate's call, which it takes, as a replay's mismatch does."""
        body = json_body(request.body)
        if isinstance(body, Failure):
            taken = RecordedRequest(request.method, path, frozendict(), frozendict())
            problem = scrub(body.failure(), secrets)
        else:
            for name, player in candidates:
                redaction = player.cassette.redaction
                sent = redacted_request(
                    request.method, request.path, {}, body.unwrap(), redaction, secrets
                )
                difference = player.difference(sent)
                if difference is None:
                    return self._serve(name, player, sent, path)
                if player is candidates[0][1]:
                    taken, problem = sent, difference
        name, player = candidates[0]
        index = player.count(taken)
        mismatch = VendorErrorCode.HTTP_REQUEST_MISMATCH
        return self._refuse(
            request.method, path, 400, mismatch, f"{name} calls[{index}]: {problem}"
        )

    def _nearest(self, method: str, path: str) -> str:
        # A client on the wrong base URL sends a recorded path with a prefix
        # missing or added (the OpenAI SDK's "/v1"), one on another API
        # version another version segment: say which one is recorded.
        for _, player in self._players:
            for call in player.cassette.calls:
                recorded = call.request.path
                if call.request.method != method:
                    continue
                if recorded.endswith(path) or path.endswith(recorded):
                    return f" (one records {method} {recorded}: check the client's base URL)"
                hint = version_hint(recorded, path)
                if hint:
                    return f" (one records {method} {recorded}){hint}"
        return ""

    def _failed(self, method: str, path: str, error: Exception) -> LoopbackResponse:
        # Only the type: the message of a foreign exception may quote the request.
        problem = f"the cassette responder failed to answer: {type(error).__name__}"
        code = VendorErrorCode.HTTP_SERVER_ERROR
        # The report may be what failed: the client is answered all the same.
        with contextlib.suppress(Exception):
            self._told(ServedCall(method, path, None, None, 500, code, problem))
        return _refusal(500, code, problem)

    def _serve(
        self, name: str, player: CassettePlayer, sent: RecordedRequest, path: str
    ) -> LoopbackStream:
        index, played = player.play(sent, sent)
        served = ServedCall(sent.method, path, name, index, played.status)
        self._told(served)

        async def opened() -> tuple[int, Mapping[str, str], AsyncIterator[bytes]]:
            return played.status, played.headers, self._paced(played, served, player)

        return LoopbackStream(opened)

    async def _paced(
        self, played: Playback, served: ServedCall, player: CassettePlayer
    ) -> AsyncIterator[bytes]:
        """The played body's chunks, ``delay`` seconds apart; a refused stream told once it ends."""
        body = PlayedBody(played, None)
        first = True
        try:
            async for chunk in body:
                if not first and self._delay:
                    await asyncio.sleep(self._delay)
                first = False
                yield chunk
        finally:
            await body.aclose()
            # Cut at the refused event, or judged to its end after the client
            # left: either way the body is over, and a report that fails changes nothing.
            problem = player.problem_of(served.index or 0)
            if problem is not None:
                told = f"{served.cassette} {problem.message}"
                with contextlib.suppress(Exception):
                    self._told(dataclasses.replace(served, code=problem.code, problem=told))

    def _refuse(
        self, method: str, path: str, status: int, code: VendorErrorCode, problem: str
    ) -> LoopbackResponse:
        self._told(ServedCall(method, path, None, None, status, code, problem))
        return _refusal(status, code, problem)

    def _told(self, served: ServedCall) -> None:
        if self._report is not None:
            self._report(served)


def _refusal(status: int, code: VendorErrorCode, problem: str) -> LoopbackResponse:
    return LoopbackResponse(refusal(status, code, problem))
