"""The OpenAI Chat Completions and Responses wires for the shared vendor tests (found through
the vendor registry)."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import partial
from typing import Any

from course_http import SseEvent
from course_protocol import CourseResponseFormat
from course_provider_openai import (
    AZURE_API_KEY_VARIABLE,
    AZURE_CHAT_API_VERSION,
    AZURE_CHAT_PLUGIN,
    AZURE_OPENAI_CHAT,
    AZURE_OPENAI_RESPONSES,
    AZURE_RESPONSES_API_VERSION,
    AZURE_RESPONSES_WIRE,
    CHAT_COMPLETIONS_PATH,
    CHAT_DIALECTS,
    CHAT_WIRE,
    DEFAULT_BASE_URL,
    OPENROUTER_RESPONSES,
    RESPONSES_PATH,
    RESPONSES_WIRE,
    AzureOpenAIChatModel,
    AzureOpenAIResponsesModel,
    ChatDialect,
    ChatMapping,
    OpenAIChatModel,
    OpenAIConfig,
    OpenAIResponsesModel,
    ResponsesDialect,
    ResponsesMapping,
    UsagePlace,
    azure_request_headers,
    request_headers,
)
from course_vendor import NamedTool, ReasoningEffort
from tests.course_provider_openai import bodies as openai
from tests.course_vendor.wire import AnyModel, Wire, sse_frame


def _key_error(message: str) -> dict[str, object]:
    return {"message": message, "type": "invalid_request_error", "code": "invalid_api_key"}


def _chat_error_events(message: str) -> list[bytes]:
    return [
        sse_frame("error", {"error": _key_error(message)}),
        # Compatible vendors put the error object beside the choices of a chunk.
        sse_frame(
            None, {"id": "c1", "object": "chat.completion.chunk", "error": _key_error(message)}
        ),
    ]


def _responses_error_events(message: str) -> list[bytes]:
    failed = {**openai.created()["response"], "status": "failed", "error": _key_error(message)}
    top = {"code": "invalid_api_key", "message": message, "param": None}
    return [
        # The reference puts the fields at the top, recorded streams nest them.
        sse_frame("error", {"type": "error", "sequence_number": 0, **top}),
        sse_frame("error", {"type": "error", "sequence_number": 0, "error": _key_error(message)}),
        b"".join(
            sse_frame(event.event, json.loads(event.data))
            for event in openai.responses_events(
                openai.created(), {"type": "response.failed", "response": failed}
            )
        ),
    ]


_SHARED_OPTIONS: dict[str, Any] = {
    "temperature": 0.3,
    "top_p": 0.9,
    "tool_choice": NamedTool("add"),
    "parallel_tool_calls": False,
    "user_id": "user-7f3a",
    "reasoning": ReasoningEffort.LOW,
    "prompt_cache_key": "agent-v2",
    "service_tier": "flex",
    "store": True,
}
_SHARED_BODY: dict[str, Any] = {
    "temperature": 0.3,
    "top_p": 0.9,
    "parallel_tool_calls": False,
    "safety_identifier": "user-7f3a",
    "prompt_cache_key": "agent-v2",
    "service_tier": "flex",
    "store": True,
}
_CHANGED = ("temperature", 0.9, "temperature: recorded 0.3, sent 0.9")
_CHAT_OPTIONS: dict[str, Any] = {**_SHARED_OPTIONS, "stop_sequences": ("END",), "seed": 42}
"""The options every Chat wire sends, and what the Chat body holds for them."""
_CHAT_BODY: dict[str, Any] = {
    **_SHARED_BODY,
    "stop": ["END"],
    "seed": 42,
    "tool_choice": {"type": "function", "function": {"name": "add"}},
    "reasoning_effort": "low",
}
_RESPONSES_BODY: dict[str, Any] = {
    **_SHARED_BODY,
    "tool_choice": {"type": "function", "name": "add"},
    "reasoning": {"effort": "low"},
}
"""What the Responses body holds for the shared options, on every Responses wire."""


def _openai(model: type[OpenAIChatModel] | type[OpenAIResponsesModel]) -> Callable[..., AnyModel]:
    def build(config: dict[str, Any], **options: Any) -> AnyModel:
        return model(OpenAIConfig("gpt-test", **config), **options)

    return build


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


def _openai_error(kind: str, message: str) -> bytes:
    error = {"message": message, "type": kind, "param": None, "code": f"{kind}_code"}
    return json.dumps({"error": error}).encode()


def _dialect_model(dialect: ChatDialect) -> Callable[..., AnyModel]:
    def build(config: dict[str, Any], **options: Any) -> AnyModel:
        settings = {"base_url": dialect.base_url, **config}
        return OpenAIChatModel(OpenAIConfig("gpt-test", **settings), dialect=dialect, **options)

    return build


def _in_dialect(dialect: ChatDialect, events: list[SseEvent]) -> list[SseEvent]:
    """``events`` (OpenAI's: a usage chunk of its own) with the usage where ``dialect`` sends it."""
    if UsagePlace.LAST_CHUNK in dialect.usage:
        return events
    payloads: list[Any] = [
        event.data if event.data == openai.DONE else json.loads(event.data) for event in events
    ]
    [at] = [
        place
        for place, payload in enumerate(payloads)
        if isinstance(payload, dict) and "usage" in payload
    ]
    counts = payloads.pop(at)["usage"]
    finishing: dict[str, Any] = payloads[at - 1]
    if UsagePlace.FINISH_CHUNK in dialect.usage:
        finishing["usage"] = counts
    else:
        finishing["x_groq"] = {"id": "req_own_1", "usage": counts}
    return openai.chat_events(*payloads)


def _dialect_wire(dialect: ChatDialect) -> Wire:
    return Wire(
        dialect.wire,
        CHAT_COMPLETIONS_PATH,
        dialect.key_variable,
        "authorization",
        lambda key: f"Bearer {key}",
        _dialect_model(dialect),
        lambda *deltas: _in_dialect(dialect, openai.chat_text_stream(*deltas)),
        lambda: _in_dialect(dialect, _chat_tool()),
        _openai_error,
        base_url=dialect.base_url,
        parser=partial(ChatMapping, dialect=dialect),
        tool_call_id="call_add_1",
        error_events=_chat_error_events,
        request_headers=request_headers,
        options=_CHAT_OPTIONS,
        options_body=_CHAT_BODY,
        changed_option=_CHANGED,
    )


def _responses_dialect_model(dialect: ResponsesDialect) -> Callable[..., AnyModel]:
    def build(config: dict[str, Any], **options: Any) -> AnyModel:
        settings = {"base_url": dialect.base_url, **config}
        return OpenAIResponsesModel(
            OpenAIConfig("gpt-test", **settings), dialect=dialect, **options
        )

    return build


def _with_done(events: list[SseEvent]) -> list[SseEvent]:
    """``events`` ended as OpenRouter ends a Responses stream: ``[DONE]`` after the terminal."""
    return [*events, SseEvent("message", openai.DONE)]


AZURE_ENDPOINT = AZURE_CHAT_PLUGIN.base_url


def _azure(
    model: type[AzureOpenAIChatModel] | type[AzureOpenAIResponsesModel], api_version: str
) -> Callable[..., AnyModel]:
    def build(config: dict[str, Any], **options: Any) -> AnyModel:
        settings = {"base_url": AZURE_ENDPOINT, **config}
        return model(OpenAIConfig("gpt-test", **settings), api_version=api_version, **options)

    return build


WIRES = {
    CHAT_WIRE: Wire(
        CHAT_WIRE,
        CHAT_COMPLETIONS_PATH,
        "OPENAI_API_KEY",
        "authorization",
        lambda key: f"Bearer {key}",
        _openai(OpenAIChatModel),
        openai.chat_text_stream,
        _chat_tool,
        _openai_error,
        base_url=DEFAULT_BASE_URL,
        parser=ChatMapping,
        tool_call_id="call_add_1",
        error_events=_chat_error_events,
        request_headers=request_headers,
        options={
            **_CHAT_OPTIONS,
            "response_format": CourseResponseFormat("sum", {"type": "object"}),
        },
        options_body={
            **_CHAT_BODY,
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": "sum", "schema": {"type": "object"}, "strict": True},
            },
        },
        changed_option=_CHANGED,
    ),
    RESPONSES_WIRE: Wire(
        RESPONSES_WIRE,
        RESPONSES_PATH,
        "OPENAI_API_KEY",
        "authorization",
        lambda key: f"Bearer {key}",
        _openai(OpenAIResponsesModel),
        openai.responses_text_stream,
        _responses_tool,
        _openai_error,
        base_url=DEFAULT_BASE_URL,
        parser=ResponsesMapping,
        tool_call_id="call_add_1",
        error_events=_responses_error_events,
        request_headers=request_headers,
        options=_SHARED_OPTIONS,
        options_body=_RESPONSES_BODY,
        changed_option=_CHANGED,
    ),
    **{dialect.wire: _dialect_wire(dialect) for dialect in CHAT_DIALECTS},
    OPENROUTER_RESPONSES.wire: Wire(
        OPENROUTER_RESPONSES.wire,
        RESPONSES_PATH,
        OPENROUTER_RESPONSES.key_variable,
        "authorization",
        lambda key: f"Bearer {key}",
        _responses_dialect_model(OPENROUTER_RESPONSES),
        lambda *deltas: _with_done(openai.responses_text_stream(*deltas)),
        lambda: _with_done(_responses_tool()),
        _openai_error,
        base_url=OPENROUTER_RESPONSES.base_url,
        parser=partial(ResponsesMapping, dialect=OPENROUTER_RESPONSES),
        tool_call_id="call_add_1",
        error_events=_responses_error_events,
        request_headers=request_headers,
        options=_SHARED_OPTIONS,
        options_body=_RESPONSES_BODY,
        changed_option=_CHANGED,
    ),
    AZURE_OPENAI_CHAT.wire: Wire(
        AZURE_OPENAI_CHAT.wire,
        f"/openai/deployments/gpt-test/chat/completions?api-version={AZURE_CHAT_API_VERSION}",
        AZURE_API_KEY_VARIABLE,
        "api-key",
        lambda key: key,
        _azure(AzureOpenAIChatModel, AZURE_CHAT_API_VERSION),
        openai.chat_text_stream,
        _chat_tool,
        _openai_error,
        base_url=AZURE_ENDPOINT,
        parser=partial(ChatMapping, dialect=AZURE_OPENAI_CHAT),
        tool_call_id="call_add_1",
        error_events=_chat_error_events,
        request_headers=azure_request_headers,
        options=_CHAT_OPTIONS,
        options_body=_CHAT_BODY,
        changed_option=_CHANGED,
    ),
    AZURE_RESPONSES_WIRE: Wire(
        AZURE_RESPONSES_WIRE,
        f"/openai/responses?api-version={AZURE_RESPONSES_API_VERSION}",
        AZURE_API_KEY_VARIABLE,
        "api-key",
        lambda key: key,
        _azure(AzureOpenAIResponsesModel, AZURE_RESPONSES_API_VERSION),
        openai.responses_text_stream,
        _responses_tool,
        _openai_error,
        base_url=AZURE_ENDPOINT,
        parser=partial(ResponsesMapping, dialect=AZURE_OPENAI_RESPONSES),
        tool_call_id="call_add_1",
        error_events=_responses_error_events,
        request_headers=azure_request_headers,
        options=_SHARED_OPTIONS,
        options_body=_RESPONSES_BODY,
        changed_option=_CHANGED,
    ),
}
"""Every wire of this package's, by its registered name: OpenAI's two, the Chat dialect of
each compatible server (its usage where it sends it, OpenAI's Chat otherwise), OpenRouter's
Responses (OpenAI's stream with ``[DONE]`` after the terminal) and Azure's two."""
