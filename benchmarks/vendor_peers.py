"""The official SDKs and pydantic-ai over the same in-memory bytes, one adapter per row.

Each ``prepare_*`` takes a `VendorBody` and returns a set-up callable (see
``benchmarks._timing.Prepare``): it builds the SDK client (or the
pydantic-ai model) on an ``httpx2.AsyncClient`` whose transport serves the
body in-process, and hands back the timed pass, which makes the call,
consumes every event and checks the result: the pass returns the body's
delta count only when the SDK saw every delta and ended with the right text
or Tool arguments (so a pass that skipped work cannot be timed as valid).
Peers are imported lazily through ``importlib``; a missing one raises
``PeerNotInstalledError``. The SDKs retry nothing here (``max_retries=0``).
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from benchmarks._gemini_peers import prepare_gemini_raw
from benchmarks._inprocess import in_process_client
from benchmarks._timing import AsyncRun, Prepare
from benchmarks._vendor_bodies import TOOL_NAME, Api, VendorBody
from benchmarks.peers import PeerNotInstalledError

__all__ = ["SDK_RAW", "VENDOR_PEERS", "VendorPeer"]

_KEY = "bench-key-not-secret"
_SCHEMA = {
    "type": "object",
    "properties": {"text": {"type": "string"}},
    "required": ["text"],
    "additionalProperties": False,
}
_BASE_URL = "http://in-process.invalid"
_NETWORK_SECONDS = 60.0
"""The SDKs' timeout when they talk to a real server (``course serve`` on 127.0.0.1)."""


def _module(name: str) -> Any:
    try:
        return importlib.import_module(name)
    except ImportError as error:
        raise PeerNotInstalledError(f"not installed ({error.name or name})") from error


def _checked(body: VendorBody, seen: int, result: object) -> int:
    """``body.deltas`` when ``seen`` counts every delta and ``result`` is what was streamed."""
    if seen != body.deltas or result != body.expected:
        raise AssertionError(
            f"{body.api} {body.shape}: saw {seen} of {body.deltas} deltas, result differs: "
            f"{result != body.expected}"
        )
    return seen


def _anthropic_client(body: VendorBody, base_url: str | None = None) -> Any:
    anthropic = _module("anthropic")
    if base_url is not None:
        return anthropic.AsyncAnthropic(
            api_key=_KEY, base_url=base_url, max_retries=0, timeout=_NETWORK_SECONDS
        )
    return anthropic.AsyncAnthropic(
        api_key=_KEY, base_url=_BASE_URL, http_client=in_process_client(body.body), max_retries=0
    )


def _anthropic_arguments(body: VendorBody) -> dict[str, Any]:
    arguments: dict[str, Any] = {
        "model": "claude-sonnet-4-20250514",
        "max_tokens": 1024,
        "messages": [{"role": "user", "content": "bench"}],
    }
    if body.shape == "tool":
        tool = {"name": TOOL_NAME, "description": "Write a note.", "input_schema": _SCHEMA}
        arguments["tools"] = [tool]
    return arguments


def _anthropic_result(message: Any, body: VendorBody) -> object:
    block = message.content[0]
    return block.text if body.shape == "text" else block.input


def prepare_anthropic_raw(body: VendorBody, base_url: str | None = None) -> Prepare:
    """``AsyncAnthropic().messages.create(stream=True)``, every raw event iterated.

    In-process, or against the server at ``base_url`` when one is given.
    """
    _module("anthropic")

    def prepare() -> AsyncRun:
        client = _anthropic_client(body, base_url)

        async def run() -> int:
            stream = await client.messages.create(**_anthropic_arguments(body), stream=True)
            seen = 0
            pieces: list[str] = []
            async for event in stream:
                if event.type == "content_block_delta":
                    seen += 1
                    delta = event.delta
                    pieces.append(delta.text if delta.type == "text_delta" else delta.partial_json)
            await client.close()
            joined = "".join(pieces)
            return _checked(body, seen, joined if body.shape == "text" else json.loads(joined))

        return run

    return prepare


def prepare_anthropic_helper(body: VendorBody) -> Prepare:
    """``messages.stream()``: every event iterated, then ``get_final_message()``."""
    _module("anthropic")

    def prepare() -> AsyncRun:
        client = _anthropic_client(body)

        async def run() -> int:
            seen = 0
            async with client.messages.stream(**_anthropic_arguments(body)) as stream:
                async for event in stream:
                    if event.type == "content_block_delta":
                        seen += 1
                message = await stream.get_final_message()
            await client.close()
            return _checked(body, seen, _anthropic_result(message, body))

        return run

    return prepare


def _openai_client(body: VendorBody, base_url: str | None = None) -> Any:
    openai = _module("openai")
    if base_url is not None:
        return openai.AsyncOpenAI(
            api_key=_KEY, base_url=f"{base_url}/v1", max_retries=0, timeout=_NETWORK_SECONDS
        )
    return openai.AsyncOpenAI(
        api_key=_KEY,
        base_url=f"{_BASE_URL}/v1",
        http_client=in_process_client(body.body),
        max_retries=0,
    )


def _chat_arguments(body: VendorBody) -> dict[str, Any]:
    arguments: dict[str, Any] = {
        "model": "gpt-4o-2024-08-06",
        "messages": [{"role": "user", "content": "bench"}],
        "stream_options": {"include_usage": True},
    }
    if body.shape == "tool":
        function = {
            "name": TOOL_NAME,
            "description": "Write a note.",
            "parameters": _SCHEMA,
            "strict": True,
        }
        arguments["tools"] = [{"type": "function", "function": function}]
    return arguments


def prepare_chat_raw(body: VendorBody, base_url: str | None = None) -> Prepare:
    """``AsyncOpenAI().chat.completions.create(stream=True)``, every chunk iterated.

    In-process, or against the server at ``base_url`` when one is given.
    """
    _module("openai")

    def prepare() -> AsyncRun:
        client = _openai_client(body, base_url)

        async def run() -> int:
            stream = await client.chat.completions.create(**_chat_arguments(body), stream=True)
            seen = 0
            pieces: list[str] = []
            async for chunk in stream:
                if not chunk.choices:
                    continue
                delta = chunk.choices[0].delta
                if delta.content:
                    seen += 1
                    pieces.append(delta.content)
                elif delta.tool_calls and delta.tool_calls[0].function.arguments:
                    seen += 1
                    pieces.append(delta.tool_calls[0].function.arguments)
            await client.close()
            joined = "".join(pieces)
            return _checked(body, seen, joined if body.shape == "text" else json.loads(joined))

        return run

    return prepare


def _chat_helper_delta(event: Any) -> bool:
    """Whether a ``chat.completions.stream()`` event carries a non-empty text or argument delta."""
    if event.type == "content.delta":
        return bool(event.delta)
    return event.type == "tool_calls.function.arguments.delta" and bool(event.arguments_delta)


def prepare_chat_helper(body: VendorBody) -> Prepare:
    """``chat.completions.stream()``: every event iterated, then ``get_final_completion()``.

    The Tool is declared ``strict``, as the helper's own tool helpers declare
    them, so the helper does its per-fragment argument parsing.
    """
    _module("openai")

    def prepare() -> AsyncRun:
        client = _openai_client(body)

        async def run() -> int:
            seen = 0
            async with client.chat.completions.stream(**_chat_arguments(body)) as stream:
                async for event in stream:
                    if _chat_helper_delta(event):
                        seen += 1
                completion = await stream.get_final_completion()
            await client.close()
            message = completion.choices[0].message
            if body.shape == "text":
                return _checked(body, seen, message.content)
            return _checked(body, seen, json.loads(message.tool_calls[0].function.arguments))

        return run

    return prepare


def _responses_arguments(body: VendorBody) -> dict[str, Any]:
    arguments: dict[str, Any] = {"model": "gpt-4o-2024-08-06", "input": "bench"}
    if body.shape == "tool":
        tool = {
            "type": "function",
            "name": TOOL_NAME,
            "description": "Write a note.",
            "parameters": _SCHEMA,
            "strict": True,
        }
        arguments["tools"] = [tool]
    return arguments


_RESPONSES_DELTAS = ("response.output_text.delta", "response.function_call_arguments.delta")


def _responses_result(response: Any, body: VendorBody) -> object:
    item = response.output[0]
    if body.shape == "text":
        return item.content[0].text
    return json.loads(item.arguments)


def prepare_responses_raw(body: VendorBody, base_url: str | None = None) -> Prepare:
    """``AsyncOpenAI().responses.create(stream=True)``, every event iterated.

    In-process, or against the server at ``base_url`` when one is given.
    """
    _module("openai")

    def prepare() -> AsyncRun:
        client = _openai_client(body, base_url)

        async def run() -> int:
            stream = await client.responses.create(**_responses_arguments(body), stream=True)
            seen = 0
            final = None
            async for event in stream:
                if event.type in _RESPONSES_DELTAS:
                    seen += 1
                elif event.type == "response.completed":
                    final = event.response
            await client.close()
            return _checked(body, seen, _responses_result(final, body))

        return run

    return prepare


def prepare_responses_helper(body: VendorBody) -> Prepare:
    """``responses.stream()``: every event iterated, then ``get_final_response()``."""
    _module("openai")

    def prepare() -> AsyncRun:
        client = _openai_client(body)

        async def run() -> int:
            seen = 0
            async with client.responses.stream(**_responses_arguments(body)) as stream:
                async for event in stream:
                    if event.type in _RESPONSES_DELTAS:
                        seen += 1
                response = await stream.get_final_response()
            await client.close()
            return _checked(body, seen, _responses_result(response, body))

        return run

    return prepare


def _pydantic_ai_model(api: Api, body: VendorBody) -> Any:
    if api == "anthropic-messages":
        models = _module("pydantic_ai.models.anthropic")
        providers = _module("pydantic_ai.providers.anthropic")
        provider = providers.AnthropicProvider(anthropic_client=_anthropic_client(body))
        return models.AnthropicModel("claude-sonnet-4-20250514", provider=provider)
    models = _module("pydantic_ai.models.openai")
    providers = _module("pydantic_ai.providers.openai")
    provider = providers.OpenAIProvider(openai_client=_openai_client(body))
    model_class = models.OpenAIChatModel if api == "openai-chat" else models.OpenAIResponsesModel
    return model_class("gpt-4o-2024-08-06", provider=provider)


def prepare_pydantic_ai(body: VendorBody) -> Prepare:
    """pydantic-ai's model for the API at the model level: ``request_stream``, every event.

    The pass counts the deltas pydantic-ai publishes (``PartDeltaEvent`` s,
    plus the first piece when it arrives in a ``PartStartEvent``) and checks
    ``response.get()``.
    """
    _module("pydantic_ai.models.function")
    models = _module("pydantic_ai.models")
    messages = _module("pydantic_ai.messages")
    tools = _module("pydantic_ai.tools")
    request = [messages.ModelRequest(parts=[messages.UserPromptPart("bench")])]
    function_tools = []
    if body.shape == "tool":
        definition = tools.ToolDefinition(
            name=TOOL_NAME, description="Write a note.", parameters_json_schema=_SCHEMA
        )
        function_tools.append(definition)

    def prepare() -> AsyncRun:
        model = _pydantic_ai_model(body.api, body)
        parameters = models.ModelRequestParameters(function_tools=function_tools)

        async def run() -> int:
            async with model.request_stream(request, None, parameters) as response:
                async for _event in response:
                    pass
            final = response.get()
            await model.client.close()
            part = final.parts[-1]
            if body.shape == "text":
                return _checked(body, body.deltas, part.content)
            return _checked(body, body.deltas, part.args_as_dict())

        return run

    return prepare


@dataclass(frozen=True)
class VendorPeer:
    """A peer row of the vendors group: its name, which API it reads, and its adapter."""

    name: str
    api: Api
    prepare: Callable[[VendorBody], Prepare]


VENDOR_PEERS = (
    VendorPeer(
        "anthropic SDK messages.create(stream=True)", "anthropic-messages", prepare_anthropic_raw
    ),
    VendorPeer(
        "anthropic SDK messages.stream() + final message",
        "anthropic-messages",
        prepare_anthropic_helper,
    ),
    VendorPeer(
        "pydantic-ai AnthropicModel.request_stream", "anthropic-messages", prepare_pydantic_ai
    ),
    VendorPeer("openai SDK chat.completions.create(stream=True)", "openai-chat", prepare_chat_raw),
    VendorPeer(
        "openai SDK chat.completions.stream() + final completion",
        "openai-chat",
        prepare_chat_helper,
    ),
    VendorPeer("pydantic-ai OpenAIChatModel.request_stream", "openai-chat", prepare_pydantic_ai),
    VendorPeer(
        "openai SDK responses.create(stream=True)", "openai-responses", prepare_responses_raw
    ),
    VendorPeer(
        "openai SDK responses.stream() + final response",
        "openai-responses",
        prepare_responses_helper,
    ),
    VendorPeer(
        "pydantic-ai OpenAIResponsesModel.request_stream", "openai-responses", prepare_pydantic_ai
    ),
    VendorPeer("google-genai SDK aio.models.generate_content_stream", "gemini", prepare_gemini_raw),
)
"""Every peer row: three per API (the SDK raw, the SDK helper, pydantic-ai), one for Gemini.

The google-genai SDK has no stream helper that collects a final response.
"""

SDK_RAW: dict[Api, Callable[[VendorBody, str | None], Prepare]] = {
    "anthropic-messages": prepare_anthropic_raw,
    "openai-chat": prepare_chat_raw,
    "openai-responses": prepare_responses_raw,
    "gemini": prepare_gemini_raw,
}
"""Each API's raw SDK row, in-process or (given a base URL) against a server."""
