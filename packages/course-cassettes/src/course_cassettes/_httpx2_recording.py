"""Recording an httpx2 client's calls into a cassette, sync or async: `Httpx2RecordingTransport`."""

from __future__ import annotations

import os
import random
import threading
from collections.abc import AsyncIterator, Iterator, Sequence
from pathlib import Path
from typing import final

import httpx2

from course_cassettes._cassette import Cassette, CassetteCall, Redaction, RequestMatching
from course_cassettes._cassette_file import write_cassette
from course_cassettes._cassette_json import CASSETTE_VENDOR
from course_cassettes._httpx2_body import OnceStream, played_response
from course_cassettes._httpx2_calls import StreamCheck, json_body, located, raw_path
from course_cassettes._matching import request_difference
from course_cassettes._redaction import (
    checked_extra_headers,
    merged_redaction,
    redacted_request,
    redacted_response,
    remasked_request,
    request_secrets,
)
from course_cassettes._refusal import refusal
from course_http import (
    RecordedRequest,
    ResponseEnd,
    VendorError,
    VendorErrorCode,
    playback_of,
)

__all__ = ["Httpx2RecordingTransport"]

# What describes the body as the server encoded it, no more true once it is decoded.
_DECODED_AWAY = frozenset({"content-encoding", "content-length"})


@final
class _Call:
    """One call being recorded: its redacted request, then its response as it arrives."""

    def __init__(self, request: RecordedRequest, secrets: tuple[str, ...]) -> None:
        self.request = request
        self.secrets = secrets
        self.status: int | None = None
        self.headers: dict[str, str] = {}
        self.parts: list[bytes] = []
        self.end: ResponseEnd | None = None


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

    A request whose body is not a JSON object (a cassette holds none) is
    refused, unsent, with a 400 marked ``x-should-retry: false``
    (``HTTP_RECORDING_INVALID``). With ``check`` (a `StreamCheck`), each
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
        if replay_first is not None and type(replay_first) is not Cassette:
            raise TypeError("replay_first must be a Cassette or None")
        if inner is not None and not isinstance(
            inner, (httpx2.BaseTransport, httpx2.AsyncBaseTransport)
        ):
            raise TypeError("inner must be an httpx2 transport or None")
        if check is not None and not callable(check):
            raise TypeError("check must be a callable or None")
        matching = replay_first.matching if matching is None and replay_first else matching
        self._redaction = Redaction() if redaction is None else redaction
        self._matching = RequestMatching() if matching is None else matching
        if type(self._redaction) is not Redaction or type(self._matching) is not RequestMatching:
            raise TypeError("redaction and matching must be a Redaction and a RequestMatching")
        self._earlier: tuple[CassetteCall, ...] = ()
        if replay_first is not None:
            # A mask is only ever added: dropping one would write in clear what was kept out.
            self._redaction = merged_redaction(replay_first.redaction, self._redaction)
            self._earlier = tuple(
                CassetteCall(remasked_request(call.request, self._redaction), call.response)
                for call in replay_first.calls
            )
        self._extra_headers = checked_extra_headers(keep_headers)
        self._path = Path(path)
        self._inner = inner
        self._made: list[httpx2.BaseTransport | httpx2.AsyncBaseTransport] = []
        self._check = check
        self._calls: list[_Call | CassetteCall] = []
        self._problems: list[VendorError] = []
        self._replaying = replay_first is not None
        self._recorded_any = replay_first is None
        self._closed = False
        self._random = random.Random(0)
        self._lock = threading.RLock()

    @property
    def path(self) -> Path:
        """Where the cassette is written."""
        return self._path

    @property
    def problems(self) -> tuple[VendorError, ...]:
        """Every refusal and strict-check failure so far, in order, as `VendorError` s."""
        return tuple(self._problems)

    @property
    def cassette(self) -> Cassette:
        """The cassette as recorded so far (a call still streaming holds what arrived)."""
        with self._lock:
            calls = [
                call if type(call) is CassetteCall else self._finished(call) for call in self._calls
            ]
        return Cassette(
            [call for call in calls if call is not None],
            matching=self._matching,
            redaction=self._redaction,
        )

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        """Send ``request`` of a sync client on, and record it (see the class)."""
        content = request.read()
        early = self._early_answer(request, content)
        if early is not None:
            return early
        call = self._begin(request, content)
        inner = self._sync_inner()
        try:
            response = inner.handle_request(request)
        except BaseException:
            self._abandon(call)
            raise
        return self._passed_on(call, response, request)

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        """Send ``request`` of an async client on, and record it (see the class)."""
        content = await request.aread()
        early = self._early_answer(request, content)
        if early is not None:
            return early
        call = self._begin(request, content)
        inner = self._async_inner()
        try:
            response = await inner.handle_async_request(request)
        except BaseException:
            self._abandon(call)
            raise
        return self._passed_on(call, response, request)

    def _sync_inner(self) -> httpx2.BaseTransport:
        with self._lock:
            if self._inner is None:
                self._inner = httpx2.HTTPTransport()
                self._made.append(self._inner)
            inner = self._inner
        if not isinstance(inner, httpx2.BaseTransport):
            raise TypeError("a sync client's calls need a sync inner transport")
        return inner

    def _async_inner(self) -> httpx2.AsyncBaseTransport:
        with self._lock:
            if self._inner is None:
                self._inner = httpx2.AsyncHTTPTransport()
                self._made.append(self._inner)
            inner = self._inner
        if not isinstance(inner, httpx2.AsyncBaseTransport):
            raise TypeError("an async client's calls need an async inner transport")
        return inner

    def _early_answer(self, request: httpx2.Request, content: bytes) -> httpx2.Response | None:
        """A replayed earlier call, or the refusal of a body no cassette holds; else ``None``."""
        body = json_body(content)
        if body is None:
            problem = "the request body is not a JSON object: a cassette cannot hold it"
            code = VendorErrorCode.HTTP_RECORDING_INVALID
            with self._lock:
                self._problems.append(VendorError(code, problem, vendor=CASSETTE_VENDOR))
            played = playback_of(refusal(400, code, problem), "whole", self._random)
            return played_response(played, request)
        with self._lock:
            index = len(self._calls)
            if not self._replaying or index >= len(self._earlier):
                self._replaying = False
                return None
            earlier = self._earlier[index]
            if request_difference(earlier.request, self._redacted(request, body), self._matching):
                self._replaying = False
                return None
            self._calls.append(earlier)
        return played_response(playback_of(earlier.response, "whole", self._random), request)

    def _begin(self, request: httpx2.Request, content: bytes) -> _Call:
        call = _Call(self._redacted(request, json_body(content)), _secrets(request))
        with self._lock:
            self._calls.append(call)
            self._recorded_any = True
        # Unencoded bytes keep the cassette readable; the vendor's answer is the same.
        request.headers["accept-encoding"] = "identity"
        return call

    def _abandon(self, call: _Call) -> None:
        # No response at all (no connection): not a vendor's answer, not recorded.
        with self._lock:
            self._calls.remove(call)

    def _passed_on(
        self, call: _Call, response: httpx2.Response, request: httpx2.Request
    ) -> httpx2.Response:
        call.status = response.status_code
        call.headers = {
            name: value
            for name, value in response.headers.items()
            if name.lower() not in _DECODED_AWAY
        }
        # Passed on (and kept) decoded: a credential echoed in a compressed
        # body could not be scrubbed, and the client decodes it anyway.
        return httpx2.Response(
            status_code=response.status_code,
            headers=[
                (name, value)
                for name, value in response.headers.raw
                if name.lower().decode("latin-1") not in _DECODED_AWAY
            ],
            stream=_TeeBody(self, call, response),
            request=request,
            extensions=response.extensions,
        )

    def _finish(self, call: _Call, end: ResponseEnd) -> VendorError | None:
        """End ``call`` and save; the strict check's problem of a complete call, if any."""
        with self._lock:
            if call.end is not None:
                return None
            call.end = end
            self._save()
            finished = self._finished(call) if end == "complete" else None
            index = self._calls.index(call)
        if finished is None or self._check is None:
            return None
        error = self._check(finished.request.path, finished.response)
        if error is None:
            return None
        problem = located(error, index)
        with self._lock:
            self._problems.append(problem)
        return problem

    def _finished(self, call: _Call) -> CassetteCall | None:
        if call.status is None:
            return None
        response = redacted_response(
            call.status,
            call.headers,
            b"".join(call.parts),
            call.end or "stalled",
            call.secrets,
            extra_headers=self._extra_headers,
        )
        return CassetteCall(call.request, response)

    def _save(self) -> None:
        if self._recorded_any:
            write_cassette(self._path, self.cassette)

    def _redacted(self, request: httpx2.Request, body: object) -> RecordedRequest:
        return redacted_request(
            request.method,
            raw_path(request),
            dict(request.headers),
            body,
            self._redaction,
            _secrets(request),
            extra_headers=self._extra_headers,
        )

    def _closing(self) -> bool:
        """Mark every call still streaming as stalled and save; whether this is the first close."""
        with self._lock:
            if self._closed:
                return False
            self._closed = True
            for call in self._calls:
                if type(call) is _Call and call.end is None and call.status is not None:
                    call.end = "stalled"
            self._save()
        return True

    def close(self) -> None:
        """Write the cassette (a call still streaming as it stands), then close ``inner``.

        Calling it again does nothing more. Raises ``OSError`` when the file
        cannot be written (the inner transport is closed anyway).
        """
        try:
            self._closing()
        finally:
            inner = self._inner
            if isinstance(inner, httpx2.BaseTransport):
                inner.close()

    async def aclose(self) -> None:
        """Write the cassette, then close ``inner``, as `close` does, for an async client."""
        try:
            self._closing()
        finally:
            inner = self._inner
            if isinstance(inner, httpx2.AsyncBaseTransport):
                await inner.aclose()

    def __repr__(self) -> str:
        return f"Httpx2RecordingTransport(path={str(self._path)!r})"


def _secrets(request: httpx2.Request) -> tuple[str, ...]:
    return request_secrets(dict(request.headers), raw_path(request))


class _TeeBody(OnceStream):
    """The inner body, decoded, passed on as it arrives and kept for the cassette."""

    def __init__(
        self, owner: Httpx2RecordingTransport, call: _Call, response: httpx2.Response
    ) -> None:
        self._owner = owner
        self._call = call
        self._response = response

    def _chunks(self) -> Iterator[bytes]:
        end: ResponseEnd = "stalled"
        try:
            for chunk in self._response.iter_bytes():
                self._call.parts.append(chunk)
                yield chunk
            end = "complete"
        except httpx2.DecodingError:
            end = "interrupted"
            raise
        except httpx2.TransportError as error:
            # A read timeout is a stall: the connection stayed open, silent.
            if not isinstance(error, httpx2.ReadTimeout):
                end = "interrupted"
            raise
        finally:
            self._response.close()
            self._raise_problem(end)

    async def _achunks(self) -> AsyncIterator[bytes]:
        end: ResponseEnd = "stalled"
        try:
            async for chunk in self._response.aiter_bytes():
                self._call.parts.append(chunk)
                yield chunk
            end = "complete"
        except httpx2.DecodingError:
            end = "interrupted"
            raise
        except httpx2.TransportError as error:
            if not isinstance(error, httpx2.ReadTimeout):
                end = "interrupted"
            raise
        finally:
            await self._response.aclose()
            self._raise_problem(end)

    def _raise_problem(self, end: ResponseEnd) -> None:
        problem = self._owner._finish(self._call, end)
        if problem is not None:
            raise problem

    def close(self) -> None:
        super().close()
        self._owner._finish(self._call, "stalled")
        self._response.close()

    async def aclose(self) -> None:
        await super().aclose()
        self._owner._finish(self._call, "stalled")
        await self._response.aclose()
