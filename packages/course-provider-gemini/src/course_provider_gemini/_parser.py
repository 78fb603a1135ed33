"""Gemini stream chunks to course chunks and one terminal response: a strict state machine.

Every chunk is a whole ``GenerateContentResponse``: candidates (one, here),
their new parts, cumulative usage, and on the last one a ``finishReason``.
There is no terminator: the body ends after that chunk, and a chunk after
it is out of order. Every chunk is untrusted: its data is decoded by
`event_object` and read field by field before any course value is made.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, final

from course_http import SseEvent, VendorError, VendorErrorCode
from course_protocol import (
    MAX_TOKEN_COUNT,
    CourseAssistantContent,
    CourseAssistantMessage,
    CourseModelChunk,
    CourseModelResponse,
    CourseModelUsage,
    CourseTextBlock,
    CourseTextDeltaChunk,
    CourseToolCall,
    CourseToolCallChunk,
    terminal_semantics_error,
)
from course_protocol.untrusted import shown
from course_provider_gemini import _wire
from course_provider_gemini._error_body import raise_error_object
from course_provider_gemini._parts import FunctionCallPart, read_part
from course_provider_gemini._reads import (
    count_at,
    fail,
    fail_invalid,
    fail_order,
    invalid,
    optional_text,
)
from course_provider_gemini._stop import course_stop_reason, read_prompt_feedback
from course_vendor import StreamParser, TextPieces, ToolCallIds, event_object

__all__ = ["GeminiStreamParser", "course_call_id"]

_V = _wire.VENDOR
_CANDIDATE = f"{_wire.CANDIDATES_KEY}[0]"
_CONTENT = f"{_CANDIDATE}.{_wire.CONTENT_KEY}"
_PARTS = f"{_CONTENT}.{_wire.PARTS_KEY}"


def course_call_id(response_id: str, position: int) -> str:
    """The course id of the function call number ``position`` (from 0) of response ``response_id``.

    The Gemini API gives its calls no ids; this one is deterministic (a
    replay gives the same ids) and unique (a response id is), so a Tool
    result names its call unambiguously: ``"<responseId>-call-<position>"``.
    """
    return f"{response_id}-call-{position}"


@final
class GeminiStreamParser(StreamParser):
    """The state of one streamed Gemini response, fed one chunk (an `SseEvent`) at a time.

    A ``course_vendor.StreamParser``: :meth:`item` pushes the course chunks
    each event makes (a text delta per text part, a Tool call per whole
    ``functionCall`` part), :meth:`end` gives the response; by hand,
    :meth:`feed` returns them. Both raise `VendorError` (``vendor``
    ``"gemini"``, ``event_index`` the offending event) with a stable code;
    after one, the parser is spent. `signatures` holds the
    ``thoughtSignature`` of each call that had one, by course call id.
    Raises ``CourseProtocolError`` when ``request_id`` is not a non-blank ``str``.

    What an event raises: ``VENDOR_INVALID_EVENT`` for data that is not a
    JSON object, a named event, a field of the wrong type, a ``responseId``
    that changes, a candidate ``index`` other than 0, a role other than
    ``model``, or a finishing chunk without ``responseId`` or
    ``usageMetadata.promptTokenCount``; ``VENDOR_EVENT_ORDER`` for any chunk
    after the one with ``finishReason``; ``VENDOR_ERROR_EVENT`` for the
    vendor's error object; ``VENDOR_REFUSAL`` for ``promptFeedback.blockReason``
    and a withheld answer; ``VENDOR_INCOMPLETE`` for any finish reason but
    ``STOP``; ``VENDOR_UNSUPPORTED_CONTENT`` for more than one candidate and
    the parts `read_part` refuses; ``VENDOR_UNKNOWN_EVENT`` and
    ``VENDOR_INVALID_TOOL_ARGUMENTS`` as `read_part` raises them. :meth:`end`
    raises ``VENDOR_MISSING_TERMINAL`` (``event_index`` = the event count)
    when no chunk had a ``finishReason``, even after chunks.
    """

    __slots__ = ("_call_ids", "_calls", "_content", "_response_id", "_text", "_usage", "signatures")

    def __init__(self, request_id: str) -> None:
        super().__init__(request_id)
        self._response_id: str | None = None
        self._content: list[CourseAssistantContent] = []
        self._text = TextPieces()
        self._calls = 0
        self._call_ids = ToolCallIds(_V)
        self._usage: dict[str, Any] | None = None
        self.signatures: dict[str, str] = {}

    def _read(self, event: SseEvent, index: int, push: Callable[[CourseModelChunk], None]) -> None:
        # The hot path: every chunk of a long answer comes here. Each field is
        # read with a plain get and checked inline; only a field that is
        # present and rare, or fails its check, goes to the reader that words
        # the failure, so every check stays and none builds a path meanwhile.
        data = event_object(event.data, vendor=_V, index=index)
        if event.event != "message":
            fail_invalid(f"a Gemini chunk is never a named event ({shown(event.event)!r})", index)
        if self._response is not None:
            fail_order(
                f"a chunk follows the one with {_wire.FINISH_REASON_KEY}; nothing may", index
            )
        if _wire.ERROR_KEY in data:
            raise_error_object(data, index)
        if data.get(_wire.PROMPT_FEEDBACK_KEY) is not None:
            read_prompt_feedback(data, index)
        response_id = data.get(_wire.RESPONSE_ID_KEY)
        if response_id is not None and (
            response_id != self._response_id or type(response_id) is not str
        ):
            self._read_id(data, index)
        usage = data.get(_wire.USAGE_METADATA_KEY)
        if usage is not None:
            if type(usage) is not dict:
                invalid(index, _wire.USAGE_METADATA_KEY, "an object", usage)
            self._usage = usage
            # Each count absent (None) or a token count, as count_at accepts it.
            prompt = usage.get(_wire.PROMPT_TOKEN_COUNT_KEY)
            output = usage.get(_wire.CANDIDATES_TOKEN_COUNT_KEY)
            thoughts = usage.get(_wire.THOUGHTS_TOKEN_COUNT_KEY)
            if not (
                (prompt is None or (type(prompt) is int and 0 <= prompt <= MAX_TOKEN_COUNT))
                and (output is None or (type(output) is int and 0 <= output <= MAX_TOKEN_COUNT))
                and (
                    thoughts is None or (type(thoughts) is int and 0 <= thoughts <= MAX_TOKEN_COUNT)
                )
            ):
                _check_usage(usage, index)
        candidates = data.get(_wire.CANDIDATES_KEY)
        if candidates is None:
            return
        if type(candidates) is not list:
            invalid(index, _wire.CANDIDATES_KEY, "an array", candidates)
        if not candidates:
            return
        if len(candidates) > 1:
            fail(
                VendorErrorCode.VENDOR_UNSUPPORTED_CONTENT,
                index,
                f"{len(candidates)} candidates; the course carries one answer (ask for one)",
            )
        candidate = candidates[0]
        if type(candidate) is not dict:
            fail_invalid(f"{_CANDIDATE} must be an object", index)
        position = candidate.get(_wire.INDEX_KEY, 0)
        if position != 0 or type(position) is not int:
            fail_invalid(f"{_CANDIDATE}.{_wire.INDEX_KEY} must be 0 (one candidate)", index)
        content = candidate.get(_wire.CONTENT_KEY)
        if content is not None:
            if type(content) is not dict:
                invalid(index, _CONTENT, "an object", content)
            self._read_content(content, index, push)
        if candidate.get(_wire.FINISH_REASON_KEY) is not None:
            reason = optional_text(
                candidate,
                _wire.FINISH_REASON_KEY,
                index,
                f"{_CANDIDATE}.{_wire.FINISH_REASON_KEY}",
                non_blank=True,
            )
            if reason is not None:
                self._finish(candidate, reason, index)

    def _read_id(self, data: dict[str, Any], index: int) -> None:
        response_id = optional_text(
            data, _wire.RESPONSE_ID_KEY, index, _wire.RESPONSE_ID_KEY, non_blank=True
        )
        if response_id is None:
            return
        if self._response_id is None:
            self._response_id = response_id
        elif response_id != self._response_id:
            fail_invalid(f"{_wire.RESPONSE_ID_KEY} changed within one response", index)

    def _read_content(
        self, content: dict[str, Any], index: int, push: Callable[[CourseModelChunk], None]
    ) -> None:
        role = content.get(_wire.ROLE_KEY)
        if role is not None and role != _wire.MODEL:
            fail_invalid(
                f"{_CANDIDATE}.{_wire.CONTENT_KEY}.{_wire.ROLE_KEY} must be {_wire.MODEL!r}", index
            )
        parts = content.get(_wire.PARTS_KEY)
        if parts is None:
            return
        if type(parts) is not list:
            invalid(index, _PARTS, "an array", parts)
        for number, part in enumerate(parts):
            # A part of answer text alone, the common case, needs none of
            # read_part's checks but these: one key, ``text``, a string.
            if type(part) is dict and len(part) == 1:
                text = part.get(_wire.TEXT_KEY)
                if type(text) is str:
                    if text:
                        self._text.append(text)
                        push(CourseTextDeltaChunk(self._request_id, text))
                    continue
            read = read_part(part, f"{_PARTS}[{number}]", index)
            if read is None:
                continue
            if type(read) is FunctionCallPart:
                push(self._call(read, index, number))
            else:
                self._text.append(read.text)
                push(CourseTextDeltaChunk(self._request_id, read.text))

    def _call(self, part: FunctionCallPart, index: int, number: int) -> CourseToolCallChunk:
        if self._response_id is None:
            fail_invalid(
                f"{_PARTS}[{number}] is a {_wire.FUNCTION_CALL_KEY} before any "
                f"{_wire.RESPONSE_ID_KEY}, which its course id is made of",
                index,
            )
        self._close_text()
        identifier = course_call_id(self._response_id, self._calls)
        self._call_ids.claim(identifier, index, f"{_PARTS}[{number}]")
        self._calls += 1
        call = CourseToolCall(identifier, part.name, part.arguments)
        self._content.append(call)
        if part.signature is not None:
            self.signatures[identifier] = part.signature
        return CourseToolCallChunk(self._request_id, call)

    def _close_text(self) -> None:
        if self._text:
            self._content.append(CourseTextBlock(self._text.joined()))
            self._text = TextPieces()

    def _finish(self, candidate: dict[str, Any], reason: str, index: int) -> None:
        message_path = f"{_CANDIDATE}.{_wire.FINISH_MESSAGE_KEY}"
        finish_message = optional_text(candidate, _wire.FINISH_MESSAGE_KEY, index, message_path)
        stop_reason = course_stop_reason(reason, finish_message, self._calls > 0, index)
        response_id = self._response_id
        if response_id is None:
            fail_invalid(f"no chunk gave a {_wire.RESPONSE_ID_KEY}", index)
        usage = self._course_usage(index)
        self._close_text()
        message = CourseAssistantMessage(response_id, tuple(self._content))
        problem = terminal_semantics_error(stop_reason, message)
        if problem is not None:
            fail(VendorErrorCode.VENDOR_INVALID_TERMINAL, index, problem, vendor_type=reason)
        self._response = CourseModelResponse(
            response_id, self._request_id, message, stop_reason, usage
        )

    def _course_usage(self, index: int) -> CourseModelUsage:
        # Cumulative on every chunk: the last one counts. Thinking is output
        # the call was billed for, as OpenAI's completion tokens include it.
        usage = self._usage or {}
        prompt = usage.get(_wire.PROMPT_TOKEN_COUNT_KEY)
        if type(prompt) is not int:
            fail_invalid(
                f"no {_wire.USAGE_METADATA_KEY}.{_wire.PROMPT_TOKEN_COUNT_KEY} "
                "by the finishing chunk",
                index,
            )
        output = (usage.get(_wire.CANDIDATES_TOKEN_COUNT_KEY) or 0) + (
            usage.get(_wire.THOUGHTS_TOKEN_COUNT_KEY) or 0
        )
        if output > MAX_TOKEN_COUNT:
            fail_invalid(
                f"{_wire.CANDIDATES_TOKEN_COUNT_KEY} and {_wire.THOUGHTS_TOKEN_COUNT_KEY} "
                "add up past 2**53 - 1",
                index,
            )
        return CourseModelUsage(prompt, output)

    def _missing_terminal(self, event_count: int) -> VendorError:
        return VendorError(
            VendorErrorCode.VENDOR_MISSING_TERMINAL,
            f"the stream ended after {event_count} chunk(s) without a {_wire.FINISH_REASON_KEY}",
            vendor=_V,
            event_index=event_count,
        )


def _check_usage(usage: dict[str, Any], index: int) -> None:
    for key in (
        _wire.PROMPT_TOKEN_COUNT_KEY,
        _wire.CANDIDATES_TOKEN_COUNT_KEY,
        _wire.THOUGHTS_TOKEN_COUNT_KEY,
    ):
        count_at(usage, key, index, f"{_wire.USAGE_METADATA_KEY}.{key}")
