"""The demo's tiny agent loop over the ``CourseModel`` port; it knows no adapter."""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum, unique

from course_cli._output import compact_json, quoted, trace_line
from course_cli._tools import run_tool
from course_protocol import (
    CourseError,
    CourseMessage,
    CourseModel,
    CourseModelChunk,
    CourseModelRequest,
    CourseModelResponse,
    CourseReasoningDeltaChunk,
    CourseStopReason,
    CourseTextDeltaChunk,
    CourseToolCall,
    CourseToolResultMessage,
    CourseUserMessage,
    text_from_assistant,
    thaw_json,
    validate_transcript,
)
from course_stream import AbortController, AbortSignal

__all__ = [
    "DEFAULT_MAX_TURNS",
    "USER_MESSAGE",
    "DemoStopCode",
    "DemoStoppedError",
    "Write",
    "run_demo",
]

DEFAULT_MAX_TURNS = 8
"""How many model calls the demo allows before it gives up on a model that keeps asking."""

USER_MESSAGE = CourseUserMessage(id="user-001", content="What is 20 + 22?")
"""The demo's opening request."""

Write = Callable[[str], object]


@unique
class DemoStopCode(StrEnum):
    """Why the demo loop stopped before the model's final answer; values never change."""

    MODEL_FAILED = "MODEL_FAILED"
    """A model call failed; the model's own error is the ``__cause__``."""

    INVALID_TRANSCRIPT = "INVALID_TRANSCRIPT"
    """The transcript failed validation before a model call."""

    TURN_LIMIT = "TURN_LIMIT"
    """The model still asked for Tools after the allowed number of calls."""


class DemoStoppedError(CourseError):
    """The loop stopped before the model's final answer; the message says why and where.

    ``course demo`` prints the message alone.
    """

    code: DemoStopCode


async def run_demo(model: CourseModel, write: Write, *, max_turns: int = DEFAULT_MAX_TURNS) -> None:
    """Run the Tool round trip against ``model``, writing the trace line by line with ``write``.

    Each turn validates the transcript, calls the model, prints every
    streamed chunk and the terminal response, and, for a ``toolCall``
    response, runs each Tool call locally and appends a Tool result linked
    by the call's own id. Returns after a ``stop`` response. Raises
    ``DemoStoppedError`` when the loop has to stop early; on any exit by an
    exception the model's pending production is aborted.
    """
    controller = AbortController()
    try:
        await _loop(model, write, max_turns, controller.signal)
    except BaseException:
        controller.abort()
        raise


async def _loop(model: CourseModel, write: Write, max_turns: int, signal: AbortSignal) -> None:
    transcript: list[CourseMessage] = [USER_MESSAGE]
    write(trace_line("user", f"{USER_MESSAGE.id}: {USER_MESSAGE.content}"))
    input_tokens = output_tokens = results = 0
    for call_number in range(1, max_turns + 1):
        _require_valid(transcript, call_number)
        request = CourseModelRequest(id=f"request-{call_number:03d}", messages=tuple(transcript))
        write("\n")
        write(
            trace_line(
                f"call {call_number}",
                f"{request.id} messages={len(transcript)} transcript=valid",
            )
        )
        response = await _call(model, request, signal, write, call_number)
        usage = response.usage
        input_tokens += usage.input_tokens
        output_tokens += usage.output_tokens
        write(
            trace_line(
                "response",
                f"{response.id} message={response.message.id} "
                f"stopReason={response.stop_reason.value} "
                f"inputTokens={usage.input_tokens} outputTokens={usage.output_tokens}",
            )
        )
        transcript.append(response.message)
        if response.stop_reason is CourseStopReason.STOP:
            write("\n")
            write(trace_line("answer", text_from_assistant(response.message)))
            write(
                trace_line(
                    "done",
                    f"{call_number} model call{'s' if call_number != 1 else ''}, "
                    f"inputTokens={input_tokens} outputTokens={output_tokens}",
                )
            )
            return
        for block in response.message.content:
            if type(block) is not CourseToolCall:
                continue
            outcome = run_tool(block)
            write(trace_line("tool", f"{block.name} {outcome.explanation}"))
            results += 1
            result = CourseToolResultMessage(
                id=f"tool-result-{results:03d}",
                tool_call_id=block.id,
                tool_name=block.name,
                content=outcome.content,
                is_error=outcome.is_error,
            )
            transcript.append(result)
            write(
                trace_line(
                    "result",
                    f"{result.id} toolCallId={result.tool_call_id} toolName={result.tool_name} "
                    f"isError={'true' if result.is_error else 'false'} "
                    f"content={quoted(outcome.content)}",
                )
            )
    raise DemoStoppedError(
        DemoStopCode.TURN_LIMIT,
        f"stopped after {max_turns} model call{'s' if max_turns != 1 else ''}: "
        f"the model still asks for Tools (raise --max-turns to allow more)",
    )


def _require_valid(transcript: list[CourseMessage], call_number: int) -> None:
    issues = validate_transcript(tuple(transcript))
    if not issues:
        return
    found = "; ".join(
        f"{issue.code.value} at message {issue.message_index}: {issue.detail}"
        if issue.message_index is not None
        else f"{issue.code.value}: {issue.detail}"
        for issue in issues
    )
    raise DemoStoppedError(
        DemoStopCode.INVALID_TRANSCRIPT,
        f"transcript invalid before model call {call_number}: {found}",
    )


async def _call(
    model: CourseModel,
    request: CourseModelRequest,
    signal: AbortSignal,
    write: Write,
    call_number: int,
) -> CourseModelResponse:
    stream = model.stream(request, signal)
    chunks = stream.__aiter__()
    try:
        while True:
            try:
                chunk = await chunks.__anext__()
            except StopAsyncIteration:
                break
            except Exception as error:
                raise _model_failed(call_number, request, error) from error
            write(trace_line("chunk", _describe_chunk(chunk)))
    finally:
        await chunks.aclose()
    try:
        return await stream.result
    except Exception as error:
        raise _model_failed(call_number, request, error) from error


def _describe_chunk(chunk: CourseModelChunk) -> str:
    if isinstance(chunk, CourseTextDeltaChunk):
        return f"textDelta delta={quoted(chunk.delta)}"
    if isinstance(chunk, CourseReasoningDeltaChunk):
        return f"reasoningDelta delta={quoted(chunk.delta)}"
    call = chunk.tool_call
    return (
        f"toolCall id={call.id} name={call.name} "
        f"arguments={compact_json(thaw_json(call.arguments))}"
    )


def _model_failed(
    call_number: int, request: CourseModelRequest, error: Exception
) -> DemoStoppedError:
    # A course error names itself by its code; anything else by its type.
    described = str(error) if isinstance(error, CourseError) else f"{type(error).__name__}: {error}"
    return DemoStoppedError(
        DemoStopCode.MODEL_FAILED, f"model call {call_number} ({request.id}) failed: {described}"
    )
