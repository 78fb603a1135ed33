"""The vendor's error object, ``{"error": {"code", "message", "status", "details"}}``.

A 4xx or 5xx response carries it as its whole body (even under
``text/event-stream``); a stream that fails after its 200 carries it as one
more chunk, framed as the others or bare.
"""

from __future__ import annotations

from typing import Any, NoReturn

from course_http import VendorErrorBody, VendorErrorCode
from course_protocol import is_blank
from course_protocol.untrusted import shown
from course_provider_gemini import _wire
from course_provider_gemini._reads import fail, fail_invalid, object_at
from course_vendor import body_object

__all__ = ["describe_error", "raise_error_object"]

_ERROR_INFO = "type.googleapis.com/google.rpc.ErrorInfo"
_TYPE_KEY = "@type"
_REASON = "reason"


def _fields(error: dict[str, Any]) -> VendorErrorBody | None:
    status = error.get(_wire.STATUS_KEY)
    message = error.get(_wire.MESSAGE_KEY)
    if type(message) is not str or (status is not None and type(status) is not str):
        return None
    if status is not None and is_blank(status):
        return None
    return VendorErrorBody(status, _reason(error.get("details")), message)


def _reason(details: object) -> str | None:
    """The ``reason`` of the ``google.rpc.ErrorInfo`` among ``details`` (``API_KEY_INVALID``)."""
    if type(details) is not list:
        return None
    for detail in details:
        if type(detail) is dict and detail.get(_TYPE_KEY) == _ERROR_INFO:
            reason = detail.get(_REASON)
            if type(reason) is str and not is_blank(reason):
                return reason
    return None


def describe_error(body: bytes) -> VendorErrorBody | None:
    """The status, reason and message of a Gemini API error body, or ``None``.

    A ``course_http.ErrorBodyReader``: the result is a `VendorErrorBody`
    whose ``vendor_type`` is the error's ``status`` (``INVALID_ARGUMENT``,
    ``None`` when absent), ``vendor_code`` the ``reason`` of its
    ``google.rpc.ErrorInfo`` detail (``API_KEY_INVALID``, when there is one)
    and ``vendor_message`` its ``message``. The body must be UTF-8 JSON
    shaped ``{"error": {"message": ..., ...}}``; anything else (not bytes,
    not UTF-8, not JSON, another shape) gives ``None``: the caller then
    reports the HTTP status alone. Pure; never raises.
    """
    document = body_object(body) if type(body) is bytes else None
    error = None if document is None else document.get(_wire.ERROR_KEY)
    if type(error) is not dict:
        return None
    return _fields(error)


def raise_error_object(data: dict[str, Any], index: int) -> NoReturn:
    """Raise what the stream's error object, event number ``index`` (decoded as ``data``), says.

    Raises `VendorError` ``VENDOR_ERROR_EVENT`` with the error's ``status``
    (``vendor_type``), its ``ErrorInfo`` reason (``vendor_code``) and its
    message (``vendor_message``), or ``VENDOR_INVALID_EVENT`` when ``error``
    is not an object with a ``message`` string (and a non-blank ``status``
    string, if any).
    """
    error = object_at(data, _wire.ERROR_KEY, index)
    fields = _fields(error)
    if fields is None or fields.vendor_message is None:
        fail_invalid(
            f"{_wire.ERROR_KEY} must hold a {_wire.MESSAGE_KEY} string and a non-blank "
            f"{_wire.STATUS_KEY} string, if any",
            index,
        )
    kind = fields.vendor_type or "error"
    fail(
        VendorErrorCode.VENDOR_ERROR_EVENT,
        index,
        f"the vendor reported {shown(kind)}: {shown(fields.vendor_message)}",
        vendor_type=fields.vendor_type,
        vendor_code=fields.vendor_code,
        vendor_message=fields.vendor_message,
    )
