"""MessagesMapping: the Messages API's validated events as course chunks and one response.

The port half of the wire: each event has passed `MessagesGrammar` already,
so every field read here is in place and of its documented type. The mapping
pushes a text chunk per ``text_delta``, a reasoning chunk per
``thinking_delta`` and a Tool call per finished ``tool_use`` block, and turns
the grammar's `MessagesResult` into the `CourseModelResponse`: thinking as
reasoning blocks holding what the API needs back, the blocks of the tools
the vendor ran (and compaction, fallback) as vendor-tool blocks holding the
block as the vendor sent it, citations on their text (`_content`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, NoReturn, final

from course_http import VendorErrorCode
from course_protocol import (
    MAX_TOKEN_COUNT,
    CourseAssistantMessage,
    CourseModelChunk,
    CourseModelResponse,
    CourseModelUsage,
    CourseReasoningDeltaChunk,
    CourseStopReason,
    CourseTextDeltaChunk,
    CourseToolCall,
    CourseToolCallChunk,
    terminal_semantics_error,
)
from course_provider_anthropic._content import VENDOR_BLOCK_KINDS, course_content
from course_provider_anthropic._errors import error_event_failure
from course_provider_anthropic._grammar import MessagesGrammar
from course_provider_anthropic._reads import fail, fail_invalid
from course_provider_anthropic._result import MessagesResult, MessagesToolUseBlock, MessagesUsage
from course_provider_anthropic._stop import course_stop_reason
from course_vendor import WireEvent, WireMapping

__all__ = ["CARRIED_KINDS", "MessagesMapping"]

CARRIED_KINDS: Final = (
    frozenset({"text", "tool_use", "thinking", "redacted_thinking"}) | VENDOR_BLOCK_KINDS
)
"""Every block type the mapping carries: text, Tool calls, reasoning, and the vendor's own
blocks (`VENDOR_BLOCK_KINDS`); the grammar reads no other."""


def _course_input_tokens(usage: MessagesUsage) -> int:
    """Every input token of the call: ``input_tokens`` plus both cache counts.

    The vendor counts cached input apart (its total input is the sum of the
    three); the course has one input count, so it gets the total, as an
    OpenAI prompt count includes its cached tokens.
    """
    return (
        usage.input_tokens
        + (usage.cache_creation_input_tokens or 0)
        + (usage.cache_read_input_tokens or 0)
    )


@final
class MessagesMapping(WireMapping[MessagesResult]):
    """One streamed Messages API response as course chunks and one response: a ``VendorPlay``.

    A ``course_vendor.WireMapping`` over a fresh `MessagesGrammar`:
    :meth:`item` judges each frame with the grammar, then pushes the course
    chunks its event makes; :meth:`end` gives the `CourseModelResponse`;
    ``AnthropicMessagesModel`` plays it that way. By hand, feed each frame
    in order with :meth:`feed` (it returns what it pushed), then call
    :meth:`end`. Each ``text_delta`` is one `CourseTextDeltaChunk` and
    each ``thinking_delta`` one `CourseReasoningDeltaChunk` (the empty
    string included; a non-empty initial text or thinking of a block's
    start comes first), each ``tool_use`` block one `CourseToolCallChunk`
    once its block stopped and its arguments parsed. The response's message
    holds every block the course carries, in order (`course_content`);
    its usage the input count with the cached input added in, and the
    cache counts where the vendor sent them. Raises ``CourseProtocolError``
    when ``request_id`` is not a non-blank ``str``.

    Both raise `VendorError` (``vendor`` ``"anthropic-messages"``,
    ``event_index`` the offending frame): what `MessagesGrammar` raises;
    ``VENDOR_ERROR_EVENT`` at the vendor's ``error`` event;
    ``VENDOR_INCOMPLETE`` at the ``message_delta`` whose stop reason the
    course cannot express (`course_stop_reason`); ``VENDOR_INVALID_EVENT``
    when the input count and the cache counts add up past 2**53 - 1;
    ``VENDOR_INVALID_TERMINAL`` (at ``message_stop``) when the stop reason
    contradicts the content. After its first error the mapping is spent.
    """

    __slots__ = ("_calls", "_messages", "_stop_reason")

    def __init__(self, request_id: str) -> None:
        grammar = MessagesGrammar()
        super().__init__(grammar, request_id)
        self._messages = grammar
        self._calls: dict[int, CourseToolCall] = {}
        self._stop_reason: CourseStopReason | None = None

    def _map(self, event: WireEvent, index: int, push: Callable[[CourseModelChunk], None]) -> None:
        # The hot path: a text or thinking delta is one chunk.
        kind = event["type"]
        if kind == "content_block_delta":
            delta = event["delta"]
            delta_kind = delta["type"]
            if delta_kind == "text_delta":
                push(CourseTextDeltaChunk(self._request_id, delta["text"]))
            elif delta_kind == "thinking_delta":
                push(CourseReasoningDeltaChunk(self._request_id, delta["thinking"]))
            return
        mapper = _MAPPERS.get(kind)
        if mapper is not None:
            mapper(self, event, index, push)

    def _block_start(
        self, event: WireEvent, index: int, push: Callable[[CourseModelChunk], None]
    ) -> None:
        block = event["content_block"]
        kind = block["type"]
        # Only the initial text is in a block that has just started.
        if kind == "text":
            if block["text"]:
                push(CourseTextDeltaChunk(self._request_id, block["text"]))
        elif kind == "thinking" and block["thinking"]:
            push(CourseReasoningDeltaChunk(self._request_id, block["thinking"]))

    def _block_stop(
        self, event: WireEvent, index: int, push: Callable[[CourseModelChunk], None]
    ) -> None:
        closed = self._messages.closed_block
        if type(closed) is not MessagesToolUseBlock or closed.input is None:
            return
        # A server or MCP tool call is the vendor's to run: a block of the message, never a call.
        if closed.kind == "tool_use":
            call = CourseToolCall(closed.id, closed.name, closed.input)
            self._calls[event["index"]] = call
            push(CourseToolCallChunk(self._request_id, call))

    def _message_start(
        self, event: WireEvent, index: int, push: Callable[[CourseModelChunk], None]
    ) -> None:
        self._check_input("message.usage", index)

    def _message_delta(
        self, event: WireEvent, index: int, push: Callable[[CourseModelChunk], None]
    ) -> None:
        delta = event["delta"]
        reason = delta.get("stop_reason")
        if reason is not None:
            self._stop_reason = course_stop_reason(reason, index)
        self._check_input("usage", index)

    def _error(
        self, event: WireEvent, index: int, push: Callable[[CourseModelChunk], None]
    ) -> NoReturn:
        error = self._messages.error
        # The grammar read this error event just now.
        assert error is not None
        raise error_event_failure(error, index)

    def _check_input(self, path: str, index: int) -> None:
        usage = self._messages.usage
        if usage is not None and _course_input_tokens(usage) > MAX_TOKEN_COUNT:
            fail_invalid(f"{path}.input_tokens and the cache counts add up past 2**53 - 1", index)

    def _respond(self, result: MessagesResult, event_count: int) -> CourseModelResponse:
        message_id, usage, reason = result.id, result.usage, self._stop_reason
        # A result reaches here only from message_stop, which the grammar takes
        # after message_start and a message_delta with a stop reason (the
        # mapping failed at an error event, the other end of a stream).
        assert message_id is not None
        assert usage is not None
        assert usage.output_tokens is not None
        assert reason is not None
        message = CourseAssistantMessage(message_id, course_content(result.content, self._calls))
        problem = terminal_semantics_error(reason, message)
        if problem is not None:
            fail(
                VendorErrorCode.VENDOR_INVALID_TERMINAL,
                event_count - 1,
                problem,
                vendor_type=result.stop_reason,
            )
        counts = CourseModelUsage(
            _course_input_tokens(usage),
            usage.output_tokens,
            cache_read_tokens=usage.cache_read_input_tokens,
            cache_write_tokens=usage.cache_creation_input_tokens,
        )
        return CourseModelResponse(message_id, self._request_id, message, reason, counts)


_Mapper = Callable[[MessagesMapping, WireEvent, int, Callable[[CourseModelChunk], None]], Any]
_MAPPERS: dict[str, _Mapper] = {
    "content_block_start": MessagesMapping._block_start,
    "content_block_stop": MessagesMapping._block_stop,
    "message_start": MessagesMapping._message_start,
    "message_delta": MessagesMapping._message_delta,
    "error": MessagesMapping._error,
}
"""The mapper of every event type that makes chunks or can fail; message_stop makes none."""
