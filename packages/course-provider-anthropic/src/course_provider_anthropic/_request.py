"""Course request + adapter configuration to the Messages API request: data in, data out."""

from __future__ import annotations

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
from course_provider_anthropic import _wire
from course_provider_anthropic._config import AnthropicConfig
from course_provider_anthropic._options import cache_control, option_entries
from course_vendor import Turns, checked_api_key, plain_blocks, plain_content

__all__ = ["keyless_headers", "messages_request_body", "request_headers"]

_Block = dict[str, Any]


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
    ``messages``, ``tools`` (when configured), the options set (README,
    "Options": ``temperature``, ``top_p``, ``top_k``, ``stop_sequences``,
    ``tool_choice``, ``metadata.user_id``, ``thinking``) and ``stream:
    true``; the model adds ``config.extra_body`` after them. Prompt caching
    marks with ``cache_control`` the system prompt (then sent as one
    ``text`` block), the last Tool, and the last block sent for each message
    ``config.cache_messages`` chooses. Course messages become alternating turns:

    - a user message is a ``text`` block of a user turn;
    - an assistant message's text blocks are ``text`` blocks and its Tool
      calls ``tool_use`` blocks (``id`` the provider's own id, ``input`` the
      arguments) of an assistant turn; blank text blocks are left out (the
      API refuses them) and an assistant message left with nothing is not
      sent at all;
    - a Tool result is a ``tool_result`` block (``tool_use_id``, ``content``,
      and ``is_error: true`` only for a failed Tool) of the user turn right
      after the assistant turn that made the call;
    - consecutive messages of one role share one turn, as the API itself
      combines them: the results of one assistant turn, then any user text.

    ``request`` is one ``course_vendor.check_sendable`` accepted (a
    transcript that is not empty and that ``validate_transcript`` finds no
    fault with), as `AnthropicMessagesModel` checks before calling this.
    Raises `VendorError` ``VENDOR_INVALID_REQUEST`` (nothing is sent) naming
    the course message when the transcript holds nothing to send but blank
    assistant text, opens with the assistant, has a blank user message, or
    puts anything between a Tool call and its result (a user message,
    another assistant turn) or a result after user text in its turn, and
    when a message ``cache_messages`` chooses is not in the request or sends
    nothing (blank assistant text).
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
    if config.tools:
        body[_wire.TOOLS_KEY] = [
            {
                _wire.NAME_KEY: tool.name,
                _wire.DESCRIPTION_KEY: tool.description,
                _wire.INPUT_SCHEMA_KEY: thaw_json(tool.input_schema),
            }
            for tool in config.tools
        ]
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


def _assistant_blocks(message: CourseAssistantMessage) -> list[_Block]:
    blocks: list[_Block] = []
    for block in plain_blocks(message):
        if type(block) is CourseTextBlock:
            if not is_blank(block.text):
                blocks.append({_wire.TYPE_KEY: _wire.TEXT, _wire.TEXT_KEY: block.text})
        else:
            blocks.append(
                {
                    _wire.TYPE_KEY: _wire.TOOL_USE,
                    _wire.ID_KEY: block.id,
                    _wire.NAME_KEY: block.name,
                    _wire.INPUT_KEY: thaw_json(block.arguments),
                }
            )
    return blocks


def _result_block(message: CourseToolResultMessage) -> _Block:
    block: _Block = {
        _wire.TYPE_KEY: _wire.TOOL_RESULT,
        _wire.TOOL_USE_ID_KEY: message.tool_call_id,
        _wire.CONTENT_KEY: message.content,
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
            blocks = [{_wire.TYPE_KEY: _wire.TEXT, _wire.TEXT_KEY: plain_content(message)}]
            order.user_text(plain_content(message), blocks, position)
        elif type(message) is CourseAssistantMessage:
            blocks = _assistant_blocks(message)
            if not blocks:
                continue
            calls = [
                block[_wire.ID_KEY] for block in blocks if block[_wire.TYPE_KEY] == _wire.TOOL_USE
            ]
            order.assistant(blocks, calls, position)
        else:
            # A transcript check_sendable accepted is always in order; one it
            # was not given to fails with the typed error, never a KeyError.
            blocks = [_result_block(message)]
            order.tool_result(message.tool_call_id, blocks, position)
        last_blocks[position] = blocks[-1]
    # check_sendable (validate_transcript) guarantees a later result for every
    # call, and each result was taken only while its call was open: none is left open here.
    return order.finished(), last_blocks
