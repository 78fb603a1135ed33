"""Course request + configuration to the Chat Completions request body: data in, data out."""

from __future__ import annotations

import base64
import json
from typing import Final

from course_http import VendorError, VendorErrorCode
from course_protocol import (
    CourseAssistantMessage,
    CourseDocumentBlock,
    CourseImageBlock,
    CourseMessage,
    CourseModelRequest,
    CourseResponseFormat,
    CourseTextBlock,
    CourseToolCall,
    CourseToolResultMessage,
    CourseToolSpec,
    CourseUserBlock,
    CourseUserMessage,
    text_from_assistant,
    thaw_json,
)
from course_provider_openai import _chat_wire as wire
from course_provider_openai._config import OpenAIConfig
from course_provider_openai._image_input import IMAGES, MEGABYTE
from course_provider_openai._options import chat_option_entries
from course_vendor import ContentSupport, MediaRule

__all__ = ["CHAT_CONTENT", "chat_request_body"]

CHAT_CONTENT: Final = ContentSupport(
    kinds=frozenset({"text", "image", "document", "citations"}),
    # A part's image_url.url is "either a URL of the image or the base64 encoded
    # image data" (ChatCompletionContentPartImageParam).
    images=IMAGES,
    # The PDF file-input guide, "File size limitations" (unchanged in its
    # 2026 text): vision models take PDF files, as a file part's base64
    # file_data or an uploaded file_id (no URL: the part has no URL field),
    # up to 100 pages and 32 MB of total content in a request.
    documents=MediaRule(frozenset({"application/pdf"}), max_bytes=32 * MEGABYTE),
)
"""What Chat Completions sends beyond plain text (``VendorWire.content``), per OpenAI's docs.

Text, image and document parts in a user message; in a Tool result text
parts only (`chat_request_body` refuses an image or document there); the
citations a search model put on an answer are accepted in a transcript and
left out of the request, since an input message takes no ``annotations``.
Reasoning and vendor-tool blocks are refused: OpenAI's Chat Completions
streams neither and takes neither back.
"""

_DOCUMENT_NAME: Final = "document.pdf"
"""The file name a document without a title is sent under (a base64 file part needs one)."""


def chat_request_body(
    request: CourseModelRequest, config: OpenAIConfig, *, vendor: str = wire.WIRE
) -> dict[str, object]:
    """The JSON body of ``POST /v1/chat/completions`` for ``request``, as plain Python values.

    - the system prompt, when configured, is the first message (role ``system``);
    - a user message is ``{"role": "user", "content": text}``, or, given as
      blocks, its content parts in order: ``{"type": "text", "text": ...}``,
      ``{"type": "image_url", "image_url": {"url": ...}}`` (the URL, or the
      bytes as a ``data:<media type>;base64,`` URL) and ``{"type": "file",
      "file": {"filename": ..., "file_data": "data:application/pdf;base64,..."}}``
      (the filename is the document's title, or ``document.pdf``);
    - an assistant message carries its text blocks joined in order as
      ``content`` (``null`` when it has Tool calls and no text, ``""`` when it
      has neither: a message whose every block is left out still keeps its
      turn) and its Tool calls as ``tool_calls`` entries (the
      provider's own id, ``type: "function"``, the name and the arguments
      as compact JSON text). Chat cannot interleave text and Tool calls:
      the text comes first. Its citations are left out (an input message
      takes no ``annotations``), and so is reasoning (Chat takes none back);
    - a Tool result is ``{"role": "tool", "tool_call_id": ..., "content": ...}``,
      its content the text, or its text blocks as text parts.
      Chat has no error flag: a result with ``is_error`` is sent with its
      content unchanged, so the Tool's own text must say that it failed;
    - the configured Tools as ``{"type": "function", "function": {...}}``,
      with ``"strict": true`` for a strict one;
    - ``max_completion_tokens`` when configured, then the options set
      (README, "Options"), then the response format as ``response_format``
      (``{"type": "json_schema", "json_schema": {"name", "description",
      "schema", "strict"}}``), then ``stream: true`` and
      ``stream_options.include_usage`` always (a course response needs
      usage); the model adds ``config.extra_body`` after them.

    Reads only its arguments and returns a new value each call. It does not
    check how Tool calls and results pair up (that is
    ``validate_transcript``), nor what `CHAT_CONTENT` refuses (that is
    ``course_vendor.check_sendable``, run first). Raises
    ``course_http.VendorError`` ``VENDOR_INVALID_REQUEST`` for an image or
    document in a Tool result, naming it (``messages[2].content[1]``): a
    Tool message takes text parts only. ``vendor`` is the wire the body is
    for (a compatible server's dialect, Azure's), which the error names.
    """
    body: dict[str, object] = {
        wire.MODEL_KEY: config.model,
        wire.MESSAGES_KEY: _messages(config.system_prompt, request.messages, vendor),
    }
    if config.tools:
        body[wire.TOOLS_KEY] = [_tool(tool) for tool in config.tools]
    if config.max_output_tokens is not None:
        body[wire.MAX_COMPLETION_TOKENS_KEY] = config.max_output_tokens
    body.update(chat_option_entries(config))
    if config.response_format is not None:
        body[wire.RESPONSE_FORMAT_KEY] = _response_format(config.response_format)
    body[wire.STREAM_KEY] = True
    body[wire.STREAM_OPTIONS_KEY] = {wire.INCLUDE_USAGE_KEY: True}
    return body


def _messages(
    system_prompt: str | None, messages: tuple[CourseMessage, ...], vendor: str
) -> list[dict[str, object]]:
    converted: list[dict[str, object]] = []
    if system_prompt is not None:
        converted.append({wire.ROLE_KEY: wire.SYSTEM_ROLE, wire.CONTENT_KEY: system_prompt})
    for position, message in enumerate(messages):
        if type(message) is CourseUserMessage:
            content = message.content
            converted.append(
                {
                    wire.ROLE_KEY: wire.USER_ROLE,
                    wire.CONTENT_KEY: content
                    if isinstance(content, str)
                    else [_user_part(block) for block in content],
                }
            )
        elif type(message) is CourseAssistantMessage:
            converted.append(_assistant(message))
        elif type(message) is CourseToolResultMessage:
            converted.append(
                {
                    wire.ROLE_KEY: wire.TOOL_ROLE,
                    wire.TOOL_CALL_ID_KEY: message.tool_call_id,
                    wire.CONTENT_KEY: _tool_content(message, position, vendor),
                }
            )
    return converted


def _user_part(block: CourseUserBlock) -> dict[str, object]:
    if type(block) is CourseTextBlock:
        return _text_part(block)
    if type(block) is CourseImageBlock:
        url = block.url if block.url is not None else _data_url(block.media_type, block.data)
        return {wire.TYPE_KEY: wire.IMAGE_URL_TYPE, wire.IMAGE_URL_KEY: {wire.URL_KEY: url}}
    assert type(block) is CourseDocumentBlock  # the user blocks are these three
    # check_sendable refused a document given by URL: Chat's file part has no URL field.
    return {
        wire.TYPE_KEY: wire.FILE_TYPE,
        wire.FILE_KEY: {
            wire.FILENAME_KEY: block.title if block.title is not None else _DOCUMENT_NAME,
            wire.FILE_DATA_KEY: _data_url(block.media_type, block.data),
        },
    }


def _text_part(block: CourseTextBlock) -> dict[str, object]:
    return {wire.TYPE_KEY: wire.TEXT_TYPE, wire.TEXT_KEY: block.text}


def _data_url(media_type: str, data: bytes | None) -> str:
    assert data is not None  # a media block holds exactly one of data and url
    return f"data:{media_type};base64,{base64.b64encode(data).decode('ascii')}"


def _tool_content(message: CourseToolResultMessage, position: int, vendor: str) -> object:
    content = message.content
    if isinstance(content, str):
        return content
    parts = []
    for index, block in enumerate(content):
        if type(block) is not CourseTextBlock:
            kind = "an image" if type(block) is CourseImageBlock else "a document"
            raise VendorError(
                VendorErrorCode.VENDOR_INVALID_REQUEST,
                f"messages[{position}].content[{index}]: {vendor} cannot send {kind} in a "
                "Tool result: a tool message takes text parts only",
                vendor=vendor,
            )
        parts.append(_text_part(block))
    return parts


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
    function: dict[str, object] = {
        wire.NAME_KEY: tool.name,
        wire.DESCRIPTION_KEY: tool.description,
        wire.PARAMETERS_KEY: thaw_json(tool.input_schema),
    }
    if tool.strict:
        function[wire.STRICT_KEY] = True
    return {wire.TYPE_KEY: wire.FUNCTION_TYPE, wire.FUNCTION_KEY: function}


def _response_format(response_format: CourseResponseFormat) -> dict[str, object]:
    schema: dict[str, object] = {wire.NAME_KEY: response_format.name}
    if response_format.description is not None:
        schema[wire.DESCRIPTION_KEY] = response_format.description
    schema[wire.SCHEMA_KEY] = thaw_json(response_format.schema)
    schema[wire.STRICT_KEY] = response_format.strict
    return {wire.TYPE_KEY: wire.JSON_SCHEMA_TYPE, wire.JSON_SCHEMA_KEY: schema}
