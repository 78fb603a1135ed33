"""AnthropicConfig and the request headers: checked once, at construction, with clear errors."""

from __future__ import annotations

import dataclasses

import pytest

from course_protocol import CourseToolSpec
from course_provider_anthropic import AnthropicConfig, request_headers

ADD = CourseToolSpec("add", "Adds.", {"type": "object"})


def test_defaults_and_the_messages_url() -> None:
    config = AnthropicConfig(model="claude-test", max_tokens=1)

    assert (config.system, config.tools, config.base_url) == (None, (), "https://api.anthropic.com")
    assert config.messages_url == "https://api.anthropic.com/v1/messages"


@pytest.mark.parametrize(
    ("base_url", "url"),
    [
        ("http://127.0.0.1:8080", "http://127.0.0.1:8080/v1/messages"),
        ("https://proxy.example/anthropic/", "https://proxy.example/anthropic/v1/messages"),
    ],
)
def test_the_base_url_is_overridable(base_url: str, url: str) -> None:
    assert AnthropicConfig(model="m", max_tokens=1, base_url=base_url).messages_url == url


def test_the_config_is_frozen_and_stores_tools_as_a_tuple() -> None:
    tools = [ADD]
    config = AnthropicConfig(model="m", max_tokens=1, tools=tools)  # type: ignore[arg-type]
    tools.append(CourseToolSpec("other", "", {}))

    assert config.tools == (ADD,)
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.model = "other"  # type: ignore[misc]


@pytest.mark.parametrize(
    ("fields", "error", "words"),
    [
        ({"model": 3}, TypeError, "model must be a str"),
        ({"model": ""}, ValueError, "model must not be blank"),
        ({"model": " \t"}, ValueError, "model must not be blank"),
        ({"max_tokens": "5"}, TypeError, "max_tokens must be an int"),
        ({"max_tokens": True}, TypeError, "max_tokens must be an int"),
        ({"max_tokens": 5.0}, TypeError, "max_tokens must be an int"),
        ({"max_tokens": 0}, ValueError, "max_tokens must be from 1"),
        ({"max_tokens": -1}, ValueError, "max_tokens must be from 1"),
        ({"max_tokens": 2**53}, ValueError, "max_tokens must be from 1"),
        ({"system": 1}, TypeError, "system must be a str or None"),
        ({"system": ""}, ValueError, "system must not be blank"),
        ({"tools": ADD}, TypeError, "tools must be a tuple"),
        ({"tools": {"add": ADD}}, TypeError, "tools must be a tuple"),
        ({"tools": ("add",)}, TypeError, "tools[0] must be a CourseToolSpec"),
        ({"tools": (ADD, CourseToolSpec("add", "Again.", {}))}, ValueError, "tools[1] repeats"),
        ({"base_url": None}, TypeError, "base_url must be a str"),
        ({"base_url": "api.anthropic.com"}, ValueError, "http:// or https://"),
        ({"base_url": "ftp://api.anthropic.com"}, ValueError, "http:// or https://"),
        ({"base_url": "https://"}, ValueError, "with a host"),
        ({"base_url": "https://api.anthropic.com\r\nX: y"}, ValueError, "whitespace"),
        ({"base_url": "https://api .anthropic.com"}, ValueError, "whitespace"),
    ],
)
def test_a_bad_field_fails_at_construction_naming_it(
    fields: dict[str, object], error: type[Exception], words: str
) -> None:
    arguments: dict[str, object] = {"model": "m", "max_tokens": 1, **fields}

    with pytest.raises(error) as caught:
        AnthropicConfig(**arguments)  # type: ignore[arg-type]

    assert words in str(caught.value)
    assert type(caught.value) is error


def test_request_headers_carry_the_key_and_the_api_version() -> None:
    assert request_headers("sk-ant-test") == {
        "x-api-key": "sk-ant-test",
        "anthropic-version": "2023-06-01",
    }


@pytest.mark.parametrize(
    ("key", "error"),
    [
        (None, TypeError),
        (b"sk-ant-bytes", TypeError),
        ("", ValueError),
        ("   ", ValueError),
        ("sk-ant-secret\r\nX-Injected: 1", ValueError),
        ("sk-ant-secret\x00", ValueError),
    ],
    ids=["none", "bytes", "empty", "blank", "line-break", "nul"],
)
def test_a_bad_key_is_refused_without_ever_showing_it(key: object, error: type[Exception]) -> None:
    with pytest.raises(error) as caught:
        request_headers(key)  # type: ignore[arg-type]

    assert "secret" not in str(caught.value)
    assert "sk-ant" not in repr(caught.value)
