"""OpenAIConfig, request_headers and describe_error: what is OpenAI's own.

The rules every vendor shares (each field's checks, the base-URL rule, the
API-key rule) are tested over every registered wire in ``tests/course_vendor``.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from frozendict import frozendict

from course_http import VendorErrorBody
from course_protocol import CourseToolSpec, thaw_json
from course_provider_openai import OpenAIConfig, describe_error, request_headers
from tests.nesting import nested_dicts

KEY = "sk-test-NEVER-SHOWN-0123456789"


def test_a_config_needs_no_output_limit() -> None:
    assert OpenAIConfig("gpt-own").max_output_tokens is None
    assert not OpenAIConfig.OUTPUT_LIMIT_REQUIRED


def test_request_headers_authenticate_with_a_bearer_token() -> None:
    assert request_headers(KEY) == {"authorization": f"Bearer {KEY}"}


def body(value: object) -> bytes:
    return json.dumps(value).encode()


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (
            body(
                {
                    "error": {
                        "message": "Incorrect API key provided: sk-ab***cd.",
                        "type": "invalid_request_error",
                        "param": None,
                        "code": "invalid_api_key",
                    }
                }
            ),
            ("invalid_request_error", "invalid_api_key", "Incorrect API key provided: sk-ab***cd."),
        ),
        (
            body({"error": {"message": "Rate limit reached", "type": "requests", "code": None}}),
            ("requests", None, "Rate limit reached"),
        ),
        (body({"error": {"code": 429, "message": "slow"}}), (None, "429", "slow")),
        (body({"error": "Model not found"}), (None, None, "Model not found")),
        (body({"error": {"type": 5, "code": True, "message": ["x"]}}), (None, None, None)),
        (body({"error": None}), (None, None, None)),
        ('{"error": {"message": "caf\u00e9"}}'.encode(), (None, None, "caf\u00e9")),
    ],
    ids=[
        "openai-401",
        "null-code",
        "numeric-code",
        "error-a-string",
        "fields-of-wrong-types",
        "error-null",
        "utf-8",
    ],
)
def test_describe_error_reads_the_vendors_type_code_and_message(
    raw: bytes, expected: tuple[str | None, str | None, str | None]
) -> None:
    assert describe_error(raw) == VendorErrorBody(*expected)


@pytest.mark.parametrize(
    "raw",
    [
        b"",
        b"<html><body>502 Bad Gateway</body></html>",
        b"[1, 2]",
        b'"error"',
        body({"message": "no error member"}),
        b'{"error": {"message": "x"}',
        b'\xff\xfe{"error": {}}',
        b'{"error": {"message": NaN}}',
        b"[" * 100_000 + b"]" * 100_000,
    ],
    ids=[
        "empty",
        "html",
        "array",
        "string",
        "no-error-member",
        "torn",
        "not-utf-8",
        "nan",
        "deeply-nested",
    ],
)
def test_describe_error_gives_none_for_anything_that_is_not_an_error_object(raw: bytes) -> None:
    assert describe_error(raw) is None


def test_describe_error_keeps_a_long_message_whole() -> None:
    message = "m" * 1_000_000
    assert describe_error(body({"error": {"message": message}})) == VendorErrorBody(
        None, None, message
    )


@pytest.mark.parametrize("raw", ['{"error": {}}', bytearray(b"{}"), None])
def test_describe_error_takes_bytes_only(raw: Any) -> None:
    with pytest.raises(TypeError):
        describe_error(raw)


def test_describe_error_reads_a_deeply_nested_error_object_without_recursion_trouble() -> None:
    nested = {"error": {"message": "deep", "details": nested_dicts(50)}}
    assert describe_error(body(nested)) == VendorErrorBody(None, None, "deep")


def test_the_tool_schema_of_a_config_is_a_frozen_snapshot() -> None:
    schema: dict[str, Any] = {"type": "object", "properties": {"a": {"type": "integer"}}}
    config = OpenAIConfig("m", tools=(CourseToolSpec("f", "", schema),))
    schema["properties"]["a"]["type"] = "string"

    assert type(config.tools[0].input_schema) is frozendict
    assert thaw_json(config.tools[0].input_schema) == {
        "type": "object",
        "properties": {"a": {"type": "integer"}},
    }
