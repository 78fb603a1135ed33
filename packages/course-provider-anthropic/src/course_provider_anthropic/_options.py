"""The options of a Messages API request: what is sent, what is refused, and their JSON.

`MESSAGES_OPTIONS` is the wire's declaration (every common option but a
`ReasoningEffort`, and this vendor's own: ``top_k``, prompt caching, beta
headers); `check_messages_options` holds the rules the API documents
between options (extended thinking); `option_entries` and the cache helpers
write the JSON.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from course_protocol import is_blank
from course_protocol.untrusted import described_setting, sequence_snapshot
from course_provider_anthropic import _wire
from course_vendor import (
    COMMON_OPTIONS,
    NamedTool,
    OptionSupport,
    ThinkingBudget,
    ToolChoice,
    config_error,
)

if TYPE_CHECKING:
    from course_provider_anthropic._config import AnthropicConfig

__all__ = [
    "MESSAGES_OPTIONS",
    "cache_control",
    "checked_messages_options",
    "option_entries",
]

_OWN_OPTIONS = ("top_k", "cache_system", "cache_tools", "cache_messages", "cache_ttl", "betas")

MESSAGES_OPTIONS = OptionSupport(
    vendor=_wire.WIRE,
    sends=frozenset(COMMON_OPTIONS + _OWN_OPTIONS) - {"response_format"},
    temperature_max=1.0,
    reasoning=frozenset({ThinkingBudget}),
    body_keys=frozenset(
        {
            _wire.MODEL_KEY,
            _wire.MAX_TOKENS_KEY,
            _wire.SYSTEM_KEY,
            _wire.MESSAGES_KEY,
            _wire.TOOLS_KEY,
            _wire.STREAM_KEY,
            _wire.TEMPERATURE_KEY,
            _wire.TOP_P_KEY,
            _wire.TOP_K_KEY,
            _wire.STOP_SEQUENCES_KEY,
            _wire.TOOL_CHOICE_KEY,
            _wire.METADATA_KEY,
            _wire.THINKING_KEY,
        }
    ),
    header_names=frozenset({_wire.API_VERSION_HEADER, _wire.BETA_HEADER}),
)
"""What the Messages API sends of a configuration (temperature from 0 to 1)."""

_CHOICES = {
    ToolChoice.AUTO: _wire.CHOICE_AUTO,
    ToolChoice.NONE: _wire.CHOICE_NONE,
    ToolChoice.REQUIRED: _wire.CHOICE_ANY,
}
_MIN_THINKING = 1024
_MIN_THINKING_TOP_P = 0.95
_MAX_BREAKPOINTS = 4
_TTLS = ("5m", "1h")
_TOKEN = frozenset("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")


def checked_messages_options(config: AnthropicConfig) -> dict[str, tuple[object, ...]]:
    """Check the options only this vendor has, and the rules the API sets between options.

    Returns ``cache_messages`` and ``betas`` as the configuration keeps
    them (tuples). Raises ``course_vendor.VendorConfigError`` ``VENDOR_INVALID_CONFIG``
    naming the first refused field.
    """
    name = type(config).__name__
    top_k = config.top_k
    if top_k is not None and (type(top_k) is not int or top_k < 1):
        raise config_error(
            f"{name}.top_k", f"must be an int of 1 or more or None, got {described_setting(top_k)}"
        )
    cached = _checked_cache(config, name)
    betas = _betas(config.betas, f"{name}.betas")
    if type(config.reasoning) is ThinkingBudget:
        _check_thinking(config, config.reasoning.tokens, name)
    return {"cache_messages": cached, "betas": betas}


def _checked_cache(config: AnthropicConfig, name: str) -> tuple[int, ...]:
    for flag in ("cache_system", "cache_tools"):
        if type(getattr(config, flag)) is not bool:
            raise config_error(
                f"{name}.{flag}", f"must be a bool, got {described_setting(getattr(config, flag))}"
            )
    if config.cache_system and config.system_prompt is None:
        raise config_error(f"{name}.cache_system", "needs a system_prompt to cache")
    if config.cache_tools and not config.tools:
        raise config_error(f"{name}.cache_tools", "needs tools to cache")
    value: object = config.cache_messages
    items = sequence_snapshot(value)
    path = f"{name}.cache_messages"
    if items is None:
        raise config_error(
            path, f"must be a tuple of int message indexes, got {described_setting(value)}"
        )
    for position, item in enumerate(items):
        if type(item) is not int:
            raise config_error(
                f"{path}[{position}]",
                f"must be an int message index, got {described_setting(item)}",
            )
    if len(set(items)) != len(items):
        raise config_error(path, "repeats a message index")
    breakpoints = config.cache_system + config.cache_tools + len(items)
    if breakpoints > _MAX_BREAKPOINTS:
        raise config_error(
            path, f"makes {breakpoints} cache breakpoints; the API takes at most {_MAX_BREAKPOINTS}"
        )
    ttl: object = config.cache_ttl
    if ttl is not None:
        if type(ttl) is not str or ttl not in _TTLS:
            raise config_error(
                f"{name}.cache_ttl", f"must be '5m', '1h' or None, got {described_setting(ttl)}"
            )
        if not breakpoints:
            raise config_error(f"{name}.cache_ttl", "needs something to cache")
    return tuple(items)  # type: ignore[arg-type]


def _betas(value: object, path: str) -> tuple[str, ...]:
    items = sequence_snapshot(value)
    if items is None:
        raise config_error(path, f"must be a tuple or list of str, got {described_setting(value)}")
    for position, item in enumerate(items):
        if type(item) is not str or is_blank(item) or not set(item) <= _TOKEN - {","}:
            raise config_error(
                f"{path}[{position}]", "must be a beta name (an HTTP token without a comma)"
            )
    if len(set(items)) != len(items):
        raise config_error(path, "repeats a beta name")
    return tuple(items)  # type: ignore[arg-type]


def _check_thinking(config: AnthropicConfig, tokens: int, name: str) -> None:
    path = f"{name}.reasoning"
    if not _MIN_THINKING <= tokens < config.max_output_tokens:
        raise config_error(
            f"{path}.tokens",
            f"must be from {_MIN_THINKING} to max_output_tokens - 1 "
            f"({config.max_output_tokens - 1}), got {tokens}",
        )
    if config.tools:
        # The API wants each thinking block back with the Tool calls of its
        # turn; a course transcript cannot carry thinking, so a Tool loop
        # would be refused at its second call.
        raise config_error(path, "with tools is not supported: thinking cannot be sent back")
    for refused in ("temperature", "top_k"):
        if getattr(config, refused) is not None:
            raise config_error(f"{name}.{refused}", "cannot be set with extended thinking")
    if config.top_p is not None and config.top_p < _MIN_THINKING_TOP_P:
        raise config_error(
            f"{name}.top_p", f"must be from {_MIN_THINKING_TOP_P} to 1 with extended thinking"
        )


def cache_control(config: AnthropicConfig) -> dict[str, str]:
    """The ``cache_control`` of every breakpoint: ``ephemeral``, with the ``ttl`` when set."""
    control = {_wire.TYPE_KEY: _wire.EPHEMERAL}
    if config.cache_ttl is not None:
        control[_wire.TTL_KEY] = config.cache_ttl
    return control


def option_entries(config: AnthropicConfig) -> dict[str, Any]:
    """The body entries of the options set in ``config``, in the order they are sent."""
    entries: dict[str, Any] = {}
    if config.temperature is not None:
        entries[_wire.TEMPERATURE_KEY] = config.temperature
    if config.top_p is not None:
        entries[_wire.TOP_P_KEY] = config.top_p
    if config.top_k is not None:
        entries[_wire.TOP_K_KEY] = config.top_k
    if config.stop_sequences:
        entries[_wire.STOP_SEQUENCES_KEY] = list(config.stop_sequences)
    choice = _tool_choice(config)
    if choice is not None:
        entries[_wire.TOOL_CHOICE_KEY] = choice
    if config.user_id is not None:
        entries[_wire.METADATA_KEY] = {_wire.USER_ID_KEY: config.user_id}
    if type(config.reasoning) is ThinkingBudget:
        entries[_wire.THINKING_KEY] = {
            _wire.TYPE_KEY: _wire.ENABLED,
            _wire.BUDGET_TOKENS_KEY: config.reasoning.tokens,
        }
    return entries


def _tool_choice(config: AnthropicConfig) -> dict[str, Any] | None:
    value = config.tool_choice
    if value is None and config.parallel_tool_calls is None:
        return None
    if type(value) is NamedTool:
        choice: dict[str, Any] = {_wire.TYPE_KEY: _wire.CHOICE_TOOL, _wire.NAME_KEY: value.name}
    else:
        choice = {_wire.TYPE_KEY: _CHOICES[ToolChoice(value or ToolChoice.AUTO)]}
    if config.parallel_tool_calls is not None:
        choice[_wire.DISABLE_PARALLEL_TOOL_USE_KEY] = not config.parallel_tool_calls
    return choice
