"""The Gemini grammar's validated chunks as course chunks and one response: `GeminiMapping`.

The port half of the wire. Each chunk has passed `GeminiGrammar` before it
gets here, so every field read here is known to be of its documented type;
what remains is what the course protocol can carry: one candidate's answer
text and whole function calls. Thoughts are skipped on purpose; media, code
execution, server tools, a second candidate are refused
(``VENDOR_UNSUPPORTED_CONTENT``, naming the kind and the wire); a finish
reason other than ``STOP`` and a blocked prompt fail closed.
"""

from __future__ import annotations

from collections.abc import Callable, MutableMapping
from typing import Any, NoReturn, final

from course_http import VendorErrorCode
from course_protocol import (
    MAX_TOKEN_COUNT,
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
    terminal_semantics_error,
)
from course_protocol.untrusted import shown
from course_provider_gemini import _wire
from course_provider_gemini._errors import error_event
from course_provider_gemini._grammar import GeminiGrammar
from course_provider_gemini._parts import METADATA_KEYS
from course_provider_gemini._reads import fail, fail_invalid
from course_provider_gemini._result import GeminiFunctionCall, GeminiResult, GeminiText
from course_provider_gemini._stop import course_stop_reason, refuse_prompt
from course_vendor import ToolCallIds, WireEvent, WireMapping

__all__ = ["GeminiMapping", "course_call_id"]


def course_call_id(response_id: str, position: int) -> str:
    """The course id of the function call number ``position`` (from 0) of response ``response_id``.

    For a call the vendor gave no ``id`` (every model before Gemini 3):
    deterministic (a replay gives the same ids) and unique (a response id
    is), so a Tool result names its call unambiguously:
    ``"<responseId>-call-<position>"``.
    """
    return f"{response_id}-call-{position}"


@final
class GeminiMapping(WireMapping[GeminiResult]):
    """One streamed Gemini response as course chunks and a response: a ``WireMapping``.

    Over a fresh `GeminiGrammar`: `item` pushes a text delta per answer
    text part and a Tool call per whole function call, `end` gives the
    `CourseModelResponse`; `feed` returns them, to drive it by hand. A Tool
    call's id is the vendor's own ``functionCall.id`` when it gave one,
    else `course_call_id`. ``signatures``, when given, receives the
    ``thoughtSignature`` of each call that had one, by course call id (the
    model sends it back with the call). Raises ``CourseProtocolError`` when
    ``request_id`` is not a non-blank ``str``.

    What an event raises besides the grammar's errors (`course_http.VendorError`,
    ``vendor`` ``"gemini"``, ``event_index`` the chunk):
    ``VENDOR_ERROR_EVENT`` at the vendor's error object; ``VENDOR_REFUSAL``
    for a blocked prompt and a withheld answer; ``VENDOR_INCOMPLETE`` for
    any other finish reason but ``STOP``; ``VENDOR_UNSUPPORTED_CONTENT`` for
    a second candidate (or one numbered other than 0) and a part of a kind
    the course cannot carry (media, code execution, a server tool, a
    function response); ``VENDOR_INVALID_EVENT`` for a call without an
    ``id`` before any ``responseId`` (its course id is made of it), and a
    finishing chunk without a ``responseId`` or
    ``usageMetadata.promptTokenCount`` before it; ``VENDOR_INVALID_TERMINAL``
    never (the stop reason is derived from the calls).
    """

    __slots__ = ("_call_ids", "_calls", "_gemini", "_signatures", "_stop_reason", "_usage")

    def __init__(
        self, request_id: str, *, signatures: MutableMapping[str, str] | None = None
    ) -> None:
        grammar = GeminiGrammar()
        super().__init__(grammar, request_id)
        # The grammar again, typed as the Gemini one its views are read from.
        self._gemini = grammar
        self._calls: list[CourseToolCall] = []
        self._call_ids = ToolCallIds(_wire.WIRE)
        self._signatures = signatures
        self._stop_reason: CourseStopReason | None = None
        self._usage: CourseModelUsage | None = None

    def _map(self, event: WireEvent, index: int, push: Callable[[CourseModelChunk], None]) -> None:
        # The hot path: every chunk of a long answer comes here, one candidate
        # with one part of answer text. The grammar has checked every field
        # read here, so nothing is checked twice.
        candidates = event.get("candidates")
        if not candidates or "error" in event:
            self._without_candidates(event, index)
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
                    else:
                        self._part(part, parts, index, push)
        if "finishReason" in candidate:
            self._finish(candidate, index)

    def _without_candidates(self, event: WireEvent, index: int) -> None:
        if "error" in event:
            error = self._gemini.error
            assert error is not None
            raise error_event(error, index)
        feedback = event.get("promptFeedback")
        if feedback is not None and feedback.get("blockReason") is not None:
            refuse_prompt(feedback["blockReason"], feedback.get("blockReasonMessage"), index)

    def _part(
        self,
        part: dict[str, Any],
        parts: list[Any],
        index: int,
        push: Callable[[CourseModelChunk], None],
    ) -> None:
        text = part.get("text")
        if text is not None:
            if text and not part.get("thought"):
                push(CourseTextDeltaChunk(self._request_id, text))
            return
        call = part.get("functionCall")
        if call is not None:
            if not call.get("willContinue"):
                number = next(at for at, each in enumerate(parts) if each is part)
                push(self._tool_call(index, number))
            return
        kind = next((key for key in part if key not in METADATA_KEYS), None)
        if kind is not None:
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
        call = CourseToolCall(identifier, made.name, made.arguments)
        self._calls.append(call)
        if made.signature is not None and self._signatures is not None:
            self._signatures[identifier] = made.signature
        return CourseToolCallChunk(self._request_id, call)

    def _finish(self, candidate: dict[str, Any], index: int) -> None:
        reason = candidate["finishReason"]
        self._stop_reason = course_stop_reason(
            reason, candidate.get("finishMessage"), bool(self._calls), index
        )
        grammar = self._gemini
        if grammar.response_id is None:
            fail_invalid("no chunk gave a responseId", index)
        usage = grammar.usage
        prompt = None if usage is None else usage.prompt_token_count
        if usage is None or prompt is None:
            fail_invalid("no usageMetadata.promptTokenCount by the finishing chunk", index)
        # Thinking is output the call was billed for, as OpenAI's completion tokens include it.
        output = (usage.candidates_token_count or 0) + (usage.thoughts_token_count or 0)
        if output > MAX_TOKEN_COUNT:
            fail_invalid("candidatesTokenCount and thoughtsTokenCount add up past 2**53 - 1", index)
        self._usage = CourseModelUsage(prompt, output)

    def _respond(self, result: GeminiResult, event_count: int) -> CourseModelResponse:
        stop_reason, usage, response_id = self._stop_reason, self._usage, result.response_id
        if stop_reason is None or usage is None or response_id is None:
            # The grammar ends a body only at a finish, an error or a blocked
            # prompt, and _map has failed the call at the last two.
            raise AssertionError("a Gemini response ended without its finishing chunk mapped")
        message = CourseAssistantMessage(response_id, self._content(result))
        problem = terminal_semantics_error(stop_reason, message)
        if problem is not None:
            fail(
                VendorErrorCode.VENDOR_INVALID_TERMINAL,
                event_count - 1,
                problem,
                vendor_type=result.candidates[0].finish_reason,
            )
        return CourseModelResponse(response_id, self._request_id, message, stop_reason, usage)

    def _content(self, result: GeminiResult) -> tuple[CourseAssistantContent, ...]:
        # Answer text runs apart only by a thought or a signature are one
        # course text block, as they are one answer; thoughts are skipped.
        content: list[CourseAssistantContent] = []
        text: list[str] = []
        calls = iter(self._calls)
        for part in result.candidates[0].parts:
            if type(part) is GeminiText:
                if part.text and not part.thought:
                    text.append(part.text)
            elif type(part) is GeminiFunctionCall:
                if text:
                    content.append(CourseTextBlock("".join(text)))
                    text = []
                content.append(next(calls))
        if text:
            content.append(CourseTextBlock("".join(text)))
        return tuple(content)


_KINDS = {
    "inlineData": "inline media",
    "fileData": "a file reference",
    "functionResponse": "a function's response, which only a request holds",
    "executableCode": "code the vendor runs",
    "codeExecutionResult": "the result of code the vendor ran",
    "toolCall": "a call of a tool the vendor runs",
    "toolResponse": "the result of a tool the vendor ran",
}


def _unsupported(kind: str, message: str, index: int) -> NoReturn:
    fail(
        VendorErrorCode.VENDOR_UNSUPPORTED_CONTENT,
        index,
        f"{message} ({_wire.WIRE})",
        vendor_type=kind,
    )
