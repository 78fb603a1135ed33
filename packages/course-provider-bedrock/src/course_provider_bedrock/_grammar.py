"""ConverseGrammar: the ConverseStream output's whole language, read strictly, apart from the port.

Each event arrives as `ConverseDecoder` named it (its ``:event-type``, or
``exception:``/``error:`` and its type); its payload is decoded by
`event_object` and read field by field against the API reference. The
dominant event (a text or argument delta) takes one dict lookup on the
event name and one on the block index, and allocates nothing but the piece.

Where the reference is silent (which events may come in which order),
this follows what the service sends and what botocore accepts: a text or
reasoning block has no ``contentBlockStart`` (its first delta opens it),
a ``toolUse`` block always has one; ``metadata`` comes after
``messageStop``, once, and botocore reads a stream without it.

Over 300 lines on purpose: it is one state machine, the message's life from
``messageStart`` to its end, whose readers and block folds share the state
of one stream.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, NoReturn, final

from course_http import SseEvent, VendorErrorCode
from course_protocol import JsonObject
from course_protocol.untrusted import described, shown
from course_provider_bedrock._reads import (
    block_index,
    count_at,
    fail,
    fail_invalid,
    fail_order,
    frozen,
    invalid,
    object_at,
    text_at,
)
from course_provider_bedrock._result import (
    ConverseBlock,
    ConverseException,
    ConverseMetadata,
    ConverseOpaqueBlock,
    ConverseReasoningBlock,
    ConverseResult,
    ConverseTextBlock,
    ConverseToolUseBlock,
    ConverseUsage,
)
from course_provider_bedrock._wire import ERROR_PREFIX, EXCEPTION_PREFIX, WIRE
from course_vendor import (
    TextPieces,
    ToolCallIds,
    WireEvent,
    WireGrammar,
    event_object,
    tool_arguments,
)

__all__ = ["CUT_REASONS", "EXCEPTION_TYPES", "ConverseGrammar"]

EXCEPTION_TYPES: Final = frozenset(
    {
        "internalServerException",
        "modelStreamErrorException",
        "validationException",
        "throttlingException",
        "serviceUnavailableException",
    }
)
"""The exceptions ConverseStreamOutput documents as stream members."""

CUT_REASONS: Final = frozenset(
    {"max_tokens", "model_context_window_exceeded", "guardrail_intervened", "content_filtered"}
)
"""The stop reasons that may leave a block without its ``contentBlockStop``: it stays incomplete."""

_DELTA_KINDS: Final = frozenset(
    {"text", "toolUse", "reasoningContent", "citation", "toolResult", "image"}
)
_START_KINDS: Final = frozenset({"toolUse", "toolResult", "image"})
_BLOCK_OF_DELTA: Final = {
    "text": "text",
    "citation": "text",
    "reasoningContent": "reasoningContent",
    "toolUse": "toolUse",
    "toolResult": "toolResult",
    "image": "image",
}
"""The block kind each delta belongs to."""
_IMPLICIT: Final = frozenset({"text", "reasoningContent"})
"""The block kinds a first delta opens (the service sends them no ``contentBlockStart``)."""
_REASONING_KEYS: Final = ("text", "signature", "redactedContent")


class _OpenBlock:
    """One block while it streams: its kind, the delta its short path appends, and the rest."""

    __slots__ = ("citations", "deltas", "fields", "kind", "parts", "redacted", "signature", "start")

    def __init__(self, kind: str, start: dict[str, Any] | None) -> None:
        self.kind = kind
        self.start = start
        self.parts = TextPieces()
        self.citations: list[JsonObject] = []
        self.deltas: list[JsonObject] = []
        self.signature: str | None = None
        self.redacted: TextPieces | None = None
        self.fields: JsonObject | None = None


@final
class ConverseGrammar(WireGrammar[ConverseResult]):
    """One ConverseStream response, judged one event-stream message at a time.

    A ``course_vendor.WireGrammar`` over the events `ConverseDecoder`
    makes: `feed` returns each event's validated payload, `end` the
    `ConverseResult`. The grammar, as the API reference documents it:

    - ``messageStart`` (``role`` ``assistant``) first;
    - content blocks numbered from 0, each opened by its
      ``contentBlockStart`` (``toolUse`` with ``toolUseId`` and ``name``,
      ``toolResult``, ``image``) or, for text and reasoning, by its first
      ``contentBlockDelta``; deltas of the block's own kind (``text`` and
      ``citation`` for text, ``reasoningContent`` with one of ``text``,
      ``signature``, ``redactedContent``, ``toolUse.input`` fragments,
      ``toolResult``, ``image``); ``contentBlockStop``;
    - ``messageStop`` with a ``stopReason`` (no block open, unless the
      reason is one of `CUT_REASONS`), the terminal event; then at most one
      ``metadata`` (``usage`` with ``inputTokens``, ``outputTokens``,
      ``totalTokens``, the cache counts; ``metrics``; ``trace`` and the rest
      kept as sent);
    - one of `EXCEPTION_TYPES` (or an ``error`` message) anywhere before
      the end, which ends the stream (the result holds it).

    Raises `VendorError` (``vendor`` ``"bedrock-converse"``, ``event_index``
    the message): ``VENDOR_INVALID_EVENT`` for a payload that is not a JSON
    object, a field missing or of the wrong type, a Tool id used twice;
    ``VENDOR_UNKNOWN_EVENT`` for an event, exception, start or delta kind
    the API does not document (``vendor_type`` the kind);
    ``VENDOR_EVENT_ORDER`` for an event out of place (a delta for a block
    that never started or already stopped, a second ``messageStop``,
    anything after the end); ``VENDOR_INVALID_TOOL_ARGUMENTS`` for a
    finished ``toolUse`` whose input is not a JSON object; `end` raises
    ``VENDOR_MISSING_TERMINAL`` for a body that ended before
    ``messageStop`` or an exception. After its first error the grammar is spent.
    """

    __slots__ = (
        "_additional",
        "_call_ids",
        "_closed",
        "_content",
        "_exception",
        "_metadata",
        "_open",
        "_role",
        "_stop_reason",
    )

    def __init__(self) -> None:
        super().__init__()
        self._role: str | None = None
        self._open: dict[int, _OpenBlock] = {}
        # One slot per block opened, at its index; None until the block closes.
        self._content: list[ConverseBlock | None] = []
        self._closed: ConverseBlock | None = None
        self._call_ids = ToolCallIds(WIRE)
        self._stop_reason: str | None = None
        self._additional: Any = None
        self._metadata: ConverseMetadata | None = None
        self._exception: ConverseException | None = None

    @property
    def closed_block(self) -> ConverseBlock | None:
        """The block the last ``contentBlockStop`` closed (``None`` before the first)."""
        return self._closed

    @property
    def exception(self) -> ConverseException | None:
        """The exception that ended the stream, or ``None`` while none did."""
        return self._exception

    @property
    def metadata(self) -> ConverseMetadata | None:
        """The ``metadata`` event, once it came."""
        return self._metadata

    def _read(self, frame: SseEvent, index: int) -> WireEvent | None:
        # The hot path under the mapping and the strict check.
        data = event_object(frame.data, vendor=WIRE, index=index)
        reader = _READERS.get(frame.event)
        if reader is None:
            return self._exception_event(frame.event, data, index)
        if self._terminal and reader is not ConverseGrammar._metadata_event:
            self._after_end(frame.event, index)
        return reader(self, data, index)

    def _exception_event(self, name: str, data: dict[str, Any], index: int) -> WireEvent:
        if name.startswith(EXCEPTION_PREFIX):
            kind = name[len(EXCEPTION_PREFIX) :]
            if kind not in EXCEPTION_TYPES:
                fail(
                    VendorErrorCode.VENDOR_UNKNOWN_EVENT,
                    index,
                    f"{shown(kind)!r} is not a documented ConverseStream exception",
                    vendor_type=kind,
                )
        elif name.startswith(ERROR_PREFIX):
            kind = name[len(ERROR_PREFIX) :]
        else:
            fail(
                VendorErrorCode.VENDOR_UNKNOWN_EVENT,
                index,
                f"{shown(name)!r} is not a known event type",
                vendor_type=name,
            )
        if self._terminal:
            self._after_end(name, index)
        message = data.get("message", "")
        if type(message) is not str:
            invalid(index, "message", "a string", message)
        others = {key: value for key, value in data.items() if key != "message"}
        self._exception = ConverseException(kind, message, frozen(others, index, "exception"))
        self._terminal = True
        return data

    def _after_end(self, name: str, index: int) -> NoReturn:
        ended = "an exception" if self._exception is not None else "messageStop"
        fail_order(f"{shown(name)} follows {ended}; nothing may, but one metadata", index)

    def _result(self, frame_count: int) -> ConverseResult:
        if not self._terminal:
            fail(
                VendorErrorCode.VENDOR_MISSING_TERMINAL,
                frame_count,
                f"the stream ended after {frame_count} event(s) without messageStop",
            )
        self._cut(frame_count)
        return ConverseResult(
            role=self._role,
            content=tuple(block for block in self._content if block is not None),
            stop_reason=self._stop_reason,
            additional_fields=self._additional,
            metadata=self._metadata,
            exception=self._exception,
        )

    def _message_start(self, data: dict[str, Any], index: int) -> WireEvent:
        if self._role is not None:
            fail_order("a second messageStart", index)
        if data.get("role") != "assistant":
            invalid(index, "role", "'assistant'", data.get("role"))
        self._role = "assistant"
        return data

    def _require_start(self, name: str, index: int) -> None:
        if self._role is None:
            fail_order(f"{name} comes before messageStart", index)

    def _block_start(self, data: dict[str, Any], index: int) -> WireEvent:
        self._require_start("contentBlockStart", index)
        position = self._new_position(data, index, "contentBlockStart")
        start = object_at(data, "start", index)
        kind = _only_key(start, index, "start", _START_KINDS)
        body = object_at(start, kind, index, parent="start")
        block = _OpenBlock(kind, body)
        if kind == "toolUse":
            call_id = text_at(body, "toolUseId", index, parent="start.toolUse", non_blank=True)
            text_at(body, "name", index, parent="start.toolUse", non_blank=True)
            self._call_ids.claim(call_id, index, "start.toolUse.toolUseId")
            others = {key: value for key, value in body.items() if key not in ("toolUseId", "name")}
            block.fields = frozen(others, index, "start.toolUse")
        else:
            frozen(body, index, f"start.{kind}")
        self._open[position] = block
        self._content.append(None)
        return data

    def _new_position(self, data: dict[str, Any], index: int, name: str) -> int:
        position = block_index(data, index)
        expected = len(self._content)
        if position != expected:
            if position < expected:
                fail_order(f"{name}: block {position} started before", index)
            fail_order(f"{name}: block {position} never started (expected {expected})", index)
        return position

    def _block_delta(self, data: dict[str, Any], index: int) -> WireEvent:
        # The dominant events take this short path; anything else the checked one.
        block = self._open.get(data.get("contentBlockIndex"))  # type: ignore[arg-type]
        if block is not None:
            delta = data.get("delta")
            if type(delta) is dict and len(delta) == 1:
                kind = block.kind
                piece = delta.get(kind)
                if kind == "text" and type(piece) is str:
                    block.parts.append(piece)
                    return data
                if kind == "toolUse" and type(piece) is dict and len(piece) == 1:
                    fragment = piece.get("input")
                    if type(fragment) is str:
                        block.parts.append(fragment)
                        return data
        self._unusual_delta(data, index)
        return data

    def _unusual_delta(self, data: dict[str, Any], index: int) -> None:
        self._require_start("contentBlockDelta", index)
        position = block_index(data, index)
        delta = object_at(data, "delta", index)
        kind = _only_key(delta, index, "delta", _DELTA_KINDS)
        block = self._open.get(position)
        if block is None:
            owner = _BLOCK_OF_DELTA[kind]
            if position < len(self._content):
                fail_order(f"a {kind} delta for block {position}, which already stopped", index)
            if owner not in _IMPLICIT or self._stop_reason is not None:
                fail_order(
                    f"a {kind} delta for block {described(position)}, which never started", index
                )
            position = self._new_position(data, index, "contentBlockDelta")
            block = _OpenBlock(owner, None)
            self._open[position] = block
            self._content.append(None)
        if _BLOCK_OF_DELTA[kind] != block.kind:
            fail_order(f"a {kind} delta for block {position}, a {block.kind} block", index)
        _take(block, kind, delta[kind], index)

    def _block_stop(self, data: dict[str, Any], index: int) -> WireEvent:
        position = block_index(data, index)
        block = self._open.pop(position, None)
        if block is None:
            self._require_start("contentBlockStop", index)
            problem = "already stopped" if position < len(self._content) else "never started"
            fail_order(f"contentBlockStop for block {position}, which {problem}", index)
        closed = _close(block, index, complete=True)
        self._content[position] = closed
        self._closed = closed
        return data

    def _message_stop(self, data: dict[str, Any], index: int) -> WireEvent:
        self._require_start("messageStop", index)
        reason = text_at(data, "stopReason", index, non_blank=True)
        if self._open and reason not in CUT_REASONS:
            fail_order(f"messageStop while block {min(self._open)} is still open", index)
        if data.get("additionalModelResponseFields") is not None:
            self._additional = frozen(
                data["additionalModelResponseFields"], index, "additionalModelResponseFields"
            )
        self._stop_reason = reason
        self._cut(index)
        self._terminal = True
        return data

    def _metadata_event(self, data: dict[str, Any], index: int) -> WireEvent:
        if self._stop_reason is None:
            self._require_start("metadata", index)
            fail_order("metadata comes before messageStop", index)
        if self._metadata is not None or self._exception is not None:
            fail_order("a second metadata", index)
        usage = object_at(data, "usage", index)
        counts = {}
        for key in ("inputTokens", "outputTokens", "totalTokens"):
            counts[key] = count_at(usage, key, index, parent="usage")
            if counts[key] is None:
                invalid(index, f"usage.{key}", "an integer from 0 to 2**53 - 1", None)
        cache_read = count_at(usage, "cacheReadInputTokens", index, parent="usage")
        cache_write = count_at(usage, "cacheWriteInputTokens", index, parent="usage")
        details = {key: value for key, value in usage.items() if key not in _USAGE_COUNTS}
        metrics = frozen(data.get("metrics"), index, "metrics")
        others = {key: value for key, value in data.items() if key not in ("usage", "metrics")}
        for key, value in others.items():
            frozen(value, index, key)
        self._metadata = ConverseMetadata(
            usage=ConverseUsage(
                input_tokens=counts["inputTokens"],  # type: ignore[arg-type]
                output_tokens=counts["outputTokens"],  # type: ignore[arg-type]
                total_tokens=counts["totalTokens"],  # type: ignore[arg-type]
                cache_read_input_tokens=cache_read,
                cache_write_input_tokens=cache_write,
                details=frozen(details, index, "usage"),
            ),
            metrics=metrics,
            fields=frozen(others, index, "metadata"),
        )
        return data

    def _cut(self, index: int) -> None:
        for position in sorted(self._open):
            self._content[position] = _close(self._open[position], index, complete=False)
        self._open.clear()


def _only_key(union: dict[str, Any], index: int, path: str, kinds: frozenset[str]) -> str:
    """The one member set in the union object ``union`` (at ``path``), one of ``kinds``.

    Raises ``VENDOR_INVALID_EVENT`` for an object with no member or more
    than one, ``VENDOR_UNKNOWN_EVENT`` for a member the API does not document.
    """
    if len(union) != 1:
        fail_invalid(f"{path} must hold exactly one member, got {sorted(union)[:4]}", index)
    (kind,) = union
    if kind not in kinds:
        fail(
            VendorErrorCode.VENDOR_UNKNOWN_EVENT,
            index,
            f"{path}.{shown(kind)} is not a documented member",
            vendor_type=kind,
        )
    return kind


def _take(block: _OpenBlock, kind: str, value: object, index: int) -> None:
    """Apply the ``kind`` delta ``value`` to ``block`` (whose kind it belongs to)."""
    path = f"delta.{kind}"
    if kind == "text":
        if type(value) is not str:
            invalid(index, path, "a string", value)
        block.parts.append(value)
    elif kind == "toolUse":
        body = frozen(value, index, path)
        fragment = body.get("input")
        if type(fragment) is not str:
            invalid(index, f"{path}.input", "a string", fragment)
        block.parts.append(fragment)
    elif kind == "reasoningContent":
        body = frozen(value, index, path)
        member = _only_key(dict(body), index, path, frozenset(_REASONING_KEYS))
        piece = body[member]
        if type(piece) is not str:
            invalid(index, f"{path}.{member}", "a string", piece)
        if member == "text":
            block.parts.append(piece)
        elif member == "signature":
            block.signature = piece
        else:
            if block.redacted is None:
                block.redacted = TextPieces()
            block.redacted.append(piece)
    elif kind == "citation":
        block.citations.append(frozen(value, index, path))
    elif kind == "toolResult":
        if type(value) is not list:
            invalid(index, path, "an array of objects", value)
        for position, entry in enumerate(value):
            block.deltas.append(frozen(entry, index, f"{path}[{position}]"))
    else:
        block.deltas.append(frozen(value, index, path))


def _close(block: _OpenBlock, index: int, *, complete: bool) -> ConverseBlock:
    """The result of ``block``, closed at event ``index`` (cut unless ``complete``)."""
    kind = block.kind
    if kind == "text":
        return ConverseTextBlock(block.parts.joined(), tuple(block.citations), complete)
    if kind == "reasoningContent":
        redacted = None if block.redacted is None else block.redacted.joined()
        return ConverseReasoningBlock(block.parts.joined(), block.signature, redacted, complete)
    if kind == "toolUse":
        start = block.start
        # A toolUse block opens only with its start, which the grammar read.
        assert start is not None
        assert block.fields is not None
        text = block.parts.joined()
        arguments = (
            tool_arguments(text, vendor=WIRE, index=index, path="toolUse.input")
            if complete
            else None
        )
        return ConverseToolUseBlock(
            id=start["toolUseId"],
            name=start["name"],
            input=arguments,
            partial_input=None if complete else text,
            fields=block.fields,
            complete=complete,
        )
    start_body = None if block.start is None else frozen(block.start, index, f"start.{kind}")
    return ConverseOpaqueBlock(kind, start_body, tuple(block.deltas), complete)


_USAGE_COUNTS: Final = frozenset(
    {"inputTokens", "outputTokens", "totalTokens", "cacheReadInputTokens", "cacheWriteInputTokens"}
)

_Reader = Callable[[ConverseGrammar, dict[str, Any], int], WireEvent]
_READERS: dict[str, _Reader] = {
    "contentBlockDelta": ConverseGrammar._block_delta,
    "contentBlockStart": ConverseGrammar._block_start,
    "contentBlockStop": ConverseGrammar._block_stop,
    "messageStart": ConverseGrammar._message_start,
    "messageStop": ConverseGrammar._message_stop,
    "metadata": ConverseGrammar._metadata_event,
}
"""Every event type's reader, the block delta (the hot path) first."""
