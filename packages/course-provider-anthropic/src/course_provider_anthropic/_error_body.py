"""The vendor's JSON error body (sent with a 4xx or 5xx status) read into its type and message."""

from __future__ import annotations

from course_http import VendorError, VendorErrorBody, event_object
from course_protocol import is_blank
from course_provider_anthropic import _wire

__all__ = ["describe_error"]


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
    if type(body) is not bytes:
        return None
    try:
        text = body.decode("utf-8")
        document = event_object(text, vendor=_wire.VENDOR, index=0)
    except (UnicodeDecodeError, VendorError):
        return None
    error = document.get(_wire.ERROR)
    if document.get(_wire.TYPE) != _wire.ERROR or type(error) is not dict:
        return None
    kind = error.get(_wire.TYPE)
    message = error.get(_wire.MESSAGE)
    if type(kind) is not str or is_blank(kind) or type(message) is not str:
        return None
    return VendorErrorBody(kind, None, message)
