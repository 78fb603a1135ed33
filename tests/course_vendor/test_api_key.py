"""One API-key rule: every vendor's header builder and every model refuse a key the same way.

The rule is the kit's `checked_api_key`: a non-empty ``str`` of visible
ASCII. Anything else is `VendorConfigError` ``VENDOR_INVALID_API_KEY`` (path
``api_key``) with the same message whoever checks it, and the key is never in it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from course_http import RecordedTransport
from course_provider_anthropic import AnthropicConfig, AnthropicMessagesModel
from course_provider_anthropic import request_headers as anthropic_headers
from course_provider_openai import OpenAIChatModel, OpenAIConfig, OpenAIResponsesModel
from course_provider_openai import request_headers as openai_headers
from course_vendor import VendorConfigError, VendorConfigErrorCode, checked_api_key

SECRET = "sk-NEVER-SHOWN-0123456789"


def _anthropic_model(key: Any) -> object:
    return AnthropicMessagesModel(
        AnthropicConfig("claude-test", 64), api_key=key, transport=RecordedTransport([])
    )


def _chat_model(key: Any) -> object:
    return OpenAIChatModel(OpenAIConfig("gpt-test"), api_key=key, transport=RecordedTransport([]))


def _responses_model(key: Any) -> object:
    return OpenAIResponsesModel(
        OpenAIConfig("gpt-test"), api_key=key, transport=RecordedTransport([])
    )


CHECKS: dict[str, Callable[[Any], object]] = {
    "kit": checked_api_key,
    "anthropic-headers": anthropic_headers,
    "openai-headers": openai_headers,
    "anthropic-model": _anthropic_model,
    "openai-chat-model": _chat_model,
    "openai-responses-model": _responses_model,
}
every_check = pytest.mark.parametrize("check", list(CHECKS.values()), ids=list(CHECKS))

BAD_KEYS = {
    "int": 42,
    "bytes": SECRET.encode(),
    "empty": "",
    "blank": "   ",
    "space": f"{SECRET} tail",
    "tab": f"{SECRET}\t",
    "cr": f"{SECRET}\rx-injected: 1",
    "lf": f"{SECRET}\nx-injected: 1",
    "crlf": f"{SECRET}\r\nx-injected: 1",
    "nul": f"{SECRET}\x00",
    "del": f"{SECRET}\x7f",
    "non-ascii": f"{SECRET}\u00e9",
    "non-breaking-space": f"{SECRET}\u00a0",
    "line-separator": f"{SECRET}\u2028",
}


def _refusal(check: Callable[[Any], object], key: object) -> VendorConfigError:
    with pytest.raises(VendorConfigError) as caught:
        check(key)
    return caught.value


@every_check
@pytest.mark.parametrize("key", list(BAD_KEYS.values()), ids=list(BAD_KEYS))
def test_a_bad_key_is_refused_the_same_way_by_every_vendor_without_showing_it(
    check: Callable[[Any], object], key: object
) -> None:
    error = _refusal(check, key)

    assert (error.code, error.path) == (VendorConfigErrorCode.VENDOR_INVALID_API_KEY, "api_key")
    assert error.message == _refusal(checked_api_key, key).message
    assert error.message.startswith("api_key ")
    assert error.message.endswith("; the key itself is not shown")
    for shown in (str(error), repr(error), *map(str, error.args)):
        assert "NEVER-SHOWN" not in shown


@pytest.mark.parametrize("check", [checked_api_key, anthropic_headers, openai_headers])
def test_a_header_builder_refuses_no_key_which_a_model_reads_from_the_environment(
    check: Callable[[Any], object],
) -> None:
    error = _refusal(check, None)

    assert (error.code, error.message) == (
        VendorConfigErrorCode.VENDOR_INVALID_API_KEY,
        "api_key must be a str, got null; the key itself is not shown",
    )


@pytest.mark.parametrize(
    ("key", "problem"),
    [
        (None, "must be a str, got null"),
        ("", "is empty"),
        ("sk key", "holds a character that is not visible ASCII"),
        ("sk-\u00e9", "holds a character that is not visible ASCII"),
    ],
)
def test_the_message_says_what_is_wrong(key: object, problem: str) -> None:
    assert _refusal(checked_api_key, key).message.startswith(f"api_key {problem}")


def test_every_visible_ascii_character_is_a_usable_key_character() -> None:
    key = "".join(chr(code) for code in range(0x21, 0x7F))

    assert checked_api_key(key) is key
    assert anthropic_headers(key)["x-api-key"] == key
    assert openai_headers(key) == {"authorization": f"Bearer {key}"}
