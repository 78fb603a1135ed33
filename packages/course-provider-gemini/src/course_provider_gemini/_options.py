"""The options of a Gemini API request: what is sent, what is refused, and their JSON.

`GEMINI_OPTIONS` is the wire's declaration: every common option but
``parallel_tool_calls`` (the API has no switch for it) and ``user_id`` (no
field for it), and this vendor's own, ``top_k`` and ``seed``;
`checked_gemini_options` holds the ranges the API documents;
`generation_entries` and `tool_config` write the JSON.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from course_protocol.untrusted import described_setting
from course_provider_gemini import _wire
from course_vendor import (
    COMMON_OPTIONS,
    NamedTool,
    OptionSupport,
    ReasoningEffort,
    ThinkingBudget,
    ToolChoice,
    config_error,
)

if TYPE_CHECKING:
    from course_provider_gemini._config import GeminiConfig

__all__ = ["GEMINI_OPTIONS", "checked_gemini_options", "generation_entries", "tool_config"]

_REFUSED = ("parallel_tool_calls", "user_id", "response_format")
_OWN_OPTIONS = ("top_k", "seed")

GEMINI_OPTIONS: Final = OptionSupport(
    vendor=_wire.WIRE,
    sends=frozenset(COMMON_OPTIONS + _OWN_OPTIONS) - frozenset(_REFUSED),
    temperature_max=2.0,
    stop_sequences_max=5,
    reasoning=frozenset({ReasoningEffort, ThinkingBudget}),
    body_keys=frozenset(
        {
            _wire.CONTENTS_KEY,
            _wire.SYSTEM_INSTRUCTION_KEY,
            _wire.TOOLS_KEY,
            _wire.TOOL_CONFIG_KEY,
            # Refused whole: an entry of it would have to be merged with the
            # adapter's own, and a merge is where a typo goes unnoticed.
            _wire.GENERATION_CONFIG_KEY,
            # The API's JSON mapping reads a field's protobuf name as well: the
            # other spelling of a key above is that same key.
            *_wire.PROTO_SPELLINGS,
        }
    ),
)
"""What the Gemini API sends of a configuration (temperature from 0 to 2, 5 stop sequences)."""

_INT32_MAX = 2**31 - 1
_INT32_MIN = -(2**31)
_CHOICES = {
    ToolChoice.AUTO: _wire.MODE_AUTO,
    ToolChoice.NONE: _wire.MODE_NONE,
    ToolChoice.REQUIRED: _wire.MODE_ANY,
}
_LEVELS = {level: level.value for level in ReasoningEffort if level.value in _wire.THINKING_LEVELS}


def _int_or_none(value: object, path: str, low: int, what: str) -> None:
    if value is not None and (type(value) is not int or not low <= value <= _INT32_MAX):
        raise config_error(path, f"must be an int {what} or None, got {described_setting(value)}")


def checked_gemini_options(config: GeminiConfig) -> None:
    """Check the options only this vendor has, and the ranges the API documents.

    ``top_k`` is an ``int`` from 1 to 2**31 - 1, ``seed`` one from -2**31 to
    2**31 - 1 (the API's int32); a ``ThinkingBudget`` holds at most 2**31 - 1
    tokens; a ``ReasoningEffort`` is one of the levels the Gemini 3 models
    take (``minimal``, ``low``, ``medium``, ``high``). Raises
    ``course_vendor.VendorConfigError`` ``VENDOR_INVALID_CONFIG`` naming the
    first refused field.
    """
    name = type(config).__name__
    _int_or_none(config.top_k, f"{name}.top_k", 1, "from 1 to 2**31 - 1")
    _int_or_none(config.seed, f"{name}.seed", _INT32_MIN, "from -2**31 to 2**31 - 1")
    reasoning = config.reasoning
    if type(reasoning) is ThinkingBudget and reasoning.tokens > _INT32_MAX:
        raise config_error(
            f"{name}.reasoning.tokens",
            f"must be at most 2**31 - 1 for {_wire.WIRE}, "
            f"got {described_setting(reasoning.tokens)}",
        )
    if type(reasoning) is ReasoningEffort and reasoning not in _LEVELS:
        levels = ", ".join(repr(level) for level in _wire.THINKING_LEVELS)
        raise config_error(
            f"{name}.reasoning",
            f"is {reasoning.value!r}, which {_wire.WIRE} has no thinking level for "
            f"(it takes {levels})",
        )


def generation_entries(config: GeminiConfig) -> dict[str, Any]:
    """The ``generationConfig`` entries of ``config``, in the order they are sent."""
    entries: dict[str, Any] = {}
    if config.max_output_tokens is not None:
        entries[_wire.MAX_OUTPUT_TOKENS_KEY] = config.max_output_tokens
    if config.temperature is not None:
        entries[_wire.TEMPERATURE_KEY] = config.temperature
    if config.top_p is not None:
        entries[_wire.TOP_P_KEY] = config.top_p
    if config.top_k is not None:
        entries[_wire.TOP_K_KEY] = config.top_k
    if config.seed is not None:
        entries[_wire.SEED_KEY] = config.seed
    if config.stop_sequences:
        entries[_wire.STOP_SEQUENCES_KEY] = list(config.stop_sequences)
    reasoning = config.reasoning
    if type(reasoning) is ThinkingBudget:
        entries[_wire.THINKING_CONFIG_KEY] = {_wire.THINKING_BUDGET_KEY: reasoning.tokens}
    elif type(reasoning) is ReasoningEffort:
        entries[_wire.THINKING_CONFIG_KEY] = {_wire.THINKING_LEVEL_KEY: _LEVELS[reasoning]}
    return entries


def tool_config(config: GeminiConfig) -> dict[str, Any] | None:
    """The ``toolConfig`` of ``config.tool_choice``, or ``None`` when it is not set."""
    choice = config.tool_choice
    if choice is None:
        return None
    calling: dict[str, Any]
    if type(choice) is NamedTool:
        calling = {_wire.MODE_KEY: _wire.MODE_ANY, _wire.ALLOWED_FUNCTION_NAMES_KEY: [choice.name]}
    else:
        calling = {_wire.MODE_KEY: _CHOICES[ToolChoice(choice)]}
    return {_wire.FUNCTION_CALLING_CONFIG_KEY: calling}
