"""Serving cassettes over HTTP: `CassetteResponder`, what ``course serve`` runs.

Each request is answered by the next unplayed call of a cassette that
recorded the same method and path, if the request matches it as a replay
would (masked the same way, compared by the cassette's rule); the response
goes out byte for byte, played by ``course_http``'s one played body (a
recorded stall or dropped connection ends the exchange at once, the
connection closed). Anything else is answered with an error the client
cannot mistake for the vendor's, marked ``x-should-retry: false`` so the
vendors' SDKs do not retry it, whose JSON body names the course code and the
problem: ``HTTP_REQUEST_MISMATCH`` (a 400, or a 404 for a method and path no
cassette records), ``HTTP_RECORDING_EXHAUSTED`` (a 400), or
``HTTP_SERVER_ERROR`` (a 500: the responder itself failed).
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import random
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import final, get_args

from returns.result import Failure

from course_cassettes._cassette import Cassette, CassetteCall
from course_cassettes._httpx2_calls import json_body
from course_cassettes._matching import request_difference, version_hint
from course_cassettes._redaction import redacted_request, request_secrets
from course_cassettes._refusal import refusal
from course_http import (
    Chunking,
    Playback,
    PlayedBody,
    VendorErrorCode,
    masked_path,
    playback_of,
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
    """

    method: str
    path: str
    cassette: str | None
    index: int | None
    status: int
    code: VendorErrorCode | None = None
    problem: str | None = None


@final
class _Tape:
    def __init__(self, name: str, cassette: Cassette) -> None:
        self.name = name
        self.cassette = cassette
        self.played = 0

    def next_call(self) -> CassetteCall | None:
        calls = self.cassette.calls
        return calls[self.played] if self.played < len(calls) else None


@final
class CassetteResponder:
    """A loopback `Responder` answering from cassettes, with request matching.

    ``cassettes`` are ``(name, cassette)`` pairs (the name is what reports
    say). Each recorded call is served once; bodies are cut as ``chunking``
    says (``"random"``: seeded by ``seed``) with ``delay`` seconds between
    chunks. ``report``, when given, is called with a `ServedCall` for every
    request. Whatever goes wrong while answering (``report`` raising
    included) is answered with the same typed JSON error, a 500
    ``HTTP_SERVER_ERROR`` naming the exception's type, never a bare 500.
    Raises ``TypeError`` or ``ValueError`` for bad arguments.
    """

    def __init__(
        self,
        cassettes: Sequence[tuple[str, Cassette]],
        *,
        chunking: Chunking = "whole",
        delay: float = 0.0,
        seed: int = 0,
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
        self._tapes = [_Tape(str(name), cassette) for name, cassette in cassettes]
        self._chunking: Chunking = chunking
        self._delay = float(delay)
        self._random = random.Random(seed)
        self._report = report

    @property
    def pending_call_count(self) -> int:
        """How many recorded calls no request has taken yet, over every cassette."""
        return sum(len(tape.cassette.calls) - tape.played for tape in self._tapes)

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
            tape
            for tape in self._tapes
            if (call := tape.next_call()) is not None
            and call.request.method == request.method
            and call.request.path == path
        ]
        first_problem: str | None = None
        for tape in candidates:
            problem = _difference(tape, request, secrets)
            if problem is None:
                return self._serve(tape, request.method, path)
            first_problem = first_problem or f"{tape.name} calls[{tape.played}]: {problem}"
        if first_problem is not None:
            return self._refuse(
                request.method, path, 400, VendorErrorCode.HTTP_REQUEST_MISMATCH, first_problem
            )
        if any(
            call.request.method == request.method and call.request.path == path
            for tape in self._tapes
            for call in tape.cassette.calls
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

    def _nearest(self, method: str, path: str) -> str:
        # A client on the wrong base URL sends a recorded path with a prefix
        # missing or added (the OpenAI SDK's "/v1"), one on another API
        # version another version segment: say which one is recorded.
        for tape in self._tapes:
            for call in tape.cassette.calls:
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

    def _serve(self, tape: _Tape, method: str, path: str) -> LoopbackStream:
        index = tape.played
        tape.played += 1
        recorded = tape.cassette.calls[index].response
        self._told(ServedCall(method, path, tape.name, index, recorded.status))
        played = playback_of(recorded, self._chunking, self._random)

        async def opened() -> tuple[int, Mapping[str, str], AsyncIterator[bytes]]:
            return played.status, played.headers, self._paced(played)

        return LoopbackStream(opened)

    async def _paced(self, played: Playback) -> AsyncIterator[bytes]:
        """The played body's chunks, ``delay`` seconds apart."""
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


def _difference(tape: _Tape, request: LoopbackRequest, secrets: tuple[str, ...]) -> str | None:
    call = tape.next_call()
    assert call is not None
    body = json_body(request.body)
    if isinstance(body, Failure):
        return scrub(body.failure(), secrets)
    sent = redacted_request(
        request.method, request.path, {}, body.unwrap(), tape.cassette.redaction, secrets
    )
    return request_difference(call.request, sent, tape.cassette.matching)
