"""Separate pytest projects for the plugin's tests: written to a folder, run in a subprocess.

This suite runs with ``-p no:course``; a project here has its own
``pytest.ini``, so pytest loads the plugin from its entry point, as in a
user's project. `run_pytest` runs one project (async, so a loopback server
of the calling test can answer it) and reads each test's outcome from the
JUnit XML report.
"""

from __future__ import annotations

import asyncio
import sys
import xml.etree.ElementTree as ElementTree
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from course_http import RecordedResponse
from course_http.loopback import LoopbackRequest
from tests.children import child_env
from tests.course_vendor.wires import WIRES

# The workspace's other pytest plugins (hypothesis, anyio) are not the
# plugin's dependencies, and would double each run's start-up time.
PYTEST_INI = """\
[pytest]
addopts = -p no:hypothesispytest -p no:anyio --import-mode=importlib
asyncio_mode = strict
asyncio_default_fixture_loop_scope = function
filterwarnings = error
"""

RUN_SECONDS = 60.0
"""Far longer than a project's run takes; only a hang ever reaches it."""

ANTHROPIC = WIRES[0]
SSE = {"content-type": "text/event-stream"}


@dataclass(frozen=True)
class Outcome:
    """One test of a project run: ``passed``, ``failed``, ``error`` or ``skipped``, and why."""

    result: str
    message: str


@dataclass(frozen=True)
class Run:
    """A project run: its exit status, output, and each test's outcomes by test name.

    A test with a failing teardown has two outcomes (``passed`` then ``error``).
    """

    status: int
    output: str
    outcomes: Mapping[str, tuple[Outcome, ...]]

    def results(self, test: str) -> tuple[str, ...]:
        return tuple(outcome.result for outcome in self.outcomes.get(test, ()))

    def message(self, test: str) -> str:
        return "\n".join(outcome.message for outcome in self.outcomes.get(test, ()))


def write_project(root: Path, files: Mapping[str, str]) -> None:
    """A project at ``root``: a ``pytest.ini`` and ``files`` (relative path: text)."""
    (root / "pytest.ini").write_text(PYTEST_INI)
    for name, text in files.items():
        target = root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)


async def run_pytest(
    root: Path,
    *arguments: str,
    env: Mapping[str, str] | None = None,
    seconds: float = RUN_SECONDS,
) -> Run:
    """Run ``python -m pytest ARGUMENTS`` in ``root``; bounded by ``seconds`` (`RUN_SECONDS`)."""
    return await finish(await start_pytest(root, *arguments, env=env), seconds=seconds)


@dataclass(frozen=True)
class Started:
    """A project run under way: its process, and where its JUnit report goes."""

    process: asyncio.subprocess.Process
    report: Path


async def start_pytest(
    root: Path, *arguments: str, env: Mapping[str, str] | None = None, report: str = "report.xml"
) -> Started:
    """Start ``python -m pytest ARGUMENTS`` in ``root``, output piped; `finish` it.

    ``report`` names its JUnit report in ``root`` (runs at once need one each).
    """
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        f"--junitxml={root / report}",
        *arguments,
        cwd=root,
        env=child_env(env),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    return Started(process, root / report)


async def read_until(started: Started, text: str) -> str:
    """The run's output up to the line holding ``text``, or to its end; bounded by `RUN_SECONDS`."""
    assert started.process.stdout is not None
    lines: list[str] = []
    try:
        async with asyncio.timeout(RUN_SECONDS):
            while line := (await started.process.stdout.readline()).decode():
                lines.append(line)
                if text in line:
                    break
    except TimeoutError:
        await _killed(started.process)
        raise
    return "".join(lines)


async def finish(started: Started, *, read: str = "", seconds: float = RUN_SECONDS) -> Run:
    """Wait for the run to end (``read``: its output read already); bounded by ``seconds``."""
    process = started.process
    try:
        async with asyncio.timeout(seconds):
            output, _ = await process.communicate()
    except TimeoutError:
        await _killed(process)
        raise
    assert process.returncode is not None
    return Run(process.returncode, read + output.decode(), _outcomes(started.report))


async def _killed(process: asyncio.subprocess.Process) -> None:
    process.kill()
    await process.wait()


def _outcomes(report: Path) -> dict[str, tuple[Outcome, ...]]:
    outcomes: dict[str, list[Outcome]] = {}
    if not report.exists():
        return {}
    for case in ElementTree.parse(report).getroot().iter("testcase"):
        found = outcomes.setdefault(case.attrib["name"], [])
        problems = [child for child in case if child.tag in ("failure", "error", "skipped")]
        if not problems:
            found.append(Outcome("passed", ""))
        for problem in problems:
            result = {"failure": "failed", "error": "error", "skipped": "skipped"}[problem.tag]
            text = (problem.attrib.get("message") or "") + "\n" + (problem.text or "")
            if found == [] and result == "error" and "teardown" in text:
                found.append(Outcome("passed", ""))
            found.append(Outcome(result, text))
    return {name: tuple(items) for name, items in outcomes.items()}


def answer_to(request: LoopbackRequest) -> RecordedResponse:
    """The loopback "vendor": a text answer naming the sum asked for, or echoing the question."""
    question = request.json()["messages"][-1]["content"][0]["text"]  # type: ignore[index]
    text = "42" if "20 + 22" in question else f"you said: {question}"
    return RecordedResponse(200, SSE, ANTHROPIC.text_body(text))
