"""The vendor's error object, ``{"error": {"code", "message", "status", "details"}}``.

A 4xx or 5xx response carries it as its whole body (even under
``text/event-stream``): `describe_error` reads it. A stream that fails after
its 200 carries it as one more chunk, framed as the others or bare: the
grammar reads it (`read_stream_error`), and the mapping fails the call with
it (`error_event`).
"""

from __future__ import annotations

from typing import Any

from course_http import VendorError, VendorErrorBody, VendorErrorCode
from course_protocol.untrusted import is_blank, shown
from course_provider_gemini import _wire
from course_provider_gemini._reads import fail_invalid, frozen_array, invalid, object_at
from course_provider_gemini._result import GeminiStreamError
from course_vendor import body_object, event_error

__all__ = ["describe_error", "error_event", "read_stream_error"]

_ERROR_INFO = "type.googleapis.com/google.rpc.ErrorInfo"


def _fields(error: dict[str, Any]) -> VendorErrorBody | None:
    status = error.get("status")
    message = error.get("message")
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
        if type(detail) is dict and detail.get("@type") == _ERROR_INFO:
            reason = detail.get("reason")
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


def read_stream_error(data: dict[str, Any], index: int) -> GeminiStreamError:
    """The error object of event number ``index`` (decoded as ``data``), read strictly.

    Raises `VendorError` ``VENDOR_INVALID_EVENT`` when ``error`` is not an
    object with a ``message`` string, a non-blank ``status`` string (if
    any), an integer ``code`` (if any) and an array of objects as
    ``details`` (if any).
    """
    error = object_at(data, _wire.ERROR_KEY, index)
    fields = _fields(error)
    if fields is None or fields.vendor_message is None:
        fail_invalid(
            "error must hold a message string and a non-blank status string, if any", index
        )
    code = error.get("code")
    if code is not None and type(code) is not int:
        invalid(index, "error.code", "an integer", code)
    details = error.get("details")
    return GeminiStreamError(
        code,
        fields.vendor_type,
        fields.vendor_message,
        fields.vendor_code,
        () if details is None else frozen_array(details, index, "error.details"),
    )


def error_event(error: GeminiStreamError, index: int) -> VendorError:
    """The ``VENDOR_ERROR_EVENT`` that fails a call at the stream's error object ``error``.

    ``vendor_type`` is the error's status, ``vendor_code`` its ``ErrorInfo``
    reason, ``vendor_message`` its message; ``event_index`` is ``index``.
    """
    kind = error.status or "error"
    return event_error(
        VendorErrorCode.VENDOR_ERROR_EVENT,
        f"the vendor reported {shown(kind)}: {shown(error.message)}",
        vendor=_wire.WIRE,
        index=index,
        vendor_type=error.status,
        vendor_code=error.reason,
        vendor_message=error.message,
    )
