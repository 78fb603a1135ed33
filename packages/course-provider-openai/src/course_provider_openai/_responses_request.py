"""Course request + configuration to the Responses API request body: data in, data out."""

from __future__ import annotations

import json

from course_protocol import (
    CourseAssistantMessage,
    CourseMessage,
    CourseModelRequest,
    CourseTextBlock,
    CourseToolCall,
    CourseToolResultMessage,
    CourseToolSpec,
    CourseUserMessage,
    thaw_json,
)
from course_provider_openai import _responses_wire as wire
from course_provider_openai._config import OpenAIConfig
from course_provider_openai._options import responses_option_entries
from course_vendor import plain_content

__all__ = ["responses_request_body"]


def responses_request_body(request: CourseModelRequest, config: OpenAIConfig) -> dict[str, object]:
    """The JSON body of ``POST /v1/responses`` for ``request``, as plain Python values.

    - the system prompt, when configured, is ``instructions``;
    - ``input`` holds one item per course message, in order: a user message
      is ``{"type": "message", "role": "user", "content": text}``; an
      assistant message becomes, block by block, ``message`` items with
      role ``assistant`` and plain-string content (adjacent text blocks
      joined, empty runs dropped) and ``function_call`` items (``call_id``
      is the provider's own id, ``arguments`` compact JSON text), so text
      and calls keep their order; an assistant message with no text and no
      calls is one empty ``message`` item; a Tool result is a
      ``function_call_output`` item (``call_id``, ``output``). The API has
      no error flag: a result with ``is_error`` is sent with its content
      unchanged;
    - the configured Tools as ``{"type": "function", "name", "description",
      "parameters", "strict": false}``: the schema is sent as given, and
      strict mode (the API's default) would refuse ordinary schemas with
      optional properties;
    - ``max_output_tokens`` when configured, then the options set (README,
      "Options"), ``store: false`` (a replayed conversation must never
      depend on state kept by the server; ``config.store`` may say
      ``true``) and ``stream: true``; the model adds ``config.extra_body``
      after them.

    Plain-string content is chosen over ``input_text``/``output_text`` parts:
    it is accepted for both roles and by compatible servers, and a course
    message holds text only. Pure: reads only its arguments, returns a new
    value each call, never raises on protocol values.
    """
    body: dict[str, object] = {wire.MODEL_KEY: config.model}
    if config.system_prompt is not None:
        body[wire.INSTRUCTIONS_KEY] = config.system_prompt
    body[wire.INPUT_KEY] = _input(request.messages)
    if config.tools:
        body[wire.TOOLS_KEY] = [_tool(tool) for tool in config.tools]
    if config.max_output_tokens is not None:
        body[wire.MAX_OUTPUT_TOKENS_KEY] = config.max_output_tokens
    body.update(responses_option_entries(config))
    body[wire.STORE_KEY] = bool(config.store)
    body[wire.STREAM_KEY] = True
    return body


def _message(role: str, text: str) -> dict[str, object]:
    return {wire.TYPE_KEY: wire.MESSAGE_TYPE, wire.ROLE_KEY: role, wire.CONTENT_KEY: text}


def _input(messages: tuple[CourseMessage, ...]) -> list[dict[str, object]]:
    items: list[dict[str, object]] = []
    for message in messages:
        if type(message) is CourseUserMessage:
            items.append(_message(wire.USER_ROLE, plain_content(message)))
        elif type(message) is CourseAssistantMessage:
            items.extend(_assistant(message))
        elif type(message) is CourseToolResultMessage:
            items.append(
                {
                    wire.TYPE_KEY: wire.FUNCTION_CALL_OUTPUT_TYPE,
                    wire.CALL_ID_KEY: message.tool_call_id,
                    wire.OUTPUT_KEY: message.content,
                }
            )
    return items


def _assistant(message: CourseAssistantMessage) -> list[dict[str, object]]:
    items: list[dict[str, object]] = []
    text: list[str] = []
    for block in message.content:
        if type(block) is CourseTextBlock:
            text.append(block.text)
            continue
        if type(block) is CourseToolCall:
            _flush(text, items)
            items.append(_function_call(block))
    _flush(text, items)
    return items or [_message(wire.ASSISTANT_ROLE, "")]


def _flush(text: list[str], items: list[dict[str, object]]) -> None:
    joined = "".join(text)
    text.clear()
    if joined:
        items.append(_message(wire.ASSISTANT_ROLE, joined))


def _function_call(call: CourseToolCall) -> dict[str, object]:
    return {
        wire.TYPE_KEY: wire.FUNCTION_CALL_TYPE,
        wire.CALL_ID_KEY: call.id,
        wire.NAME_KEY: call.name,
        wire.ARGUMENTS_KEY: json.dumps(call.arguments, ensure_ascii=False, separators=(",", ":")),
    }


def _tool(tool: CourseToolSpec) -> dict[str, object]:
    return {
        wire.TYPE_KEY: wire.FUNCTION_TYPE,
        wire.NAME_KEY: tool.name,
        wire.DESCRIPTION_KEY: tool.description,
        wire.PARAMETERS_KEY: thaw_json(tool.input_schema),
        wire.STRICT_KEY: False,
    }
