"""An httpx2 transport that answers every request with the same streamed body, in-process.

The official SDKs and pydantic-ai take an ``httpx2.AsyncClient``; pointed at
this transport they read exactly the bytes our `RecordedTransport` serves,
through the same client, with no socket. The body arrives whole (one
chunk), as `RecordedTransport` serves it by default, or from a lazy chunk
source (the memory children), one chunk per loop step, as a socket would.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Iterable

import httpx2

__all__ = ["EVENT_STREAM_HEADERS", "InProcessTransport", "in_process_client"]

EVENT_STREAM_HEADERS = (("content-type", "text/event-stream; charset=utf-8"),)


class _Body(httpx2.AsyncByteStream):
    def __init__(self, chunks: Iterable[bytes]) -> None:
        self._chunks = chunks

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for index, chunk in enumerate(self._chunks):
            if index:
                await asyncio.sleep(0)
            yield chunk

    async def aclose(self) -> None:
        return


class InProcessTransport(httpx2.AsyncBaseTransport):
    """Answers each request with status 200, ``text/event-stream`` and ``chunks()``.

    ``chunks`` is called once per request, so every call streams a fresh copy.
    """

    def __init__(self, chunks: Callable[[], Iterable[bytes]]) -> None:
        self._chunks = chunks

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        await request.aread()
        return httpx2.Response(200, headers=EVENT_STREAM_HEADERS, stream=_Body(self._chunks()))


def in_process_client(body: bytes) -> httpx2.AsyncClient:
    """A client whose every request is answered with ``body`` in one chunk."""
    return httpx2.AsyncClient(
        base_url="http://in-process.invalid", transport=InProcessTransport(lambda: (body,))
    )
