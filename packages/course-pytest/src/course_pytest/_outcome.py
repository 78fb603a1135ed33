"""Whether a test's own call passed: the teardown checks of every fixture run only then."""

from __future__ import annotations

from typing import Final

import pytest

__all__ = ["CALL_PASSED", "check_consumed", "passed"]

CALL_PASSED: Final = pytest.StashKey[bool]()
"""Set by the plugin's ``pytest_runtest_makereport`` once the test's call phase is reported."""


def passed(request: pytest.FixtureRequest) -> bool:
    """Whether the test's own call passed (``False`` before it ran)."""
    outcome: bool = request.node.stash.get(CALL_PASSED, False)
    return outcome


def check_consumed(request: pytest.FixtureRequest) -> bool:
    """Whether a fixture checks at teardown that everything scripted or recorded was played.

    Only after a passed call, and never for a test marked ``course_allow_unplayed``.
    """
    return passed(request) and request.node.get_closest_marker("course_allow_unplayed") is None
