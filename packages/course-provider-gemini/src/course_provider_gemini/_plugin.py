"""The Gemini API as the vendor registry knows it (the ``course.vendors`` entry point)."""

from __future__ import annotations

from course_http import HttpTransport
from course_provider_gemini import _wire
from course_provider_gemini._cache_prefix import gemini_cache_prefix
from course_provider_gemini._config import GeminiConfig
from course_provider_gemini._grammar import GeminiGrammar
from course_provider_gemini._model import GEMINI_WIRE, GeminiModel
from course_vendor import VendorPlugin

__all__ = ["GEMINI_PLUGIN"]

# A recorded body answers whatever was asked: the configuration of a replay
# model is never sent anywhere nor compared with anything.
_REPLAYED_MODEL = "recorded"


def _replay_model(transport: HttpTransport) -> GeminiModel:
    return GeminiModel(GeminiConfig(_REPLAYED_MODEL), transport=transport)


GEMINI_PLUGIN = VendorPlugin(
    wire=GEMINI_WIRE,
    sdk="google-genai",
    base_url=_wire.DEFAULT_BASE_URL,
    base_url_variable=_wire.BASE_URL_VARIABLE,
    named_events=False,
    replay_model=_replay_model,
    grammar=GeminiGrammar,
    cache_prefix=gemini_cache_prefix,
)
"""The Gemini wire for the vendor registry: its chunks are unnamed ``data:`` frames, judged
by `GeminiGrammar`."""
