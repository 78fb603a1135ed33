"""One-line response factories for the common turns: text, one Tool call, an error."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Mapping

from course_protocol import (
    CourseAssistantMessage,
    CourseModelChunk,
    CourseModelRequest,
    CourseModelResponse,
    CourseModelUsage,
    CourseStopReason,
    CourseTextBlock,
    CourseTextDeltaChunk,
    CourseToolCall,
    CourseToolCallChunk,
)
from course_scripted._producer import ScriptedResponseFactory
from course_stream import AbortSignal

__all__ = ["reply_error", "reply_text", "reply_tool_call"]


def reply_text(
    text: str, *, response_id: str, message_id: str, usage: CourseModelUsage
) -> ScriptedResponseFactory:
    """A factory for a plain text turn: one text delta, then a ``stop`` response.

    The chunk and the response carry the active request's id; the response
    has id ``response_id``, one assistant message ``message_id`` holding
    ``text`` as its only block, and ``usage`` as given. The message is built
    now, so a bad value raises here (``CourseProtocolError``, ``TypeError``
    for a ``usage`` that is not a ``CourseModelUsage``), not mid-test.
    Each call of the factory returns a fresh generator.
    """
    _check_usage(usage)
    message = CourseAssistantMessage(id=message_id, content=(CourseTextBlock(text=text),))

    def chunk(request_id: str) -> CourseModelChunk:
        return CourseTextDeltaChunk(request_id=request_id, delta=text)

    return _one_chunk_turn(chunk, response_id, message, CourseStopReason.STOP, usage)


def reply_tool_call(
    call_id: str,
    name: str,
    arguments: Mapping[str, object],
    *,
    response_id: str,
    message_id: str,
    usage: CourseModelUsage,
) -> ScriptedResponseFactory:
    """A factory for a turn that calls one Tool: one Tool-call chunk, then a ``toolCall`` response.

    ``call_id`` is kept exactly as given (it is the provider's id that the
    Tool result will point back to). ``arguments`` is snapshotted now into
    an immutable JSON object, so mutating it afterwards changes nothing.
    Raises here, not mid-test, on bad values (``CourseProtocolError``, or
    ``TypeError`` for a ``usage`` that is not a ``CourseModelUsage``).
    """
    _check_usage(usage)
    tool_call = CourseToolCall(id=call_id, name=name, arguments=arguments)
    message = CourseAssistantMessage(id=message_id, content=(tool_call,))

    def chunk(request_id: str) -> CourseModelChunk:
        return CourseToolCallChunk(request_id=request_id, tool_call=tool_call)

    return _one_chunk_turn(chunk, response_id, message, CourseStopReason.TOOL_CALL, usage)


def _one_chunk_turn(
    chunk: Callable[[str], CourseModelChunk],
    response_id: str,
    message: CourseAssistantMessage,
    stop_reason: CourseStopReason,
    usage: CourseModelUsage,
) -> ScriptedResponseFactory:
    """A factory that streams ``chunk(request.id)``, then the response it describes."""
    _check_response(response_id, message, stop_reason, usage)

    async def turn(
        request: CourseModelRequest, signal: AbortSignal
    ) -> AsyncIterator[CourseModelChunk | CourseModelResponse]:
        yield chunk(request.id)
        yield CourseModelResponse(
            id=response_id,
            request_id=request.id,
            message=message,
            stop_reason=stop_reason,
            usage=usage,
        )

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
    # that scripted it.
    CourseModelResponse(
        id=response_id,
        request_id=response_id,
        message=message,
        stop_reason=stop_reason,
        usage=usage,
    )


def _check_usage(usage: object) -> None:
    if type(usage) is not CourseModelUsage:
        raise TypeError(f"usage: expected a CourseModelUsage, got {type(usage).__qualname__}")
