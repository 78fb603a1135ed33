"""Serving cassettes over HTTP: `CassetteResponder`, what ``course serve`` runs.

Each request is answered by the next unplayed call of a cassette that
recorded the same method and path, if the request matches it as a replay
would (masked the same way, compared by the cassette's rule); the response
goes out byte for byte. Anything else is answered with an error the client
cannot mistake for the vendor's: a 400 (or a 404 for a path no cassette
knows) whose JSON body names the course code and the difference, marked
``x-should-retry: false`` so the vendors' SDKs do not retry it.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal, final, get_args

from course_cassettes._cassette import Cassette, CassetteCall
from course_cassettes._matching import request_difference
from course_cassettes._redaction import redacted_request, request_secrets
from course_http._errors import VendorErrorCode
from course_http._playback import cut_body
from course_http._recorded import Chunking, RecordedResponse
from course_http._secrets import masked_path, scrub
from course_http.loopback._script import LoopbackRequest, LoopbackResponse

__all__ = ["CassetteResponder", "ServedCall"]


@final
@dataclass(frozen=True, slots=True)
class ServedCall:
    """What a `CassetteResponder` did with one request.

    ``path`` is masked as a cassette keeps it (no key in a query, no
    credential). ``cassette`` and ``index`` name the recorded call that answered it
    (``None`` when none did); ``status`` is the status sent; ``code`` and
    ``problem`` say why no recorded call answered (``HTTP_REQUEST_MISMATCH``,
    ``HTTP_RECORDING_EXHAUSTED``, or ``None`` for a path no cassette records).
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
    request. Raises ``TypeError`` or ``ValueError`` for bad arguments.
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

    def __call__(self, request: LoopbackRequest) -> LoopbackResponse:
        secrets = request_secrets(dict(request.headers), request.path)
        # What a report shows, and what routes: the path as a cassette keeps it.
        path = masked_path(scrub(request.path, secrets))
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
            request.method, path, 404, None, f"no cassette records {request.method} {path}"
        )

    def _serve(self, tape: _Tape, method: str, path: str) -> LoopbackResponse:
        index = tape.played
        tape.played += 1
        recorded = tape.cassette.calls[index].response
        self._told(ServedCall(method, path, tape.name, index, recorded.status))
        return LoopbackResponse(recorded, chunking=self._cuts(recorded.body), delay=self._delay)

    def _cuts(self, body: bytes) -> Literal["whole", "bytes"] | tuple[int, ...]:
        if self._chunking == "whole" or self._chunking == "bytes":
            return self._chunking
        offsets: list[int] = []
        for chunk in cut_body(body, "random", self._random)[:-1]:
            offsets.append((offsets[-1] if offsets else 0) + len(chunk))
        return tuple(offsets)

    def _refuse(
        self, method: str, path: str, status: int, code: VendorErrorCode | None, problem: str
    ) -> LoopbackResponse:
        self._told(ServedCall(method, path, None, None, status, code, problem))
        error = {"type": "course_cassette_error", "message": problem}
        if code is not None:
            error["code"] = code.value
        body = json.dumps({"type": "error", "error": error}, ensure_ascii=False).encode()
        headers = {"content-type": "application/json", "x-should-retry": "false"}
        return LoopbackResponse(RecordedResponse(status, headers, body))

    def _told(self, served: ServedCall) -> None:
        if self._report is not None:
            self._report(served)


def _difference(tape: _Tape, request: LoopbackRequest, secrets: tuple[str, ...]) -> str | None:
    call = tape.next_call()
    assert call is not None
    try:
        body = json.loads(request.body)
        sent = redacted_request(
            request.method, request.path, {}, body, tape.cassette.redaction, secrets
        )
    except (ValueError, RecursionError) as error:
        return f"body: the request body is not a JSON object the cassette could hold ({error})"
    return request_difference(call.request, sent, tape.cassette.matching)
