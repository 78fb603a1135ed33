"""ResponsesGrammar: the whole documented stream language of the Responses API, apart from the port.

Every event is untrusted. Its ``type`` picks its handler with one dict
lookup; a ``sequence_number``, when the stream numbers its events, must be
the previous one plus one. This module owns the response's life
(``response.created``, ``queued``, ``in_progress``, the terminal events and
the ``error`` event) and the response-level audio events; everything inside
``output`` is handled by `_responses_output` (items), `_responses_parts`
(content parts), `_responses_calls` (function calls), `_responses_reasoning`
and `_responses_tools`, over one `OutputItems`.

Over 300 lines on purpose: the response's life is one state machine (its
id, its numbering, its terminal, what may follow it) and the one table
that sends every event to its handler; split, the two would share the
machine's private state.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, final

from course_http import SseEvent, VendorErrorCode
from course_protocol.untrusted import shown
from course_provider_openai._failures import OpenAIFailures
from course_provider_openai._responses_calls import arguments_delta, arguments_done
from course_provider_openai._responses_dialect import OPENAI_RESPONSES, ResponsesDialect
from course_provider_openai._responses_items import OutputItems
from course_provider_openai._responses_output import check_terminal_output, item_added, item_done
from course_provider_openai._responses_parts import (
    annotation_added,
    output_text_delta,
    output_text_done,
    part_added,
    part_done,
    refusal_delta,
    refusal_done,
    stream_delta,
)
from course_provider_openai._responses_reasoning import (
    reasoning_text_delta,
    reasoning_text_done,
    summary_part_added,
    summary_part_done,
    summary_text_delta,
    summary_text_done,
)
from course_provider_openai._responses_result import (
    ResponsesError,
    ResponsesFunctionCall,
    ResponsesResult,
    ResponsesUsage,
)
from course_provider_openai._responses_states import (
    CallState,
    TextPart,
)
from course_provider_openai._responses_terminal import (
    read_error,
    read_incomplete_reason,
    read_response_error,
    read_usage,
)
from course_provider_openai._responses_tools import TOOL_EVENTS
from course_vendor import WireEvent, WireGrammar, event_object

__all__ = ["ResponsesGrammar"]

_Code = VendorErrorCode

_DONE: Final = "[DONE]"
_UNNAMED: Final = "message"
"""The name SSE gives a frame that has no ``event:`` line."""
_AUDIO: Final = {
    "response.audio.delta": ("audio", False),
    "response.audio.done": ("audio", True),
    "response.audio.transcript.delta": ("transcript", False),
    "response.audio.transcript.done": ("transcript", True),
}
"""Each response-level audio event: the stream it belongs to, and whether it closes it."""
_TERMINAL_STATUS: Final = {
    "response.completed": "completed",
    "response.incomplete": "incomplete",
    "response.failed": "failed",
}


@final
class ResponsesGrammar(WireGrammar[ResponsesResult]):
    """One streamed Responses body, judged one frame at a time: a ``course_vendor.WireGrammar``.

    The stream is ``response.created`` (or, before it, an ``error``), then
    ``queued``/``in_progress`` and the output items' events, and one
    terminal: ``response.completed``, ``response.incomplete``,
    ``response.failed``, or an ``error`` event, after which only a
    ``response.failed`` may follow. ``dialect`` is the server's
    `ResponsesDialect` (OpenAI's own by default): when it declares a
    ``done_marker``, one ``[DONE]`` frame is accepted after the terminal
    (what OpenRouter sends); anything else after the terminal, and any
    ``[DONE]`` on OpenAI's own stream, is ``VENDOR_EVENT_ORDER``.

    Raises `course_http.VendorError` (``vendor`` the dialect's wire,
    ``"openai-responses"`` for OpenAI's own):
    ``VENDOR_INVALID_EVENT`` for data that is not an event of the documented
    shape (an ``event:`` name other than its ``type``, ids that do not
    match, a ``.done`` text that differs from its deltas);
    ``VENDOR_UNKNOWN_EVENT`` for an event, item, part or annotation type the
    vendor does not document; ``VENDOR_EVENT_ORDER`` for a
    ``sequence_number`` that is not the previous one plus one, anything
    before ``response.created`` (but ``error``) or after the terminal, and
    events for items or parts that are not open;
    ``VENDOR_INVALID_TOOL_ARGUMENTS`` for function-call arguments that are
    not a JSON object; ``VENDOR_INVALID_TERMINAL`` for a terminal whose
    ``output`` contradicts the stream; `end` raises
    ``VENDOR_MISSING_TERMINAL`` when no terminal came.
    """

    __slots__ = (
        "_audio",
        "_dialect",
        "_error",
        "_failures",
        "_incomplete_reason",
        "_items",
        "_marked_done",
        "_model",
        "_next_sequence",
        "_numbered",
        "_response_error",
        "_response_id",
        "_status",
        "_usage",
        "_wire",
    )

    def __init__(self, dialect: ResponsesDialect = OPENAI_RESPONSES) -> None:
        super().__init__()
        self._dialect = dialect
        self._wire = dialect.wire
        self._failures = OpenAIFailures(dialect.wire)
        self._response_id: str | None = None
        self._model: str | None = None
        self._next_sequence: int | None = None
        self._numbered: bool | None = None
        self._items = OutputItems(self._failures)
        self._status: str | None = None
        self._usage: ResponsesUsage | None = None
        self._incomplete_reason: str | None = None
        self._error: ResponsesError | None = None
        self._response_error: ResponsesError | None = None
        self._audio: dict[str, TextPart] = {}
        self._marked_done = False

    def completed_call(self, output_index: int) -> ResponsesFunctionCall | None:
        """The function call at ``output_index`` once its arguments are complete, else ``None``.

        ``None`` too for an index that holds no function call. A new
        `ResponsesFunctionCall` each time, sharing the parsed arguments.
        """
        items = self._items
        if not 0 <= output_index < len(items):
            return None
        item = items[output_index]
        if type(item) is not CallState or item.arguments is None:
            return None
        return item.frozen()

    def _read(self, frame: SseEvent, index: int) -> WireEvent | None:
        # The hot path under course_stream.forward_source.
        if self._terminal:
            return self._after_terminal(frame, index)
        if frame.data == _DONE:
            self._failures.fail(
                _Code.VENDOR_EVENT_ORDER, index, "[DONE] comes before the terminal event"
            )
        data = event_object(frame.data, vendor=self._wire, index=index)
        kind = data.get("type")
        if type(kind) is not str:
            self._failures.invalid(index, "type", "a string", kind)
        handler = _OUTPUT_EVENTS.get(kind)
        if handler is None and kind not in _LIFE_EVENTS:
            self._failures.fail(
                _Code.VENDOR_UNKNOWN_EVENT, index, f"event type {shown(kind)!r} is not one it knows"
            )
        if frame.event != kind and frame.event != _UNNAMED:
            self._failures.fail(
                _Code.VENDOR_INVALID_EVENT, index, f"event name differs from its type {kind!r}"
            )
        sequence = data.get("sequence_number")
        if type(sequence) is int and sequence == self._next_sequence:
            self._next_sequence = sequence + 1
        else:
            self._sequence(data, index)
        if self._response_id is None and kind != "response.created" and kind != "error":
            self._failures.fail(
                _Code.VENDOR_EVENT_ORDER, index, f"{kind!r} comes before response.created"
            )
        if handler is not None:
            handler(self._items, data, index)
        else:
            _LIFE_EVENTS[kind](self, data, index)
        return data

    def _sequence(self, data: dict[str, Any], index: int) -> None:
        present = "sequence_number" in data
        if self._numbered is None:
            self._numbered = present
        if not present:
            if self._numbered:
                self._failures.fail(
                    _Code.VENDOR_INVALID_EVENT,
                    index,
                    "sequence_number is missing in a stream that numbers its events",
                )
            return
        if not self._numbered:
            self._failures.fail(
                _Code.VENDOR_INVALID_EVENT,
                index,
                "sequence_number appears in a stream whose first event had none",
            )
        sequence = data["sequence_number"]
        if type(sequence) is not int or sequence < 0:
            self._failures.invalid(index, "sequence_number", "a non-negative integer", sequence)
        if self._next_sequence is not None and sequence != self._next_sequence:
            self._failures.fail(
                _Code.VENDOR_EVENT_ORDER,
                index,
                f"sequence_number is {sequence}, expected {self._next_sequence}",
            )
        self._next_sequence = sequence + 1

    def _after_terminal(self, frame: SseEvent, index: int) -> WireEvent | None:
        marker = self._dialect.done_marker
        if frame.data == _DONE:
            if marker and not self._marked_done:
                self._marked_done = True
                return None
        # A frame that is not even an event says so first, wherever it is (as on Chat).
        elif self._closes_an_error(event_object(frame.data, vendor=self._wire, index=index)):
            self._terminal = False
            try:
                return self._read(frame, index)
            finally:
                self._terminal = True
        if self._marked_done:
            said = "follows [DONE]; nothing may"
        else:
            said = f"follows the terminal event; {'only [DONE]' if marker else 'nothing'} may"
        return self._failures.fail(_Code.VENDOR_EVENT_ORDER, index, said)

    def _closes_an_error(self, data: dict[str, Any]) -> bool:
        """Whether ``data`` is the ``response.failed`` the vendor may send after an error event."""
        return (
            self._status is None and not self._marked_done and data.get("type") == "response.failed"
        )

    def _response(self, data: dict[str, Any], index: int) -> dict[str, Any]:
        """The event's ``response``, whose ``id`` must be ``response.created``'s."""
        response = self._failures.object_at(data, "response", index)
        if response.get("id") != self._response_id:
            self._failures.fail(
                _Code.VENDOR_INVALID_EVENT, index, f"response.id differs from {self._response_id!r}"
            )
        return response

    def _created(self, data: dict[str, Any], index: int) -> None:
        if self._response_id is not None:
            self._failures.fail(_Code.VENDOR_EVENT_ORDER, index, "a second response.created")
        response = self._failures.object_at(data, "response", index)
        response_id = self._failures.text_at(
            response, "id", index, parent="response", non_blank=True
        )
        status = response.get("status")
        # A background response starts "queued" and streams like any other.
        if status is not None and status != "in_progress" and status != "queued":
            self._failures.invalid(index, "response.status", "in_progress or queued", status)
        model = response.get("model")
        if model is not None and type(model) is not str:
            self._failures.invalid(index, "response.model", "a string", model)
        self._model = model
        self._response_id = response_id

    def _progress(self, data: dict[str, Any], index: int) -> None:
        status = self._response(data, index).get("status")
        if status is not None and type(status) is not str:
            self._failures.invalid(index, "response.status", "a string", status)

    def _terminal_event(self, data: dict[str, Any], index: int) -> None:
        kind = data["type"]
        status = _TERMINAL_STATUS[kind]
        if kind == "response.completed":
            open_items = self._items.open_positions()
            if open_items:
                self._failures.fail(
                    _Code.VENDOR_EVENT_ORDER, index, f"output items {open_items} are still open"
                )
        response = self._response(data, index)
        given = response.get("status")
        if given is not None and given != status:
            self._failures.invalid(index, "response.status", repr(status), given)
        self._usage = read_usage(self._failures, response.get("usage"), index, "response.usage")
        if kind == "response.incomplete":
            self._incomplete_reason = read_incomplete_reason(self._failures, response, index)
        elif kind == "response.failed":
            self._response_error = read_response_error(self._failures, response, index)
        check_terminal_output(self._items, response.get("output"), index)
        self._status = status
        self._terminal = True

    def _error_event(self, data: dict[str, Any], index: int) -> None:
        # Recorded streams nest the fields in "error"; the official SDK reads them at the top.
        if "error" in data:
            self._error = read_error(
                self._failures, self._failures.object_at(data, "error", index), index, "error"
            )
        else:
            self._error = read_error(self._failures, data, index, "")
        self._terminal = True

    def _audio_event(self, data: dict[str, Any], index: int) -> None:
        stream, done = _AUDIO[data["type"]]
        part = self._audio.get(stream)
        if part is None:
            part = self._audio[stream] = TextPart(stream)
        if done:
            if part.text is not None:
                self._failures.fail(_Code.VENDOR_EVENT_ORDER, index, f"a second {data['type']}")
            part.joined()
        else:
            stream_delta(self._failures, part, data, index, f"{data['type'][:-6]}.done")

    def _result(self, frame_count: int) -> ResponsesResult:
        if not self._terminal:
            self._failures.fail(
                _Code.VENDOR_MISSING_TERMINAL,
                frame_count,
                "the stream ended without its terminal event (response.completed, "
                "response.incomplete, response.failed or error)",
            )
        return ResponsesResult(
            self._status,
            self._response_id,
            self._model,
            tuple(item.frozen() for item in self._items),
            self._usage,
            self._incomplete_reason,
            self._error,
            self._response_error,
            self._joined_audio("audio"),
            self._joined_audio("transcript"),
        )

    def _joined_audio(self, stream: str) -> str | None:
        part = self._audio.get(stream)
        return None if part is None else part.joined()


_Handler = Callable[[OutputItems, dict[str, Any], int], None]
_OUTPUT_EVENTS: Final[dict[str, _Handler]] = {
    "response.output_text.delta": output_text_delta,
    "response.function_call_arguments.delta": arguments_delta,
    "response.output_item.added": item_added,
    "response.output_item.done": item_done,
    "response.content_part.added": part_added,
    "response.content_part.done": part_done,
    "response.output_text.done": output_text_done,
    "response.output_text.annotation.added": annotation_added,
    "response.refusal.delta": refusal_delta,
    "response.refusal.done": refusal_done,
    "response.function_call_arguments.done": arguments_done,
    "response.reasoning_summary_part.added": summary_part_added,
    "response.reasoning_summary_part.done": summary_part_done,
    "response.reasoning_summary_text.delta": summary_text_delta,
    "response.reasoning_summary_text.done": summary_text_done,
    "response.reasoning_text.delta": reasoning_text_delta,
    "response.reasoning_text.done": reasoning_text_done,
    **TOOL_EVENTS,
}
"""The events inside ``output``; the text and argument deltas, the hot path, come first."""

_LifeHandler = Callable[[ResponsesGrammar, dict[str, Any], int], None]
_G = ResponsesGrammar
_LIFE_EVENTS: Final[dict[str, _LifeHandler]] = {
    "response.created": _G._created,
    "response.queued": _G._progress,
    "response.in_progress": _G._progress,
    "response.completed": _G._terminal_event,
    "response.incomplete": _G._terminal_event,
    "response.failed": _G._terminal_event,
    "error": _G._error_event,
    **dict.fromkeys(_AUDIO, _G._audio_event),
}
"""The events of the response's own life, and its response-level audio."""
