"""One tiny live call per real API; each skipped unless its vendor's key is set.

CI never sets the keys, so these never run there. The model is the
``COURSE_SMOKE_*_MODEL`` variable's when set. Each call is bounded in time
and asks for a handful of tokens.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from course_http import Timeouts
from course_protocol import CourseModelRequest, CourseTextDeltaChunk, CourseUserMessage
from course_provider_anthropic import AnthropicConfig, AnthropicMessagesModel
from course_provider_gemini import GeminiConfig, GeminiModel
from course_provider_openai import OpenAIChatModel, OpenAIConfig, OpenAIResponsesModel
from course_stream import AbortController, collect
from course_vendor import VendorModel

TIMEOUTS = Timeouts(connect=10, read=30)


@dataclass(frozen=True)
class LiveApi:
    key_variable: str
    model: Callable[[], VendorModel[Any]]


def _anthropic() -> VendorModel[Any]:
    name = os.environ.get("COURSE_SMOKE_ANTHROPIC_MODEL", "claude-haiku-4-5")
    return AnthropicMessagesModel(AnthropicConfig(name, max_output_tokens=16, timeouts=TIMEOUTS))


def _openai(model_class: type[OpenAIChatModel] | type[OpenAIResponsesModel]) -> VendorModel[Any]:
    name = os.environ.get("COURSE_SMOKE_OPENAI_MODEL", "gpt-4o-mini")
    return model_class(OpenAIConfig(name, max_output_tokens=16, timeouts=TIMEOUTS))


def _gemini() -> VendorModel[Any]:
    name = os.environ.get("COURSE_SMOKE_GEMINI_MODEL", "gemini-2.5-flash-lite")
    return GeminiModel(GeminiConfig(name, max_output_tokens=64, timeouts=TIMEOUTS))


APIS = {
    "anthropic-messages": LiveApi("ANTHROPIC_API_KEY", _anthropic),
    "gemini": LiveApi("GOOGLE_API_KEY", _gemini),
    "openai-chat": LiveApi("OPENAI_API_KEY", lambda: _openai(OpenAIChatModel)),
    "openai-responses": LiveApi("OPENAI_API_KEY", lambda: _openai(OpenAIResponsesModel)),
}


@pytest.mark.parametrize(
    "api",
    [
        pytest.param(
            api,
            id=name,
            marks=pytest.mark.skipif(
                not os.environ.get(api.key_variable),
                reason=f"{api.key_variable} is not set: no live call",
            ),
        )
        for name, api in APIS.items()
    ],
)
async def test_a_tiny_live_call_streams_text_and_ends_with_usage(api: LiveApi) -> None:
    request = CourseModelRequest("smoke-1", (CourseUserMessage("u-1", "Say hi in one word."),))
    async with asyncio.timeout(60), api.model() as model:
        chunks, response = await collect(model.stream(request, AbortController().signal))

    assert chunks
    assert all(type(chunk) is CourseTextDeltaChunk for chunk in chunks)
    assert response.request_id == "smoke-1"
    assert response.usage.input_tokens > 0
    assert response.usage.output_tokens > 0
