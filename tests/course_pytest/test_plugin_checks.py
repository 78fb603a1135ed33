"""What the plugin refuses before any test runs: a bad record mode, a wrong marker.

Each a real ``pytest`` run of a small project in a subprocess.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.course_pytest.projects import PYTEST_INI, run_pytest, write_project

CASSETTE_TESTS = """\
import pytest


@pytest.mark.asyncio
async def test_one(course_cassette):
    pass


@pytest.mark.asyncio
async def test_two(course_cassette):
    pass
"""

USAGE_ERROR = 4
INTERRUPTED = 2


@pytest.mark.parametrize("flag", [(), ("--course-record-mode=none",)], ids=["ini", "flag wins"])
async def test_a_bad_record_mode_in_the_ini_is_one_usage_error_before_any_test_runs(
    tmp_path: Path, flag: tuple[str, ...]
) -> None:
    write_project(
        tmp_path,
        {
            "pytest.ini": PYTEST_INI + "course_record_mode = sometimes\n",
            "tests/test_agent.py": CASSETTE_TESTS,
        },
    )

    run = await run_pytest(tmp_path, *flag, "tests")

    assert run.status == USAGE_ERROR, run.output
    message = (
        "ERROR: the course_record_mode ini option must be one of none, once, new_episodes, "
        "all, not 'sometimes'"
    )
    assert run.output.count(message) == 1, run.output
    assert run.outcomes == {}, "no test ran"


async def test_a_marker_that_says_something_wrong_fails_the_collection_naming_the_test(
    tmp_path: Path,
) -> None:
    write_project(
        tmp_path,
        {
            "tests/test_name.py": (
                "import pytest\n\n\n"
                '@pytest.mark.course_cassette("bad name!")\n'
                "def test_bad_name(course_cassette):\n"
                "    pass\n"
            ),
            "tests/test_ignore.py": (
                "import pytest\n\n\n"
                "class TestChat:\n"
                '    @pytest.mark.course_cassette(ignore=["messages[0"])\n'
                '    @pytest.mark.parametrize("turns", [1, 2])\n'
                "    def test_bad_ignore(self, course_cassette, turns):\n"
                "        pass\n"
            ),
            "tests/test_agent.py": CASSETTE_TESTS,
        },
    )

    run = await run_pytest(tmp_path, "tests")

    assert run.status == INTERRUPTED, run.output
    assert "ERROR collecting tests/test_name.py" in run.output
    assert "test_bad_name: course_cassette name 'bad name!' must be letters" in run.output
    assert "ERROR collecting tests/test_ignore.py" in run.output
    assert "test_bad_ignore[1]: JSON path 'messages[0'" in run.output, run.output
    assert "Interrupted: 2 errors during collection" in run.output
    assert run.results("test_one") == (), "nothing ran"
