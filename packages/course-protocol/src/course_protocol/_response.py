"""Usage, stop reasons, the terminal response and its one shared check."""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum, unique
from typing import NoReturn, final

from course_protocol._blocks import CourseToolCall
from course_protocol._checks import check_id, fail
from course_protocol._messages import CourseAssistantMessage
from course_protocol.slots import slot_setter
from course_protocol.untrusted import (
    MAX_TOKEN_COUNT,
    integral_number,
    token_count_of,
    type_name,
)

__all__ = [
    "CourseModelResponse",
    "CourseModelUsage",
    "CourseStopReason",
    "terminal_semantics_error",
]


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


def _optional_count(value: object, path: str) -> int | None:
    return None if value is None else _checked_count(value, path)


@final
@dataclass(frozen=True, slots=True, init=False)
class CourseModelUsage:
    """Token counts of one response: the two every vendor sends, and the ones some do.

    One rule for every wire: ``input_tokens`` counts all the input, cached
    input included (``cache_read_tokens`` read from the vendor's prompt
    cache and ``cache_write_tokens`` written to it are parts of it), and
    ``output_tokens`` counts all the output, reasoning included
    (``reasoning_tokens`` is a part of it). A wire whose vendor counts them
    apart adds them up. The three parts are ``None`` when the vendor did not
    send them, never a 0 it did not say.

    Each count is an integer between 0 and 2**53 - 1: an ``int`` (``bool``
    is not), or a ``float`` with no fraction, kept as the ``int`` it equals
    (``12.0`` is 12, ``-0.0`` is 0), since the reference course checks
    counts with ``Number.isSafeInteger`` and a JSON ``12.0`` passes there.
    Raises ``CourseProtocolError`` for anything else (``12.5``, ``NaN``, a
    subclass of ``int`` or ``float``, a count out of range), and when a part
    is larger than its whole: ``cache_read_tokens`` plus
    ``cache_write_tokens`` above ``input_tokens``, ``reasoning_tokens``
    above ``output_tokens``.
    """

    input_tokens: int
    output_tokens: int
    cache_read_tokens: int | None = None
    cache_write_tokens: int | None = None
    reasoning_tokens: int | None = None

    def __init__(
        self,
        input_tokens: int,
        output_tokens: int,
        *,
        cache_read_tokens: int | None = None,
        cache_write_tokens: int | None = None,
        reasoning_tokens: int | None = None,
    ) -> None:
        checked_input = _checked_count(input_tokens, "input_tokens")
        checked_output = _checked_count(output_tokens, "output_tokens")
        cache_read = _optional_count(cache_read_tokens, "cache_read_tokens")
        cache_write = _optional_count(cache_write_tokens, "cache_write_tokens")
        reasoning = _optional_count(reasoning_tokens, "reasoning_tokens")
        cached = (cache_read or 0) + (cache_write or 0)
        if cached > checked_input:
            field = "cache_write_tokens" if cache_write else "cache_read_tokens"
            fail(
                field,
                f"the cached input ({cached}) exceeds input_tokens ({checked_input}), "
                "which counts all the input, cached input included",
            )
        if reasoning is not None and reasoning > checked_output:
            fail(
                "reasoning_tokens",
                f"({reasoning}) exceeds output_tokens ({checked_output}), "
                "which counts all the output, reasoning included",
            )
        _set_input_tokens(self, checked_input)
        _set_output_tokens(self, checked_output)
        _set_cache_read_tokens(self, cache_read)
        _set_cache_write_tokens(self, cache_write)
        _set_reasoning_tokens(self, reasoning)


_set_input_tokens = slot_setter(CourseModelUsage, "input_tokens")
_set_output_tokens = slot_setter(CourseModelUsage, "output_tokens")
_set_cache_read_tokens = slot_setter(CourseModelUsage, "cache_read_tokens")
_set_cache_write_tokens = slot_setter(CourseModelUsage, "cache_write_tokens")
_set_reasoning_tokens = slot_setter(CourseModelUsage, "reasoning_tokens")


@unique
class CourseStopReason(StrEnum):
    """Why the assistant stopped."""

    STOP = "stop"
    """The answer is complete; the message holds no Tool-call block."""
    TOOL_CALL = "toolCall"
    """The assistant waits for Tool results; the message holds at least one Tool-call block."""
    LENGTH = "length"
    """The output limit was reached: the message is what was complete by then.

    A Tool call the limit cut is never in it (the complete ones before it may be).
    """
    REFUSAL = "refusal"
    """The vendor refused, or its content filter stopped the answer; no Tool-call block.

    The message holds what came before the refusal.
    """
    PAUSE_TURN = "pauseTurn"
    """The vendor paused a long turn (Anthropic's ``pause_turn``, or its ``compaction``).

    A loop sends the message back as it is to let the vendor continue the
    turn (answering first any Tool call it holds).
    """


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

    ``TOOL_CALL`` requires at least one Tool-call block; ``STOP`` and
    ``REFUSAL`` forbid them (a refused turn asks for nothing, and its
    message must go back in a transcript as it is, with no call left to
    answer); ``LENGTH`` and ``PAUSE_TURN`` allow any complete blocks.
    Otherwise the result is a one-line explanation. Never raises on
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
    if tool_calls and (
        stop_reason is CourseStopReason.STOP or stop_reason is CourseStopReason.REFUSAL
    ):
        return f"stop reason {stop_reason.value} forbids Tool-call blocks, found {tool_calls}"
    return None
