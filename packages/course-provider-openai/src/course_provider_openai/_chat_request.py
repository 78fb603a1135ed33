"""Course request + configuration to the Chat Completions request body: data in, data out."""

from __future__ import annotations

import json

from course_protocol import (
    CourseAssistantMessage,
    CourseMessage,
    CourseModelRequest,
    CourseToolCall,
    CourseToolResultMessage,
    CourseToolSpec,
    CourseUserMessage,
    text_from_assistant,
    thaw_json,
)
from course_provider_openai import _chat_wire as wire
from course_provider_openai._config import OpenAIConfig
from course_provider_openai._options import chat_option_entries

__all__ = ["chat_request_body"]


def chat_request_body(request: CourseModelRequest, config: OpenAIConfig) -> dict[str, object]:
    """The JSON body of ``POST /v1/chat/completions`` for ``request``, as plain Python values.

    - the system prompt, when configured, is the first message (role ``system``);
    - a user message is ``{"role": "user", "content": text}``;
    - an assistant message carries its text blocks joined in order as
      ``content`` (``null`` when it has Tool calls and no text, ``""`` when it
      has neither) and its Tool calls as ``tool_calls`` entries (the
      provider's own id, ``type: "function"``, the name and the arguments
      as compact JSON text). Chat cannot interleave text and Tool calls:
      the text comes first;
    - a Tool result is ``{"role": "tool", "tool_call_id": ..., "content": ...}``.
      Chat has no error flag: a result with ``is_error`` is sent with its
      content unchanged, so the Tool's own text must say that it failed;
    - the configured Tools as ``{"type": "function", "function": {...}}``;
    - ``max_completion_tokens`` when configured, then the options set
      (README, "Options"), then ``stream: true`` and
      ``stream_options.include_usage`` always (a course response needs
      usage); the model adds ``config.extra_body`` after them.

    Pure: reads only its arguments, returns a new value each call, never
    raises on protocol values. It does not check how Tool calls and results
    pair up (that is ``validate_transcript``).
    """
    body: dict[str, object] = {
        wire.MODEL_KEY: config.model,
        wire.MESSAGES_KEY: _messages(config.system_prompt, request.messages),
    }
    if config.tools:
        body[wire.TOOLS_KEY] = [_tool(tool) for tool in config.tools]
    if config.max_output_tokens is not None:
        body[wire.MAX_COMPLETION_TOKENS_KEY] = config.max_output_tokens
    body.update(chat_option_entries(config))
    body[wire.STREAM_KEY] = True
    body[wire.STREAM_OPTIONS_KEY] = {wire.INCLUDE_USAGE_KEY: True}
    return body


def _messages(
    system_prompt: str | None, messages: tuple[CourseMessage, ...]
) -> list[dict[str, object]]:
    converted: list[dict[str, object]] = []
    if system_prompt is not None:
        converted.append({wire.ROLE_KEY: wire.SYSTEM_ROLE, wire.CONTENT_KEY: system_prompt})
    for message in messages:
        if type(message) is CourseUserMessage:
            converted.append({wire.ROLE_KEY: wire.USER_ROLE, wire.CONTENT_KEY: message.content})
        elif type(message) is CourseAssistantMessage:
            converted.append(_assistant(message))
        elif type(message) is CourseToolResultMessage:
            converted.append(
                {
                    wire.ROLE_KEY: wire.TOOL_ROLE,
                    wire.TOOL_CALL_ID_KEY: message.tool_call_id,
                    wire.CONTENT_KEY: message.content,
                }
            )
    return converted


def _assistant(message: CourseAssistantMessage) -> dict[str, object]:
    calls = [_tool_call(block) for block in message.content if type(block) is CourseToolCall]
    text = text_from_assistant(message)
    entry: dict[str, object] = {
        wire.ROLE_KEY: wire.ASSISTANT_ROLE,
        # OpenAI refuses an assistant message with neither content nor Tool calls.
        wire.CONTENT_KEY: text if text or not calls else None,
    }
    if calls:
        entry[wire.TOOL_CALLS_KEY] = calls
    return entry


def _tool_call(call: CourseToolCall) -> dict[str, object]:
    return {
        wire.ID_KEY: call.id,
        wire.TYPE_KEY: wire.FUNCTION_TYPE,
        wire.FUNCTION_KEY: {
            wire.NAME_KEY: call.name,
            wire.ARGUMENTS_KEY: json.dumps(
                call.arguments, ensure_ascii=False, separators=(",", ":")
            ),
        },
    }


def _tool(tool: CourseToolSpec) -> dict[str, object]:
    return {
        wire.TYPE_KEY: wire.FUNCTION_TYPE,
        wire.FUNCTION_KEY: {
            wire.NAME_KEY: tool.name,
            wire.DESCRIPTION_KEY: tool.description,
            wire.PARAMETERS_KEY: thaw_json(tool.input_schema),
        },
    }
