"""A response that is not an event stream, as a `VendorError`: the status code's meaning,
the vendor's own description of the error, and when to retry."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC
from email.utils import parsedate_to_datetime
from typing import final

from course_http._errors import VendorError, VendorErrorCode
from course_protocol.untrusted import shown

__all__ = [
    "ErrorBodyReader",
    "VendorErrorBody",
    "code_for_status",
    "retry_after_seconds",
    "status_error",
]

# A vendor message longer than this is cut in the error's message (the
# ``vendor_message`` field keeps it whole).
# Header values longer than this are not a number or a date: ignored unparsed.
_LONGEST_RETRY_VALUE = 64


@final
@dataclass(frozen=True, slots=True)
class VendorErrorBody:
    """What a vendor's error body says: its error type, code and message (``None`` when absent).

    A vendor adapter's `ErrorBodyReader` builds it from the body of a
    response that failed; the transport copies the three fields onto the
    `VendorError` it raises. Raises ``TypeError`` for a field that is not a
    ``str`` or ``None``.
    """

    vendor_type: str | None = None
    vendor_code: str | None = None
    vendor_message: str | None = None

    def __post_init__(self) -> None:
        for name in ("vendor_type", "vendor_code", "vendor_message"):
            value = getattr(self, name)
            if value is not None and type(value) is not str:
                raise TypeError(f"VendorErrorBody.{name} must be a str or None")


ErrorBodyReader = Callable[[bytes], VendorErrorBody | None]
"""A vendor adapter's reader of error bodies: the first 64 KiB of the body in, its
`VendorErrorBody` out, or ``None`` when the body is not the vendor's error shape.
It reads untrusted bytes and must not raise."""


def code_for_status(status: int) -> VendorErrorCode | None:
    """The code of a response status: ``None`` for 2xx (success), else its ``HTTP_*`` code.

    401 and 403 are ``HTTP_UNAUTHORIZED``, 429 ``HTTP_RATE_LIMITED``, 503
    and 529 ``HTTP_OVERLOADED``, other 5xx ``HTTP_SERVER_ERROR``, other 4xx
    ``HTTP_REQUEST_REJECTED``, anything else (1xx, 3xx: redirects are not
    followed) ``HTTP_UNEXPECTED_STATUS``.
    """
    if 200 <= status < 300:
        return None
    if status in (401, 403):
        return VendorErrorCode.HTTP_UNAUTHORIZED
    if status == 429:
        return VendorErrorCode.HTTP_RATE_LIMITED
    if status in (503, 529):
        return VendorErrorCode.HTTP_OVERLOADED
    if 500 <= status < 600:
        return VendorErrorCode.HTTP_SERVER_ERROR
    if 400 <= status < 500:
        return VendorErrorCode.HTTP_REQUEST_REJECTED
    return VendorErrorCode.HTTP_UNEXPECTED_STATUS


def retry_after_seconds(headers: Mapping[str, str], now: float | None = None) -> float | None:
    """The seconds a response asks the caller to wait before retrying, or ``None``.

    ``headers`` has lower-case names. ``retry-after-ms`` (OpenAI: milliseconds)
    wins over ``retry-after``, which is a number of seconds or an HTTP date;
    a date counts from the response's own ``date`` header when it has a valid
    one, else from ``now`` (seconds since the epoch; the clock when
    ``None``), and a date already past means 0. Negative, non-finite or
    unparseable values are ignored, as if absent.
    """
    milliseconds = _number(headers.get("retry-after-ms"))
    if milliseconds is not None:
        return milliseconds / 1000
    value = headers.get("retry-after")
    seconds = _number(value)
    if seconds is not None or value is None:
        return seconds
    target = _http_date(value)
    if target is None:
        return None
    base = _http_date(headers.get("date"))
    if base is None:
        base = time.time() if now is None else now
    return max(0.0, target - base)


def _number(value: str | None) -> float | None:
    if value is None or len(value) > _LONGEST_RETRY_VALUE:
        return None
    text = value.strip()
    # Plain ASCII decimal digits only: float() would also take "nan", "1e9",
    # "-1" or digits of other scripts.
    whole, _point, fraction = text.partition(".")
    digits = whole + fraction
    if not digits or not (digits.isascii() and digits.isdigit()):
        return None
    number = float(text)
    return number if math.isfinite(number) else None


def _http_date(value: str | None) -> float | None:
    if value is None or len(value) > _LONGEST_RETRY_VALUE:
        return None
    try:
        moment = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    if moment.tzinfo is None:
        # "-0000" or no zone: HTTP dates are always GMT.
        return moment.replace(tzinfo=UTC).timestamp()
    return moment.timestamp()


def status_error(
    code: VendorErrorCode,
    *,
    vendor: str,
    status: int,
    described: VendorErrorBody | None,
    retry_after: float | None,
    problem: str | None = None,
) -> VendorError:
    """The `VendorError` for a response the stream cannot use.

    The message says the status, the vendor's error type and message (cut
    at 500 characters), ``problem`` when the status itself is fine (a body
    that is not an event stream), and never a header value. What the vendor
    says is as it said it: the caller scrubs the request's credentials from
    it (`course_http._error_scrub.scrub_error`).
    """
    vendor_type = vendor_code = vendor_message = None
    if described is not None:
        vendor_type = described.vendor_type
        vendor_code = described.vendor_code
        vendor_message = described.vendor_message
    parts = [f"HTTP {status}"]
    if problem is not None:
        parts.append(problem)
    if vendor_type is not None:
        parts.append(vendor_type)
    if vendor_message is not None:
        parts.append(shown(vendor_message))
    if described is None:
        parts.append("no error description the adapter could read in the body")
    return VendorError(
        code,
        ": ".join(parts),
        vendor=vendor,
        status=status,
        vendor_type=vendor_type,
        vendor_code=vendor_code,
        vendor_message=vendor_message,
        retry_after=retry_after,
    )
