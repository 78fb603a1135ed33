"""The kit's entry points: run the scenarios on fresh models and judge each one."""

from __future__ import annotations

import math
import typing
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from course_conformance._drive import observe
from course_conformance._invariants import Scenario
from course_conformance._judge import judge
from course_protocol import CourseModel, CourseModelChunk, CourseModelRequest, CourseModelResponse

__all__ = [
    "ALL_SCENARIOS",
    "DEFAULT_CLEANUP_TIMEOUT",
    "DEFAULT_SETTLE_TIMEOUT",
    "DEFAULT_SETTLE_TURNS",
    "ConformanceReport",
    "ScenarioResult",
    "assert_conforms",
    "check_scenario",
]

ALL_SCENARIOS: tuple[Scenario, ...] = tuple(Scenario)
"""Every scenario, in the order ``assert_conforms`` runs them by default."""

DEFAULT_SETTLE_TURNS = 100
"""Loop turns a stream may take to settle after an abort."""

DEFAULT_SETTLE_TIMEOUT = 30.0
"""Seconds before a stream that never settles is reported: a guard against hangs only."""

DEFAULT_CLEANUP_TIMEOUT = 2.0
"""Seconds the tasks a call started may take to finish after its stream settled.

Generous on purpose: cleanup that only takes loop turns (a cancelled step's
``finally``, an ``aclose``) ends within milliseconds even on a loaded
machine, and the kit stops waiting the moment the last task is done, so
only a task that never finishes waits this long (and breaks ``NO_PENDING_TASKS``).
"""


@dataclass(frozen=True, slots=True)
class ScenarioResult:
    """What one conforming scenario produced, for further assertions by the caller.

    ``response`` is set when the stream succeeded, ``error`` when it failed
    (the same object iteration raised). ``abort_landed`` is True when an
    abort reached the stream before its terminal; False in the complete
    scenario, and in an abort scenario whose stream had already settled
    (the abort then had nothing to interrupt).
    """

    scenario: Scenario
    chunks: tuple[CourseModelChunk, ...]
    response: CourseModelResponse | None
    error: BaseException | None
    abort_landed: bool


@dataclass(frozen=True, slots=True)
class ConformanceReport:
    """The results of every scenario ``assert_conforms`` ran, in run order."""

    results: tuple[ScenarioResult, ...]

    def result_for(self, scenario: Scenario) -> ScenarioResult:
        """Return the result of ``scenario``; raises ``KeyError`` when it was not run."""
        for result in self.results:
            if result.scenario is scenario:
                return result
        raise KeyError(scenario)


async def check_scenario(
    make_model: Callable[[], CourseModel],
    request: CourseModelRequest,
    scenario: Scenario,
    *,
    settle_turns: int = DEFAULT_SETTLE_TURNS,
    settle_timeout: float = DEFAULT_SETTLE_TIMEOUT,
    cleanup_timeout: float = DEFAULT_CLEANUP_TIMEOUT,
) -> ScenarioResult:
    """Run one scenario on ``make_model()`` with ``request`` and judge it.

    Sockets and name resolution raise while the model is built and
    streamed. After an abort the stream must settle within
    ``settle_turns`` loop turns; once it settled, the tasks the call started
    get up to ``cleanup_timeout`` seconds to finish (the kit yields to the
    loop meanwhile and goes on as soon as they are done); ``settle_timeout``
    seconds end a stream that never settles. Returns what the stream
    produced when every invariant holds; raises ``ConformanceError`` naming
    the first broken invariant and the offending value otherwise. Raises
    ``TypeError`` or ``ValueError`` for bad arguments, and ``RuntimeError``
    when no event loop is running.
    """
    _check_arguments(make_model, request, settle_turns, settle_timeout, cleanup_timeout)
    if type(scenario) is not Scenario:
        raise TypeError(f"scenario must be a Scenario, not {type(scenario).__qualname__}")
    seen = await observe(
        make_model,
        request,
        scenario,
        settle_turns=settle_turns,
        settle_timeout=settle_timeout,
        cleanup_timeout=cleanup_timeout,
    )
    judge(seen)
    outcome = seen.results[0]
    return ScenarioResult(
        scenario=scenario,
        chunks=tuple(typing.cast(list[CourseModelChunk], seen.chunks)),
        response=typing.cast(CourseModelResponse, outcome.value) if outcome.error is None else None,
        error=outcome.error,
        abort_landed=seen.abort_landed,
    )


async def assert_conforms(
    make_model: Callable[[], CourseModel],
    request: CourseModelRequest,
    *,
    scenarios: Iterable[Scenario] = ALL_SCENARIOS,
    settle_turns: int = DEFAULT_SETTLE_TURNS,
    settle_timeout: float = DEFAULT_SETTLE_TIMEOUT,
    cleanup_timeout: float = DEFAULT_CLEANUP_TIMEOUT,
) -> ConformanceReport:
    """Check every port invariant for ``request`` in each scenario, one fresh model each.

    ``make_model`` is called once per scenario, since a double consumes its
    script. Scenarios run one after another in the given order; run one
    check at a time per event loop (each scenario installs the loop's
    exception handler and counts its tasks). Returns a
    report of what each scenario produced; raises ``ConformanceError`` at
    the first broken invariant, ``TypeError``/``ValueError`` for bad
    arguments (an empty or repeated scenario list included). The bounds
    are `check_scenario`'s.
    """
    _check_arguments(make_model, request, settle_turns, settle_timeout, cleanup_timeout)
    chosen = tuple(scenarios)
    if not chosen:
        raise ValueError("scenarios must name at least one Scenario")
    for index, scenario in enumerate(chosen):
        if type(scenario) is not Scenario:
            raise TypeError(
                f"scenarios[{index}] must be a Scenario, not {type(scenario).__qualname__}"
            )
    if len(set(chosen)) != len(chosen):
        raise ValueError("scenarios must not repeat a Scenario")
    results = [
        await check_scenario(
            make_model,
            request,
            scenario,
            settle_turns=settle_turns,
            settle_timeout=settle_timeout,
            cleanup_timeout=cleanup_timeout,
        )
        for scenario in chosen
    ]
    return ConformanceReport(results=tuple(results))


def _check_arguments(
    make_model: object,
    request: object,
    settle_turns: object,
    settle_timeout: object,
    cleanup_timeout: object,
) -> None:
    if not callable(make_model):
        raise TypeError(f"make_model must be callable, not {type(make_model).__qualname__}")
    if type(request) is not CourseModelRequest:
        raise TypeError(f"request must be a CourseModelRequest, not {type(request).__qualname__}")
    if type(settle_turns) is not int:
        raise TypeError(f"settle_turns must be an int, not {type(settle_turns).__qualname__}")
    if settle_turns < 1:
        raise ValueError(f"settle_turns must be >= 1, not {settle_turns!r}")
    _check_seconds("settle_timeout", settle_timeout)
    _check_seconds("cleanup_timeout", cleanup_timeout)


def _check_seconds(name: str, seconds: object) -> None:
    if not isinstance(seconds, int | float) or isinstance(seconds, bool):
        raise TypeError(f"{name} must be a number, not {type(seconds).__qualname__}")
    if not math.isfinite(seconds) or seconds <= 0:
        raise ValueError(f"{name} must be finite seconds > 0, not {seconds!r}")
