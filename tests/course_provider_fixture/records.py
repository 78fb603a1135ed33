"""Transport records in the reference course's dialect, built by name for the fixture tests."""

from __future__ import annotations

from typing import Any

Record = dict[str, Any]


def start(response_id: str = "r-1", role: object = "assistant") -> Record:
    return {"type": "response_start", "responseId": response_id, "role": role}


def text(value: object = "hi") -> Record:
    return {"type": "text_delta", "text": value}


def tool_call(call_id: object = "c-1", name: object = "add", arguments: object = None) -> Record:
    return {
        "type": "tool_call",
        "id": call_id,
        "name": name,
        "arguments": {"left": 20} if arguments is None else arguments,
    }


def end(response_id: object = "r-1", stop_reason: object = "stop", usage: object = None) -> Record:
    return {
        "type": "response_end",
        "responseId": response_id,
        "stopReason": stop_reason,
        "usage": {"inputTokens": 3, "outputTokens": 5} if usage is None else usage,
    }


def transport_error(code: object = "rate_limited", message: object = "slow down") -> Record:
    return {"type": "transport_error", "code": code, "message": message}
