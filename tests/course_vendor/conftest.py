"""Provides ``kind`` here too (the shared vendor tests run on the recorded and the live rig),
and ``site``, a folder of made-up vendor distributions."""

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.course_http.conftest import kind
from tests.course_vendor.plugins import MadeUpSite

__all__ = ["kind", "site"]


@pytest.fixture
def site(tmp_path: Path) -> Iterator[MadeUpSite]:
    """A folder of made-up distributions, off ``sys.path`` again when the test ends."""
    made = MadeUpSite(tmp_path / "site")
    yield made
    made.forget()
