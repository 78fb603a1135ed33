"""Recording real calls into a cassette file as they stream: `RecordingTransport`."""

from __future__ import annotations

import json
import os
import random
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import final

import httpx2

from course_cassettes._cassette import Cassette, CassetteCall, Redaction, RequestMatching
from course_cassettes._cassette_file import write_cassette
from course_cassettes._matching import request_difference
from course_cassettes._redaction import (
    checked_extra_headers,
    merged_redaction,
    redacted_request,
    redacted_response,
    remasked_request,
    request_secrets,
)
from course_http import (
    HttpTransport,
    LiveTransport,
    RecordedRequest,
    ResponseEnd,
    Timeouts,
    playback_of,
    playback_response,
)

__all__ = ["RecordingTransport"]


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
class RecordingTransport(HttpTransport):
    """Sends every call to the network and writes it, redacted, to the cassette at ``path``.

    Calls go through a `LiveTransport` on ``base_url`` (``timeouts`` and
    ``trust_env`` are its own), asking for an unencoded body so the
    cassette stays readable; a body compressed anyway is decoded as it
    streams, passed on and recorded decoded (without its
    ``content-encoding``), so what it echoes is scrubbed too. Each call's
    response is teed as it streams and the file is rewritten (at once, never
    half) when a call ends and when the transport closes. A call is
    recorded as it was: a status error with its body; a body cut by a
    dropped connection, or whose encoding does not decode (``end:
    "interrupted"``); one the client stopped reading, or that timed out
    (``end: "stalled"``): replayed, each fails the same way again (the
    undecodable body as a dropped connection). A call that got no response at
    all (no connection) is not a vendor's answer and is not recorded.

    ``redaction`` masks request fields and paths; whatever it says, secret
    headers and headers outside the allow-list are never written and every
    credential of the request is scrubbed from what is (``keep_headers``
    adds header names to keep; a secret one is a ``ValueError``).
    ``matching`` is written into the cassette for its replays.

    With ``replay_first`` (a recorded cassette: VCR's ``new_episodes``), the
    cassette's masks stay, and ``redaction`` only adds to them (the calls
    kept are masked again the same way); calls
    are served from it while each request matches the next recorded one;
    from the first that does not, every call goes to the network, and the
    file becomes the calls played plus the new ones (once there is one).
    """

    def __init__(
        self,
        base_url: str,
        path: str | os.PathLike[str],
        *,
        redaction: Redaction | None = None,
        matching: RequestMatching | None = None,
        keep_headers: Sequence[str] = (),
        timeouts: Timeouts | None = None,
        trust_env: bool = True,
        replay_first: Cassette | None = None,
    ) -> None:
        if replay_first is not None and type(replay_first) is not Cassette:
            raise TypeError("replay_first must be a Cassette or None")
        matching = replay_first.matching if matching is None and replay_first else matching
        self._redaction = Redaction() if redaction is None else redaction
        self._matching = RequestMatching() if matching is None else matching
        if type(self._redaction) is not Redaction or type(self._matching) is not RequestMatching:
            raise TypeError("redaction and matching must be a Redaction and a RequestMatching")
        self._earlier: tuple[CassetteCall, ...] = ()
        if replay_first is not None:
            # A mask is only ever added: dropping one the cassette has would
            # write in clear what its earlier recording kept out.
            self._redaction = merged_redaction(replay_first.redaction, self._redaction)
            self._earlier = tuple(
                CassetteCall(remasked_request(call.request, self._redaction), call.response)
                for call in replay_first.calls
            )
        self._extra_headers = checked_extra_headers(keep_headers)
        self._path = Path(path)
        self._calls: list[_Call | CassetteCall] = []
        self._replaying = replay_first is not None
        self._recorded_any = replay_first is None
        self._random = random.Random(0)
        self._live = LiveTransport(base_url, timeouts=timeouts, trust_env=trust_env)
        super().__init__(base_url, timeouts=self._live.timeouts, trust_env=False)

    @property
    def path(self) -> Path:
        """Where the cassette is written."""
        return self._path

    @property
    def cassette(self) -> Cassette:
        """The cassette as recorded so far (a call still streaming holds what arrived)."""
        calls = [
            call if type(call) is CassetteCall else self._finished(call) for call in self._calls
        ]
        return Cassette(
            [call for call in calls if call is not None],
            matching=self._matching,
            redaction=self._redaction,
        )

    def _exchange(self) -> httpx2.AsyncBaseTransport:
        return _TeeExchange(self)

    def _replayed(self, request: httpx2.Request, content: bytes) -> httpx2.Response | None:
        index = len(self._calls)
        if not self._replaying or index >= len(self._earlier):
            self._replaying = False
            return None
        earlier = self._earlier[index]
        sent = self._redacted(request, content)
        if request_difference(earlier.request, sent, self._matching) is not None:
            self._replaying = False
            return None
        self._calls.append(earlier)
        return playback_response(playback_of(earlier.response, "whole", self._random), request)

    def _begin(self, request: httpx2.Request, content: bytes) -> _Call:
        call = _Call(self._redacted(request, content), _secrets(request))
        self._calls.append(call)
        self._recorded_any = True
        return call

    def _abandon(self, call: _Call) -> None:
        self._calls.remove(call)

    def _finish(self, call: _Call, end: ResponseEnd) -> None:
        if call.end is not None:
            return
        call.end = end
        self._save()

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

    def _redacted(self, request: httpx2.Request, content: bytes) -> RecordedRequest:
        return redacted_request(
            request.method,
            request.url.raw_path.decode("ascii"),
            dict(request.headers),
            json.loads(content),
            self._redaction,
            _secrets(request),
            extra_headers=self._extra_headers,
        )

    async def aclose(self) -> None:
        """Write the cassette (a call still streaming as it stands), then close the connections.

        Calling it again does nothing more. Raises ``OSError`` when the file
        cannot be written (the connections are closed anyway).
        """
        try:
            if not self._closed:
                for call in self._calls:
                    if type(call) is _Call and call.end is None and call.status is not None:
                        call.end = "stalled"
                self._save()
        finally:
            await super().aclose()
            await self._live.aclose()

    def __repr__(self) -> str:
        return f"RecordingTransport(base_url={self.base_url!r}, path={str(self._path)!r})"


# What describes the body as the server encoded it, no more true once it is decoded.
_DECODED_AWAY = frozenset({"content-encoding", "content-length"})


def _secrets(request: httpx2.Request) -> tuple[str, ...]:
    return request_secrets(dict(request.headers), request.url.raw_path.decode("ascii"))


class _TeeExchange(httpx2.AsyncBaseTransport):
    """The httpx2 transport under a `RecordingTransport`: the live client, teed to the cassette."""

    def __init__(self, owner: RecordingTransport) -> None:
        self._owner = owner

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        owner = self._owner
        content = await request.aread()
        replayed = owner._replayed(request, content)
        if replayed is not None:
            return replayed
        call = owner._begin(request, content)
        # Unencoded bytes keep the cassette readable; the vendor's answer is the same.
        request.headers["accept-encoding"] = "identity"
        try:
            response = await owner._live._client.send(request, stream=True)
        except BaseException:
            owner._abandon(call)
            raise
        call.status = response.status_code
        call.headers = {
            name: value
            for name, value in response.headers.items()
            if name.lower() not in _DECODED_AWAY
        }
        # The body is passed on (and kept) decoded: a credential echoed in a
        # compressed body could not be scrubbed, and the client decodes it anyway.
        return httpx2.Response(
            status_code=response.status_code,
            headers=[
                (name, value)
                for name, value in response.headers.raw
                if name.lower().decode("latin-1") not in _DECODED_AWAY
            ],
            stream=_TeeBody(owner, call, response),
        )


class _TeeBody(httpx2.AsyncByteStream):
    """The live body, passed on as it arrives and kept for the cassette."""

    def __init__(self, owner: RecordingTransport, call: _Call, response: httpx2.Response) -> None:
        self._owner = owner
        self._call = call
        self._response = response

    async def __aiter__(self) -> AsyncIterator[bytes]:
        end: ResponseEnd = "stalled"
        chunks = self._response.aiter_bytes()
        try:
            async for chunk in chunks:
                self._call.parts.append(chunk)
                yield chunk
            end = "complete"
        except httpx2.DecodingError:
            # What decoded is kept; the rest was not a body, and it ends there.
            end = "interrupted"
            raise
        except httpx2.TransportError as error:
            # A read timeout is a stall: the connection stayed open, silent.
            if not isinstance(error, httpx2.ReadTimeout):
                end = "interrupted"
            raise
        finally:
            # Stopped early (closed, cancelled) or timed out: nothing more came.
            await chunks.aclose()
            self._owner._finish(self._call, end)

    async def aclose(self) -> None:
        self._owner._finish(self._call, "stalled")
        await self._response.aclose()
