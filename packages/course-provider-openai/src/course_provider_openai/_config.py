"""The adapter's configuration, shared by both OpenAI APIs, and the request headers.

Configuration lives on the adapter, never in the course request: the model,
the output-token limit, the system prompt, the Tools and the base URL. The
API key is not part of it: the model object holds the key and passes it to
:func:`request_headers` once per call, so no configuration value, repr or
error message can ever show it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import final

from course_protocol import MAX_TOKEN_COUNT, CourseProtocolError, CourseToolSpec, is_blank

__all__ = [
    "API_KEY_VARIABLE",
    "BASE_URL_VARIABLE",
    "DEFAULT_BASE_URL",
    "OpenAIConfig",
    "request_headers",
]

DEFAULT_BASE_URL = "https://api.openai.com/v1"
"""Where OpenAI serves both APIs, spelled as the official SDK and ``OPENAI_BASE_URL`` spell it."""

BASE_URL_VARIABLE = "OPENAI_BASE_URL"
"""The variable the official SDK reads its base URL from, spelled as ``DEFAULT_BASE_URL`` is."""

API_KEY_VARIABLE = "OPENAI_API_KEY"
"""The environment variable both models read their key from when none is given (as the SDK does)."""

_HEADER_UNSAFE = frozenset("\r\n\0")


def _fail(path: str, message: str) -> CourseProtocolError:
    return CourseProtocolError(path, message)


def _check_base_url(value: object) -> str:
    if type(value) is not str:
        raise _fail("base_url", f"must be a str, not {type(value).__name__}")
    scheme, separator, rest = value.partition("://")
    if scheme not in ("https", "http") or not separator:
        raise _fail("base_url", "must start with https:// or http://")
    if not rest.split("/", 1)[0] or any(ch.isspace() or ch in "?#" for ch in rest):
        raise _fail("base_url", "must name a host, with no whitespace, query or fragment")
    return value.rstrip("/")


def _check_tools(value: object) -> tuple[CourseToolSpec, ...]:
    if type(value) is not tuple and type(value) is not list:
        raise _fail("tools", f"must be a tuple or list, not {type(value).__name__}")
    tools = tuple(value)
    names: set[str] = set()
    for position, tool in enumerate(tools):
        if type(tool) is not CourseToolSpec:
            raise _fail(
                f"tools[{position}]", f"must be a CourseToolSpec, not {type(tool).__name__}"
            )
        if tool.name in names:
            raise _fail(f"tools[{position}].name", f"{tool.name!r} names an earlier Tool too")
        names.add(tool.name)
    return tools


@final
@dataclass(frozen=True, slots=True)
class OpenAIConfig:
    """What an OpenAI adapter sends besides the transcript, validated at construction.

    - ``model``: the vendor's model name, a non-blank ``str``;
    - ``max_output_tokens``: ``None`` (the vendor's default) or an ``int``
      from 1 to 2**53 - 1, sent as ``max_completion_tokens`` (Chat) or
      ``max_output_tokens`` (Responses);
    - ``system_prompt``: ``None`` or a ``str``, sent as the first ``system``
      message (Chat) or as ``instructions`` (Responses);
    - ``tools``: the Tools the model may call, a tuple (a list is copied into
      one) of ``CourseToolSpec`` with distinct names;
    - ``base_url``: where the API lives, spelled as the official SDK and
      ``OPENAI_BASE_URL`` spell it, version included: the endpoint paths
      (``/chat/completions``, ``/responses``) are appended to it, so
      `DEFAULT_BASE_URL` calls ``https://api.openai.com/v1/chat/completions``.
      A compatible vendor's works the same way
      (``https://api.groq.com/openai/v1``, ``https://openrouter.ai/api/v1``);
      a trailing ``/`` is dropped.

    Raises ``CourseProtocolError`` naming the bad field otherwise.
    """

    model: str
    max_output_tokens: int | None = None
    system_prompt: str | None = None
    tools: tuple[CourseToolSpec, ...] = ()
    base_url: str = DEFAULT_BASE_URL

    def __post_init__(self) -> None:
        if type(self.model) is not str or is_blank(self.model):
            raise _fail("model", "must be a non-blank str")
        limit = self.max_output_tokens
        if limit is not None and (type(limit) is not int or not 1 <= limit <= MAX_TOKEN_COUNT):
            raise _fail("max_output_tokens", "must be None or an int from 1 to 2**53 - 1")
        if self.system_prompt is not None and type(self.system_prompt) is not str:
            raise _fail(
                "system_prompt", f"must be None or a str, not {type(self.system_prompt).__name__}"
            )
        object.__setattr__(self, "tools", _check_tools(self.tools))
        object.__setattr__(self, "base_url", _check_base_url(self.base_url))


def request_headers(api_key: str) -> dict[str, str]:
    """The headers that authenticate one call: ``{"authorization": "Bearer <api_key>"}``.

    Raises ``CourseProtocolError`` (path ``api_key``) when ``api_key`` is not
    a non-blank ``str``, or holds a line break or NUL, which would split the
    header; the message never contains the key. Finding the key (explicit,
    or ``OPENAI_API_KEY``) and failing with ``VENDOR_MISSING_API_KEY`` when
    there is none is the model's job.
    """
    if type(api_key) is not str or is_blank(api_key):
        raise _fail("api_key", "must be a non-blank str")
    if not _HEADER_UNSAFE.isdisjoint(api_key):
        raise _fail("api_key", "must not contain a line break or NUL")
    return {"authorization": f"Bearer {api_key}"}
