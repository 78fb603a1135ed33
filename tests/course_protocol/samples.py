"""One hand-written example of every protocol value, shared by the protocol tests."""

from __future__ import annotations

from course_protocol import (
    CourseAssistantMessage,
    CourseModelRequest,
    CourseModelResponse,
    CourseModelUsage,
    CourseStopReason,
    CourseTextBlock,
    CourseTextDeltaChunk,
    CourseToolCall,
    CourseToolCallChunk,
    CourseToolResultMessage,
    CourseUserMessage,
    CourseValue,
)


def tool_call() -> CourseToolCall:
    return CourseToolCall("call-add-001", "add", {"left": 20, "right": 22, "tags": ["x", {}]})


def assistant_with_tool_call() -> CourseAssistantMessage:
    return CourseAssistantMessage("message-1", (CourseTextBlock("Adding."), tool_call()))


def request() -> CourseModelRequest:
    return CourseModelRequest(
        "request-1",
        (
            CourseUserMessage("user-1", "What is 20 + 22?"),
            assistant_with_tool_call(),
            CourseToolResultMessage("result-1", "call-add-001", "add", "42"),
        ),
    )


def response() -> CourseModelResponse:
    return CourseModelResponse(
        "response-1",
        "request-1",
        assistant_with_tool_call(),
        CourseStopReason.TOOL_CALL,
        CourseModelUsage(12, 8),
    )


def every_value() -> list[CourseValue]:
    """A fresh example of each of the ten protocol value types."""
    return [
        CourseTextBlock("The sum is 42."),
        tool_call(),
        CourseUserMessage("user-1", "What is 20 + 22?"),
        assistant_with_tool_call(),
        CourseToolResultMessage("result-1", "call-add-001", "add", "boom", is_error=True),
        request(),
        CourseTextDeltaChunk("request-1", "The sum"),
        CourseToolCallChunk("request-1", tool_call()),
        CourseModelUsage(0, 2**53 - 1),
        response(),
    ]


EVERY_VALUE_ID = [type(value).__name__ for value in every_value()]
