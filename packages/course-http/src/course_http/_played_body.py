"""The one played body: a recorded response's chunks played to an httpx2 client, sync or async.

`PlayedBody` is under every replay (`PlaybackExchange`, and so
`RecordedTransport` and the cassettes' transports); `OnceStream` is what
makes a body read once, as a socket's is.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncGenerator, AsyncIterator, Generator, Iterator
from typing import TYPE_CHECKING

import httpx2

if TYPE_CHECKING:
    from course_http._playback import Playback

__all__ = ["OnceStream", "PlayedBody"]


class OnceStream(httpx2.SyncByteStream, httpx2.AsyncByteStream):
    """A body read once, as a socket's is: iterating it again goes on from where it was.

    An SDK may iterate a response's stream itself after its reader stopped
    (the OpenAI SDK drains what follows ``[DONE]``): that must get the rest
    of the body, never the body again. A subclass writes `_chunks` (sync)
    and `_achunks` (async) and closes what it holds in `close` and `aclose`,
    calling this class's first, which closes the iteration started.
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
        """Close the sync iteration started, if any."""
        source = self._sync_source
        if isinstance(source, Generator):
            source.close()

    async def aclose(self) -> None:
        """Close the async iteration started, if any."""
        source = self._async_source
        if isinstance(source, AsyncGenerator):
            await source.aclose()


class PlayedBody(OnceStream):
    """A recorded body played to an httpx2 client, sync or async: the one played body.

    ``played`` says the chunks, the pause and the end (`Playback`);
    ``read_timeout`` is the client's (``None``: none). Between two chunks an
    async client's event loop gets a turn, as from a socket. Each chunk is
    fed to ``played.judge`` first: a problem is raised (the judge's
    `VendorError`) instead of that chunk, so the client never reads the
    event it refuses; at a complete end the judge's `close` is asked, and its
    problem raised where the client reads the end. A recorded end that is not
    complete is judged only up to its cut, and then fails as it was
    recorded, at once: ``"interrupted"`` with ``httpx2.RemoteProtocolError``,
    ``"stalled"`` with ``httpx2.ReadTimeout`` (what the client meets when its
    read timeout passes; whatever that timeout, it is not waited for). A
    pause longer than ``read_timeout`` fails the same way at once; a shorter
    one is waited for. A client that closes the body early leaves the judge
    the rest of the recorded body: what is judged is what was recorded.
    """

    def __init__(self, played: Playback, read_timeout: float | None) -> None:
        self._played = played
        self._read_timeout = read_timeout
        self._next = 0
        self._ended = False

    def _chunks(self) -> Iterator[bytes]:
        played = self._played
        while self._next < len(played.chunks):
            if self._next == played.pause_before:
                time.sleep(self._pause_seconds())
            yield self._judged(self._taken())
        if played.pause_before == len(played.chunks):
            time.sleep(self._pause_seconds())
        self._end()

    async def _achunks(self) -> AsyncIterator[bytes]:
        played = self._played
        while self._next < len(played.chunks):
            if self._next == played.pause_before:
                await asyncio.sleep(self._pause_seconds())
            elif self._next:
                await asyncio.sleep(0)
            yield self._judged(self._taken())
        if played.pause_before == len(played.chunks):
            await asyncio.sleep(self._pause_seconds())
        self._end()

    def _taken(self) -> bytes:
        chunk = self._played.chunks[self._next]
        self._next += 1
        return chunk

    def _judged(self, chunk: bytes) -> bytes:
        judge = self._played.judge
        if judge is not None:
            problem = judge.feed_bytes(chunk)
            if problem is not None:
                self._ended = True
                raise problem
        return chunk

    def _pause_seconds(self) -> float:
        """How long the pause lasts; raises the read timeout at once when it outlasts it."""
        seconds = self._played.pause_seconds
        if self._read_timeout is not None and seconds > self._read_timeout:
            self._ended = True
            raise httpx2.ReadTimeout(
                "the replayed response paused past the read timeout (not waited for)"
            )
        return seconds

    def _end(self) -> None:
        self._ended = True
        played = self._played
        if played.end == "interrupted":
            raise httpx2.RemoteProtocolError(
                "the recorded connection closed before the body was complete"
            )
        if played.end == "stalled":
            raise httpx2.ReadTimeout(
                "the recorded response stalled: replayed at once as the read timeout"
            )
        if played.judge is not None:
            problem = played.judge.close()
            if problem is not None:
                raise problem

    def _judge_rest(self) -> None:
        """The client stopped reading: the judge still reads the rest of what was recorded."""
        if self._ended:
            return
        self._ended = True
        played = self._played
        judge = played.judge
        if judge is None:
            return
        for chunk in played.chunks[self._next :]:
            if judge.feed_bytes(chunk) is not None:
                return
        if played.end == "complete":
            judge.close()

    def close(self) -> None:
        """Stop playing; the judge, if any, reads the rest of the recorded body."""
        super().close()
        self._judge_rest()

    async def aclose(self) -> None:
        """Stop playing, as `close` does, for an async client."""
        await super().aclose()
        self._judge_rest()
