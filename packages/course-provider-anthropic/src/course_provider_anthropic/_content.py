"""The content blocks of one streamed message, each from its ``content_block_start`` to its stop.

Blocks are numbered by ``index`` from 0 and start in that order. Each keeps
its pieces until its ``content_block_stop``: then a text block becomes one
course text block, and a ``tool_use`` block one Tool call, its argument
fragments joined and parsed once (a long call costs linear time). Text
pieces are course chunks at once.
"""

from __future__ import annotations

from typing import Any, NoReturn, final

from course_http import tool_arguments
from course_protocol import (
    CourseAssistantContent,
    CourseModelChunk,
    CourseTextBlock,
    CourseTextDeltaChunk,
    CourseToolCall,
    CourseToolCallChunk,
)
from course_provider_anthropic import _wire
from course_provider_anthropic._blocks import OpenBlock, open_block, refuse_delta
from course_provider_anthropic._reads import (
    SHOWN_LENGTH,
    block_index,
    fail_invalid,
    fail_order,
    object_at,
    shown,
)

__all__ = ["MessageContent"]


@final
class MessageContent:
    """The blocks of one message so far, and the chunks their events make.

    The parser sets `started` at ``message_start`` and `closed` at
    ``message_delta``. Each event method takes the event's decoded ``data``
    and its ``index`` and returns the chunk the event makes, or ``None``;
    each raises `VendorError`: ``VENDOR_EVENT_ORDER`` for a block event
    before ``message_start``, a block started after ``message_delta`` or out
    of index order, or an event for a block that is not open;
    ``VENDOR_INVALID_EVENT`` for a field of the wrong type or a Tool id used
    twice; what `open_block` and `refuse_delta` raise; and
    ``VENDOR_INVALID_TOOL_ARGUMENTS`` when a Tool call's arguments are not a
    JSON object.
    """

    __slots__ = ("_call_ids", "_request_id", "_stopped", "closed", "open_blocks", "started")

    def __init__(self, request_id: str) -> None:
        self._request_id = request_id
        self.started = False
        """Whether ``message_start`` came: no block event may come before it."""
        self.closed = False
        """Whether ``message_delta`` came: no block may start after it."""
        self.open_blocks: dict[int, OpenBlock] = {}
        """The blocks started and not yet stopped, by index."""
        # One slot per block started, at its index; None for a block that
        # gives the message nothing (thinking, empty text) or has not stopped.
        self._stopped: list[CourseAssistantContent | None] = []
        self._call_ids: set[str] = set()

    def blocks(self) -> tuple[CourseAssistantContent, ...]:
        """The message's content: each stopped block that gives it something, in index order."""
        return tuple(block for block in self._stopped if block is not None)

    def require_start(self, kind: str, index: int) -> None:
        """Raise ``VENDOR_EVENT_ORDER`` when event ``index`` (a ``kind``) precedes the start."""
        if not self.started:
            fail_order(f"{kind} comes before {_wire.MESSAGE_START}", index)

    def block_start(self, data: dict[str, Any], index: int) -> CourseModelChunk | None:
        """``content_block_start``: opens the next block; a text block's initial text is a chunk."""
        kind = _wire.CONTENT_BLOCK_START
        self.require_start(kind, index)
        if self.closed:
            fail_order(f"{kind} follows {_wire.MESSAGE_DELTA}", index)
        position = block_index(data, index)
        expected = len(self._stopped)
        if position != expected:
            problem = (
                "starts again" if position < expected else f"skips ahead (expected {expected})"
            )
            fail_order(f"{kind}: block {shown(position)} {problem}", index)
        block = open_block(object_at(data, _wire.CONTENT_BLOCK, _wire.CONTENT_BLOCK, index), index)
        if block.kind == _wire.TOOL_USE:
            if block.tool_id in self._call_ids:
                repeated = block.tool_id[:SHOWN_LENGTH]
                fail_invalid(f"{_wire.TOOL_USE} id {repeated!r} was already used", index)
            self._call_ids.add(block.tool_id)
        self.open_blocks[position] = block
        self._stopped.append(None)
        if block.parts:
            return CourseTextDeltaChunk(self._request_id, block.parts[0])
        return None

    def block_delta(self, data: dict[str, Any], index: int) -> CourseModelChunk | None:
        """``content_block_delta``: one more piece of an open block; a text piece is a chunk."""
        # The dominant events (a text delta, an argument fragment) take this
        # short path; anything else, failures included, the checked one.
        position = data.get(_wire.INDEX)
        block = self.open_blocks.get(position) if type(position) is int else None
        if block is not None:
            delta = data.get(_wire.DELTA)
            if type(delta) is dict and delta.get(_wire.TYPE) == block.delta_type:
                piece = delta.get(block.delta_key)
                if type(piece) is str:
                    block.parts.append(piece)
                    if block.emits:
                        return CourseTextDeltaChunk(self._request_id, piece)
                    return None
        self._unusual_delta(data, index)
        return None

    def block_stop(self, data: dict[str, Any], index: int) -> CourseModelChunk | None:
        """``content_block_stop``: closes a block; a ``tool_use`` block's call is a chunk."""
        position = block_index(data, index)
        block = self.open_blocks.pop(position, None)
        if block is None:
            self._no_block(_wire.CONTENT_BLOCK_STOP, position, index)
        if block.kind == _wire.TEXT:
            text = "".join(block.parts)
            if text:
                self._stopped[position] = CourseTextBlock(text)
            return None
        if block.kind != _wire.TOOL_USE:
            return None
        arguments = tool_arguments(
            "".join(block.parts),
            vendor=_wire.VENDOR,
            index=index,
            path=f"block {position} {_wire.INPUT}",
        )
        call = CourseToolCall(block.tool_id, block.name, arguments)
        self._stopped[position] = call
        return CourseToolCallChunk(self._request_id, call)

    def _unusual_delta(self, data: dict[str, Any], index: int) -> None:
        position = block_index(data, index)
        block = self.open_blocks.get(position)
        if block is None:
            self._no_block(_wire.CONTENT_BLOCK_DELTA, position, index)
        refuse_delta(block, object_at(data, _wire.DELTA, _wire.DELTA, index), index)

    def _no_block(self, kind: str, position: int, index: int) -> NoReturn:
        self.require_start(kind, index)
        if position < len(self._stopped):
            fail_order(f"{kind} for block {position}, which already stopped", index)
        fail_order(f"{kind} for block {shown(position)}, which never started", index)
