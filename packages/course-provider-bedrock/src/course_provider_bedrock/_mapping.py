"""ConverseMapping: the ConverseStream's validated events as course chunks and one response.

The port half of the wire: each event has passed `ConverseGrammar` already,
so every field read here is in place and of its documented type. Text and
reasoning deltas become course chunks as they come, a ``toolUse`` block a
Tool call once it stopped; a reasoning block becomes a
``CourseReasoningBlock`` whose opaque data (its signature, or its redacted
content) goes back to the vendor in the next request. Content the course
protocol cannot carry is refused where it starts.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, NoReturn, final

from course_http import VendorErrorCode
from course_protocol import (
    CourseAssistantContent,
    CourseAssistantMessage,
    CourseModelChunk,
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
    terminal_semantics_error,
)
from course_provider_bedrock._errors import exception_failure
from course_provider_bedrock._grammar import ConverseGrammar
from course_provider_bedrock._reads import fail, fail_invalid
from course_provider_bedrock._result import (
    ConverseReasoningBlock,
    ConverseResult,
    ConverseTextBlock,
    ConverseToolUseBlock,
    ConverseUsage,
)
from course_provider_bedrock._stop import course_stop_reason
from course_provider_bedrock._wire import WIRE
from course_vendor import WireEvent, WireMapping

__all__ = ["UNCARRIED_KINDS", "ConverseMapping", "reasoning_opaque"]

UNCARRIED_KINDS: Final = {
    "toolResult": "the result of a Tool the vendor ran",
    "image": "an image the model generated",
    "citation": "a citation of a document sent in the request",
}
"""What the grammar reads that the mapping refuses, and what it is."""


def reasoning_opaque(block: ConverseReasoningBlock) -> CourseOpaque | None:
    """What a reasoning block needs back: its ``signature`` or ``redactedContent``, or ``None``."""
    if block.redacted_content is not None:
        return CourseOpaque(WIRE, {"redactedContent": block.redacted_content})
    if block.signature is not None:
        return CourseOpaque(WIRE, {"signature": block.signature})
    return None


def _course_usage(usage: ConverseUsage, index: int) -> CourseModelUsage:
    """The course's counts: the vendor's input plus both cache counts, which it counts apart."""
    read = usage.cache_read_input_tokens
    write = usage.cache_write_input_tokens
    total_input = usage.input_tokens + (read or 0) + (write or 0)
    if total_input > 2**53 - 1:
        fail_invalid("usage.inputTokens and the cache counts add up past 2**53 - 1", index)
    return CourseModelUsage(
        total_input, usage.output_tokens, cache_read_tokens=read, cache_write_tokens=write
    )


@final
class ConverseMapping(WireMapping[ConverseResult]):
    """One ConverseStream response as course chunks and one response: a ``VendorPlay``.

    A ``course_vendor.WireMapping`` over a fresh `ConverseGrammar`: each
    ``text`` delta is one `CourseTextDeltaChunk`, each reasoning ``text``
    delta one `CourseReasoningDeltaChunk`, each ``toolUse`` block one
    `CourseToolCallChunk` once it stopped. The response's id is
    ``bedrock-<request_id>`` (the stream carries none); its message holds
    the reasoning, text and Tool-call blocks in index order. Raises
    ``CourseProtocolError`` when ``request_id`` is not a non-blank ``str``.

    `item` and `end` raise `VendorError` (``vendor`` ``"bedrock-converse"``):
    what `ConverseGrammar` raises; ``VENDOR_UNSUPPORTED_CONTENT``
    (``vendor_type`` the kind) where content of an `UNCARRIED_KINDS` kind
    starts; ``VENDOR_ERROR_EVENT`` at an exception; ``VENDOR_INCOMPLETE``
    at a ``messageStop`` whose reason the course cannot express;
    ``VENDOR_INVALID_TERMINAL`` when the stop reason contradicts the
    content; ``VENDOR_MISSING_TERMINAL`` from `end` for a stream without
    ``metadata`` (the course response needs its usage).
    """

    __slots__ = ("_calls", "_converse", "_stop_reason")

    def __init__(self, request_id: str) -> None:
        grammar = ConverseGrammar()
        super().__init__(grammar, request_id)
        self._converse = grammar
        self._calls: dict[int, CourseToolCall] = {}
        self._stop_reason: CourseStopReason | None = None

    def _map(self, event: WireEvent, index: int, push: Callable[[CourseModelChunk], None]) -> None:
        if self._converse.exception is not None:
            self._fail_exception(index)
        delta = event.get("delta")
        if delta is not None:
            # The hot path: a text delta is one chunk.
            text = delta.get("text")
            if text is not None:
                push(CourseTextDeltaChunk(self._request_id, text))
                return
            self._other_delta(delta, index, push)
            return
        if "start" in event:
            kind = next(iter(event["start"]))
            if kind in UNCARRIED_KINDS:
                _refuse_kind(kind, index)
        elif "stopReason" in event:
            self._stop_reason = course_stop_reason(event["stopReason"], index)
        elif "contentBlockIndex" in event:
            closed = self._converse.closed_block
            if type(closed) is ConverseToolUseBlock and closed.input is not None:
                call = CourseToolCall(closed.id, closed.name, closed.input)
                self._calls[event["contentBlockIndex"]] = call
                push(CourseToolCallChunk(self._request_id, call))

    def _other_delta(
        self, delta: dict[str, Any], index: int, push: Callable[[CourseModelChunk], None]
    ) -> None:
        (kind,) = delta
        if kind in UNCARRIED_KINDS:
            _refuse_kind(kind, index)
        if kind == "reasoningContent":
            text = delta[kind].get("text")
            if text is not None:
                push(CourseReasoningDeltaChunk(self._request_id, text))

    def _fail_exception(self, index: int) -> NoReturn:
        exception = self._converse.exception
        assert exception is not None
        raise exception_failure(exception, index)

    def _respond(self, result: ConverseResult, event_count: int) -> CourseModelResponse:
        reason = self._stop_reason
        # A result reaches here only from messageStop (an exception failed the mapping).
        assert reason is not None
        metadata = result.metadata
        if metadata is None:
            fail(
                VendorErrorCode.VENDOR_MISSING_TERMINAL,
                event_count,
                f"the stream ended after {event_count} event(s) without metadata: "
                "the course response needs its usage",
            )
        content: list[CourseAssistantContent] = []
        for position, block in enumerate(result.content):
            if type(block) is ConverseTextBlock and block.text:
                content.append(CourseTextBlock(block.text))
            elif type(block) is ConverseReasoningBlock:
                content.append(CourseReasoningBlock(block.text, opaque=reasoning_opaque(block)))
            elif position in self._calls:
                content.append(self._calls[position])
        response_id = f"bedrock-{self._request_id}"
        message = CourseAssistantMessage(response_id, tuple(content))
        problem = terminal_semantics_error(reason, message)
        if problem is not None:
            fail(
                VendorErrorCode.VENDOR_INVALID_TERMINAL,
                event_count - 1,
                problem,
                vendor_type=result.stop_reason,
            )
        usage = _course_usage(metadata.usage, event_count - 1)
        return CourseModelResponse(response_id, self._request_id, message, reason, usage)


def _refuse_kind(kind: str, index: int) -> NoReturn:
    fail(
        VendorErrorCode.VENDOR_UNSUPPORTED_CONTENT,
        index,
        f"{kind} is {UNCARRIED_KINDS[kind]}; the course protocol cannot carry it ({WIRE})",
        vendor_type=kind,
    )
