"""The Gemini wire for the shared vendor tests (found through the vendor registry)."""

from __future__ import annotations

import json
from typing import Any

from course_http import SseEvent
from course_provider_gemini import WIRE as GEMINI_WIRE
from course_provider_gemini import GeminiConfig, GeminiMapping, GeminiModel, request_headers
from course_vendor import NamedTool, ThinkingBudget
from tests.course_provider_gemini import bodies as gemini
from tests.course_vendor.wire import AnyModel, Wire, sse_frame

MODEL = "gemini-test"


def _gemini(config: dict[str, Any], **options: Any) -> AnyModel:
    return GeminiModel(GeminiConfig(MODEL, 64, **config), **options)


def _gemini_tool() -> list[SseEvent]:
    return gemini.tool_body()


def _gemini_error(kind: str, message: str) -> bytes:
    return json.dumps({"error": {"code": 400, "message": message, "status": kind}}).encode()


def _gemini_error_events(message: str) -> list[bytes]:
    error = {"error": {"code": 400, "message": message, "status": "INVALID_ARGUMENT"}}
    return [
        sse_frame(None, error),
        # Between the frames, an error object may come bare (no data: prefix).
        b"data: "
        + gemini.chunk(gemini.text("a")).data.encode()
        + b"\r\n\r\n"
        + json.dumps(error, indent=2).encode(),
    ]


WIRES = {
    GEMINI_WIRE: Wire(
        GEMINI_WIRE,
        f"/v1beta/models/{MODEL}:streamGenerateContent?alt=sse",
        "GOOGLE_API_KEY",
        "x-goog-api-key",
        lambda key: key,
        _gemini,
        gemini.text_body,
        _gemini_tool,
        _gemini_error,
        base_url="https://generativelanguage.googleapis.com",
        parser=GeminiMapping,
        tool_call_id=gemini.RESPONSE_ID + "-call-0",
        error_events=_gemini_error_events,
        request_headers=request_headers,
        options={
            "temperature": 0.3,
            "top_p": 0.9,
            "top_k": 20,
            "seed": 42,
            "stop_sequences": ("END",),
            "tool_choice": NamedTool("add"),
            "reasoning": ThinkingBudget(1024),
        },
        options_body={
            "toolConfig": {
                "functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["add"]}
            },
            "generationConfig": {
                "maxOutputTokens": 64,
                "temperature": 0.3,
                "topP": 0.9,
                "topK": 20,
                "seed": 42,
                "stopSequences": ["END"],
                "thinkingConfig": {"thinkingBudget": 1024},
            },
        },
        changed_option=(
            "temperature",
            0.9,
            "generationConfig.temperature: recorded 0.3, sent 0.9",
        ),
    ),
}
"""Every wire of this package's, by its registered name."""
