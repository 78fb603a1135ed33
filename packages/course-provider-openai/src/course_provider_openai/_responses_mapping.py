"""ResponsesMapping: the Responses grammar's events as course chunks, its result as the response.

The port half of the wire. The grammar (`ResponsesGrammar`) has judged
every event before it gets here; the mapping pushes the course chunks (a
text or refusal delta, a reasoning delta, a function call once its
arguments are complete), refuses what the course protocol cannot carry at
the event where it first appears (``VENDOR_UNSUPPORTED_CONTENT``, naming
the kind and the wire), ends the call at the vendor's own failures (an
error, an incomplete response it cannot express), and builds the response
from the grammar's result: text with its annotations as citations, a
refusal, reasoning with the item it goes back as, the tools the vendor ran,
function calls with their item id, usage with its cached and reasoning
counts.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, NoReturn, final

from course_http import VendorErrorCode
from course_protocol import (
    CourseAssistantContent,
    CourseAssistantMessage,
    CourseModelChunk,
    CourseModelResponse,
    CourseReasoningDeltaChunk,
    CourseStopReason,
    CourseTextDeltaChunk,
    CourseToolCall,
    CourseToolCallChunk,
    CourseVendorToolBlock,
)
from course_protocol.untrusted import shown
from course_provider_openai._failures import OpenAIFailures
from course_provider_openai._responses_blocks import (
    REASONING_SEPARATOR,
    call_opaque,
    course_usage,
    message_blocks,
    reasoning_block,
    tagged,
)
from course_provider_openai._responses_dialect import OPENAI_RESPONSES, ResponsesDialect
from course_provider_openai._responses_grammar import ResponsesGrammar
from course_provider_openai._responses_kinds import carried, unsupported_kind
from course_provider_openai._responses_result import (
    ResponsesFunctionCall,
    ResponsesMessage,
    ResponsesReasoning,
    ResponsesResult,
    ResponsesToolItem,
)
from course_vendor import WireEvent, WireMapping

__all__ = ["ResponsesMapping"]

_Code = VendorErrorCode
_Push = Callable[[CourseModelChunk], None]

_INCOMPLETE_STOPS: Final = {
    "max_output_tokens": CourseStopReason.LENGTH,
    "content_filter": CourseStopReason.REFUSAL,
}
"""Each ``incomplete_details.reason`` the course expresses, and its stop reason."""


@final
class ResponsesMapping(WireMapping[ResponsesResult]):
    """One streamed Responses API response as course chunks, for the request ``request_id``.

    A ``course_vendor.WireMapping`` over a fresh `ResponsesGrammar` of
    ``dialect`` (OpenAI's own by default), whose wire every error names:
    ``OpenAIResponsesModel`` plays it as a ``course_vendor.VendorPlay``; by
    hand, `feed` it every event in order, then call `end` once the stream
    is exhausted. Text and refusal deltas stream as text deltas (each
    part a text block whose opaque holds its message's ``msg_`` id and
    phase, so the request sends the message back as it came), summary
    and reasoning-text deltas as reasoning deltas (`REASONING_SEPARATOR`
    between two parts of one item), a function call once its arguments
    are complete. The response ends ``toolCall`` when it holds a call,
    ``refusal`` when a message part is a refusal (and no call came),
    ``stop`` otherwise; ``response.incomplete`` for ``max_output_tokens``
    ends ``length`` and for ``content_filter`` ``refusal``, with the
    blocks complete by then.

    Raises what the grammar raises for a frame off the vendor's grammar,
    and, for a stream the course cannot carry:
    ``VENDOR_UNSUPPORTED_CONTENT`` at the ``output_item.added`` of an item
    a client runs (every kind ``_responses_kinds`` does not carry; the message names
    the kind, who runs it, and the wire), and at response-level audio;
    ``VENDOR_ERROR_EVENT`` at ``error`` and ``response.failed``;
    ``VENDOR_INCOMPLETE`` at ``response.incomplete`` for any other reason
    (or none; the reason in ``vendor_type``), or a ``content_filter`` one
    after a complete function call (a refusal asks for no Tool);
    ``VENDOR_MISSING_TERMINAL`` at a terminal without the usage the course
    response needs; ``VENDOR_INVALID_TERMINAL`` at `end` for usage whose
    cached or reasoning part is larger than its whole. Raises
    ``CourseProtocolError`` when ``request_id`` is not a non-blank ``str``.
    """

    __slots__ = ("_calls", "_failures", "_parts", "_reader")

    def __init__(self, request_id: str, dialect: ResponsesDialect = OPENAI_RESPONSES) -> None:
        grammar = ResponsesGrammar(dialect)
        super().__init__(grammar, request_id)
        self._reader = grammar
        self._failures = OpenAIFailures(dialect.wire)
        self._calls: dict[int, CourseToolCall] = {}
        self._parts: dict[int, int] = {}

    def _map(self, event: WireEvent, index: int, push: _Push) -> None:
        kind = event["type"]
        if kind == "response.output_text.delta":
            # The hot path: the grammar has checked the delta is text of an open output text.
            delta = event["delta"]
            if delta:
                push(CourseTextDeltaChunk(self._request_id, delta))
            return
        handler = _MAPPED.get(kind)
        if handler is not None:
            handler(self, event, index, push)

    def _added(self, event: WireEvent, index: int, push: _Push) -> None:
        item = event["item"]
        kind = item["type"]
        if not carried(kind, item):
            self._failures.fail(
                _Code.VENDOR_UNSUPPORTED_CONTENT,
                index,
                f"output item type {kind!r} is {unsupported_kind(kind, item)}; "
                f"the course protocol cannot carry it ({self._failures.vendor})",
            )

    def _call(self, event: WireEvent, index: int, push: _Push) -> None:
        position = event["output_index"]
        if position in self._calls:
            return
        call = self._reader.completed_call(position)
        if call is None or call.arguments is None:
            return
        tool_call = CourseToolCall(
            call.call_id, call.name, call.arguments, opaque=call_opaque(call)
        )
        self._calls[position] = tool_call
        push(CourseToolCallChunk(self._request_id, tool_call))

    def _text(self, event: WireEvent, index: int, push: _Push) -> None:
        delta = event["delta"]
        if delta:
            push(CourseTextDeltaChunk(self._request_id, delta))

    def _reasoning(self, event: WireEvent, index: int, push: _Push) -> None:
        delta = event["delta"]
        if delta:
            push(CourseReasoningDeltaChunk(self._request_id, delta))

    def _reasoning_part(self, event: WireEvent, index: int, push: _Push) -> None:
        # Summary parts and reasoning texts are the item's paragraphs: the
        # block joins them with a separator, and so do the deltas.
        if event["type"] == "response.content_part.added" and event["part"]["type"] != (
            "reasoning_text"
        ):
            return
        position = event["output_index"]
        started = self._parts.get(position, 0)
        if started:
            push(CourseReasoningDeltaChunk(self._request_id, REASONING_SEPARATOR))
        self._parts[position] = started + 1

    def _audio(self, event: WireEvent, index: int, push: _Push) -> NoReturn:
        self._failures.fail(
            _Code.VENDOR_UNSUPPORTED_CONTENT,
            index,
            f"event type {event['type']!r} is audio output; "
            f"the course protocol cannot carry it ({self._failures.vendor})",
        )

    def _error(self, event: WireEvent, index: int, push: _Push) -> NoReturn:
        self._failures.reported(event.get("error", event), index)

    def _failed(self, event: WireEvent, index: int, push: _Push) -> NoReturn:
        self._failures.reported(event["response"].get("error"), index)

    def _incomplete(self, event: WireEvent, index: int, push: _Push) -> None:
        details = event["response"].get("incomplete_details")
        reason = details.get("reason") if details is not None else None
        stop = _INCOMPLETE_STOPS.get(reason) if type(reason) is str else None
        if stop is CourseStopReason.REFUSAL and self._calls:
            stop = None
        if stop is None:
            incomplete = "incomplete" if reason is None else reason
            self._failures.fail(
                _Code.VENDOR_INCOMPLETE,
                index,
                f"the response is incomplete ({shown(incomplete)}), "
                "which the course protocol cannot express",
                vendor_type=incomplete,
            )
        self._completed(event, index, push)

    def _completed(self, event: WireEvent, index: int, push: _Push) -> None:
        if event["response"].get("usage") is None:
            self._failures.fail(
                _Code.VENDOR_MISSING_TERMINAL,
                index,
                f"{event['type']} carried no usage, which the course response needs",
            )

    def _respond(self, result: ResponsesResult, event_count: int) -> CourseModelResponse:
        # Every other ending failed the call at its event (_incomplete, _failed, _error).
        usage = result.usage
        assert result.status == "completed" or result.status == "incomplete"
        assert result.id is not None
        assert usage is not None
        blocks: list[CourseAssistantContent] = []
        refused = False
        for position, item in enumerate(result.items):
            if type(item) is ResponsesMessage:
                refused = message_blocks(item, blocks) or refused
            elif type(item) is ResponsesFunctionCall:
                call = self._calls.get(position)
                if call is not None:
                    blocks.append(call)
            elif type(item) is ResponsesReasoning:
                blocks.append(reasoning_block(item))
            elif type(item) is ResponsesToolItem and item.done:
                # A tool the limit cut is not complete: it has no form to go back in.
                blocks.append(CourseVendorToolBlock(item.kind, tagged(item.item)))
        message = CourseAssistantMessage(f"message-{result.id}", tuple(blocks))
        stop_reason = self._stop_reason(result, refused)
        counts = course_usage(self._failures, usage, event_count)
        return CourseModelResponse(result.id, self._request_id, message, stop_reason, counts)

    def _stop_reason(self, result: ResponsesResult, refused: bool) -> CourseStopReason:
        # The Responses API sends no stop reason: it is read off the content
        # (and an incomplete response's reason), so the two agree by construction.
        if result.status == "incomplete":
            return _INCOMPLETE_STOPS[result.incomplete_reason or ""]
        if self._calls:
            return CourseStopReason.TOOL_CALL
        return CourseStopReason.REFUSAL if refused else CourseStopReason.STOP


_Mapped = Callable[[ResponsesMapping, WireEvent, int, _Push], None]
_M = ResponsesMapping
_MAPPED: Final[dict[str, _Mapped]] = {
    "response.output_item.added": _M._added,
    "response.function_call_arguments.done": _M._call,
    "response.output_item.done": _M._call,
    "response.refusal.delta": _M._text,
    "response.reasoning_summary_text.delta": _M._reasoning,
    "response.reasoning_text.delta": _M._reasoning,
    "response.reasoning_summary_part.added": _M._reasoning_part,
    "response.content_part.added": _M._reasoning_part,
    "response.audio.delta": _M._audio,
    "response.audio.done": _M._audio,
    "response.audio.transcript.delta": _M._audio,
    "response.audio.transcript.done": _M._audio,
    "error": _M._error,
    "response.failed": _M._failed,
    "response.incomplete": _M._incomplete,
    "response.completed": _M._completed,
}
"""The events the mapping acts on besides text deltas; every other one makes no chunk."""
