"""The transports vendor adapters send through: one httpx2 client each, live or recorded."""

from __future__ import annotations

from abc import abstractmethod
from typing import final

import httpx2

from course_http._closing import ClosedOnExit
from course_http._log_masking import CLIENT_LOGGERS, mask_query_credentials
from course_http._request import HttpRequest
from course_http._timeouts import Timeouts

__all__ = ["WIRE_EXTENSION", "HttpTransport", "LiveTransport", "NetworkExchange"]

WIRE_EXTENSION = "course_wire"
"""The httpx2 request extension naming the wire a call speaks (``"mistral"``), when its
sender knows it: set by `HttpTransport.open` for a vendor model's calls, read by a
recording transport, which keeps it in the cassette."""

# The client logs each request's URL: a key sent in the query must not be in it.
mask_query_credentials(*CLIENT_LOGGERS)

_REQUEST_HEADERS = {"content-type": "application/json", "accept": "text/event-stream"}


class HttpTransport(ClosedOnExit):
    """Where a vendor adapter's `HttpRequest` goes: an async httpx2 client over a base URL.

    Live and recorded transports share everything from the client up
    (headers, ``Content-Encoding`` decoding, streaming, error translation in
    `stream_events`, which reads a call through `open`); a subclass
    supplies only `_exchange`, the httpx2 transport that moves the bytes. A
    transport belongs to one event loop.
    Close it with `aclose` (or ``async with``) to release its connections.

    Raises ``ValueError`` when ``base_url`` is not an ``http`` or ``https``
    URL with a host and without credentials, query, fragment, whitespace or
    control characters, and
    ``TypeError`` when ``timeouts`` is not a `Timeouts`.
    """

    def __init__(self, base_url: str, *, timeouts: Timeouts, trust_env: bool) -> None:
        if type(timeouts) is not Timeouts:
            raise TypeError(f"timeouts must be a Timeouts, not {type(timeouts).__name__}")
        self._base_url = _checked_base_url(base_url)
        self._timeouts = timeouts
        self._closed = False
        self._client = httpx2.AsyncClient(
            base_url=self._base_url,
            transport=self._exchange(),
            timeout=httpx2.Timeout(
                connect=timeouts.connect,
                read=timeouts.read,
                write=timeouts.write,
                pool=timeouts.pool,
            ),
            follow_redirects=False,
            trust_env=trust_env,
        )

    @property
    def base_url(self) -> str:
        """The URL every request's path is joined to, as given."""
        return self._base_url

    @property
    def timeouts(self) -> Timeouts:
        """The limits of every call made through this transport."""
        return self._timeouts

    @property
    def replays(self) -> bool:
        """Whether the transport answers from recordings in-process, sending nothing anywhere.

        ``False`` here; ``True`` for `RecordedTransport` and `CassetteTransport`.
        A vendor model needs no API key over a transport that replays, and
        never reads one from the environment.
        """
        return False

    @abstractmethod
    def _exchange(self) -> httpx2.AsyncBaseTransport | None:
        """The httpx2 transport under the client; ``None`` for the client's own network one.

        Called once, by the constructor; the client closes it in `aclose`.
        """

    async def open(self, request: HttpRequest, *, wire: str | None = None) -> httpx2.Response:
        """Send ``request``; return the response as soon as its headers arrive, its body unread.

        The transport contract `stream_events` reads a call through: the
        request goes to the base URL joined with ``request.path``, with
        ``request.headers`` and ``content-type: application/json`` and
        ``accept: text/event-stream``, under `timeouts`. ``wire``, the wire
        the call speaks when the caller knows it (a vendor model does), goes
        with the request as its `WIRE_EXTENSION`, for a recording to keep;
        nothing is sent of it. Raises ``TypeError`` when ``wire`` is neither
        a ``str`` nor ``None``. The caller reads the
        body (``aiter_bytes``: decoded as its ``Content-Encoding`` says) and
        closes the response (``aclose``), which releases its connection.
        Raises the HTTP client's ``httpx2.HTTPError`` s (a connection that
        fails, a timeout), and whatever the transport under the client raises
        instead of answering (a replay's ``RequestMismatchError`` or
        ``RecordingExhaustedError``); `stream_events` turns each into a
        ``VendorError``. Raises ``RuntimeError`` once the transport is closed.
        """
        if self._closed:
            raise RuntimeError(f"{type(self).__name__} is closed")
        if wire is not None and type(wire) is not str:
            raise TypeError(f"wire must be a str or None, not {type(wire).__name__}")
        outgoing = self._client.build_request(
            request.method,
            request.path,
            content=request.content,
            headers={**request.headers, **_REQUEST_HEADERS},
            extensions=None if wire is None else {WIRE_EXTENSION: wire},
        )
        return await self._client.send(outgoing, stream=True)

    async def aclose(self) -> None:
        """Close every connection of the transport; calling it again does nothing."""
        self._closed = True
        await self._client.aclose()


@final
class LiveTransport(HttpTransport):
    """The network transport: a real httpx2 client with pooled connections, redirects off.

    ``timeouts`` limit each phase of a call (`Timeouts`); nothing is
    retried. With ``trust_env`` (the default, as in the vendors' SDKs) the
    client reads proxies and CA bundles from the environment. Construction
    opens nothing: the first call connects. Close it with `aclose`.
    """

    def __init__(
        self, base_url: str, *, timeouts: Timeouts | None = None, trust_env: bool = True
    ) -> None:
        super().__init__(base_url, timeouts=timeouts or Timeouts(), trust_env=trust_env)

    def _exchange(self) -> httpx2.AsyncBaseTransport | None:
        # The client's own transport, so proxies from the environment apply.
        return None

    def __repr__(self) -> str:
        return f"LiveTransport(base_url={self.base_url!r})"


@final
class NetworkExchange(httpx2.AsyncBaseTransport):
    """The network as an httpx2 async transport, for a transport that wraps it (a recording).

    Each request goes out as it is (its URL, headers, body and the timeouts
    its client put on it) through a pool of connections of its own, with
    redirects not followed; with ``trust_env`` proxies and CA bundles come
    from the environment, as in the vendors' SDKs and `LiveTransport`. The
    response comes back as the network sent it, its body still encoded:
    the client above decodes it. Raises the HTTP client's
    ``httpx2.HTTPError`` s. Close it with `aclose` (the client above does).
    """

    def __init__(self, *, trust_env: bool = True) -> None:
        self._client = httpx2.AsyncClient(follow_redirects=False, trust_env=trust_env)

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        """Send ``request`` to the network; the response once its headers arrived, body unread."""
        response = await self._client.send(request, stream=True)
        return httpx2.Response(
            status_code=response.status_code,
            headers=response.headers.raw,
            stream=response.stream,
            extensions=response.extensions,
        )

    async def aclose(self) -> None:
        """Close every pooled connection; calling it again does nothing."""
        await self._client.aclose()


def _checked_base_url(base_url: object) -> str:
    if type(base_url) is not str:
        raise TypeError(f"base_url must be a str, not {type(base_url).__name__}")
    if any(character.isspace() or not character.isprintable() for character in base_url):
        raise ValueError("base_url must not hold whitespace or control characters")
    try:
        url = httpx2.URL(base_url)
    except httpx2.InvalidURL:
        raise ValueError("base_url is not a valid URL") from None
    if url.scheme not in ("http", "https") or not url.host:
        raise ValueError("base_url must be an http or https URL with a host")
    if url.userinfo:
        raise ValueError("base_url must not hold credentials: send them in headers")
    if url.query or url.fragment:
        raise ValueError("base_url must not have a query or a fragment")
    return base_url
