"""How a loopback server serves: a plain ASGI application that plays scripted responses."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from typing import Any

from course_http._header_text import header_bytes
from course_http._recorded import RecordedResponse
from course_http.loopback._script import (
    LoopbackEnd,
    LoopbackRequest,
    LoopbackResponse,
    LoopbackStream,
    Responder,
)

__all__ = ["LoopbackApp"]

Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

# Framing is the server's job: the body goes out chunked, whatever was recorded.
_FRAMING_HEADERS = frozenset({"connection", "content-length", "keep-alive", "transfer-encoding"})
_NOTHING_SCRIPTED = RecordedResponse(
    500,
    {"content-type": "text/plain; charset=utf-8"},
    b"course loopback server: no response is scripted for this request",
)


class LoopbackApp:
    """An ASGI application answering each HTTP request with what its `Responder` says.

    It records every request, plays the response's chunks with their
    pauses, and notices a client that leaves mid-response. `stop` wakes every
    stalled or paused response, which then ends with the connection closed.
    """

    def __init__(self, responder: Responder) -> None:
        self._responder = responder
        self._requests: list[LoopbackRequest] = []
        self._ends: list[LoopbackEnd | None] = []
        self._changed = asyncio.Condition()
        self._wakes: set[asyncio.Event] = set()
        self._stopping = False

    @property
    def requests(self) -> tuple[LoopbackRequest, ...]:
        """Every request received so far, in order of arrival."""
        return tuple(self._requests)

    async def wait_ended(self, index: int) -> LoopbackEnd:
        """Wait until request ``index`` (0-based) has arrived and its exchange ended; how it did."""
        async with self._changed:
            await self._changed.wait_for(
                lambda: index < len(self._ends) and self._ends[index] is not None
            )
        end = self._ends[index]
        assert end is not None
        return end

    def stop(self) -> None:
        """Wake every stalled or paused response so that it ends now; later ones end at once."""
        self._stopping = True
        for wake in self._wakes:
            wake.set()

    async def __call__(self, scope: Message, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return
        body = await _read_body(receive)
        if body is None:
            return
        target = scope["raw_path"].decode("latin-1")
        if scope["query_string"]:
            target += "?" + scope["query_string"].decode("latin-1")
        request = LoopbackRequest(
            method=scope["method"],
            path=target,
            headers=tuple(
                (name.decode("latin-1"), value.decode("latin-1"))
                for name, value in scope["headers"]
            ),
            body=body,
        )
        index = await self._arrived(request)
        reply = self._responder(request)
        if reply is None:
            reply = _NOTHING_SCRIPTED
        if type(reply) is RecordedResponse:
            reply = LoopbackResponse(reply)
        assert type(reply) is LoopbackResponse or type(reply) is LoopbackStream
        wake = asyncio.Event()
        gone = asyncio.Event()
        if self._stopping:
            wake.set()
        self._wakes.add(wake)
        watcher = asyncio.create_task(_watch_disconnect(receive, gone, wake))
        end = LoopbackEnd.SERVER_STOPPED
        try:
            if type(reply) is LoopbackStream:
                end = await _relay(reply, send, gone)
            else:
                end = await _play(reply, send, wake, gone)
        finally:
            self._wakes.discard(wake)
            watcher.cancel()
            await asyncio.wait({watcher})
            await self._ended(index, end)

    async def _arrived(self, request: LoopbackRequest) -> int:
        async with self._changed:
            self._requests.append(request)
            self._ends.append(None)
            self._changed.notify_all()
            return len(self._requests) - 1

    async def _ended(self, index: int, end: LoopbackEnd) -> None:
        async with self._changed:
            self._ends[index] = end
            self._changed.notify_all()


async def _read_body(receive: Receive) -> bytes | None:
    parts: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        parts.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(parts)


async def _watch_disconnect(receive: Receive, gone: asyncio.Event, wake: asyncio.Event) -> None:
    # Once the request body is read, the server's next message is the disconnect.
    while (await receive())["type"] != "http.disconnect":
        pass
    gone.set()
    wake.set()


async def _play(
    reply: LoopbackResponse, send: Send, wake: asyncio.Event, gone: asyncio.Event
) -> LoopbackEnd:
    response = reply.response
    await send(
        {
            "type": "http.response.start",
            "status": response.status,
            "headers": header_bytes(
                (name, value)
                for name, value in response.headers.items()
                if name not in _FRAMING_HEADERS
            ),
        }
    )
    if reply.first_delay and await _paused(reply.first_delay, wake):
        return _why_woken(gone)
    for position, chunk in enumerate(reply.chunks()):
        if position and await _paused(reply.delay, wake):
            return _why_woken(gone)
        if gone.is_set():
            return LoopbackEnd.CLIENT_DISCONNECTED
        await send({"type": "http.response.body", "body": chunk, "more_body": True})
    if response.end == "complete":
        await send({"type": "http.response.body", "body": b"", "more_body": False})
        return LoopbackEnd.COMPLETE
    if response.end == "interrupted":
        # Returning before the body is complete makes the server close the connection.
        return LoopbackEnd.INTERRUPTED
    await wake.wait()
    return _why_woken(gone)


async def _relay(reply: LoopbackStream, send: Send, gone: asyncio.Event) -> LoopbackEnd:
    status, headers, chunks = await reply.opened()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": header_bytes(
                (name, value)
                for name, value in headers.items()
                if name.lower() not in _FRAMING_HEADERS
            ),
        }
    )
    iterator = aiter(chunks)
    try:
        while True:
            # The next chunk may never come (a stalled upstream): a client that
            # leaves meanwhile ends the wait, and the upstream's read with it.
            arriving = asyncio.create_task(_next_chunk(iterator))
            leaving = asyncio.create_task(gone.wait())
            await asyncio.wait({arriving, leaving}, return_when=asyncio.FIRST_COMPLETED)
            leaving.cancel()
            if not arriving.done():
                arriving.cancel()
                await asyncio.wait({arriving, leaving})
                return LoopbackEnd.CLIENT_DISCONNECTED
            await asyncio.wait({leaving})
            try:
                chunk = arriving.result()
            except Exception:
                # The upstream's body failed (or its check did): the client sees it cut.
                return LoopbackEnd.INTERRUPTED
            if chunk is None:
                break
            await send({"type": "http.response.body", "body": chunk, "more_body": True})
    finally:
        closing = getattr(iterator, "aclose", None)
        if closing is not None:
            await closing()
    await send({"type": "http.response.body", "body": b"", "more_body": False})
    return LoopbackEnd.COMPLETE


async def _next_chunk(chunks: AsyncIterator[bytes]) -> bytes | None:
    """The next chunk, or ``None`` at the end."""
    try:
        return await anext(chunks)
    except StopAsyncIteration:
        return None


async def _paused(seconds: float, wake: asyncio.Event) -> bool:
    """Pause ``seconds`` (at least one loop turn); whether ``wake`` cut the pause short."""
    if seconds <= 0:
        await asyncio.sleep(0)
        return wake.is_set()
    try:
        async with asyncio.timeout(seconds):
            await wake.wait()
    except TimeoutError:
        return False
    return True


def _why_woken(gone: asyncio.Event) -> LoopbackEnd:
    return LoopbackEnd.CLIENT_DISCONNECTED if gone.is_set() else LoopbackEnd.SERVER_STOPPED
