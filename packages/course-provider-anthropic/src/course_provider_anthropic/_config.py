"""AnthropicConfig: the kit's `VendorConfig` with the Messages API's base URL and options."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import KW_ONLY, dataclass
from typing import ClassVar, Literal, final

from course_protocol.slots import slot_setter
from course_provider_anthropic import _wire
from course_provider_anthropic._options import MESSAGES_OPTIONS, checked_messages_options
from course_vendor import OptionSupport, VendorConfig

__all__ = ["AnthropicConfig"]


@final
@dataclass(frozen=True, slots=True)
class AnthropicConfig(VendorConfig):
    """The adapter's side of every Messages API request: ``course_vendor.VendorConfig``.

    The fields, their names and their checks are the kit's, the same for
    every vendor; this class adds what is the Messages API's own:

    - ``max_output_tokens`` is required (the API needs ``max_tokens``, which
      it is sent as): an ``int`` from 1 to 2**53 - 1, never ``None``;
    - ``system_prompt`` is sent as ``system``;
    - ``base_url`` defaults to ``https://api.anthropic.com``, spelled as the
      official SDK and ``ANTHROPIC_BASE_URL`` spell it: the endpoint path
      (``/v1/messages``) is joined after it;
    - ``temperature`` goes from 0 to 1; ``reasoning`` takes a
      ``ThinkingBudget`` (extended thinking: from 1024 to
      ``max_output_tokens - 1``, without ``temperature`` or ``top_k``,
      ``top_p`` only from 0.95, and ``tool_choice`` only ``auto`` or
      ``none``), never a ``ReasoningEffort``;
    - a strict Tool (``CourseToolSpec.strict``) is sent with ``strict:
      true``; ``response_format`` as ``output_config.format`` (its
      ``json_schema`` with the schema; the API's JSON outputs are always
      strict and have no name, and a ``description`` is refused).

    Its own options, keyword-only:

    - ``top_k``: an ``int`` of 1 or more, or ``None``;
    - prompt caching: ``cache_system`` (the system prompt),
      ``cache_tools`` (every Tool, marked on the last) and
      ``cache_messages`` (indexes into the request's messages, ``-1`` the
      last, as a growing conversation wants), at most 4 breakpoints in all;
      ``cache_ttl`` ``"5m"`` or ``"1h"`` for the vendor's default (5 minutes);
    - ``betas``: beta names sent in the ``anthropic-beta`` header;
    - ``server_tools``: the tools the vendor runs itself, each the JSON
      object the API takes (``{"type": "web_search_20250305", "name":
      "web_search", "max_uses": 3}``), sent as given after the Tools in
      ``tools`` (``extra_body`` cannot add to ``tools``, which the adapter
      writes); its ``type`` names a server tool (not ``custom``), its
      ``name`` is one no other tool has.

    Raises ``course_vendor.VendorConfigError`` ``VENDOR_INVALID_CONFIG`` for
    the first bad field, its message naming it
    (``AnthropicConfig.max_output_tokens must be ...``).
    """

    OUTPUT_LIMIT_REQUIRED: ClassVar[bool] = True
    OPTIONS: ClassVar[OptionSupport | None] = MESSAGES_OPTIONS

    max_output_tokens: int
    base_url: str = _wire.DEFAULT_BASE_URL
    _: KW_ONLY
    top_k: int | None = None
    cache_system: bool = False
    cache_tools: bool = False
    cache_messages: tuple[int, ...] = ()
    cache_ttl: Literal["5m", "1h"] | None = None
    betas: tuple[str, ...] = ()
    server_tools: tuple[Mapping[str, object], ...] = ()

    def _check_own_options(self) -> None:
        for field, value in checked_messages_options(self).items():
            _OWN_SETTERS[field](self, value)

    @property
    def messages_url(self) -> str:
        """The absolute URL of the Messages endpoint under ``base_url``."""
        return self.base_url + _wire.MESSAGES_PATH


_OWN_SETTERS = {
    name: slot_setter(AnthropicConfig, name) for name in ("cache_messages", "betas", "server_tools")
}
