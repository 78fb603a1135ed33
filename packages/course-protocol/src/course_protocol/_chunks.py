"""The streamed chunks of a model response: answer text, whole Tool calls, reasoning text."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias, final

from course_protocol._blocks import CourseToolCall
from course_protocol._checks import check_id, check_text, fail
from course_protocol.slots import slot_setter
from course_protocol.untrusted import BLANK_CHARACTERS, type_name

__all__ = [
    "CourseModelChunk",
    "CourseReasoningDeltaChunk",
    "CourseTextDeltaChunk",
    "CourseToolCallChunk",
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
        # One chunk per streamed record: the passing case is inlined here and in
        # the reasoning delta (a shared function costs a call per chunk, about a
        # twentieth of the fixture's whole chunk), and the helpers run only to
        # raise the precise error.
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


@final
@dataclass(frozen=True, slots=True, init=False)
class CourseReasoningDeltaChunk:
    """A streamed piece of the assistant's readable reasoning for the request ``request_id``.

    The reasoning deltas of a response, joined in order, are the text of its
    reasoning blocks, as its text deltas are the text of its text blocks.
    Raises ``CourseProtocolError`` when ``request_id`` is not a non-blank
    ``str`` or ``delta`` is not a ``str``.
    """

    request_id: str
    delta: str

    def __init__(self, request_id: str, delta: str) -> None:
        # Inlined as in CourseTextDeltaChunk, for the same per-chunk cost.
        if type(request_id) is not str or not request_id.lstrip(BLANK_CHARACTERS):
            check_id(request_id, "request_id")
        if type(delta) is not str:
            check_text(delta, "delta")
        _set_reasoning_request_id(self, request_id)
        _set_reasoning_delta(self, delta)


_set_reasoning_request_id = slot_setter(CourseReasoningDeltaChunk, "request_id")
_set_reasoning_delta = slot_setter(CourseReasoningDeltaChunk, "delta")


CourseModelChunk: TypeAlias = CourseTextDeltaChunk | CourseToolCallChunk | CourseReasoningDeltaChunk
"""One streamed chunk of a model response: answer text, a whole Tool call, or reasoning text."""
