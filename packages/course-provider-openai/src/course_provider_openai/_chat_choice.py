"""Choice 0 of one streamed Chat Completions response: its text, refusal and Tool calls.

Each chunk carries one ``choices[0].delta``. Text pieces become course
chunks at once; refusal text and Tool-call fragments are kept until the
``finish_reason``, where the pieces become the message (the text first,
then the calls in the order they started), checked against the stop reason.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, NoReturn, TypeAlias, final

from course_http import VendorErrorCode
from course_protocol import (
    CourseAssistantContent,
    CourseAssistantMessage,
    CourseModelChunk,
    CourseStopReason,
    CourseTextBlock,
    CourseTextDeltaChunk,
    CourseToolCallChunk,
    terminal_semantics_error,
)
from course_protocol.untrusted import shown
from course_provider_openai import _chat_wire as wire
from course_provider_openai._chat_tool_calls import ChatToolCalls
from course_provider_openai._failures import CHAT_FAILURES
from course_vendor import FeedResult, TextPieces

__all__ = ["ChatChoice", "ChatFeedResult"]

ChatFeedResult: TypeAlias = FeedResult
"""What one event yields (``course_vendor.FeedResult``): nothing, one chunk, or, at the
finish of a response that calls Tools, several chunks (the last text delta, if the
finish carried one, then one complete Tool call per call, in the order the calls started)."""

_Code = VendorErrorCode
_NO_CHUNKS: tuple[CourseModelChunk, ...] = ()
_Push = Callable[[CourseModelChunk], None]
_STOP_REASONS: Final = {
    wire.FINISH_STOP: CourseStopReason.STOP,
    wire.FINISH_TOOL_CALLS: CourseStopReason.TOOL_CALL,
}
_DELTA = f"{wire.CHOICES_KEY}[0].{wire.DELTA_KEY}"

_fail = CHAT_FAILURES.fail
_invalid = CHAT_FAILURES.invalid


@final
class ChatChoice:
    """The one choice of a response so far, fed one ``choices[0]`` object at a time by `take`.

    At the finish, `finish` holds the vendor's reason, `stop` the course
    stop reason and `message` the complete message, whose id is
    `message_id`: the parser sets it from the first chunk's ``id`` before
    any choice is read.
    """

    __slots__ = (
        "_calls",
        "_refusal",
        "_request_id",
        "_text",
        "finish",
        "message",
        "message_id",
        "stop",
    )

    def __init__(self, request_id: str) -> None:
        self._request_id = request_id
        self.message_id = ""
        """``message-`` and the response's ``id``: the course message id."""
        self._text = TextPieces()
        self._calls = ChatToolCalls()
        self._refusal = TextPieces()
        self.finish: str | None = None
        """The vendor's ``finish_reason``, once one came."""
        self.message: CourseAssistantMessage | None = None
        """The complete message, once the finish came."""
        self.stop = CourseStopReason.STOP
        """The course stop reason of the finish (``STOP`` until then)."""

    def take(self, choice: object, index: int, push: _Push) -> None:
        """Read ``choices[0]`` of event ``index``; ``push`` the chunks it yields, in order.

        Nothing is pushed for an event that fails: the text delta a finish
        carries is pushed only once the finish is checked, then the Tool calls.

        Raises `VendorError`: ``VENDOR_INVALID_EVENT`` for a field of the
        wrong type or a role other than ``assistant``;
        ``VENDOR_UNSUPPORTED_CONTENT`` for a choice ``index`` other than 0;
        what ``ChatToolCalls.add`` raises; ``VENDOR_EVENT_ORDER`` for
        content or another reason after the finish; and at the finish
        ``VENDOR_REFUSAL``, ``VENDOR_INCOMPLETE``,
        ``VENDOR_INVALID_TOOL_ARGUMENTS`` or ``VENDOR_INVALID_TERMINAL``.
        """
        if type(choice) is not dict:
            _invalid(index, f"{wire.CHOICES_KEY}[0]", "an object", choice)
        position = choice.get(wire.INDEX_KEY)
        if position != 0 or type(position) is not int:
            self._bad_choice_index(position, index)
        delta = choice.get(wire.DELTA_KEY)
        if type(delta) is not dict:
            _invalid(index, _DELTA, "an object", delta)
        finish = choice.get(wire.FINISH_REASON_KEY)
        if self.finish is not None:
            self._after_finish(delta, finish, index)
            return
        produced: CourseModelChunk | None = None
        content = delta.get(wire.CONTENT_KEY)
        if content is not None:
            if type(content) is not str:
                _invalid(index, f"{_DELTA}.{wire.CONTENT_KEY}", "a string or null", content)
            if content:
                self._text.append(content)
                produced = CourseTextDeltaChunk(self._request_id, content)
        role = delta.get(wire.ROLE_KEY)
        if role is not None and role != wire.ASSISTANT_ROLE:
            _invalid(index, f"{_DELTA}.{wire.ROLE_KEY}", f"{wire.ASSISTANT_ROLE!r}", role)
        fragments = delta.get(wire.TOOL_CALLS_KEY)
        if fragments is not None:
            self._calls.add(fragments, index)
        refusal = delta.get(wire.REFUSAL_KEY)
        if refusal is not None:
            if type(refusal) is not str:
                _invalid(index, f"{_DELTA}.{wire.REFUSAL_KEY}", "a string or null", refusal)
            if refusal:
                self._refusal.append(refusal)
        calls = _NO_CHUNKS if finish is None else self._finish_with(finish, index)
        if produced is not None:
            push(produced)
        for call in calls:
            push(call)

    def _bad_choice_index(self, position: object, index: int) -> NoReturn:
        path = f"{wire.CHOICES_KEY}[0].{wire.INDEX_KEY}"
        if type(position) is not int:
            _invalid(index, path, "an integer", position)
        _fail(
            _Code.VENDOR_UNSUPPORTED_CONTENT,
            index,
            f"{path} is {position}: the course protocol has one answer per call (choice 0)",
        )

    def _finish_with(self, reason: object, index: int) -> tuple[CourseModelChunk, ...]:
        path = f"{wire.CHOICES_KEY}[0].{wire.FINISH_REASON_KEY}"
        if type(reason) is not str:
            _invalid(index, path, "a string or null", reason)
        if self._refusal:
            CHAT_FAILURES.refused(self._refusal.joined(), index, wire.REFUSAL_KEY)
        stop_reason = _STOP_REASONS.get(reason)
        if stop_reason is None:
            _fail(
                _Code.VENDOR_INCOMPLETE,
                index,
                f"{path} is {shown(reason)!r}, which the course protocol cannot express",
                vendor_type=reason,
            )
        content: list[CourseAssistantContent] = []
        if self._text:
            content.append(CourseTextBlock(self._text.joined()))
        calls = self._calls.complete(index)
        content.extend(calls)
        message = CourseAssistantMessage(self.message_id, tuple(content))
        problem = terminal_semantics_error(stop_reason, message)
        if problem is not None:
            _fail(_Code.VENDOR_INVALID_TERMINAL, index, f"{path} {reason!r}: {problem}")
        self.message = message
        self.stop = stop_reason
        self.finish = reason
        if not calls:
            return _NO_CHUNKS
        return tuple(CourseToolCallChunk(self._request_id, call) for call in calls)

    def _after_finish(self, delta: dict[str, Any], finish: object, index: int) -> None:
        # OpenRouter repeats the finish chunk with an empty delta: an echo that
        # adds nothing is harmless; new content or another reason is not.
        if finish is not None and finish != self.finish:
            _fail(
                _Code.VENDOR_EVENT_ORDER,
                index,
                f"a second finish_reason {shown(str(finish))!r} follows {self.finish!r}",
            )
        content = delta.get(wire.CONTENT_KEY)
        refusal = delta.get(wire.REFUSAL_KEY)
        if content not in (None, "") or refusal not in (None, "") or delta.get(wire.TOOL_CALLS_KEY):
            _fail(_Code.VENDOR_EVENT_ORDER, index, f"{_DELTA} carries content after the finish")
