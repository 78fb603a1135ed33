"""Recording an httpx2 client's calls into a cassette, sync or async: `Httpx2RecordingTransport`."""

from __future__ import annotations

import dataclasses
import math
import os
import random
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import final

import httpx2
from returns.result import Failure

from course_cassettes._call_wire import checked_wire_name
from course_cassettes._cassette import Cassette, Redaction, RequestMatching
from course_cassettes._cassette_json import CASSETTE_VENDOR
from course_cassettes._httpx2_calls import json_body, raw_path, recorded_wire
from course_cassettes._httpx2_tee import REST_LIMIT_BYTES, REST_LIMIT_SECONDS, TeeBody
from course_cassettes._judging import Judging, StreamJudges
from course_cassettes._recording_log import RecordingCall, RecordingLog
from course_cassettes._refusal import refusal
from course_http import (
    VendorError,
    VendorErrorCode,
    playback_of,
    playback_response,
    request_secrets,
    scrub,
)

__all__ = ["Httpx2RecordingTransport"]


@final
class Httpx2RecordingTransport(httpx2.BaseTransport, httpx2.AsyncBaseTransport):
    """Sends every call of an httpx2 client through ``inner`` and writes it, redacted, to ``path``.

    ``inner`` is the transport that reaches the API: by default a new
    ``httpx2.HTTPTransport`` (sync clients) or ``httpx2.AsyncHTTPTransport``
    (async ones); any transport (an ``httpx2.MockTransport``,
    ``course_http.NetworkExchange``) may stand in. It is closed with this
    one. Each call (streamed, plain JSON, a GET) is teed as its body streams
    to the client (``course_cassettes``' one tee), recorded as it was (its
    status and body, ``end: "interrupted"`` for a dropped connection,
    ``"stalled"`` for one that timed out) and the file is rewritten at once
    (never half) when a call ends and at `close`. A body the client stops
    reading is read to its end anyway, within ``rest_limit_bytes`` and
    ``rest_limit_seconds`` (``course_cassettes.REST_LIMIT_BYTES`` and
    ``REST_LIMIT_SECONDS`` by default; a sync read still waiting when the time
    is up is cut, its socket shut down), so the cassette holds the whole
    stream: it is ``"complete"`` when it ended, or when its judge saw the
    terminal event (the sync OpenAI client stops at ``[DONE]``),
    ``"stalled"`` otherwise. The body is asked for unencoded and
    passed on decoded, as `RecordingTransport` does, with the same
    redaction: allow-listed headers only, no secret header,
    ``redaction``'s fields and paths masked, every credential of the request
    scrubbed from what is written (``keep_headers`` adds header names; a
    secret one is a ``ValueError``). ``matching`` and ``strict`` are written
    into the cassette for its replays (``strict=False``: no replay and no
    ``course check`` judges its streams); ``replay_first`` serves recorded
    calls first, as `RecordingTransport` does (VCR's ``new_episodes``),
    played as `Httpx2CassetteTransport` plays them.

    A request whose body a cassette cannot hold (not a strict JSON object:
    a file upload, a ``NaN``, ``Infinity`` or ``1e400``, a key given twice,
    nesting past ``course_protocol.JSON_MAX_DEPTH``) is refused, unsent,
    with a 400 marked ``x-should-retry: false`` (``HTTP_RECORDING_INVALID``,
    naming the path of the bad value). With ``check`` (`StreamJudges`) and
    ``strict``, each stream is judged as its bytes pass: a problem is kept
    in `problems` and raised (a `VendorError` naming the call,
    ``calls[0].response.body: ...``) where the client reads the event it
    refuses (or the end of the body), before the client parses it; the call
    stays in the file, as it was. A 2xx event stream no wire judges is kept
    in `unchecked`.

    Each call keeps the host it went to (``api.mistral.ai``; never a user,
    password or query) and the wire that made it: the one a vendor model
    names with its request (``course_http.WIRE_EXTENSION``), else ``wire``,
    the wire this recording is told its calls speak (an official SDK's call
    names none), else none (the cassette's readers then tell the wire from
    the host and the path). A request whose extension holds no wire name is
    refused as a body no cassette holds is. Raises ``TypeError`` or
    ``ValueError`` for bad arguments (a ``wire`` that is not a wire name).
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
        check: StreamJudges | None = None,
        strict: bool = True,
        rest_limit_bytes: int = REST_LIMIT_BYTES,
        rest_limit_seconds: float = REST_LIMIT_SECONDS,
        wire: str | None = None,
    ) -> None:
        if type(rest_limit_bytes) is not int or rest_limit_bytes < 1:
            raise ValueError("rest_limit_bytes must be an int, 1 or more")
        if type(rest_limit_seconds) not in (int, float) or not 0 < rest_limit_seconds < math.inf:
            raise ValueError("rest_limit_seconds must be a finite number of seconds, more than 0")
        if inner is not None and not isinstance(
            inner, (httpx2.BaseTransport, httpx2.AsyncBaseTransport)
        ):
            raise TypeError("inner must be an httpx2 transport or None")
        self._log = RecordingLog(
            path,
            redaction=redaction,
            matching=matching,
            keep_headers=keep_headers,
            replay_first=replay_first,
            strict=strict,
        )
        self._wire = checked_wire_name(wire, "wire")
        self._inner = inner
        self._rest_limits = (rest_limit_bytes, float(rest_limit_seconds))
        self._judging = Judging(check, strict=strict)
        self._random = random.Random(0)
        self._lock = threading.Lock()

    @property
    def path(self) -> Path:
        """Where the cassette is written."""
        return self._log.path

    @property
    def problems(self) -> tuple[VendorError, ...]:
        """Every refusal and strict-check failure so far, in order, as `VendorError` s."""
        return self._judging.problems

    @property
    def cassette(self) -> Cassette:
        """The cassette as recorded so far (a call still streaming holds what arrived)."""
        return self._log.cassette

    @property
    def recorded(self) -> tuple[int, ...]:
        """The index (in `cassette`) of each call recorded from ``inner``, in order."""
        return self._log.played()[1]

    @property
    def replayed(self) -> tuple[int, ...]:
        """The index of each call served from ``replay_first`` instead, in order."""
        return self._log.played()[0]

    @property
    def judged(self) -> tuple[int, ...]:
        """The index of each call whose stream its wire's grammar judged, in order."""
        return self._judging.judged

    @property
    def unchecked(self) -> tuple[tuple[int, str], ...]:
        """The index and path of each call whose 2xx event stream no installed wire judged.

        Empty without ``check``; without ``strict``, every 2xx event stream recorded.
        """
        return self._judging.unchecked

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
        return self._teed(call, response, request)

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
        return self._teed(call, response, request)

    def _teed(
        self, call: RecordingCall, response: httpx2.Response, request: httpx2.Request
    ) -> httpx2.Response:
        headers = call.received(response)
        judge = self._judging.judge(
            self._log.index(call), call.request, response.status_code, call.headers
        )
        return httpx2.Response(
            status_code=response.status_code,
            headers=headers,
            stream=TeeBody(
                self._log,
                call,
                response,
                judge,
                rest_bytes=self._rest_limits[0],
                rest_seconds=self._rest_limits[1],
            ),
            request=request,
            extensions=response.extensions,
        )

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
        wire = recorded_wire(request, self._wire)
        refused = (body.failure() if isinstance(body, Failure) else None) or (
            wire.failure() if isinstance(wire, Failure) else None
        )
        if refused is not None:
            code = VendorErrorCode.HTTP_RECORDING_INVALID
            problem = scrub(refused, request_secrets(dict(request.headers), raw_path(request)))
            self._judging.refused(VendorError(code, problem, vendor=CASSETTE_VENDOR))
            played = playback_of(refusal(400, code, problem), "whole", self._random)
            return playback_response(played, request)
        held = body.unwrap()
        earlier = self._log.replayed(lambda: self._log.redacted(request, held))
        if earlier is not None:
            index, replayed = earlier
            response = replayed.response
            played = playback_of(response, "whole", self._random)
            judge = self._judging.judge(index, replayed.request, response.status, response.headers)
            return playback_response(dataclasses.replace(played, judge=judge), request)
        call = self._log.begin(request, held, wire=wire.unwrap())
        # Unencoded bytes keep the cassette readable; the vendor's answer is the same.
        request.headers["accept-encoding"] = "identity"
        return call

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
