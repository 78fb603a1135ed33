"""A failure a cassette caused reads course-first: its first line is the course code and message.

An SDK wraps what its transport raised in its own error (``anthropic``'s
"Connection error.", a ``BadRequestError`` for a refused request) and
prints some hundred lines of its own frames first; the course error that
says what happened is deep in the chain, or only in the cassette's
problems. The report of such a failure is rewritten once, here: the course
error first (the line pytest's short summary shows), then what the test
raised, its traceback unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from course_protocol import CourseError

__all__ = ["course_first", "course_problem"]

_DEEPEST_CHAIN = 64
"""How many causes and contexts are followed before giving up: a chain may be a cycle."""


def course_problem(raised: BaseException | None, kept: Sequence[CourseError]) -> CourseError | None:
    """The course error a failure is about, or ``None`` when it is about none.

    The first `CourseError` in the chain of ``raised`` (itself, then its
    causes and contexts, and the members of an exception group), else the
    first problem the test's cassette ``kept`` (a refusal the SDK turned
    into an HTTP error of its own).
    """
    seen: set[int] = set()
    pending: list[BaseException] = [] if raised is None else [raised]
    while pending and len(seen) < _DEEPEST_CHAIN:
        error = pending.pop(0)
        if id(error) in seen:
            continue
        seen.add(id(error))
        if isinstance(error, CourseError):
            return error
        if isinstance(error, BaseExceptionGroup):
            pending.extend(error.exceptions)
        pending.extend(link for link in (error.__cause__, error.__context__) if link is not None)
    return kept[0] if kept else None


def course_first(report: pytest.TestReport, problem: CourseError) -> None:
    """Rewrite ``report`` so that it starts with ``problem`` (``CODE: message``).

    The rest of the report (what was raised, its traceback, the captured
    output sections) follows unchanged; a report that already starts with
    it is left as it is.
    """
    headline = str(problem)
    text = report.longreprtext
    if text.startswith(headline):
        report.longrepr = text
        return
    report.longrepr = f"{headline}\n\n{text}"
