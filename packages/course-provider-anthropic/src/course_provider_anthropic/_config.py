"""AnthropicConfig: what the adapter sends besides the transcript, checked once at construction."""

from __future__ import annotations

from dataclasses import dataclass
from typing import final

from course_protocol import MAX_TOKEN_COUNT, CourseToolSpec, is_blank
from course_provider_anthropic import _wire

__all__ = ["AnthropicConfig"]


def _kind(value: object) -> str:
    return type(value).__name__


@final
@dataclass(frozen=True, slots=True)
class AnthropicConfig:
    """The adapter's side of every Messages API request: model, limits, system prompt, Tools.

    Configuration belongs to the adapter, never to the course request. The API
    key is not here: the model object holds it, so a config can be printed,
    compared and logged freely.

    - ``model``: the vendor's model name, a non-blank ``str``.
    - ``max_tokens``: the output limit, an ``int`` from 1 to 2**53 - 1.
    - ``system``: the system prompt, or ``None`` for none (blank text is refused:
      say ``None``).
    - ``tools``: the Tools the model may call, a tuple (or list, stored as a
      tuple) of ``CourseToolSpec`` with distinct names.
    - ``base_url``: where the API lives, ``http://`` or ``https://``, no
      whitespace; a trailing ``/`` is allowed.

    Raises ``TypeError`` when a field has the wrong type and ``ValueError``
    when its value is out of range, naming the field.
    """

    model: str
    max_tokens: int
    system: str | None = None
    tools: tuple[CourseToolSpec, ...] = ()
    base_url: str = _wire.DEFAULT_BASE_URL

    def __post_init__(self) -> None:
        if type(self.model) is not str:
            raise TypeError(f"AnthropicConfig.model must be a str, got {_kind(self.model)}")
        if is_blank(self.model):
            raise ValueError("AnthropicConfig.model must not be blank")
        if type(self.max_tokens) is not int:
            raise TypeError(
                f"AnthropicConfig.max_tokens must be an int, got {_kind(self.max_tokens)}"
            )
        if not 1 <= self.max_tokens <= MAX_TOKEN_COUNT:
            raise ValueError("AnthropicConfig.max_tokens must be from 1 to 2**53 - 1")
        if self.system is not None:
            if type(self.system) is not str:
                raise TypeError(
                    f"AnthropicConfig.system must be a str or None, got {_kind(self.system)}"
                )
            if is_blank(self.system):
                raise ValueError("AnthropicConfig.system must not be blank; use None for none")
        object.__setattr__(self, "tools", _checked_tools(self.tools))
        _check_base_url(self.base_url)

    @property
    def messages_url(self) -> str:
        """The absolute URL of the Messages endpoint under ``base_url``."""
        return self.base_url.rstrip("/") + _wire.MESSAGES_PATH


def _checked_tools(tools: object) -> tuple[CourseToolSpec, ...]:
    # Read lists and tuples through the base type: a subclass's __iter__ is not ours to run.
    if isinstance(tools, tuple):
        items = tuple(tuple.__iter__(tools))
    elif isinstance(tools, list):
        items = tuple(list.__iter__(tools))
    else:
        raise TypeError(
            f"AnthropicConfig.tools must be a tuple of CourseToolSpec, got {_kind(tools)}"
        )
    names: set[str] = set()
    for position, tool in enumerate(items):
        if type(tool) is not CourseToolSpec:
            raise TypeError(
                f"AnthropicConfig.tools[{position}] must be a CourseToolSpec, got {_kind(tool)}"
            )
        if tool.name in names:
            raise ValueError(
                f"AnthropicConfig.tools[{position}] repeats the Tool name {tool.name!r}"
            )
        names.add(tool.name)
    return items


def _check_base_url(url: object) -> None:
    if type(url) is not str:
        raise TypeError(f"AnthropicConfig.base_url must be a str, got {_kind(url)}")
    scheme, separator, rest = url.partition("://")
    if not separator or scheme not in ("http", "https") or not rest.strip("/"):
        raise ValueError("AnthropicConfig.base_url must be an http:// or https:// URL with a host")
    if any(character.isspace() or not character.isprintable() for character in url):
        raise ValueError(
            "AnthropicConfig.base_url must not contain whitespace or control characters"
        )
