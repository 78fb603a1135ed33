"""The servers that speak the Responses API, each declared in one value with its differences.

OpenAI's Responses stream ends at its terminal event and sends nothing after
it. A server that serves the same API may differ: OpenRouter's Responses
endpoint (a beta, stateless: every call sends the whole conversation) ends
each stream with ``data: [DONE]`` after the terminal, as its Chat endpoint
does. `ResponsesDialect` declares exactly those differences, one frozen
value per server; `ResponsesGrammar` reads them, and everything a dialect
does not declare is OpenAI's grammar, unchanged. `OPENAI_RESPONSES`
declares nothing: plain ``openai-responses`` refuses every difference.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, final

from course_provider_openai._config import API_KEY_VARIABLE, DEFAULT_BASE_URL
from course_provider_openai._responses_wire import WIRE

__all__ = [
    "AZURE_OPENAI_RESPONSES",
    "OPENAI_RESPONSES",
    "OPENROUTER_RESPONSES",
    "RESPONSES_DIALECTS",
    "ResponsesDialect",
]


@final
@dataclass(frozen=True, slots=True)
class ResponsesDialect:
    """One server's Responses API: its wire name, where it lives, and its declared differences.

    - ``wire``: the registry's and ``--wire``'s name (``"openrouter-responses"``),
      and the ``vendor`` of every error its grammar and mapping raise;
    - ``base_url``: its default base URL, the version included, as its own
      docs spell it (the ``/responses`` path is joined after it);
    - ``key_variable``: the environment variable its docs keep the key in;
    - ``done_marker``: whether a ``data: [DONE]`` frame follows the
      terminal event (once, and nothing after it).
    """

    wire: str
    base_url: str
    key_variable: str
    done_marker: bool = False


OPENAI_RESPONSES: Final = ResponsesDialect(WIRE, DEFAULT_BASE_URL, API_KEY_VARIABLE)
"""OpenAI's own Responses API: no difference declared."""

OPENROUTER_RESPONSES: Final = ResponsesDialect(
    "openrouter-responses",
    "https://openrouter.ai/api/v1",
    "OPENROUTER_API_KEY",
    done_marker=True,
)
"""OpenRouter's Responses API (beta): ``[DONE]`` after the terminal event."""

AZURE_OPENAI_RESPONSES: Final = ResponsesDialect(
    "azure-openai-responses",
    "https://YOUR-RESOURCE-NAME.openai.azure.com/openai/v1",
    "AZURE_OPENAI_API_KEY",
)
"""Azure OpenAI's Responses API: OpenAI's stream, under Azure's wire name (the deployment
path, ``api-version`` and ``api-key`` are its model's concern, `_azure`)."""

RESPONSES_DIALECTS: Final = (OPENROUTER_RESPONSES,)
"""Every compatible server's Responses dialect, each registered as a wire of its own."""
