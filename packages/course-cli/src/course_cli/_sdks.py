"""The base URL each vendor's official SDK takes to reach ``course serve``.

An SDK joins its endpoint paths to its base URL, spelled as its environment
variable spells it: ``ANTHROPIC_BASE_URL`` is the host (the path is
``/v1/messages``), ``OPENAI_BASE_URL`` ends with the version
(``https://api.openai.com/v1``; the paths are ``/chat/completions`` and
``/responses``). The adapters take their base URLs the same way. A cassette
keeps the full path each call went to, so what comes before an SDK's
endpoint path is the path its base URL had when the call was recorded
(``/v1``, or ``/openai/v1`` for a compatible vendor), and the server answers
an SDK whose base URL is the server's with that path.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from course_provider_anthropic import AnthropicConfig
from course_provider_openai import CHAT_COMPLETIONS_PATH, RESPONSES_PATH

__all__ = ["SdkBaseUrl", "sdk_base_urls"]


@dataclass(frozen=True, slots=True)
class _Sdk:
    name: str
    variable: str
    endpoints: tuple[str, ...]


def _messages_endpoint() -> str:
    config = AnthropicConfig("any", 1)
    return config.messages_url.removeprefix(config.base_url.rstrip("/"))


_SDKS = (
    _Sdk("anthropic", "ANTHROPIC_BASE_URL", (_messages_endpoint(),)),
    _Sdk("openai", "OPENAI_BASE_URL", (CHAT_COMPLETIONS_PATH, RESPONSES_PATH)),
)


@dataclass(frozen=True, slots=True)
class SdkBaseUrl:
    """What one SDK is pointed at: its name, the base URL, and the variable that holds it."""

    sdk: str
    url: str
    variable: str


def sdk_base_urls(root: str, recorded_paths: Iterable[str]) -> list[SdkBaseUrl]:
    """For each SDK whose endpoints the ``recorded_paths`` call, its base URL under ``root``.

    In the order of the SDKs (Anthropic's first), then of the URLs; one entry
    per SDK and path prefix. A recorded path no SDK calls gives none.
    """
    found: set[tuple[int, str]] = set()
    for recorded in recorded_paths:
        path = recorded.partition("?")[0]
        for position, sdk in enumerate(_SDKS):
            for endpoint in sdk.endpoints:
                if path.endswith(endpoint):
                    found.add((position, path.removesuffix(endpoint)))
    return [
        SdkBaseUrl(_SDKS[position].name, root + prefix, _SDKS[position].variable)
        for position, prefix in sorted(found)
    ]
