"""A two-turn agent loop with Anthropic extended thinking and a Tool, replayed offline.

The first answer thinks, then calls ``add``; the loop runs the Tool and asks
again. The second call is made by another model instance that holds nothing
but the transcript, read back from its course JSON (as another process would
read it), and it sends the thinking block back exactly as it came, signature
included, before the Tool call of its turn: what the Messages API requires
when thinking and Tools go together. Both answers are bodies written here in
the vendor's streaming shape, served by a ``RecordedTransport``: no network,
no key.

Run it with ``uv run python examples/thinking_with_tools.py``.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from course_http import RecordedResponse, RecordedTransport
from course_protocol import (
    CourseModelRequest,
    CourseModelResponse,
    CourseReasoningDeltaChunk,
    CourseTextDeltaChunk,
    CourseToolCall,
    CourseToolCallChunk,
    CourseToolResultMessage,
    CourseToolSpec,
    CourseUserMessage,
    parse_request,
    text_from_assistant,
    thaw_json,
    to_json,
)
from course_provider_anthropic import AnthropicConfig, AnthropicMessagesModel
from course_stream import AbortController
from course_vendor import ThinkingBudget

SIGNATURE = "EqQBCkgIARABGAIiQExampleSignature0000000000"


def sse(*events: dict[str, object]) -> bytes:
    """A streamed Messages API body: each event named after its data's type."""
    return "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in events).encode()


def start(message_id: str, input_tokens: int) -> dict[str, object]:
    usage = {"input_tokens": input_tokens, "output_tokens": 1}
    message = {"id": message_id, "role": "assistant", "content": [], "usage": usage}
    return {"type": "message_start", "message": message}


def block(index: int, content: dict[str, object]) -> dict[str, object]:
    return {"type": "content_block_start", "index": index, "content_block": content}


def delta(index: int, payload: dict[str, object]) -> dict[str, object]:
    return {"type": "content_block_delta", "index": index, "delta": payload}


def stop(index: int) -> dict[str, object]:
    return {"type": "content_block_stop", "index": index}


def end(reason: str, output_tokens: int) -> list[dict[str, object]]:
    usage = {"output_tokens": output_tokens}
    final: dict[str, object] = {
        "type": "message_delta",
        "delta": {"stop_reason": reason},
        "usage": usage,
    }
    return [final, {"type": "message_stop"}]


FIRST = sse(
    start("msg_01Think", 40),
    block(0, {"type": "thinking", "thinking": "", "signature": ""}),
    delta(0, {"type": "thinking_delta", "thinking": "20 + 22 needs the add Tool; "}),
    delta(0, {"type": "thinking_delta", "thinking": "I will call it."}),
    delta(0, {"type": "signature_delta", "signature": SIGNATURE}),
    stop(0),
    block(1, {"type": "tool_use", "id": "toolu_01Add", "name": "add", "input": {}}),
    delta(1, {"type": "input_json_delta", "partial_json": '{"left": 20, "right": 22}'}),
    stop(1),
    *end("tool_use", 30),
)
SECOND = sse(
    start("msg_02Answer", 90),
    block(0, {"type": "text", "text": ""}),
    delta(0, {"type": "text_delta", "text": "The sum is 42."}),
    stop(0),
    *end("end_turn", 8),
)
SERVED = {"content-type": "text/event-stream"}
CONFIG = AnthropicConfig(
    "claude-sonnet-4-5",
    4096,
    tools=(CourseToolSpec("add", "Add two integers.", {"type": "object"}),),
    reasoning=ThinkingBudget(2048),
)


async def call(body: bytes, request: CourseModelRequest) -> tuple[CourseModelResponse, Any]:
    """One call by a fresh model over ``body``: print its chunks; return it and the body sent."""
    transport = RecordedTransport([RecordedResponse(200, SERVED, body)])
    async with transport, AnthropicMessagesModel(CONFIG, transport=transport) as model:
        stream = model.stream(request, AbortController().signal)
        async for chunk in stream:
            if type(chunk) is CourseReasoningDeltaChunk:
                print(f"  reasoning  {chunk.delta!r}")
            elif type(chunk) is CourseTextDeltaChunk:
                print(f"  text       {chunk.delta!r}")
            elif type(chunk) is CourseToolCallChunk:
                arguments = json.dumps(thaw_json(chunk.tool_call.arguments))
                print(f"  toolCall   {chunk.tool_call.name} {arguments}")
        response = await stream.result
    sent = thaw_json(transport.requests[0].body)
    print(f"  stop       {response.stop_reason.value}")
    return response, sent


async def main() -> None:
    ask = CourseUserMessage("u-1", "What is 20 + 22?")
    print("call 1")
    first, _ = await call(FIRST, CourseModelRequest("request-1", [ask]))
    (tool_call,) = [b for b in first.message.content if type(b) is CourseToolCall]
    arguments: Any = thaw_json(tool_call.arguments)
    total = arguments["left"] + arguments["right"]
    result = CourseToolResultMessage("r-1", tool_call.id, tool_call.name, str(total))
    print(f"  tool       {tool_call.name} ran locally: {total}")
    transcript = CourseModelRequest("request-2", [ask, first.message, result])
    # Another process would hold only this JSON: the thinking's signature travels in it.
    read_back = parse_request(json.loads(json.dumps(to_json(transcript)))).unwrap()

    print("call 2 (a new model instance, from the transcript's JSON)")
    second, sent = await call(SECOND, read_back)
    thinking = sent["messages"][1]["content"][0]
    print(f"  sent back  {json.dumps(thinking)}")
    assert thinking == {
        "type": "thinking",
        "thinking": "20 + 22 needs the add Tool; I will call it.",
        "signature": SIGNATURE,
    }
    print(f"answer       {text_from_assistant(second.message)}")


if __name__ == "__main__":
    asyncio.run(main())
