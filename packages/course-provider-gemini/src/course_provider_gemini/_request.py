"""Course request + adapter configuration to the Gemini API request: data in, data out."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from course_http import VendorError, VendorErrorCode
from course_protocol import (
    CourseAssistantMessage,
    CourseModelRequest,
    CourseOpaque,
    CourseReasoningBlock,
    CourseTextBlock,
    CourseToolCall,
    CourseToolResultMessage,
    CourseUserMessage,
    CourseVendorToolBlock,
    is_blank,
    thaw_json,
)
from course_protocol.untrusted import type_name
from course_provider_gemini import _wire
from course_provider_gemini._config import GeminiConfig
from course_provider_gemini._options import generation_entries, tool_config
from course_provider_gemini._request_media import (
    check_inline_total,
    result_part,
    user_parts,
)
from course_vendor import Turns, checked_api_key, own_opaque, sent_blocks

__all__ = ["generate_content_body", "request_headers"]

_Part = dict[str, Any]


def _invalid(message: str) -> VendorError:
    return VendorError(VendorErrorCode.VENDOR_INVALID_REQUEST, message, vendor=_wire.WIRE)


def request_headers(api_key: str) -> dict[str, str]:
    """The header every Gemini API call needs: the key, in ``x-goog-api-key`` (never the query).

    Raises ``course_vendor.VendorConfigError`` ``VENDOR_INVALID_API_KEY``
    (path ``api_key``) when ``api_key`` is not a usable key
    (``course_vendor.checked_api_key``). The key never appears in a message.
    """
    return {_wire.API_KEY_HEADER: checked_api_key(api_key)}


def generate_content_body(request: CourseModelRequest, config: GeminiConfig) -> dict[str, Any]:
    """The JSON body (plain ``dict``/``list`` values) asking the Gemini API for ``request``.

    The body has ``contents``, ``systemInstruction`` (when configured),
    ``tools`` (one entry of ``functionDeclarations``, when configured, each
    Tool's JSON Schema as ``parametersJsonSchema``, then one entry per
    built-in tool), ``toolConfig`` (for a ``tool_choice``) and
    ``generationConfig`` (``maxOutputTokens``, the options set and the
    response format, README "Options"), each left out when it would be
    empty; the model adds ``config.extra_body`` after them. Course messages
    become turns of the roles ``user`` and ``model``:

    - a user message is a ``text`` part, or its blocks as parts: text as
      ``text``, an image or a document as ``inlineData`` (``mimeType``,
      base64 ``data``) or, given by URL, ``fileData`` (``mimeType``,
      ``fileUri``); a document's title is not sent (no field for it);
    - an assistant message's blocks go back as the parts they came from:
      reasoning as ``text`` with ``thought: true``, text as ``text``, a Tool
      call as ``functionCall`` (``name``, ``args``, and the vendor's ``id``
      when it gave one), a tool the vendor ran as its part as received; a
      ``thoughtSignature`` in a block's opaque data goes back on its part.
      Another wire's reasoning and opaque data are left out
      (``course_vendor.sent_blocks``, ``own_opaque``), and so are citations
      (a request has no field for them); blank text without a signature is
      left out, and an assistant message left with nothing is not sent;
    - a Tool result is a ``functionResponse`` part (``name``, the call's
      vendor ``id`` when it had one, and ``response`` ``{"output": text}``,
      or ``{"error": text}`` for a failed Tool; its images and documents as
      inline ``parts``) of the user turn right after the model turn that
      made the call;
    - consecutive messages of one role share one turn.

    ``request`` is one ``course_vendor.check_sendable`` accepted with the
    wire's content support. Raises `VendorError` ``VENDOR_INVALID_REQUEST``
    (nothing is sent) naming the course message when the transcript holds
    nothing to send, opens with the assistant, has a blank user message, or
    puts anything between a Tool call and its result; when a Tool result
    holds media by URL or of a type a function response does not take
    (`RESULT_MEDIA_TYPES`); when this wire's opaque data on a block is not
    what the wire produced; and when the inline data passes `INLINE_LIMIT`.
    """
    check_inline_total(request)
    body: dict[str, Any] = {_wire.CONTENTS_KEY: _turns(request)}
    if config.system_prompt is not None:
        body[_wire.SYSTEM_INSTRUCTION_KEY] = {
            _wire.PARTS_KEY: [{_wire.TEXT_KEY: config.system_prompt}]
        }
    tools: list[dict[str, Any]] = []
    if config.tools:
        declarations = [
            {
                _wire.NAME_KEY: tool.name,
                _wire.DESCRIPTION_KEY: tool.description,
                _wire.PARAMETERS_JSON_SCHEMA_KEY: thaw_json(tool.input_schema),
            }
            for tool in config.tools
        ]
        tools.append({_wire.FUNCTION_DECLARATIONS_KEY: declarations})
    tools.extend({name: {}} for name in config.built_in_tools)
    if tools:
        body[_wire.TOOLS_KEY] = tools
    calling = tool_config(config)
    if calling is not None:
        body[_wire.TOOL_CONFIG_KEY] = calling
    generation = generation_entries(config)
    if generation:
        body[_wire.GENERATION_CONFIG_KEY] = generation
    return body


def _opaque_text(opaque: CourseOpaque | None, key: str, where: str) -> str | None:
    """The string ``key`` of this wire's opaque data, or ``None``; refused when not a string."""
    if opaque is None:
        return None
    value = opaque.data.get(key)
    if value is None:
        return None
    if type(value) is not str or is_blank(value):
        raise _invalid(
            f"{where}.opaque.data.{key} must be a non-blank string, as {_wire.WIRE} sent it, "
            f"not {type_name(value)}"
        )
    return value


def _signed(part: _Part, opaque: CourseOpaque | None, where: str) -> _Part:
    signature = _opaque_text(opaque, _wire.THOUGHT_SIGNATURE_KEY, where)
    if signature is not None:
        part[_wire.THOUGHT_SIGNATURE_KEY] = signature
    return part


def _vendor_tool_part(block: CourseVendorToolBlock, where: str) -> _Part:
    # Sent back exactly as the vendor sent it; a loop's own opaque data is
    # checked to be one such part first (check_sendable refused another wire's).
    data = block.opaque.data
    kinds = [key for key in data if key in _wire.VENDOR_TOOL_KINDS]
    extra = [
        key
        for key in data
        if key not in _wire.VENDOR_TOOL_KINDS
        and key != _wire.THOUGHT_KEY
        and key != _wire.THOUGHT_SIGNATURE_KEY
    ]
    flagged = data.get(_wire.THOUGHT_KEY, True)
    if (
        kinds != [block.kind]
        or extra
        or not isinstance(data[block.kind], Mapping)
        or (flagged is not True)
    ):
        raise _invalid(
            f"{where}.opaque.data must be one {block.kind!r} part as {_wire.WIRE} sent it "
            f"(its object, and thought or thoughtSignature at most)"
        )
    _opaque_text(block.opaque, _wire.THOUGHT_SIGNATURE_KEY, where)
    return {key: thaw_json(value) for key, value in data.items()}


def _model_parts(
    message: CourseAssistantMessage, position: int, vendor_ids: dict[str, str]
) -> tuple[list[_Part], list[str]]:
    parts: list[_Part] = []
    calls: list[str] = []
    numbers = {id(block): number for number, block in enumerate(message.content)}
    for block in sent_blocks(message, _wire.WIRE):
        where = f"messages[{position}].content[{numbers[id(block)]}]"
        if type(block) is CourseTextBlock:
            opaque = own_opaque(block.opaque, _wire.WIRE)
            if opaque is None and is_blank(block.text):
                continue
            parts.append(_signed({_wire.TEXT_KEY: block.text}, opaque, where))
        elif type(block) is CourseToolCall:
            opaque = own_opaque(block.opaque, _wire.WIRE)
            call: _Part = {_wire.NAME_KEY: block.name, _wire.ARGS_KEY: thaw_json(block.arguments)}
            vendor_id = _opaque_text(opaque, _wire.ID_KEY, where)
            if vendor_id is not None:
                call[_wire.ID_KEY] = vendor_id
                vendor_ids[block.id] = vendor_id
            parts.append(_signed({_wire.FUNCTION_CALL_KEY: call}, opaque, where))
            calls.append(block.id)
        elif type(block) is CourseReasoningBlock:
            thought = {_wire.TEXT_KEY: block.text, _wire.THOUGHT_KEY: True}
            parts.append(_signed(thought, block.opaque, where))
        else:
            assert type(block) is CourseVendorToolBlock
            parts.append(_vendor_tool_part(block, where))
    return parts, calls


def _turns(request: CourseModelRequest) -> list[dict[str, Any]]:
    order = Turns(
        role_key=_wire.ROLE_KEY,
        parts_key=_wire.PARTS_KEY,
        user_role=_wire.USER,
        assistant_role=_wire.MODEL,
        vendor=_wire.WIRE,
    )
    # Course call id -> the vendor's own id of a call that had one: its
    # function response carries it back.
    vendor_ids: dict[str, str] = {}
    for position, message in enumerate(request.messages):
        if type(message) is CourseUserMessage:
            content = message.content
            if isinstance(content, str):
                order.user_text(content, [{_wire.TEXT_KEY: content}], position)
            else:
                user_parts(content, position, order)
        elif type(message) is CourseAssistantMessage:
            parts, calls = _model_parts(message, position, vendor_ids)
            if not parts:
                # Every block was left out: nothing of this turn reaches the vendor,
                # and the user turns around it merge into one.
                continue
            order.assistant(parts, calls, position)
        else:
            assert type(message) is CourseToolResultMessage
            vendor_id = vendor_ids.get(message.tool_call_id)
            order.tool_result(
                message.tool_call_id, [result_part(message, position, vendor_id)], position
            )
    return order.finished()
