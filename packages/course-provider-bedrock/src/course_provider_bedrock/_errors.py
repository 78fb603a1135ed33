"""The vendor's error bodies and in-stream exceptions, read into course values.

A 4xx or 5xx response carries ``{"message": ...}`` (``Message`` in some
services' spelling) with the exception's name in the ``x-amzn-errortype``
header; only the body reaches an error-body reader, so the type is read
from the body's ``__type`` when it has one. A stream that fails after its
200 carries an exception message, which the grammar reads and the mapping
turns into the call's failure (`exception_failure`).
"""

from __future__ import annotations

from course_http import VendorError, VendorErrorBody, VendorErrorCode
from course_protocol.untrusted import shown
from course_provider_bedrock._result import ConverseException
from course_provider_bedrock._wire import WIRE
from course_vendor import body_object, event_error

__all__ = ["describe_error", "exception_failure"]


def describe_error(body: bytes) -> VendorErrorBody | None:
    """The exception type and message of a Bedrock Runtime error body, or ``None``.

    A ``course_http.ErrorBodyReader``: the body must be UTF-8 JSON holding
    a ``str`` ``message`` (or ``Message``); ``__type`` (its part after a
    ``#``, when it has one) is the ``vendor_type``. Anything else gives
    ``None``: the caller then reports the HTTP status alone. Pure; never raises.
    """
    document = body_object(body) if type(body) is bytes else None
    if document is None:
        return None
    message = document.get("message", document.get("Message"))
    if type(message) is not str:
        return None
    kind = document.get("__type")
    kind = kind.rpartition("#")[2] if type(kind) is str and kind.strip() else None
    return VendorErrorBody(kind, None, message)


def exception_failure(exception: ConverseException, index: int) -> VendorError:
    """The call's failure for the exception (or ``error`` message) number ``index``.

    A `VendorError` ``VENDOR_ERROR_EVENT`` with the exception's type
    (``vendor_type``) and whole message (``vendor_message``); for a
    ``modelStreamErrorException`` the model's own status is the
    ``vendor_code``. Returned, not raised.
    """
    status = exception.fields.get("originalStatusCode")
    return event_error(
        VendorErrorCode.VENDOR_ERROR_EVENT,
        f"the vendor reported {exception.type}: {shown(exception.message)}",
        vendor=WIRE,
        index=index,
        vendor_type=exception.type,
        vendor_code=None if status is None else str(status),
        vendor_message=exception.message,
    )
