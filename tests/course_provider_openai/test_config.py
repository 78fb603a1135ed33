"""OpenAIConfig, request_headers and describe_error: validated values, no key anywhere."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
from frozendict import frozendict

from course_http import VendorErrorBody
from course_protocol import CourseToolSpec, thaw_json
from course_provider_openai import DEFAULT_BASE_URL, OpenAIConfig, describe_error, request_headers
from course_vendor import VendorConfigError, VendorConfigErrorCode
from tests.nesting import nested_dicts

ADD = CourseToolSpec("add", "Add two integers.", {"type": "object"})
KEY = "sk-test-NEVER-SHOWN-0123456789"


def test_a_config_holds_its_values_with_the_openai_defaults() -> None:
    config = OpenAIConfig("gpt-own")

    assert config.model == "gpt-own"
    assert config.max_output_tokens is None
    assert config.system_prompt is None
    assert config.tools == ()
    assert config.base_url == DEFAULT_BASE_URL == "https://api.openai.com/v1"


def test_a_config_is_frozen_and_copies_a_list_of_tools_into_a_tuple() -> None:
    tools = [ADD]
    config = OpenAIConfig("gpt-own", tools=tools)  # type: ignore[arg-type]
    tools.append(CourseToolSpec("mul", "", {}))

    assert config.tools == (ADD,)
    assert type(config.tools) is tuple
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.model = "other"  # type: ignore[misc]


@pytest.mark.parametrize(
    ("given", "kept"),
    [
        ("https://api.openai.com/v1/", "https://api.openai.com/v1"),
        ("https://api.openai.com/v1", "https://api.openai.com/v1"),
        ("https://api.groq.com/openai/v1", "https://api.groq.com/openai/v1"),
        ("https://openrouter.ai/api/v1/", "https://openrouter.ai/api/v1"),
        ("http://127.0.0.1:8080", "http://127.0.0.1:8080"),
    ],
)
def test_the_base_url_is_kept_as_the_sdk_spells_it_without_a_trailing_slash(
    given: str, kept: str
) -> None:
    assert OpenAIConfig("m", base_url=given).base_url == kept


@pytest.mark.parametrize(
    ("fields", "path"),
    [
        ({"model": ""}, "model"),
        ({"model": "  "}, "model"),
        ({"model": None}, "model"),
        ({"max_output_tokens": 0}, "max_output_tokens"),
        ({"max_output_tokens": -5}, "max_output_tokens"),
        ({"max_output_tokens": True}, "max_output_tokens"),
        ({"max_output_tokens": 1.5}, "max_output_tokens"),
        ({"max_output_tokens": 2**53}, "max_output_tokens"),
        ({"system_prompt": 3}, "system_prompt"),
        ({"system_prompt": ""}, "system_prompt"),
        ({"system_prompt": " \n"}, "system_prompt"),
        ({"tools": ADD}, "tools"),
        ({"tools": "add"}, "tools"),
        ({"tools": (ADD, {"name": "mul"})}, "tools[1]"),
        ({"tools": (ADD, CourseToolSpec("add", "again", {}))}, "tools[1].name"),
        ({"base_url": "ftp://example.com"}, "base_url"),
        ({"base_url": "https://"}, "base_url"),
        ({"base_url": "api.openai.com"}, "base_url"),
        ({"base_url": "https://api.openai.com/a b"}, "base_url"),
        ({"base_url": "https://api.openai.com?x=1"}, "base_url"),
        ({"base_url": b"https://api.openai.com"}, "base_url"),
        ({"timeouts": 30}, "timeouts"),
    ],
)
def test_a_bad_field_is_refused_naming_it(fields: dict[str, Any], path: str) -> None:
    arguments: dict[str, Any] = {"model": "gpt-own", **fields}
    with pytest.raises(VendorConfigError) as caught:
        OpenAIConfig(**arguments)
    assert caught.value.code is VendorConfigErrorCode.VENDOR_INVALID_CONFIG
    assert caught.value.path == f"OpenAIConfig.{path}"
    assert caught.value.message.startswith(f"OpenAIConfig.{path} ")


def test_request_headers_authenticate_with_a_bearer_token() -> None:
    assert request_headers(KEY) == {"authorization": f"Bearer {KEY}"}


@pytest.mark.parametrize(
    "key",
    [
        "",
        "   ",
        None,
        42,
        f"{KEY}\r\nx-injected: 1",
        f"{KEY}\n",
        f"{KEY}\0",
        f"{KEY} tail",
        f"{KEY}\u00e9",
    ],
)
def test_request_headers_refuse_an_unusable_key_without_showing_it(key: Any) -> None:
    with pytest.raises(VendorConfigError) as caught:
        request_headers(key)
    assert caught.value.code is VendorConfigErrorCode.VENDOR_INVALID_API_KEY
    assert caught.value.path == "api_key"
    assert KEY not in str(caught.value)
    assert KEY not in repr(caught.value)


def test_no_config_value_can_hold_or_show_a_key() -> None:
    config = OpenAIConfig("gpt-own", system_prompt="Be brief.", tools=(ADD,))

    assert "key" not in {field.name for field in dataclasses.fields(config)}
    assert KEY not in repr(config)


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
