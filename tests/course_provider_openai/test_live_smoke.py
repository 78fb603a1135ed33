"""One tiny live call per OpenAI API; skipped unless OPENAI_API_KEY is set.

CI never sets the key, so these never run there. The model is
``COURSE_SMOKE_OPENAI_MODEL`` when set. Each call is bounded in time and
asks for a handful of tokens.
"""

from __future__ import annotations

import asyncio
import os

import pytest

from course_http import Timeouts
from course_protocol import CourseModelRequest, CourseTextDeltaChunk, CourseUserMessage
from course_provider_openai import OpenAIChatModel, OpenAIConfig, OpenAIResponsesModel
from course_stream import AbortController

pytestmark = pytest.mark.skipif(
    not os.environ.get("OPENAI_API_KEY"), reason="OPENAI_API_KEY is not set: no live call"
)


@pytest.mark.parametrize("model_class", [OpenAIChatModel, OpenAIResponsesModel])
async def test_a_tiny_live_call_streams_text_and_ends_with_usage(
    model_class: type[OpenAIChatModel] | type[OpenAIResponsesModel],
) -> None:
    config = OpenAIConfig(
        os.environ.get("COURSE_SMOKE_OPENAI_MODEL", "gpt-4o-mini"), max_output_tokens=16
    )
    request = CourseModelRequest("smoke-1", (CourseUserMessage("u-1", "Say hi in one word."),))
    async with (
        asyncio.timeout(60),
        model_class(config, timeouts=Timeouts(connect=10, read=30)) as model,
    ):
        stream = model.stream(request, AbortController().signal)
        chunks = [chunk async for chunk in stream]
        response = await stream.result

    assert chunks
    assert all(type(chunk) is CourseTextDeltaChunk for chunk in chunks)
    assert response.request_id == "smoke-1"
    assert response.usage.input_tokens > 0
    assert response.usage.output_tokens > 0
