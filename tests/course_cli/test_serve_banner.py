"""The base URL ``course serve`` prints for each SDK, from the paths its cassettes recorded."""

from __future__ import annotations

from course_cli._sdks import SdkBaseUrl, sdk_base_urls

ROOT = "http://127.0.0.1:8787"


def test_each_sdk_gets_the_root_with_the_path_its_calls_were_recorded_under() -> None:
    recorded = [
        "/v1/responses",
        "/openai/v1/chat/completions?trace=1",
        "/v1/chat/completions",
        "/v1/messages",
        "/v1/chat/completions",
    ]

    assert sdk_base_urls(ROOT, recorded) == [
        SdkBaseUrl("anthropic", ROOT, "ANTHROPIC_BASE_URL"),
        SdkBaseUrl("openai", f"{ROOT}/openai/v1", "OPENAI_BASE_URL"),
        SdkBaseUrl("openai", f"{ROOT}/v1", "OPENAI_BASE_URL"),
    ]


def test_a_path_no_sdk_calls_gives_no_base_url() -> None:
    assert sdk_base_urls(ROOT, ["/v1/chat", "/v1/messages/batches", "/", "/v1/models"]) == []
