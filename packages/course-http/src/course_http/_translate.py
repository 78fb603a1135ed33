"""The one place where the HTTP client's exceptions become `VendorError` codes."""

from __future__ import annotations

import httpx2

from course_http._errors import VendorError, VendorErrorCode
from course_http._recorded import RecordingExhaustedError, RequestMismatchError
from course_protocol.untrusted import shown

__all__ = ["translate"]

# The client's own explanation is kept in the message, cut to this length.

_TIMEOUT_PHASES: tuple[tuple[type[httpx2.TimeoutException], str], ...] = (
    (httpx2.ConnectTimeout, "connecting timed out"),
    (httpx2.WriteTimeout, "sending the request timed out"),
    (httpx2.PoolTimeout, "no pooled connection became free in time"),
    (httpx2.ReadTimeout, "no bytes arrived within the read timeout"),
)


def translate(error: BaseException, *, vendor: str, event_index: int | None) -> VendorError | None:
    """The `VendorError` for ``error``, or ``None`` when it is not the HTTP client's to translate.

    Timeouts of any phase are ``HTTP_TIMEOUT``; connection failures (refused,
    name resolution, TLS, proxy, unsupported scheme) ``HTTP_CONNECT_FAILED``;
    a connection that fails or closes once the request is under way
    ``HTTP_STREAM_INTERRUPTED``; a body whose ``Content-Encoding`` cannot be
    decoded ``VENDOR_INVALID_EVENT``; a recorded transport asked for one
    response too many ``HTTP_RECORDING_EXHAUSTED``; a replayed request that
    differs from the recorded one ``HTTP_REQUEST_MISMATCH``. ``event_index`` is
    the number of events already delivered, or ``None`` before the body.
    The message quotes the client's own words: the caller scrubs the
    request's credentials from it (`course_http._error_scrub.scrub_error`).
    """
    if isinstance(error, RecordingExhaustedError):
        return VendorError(VendorErrorCode.HTTP_RECORDING_EXHAUSTED, str(error), vendor=vendor)
    if isinstance(error, RequestMismatchError):
        return VendorError(VendorErrorCode.HTTP_REQUEST_MISMATCH, str(error), vendor=vendor)
    if not isinstance(error, httpx2.HTTPError):
        return None
    detail = _detail(error)
    where = "before the response" if event_index is None else f"after {event_index} events"
    if isinstance(error, httpx2.TimeoutException):
        phase = next(
            (text for kind, text in _TIMEOUT_PHASES if isinstance(error, kind)), "timed out"
        )
        code, message = VendorErrorCode.HTTP_TIMEOUT, f"{phase} ({where})"
    elif isinstance(error, (httpx2.ConnectError, httpx2.ProxyError, httpx2.UnsupportedProtocol)):
        code, message = VendorErrorCode.HTTP_CONNECT_FAILED, f"could not connect: {detail}"
    elif isinstance(error, httpx2.DecodingError):
        code = VendorErrorCode.VENDOR_INVALID_EVENT
        message = f"the body's Content-Encoding could not be decoded {where}: {detail}"
    elif isinstance(error, httpx2.TransportError):
        code = VendorErrorCode.HTTP_STREAM_INTERRUPTED
        message = f"the connection failed or closed {where}: {detail}"
    else:
        return None
    return VendorError(code, message, vendor=vendor, event_index=event_index)


def _detail(error: BaseException) -> str:
    return shown(str(error) or type(error).__name__)
