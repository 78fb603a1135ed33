"""What the end of a Responses stream says: the usage, and the errors the vendor reports.

``response.usage`` holds ``input_tokens`` and ``output_tokens`` (required
when usage is sent at all), ``total_tokens``, and the counts of
``input_tokens_details`` and ``output_tokens_details``, each optional; an
error object (the ``error`` event's, ``response.failed``'s
``response.error``) holds a ``message`` and optionally a ``code``, a
``type`` and a ``param``.
"""

from __future__ import annotations

from typing import Any

from course_provider_openai._failures import OpenAIFailures
from course_provider_openai._responses_result import ResponsesError, ResponsesUsage
from course_vendor import token_count

__all__ = ["read_error", "read_incomplete_reason", "read_response_error", "read_usage"]


def _count(failures: OpenAIFailures, value: dict[str, Any], key: str, index: int, path: str) -> int:
    return token_count(value.get(key), vendor=failures.vendor, index=index, path=f"{path}.{key}")


def _optional_count(
    failures: OpenAIFailures, value: dict[str, Any], key: str, index: int, path: str
) -> int | None:
    if value.get(key) is None:
        return None
    return _count(failures, value, key, index, path)


def _details(
    failures: OpenAIFailures, usage: dict[str, Any], key: str, index: int, path: str
) -> dict[str, Any]:
    details = usage.get(key)
    if details is None:
        return {}
    if type(details) is not dict:
        failures.invalid(index, f"{path}.{key}", "an object", details)
    return details


def read_usage(
    failures: OpenAIFailures, usage: object, index: int, path: str
) -> ResponsesUsage | None:
    """``usage`` (``path`` of event ``index``) as `ResponsesUsage`; ``None`` when absent or null.

    Raises ``VENDOR_INVALID_EVENT`` naming the path of a count that is not
    an integer from 0 to 2**53 - 1, of ``input_tokens`` or ``output_tokens``
    missing, or of a details member that is not an object.
    """
    if usage is None:
        return None
    if type(usage) is not dict:
        failures.invalid(index, path, "an object", usage)
    cached = _details(failures, usage, "input_tokens_details", index, path)
    cached_path = f"{path}.input_tokens_details"
    writes = _details(failures, cached, "cache_write_tokens_details", index, cached_path)
    writes_path = f"{cached_path}.cache_write_tokens_details"
    reasoning = _details(failures, usage, "output_tokens_details", index, path)
    return ResponsesUsage(
        _count(failures, usage, "input_tokens", index, path),
        _count(failures, usage, "output_tokens", index, path),
        _optional_count(failures, usage, "total_tokens", index, path),
        _optional_count(failures, cached, "cached_tokens", index, cached_path),
        _optional_count(failures, cached, "cache_write_tokens", index, cached_path),
        _optional_count(failures, writes, "ttl_30m_tokens", index, writes_path),
        _optional_count(failures, writes, "ttl_12h_tokens", index, writes_path),
        _optional_count(
            failures, reasoning, "reasoning_tokens", index, f"{path}.output_tokens_details"
        ),
    )


def _optional_text(
    failures: OpenAIFailures, error: dict[str, Any], key: str, index: int, path: str
) -> str | None:
    value = error.get(key)
    if value is not None and type(value) is not str:
        failures.invalid(index, f"{path}.{key}" if path else key, "a string", value)
    return value


def read_error(
    failures: OpenAIFailures, error: dict[str, Any], index: int, path: str
) -> ResponsesError:
    """The error object ``error`` (at ``path`` of event ``index``, ``""`` for the event itself).

    ``code`` may be text or an integer (given as its text, as compatible
    vendors send HTTP-style codes). The event itself has no error ``type``
    of its own (its ``type`` is ``"error"``). Raises ``VENDOR_INVALID_EVENT``
    when ``message`` is not a string or another field is of the wrong type.
    """
    code = error.get("code")
    if type(code) is int:
        code = str(code)
    elif code is not None and type(code) is not str:
        failures.invalid(index, f"{path}.code" if path else "code", "a string", code)
    return ResponsesError(
        failures.text_at(error, "message", index, parent=path),
        code,
        _optional_text(failures, error, "type", index, path) if path else None,
        _optional_text(failures, error, "param", index, path),
    )


def read_incomplete_reason(
    failures: OpenAIFailures, response: dict[str, Any], index: int
) -> str | None:
    """``response.incomplete_details.reason`` of event ``index``; ``None`` when not sent.

    Raises ``VENDOR_INVALID_EVENT`` when the details are not an object or the
    reason not a string.
    """
    details = response.get("incomplete_details")
    if details is None:
        return None
    if type(details) is not dict:
        failures.invalid(index, "response.incomplete_details", "an object", details)
    reason = details.get("reason")
    if reason is not None and type(reason) is not str:
        failures.invalid(index, "response.incomplete_details.reason", "a string", reason)
    return reason


def read_response_error(
    failures: OpenAIFailures, response: dict[str, Any], index: int
) -> ResponsesError | None:
    """``response.error`` of event ``index`` (`read_error`); ``None`` when not sent."""
    error = response.get("error")
    if error is None:
        return None
    if type(error) is not dict:
        failures.invalid(index, "response.error", "an object", error)
    return read_error(failures, error, index, "response.error")
