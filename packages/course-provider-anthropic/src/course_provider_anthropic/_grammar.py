"""MessagesGrammar: the Messages API's whole streaming language, read strictly, apart from the port.

Every event is untrusted: its ``data`` is decoded by `event_object` and read
field by field against what the vendor documents. This module dispatches
each event by its type and owns the message's own life (start, deltas,
stop, the in-stream error); each content block's reading is its kind's, in
`_blocks`. The dominant events (a text delta, an argument fragment) take one
dict lookup on the event type and one on the block index, and allocate
nothing but what the result keeps (the piece, in the block's `TextPieces`).

Over 300 lines on purpose: it is one state machine, the message's life
from ``message_start`` to its end, whose readers share the state of one
stream; split, they would share private state across modules.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, NoReturn, final

from course_http import SseEvent, VendorError, VendorErrorCode
from course_protocol import JsonObject, is_blank
from course_protocol.untrusted import described, shown
from course_provider_anthropic._blocks import TOOL_USE_KINDS, OpenBlock, open_block
from course_provider_anthropic._errors import read_error_event
from course_provider_anthropic._reads import (
    block_index,
    fail,
    fail_invalid,
    fail_order,
    frozen,
    invalid,
    object_at,
    optional_object,
    optional_text,
    text_at,
)
from course_provider_anthropic._result import (
    MessagesBlock,
    MessagesErrorEvent,
    MessagesResult,
    MessagesUsage,
)
from course_provider_anthropic._usage import merged_usage, start_usage
from course_provider_anthropic._wire import WIRE
from course_vendor import ToolCallIds, WireEvent, WireGrammar, event_object

__all__ = ["CUT_REASONS", "MessagesGrammar"]

CUT_REASONS: Final = frozenset({"max_tokens", "model_context_window_exceeded", "refusal"})
"""The stop reasons that may cut a block before its ``content_block_stop``: the output
limit (as ``max-tokens-mid-tool-json.sse`` shows), the context window, a refusal's
classifier. The blocks left open are kept, marked incomplete."""


@final
class MessagesGrammar(WireGrammar[MessagesResult]):
    """One streamed Messages API response, judged one server-sent event at a time.

    A ``course_vendor.WireGrammar``: `feed` (each frame, in order) returns
    the frame's validated event (``None`` for a ``ping``), `end` the
    `MessagesResult`. The grammar, as the vendor documents it and the
    official SDK reads it:

    - the ``event:`` name equals ``data.type``;
    - ``message_start`` (a message ``id``, role ``assistant``, empty
      ``content``, ``usage`` with ``input_tokens``), then content blocks
      numbered from 0 (``content_block_start``, its deltas,
      ``content_block_stop``; blocks may interleave), then one or more
      ``message_delta`` (no block open, unless its stop reason is one of
      `CUT_REASONS`: the blocks it cut stay incomplete), then
      ``message_stop``, after a ``message_delta`` gave a stop reason;
    - ``ping`` anywhere before the end; ``error`` anywhere before the end,
      which ends the stream (the result holds it);
    - nothing after ``message_stop`` or ``error``.

    Raises `VendorError` (``vendor`` ``"anthropic-messages"``,
    ``event_index`` the frame): ``VENDOR_INVALID_EVENT`` for data that is
    not a JSON object, a name that differs from the type, a field of the
    wrong type or missing, a Tool id used twice, a cumulative output count
    that goes down; ``VENDOR_UNKNOWN_EVENT`` for an event, block, delta or
    citation type the API does not stream (``vendor_type`` the type);
    ``VENDOR_EVENT_ORDER`` for an event out of place;
    ``VENDOR_INVALID_TOOL_ARGUMENTS`` for a finished Tool call whose
    arguments are not a JSON object; `end` raises
    ``VENDOR_MISSING_TERMINAL`` (``event_index`` = the frame count) for a
    body that ended before ``message_stop`` or ``error``. After its first
    error the grammar is spent.
    """

    __slots__ = (
        "_call_ids",
        "_closed",
        "_container",
        "_content",
        "_content_closed",
        "_error",
        "_message_id",
        "_model",
        "_open",
        "_output",
        "_stop_details",
        "_stop_reason",
        "_stop_sequence",
        "_usage",
    )

    def __init__(self) -> None:
        super().__init__()
        self._message_id: str | None = None
        self._model: str | None = None
        self._open: dict[int, OpenBlock] = {}
        # One slot per block started, at its index; None until the block closes.
        self._content: list[MessagesBlock | None] = []
        self._closed: MessagesBlock | None = None
        self._call_ids = ToolCallIds(WIRE)
        self._content_closed = False
        self._output: int | None = None
        self._stop_reason: str | None = None
        self._stop_sequence: str | None = None
        self._stop_details: JsonObject | None = None
        self._container: JsonObject | None = None
        self._usage: MessagesUsage | None = None
        self._error: MessagesErrorEvent | None = None

    @property
    def closed_block(self) -> MessagesBlock | None:
        """The block the last ``content_block_stop`` closed (``None`` before the first)."""
        return self._closed

    @property
    def error(self) -> MessagesErrorEvent | None:
        """The ``error`` event that ended the stream, or ``None`` while none did."""
        return self._error

    @property
    def usage(self) -> MessagesUsage | None:
        """The usage so far: ``message_start`` 's, merged with every ``message_delta`` 's."""
        return self._usage

    def _read(self, frame: SseEvent, index: int) -> WireEvent | None:
        # The hot path under the mapping and the strict check.
        data = event_object(frame.data, vendor=WIRE, index=index)
        kind = data.get("type")
        reader = _READERS.get(kind) if type(kind) is str else None
        if reader is None or frame.event != kind or self._terminal:
            self._refuse(frame, kind, index)
        return reader(self, data, index)

    def _result(self, frame_count: int) -> MessagesResult:
        if not self._terminal:
            raise VendorError(
                VendorErrorCode.VENDOR_MISSING_TERMINAL,
                f"the stream ended after {frame_count} event(s) without message_stop",
                vendor=WIRE,
                event_index=frame_count,
            )
        # Only an error event leaves blocks open here: they stay incomplete.
        self._cut(frame_count)
        return MessagesResult(
            id=self._message_id,
            model=self._model,
            content=tuple(block for block in self._content if block is not None),
            stop_reason=self._stop_reason,
            stop_sequence=self._stop_sequence,
            stop_details=self._stop_details,
            container=self._container,
            usage=self._usage,
            error=self._error,
        )

    def _refuse(self, frame: SseEvent, kind: object, index: int) -> NoReturn:
        if type(kind) is not str:
            invalid(index, "type", "a string", kind)
        if frame.event != kind:
            fail_invalid(
                f"the event name {shown(frame.event)!r} differs from its data type {shown(kind)!r}",
                index,
            )
        if self._terminal:
            ended = "error" if self._error is not None else "message_stop"
            fail_order(f"{shown(kind)} follows {ended}; nothing may", index)
        fail(
            VendorErrorCode.VENDOR_UNKNOWN_EVENT,
            index,
            f"{shown(kind)!r} is not a known event type",
            vendor_type=kind,
        )

    def _require_start(self, kind: str, index: int) -> None:
        if self._message_id is None:
            fail_order(f"{kind} comes before message_start", index)

    def _no_block(self, kind: str, position: int, index: int) -> NoReturn:
        self._require_start(kind, index)
        if position < len(self._content):
            fail_order(f"{kind} for block {position}, which already stopped", index)
        fail_order(f"{kind} for block {described(position)}, which never started", index)

    def _message_start(self, data: dict[str, Any], index: int) -> WireEvent:
        if self._message_id is not None:
            fail_order("a second message_start", index)
        message = object_at(data, "message", index)
        message_id = text_at(message, "id", index, parent="message", non_blank=True)
        if message.get("role") != "assistant":
            fail_invalid("message.role must be 'assistant'", index)
        if message.get("type", "message") != "message":
            fail_invalid("message.type must be 'message'", index)
        content = message.get("content", [])
        if type(content) is not list or content:
            # Streamed content arrives in block events; a start that already
            # holds some would be a second source of it.
            fail_invalid("message.content must be an empty list", index)
        if message.get("stop_reason") is not None:
            fail_invalid("message.stop_reason must be null in message_start", index)
        model = optional_text(message, "model", index, parent="message")
        usage = start_usage(object_at(message, "usage", index, parent="message"), index)
        self._model = model
        self._usage = usage
        self._message_id = message_id
        return data

    def _block_start(self, data: dict[str, Any], index: int) -> WireEvent:
        self._require_start("content_block_start", index)
        if self._content_closed:
            fail_order("content_block_start follows message_delta", index)
        position = block_index(data, index)
        expected = len(self._content)
        if position != expected:
            problem = (
                "starts again" if position < expected else f"skips ahead (expected {expected})"
            )
            fail_order(f"content_block_start: block {described(position)} {problem}", index)
        block = open_block(object_at(data, "content_block", index), position, index)
        if block.kind in TOOL_USE_KINDS:
            self._call_ids.claim(data["content_block"]["id"], index, "content_block.id")
        self._open[position] = block
        self._content.append(None)
        return data

    def _block_delta(self, data: dict[str, Any], index: int) -> WireEvent:
        # The dominant events (a text delta, an argument fragment) take this
        # short path; anything else, failures included, the checked one.
        position = data.get("index")
        block = self._open.get(position) if type(position) is int else None
        if block is not None:
            delta = data.get("delta")
            if type(delta) is dict and delta.get("type") == block.delta_type:
                piece = delta.get(block.delta_key)
                if type(piece) is str:
                    block.parts.append(piece)
                    return data
        self._unusual_delta(data, index)
        return data

    def _unusual_delta(self, data: dict[str, Any], index: int) -> None:
        position = block_index(data, index)
        block = self._open.get(position)
        if block is None:
            self._no_block("content_block_delta", position, index)
        delta = object_at(data, "delta", index)
        kind = delta.get("type")
        if type(kind) is not str:
            invalid(index, "delta.type", "a string", kind)
        if kind == block.delta_type:
            invalid(index, f"delta.{block.delta_key}", "a string", delta.get(block.delta_key))
        block.take(delta, kind, index)

    def _block_stop(self, data: dict[str, Any], index: int) -> WireEvent:
        position = block_index(data, index)
        block = self._open.pop(position, None)
        if block is None:
            self._no_block("content_block_stop", position, index)
        closed = block.close(index, complete=True)
        self._content[position] = closed
        self._closed = closed
        return data

    def _message_delta(self, data: dict[str, Any], index: int) -> WireEvent:
        self._require_start("message_delta", index)
        delta = object_at(data, "delta", index)
        reason = delta.get("stop_reason")
        if reason is not None and (type(reason) is not str or is_blank(reason)):
            fail_invalid("delta.stop_reason must be a non-blank string or null", index)
        sequence = optional_text(delta, "stop_sequence", index, parent="delta")
        details = optional_object(delta, "stop_details", index, parent="delta")
        if details is not None:
            text_at(details, "type", index, parent="delta.stop_details", non_blank=True)
            for key in ("category", "explanation"):
                optional_text(details, key, index, parent="delta.stop_details")
        container = optional_object(delta, "container", index, parent="delta")
        usage = merged_usage(self._usage_so_far(), object_at(data, "usage", index), index)
        output = usage.output_tokens
        if self._output is not None and output is not None and output < self._output:
            fail_invalid(f"usage.output_tokens is cumulative; it went down to {output}", index)
        if self._open and reason not in CUT_REASONS:
            fail_order(f"message_delta while block {min(self._open)} is still open", index)
        if reason is not None:
            self._stop_reason = reason
            self._stop_sequence = sequence
            self._stop_details = (
                None if details is None else frozen(details, index, "delta.stop_details")
            )
        if container is not None:
            self._container = frozen(container, index, "delta.container")
        self._usage = usage
        self._output = output
        self._content_closed = True
        self._cut(index)
        return data

    def _usage_so_far(self) -> MessagesUsage:
        # _require_start came first: message_start set the usage.
        usage = self._usage
        assert usage is not None
        return usage

    def _cut(self, index: int) -> None:
        for position in sorted(self._open):
            self._content[position] = self._open[position].close(index, complete=False)
        self._open.clear()

    def _message_stop(self, data: dict[str, Any], index: int) -> WireEvent:
        self._require_start("message_stop", index)
        if self._output is None:
            fail_order("message_stop comes before message_delta", index)
        if self._stop_reason is None:
            fail_invalid("no message_delta gave a stop_reason", index)
        self._terminal = True
        return data

    def _ping(self, data: dict[str, Any], index: int) -> None:
        return None

    def _error_event(self, data: dict[str, Any], index: int) -> WireEvent:
        self._error = read_error_event(data, index)
        self._terminal = True
        return data


_Reader = Callable[[MessagesGrammar, dict[str, Any], int], WireEvent | None]
_READERS: dict[str, _Reader] = {
    "content_block_delta": MessagesGrammar._block_delta,
    "ping": MessagesGrammar._ping,
    "content_block_start": MessagesGrammar._block_start,
    "content_block_stop": MessagesGrammar._block_stop,
    "message_start": MessagesGrammar._message_start,
    "message_delta": MessagesGrammar._message_delta,
    "message_stop": MessagesGrammar._message_stop,
    "error": MessagesGrammar._error_event,
}
"""Every event type's reader, the block delta (the hot path) first."""
