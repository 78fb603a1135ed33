"""describe_error: the vendor's JSON error body read into a VendorErrorBody, or None."""

from __future__ import annotations

import pytest

from course_http import VendorErrorBody
from course_provider_anthropic import describe_error


def test_the_error_type_and_message_of_a_vendor_error_body() -> None:
    body = (
        b'{"type":"error","error":{"type":"rate_limit_error","message":"Slow down."},'
        b'"request_id":"req_1"}'
    )

    assert describe_error(body) == VendorErrorBody("rate_limit_error", None, "Slow down.")


def test_an_empty_message_is_still_a_message() -> None:
    assert describe_error(
        b'{"type":"error","error":{"type":"api_error","message":""}}'
    ) == VendorErrorBody("api_error", None, "")


def test_padding_and_non_ascii_text_are_fine() -> None:
    body = '{ "type" : "error", "error": {"type": "overloaded_error", "message": "Überlastet"} }'

    assert describe_error(body.encode()) == VendorErrorBody("overloaded_error", None, "Überlastet")


@pytest.mark.parametrize(
    "body",
    [
        b"",
        b"Bad Gateway",
        b"<html>502</html>",
        b"\xff\xfe{}",
        b"[]",
        b"null",
        b'{"error":{"type":"api_error","message":"m"}}',
        b'{"type":"message","error":{"type":"api_error","message":"m"}}',
        b'{"type":"error"}',
        b'{"type":"error","error":"Overloaded"}',
        b'{"type":"error","error":{"message":"m"}}',
        b'{"type":"error","error":{"type":" ","message":"m"}}',
        b'{"type":"error","error":{"type":"api_error"}}',
        b'{"type":"error","error":{"type":"api_error","message":7}}',
        b'{"type":"error","error":{"type":"api_error","message":NaN}}',
        b'{"type":"error","error":' + b"[" * 100_000 + b"]" * 100_000 + b"}",
        b'{"error":{"message":"Incorrect API key","type":"invalid_request_error","code":"x"}}',
    ],
    ids=[
        "empty",
        "text",
        "html",
        "not-utf8",
        "array",
        "null",
        "no-type",
        "type-not-error",
        "no-error-object",
        "error-a-string",
        "error-type-missing",
        "error-type-blank",
        "message-missing",
        "message-a-number",
        "nan",
        "deep",
        "another-vendors-shape",
    ],
)
def test_anything_else_is_none(body: bytes) -> None:
    assert describe_error(body) is None


@pytest.mark.parametrize("body", [None, "text", bytearray(b"{}"), memoryview(b"{}")])
def test_what_is_not_bytes_is_none(body: object) -> None:
    assert describe_error(body) is None  # type: ignore[arg-type]
