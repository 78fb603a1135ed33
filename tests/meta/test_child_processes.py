"""Every child process the suite starts gets `tests.children.child_env`, without asyncio debug."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.children import ASYNCIO_DEBUG, child_env

TESTS = Path(__file__).resolve().parents[1]

# The calls that start a process, by the module they are called on.
_STARTERS = {
    "subprocess": {"run", "Popen", "call", "check_call", "check_output", "getoutput"},
    "asyncio": {"create_subprocess_exec", "create_subprocess_shell"},
    "os": {"system", "popen", "spawnv", "spawnve", "execv", "execve", "posix_spawn"},
}
# pytester's children copy os.environ, which `use_child_env` sets for the test.
_PYTESTER_STARTERS = {"runpytest_subprocess", "spawn_pytest", "spawn", "popen"}
_PROBE = "import asyncio; print(asyncio.new_event_loop().get_debug())"


def _parent_of_a_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ASYNCIO_DEBUG, "1")
    monkeypatch.setenv("PYTEST_ADDOPTS", "-n 2")
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw1")
    monkeypatch.setenv("PYTEST_XDIST_WORKER_COUNT", "2")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-parent")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://parent.invalid")
    monkeypatch.setenv("COURSE_KEPT", "kept")


def test_a_child_env_leaves_out_asyncio_debug_and_what_belongs_to_the_parent_run(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _parent_of_a_run(monkeypatch)

    env = child_env()

    left_out = {
        ASYNCIO_DEBUG,
        "PYTEST_ADDOPTS",
        "PYTEST_XDIST_WORKER",
        "PYTEST_XDIST_WORKER_COUNT",
        "ANTHROPIC_API_KEY",
        "OPENAI_BASE_URL",
    }
    assert left_out & set(env) == set()
    assert env["COURSE_KEPT"] == "kept"
    assert env["PATH"] == os.environ["PATH"]


def test_a_child_env_asked_for_debug_mode_has_it_and_overrides_come_last(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _parent_of_a_run(monkeypatch)
    monkeypatch.delenv(ASYNCIO_DEBUG)

    env = child_env({"ANTHROPIC_API_KEY": "sk-test", "COURSE_KEPT": "changed"}, asyncio_debug=True)

    assert env[ASYNCIO_DEBUG] == "1"
    assert (env["ANTHROPIC_API_KEY"], env["COURSE_KEPT"]) == ("sk-test", "changed")
    assert "OPENAI_BASE_URL" not in env


@pytest.mark.parametrize(("asyncio_debug", "shown"), [(False, "False\n"), (True, "True\n")])
def test_a_child_runs_its_event_loops_in_debug_mode_only_when_asked(
    monkeypatch: pytest.MonkeyPatch, asyncio_debug: bool, shown: str
) -> None:
    monkeypatch.setenv(ASYNCIO_DEBUG, "1")

    completed = subprocess.run(
        [sys.executable, "-c", _PROBE],
        env=child_env(asyncio_debug=asyncio_debug),
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )

    assert completed.stdout == shown


def _starts_a_process(call: ast.Call) -> bool:
    function = call.func
    if not isinstance(function, ast.Attribute):
        return False
    owner = function.value
    return isinstance(owner, ast.Name) and function.attr in _STARTERS.get(owner.id, set())


def _uses_pytester_child(call: ast.Call) -> bool:
    return isinstance(call.func, ast.Attribute) and call.func.attr in _PYTESTER_STARTERS


def _problems(where: str, source: str) -> list[str]:
    tree = ast.parse(source)
    calls = [node for node in ast.walk(tree) if isinstance(node, ast.Call)]
    names = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    problems = []
    for call in calls:
        if _starts_a_process(call):
            if not any(keyword.arg == "env" for keyword in call.keywords):
                problems.append(f"{where}:{call.lineno}: starts a process without env=")
            elif "child_env" not in names:
                problems.append(f"{where}:{call.lineno}: env= does not come from child_env")
        elif _uses_pytester_child(call) and "use_child_env" not in names:
            problems.append(f"{where}:{call.lineno}: a pytester child without use_child_env")
    return problems


def test_every_process_the_suite_starts_gets_its_environment_from_child_env() -> None:
    sources = {
        str(path.relative_to(TESTS.parent)): path.read_text(encoding="utf-8")
        for path in sorted(TESTS.rglob("*.py"))
    }

    assert [problem for where, text in sources.items() for problem in _problems(where, text)] == []
    # The scan reads the modules that start children (it would pass on none).
    assert {where for where, text in sources.items() if "subprocess" in text} >= {
        "tests/course_cli/test_serve_sdks.py",
        "tests/docs/test_real_provider_guide.py",
        "tests/course_pytest/projects.py",
        "tests/meta/test_suite_guards.py",
    }


@pytest.mark.parametrize(
    ("source", "problem"),
    [
        ("import subprocess\nsubprocess.run(['true'])\n", "starts a process without env="),
        (
            "import os, subprocess\nsubprocess.Popen(['true'], env=dict(os.environ))\n",
            "env= does not come from child_env",
        ),
        (
            "import asyncio\nasyncio.create_subprocess_exec('true')\n",
            "starts a process without env=",
        ),
        ("import os\nos.system('true')\n", "starts a process without env="),
        (
            "def test(pytester):\n    pytester.runpytest_subprocess()\n",
            "a pytester child without use_child_env",
        ),
    ],
    ids=["no-env", "os-environ", "asyncio", "os-system", "pytester"],
)
def test_the_scan_finds_a_process_started_without_child_env(source: str, problem: str) -> None:
    assert _problems("planted.py", source) == [f"planted.py:2: {problem}"]
