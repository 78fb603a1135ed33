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


def test_an_unraisable_exception_fails_the_test_without_pytests_own_plugin(
    pytester: pytest.Pytester,
) -> None:
    _prepare(pytester)
    pytester.makepyfile(
        """
        class RaisesWhenCollected:
            def __del__(self):
                raise RuntimeError("raised in __del__")

        def test_drops_an_object_whose_finalizer_raises():
            RaisesWhenCollected()
        """
    )
    result = pytester.runpytest_subprocess("-p", "no:unraisableexception")
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(
        [
            "*unraisable exception(s) reported:",
            "*Exception ignored in*RaisesWhenCollected.__del__*RuntimeError*raised in __del__*",
        ]
    )


def test_an_unraisable_exception_found_by_the_final_garbage_collection_fails_the_test(
    pytester: pytest.Pytester,
) -> None:
    _prepare(pytester)
    pytester.makepyfile(
        """
        import gc

        class RaisesWhenCollected:
            def __init__(self):
                self.me = self  # a cycle: only the final gc.collect() frees it

            def __del__(self):
                raise RuntimeError("raised by the garbage collector")

        async def test_leaves_a_cycle_whose_finalizer_raises():
            gc.disable()
            RaisesWhenCollected()

        def test_restores_the_collector():
            gc.enable()
        """
    )
    result = pytester.runpytest_subprocess("-p", "no:unraisableexception")
    result.assert_outcomes(passed=2, errors=1)
    result.stdout.fnmatch_lines(
        ["*unraisable exception(s) reported:", "*RuntimeError*raised by the garbage collector*"]
    )


def test_a_test_that_sets_its_own_unraisable_hook_keeps_what_it_records(
    pytester: pytest.Pytester,
) -> None:
    _prepare(pytester)
    pytester.makepyfile(
        """
        import sys

        class RaisesWhenCollected:
            def __del__(self):
                raise RuntimeError("expected by the test")

        def test_records_the_report_itself(monkeypatch):
            seen = []
            monkeypatch.setattr(sys, "unraisablehook", seen.append)
            RaisesWhenCollected()
            assert [type(report.exc_value) for report in seen] == [RuntimeError]
        """
    )
    result = pytester.runpytest_subprocess()
    result.assert_outcomes(passed=1)


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
