"""One vendor call as an async stream of server-sent events: `stream_events`."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator

import httpx2

from course_http._error_scrub import scrub_error
from course_http._errors import VendorError, VendorErrorCode
from course_http._framing import SSE_FRAMING, EventFraming
from course_http._request import HttpRequest
from course_http._secrets import request_secrets
from course_http._sse import SseEvent
from course_http._status import (
    ErrorBodyReader,
    VendorErrorBody,
    code_for_status,
    retry_after_seconds,
    status_error,
)
from course_http._translate import translate
from course_http._transport import HttpTransport

__all__ = ["ERROR_BODY_LIMIT", "stream_events"]

ERROR_BODY_LIMIT = 64 * 1024
"""At most this many bytes of a failed response's body are read (decoded) for its error."""

_SLICE_BYTES = 64 * 1024
"""A body chunk longer than this is decoded in slices of this many bytes, with a step of
the event loop between two slices (see `stream_events`)."""


async def stream_events(
    transport: HttpTransport,
    request: HttpRequest,
    *,
    vendor: str,
    describe_error: ErrorBodyReader,
    framing: EventFraming = SSE_FRAMING,
    wire: str | None = None,
) -> AsyncGenerator[SseEvent, None]:
    """Send ``request`` through ``transport`` and yield the response's events as they arrive.

    An async generator, one per call: the request is sent on the first
    ``__anext__``. The response is closed (its connection released) in the
    generator's ``finally``, so ``aclose()`` on the generator, or cancelling
    the task iterating it, releases the connection at once; iterate it under
    ``contextlib.aclosing`` so an early stop closes it too. A body that just
    ends is not an error here: the vendor's parser decides whether its
    terminal event came. ``wire`` names the wire the call speaks, when the
    caller knows it (a vendor model passes its own): the transport passes it
    on with the request (`HttpTransport.open`), so a recording keeps it.

    Raises `VendorError` with ``vendor=vendor``:

    - a status that is not 2xx: its ``HTTP_*`` code (`code_for_status`) with
      ``status``, ``retry_after`` (from ``retry-after-ms`` or ``retry-after``)
      and the vendor's error type, code and message as ``describe_error``
      reads them from the first `ERROR_BODY_LIMIT` bytes of the body;
    - a 2xx whose media type is not one of ``framing.media_types``
      (``text/event-stream`` by default): ``HTTP_NOT_EVENT_STREAM`` (the
      body is read and described the same way);
    - ``HTTP_CONNECT_FAILED``, ``HTTP_TIMEOUT``, ``HTTP_STREAM_INTERRUPTED``,
      ``HTTP_RECORDING_EXHAUSTED`` and ``VENDOR_INVALID_EVENT`` (a torn UTF-8
      body, a frame past the decoder's bound, an undecodable
      ``Content-Encoding``) as the transport and the body's decoder fail;
      the body is decoded by ``framing.decoder`` (`SseDecoder` by default).

    ``event_index`` of a failure in the body is the number of events already
    yielded. No message holds a header value; the request's credentials (its
    secret headers' values, its `MASKED_QUERY_KEYS` query values) are
    scrubbed from whatever the server or the client says, and an exception
    of the client that shows one is not chained. Raises ``TypeError``
    when ``transport``, ``request`` or ``wire`` is of the wrong type, or ``describe_error``
    returns something other than a `VendorErrorBody` or ``None``.
    """
    if not isinstance(transport, HttpTransport):
        raise TypeError(f"transport must be an HttpTransport, not {type(transport).__name__}")
    if type(request) is not HttpRequest:
        raise TypeError(f"request must be an HttpRequest, not {type(request).__name__}")
    if wire is not None and type(wire) is not str:
        raise TypeError(f"wire must be a str or None, not {type(wire).__name__}")
    secrets = request_secrets(request.headers, request.path)
    if type(framing) is not EventFraming:
        raise TypeError(f"framing must be an EventFraming, not {type(framing).__name__}")
    decoder = framing.decoder(vendor)
    in_body = False
    response: httpx2.Response | None = None
    failure: VendorError | None = None
    try:
        response = await transport.open(request, wire=wire)
        await _check_response(response, vendor, describe_error, framing.media_types)
        in_body = True
        chunks = response.aiter_bytes()
        try:
            async for chunk in chunks:
                # A long chunk (a recorded body served whole, a burst read from
                # the socket) is decoded slice by slice, and the loop runs
                # between two slices: the consumer reads what this slice made
                # before the next is decoded, so neither decoded events nor
                # published chunks pile up by the thousand.
                for start in range(0, len(chunk), _SLICE_BYTES):
                    if start:
                        await asyncio.sleep(0)
                    for event in decoder.feed_bytes(chunk[start : start + _SLICE_BYTES]):
                        yield event
                        # Not kept while the next chunk is awaited and decoded:
                        # an event may be megabytes long.
                        del event
                    if decoder.failure is not None:
                        raise decoder.failure
            for event in decoder.close():
                yield event
        finally:
            await chunks.aclose()
    except Exception as error:
        translated = translate(
            error, vendor=vendor, event_index=decoder.event_count if in_body else None
        )
        if translated is not None:
            translated.__cause__ = error
            translated.__suppress_context__ = True
            failure = translated
        elif isinstance(error, VendorError):
            failure = error
        else:
            raise
    finally:
        if response is not None:
            await response.aclose()
    if failure is not None:
        # Raised here, out of the handler, so that what it was raised from is
        # only what `scrub_error` let it keep.
        raise scrub_error(failure, secrets)


async def _check_response(
    response: httpx2.Response,
    vendor: str,
    describe_error: ErrorBodyReader,
    media_types: frozenset[str],
) -> None:
    status = response.status_code
    code = code_for_status(status)
    problem = None
    if code is None:
        media_type = response.headers.get("content-type", "").partition(";")[0]
        if media_type.strip(" \t").lower() in media_types:
            return
        code = VendorErrorCode.HTTP_NOT_EVENT_STREAM
        problem = "the body is not " + " or ".join(sorted(media_types))
    body = await _bounded_body(response)
    described = describe_error(body)
    if described is not None and type(described) is not VendorErrorBody:
        raise TypeError(
            f"describe_error must return a VendorErrorBody or None, not {type(described).__name__}"
        )
    raise status_error(
        code,
        vendor=vendor,
        status=status,
        described=described,
        retry_after=retry_after_seconds(response.headers),
        problem=problem,
    )


async def _bounded_body(response: httpx2.Response) -> bytes:
    """The first `ERROR_BODY_LIMIT` bytes of the (decoded) body; what arrived if it fails."""
    parts: list[bytes] = []
    size = 0
    chunks = response.aiter_bytes()
    try:
        async for chunk in chunks:
            piece = chunk[: ERROR_BODY_LIMIT - size]
            parts.append(piece)
            size += len(piece)
            if size >= ERROR_BODY_LIMIT:
                break
    except httpx2.HTTPError:
        # The status already says what failed; a body cut short still
        # tells what it can.
        pass
    finally:
        await chunks.aclose()
    return b"".join(parts)
