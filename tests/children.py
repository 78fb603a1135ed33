"""The environment of every child process the suite starts: `child_env`.

The suite runs its own event loops in asyncio debug mode
(``PYTHONASYNCIODEBUG=1``, set by the Makefile and ``tests/conftest.py``). A
child that inherited the variable would run in debug mode too, and debug
mode writes to standard error whatever it finds slow (``Executing <Task ...>
took 0.13 seconds``): on a busy machine that lands in output a test compares
line by line. So a child runs in debug mode only when its test is about
debug mode and asks for it.

Nor does a child see what belongs to this run alone: the options and the
pytest-xdist worker identity of the parent pytest (a child pytest run would
take them as its own), or a vendor's key or base URL (nothing reaches a real
API, and a test sets the ones its child needs).
"""

from __future__ import annotations

import os
from collections.abc import Mapping

import pytest

__all__ = ["ASYNCIO_DEBUG", "child_env", "use_child_env"]

ASYNCIO_DEBUG = "PYTHONASYNCIODEBUG"

_PARENT_ONLY = ("PYTEST_ADDOPTS",)
_PARENT_ONLY_PREFIXES = ("PYTEST_XDIST_", "ANTHROPIC_", "OPENAI_")


def child_env(
    overrides: Mapping[str, str] | None = None, *, asyncio_debug: bool = False
) -> dict[str, str]:
    """A copy of this process's environment for a child process, then ``overrides``.

    Without ``asyncio_debug`` the copy has no ``PYTHONASYNCIODEBUG``; with it,
    the variable is ``1`` whatever the parent has. ``PYTEST_ADDOPTS`` and
    every ``PYTEST_XDIST_*``, ``ANTHROPIC_*`` and ``OPENAI_*`` variable are
    left out either way; ``overrides`` is applied last, so a test can set any
    of them for its child. Raises nothing.
    """
    environment = {
        name: value
        for name, value in os.environ.items()
        if name != ASYNCIO_DEBUG
        and name not in _PARENT_ONLY
        and not name.startswith(_PARENT_ONLY_PREFIXES)
    }
    if asyncio_debug:
        environment[ASYNCIO_DEBUG] = "1"
    environment.update(overrides or {})
    return environment


def use_child_env(monkeypatch: pytest.MonkeyPatch, *, asyncio_debug: bool = False) -> None:
    """Make ``os.environ`` `child_env` until the test ends, for children it cannot give an env.

    ``pytester.runpytest_subprocess`` copies ``os.environ`` into its child;
    ``monkeypatch`` restores every variable at teardown.
    """
    wanted = child_env(asyncio_debug=asyncio_debug)
    for name in set(os.environ) - set(wanted):
        monkeypatch.delenv(name)
    for name, value in wanted.items():
        monkeypatch.setenv(name, value)
