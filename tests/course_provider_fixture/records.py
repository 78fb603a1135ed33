"""Transport records in the reference course's dialect, and fixture documents built of them.

Shared by every test that feeds `FixtureProviderAdapter`: each builder's
defaults make a valid record, and every field can be replaced by any value,
valid or not.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

Record = dict[str, Any]

REPO_ROOT = Path(__file__).resolve().parents[2]
ROUNDTRIP_FIXTURE = REPO_ROOT / "fixtures" / "provider-tool-roundtrip.json"
"""The repository's own two-response fixture: a tool call, then the answer."""


def start(response_id: object = "r-1", role: object = "assistant") -> Record:
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


def fixture(*responses: object) -> dict[str, Any]:
    """A version 1 fixture document: one response per argument, each its records (or source)."""
    return {"schemaVersion": 1, "responses": [{"records": records} for records in responses]}
