"""Recorded bytes served in-process: the one played body, and the httpx2 transport over it.

`RecordedTransport`, `CassetteTransport` and the SDKs' `Httpx2CassetteTransport`
differ only in what they answer a request with; how the answer reaches the
client (status, headers, the body cut into chunks with the event loop given a
turn between them, an optional pause, each chunk judged before the client gets
it, and how the body ends) is written once, here, for sync and async clients
alike: `PlayedBody`, under `PlaybackExchange`.

Nothing here waits on a real clock but a pause a fault asked for: a recorded
stall, or a pause longer than the client's read timeout, fails the read at
once with the ``httpx2.ReadTimeout`` the client would have raised once its
timeout passed.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Generator, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, final

import httpx2

from course_http._body_judge import BodyJudge
from course_http._header_text import header_bytes

if TYPE_CHECKING:
    from course_http._recorded import Chunking, RecordedResponse, ResponseEnd

__all__ = [
    "Answer",
    "OnceStream",
    "Playback",
    "PlaybackExchange",
    "PlayedBody",
    "cut_body",
    "playback_of",
    "playback_response",
]

_LONGEST_RANDOM_CHUNK = 64


def cut_body(body: bytes, chunking: Chunking, rng: random.Random) -> list[bytes]:
    """``body`` cut as ``chunking`` says; ``rng`` draws the random cut points."""
    if not body:
        return []
    if chunking == "whole":
        return [body]
    if chunking == "bytes":
        return [body[at : at + 1] for at in range(len(body))]
    chunks: list[bytes] = []
    at = 0
    while at < len(body):
        size = rng.randint(1, _LONGEST_RANDOM_CHUNK)
        chunks.append(body[at : at + size])
        at += size
    return chunks


@final
@dataclass(frozen=True, slots=True)
class Playback:
    """One response as a replaying transport serves it.

    ``chunks`` are the body's pieces in order; ``end`` says what follows
    them (`ResponseEnd`). When ``pause_before`` is set, the body waits
    ``pause_seconds`` before chunk number ``pause_before`` (``len(chunks)``:
    before the end); a pause longer than the call's read timeout fails at
    once with the read timeout the client would meet. ``judge``, when set,
    is fed each chunk before the client gets it (`PlayedBody`).
    """

    status: int
    headers: Mapping[str, str]
    chunks: tuple[bytes, ...]
    end: ResponseEnd
    pause_before: int | None = None
    pause_seconds: float = 0.0
    judge: BodyJudge | None = None


def playback_of(
    response: RecordedResponse,
    chunking: Chunking,
    rng: random.Random,
    *,
    pause_at: int | None = None,
    pause_seconds: float = 0.0,
) -> Playback:
    """The `Playback` of ``response``, its body cut as ``chunking`` says.

    ``pause_at`` is a byte offset of the body (0 to its length): a chunk
    boundary falls there and the pause of ``pause_seconds`` comes before it.
    """
    if pause_at is None:
        chunks = cut_body(response.body, chunking, rng)
        return Playback(response.status, response.headers, tuple(chunks), response.end)
    before = cut_body(response.body[:pause_at], chunking, rng)
    after = cut_body(response.body[pause_at:], chunking, rng)
    return Playback(
        response.status,
        response.headers,
        (*before, *after),
        response.end,
        pause_before=len(before),
        pause_seconds=pause_seconds,
    )


Answer = Callable[[httpx2.Request, bytes], Playback]
"""What a replaying transport answers a request (and its body's bytes) with.

It may raise instead: `stream_events` turns its errors into ``VendorError`` codes."""


class PlaybackExchange(httpx2.BaseTransport, httpx2.AsyncBaseTransport):
    """An httpx2 transport, sync and async, that answers each request with ``answer``: no socket.

    The shape of ``httpx2.MockTransport``: ``answer`` gets the request and its
    body's bytes and returns the `Playback` to serve, played by `PlayedBody`;
    what it raises, the client's call raises.
    """

    def __init__(self, answer: Answer) -> None:
        self._answer = answer

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        """Answer ``request`` of a sync client with the `Playback` ``answer`` gives."""
        return playback_response(self._answer(request, request.read()), request)

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        """Answer ``request`` of an async client with the `Playback` ``answer`` gives."""
        return playback_response(self._answer(request, await request.aread()), request)


def playback_response(played: Playback, request: httpx2.Request) -> httpx2.Response:
    """The httpx2 response that plays ``played`` to the client that sent ``request``.

    Its body (`PlayedBody`) honours the read timeout of ``request``, as a
    socket would, without waiting for it.
    """
    timeouts = request.extensions.get("timeout", {})
    return httpx2.Response(
        status_code=played.status,
        headers=header_bytes(played.headers.items()),
        stream=PlayedBody(played, timeouts.get("read")),
        request=request,
    )


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
