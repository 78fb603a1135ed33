"""The common options' values and the checks every vendor shares, before any vendor's own.

A common option has one name on `VendorConfig` for every vendor; its value
is checked here the same way everywhere (type, the ranges no vendor
exceeds, how it fits the configured Tools). What a vendor sends, and the
narrower ranges of one vendor (Anthropic's temperature stops at 1), are the
vendor's `OptionSupport` (``_support.py``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum, unique
from typing import TYPE_CHECKING, TypeAlias, final

from course_protocol import MAX_TOKEN_COUNT, CourseResponseFormat, CourseToolSpec, is_blank
from course_protocol.untrusted import described_setting, sequence_snapshot, shown
from course_vendor._config_errors import config_error

if TYPE_CHECKING:
    from course_vendor._config import VendorConfig

__all__ = [
    "COMMON_OPTIONS",
    "NamedTool",
    "Reasoning",
    "ReasoningEffort",
    "ThinkingBudget",
    "ToolChoice",
    "ToolChoiceValue",
    "checked_common_options",
]

COMMON_OPTIONS = (
    "temperature",
    "top_p",
    "stop_sequences",
    "tool_choice",
    "parallel_tool_calls",
    "user_id",
    "reasoning",
    "response_format",
)
"""The `VendorConfig` fields every vendor either sends or refuses at construction, in order."""


@unique
class ToolChoice(StrEnum):
    """Whether the model may, must or must not call a configured Tool; `NamedTool` for one."""

    AUTO = "auto"
    """The model decides whether to call a Tool (the vendors' default when Tools are sent)."""

    NONE = "none"
    """The model answers with text and calls no Tool (the Tools are still sent)."""

    REQUIRED = "required"
    """The model calls at least one Tool (Anthropic calls this ``any``)."""


@final
@dataclass(frozen=True, slots=True)
class NamedTool:
    """The model calls this one Tool, ``name``, which must be among the configured Tools."""

    name: str


ToolChoiceValue: TypeAlias = ToolChoice | NamedTool
"""What ``VendorConfig.tool_choice`` holds: a `ToolChoice` or a `NamedTool`."""


@unique
class ReasoningEffort(StrEnum):
    """How hard a reasoning model thinks before it answers, as OpenAI's models take it."""

    NONE = "none"
    """No reasoning, on the models that allow it."""

    MINIMAL = "minimal"
    """As little reasoning as the model does."""

    LOW = "low"
    """Little reasoning: faster and cheaper answers."""

    MEDIUM = "medium"
    """The models' default."""

    HIGH = "high"
    """More reasoning: slower, more thorough answers."""

    XHIGH = "xhigh"
    """The most reasoning, on the models that allow it."""


@final
@dataclass(frozen=True, slots=True)
class ThinkingBudget:
    """At most ``tokens`` of thinking before the answer, as Anthropic's extended thinking takes it.

    ``tokens`` is an ``int`` from 1 to 2**53 - 1 here; a vendor may need
    more (Anthropic: at least 1024, and fewer than ``max_output_tokens``).
    """

    tokens: int


Reasoning: TypeAlias = ReasoningEffort | ThinkingBudget
"""What ``VendorConfig.reasoning`` holds: an effort level or a thinking budget."""

_USER_ID_MAX = 256


def checked_common_options(config: VendorConfig, name: str) -> dict[str, object]:
    """The common options of ``config`` checked, the same for all vendors, and normalized.

    Returns each option's value as the configuration keeps it (a ``float``
    temperature, a tuple of stop sequences, a `ToolChoice` for its string).
    Raises `VendorConfigError` ``VENDOR_INVALID_CONFIG`` naming the first bad
    field (``<name>.<field>``).
    """
    temperature = _number(config.temperature, f"{name}.temperature", 0.0, None)
    top_p = _number(config.top_p, f"{name}.top_p", 0.0, 1.0)
    stops = _stops(config.stop_sequences, f"{name}.stop_sequences")
    tool_choice = _tool_choice(config, f"{name}.tool_choice")
    _check_parallel(config, tool_choice, f"{name}.parallel_tool_calls")
    user_id = config.user_id
    if user_id is not None and (
        type(user_id) is not str or is_blank(user_id) or len(user_id) > _USER_ID_MAX
    ):
        raise config_error(
            f"{name}.user_id",
            f"must be a non-blank str of at most {_USER_ID_MAX} characters or None, "
            # An end user's id is theirs: its length is said, never its text.
            f"got {described_setting(user_id, private=True)}",
        )
    return {
        "temperature": temperature,
        "top_p": top_p,
        "stop_sequences": stops,
        "tool_choice": tool_choice,
        "parallel_tool_calls": config.parallel_tool_calls,
        "user_id": user_id,
        "reasoning": _reasoning(config.reasoning, f"{name}.reasoning"),
        "response_format": _response_format(config.response_format, f"{name}.response_format"),
    }


def _response_format(value: object, path: str) -> CourseResponseFormat | None:
    if value is not None and type(value) is not CourseResponseFormat:
        raise config_error(
            path, f"must be a CourseResponseFormat or None, got {described_setting(value)}"
        )
    return value


def _number(value: object, path: str, low: float, high: float | None) -> float | None:
    if value is None:
        return None
    span = f"from {low:g} to {high:g}" if high is not None else f"of {low:g} or more"
    wanted = f"must be a finite number {span} or None, got {described_setting(value)}"
    if type(value) not in (int, float):
        raise config_error(path, wanted)
    try:
        number = float(value)  # type: ignore[arg-type]
    except OverflowError:
        # An int past a float's range (10**400) is out of every range too.
        raise config_error(
            path, f"must be a number {span}, got {described_setting(value)}"
        ) from None
    if not math.isfinite(number):
        raise config_error(path, wanted)
    if number < low or (high is not None and number > high):
        raise config_error(path, f"must be a number {span}, got {number:g}")
    return number


def _stops(value: object, path: str) -> tuple[str, ...]:
    items = sequence_snapshot(value)
    if items is None:
        raise config_error(path, f"must be a tuple or list of str, got {described_setting(value)}")
    for position, item in enumerate(items):
        if type(item) is not str or is_blank(item):
            raise config_error(
                f"{path}[{position}]", f"must be a non-blank str, got {described_setting(item)}"
            )
    if len(set(items)) != len(items):
        raise config_error(path, "repeats a stop sequence")
    return tuple(items)  # type: ignore[arg-type]


def _tool_choice(config: VendorConfig, path: str) -> ToolChoiceValue | None:
    value: object = config.tool_choice
    if value is None:
        return None
    if type(value) is str and value in ToolChoice.__members__.values():
        value = ToolChoice(value)
    if type(value) is not ToolChoice and type(value) is not NamedTool:
        choices = ", ".join(repr(choice.value) for choice in ToolChoice)
        raise config_error(
            path,
            f"must be a ToolChoice ({choices}), a NamedTool or None, "
            f"got {described_setting(value)}",
        )
    if not config.tools:
        raise config_error(path, "needs Tools: configure tools, or leave tool_choice None")
    if type(value) is NamedTool:
        names = [tool.name for tool in config.tools if type(tool) is CourseToolSpec]
        if type(value.name) is not str or value.name not in names:
            raise config_error(
                f"{path}.name",
                f"must name a configured Tool ({', '.join(repr(shown(n)) for n in names)}), "
                f"got {described_setting(value.name)}",
            )
    return value


def _check_parallel(config: VendorConfig, tool_choice: ToolChoiceValue | None, path: str) -> None:
    value = config.parallel_tool_calls
    if value is None:
        return
    if type(value) is not bool:
        raise config_error(path, f"must be a bool or None, got {described_setting(value)}")
    if not config.tools:
        raise config_error(path, "needs Tools: configure tools, or leave it None")
    if tool_choice is ToolChoice.NONE:
        raise config_error(path, "means nothing with tool_choice 'none': leave it None")


def _reasoning(value: object, path: str) -> Reasoning | None:
    if type(value) is str and value in ReasoningEffort.__members__.values():
        return ReasoningEffort(value)
    if value is None or type(value) is ReasoningEffort:
        return value
    if type(value) is not ThinkingBudget:
        raise config_error(
            path,
            f"must be a ReasoningEffort, a ThinkingBudget or None, got {described_setting(value)}",
        )
    tokens = value.tokens
    if type(tokens) is not int or not 1 <= tokens <= MAX_TOKEN_COUNT:
        raise config_error(
            f"{path}.tokens",
            f"must be an int from 1 to 2**53 - 1, got {described_setting(tokens)}",
        )
    return value
