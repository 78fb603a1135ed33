"""The three real vendor models side by side, for the tests of `VendorModel` they share.

A `Wire` holds what a test needs to drive one vendor's model without knowing
its vocabulary: how to build the model, a text answer and a Tool-call answer
as SSE bytes (our own bodies, built from the vendor test folders' event
builders), the vendor's error body, and where its key goes. `WIRES` is the
parametrization every shared test runs over.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import httpx2
import pytest

from course_http import HttpTransport, RecordedResponse, RecordedTransport, SseEvent, Timeouts
from course_protocol import (
    CourseModelChunk,
    CourseModelRequest,
    CourseModelResponse,
    CourseToolSpec,
    CourseUserMessage,
)
from course_provider_anthropic import VENDOR as ANTHROPIC_VENDOR
from course_provider_anthropic import AnthropicConfig, AnthropicMessagesModel
from course_provider_openai import (
    CHAT_COMPLETIONS_PATH,
    CHAT_VENDOR,
    DEFAULT_BASE_URL,
    RESPONSES_PATH,
    RESPONSES_VENDOR,
    OpenAIChatModel,
    OpenAIConfig,
    OpenAIResponsesModel,
)
from course_stream import EventStream
from course_vendor import VendorModel
from tests.course_provider_anthropic import bodies as anthropic
from tests.course_provider_openai import bodies as openai

KEY = "sk-wire-test-0123456789SECRET"
SSE = {"content-type": "text/event-stream"}
JSON = {"content-type": "application/json"}
REQUEST = CourseModelRequest("request-1", (CourseUserMessage("u-1", "What is 20 + 22?"),))
TOOLS = (CourseToolSpec("add", "Add two integers.", {"type": "object"}),)

AnyModel = VendorModel[Any]


def sse_bytes(events: Sequence[SseEvent]) -> bytes:
    """``events`` framed as a vendor sends them: an ``event:`` line unless unnamed, LF ends."""
    frames = []
    for event in events:
        head = "" if event.event == "message" else f"event: {event.event}\n"
        frames.append(f"{head}data: {event.data}\n\n")
    return "".join(frames).encode()


async def read_into(
    stream: EventStream[CourseModelChunk, CourseModelResponse], chunks: list[CourseModelChunk]
) -> None:
    """Iterate ``stream`` to its end, appending every chunk to ``chunks`` as it arrives."""
    async for chunk in stream:
        chunks.append(chunk)


@dataclass(frozen=True)
class Wire:
    """One vendor API as the shared tests see it.

    ``path`` is the endpoint under the base URL, as the vendor's SDK joins it
    (what a model sends over a transport whose base URL has no path);
    ``base_url`` is the vendor's own, as its SDK and environment variable spell it.
    """

    name: str
    path: str
    key_variable: str
    key_header: str
    key_value: Callable[[str], str]
    build: Callable[..., AnyModel]
    text_events: Callable[..., list[SseEvent]]
    tool_events: Callable[[], list[SseEvent]]
    error_body: Callable[[str, str], bytes]
    base_url: str

    def model(
        self,
        *,
        transport: HttpTransport | None = None,
        api_key: str | None = None,
        timeouts: Timeouts | None = None,
        base_url: str | None = None,
        tools: tuple[CourseToolSpec, ...] = TOOLS,
    ) -> AnyModel:
        """This vendor's model with ``tools`` (and ``timeouts``) configured, on ``base_url``.

        Without ``base_url``, the vendor's own.
        """
        config: dict[str, object] = {"tools": tools}
        if base_url is not None:
            config["base_url"] = base_url
        if timeouts is not None:
            config["timeouts"] = timeouts
        return self.build(config, api_key=api_key, transport=transport)

    def text_body(self, *deltas: str) -> bytes:
        """A whole text answer streamed in ``deltas``, as SSE bytes."""
        return sse_bytes(self.text_events(*deltas))

    def tool_body(self) -> bytes:
        """A whole answer that calls ``add`` with ``{"left": 20, "right": 22}``, as SSE bytes."""
        return sse_bytes(self.tool_events())

    def recorded(self, *bodies: bytes, **options: Any) -> RecordedTransport:
        """A recorded transport serving each body as a 200 event stream, in order."""
        return RecordedTransport([RecordedResponse(200, SSE, body) for body in bodies], **options)

    def served(self, *deltas: str) -> RecordedResponse:
        """A text answer as a recorded 200 event stream, to serve from a loopback server."""
        return RecordedResponse(200, SSE, self.text_body(*deltas))


def _anthropic(config: dict[str, Any], **options: Any) -> AnyModel:
    return AnthropicMessagesModel(AnthropicConfig("claude-test", 64, **config), **options)


def _openai(model: type[OpenAIChatModel] | type[OpenAIResponsesModel]) -> Callable[..., AnyModel]:
    def build(config: dict[str, Any], **options: Any) -> AnyModel:
        return model(OpenAIConfig("gpt-test", **config), **options)

    return build


def _anthropic_tool() -> list[SseEvent]:
    return anthropic.tool_body('{"left": 2', '0, "right": 22}', call_id="toolu_01add")


def _chat_tool() -> list[SseEvent]:
    return openai.chat_events(
        openai.chunk({"role": "assistant", "content": None}),
        openai.tool_start(0, "call_add_1", "add"),
        openai.tool_arguments(0, '{"left": 2'),
        openai.tool_arguments(0, '0, "right": 22}'),
        openai.finish("tool_calls"),
        openai.usage(),
        openai.DONE,
    )


def _responses_tool() -> list[SseEvent]:
    arguments = '{"left": 20, "right": 22}'
    added = openai.function_call("fc_1", "call_add_1", "add")
    done = openai.function_call("fc_1", "call_add_1", "add", arguments) | {"status": "completed"}
    where = {"item_id": "fc_1", "output_index": 0}
    return openai.responses_events(
        openai.created(),
        {"type": "response.output_item.added", "output_index": 0, "item": added},
        {"type": "response.function_call_arguments.delta", **where, "delta": '{"left": 2'},
        {"type": "response.function_call_arguments.delta", **where, "delta": '0, "right": 22}'},
        {"type": "response.function_call_arguments.done", **where, "arguments": arguments},
        {"type": "response.output_item.done", "output_index": 0, "item": done},
        openai.completed([done]),
    )


def _anthropic_error(kind: str, message: str) -> bytes:
    return json.dumps({"type": "error", "error": {"type": kind, "message": message}}).encode()


def _openai_error(kind: str, message: str) -> bytes:
    error = {"message": message, "type": kind, "param": None, "code": f"{kind}_code"}
    return json.dumps({"error": error}).encode()


WIRES = (
    Wire(
        ANTHROPIC_VENDOR,
        "/v1/messages",
        "ANTHROPIC_API_KEY",
        "x-api-key",
        lambda key: key,
        _anthropic,
        anthropic.text_body,
        _anthropic_tool,
        _anthropic_error,
        base_url="https://api.anthropic.com",
    ),
    Wire(
        CHAT_VENDOR,
        CHAT_COMPLETIONS_PATH,
        "OPENAI_API_KEY",
        "authorization",
        lambda key: f"Bearer {key}",
        _openai(OpenAIChatModel),
        openai.chat_text_stream,
        _chat_tool,
        _openai_error,
        base_url=DEFAULT_BASE_URL,
    ),
    Wire(
        RESPONSES_VENDOR,
        RESPONSES_PATH,
        "OPENAI_API_KEY",
        "authorization",
        lambda key: f"Bearer {key}",
        _openai(OpenAIResponsesModel),
        openai.responses_text_stream,
        _responses_tool,
        _openai_error,
        base_url=DEFAULT_BASE_URL,
    ),
)

every_wire = pytest.mark.parametrize("wire", WIRES, ids=[wire.name for wire in WIRES])
"""Run a test once per vendor API, with the `Wire` as its ``wire`` argument."""


class StallsBeforeTheStatus(httpx2.AsyncBaseTransport):
    """An httpx2 transport that takes the request and never answers, until cancelled.

    ``arrived`` is set once the request reached it; ``cancelled`` once the
    wait was cancelled (the call let go of it).
    """

    def __init__(self) -> None:
        self.arrived = asyncio.Event()
        self.cancelled = False

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        self.arrived.set()
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            self.cancelled = True
            raise
        raise AssertionError("unreachable: the wait above never ends by itself")


class StallingTransport(HttpTransport):
    """A course transport over `StallsBeforeTheStatus`: a server that never sends a status."""

    def __init__(self) -> None:
        self.exchange = StallsBeforeTheStatus()
        super().__init__("http://stalls.invalid", timeouts=Timeouts(read=None), trust_env=False)

    def _exchange(self) -> httpx2.AsyncBaseTransport:
        return self.exchange
