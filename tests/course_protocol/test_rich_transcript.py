"""validate_transcript on the rich blocks: each where it belongs, each opaque payload sound."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from course_protocol import (
    CourseAssistantMessage,
    CourseDocumentBlock,
    CourseImageBlock,
    CourseMessage,
    CourseOpaque,
    CourseReasoningBlock,
    CourseTextBlock,
    CourseToolCall,
    CourseToolResultMessage,
    CourseUserMessage,
    CourseVendorToolBlock,
    TranscriptIssueCode,
    validate_transcript,
)
from tests.course_protocol import samples
from tests.course_protocol.hostile import tampered

Code = TranscriptIssueCode
SIGNATURE = CourseOpaque("anthropic-messages", {"signature": "c2ln"})
PNG = b"\x89PNG\r\n\x1a\n"


def thinking_call(call: CourseToolCall | None = None) -> CourseAssistantMessage:
    return CourseAssistantMessage(
        "a-1",
        (
            CourseReasoningBlock("Add them.", opaque=SIGNATURE),
            CourseVendorToolBlock("server_tool_use", SIGNATURE),
            CourseTextBlock("Adding.", citations=(SIGNATURE,), opaque=SIGNATURE),
            call or CourseToolCall("call-1", "add", {"left": 20}, opaque=SIGNATURE),
        ),
    )


def transcript(assistant: CourseAssistantMessage | None = None) -> list[CourseMessage]:
    return [
        CourseUserMessage(
            "u-1", (CourseTextBlock("Add:"), CourseImageBlock("image/png", data=PNG))
        ),
        assistant or thinking_call(),
        CourseToolResultMessage(
            "r-1", "call-1", "add", (CourseDocumentBlock("text/plain", data=b"42", title="Sum"),)
        ),
    ]


def issues(messages: Sequence[object]) -> list[tuple[TranscriptIssueCode, int | None, str]]:
    return [(i.code, i.message_index, i.detail) for i in validate_transcript(messages)]


def test_a_rich_tool_round_trip_has_no_issues() -> None:
    assert validate_transcript(transcript()) == ()
    assert validate_transcript(samples.rich_request().messages) == ()


def test_a_reasoning_block_in_user_content_is_an_invalid_message() -> None:
    user = tampered(CourseUserMessage("u-1", "x"), content=(CourseReasoningBlock("r"),))

    assert issues([user]) == [
        (
            Code.INVALID_MESSAGE,
            0,
            "content[0] is a CourseReasoningBlock, which only an assistant message holds",
        )
    ]


def test_a_tool_call_in_a_tool_result_is_an_invalid_message_and_pairs_with_nothing() -> None:
    messages = transcript()
    messages[2] = tampered(
        CourseToolResultMessage("r-1", "call-1", "add", "42"),
        content=(CourseToolCall("call-9", "add", {}),),
    )

    assert [(code, index) for code, index, _ in issues(messages)] == [
        (Code.MISSING_TOOL_RESULT, 1),
        (Code.INVALID_MESSAGE, 2),
    ]


@pytest.mark.parametrize(
    "block",
    [CourseImageBlock("image/png", data=PNG), CourseDocumentBlock("text/plain", data=b"x")],
    ids=["image", "document"],
)
def test_an_image_or_document_in_an_assistant_message_is_an_invalid_message(block: Any) -> None:
    assistant = tampered(CourseAssistantMessage("a-1", ()), content=(block,))

    assert issues([assistant]) == [
        (
            Code.INVALID_MESSAGE,
            0,
            f"content[0] is a {type(block).__name__}, which only user content and Tool "
            "results hold",
        )
    ]


@pytest.mark.parametrize(
    ("opaque", "detail"),
    [
        ({"wire": "w", "data": {}}, "content[3].opaque is a dict, not a CourseOpaque"),
        (
            tampered(CourseOpaque("w", {}), wire="  "),
            "content[3].opaque.wire is not a non-blank str",
        ),
        (
            tampered(CourseOpaque("w", {}), data={"signature": ["mutable"]}),
            "content[3].opaque.data is a dict, not a frozendict",
        ),
    ],
    ids=["dict", "blank-wire", "mutable-data"],
)
def test_a_broken_opaque_on_a_tool_call_is_one_issue_and_the_call_still_pairs(
    opaque: object, detail: str
) -> None:
    call = tampered(CourseToolCall("call-1", "add", {"left": 20}), opaque=opaque)

    assert issues(transcript(thinking_call(call))) == [(Code.INVALID_MESSAGE, 1, detail)]


def test_every_broken_opaque_of_a_message_is_reported_in_block_order() -> None:
    broken = tampered(CourseOpaque("w", {}), wire=1)
    assistant = CourseAssistantMessage(
        "a-1",
        (
            tampered(CourseReasoningBlock("r"), opaque=broken),
            tampered(CourseTextBlock("t"), citations=(SIGNATURE, "not a citation")),
            tampered(CourseVendorToolBlock("k", SIGNATURE), opaque=None),
        ),
    )

    assert issues([assistant]) == [
        (Code.INVALID_MESSAGE, 0, "content[0].opaque.wire is not a non-blank str"),
        (Code.INVALID_MESSAGE, 0, "content[1].citations[1] is a str, not a CourseOpaque"),
        (Code.INVALID_MESSAGE, 0, "content[2].opaque is a NoneType, not a CourseOpaque"),
    ]


@pytest.mark.parametrize(
    ("content", "detail"),
    [
        ((), "field content is a tuple, not a str or a tuple of blocks"),
        ([CourseTextBlock("x")], "field content is a list, not a str or a tuple of blocks"),
        (
            (tampered(CourseTextBlock("x"), citations=(SIGNATURE,)),),
            "content[0] carries citations or opaque data, which only an answer has",
        ),
        (
            (tampered(CourseTextBlock("x"), citations=[]),),
            "content[0].citations is a list, not a tuple",
        ),
        (
            (tampered(CourseImageBlock("image/png", data=PNG), url="https://a.b"),),
            "content[0] has both data and url",
        ),
        (
            (tampered(CourseImageBlock("image/png", data=PNG), data=None),),
            "content[0] has neither data nor url",
        ),
        (
            (tampered(CourseImageBlock("image/png", data=PNG), data=bytearray(PNG)),),
            "content[0].data is a bytearray, not bytes",
        ),
        (
            (tampered(CourseDocumentBlock("text/plain", url="https://a.b"), url=7),),
            "content[0].url is a int, not a str",
        ),
        (
            (tampered(CourseDocumentBlock("text/plain", data=b"x"), title=b"t"),),
            "content[0].title is a bytes, not a str",
        ),
        (
            (tampered(CourseDocumentBlock("text/plain", data=b"x"), media_type=None),),
            "content[0].media_type is a NoneType, not a str",
        ),
        ((SIGNATURE,), "content[0] is a CourseOpaque"),
        (
            (tampered(CourseTextBlock("x"), text=None),),
            "content[0].text is a NoneType, not a str",
        ),
    ],
    ids=[
        "empty",
        "list",
        "cited-text",
        "citations-list",
        "both-sources",
        "no-source",
        "bytearray",
        "url-int",
        "title-bytes",
        "media-type-none",
        "opaque-as-block",
        "text-none",
    ],
)
def test_broken_user_content_is_an_invalid_message_in_users_and_tool_results(
    content: object, detail: str
) -> None:
    user = tampered(CourseUserMessage("u-1", "x"), content=content)
    result = tampered(CourseToolResultMessage("r-1", "call-1", "add", "x"), content=content)
    call = CourseAssistantMessage("a-1", (CourseToolCall("call-1", "add", {}),))

    assert issues([user, call, result]) == [
        (Code.INVALID_MESSAGE, 0, detail),
        (Code.MISSING_TOOL_RESULT, 1, "Tool call 'call-1' has no Tool result after it"),
        (Code.INVALID_MESSAGE, 2, detail),
    ]
