"""Provides ``course``: runs the command in-process."""

import pytest

from tests.course_cli.helpers import CourseRunner


@pytest.fixture
def course(capsys: pytest.CaptureFixture[str]) -> CourseRunner:
    """Runs ``main(argv)`` in-process and returns its status, stdout and stderr."""
    return CourseRunner(capsys)
