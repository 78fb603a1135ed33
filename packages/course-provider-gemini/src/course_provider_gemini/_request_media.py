"""A Gemini request's user content and Tool results: text, images and documents as parts.

What the kit's ``check_sendable`` cannot know is checked here: the inline
data of the whole request, and what a function response takes.
"""

from __future__ import annotations

import base64
from typing import Any, Final

from course_http import VendorError, VendorErrorCode
from course_protocol import (
    CourseAssistantMessage,
    CourseDocumentBlock,
    CourseImageBlock,
    CourseModelRequest,
    CourseTextBlock,
    CourseToolResultMessage,
    CourseUserBlock,
    is_blank,
)
from course_provider_gemini import _wire
from course_vendor import Turns

__all__ = ["INLINE_LIMIT", "RESULT_MEDIA_TYPES", "check_inline_total", "result_part", "user_parts"]

_Part = dict[str, Any]


def _invalid(message: str) -> VendorError:
    return VendorError(VendorErrorCode.VENDOR_INVALID_REQUEST, message, vendor=_wire.WIRE)


INLINE_LIMIT: Final = 100_000_000
"""The most base64 characters of inline data (``inlineData.data``) one request may hold.

The API reference's inline payload limit (100 MB, base64 encoded); a
request past it is refused before it is sent.
"""

RESULT_MEDIA_TYPES: Final = frozenset(
    {"image/png", "image/jpeg", "image/webp", "application/pdf", "text/plain"}
)
"""The media types a function response takes as inline parts (its multimodal parts)."""


def check_inline_total(request: CourseModelRequest) -> None:
    """Refuse a request whose inline data comes to more than `INLINE_LIMIT` base64 characters."""
    total = 0
    for message in request.messages:
        if type(message) is CourseAssistantMessage:
            continue
        content = message.content
        if isinstance(content, str):
            continue
        for block in content:
            if type(block) is not CourseTextBlock and block.data is not None:
                total += (len(block.data) + 2) // 3 * 4
    if total > INLINE_LIMIT:
        raise _invalid(
            f"messages: the inline images and documents come to {total} base64 characters; "
            f"{_wire.WIRE} takes at most {INLINE_LIMIT} in one request"
        )


def _media_part(block: CourseImageBlock | CourseDocumentBlock) -> _Part:
    if block.data is None:
        return {
            _wire.FILE_DATA_KEY: {
                _wire.MIME_TYPE_KEY: block.media_type,
                _wire.FILE_URI_KEY: block.url,
            }
        }
    encoded = base64.b64encode(block.data).decode("ascii")
    return {_wire.INLINE_DATA_KEY: {_wire.MIME_TYPE_KEY: block.media_type, _wire.DATA_KEY: encoded}}


def user_parts(content: tuple[CourseUserBlock, ...], position: int, turns: Turns) -> None:
    """Add user message ``position``'s blocks to ``turns``; text blocks all blank are refused."""
    parts: list[_Part] = []
    said = False
    for block in content:
        if type(block) is CourseTextBlock:
            if is_blank(block.text):
                continue
            said = True
            parts.append({_wire.TEXT_KEY: block.text})
        else:
            said = True
            parts.append(_media_part(block))
    if not said:
        # Blank text blocks alone: the blank user message every wire refuses.
        turns.user_text("", [], position)
    turns.user_parts(parts, position)


def result_part(message: CourseToolResultMessage, position: int, vendor_id: str | None) -> _Part:
    content = message.content
    media: list[_Part] = []
    if isinstance(content, str):
        text = content
    else:
        pieces: list[str] = []
        for number, block in enumerate(content):
            if type(block) is CourseTextBlock:
                pieces.append(block.text)
                continue
            where = f"messages[{position}].content[{number}]"
            if block.data is None:
                raise _invalid(
                    f"{where}.url: {_wire.WIRE} takes a function response's images and documents "
                    "as bytes only (its parts have no fileData)"
                )
            if block.media_type not in RESULT_MEDIA_TYPES:
                taken = ", ".join(sorted(RESULT_MEDIA_TYPES))
                raise _invalid(
                    f"{where}.media_type: {_wire.WIRE} takes no {block.media_type} in a function "
                    f"response (it takes {taken})"
                )
            media.append(_media_part(block))
        text = "".join(pieces)
    key = _wire.ERROR_KEY if message.is_error else _wire.OUTPUT_KEY
    response: _Part = {_wire.NAME_KEY: message.tool_name}
    if vendor_id is not None:
        response[_wire.ID_KEY] = vendor_id
    response[_wire.RESPONSE_KEY] = {key: text}
    if media:
        response[_wire.PARTS_KEY] = media
    return {_wire.FUNCTION_RESPONSE_KEY: response}
