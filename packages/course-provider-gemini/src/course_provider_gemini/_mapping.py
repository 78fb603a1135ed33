"""The Gemini grammar's validated chunks as course chunks and one response: `GeminiMapping`.

The port half of the wire. Each chunk has passed `GeminiGrammar` before it
gets here, so every field read here is known to be of its documented type;
what remains is what the course protocol can carry of one candidate: answer
text, thoughts (reasoning), whole function calls, the parts of a tool the
vendor runs, the candidate's citation and grounding metadata, and every
``thoughtSignature`` on the block it came on, so the transcript alone sends
it back. Media, a function response and a second candidate are refused
(``VENDOR_UNSUPPORTED_CONTENT``, naming the kind and the wire); a finish
reason the course has no stop reason for fails closed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NoReturn, final

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
    CourseVendorToolBlock,
    terminal_semantics_error,
)
from course_protocol.untrusted import shown
from course_provider_gemini import _wire
from course_provider_gemini._course_values import (
    call_opaque,
    candidate_citations,
    course_call_id,
    course_usage,
    part_as_sent,
    signed,
)
from course_provider_gemini._errors import error_event
from course_provider_gemini._grammar import GeminiGrammar
from course_provider_gemini._parts import METADATA_KEYS
from course_provider_gemini._reads import fail, fail_invalid
from course_provider_gemini._result import (
    GeminiCandidate,
    GeminiFunctionCall,
    GeminiOpaquePart,
    GeminiResult,
    GeminiText,
)
from course_provider_gemini._stop import course_stop_reason, refuse_prompt
from course_vendor import ToolCallIds, WireEvent, WireMapping

__all__ = ["GeminiMapping"]


@final
class GeminiMapping(WireMapping[GeminiResult]):
    """One streamed Gemini response as course chunks and a response: a ``WireMapping``.

    Over a fresh `GeminiGrammar`: `item` pushes a text delta per answer
    text part, a reasoning delta per thought text part and a Tool call per
    whole function call, in the order they came; `end` gives the
    `CourseModelResponse`; `feed` returns them, to drive it by hand.

    The message holds, in order: a `CourseReasoningBlock` per run of thought
    text, a `CourseTextBlock` per run of answer text, a `CourseToolCall` per
    function call, a `CourseVendorToolBlock` per part of a tool the vendor
    runs (its opaque data the part as sent). A run ends at a part carrying a
    ``thoughtSignature``, the block's opaque data (a call's with its vendor
    ``id``), which the request sends back on the same part. The candidate's
    citation, grounding and URL-context metadata are the citations of the
    last answer text block (an empty one ends a message with none).

    A Tool call's id is the vendor's own ``functionCall.id`` when it gave
    one, else `course_call_id`. The stop reason: ``STOP`` is ``stop`` or
    ``toolCall``; ``MAX_TOKENS`` is ``length``; an answer a filter withheld
    and a blocked prompt (``promptFeedback.blockReason``: an empty message,
    when the body gave a ``responseId`` and a ``promptTokenCount``) are
    ``refusal``. The usage is `course_usage`'s (reasoning and cache reads too).
    Raises ``CourseProtocolError`` when ``request_id`` is not a non-blank ``str``.

    What an event raises besides the grammar's errors (`course_http.VendorError`,
    ``vendor`` ``"gemini"``, ``event_index`` the chunk):
    ``VENDOR_ERROR_EVENT`` at the vendor's error object; ``VENDOR_REFUSAL``
    for a blocked prompt without a ``responseId`` or a ``promptTokenCount``;
    ``VENDOR_INCOMPLETE`` for a finish reason the course has no stop reason
    for (``MALFORMED_FUNCTION_CALL``, ``OTHER``, ...);
    ``VENDOR_UNSUPPORTED_CONTENT`` for a second candidate (or one numbered
    other than 0) and a part of a kind the course cannot carry (media, a
    function response); ``VENDOR_INVALID_EVENT`` for a call without an
    ``id`` before any ``responseId`` (its course id is made of it), a
    finishing chunk without a ``responseId`` or
    ``usageMetadata.promptTokenCount`` before it, counts past 2**53 - 1 or a
    cached count above the prompt's; ``VENDOR_INVALID_TERMINAL`` for a
    refusal after a Tool call.
    """

    __slots__ = ("_call_ids", "_calls", "_gemini", "_stop_reason", "_usage")

    def __init__(self, request_id: str) -> None:
        grammar = GeminiGrammar()
        super().__init__(grammar, request_id)
        # The grammar again, typed as the Gemini one its views are read from.
        self._gemini = grammar
        self._calls: list[CourseToolCall] = []
        self._call_ids = ToolCallIds(_wire.WIRE)
        self._stop_reason: CourseStopReason | None = None
        self._usage: CourseModelUsage | None = None

    def _map(self, event: WireEvent, index: int, push: Callable[[CourseModelChunk], None]) -> None:
        # The hot path: every chunk of a long answer comes here, one candidate
        # with one part of answer text. The grammar has checked every field
        # read here, so nothing is checked twice.
        candidates = event.get("candidates")
        if not candidates or "error" in event:
            if "error" in event:
                error = self._gemini.error
                assert error is not None
                raise error_event(error, index)
            # A blocked prompt ends the body here; `_respond` answers it.
            return
        if len(candidates) > 1:
            _unsupported(
                "candidates",
                f"{len(candidates)} candidates: the course carries one answer (ask for one)",
                index,
            )
        candidate = candidates[0]
        if candidate.get("index"):
            _unsupported(
                "candidates",
                f"candidate {candidate['index']}: the course carries one answer, candidate 0",
                index,
            )
        content = candidate.get("content")
        if content:
            parts = content.get("parts")
            if parts:
                for part in parts:
                    text = part.get("text")
                    if text is not None and len(part) == 1:
                        if text:
                            push(CourseTextDeltaChunk(self._request_id, text))
                    elif text is not None and len(part) == 2 and part.get("thought") is True:
                        if text:
                            push(CourseReasoningDeltaChunk(self._request_id, text))
                    else:
                        self._part(part, parts, index, push)
        if "finishReason" in candidate:
            self._finish(candidate, index)

    def _part(
        self,
        part: dict[str, Any],
        parts: list[Any],
        index: int,
        push: Callable[[CourseModelChunk], None],
    ) -> None:
        text = part.get("text")
        if text is not None:
            if text:
                if part.get("thought"):
                    push(CourseReasoningDeltaChunk(self._request_id, text))
                else:
                    push(CourseTextDeltaChunk(self._request_id, text))
            return
        call = part.get("functionCall")
        if call is not None:
            if not call.get("willContinue"):
                number = next(at for at, each in enumerate(parts) if each is part)
                push(self._tool_call(index, number))
            return
        kind = next((key for key in part if key not in METADATA_KEYS), None)
        if kind is not None and kind not in _wire.VENDOR_TOOL_KINDS:
            _unsupported(
                kind,
                f"part kind {shown(kind)!r} is {_KINDS.get(kind, 'content')}, "
                "which the course protocol cannot carry",
                index,
            )

    def _tool_call(self, index: int, number: int) -> CourseToolCallChunk:
        grammar = self._gemini
        made = grammar.calls(0)[len(self._calls)]
        identifier = made.id
        if identifier is None:
            response_id = grammar.response_id
            if response_id is None:
                fail_invalid(
                    f"candidates[0].content.parts[{number}] is a functionCall without an id "
                    "before any responseId, which its course id is made of",
                    index,
                )
            identifier = course_call_id(response_id, len(self._calls))
        self._call_ids.claim(identifier, index, f"candidates[0].content.parts[{number}]")
        call = CourseToolCall(identifier, made.name, made.arguments, opaque=call_opaque(made))
        self._calls.append(call)
        return CourseToolCallChunk(self._request_id, call)

    def _finish(self, candidate: dict[str, Any], index: int) -> None:
        reason = candidate["finishReason"]
        self._stop_reason = course_stop_reason(
            reason, candidate.get("finishMessage"), bool(self._calls), index
        )
        if self._gemini.response_id is None:
            fail_invalid("no chunk gave a responseId", index)
        self._usage = course_usage(self._gemini.usage, "the finishing chunk", index)

    def _respond(self, result: GeminiResult, event_count: int) -> CourseModelResponse:
        response_id = result.response_id
        if not result.candidates:
            return self._blocked(result, event_count - 1)
        stop_reason, usage = self._stop_reason, self._usage
        if stop_reason is None or usage is None or response_id is None:
            # The grammar ends a body with candidates only at a finish or an
            # error, and _map has failed the call at an error.
            raise AssertionError("a Gemini response ended without its finishing chunk mapped")
        message = CourseAssistantMessage(response_id, self._content(result.candidates[0]))
        problem = terminal_semantics_error(stop_reason, message)
        if problem is not None:
            fail(
                VendorErrorCode.VENDOR_INVALID_TERMINAL,
                event_count - 1,
                problem,
                vendor_type=result.candidates[0].finish_reason,
            )
        return CourseModelResponse(response_id, self._request_id, message, stop_reason, usage)

    def _blocked(self, result: GeminiResult, index: int) -> CourseModelResponse:
        # The grammar ends a body without candidates only at a blocked prompt.
        feedback = result.prompt_feedback
        assert feedback is not None
        assert feedback.block_reason is not None
        response_id = result.response_id
        usage = result.usage
        if response_id is None or usage is None or usage.prompt_token_count is None:
            # Nothing to name a response by, or count it with: the refusal is the error.
            refuse_prompt(feedback.block_reason, feedback.block_reason_message, index)
        message = CourseAssistantMessage(response_id, ())
        counts = course_usage(usage, "the blocked prompt's chunk", index)
        return CourseModelResponse(
            response_id, self._request_id, message, CourseStopReason.REFUSAL, counts
        )

    def _content(self, candidate: GeminiCandidate) -> tuple[CourseAssistantContent, ...]:
        content: list[CourseAssistantContent] = []
        calls = iter(self._calls)
        last_text: int | None = None
        for part in candidate.parts:
            if type(part) is GeminiText:
                opaque = signed(part.signature)
                if part.thought:
                    content.append(CourseReasoningBlock(part.text, opaque=opaque))
                else:
                    last_text = len(content)
                    content.append(CourseTextBlock(part.text, opaque=opaque))
            elif type(part) is GeminiFunctionCall:
                content.append(next(calls))
            else:
                # _map refused every other opaque kind: this is a vendor tool's part.
                assert type(part) is GeminiOpaquePart
                content.append(
                    CourseVendorToolBlock(part.kind, CourseOpaque(_wire.WIRE, part_as_sent(part)))
                )
        citations = candidate_citations(candidate)
        if citations:
            if last_text is None:
                content.append(CourseTextBlock("", citations=citations))
            else:
                block = content[last_text]
                assert type(block) is CourseTextBlock
                content[last_text] = CourseTextBlock(
                    block.text, citations=citations, opaque=block.opaque
                )
        return tuple(content)


_KINDS = {
    "inlineData": "inline media",
    "fileData": "a file reference",
    "functionResponse": "a function's response, which only a request holds",
}


def _unsupported(kind: str, message: str, index: int) -> NoReturn:
    fail(
        VendorErrorCode.VENDOR_UNSUPPORTED_CONTENT,
        index,
        f"{message} ({_wire.WIRE})",
        vendor_type=kind,
    )
