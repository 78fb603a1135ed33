"""How both OpenAI parsers report what is wrong: one `VendorError` shape, messages with paths."""

from __future__ import annotations

from course_http import VendorError, VendorErrorCode
from course_provider_openai._error_body import ErrorDescription, shown

__all__ = ["described", "failure", "invalid", "vendor_error_event"]

_JSON_NAMES = {
    dict: "object",
    list: "array",
    str: "string",
    int: "integer",
    float: "number",
    bool: "boolean",
}


def described(value: object) -> str:
    """The JSON name of ``value``'s kind for a message: ``null``, ``object``, ``string``, ..."""
    if value is None:
        return "null"
    return _JSON_NAMES.get(type(value), type(value).__name__)


def failure(
    code: VendorErrorCode,
    message: str,
    *,
    vendor: str,
    index: int,
    vendor_type: str | None = None,
    vendor_message: str | None = None,
) -> VendorError:
    """A `VendorError` with ``code`` about event ``index``, its message prefixed ``event N:``."""
    return VendorError(
        code,
        f"event {index}: {message}",
        vendor=vendor,
        vendor_type=vendor_type,
        vendor_message=vendor_message,
        event_index=index,
    )


def invalid(path: str, expected: str, value: object, *, vendor: str, index: int) -> VendorError:
    """``VENDOR_INVALID_EVENT``: ``path`` of event ``index`` is not ``expected`` but ``value``."""
    return failure(
        VendorErrorCode.VENDOR_INVALID_EVENT,
        f"{path} must be {expected}, got {described(value)}",
        vendor=vendor,
        index=index,
    )


def vendor_error_event(description: ErrorDescription, *, vendor: str, index: int) -> VendorError:
    """``VENDOR_ERROR_EVENT`` for an error the vendor reported in the stream, with its fields."""
    kind, code, message = description
    return VendorError(
        VendorErrorCode.VENDOR_ERROR_EVENT,
        f"event {index}: the vendor reported an error in the stream ({shown(description)})",
        vendor=vendor,
        vendor_type=kind,
        vendor_code=code,
        vendor_message=message,
        event_index=index,
    )
