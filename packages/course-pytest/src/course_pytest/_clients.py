"""The httpx2 clients a test's cassette hands out, over its httpx2 transport.

The one module of the plugin that imports the HTTP client: the transports
themselves are ``course_cassettes``'; a client is only their handle.
"""

from __future__ import annotations

import httpx2

__all__ = [
    "AsyncClient",
    "AsyncTransport",
    "SyncClient",
    "SyncTransport",
    "async_client",
    "sync_client",
]

SyncClient = httpx2.Client
AsyncClient = httpx2.AsyncClient
SyncTransport = httpx2.BaseTransport
AsyncTransport = httpx2.AsyncBaseTransport


def sync_client(transport: httpx2.BaseTransport, options: dict[str, object]) -> httpx2.Client:
    """An ``httpx2.Client`` over ``transport``; ``options`` are the client's own (``timeout``)."""
    return httpx2.Client(transport=transport, **options)  # type: ignore[arg-type]


def async_client(
    transport: httpx2.AsyncBaseTransport, options: dict[str, object]
) -> httpx2.AsyncClient:
    """An ``httpx2.AsyncClient`` over ``transport``; ``options`` are the client's own."""
    return httpx2.AsyncClient(transport=transport, **options)  # type: ignore[arg-type]
