"""A fake vendor API for the httpx2 transport tests: an ``httpx2.MockTransport`` upstream.

`Upstream` answers the Anthropic Messages, OpenAI Chat Completions and Gemini
generateContent paths (and a model listing) with bodies written here, in the vendors' shapes: a
streamed answer when the request asks for a stream, a JSON one otherwise.
It records every request it received, headers included, so a test can say
what reached "the API" and what reached the cassette.
"""

from __future__ import annotations

import json
from typing import Any

import httpx2

__all__ = [
    "ANTHROPIC_KEY",
    "ANTHROPIC_MESSAGE",
    "ANTHROPIC_SSE",
    "CHAT_COMPLETION",
    "CHAT_SSE",
    "GEMINI_KEY",
    "GEMINI_RESPONSE",
    "GEMINI_SSE",
    "MODELS",
    "OPENAI_KEY",
    "Upstream",
]

ANTHROPIC_KEY = "sk-ant-api03-Zq8vN2xR5tLm1Pw7Yc4Hd9Kf3Bj6Gs0Ua8Ei2Oo5Ty1Rn7Vx4Mb9Qp3Wl6Sz0Dk"
OPENAI_KEY = "sk-proj-Hd9Kf3Bj6Gs0Ua8Ei2Oo5Ty1Rn7Vx4Mb9Qp3Wl6Sz0DkZq8vN2xR5tLm1Pw7Yc4"
GEMINI_KEY = "AIzaSyB-Zq8vN2xR5tLm1Pw7Yc4Hd9Kf3Bj6Gs0U"


def _sse(events: list[tuple[str | None, dict[str, Any] | str]]) -> bytes:
    lines = []
    for name, data in events:
        text = data if isinstance(data, str) else json.dumps(data, separators=(",", ":"))
        lines.append((f"event: {name}\n" if name else "") + f"data: {text}\n\n")
    return "".join(lines).encode()


_MESSAGE: dict[str, Any] = {
    "id": "msg_own_1",
    "type": "message",
    "role": "assistant",
    "model": "claude-own",
    "content": [],
    "stop_reason": None,
    "stop_sequence": None,
    "usage": {"input_tokens": 7, "output_tokens": 1},
}

ANTHROPIC_SSE = _sse(
    [
        ("message_start", {"type": "message_start", "message": _MESSAGE}),
        (
            "content_block_start",
            {
                "type": "content_block_start",
                "index": 0,
                "content_block": {"type": "text", "text": ""},
            },
        ),
        (
            "content_block_delta",
            {
                "type": "content_block_delta",
                "index": 0,
                "delta": {"type": "text_delta", "text": "Hel"},
            },
        ),
        (
            "content_block_delta",
            {
                "type": "content_block_delta",
                "index": 0,
                "delta": {"type": "text_delta", "text": "lo"},
            },
        ),
        ("content_block_stop", {"type": "content_block_stop", "index": 0}),
        (
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                "usage": {"output_tokens": 2},
            },
        ),
        ("message_stop", {"type": "message_stop"}),
    ]
)
"""A streamed Messages answer, "Hello", that the strict parser accepts."""

ANTHROPIC_MESSAGE = json.dumps(
    {
        **_MESSAGE,
        "content": [{"type": "text", "text": "Hello"}],
        "stop_reason": "end_turn",
        "usage": {"input_tokens": 7, "output_tokens": 2},
    }
).encode()
"""The same answer, not streamed."""


def _chunk(
    delta: dict[str, Any] | None, finish: str | None = None, **more: object
) -> dict[str, Any]:
    choices = [] if delta is None else [{"index": 0, "delta": delta, "finish_reason": finish}]
    return {
        "id": "chatcmpl-own-1",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "gpt-own",
        "choices": choices,
        **more,
    }


CHAT_SSE = _sse(
    [
        (None, _chunk({"role": "assistant", "content": "Hel"})),
        (None, _chunk({"content": "lo"})),
        (None, _chunk({}, "stop")),
        (None, _chunk(None, usage={"prompt_tokens": 7, "completion_tokens": 2, "total_tokens": 9})),
        (None, "[DONE]"),
    ]
)
"""A streamed Chat Completions answer, "Hello", that the strict parser accepts."""

CHAT_COMPLETION = json.dumps(
    {
        "id": "chatcmpl-own-2",
        "object": "chat.completion",
        "created": 1,
        "model": "gpt-own",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": "Hello"},
                "finish_reason": "stop",
            }
        ],
        "usage": {"prompt_tokens": 7, "completion_tokens": 2, "total_tokens": 9},
    }
).encode()


def _gemini(*parts: dict[str, Any], finish: str | None = None, output: int = 1) -> dict[str, Any]:
    candidate: dict[str, Any] = {"content": {"parts": list(parts), "role": "model"}, "index": 0}
    if finish is not None:
        candidate["finishReason"] = finish
    return {
        "candidates": [candidate],
        "usageMetadata": {
            "promptTokenCount": 7,
            "candidatesTokenCount": output,
            "totalTokenCount": 7 + output,
        },
        "modelVersion": "gemini-own",
        "responseId": "resp-own-1",
    }


GEMINI_SSE = _sse(
    [
        (None, _gemini({"text": "Hel"})),
        (None, _gemini({"text": "lo"}, output=2)),
        (None, _gemini({"text": ""}, finish="STOP", output=2)),
    ]
)
"""A streamed Gemini answer (``alt=sse``), "Hello", that the strict parser accepts."""

GEMINI_RESPONSE = json.dumps(_gemini({"text": "Hello"}, finish="STOP", output=2)).encode()
"""The same answer, not streamed (``:generateContent``)."""

MODELS = json.dumps(
    {
        "object": "list",
        "data": [{"id": "gpt-own", "object": "model", "created": 1, "owned_by": "own"}],
    }
).encode()


class Upstream:
    """The "real API" of a recording: answers by path, remembers every request it received.

    ``sse`` replaces the streamed bodies (a hostile one); ``statuses`` are
    answered first, one per request (a 529 before the answer, to see a retry).
    """

    def __init__(
        self,
        *,
        anthropic_sse: bytes = ANTHROPIC_SSE,
        chat_sse: bytes = CHAT_SSE,
        statuses: tuple[int, ...] = (),
    ) -> None:
        self.received: list[httpx2.Request] = []
        self._anthropic_sse = anthropic_sse
        self._chat_sse = chat_sse
        self._statuses = list(statuses)
        self.transport = httpx2.MockTransport(self._answer)

    def _answer(self, request: httpx2.Request) -> httpx2.Response:
        self.received.append(request)
        if self._statuses:
            status = self._statuses.pop(0)
            error = {"type": "error", "error": {"type": "overloaded_error", "message": "busy"}}
            return httpx2.Response(status, json=error, headers={"retry-after-ms": "1"})
        path = request.url.path
        if request.method == "GET" and path == "/v1/models":
            return httpx2.Response(
                200, content=MODELS, headers={"content-type": "application/json"}
            )
        body = json.loads(request.content)
        streamed = bool(body.get("stream"))
        if path == "/v1/messages":
            return _answer(streamed, self._anthropic_sse, ANTHROPIC_MESSAGE)
        if path == "/v1/chat/completions":
            return _answer(streamed, self._chat_sse, CHAT_COMPLETION)
        if path.startswith("/v1beta/models/"):
            # Gemini says "stream" in the method of the path, not in the body.
            return _answer(path.endswith(":streamGenerateContent"), GEMINI_SSE, GEMINI_RESPONSE)
        return httpx2.Response(404, json={"error": {"message": f"no {path}"}})


def _answer(streamed: bool, sse: bytes, plain: bytes) -> httpx2.Response:
    if streamed:
        headers = {"content-type": "text/event-stream; charset=utf-8", "request-id": "req_own"}
        return httpx2.Response(200, content=sse, headers=headers)
    return httpx2.Response(200, content=plain, headers={"content-type": "application/json"})
