"""ResponsesMapping: the Responses grammar's events as course chunks, its result as the response.

The port half of the wire. The grammar (`ResponsesGrammar`) has judged
every event before it gets here; the mapping pushes the course chunks (a
text delta, a function call once its arguments are complete), refuses what
the course protocol cannot carry at the event where it first appears
(``VENDOR_UNSUPPORTED_CONTENT``, naming the kind and the wire), ends the
call at the vendor's own failures (an error, a refusal, an incomplete
response), and builds the response from the grammar's result.
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
    CourseStopReason,
    CourseTextBlock,
    CourseTextDeltaChunk,
    CourseToolCall,
    CourseToolCallChunk,
)
from course_protocol.untrusted import shown
from course_provider_openai import _responses_wire as wire
from course_provider_openai._failures import RESPONSES_FAILURES
from course_provider_openai._responses_grammar import ResponsesGrammar
from course_provider_openai._responses_result import (
    ResponsesFunctionCall,
    ResponsesMessage,
    ResponsesOutputText,
    ResponsesResult,
)
from course_vendor import WireEvent, WireMapping

__all__ = ["CARRIED_KINDS", "ResponsesMapping", "unsupported_kind"]

_Code = VendorErrorCode
_Push = Callable[[CourseModelChunk], None]

CARRIED_KINDS: Final = frozenset({"message", "function_call", "reasoning"})
"""The output item kinds the mapping takes: text and calls carried, reasoning skipped on purpose."""

_KINDS: Final[dict[str, str]] = {
    "web_search_call": "a web search the vendor runs",
    "file_search_call": "a file search the vendor runs",
    "code_interpreter_call": "code the vendor runs in its interpreter",
    "image_generation_call": "an image the vendor generates",
    "mcp_call": "an MCP Tool call the vendor makes",
    "mcp_list_tools": "the vendor listing an MCP server's Tools",
    "mcp_approval_request": "the vendor asking the client to approve an MCP Tool call",
    "mcp_approval_response": "an answer to an MCP approval request",
    "computer_call": "a computer action the client performs",
    "computer_call_output": "the screenshot a computer action returned",
    "local_shell_call": "a shell command the client runs",
    "local_shell_call_output": "the output of a shell command the client ran",
    "shell_call_output": "the output of a shell command",
    "apply_patch_call": "a file patch the client applies",
    "apply_patch_call_output": "the result of a file patch",
    "custom_tool_call": "a call of a custom Tool the client runs, its input free text",
    "custom_tool_call_output": "the output of a custom Tool",
    "function_call_output": "a function's output placed in the response",
    "tool_search_output": "the Tools a Tool search found",
    "additional_tools": "Tools the vendor adds to the conversation",
    "compaction": "the vendor's compacted context, opaque and encrypted",
    "program": "a program the model writes to call Tools",
    "program_output": "the result of a program that called Tools",
}
"""What each output item the course cannot carry is, for the message that refuses it."""


def unsupported_kind(kind: str, item: dict[str, Any]) -> str:
    """What the output ``item`` of type ``kind`` is, said for a refusal: who runs it, and what.

    A shell call and a Tool search say who runs them in the item itself
    (``environment``, ``execution``).
    """
    if kind == "shell_call":
        environment = item.get("environment")
        place = environment.get("type") if type(environment) is dict else None
        if place == "container_reference":
            return "a shell command the vendor runs in its container"
        return "a shell command the client runs"
    if kind == "tool_search_call":
        runner = "the client" if item.get("execution") == "client" else "the vendor"
        return f"a Tool search {runner} runs"
    return _KINDS[kind]


def _refused(refusal: str, index: int) -> NoReturn:
    RESPONSES_FAILURES.refused(refusal, index, "refusal")


@final
class ResponsesMapping(WireMapping[ResponsesResult]):
    """One streamed Responses API response as course chunks, for the request ``request_id``.

    A ``course_vendor.WireMapping`` over a fresh `ResponsesGrammar`:
    ``OpenAIResponsesModel`` plays it as a ``course_vendor.VendorPlay``; by
    hand, `feed` it every event in order, then call `end` once the stream
    is exhausted. Raises what the grammar raises for a frame off the
    vendor's grammar, and, for a stream the course cannot carry:
    ``VENDOR_UNSUPPORTED_CONTENT`` at the ``output_item.added`` of any item
    but a message, a function call or reasoning (the message names the
    kind, who runs it, and the wire), and at response-level audio;
    ``VENDOR_REFUSAL`` at a refusal's ``.done`` (or its part's);
    ``VENDOR_ERROR_EVENT`` at ``error`` and ``response.failed``;
    ``VENDOR_INCOMPLETE`` at ``response.incomplete`` (the reason in
    ``vendor_type``); ``VENDOR_MISSING_TERMINAL`` at a
    ``response.completed`` without the usage the course response needs.
    Raises ``CourseProtocolError`` when ``request_id`` is not a non-blank
    ``str``.
    """

    __slots__ = ("_calls", "_reader")

    def __init__(self, request_id: str) -> None:
        grammar = ResponsesGrammar()
        super().__init__(grammar, request_id)
        self._reader = grammar
        self._calls: dict[int, CourseToolCall] = {}

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
        if kind not in CARRIED_KINDS:
            RESPONSES_FAILURES.fail(
                _Code.VENDOR_UNSUPPORTED_CONTENT,
                index,
                f"output item type {kind!r} is {unsupported_kind(kind, item)}; "
                f"the course protocol cannot carry it ({wire.WIRE})",
            )

    def _call(self, event: WireEvent, index: int, push: _Push) -> None:
        position = event["output_index"]
        if position in self._calls:
            return
        call = self._reader.completed_call(position)
        if call is None or call.arguments is None:
            return
        tool_call = CourseToolCall(call.call_id, call.name, call.arguments)
        self._calls[position] = tool_call
        push(CourseToolCallChunk(self._request_id, tool_call))

    def _refusal_done(self, event: WireEvent, index: int, push: _Push) -> NoReturn:
        _refused(event["refusal"], index)

    def _part_done(self, event: WireEvent, index: int, push: _Push) -> None:
        # A refusal part that closes without its own .done event is still a refusal.
        part = event["part"]
        if part["type"] == "refusal":
            _refused(part["refusal"], index)

    def _audio(self, event: WireEvent, index: int, push: _Push) -> NoReturn:
        RESPONSES_FAILURES.fail(
            _Code.VENDOR_UNSUPPORTED_CONTENT,
            index,
            f"event type {event['type']!r} is audio output; "
            f"the course protocol cannot carry it ({wire.WIRE})",
        )

    def _error(self, event: WireEvent, index: int, push: _Push) -> NoReturn:
        RESPONSES_FAILURES.reported(event.get("error", event), index)

    def _failed(self, event: WireEvent, index: int, push: _Push) -> NoReturn:
        RESPONSES_FAILURES.reported(event["response"].get("error"), index)

    def _incomplete(self, event: WireEvent, index: int, push: _Push) -> NoReturn:
        details = event["response"].get("incomplete_details")
        reason = details.get("reason") if details is not None else None
        incomplete = "incomplete" if reason is None else reason
        RESPONSES_FAILURES.fail(
            _Code.VENDOR_INCOMPLETE,
            index,
            f"the response is incomplete ({shown(incomplete)}), "
            "which the course protocol cannot express",
            vendor_type=incomplete,
        )

    def _completed(self, event: WireEvent, index: int, push: _Push) -> None:
        if event["response"].get("usage") is None:
            RESPONSES_FAILURES.fail(
                _Code.VENDOR_MISSING_TERMINAL,
                index,
                "response.completed carried no usage, which the course response needs",
            )

    def _respond(self, result: ResponsesResult, event_count: int) -> CourseModelResponse:
        # Every other ending failed the call at its event (_incomplete, _failed, _error).
        usage = result.usage
        assert result.status == "completed"
        assert result.id is not None
        assert usage is not None
        blocks: list[CourseAssistantContent] = []
        for position, item in enumerate(result.items):
            if type(item) is ResponsesMessage:
                for part in item.parts:
                    if type(part) is ResponsesOutputText and part.text:
                        blocks.append(CourseTextBlock(part.text))
            elif type(item) is ResponsesFunctionCall:
                blocks.append(self._calls[position])
        # The Responses API sends no stop reason: it is read off the content, so
        # the two agree by construction.
        stop_reason = CourseStopReason.TOOL_CALL if self._calls else CourseStopReason.STOP
        message = CourseAssistantMessage(f"message-{result.id}", tuple(blocks))
        counts = CourseModelUsage(usage.input_tokens, usage.output_tokens)
        return CourseModelResponse(result.id, self._request_id, message, stop_reason, counts)


_Mapped = Callable[[ResponsesMapping, WireEvent, int, _Push], None]
_M = ResponsesMapping
_MAPPED: Final[dict[str, _Mapped]] = {
    "response.output_item.added": _M._added,
    "response.function_call_arguments.done": _M._call,
    "response.output_item.done": _M._call,
    "response.refusal.done": _M._refusal_done,
    "response.content_part.done": _M._part_done,
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
