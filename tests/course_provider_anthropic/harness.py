"""The Anthropic Messages wire for the shared vendor tests (found through the vendor registry)."""

from __future__ import annotations

import json
from typing import Any

from course_http import SseEvent
from course_provider_anthropic import WIRE as ANTHROPIC_WIRE
from course_provider_anthropic import (
    AnthropicConfig,
    AnthropicMessagesModel,
    MessagesMapping,
    request_headers,
)
from course_vendor import NamedTool
from tests.course_provider_anthropic import bodies as anthropic
from tests.course_vendor.wire import AnyModel, Wire, sse_frame


def _anthropic(config: dict[str, Any], **options: Any) -> AnyModel:
    return AnthropicMessagesModel(AnthropicConfig("claude-test", 64, **config), **options)


def _anthropic_tool() -> list[SseEvent]:
    return anthropic.tool_body('{"left": 2', '0, "right": 22}', call_id="toolu_01add")


def _anthropic_error(kind: str, message: str) -> bytes:
    return json.dumps({"type": "error", "error": {"type": kind, "message": message}}).encode()


def _anthropic_error_events(message: str) -> list[bytes]:
    error = {"type": "authentication_error", "message": message}
    return [sse_frame("error", {"type": "error", "error": error})]


WIRES = {
    ANTHROPIC_WIRE: Wire(
        ANTHROPIC_WIRE,
        "/v1/messages",
        "ANTHROPIC_API_KEY",
        "x-api-key",
        lambda key: key,
        _anthropic,
        anthropic.text_body,
        _anthropic_tool,
        _anthropic_error,
        base_url="https://api.anthropic.com",
        parser=MessagesMapping,
        tool_call_id="toolu_01add",
        error_events=_anthropic_error_events,
        request_headers=request_headers,
        options={
            "temperature": 0.3,
            "top_p": 0.9,
            "top_k": 20,
            "stop_sequences": ("END",),
            "tool_choice": NamedTool("add"),
            "parallel_tool_calls": False,
            "user_id": "user-7f3a",
            "cache_tools": True,
            "cache_messages": (-1,),
            "betas": ("token-efficient-tools-2025-02-19",),
        },
        options_headers={"anthropic-beta": "token-efficient-tools-2025-02-19"},
        options_body={
            "temperature": 0.3,
            "top_p": 0.9,
            "top_k": 20,
            "stop_sequences": ["END"],
            "tool_choice": {"type": "tool", "name": "add", "disable_parallel_tool_use": True},
            "metadata": {"user_id": "user-7f3a"},
            "tools": [
                {
                    "name": "add",
                    "description": "Add two integers.",
                    "input_schema": {"type": "object"},
                    "cache_control": {"type": "ephemeral"},
                }
            ],
            "messages": [
                {
                    "role": "user",
                    "content": [
                        {
                            "type": "text",
                            "text": "What is 20 + 22?",
                            "cache_control": {"type": "ephemeral"},
                        }
                    ],
                }
            ],
        },
        changed_option=("temperature", 0.9, "temperature: recorded 0.3, sent 0.9"),
    ),
}
"""Every wire of this package's, by its registered name."""
