"""Recording an httpx2 client's calls into a cassette, sync or async: `Httpx2RecordingTransport`."""

from __future__ import annotations

import os
import random
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import final

import httpx2
from returns.result import Failure

from course_cassettes._cassette import Cassette, Redaction, RequestMatching
from course_cassettes._cassette_json import CASSETTE_VENDOR
from course_cassettes._httpx2_body import played_response
from course_cassettes._httpx2_calls import StreamCheck, json_body, located, raw_path
from course_cassettes._httpx2_tee import teed_response
from course_cassettes._recording_log import RecordingCall, RecordingLog
from course_cassettes._refusal import refusal
from course_http import (
    ResponseEnd,
    VendorError,
    VendorErrorCode,
    playback_of,
    request_secrets,
    scrub,
)

__all__ = ["Httpx2RecordingTransport"]


@final
class Httpx2RecordingTransport(httpx2.BaseTransport, httpx2.AsyncBaseTransport):
    """Sends every call of an httpx2 client through ``inner`` and writes it, redacted, to ``path``.

    ``inner`` is the transport that reaches the API: by default a new
    ``httpx2.HTTPTransport`` (sync clients) or ``httpx2.AsyncHTTPTransport``
    (async ones); any transport (an ``httpx2.MockTransport``) may stand in.
    It is closed with this one. Each call (streamed, plain JSON, a GET) is
    teed as its body streams to the client, recorded as it was (its status
    and body, ``end: "interrupted"`` for a dropped connection, ``"stalled"``
    for a body the client stopped reading or that timed out) and the file is
    rewritten at once (never half) when a call ends and at `close`. The body
    is asked for unencoded and passed on decoded, as `RecordingTransport`
    does, with the same redaction: allow-listed headers only, no secret
    header, ``redaction``'s fields and paths masked, every credential of the
    request scrubbed from what is written (``keep_headers`` adds header
    names; a secret one is a ``ValueError``). ``matching`` is written into
    the cassette for its replays; ``replay_first`` serves recorded calls
    first, as `RecordingTransport` does (VCR's ``new_episodes``).

    A request whose body a cassette cannot hold (not a strict JSON object:
    a file upload, a ``NaN``, ``Infinity`` or ``1e400``, a key given twice,
    nesting past ``course_protocol.JSON_MAX_DEPTH``) is refused, unsent,
    with a 400 marked ``x-should-retry: false`` (``HTTP_RECORDING_INVALID``,
    naming the path of the bad value). With ``check`` (a `StreamCheck`), each
    response recorded whole is checked once its last byte was read: a
    problem is kept in `problems` and raised (a `VendorError`) where the
    client reads the end of the body; the call stays in the file, as it was.
    Raises ``TypeError`` or ``ValueError`` for bad arguments.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        inner: httpx2.BaseTransport | httpx2.AsyncBaseTransport | None = None,
        redaction: Redaction | None = None,
        matching: RequestMatching | None = None,
        keep_headers: Sequence[str] = (),
        replay_first: Cassette | None = None,
        check: StreamCheck | None = None,
    ) -> None:
        if inner is not None and not isinstance(
            inner, (httpx2.BaseTransport, httpx2.AsyncBaseTransport)
        ):
            raise TypeError("inner must be an httpx2 transport or None")
        if check is not None and not callable(check):
            raise TypeError("check must be a callable or None")
        self._log = RecordingLog(
            path,
            redaction=redaction,
            matching=matching,
            keep_headers=keep_headers,
            replay_first=replay_first,
        )
        self._inner = inner
        self._check = check
        self._problems: list[VendorError] = []
        self._random = random.Random(0)
        self._lock = threading.Lock()

    @property
    def path(self) -> Path:
        """Where the cassette is written."""
        return self._log.path

    @property
    def problems(self) -> tuple[VendorError, ...]:
        """Every refusal and strict-check failure so far, in order, as `VendorError` s."""
        return tuple(self._problems)

    @property
    def cassette(self) -> Cassette:
        """The cassette as recorded so far (a call still streaming holds what arrived)."""
        return self._log.cassette

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        """Send ``request`` of a sync client on, and record it (see the class)."""
        call = self._answered_or_begun(request, request.read())
        if isinstance(call, httpx2.Response):
            return call
        inner = self._sync_inner()
        try:
            response = inner.handle_request(request)
        except BaseException:
            self._log.abandon(call)
            raise
        return teed_response(call, response, request, self._finish)

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        """Send ``request`` of an async client on, and record it (see the class)."""
        call = self._answered_or_begun(request, await request.aread())
        if isinstance(call, httpx2.Response):
            return call
        inner = self._async_inner()
        try:
            response = await inner.handle_async_request(request)
        except BaseException:
            self._log.abandon(call)
            raise
        return teed_response(call, response, request, self._finish)

    def _sync_inner(self) -> httpx2.BaseTransport:
        with self._lock:
            if self._inner is None:
                self._inner = httpx2.HTTPTransport()
            inner = self._inner
        if not isinstance(inner, httpx2.BaseTransport):
            raise TypeError("a sync client's calls need a sync inner transport")
        return inner

    def _async_inner(self) -> httpx2.AsyncBaseTransport:
        with self._lock:
            if self._inner is None:
                self._inner = httpx2.AsyncHTTPTransport()
            inner = self._inner
        if not isinstance(inner, httpx2.AsyncBaseTransport):
            raise TypeError("an async client's calls need an async inner transport")
        return inner

    def _answered_or_begun(
        self, request: httpx2.Request, content: bytes
    ) -> httpx2.Response | RecordingCall:
        """A replayed earlier call or the refusal of a body no cassette holds; else the call begun.

        The refusal names the path of the bad value, scrubbed of the
        request's credentials.
        """
        body = json_body(content)
        if isinstance(body, Failure):
            code = VendorErrorCode.HTTP_RECORDING_INVALID
            problem = scrub(
                body.failure(), request_secrets(dict(request.headers), raw_path(request))
            )
            with self._lock:
                self._problems.append(VendorError(code, problem, vendor=CASSETTE_VENDOR))
            played = playback_of(refusal(400, code, problem), "whole", self._random)
            return played_response(played, request)
        held = body.unwrap()
        earlier = self._log.replayed(lambda: self._log.redacted(request, held))
        if earlier is not None:
            return played_response(playback_of(earlier.response, "whole", self._random), request)
        call = self._log.begin(request, held)
        # Unencoded bytes keep the cassette readable; the vendor's answer is the same.
        request.headers["accept-encoding"] = "identity"
        return call

    def _finish(self, call: RecordingCall, end: ResponseEnd) -> VendorError | None:
        """End ``call`` and save; the strict check's problem of a complete call, if any."""
        finished = self._log.finish(call, end)
        if finished is None or self._check is None:
            return None
        index, recorded = finished
        error = self._check(recorded.request.path, recorded.response)
        if error is None:
            return None
        problem = located(error, index)
        with self._lock:
            self._problems.append(problem)
        return problem

    def close(self) -> None:
        """Write the cassette (a call still streaming as it stands), then close ``inner``.

        Calling it again does nothing more. Raises ``OSError`` when the file
        cannot be written (the inner transport is closed anyway).
        """
        try:
            self._log.close()
        finally:
            inner = self._inner
            if isinstance(inner, httpx2.BaseTransport):
                inner.close()

    async def aclose(self) -> None:
        """Write the cassette, then close ``inner``, as `close` does, for an async client."""
        try:
            self._log.close()
        finally:
            inner = self._inner
            if isinstance(inner, httpx2.AsyncBaseTransport):
                await inner.aclose()

    def __repr__(self) -> str:
        return f"Httpx2RecordingTransport(path={str(self.path)!r})"
