"""VendorConfig: the fields every vendor's configuration has, one name each, checked once.

A vendor package subclasses it (``AnthropicConfig``, ``OpenAIConfig``) with
its default base URL and only the fields that are its own; everything the
base declares is checked here, in ``__post_init__``, the same way for every
vendor. Configuration belongs to the adapter, never to the course request,
and never holds the API key: the model holds that, so a configuration can be
printed, compared and logged freely.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import KW_ONLY, dataclass
from typing import Any, ClassVar, Literal

from course_http import Timeouts
from course_protocol import MAX_TOKEN_COUNT, CourseResponseFormat, CourseToolSpec, is_blank
from course_protocol.slots import slot_setter
from course_protocol.untrusted import described_setting, sequence_snapshot, shown, type_name
from course_vendor._base_url import checked_base_url
from course_vendor._config_errors import config_error
from course_vendor._extras import checked_extra_body, checked_extra_headers
from course_vendor._options import (
    COMMON_OPTIONS,
    NamedTool,
    ReasoningEffort,
    ThinkingBudget,
    ToolChoice,
    checked_common_options,
)
from course_vendor._support import OptionSupport

__all__ = ["VendorConfig"]


@dataclass(frozen=True, slots=True)
class VendorConfig:
    """What every vendor model sends besides the transcript, and how it reaches the vendor.

    - ``model``: the vendor's model name, a non-blank ``str``;
    - ``max_output_tokens``: the output limit, an ``int`` from 1 to 2**53 - 1,
      or ``None`` for the vendor's own default where the vendor has one (a
      subclass whose API needs a limit sets `OUTPUT_LIMIT_REQUIRED`);
    - ``system_prompt``: the system prompt, a ``str`` that is not blank, or
      ``None`` for none (blank text is refused: say ``None``);
    - ``tools``: the Tools the model may call, a tuple of ``CourseToolSpec``
      with distinct names (a list, or a subclass of either, is read through
      the base type and copied into a tuple);
    - ``base_url``: where the vendor's endpoint paths are joined, spelled as
      the vendor's official SDK and environment variable spell it; checked
      by the kit's one base-URL rule (http or https, a host, no whitespace,
      credentials, query or fragment) and kept without a trailing ``/``;
      each subclass gives its vendor's as the default;
    - ``timeouts``: the ``course_http.Timeouts`` of the transport the model
      creates, or ``None`` for the defaults (a model given a transport of its
      own refuses a configuration with timeouts: set them on that transport).

    The common options, keyword-only, ``None`` (or empty) for the vendor's
    default; each vendor sends each one in its own JSON or refuses it
    (its wire's `OptionSupport`, checked when a model is built on the
    configuration, and by a vendor's subclass at once):

    - ``temperature``: a finite number from 0 (an ``int`` is kept as a
      ``float``); its upper bound is the vendor's (Anthropic 1, OpenAI 2);
    - ``top_p``: a finite number from 0 to 1;
    - ``stop_sequences``: a tuple (or list) of distinct non-blank ``str``;
    - ``tool_choice``: a `ToolChoice` (``"auto"``, ``"none"``,
      ``"required"``; the plain strings are taken and converted) or a
      `NamedTool` naming one of ``tools``; needs Tools;
    - ``parallel_tool_calls``: a ``bool``, whether one answer may call several
      Tools; needs Tools, and means nothing with tool choice ``none``;
    - ``user_id``: an opaque id of the end user (no personal data), a
      non-blank ``str`` of at most 256 characters;
    - ``reasoning``: a `ReasoningEffort` (or its string) or a `ThinkingBudget`;
    - ``response_format``: a ``course_protocol.CourseResponseFormat``, the JSON
      schema the answer's text must match (structured output), sent in each
      wire's own spelling;
    - ``extra_body``: a JSON object merged into every request body, for a
      vendor field this package does not model (frozen by the protocol's
      strict JSON checks; a key the adapter writes is refused);
    - ``extra_headers``: headers added to every call (names checked; no
      credential header, none the transport or the adapter sets; kept with
      lower-case names).

    Raises `VendorConfigError` ``VENDOR_INVALID_CONFIG`` for the first field
    of the wrong type or value, its message naming it
    (``AnthropicConfig.max_output_tokens must be ...``).
    """

    OUTPUT_LIMIT_REQUIRED: ClassVar[bool] = False
    """Whether the vendor's API needs ``max_output_tokens`` (``None`` is then refused)."""

    OPTIONS: ClassVar[OptionSupport | None] = None
    """What every API of this configuration's vendor sends, checked at construction
    (``None``: checked only by each wire's `OptionSupport`, when a model is built)."""

    model: str
    max_output_tokens: int | None = None
    system_prompt: str | None = None
    tools: tuple[CourseToolSpec, ...] = ()
    base_url: str = ""
    timeouts: Timeouts | None = None
    _: KW_ONLY
    temperature: float | None = None
    top_p: float | None = None
    stop_sequences: tuple[str, ...] = ()
    tool_choice: ToolChoice | NamedTool | Literal["auto", "none", "required"] | None = None
    parallel_tool_calls: bool | None = None
    user_id: str | None = None
    reasoning: (
        ReasoningEffort
        | ThinkingBudget
        | Literal["none", "minimal", "low", "medium", "high", "xhigh"]
        | None
    ) = None
    response_format: CourseResponseFormat | None = None
    extra_body: Mapping[str, Any] | None = None
    extra_headers: Mapping[str, str] | None = None

    def __post_init__(self) -> None:
        name = type_name(self)
        if type(self.model) is not str or is_blank(self.model):
            raise config_error(f"{name}.model", _wanted("a non-blank str", self.model))
        _check_limit(
            self.max_output_tokens, f"{name}.max_output_tokens", self.OUTPUT_LIMIT_REQUIRED
        )
        prompt = self.system_prompt
        if prompt is not None and (type(prompt) is not str or is_blank(prompt)):
            raise config_error(
                f"{name}.system_prompt", _wanted("a non-blank str or None (None for none)", prompt)
            )
        _set_tools(self, _checked_tools(self.tools, f"{name}.tools"))
        _set_base_url(self, checked_base_url(self.base_url, f"{name}.base_url"))
        if self.timeouts is not None and type(self.timeouts) is not Timeouts:
            raise config_error(
                f"{name}.timeouts",
                f"must be a Timeouts or None, got {described_setting(self.timeouts)}",
            )
        for field, value in checked_common_options(self, name).items():
            _OPTION_SETTERS[field](self, value)
        _set_extra_body(self, checked_extra_body(self.extra_body, f"{name}.extra_body"))
        _set_extra_headers(self, checked_extra_headers(self.extra_headers, f"{name}.extra_headers"))
        self._check_own_options()
        if self.OPTIONS is not None:
            self.OPTIONS.check(self)

    def _check_own_options(self) -> None:
        """Check the fields a vendor's subclass adds, after the kit's checks and before `OPTIONS`.

        A subclass overrides this (it does nothing here) instead of
        ``__post_init__``; it raises `VendorConfigError` ``VENDOR_INVALID_CONFIG``
        naming the field (`config_error`).
        """


_set_tools = slot_setter(VendorConfig, "tools")
_set_base_url = slot_setter(VendorConfig, "base_url")
_set_extra_body = slot_setter(VendorConfig, "extra_body")
_set_extra_headers = slot_setter(VendorConfig, "extra_headers")
_OPTION_SETTERS = {name: slot_setter(VendorConfig, name) for name in COMMON_OPTIONS}


def _wanted(expected: str, value: object) -> str:
    return f"must be {expected}, got {described_setting(value)}"


def _check_limit(value: object, path: str, required: bool) -> None:
    if value is None and not required:
        return
    if type(value) is not int or not 1 <= value <= MAX_TOKEN_COUNT:
        expected = "an int from 1 to 2**53 - 1" + ("" if required else " or None")
        raise config_error(path, f"must be {expected}, got {described_setting(value)}")


def _checked_tools(value: object, path: str) -> tuple[CourseToolSpec, ...]:
    # A subclass's __iter__ is not ours to run: the base type's is read.
    items = sequence_snapshot(value)
    if items is None:
        raise config_error(
            path, f"must be a tuple or list of CourseToolSpec, got {described_setting(value)}"
        )
    names: set[str] = set()
    tools: list[CourseToolSpec] = []
    for position, tool in enumerate(items):
        if type(tool) is not CourseToolSpec:
            raise config_error(
                f"{path}[{position}]", f"must be a CourseToolSpec, got {described_setting(tool)}"
            )
        if tool.name in names:
            raise config_error(
                f"{path}[{position}].name", f"repeats the Tool name {shown(tool.name)!r}"
            )
        names.add(tool.name)
        tools.append(tool)
    return tuple(tools)
