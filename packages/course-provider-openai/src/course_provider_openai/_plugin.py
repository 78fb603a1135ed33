"""The two OpenAI APIs as the vendor registry knows them (``course.vendors`` entry points)."""

from __future__ import annotations

from course_http import HttpTransport
from course_provider_openai._cache_prefix import chat_cache_prefix, responses_cache_prefix
from course_provider_openai._chat_grammar import ChatGrammar
from course_provider_openai._config import BASE_URL_VARIABLE, DEFAULT_BASE_URL, OpenAIConfig
from course_provider_openai._models import (
    CHAT_VENDOR_WIRE,
    RESPONSES_VENDOR_WIRE,
    OpenAIChatModel,
    OpenAIResponsesModel,
)
from course_provider_openai._responses_grammar import ResponsesGrammar
from course_vendor import VendorPlugin

__all__ = ["CHAT_PLUGIN", "RESPONSES_PLUGIN"]

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
