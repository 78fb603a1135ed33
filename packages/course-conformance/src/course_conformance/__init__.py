"""A conformance kit that checks any CourseModel implementation against the port invariants.

``await assert_conforms(make_model, request)`` drives a fresh model through
each ``Scenario`` with the network blocked and raises ``ConformanceError``
naming the first broken ``Invariant`` and the offending value. It needs only
asyncio: no test runner is imported.
"""

import inspect as _inspect

from course_conformance._errors import ConformanceError
from course_conformance._invariants import Invariant, Scenario
from course_conformance._kit import (
    ALL_SCENARIOS,
    DEFAULT_CLEANUP_TIMEOUT,
    DEFAULT_SETTLE_TIMEOUT,
    DEFAULT_SETTLE_TURNS,
    ConformanceReport,
    ScenarioResult,
    assert_conforms,
    check_scenario,
)
from course_conformance._network import NetworkAccessError, blocked_network

__all__ = [
    "ALL_SCENARIOS",
    "DEFAULT_CLEANUP_TIMEOUT",
    "DEFAULT_SETTLE_TIMEOUT",
    "DEFAULT_SETTLE_TURNS",
    "ConformanceError",
    "ConformanceReport",
    "Invariant",
    "NetworkAccessError",
    "Scenario",
    "ScenarioResult",
    "assert_conforms",
    "blocked_network",
    "check_scenario",
]

# Exported names carry this public module: tracebacks and reprs never show a private one.
for _name in __all__:
    if isinstance(_value := globals()[_name], type) or _inspect.isfunction(_value):
        _value.__module__ = __name__
del _name, _value
