"""One base-URL rule for every vendor, and each vendor's default spelled as its SDK spells it.

The table runs over both vendor configurations: the same URLs are accepted
(a trailing ``/`` dropped, so the endpoint paths join after it) and refused
with `VendorConfigError` ``VENDOR_INVALID_CONFIG`` naming ``<Config>.base_url``.
"""

from __future__ import annotations

from typing import Any

import pytest

from course_http import LiveTransport
from course_provider_anthropic import MESSAGES_PLUGIN, AnthropicConfig
from course_provider_openai import CHAT_PLUGIN, DEFAULT_BASE_URL, RESPONSES_PLUGIN, OpenAIConfig
from course_vendor import VendorConfig, VendorConfigError, VendorConfigErrorCode

CONFIGS: list[tuple[type[VendorConfig], dict[str, Any]]] = [
    (AnthropicConfig, {"model": "claude-test", "max_output_tokens": 64}),
    (OpenAIConfig, {"model": "gpt-test"}),
]
every_config = pytest.mark.parametrize(
    ("config_class", "minimal"), CONFIGS, ids=[kind.__name__ for kind, _ in CONFIGS]
)


@every_config
@pytest.mark.parametrize(
    ("given", "kept"),
    [
        ("https://api.example.com", "https://api.example.com"),
        ("https://api.example.com/", "https://api.example.com"),
        ("https://api.example.com//", "https://api.example.com"),
        ("https://api.groq.com/openai/v1", "https://api.groq.com/openai/v1"),
        ("https://openrouter.ai/api/v1/", "https://openrouter.ai/api/v1"),
        ("http://127.0.0.1:8080", "http://127.0.0.1:8080"),
        ("http://[::1]:8080/proxy/", "http://[::1]:8080/proxy"),
        ("http://localhost", "http://localhost"),
    ],
)
def test_a_base_url_is_accepted_by_every_vendor_without_its_trailing_slash(
    config_class: type[VendorConfig], minimal: dict[str, Any], given: str, kept: str
) -> None:
    config = config_class(**minimal, base_url=given)

    assert config.base_url == kept
    assert LiveTransport(config.base_url).base_url.rstrip("/") == kept


@every_config
@pytest.mark.parametrize(
    ("given", "words"),
    [
        (None, "must be a str, got null"),
        (b"https://api.example.com", "must be a str, got bytes"),
        ("", "must be an http:// or https:// URL with a host"),
        ("api.example.com", "must be an http:// or https:// URL with a host"),
        ("ftp://api.example.com", "must be an http:// or https:// URL with a host"),
        ("HTTPS://api.example.com", "must be an http:// or https:// URL with a host"),
        ("https://", "must be an http:// or https:// URL with a host"),
        ("https:///v1", "must be an http:// or https:// URL with a host"),
        ("https://:443", "must be an http:// or https:// URL with a host"),
        ("https://api.example.com:0", "must be an http:// or https:// URL with a host"),
        ("https://api.example.com:99999", "is not a valid URL"),
        ("https://api.example.com:port", "is not a valid URL"),
        ("http://[::1", "is not a valid URL"),
        ("https://api .example.com", "must not hold whitespace or control characters"),
        ("https://api.example.com/v1 ", "must not hold whitespace or control characters"),
        ("https://api.example.com\r\nX: y", "must not hold whitespace or control characters"),
        ("https://api.example.com/\x00", "must not hold whitespace or control characters"),
        ("https://api.example.com/\u2028", "must not hold whitespace or control characters"),
        ("https://api.example.com/v1?x=1", "must not have a query or a fragment"),
        ("https://api.example.com/v1?", "must not have a query or a fragment"),
        ("https://api.example.com/#top", "must not have a query or a fragment"),
        ("https://user:secret@api.example.com", "must not hold credentials"),
        ("https://token@api.example.com", "must not hold credentials"),
    ],
)
def test_a_bad_base_url_is_refused_the_same_way_by_every_vendor(
    config_class: type[VendorConfig], minimal: dict[str, Any], given: Any, words: str
) -> None:
    with pytest.raises(VendorConfigError) as caught:
        config_class(**minimal, base_url=given)

    path = f"{config_class.__name__}.base_url"
    assert (caught.value.code, caught.value.path) == (
        VendorConfigErrorCode.VENDOR_INVALID_CONFIG,
        path,
    )
    assert caught.value.message.startswith(f"{path} ")
    assert words in caught.value.message
    assert "secret" not in caught.value.message


def test_each_vendor_defaults_to_its_sdks_base_url_and_joins_its_paths_after_it() -> None:
    anthropic = AnthropicConfig("claude-test", 64)
    openai = OpenAIConfig("gpt-test")

    assert anthropic.base_url == MESSAGES_PLUGIN.base_url == "https://api.anthropic.com"
    assert anthropic.messages_url == "https://api.anthropic.com/v1/messages"
    assert MESSAGES_PLUGIN.wire.path == "/v1/messages"
    assert openai.base_url == DEFAULT_BASE_URL == "https://api.openai.com/v1"
    assert CHAT_PLUGIN.base_url == RESPONSES_PLUGIN.base_url == DEFAULT_BASE_URL
    assert [CHAT_PLUGIN.wire.path, RESPONSES_PLUGIN.wire.path] == [
        "/chat/completions",
        "/responses",
    ]


def test_a_base_url_with_a_trailing_slash_joins_the_endpoint_once() -> None:
    config = AnthropicConfig("claude-test", 64, base_url="https://proxy.example/anthropic/")

    assert config.messages_url == "https://proxy.example/anthropic/v1/messages"
