"""The two OpenAI APIs and the compatible servers' dialects as the vendor registry knows them.

Each is a ``course.vendors`` entry point. A Chat dialect's plug-in is Chat
Completions read with its `ChatDialect` and registered as a dialect of
``openai-chat`` (``VendorPlugin.dialect_of``), a Responses dialect's the
Responses API read with its `ResponsesDialect`, a dialect of
``openai-responses``: the registry gives it a recorded path only under its
own default base path, where OpenAI's own does not answer (README, "Which
dialect judges a recording").
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from course_http import HttpTransport
from course_provider_openai._azure import (
    AZURE_CHAT_API_VERSION,
    AZURE_ENDPOINT_VARIABLE,
    AZURE_RESPONSES_API_VERSION,
    V1_CHAT_PATH,
    V1_RESPONSES_PATH,
    AzureOpenAIChatModel,
    AzureOpenAIResponsesModel,
    azure_chat_wire,
    azure_responses_wire,
)
from course_provider_openai._cache_prefix import chat_cache_prefix, responses_cache_prefix
from course_provider_openai._chat_dialect import (
    AZURE_OPENAI_CHAT,
    DEEPSEEK,
    GROQ,
    MISTRAL,
    OLLAMA,
    OPENROUTER,
    TOGETHER,
    VLLM,
    XAI,
    ChatDialect,
)
from course_provider_openai._chat_grammar import ChatGrammar
from course_provider_openai._config import BASE_URL_VARIABLE, DEFAULT_BASE_URL, OpenAIConfig
from course_provider_openai._models import (
    CHAT_VENDOR_WIRE,
    RESPONSES_VENDOR_WIRE,
    OpenAIChatModel,
    OpenAIResponsesModel,
    chat_vendor_wire,
    responses_vendor_wire,
)
from course_provider_openai._responses_dialect import (
    AZURE_OPENAI_RESPONSES,
    OPENROUTER_RESPONSES,
    ResponsesDialect,
)
from course_provider_openai._responses_grammar import ResponsesGrammar
from course_vendor import VendorModel, VendorPlugin, WireGrammar

__all__ = [
    "AZURE_CHAT_PLUGIN",
    "AZURE_RESPONSES_PLUGIN",
    "CHAT_PLUGIN",
    "DEEPSEEK_PLUGIN",
    "GROQ_PLUGIN",
    "MISTRAL_PLUGIN",
    "OLLAMA_PLUGIN",
    "OPENROUTER_PLUGIN",
    "OPENROUTER_RESPONSES_PLUGIN",
    "RESPONSES_PLUGIN",
    "TOGETHER_PLUGIN",
    "VLLM_PLUGIN",
    "XAI_PLUGIN",
]

# A recorded body answers whatever was asked: the configuration of a replay
# model is never sent anywhere nor compared with anything.
_REPLAYED_MODEL = "recorded"


def _chat_model(transport: HttpTransport) -> OpenAIChatModel:
    return OpenAIChatModel(OpenAIConfig(_REPLAYED_MODEL), transport=transport)


def _responses_model(transport: HttpTransport) -> OpenAIResponsesModel:
    return OpenAIResponsesModel(OpenAIConfig(_REPLAYED_MODEL), transport=transport)


CHAT_PLUGIN = VendorPlugin(
    wire=CHAT_VENDOR_WIRE,
    sdk="openai",
    base_url=DEFAULT_BASE_URL,
    base_url_variable=BASE_URL_VARIABLE,
    named_events=False,
    replay_model=_chat_model,
    grammar=ChatGrammar,
    cache_prefix=chat_cache_prefix,
)
"""The Chat Completions wire for the vendor registry: its events carry no names; its
`ChatGrammar` judges a recorded body alone."""

RESPONSES_PLUGIN = VendorPlugin(
    wire=RESPONSES_VENDOR_WIRE,
    sdk="openai",
    base_url=DEFAULT_BASE_URL,
    base_url_variable=BASE_URL_VARIABLE,
    named_events=False,
    replay_model=_responses_model,
    grammar=ResponsesGrammar,
    cache_prefix=responses_cache_prefix,
)
"""The Responses wire for the vendor registry: its grammar reads each event's ``type``."""


def _dialect_model(
    model: Callable[..., VendorModel[OpenAIConfig]],
    dialect: ChatDialect | ResponsesDialect,
    transport: HttpTransport,
) -> VendorModel[OpenAIConfig]:
    config = OpenAIConfig(_REPLAYED_MODEL, base_url=dialect.base_url)
    return model(config, dialect=dialect, transport=transport)


def _dialect_plugin(dialect: ChatDialect | ResponsesDialect) -> VendorPlugin:
    # Every compatible server documents the openai SDK pointed at its base URL.
    grammar: Callable[[], WireGrammar[Any]]
    model: Callable[..., VendorModel[OpenAIConfig]]
    if isinstance(dialect, ChatDialect):
        wire, base, model = chat_vendor_wire(dialect), CHAT_VENDOR_WIRE, OpenAIChatModel
        grammar, cache_prefix = partial(ChatGrammar, dialect), chat_cache_prefix
    else:
        wire, base, model = (
            responses_vendor_wire(dialect),
            RESPONSES_VENDOR_WIRE,
            OpenAIResponsesModel,
        )
        grammar, cache_prefix = partial(ResponsesGrammar, dialect), responses_cache_prefix
    return VendorPlugin(
        wire=wire,
        sdk="openai",
        base_url=dialect.base_url,
        base_url_variable=BASE_URL_VARIABLE,
        named_events=False,
        replay_model=partial(_dialect_model, model, dialect),
        grammar=grammar,
        cache_prefix=cache_prefix,
        dialect_of=base.vendor,
    )


OPENROUTER_PLUGIN = _dialect_plugin(OPENROUTER)
"""OpenRouter's Chat Completions (``openrouter``)."""
GROQ_PLUGIN = _dialect_plugin(GROQ)
"""Groq's Chat Completions (``groq``)."""
DEEPSEEK_PLUGIN = _dialect_plugin(DEEPSEEK)
"""DeepSeek's Chat Completions (``deepseek``)."""
XAI_PLUGIN = _dialect_plugin(XAI)
"""xAI's Chat Completions (``xai``)."""
MISTRAL_PLUGIN = _dialect_plugin(MISTRAL)
"""Mistral's Chat Completions (``mistral``)."""
TOGETHER_PLUGIN = _dialect_plugin(TOGETHER)
"""Together's Chat Completions (``together``)."""
OLLAMA_PLUGIN = _dialect_plugin(OLLAMA)
"""Ollama's OpenAI-compatible Chat Completions (``ollama``)."""
VLLM_PLUGIN = _dialect_plugin(VLLM)
"""vLLM's OpenAI-compatible Chat Completions (``vllm``)."""


OPENROUTER_RESPONSES_PLUGIN = _dialect_plugin(OPENROUTER_RESPONSES)
"""OpenRouter's Responses API (``openrouter-responses``)."""

_AZURE_ENDPOINT = "https://YOUR-RESOURCE-NAME.openai.azure.com"
"""The resource endpoint as Azure's documentation writes it: the deployment form's base URL."""


def _azure_chat_model(transport: HttpTransport) -> AzureOpenAIChatModel:
    config = OpenAIConfig(_REPLAYED_MODEL, base_url=_AZURE_ENDPOINT)
    return AzureOpenAIChatModel(config, api_version=AZURE_CHAT_API_VERSION, transport=transport)


def _azure_responses_model(transport: HttpTransport) -> AzureOpenAIResponsesModel:
    config = OpenAIConfig(_REPLAYED_MODEL, base_url=_AZURE_ENDPOINT)
    return AzureOpenAIResponsesModel(
        config, api_version=AZURE_RESPONSES_API_VERSION, transport=transport
    )


AZURE_CHAT_PLUGIN = VendorPlugin(
    wire=azure_chat_wire(AZURE_CHAT_API_VERSION),
    sdk="openai",
    base_url=_AZURE_ENDPOINT,
    base_url_variable=AZURE_ENDPOINT_VARIABLE,
    named_events=False,
    replay_model=_azure_chat_model,
    grammar=partial(ChatGrammar, AZURE_OPENAI_CHAT),
    cache_prefix=chat_cache_prefix,
    host_paths=(V1_CHAT_PATH,),
)
"""Azure OpenAI's Chat Completions in its deployment form
(``/openai/deployments/{deployment}/chat/completions``), read with Azure's dialect; on an
Azure host, its v1 form (``/openai/v1/chat/completions``) too."""

AZURE_RESPONSES_PLUGIN = VendorPlugin(
    wire=azure_responses_wire(AZURE_RESPONSES_API_VERSION),
    sdk="openai",
    base_url=_AZURE_ENDPOINT,
    base_url_variable=AZURE_ENDPOINT_VARIABLE,
    named_events=False,
    replay_model=_azure_responses_model,
    grammar=partial(ResponsesGrammar, AZURE_OPENAI_RESPONSES),
    cache_prefix=responses_cache_prefix,
    host_paths=(V1_RESPONSES_PATH,),
)
"""Azure OpenAI's Responses API in its deployment form (``/openai/responses``); on an Azure
host, its v1 form (``/openai/v1/responses``) too."""
