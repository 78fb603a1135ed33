"""Valid course transcripts holding every kind the port carries, for each wire's request builder.

`rich_transcripts` draws turns an agent loop builds (every Tool call answered
after it) whose user messages and Tool results hold text, images and
documents, and whose assistant messages hold text with citations and opaque
data, reasoning, vendor-tool blocks and Tool calls with opaque data. Each
opaque is tagged with one of several wires and carries `mark` of that wire
among its data, so a test finds any of another wire's data that reached a
body by searching the body's JSON text (`leaked_marks`).

The media types are drawn from those some wire takes and some none does, so
that a wire's own check both accepts and refuses them.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st

from course_http import VendorError, VendorErrorCode
from course_protocol import (
    CourseAssistantContent,
    CourseAssistantMessage,
    CourseDocumentBlock,
    CourseImageBlock,
    CourseMessage,
    CourseModelRequest,
    CourseOpaque,
    CourseReasoningBlock,
    CourseTextBlock,
    CourseToolCall,
    CourseToolResultMessage,
    CourseUserBlock,
    CourseUserMessage,
    CourseVendorToolBlock,
)
from course_vendor import check_sendable, load_vendor
from tests.course_protocol.strategies import ids, json_objects, texts, urls

__all__ = [
    "OPAQUE_WIRES",
    "assert_refused_at_a_message",
    "leaked_marks",
    "mark",
    "media_blocks",
    "rich_transcripts",
    "sent_or_refused",
]

OPAQUE_WIRES = (
    "anthropic-messages",
    "openai-chat",
    "openai-responses",
    "gemini",
    "bedrock-converse",
)
"""The wires the drawn opaque data is tagged with."""

_MARK_KEY = "course-test-mark"


def mark(wire: str) -> str:
    """The text every opaque drawn for ``wire`` carries, found in a body only if it leaked."""
    return f"mark<{wire}>"


def leaked_marks(body: object, wire: str) -> list[str]:
    """The marks of wires other than ``wire`` that occur anywhere in ``body``'s JSON text."""
    text = json.dumps(body, ensure_ascii=False)
    return [mark(other) for other in OPAQUE_WIRES if other != wire and mark(other) in text]


@st.composite
def _opaques(draw: st.DrawFn) -> CourseOpaque:
    wire = draw(st.sampled_from(OPAQUE_WIRES))
    return CourseOpaque(wire, {**draw(json_objects), _MARK_KEY: mark(wire)})


opaques = _opaques()
optional_opaques = st.none() | opaques
_media = st.binary(min_size=1, max_size=24)
_image_types = st.sampled_from(("image/png", "image/jpeg", "image/gif", "image/webp", "image/bmp"))
_document_types = st.sampled_from(("application/pdf", "text/plain", "video/mp4"))
images = st.builds(CourseImageBlock, _image_types, data=_media) | st.builds(
    CourseImageBlock, _image_types, url=urls
)
documents = st.builds(
    CourseDocumentBlock, _document_types, data=_media, title=st.none() | ids
) | st.builds(CourseDocumentBlock, _document_types, url=urls, title=st.none() | ids)
_user_blocks: st.SearchStrategy[CourseUserBlock] = (
    st.builds(CourseTextBlock, texts) | images | documents
)
_user_contents: st.SearchStrategy[str | tuple[CourseUserBlock, ...]] = texts | st.lists(
    _user_blocks, min_size=1, max_size=3
).map(tuple)
_answer_blocks: st.SearchStrategy[CourseAssistantContent] = (
    st.builds(
        CourseTextBlock,
        texts,
        citations=st.lists(opaques, max_size=2).map(tuple),
        opaque=optional_opaques,
    )
    | st.builds(CourseReasoningBlock, texts, opaque=optional_opaques)
    | st.builds(
        CourseVendorToolBlock,
        st.sampled_from(("server_tool_use", "web_search_call", "executableCode")),
        opaques,
    )
)


@st.composite
def _turn(draw: st.DrawFn, number: int) -> list[CourseMessage]:
    messages: list[CourseMessage] = [CourseUserMessage(draw(ids), draw(_user_contents))]
    calls = [
        CourseToolCall(
            f"call-{number}-{position}",
            draw(ids),
            draw(json_objects),
            opaque=draw(optional_opaques),
        )
        for position in range(draw(st.integers(0, 2)))
    ]
    answers: list[CourseAssistantContent] = draw(st.lists(_answer_blocks, max_size=3))
    content = draw(st.permutations([*answers, *calls]))
    keep_an_empty_message = draw(st.booleans())
    if content or keep_an_empty_message:
        messages.append(CourseAssistantMessage(draw(ids), tuple(content)))
    for call in draw(st.permutations(calls)):
        result = draw(_user_contents)
        messages.append(
            CourseToolResultMessage(draw(ids), call.id, call.name, result, draw(st.booleans()))
        )
    return messages


@st.composite
def rich_transcripts(draw: st.DrawFn) -> tuple[CourseMessage, ...]:
    """Transcripts ``validate_transcript`` accepts, holding every kind of content the port has."""
    messages: list[CourseMessage] = []
    for number in range(draw(st.integers(min_value=1, max_value=3))):
        messages.extend(draw(_turn(number)))
    return tuple(messages)


def media_blocks(
    messages: tuple[CourseMessage, ...],
) -> list[CourseImageBlock | CourseDocumentBlock]:
    """Every image and document of the user messages and Tool results, in order."""
    found: list[CourseImageBlock | CourseDocumentBlock] = []
    for message in messages:
        content = getattr(message, "content", "")
        if type(message) is CourseAssistantMessage or isinstance(content, str):
            continue
        found.extend(
            block for block in content if type(block) in (CourseImageBlock, CourseDocumentBlock)
        )
    return found


def sent_or_refused(
    request: CourseModelRequest, wire: str, build: Callable[[CourseModelRequest], dict[str, Any]]
) -> dict[str, Any] | VendorError:
    """What a model call of ``wire`` makes of ``request``: the kit's check, then ``build``'s body.

    The check is `check_sendable` against the wire's registered content
    support; a refusal by either is returned, not raised.
    """
    try:
        check_sendable(request, wire, content=load_vendor(wire).wire.content)
        return build(request)
    except VendorError as error:
        return error


def assert_refused_at_a_message(error: VendorError, wire: str) -> None:
    """A transcript refused: ``VENDOR_INVALID_REQUEST`` in ``wire``'s name, at ``messages[i]``."""
    assert (error.code, error.vendor) == (VendorErrorCode.VENDOR_INVALID_REQUEST, wire)
    assert error.message.startswith("messages["), error.message


def sent_body(outcome: object, wire: str) -> dict[str, Any] | None:
    """A rich transcript's outcome (`sent_or_refused`) held to what every wire owes it.

    A refusal must be `assert_refused_at_a_message` (``None`` is returned);
    a body must hold no other wire's opaque data (`leaked_marks`), and is
    returned for the wire's own assertions.
    """
    if isinstance(outcome, VendorError):
        assert_refused_at_a_message(outcome, wire)
        return None
    assert isinstance(outcome, dict), outcome
    assert leaked_marks(outcome, wire) == []
    return outcome
