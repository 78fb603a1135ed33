"""The adapter's configuration, shared by both OpenAI APIs, and the request headers.

Configuration lives on the adapter, never in the course request: the model,
the output-token limit, the system prompt, the Tools, the options and the
base URL. The
API key is not part of it: the model object holds the key and passes it to
:func:`request_headers` once per call, so no configuration value, repr or
error message can ever show it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import KW_ONLY, dataclass
from typing import Any, ClassVar, final

from course_protocol.slots import slot_setter
from course_provider_openai._hosted_tools import checked_hosted_tools
from course_provider_openai._options import OPENAI_OPTIONS, check_openai_options
from course_vendor import OptionSupport, VendorConfig, checked_api_key

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


@final
@dataclass(frozen=True, slots=True)
class OpenAIConfig(VendorConfig):
    """What an OpenAI adapter sends besides the transcript: ``course_vendor.VendorConfig``.

    The fields, their names and their checks are the kit's, the same for
    every vendor; both OpenAI APIs share this one:

    - ``max_output_tokens``: ``None`` (the vendor's default) or an ``int``
      from 1 to 2**53 - 1, sent as ``max_completion_tokens`` (Chat) or
      ``max_output_tokens`` (Responses);
    - ``system_prompt``: ``None`` or a non-blank ``str``, sent as the first
      ``system`` message (Chat) or as ``instructions`` (Responses);
    - ``base_url``: where the API lives, spelled as the official SDK and
      ``OPENAI_BASE_URL`` spell it, version included: the endpoint paths
      (``/chat/completions``, ``/responses``) are appended to it, so
      `DEFAULT_BASE_URL` calls ``https://api.openai.com/v1/chat/completions``.
      A compatible vendor's works the same way
      (``https://api.groq.com/openai/v1``, ``https://openrouter.ai/api/v1``);
    - ``temperature`` goes from 0 to 2; ``reasoning`` takes a
      ``ReasoningEffort``, never a ``ThinkingBudget``; Chat takes at most 4
      ``stop_sequences`` and the Responses API none (its model refuses them).

    Its own options, keyword-only, ``None`` for the API's default:

    - ``prompt_cache_key``: a non-blank ``str`` that groups requests sharing
      a prompt prefix for OpenAI's prompt cache;
    - ``service_tier``: a non-blank ``str`` (``"auto"``, ``"default"``,
      ``"flex"``, ``"priority"``; compatible vendors have their own);
    - ``store``: a ``bool``, whether OpenAI keeps the response (Chat leaves
      it out by default; the Responses API sends ``false`` unless this says
      ``True``: a replayed conversation never depends on what is kept);
    - ``seed``: an ``int`` for best-effort determinism, Chat only (the
      Responses API does not take it: its model refuses it);
    - ``hosted_tools``: the tools the Responses API runs itself, each its
      own JSON object as the API reference spells it (``{"type":
      "web_search"}``), sent after the function Tools; a tuple or list of
      objects whose ``type`` is not ``function``, kept as a tuple of frozen
      objects (Chat takes none: its model refuses them). ``extra_body``
      cannot say it: ``tools`` is the adapter's.

    Raises ``course_vendor.VendorConfigError`` ``VENDOR_INVALID_CONFIG`` for
    the first bad field, its message naming it
    (``OpenAIConfig.model must be ...``).
    """

    OPTIONS: ClassVar[OptionSupport | None] = OPENAI_OPTIONS

    base_url: str = DEFAULT_BASE_URL
    _: KW_ONLY
    prompt_cache_key: str | None = None
    service_tier: str | None = None
    store: bool | None = None
    seed: int | None = None
    hosted_tools: tuple[Mapping[str, Any], ...] = ()

    def _check_own_options(self) -> None:
        check_openai_options(self)
        path = f"{type(self).__name__}.hosted_tools"
        _set_hosted_tools(self, checked_hosted_tools(self.hosted_tools, path))


_set_hosted_tools = slot_setter(OpenAIConfig, "hosted_tools")


def request_headers(api_key: str) -> dict[str, str]:
    """The headers that authenticate one call: ``{"authorization": "Bearer <api_key>"}``.

    Raises ``course_vendor.VendorConfigError`` ``VENDOR_INVALID_API_KEY``
    (path ``api_key``) when ``api_key`` is not a usable key
    (``course_vendor.checked_api_key``: a non-empty ``str`` of visible
    ASCII); the message never contains the key. Finding the key (explicit,
    or ``OPENAI_API_KEY``) and failing with ``VENDOR_MISSING_API_KEY`` when
    there is none is the model's job.
    """
    return {"authorization": f"Bearer {checked_api_key(api_key)}"}
