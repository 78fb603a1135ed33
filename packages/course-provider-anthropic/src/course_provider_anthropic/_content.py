"""The content blocks of one streamed message, each from its ``content_block_start`` to its stop.

`ContentBlockParser` is the first half of the Messages state machine, the
base `MessagesStreamParser` builds on: the state of the blocks and the
handlers of the three block events. Blocks are numbered by ``index`` from 0
and start in that order. Each keeps its pieces until its
``content_block_stop``: then a text block becomes one course text block, and
a ``tool_use`` block one Tool call, its argument fragments joined and parsed
once (a long call costs linear time). Text pieces are course chunks at once.
"""

from __future__ import annotations

from typing import Any, NoReturn

from course_protocol import (
    CourseAssistantContent,
    CourseModelChunk,
    CourseTextBlock,
    CourseTextDeltaChunk,
    CourseToolCall,
    CourseToolCallChunk,
)
from course_protocol.untrusted import described
from course_provider_anthropic import _wire
from course_provider_anthropic._blocks import OpenBlock, open_block, refuse_delta
from course_provider_anthropic._reads import (
    block_index,
    fail_order,
    object_at,
)
from course_vendor import OneChunkStreamParser, ToolCallIds, tool_arguments

__all__ = ["ContentBlockParser"]

_V = _wire.VENDOR


class ContentBlockParser(OneChunkStreamParser):
    """The content-block events of one streamed message, and the blocks they build.

    The base of `MessagesStreamParser`, which dispatches every event and
    owns the message's own life (it sets ``_message_id`` at
    ``message_start`` and ``_content_closed`` at ``message_delta``). Each
    block handler takes the event's decoded ``data`` and its ``index`` and
    returns the chunk the event makes, or ``None``; each raises
    `VendorError`: ``VENDOR_EVENT_ORDER`` for a block event before
    ``message_start``, a block started after ``message_delta`` or out of
    index order, or an event for a block that is not open;
    ``VENDOR_INVALID_EVENT`` for a field of the wrong type or a Tool id used
    twice; what `open_block` and `refuse_delta` raise; and
    ``VENDOR_INVALID_TOOL_ARGUMENTS`` when a Tool call's arguments are not a
    JSON object.
    """

    __slots__ = ("_call_ids", "_content", "_content_closed", "_message_id", "_open")

    def __init__(self, request_id: str) -> None:
        super().__init__(request_id)
        self._message_id: str | None = None
        self._open: dict[int, OpenBlock] = {}
        # One slot per block started, at its index; None for a block that
        # gives the message nothing (thinking, empty text) or has not stopped.
        self._content: list[CourseAssistantContent | None] = []
        self._call_ids = ToolCallIds(_V)
        self._content_closed = False

    def _require_start(self, kind: str, index: int) -> None:
        if self._message_id is None:
            fail_order(f"{kind} comes before {_wire.MESSAGE_START}", index)

    def _no_block(self, kind: str, position: int, index: int) -> NoReturn:
        self._require_start(kind, index)
        if position < len(self._content):
            fail_order(f"{kind} for block {position}, which already stopped", index)
        fail_order(f"{kind} for block {described(position)}, which never started", index)

    def _block_start(self, data: dict[str, Any], index: int) -> CourseModelChunk | None:
        kind = _wire.CONTENT_BLOCK_START
        self._require_start(kind, index)
        if self._content_closed:
            fail_order(f"{kind} follows {_wire.MESSAGE_DELTA}", index)
        position = block_index(data, index)
        expected = len(self._content)
        if position != expected:
            problem = (
                "starts again" if position < expected else f"skips ahead (expected {expected})"
            )
            fail_order(f"{kind}: block {described(position)} {problem}", index)
        block = open_block(object_at(data, _wire.CONTENT_BLOCK_KEY, index), index)
        if block.kind == _wire.TOOL_USE:
            self._call_ids.claim(block.tool_id, index, f"{_wire.CONTENT_BLOCK_KEY}.{_wire.ID_KEY}")
        self._open[position] = block
        self._content.append(None)
        if block.parts:
            # Only the initial text is in a block that has just started.
            return CourseTextDeltaChunk(self._request_id, block.parts.joined())
        return None

    def _block_delta(self, data: dict[str, Any], index: int) -> CourseModelChunk | None:
        # The dominant events (a text delta, an argument fragment) take this
        # short path; anything else, failures included, the checked one.
        position = data.get(_wire.INDEX_KEY)
        block = self._open.get(position) if type(position) is int else None
        if block is not None:
            delta = data.get(_wire.DELTA_KEY)
            if type(delta) is dict and delta.get(_wire.TYPE_KEY) == block.delta_type:
                piece = delta.get(block.delta_key)
                if type(piece) is str:
                    block.parts.append(piece)
                    if block.emits:
                        return CourseTextDeltaChunk(self._request_id, piece)
                    return None
        self._unusual_delta(data, index)
        return None

    def _unusual_delta(self, data: dict[str, Any], index: int) -> None:
        position = block_index(data, index)
        block = self._open.get(position)
        if block is None:
            self._no_block(_wire.CONTENT_BLOCK_DELTA, position, index)
        refuse_delta(block, object_at(data, _wire.DELTA_KEY, index), index)

    def _block_stop(self, data: dict[str, Any], index: int) -> CourseModelChunk | None:
        position = block_index(data, index)
        block = self._open.pop(position, None)
        if block is None:
            self._no_block(_wire.CONTENT_BLOCK_STOP, position, index)
        if block.kind == _wire.TEXT:
            text = block.parts.joined()
            if text:
                self._content[position] = CourseTextBlock(text)
            return None
        if block.kind != _wire.TOOL_USE:
            return None
        arguments = tool_arguments(
            block.parts.joined(),
            vendor=_V,
            index=index,
            path=f"block {position} {_wire.INPUT_KEY}",
        )
        call = CourseToolCall(block.tool_id, block.name, arguments)
        self._content[position] = call
        return CourseToolCallChunk(self._request_id, call)
