"""Messages API stream events to course chunks and one terminal response: a strict state machine.

Every event is untrusted: its ``data`` is decoded by `event_object` and read
field by field before any course value is made. This module dispatches each
event by its type and owns the message's own life (start, delta, stop);
the content blocks are its base's, `ContentBlockParser`'s. The dominant events (a
text delta, an argument fragment) take one dict lookup on the event type and
one on the block index, and allocate nothing but the course chunk.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NoReturn, final

from course_http import SseEvent, VendorError, VendorErrorCode
from course_protocol import (
    CourseAssistantMessage,
    CourseModelChunk,
    CourseModelResponse,
    CourseModelUsage,
    CourseStopReason,
    is_blank,
    terminal_semantics_error,
)
from course_protocol.untrusted import ABSENT, described, shown
from course_provider_anthropic import _wire
from course_provider_anthropic._content import ContentBlockParser
from course_provider_anthropic._error_body import raise_error_event
from course_provider_anthropic._reads import (
    fail,
    fail_invalid,
    fail_order,
    input_tokens,
    invalid,
    object_at,
    text_at,
)
from course_provider_anthropic._stop import course_stop_reason
from course_vendor import event_object, token_count

__all__ = ["MessagesStreamParser"]

_V = _wire.VENDOR


@final
class MessagesStreamParser(ContentBlockParser):
    """The state of one streamed Messages API response, fed one server-sent event at a time.

    A ``course_vendor.OneChunkStreamParser``: :meth:`item` pushes the course
    chunk each event makes, :meth:`end` gives the response,
    :meth:`source_failed` passes the transport's errors through;
    ``AnthropicMessagesModel`` plays it that way. By hand, feed each event
    in order with :meth:`feed` (it returns the chunk, or ``None``), then
    call :meth:`end` once the stream is over. Both raise `VendorError`
    (``vendor`` ``"anthropic-messages"``, ``event_index`` the offending
    event) with a stable code; after one, the parser is spent: every later
    call raises that same error object again. `finished` says whether
    ``message_stop`` was read. Chunks returned before a failure stay valid;
    a Tool call is returned only once its block stopped and its arguments
    parsed. Raises ``CourseProtocolError`` when ``request_id`` is not a
    non-blank ``str``.

    What an event raises: ``VENDOR_INVALID_EVENT`` for data that is not a
    JSON object, a ``type`` that is not a string or differs from the
    ``event:`` name, or a field of the wrong type; ``VENDOR_UNKNOWN_EVENT``
    for an unknown event, block or delta type; ``VENDOR_EVENT_ORDER`` for an
    event out of place (anything after ``message_stop``, ping included);
    ``VENDOR_ERROR_EVENT`` for the vendor's ``error`` event;
    ``VENDOR_INCOMPLETE``/``VENDOR_REFUSAL`` for a stop reason the course
    cannot express; ``VENDOR_UNSUPPORTED_CONTENT`` for a server-tool block;
    ``VENDOR_INVALID_TOOL_ARGUMENTS`` when a Tool call's arguments are not a
    JSON object; ``VENDOR_INVALID_TERMINAL`` when the stop reason
    contradicts the content. :meth:`end` raises ``VENDOR_MISSING_TERMINAL``
    (``event_index`` = the event count) when no ``message_stop`` was read,
    even after chunks.
    """

    __slots__ = (
        "_input_tokens",
        "_output_tokens",
        "_stop_reason",
        "_vendor_reason",
    )

    def __init__(self, request_id: str) -> None:
        super().__init__(request_id)
        self._input_tokens = 0
        self._output_tokens: int | None = None
        self._stop_reason: CourseStopReason | None = None
        self._vendor_reason = ""

    def _read(self, event: SseEvent, index: int, push: Callable[[CourseModelChunk], None]) -> None:
        # The hot path under course_stream.forward_source.
        data = event_object(event.data, vendor=_V, index=index)
        kind = data.get(_wire.TYPE_KEY)
        handler = _HANDLERS.get(kind) if type(kind) is str else None
        if handler is None or event.event != kind or self._response is not None:
            self._refuse(event, kind, index)
        chunk = handler(self, data, index)
        if chunk is not None:
            push(chunk)

    def _missing_terminal(self, event_count: int) -> VendorError:
        return VendorError(
            VendorErrorCode.VENDOR_MISSING_TERMINAL,
            f"the stream ended after {event_count} event(s) without {_wire.MESSAGE_STOP}",
            vendor=_V,
            event_index=event_count,
        )

    def _refuse(self, event: SseEvent, kind: object, index: int) -> NoReturn:
        if type(kind) is not str:
            invalid(index, _wire.TYPE_KEY, "a string", kind)
        if event.event != kind:
            fail_invalid(
                f"the event name {shown(event.event)!r} differs from its data type {shown(kind)!r}",
                index,
            )
        if self._response is not None:
            fail_order(f"{shown(kind)} follows {_wire.MESSAGE_STOP}; nothing may", index)
        fail(
            VendorErrorCode.VENDOR_UNKNOWN_EVENT,
            index,
            f"{shown(kind)!r} is not a known event type",
            vendor_type=kind,
        )

    def _message_start(self, data: dict[str, Any], index: int) -> None:
        if self._message_id is not None:
            fail_order(f"a second {_wire.MESSAGE_START}", index)
        message = object_at(data, _wire.MESSAGE_KEY, index)
        message_id = text_at(message, _wire.ID_KEY, index, parent=_wire.MESSAGE_KEY, non_blank=True)
        if message.get(_wire.ROLE_KEY) != _wire.ASSISTANT:
            fail_invalid(f"{_wire.MESSAGE_KEY}.{_wire.ROLE_KEY} must be {_wire.ASSISTANT!r}", index)
        content = message.get(_wire.CONTENT_KEY, [])
        if type(content) is not list or content:
            # Streamed content arrives in block events; a start that already
            # holds some would be a second source of it.
            fail_invalid(f"{_wire.MESSAGE_KEY}.{_wire.CONTENT_KEY} must be an empty list", index)
        usage_path = f"{_wire.MESSAGE_KEY}.{_wire.USAGE_KEY}"
        usage = object_at(message, _wire.USAGE_KEY, index, parent=_wire.MESSAGE_KEY)
        total_input = input_tokens(usage, usage_path, index)
        if total_input is None:
            got = described(usage.get(_wire.INPUT_TOKENS_KEY, ABSENT))
            fail_invalid(
                f"{usage_path}.{_wire.INPUT_TOKENS_KEY} must be an integer, got {got}", index
            )
        # The start's output count is a placeholder; message_delta gives the real one.
        placeholder = usage.get(_wire.OUTPUT_TOKENS_KEY)
        if placeholder is not None:
            token_count(
                placeholder, vendor=_V, index=index, path=f"{usage_path}.{_wire.OUTPUT_TOKENS_KEY}"
            )
        self._input_tokens = total_input
        self._message_id = message_id

    def _message_delta(self, data: dict[str, Any], index: int) -> None:
        self._require_start(_wire.MESSAGE_DELTA, index)
        delta = object_at(data, _wire.DELTA_KEY, index)
        reason = delta.get(_wire.STOP_REASON_KEY)
        if reason is not None and (type(reason) is not str or is_blank(reason)):
            fail_invalid(
                f"{_wire.DELTA_KEY}.{_wire.STOP_REASON_KEY} must be a non-blank string or null",
                index,
            )
        usage = object_at(data, _wire.USAGE_KEY, index)
        output_path = f"{_wire.USAGE_KEY}.{_wire.OUTPUT_TOKENS_KEY}"
        output = token_count(
            usage.get(_wire.OUTPUT_TOKENS_KEY, ABSENT), vendor=_V, index=index, path=output_path
        )
        if self._output_tokens is not None and output < self._output_tokens:
            fail_invalid(f"{output_path} is cumulative; it went down to {output}", index)
        # Input is repeated here by newer streams; when it is, it replaces the start's.
        total_input = input_tokens(usage, _wire.USAGE_KEY, index)
        if reason is not None:
            self._stop_reason = course_stop_reason(reason, delta, index)
            self._vendor_reason = reason
        if self._open:
            fail_order(f"{_wire.MESSAGE_DELTA} while block {min(self._open)} is still open", index)
        if total_input is not None:
            self._input_tokens = total_input
        self._output_tokens = output
        self._content_closed = True

    def _message_stop(self, data: dict[str, Any], index: int) -> None:
        self._require_start(_wire.MESSAGE_STOP, index)
        if self._output_tokens is None:
            fail_order(f"{_wire.MESSAGE_STOP} comes before {_wire.MESSAGE_DELTA}", index)
        message_id, stop_reason = self._message_id, self._stop_reason
        if stop_reason is None or message_id is None:
            fail_invalid(f"no {_wire.MESSAGE_DELTA} gave a {_wire.STOP_REASON_KEY}", index)
        content = tuple(block for block in self._content if block is not None)
        message = CourseAssistantMessage(message_id, content)
        problem = terminal_semantics_error(stop_reason, message)
        if problem is not None:
            fail(
                VendorErrorCode.VENDOR_INVALID_TERMINAL,
                index,
                problem,
                vendor_type=self._vendor_reason,
            )
        usage = CourseModelUsage(self._input_tokens, self._output_tokens)
        self._response = CourseModelResponse(
            message_id, self._request_id, message, stop_reason, usage
        )

    def _ping(self, data: dict[str, Any], index: int) -> None:
        return None

    def _error(self, data: dict[str, Any], index: int) -> NoReturn:
        raise_error_event(data, index)


_Handler = Callable[[MessagesStreamParser, dict[str, Any], int], CourseModelChunk | None]
_HANDLERS: dict[str, _Handler] = {
    _wire.CONTENT_BLOCK_DELTA: MessagesStreamParser._block_delta,
    _wire.PING: MessagesStreamParser._ping,
    _wire.CONTENT_BLOCK_START: MessagesStreamParser._block_start,
    _wire.CONTENT_BLOCK_STOP: MessagesStreamParser._block_stop,
    _wire.MESSAGE_START: MessagesStreamParser._message_start,
    _wire.MESSAGE_DELTA: MessagesStreamParser._message_delta,
    _wire.MESSAGE_STOP: MessagesStreamParser._message_stop,
    _wire.ERROR: MessagesStreamParser._error,
}
"""Every event type's handler, the block delta (the hot path) first; the three
block events' handlers are the base's, in `_content`."""
