"""Recorded bytes served in-process: what a replay plays, and the httpx2 transport that plays it.

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

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, final

import httpx2

from course_http._body_judge import BodyJudge
from course_http._header_text import header_bytes
from course_http._played_body import PlayedBody

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
