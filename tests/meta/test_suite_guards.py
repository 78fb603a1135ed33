"""The suite's own guards must be able to fail; these tests prove it."""

from __future__ import annotations

import asyncio
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from tests.children import child_env, use_child_env

pytest_plugins = ["pytester"]


def test_a_task_left_pending_fails_the_test(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    _prepare(pytester, monkeypatch)
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


def test_an_exception_never_retrieved_fails_the_test(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    _prepare(pytester, monkeypatch)
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
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    _prepare(pytester, monkeypatch)
    pytester.makepyfile(
        """
        import gc
        import sys

        class RaisesWhenCollected:
            def __init__(self, message, cyclic=False):
                self.message = message
                if cyclic:
                    self.me = self  # only a garbage collection frees it

            def __del__(self):
                raise RuntimeError(self.message)

        def test_drops_an_object_whose_finalizer_raises():
            RaisesWhenCollected("raised in __del__")

        async def test_leaves_a_cycle_for_the_final_collection():
            gc.disable()
            RaisesWhenCollected("raised by the garbage collector", cyclic=True)

        def test_restores_the_collector():
            gc.enable()

        def test_a_test_with_its_own_hook_keeps_what_it_records(monkeypatch):
            seen = []
            monkeypatch.setattr(sys, "unraisablehook", seen.append)
            RaisesWhenCollected("expected by the test")
            assert [str(report.exc_value) for report in seen] == ["expected by the test"]
        """
    )
    # With pytest's own unraisable plugin off, only the conftest guard can fail them.
    result = pytester.runpytest_subprocess("-p", "no:unraisableexception")
    result.assert_outcomes(passed=4, errors=2)
    result.stdout.fnmatch_lines(
        [
            "*unraisable exception(s) reported:",
            "*Exception ignored in*RaisesWhenCollected.__del__*RuntimeError*raised in __del__*",
        ]
    )
    result.stdout.fnmatch_lines(
        ["*unraisable exception(s) reported:", "*RuntimeError*raised by the garbage collector*"]
    )
    result.stdout.fnmatch_lines(
        [
            "ERROR *::test_drops_an_object_whose_finalizer_raises*",
            "ERROR *::test_leaves_a_cycle_for_the_final_collection*",
        ]
    )


def test_a_test_id_holding_an_address_stops_the_run_at_collection(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    _prepare(pytester, monkeypatch)
    pytester.makepyfile(
        """
        import pytest

        def helper():
            pass

        @pytest.mark.parametrize("value", [helper], ids=str)
        def test_named_by_an_address(value):
            pass

        @pytest.mark.parametrize("value", [helper], ids=["helper"])
        def test_named_by_a_name(value):
            pass
        """
    )
    result = pytester.runpytest_subprocess("--collect-only", "-q")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.re_match_lines(
        [
            r"ERROR: 1 test id\(s\) hold an object's address",
            r"  \S+::test_named_by_an_address\[<function helper at 0x[0-9a-f]+>\]$",
        ]
    )


def test_a_run_started_with_sigint_ignored_gives_its_children_the_default_back(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    _prepare(pytester, monkeypatch)
    pytester.makepyfile(
        """
        import signal, subprocess, sys

        PROBE = (
            "import signal; "
            "print(signal.getsignal(signal.SIGINT) is signal.default_int_handler)"
        )

        def test_sigint_is_pythons_default_here_and_in_a_child():
            assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
            child = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True)
            assert child.stdout == "True\\n"
        """
    )
    # A background job of a non-interactive shell starts with SIGINT ignored.
    started = subprocess.run(
        ["bash", "-c", f"{shlex.quote(sys.executable)} -m pytest -q -p no:cacheprovider & wait $!"],
        cwd=pytester.path,
        env=child_env(asyncio_debug=True),
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )

    assert started.returncode == 0, started.stdout + started.stderr
    assert "1 passed" in started.stdout


async def test_the_loop_runs_in_debug_mode() -> None:
    assert asyncio.get_running_loop().get_debug()


def _prepare(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    """Give the inner run this suite's conftest and asyncio settings, in debug mode.

    These inner runs are about the guards, which need debug mode; nothing of
    this run (its pytest-xdist worker, its options) reaches them.
    """
    use_child_env(monkeypatch, asyncio_debug=True)
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
