"""Streamed chunks, usage, stop reasons, the terminal response and its one shared check."""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum, unique
from typing import NoReturn, TypeAlias, final

from course_protocol._checks import check_id, check_text, fail
from course_protocol._messages import CourseAssistantMessage, CourseToolCall
from course_protocol.slots import slot_setter
from course_protocol.untrusted import (
    BLANK_CHARACTERS,
    MAX_TOKEN_COUNT,
    integral_number,
    token_count_of,
    type_name,
)

__all__ = [
    "CourseModelChunk",
    "CourseModelResponse",
    "CourseModelUsage",
    "CourseStopReason",
    "CourseTextDeltaChunk",
    "CourseToolCallChunk",
    "terminal_semantics_error",
]


@final
@dataclass(frozen=True, slots=True, init=False)
class CourseTextDeltaChunk:
    """A streamed piece of assistant text for the request ``request_id``.

    Raises ``CourseProtocolError`` when ``request_id`` is not a non-blank
    ``str`` or ``delta`` is not a ``str``.
    """

    request_id: str
    delta: str

    def __init__(self, request_id: str, delta: str) -> None:
        # One chunk per streamed record: the passing case is inlined (is_blank
        # too) and the helpers run only to raise the precise error.
        if type(request_id) is not str or not request_id.lstrip(BLANK_CHARACTERS):
            check_id(request_id, "request_id")
        if type(delta) is not str:
            check_text(delta, "delta")
        _set_text_request_id(self, request_id)
        _set_delta(self, delta)


_set_text_request_id = slot_setter(CourseTextDeltaChunk, "request_id")
_set_delta = slot_setter(CourseTextDeltaChunk, "delta")


@final
@dataclass(frozen=True, slots=True, init=False)
class CourseToolCallChunk:
    """A complete streamed Tool call for the request ``request_id``.

    ``tool_call`` must be exactly a ``CourseToolCall`` (a subclass could
    carry mutable state). Raises ``CourseProtocolError`` otherwise, or when
    ``request_id`` is not a non-blank ``str``.
    """

    request_id: str
    tool_call: CourseToolCall

    def __init__(self, request_id: str, tool_call: CourseToolCall) -> None:
        if type(request_id) is not str or not request_id.lstrip(BLANK_CHARACTERS):
            check_id(request_id, "request_id")
        if type(tool_call) is not CourseToolCall:
            fail("tool_call", f"must be a CourseToolCall, not {type_name(tool_call)}")
        _set_tool_request_id(self, request_id)
        _set_tool_call(self, tool_call)


_set_tool_request_id = slot_setter(CourseToolCallChunk, "request_id")
_set_tool_call = slot_setter(CourseToolCallChunk, "tool_call")


CourseModelChunk: TypeAlias = CourseTextDeltaChunk | CourseToolCallChunk
"""One streamed chunk of a model response."""


def _checked_count(value: object, path: str) -> int:
    count = token_count_of(value)
    if count is None:
        _refuse_count(value, path)
    return count


def _refuse_count(value: object, path: str) -> NoReturn:
    if integral_number(value) is None:
        fail(path, f"must be an int or an integral float, not {_kind(value)}")
    fail(path, f"must be between 0 and 2**53 - 1 (MAX_TOKEN_COUNT = {MAX_TOKEN_COUNT})")


def _kind(value: object) -> str:
    if type(value) is float:
        return "a float with a fraction" if math.isfinite(value) else "a non-finite float"
    return type_name(value)


@final
@dataclass(frozen=True, slots=True, init=False)
class CourseModelUsage:
    """Token counts of one response.

    Each count is an integer between 0 and 2**53 - 1: an ``int`` (``bool``
    is not), or a ``float`` with no fraction, kept as the ``int`` it equals
    (``12.0`` is 12, ``-0.0`` is 0), since the reference course checks
    counts with ``Number.isSafeInteger`` and a JSON ``12.0`` passes there.
    Raises ``CourseProtocolError`` for anything else (``12.5``, ``NaN``, a
    subclass of ``int`` or ``float``, a count out of range).
    """

    input_tokens: int
    output_tokens: int

    def __init__(self, input_tokens: int, output_tokens: int) -> None:
        checked_input = _checked_count(input_tokens, "input_tokens")
        checked_output = _checked_count(output_tokens, "output_tokens")
        _set_input_tokens(self, checked_input)
        _set_output_tokens(self, checked_output)


_set_input_tokens = slot_setter(CourseModelUsage, "input_tokens")
_set_output_tokens = slot_setter(CourseModelUsage, "output_tokens")


@unique
class CourseStopReason(StrEnum):
    """Why the assistant stopped."""

    STOP = "stop"
    """The answer is complete; the message holds no Tool-call block."""
    TOOL_CALL = "toolCall"
    """The assistant waits for Tool results; the message holds at least one Tool-call block."""


@final
@dataclass(frozen=True, slots=True, init=False)
class CourseModelResponse:
    """The terminal result of one model call: the whole assistant message, why it stopped, usage.

    Each field is checked (non-blank ``id`` and ``request_id``, exactly a
    ``CourseAssistantMessage``, a ``CourseStopReason`` member, exactly a
    ``CourseModelUsage``), raising ``CourseProtocolError`` naming the field.
    Whether the stop reason agrees with the content is not checked here:
    that is :func:`terminal_semantics_error`, which each adapter applies and
    reports with its own code.
    """

    id: str
    request_id: str
    message: CourseAssistantMessage
    stop_reason: CourseStopReason
    usage: CourseModelUsage

    def __init__(
        self,
        id: str,
        request_id: str,
        message: CourseAssistantMessage,
        stop_reason: CourseStopReason,
        usage: CourseModelUsage,
    ) -> None:
        check_id(id, "id")
        check_id(request_id, "request_id")
        if type(message) is not CourseAssistantMessage:
            fail("message", f"must be a CourseAssistantMessage, not {type_name(message)}")
        if type(stop_reason) is not CourseStopReason:
            fail("stop_reason", f"must be a CourseStopReason, not {type_name(stop_reason)}")
        if type(usage) is not CourseModelUsage:
            fail("usage", f"must be a CourseModelUsage, not {type_name(usage)}")
        _set_response_id(self, id)
        _set_response_request_id(self, request_id)
        _set_message(self, message)
        _set_stop_reason(self, stop_reason)
        _set_usage(self, usage)


_set_response_id = slot_setter(CourseModelResponse, "id")
_set_response_request_id = slot_setter(CourseModelResponse, "request_id")
_set_message = slot_setter(CourseModelResponse, "message")
_set_stop_reason = slot_setter(CourseModelResponse, "stop_reason")
_set_usage = slot_setter(CourseModelResponse, "usage")


def terminal_semantics_error(
    stop_reason: CourseStopReason, message: CourseAssistantMessage
) -> str | None:
    """The one shared terminal check: ``None`` when ``stop_reason`` agrees with ``message``.

    ``TOOL_CALL`` requires at least one Tool-call block and ``STOP`` forbids
    them; otherwise the result is a one-line explanation. Never raises on
    protocol values.
    """
    tool_calls = 0
    for block in message.content:
        if type(block) is CourseToolCall:
            tool_calls += 1
    if stop_reason is CourseStopReason.TOOL_CALL:
        if tool_calls == 0:
            return "stop reason toolCall requires at least one Tool-call block, found none"
        return None
    if tool_calls:
        return f"stop reason stop forbids Tool-call blocks, found {tool_calls}"
    return None
