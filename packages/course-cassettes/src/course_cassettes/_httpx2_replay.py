"""Replaying a cassette to any httpx2 client, sync or async: `Httpx2CassetteTransport`."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Mapping
from typing import final, get_args

import httpx2
from frozendict import frozendict

from course_cassettes._cassette import Cassette, RequestMatching
from course_cassettes._cassette_json import CASSETTE_VENDOR
from course_cassettes._faults import AppliedFault, ReplayFault
from course_cassettes._httpx2_body import played_response
from course_cassettes._httpx2_calls import StreamCheck, json_body, located, raw_path
from course_cassettes._matching import request_difference
from course_cassettes._redaction import redacted_request, request_secrets
from course_cassettes._refusal import refusal
from course_cassettes._replay import applied_faults
from course_http import (
    Chunking,
    Playback,
    RecordedRequest,
    RecordingExhaustedError,
    RequestMismatchError,
    VendorError,
    VendorErrorCode,
    masked_path,
    playback_of,
    scrub,
)

__all__ = ["Httpx2CassetteTransport"]


@final
class Httpx2CassetteTransport(httpx2.BaseTransport, httpx2.AsyncBaseTransport):
    """Replays a `Cassette` to an httpx2 client, sync or async: the official SDKs' transport.

    ``openai.OpenAI(http_client=httpx2.Client(transport=t))``,
    ``anthropic.AsyncAnthropic(http_client=httpx2.AsyncClient(transport=t))``:
    each request (streamed or not, a GET too) is masked as the cassette's
    ``redaction`` says and compared with the next recorded one, as
    `CassetteTransport` compares (``matching`` overrides the cassette's
    rule); the recorded response is played byte for byte (``chunking`` and
    ``seed`` cut it, at once by default), with ``faults`` applied as there.

    A request that differs, one past the last recorded call, or one whose
    body a cassette cannot hold is refused with a 400 whose JSON body names
    the code (``HTTP_REQUEST_MISMATCH``, ``HTTP_RECORDING_EXHAUSTED``) and
    the problem, marked ``x-should-retry: false`` so that no SDK retries it:
    the SDK raises its own error for a 400 (``BadRequestError``), and the
    problem is kept in `problems` as a `VendorError`. With ``check`` (a
    `StreamCheck`), each recorded response played whole with no fault is
    checked once its last byte was read: a problem is kept and raised (a
    `VendorError` with the parser's code) where the client reads the end of
    the body. Raises ``TypeError`` or ``ValueError`` for bad arguments, as
    `CassetteTransport` does.
    """

    def __init__(
        self,
        cassette: Cassette,
        *,
        matching: RequestMatching | None = None,
        faults: Mapping[int, ReplayFault] | None = None,
        chunking: Chunking = "whole",
        seed: int = 0,
        check: StreamCheck | None = None,
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
        if check is not None and not callable(check):
            raise TypeError("check must be a callable or None")
        if type(when_exhausted) is not str:
            raise TypeError("when_exhausted must be a str")
        self._cassette = cassette
        self._matching = cassette.matching if matching is None else matching
        self._applied = applied_faults(cassette, faults or {})
        self._chunking: Chunking = chunking
        self._random = random.Random(seed)
        self._check = check
        self._when_exhausted = when_exhausted
        self._requests: list[RecordedRequest] = []
        self._problems: list[VendorError] = []
        self._checked: set[int] = set()
        # A sync client may be shared by threads: each call takes its place in order.
        self._lock = threading.Lock()

    @property
    def cassette(self) -> Cassette:
        """The cassette being replayed."""
        return self._cassette

    @property
    def requests(self) -> tuple[RecordedRequest, ...]:
        """Every request received so far, in order, masked as a cassette would hold it."""
        return tuple(self._requests)

    @property
    def problems(self) -> tuple[VendorError, ...]:
        """Every refusal and strict-check failure so far, in order, as `VendorError` s.

        An SDK may turn a refusal into an error that the code under test
        catches; this is where the test still finds it.
        """
        return tuple(self._problems)

    @property
    def pending_call_count(self) -> int:
        """How many recorded calls no request has taken yet."""
        return max(0, len(self._cassette.calls) - len(self._requests))

    def assert_consumed(self) -> None:
        """Raise ``AssertionError`` when recorded calls were never played (naming the first)."""
        left = self.pending_call_count
        if left:
            first = len(self._cassette.calls) - left
            request = self._cassette.calls[first].request
            raise AssertionError(
                f"{left} recorded call(s) never played, from calls[{first}] "
                f"({request.method} {request.path}): the code made fewer calls than recorded"
            )

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        """Answer ``request`` of a sync client from the cassette (see the class)."""
        played, after = self._answer(request, request.read())
        return played_response(played, request, after)

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        """Answer ``request`` of an async client from the cassette (see the class)."""
        played, after = self._answer(request, await request.aread())
        return played_response(played, request, after)

    def _answer(
        self, request: httpx2.Request, content: bytes
    ) -> tuple[Playback, Callable[[], None] | None]:
        path = raw_path(request)
        secrets = request_secrets(dict(request.headers.items()), path)
        body = json_body(content)
        with self._lock:
            index = len(self._requests)
            if body is None:
                shown = masked_path(scrub(path, secrets))
                self._requests.append(
                    RecordedRequest(request.method, shown, frozendict(), frozendict())
                )
                return self._refused(
                    VendorErrorCode.HTTP_REQUEST_MISMATCH,
                    f"call {index + 1}: body: the request body is not a JSON object "
                    "a cassette could hold",
                )
            sent = redacted_request(
                request.method, path, {}, body, self._cassette.redaction, secrets
            )
            self._requests.append(sent)
            if index >= len(self._cassette.calls):
                exhausted = RecordingExhaustedError(index + 1, hint=self._when_exhausted)
                return self._refused(VendorErrorCode.HTTP_RECORDING_EXHAUSTED, str(exhausted))
            recorded = self._cassette.calls[index]
            difference = request_difference(recorded.request, sent, self._matching)
            if difference is not None:
                mismatch = RequestMismatchError(index + 1, index, difference)
                return self._refused(VendorErrorCode.HTTP_REQUEST_MISMATCH, str(mismatch))
            applied = self._applied.get(index, AppliedFault(recorded.response))
            played = playback_of(
                applied.response,
                self._chunking,
                self._random,
                pause_at=applied.pause_at,
                pause_seconds=applied.pause_seconds,
            )
        checked = self._check is not None and index not in self._applied
        return played, (lambda: self._check_call(index)) if checked else None

    def _refused(self, code: VendorErrorCode, problem: str) -> tuple[Playback, None]:
        self._problems.append(VendorError(code, problem, vendor=CASSETTE_VENDOR))
        return playback_of(refusal(400, code, problem), "whole", self._random), None

    def _check_call(self, index: int) -> None:
        assert self._check is not None
        call = self._cassette.calls[index]
        with self._lock:
            if index in self._checked:
                return
            self._checked.add(index)
        error = self._check(call.request.path, call.response)
        if error is not None:
            problem = located(error, index)
            with self._lock:
                self._problems.append(problem)
            raise problem

    def close(self) -> None:
        """Nothing to release: the cassette is in memory."""

    async def aclose(self) -> None:
        """Nothing to release: the cassette is in memory."""

    def __repr__(self) -> str:
        return (
            f"Httpx2CassetteTransport(calls={len(self._cassette.calls)}, "
            f"played={len(self._requests)}, matching={self._matching.on!r})"
        )
