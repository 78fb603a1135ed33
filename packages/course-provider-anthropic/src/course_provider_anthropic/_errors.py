"""The vendor's error object, ``{"type": ..., "message": ...}``: in an HTTP error body, in an event.

A 4xx or 5xx response carries it as ``{"type": "error", "error": {...}}``;
a stream that fails after its 200 carries the same in an ``error`` event,
which the grammar reads (`read_error_event`) and the mapping turns into the
call's failure (`error_event_failure`).
"""

from __future__ import annotations

from typing import Any

from course_http import VendorError, VendorErrorBody, VendorErrorCode
from course_protocol import is_blank
from course_protocol.untrusted import shown
from course_provider_anthropic import _wire
from course_provider_anthropic._reads import object_at, text_at
from course_provider_anthropic._result import MessagesErrorEvent
from course_vendor import body_object, event_error

__all__ = ["describe_error", "error_event_failure", "read_error_event"]


def describe_error(body: bytes) -> VendorErrorBody | None:
    """The error type and message of a Messages API error body, or ``None``.

    A ``course_http.ErrorBodyReader``: the result is a `VendorErrorBody`
    with ``vendor_type`` and ``vendor_message`` (the vendor sends no code
    besides the type, so ``vendor_code`` is ``None``).

    The body must be UTF-8 JSON shaped ``{"type": "error", "error": {"type":
    ..., "message": ...}}`` with a non-blank ``str`` type and a ``str``
    message (other keys, such as ``request_id``, are ignored). Anything else
    (not bytes, not UTF-8, not JSON, another shape) gives ``None``: the
    caller then reports the HTTP status alone. Pure; never raises.
    """
    document = body_object(body) if type(body) is bytes else None
    if document is None:
        return None
    error = document.get(_wire.ERROR_KEY)
    if document.get(_wire.TYPE_KEY) != _wire.ERROR or type(error) is not dict:
        return None
    kind = error.get(_wire.TYPE_KEY)
    message = error.get(_wire.MESSAGE_KEY)
    if type(kind) is not str or is_blank(kind) or type(message) is not str:
        return None
    return VendorErrorBody(kind, None, message)


def read_error_event(data: dict[str, Any], index: int) -> MessagesErrorEvent:
    """The error a stream's ``error`` event number ``index`` (decoded as ``data``) reports.

    Raises `VendorError` ``VENDOR_INVALID_EVENT`` when ``error`` is not an
    object with a non-blank ``type`` and a ``message`` string.
    """
    error = object_at(data, _wire.ERROR_KEY, index)
    kind = text_at(error, _wire.TYPE_KEY, index, parent=_wire.ERROR_KEY, non_blank=True)
    message = text_at(error, _wire.MESSAGE_KEY, index, parent=_wire.ERROR_KEY)
    return MessagesErrorEvent(kind, message)


def error_event_failure(error: MessagesErrorEvent, index: int) -> VendorError:
    """The call's failure for the vendor's ``error`` event number ``index``.

    A `VendorError` ``VENDOR_ERROR_EVENT`` with the vendor's error type
    (``vendor_type``) and whole message (``vendor_message``); the message
    itself shows the vendor's text shortened. Returned, not raised.
    """
    return event_error(
        VendorErrorCode.VENDOR_ERROR_EVENT,
        f"the vendor reported {error.type}: {shown(error.message)}",
        vendor=_wire.WIRE,
        index=index,
        vendor_type=error.type,
        vendor_message=error.message,
    )
