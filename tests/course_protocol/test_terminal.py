"""The one shared terminal check, and the text of an assistant message."""

from __future__ import annotations

import pytest

from course_protocol import (
    CourseAssistantMessage,
    CourseStopReason,
    CourseTextBlock,
    CourseToolCall,
    terminal_semantics_error,
    text_from_assistant,
)

TEXT_ONLY = CourseAssistantMessage("m-1", (CourseTextBlock("The sum is 42."),))
WITH_TWO_CALLS = CourseAssistantMessage(
    "m-2",
    (
        CourseTextBlock("Adding "),
        CourseToolCall("call-1", "add", {}),
        CourseTextBlock("twice."),
        CourseToolCall("call-2", "add", {}),
    ),
)
EMPTY = CourseAssistantMessage("m-3", ())


@pytest.mark.parametrize("message", [WITH_TWO_CALLS], ids=["two-calls"])
def test_tool_call_stop_reason_with_tool_calls_is_consistent(
    message: CourseAssistantMessage,
) -> None:
    assert terminal_semantics_error(CourseStopReason.TOOL_CALL, message) is None


@pytest.mark.parametrize("message", [TEXT_ONLY, EMPTY], ids=["text", "empty"])
def test_stop_reason_without_tool_calls_is_consistent(message: CourseAssistantMessage) -> None:
    assert terminal_semantics_error(CourseStopReason.STOP, message) is None


@pytest.mark.parametrize("message", [TEXT_ONLY, EMPTY], ids=["text", "empty"])
def test_tool_call_stop_reason_requires_a_tool_call_block(
    message: CourseAssistantMessage,
) -> None:
    assert terminal_semantics_error(CourseStopReason.TOOL_CALL, message) == (
        "stop reason toolCall requires at least one Tool-call block, found none"
    )


def test_stop_reason_forbids_tool_call_blocks_and_counts_them() -> None:
    assert terminal_semantics_error(CourseStopReason.STOP, WITH_TWO_CALLS) == (
        "stop reason stop forbids Tool-call blocks, found 2"
    )


def test_text_from_assistant_joins_text_blocks_in_order_and_skips_tool_calls() -> None:
    assert text_from_assistant(WITH_TWO_CALLS) == "Adding twice."
    assert text_from_assistant(TEXT_ONLY) == "The sum is 42."
    assert text_from_assistant(EMPTY) == ""
