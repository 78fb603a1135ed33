"""Untrusted JSON lines in, trusted course values out: one turn's state machine.

Every line starts as text from the transport. It is parsed strictly,
frozen through the protocol's own JSON boundary (``freeze_json_object``:
exact types, no cycles, bounded depth), and only then read field by field.
Nothing downstream of this module sees a wire name.
"""

from __future__ import annotations

import json
from typing import NoReturn

from returns.result import Failure

from course_protocol import (
    CourseAssistantContent,
    CourseAssistantMessage,
    CourseModelChunk,
    CourseModelResponse,
    CourseModelUsage,
    CourseProtocolError,
    CourseStopReason,
    CourseTextBlock,
    CourseTextDeltaChunk,
    CourseToolCall,
    CourseToolCallChunk,
    JsonObject,
    freeze_json_object,
    is_blank,
    terminal_semantics_error,
)
from examples.jsonl_provider import _wire
from examples.jsonl_provider._errors import JsonlProviderError
from examples.jsonl_provider._errors import JsonlProviderErrorCode as Code

_STOP_REASONS = {_wire.WHY_DONE: CourseStopReason.STOP, _wire.WHY_TOOL: CourseStopReason.TOOL_CALL}


def _reject(code: Code, line: int | None, message: str) -> NoReturn:
    raise JsonlProviderError(code, message, line=line)


def _reject_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not a JSON number")


def parse_line(text: object, line: int) -> JsonObject:
    """Parse one transport line into a frozen JSON object, or raise ``JSONL_INVALID_LINE``."""
    if type(text) is not str:
        _reject(Code.JSONL_INVALID_LINE, line, f"line {line} is a {type(text).__name__}, not text")
    try:
        value = json.loads(text, parse_constant=_reject_constant)
    except (ValueError, RecursionError) as error:
        _reject(Code.JSONL_INVALID_LINE, line, f"line {line} is not JSON: {error}")
    frozen = freeze_json_object(value, f"line[{line}]")
    if isinstance(frozen, Failure):
        problem = frozen.failure()
        _reject(Code.JSONL_INVALID_LINE, line, f"{problem.path}: {problem.message}")
    return frozen.unwrap()


class TurnParser:
    """Turns the lines of one turn into chunks, then one correlated response."""

    def __init__(self, request_id: str) -> None:
        self._request_id = request_id
        self._turn: str | None = None
        self._content: list[CourseAssistantContent] = []
        self._call_ids: set[str] = set()
        self._response: CourseModelResponse | None = None

    def feed(self, record: JsonObject, line: int) -> CourseModelChunk | None:
        """Advance by one parsed line; return the chunk it emits, if any."""
        kind = record.get(_wire.KIND_KEY)
        if self._response is not None:
            _reject(Code.JSONL_OUT_OF_ORDER, line, f"line {line} ({kind!r}) follows finish")
        if kind == _wire.BEGIN:
            if self._turn is not None:
                _reject(Code.JSONL_OUT_OF_ORDER, line, f"line {line} begins a second turn")
            self._turn = _text(record, _wire.TURN_KEY, line)
            return None
        if kind == _wire.OOPS:
            code = _text(record, _wire.CODE_KEY, line)
            raise JsonlProviderError(
                Code.JSONL_PROVIDER_ERROR,
                f"the provider failed with {code}: {record.get(_wire.DETAIL_KEY, '')}",
                line=line,
                provider_code=code,
            )
        if kind not in (_wire.SAY, _wire.INVOKE, _wire.FINISH):
            _reject(Code.JSONL_UNKNOWN_KIND, line, f"line {line} has unknown kind {kind!r}")
        turn = self._turn
        if turn is None:
            _reject(Code.JSONL_OUT_OF_ORDER, line, f"line {line} ({kind!r}) comes before begin")
        if kind == _wire.SAY:
            text = record.get(_wire.TEXT_KEY)
            if type(text) is not str:
                _reject(Code.JSONL_INVALID_LINE, line, f"line {line}.text must be a string")
            self._content.append(CourseTextBlock(text))
            return CourseTextDeltaChunk(self._request_id, text)
        if kind == _wire.INVOKE:
            return self._invoke(record, line)
        self._finish(record, turn, line)
        return None

    def end(self, lines_read: int) -> CourseModelResponse:
        """The response, once the transport ended; ``JSONL_MISSING_FINISH`` without one."""
        if self._response is None:
            _reject(
                Code.JSONL_MISSING_FINISH, None, f"the transport ended after {lines_read} line(s)"
            )
        return self._response

    def _invoke(self, record: JsonObject, line: int) -> CourseToolCallChunk:
        # The provider's call id is opaque: kept exactly, never regenerated,
        # because the Tool result must point back to this very id.
        call_id = _text(record, _wire.CALL_KEY, line)
        if call_id in self._call_ids:
            _reject(Code.JSONL_INVALID_LINE, line, f"line {line} repeats call id {call_id!r}")
        arguments = record.get(_wire.INPUT_KEY)
        if not isinstance(arguments, type(record)):
            _reject(Code.JSONL_INVALID_LINE, line, f"line {line}.input must be an object")
        call = CourseToolCall(call_id, _text(record, _wire.TOOL_KEY, line), arguments)
        self._call_ids.add(call_id)
        self._content.append(call)
        return CourseToolCallChunk(self._request_id, call)

    def _finish(self, record: JsonObject, turn: str, line: int) -> None:
        finished = _text(record, _wire.TURN_KEY, line)
        if finished != turn:
            _reject(
                Code.JSONL_TURN_MISMATCH, line, f"finish names {finished!r}, begin named {turn!r}"
            )
        stop_reason = _STOP_REASONS.get(record.get(_wire.WHY_KEY))  # type: ignore[arg-type]
        if stop_reason is None:
            _reject(Code.JSONL_INVALID_LINE, line, f"line {line}.why must be 'done' or 'tool'")
        tokens = record.get(_wire.TOKENS_KEY)
        if not isinstance(tokens, type(record)):
            _reject(Code.JSONL_INVALID_LINE, line, f"line {line}.tokens must be an object")
        try:
            used_in, used_out = tokens.get(_wire.TOKENS_IN_KEY), tokens.get(_wire.TOKENS_OUT_KEY)
            # The constructor checks both counts itself, with its own error.
            usage = CourseModelUsage(used_in, used_out)  # type: ignore[arg-type]
        except CourseProtocolError as error:
            _reject(Code.JSONL_INVALID_LINE, line, f"line {line}.tokens: {error}")
        message = CourseAssistantMessage(f"message-{turn}", tuple(self._content))
        contradiction = terminal_semantics_error(stop_reason, message)
        if contradiction is not None:
            _reject(Code.JSONL_INVALID_TERMINAL, line, contradiction)
        self._response = CourseModelResponse(turn, self._request_id, message, stop_reason, usage)


def _text(record: JsonObject, key: str, line: int) -> str:
    value = record.get(key)
    if type(value) is not str or is_blank(value):
        _reject(Code.JSONL_INVALID_LINE, line, f"line {line}.{key} must be a non-empty string")
    return value
