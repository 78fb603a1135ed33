"""Replaying a cassette to any httpx2 client, sync or async: `Httpx2CassetteTransport`."""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from typing import final

import httpx2
from frozendict import frozendict
from returns.result import Failure

from course_cassettes._cassette import Cassette, RequestMatching
from course_cassettes._cassette_json import CASSETTE_VENDOR
from course_cassettes._faults import ReplayFault
from course_cassettes._httpx2_body import played_response
from course_cassettes._httpx2_calls import StreamCheck, json_body, located, raw_path
from course_cassettes._player import CassettePlayer
from course_cassettes._redaction import redacted_request, request_secrets
from course_cassettes._refusal import refusal
from course_http import (
    Chunking,
    Playback,
    RecordedRequest,
    RecordingExhaustedError,
    RequestMismatchError,
    VendorError,
    VendorErrorCode,
    masked_path,
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

    A request that differs, one whose body a cassette cannot hold (not a
    strict JSON object: a file upload, a ``NaN``, ``Infinity`` or ``1e400``,
    a key given twice, nesting past ``course_protocol.JSON_MAX_DEPTH``),
    or one past the last recorded call is refused with a 400 whose JSON
    body names the code (``HTTP_REQUEST_MISMATCH`` for the first two,
    ``HTTP_RECORDING_EXHAUSTED``) and the problem, marked ``x-should-retry:
    false`` so that no SDK retries it: the SDK raises its own error for a
    400 (``BadRequestError``), and the problem is kept in `problems` as a
    `VendorError`. With ``check`` (a `StreamCheck`), each recorded response
    played whole with no fault is checked once its last byte was read: a
    problem is kept and raised (a `VendorError` with the parser's code)
    where the client reads the end of the body. Raises ``TypeError`` or
    ``ValueError`` for bad arguments, as `CassetteTransport` does.
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
        if check is not None and not callable(check):
            raise TypeError("check must be a callable or None")
        self._player = CassettePlayer(
            cassette,
            matching=matching,
            faults=faults,
            chunking=chunking,
            seed=seed,
            when_exhausted=when_exhausted,
        )
        self._check = check
        self._problems: list[VendorError] = []
        self._checked: set[int] = set()
        # A sync client may be shared by threads: each call takes its place in order.
        self._lock = threading.Lock()

    @property
    def cassette(self) -> Cassette:
        """The cassette being replayed."""
        return self._player.cassette

    @property
    def requests(self) -> tuple[RecordedRequest, ...]:
        """Every request received so far, in order, masked as a cassette would hold it."""
        return self._player.requests

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
        return self._player.pending_call_count

    def assert_consumed(self) -> None:
        """Raise ``AssertionError`` when recorded calls were never played (naming the first)."""
        self._player.assert_consumed()

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
        player = self._player
        with self._lock:
            if isinstance(body, Failure):
                shown = masked_path(scrub(path, secrets))
                index = player.count(
                    RecordedRequest(request.method, shown, frozendict(), frozendict())
                )
                return self._refused(
                    VendorErrorCode.HTTP_REQUEST_MISMATCH,
                    f"call {index + 1}: {scrub(body.failure(), secrets)}",
                )
            sent = redacted_request(
                request.method, path, {}, body.unwrap(), player.cassette.redaction, secrets
            )
            try:
                index, played = player.play(sent, sent)
            except RecordingExhaustedError as exhausted:
                return self._refused(VendorErrorCode.HTTP_RECORDING_EXHAUSTED, str(exhausted))
            except RequestMismatchError as mismatch:
                return self._refused(VendorErrorCode.HTTP_REQUEST_MISMATCH, str(mismatch))
        checked = self._check is not None and not player.faulted(index)
        return played, (lambda: self._check_call(index)) if checked else None

    def _refused(self, code: VendorErrorCode, problem: str) -> tuple[Playback, None]:
        self._problems.append(VendorError(code, problem, vendor=CASSETTE_VENDOR))
        return self._player.whole(refusal(400, code, problem)), None

    def _check_call(self, index: int) -> None:
        assert self._check is not None
        call = self._player.cassette.calls[index]
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
        return f"Httpx2CassetteTransport({self._player.summary()})"
