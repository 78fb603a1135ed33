"""One-line response factories for the common turns: text, a Tool call, given chunks, an error.

The text and Tool-call turns may think first: given a reasoning block, they
stream its text as one reasoning delta and put the block first in the message.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import cast

from course_protocol import (
    CourseAssistantMessage,
    CourseModelChunk,
    CourseModelRequest,
    CourseModelResponse,
    CourseModelUsage,
    CourseReasoningBlock,
    CourseReasoningDeltaChunk,
    CourseStopReason,
    CourseTextBlock,
    CourseTextDeltaChunk,
    CourseToolCall,
    CourseToolCallChunk,
    terminal_semantics_error,
)
from course_protocol.untrusted import sequence_snapshot, type_name
from course_scripted._producer import ScriptedResponseFactory, is_chunk_type
from course_scripted._turn import PrebuiltTurn, TurnItem
from course_stream import AbortSignal

__all__ = ["reply_chunks", "reply_error", "reply_text", "reply_tool_call"]


def reply_text(
    text: str,
    *,
    response_id: str,
    message_id: str,
    usage: CourseModelUsage,
    reasoning: CourseReasoningBlock | None = None,
    stop_reason: CourseStopReason = CourseStopReason.STOP,
) -> ScriptedResponseFactory:
    """A factory for a plain text turn: one text delta, then a ``stop`` response.

    The chunk and the response carry the active request's id; the response
    has id ``response_id``, one assistant message ``message_id`` holding
    ``text`` as its only block, and ``usage`` as given. With ``reasoning``,
    the turn thinks first: its text streams as one reasoning delta (none
    when it is empty, as for a redacted block) before the text delta, and
    the block comes first in the message. ``stop_reason`` scripts a turn
    that ends otherwise (``LENGTH``, ``REFUSAL``, ``PAUSE_TURN``; a
    ``TOOL_CALL`` without a Tool call is refused). The message is built
    now, so a bad value raises here (``CourseProtocolError``, ``TypeError``
    for a ``usage`` that is not a ``CourseModelUsage`` or a ``reasoning``
    that is not a ``CourseReasoningBlock``, ``ValueError`` for a stop reason
    the message contradicts), not mid-test. Each call of the factory
    returns a fresh async iterator.
    """
    _check_usage(usage)
    block = CourseTextBlock(text=text)
    message = CourseAssistantMessage(id=message_id, content=(*_thinking(reasoning), block))

    def chunks(request_id: str) -> tuple[CourseModelChunk, ...]:
        return (
            *_reasoning_chunks(request_id, reasoning),
            CourseTextDeltaChunk(request_id=request_id, delta=text),
        )

    return _prebuilt_turn(chunks, response_id, message, stop_reason, usage)


def reply_tool_call(
    call_id: str,
    name: str,
    arguments: Mapping[str, object],
    *,
    response_id: str,
    message_id: str,
    usage: CourseModelUsage,
    reasoning: CourseReasoningBlock | None = None,
) -> ScriptedResponseFactory:
    """A factory for a turn that calls one Tool: one Tool-call chunk, then a ``toolCall`` response.

    ``call_id`` is kept exactly as given (it is the provider's id that the
    Tool result will point back to). ``arguments`` is snapshotted now into
    an immutable JSON object, so mutating it afterwards changes nothing.
    With ``reasoning``, the turn thinks first, as in `reply_text`: a
    reasoning delta before the Tool-call chunk, the block before the call
    in the message (a loop sends both back on its next call). Raises here,
    not mid-test, on bad values (``CourseProtocolError``, or ``TypeError``
    for a ``usage`` that is not a ``CourseModelUsage`` or a ``reasoning``
    that is not a ``CourseReasoningBlock``).
    """
    _check_usage(usage)
    tool_call = CourseToolCall(id=call_id, name=name, arguments=arguments)
    message = CourseAssistantMessage(id=message_id, content=(*_thinking(reasoning), tool_call))

    def chunks(request_id: str) -> tuple[CourseModelChunk, ...]:
        return (
            *_reasoning_chunks(request_id, reasoning),
            CourseToolCallChunk(request_id=request_id, tool_call=tool_call),
        )

    return _prebuilt_turn(chunks, response_id, message, CourseStopReason.TOOL_CALL, usage)


def _thinking(reasoning: object) -> tuple[CourseReasoningBlock, ...]:
    if reasoning is None:
        return ()
    if type(reasoning) is not CourseReasoningBlock:
        raise TypeError(
            f"reasoning: expected a CourseReasoningBlock or None, got {type_name(reasoning)}"
        )
    return (reasoning,)


def _reasoning_chunks(
    request_id: str, reasoning: CourseReasoningBlock | None
) -> tuple[CourseModelChunk, ...]:
    if reasoning is None or not reasoning.text:
        return ()
    return (CourseReasoningDeltaChunk(request_id=request_id, delta=reasoning.text),)


def _prebuilt_turn(
    chunks: Callable[[str], tuple[CourseModelChunk, ...]],
    response_id: str,
    message: CourseAssistantMessage,
    stop_reason: CourseStopReason,
    usage: CourseModelUsage,
) -> ScriptedResponseFactory:
    """A factory that streams ``chunks(request.id)``, then the response it describes."""
    _check_response(response_id, message, stop_reason, usage)

    def turn(request: CourseModelRequest, signal: AbortSignal) -> PrebuiltTurn:
        response = CourseModelResponse(
            id=response_id,
            request_id=request.id,
            message=message,
            stop_reason=stop_reason,
            usage=usage,
        )
        return PrebuiltTurn((*chunks(request.id), response), chunks_request_id=request.id)

    return turn


def reply_chunks(
    chunks: Sequence[CourseModelChunk], response: CourseModelResponse
) -> ScriptedResponseFactory:
    """A factory for a turn whose chunks exist up front: ``chunks`` in order, then ``response``.

    Every call plays the same objects, as an async generator yielding them
    would, and is checked as one: each chunk and the response must carry
    the active request's id (``SCRIPT_REQUEST_MISMATCH`` otherwise, after
    the chunks before it were delivered), and the response must agree with
    its stop reason (``SCRIPT_INVALID_RESPONSE``). The producer hands the
    chunks to the stream in one call (``EventStream.push_many``) instead of
    one per chunk. ``chunks`` is snapshotted now; raises ``TypeError`` here
    when it is not a list or tuple, when one of its elements is not exactly
    a ``CourseTextDeltaChunk``, ``CourseToolCallChunk`` or
    ``CourseReasoningDeltaChunk`` (the message names it, as ``chunks[2]``),
    or when ``response`` is not exactly a ``CourseModelResponse``.
    """
    items = sequence_snapshot(chunks)
    if items is None:
        raise TypeError(f"chunks: expected a list or tuple of chunks, got {type_name(chunks)}")
    for index, item in enumerate(items):
        if not is_chunk_type(type(item)):
            raise TypeError(
                f"chunks[{index}]: expected a CourseTextDeltaChunk, CourseToolCallChunk or "
                f"CourseReasoningDeltaChunk, got {type_name(item)}"
            )
    if type(response) is not CourseModelResponse:
        raise TypeError(f"response: expected a CourseModelResponse, got {type_name(response)}")
    turn_items = cast("tuple[TurnItem, ...]", (*items, response))
    # The chunks are immutable and their types exact: the request id they all
    # carry, if they carry one, is a fact of this factory, established once.
    request_ids = {cast(CourseModelChunk, item).request_id for item in items}
    chunks_request_id = next(iter(request_ids)) if len(request_ids) == 1 else None

    def turn(request: CourseModelRequest, signal: AbortSignal) -> PrebuiltTurn:
        return PrebuiltTurn(turn_items, chunks_request_id=chunks_request_id)

    return turn


def reply_error(error: Exception) -> ScriptedResponseFactory:
    """A factory whose turn raises ``error`` at its first step, before any chunk.

    The stream's iteration and its ``result`` both raise that same object.
    Raises ``TypeError`` when ``error`` is not an ``Exception`` instance.
    """
    if not isinstance(error, Exception):
        raise TypeError(f"error: expected an Exception instance, got {type(error).__qualname__}")

    def failing_turn(request: CourseModelRequest, signal: AbortSignal) -> _RaisingTurn:
        return _RaisingTurn(error)

    return failing_turn


class _RaisingTurn:
    """An async iterator whose first step raises the scripted error."""

    __slots__ = ("__weakref__", "_error")

    def __init__(self, error: Exception) -> None:
        self._error = error

    def __aiter__(self) -> _RaisingTurn:
        return self

    async def __anext__(self) -> CourseModelChunk | CourseModelResponse:
        raise self._error


def _check_response(
    response_id: str,
    message: CourseAssistantMessage,
    stop_reason: CourseStopReason,
    usage: CourseModelUsage,
) -> None:
    # The real response needs the request id, known only at call time; a
    # throwaway one built now moves a bad response_id's error to the line
    # that scripted it, and the terminal check the producer would fail.
    CourseModelResponse(
        id=response_id,
        request_id=response_id,
        message=message,
        stop_reason=stop_reason,
        usage=usage,
    )
    problem = terminal_semantics_error(stop_reason, message)
    if problem is not None:
        raise ValueError(f"stop_reason: {problem}")


def _check_usage(usage: object) -> None:
    if type(usage) is not CourseModelUsage:
        raise TypeError(f"usage: expected a CourseModelUsage, got {type(usage).__qualname__}")
