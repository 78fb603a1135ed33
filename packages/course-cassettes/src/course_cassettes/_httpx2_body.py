"""A recorded response played to an httpx2 client, sync or async: `played_response`.

The same `course_http.Playback` the in-process transports play, for a client
that calls a transport directly (the official SDKs' ``http_client``): the
body's chunks in order, the pause of a delay fault, and the recorded end (a
dropped connection, a stall past the read timeout). ``after`` runs once the
last chunk was taken, before the body ends; what it raises is what the
client's read raises (a strict check's `VendorError`).
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Generator, Iterator

import httpx2

from course_http import Playback, header_bytes

__all__ = ["OnceStream", "played_response"]


def played_response(
    played: Playback, request: httpx2.Request, after: Callable[[], None] | None = None
) -> httpx2.Response:
    """The httpx2 response that plays ``played`` to ``request``'s client, sync or async."""
    timeouts = request.extensions.get("timeout", {})
    return httpx2.Response(
        status_code=played.status,
        headers=header_bytes(played.headers.items()),
        stream=_PlayedBody(played, timeouts.get("read"), after),
        request=request,
    )


class OnceStream(httpx2.SyncByteStream, httpx2.AsyncByteStream):
    """A body read once, as a socket's is: iterating it again goes on from where it was.

    An SDK may iterate a response's stream itself after its reader stopped
    (the OpenAI SDK drains what follows ``[DONE]``): that must get the rest
    of the body, never the body again. A subclass writes `_chunks` and
    `_achunks`; closing closes what was started.
    """

    _sync_source: Iterator[bytes] | None = None
    _async_source: AsyncIterator[bytes] | None = None

    def _chunks(self) -> Iterator[bytes]:
        raise NotImplementedError

    def _achunks(self) -> AsyncIterator[bytes]:
        raise NotImplementedError

    def __iter__(self) -> Iterator[bytes]:
        if self._sync_source is None:
            self._sync_source = self._chunks()
        yield from self._sync_source

    async def __aiter__(self) -> AsyncIterator[bytes]:
        if self._async_source is None:
            self._async_source = self._achunks()
        async for chunk in self._async_source:
            yield chunk

    def close(self) -> None:
        source = self._sync_source
        if isinstance(source, Generator):
            source.close()

    async def aclose(self) -> None:
        source = self._async_source
        if isinstance(source, AsyncGenerator):
            await source.aclose()


class _PlayedBody(OnceStream):
    def __init__(
        self, played: Playback, read_timeout: float | None, after: Callable[[], None] | None
    ) -> None:
        self._played = played
        self._read_timeout = read_timeout
        self._after = after

    def _pause_seconds(self) -> tuple[float, bool]:
        """How long a pause lasts, and whether it ends in a read timeout."""
        seconds = self._played.pause_seconds
        if self._read_timeout is not None and seconds > self._read_timeout:
            return self._read_timeout, True
        return seconds, False

    def _chunks(self) -> Iterator[bytes]:
        played = self._played
        for index, chunk in enumerate(played.chunks):
            if index == played.pause_before:
                self._pause_sync()
            yield chunk
        if played.pause_before == len(played.chunks):
            self._pause_sync()
        if played.end == "stalled":
            if self._read_timeout is None:
                threading.Event().wait()  # forever, as the recorded server was
            time.sleep(self._read_timeout or 0.0)
        self._ended()

    async def _achunks(self) -> AsyncIterator[bytes]:
        played = self._played
        for index, chunk in enumerate(played.chunks):
            if index == played.pause_before:
                await self._pause_async()
            elif index:
                await asyncio.sleep(0)
            yield chunk
        if played.pause_before == len(played.chunks):
            await self._pause_async()
        if played.end == "stalled":
            if self._read_timeout is None:
                await asyncio.Event().wait()  # forever: only cancellation ends it
            await asyncio.sleep(self._read_timeout or 0.0)
        self._ended()

    def _pause_sync(self) -> None:
        seconds, times_out = self._pause_seconds()
        time.sleep(seconds)
        if times_out:
            raise httpx2.ReadTimeout("the replayed response paused past the read timeout")

    async def _pause_async(self) -> None:
        seconds, times_out = self._pause_seconds()
        await asyncio.sleep(seconds)
        if times_out:
            raise httpx2.ReadTimeout("the replayed response paused past the read timeout")

    def _ended(self) -> None:
        end = self._played.end
        if end == "interrupted":
            raise httpx2.RemoteProtocolError(
                "the recorded connection closed before the body was complete"
            )
        if end == "stalled":
            raise httpx2.ReadTimeout("the recorded response stalled past the read timeout")
        if self._after is not None:
            self._after()
