"""The servers that speak the Responses API, each declared in one value.

`ResponsesDialect` names a server's wire, where it lives and its key;
`ResponsesGrammar` and `ResponsesMapping` raise every error in its wire's
name. `OPENAI_RESPONSES` is OpenAI's own, `AZURE_OPENAI_RESPONSES` Azure's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, final

from course_provider_openai._config import API_KEY_VARIABLE, DEFAULT_BASE_URL
from course_provider_openai._responses_wire import WIRE

__all__ = [
    "AZURE_OPENAI_RESPONSES",
    "OPENAI_RESPONSES",
    "ResponsesDialect",
]


@final
@dataclass(frozen=True, slots=True)
class ResponsesDialect:
    """One server's Responses API: its wire name and where it lives.

    - ``wire``: the registry's and ``--wire``'s name (``"azure-openai-responses"``),
      and the ``vendor`` of every error its grammar and mapping raise;
    - ``base_url``: its default base URL, the version included, as its own
      docs spell it (the ``/responses`` path is joined after it);
    - ``key_variable``: the environment variable its docs keep the key in.
    """

    wire: str
    base_url: str
    key_variable: str


OPENAI_RESPONSES: Final = ResponsesDialect(WIRE, DEFAULT_BASE_URL, API_KEY_VARIABLE)
"""OpenAI's own Responses API: no difference declared."""

AZURE_OPENAI_RESPONSES: Final = ResponsesDialect(
    "azure-openai-responses",
    "https://YOUR-RESOURCE-NAME.openai.azure.com/openai/v1",
    "AZURE_OPENAI_API_KEY",
)
"""Azure OpenAI's Responses API: OpenAI's stream, under Azure's wire name (the deployment
path, ``api-version`` and ``api-key`` are its model's concern, `_azure`)."""
