"""The base URL ``course serve`` prints for each SDK, from the paths its cassettes recorded."""

from __future__ import annotations

from course_cli._sdks import SdkBaseUrl, sdk_base_urls, upstream_sdk_base_urls
from course_vendor import load_vendor, vendor_names

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


def test_a_recording_proxy_names_the_sdks_of_its_upstream_as_each_spells_its_base_url() -> None:
    assert upstream_sdk_base_urls("https://api.anthropic.com") == [
        SdkBaseUrl("anthropic", "", "ANTHROPIC_BASE_URL")
    ]
    # The proxy adds each path to the upstream: a /v1 the upstream has is not asked again.
    assert upstream_sdk_base_urls("https://api.openai.com") == [
        SdkBaseUrl("openai", "/v1", "OPENAI_BASE_URL")
    ]
    assert upstream_sdk_base_urls("https://API.openai.com/v1/") == [
        SdkBaseUrl("openai", "", "OPENAI_BASE_URL")
    ]


def test_a_recording_proxy_of_another_host_names_every_installed_sdk() -> None:
    every = upstream_sdk_base_urls("http://127.0.0.1:8080/openai")
    plugins = [load_vendor(name) for name in vendor_names()]
    assert {sdk.sdk for sdk in every} == {plugin.sdk for plugin in plugins}
    assert SdkBaseUrl("openai", "/v1", "OPENAI_BASE_URL") in every
    assert SdkBaseUrl("anthropic", "", "ANTHROPIC_BASE_URL") in every
    assert every == sorted(every, key=lambda sdk: (sdk.sdk, sdk.url))
