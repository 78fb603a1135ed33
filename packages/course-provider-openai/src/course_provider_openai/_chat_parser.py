"""Chat Completions chunks to course values: one strict state machine per streamed response.

Every event is untrusted. A chunk is read field by field before any course
value is made; the first thing wrong raises `VendorError` with its code and
the index of the event. This module reads the chunk around the choice (its
event name, ``id``, ``error``, ``usage``, ``[DONE]``); the choice itself,
text, refusal and Tool-call fragments up to the finish, is `ChatChoice`'s.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, NoReturn, final

from course_http import SseEvent, VendorError, VendorErrorCode
from course_protocol import (
    CourseModelChunk,
    CourseModelResponse,
    CourseModelUsage,
    is_blank,
)
from course_protocol.untrusted import shown
from course_provider_openai import _chat_wire as wire
from course_provider_openai._chat_choice import ChatChoice
from course_provider_openai._failures import CHAT_FAILURES
from course_vendor import StreamParser, event_error, event_object, usage_counts

__all__ = ["ChatStreamParser"]

_Code = VendorErrorCode
_VENDOR: Final = wire.VENDOR
_MESSAGE_ID_PREFIX: Final = "message-"
_NO_ID_YET: Final = object()
"""Equal to no chunk ``id``, so the first chunk always takes the checking path."""

_fail = CHAT_FAILURES.fail
_invalid = CHAT_FAILURES.invalid


@final
class ChatStreamParser(StreamParser):
    """The state of one streamed Chat Completions response, for the request ``request_id``.

    A ``course_vendor.StreamParser``: ``OpenAIChatModel`` plays it as a
    ``course_stream.SourcePlay`` (:meth:`item`, :meth:`end`,
    :meth:`source_failed`). By hand, feed it every server-sent event in
    order with :meth:`feed` (which returns a `ChatFeedResult`), then call
    :meth:`end` once the stream is exhausted. Both raise `VendorError`
    (vendor ``"openai-chat"``) with a stable code and the ``event_index`` of
    the offending event; chunks returned before a failure stay valid. After
    one, the parser is spent: every later call raises that same error again.
    `finished` says whether ``[DONE]`` was read. Raises
    ``CourseProtocolError`` when ``request_id`` is not a non-blank ``str``.

    What an event raises: ``VENDOR_ERROR_EVENT`` for an ``event: error``
    frame or a chunk with an ``error`` object; ``VENDOR_UNKNOWN_EVENT`` for
    any other event name; ``VENDOR_INVALID_EVENT`` for data that is not a
    chunk of the expected shape (or whose ``id`` differs from the first
    chunk's); ``VENDOR_UNSUPPORTED_CONTENT`` for more than one choice or a
    choice ``index`` other than 0, or a Tool call that is not a function;
    ``VENDOR_EVENT_ORDER`` for anything after ``[DONE]``, a fragment for a
    Tool call that never started, a second id or name for one call, a
    second usage, or content or a different finish reason after the finish;
    at the finish, ``VENDOR_REFUSAL`` (the refusal text in
    ``vendor_message``), ``VENDOR_INCOMPLETE`` for any reason but ``stop``
    and ``tool_calls`` (the reason in ``vendor_type``),
    ``VENDOR_INVALID_TOOL_ARGUMENTS`` and ``VENDOR_INVALID_TERMINAL``;
    ``VENDOR_MISSING_TERMINAL`` for a ``[DONE]`` before any finish reason or
    without usage, and from :meth:`end` when ``[DONE]`` never came.
    """

    __slots__ = ("_choice", "_chunk_id", "_expected_id", "_usage")

    def __init__(self, request_id: str) -> None:
        super().__init__(request_id)
        self._chunk_id: str | None = None
        self._expected_id: object = _NO_ID_YET
        self._choice = ChatChoice(request_id)
        self._usage: CourseModelUsage | None = None

    def _read(self, event: SseEvent, index: int, push: Callable[[CourseModelChunk], None]) -> None:
        if self._response is not None:
            _fail(_Code.VENDOR_EVENT_ORDER, index, f"follows {wire.DONE_DATA}; nothing may")
        if event.event != wire.UNNAMED_EVENT:
            self._named_event(event, index)
        data = event.data
        if data == wire.DONE_DATA:
            self._done(index)
            return
        chunk = event_object(data, vendor=_VENDOR, index=index)
        error = chunk.get(wire.ERROR_KEY)
        if error is not None:
            CHAT_FAILURES.reported(error, index)
        chunk_id = chunk.get(wire.ID_KEY)
        if chunk_id != self._expected_id:
            self._first_id(chunk_id, index)
        usage = chunk.get(wire.USAGE_KEY)
        if usage is not None:
            self._read_usage(usage, index)
        choices = chunk.get(wire.CHOICES_KEY)
        if type(choices) is not list:
            _invalid(index, wire.CHOICES_KEY, "an array", choices)
        if not choices:
            return
        if len(choices) != 1:
            _fail(
                _Code.VENDOR_UNSUPPORTED_CONTENT,
                index,
                f"{wire.CHOICES_KEY} holds {len(choices)} choices; "
                "the course protocol has one answer per call",
            )
        self._choice.take(choices[0], index, push)

    def _missing_terminal(self, event_count: int) -> VendorError:
        missing = "a finish_reason and " if self._choice.finish is None else ""
        return event_error(
            _Code.VENDOR_MISSING_TERMINAL,
            f"the stream ended without {missing}{wire.DONE_DATA}",
            vendor=_VENDOR,
            index=event_count,
        )

    def _named_event(self, event: SseEvent, index: int) -> NoReturn:
        if event.event == wire.ERROR_EVENT:
            try:
                data: dict[str, Any] = event_object(event.data, vendor=_VENDOR, index=index)
            except VendorError:
                # The vendor said "error"; that its data is broken too changes nothing.
                data = {}
            error = data.get(wire.ERROR_KEY, data)
            CHAT_FAILURES.reported(error, index)
        _fail(
            _Code.VENDOR_UNKNOWN_EVENT,
            index,
            f"event name {shown(event.event)!r} is not one Chat Completions sends",
        )

    def _first_id(self, chunk_id: object, index: int) -> None:
        if self._chunk_id is not None:
            _fail(
                _Code.VENDOR_INVALID_EVENT,
                index,
                f"{wire.ID_KEY} differs from the first chunk's {self._chunk_id!r}",
            )
        if type(chunk_id) is not str or is_blank(chunk_id):
            _invalid(index, wire.ID_KEY, "a non-blank string", chunk_id)
        self._chunk_id = chunk_id
        self._expected_id = chunk_id
        self._choice.message_id = f"{_MESSAGE_ID_PREFIX}{chunk_id}"

    def _read_usage(self, usage: object, index: int) -> None:
        if self._usage is not None:
            _fail(_Code.VENDOR_EVENT_ORDER, index, f"{wire.USAGE_KEY} arrives a second time")
        if type(usage) is not dict:
            _invalid(index, wire.USAGE_KEY, "an object or null", usage)
        self._usage = usage_counts(
            usage,
            wire.PROMPT_TOKENS_KEY,
            wire.COMPLETION_TOKENS_KEY,
            vendor=_VENDOR,
            index=index,
            path=wire.USAGE_KEY,
        )

    def _done(self, index: int) -> None:
        message = self._choice.message
        if message is None:
            _fail(
                _Code.VENDOR_MISSING_TERMINAL,
                index,
                f"{wire.DONE_DATA} arrived before any {wire.FINISH_REASON_KEY}",
            )
        if self._usage is None:
            _fail(
                _Code.VENDOR_MISSING_TERMINAL,
                index,
                f"{wire.DONE_DATA} arrived without {wire.USAGE_KEY} "
                f"(the request must set {wire.STREAM_OPTIONS_KEY}.{wire.INCLUDE_USAGE_KEY})",
            )
        response_id = self._chunk_id
        assert response_id is not None  # a message exists only after a chunk with an id
        self._response = CourseModelResponse(
            response_id, self._request_id, message, self._choice.stop, self._usage
        )
