"""Requests the Messages API cannot express are refused before anything is sent."""

from __future__ import annotations

import pytest

from course_http import VendorError, VendorErrorCode
from course_protocol import (
    CourseAssistantMessage,
    CourseMessage,
    CourseModelRequest,
    CourseTextBlock,
    CourseToolCall,
    CourseToolResultMessage,
    CourseUserMessage,
)
from course_provider_anthropic import WIRE, AnthropicConfig, messages_request_body
from course_vendor import check_sendable

CONFIG = AnthropicConfig(model="claude-test", max_output_tokens=256)
CALL_A = CourseToolCall("toolu_A", "add", {"x": 1})
CALL_B = CourseToolCall("toolu_B", "add", {"x": 2})
USER = CourseUserMessage("u-1", "Compute.")
ASKS_A = CourseAssistantMessage("a-1", [CALL_A])
ASKS_AB = CourseAssistantMessage("a-1", [CALL_A, CALL_B])
RESULT_A = CourseToolResultMessage("r-a", "toolu_A", "add", "1")
RESULT_B = CourseToolResultMessage("r-b", "toolu_B", "add", "2")
SAYS = CourseAssistantMessage("a-2", [CourseTextBlock("Done.")])


def refusal(*messages: CourseMessage) -> VendorError:
    """What a model call refuses ``messages`` with: the kit's check, then the conversion."""
    request = CourseModelRequest("request-1", messages)

    def call() -> None:
        check_sendable(request, WIRE)
        messages_request_body(request, CONFIG)

    with pytest.raises(VendorError) as caught:
        call()
    return caught.value


@pytest.mark.parametrize(
    ("messages", "where", "words"),
    [
        pytest.param((), "messages:", "empty", id="empty"),
        pytest.param(
            (SAYS, USER), "messages[0]:", "open with a user message", id="assistant-first"
        ),
        pytest.param(
            (CourseAssistantMessage("a-0", [CourseTextBlock("")]), SAYS, USER),
            "messages[1]:",
            "open with a user message",
            id="assistant-first-after-an-empty-one",
        ),
        pytest.param(
            (
                CourseAssistantMessage("a-1", [CourseTextBlock(" ")]),
                CourseAssistantMessage("a-2", []),
            ),
            "messages:",
            "nothing to send",
            id="only-empty-assistant-messages",
        ),
        pytest.param((CourseUserMessage("u-1", ""),), "messages[0]:", "blank", id="empty-user"),
        pytest.param(
            (USER, SAYS, CourseUserMessage("u-2", " \t\n")),
            "messages[2]:",
            "blank",
            id="blank-user",
        ),
        pytest.param(
            (USER, ASKS_A, CourseUserMessage("u-2", "Wait."), RESULT_A),
            "messages[2]:",
            "toolu_A",
            id="user-between-call-and-result",
        ),
        pytest.param(
            (USER, ASKS_AB, RESULT_A, CourseUserMessage("u-2", "Wait."), RESULT_B),
            "messages[3]:",
            "toolu_B",
            id="user-text-before-the-last-result",
        ),
        pytest.param(
            (USER, ASKS_A, CourseUserMessage("u-2", "Wait."), SAYS, RESULT_A),
            "messages[2]:",
            "toolu_A",
            id="a-whole-turn-between-call-and-result",
        ),
        pytest.param(
            (USER, ASKS_AB, RESULT_A, SAYS, RESULT_B),
            "messages[3]:",
            "toolu_B",
            id="assistant-turn-before-the-last-result",
        ),
        pytest.param(
            (USER, ASKS_A, RESULT_A, SAYS, CourseToolResultMessage("r-2", "toolu_A", "add", "1")),
            "messages[4]:",
            "DUPLICATE_TOOL_RESULT",
            id="validate-transcript-duplicate",
        ),
        pytest.param((USER, ASKS_A), "messages[1]:", "MISSING_TOOL_RESULT", id="unanswered-call"),
        pytest.param((USER, RESULT_A), "messages[1]:", "ORPHAN_TOOL_RESULT", id="orphan-result"),
        pytest.param(
            (USER, ASKS_A, CourseToolResultMessage("r-a", "toolu_A", "mul", "1")),
            "messages[2]:",
            "TOOL_NAME_MISMATCH",
            id="name-mismatch",
        ),
    ],
)
def test_a_request_the_api_cannot_express_is_an_invalid_request_naming_the_message(
    messages: tuple[CourseMessage, ...], where: str, words: str
) -> None:
    error = refusal(*messages)

    assert error.code is VendorErrorCode.VENDOR_INVALID_REQUEST
    assert error.vendor == "anthropic-messages"
    assert error.message.startswith(where), error.message
    assert words in error.message
    assert error.retryable is False
    assert (error.status, error.event_index) == (None, None)


def test_results_in_any_order_after_their_calls_are_fine() -> None:
    body = messages_request_body(
        CourseModelRequest("request-1", [USER, ASKS_AB, RESULT_B, RESULT_A, SAYS]), CONFIG
    )

    assert [turn["role"] for turn in body["messages"]] == ["user", "assistant", "user", "assistant"]
