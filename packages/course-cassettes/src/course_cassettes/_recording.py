"""Recording real calls into a cassette file as they stream: `RecordingTransport`."""

from __future__ import annotations

import json
import os
import random
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import final

import httpx2

from course_cassettes._cassette import Cassette, Redaction, RequestMatching
from course_cassettes._recording_log import RecordingCall, RecordingLog, ended_by
from course_http import (
    HttpTransport,
    LiveTransport,
    ResponseEnd,
    Timeouts,
    playback_of,
    playback_response,
)

__all__ = ["RecordingTransport"]


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
        self._log = RecordingLog(
            path,
            redaction=redaction,
            matching=matching,
            keep_headers=keep_headers,
            replay_first=replay_first,
        )
        self._random = random.Random(0)
        self._live = LiveTransport(base_url, timeouts=timeouts, trust_env=trust_env)
        super().__init__(base_url, timeouts=self._live.timeouts, trust_env=False)

    @property
    def path(self) -> Path:
        """Where the cassette is written."""
        return self._log.path

    @property
    def cassette(self) -> Cassette:
        """The cassette as recorded so far (a call still streaming holds what arrived)."""
        return self._log.cassette

    def _exchange(self) -> httpx2.AsyncBaseTransport:
        return _TeeExchange(self._log, self._live, self._random)

    async def aclose(self) -> None:
        """Write the cassette (a call still streaming as it stands), then close the connections.

        Calling it again does nothing more. Raises ``OSError`` when the file
        cannot be written (the connections are closed anyway).
        """
        try:
            if not self._closed:
                self._log.close()
        finally:
            await super().aclose()
            await self._live.aclose()

    def __repr__(self) -> str:
        return f"RecordingTransport(base_url={self.base_url!r}, path={str(self.path)!r})"


class _TeeExchange(httpx2.AsyncBaseTransport):
    """The httpx2 transport under a `RecordingTransport`: the live client, teed to the cassette."""

    def __init__(self, log: RecordingLog, live: LiveTransport, played: random.Random) -> None:
        self._log = log
        self._live = live
        self._random = played

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        log = self._log
        content = await request.aread()
        earlier = log.replayed(lambda: log.redacted(request, json.loads(content)))
        if earlier is not None:
            played = playback_of(earlier.response, "whole", self._random)
            return playback_response(played, request)
        call = log.begin(request, json.loads(content))
        # Unencoded bytes keep the cassette readable; the vendor's answer is the same.
        request.headers["accept-encoding"] = "identity"
        try:
            response = await self._live._client.send(request, stream=True)
        except BaseException:
            log.abandon(call)
            raise
        headers = call.received(response)
        return httpx2.Response(
            status_code=response.status_code, headers=headers, stream=_TeeBody(log, call, response)
        )


class _TeeBody(httpx2.AsyncByteStream):
    """The live body, passed on as it arrives and kept for the cassette."""

    def __init__(self, log: RecordingLog, call: RecordingCall, response: httpx2.Response) -> None:
        self._log = log
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
        except BaseException as error:
            end = ended_by(error)
            raise
        finally:
            # Stopped early (closed, cancelled) or timed out: nothing more came.
            await chunks.aclose()
            self._log.finish(self._call, end)

    async def aclose(self) -> None:
        self._log.finish(self._call, "stalled")
        await self._response.aclose()
