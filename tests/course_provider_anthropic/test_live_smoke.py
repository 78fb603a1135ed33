"""One tiny live call to the Anthropic Messages API; skipped unless ANTHROPIC_API_KEY is set.

CI never sets the key, so this never runs there. The model is
``COURSE_SMOKE_ANTHROPIC_MODEL`` when set. The call is bounded in time and
asks for a handful of tokens.
"""

from __future__ import annotations

import asyncio
import os

import pytest

from course_http import Timeouts
from course_protocol import CourseModelRequest, CourseTextDeltaChunk, CourseUserMessage
from course_provider_anthropic import AnthropicConfig, AnthropicMessagesModel
from course_stream import AbortController

pytestmark = pytest.mark.skipif(
    not os.environ.get("ANTHROPIC_API_KEY"), reason="ANTHROPIC_API_KEY is not set: no live call"
)


async def test_a_tiny_live_call_streams_text_and_ends_with_usage() -> None:
    config = AnthropicConfig(
        os.environ.get("COURSE_SMOKE_ANTHROPIC_MODEL", "claude-haiku-4-5"), max_tokens=16
    )
    request = CourseModelRequest("smoke-1", (CourseUserMessage("u-1", "Say hi in one word."),))
    async with (
        asyncio.timeout(60),
        AnthropicMessagesModel(config, timeouts=Timeouts(connect=10, read=30)) as model,
    ):
        stream = model.stream(request, AbortController().signal)
        chunks = [chunk async for chunk in stream]
        response = await stream.result

    assert chunks
    assert all(type(chunk) is CourseTextDeltaChunk for chunk in chunks)
    assert response.request_id == "smoke-1"
    assert response.usage.input_tokens > 0
    assert response.usage.output_tokens > 0
