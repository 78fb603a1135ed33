"""The Bedrock Converse wire for the shared vendor tests (found through the vendor registry)."""

from __future__ import annotations

import json
from typing import Any

from course_http import SseEvent
from course_provider_bedrock import WIRE as BEDROCK_WIRE
from course_provider_bedrock import (
    BedrockConfig,
    BedrockConverseModel,
    ConverseMapping,
    request_headers,
)
from course_vendor import NamedTool
from tests.course_provider_bedrock import bodies, frames
from tests.course_vendor.wire import AnyModel, Wire

MODEL = "anthropic.claude-test-v1:0"


def _bedrock(config: dict[str, Any], **options: Any) -> AnyModel:
    return BedrockConverseModel(BedrockConfig(MODEL, 64, region="us-east-1", **config), **options)


def _error(kind: str, message: str) -> bytes:
    return json.dumps({"message": message, "__type": kind}).encode()


def _error_events(message: str) -> list[bytes]:
    return [
        frames.exception("validationException", {"message": message}),
        frames.event("messageStart", {"role": "assistant"})
        + frames.exception("throttlingException", {"message": message}),
        frames.error("InternalFailure", message),
    ]


def _tool() -> list[SseEvent]:
    return bodies.tool_body()


WIRES = {
    BEDROCK_WIRE: Wire(
        BEDROCK_WIRE,
        "/model/anthropic.claude-test-v1%3A0/converse-stream",
        "AWS_BEARER_TOKEN_BEDROCK",
        "authorization",
        lambda key: f"Bearer {key}",
        _bedrock,
        bodies.text_body,
        _tool,
        _error,
        base_url="https://bedrock-runtime.us-east-1.amazonaws.com",
        parser=ConverseMapping,
        tool_call_id=bodies.TOOL_ID,
        error_events=_error_events,
        request_headers=request_headers,
        options={
            "temperature": 0.3,
            "top_p": 0.9,
            "stop_sequences": ("END",),
            "tool_choice": NamedTool("add"),
        },
        options_body={
            "inferenceConfig": {
                "maxTokens": 64,
                "temperature": 0.3,
                "topP": 0.9,
                "stopSequences": ["END"],
            },
            "toolConfig": {
                "tools": [
                    {
                        "toolSpec": {
                            "name": "add",
                            "description": "Add two integers.",
                            "inputSchema": {"json": {"type": "object"}},
                        }
                    }
                ],
                "toolChoice": {"tool": {"name": "add"}},
            },
        },
        changed_option=(
            "temperature",
            0.9,
            "inferenceConfig.temperature: recorded 0.3, sent 0.9",
        ),
        framed=frames.body_of,
        media=frames.STREAM,
        last_turn_choice="auto",
    ),
}
"""Every wire of this package's, by its registered name."""
