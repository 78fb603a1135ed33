"""Recording over HTTP, for a client in any language: `RecordingProxy` (``course serve --record``).

Each request the loopback server receives is forwarded to the upstream API
as it came (the caller's own key included), and the answer is relayed back
as it arrives, while an `Httpx2RecordingTransport` tees it, redacted, into
the cassette: the same file, the same redaction, the same strict check as
an in-process recording. ``course serve`` then replays it.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import final

import httpx2

from course_cassettes._cassette import Redaction
from course_cassettes._httpx2_recording import Httpx2RecordingTransport
from course_cassettes._judging import StreamJudges
from course_cassettes._refusal import refusal
from course_http import (
    VendorErrorCode,
    header_bytes,
    header_text,
    masked_path,
    request_secrets,
    scrub,
)
from course_http.loopback import LoopbackRequest, LoopbackStream

__all__ = ["ProxiedCall", "RecordingProxy"]

# What the proxy's own connection to the upstream decides, never the caller's.
_HOP_BY_HOP = frozenset(
    {"host", "content-length", "connection", "keep-alive", "transfer-encoding", "te", "upgrade"}
)


@final
@dataclass(frozen=True, slots=True)
class ProxiedCall:
    """What a `RecordingProxy` did with one request.

    ``path`` is masked as a cassette keeps it; ``status`` is what the client
    got from the upstream (``None`` when the proxy answered itself: 502 when
    the upstream could not be reached, 500 when the proxy failed); ``code``
    is the problem's (``HTTP_CONNECT_FAILED``, ``HTTP_SERVER_ERROR``,
    ``HTTP_RECORDING_INVALID`` for a request body no cassette can hold, a
    strict check's ``VENDOR_*``), ``None`` when there was none.
    """

    method: str
    path: str
    status: int | None
    code: VendorErrorCode | None = None
    problem: str | None = None


@final
class RecordingProxy:
    """A loopback `Responder` forwarding every request to ``upstream`` and recording it to ``path``.

    ``upstream`` is the API's base URL (``https://api.anthropic.com``): a
    request for ``/v1/messages`` goes to ``upstream`` + ``/v1/messages``.
    The answer streams back as it arrives, its headers' bytes as they came
    (whatever their encoding); the cassette at ``path`` is rewritten as each
    call ends (`Httpx2RecordingTransport`, with ``redaction``,
    ``keep_headers``, ``check`` and ``strict``: a client that leaves early
    still gets the whole stream recorded, within its bounds). A request
    whose body no cassette can hold is refused unsent, as that transport
    refuses it (a 400,
    ``HTTP_RECORDING_INVALID``). An upstream that cannot be reached (no
    connection, a timeout before the status) is answered with a 502 marked
    ``x-should-retry: false`` naming ``HTTP_CONNECT_FAILED``, and not
    recorded; whatever else fails is answered with a 500 the same way
    (``HTTP_SERVER_ERROR``, naming the exception's type), never a bare one.
    ``report`` is called with a `ProxiedCall` for every request. Each call
    keeps the upstream's host; ``wire``, when given, is kept as the wire of
    every call (a client in any language names none: say it when the
    upstream's host and the path leave it open, an OpenAI-compatible server
    on a host of its own). `aclose` writes the cassette and closes the
    connections. Raises ``TypeError`` or ``ValueError`` for bad arguments.
    """

    def __init__(
        self,
        upstream: str,
        path: str | os.PathLike[str],
        *,
        redaction: Redaction | None = None,
        keep_headers: Sequence[str] = (),
        check: StreamJudges | None = None,
        strict: bool = True,
        timeout: float = 600.0,
        report: Callable[[ProxiedCall], object] | None = None,
        inner: httpx2.AsyncBaseTransport | None = None,
        wire: str | None = None,
    ) -> None:
        if type(upstream) is not str or not upstream.startswith(("http://", "https://")):
            raise ValueError("upstream must be an http:// or https:// base URL")
        self._upstream = upstream.rstrip("/")
        self._recording = Httpx2RecordingTransport(
            path,
            inner=inner,
            redaction=redaction,
            keep_headers=keep_headers,
            check=check,
            strict=strict,
            wire=wire,
        )
        # No environment: the proxy forwards where it is told, never through a proxy of its own.
        self._client = httpx2.AsyncClient(
            transport=self._recording, timeout=timeout, trust_env=False
        )
        self._report = report

    @property
    def recording(self) -> Httpx2RecordingTransport:
        """The transport writing the cassette (its `problems`, its `cassette` so far)."""
        return self._recording

    def __call__(self, request: LoopbackRequest) -> LoopbackStream:
        """Forward ``request`` once the server relays the answer (see the class)."""
        secrets = request_secrets(dict(request.headers), request.path)
        shown = masked_path(scrub(request.path, secrets))

        async def opened() -> tuple[int, Mapping[str, str], AsyncIterator[bytes]]:
            # Header bytes as they came, both ways: a value outside ASCII is
            # neither re-encoded nor a reason to fail the exchange.
            outgoing = self._client.build_request(
                request.method,
                self._upstream + request.path,
                headers=header_bytes(
                    (name, value)
                    for name, value in request.headers
                    if name.lower() not in _HOP_BY_HOP
                ),
                content=request.body,
            )
            problems = len(self._recording.problems)
            try:
                response = await self._client.send(outgoing, stream=True)
            except httpx2.TransportError as error:
                # Only the type: a message may quote the URL, and so a key in its query.
                problem = f"the upstream could not be reached: {type(error).__name__}"
                code = VendorErrorCode.HTTP_CONNECT_FAILED
                return self._answered(request.method, shown, 502, code, problem)
            except Exception as error:
                # A defect still reaches the client typed, never as a bare 500.
                problem = f"the recording proxy failed to answer: {type(error).__name__}"
                code = VendorErrorCode.HTTP_SERVER_ERROR
                return self._answered(request.method, shown, 500, code, problem)
            return (
                response.status_code,
                header_text(response.headers.raw),
                self._relayed(request.method, shown, response, problems),
            )

        return LoopbackStream(opened)

    def _answered(
        self, method: str, shown: str, status: int, code: VendorErrorCode, problem: str
    ) -> tuple[int, Mapping[str, str], AsyncIterator[bytes]]:
        """The proxy's own typed answer, when the upstream gave none or the proxy failed."""
        self._told(ProxiedCall(method, shown, None, code, problem))
        answer = refusal(status, code, problem)
        return status, dict(answer.headers), _once(answer.body)

    async def _relayed(
        self, method: str, shown: str, response: httpx2.Response, problems: int
    ) -> AsyncIterator[bytes]:
        try:
            async for chunk in response.aiter_raw():
                yield chunk
        finally:
            await response.aclose()
            found = self._recording.problems[problems:]
            first = found[0] if found else None
            self._told(
                ProxiedCall(
                    method,
                    shown,
                    response.status_code,
                    first.code if first else None,
                    first.message if first else None,
                )
            )

    def _told(self, call: ProxiedCall) -> None:
        if self._report is not None:
            self._report(call)

    async def aclose(self) -> None:
        """Write the cassette and close the upstream connections; again, nothing more.

        Raises ``OSError`` when the file cannot be written.
        """
        await self._client.aclose()


async def _once(body: bytes) -> AsyncIterator[bytes]:
    yield body
