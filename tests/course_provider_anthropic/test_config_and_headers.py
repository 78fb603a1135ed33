"""AnthropicConfig and the request headers: the Messages API's own spellings.

The rules every vendor shares (each field's checks, the base-URL rule, the
API-key rule) are tested over every registered wire in ``tests/course_vendor``;
these are what is Anthropic's own: its default base URL, the endpoint joined
under it, the output limit its API needs, and the headers a call sends.
"""

from __future__ import annotations

import pytest

from course_provider_anthropic import AnthropicConfig, request_headers


def test_the_default_base_url_is_the_sdks_and_an_output_limit_is_needed() -> None:
    config = AnthropicConfig(model="claude-test", max_output_tokens=1)

    assert config.base_url == "https://api.anthropic.com"
    assert config.messages_url == "https://api.anthropic.com/v1/messages"
    assert AnthropicConfig.OUTPUT_LIMIT_REQUIRED


@pytest.mark.parametrize(
    ("base_url", "url"),
    [
        ("http://127.0.0.1:8080", "http://127.0.0.1:8080/v1/messages"),
        ("https://proxy.example/anthropic/", "https://proxy.example/anthropic/v1/messages"),
    ],
)
def test_the_messages_url_joins_the_endpoint_once_under_the_base_url(
    base_url: str, url: str
) -> None:
    assert AnthropicConfig(model="m", max_output_tokens=1, base_url=base_url).messages_url == url


def test_request_headers_carry_the_key_and_the_api_version() -> None:
    assert request_headers("sk-ant-test") == {
        "x-api-key": "sk-ant-test",
        "anthropic-version": "2023-06-01",
    }
