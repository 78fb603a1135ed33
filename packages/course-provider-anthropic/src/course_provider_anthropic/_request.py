"""Course request + adapter configuration to the Messages API request: data in, data out."""

from __future__ import annotations

import base64
from typing import Any

from course_http import VendorError, VendorErrorCode
from course_protocol import (
    CourseAssistantMessage,
    CourseDocumentBlock,
    CourseImageBlock,
    CourseModelRequest,
    CourseTextBlock,
    CourseToolResultMessage,
    CourseUserBlock,
    CourseUserMessage,
    is_blank,
    thaw_json,
)
from course_provider_anthropic import _wire
from course_provider_anthropic._config import AnthropicConfig
from course_provider_anthropic._content import assistant_block
from course_provider_anthropic._options import cache_control, option_entries, server_tool_entries
from course_vendor import Turns, checked_api_key, sent_blocks

__all__ = ["keyless_headers", "messages_request_body", "request_headers"]

_Block = dict[str, Any]
_UNCACHEABLE = frozenset({_wire.THINKING, _wire.REDACTED_THINKING})


def _invalid(message: str) -> VendorError:
    return VendorError(VendorErrorCode.VENDOR_INVALID_REQUEST, message, vendor=_wire.WIRE)


def request_headers(api_key: str, betas: tuple[str, ...] = ()) -> dict[str, str]:
    """The headers a Messages API call sends: the key, the API version and the ``betas``.

    ``betas`` (``AnthropicConfig.betas``) go comma-separated in
    ``anthropic-beta``, which is left out when there are none. Raises
    ``course_vendor.VendorConfigError`` ``VENDOR_INVALID_API_KEY`` (path
    ``api_key``) when ``api_key`` is not a usable key
    (``course_vendor.checked_api_key``: a non-empty ``str`` of visible
    ASCII, so it can never forge a second header). The key itself never
    appears in a message.
    """
    return {_wire.API_KEY_HEADER: checked_api_key(api_key), **keyless_headers(betas)}


def keyless_headers(betas: tuple[str, ...]) -> dict[str, str]:
    """The headers of a call without its key (a replay needs none): the version and the betas."""
    headers = {_wire.API_VERSION_HEADER: _wire.API_VERSION}
    if betas:
        headers[_wire.BETA_HEADER] = ",".join(betas)
    return headers


def messages_request_body(request: CourseModelRequest, config: AnthropicConfig) -> dict[str, Any]:
    """The JSON body (plain ``dict``/``list`` values) that asks the Messages API for ``request``.

    The body has ``model``, ``max_tokens``, ``system`` (when configured),
    ``messages``, ``tools`` (when configured: the Tools, ``strict: true`` on
    a strict one, then ``config.server_tools`` as given), the options set
    (README, "Options": ``temperature``, ``top_p``, ``top_k``,
    ``stop_sequences``, ``tool_choice``, ``metadata.user_id``,
    ``thinking``, ``output_config``) and ``stream: true``; the model adds
    ``config.extra_body`` after them. Prompt caching marks with
    ``cache_control`` the system prompt (then sent as one ``text`` block),
    the last tool, and the last block sent for each message
    ``config.cache_messages`` chooses. Course messages become alternating turns:

    - a user message is a ``text`` block of a user turn, or its blocks:
      ``text``, ``image`` (a ``base64`` or ``url`` source) and ``document``
      (a PDF as a ``base64`` or ``url`` source, ``text/plain`` as a ``text``
      source; its ``title`` when set);
    - an assistant message's blocks in order, those
      ``course_vendor.sent_blocks`` keeps for this wire: text as ``text``
      (with this wire's citations), Tool calls as ``tool_use`` (``id`` the
      provider's own id, ``input`` the arguments), this wire's reasoning as
      the ``thinking`` or ``redacted_thinking`` block it came as, the
      vendor's own blocks as they came; blank text blocks are left out (the
      API refuses them) and an assistant message left with nothing (another
      wire's reasoning only) is not sent at all: the user turns around it
      become one, as the API itself combines them;
    - a Tool result is a ``tool_result`` block (``tool_use_id``, ``content``
      as text or as blocks of the user kinds, and ``is_error: true`` only
      for a failed Tool) of the user turn right after the assistant turn
      that made the call;
    - consecutive messages of one role share one turn, as the API itself
      combines them: the results of one assistant turn, then any user text.

    ``request`` is one ``course_vendor.check_sendable`` accepted (a
    transcript that is not empty and that ``validate_transcript`` finds no
    fault with), as `AnthropicMessagesModel` checks before calling this.
    Raises `VendorError` ``VENDOR_INVALID_REQUEST`` (nothing is sent) naming
    the course message when the transcript holds nothing to send but blank
    assistant text, opens with the assistant, has a blank user message, or
    puts anything between a Tool call and its result (a user message,
    another assistant turn) or a result after user text in its turn, gives
    a blank text block among blocks (path ``messages[i].content[j]``), a
    ``text/plain`` document by URL or whose bytes are not UTF-8, holds
    reasoning or a vendor-tool block of this wire whose opaque this wire
    does not make (``assistant_block``), and when a
    message ``cache_messages`` chooses is not in the request or sends
    nothing it can mark (blank assistant text, thinking alone: the API
    takes no breakpoint on a thinking block).
    """
    body: dict[str, Any] = {
        _wire.MODEL_KEY: config.model,
        _wire.MAX_TOKENS_KEY: config.max_output_tokens,
    }
    if config.system_prompt is not None:
        body[_wire.SYSTEM_KEY] = config.system_prompt
        if config.cache_system:
            body[_wire.SYSTEM_KEY] = [
                {
                    _wire.TYPE_KEY: _wire.TEXT,
                    _wire.TEXT_KEY: config.system_prompt,
                    _wire.CACHE_CONTROL_KEY: cache_control(config),
                }
            ]
    turns, last_blocks = _turns(request)
    _mark_cached_messages(last_blocks, config, len(request.messages))
    body[_wire.MESSAGES_KEY] = turns
    if config.tools or config.server_tools:
        tools: list[_Block] = []
        for tool in config.tools:
            sent: _Block = {
                _wire.NAME_KEY: tool.name,
                _wire.DESCRIPTION_KEY: tool.description,
                _wire.INPUT_SCHEMA_KEY: thaw_json(tool.input_schema),
            }
            if tool.strict:
                sent[_wire.STRICT_KEY] = True
            tools.append(sent)
        tools.extend(server_tool_entries(config))
        body[_wire.TOOLS_KEY] = tools
        if config.cache_tools:
            body[_wire.TOOLS_KEY][-1][_wire.CACHE_CONTROL_KEY] = cache_control(config)
    body.update(option_entries(config))
    body[_wire.STREAM_KEY] = True
    return body


def _mark_cached_messages(
    last_blocks: dict[int, _Block], config: AnthropicConfig, count: int
) -> None:
    for position, chosen in enumerate(config.cache_messages):
        index = chosen + count if chosen < 0 else chosen
        block = last_blocks.get(index) if 0 <= index < count else None
        if block is None:
            where = f"cache_messages[{position}] ({chosen})"
            if not 0 <= index < count:
                raise _invalid(f"{where} chooses no message of the {count} in the request")
            raise _invalid(f"{where} chooses messages[{index}], which sends nothing to cache")
        block[_wire.CACHE_CONTROL_KEY] = cache_control(config)


def _assistant_blocks(message: CourseAssistantMessage, position: int) -> list[_Block]:
    kept = {id(block) for block in sent_blocks(message, _wire.WIRE)}
    blocks: list[_Block] = []
    for index, block in enumerate(message.content):
        if id(block) in kept:
            sent = assistant_block(block, f"messages[{position}].content[{index}]")
            if sent is not None:
                blocks.append(sent)
    return blocks


def _user_blocks(content: tuple[CourseUserBlock, ...], path: str) -> list[_Block]:
    """The blocks of user content given as blocks (a user message's or a Tool result's)."""
    blocks: list[_Block] = []
    for position, block in enumerate(content):
        where = f"{path}[{position}]"
        if type(block) is CourseTextBlock:
            if is_blank(block.text):
                raise _invalid(f"{where}: a text block must not be blank (the API refuses it)")
            blocks.append({_wire.TYPE_KEY: _wire.TEXT, _wire.TEXT_KEY: block.text})
        elif type(block) is CourseImageBlock:
            source = _source(block.media_type, block.data, block.url)
            blocks.append({_wire.TYPE_KEY: _wire.IMAGE, _wire.SOURCE_KEY: source})
        else:
            blocks.append(_document(block, where))
    return blocks


def _document(block: CourseDocumentBlock, where: str) -> _Block:
    if block.media_type == _wire.PLAIN_TEXT_MEDIA_TYPE:
        # The API takes plain text as text (a "text" source), never as bytes nor by URL.
        if block.data is None:
            raise _invalid(f"{where}.url: {_wire.WIRE} takes a text/plain document as bytes only")
        try:
            text = block.data.decode("utf-8")
        except UnicodeDecodeError:
            raise _invalid(f"{where}.data: a text/plain document must be UTF-8") from None
        source: _Block = {
            _wire.TYPE_KEY: _wire.TEXT,
            _wire.MEDIA_TYPE_KEY: block.media_type,
            _wire.DATA_KEY: text,
        }
    else:
        source = _source(block.media_type, block.data, block.url)
    sent: _Block = {_wire.TYPE_KEY: _wire.DOCUMENT, _wire.SOURCE_KEY: source}
    if block.title is not None:
        sent[_wire.TITLE_KEY] = block.title
    return sent


def _source(media_type: str, data: bytes | None, url: str | None) -> _Block:
    if data is None:
        return {_wire.TYPE_KEY: _wire.URL, _wire.URL_KEY: url}
    return {
        _wire.TYPE_KEY: _wire.BASE64,
        _wire.MEDIA_TYPE_KEY: media_type,
        _wire.DATA_KEY: base64.b64encode(data).decode("ascii"),
    }


def _result_block(message: CourseToolResultMessage, position: int) -> _Block:
    content = message.content
    block: _Block = {
        _wire.TYPE_KEY: _wire.TOOL_RESULT,
        _wire.TOOL_USE_ID_KEY: message.tool_call_id,
        _wire.CONTENT_KEY: (
            content
            if isinstance(content, str)
            else _user_blocks(content, f"messages[{position}].content")
        ),
    }
    if message.is_error:
        block[_wire.IS_ERROR_KEY] = True
    return block


def _turns(request: CourseModelRequest) -> tuple[list[dict[str, Any]], dict[int, _Block]]:
    """The request's turns, and the last block sent for each course message (where a cache
    breakpoint goes)."""
    order = Turns(
        role_key=_wire.ROLE_KEY,
        parts_key=_wire.CONTENT_KEY,
        user_role=_wire.USER,
        assistant_role=_wire.ASSISTANT,
        vendor=_wire.WIRE,
    )
    last_blocks: dict[int, _Block] = {}
    for position, message in enumerate(request.messages):
        if type(message) is CourseUserMessage:
            content = message.content
            if isinstance(content, str):
                blocks = [{_wire.TYPE_KEY: _wire.TEXT, _wire.TEXT_KEY: content}]
                order.user_text(content, blocks, position)
            else:
                blocks = _user_blocks(content, f"messages[{position}].content")
                # Every block is sent and none is blank text: the message is not blank.
                order.user_text(_wire.TEXT, blocks, position)
        elif type(message) is CourseAssistantMessage:
            blocks = _assistant_blocks(message, position)
            if not blocks:
                continue
            calls = [
                block[_wire.ID_KEY] for block in blocks if block[_wire.TYPE_KEY] == _wire.TOOL_USE
            ]
            order.assistant(blocks, calls, position)
        else:
            # A transcript check_sendable accepted is always in order; one it
            # was not given to fails with the typed error, never a KeyError.
            blocks = [_result_block(message, position)]
            order.tool_result(message.tool_call_id, blocks, position)
        # The API refuses cache_control on a thinking block: the breakpoint goes on the
        # last block it can mark.
        cacheable = [block for block in blocks if block[_wire.TYPE_KEY] not in _UNCACHEABLE]
        if cacheable:
            last_blocks[position] = cacheable[-1]
    # check_sendable (validate_transcript) guarantees a later result for every
    # call, and each result was taken only while its call was open: none is left open here.
    return order.finished(), last_blocks
