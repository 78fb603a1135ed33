"""What the Responses API takes of user content, and the input parts it is sent as.

The user messages and Tool results of a transcript: `RESPONSES_CONTENT`
says what ``check_sendable`` lets through (the media types and sizes the
API reference documents), `user_content` spells it as the API's
``input_text``, ``input_image`` and ``input_file`` parts.
"""

from __future__ import annotations

import base64

from course_protocol import (
    CourseDocumentBlock,
    CourseImageBlock,
    CourseTextBlock,
    CourseUserBlock,
)
from course_provider_openai import _responses_wire as wire
from course_provider_openai._image_input import IMAGES
from course_vendor import ContentSupport, MediaRule

__all__ = ["DOCUMENT_FILENAME", "RESPONSES_CONTENT", "user_content"]

DOCUMENT_FILENAME = "document"
"""The ``filename`` a document given as bytes without a title is sent under (the API needs one)."""

_MAX_DOCUMENT_BYTES = 50 * 1024 * 1024
"""The most bytes one document can hold: 50 MB of file content in one request (the file
inputs guide): a bigger block can never be sent."""

RESPONSES_CONTENT = ContentSupport(
    kinds=frozenset(
        {"text", "image", "document", "reasoning", "vendorTool", "citations", "opaque"}
    ),
    # As a URL or a base64 data URL in ``image_url``.
    images=IMAGES,
    # The file inputs guide ("Accepted file types"): PDF, text and code, rich
    # documents, presentations and spreadsheets, as ``file_data`` or ``file_url``.
    documents=MediaRule(
        frozenset(
            {
                "application/pdf",
                "text/plain",
                "text/markdown",
                "text/html",
                "text/xml",
                "application/xml",
                "application/json",
                "text/csv",
                "text/tab-separated-values",
                "application/rtf",
                "application/msword",
                "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
                "application/vnd.oasis.opendocument.text",
                "application/vnd.ms-powerpoint",
                "application/vnd.openxmlformats-officedocument.presentationml.presentation",
                "application/vnd.ms-excel",
                "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            }
        ),
        max_bytes=_MAX_DOCUMENT_BYTES,
        urls=True,
    ),
)
"""What the Responses API takes of a transcript: every content kind, in user messages and in
Tool results (``function_call_output``'s ``output`` takes the same parts as a user message)."""


def user_content(content: str | tuple[CourseUserBlock, ...]) -> object:
    """``content`` as a message or a Tool output takes it: the ``str``, or one part per block.

    A text block is ``input_text``; an image ``input_image`` (``image_url``
    its URL or a base64 ``data:`` URL, ``detail`` ``auto``); a document
    ``input_file`` (``file_url``, or ``file_data`` as a ``data:`` URL with
    ``filename``, its title or `DOCUMENT_FILENAME`).
    """
    if isinstance(content, str):
        return content
    return [_part(block) for block in content]


def _data_url(media_type: str, data: bytes) -> str:
    return f"data:{media_type};base64,{base64.b64encode(data).decode('ascii')}"


def _part(block: CourseUserBlock) -> dict[str, object]:
    if type(block) is CourseImageBlock:
        source = block.url if block.data is None else _data_url(block.media_type, block.data)
        return {
            wire.TYPE_KEY: wire.INPUT_IMAGE_TYPE,
            wire.IMAGE_URL_KEY: source,
            wire.DETAIL_KEY: wire.AUTO_DETAIL,
        }
    if type(block) is CourseDocumentBlock:
        part: dict[str, object] = {wire.TYPE_KEY: wire.INPUT_FILE_TYPE}
        if block.data is None:
            part[wire.FILE_URL_KEY] = block.url
            if block.title is not None:
                part[wire.FILENAME_KEY] = block.title
        else:
            part[wire.FILENAME_KEY] = block.title or DOCUMENT_FILENAME
            part[wire.FILE_DATA_KEY] = _data_url(block.media_type, block.data)
        return part
    assert type(block) is CourseTextBlock
    return {wire.TYPE_KEY: wire.INPUT_TEXT_TYPE, wire.TEXT_KEY: block.text}
