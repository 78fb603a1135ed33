"""AnthropicConfig and the request headers: checked once, at construction, with clear errors.

The rules every vendor shares are tested over both vendors in ``tests/course_vendor``;
these are the Messages API's own spellings of them.
"""

from __future__ import annotations

import dataclasses

import pytest

from course_protocol import CourseToolSpec
from course_provider_anthropic import AnthropicConfig, request_headers
from course_vendor import VendorConfigError, VendorConfigErrorCode

ADD = CourseToolSpec("add", "Adds.", {"type": "object"})


def test_defaults_and_the_messages_url() -> None:
    config = AnthropicConfig(model="claude-test", max_output_tokens=1)

    assert (config.system_prompt, config.tools, config.base_url, config.timeouts) == (
        None,
        (),
        "https://api.anthropic.com",
        None,
    )
    assert config.messages_url == "https://api.anthropic.com/v1/messages"


@pytest.mark.parametrize(
    ("base_url", "url"),
    [
        ("http://127.0.0.1:8080", "http://127.0.0.1:8080/v1/messages"),
        ("https://proxy.example/anthropic/", "https://proxy.example/anthropic/v1/messages"),
    ],
)
def test_the_base_url_is_overridable(base_url: str, url: str) -> None:
    assert AnthropicConfig(model="m", max_output_tokens=1, base_url=base_url).messages_url == url


def test_the_config_is_frozen_and_stores_tools_as_a_tuple() -> None:
    tools = [ADD]
    config = AnthropicConfig(model="m", max_output_tokens=1, tools=tools)  # type: ignore[arg-type]
    tools.append(CourseToolSpec("other", "", {}))

    assert config.tools == (ADD,)
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.model = "other"  # type: ignore[misc]


@pytest.mark.parametrize(
    ("fields", "path", "words"),
    [
        ({"model": 3}, "model", "must be a non-blank str, got int"),
        ({"model": ""}, "model", "must be a non-blank str, got blank text"),
        ({"model": " \t"}, "model", "must be a non-blank str, got blank text"),
        ({"max_output_tokens": "5"}, "max_output_tokens", "must be an int from 1 to 2**53 - 1"),
        ({"max_output_tokens": True}, "max_output_tokens", "got bool"),
        ({"max_output_tokens": 5.0}, "max_output_tokens", "got float"),
        ({"max_output_tokens": 0}, "max_output_tokens", "got 0"),
        ({"max_output_tokens": -1}, "max_output_tokens", "got -1"),
        ({"max_output_tokens": 2**53}, "max_output_tokens", "got int"),
        ({"max_output_tokens": None}, "max_output_tokens", "2**53 - 1, got null"),
        ({"system_prompt": 1}, "system_prompt", "must be a non-blank str or None"),
        ({"system_prompt": ""}, "system_prompt", "got blank text"),
        ({"tools": ADD}, "tools", "must be a tuple or list of CourseToolSpec"),
        ({"tools": {"add": ADD}}, "tools", "got dict"),
        ({"tools": ("add",)}, "tools[0]", "must be a CourseToolSpec"),
        ({"tools": (ADD, CourseToolSpec("add", "Again.", {}))}, "tools[1].name", "repeats"),
        ({"base_url": None}, "base_url", "must be a str"),
        ({"base_url": "api.anthropic.com"}, "base_url", "http:// or https://"),
        ({"base_url": "ftp://api.anthropic.com"}, "base_url", "http:// or https://"),
        ({"base_url": "https://"}, "base_url", "with a host"),
        ({"base_url": "https://api.anthropic.com\r\nX: y"}, "base_url", "whitespace"),
        ({"base_url": "https://api .anthropic.com"}, "base_url", "whitespace"),
    ],
)
def test_a_bad_field_fails_at_construction_naming_it(
    fields: dict[str, object], path: str, words: str
) -> None:
    arguments: dict[str, object] = {"model": "m", "max_output_tokens": 1, **fields}

    with pytest.raises(VendorConfigError) as caught:
        AnthropicConfig(**arguments)  # type: ignore[arg-type]

    assert caught.value.code is VendorConfigErrorCode.VENDOR_INVALID_CONFIG
    assert caught.value.path == f"AnthropicConfig.{path}"
    assert str(caught.value).startswith(f"VENDOR_INVALID_CONFIG: AnthropicConfig.{path} ")
    assert words in str(caught.value)


def test_request_headers_carry_the_key_and_the_api_version() -> None:
    assert request_headers("sk-ant-test") == {
        "x-api-key": "sk-ant-test",
        "anthropic-version": "2023-06-01",
    }


@pytest.mark.parametrize(
    "key",
    [
        None,
        b"sk-ant-bytes",
        "",
        "   ",
        "sk-ant-secret\r\nX-Injected: 1",
        "sk-ant-secret\x00",
        "sk-ant-secret with-a-space",
        "sk-ant-secr\u00e9t",
    ],
    ids=["none", "bytes", "empty", "blank", "line-break", "nul", "space", "non-ascii"],
)
def test_a_bad_key_is_refused_without_ever_showing_it(key: object) -> None:
    with pytest.raises(VendorConfigError) as caught:
        request_headers(key)  # type: ignore[arg-type]

    assert (caught.value.code, caught.value.path) == (
        VendorConfigErrorCode.VENDOR_INVALID_API_KEY,
        "api_key",
    )
    assert "secret" not in str(caught.value)
    assert "sk-ant" not in repr(caught.value)
