"""Provides ``kind``: each transport test runs on the recorded rig and on the live one."""

import pytest

from tests.course_http.helpers import RigKind


@pytest.fixture(params=["recorded", "live"])
def kind(request: pytest.FixtureRequest) -> RigKind:
    """``"recorded"`` (no socket at all) or ``"live"`` (a loopback server on 127.0.0.1)."""
    value: RigKind = request.param
    return value
