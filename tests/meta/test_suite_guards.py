"""The suite's own guards must be able to fail; these tests prove it."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]


def test_a_task_left_pending_fails_the_test(pytester: pytest.Pytester) -> None:
    _prepare(pytester)
    pytester.makepyfile(
        """
        import asyncio

        async def test_leaks_a_task():
            asyncio.get_running_loop().create_task(asyncio.sleep(3600))
        """
    )
    result = pytester.runpytest_subprocess()
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(["*test left 1 task(s) pending*"])


def test_an_exception_never_retrieved_fails_the_test(pytester: pytest.Pytester) -> None:
    _prepare(pytester)
    pytester.makepyfile(
        """
        import asyncio

        async def test_drops_a_failed_future():
            future = asyncio.get_running_loop().create_future()
            future.set_exception(RuntimeError("nobody looks at me"))
            del future
        """
    )
    result = pytester.runpytest_subprocess()
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(["*asyncio reported errors*never retrieved*"])


async def test_the_loop_runs_in_debug_mode() -> None:
    assert asyncio.get_running_loop().get_debug()


def _prepare(pytester: pytest.Pytester) -> None:
    """Give the inner run this suite's conftest and asyncio settings."""
    pytester.makeconftest((Path(__file__).parent.parent / "conftest.py").read_text())
    pytester.makeini(
        """
        [pytest]
        asyncio_mode = auto
        asyncio_default_fixture_loop_scope = function
        asyncio_default_test_loop_scope = function
        asyncio_debug = true
        """
    )
