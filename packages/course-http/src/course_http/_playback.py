"""Recorded bytes served in-process: the httpx2 transport under every replaying transport.

`RecordedTransport` and `CassetteTransport` differ only in what they answer a
request with; how the answer reaches the client (status, headers, the body
cut into chunks with the event loop given a turn between them, an optional
pause, and how the body ends) is written once, here.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, final

import httpx2

from course_http._header_text import header_bytes

if TYPE_CHECKING:
    from course_http._recorded import Chunking, RecordedResponse, ResponseEnd

__all__ = [
    "Answer",
    "Playback",
    "PlaybackExchange",
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
    before the end); a pause longer than the call's read timeout fails as
    the network would, with a read timeout after that many seconds.
    """

    status: int
    headers: Mapping[str, str]
    chunks: tuple[bytes, ...]
    end: ResponseEnd
    pause_before: int | None = None
    pause_seconds: float = 0.0


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

It may raise instead: `translate` turns its errors into ``VendorError`` codes."""


class PlaybackExchange(httpx2.AsyncBaseTransport):
    """The httpx2 transport under a replaying transport's client: no socket, ever."""

    def __init__(self, answer: Answer) -> None:
        self._answer = answer

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        content = await request.aread()
        return playback_response(self._answer(request, content), request)


def playback_response(played: Playback, request: httpx2.Request) -> httpx2.Response:
    """The httpx2 response that plays ``played`` to the client that sent ``request``.

    Its body honours the read timeout of ``request``, as a socket would.
    """
    timeouts = request.extensions.get("timeout", {})
    return httpx2.Response(
        status_code=played.status,
        headers=header_bytes(played.headers.items()),
        stream=_PlaybackBody(played, timeouts.get("read")),
    )


class _PlaybackBody(httpx2.AsyncByteStream):
    def __init__(self, played: Playback, read_timeout: float | None) -> None:
        self._played = played
        self._read_timeout = read_timeout

    async def __aiter__(self) -> AsyncIterator[bytes]:
        played = self._played
        for index, chunk in enumerate(played.chunks):
            if index == played.pause_before:
                await self._pause()
            elif index:
                await asyncio.sleep(0)
            yield chunk
        if played.pause_before == len(played.chunks):
            await self._pause()
        if played.end == "interrupted":
            raise httpx2.RemoteProtocolError(
                "the recorded connection closed before the body was complete"
            )
        if played.end == "stalled":
            if self._read_timeout is None:
                await asyncio.Event().wait()  # forever: only cancellation ends it
            else:
                await asyncio.sleep(self._read_timeout)
            raise httpx2.ReadTimeout("the recorded response stalled past the read timeout")

    async def _pause(self) -> None:
        seconds = self._played.pause_seconds
        if self._read_timeout is not None and seconds > self._read_timeout:
            await asyncio.sleep(self._read_timeout)
            raise httpx2.ReadTimeout("the replayed response paused past the read timeout")
        await asyncio.sleep(seconds)

    async def aclose(self) -> None:
        # Nothing to release: the chunks are in memory.
        return
