"""Drives one fresh model through one scenario and writes down everything it saw."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from course_conformance._errors import ConformanceError
from course_conformance._invariants import Invariant, Scenario
from course_conformance._network import blocked_network
from course_protocol import CourseModel, CourseModelRequest
from course_stream import AbortController, AbortError, EventStream

__all__ = ["Observation", "Settled", "network_error", "observe"]


@dataclass(frozen=True, slots=True)
class Settled:
    """How an awaited result ended: a value, or the exception it raised."""

    value: object = None
    error: BaseException | None = None


@dataclass(slots=True)
class Observation:
    """Everything seen during one scenario, judged afterwards in a fixed order."""

    scenario: Scenario
    request: CourseModelRequest
    reason: BaseException
    network_attempts: list[str] = field(default_factory=list)
    stream: object = None
    chunks: list[object] = field(default_factory=list)
    iteration_error: BaseException | None = None
    results: list[Settled] = field(default_factory=list)
    abort_landed: bool = False
    turns_to_settle_after_abort: int | None = None
    guard_expired: bool = False
    new_tasks_pending: list[asyncio.Task[Any]] = field(default_factory=list)
    cleanup_timeout: float = 0.0
    asyncio_reports: list[dict[str, Any]] = field(default_factory=list)


async def observe(
    make_model: Callable[[], CourseModel],
    request: CourseModelRequest,
    scenario: Scenario,
    *,
    settle_turns: int,
    settle_timeout: float,
    cleanup_timeout: float,
) -> Observation:
    """Run ``scenario`` on ``make_model()`` and return what happened.

    Once the stream settled, the tasks the call started get up to
    ``cleanup_timeout`` seconds to finish (see `_let_new_tasks_finish`).

    Raises ``ConformanceError`` itself only when there is nothing left to
    observe: ``make_model`` or ``stream`` raised, or ``stream`` returned
    something that is not an ``EventStream`` (a network attempt takes
    precedence, since it usually explains the rest).
    """
    loop = asyncio.get_running_loop()
    reason = AbortError(f"aborted by the conformance kit ({scenario})")
    seen = Observation(
        scenario=scenario, request=request, reason=reason, cleanup_timeout=cleanup_timeout
    )
    previous_handler = loop.get_exception_handler()
    loop.set_exception_handler(lambda _loop, context: seen.asyncio_reports.append(context))
    tasks_before = asyncio.all_tasks()
    try:
        with blocked_network() as attempts:
            seen.network_attempts = attempts
            try:
                await _drive(
                    make_model, seen, settle_turns=settle_turns, settle_timeout=settle_timeout
                )
            except ConformanceError as error:
                if attempts:
                    raise network_error(seen) from error
                raise
        await _let_new_tasks_finish(seen, tasks_before, cleanup_timeout)
        # A failed future nobody retrieved is reported only when it is
        # collected; collect now so the report lands inside this scenario.
        gc.collect()
    finally:
        loop.set_exception_handler(previous_handler)
    return seen


def network_error(seen: Observation) -> ConformanceError:
    """The ``NO_NETWORK`` failure of an observation with network attempts."""
    return ConformanceError(
        Invariant.NO_NETWORK,
        seen.scenario,
        f"the model tried the network {len(seen.network_attempts)} time(s)",
        tuple(seen.network_attempts),
    )


async def _drive(
    make_model: Callable[[], CourseModel],
    seen: Observation,
    *,
    settle_turns: int,
    settle_timeout: float,
) -> None:
    controller = AbortController()
    if seen.scenario is Scenario.PRE_ABORTED:
        controller.abort(seen.reason)
    try:
        stream = make_model().stream(seen.request, controller.signal)
    except Exception as error:
        raise ConformanceError(
            Invariant.RETURNS_STREAM,
            seen.scenario,
            f"stream() raised {type(error).__qualname__} instead of returning a stream",
            error,
        ) from error
    seen.stream = stream
    if not isinstance(stream, EventStream):
        raise ConformanceError(
            Invariant.RETURNS_STREAM,
            seen.scenario,
            f"stream() returned a {type(stream).__qualname__}, not an EventStream",
            stream,
        )

    async def abort_now() -> None:
        seen.abort_landed = not stream.done
        controller.abort(seen.reason)
        seen.turns_to_settle_after_abort = await _turns_until_done(stream, settle_turns)

    async def consume() -> None:
        if seen.scenario is Scenario.PRE_ABORTED:
            seen.abort_landed = True
            seen.turns_to_settle_after_abort = await _turns_until_done(stream, settle_turns)
        elif seen.scenario is Scenario.ABORT_BEFORE_FIRST_CHUNK:
            await abort_now()
        if seen.abort_landed and seen.turns_to_settle_after_abort is None:
            return
        iterator = stream.__aiter__()
        try:
            async for chunk in iterator:
                seen.chunks.append(chunk)
                if seen.scenario is Scenario.ABORT_AFTER_FIRST_CHUNK and len(seen.chunks) == 1:
                    await abort_now()
                    if seen.abort_landed and seen.turns_to_settle_after_abort is None:
                        return
        except BaseException as error:
            _reraise_if_ours(error)
            seen.iteration_error = error
        finally:
            await iterator.aclose()
        seen.results.append(await _settle(stream.result))
        seen.results.append(await _settle(stream.result))

    guard = asyncio.timeout(settle_timeout)
    try:
        async with guard:
            await consume()
    except TimeoutError:
        if not guard.expired():
            raise
        seen.guard_expired = True


async def _settle(awaitable: Any) -> Settled:
    try:
        return Settled(value=await awaitable)
    except BaseException as error:
        _reraise_if_ours(error)
        return Settled(error=error)


def _reraise_if_ours(error: BaseException) -> None:
    """Let the kit's own cancellation (its timeout guard) and interpreter exits through."""
    if isinstance(error, KeyboardInterrupt | SystemExit):
        raise error
    task = asyncio.current_task()
    if isinstance(error, asyncio.CancelledError) and task is not None and task.cancelling():
        raise error


async def _turns_until_done(stream: EventStream[Any, Any], limit: int) -> int | None:
    for turn in range(limit + 1):
        if stream.done:
            return turn
        await asyncio.sleep(0)
    return None


async def _let_new_tasks_finish(
    seen: Observation, tasks_before: set[asyncio.Task[Any]], cleanup_timeout: float
) -> None:
    """Wait until every task the call started is done, or ``cleanup_timeout`` seconds passed.

    A stream must settle at once, but the work behind it may rightly go on
    a little: a producer cancelled by the abort runs its step's ``finally``,
    an ``aclose`` awaits a source's cleanup. The wait yields to the loop
    (``asyncio.wait``) and ends the moment the last task is done, so a model
    that leaves nothing behind costs nothing; tasks started meanwhile are
    waited for too. The bound is wall-clock and generous because only a
    task that never finishes should reach it: cleanup that just takes loop
    turns ends in milliseconds even on a loaded machine.
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + cleanup_timeout
    current = asyncio.current_task()
    while True:
        pending = [
            task
            for task in asyncio.all_tasks()
            if task is not current and task not in tasks_before and not task.done()
        ]
        remaining = deadline - loop.time()
        if not pending or remaining <= 0:
            break
        await asyncio.wait(pending, timeout=remaining)
    seen.new_tasks_pending = pending
