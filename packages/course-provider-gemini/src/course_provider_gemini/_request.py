"""Course request + adapter configuration to the Gemini API request: data in, data out."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from course_http import VendorError, VendorErrorCode
from course_protocol import (
    CourseAssistantMessage,
    CourseModelRequest,
    CourseTextBlock,
    CourseToolResultMessage,
    CourseUserMessage,
    is_blank,
    thaw_json,
)
from course_provider_gemini import _wire
from course_provider_gemini._config import GeminiConfig
from course_provider_gemini._options import generation_entries, tool_config
from course_vendor import Turns, checked_api_key, plain_blocks, plain_content

__all__ = ["generate_content_body", "request_headers"]

_Part = dict[str, Any]
_NO_SIGNATURES: Mapping[str, str] = {}


def _invalid(message: str) -> VendorError:
    return VendorError(VendorErrorCode.VENDOR_INVALID_REQUEST, message, vendor=_wire.WIRE)


def request_headers(api_key: str) -> dict[str, str]:
    """The header every Gemini API call needs: the key, in ``x-goog-api-key`` (never the query).

    Raises ``course_vendor.VendorConfigError`` ``VENDOR_INVALID_API_KEY``
    (path ``api_key``) when ``api_key`` is not a usable key
    (``course_vendor.checked_api_key``). The key never appears in a message.
    """
    return {_wire.API_KEY_HEADER: checked_api_key(api_key)}


def generate_content_body(
    request: CourseModelRequest,
    config: GeminiConfig,
    signatures: Mapping[str, str] = _NO_SIGNATURES,
) -> dict[str, Any]:
    """The JSON body (plain ``dict``/``list`` values) asking the Gemini API for ``request``.

    The body has ``contents``, ``systemInstruction`` (when configured),
    ``tools`` (one entry of ``functionDeclarations``, when configured, each
    Tool's JSON Schema as ``parametersJsonSchema``), ``toolConfig`` (for a
    ``tool_choice``) and ``generationConfig`` (``maxOutputTokens`` and the
    options set, README "Options"), each left out when it would be empty;
    the model adds ``config.extra_body`` after them. Course messages become turns of
    the roles ``user`` and ``model``:

    - a user message is a ``text`` part of a user turn;
    - an assistant message's text blocks are ``text`` parts and its Tool
      calls ``functionCall`` parts (``name``, ``args``) of a model turn, with
      the call's ``thoughtSignature`` when ``signatures`` (course call id to
      signature) has one; blank text is left out, and an assistant message
      left with nothing is not sent;
    - a Tool result is a ``functionResponse`` part (``name``, and
      ``response`` ``{"output": text}``, or ``{"error": text}`` for a failed
      Tool) of the user turn right after the model turn that made the call;
    - consecutive messages of one role share one turn.

    ``request`` is one ``course_vendor.check_sendable`` accepted. Raises
    `VendorError` ``VENDOR_INVALID_REQUEST`` (nothing is sent) naming the
    course message when the transcript holds nothing to send but blank
    assistant text, opens with the assistant, has a blank user message, or
    puts anything between a Tool call and its result.
    """
    body: dict[str, Any] = {_wire.CONTENTS_KEY: _turns(request, signatures)}
    if config.system_prompt is not None:
        body[_wire.SYSTEM_INSTRUCTION_KEY] = {
            _wire.PARTS_KEY: [{_wire.TEXT_KEY: config.system_prompt}]
        }
    if config.tools:
        declarations = [
            {
                _wire.NAME_KEY: tool.name,
                _wire.DESCRIPTION_KEY: tool.description,
                _wire.PARAMETERS_JSON_SCHEMA_KEY: thaw_json(tool.input_schema),
            }
            for tool in config.tools
        ]
        body[_wire.TOOLS_KEY] = [{_wire.FUNCTION_DECLARATIONS_KEY: declarations}]
    calling = tool_config(config)
    if calling is not None:
        body[_wire.TOOL_CONFIG_KEY] = calling
    generation = generation_entries(config)
    if generation:
        body[_wire.GENERATION_CONFIG_KEY] = generation
    return body


def _model_parts(message: CourseAssistantMessage, signatures: Mapping[str, str]) -> list[_Part]:
    parts: list[_Part] = []
    for block in plain_blocks(message):
        if type(block) is CourseTextBlock:
            if not is_blank(block.text):
                parts.append({_wire.TEXT_KEY: block.text})
            continue
        part: _Part = {
            _wire.FUNCTION_CALL_KEY: {
                _wire.NAME_KEY: block.name,
                _wire.ARGS_KEY: thaw_json(block.arguments),
            }
        }
        signature = signatures.get(block.id)
        if signature is not None:
            part[_wire.THOUGHT_SIGNATURE_KEY] = signature
        parts.append(part)
    return parts


def _result_part(message: CourseToolResultMessage) -> _Part:
    key = _wire.ERROR_KEY if message.is_error else _wire.OUTPUT_KEY
    return {
        _wire.FUNCTION_RESPONSE_KEY: {
            _wire.NAME_KEY: message.tool_name,
            _wire.RESPONSE_KEY: {key: message.content},
        }
    }


def _turns(request: CourseModelRequest, signatures: Mapping[str, str]) -> list[dict[str, Any]]:
    order = Turns(
        role_key=_wire.ROLE_KEY,
        parts_key=_wire.PARTS_KEY,
        user_role=_wire.USER,
        assistant_role=_wire.MODEL,
        vendor=_wire.WIRE,
    )
    for position, message in enumerate(request.messages):
        if type(message) is CourseUserMessage:
            text = plain_content(message)
            order.user_text(text, [{_wire.TEXT_KEY: text}], position)
        elif type(message) is CourseAssistantMessage:
            parts = _model_parts(message, signatures)
            if not parts:
                continue
            calls = [
                block.id for block in plain_blocks(message) if type(block) is not CourseTextBlock
            ]
            order.assistant(parts, calls, position)
        else:
            order.tool_result(message.tool_call_id, [_result_part(message)], position)
    return order.finished()
