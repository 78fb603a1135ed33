"""Provides ``kind`` here too: the shared vendor tests run on the recorded and the live rig."""

from tests.course_http.conftest import kind

__all__ = ["kind"]
