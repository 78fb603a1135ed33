"""The one shape of a vendor parser's errors: a `VendorError` about one event of one vendor.

Every message starts ``event N:`` and every error carries ``event_index``
N and the vendor's wire-format name; the vendor's own fields (its type,
code, message) are passed through. A parser binds its vendor once, in an
`EventFailures`, and raises through it.
"""

from __future__ import annotations

from typing import NoReturn

from course_http import VendorError, VendorErrorCode

__all__ = ["EventFailures", "event_error", "invalid_event"]


def event_error(
    code: VendorErrorCode,
    message: str,
    *,
    vendor: str,
    index: int,
    vendor_type: str | None = None,
    vendor_code: str | None = None,
    vendor_message: str | None = None,
) -> VendorError:
    """The `VendorError` ``code`` about event ``index``: ``message`` prefixed ``event N:``.

    ``event_index`` is ``index``; the vendor's own fields are passed through.
    Returns the error (the caller raises it); raises nothing itself.
    """
    return VendorError(
        code,
        f"event {index}: {message}",
        vendor=vendor,
        vendor_type=vendor_type,
        vendor_code=vendor_code,
        vendor_message=vendor_message,
        event_index=index,
    )


def invalid_event(message: str, *, vendor: str, index: int) -> VendorError:
    """A ``VENDOR_INVALID_EVENT`` error for event ``index``, ``message`` saying what is wrong."""
    return event_error(VendorErrorCode.VENDOR_INVALID_EVENT, message, vendor=vendor, index=index)


class EventFailures:
    """The failures of one vendor's events: `fail` raises a `VendorError` naming ``vendor``.

    A vendor parser makes one per wire format and raises through it, so
    every error names the vendor and the event the same way; a vendor
    package subclasses it to add the failures of its own vocabulary.
    """

    __slots__ = ("vendor",)

    def __init__(self, vendor: str) -> None:
        self.vendor = vendor

    def fail(
        self,
        code: VendorErrorCode,
        index: int,
        message: str,
        *,
        vendor_type: str | None = None,
        vendor_code: str | None = None,
        vendor_message: str | None = None,
    ) -> NoReturn:
        """Raise `event_error` ``code`` about event ``index``, the vendor's own fields given."""
        raise event_error(
            code,
            message,
            vendor=self.vendor,
            index=index,
            vendor_type=vendor_type,
            vendor_code=vendor_code,
            vendor_message=vendor_message,
        )
