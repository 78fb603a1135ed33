"""Judges one observation against the port's invariants, in a fixed order."""

from __future__ import annotations

import typing

from course_conformance._drive import Observation, Settled, network_error
from course_conformance._errors import ConformanceError
from course_conformance._immutability import chunk_problem, response_problem
from course_conformance._invariants import Invariant, Scenario
from course_protocol import (
    CourseModelResponse,
    CourseModelUsage,
    CourseProtocolError,
    CourseReasoningBlock,
    CourseReasoningDeltaChunk,
    CourseTextDeltaChunk,
    CourseToolCall,
    CourseToolCallChunk,
    terminal_semantics_error,
    text_from_assistant,
)
from course_protocol.untrusted import shown
from course_stream import EventStreamStateError

__all__ = ["judge"]

_ABORT_SCENARIOS = frozenset(
    {Scenario.PRE_ABORTED, Scenario.ABORT_BEFORE_FIRST_CHUNK, Scenario.ABORT_AFTER_FIRST_CHUNK}
)


def judge(seen: Observation) -> None:
    """Raise ``ConformanceError`` for the first broken invariant, or return.

    The order puts causes before symptoms: a network attempt explains most
    other failures, an unsettled stream leaves nothing else to judge, and
    chunks are judged before the terminal they lead to.
    """
    fail = _Failer(seen)
    if seen.network_attempts:
        raise network_error(seen)
    _judge_abort_promptness(seen, fail)
    _judge_settlement(seen, fail)
    for index, chunk in enumerate(seen.chunks):
        problem = chunk_problem(chunk, f"chunks[{index}]")
        if problem is not None:
            fail(Invariant.DEEPLY_IMMUTABLE, *problem)
        request_id: object = getattr(chunk, "request_id", None)
        if request_id != seen.request.id:
            fail(
                Invariant.CHUNK_REQUEST_ID,
                f"chunks[{index}].request_id is {request_id!r}, the active request is "
                f"{seen.request.id!r}",
                chunk,
            )
    outcome = seen.results[0]
    _judge_agreement(seen, outcome, fail)
    _judge_abort_outcome(seen, outcome, fail)
    if outcome.error is None:
        _judge_response(seen, outcome.value, fail)
    if seen.new_tasks_pending:
        fail(
            Invariant.NO_PENDING_TASKS,
            f"{len(seen.new_tasks_pending)} task(s) started during the call are still pending "
            f"{seen.cleanup_timeout:g} s after the stream settled",
            tuple(seen.new_tasks_pending),
        )
    _judge_asyncio_reports(seen, fail)


class _Failer:
    def __init__(self, seen: Observation) -> None:
        self._scenario = seen.scenario

    def __call__(self, invariant: Invariant, detail: str, value: object) -> None:
        raise ConformanceError(invariant, self._scenario, detail, value)


def _abort_invariant(scenario: Scenario) -> Invariant:
    """The promise an abort scenario checks: the pre-abort one, or the mid-call one."""
    return (
        Invariant.PRE_ABORT_REJECTS if scenario is Scenario.PRE_ABORTED else Invariant.ABORT_REJECTS
    )


def _judge_abort_promptness(seen: Observation, fail: _Failer) -> None:
    if seen.abort_landed and seen.turns_to_settle_after_abort is None:
        fail(
            _abort_invariant(seen.scenario),
            "the stream was still not settled after the abort",
            seen.stream,
        )


def _judge_settlement(seen: Observation, fail: _Failer) -> None:
    if seen.guard_expired:
        fail(
            Invariant.SETTLES_ONCE,
            f"the stream did not settle; {len(seen.chunks)} chunk(s) arrived before the "
            "timeout guard expired",
            seen.stream,
        )
    for context in seen.asyncio_reports:
        error = context.get("exception")
        if isinstance(error, EventStreamStateError):
            fail(Invariant.SETTLES_ONCE, "the model tried to settle the stream again", error)
    first, second = seen.results
    if first.value is not second.value or first.error is not second.error:
        fail(
            Invariant.SETTLES_ONCE,
            "awaiting result twice gave two different outcomes",
            (_describe(first), _describe(second)),
        )


def _judge_agreement(seen: Observation, outcome: Settled, fail: _Failer) -> None:
    if seen.iteration_error is None and outcome.error is not None:
        fail(
            Invariant.ITERATION_MATCHES_RESULT,
            "iteration ended normally but result failed",
            outcome.error,
        )
    if seen.iteration_error is not None and outcome.error is None:
        fail(
            Invariant.ITERATION_MATCHES_RESULT,
            "iteration failed but result succeeded",
            seen.iteration_error,
        )
    if seen.iteration_error is not outcome.error:
        fail(
            Invariant.ITERATION_MATCHES_RESULT,
            "iteration and result failed with different exception objects",
            (seen.iteration_error, outcome.error),
        )


def _judge_abort_outcome(seen: Observation, outcome: Settled, fail: _Failer) -> None:
    if seen.scenario not in _ABORT_SCENARIOS or not seen.abort_landed:
        return
    invariant = _abort_invariant(seen.scenario)
    if outcome.error is None:
        fail(invariant, "the stream succeeded although it was aborted first", outcome.value)
    if outcome.error is not seen.reason:
        fail(
            invariant,
            "the stream failed with something other than the signal's reason",
            outcome.error,
        )
    if seen.scenario is Scenario.PRE_ABORTED and seen.chunks:
        fail(
            invariant, f"{len(seen.chunks)} chunk(s) arrived on a pre-aborted call", seen.chunks[0]
        )


def _judge_response(seen: Observation, response: object, fail: _Failer) -> None:
    problem = response_problem(response, "response")
    if problem is not None:
        fail(Invariant.DEEPLY_IMMUTABLE, *problem)
    # response_problem has proved the exact type.
    response = typing.cast(CourseModelResponse, response)
    if response.request_id != seen.request.id:
        fail(
            Invariant.RESPONSE_CORRELATED,
            f"response.request_id is {response.request_id!r}, the active request is "
            f"{seen.request.id!r}",
            response,
        )
    _judge_usage(response.usage, fail)
    explanation = terminal_semantics_error(response.stop_reason, response.message)
    if explanation is not None:
        fail(Invariant.TERMINAL_CONSISTENT, explanation, response)
    _judge_stream_against_message(seen.chunks, response, fail)


def _judge_usage(usage: CourseModelUsage, fail: _Failer) -> None:
    # The constructor is the one statement of the rule: the counts observed
    # must be ones it accepts.
    try:
        CourseModelUsage(
            usage.input_tokens,
            usage.output_tokens,
            cache_read_tokens=usage.cache_read_tokens,
            cache_write_tokens=usage.cache_write_tokens,
            reasoning_tokens=usage.reasoning_tokens,
        )
    except CourseProtocolError as error:
        fail(Invariant.USAGE_IN_RANGE, f"response.usage.{error.path} {error.message}", usage)


def _judge_stream_against_message(
    chunks: list[object], response: CourseModelResponse, fail: _Failer
) -> None:
    message = response.message
    streamed = "".join(chunk.delta for chunk in chunks if type(chunk) is CourseTextDeltaChunk)
    answer = text_from_assistant(message)
    if streamed != answer:
        fail(
            Invariant.STREAM_MATCHES_MESSAGE,
            f"the text deltas joined ({shown(streamed)!r}) are not the message's text "
            f"({shown(answer)!r})",
            (streamed, answer),
        )
    streamed = "".join(chunk.delta for chunk in chunks if type(chunk) is CourseReasoningDeltaChunk)
    reasoning = "".join(
        block.text for block in message.content if type(block) is CourseReasoningBlock
    )
    if streamed != reasoning:
        fail(
            Invariant.STREAM_MATCHES_MESSAGE,
            f"the reasoning deltas joined ({shown(streamed)!r}) are not the text of the "
            f"message's reasoning blocks ({shown(reasoning)!r})",
            (streamed, reasoning),
        )
    streamed_calls = tuple(
        chunk.tool_call for chunk in chunks if type(chunk) is CourseToolCallChunk
    )
    calls = tuple(block for block in message.content if type(block) is CourseToolCall)
    if streamed_calls != calls:
        fail(
            Invariant.STREAM_MATCHES_MESSAGE,
            f"the {len(streamed_calls)} Tool-call chunk(s) are not the message's "
            f"{len(calls)} Tool-call block(s), in order",
            (streamed_calls, calls),
        )


def _judge_asyncio_reports(seen: Observation, fail: _Failer) -> None:
    if seen.asyncio_reports:
        context = seen.asyncio_reports[0]
        fail(
            Invariant.NO_ASYNCIO_ERRORS,
            f"asyncio reported: {context.get('message', 'an error')}",
            context.get("exception", context),
        )


def _describe(outcome: Settled) -> object:
    return outcome.value if outcome.error is None else outcome.error
