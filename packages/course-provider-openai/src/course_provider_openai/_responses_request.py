"""Course request + configuration to the Responses API request body: data in, data out."""

from __future__ import annotations

import json

from course_http import VendorError, VendorErrorCode
from course_protocol import (
    CourseAssistantMessage,
    CourseMessage,
    CourseModelRequest,
    CourseReasoningBlock,
    CourseResponseFormat,
    CourseTextBlock,
    CourseToolCall,
    CourseToolResultMessage,
    CourseToolSpec,
    CourseUserMessage,
    CourseVendorToolBlock,
    thaw_json,
)
from course_provider_openai import _responses_wire as wire
from course_provider_openai._config import OpenAIConfig
from course_provider_openai._options import responses_option_entries
from course_provider_openai._responses_content import user_content
from course_vendor import ReasoningEffort, own_opaque, sent_blocks

__all__ = ["responses_request_body"]


def responses_request_body(request: CourseModelRequest, config: OpenAIConfig) -> dict[str, object]:
    """The JSON body of ``POST /v1/responses`` for ``request``, as plain Python values.

    For a request ``check_sendable`` accepted with the wire's content support:

    - the system prompt, when configured, is ``instructions``;
    - ``input`` holds the items of every course message, in order:
      - a user message is ``{"type": "message", "role": "user", "content": ...}``:
        its text when given as a ``str``, else one part per block
        (``input_text``; ``input_image`` with ``image_url`` the URL or a
        ``data:`` URL of the base64 bytes and ``detail`` ``auto``;
        ``input_file`` with ``file_url``, or ``file_data`` as a ``data:``
        URL with ``filename``, the title or ``"document"``);
      - a Tool result is a ``function_call_output`` item (``call_id``,
        ``output``: its text, or the same parts). The API has no error
        flag: a result with ``is_error`` is sent with its content unchanged;
      - an assistant message becomes, block by block, the items the API
        gave (`sent_blocks`: reasoning only this wire produced): a
        reasoning block and a vendor-tool block are their opaque item sent
        back exactly; a Tool call is a ``function_call`` (``call_id`` the
        course id, ``id`` the ``fc_...`` item id from its own opaque,
        ``arguments`` compact JSON text); text between them is an
        ``assistant`` message item per message it came from (a run of
        blocks whose own opaque names one ``msg_`` id and phase; text of
        no message of this wire is one run): one plain string (adjacent
        text joined, empty runs dropped) unless a block of it holds this
        wire's citations or is a refusal, or the item is named, when each
        block is a part (``output_text`` with its ``annotations``, or
        ``refusal``). The item carries its ``phase`` when it had one, and
        is named by its ``id`` only when responses are stored (with
        nothing stored the API keeps no item by that id). An assistant
        message with nothing to send is one empty message item;
    - the configured Tools as ``{"type": "function", "name", "description",
      "parameters", "strict"}`` (the schema as given, ``strict`` the spec's),
      then ``config.hosted_tools`` as given;
    - ``max_output_tokens`` when configured, then the options set (README,
      "Options"); ``text.format`` (``json_schema``) for a response format;
      ``include: ["reasoning.encrypted_content"]`` when nothing is stored
      and ``reasoning`` asks for reasoning (an effort other than ``none``),
      so that reasoning can go back; ``store: false`` (a replayed
      conversation must never depend on state kept by the server;
      ``config.store`` may say ``true``) and ``stream: true``; the model
      adds ``config.extra_body`` after them.

    Raises `course_http.VendorError` ``VENDOR_INVALID_REQUEST`` (vendor
    ``openai-responses``, the message naming ``messages[i].content[j]``)
    for a reasoning block of this wire with no ``encrypted_content`` when
    nothing is stored: the API could not find the item it names. Pure
    otherwise: reads only its arguments, returns a new value each call.
    """
    stored = bool(config.store)
    body: dict[str, object] = {wire.MODEL_KEY: config.model}
    if config.system_prompt is not None:
        body[wire.INSTRUCTIONS_KEY] = config.system_prompt
    body[wire.INPUT_KEY] = _input(request.messages, stored)
    if config.tools or config.hosted_tools:
        tools: list[object] = [_tool(tool) for tool in config.tools]
        tools.extend(_item(tool) for tool in config.hosted_tools)
        body[wire.TOOLS_KEY] = tools
    if config.max_output_tokens is not None:
        body[wire.MAX_OUTPUT_TOKENS_KEY] = config.max_output_tokens
    body.update(responses_option_entries(config))
    if config.response_format is not None:
        body[wire.TEXT_KEY] = {wire.FORMAT_KEY: _format(config.response_format)}
    reasoning = config.reasoning
    if not stored and type(reasoning) is ReasoningEffort and reasoning is not ReasoningEffort.NONE:
        body[wire.INCLUDE_KEY] = [wire.ENCRYPTED_REASONING]
    body[wire.STORE_KEY] = stored
    body[wire.STREAM_KEY] = True
    return body


def _message(role: str, content: object) -> dict[str, object]:
    return {wire.TYPE_KEY: wire.MESSAGE_TYPE, wire.ROLE_KEY: role, wire.CONTENT_KEY: content}


def _input(messages: tuple[CourseMessage, ...], stored: bool) -> list[dict[str, object]]:
    items: list[dict[str, object]] = []
    for index, message in enumerate(messages):
        if type(message) is CourseUserMessage:
            items.append(_message(wire.USER_ROLE, user_content(message.content)))
        elif type(message) is CourseAssistantMessage:
            items.extend(_assistant(message, index, stored))
        elif type(message) is CourseToolResultMessage:
            items.append(
                {
                    wire.TYPE_KEY: wire.FUNCTION_CALL_OUTPUT_TYPE,
                    wire.CALL_ID_KEY: message.tool_call_id,
                    wire.OUTPUT_KEY: user_content(message.content),
                }
            )
    return items


def _assistant(
    message: CourseAssistantMessage, index: int, stored: bool
) -> list[dict[str, object]]:
    items: list[dict[str, object]] = []
    text: list[CourseTextBlock] = []
    for block in sent_blocks(message, wire.WIRE):
        if type(block) is CourseTextBlock:
            text.append(block)
            continue
        _flush(text, items, stored)
        if type(block) is CourseToolCall:
            items.append(_function_call(block))
        elif type(block) is CourseReasoningBlock:
            items.append(_reasoning(block, message, index, stored))
        elif type(block) is CourseVendorToolBlock:
            # check_sendable refused another wire's: this one is the item as the API gave it.
            items.append(_item(block.opaque.data))
    _flush(text, items, stored)
    return items or [_message(wire.ASSISTANT_ROLE, "")]


def _item(data: object) -> dict[str, object]:
    thawed = thaw_json(data)  # type: ignore[arg-type]
    assert type(thawed) is dict
    return thawed


def _reasoning(
    block: CourseReasoningBlock, message: CourseAssistantMessage, index: int, stored: bool
) -> dict[str, object]:
    opaque = own_opaque(block.opaque, wire.WIRE)
    assert opaque is not None  # sent_blocks sends this wire's reasoning only
    item = _item(opaque.data)
    if not stored and wire.ENCRYPTED_CONTENT_KEY not in item:
        position = next(i for i, sent in enumerate(message.content) if sent is block)
        raise VendorError(
            VendorErrorCode.VENDOR_INVALID_REQUEST,
            f"messages[{index}].content[{position}]: a reasoning item without "
            "encrypted_content cannot go back when nothing is stored (store: false): "
            "the API keeps no item to find by its id; ask for reasoning with "
            "reasoning set, or store the responses",
            vendor=wire.WIRE,
        )
    return item


def _flush(text: list[CourseTextBlock], items: list[dict[str, object]], stored: bool) -> None:
    """One ``assistant`` message item per run of ``text`` that came from one message item."""
    if not text:
        return
    blocks = tuple(text)
    text.clear()
    start = 0
    for end in range(1, len(blocks) + 1):
        marks = _message_marks(blocks[start])
        if end == len(blocks) or _message_marks(blocks[end]) != marks:
            _message_item(blocks[start:end], marks, items, stored)
            start = end


def _message_marks(block: CourseTextBlock) -> tuple[str | None, str | None]:
    """The ``msg_`` id and phase this wire kept on ``block``; ``None`` for each it did not."""
    opaque = own_opaque(block.opaque, wire.WIRE)
    if opaque is None:
        return (None, None)
    # Only the strings the mapping keeps go back: an opaque made by hand may hold anything.
    message_id = opaque.data.get(wire.ID_KEY)
    phase = opaque.data.get(wire.PHASE_KEY)
    return (
        message_id if type(message_id) is str else None,
        phase if type(phase) is str else None,
    )


def _message_item(
    blocks: tuple[CourseTextBlock, ...],
    marks: tuple[str | None, str | None],
    items: list[dict[str, object]],
    stored: bool,
) -> None:
    message_id, phase = marks
    # A stored item can be named by its id; with nothing stored the API keeps no item
    # by that id to find, and the text goes back whole anyway.
    named = stored and message_id is not None
    if named or any(_marked(block) for block in blocks):
        content: object = [_text_part(block) for block in blocks]
    else:
        content = "".join(block.text for block in blocks)
        if not content:
            return
    item = _message(wire.ASSISTANT_ROLE, content)
    if named:
        item[wire.ID_KEY] = message_id
    if phase is not None:
        item[wire.PHASE_KEY] = phase
    items.append(item)


def _refusal(block: CourseTextBlock) -> bool:
    opaque = own_opaque(block.opaque, wire.WIRE)
    return opaque is not None and opaque.data.get(wire.TYPE_KEY) == wire.REFUSAL_TYPE


def _marked(block: CourseTextBlock) -> bool:
    """Whether the text block goes back as a part of its own: a refusal, or cited text."""
    if _refusal(block):
        return True
    return any(own_opaque(citation, wire.WIRE) is not None for citation in block.citations)


def _text_part(block: CourseTextBlock) -> dict[str, object]:
    if _refusal(block):
        return {wire.TYPE_KEY: wire.REFUSAL_TYPE, wire.REFUSAL_KEY: block.text}
    annotations = [
        _item(citation.data)
        for citation in block.citations
        if own_opaque(citation, wire.WIRE) is not None
    ]
    return {
        wire.TYPE_KEY: wire.OUTPUT_TEXT_TYPE,
        wire.TEXT_KEY: block.text,
        wire.ANNOTATIONS_KEY: annotations,
    }


def _function_call(call: CourseToolCall) -> dict[str, object]:
    item: dict[str, object] = {wire.TYPE_KEY: wire.FUNCTION_CALL_TYPE}
    opaque = own_opaque(call.opaque, wire.WIRE)
    if opaque is not None:
        item.update(_item(opaque.data))
    item[wire.CALL_ID_KEY] = call.id
    item[wire.NAME_KEY] = call.name
    item[wire.ARGUMENTS_KEY] = json.dumps(call.arguments, ensure_ascii=False, separators=(",", ":"))
    return item


def _tool(tool: CourseToolSpec) -> dict[str, object]:
    return {
        wire.TYPE_KEY: wire.FUNCTION_TYPE,
        wire.NAME_KEY: tool.name,
        wire.DESCRIPTION_KEY: tool.description,
        wire.PARAMETERS_KEY: thaw_json(tool.input_schema),
        wire.STRICT_KEY: tool.strict,
    }


def _format(response_format: CourseResponseFormat) -> dict[str, object]:
    spelled: dict[str, object] = {
        wire.TYPE_KEY: wire.JSON_SCHEMA_TYPE,
        wire.NAME_KEY: response_format.name,
        wire.SCHEMA_KEY: thaw_json(response_format.schema),
        wire.STRICT_KEY: response_format.strict,
    }
    if response_format.description is not None:
        spelled[wire.DESCRIPTION_KEY] = response_format.description
    return spelled
