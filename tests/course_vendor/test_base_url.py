"""One base-URL rule for every vendor, each vendor's default, and its paths joined after it.

The tables run over the configuration class of every registered wire
(`every_config`): the same URLs are accepted (a trailing ``/`` dropped, so
the endpoint paths join after it) and refused with `VendorConfigError`
``VENDOR_INVALID_CONFIG`` naming ``<Config>.base_url``. Every registered wire
(`every_wire`) defaults to the base URL its plug-in registers and sends its
calls to its endpoint under the base URL's path. How each vendor spells its
default (as its SDK does) is tested in the vendor's own folder.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from course_http import LiveTransport, RecordedTransport
from course_http.loopback import LoopbackServer
from course_vendor import VendorConfig, VendorConfigError, VendorConfigErrorCode, load_vendor
from tests.course_cassettes.replays import replay
from tests.course_vendor.wires import KEY, Wire, every_config, every_wire
from tests.streams import GUARD_SECONDS


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
        (None, "must be a str, got None"),
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
        ("https://api.example.com?x=1", "must not have a query or a fragment"),
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


@every_wire
def test_each_wire_defaults_to_the_base_url_its_plugin_registers(wire: Wire) -> None:
    plugin = load_vendor(wire.name)
    config = wire.model(transport=RecordedTransport([])).config

    assert config.base_url == plugin.base_url == wire.base_url
    assert plugin.wire.request_path(config.model) == wire.path


PREFIXES = ["/v1", "/openai/v1", "/api/v1/", ""]


@every_wire
async def test_a_live_call_goes_to_the_endpoint_under_the_base_urls_path(wire: Wire) -> None:
    async with (
        asyncio.timeout(GUARD_SECONDS),
        LoopbackServer([wire.served("ok") for _ in PREFIXES]) as server,
    ):
        for prefix in PREFIXES:
            async with wire.model(api_key=KEY, base_url=server.base_url + prefix) as model:
                played = await replay(model)
            assert played.error is None, prefix

    assert [request.path for request in server.requests] == [
        prefix.rstrip("/") + wire.path for prefix in PREFIXES
    ]
