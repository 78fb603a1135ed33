"""The Messages API as the vendor registry knows it (the ``course.vendors`` entry point)."""

from __future__ import annotations

from course_http import HttpTransport
from course_provider_anthropic import _wire
from course_provider_anthropic._cache_prefix import messages_cache_prefix
from course_provider_anthropic._config import AnthropicConfig
from course_provider_anthropic._grammar import MessagesGrammar
from course_provider_anthropic._model import MESSAGES_WIRE, AnthropicMessagesModel
from course_vendor import VendorPlugin

__all__ = ["MESSAGES_PLUGIN"]

# A recorded body answers whatever was asked: the configuration of a replay
# model is never sent anywhere nor compared with anything.
_REPLAYED_MODEL = "recorded"


def _replay_model(transport: HttpTransport) -> AnthropicMessagesModel:
    return AnthropicMessagesModel(AnthropicConfig(_REPLAYED_MODEL, 1), transport=transport)


MESSAGES_PLUGIN = VendorPlugin(
    wire=MESSAGES_WIRE,
    sdk="anthropic",
    base_url=_wire.DEFAULT_BASE_URL,
    base_url_variable=_wire.BASE_URL_VARIABLE,
    named_events=True,
    replay_model=_replay_model,
    grammar=MessagesGrammar,
    cache_prefix=messages_cache_prefix,
)
"""The Anthropic Messages wire for the vendor registry: every event is named; its grammar
judges a recorded body alone; a request is cached up to its last breakpoint."""
