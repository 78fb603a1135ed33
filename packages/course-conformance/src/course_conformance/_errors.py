"""The one exception the kit raises."""

import reprlib

from course_conformance._invariants import Invariant, Scenario
from course_protocol import CourseError

__all__ = ["ConformanceError"]

_REPR = reprlib.Repr()
_REPR.maxstring = 200
_REPR.maxother = 200
_REPR.maxlevel = 4


class ConformanceError(CourseError, AssertionError):
    """A model broke one invariant of the ``CourseModel`` port.

    ``invariant`` (also its ``code``) names the broken promise, ``scenario``
    the situation it broke in, ``detail`` says what was seen instead, and
    ``value`` is the offending object itself (a chunk, a response, an
    exception, a task). It is an ``AssertionError`` so test runners report
    it as a failure, not as an error in the test's own code. The string form
    is ``"<invariant>: in scenario <scenario>: <detail>; value: <value>"``.
    """

    code: Invariant

    def __init__(
        self, invariant: Invariant, scenario: Scenario, detail: str, value: object
    ) -> None:
        super().__init__(invariant, f"in scenario {scenario}: {detail}; value: {_REPR.repr(value)}")
        self.invariant = invariant
        self.scenario = scenario
        self.detail = detail
        self.value = value

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.invariant, self.scenario, self.detail, self.value))
