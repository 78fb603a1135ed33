"""One hand-written example of every protocol value, shared by the protocol tests."""

from __future__ import annotations

from collections.abc import Callable

from course_protocol import (
    CourseAssistantMessage,
    CourseDocumentBlock,
    CourseImageBlock,
    CourseModelRequest,
    CourseModelResponse,
    CourseModelUsage,
    CourseOpaque,
    CourseReasoningBlock,
    CourseReasoningDeltaChunk,
    CourseStopReason,
    CourseTextBlock,
    CourseTextDeltaChunk,
    CourseToolCall,
    CourseToolCallChunk,
    CourseToolResultMessage,
    CourseUserMessage,
    CourseValue,
    CourseVendorToolBlock,
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


def signature() -> CourseOpaque:
    return CourseOpaque("anthropic-messages", {"signature": "c2lnbmF0dXJl", "nested": [1, {}]})


def image() -> CourseImageBlock:
    return CourseImageBlock("image/png", data=b"\x89PNG\r\n\x1a\n")


def document() -> CourseDocumentBlock:
    return CourseDocumentBlock(
        "application/pdf", url="https://example.com/report.pdf", title="Report"
    )


def thinking_with_tool_call() -> CourseAssistantMessage:
    return CourseAssistantMessage(
        "message-2",
        (
            CourseReasoningBlock("20 + 22 is a sum.", opaque=signature()),
            CourseReasoningBlock("", opaque=CourseOpaque("anthropic-messages", {"data": "x"})),
            CourseVendorToolBlock(
                "web_search_tool_result",
                CourseOpaque("anthropic-messages", {"tool_use_id": "srv-1", "content": []}),
            ),
            CourseTextBlock(
                "Adding.",
                citations=(CourseOpaque("anthropic-messages", {"type": "char_location"}),),
                opaque=CourseOpaque("gemini", {"thoughtSignature": "c2ln"}),
            ),
            CourseToolCall("call-add-002", "add", {"left": 1}, opaque=signature()),
        ),
    )


def rich_request() -> CourseModelRequest:
    return CourseModelRequest(
        "request-2",
        (
            CourseUserMessage("user-2", (CourseTextBlock("Add these:"), image(), document())),
            thinking_with_tool_call(),
            CourseToolResultMessage(
                "result-2", "call-add-002", "add", (CourseTextBlock("1"), image())
            ),
        ),
    )


def rich_response() -> CourseModelResponse:
    return CourseModelResponse(
        "response-2",
        "request-2",
        thinking_with_tool_call(),
        CourseStopReason.LENGTH,
        CourseModelUsage(100, 40, cache_read_tokens=60, cache_write_tokens=20, reasoning_tokens=30),
    )


_EVERY_VALUE: dict[str, Callable[[], CourseValue]] = {
    "text": lambda: CourseTextBlock("The sum is 42."),
    "tool-call": tool_call,
    "user": lambda: CourseUserMessage("user-1", "What is 20 + 22?"),
    "assistant": assistant_with_tool_call,
    "tool-result": lambda: CourseToolResultMessage(
        "result-1", "call-add-001", "add", "boom", is_error=True
    ),
    "request": request,
    "text-delta": lambda: CourseTextDeltaChunk("request-1", "The sum"),
    "tool-call-chunk": lambda: CourseToolCallChunk("request-1", tool_call()),
    "usage": lambda: CourseModelUsage(0, 2**53 - 1),
    "response": response,
    "cited-text": lambda: thinking_with_tool_call().content[3],
    "opaque-tool-call": lambda: thinking_with_tool_call().content[4],
    "reasoning": lambda: thinking_with_tool_call().content[0],
    "vendor-tool": lambda: thinking_with_tool_call().content[2],
    "image": image,
    "image-url": lambda: CourseImageBlock("image/webp", url="http://example.com/a.webp"),
    "document": document,
    "user-blocks": lambda: rich_request().messages[0],
    "thinking-assistant": thinking_with_tool_call,
    "tool-result-blocks": lambda: rich_request().messages[2],
    "rich-request": rich_request,
    "reasoning-delta": lambda: CourseReasoningDeltaChunk("request-2", "20 + 22"),
    "rich-usage": lambda: rich_response().usage,
    "rich-response": rich_response,
}


def every_value() -> list[CourseValue]:
    """A fresh example of each protocol value type, the seeds' and the rich ones."""
    return [make() for make in _EVERY_VALUE.values()]


EVERY_VALUE_ID = list(_EVERY_VALUE)
"""A unique label per value of `every_value`, in the same order."""
