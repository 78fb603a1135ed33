"""Responses API events to course values: one strict state machine per streamed response.

Every event is untrusted. Its ``type`` picks its handler with one dict
lookup; its ``sequence_number`` must be the previous one plus one. This
module owns the response's life (created, queued, in progress, and the
terminal events); everything inside ``output`` is handled by the functions of
`_responses_output` (items), `_responses_parts` (message parts) and
`_responses_calls` (function-call arguments), over one `OutputItems`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, NoReturn, final

from course_http import SseEvent, VendorError, VendorErrorCode
from course_protocol import (
    CourseAssistantMessage,
    CourseModelChunk,
    CourseModelResponse,
    CourseStopReason,
)
from course_protocol.untrusted import shown
from course_provider_openai import _responses_calls, _responses_output, _responses_parts
from course_provider_openai import _responses_wire as wire
from course_provider_openai._failures import RESPONSES_FAILURES
from course_provider_openai._responses_items import OutputItems
from course_vendor import OneChunkStreamParser, event_error, event_object, usage_counts

__all__ = ["ResponsesStreamParser"]

_Code = VendorErrorCode
_VENDOR: Final = wire.VENDOR
_MESSAGE_ID_PREFIX: Final = "message-"
_STARTED_STATUSES: Final = (wire.STATUS_IN_PROGRESS, wire.STATUS_QUEUED)


_fail = RESPONSES_FAILURES.fail
_object_at = RESPONSES_FAILURES.object_at
_text_at = RESPONSES_FAILURES.text_at
_invalid = RESPONSES_FAILURES.invalid


@final
class ResponsesStreamParser(OneChunkStreamParser):
    """The state of one streamed Responses API response, for the request ``request_id``.

    A ``course_vendor.OneChunkStreamParser``: ``OpenAIResponsesModel``
    plays it as a ``course_stream.SourcePlay`` (:meth:`item`, :meth:`end`,
    :meth:`source_failed`). By hand, feed it every event in order with
    :meth:`feed`, then call :meth:`end` once the stream is exhausted. Both
    raise `VendorError` (vendor ``"openai-responses"``) with a stable code
    and the ``event_index`` of the offending event; chunks returned before a
    failure stay valid. After one, the parser is spent: every later call
    raises that same error again. `finished` says whether
    ``response.completed`` was read. Raises ``CourseProtocolError`` when
    ``request_id`` is not a non-blank ``str``.

    What an event raises: ``VENDOR_INVALID_EVENT`` for data that is not an
    event of the expected shape (an ``event:`` name other than its ``type``,
    ids that do not match, a ``.done`` text that differs from its deltas);
    ``VENDOR_UNKNOWN_EVENT`` for an event, item or part type the adapter
    does not know; ``VENDOR_EVENT_ORDER`` for a ``sequence_number`` that is
    not the previous one plus one, anything before ``response.created``
    (but ``error``) or after the terminal, and events for items or parts
    that are not open; ``VENDOR_ERROR_EVENT`` for ``error`` and
    ``response.failed``; ``VENDOR_INCOMPLETE`` for ``response.incomplete``
    (the reason in ``vendor_type``); ``VENDOR_REFUSAL`` for a refusal part;
    ``VENDOR_UNSUPPORTED_CONTENT`` for server-side Tool items;
    ``VENDOR_INVALID_TOOL_ARGUMENTS`` and ``VENDOR_INVALID_TERMINAL``;
    :meth:`end` raises ``VENDOR_MISSING_TERMINAL`` when no
    ``response.completed`` was read.
    """

    __slots__ = ("_next_sequence", "_output", "_response_id")

    def __init__(self, request_id: str) -> None:
        super().__init__(request_id)
        self._response_id: str | None = None
        self._next_sequence: int | None = None
        self._output = OutputItems(request_id)

    def _read(self, event: SseEvent, index: int, push: Callable[[CourseModelChunk], None]) -> None:
        # The hot path under course_stream.forward_source.
        if self._response is not None:
            _fail(
                _Code.VENDOR_EVENT_ORDER, index, f"follows {wire.RESPONSE_COMPLETED}; nothing may"
            )
        data = event_object(event.data, vendor=_VENDOR, index=index)
        kind = data.get(wire.TYPE_KEY)
        if type(kind) is not str:
            _invalid(index, wire.TYPE_KEY, "a string", kind)
        handler = _OUTPUT_EVENTS.get(kind)
        if handler is None and kind not in _LIFE_EVENTS:
            _fail(
                _Code.VENDOR_UNKNOWN_EVENT, index, f"event type {shown(kind)!r} is not one it knows"
            )
        if event.event != kind and event.event != wire.UNNAMED_EVENT:
            _fail(_Code.VENDOR_INVALID_EVENT, index, f"event name differs from its type {kind!r}")
        sequence = data.get(wire.SEQUENCE_NUMBER_KEY)
        if type(sequence) is not int or sequence != self._next_sequence:
            sequence = self._first_sequence(sequence, index)
        self._next_sequence = sequence + 1
        if self._response_id is None and kind != wire.RESPONSE_CREATED and kind != wire.ERROR_EVENT:
            _fail(_Code.VENDOR_EVENT_ORDER, index, f"{kind!r} comes before {wire.RESPONSE_CREATED}")
        if handler is not None:
            chunk = handler(self._output, data, index)
            if chunk is not None:
                push(chunk)
            return
        _LIFE_EVENTS[kind](self, data, index)

    def _missing_terminal(self, event_count: int) -> VendorError:
        return event_error(
            _Code.VENDOR_MISSING_TERMINAL,
            f"the stream ended without {wire.RESPONSE_COMPLETED}",
            vendor=_VENDOR,
            index=event_count,
        )

    def _first_sequence(self, sequence: object, index: int) -> int:
        if type(sequence) is not int or sequence < 0:
            _invalid(index, wire.SEQUENCE_NUMBER_KEY, "a non-negative integer", sequence)
        if self._next_sequence is not None:
            _fail(
                _Code.VENDOR_EVENT_ORDER,
                index,
                f"{wire.SEQUENCE_NUMBER_KEY} is {sequence}, expected {self._next_sequence}",
            )
        return sequence

    def _check_response_id(self, response: dict[str, Any], index: int) -> None:
        if response.get(wire.ID_KEY) != self._response_id:
            _fail(
                _Code.VENDOR_INVALID_EVENT,
                index,
                f"{wire.RESPONSE_KEY}.{wire.ID_KEY} differs from {self._response_id!r}",
            )

    def _created(self, data: dict[str, Any], index: int) -> None:
        if self._response_id is not None:
            _fail(_Code.VENDOR_EVENT_ORDER, index, f"a second {wire.RESPONSE_CREATED}")
        response = _object_at(data, wire.RESPONSE_KEY, index)
        response_id = _text_at(
            response, wire.ID_KEY, index, parent=wire.RESPONSE_KEY, non_blank=True
        )
        status = response.get(wire.STATUS_KEY)
        # A background response starts "queued" and streams like any other.
        if status not in _STARTED_STATUSES or type(status) is not str:
            _invalid(
                index, f"{wire.RESPONSE_KEY}.{wire.STATUS_KEY}", "in_progress or queued", status
            )
        self._response_id = response_id

    def _progress(self, data: dict[str, Any], index: int) -> None:
        self._check_response_id(_object_at(data, wire.RESPONSE_KEY, index), index)

    def _completed(self, data: dict[str, Any], index: int) -> None:
        open_items = self._output.open_positions()
        if open_items:
            _fail(_Code.VENDOR_EVENT_ORDER, index, f"output items {open_items} are still open")
        response = _object_at(data, wire.RESPONSE_KEY, index)
        self._check_response_id(response, index)
        if response.get(wire.STATUS_KEY) != wire.STATUS_COMPLETED:
            status_path = f"{wire.RESPONSE_KEY}.{wire.STATUS_KEY}"
            _invalid(index, status_path, "'completed'", response.get(wire.STATUS_KEY))
        usage = response.get(wire.USAGE_KEY)
        usage_path = f"{wire.RESPONSE_KEY}.{wire.USAGE_KEY}"
        if type(usage) is not dict:
            _invalid(index, usage_path, "an object", usage)
        counts = usage_counts(
            usage,
            wire.INPUT_TOKENS_KEY,
            wire.OUTPUT_TOKENS_KEY,
            vendor=_VENDOR,
            index=index,
            path=usage_path,
        )
        _responses_output.check_terminal_output(self._output, response.get(wire.OUTPUT_KEY), index)
        # The Responses API sends no stop reason: it is read off the content, so
        # the two agree by construction (terminal_semantics_error has nothing to find).
        stop_reason = CourseStopReason.TOOL_CALL if self._output.calls else CourseStopReason.STOP
        message = CourseAssistantMessage(
            f"{_MESSAGE_ID_PREFIX}{self._response_id}",
            tuple(_responses_output.content(self._output)),
        )
        response_id = self._response_id
        assert response_id is not None  # every event but error comes after response.created
        self._response = CourseModelResponse(
            response_id, self._request_id, message, stop_reason, counts
        )

    def _incomplete(self, data: dict[str, Any], index: int) -> NoReturn:
        response = _object_at(data, wire.RESPONSE_KEY, index)
        details = response.get(wire.INCOMPLETE_DETAILS_KEY)
        reason = details.get(wire.REASON_KEY) if type(details) is dict else None
        incomplete = reason if type(reason) is str else wire.STATUS_INCOMPLETE
        _fail(
            _Code.VENDOR_INCOMPLETE,
            index,
            f"the response is incomplete ({shown(incomplete)}), "
            "which the course protocol cannot express",
            vendor_type=incomplete,
        )

    def _failed(self, data: dict[str, Any], index: int) -> NoReturn:
        error = _object_at(data, wire.RESPONSE_KEY, index).get(wire.ERROR_KEY)
        RESPONSES_FAILURES.reported(error, index)

    def _error(self, data: dict[str, Any], index: int) -> NoReturn:
        # Recorded streams nest the fields in "error"; the reference puts them at the top.
        error = data.get(wire.ERROR_KEY, data)
        RESPONSES_FAILURES.reported(error, index)


_OutputHandler = Callable[[OutputItems, dict[str, Any], int], CourseModelChunk | None]
_OUTPUT_EVENTS: Final[dict[str, _OutputHandler]] = {
    wire.OUTPUT_TEXT_DELTA: _responses_parts.output_text_delta,
    wire.ARGUMENTS_DELTA: _responses_calls.arguments_delta,
    wire.OUTPUT_ITEM_ADDED: _responses_output.item_added,
    wire.OUTPUT_ITEM_DONE: _responses_output.item_done,
    wire.CONTENT_PART_ADDED: _responses_parts.part_added,
    wire.CONTENT_PART_DONE: _responses_parts.part_done,
    wire.OUTPUT_TEXT_DONE: _responses_parts.output_text_done,
    wire.OUTPUT_TEXT_ANNOTATION_ADDED: _responses_parts.annotation,
    wire.REFUSAL_DELTA: _responses_parts.refusal_delta,
    wire.REFUSAL_DONE: _responses_parts.refusal_done,
    wire.ARGUMENTS_DONE: _responses_calls.arguments_done,
    **dict.fromkeys(wire.REASONING_EVENTS, _responses_output.reasoning_event),
}
"""The events inside ``output``; the text and argument deltas, the hot path, come first."""

_LifeHandler = Callable[[ResponsesStreamParser, dict[str, Any], int], None]
_P = ResponsesStreamParser
_LIFE_EVENTS: Final[dict[str, _LifeHandler]] = {
    wire.RESPONSE_CREATED: _P._created,
    wire.RESPONSE_QUEUED: _P._progress,
    wire.RESPONSE_IN_PROGRESS: _P._progress,
    wire.RESPONSE_COMPLETED: _P._completed,
    wire.RESPONSE_INCOMPLETE: _P._incomplete,
    wire.RESPONSE_FAILED: _P._failed,
    wire.ERROR_EVENT: _P._error,
}
"""The events of the response's own life."""
