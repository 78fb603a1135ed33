"""The error object both OpenAI wires send, before the stream and inside it.

An HTTP error body is ``{"error": {"message", "type", "param", "code"}}``;
inside a Chat stream the same object comes in an ``event: error`` frame or
beside ``choices`` in a chunk (where the official SDK raises it), and in
the Responses API in its ``error`` event and in ``response.failed``. One
reader serves them all. Both wires spell the names the same way; they are
taken from ``_chat_wire``.
"""

from __future__ import annotations

from typing import Any, TypeAlias

from course_http import VendorErrorBody
from course_protocol.untrusted import shown
from course_provider_openai import _chat_wire as wire
from course_vendor import body_object

__all__ = ["ErrorDescription", "describe_error", "error_account", "error_fields"]

ErrorDescription: TypeAlias = tuple[str | None, str | None, str | None]
"""The vendor's error ``(type, code, message)``; each ``None`` when absent or not text."""


def _text(value: object) -> str | None:
    return value if type(value) is str else None


def _code(value: object) -> str | None:
    # OpenAI sends codes as text ("invalid_api_key"); OpenRouter as HTTP-style numbers (400).
    if type(value) is str:
        return value
    if type(value) is int:
        return str(value)
    return None


def error_fields(error: object) -> ErrorDescription:
    """Read ``(type, code, message)`` from one vendor error object; never raises.

    A ``dict`` gives its ``type``, ``code`` (text, or an integer as text) and
    ``message``; a bare string is taken as the message (some compatible
    vendors send ``{"error": "..."}``); anything else gives three ``None``.
    """
    if type(error) is str:
        return (None, None, error)
    if type(error) is not dict:
        return (None, None, None)
    fields: dict[str, Any] = error
    return (
        _text(fields.get(wire.ERROR_TYPE_KEY)),
        _code(fields.get(wire.ERROR_CODE_KEY)),
        _text(fields.get(wire.ERROR_MESSAGE_KEY)),
    )


def describe_error(body: bytes) -> VendorErrorBody | None:
    """Read an HTTP error body of either OpenAI API into its type, code and message.

    A ``course_http.ErrorBodyReader``. Returns ``None`` when ``body`` is not
    UTF-8 JSON text holding an object with an ``error`` member (an HTML page
    from a proxy, an empty body, a JSON array); otherwise a `VendorErrorBody`
    of that member's fields as :func:`error_fields` reads them. Never raises
    on any ``bytes``; raises ``TypeError`` when ``body`` is not ``bytes``.
    """
    if type(body) is not bytes:
        raise TypeError(f"body must be bytes, not {type(body).__name__}")
    document = body_object(body)
    if document is None or wire.ERROR_KEY not in document:
        return None
    return VendorErrorBody(*error_fields(document[wire.ERROR_KEY]))


def error_account(description: ErrorDescription) -> str:
    """A one-line account of a vendor error for a `VendorError` message, long messages cut."""
    kind, code, message = description
    label = "/".join(part for part in (kind, code) if part) or "error"
    if message is None:
        return label
    return f"{label}: {shown(message)}"
