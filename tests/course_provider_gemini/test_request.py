"""Course requests in the Gemini API's terms: the body, the headers, and what is refused."""

from __future__ import annotations

from typing import Any

import pytest

from course_http import VendorError, VendorErrorCode
from course_protocol import (
    CourseAssistantMessage,
    CourseModelRequest,
    CourseOpaque,
    CourseTextBlock,
    CourseToolCall,
    CourseToolResultMessage,
    CourseToolSpec,
    CourseUserMessage,
)
from course_provider_gemini import GeminiConfig, generate_content_body, request_headers

ADD = CourseToolSpec("add", "Add two integers.", {"type": "object", "properties": {"a": {}}})
CALL = CourseToolCall("resp-1-call-0", "add", {"a": 1})
SIGNED = CourseToolCall(
    "resp-1-call-0", "add", {"a": 1}, opaque=CourseOpaque("gemini", {"thoughtSignature": "c2ln"})
)
OTHER = CourseToolCall("resp-1-call-1", "add", {"a": 2})


def body(*messages: Any, **config: Any) -> dict[str, Any]:
    request = CourseModelRequest("request-1", messages)
    return generate_content_body(request, GeminiConfig("gemini-test", **config))


def test_a_whole_configuration_and_a_tool_round_trip_become_the_documented_body() -> None:
    built = body(
        CourseUserMessage("u-1", "What is 1 + 1?"),
        CourseAssistantMessage("a-1", (CourseTextBlock("Adding."), SIGNED, OTHER)),
        CourseToolResultMessage("r-1", CALL.id, "add", "2"),
        CourseToolResultMessage("r-2", OTHER.id, "add", "no", is_error=True),
        CourseUserMessage("u-2", "Thanks"),
        system_prompt="Be brief.",
        tools=(ADD,),
        max_output_tokens=64,
    )

    assert list(built) == ["contents", "systemInstruction", "tools", "generationConfig"]
    assert built["contents"] == [
        {"role": "user", "parts": [{"text": "What is 1 + 1?"}]},
        {
            "role": "model",
            "parts": [
                {"text": "Adding."},
                {"functionCall": {"name": "add", "args": {"a": 1}}, "thoughtSignature": "c2ln"},
                {"functionCall": {"name": "add", "args": {"a": 2}}},
            ],
        },
        {
            "role": "user",
            "parts": [
                {"functionResponse": {"name": "add", "response": {"output": "2"}}},
                {"functionResponse": {"name": "add", "response": {"error": "no"}}},
                {"text": "Thanks"},
            ],
        },
    ]
    assert built["systemInstruction"] == {"parts": [{"text": "Be brief."}]}
    assert built["tools"] == [
        {
            "functionDeclarations": [
                {
                    "name": "add",
                    "description": "Add two integers.",
                    "parametersJsonSchema": {"type": "object", "properties": {"a": {}}},
                }
            ]
        }
    ]
    assert built["generationConfig"] == {"maxOutputTokens": 64}


def test_a_bare_configuration_sends_contents_alone() -> None:
    assert body(CourseUserMessage("u-1", "hi")) == {
        "contents": [{"role": "user", "parts": [{"text": "hi"}]}]
    }


def test_consecutive_messages_of_one_role_share_one_turn_and_blank_text_is_left_out() -> None:
    built = body(
        CourseUserMessage("u-1", "one"),
        CourseUserMessage("u-2", "two"),
        CourseAssistantMessage("a-1", (CourseTextBlock("  "),)),
        CourseAssistantMessage("a-2", (CourseTextBlock("three"),)),
        CourseAssistantMessage("a-3", (CourseTextBlock("four"),)),
    )

    assert built["contents"] == [
        {"role": "user", "parts": [{"text": "one"}, {"text": "two"}]},
        {"role": "model", "parts": [{"text": "three"}, {"text": "four"}]},
    ]


@pytest.mark.parametrize(
    ("messages", "message"),
    [
        (
            (CourseAssistantMessage("a-1", (CourseTextBlock("hi"),)),),
            "messages[0]: the transcript must open with a user message",
        ),
        ((CourseUserMessage("u-1", " "),), "messages[0]: a user message must not be blank"),
        (
            (
                CourseUserMessage("u-1", "go"),
                CourseAssistantMessage("a-1", (CALL,)),
                CourseUserMessage("u-2", "wait"),
                CourseToolResultMessage("r-1", CALL.id, "add", "2"),
            ),
            "messages[2]: the Tool call 'resp-1-call-0' of messages[1] must be answered",
        ),
        (
            (
                CourseUserMessage("u-1", "go"),
                CourseToolResultMessage("r-1", CALL.id, "add", "2"),
            ),
            "messages[1]: the Tool result for 'resp-1-call-0' must follow",
        ),
        (
            (CourseAssistantMessage("a-1", (CourseTextBlock(" "),)),),
            "messages: nothing to send",
        ),
    ],
)
def test_a_transcript_the_api_cannot_take_is_refused_naming_the_message(
    messages: tuple[Any, ...], message: str
) -> None:
    with pytest.raises(VendorError) as refused:
        body(*messages)

    assert (refused.value.code, refused.value.vendor) == (
        VendorErrorCode.VENDOR_INVALID_REQUEST,
        "gemini",
    )
    assert refused.value.message.startswith(message)


def test_the_key_goes_in_the_goog_header() -> None:
    assert request_headers("AIza-test-key") == {"x-goog-api-key": "AIza-test-key"}
