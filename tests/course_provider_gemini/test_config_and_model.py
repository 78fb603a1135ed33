"""GeminiConfig, where GeminiModel sends a call, and where its key comes from.

The rules every vendor shares (each field's checks, the base-URL and API-key
rules, a replay without a key, a model refusing another configuration) are
tested over every registered wire in ``tests/course_vendor``; these are Gemini's own.
"""

from __future__ import annotations

import asyncio

import pytest

from course_http import VendorErrorCode
from course_http.loopback import LoopbackServer
from course_provider_gemini import (
    GEMINI_PLUGIN,
    STREAM_PATH,
    GeminiConfig,
    GeminiModel,
    describe_error,
)
from course_vendor import VendorConfigError, load_vendor, vendor_for_path
from tests.course_cassettes.replays import replay
from tests.course_provider_gemini.harness import WIRES
from tests.streams import GUARD_SECONDS

WIRE = WIRES["gemini"]
KEY = "AIza-test-0123456789SECRET"


def test_the_config_has_the_sdks_base_url_and_an_optional_output_limit() -> None:
    config = GeminiConfig("gemini-2.5-flash")

    assert (config.base_url, config.max_output_tokens) == (
        "https://generativelanguage.googleapis.com",
        None,
    )
    assert config.stream_url == (
        "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash"
        ":streamGenerateContent?alt=sse"
    )
    assert not GeminiConfig.OUTPUT_LIMIT_REQUIRED


@pytest.mark.parametrize("model", ["models/gemini-2.5-flash", "gemini 2", "a?b", "../x", "é"])
def test_a_model_name_that_is_not_one_path_segment_is_refused(model: str) -> None:
    with pytest.raises(VendorConfigError) as refused:
        GeminiConfig(model)

    assert refused.value.code.value == "VENDOR_INVALID_CONFIG"
    assert refused.value.path == "GeminiConfig.model"


def test_the_plugin_is_registered_as_gemini_and_claims_the_models_path() -> None:
    assert load_vendor("gemini") is GEMINI_PLUGIN
    assert GEMINI_PLUGIN.wire.path == STREAM_PATH
    assert (GEMINI_PLUGIN.sdk, GEMINI_PLUGIN.base_url_variable) == (
        "google-genai",
        "GOOGLE_GEMINI_BASE_URL",
    )
    assert vendor_for_path("/v1beta/models/gemini-2.5-flash:streamGenerateContent") is GEMINI_PLUGIN


async def test_a_live_call_sends_the_key_in_its_header_never_in_the_query() -> None:
    async with (
        asyncio.timeout(GUARD_SECONDS),
        LoopbackServer([WIRE.served("live")]) as server,
        GeminiModel(GeminiConfig("gemini-test", base_url=server.base_url), api_key=KEY) as model,
    ):
        outcome = await replay(model)

    assert outcome.error is None
    [sent] = server.requests
    assert sent.path == "/v1beta/models/gemini-test:streamGenerateContent?alt=sse"
    assert sent.header("x-goog-api-key") == KEY
    assert KEY not in sent.path


@pytest.mark.parametrize(
    ("google", "gemini", "sent"),
    [(KEY, None, KEY), (None, KEY, KEY), (KEY, "AIza-other-key-0123", KEY), ("", KEY, KEY)],
    ids=["google", "gemini", "google-first", "empty-google"],
)
async def test_the_key_is_read_from_google_api_key_then_gemini_api_key(
    monkeypatch: pytest.MonkeyPatch, google: str | None, gemini: str | None, sent: str
) -> None:
    for name, value in (("GOOGLE_API_KEY", google), ("GEMINI_API_KEY", gemini)):
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    async with (
        asyncio.timeout(GUARD_SECONDS),
        LoopbackServer([WIRE.served("live")]) as server,
        GeminiModel(GeminiConfig("gemini-test", base_url=server.base_url)) as model,
    ):
        outcome = await replay(model)

    assert outcome.error is None
    assert server.requests[0].header("x-goog-api-key") == sent


async def test_no_key_in_either_variable_fails_naming_both(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GOOGLE_API_KEY", raising=False)
    monkeypatch.delenv("GEMINI_API_KEY", raising=False)
    async with GeminiModel(GeminiConfig("gemini-test", base_url="http://127.0.0.1:9")) as model:
        outcome = await replay(model)

    assert outcome.error is not None
    assert outcome.error.code is VendorErrorCode.VENDOR_MISSING_API_KEY
    assert "GOOGLE_API_KEY or GEMINI_API_KEY" in outcome.error.message
    assert "GOOGLE_API_KEY or GEMINI_API_KEY at each call" in repr(model)


@pytest.mark.parametrize(
    ("body", "fields"),
    [
        (
            b'{"error": {"code": 429, "message": "Quota", "status": "RESOURCE_EXHAUSTED"}}',
            ("RESOURCE_EXHAUSTED", None, "Quota"),
        ),
        (b'{"error": {"code": 404, "message": "Not found"}}', (None, None, "Not found")),
        (b'{"error": {"message": 3}}', None),
        (b'{"error": {"message": "m", "status": " "}}', None),
        (b'{"error": "text"}', None),
        (b"[1]", None),
        (b"\xff", None),
        (b"", None),
    ],
)
def test_an_error_body_is_read_as_status_reason_and_message(
    body: bytes, fields: tuple[str | None, ...] | None
) -> None:
    described = describe_error(body)

    if fields is None:
        assert described is None
    else:
        assert described is not None
        assert (described.vendor_type, described.vendor_code, described.vendor_message) == fields
