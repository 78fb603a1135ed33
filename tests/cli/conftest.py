"""Puts the repository root on ``sys.path`` (for ``tests.cli.helpers``) and provides ``course``."""

import sys
from pathlib import Path

import pytest

_REPO_ROOT = str(Path(__file__).resolve().parents[2])
if _REPO_ROOT not in sys.path:
    sys.path.insert(0, _REPO_ROOT)

from tests.cli.helpers import CourseRunner  # noqa: E402 (needs the path above)


@pytest.fixture
def course(capsys: pytest.CaptureFixture[str]) -> CourseRunner:
    """Runs ``main(argv)`` in-process and returns its status, stdout and stderr."""
    return CourseRunner(capsys)
