"""The options of both OpenAI APIs: their spellings, what each API sends, and their JSON.

Chat Completions and the Responses API take mostly the same options under
the same names; where they differ (Chat's ``stop`` and ``seed``, which the
Responses API does not take; ``reasoning_effort`` against
``reasoning.effort``; a named Tool's shape) each has its own line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from course_protocol import is_blank
from course_protocol.untrusted import described_setting
from course_provider_openai import _chat_wire, _responses_wire
from course_vendor import (
    COMMON_OPTIONS,
    NamedTool,
    OptionSupport,
    ReasoningEffort,
    ToolChoice,
    config_error,
)

if TYPE_CHECKING:
    from course_provider_openai._config import OpenAIConfig

__all__ = [
    "CHAT_OPTIONS",
    "OPENAI_OPTIONS",
    "RESPONSES_OPTIONS",
    "chat_option_entries",
    "check_openai_options",
    "responses_option_entries",
]

TEMPERATURE: Final = "temperature"
TOP_P: Final = "top_p"
STOP: Final = "stop"
TOOL_CHOICE: Final = "tool_choice"
PARALLEL_TOOL_CALLS: Final = "parallel_tool_calls"
SAFETY_IDENTIFIER: Final = "safety_identifier"
REASONING_EFFORT: Final = "reasoning_effort"
REASONING: Final = "reasoning"
EFFORT: Final = "effort"
PROMPT_CACHE_KEY: Final = "prompt_cache_key"
SERVICE_TIER: Final = "service_tier"
STORE: Final = "store"
SEED: Final = "seed"
FUNCTION: Final = "function"
TYPE: Final = "type"
NAME: Final = "name"

_TEMPERATURE_MAX = 2.0
_CHAT_STOP_MAX = 4
_SHARED_OWN = ("prompt_cache_key", "service_tier", "store")

_CHAT_BODY = frozenset(
    {
        _chat_wire.MODEL_KEY,
        _chat_wire.MESSAGES_KEY,
        _chat_wire.TOOLS_KEY,
        _chat_wire.MAX_COMPLETION_TOKENS_KEY,
        _chat_wire.STREAM_KEY,
        _chat_wire.STREAM_OPTIONS_KEY,
        TEMPERATURE,
        TOP_P,
        STOP,
        TOOL_CHOICE,
        PARALLEL_TOOL_CALLS,
        SAFETY_IDENTIFIER,
        REASONING_EFFORT,
        PROMPT_CACHE_KEY,
        SERVICE_TIER,
        STORE,
        SEED,
    }
)
_RESPONSES_BODY = frozenset(
    {
        _responses_wire.MODEL_KEY,
        _responses_wire.INSTRUCTIONS_KEY,
        _responses_wire.INPUT_KEY,
        _responses_wire.TOOLS_KEY,
        _responses_wire.MAX_OUTPUT_TOKENS_KEY,
        _responses_wire.STORE_KEY,
        _responses_wire.STREAM_KEY,
        TEMPERATURE,
        TOP_P,
        TOOL_CHOICE,
        PARALLEL_TOOL_CALLS,
        SAFETY_IDENTIFIER,
        REASONING,
        PROMPT_CACHE_KEY,
        SERVICE_TIER,
    }
)

CHAT_OPTIONS = OptionSupport(
    vendor=_chat_wire.WIRE,
    sends=frozenset((*COMMON_OPTIONS, *_SHARED_OWN, "seed")) - {"response_format"},
    temperature_max=_TEMPERATURE_MAX,
    stop_sequences_max=_CHAT_STOP_MAX,
    reasoning=frozenset({ReasoningEffort}),
    body_keys=_CHAT_BODY,
)
"""What Chat Completions sends: every common option (a `ReasoningEffort`, up to 4 stop
sequences) and ``prompt_cache_key``, ``service_tier``, ``store``, ``seed``."""

RESPONSES_OPTIONS = OptionSupport(
    vendor=_responses_wire.WIRE,
    sends=frozenset(set(COMMON_OPTIONS) - {"stop_sequences", "response_format"} | set(_SHARED_OWN)),
    temperature_max=_TEMPERATURE_MAX,
    reasoning=frozenset({ReasoningEffort}),
    body_keys=_RESPONSES_BODY,
)
"""What the Responses API sends: no stop sequences and no ``seed`` (it takes neither)."""

OPENAI_OPTIONS = OptionSupport(
    vendor="OpenAI",
    sends=CHAT_OPTIONS.sends | RESPONSES_OPTIONS.sends,
    temperature_max=_TEMPERATURE_MAX,
    stop_sequences_max=_CHAT_STOP_MAX,
    reasoning=frozenset({ReasoningEffort}),
    body_keys=_CHAT_BODY | _RESPONSES_BODY,
)
"""What either API sends, checked by every `OpenAIConfig`; each model checks its own API's."""

_CHOICES = {
    ToolChoice.AUTO: "auto",
    ToolChoice.NONE: "none",
    ToolChoice.REQUIRED: "required",
}


def check_openai_options(config: OpenAIConfig) -> None:
    """Check the options only OpenAI has; raises ``VendorConfigError`` naming the field."""
    name = type(config).__name__
    for field in ("prompt_cache_key", "service_tier"):
        value = getattr(config, field)
        if value is not None and (type(value) is not str or is_blank(value)):
            raise config_error(
                f"{name}.{field}",
                f"must be a non-blank str or None, got {described_setting(value)}",
            )
    if config.store is not None and type(config.store) is not bool:
        raise config_error(
            f"{name}.store", f"must be a bool or None, got {described_setting(config.store)}"
        )
    seed = config.seed
    if seed is not None and (type(seed) is not int or not -(2**63) <= seed < 2**63):
        raise config_error(f"{name}.seed", "must be a 64-bit signed int or None")


def _shared(config: OpenAIConfig, entries: dict[str, object]) -> None:
    if config.temperature is not None:
        entries[TEMPERATURE] = config.temperature
    if config.top_p is not None:
        entries[TOP_P] = config.top_p


def _tail(config: OpenAIConfig, entries: dict[str, object]) -> None:
    if config.parallel_tool_calls is not None:
        entries[PARALLEL_TOOL_CALLS] = config.parallel_tool_calls
    if config.user_id is not None:
        entries[SAFETY_IDENTIFIER] = config.user_id
    if config.prompt_cache_key is not None:
        entries[PROMPT_CACHE_KEY] = config.prompt_cache_key
    if config.service_tier is not None:
        entries[SERVICE_TIER] = config.service_tier


def _choice(config: OpenAIConfig, named: bool) -> object:
    value = config.tool_choice
    if type(value) is NamedTool:
        if named:
            return {TYPE: FUNCTION, FUNCTION: {NAME: value.name}}
        return {TYPE: FUNCTION, NAME: value.name}
    return _CHOICES[ToolChoice(value or ToolChoice.AUTO)]


def chat_option_entries(config: OpenAIConfig) -> dict[str, object]:
    """The Chat Completions body entries of the options set in ``config``, in order."""
    entries: dict[str, object] = {}
    _shared(config, entries)
    if config.stop_sequences:
        entries[STOP] = list(config.stop_sequences)
    if config.seed is not None:
        entries[SEED] = config.seed
    if config.tool_choice is not None:
        entries[TOOL_CHOICE] = _choice(config, named=True)
    _tail(config, entries)
    if config.reasoning is not None:
        entries[REASONING_EFFORT] = str(config.reasoning)
    if config.store is not None:
        entries[STORE] = config.store
    return entries


def responses_option_entries(config: OpenAIConfig) -> dict[str, object]:
    """The Responses API body entries of the options set in ``config``, in order.

    ``store`` is not among them: the body always sends it (``false`` unless
    ``config.store`` says otherwise).
    """
    entries: dict[str, object] = {}
    _shared(config, entries)
    if config.tool_choice is not None:
        entries[TOOL_CHOICE] = _choice(config, named=False)
    _tail(config, entries)
    if config.reasoning is not None:
        entries[REASONING] = {EFFORT: str(config.reasoning)}
    return entries
